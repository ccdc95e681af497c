//! What every report carries besides its own findings: its diagnostics, and the file they are
//! about (kept, not serialized, so that a front end can show each diagnostic in its text).

use serde::Serialize;

use super::Source;
use crate::diagnostic::Diagnostic;

/// A report's diagnostics and the file read. Reports embed it flattened: their JSON has
/// `diagnostics` as a field of their own.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
#[non_exhaustive]
pub struct Located {
    /// Every diagnostic, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// The file read, for showing diagnostics in its text (`None`: nothing was read, or the
    /// diagnostics are about the arguments).
    #[serde(skip)]
    pub source: Option<Source>,
}

impl Located {
    /// `diagnostics` about `source`.
    pub fn new(diagnostics: Vec<Diagnostic>, source: Option<Source>) -> Located {
        Located { diagnostics, source }
    }

    /// Each diagnostic about the file given its line and column in its text.
    pub fn locate(&mut self) {
        if let Some(source) = &self.source {
            self.diagnostics.iter_mut().for_each(|d| source.locate_diagnostic(d));
        }
    }
}
