//! The operation's path with its parameters put in, as `parsePathWithParameters` does.

use serde_json::{Map, Value};

use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::js;
use crate::ois::rules::{placeholder_matches, placeholders};

/// Longest path substitution will build (far beyond any URL a server accepts).
const MAX_PATH: usize = 65_536;

/// `parsePathWithParameters`: each `{x}` replaced (first occurrence, `String.replace` semantics,
/// unencoded) when its value is truthy; any `{…}` left afterwards is an error.
pub(super) fn substitute_path(
    template: &str,
    values: &Map<String, Value>,
    at: &str,
    warnings: &mut Vec<Diagnostic>,
) -> Result<String, Diagnostic> {
    let mut path = template.to_owned();
    for (matched, name) in placeholder_matches(template) {
        let Some(value) = values.get(name).filter(|v| js::is_truthy(v)) else { continue };
        let value = js::string(value);
        // The multiplexing operation of feeds by name, `/{path}`, is there to take a path.
        let multiplexing =
            template == crate::ois::feeds::FEED_OPERATION_PATH && name == crate::ois::feeds::PATH_PARAMETER;
        let changes = if multiplexing { value.contains(['?', '#']) } else { value.contains(['/', '?', '#']) };
        if changes {
            warnings.push(
                Diagnostic::new(
                    Code::PathValueChangesUrl,
                    at,
                    format!(
                        "the value \"{value}\" for {{{name}}} is inserted unencoded and changes the URL's structure"
                    ),
                )
                .with_help(
                    "the node does not encode path values; percent-encode it yourself if that is not what you mean",
                ),
            );
        }
        // The match itself is replaced (`{{id}` in `/x/{{id}}`), as `String.replace(match, value)`.
        if let Some(start) = path.find(matched) {
            let replacement = js_replacement(&value, &path, start, matched.len());
            path.replace_range(start..start + matched.len(), &replacement);
        }
        // `$`` and `$'` copy the path into itself, so a few values can grow it without bound.
        if path.len() > MAX_PATH {
            return Err(Diagnostic::new(
                Code::InvalidRequestUrl,
                at,
                format!("substituting the path values makes the path longer than {MAX_PATH} bytes"),
            )
            .with_help("a value with $`, $' or $& is expanded by the node's String.replace; remove those patterns"));
        }
    }
    let missing = placeholders(&path);
    if !missing.is_empty() {
        let names: Vec<String> = missing.iter().map(|m| format!("'{m}'")).collect();
        return Err(Diagnostic::new(
            Code::MissingPathValue,
            at,
            format!("The following path parameters were expected but not provided: {}", names.join(", ")),
        )
        .with_help("empty values and 0 count as missing, as in the node")
        .with_fix(Fix::GiveParameters));
    }
    Ok(path)
}

/// `String.prototype.replace` replacement patterns: `$$`, `$&`, `` $` ``, `$'`.
fn js_replacement(value: &str, subject: &str, start: usize, length: usize) -> String {
    let mut out = String::new();
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if out.len() > MAX_PATH {
            // The caller refuses a path this long; stop copying.
            break;
        }
        if c != '$' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('$') => out.push('$'),
            Some('&') => out.push_str(subject.get(start..start + length).unwrap_or_default()),
            Some('`') => out.push_str(subject.get(..start).unwrap_or_default()),
            Some('\'') => out.push_str(subject.get(start + length..).unwrap_or_default()),
            _ => {
                out.push('$');
                continue;
            }
        }
        chars.next();
    }
    out
}
