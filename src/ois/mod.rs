//! The OIS side: the model the converter writes, the rules every OIS must follow, the reserved
//! parameters as the node reads them, and the kinds of file OIS objects come in.

mod config_kind;
pub mod credential;
pub mod document;
pub mod feeds;
pub mod model;
pub(crate) mod reserved;
pub mod rules;
pub mod schema;
pub mod templates;

pub use config_kind::ConfigKind;
pub use document::{Chosen, DocumentKind, OisDocument, oises_in, oises_in_file, oises_in_files};
pub use model::FormatFamily;
