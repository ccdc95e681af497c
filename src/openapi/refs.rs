//! `$ref` resolution over a document and the files it refers to: RFC 6901 pointers with `~0`/`~1`
//! escapes and percent-encoding, `$ref`s to other files followed into them, chains followed to
//! their end, cycles and dead ends reported as diagnostics at the `$ref` that failed.

use std::borrow::Cow;

use serde_json::Value;

use super::files::Files;
use crate::diagnostic::{Code, Diagnostic, Document, Location};

/// How many `$ref`s one chain may follow before it is called a cycle.
const MAX_CHAIN: usize = 64;

/// A value after following its `$ref` chain, and where it lives: borrowed from the caller when
/// there was no `$ref` (most values: the place is not copied for them).
#[derive(Clone, Debug)]
pub struct Resolved<'a, 'l> {
    /// The value at the end of the chain.
    pub value: &'a Value,
    /// Its document and pointer.
    pub location: Cow<'l, Location>,
}

/// Follows `$ref`s in a document and the files it refers to.
#[derive(Clone, Copy, Debug)]
pub struct Resolver<'a> {
    root: &'a Value,
    files: Option<&'a Files>,
    /// The document's own URI (OpenAPI 3.2 `$self`): a reference to it is local.
    own: Option<&'a str>,
}

impl<'a> Resolver<'a> {
    /// A resolver for a document on its own: a `$ref` to another file is reported, not followed.
    pub fn new(root: &'a Value) -> Self {
        Resolver { root, files: None, own: own_uri(root) }
    }

    /// A resolver for a document and the files its `$ref`s pulled in.
    pub fn with_files(root: &'a Value, files: &'a Files) -> Self {
        Resolver { root, files: Some(files), own: own_uri(root) }
    }

    /// Whether the parameters it reaches are in their Swagger 2.0 shape
    /// ([`Files::parameters_in_2_0_shape`]).
    pub fn parameters_in_2_0_shape(&self) -> bool {
        self.files.is_some_and(Files::parameters_in_2_0_shape)
    }

    /// Follows `value`'s `$ref` chain (if any). `at` is where `value` itself lives; diagnostics
    /// point at the `$ref` that failed and name it.
    pub fn resolve<'l>(&self, value: &'a Value, at: &'l Location) -> Result<Resolved<'a, 'l>, Diagnostic> {
        let mut current = Resolved { value, location: Cow::Borrowed(at) };
        // The places already passed through (the use site included: a ref to its own holder is a
        // cycle too). Built only by moving locations, and only for chains of more than one step.
        let mut seen: Vec<Location> = Vec::new();
        while let Some(reference) = current.value.as_object().and_then(|o| o.get("$ref")) {
            let here = || current.location.join(["$ref"]);
            let Some(reference) = reference.as_str() else {
                return Err(Diagnostic::new(Code::RefMalformed, here(), "`$ref` is not a string"));
            };
            let target = self.target(reference, &current.location.document).map_err(|mut error| {
                // Reported where the `$ref` is, not in the file it failed to reach.
                error.location = here();
                error
            })?;
            if target == *current.location || seen.contains(&target) || seen.len() >= MAX_CHAIN {
                return Err(Diagnostic::new(
                    Code::RefCycle,
                    here(),
                    format!("`$ref: {reference}` leads back to itself (a cycle of `$ref`s)"),
                )
                .with_help("break the cycle: one of these `$ref`s must point at a real definition"));
            }
            let Some(value) = self.lookup(&target) else {
                let place = match target.document {
                    Document::Input => format!("the document ({})", target.pointer),
                    _ => "its file".to_owned(),
                };
                return Err(Diagnostic::new(
                    Code::RefMissing,
                    here(),
                    format!("`$ref: {reference}` points at nothing: there is no such place in {place}"),
                )
                .with_help("check the spelling of the reference, or add the missing definition"));
            };
            let previous = std::mem::replace(&mut current, Resolved { value, location: Cow::Owned(target) });
            // Most chains end after one step; only a longer one needs to remember where it was.
            if value.get("$ref").is_some() {
                seen.push(previous.location.into_owned());
            }
        }
        Ok(current)
    }

    /// The place a reference found in `from` names, or a diagnostic for references this tool
    /// cannot follow. Its diagnostics carry no location: `resolve` gives them the `$ref`'s.
    fn target(&self, reference: &str, from: &Document) -> Result<Location, Diagnostic> {
        let at = "";
        let (location, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let document = if location.is_empty() || self.own == Some(location) {
            from.clone()
        } else {
            if crate::source::is_url(location) {
                return Err(Diagnostic::new(
                    Code::RefUrl,
                    at,
                    format!("`$ref: {reference}` points at a URL; this tool never uses the network"),
                )
                .with_help("download the referenced document and bundle it into this one"));
            }
            match self.files.and_then(|files| files.link(from, location)) {
                Some(Ok(index)) => Document::Referenced(*index),
                Some(Err(error)) => return Err(error.clone()),
                None => {
                    return Err(Diagnostic::new(
                        Code::RefExternal,
                        at,
                        format!("`$ref: {reference}` points into another file, which is not read here"),
                    )
                    .with_help("convert the document from its file, so the files it refers to can be read"));
                }
            }
        };
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
        if !crate::pointer::is_valid(&decoded) {
            return Err(Diagnostic::new(
                Code::RefMalformed,
                at,
                format!("`$ref: {reference}` uses an escape other than ~0 and ~1"),
            ));
        }
        Ok(Location::new(document, decoded.into_owned()))
    }

    /// The value at `location`, if there is one (RFC 6901: array indices are plain decimals, so
    /// `01` and `+1` name nothing).
    pub fn lookup(&self, location: &Location) -> Option<&'a Value> {
        let document = match location.document {
            Document::Input => {
                let found = crate::pointer::lookup(self.root, &location.pointer);
                return found.or_else(|| self.files?.in_unparsed(&location.pointer));
            }
            Document::Referenced(index) => self.files?.value(index)?,
            _ => return None,
        };
        crate::pointer::lookup(document, &location.pointer)
    }
}

fn own_uri(root: &Value) -> Option<&str> {
    root.get("$self").and_then(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn resolve(root: &Value, reference: &str) -> Result<String, Code> {
        let holder = json!({"$ref": reference});
        Resolver::new(root)
            .resolve(&holder, &"/here".into())
            .map(|r| r.location.into_owned().pointer)
            .map_err(|d| d.code)
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
        let err = Resolver::new(&root).resolve(&holder, &"/paths/~1x/get".into()).unwrap_err();
        assert_eq!(err.pointer(), "/paths/~1x/get/$ref");
        assert!(err.message.contains("#/components/schemas/Gone"));
    }
}
