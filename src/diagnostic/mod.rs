//! One diagnostic type for every stage, and its rendering.
//!
//! Every code is stable: scripts and docs refer to it, so a code is never reused for a different
//! problem. Severity is a property of the code, so the same problem is always reported the same way.

mod codes;
mod render;

use serde::Serialize;

pub use codes::Code;
pub use render::{RenderStyle, render};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Information: a decision the tool made that the user may want to know about.
    Note,
    /// Something was dropped or changed; the output is still valid.
    Warning,
    /// The input (or this part of it) could not be used.
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A problem or decision, anchored at a JSON pointer in some document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    /// RFC 6901 pointer into the document the diagnostic is about ("" is the root).
    pub pointer: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// Display name of the file the pointer refers to, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based line and column of `pointer` in `file`, filled in by [`Diagnostic::locate_in`].
    pub line: Option<usize>,
    pub column: Option<usize>,
}

impl Diagnostic {
    pub fn new(code: Code, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            pointer: pointer.into(),
            message: message.into(),
            help: None,
            file: None,
            line: None,
            column: None,
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Sets an explicit position (used where the parser itself reported it).
    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// Names the file and, when not already known, finds the pointer's line and column in it.
    pub fn locate_in(&mut self, source: &crate::source::Source) {
        if self.file.is_none() {
            self.file = Some(source.name.clone());
        }
        if self.line.is_none()
            && let Some((line, column)) = source.locate(&self.pointer)
        {
            self.line = Some(line);
            self.column = Some(column);
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Counts by severity, for summaries and exit codes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
}

impl Counts {
    pub fn of(diagnostics: &[Diagnostic]) -> Self {
        let mut counts = Counts::default();
        for diagnostic in diagnostics {
            match diagnostic.severity {
                Severity::Error => counts.errors += 1,
                Severity::Warning => counts.warnings += 1,
                Severity::Note => counts.notes += 1,
            }
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn codes_are_unique_and_well_formed() {
        let mut seen = HashSet::new();
        for code in Code::ALL {
            let text = code.as_str();
            assert!(seen.insert(text), "duplicate code {text}");
            assert_eq!(text.len(), 6, "{text}");
            assert!(text[3..].chars().all(|c| c.is_ascii_digit()), "{text}");
            assert!(!code.summary().is_empty());
        }
    }
}
