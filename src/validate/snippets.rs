//! Processing snippets, read with the engine (nothing of theirs runs but a V2 `value`'s own
//! expression, in the sandbox): code that does not parse, a V2 `value` that is not a function, a
//! V1 snippet that never produces its result.

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::pointer;
use crate::processing::{self, EndpointProcessing, Environment, FailureKind, Specification};

/// What the node would fail on when it runs one OIS object's snippets; pointers are relative to it.
/// Evaluating V2 `value`s (to see each is a function) spends `budget`, the OIS's whole.
pub(super) fn check(ois: &Value, budget: &mut std::time::Duration) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let Some(endpoints) = ois.get("endpoints").and_then(Value::as_array) else { return diagnostics };
    for (index, endpoint) in endpoints.iter().enumerate() {
        let at = pointer::join("/endpoints", [index.to_string().as_str()]);
        let processing = EndpointProcessing::of(endpoint, &at);
        for specification in [&processing.pre, &processing.post].into_iter().flatten() {
            let v2 = matches!(specification, Specification::V2(_));
            for snippet in specification.snippets() {
                if let Err(failure) = processing::check_snippet_within(snippet, v2, budget) {
                    diagnostics.push(not_runnable(failure, v2, &snippet.pointer));
                } else if !v2 && !processing::mentions_its_result(snippet) {
                    let (name, what) = match snippet.environment {
                        Environment::Node => ("output", "never assigns `output`"),
                        Environment::NodeAsync => ("resolve", "never calls `resolve`"),
                    };
                    diagnostics.push(
                        Diagnostic::new(
                            Code::NoSnippetResult,
                            snippet.pointer.as_str(),
                            format!("the snippet {what}: the node fails when it runs it"),
                        )
                        .with_help(format!(
                            "end it with `{}`",
                            if name == "output" { "const output = …;" } else { "resolve(…);" }
                        )),
                    );
                }
            }
        }
    }
    diagnostics
}

fn not_runnable(failure: processing::Failure, v2: bool, at: &str) -> Diagnostic {
    let place = failure.line_column.map(|(l, c)| format!(" (line {l}, column {c} of the snippet)")).unwrap_or_default();
    let message = match failure.kind {
        FailureKind::Syntax => format!("{}{place}", failure.message),
        _ if v2 => {
            format!("a V2 `value` must be a function expression, and this one is not: {}{place}", failure.message)
        }
        _ => format!("{}{place}", failure.message),
    };
    let help = if v2 {
        "write it as `({ endpointParameters }) => …` (pre) or `({ response, endpointParameters }) => …` (post)"
    } else {
        "the node runs it as a script: fix it so that it parses"
    };
    Diagnostic::new(Code::SnippetUnrunnable, at, message).with_help(help)
}
