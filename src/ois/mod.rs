//! The OIS side: the model the converter writes and the rules every OIS must follow.

pub mod model;
pub mod rules;

pub use model::FormatFamily;
