//! `$ref` resolution inside one document: RFC 6901 pointers with `~0`/`~1` escapes and
//! percent-encoding, chains followed to their end, cycles and dead ends reported as diagnostics.

use serde_json::Value;

use super::bundle::Files;
use crate::diagnostic::{Code, Diagnostic, Location};

/// How many `$ref`s one chain may follow before it is called a cycle.
const MAX_CHAIN: usize = 64;

/// A value after following its `$ref` chain, and the pointer where it lives.
#[derive(Clone, Debug)]
pub struct Resolved<'a> {
    /// The value at the end of the chain.
    pub value: &'a Value,
    /// Where it lives.
    pub pointer: String,
}

/// Follows `$ref`s in one (possibly bundled) document.
#[derive(Clone, Copy, Debug)]
pub struct Resolver<'a> {
    root: &'a Value,
    files: Option<&'a Files>,
}

impl<'a> Resolver<'a> {
    /// A resolver for a document without bundled files.
    pub fn new(root: &'a Value) -> Self {
        Resolver { root, files: None }
    }

    /// A resolver for a bundled document: its broken `$ref`s are explained by `files`.
    pub fn bundled(root: &'a Value, files: &'a Files) -> Self {
        Resolver { root, files: Some(files) }
    }

    /// Follows `value`'s `$ref` chain (if any). `pointer` is where `value` itself lives; diagnostics
    /// point at the `$ref` that failed and name it.
    pub fn resolve(&self, value: &'a Value, pointer: &str) -> Result<Resolved<'a>, Diagnostic> {
        let mut current = Resolved { value, pointer: pointer.to_owned() };
        // The pointers already passed through (the use site included: a ref to its own holder is
        // a cycle too). Built only by moving strings, so a plain value costs nothing more.
        let mut seen: Vec<String> = Vec::new();
        while let Some(reference) = current.value.as_object().and_then(|o| o.get("$ref")) {
            let at = || format!("{}/$ref", current.pointer);
            let Some(rewritten) = reference.as_str() else {
                return Err(Diagnostic::new(Code::RefMalformed, at(), "`$ref` is not a string"));
            };
            // Bundled refs keep their original text for messages.
            let original = current.value.get(super::bundle::ORIGINAL_KEY).and_then(Value::as_str);
            let reference = original.unwrap_or(rewritten);
            let target = self.target(rewritten).map_err(|mut error| {
                error.location.pointer = at();
                error
            })?;
            if let Some(mut broken) = self.files.and_then(|files| files.broken(&target)) {
                // Reported where the `$ref` is, not in the file it failed to reach.
                broken.location = Location::input(at());
                return Err(broken);
            }
            if target == current.pointer || seen.contains(&target) || seen.len() >= MAX_CHAIN {
                return Err(Diagnostic::new(
                    Code::RefCycle,
                    at(),
                    format!("`$ref: {reference}` leads back to itself (a cycle of `$ref`s)"),
                )
                .with_help("break the cycle: one of these `$ref`s must point at a real definition"));
            }
            let Some(value) = self.lookup(&target) else {
                let place = if original.is_some() { "its file".to_owned() } else { format!("the document ({target})") };
                return Err(Diagnostic::new(
                    Code::RefMissing,
                    at(),
                    format!("`$ref: {reference}` points at nothing: there is no such place in {place}"),
                )
                .with_help("check the spelling of the reference, or add the missing definition"));
            };
            let previous = std::mem::replace(&mut current, Resolved { value, pointer: target });
            seen.push(previous.pointer);
        }
        Ok(current)
    }

    /// The pointer a local reference names, or a diagnostic for references this tool cannot follow.
    /// Its diagnostics carry no pointer: `resolve` builds the `$ref`'s only when one fails.
    fn target(&self, reference: &str) -> Result<String, Diagnostic> {
        let at = "";
        let (location, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        // OpenAPI 3.2: a reference to the document's own `$self` URI is local.
        let own = self.root.get("$self").and_then(Value::as_str).is_some_and(|own| own == location);
        if !location.is_empty() && !own {
            let lower = location.to_ascii_lowercase();
            return Err(if lower.contains("://") || lower.starts_with("//") {
                Diagnostic::new(
                    Code::RefUrl,
                    at,
                    format!("`$ref: {reference}` points at a URL; this tool never uses the network"),
                )
                .with_help("download the referenced document and bundle it into this one")
            } else {
                Diagnostic::new(
                    Code::RefExternal,
                    at,
                    format!("`$ref: {reference}` points into another file, which is not supported yet"),
                )
                .with_help("bundle the document into one file first (e.g. `redocly bundle`)")
            });
        }
        let decoded = percent_encoding::percent_decode_str(fragment).decode_utf8().map_err(|_| {
            Diagnostic::new(Code::RefMalformed, at, format!("`$ref: {reference}` is not valid percent-encoded UTF-8"))
        })?;
        if !decoded.is_empty() && !decoded.starts_with('/') {
            return Err(Diagnostic::new(
                Code::RefMalformed,
                at,
                format!("`$ref: {reference}` is not a JSON pointer (it should look like #/components/schemas/Name)"),
            ));
        }
        if crate::pointer::tokens(&decoded).is_none() {
            return Err(Diagnostic::new(
                Code::RefMalformed,
                at,
                format!("`$ref: {reference}` uses an escape other than ~0 and ~1"),
            ));
        }
        Ok(decoded.into_owned())
    }

    /// The value at `pointer`, if there is one (RFC 6901: array indices are plain decimals, so `01`
    /// and `+1` name nothing).
    pub fn lookup(&self, pointer: &str) -> Option<&'a Value> {
        self.root.pointer(pointer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn resolve(root: &Value, reference: &str) -> Result<String, Code> {
        let holder = json!({"$ref": reference});
        Resolver::new(root).resolve(&holder, "/here").map(|r| r.pointer).map_err(|d| d.code)
    }

    #[test]
    fn follows_chains_with_escapes_and_percent_encoding() {
        let root = json!({
            "paths": {"/a/{id}": {"get": {}}},
            "components": {"schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"type": "string"}, "C D": {}}}
        });
        assert_eq!(resolve(&root, "#/components/schemas/A"), Ok("/components/schemas/B".into()));
        assert_eq!(resolve(&root, "#/paths/~1a~1%7Bid%7D/get"), Ok("/paths/~1a~1{id}/get".into()));
        assert_eq!(resolve(&root, "#/components/schemas/C%20D"), Ok("/components/schemas/C D".into()));
        assert_eq!(resolve(&root, "#"), Ok("".into()));
        let with_self = json!({"$self": "https://example.com/api.yaml", "a": {}});
        assert_eq!(resolve(&with_self, "https://example.com/api.yaml#/a"), Ok("/a".into()));
    }

    #[test]
    fn reports_what_cannot_be_followed() {
        let root = json!({"a": {"$ref": "#/b"}, "b": {"$ref": "#/a"}, "s": {"$ref": "#/s"}});
        assert_eq!(resolve(&root, "#/a"), Err(Code::RefCycle));
        assert_eq!(resolve(&root, "#/s"), Err(Code::RefCycle));
        assert_eq!(resolve(&root, "#/nope"), Err(Code::RefMissing));
        assert_eq!(resolve(&root, "https://example.com/x.json#/a"), Err(Code::RefUrl));
        assert_eq!(resolve(&root, "other.yaml#/a"), Err(Code::RefExternal));
        assert_eq!(resolve(&root, "#a"), Err(Code::RefMalformed));
        assert_eq!(resolve(&root, "#/a~2"), Err(Code::RefMalformed));
        assert_eq!(resolve(&root, "#/%ff"), Err(Code::RefMalformed));
        let list = json!({"l": [{"x": 1}, {"x": 2}]});
        assert_eq!(resolve(&list, "#/l/1"), Ok("/l/1".into()));
        assert_eq!(resolve(&list, "#/l/01"), Err(Code::RefMissing));
        assert_eq!(resolve(&list, "#/l/+1"), Err(Code::RefMissing));
    }

    #[test]
    fn missing_target_names_the_ref_and_where_it_was_used() {
        let root = json!({});
        let holder = json!({"$ref": "#/components/schemas/Gone"});
        let err = Resolver::new(&root).resolve(&holder, "/paths/~1x/get").unwrap_err();
        assert_eq!(err.pointer(), "/paths/~1x/get/$ref");
        assert!(err.message.contains("#/components/schemas/Gone"));
    }
}
