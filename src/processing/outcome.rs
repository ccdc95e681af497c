//! What running a phase gives: the processed value, or why the node would fail the call.

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Fix};

/// At most this many `console` lines are kept per phase (the rest are counted).
pub const MAX_LOG_LINES: usize = 200;

/// A phase that ran.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Processed {
    /// Pre: the endpoint parameters (an object). Post: the response; `None` when it is
    /// `undefined`.
    pub value: Option<Value>,
    /// The `timestamp` a V2 post-processing snippet returned.
    pub timestamp: Option<u64>,
    /// What the snippets wrote with `console.log` and its siblings, one entry per call.
    pub logs: Vec<String>,
}

/// Why a phase failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The snippet does not parse.
    Syntax,
    /// The snippet threw, or rejected.
    Threw,
    /// It ran past its `timeoutMs` or the phase's time, or never settled.
    Timeout,
    /// It returned the wrong shape.
    Shape,
    /// It returned a value JSON cannot carry.
    NotSerialisable,
    /// It used a Node.js module the embedded engine does not have.
    NodeBuiltin,
    /// The engine could not run it (no `node`, memory limit).
    Engine,
}

impl FailureKind {
    fn code(self) -> Code {
        match self {
            FailureKind::Syntax => Code::ProcessingSyntax,
            FailureKind::Threw => Code::ProcessingThrew,
            FailureKind::Timeout => Code::ProcessingTimeout,
            FailureKind::Shape => Code::ProcessingShape,
            FailureKind::NotSerialisable => Code::ProcessingValue,
            FailureKind::NodeBuiltin => Code::NodeBuiltin,
            FailureKind::Engine => Code::ProcessingEngine,
        }
    }
}

/// A phase that failed: the node fails the call the same way.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// What went wrong.
    pub kind: FailureKind,
    /// The engine's message (`TypeError: …`), or ours.
    pub message: String,
    /// The pointer of the snippet's `value` in the OIS, when one snippet is to blame.
    pub pointer: Option<String>,
    /// Line and column inside the snippet, 1-based, when the engine gives them.
    pub line_column: Option<(u32, u32)>,
    /// What the snippets logged before failing.
    pub logs: Vec<String>,
}

impl Failure {
    pub(crate) fn new(kind: FailureKind, message: impl Into<String>) -> Self {
        Failure { kind, message: message.into(), pointer: None, line_column: None, logs: Vec::new() }
    }

    pub(crate) fn at(mut self, pointer: &str) -> Self {
        self.pointer.get_or_insert_with(|| pointer.to_owned());
        self
    }

    /// The failure as a diagnostic located at the snippet (or the endpoint, `fallback`).
    pub fn to_diagnostic(&self, fallback: &str) -> Diagnostic {
        let place = match self.line_column {
            Some((line, column)) => format!(" (line {line}, column {column} of the snippet)"),
            None => String::new(),
        };
        let message = format!("{}{place}", self.message);
        let diagnostic = Diagnostic::new(self.kind.code(), self.pointer.as_deref().unwrap_or(fallback), message);
        match self.kind {
            FailureKind::NodeBuiltin => diagnostic.with_fix(Fix::UseNodeEngine),
            FailureKind::Engine => diagnostic,
            FailureKind::NotSerialisable => diagnostic
                .with_help("return what JSON can hold: finite numbers, strings, booleans, null, arrays and objects (a BigInt as a decimal string)"),
            _ => diagnostic.with_help("the node fails the call the same way: it returns no value"),
        }
    }
}

/// Finds `snippet.js:LINE:COLUMN` (or `snippet.js:LINE`) in an engine's stack text, the first
/// frame in the snippet. `line_offset` lines of wrapper come before the snippet's first line.
pub(crate) fn locate_in_stack(stack: &str, file: &str, line_offset: u32) -> Option<(u32, u32)> {
    let start = stack.find(file)? + file.len();
    let rest = stack.get(start..)?.strip_prefix(':')?;
    let digits = |text: &str| -> Option<(u32, usize)> {
        let end = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
        Some((text.get(..end)?.parse().ok()?, end))
    };
    let (line, used) = digits(rest)?;
    let column = rest.get(used..).and_then(|r| r.strip_prefix(':')).and_then(digits).map_or(1, |(c, _)| c);
    let line = line.checked_sub(line_offset).filter(|l| *l > 0)?;
    Some((line, column))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stack_frame_is_read_relative_to_the_snippet() {
        assert_eq!(locate_in_stack("    at <eval> (snippet.js:3:7)\n", "snippet.js", 1), Some((2, 7)));
        assert_eq!(locate_in_stack("snippet.js:4\nconst a = ;\n", "snippet.js", 0), Some((4, 1)));
        assert_eq!(locate_in_stack("    at snippet.js:1:5", "snippet.js", 1), None);
        assert_eq!(locate_in_stack("at other.js:1:5", "snippet.js", 0), None);
    }
}
