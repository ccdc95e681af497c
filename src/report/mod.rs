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

use crate::diagnostic::Diagnostic;
use crate::source::Source;

/// A job's report as a front end prints it: its diagnostics are settled in place first (each
/// fix named in the front end's words, each located in the text it is about), then the report is
/// serialized with them and their counts ([`machine::with_diagnostics`]). Every report a command
/// prints as JSON is one, so a diagnostic has one shape in every output.
pub trait Diagnosed: serde::Serialize {
    /// Its diagnostics, to be settled in place, and the text they are about (when one was read).
    fn diagnostics_mut(&mut self) -> (&mut [Diagnostic], Option<&Source>);
}

/// [`Diagnosed`] for reports that keep their diagnostics in a `located` field.
#[macro_export]
#[doc(hidden)]
macro_rules! diagnosed_by_located {
    ($($report:ty),* $(,)?) => {
        $(impl $crate::report::Diagnosed for $report {
            fn diagnostics_mut(&mut self) -> (&mut [$crate::Diagnostic], Option<&$crate::Source>) {
                (&mut self.located.diagnostics, self.located.source.as_ref())
            }
        })*
    };
}

/// [`Diagnosed`] for reports that keep their diagnostics in a field of that name (about no text
/// at hand) or have none.
#[macro_export]
#[doc(hidden)]
macro_rules! diagnosed_by_field {
    ($($report:ty => $field:ident),* $(,)?) => {
        $(impl $crate::report::Diagnosed for $report {
            fn diagnostics_mut(&mut self) -> (&mut [$crate::Diagnostic], Option<&$crate::Source>) {
                (&mut self.$field, None)
            }
        })*
    };
    ($($report:ty),* $(,)?) => {
        $(impl $crate::report::Diagnosed for $report {
            fn diagnostics_mut(&mut self) -> (&mut [$crate::Diagnostic], Option<&$crate::Source>) {
                (&mut [], None)
            }
        })*
    };
}
