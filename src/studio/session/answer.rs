//! What a step answers: the page's view or another result, or the refusal.

use super::*;

/// What the page failed at: the diagnostics, located and with their lines.
#[derive(Debug, Serialize)]
pub struct Refusal {
    /// Every diagnostic (the one that stopped it last).
    pub diagnostics: Vec<Placed>,
    /// More of what happened (an API's answer, what snippets logged), secrets masked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<Value>,
}

impl From<Diagnostic> for Refusal {
    fn from(diagnostic: Diagnostic) -> Self {
        Refusal { diagnostics: view::placed(vec![diagnostic], None), detail: None }
    }
}

/// What a step answers: its result, or why not.
pub type Answer = Result<Reply, Refusal>;

/// A step's result: the page's view (typed: written straight to the answer's text, never made a
/// `Value` first unless a secret held has to be masked in it), or anything else.
#[derive(Debug)]
pub enum Reply {
    /// The page's view.
    Page(Box<PageView>),
    /// The conversion's diagnostics.
    Report(Box<page::ReportView>),
    /// Any other result: one of the typed answers of `answers`, serialized.
    Value(Value),
}

impl Reply {
    /// One of the typed answers of `answers`, as it is sent.
    pub(super) fn typed(answer: &impl Serialize) -> Reply {
        Reply::Value(serde_json::to_value(answer).unwrap_or(Value::Null))
    }

    /// The result as a `Value`.
    pub fn into_value(self) -> Value {
        match self {
            Reply::Page(page) => serde_json::to_value(page).unwrap_or(Value::Null),
            Reply::Report(report) => serde_json::to_value(report).unwrap_or(Value::Null),
            Reply::Value(value) => value,
        }
    }
}

impl From<Value> for Reply {
    fn from(value: Value) -> Self {
        Reply::Value(value)
    }
}

impl From<PageView> for Reply {
    fn from(page: PageView) -> Self {
        Reply::Page(Box::new(page))
    }
}

impl Serialize for Reply {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Reply::Page(page) => page.serialize(serializer),
            Reply::Report(report) => report.serialize(serializer),
            Reply::Value(value) => value.serialize(serializer),
        }
    }
}

pub(super) fn refuse(message: impl Into<String>) -> Refusal {
    Refusal::from(Diagnostic::elsewhere(Code::BadArgument, message))
}
