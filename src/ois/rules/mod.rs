//! Every rule `@api3/ois` (2.3.x and 3.0.x) applies to an OIS object, plus the format text's
//! stricter rules, each with its own code. Works on the JSON tree (a [`Tape`]) so hand-edited files
//! of any shape get a diagnostic per problem rather than one deserialization error, and so a
//! generated OIS is checked as it serializes without first becoming a `Value`.
//!
//! `root` checks the top level, `api` the `apiSpecifications`, `endpoint` each endpoint; `text`
//! holds the string rules (semver, whitespace, placeholders) the real validator applies.

mod api;
mod endpoint;
pub(crate) mod tables;
mod tape;
pub(crate) mod text;

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::ois::model::{FormatFamily, Ois};
use endpoint::Endpoints;
use tables::Fields;
pub(crate) use tape::Tape;
use tape::{Array, Node, Object};

pub(crate) use text::{MAX_TITLE, is_path_key, is_semver, is_title};
pub use text::{is_http_token, placeholder_matches, placeholders};

/// Checks one OIS object. `family` forces a format family; by default it comes from `oisFormat`.
pub fn check(ois: &Value, family: Option<FormatFamily>) -> Vec<Diagnostic> {
    match Tape::of(ois) {
        Ok(tape) => check_tape(&tape, family),
        // A `Value`'s keys are strings, so this cannot happen; were it to, it would not pass.
        Err(error) => vec![Diagnostic::new(Code::WrongType, "", format!("the OIS could not be read: {error}"))],
    }
}

/// [`check`] of an OIS already serialized as a tape.
fn check_tape(ois: &Tape, family: Option<FormatFamily>) -> Vec<Diagnostic> {
    let mut checker = Checker { diagnostics: Vec::new(), family: family.unwrap_or(FormatFamily::V3_0) };
    if let Some((declared, endpoints)) = checker.root(ois.root(), family) {
        checker.endpoints(Endpoints::<Value>::Listed(endpoints), At::ROOT.key("endpoints"), &declared);
    }
    checker.diagnostics
}

/// [`check`] of a typed OIS as it serializes, never made one `Value` or one tape: the top level
/// is serialized without its endpoints, and each endpoint when the check gets to it.
pub(crate) fn check_model(ois: &Ois, family: FormatFamily) -> Result<Vec<Diagnostic>, tape::Error> {
    let head = Tape::without(ois, "endpoints")?;
    let mut checker = Checker { diagnostics: Vec::new(), family };
    if let Some((declared, _)) = checker.root(head.root(), Some(family)) {
        checker.endpoints(Endpoints::Serialized(&ois.endpoints), At::ROOT.key("endpoints"), &declared);
    }
    Ok(checker.diagnostics)
}

/// Where a value is, as a chain of borrowed tokens: building one costs nothing, and the JSON
/// pointer text is made only when a diagnostic needs it.
#[derive(Clone, Copy)]
pub(super) struct At<'p> {
    parent: Option<&'p At<'p>>,
    token: Token<'p>,
}

#[derive(Clone, Copy)]
enum Token<'p> {
    Root,
    Key(&'p str),
    Index(usize),
}

impl<'p> At<'p> {
    pub const ROOT: At<'static> = At { parent: None, token: Token::Root };

    pub fn key(&'p self, key: &'p str) -> At<'p> {
        At { parent: Some(self), token: Token::Key(key) }
    }

    pub fn index(&'p self, index: usize) -> At<'p> {
        At { parent: Some(self), token: Token::Index(index) }
    }

    pub fn pointer(&self) -> String {
        let mut tokens = Vec::new();
        let mut current = Some(self);
        while let Some(at) = current {
            tokens.push(at.token);
            current = at.parent;
        }
        let mut pointer = String::new();
        for token in tokens.iter().rev() {
            match token {
                Token::Root => {}
                Token::Key(key) => crate::pointer::push(&mut pointer, key),
                Token::Index(index) => crate::pointer::push(&mut pointer, &index.to_string()),
            }
        }
        pointer
    }
}

pub(super) struct Checker {
    diagnostics: Vec<Diagnostic>,
    family: FormatFamily,
}

impl Checker {
    fn report(&mut self, code: Code, at: At<'_>, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::new(code, at.pointer(), message));
    }

    fn help(&mut self, code: Code, at: At<'_>, message: impl Into<String>, help: impl Into<String>) {
        self.diagnostics.push(Diagnostic::new(code, at.pointer(), message).with_help(help));
    }

    /// The object at `at`, or a type error. Unknown keys and missing required keys (as `fields`
    /// has them) are reported.
    fn object<'v>(&mut self, value: Node<'v>, at: At<'_>, fields: &Fields) -> Option<Object<'v>> {
        let Fields { what, allowed, required } = fields;
        let object = self.typed(value, at, what, "an object", Node::as_object)?;
        for key in object.keys() {
            if !allowed.contains(&key) {
                self.help(
                    Code::UnknownField,
                    at.key(key),
                    format!("{what} does not allow the field \"{key}\""),
                    format!("remove it; allowed fields: {}", allowed.join(", ")),
                );
            }
        }
        for key in *required {
            if !object.contains_key(key) {
                self.report(Code::MissingField, at, format!("{what} is missing the required field \"{key}\""));
            }
        }
        Some(object)
    }

    /// `get(value)`, or a type error saying what `what` must be.
    fn typed<'v, T>(
        &mut self,
        value: Node<'v>,
        at: At<'_>,
        what: &str,
        expected: &str,
        get: impl Fn(Node<'v>) -> Option<T>,
    ) -> Option<T> {
        let got = get(value);
        if got.is_none() {
            let message = format!("{what} must be {expected}, not {}", value.kind());
            self.report(Code::WrongType, at, message);
        }
        got
    }

    /// A map with free keys (paths, scheme names): only its type is checked here.
    fn record<'v>(&mut self, value: Node<'v>, at: At<'_>, what: &str) -> Option<Object<'v>> {
        self.typed(value, at, what, "an object", Node::as_object)
    }

    fn string<'v>(&mut self, value: Option<Node<'v>>, at: At<'_>, what: &str) -> Option<&'v str> {
        self.typed(value?, at, what, "a string", Node::as_str)
    }

    fn array<'v>(&mut self, value: Option<Node<'v>>, at: At<'_>, what: &str) -> Option<Array<'v>> {
        self.typed(value?, at, what, "an array", Node::as_array)
    }

    fn one_of<'v>(&mut self, value: Option<Node<'v>>, at: At<'_>, what: &str, allowed: &[&str]) -> Option<&'v str> {
        self.one_of_as(Code::BadEnumValue, value, at, what, allowed)
    }

    /// An `in` field: its own code, since a wrong location is the most common slip.
    fn location<'v>(&mut self, value: Option<Node<'v>>, at: At<'_>, allowed: &[&str]) -> Option<&'v str> {
        self.one_of_as(Code::BadLocation, value, at, "`in`", allowed)
    }

    fn one_of_as<'v>(
        &mut self,
        code: Code,
        value: Option<Node<'v>>,
        at: At<'_>,
        what: &str,
        allowed: &[&str],
    ) -> Option<&'v str> {
        let text = self.string(value, at, what)?;
        if allowed.contains(&text) {
            Some(text)
        } else {
            let message = format!("{what} is \"{text}\"; it must be one of: {}", allowed.join(", "));
            self.report(code, at, message);
            None
        }
    }

    /// `default`, `example` and reserved `fixed` must be strings in every version.
    fn string_only(&mut self, value: Option<Node<'_>>, at: At<'_>, key: &str) {
        if let Some(value) = value
            && !value.is_string()
        {
            let suggestion = value.to_string().replace('"', "\\\"");
            self.help(
                Code::NotAString,
                at,
                format!("`{key}` must be a string, not {}", value.kind()),
                format!("write it as the string \"{suggestion}\""),
            );
        }
    }

    /// The top level and `apiSpecifications`; what the endpoints are checked against, and the
    /// endpoints, when `endpoints` is a list.
    fn root<'v>(&mut self, ois: Node<'v>, forced: Option<FormatFamily>) -> Option<(api::Declared<'v>, Array<'v>)> {
        let at = At::ROOT;
        let root = self.object(ois, at, &tables::ROOT)?;
        if let Some(format) = self.string(root.get("oisFormat"), at.key("oisFormat"), "`oisFormat`") {
            self.ois_format(format, forced);
        }
        if let Some(title) = self.string(root.get("title"), at.key("title"), "`title`")
            && !text::is_title(title)
        {
            self.help(
                Code::BadTitle,
                at.key("title"),
                format!("title \"{title}\" must be 1-64 characters of ASCII letters, digits, `_`, `-` and spaces"),
                "remove dots, slashes and non-ASCII letters",
            );
        }
        if let Some(version) = self.string(root.get("version"), at.key("version"), "`version`")
            && !text::is_semver(version, self.family)
        {
            self.help(
                Code::BadVersion,
                at.key("version"),
                format!("version \"{version}\" must be x.y.z with numeric parts"),
                "for example \"1.0.0\"; no `v` prefix or pre-release tag",
            );
        }
        let mut declared = api::Declared::default();
        if let Some(api) = root.get("apiSpecifications") {
            self.api_specifications(api, at.key("apiSpecifications"), &mut declared);
        }
        let endpoints = self.array(root.get("endpoints"), at.key("endpoints"), "`endpoints`")?;
        Some((declared, endpoints))
    }

    fn ois_format(&mut self, format: &str, forced: Option<FormatFamily>) {
        let at = At::ROOT;
        let at = at.key("oisFormat");
        match (forced, FormatFamily::of(format)) {
            (None, Some(family)) => self.family = family,
            (Some(forced), Some(family)) if forced == family => {}
            (Some(forced), _) => {
                let wanted = forced.default_version();
                self.help(
                    Code::BadOisFormat,
                    at,
                    format!("oisFormat \"{format}\" is not of the {wanted} family this check was asked for"),
                    format!("set \"oisFormat\": \"{wanted}\""),
                );
                return;
            }
            (None, None) => {
                self.help(
                    Code::BadOisFormat,
                    at,
                    format!("oisFormat \"{format}\" is not supported"),
                    "use \"2.3.2\" (Airnode 0.15, Airnode Feed ≤ 3.3) or \"3.0.0\" (Airnode Feed 4.x)",
                );
                return;
            }
        }
        if !text::is_semver(format, self.family) {
            self.report(Code::BadOisFormat, at, format!("oisFormat \"{format}\" must be x.y.z with numeric parts"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An OIS with `count` endpoints of one operation, endpoint `i` named `e{i}`.
    fn many_endpoints(count: usize) -> Value {
        let endpoints: Vec<Value> = (0..count)
            .map(|i| {
                serde_json::json!({
                    "name": format!("e{i}"),
                    "operation": {"method": "get", "path": "/x"},
                    "fixedOperationParameters": [],
                    "reservedParameters": [{"name": "_type", "fixed": "int256"}],
                    "parameters": [],
                })
            })
            .collect();
        serde_json::json!({
            "oisFormat": "3.0.0",
            "title": "Many",
            "version": "1.0.0",
            "apiSpecifications": {
                "servers": [{"url": "https://api.example.com"}],
                "paths": {"/x": {"get": {"parameters": []}}},
                "components": {"securitySchemes": {}},
                "security": {},
            },
            "endpoints": endpoints,
        })
    }

    /// What `check` finds in `ois`, as (code, pointer) in order.
    fn codes_and_pointers(ois: &Value) -> Vec<(Code, String)> {
        check(ois, None).into_iter().map(|d| (d.code, d.location.pointer)).collect()
    }

    #[test]
    fn endpoints_checked_in_parallel_report_in_document_order() {
        let mut ois = many_endpoints(700);
        let endpoints = ois["endpoints"].as_array_mut().unwrap();
        endpoints[600]["name"] = "e3".into();
        endpoints[600]["extra"] = true.into();
        endpoints[257]["parameters"] = Value::Null;
        endpoints[2] = Value::Null;
        let found = codes_and_pointers(&ois);
        assert_eq!(
            found,
            [
                (Code::WrongType, "/endpoints/2".to_owned()),
                (Code::WrongType, "/endpoints/257/parameters".to_owned()),
                (Code::UnknownField, "/endpoints/600/extra".to_owned()),
                (Code::DuplicateEndpointName, "/endpoints/600/name".to_owned()),
            ]
        );
    }

    #[test]
    fn paths_checked_in_parallel_report_in_document_order_and_declare_every_operation() {
        let mut ois = many_endpoints(3);
        let paths: serde_json::Map<String, Value> =
            (0..100).map(|i| (format!("/p{i}"), serde_json::json!({"get": {"parameters": []}}))).collect();
        ois["apiSpecifications"]["paths"] = Value::Object(paths);
        ois["apiSpecifications"]["paths"]["/p2"]["get"]["parameters"] =
            serde_json::json!([{"in": "query", "name": "_type"}]);
        ois["apiSpecifications"]["paths"]["/p97"]["put"] = serde_json::json!({"parameters": []});
        // Endpoints of the first and the last path item find their operation.
        ois["endpoints"][0]["operation"]["path"] = "/p0".into();
        ois["endpoints"][1]["operation"]["path"] = "/p99".into();
        ois["endpoints"][2]["operation"]["path"] = "/nope".into();
        let found = codes_and_pointers(&ois);
        assert_eq!(
            found,
            [
                (Code::ReservedOperationParameter, "/apiSpecifications/paths/~1p2/get/parameters/0/name".to_owned()),
                (Code::BadMethod, "/apiSpecifications/paths/~1p97/put".to_owned()),
                (Code::UnknownOperation, "/endpoints/2/operation".to_owned()),
            ]
        );
    }

    #[test]
    fn pointers_are_built_only_from_tokens() {
        let root = At::ROOT;
        let paths = root.key("paths");
        let item = paths.key("/a/{id}");
        let param = item.index(3);
        assert_eq!(param.pointer(), "/paths/~1a~1{id}/3");
        assert_eq!(At::ROOT.pointer(), "");
    }
}
