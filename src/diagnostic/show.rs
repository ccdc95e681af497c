//! Which diagnostics a text report shows in full: every front end and the conversion pipeline
//! (which locates only those) agree on it.

use std::collections::BTreeMap;

use super::{Code, Diagnostic, Severity};

/// How many of one code a text report shows in full unless asked for all.
pub const PER_CODE: usize = 3;

/// Which diagnostics a text report shows in full.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Show {
    /// The least severity shown.
    pub min: Severity,
    /// At most this many of each code in full (`None`: all).
    pub per_code: Option<usize>,
}

impl Show {
    /// Every diagnostic in full.
    pub const ALL: Show = Show { min: Severity::Note, per_code: None };

    /// Diagnostics at or above `min`: all of them when `verbose`, else [`PER_CODE`] of each code.
    pub fn new(min: Severity, verbose: bool) -> Show {
        Show { min, per_code: (!verbose).then_some(PER_CODE) }
    }

    /// For each diagnostic, whether it is shown in full.
    pub fn mask(&self, diagnostics: &[Diagnostic]) -> Vec<bool> {
        let mut seen: BTreeMap<Code, usize> = BTreeMap::new();
        diagnostics
            .iter()
            .map(|diagnostic| {
                if diagnostic.severity < self.min {
                    return false;
                }
                let count = seen.entry(diagnostic.code).or_default();
                *count += 1;
                self.per_code.is_none_or(|limit| *count <= limit)
            })
            .collect()
    }
}
