//! The credentials an OpenAPI document's security requires of a request, as the places each
//! scheme puts one (a query parameter, a header, a cookie): what `ois mock` asks of a request
//! before it answers, as the vendor would.

use serde_json::Value;

/// Where a request carries a credential a security scheme asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CredentialPlace {
    /// A query parameter.
    Query(String),
    /// A header (`Authorization` for HTTP and OAuth schemes).
    Header(String),
    /// A cookie.
    Cookie(String),
}

impl std::fmt::Display for CredentialPlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CredentialPlace::Query(name) => write!(f, "query \"{}\"", crate::emit::printable(name)),
            CredentialPlace::Header(name) => write!(f, "header \"{}\"", crate::emit::printable(name)),
            CredentialPlace::Cookie(name) => write!(f, "cookie \"{}\"", crate::emit::printable(name)),
        }
    }
}

impl CredentialPlace {
    fn is_in(&self, url: &str, headers: &[(String, String)]) -> bool {
        let header = |name: &str| headers.iter().find(|(given, _)| given.eq_ignore_ascii_case(name)).map(|(_, v)| v);
        match self {
            CredentialPlace::Query(name) => url::Url::parse(url)
                .is_ok_and(|url| url.query_pairs().any(|(given, value)| given == *name && !value.is_empty())),
            CredentialPlace::Header(name) => header(name).is_some_and(|value| !value.trim().is_empty()),
            CredentialPlace::Cookie(name) => header("cookie").is_some_and(|cookies| {
                cookies.split(';').any(|pair| pair.split_once('=').is_some_and(|(given, _)| given.trim() == name))
            }),
        }
    }
}

/// The credential a request to `url` with `headers` lacks under `security` (any one of its sets,
/// each whole): the first missing of the first set; `None` when one set is whole, or none is
/// required.
pub(super) fn missing(security: &[Vec<CredentialPlace>], url: &str, headers: &[(String, String)]) -> Option<String> {
    let first = security.first()?;
    if security.iter().any(|set| set.iter().all(|place| place.is_in(url, headers))) {
        return None;
    }
    first.iter().find(|place| !place.is_in(url, headers)).map(ToString::to_string)
}

/// The credential sets `operation` requires (its own `security`, else the document's), each
/// scheme as the place it puts its credential; an empty requirement (`{}`) makes them optional.
pub(super) fn required(root: &Value, operation: &Value) -> Vec<Vec<CredentialPlace>> {
    let schemes = root.pointer("/components/securitySchemes").or_else(|| root.get("securityDefinitions"));
    let required = operation.get("security").or_else(|| root.get("security")).and_then(Value::as_array);
    let place = |name: &str| -> Option<CredentialPlace> {
        let scheme = schemes?.get(name)?;
        let text = |key: &str| scheme.get(key).and_then(Value::as_str).unwrap_or_default();
        match text("type") {
            "apiKey" => match text("in") {
                "query" => Some(CredentialPlace::Query(text("name").to_owned())),
                "header" => Some(CredentialPlace::Header(text("name").to_owned())),
                "cookie" => Some(CredentialPlace::Cookie(text("name").to_owned())),
                _ => None,
            },
            "http" | "basic" | "oauth2" | "openIdConnect" => Some(CredentialPlace::Header("Authorization".to_owned())),
            _ => None,
        }
    };
    let mut sets = Vec::new();
    for requirement in required.into_iter().flatten() {
        let Some(names) = requirement.as_object() else { continue };
        if names.is_empty() {
            return Vec::new();
        }
        // A scheme this cannot place (mutual TLS, say) is one the mock does not ask for.
        sets.push(names.keys().filter_map(|name| place(name)).collect::<Vec<_>>());
    }
    if sets.iter().any(Vec::is_empty) { Vec::new() } else { sets }
}
