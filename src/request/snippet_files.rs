//! Processing snippets as `.js` files, to edit with a real editor, and back into the OIS.
//!
//! [`extract`] gives each snippet's code as the node runs it: the node interpolates secrets over
//! its whole config first, so a `\${` in the OIS is a `${` in the code. [`embed`] puts code back
//! with every `${` escaped, so that the interpolation gives back exactly the code in the file.
//! File names say where a snippet goes: `pre.v2.js`, `post.v2.js`, `pre.v1.0.js`, … (V1 lists by
//! position).

use serde_json::{Value, json};

use super::{Secrets, find_endpoint};
use crate::diagnostic::{Code, Diagnostic};
use crate::ois::templates::escape;

/// A V2 snippet added by [`embed`] gets this `timeoutMs`.
pub const NEW_SNIPPET_TIMEOUT_MS: u64 = 5_000;

/// One snippet as a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnippetFile {
    /// The file name: `pre.v2.js`, `post.v1.0.js`, ….
    pub name: String,
    /// The code, as the node runs it.
    pub code: String,
    /// The pointer of the snippet's `value` in the OIS.
    pub pointer: String,
}

/// Where a file name puts its snippet: the endpoint key and, for V1, the list position.
fn place(name: &str) -> Option<(&'static str, Option<usize>)> {
    let stem = name.strip_suffix(".js")?;
    let (phase, rest) = stem.split_once('.')?;
    let prefix = match phase {
        "pre" => "pre",
        "post" => "post",
        _ => return None,
    };
    if rest == "v2" {
        return Some((
            if prefix == "pre" { "preProcessingSpecificationV2" } else { "postProcessingSpecificationV2" },
            None,
        ));
    }
    let index = rest.strip_prefix("v1.")?.parse().ok()?;
    Some((if prefix == "pre" { "preProcessingSpecifications" } else { "postProcessingSpecifications" }, Some(index)))
}

/// Every processing snippet of `endpoint`, as files holding the code the node runs.
pub fn extract(ois: &Value, endpoint: &str) -> Result<Vec<SnippetFile>, Diagnostic> {
    let (index, found) = find_endpoint(ois, endpoint)?;
    let at = format!("/endpoints/{index}");
    let none = Secrets::from_values([]);
    let mut files = Vec::new();
    for phase in ["pre", "post"] {
        let v2 = format!("{phase}ProcessingSpecificationV2");
        let v1 = format!("{phase}ProcessingSpecifications");
        let mut add = |name: String, item: &Value, pointer: String| -> Result<(), Diagnostic> {
            let Some(value) = item.get("value").and_then(Value::as_str) else { return Ok(()) };
            // A `${NAME}` the node would fill (or fail on) cannot be shown as code: say so.
            let code = none.interpolate(value, &pointer)?;
            files.push(SnippetFile { name, code, pointer });
            Ok(())
        };
        if let Some(item) = found.get(&v2) {
            add(format!("{phase}.v2.js"), item, format!("{at}/{v2}/value"))?;
        }
        for (position, item) in found.get(&v1).and_then(Value::as_array).into_iter().flatten().enumerate() {
            add(format!("{phase}.v1.{position}.js"), item, format!("{at}/{v1}/{position}/value"))?;
        }
    }
    Ok(files)
}

/// Puts `files` (name, code) into `endpoint` of `ois`, escaped for the node's interpolation. A
/// `pre.v2.js` / `post.v2.js` the endpoint lacks adds that V2 specification; a V1 file must name
/// a snippet the list has. Returns the pointers written, in the order of `files`.
pub fn embed(ois: &mut Value, endpoint: &str, files: &[(String, String)]) -> Result<Vec<String>, Diagnostic> {
    let (index, _) = find_endpoint(ois, endpoint)?;
    let at = format!("/endpoints/{index}");
    let mut written = Vec::new();
    for (name, code) in files {
        let Some((key, position)) = place(name) else {
            return Err(Diagnostic::elsewhere(
                Code::BadArgument,
                format!("{name}: not a snippet file name (pre.v2.js, post.v2.js, pre.v1.0.js, post.v1.1.js, …)"),
            ));
        };
        let escaped = escape(code).unwrap_or_else(|| code.clone());
        let endpoint_value = ois.pointer_mut(&at).and_then(Value::as_object_mut);
        let Some(endpoint_value) = endpoint_value else { break };
        let pointer = match position {
            None => {
                let item = endpoint_value.entry(key).or_insert_with(
                    || json!({"environment": "Node", "value": "", "timeoutMs": NEW_SNIPPET_TIMEOUT_MS}),
                );
                if let Some(item) = item.as_object_mut() {
                    item.insert("value".to_owned(), Value::String(escaped));
                }
                format!("{at}/{key}/value")
            }
            Some(position) => {
                let slot = endpoint_value
                    .get_mut(key)
                    .and_then(Value::as_array_mut)
                    .and_then(|list| list.get_mut(position))
                    .and_then(Value::as_object_mut);
                let Some(slot) = slot else {
                    return Err(Diagnostic::elsewhere(
                        Code::BadArgument,
                        format!("{name}: endpoint \"{endpoint}\" has no {key}[{position}] to put it in"),
                    )
                    .with_help("add the V1 snippet to the OIS first (environment, value, timeoutMs)"));
                };
                slot.insert("value".to_owned(), Value::String(escaped));
                format!("{at}/{key}/{position}/value")
            }
        };
        written.push(pointer);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ois() -> Value {
        json!({"endpoints": [{"name": "feed",
            "preProcessingSpecifications": [{"environment": "Node", "value": "const output = `\\${input.a}`;", "timeoutMs": 10}],
            "postProcessingSpecificationV2": {"environment": "Node", "value": "({ response }) => ({ response })", "timeoutMs": 10}}]})
    }

    #[test]
    fn extracts_the_code_the_node_runs_and_embeds_it_back_unchanged() {
        let files = extract(&ois(), "feed").unwrap();
        let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["pre.v1.0.js", "post.v2.js"]);
        assert_eq!(files[0].code, "const output = `${input.a}`;");
        assert_eq!(files[0].pointer, "/endpoints/0/preProcessingSpecifications/0/value");
        let mut changed = ois();
        let back: Vec<(String, String)> = files.iter().map(|f| (f.name.clone(), f.code.clone())).collect();
        embed(&mut changed, "feed", &back).unwrap();
        assert_eq!(changed, ois());
    }

    #[test]
    fn embedding_a_new_v2_file_adds_it_and_a_missing_v1_slot_is_refused() {
        let mut changed = ois();
        let written = embed(&mut changed, "feed", &[("pre.v2.js".into(), "() => ({ endpointParameters: {} })".into())]);
        assert_eq!(written.unwrap(), ["/endpoints/0/preProcessingSpecificationV2/value"]);
        assert_eq!(changed["endpoints"][0]["preProcessingSpecificationV2"]["timeoutMs"], 5000);
        assert!(embed(&mut changed, "feed", &[("post.v1.3.js".into(), "x".into())]).is_err());
        assert!(embed(&mut changed, "feed", &[("notes.js".into(), "x".into())]).is_err());
    }
}
