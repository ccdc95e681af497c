//! Reporting, the top of the pipeline: diagnostics rendered for people (in the style of rustc),
//! the reports of a conversion or a validated file, and the conversion run with its self-check,
//! rendering and locating side by side.

mod group;
pub mod machine;
mod render;
mod summary;
mod table;

pub use crate::source::Located;
pub use group::{PER_CODE, Show};
pub use render::{RenderStyle, render};
pub use summary::{Report, counts_text, diagnostics_text, text_report, validation_report};
pub use table::Table;
