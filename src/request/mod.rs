//! The node's request for an endpoint call, built the way `@api3/airnode-node` and
//! `@api3/airnode-adapter` 0.15 build it (ground truth §2): requester parameters by endpoint
//! parameter name, defaults only in node mode, fixed parameters matched by name, credentials last,
//! path values unencoded, a GET's query serialised as axios does, a POST's as a JSON body.

mod auth;
mod body;
mod exchange;
pub(crate) mod json_text;
mod path;
pub mod paths;
mod query;
pub mod render;
mod response;
mod secrets;
mod setup;
pub mod snippet_files;

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::diagnostic::{Code, Diagnostic};
use crate::ois::model::RESERVED_NAMES;

pub use body::{JsonBody, text_and_value_disagree};
pub use exchange::{
    Answer, Exchange, HeldOis, Log, Prepared, Stopped, exchange, prepare, prepare_answer_held, prepare_held,
};
pub use json_text::Style;

/// JSON `text` written again in `style` as a value `depth` levels deep in a pretty document is
/// written, keys in the order and number the text has them: an answer's body put into a report's
/// text without building its value ([`crate::emit::splice_json`]).
pub fn restyled(text: &str, style: Style, depth: usize) -> String {
    json_text::rewritten_at(text, style, depth, &|text, _| text.to_owned())
}
pub use query::serialize_query;
pub use response::{MAX_ENCODED_SIZE, Preview, extract_and_encode, extract_and_encode_body};
pub use secrets::Secrets;
pub use setup::{Selected, check_ois, mask, mask_as, mask_body_as, mask_json_as, select, select_all};

use crate::js::{self, encode_uri_component};
use crate::node::axios;

/// Node mode applies endpoint-parameter defaults and strips reserved names (airnode-node);
/// feed mode does neither (Airnode Feed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// airnode-node: endpoint-parameter defaults applied, reserved names removed.
    #[default]
    Node,
    /// Airnode Feed: no defaults.
    Feed,
}

/// An `apiCredentials` entry, with its `${VAR}` already filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Credential {
    /// The title of the OIS it is for.
    pub ois_title: String,
    /// The security scheme it fills.
    pub scheme: String,
    /// The secret itself.
    pub value: String,
}

/// Request metadata for relay schemes (RRP requests; the HTTP gateways and Airnode Feed have none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    /// For `relayChainId`.
    pub chain_id: Option<String>,
    /// For `relayChainType` (`evm` when not given, as the node does).
    pub chain_type: Option<String>,
    /// For `relayRequesterAddress`.
    pub requester_address: Option<String>,
    /// For `relaySponsorAddress`.
    pub sponsor_address: Option<String>,
    /// For `relaySponsorWalletAddress`.
    pub sponsor_wallet_address: Option<String>,
    /// For `relayRequestId`.
    pub request_id: Option<String>,
}

impl Metadata {
    fn get(&self, scheme_type: &str) -> Option<&str> {
        match scheme_type {
            "relayChainId" => self.chain_id.as_deref(),
            // airnode-node uses `chain.type || 'evm'`.
            "relayChainType" => Some(self.chain_type.as_deref().unwrap_or("evm")),
            "relayRequesterAddress" => self.requester_address.as_deref(),
            "relaySponsorAddress" => self.sponsor_address.as_deref(),
            "relaySponsorWalletAddress" => self.sponsor_wallet_address.as_deref(),
            "relayRequestId" => self.request_id.as_deref(),
            _ => None,
        }
    }
}

/// One endpoint call: which endpoint, with what, as which node. Start from
/// [`RequestOptions::new`] and set what you need.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct RequestOptions {
    /// The endpoint's name.
    pub endpoint: String,
    /// Requester parameters in the order given.
    pub parameters: IndexMap<String, Value>,
    /// The credentials of the OIS's security schemes.
    pub credentials: Vec<Credential>,
    /// Metadata for relay schemes; `None` for a call without it (gateways, Airnode Feed).
    pub metadata: Option<Metadata>,
    /// Which node makes the call.
    pub mode: Mode,
    /// The secrets the OIS's server URL was filled with: masked wherever the call is shown.
    pub server_secrets: Vec<String>,
}

impl RequestOptions {
    /// A call of `endpoint` with no parameters, credentials or metadata, in node mode.
    pub fn new(endpoint: impl Into<String>) -> Self {
        RequestOptions { endpoint: endpoint.into(), ..RequestOptions::default() }
    }

    /// Every secret the call may carry, to be masked wherever it is shown: the credentials'
    /// values and the server URL's.
    pub fn secret_values(&self) -> Vec<String> {
        self.credentials.iter().map(|c| c.value.clone()).chain(self.server_secrets.iter().cloned()).collect()
    }
}

/// A requester parameter that is not sent, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Ignored {
    /// The parameter's name.
    pub name: String,
    /// Why the node does not send it.
    pub reason: String,
}

/// The request the node would send.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Request {
    /// `GET` or `POST`.
    pub method: &'static str,
    /// The full URL as the HTTP client sends it, query string included.
    pub url: String,
    /// Headers as they go on the wire, credentials and the Cookie header included.
    pub headers: Map<String, Value>,
    /// The headers as the adapter built them, when the HTTP client changes them before sending
    /// (a value cleaned, a name merged with another spelling of it, a `null` or `false` dropped).
    #[serde(skip_serializing_if = "Option::is_none", rename = "headersBuilt")]
    pub built_headers: Option<Map<String, Value>>,
    /// The JSON body of a POST (`null` for GET).
    pub body: Option<Value>,
    /// Requester parameters that are not sent.
    pub ignored: Vec<Ignored>,
    /// `_type`, `_path`, `_times` as the node resolves them for the response.
    pub reserved: Map<String, Value>,
    /// What about the request is worth a warning.
    #[serde(skip)]
    pub warnings: Vec<Diagnostic>,
    /// Credential values, for masking.
    #[serde(skip)]
    pub secrets: Vec<String>,
}

impl Request {
    /// A plain `GET url` with `headers`, `secrets` masked wherever it is shown (a read of a
    /// Signed API, not a node's API call).
    pub fn get(url: String, headers: Map<String, Value>, secrets: Vec<String>) -> Request {
        Request {
            method: "GET",
            url,
            headers,
            built_headers: None,
            body: None,
            ignored: Vec::new(),
            reserved: Map::new(),
            warnings: Vec::new(),
            secrets,
        }
    }

    /// Warnings about the request, and a note for every requester parameter that is not sent.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut diagnostics = self.warnings.clone();
        for ignored in &self.ignored {
            diagnostics.push(Diagnostic::new(
                Code::ParameterIgnored,
                "",
                format!("parameter \"{}\" is not sent: {}", ignored.name, ignored.reason),
            ));
        }
        diagnostics
    }
}

#[derive(Default)]
struct Buckets {
    paths: Map<String, Value>,
    query: Map<String, Value>,
    headers: Map<String, Value>,
    cookies: Map<String, Value>,
}

impl Buckets {
    fn put(&mut self, location: &str, name: &str, value: Value) {
        let bucket = match location {
            "path" => &mut self.paths,
            "query" => &mut self.query,
            "header" | "headers" => &mut self.headers,
            "cookie" | "cookies" => &mut self.cookies,
            _ => return,
        };
        bucket.insert(name.to_owned(), value);
    }
}

/// `{...a, ...b}`: b's values win, a's keys keep their place.
fn spread(into: &mut Map<String, Value>, from: Map<String, Value>) {
    for (key, value) in from {
        into.insert(key, value);
    }
}

fn text<'v>(value: &'v Value, pointer: &str) -> Option<&'v str> {
    value.pointer(pointer).and_then(Value::as_str)
}

/// Finds the endpoint called `name`: its index and the endpoint.
fn find_endpoint<'o>(ois: &'o Value, name: &str) -> Result<(usize, &'o Value), Diagnostic> {
    let endpoints = ois.get("endpoints").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    endpoints.iter().enumerate().find(|(_, e)| e.get("name").and_then(Value::as_str) == Some(name)).ok_or_else(|| {
        let names: Vec<&str> = endpoints.iter().filter_map(|e| e.get("name").and_then(Value::as_str)).collect();
        Diagnostic::new(Code::UnknownEndpoint, "/endpoints", format!("Endpoint: '{name}' not found in the OIS."))
            .with_help(format!("the endpoints are: {}", names.join(", ")))
    })
}

/// The requester parameters as the node holds them: `JSON.parse`d, in the order given.
fn requested(options: &RequestOptions) -> Map<String, Value> {
    options.parameters.iter().map(|(name, value)| (name.clone(), js::as_parsed(value))).collect()
}

/// Builds the request for `options.endpoint` of `ois` (which should pass `ois::rules::check`),
/// from the requester parameters as given (no processing: see [`exchange()`] for that).
pub fn build(ois: &Value, options: &RequestOptions) -> Result<Request, Diagnostic> {
    // The node holds the OIS and the parameters as `JSON.parse` made them.
    build_from(&js::as_parsed(ois), options, None)
}

/// Builds the request from `processed` endpoint parameters (what pre-processing returned) when
/// given, else from the requester's; the reserved parameters are always the requester's, as the
/// node reads them. `ois` is as the node holds it ([`js::as_parsed`]).
fn build_from(
    ois: &Value,
    options: &RequestOptions,
    processed: Option<&Map<String, Value>>,
) -> Result<Request, Diagnostic> {
    let (endpoint_index, endpoint) = find_endpoint(ois, &options.endpoint)?;
    let endpoint_at = format!("/endpoints/{endpoint_index}");
    let (Some(method), Some(path)) = (text(endpoint, "/operation/method"), text(endpoint, "/operation/path")) else {
        return Err(Diagnostic::new(
            Code::UnknownEndpoint,
            &endpoint_at,
            format!(
                "endpoint \"{}\" has no operation: it makes no API call (its value comes from processing)",
                options.endpoint
            ),
        ));
    };
    let operation_parameters: Vec<(&str, &str)> = ois
        .pointer("/apiSpecifications/paths")
        .and_then(|paths| paths.get(path))
        .and_then(|item| item.get(method))
        .and_then(|operation| operation.get("parameters"))
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(|p| Some((p.get("in")?.as_str()?, p.get("name")?.as_str()?))).collect())
        .unwrap_or_default();
    let base_url = text(ois, "/apiSpecifications/servers/0/url").ok_or_else(|| {
        Diagnostic::new(
            Code::InvalidRequestUrl,
            "/apiSpecifications/servers",
            "the OIS has no server (the node crashes on servers[0].url)",
        )
    })?;

    let mut ignored = Vec::new();
    let requested = requested(options);
    let reserved = reserved_values(endpoint, &requested);
    let sent = match processed {
        Some(processed) => js::as_parsed(&Value::Object(processed.clone())).as_object().cloned().unwrap_or_default(),
        None => requested,
    };
    let parameters = node_parameters(endpoint, sent, options.mode);
    let user = user_parameters(endpoint, &operation_parameters, &parameters, &mut ignored);
    let fixed = fixed_parameters(endpoint, &operation_parameters);
    let (auth, mut secrets, mut warnings) = auth::auth_parameters(ois, options);
    secrets.extend(options.server_secrets.iter().filter(|s| !secrets.contains(s)).cloned().collect::<Vec<_>>());

    // Precedence: requester < fixed < credentials; one Cookie header from all three.
    let mut cookies = user.cookies;
    spread(&mut cookies, fixed.cookies);
    spread(&mut cookies, auth.cookies);
    let mut paths = user.paths;
    spread(&mut paths, fixed.paths);
    let mut query = user.query;
    spread(&mut query, fixed.query);
    spread(&mut query, auth.query);
    let mut headers = user.headers;
    spread(&mut headers, fixed.headers);
    spread(&mut headers, auth.headers);
    // The spreads above build JavaScript objects, which enumerate index-like keys first (path
    // values are placed by the template, so their order does not matter).
    for bucket in [&mut cookies, &mut query, &mut headers] {
        js::order_keys(bucket);
    }
    if !cookies.is_empty() {
        let pairs: Vec<String> =
            cookies.iter().map(|(k, v)| format!("{k}={};", encode_uri_component(&js::string(v)))).collect();
        headers.insert("Cookie".to_owned(), Value::String(pairs.join(" ")));
    }

    // A secret is masked as it is sent too.
    let cleaned: Vec<String> = secrets.iter().map(|s| axios::clean(s)).filter(|c| !secrets.contains(c)).collect();
    secrets.extend(cleaned);
    let (headers, built_headers) = auth::as_sent(headers, &endpoint_at, &secrets, &mut warnings);
    let path = path::substitute_path(path, &paths, &endpoint_at, &mut warnings)?;
    let joined = format!("{base_url}{path}");
    let parsed = url::Url::parse(&joined).map_err(|err| {
        Diagnostic::new(
            Code::InvalidRequestUrl,
            "/apiSpecifications/servers/0/url",
            format!("\"{joined}\" is not a valid URL ({err})"),
        )
    })?;
    // The HTTP client sends the WHATWG-normalised URL without its fragment.
    let mut url = format!("{}{}", parsed.origin().ascii_serialization(), parsed.path());
    if let Some(search) = parsed.query().filter(|q| !q.is_empty()) {
        url.push('?');
        url.push_str(search);
    }
    // axios's config merge copies the params and the body without their unsafe keys.
    let query = axios::without_unsafe_keys(&query);
    let (method, body) = if method == "post" {
        ("POST", Some(Value::Object(query)))
    } else {
        let serialized = serialize_query(&query).map_err(|too_deep| {
            Diagnostic::new(
                Code::ClientRefused,
                endpoint_at.as_str(),
                format!(
                    "a query value is nested {} levels deep: the node's HTTP client (axios) refuses more than {}",
                    too_deep.depth,
                    query::MAX_DEPTH
                ),
            )
        })?;
        if !serialized.is_empty() {
            url.push(if url.contains('?') { '&' } else { '?' });
            url.push_str(&serialized);
        }
        ("GET", None)
    };
    Ok(Request { method, url, headers, built_headers, body, ignored, reserved, warnings, secrets })
}

/// `getReservedParameterValue`: listed names only, `fixed || requester || default` (so an empty
/// `fixed` does not fix anything).
fn reserved_values(endpoint: &Value, requested: &Map<String, Value>) -> Map<String, Value> {
    let mut reserved = Map::new();
    let list = endpoint.get("reservedParameters").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for name in ["_type", "_path", "_times"] {
        let Some(parameter) = list.iter().find(|p| p.get("name").and_then(Value::as_str) == Some(name)) else {
            continue;
        };
        let truthy = |value: Option<&Value>| value.filter(|v| js::is_truthy(v)).cloned();
        let value = truthy(parameter.get("fixed"))
            .or_else(|| truthy(requested.get(name)))
            .or_else(|| truthy(parameter.get("default")));
        if let Some(value) = value {
            reserved.insert(name.to_owned(), value);
        }
    }
    reserved
}

/// Requester parameters as the adapter receives them: node mode merges endpoint-parameter defaults
/// first and removes reserved names; feed mode passes them as they are.
fn node_parameters(endpoint: &Value, mut requested: Map<String, Value>, mode: Mode) -> Map<String, Value> {
    if mode == Mode::Feed {
        js::order_keys(&mut requested);
        return requested;
    }
    let mut all = Map::new();
    for parameter in endpoint.get("parameters").and_then(Value::as_array).into_iter().flatten() {
        if let (Some(name), Some(default)) = (parameter.get("name").and_then(Value::as_str), parameter.get("default")) {
            all.insert(name.to_owned(), default.clone());
        }
    }
    all.extend(requested);
    all.retain(|name, _| !RESERVED_NAMES.contains(&name.as_str()));
    js::order_keys(&mut all);
    all
}

fn user_parameters(
    endpoint: &Value,
    operation_parameters: &[(&str, &str)],
    parameters: &Map<String, Value>,
    ignored: &mut Vec<Ignored>,
) -> Buckets {
    let mut buckets = Buckets::default();
    let declared = endpoint.get("parameters").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for (name, value) in parameters {
        let mut ignore = |reason: &str| ignored.push(Ignored { name: name.clone(), reason: reason.to_owned() });
        let Some(parameter) = declared.iter().find(|p| p.get("name").and_then(Value::as_str) == Some(name)) else {
            ignore("not a parameter of this endpoint");
            continue;
        };
        let (Some(location), Some(target)) =
            (text(parameter, "/operationParameter/in"), text(parameter, "/operationParameter/name"))
        else {
            ignore("has no operationParameter (it only reaches processing)");
            continue;
        };
        if !operation_parameters.contains(&(location, target)) {
            ignore("its operationParameter is not a parameter of the operation");
            continue;
        }
        if location == "processing" {
            ignore("goes to processing only");
            continue;
        }
        buckets.put(location, target, value.clone());
    }
    buckets
}

/// Fixed parameters apply when the operation has a parameter of the same name (`in` is not compared).
fn fixed_parameters(endpoint: &Value, operation_parameters: &[(&str, &str)]) -> Buckets {
    let mut buckets = Buckets::default();
    for fixed in endpoint.get("fixedOperationParameters").and_then(Value::as_array).into_iter().flatten() {
        let (Some(location), Some(name)) =
            (text(fixed, "/operationParameter/in"), text(fixed, "/operationParameter/name"))
        else {
            continue;
        };
        if operation_parameters.iter().any(|(_, n)| *n == name) {
            // A missing `value` is `undefined` in the adapter, which the HTTP client drops.
            if let Some(value) = fixed.get("value") {
                buckets.put(location, name, value.clone());
            }
        }
    }
    buckets
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ois() -> Value {
        json!({
            "oisFormat": "3.0.0", "title": "Demo", "version": "1.0.0",
            "apiSpecifications": {
                "servers": [{"url": "http://localhost:5000/api"}],
                "paths": {"/items/{id}": {"get": {"parameters": [
                    {"in": "path", "name": "id"}, {"in": "query", "name": "q"}, {"in": "query", "name": "limit"},
                    {"in": "header", "name": "X-Custom"}, {"in": "cookie", "name": "session"}, {"in": "query", "name": "fixedNum"}
                ]}}},
                "components": {"securitySchemes": {
                    "key": {"type": "apiKey", "in": "query", "name": "api_key"},
                    "basic": {"type": "http", "scheme": "basic"},
                    "chain": {"type": "relayChainId", "in": "query", "name": "chain"},
                    "cookieKey": {"type": "apiKey", "in": "cookie", "name": "auth_cookie"}
                }},
                "security": {"key": [], "basic": [], "chain": [], "cookieKey": []}
            },
            "endpoints": [{
                "name": "getItem",
                "operation": {"method": "get", "path": "/items/{id}"},
                "fixedOperationParameters": [{"operationParameter": {"in": "query", "name": "fixedNum"}, "value": 42}],
                "reservedParameters": [{"name": "_type", "fixed": "int256"}, {"name": "_path"}],
                "parameters": [
                    {"name": "itemId", "operationParameter": {"in": "path", "name": "id"}},
                    {"name": "query", "operationParameter": {"in": "query", "name": "q"}, "default": "default-q"},
                    {"name": "limit", "operationParameter": {"in": "query", "name": "limit"}},
                    {"name": "custom", "operationParameter": {"in": "header", "name": "X-Custom"}},
                    {"name": "session", "operationParameter": {"in": "cookie", "name": "session"}},
                    {"name": "procOnly"}
                ]
            }]
        })
    }

    fn options(parameters: Value) -> RequestOptions {
        RequestOptions {
            endpoint: "getItem".into(),
            parameters: parameters.as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            credentials: vec![
                Credential { ois_title: "Demo".into(), scheme: "key".into(), value: "QUERY-SECRET".into() },
                Credential { ois_title: "Demo".into(), scheme: "basic".into(), value: "user:pass".into() },
                Credential { ois_title: "Demo".into(), scheme: "cookieKey".into(), value: "cookie secret;=".into() },
            ],
            metadata: Some(Metadata { chain_id: Some("31337".into()), ..Default::default() }),
            mode: Mode::Node,
            server_secrets: Vec::new(),
        }
    }

    #[test]
    fn builds_like_the_adapter() {
        let parameters = json!({"itemId": "a/b c?d", "unknownParam": 1, "q": "raw", "_type": "bool", "limit": "10",
            "custom": "v", "session": "sess ion;1", "procOnly": "x"});
        let request = build(&ois(), &options(parameters)).unwrap();
        assert_eq!(request.method, "GET");
        assert_eq!(
            request.url,
            "http://localhost:5000/api/items/a/b%20c?d&q=default-q&limit=10&fixedNum=42&api_key=QUERY-SECRET&chain=31337"
        );
        assert_eq!(request.headers["X-Custom"], "v");
        assert_eq!(request.headers["Authorization"], "Basic user:pass");
        assert_eq!(request.headers["Cookie"], "session=sess%20ion%3B1; auth_cookie=cookie%20secret%3B%3D;");
        let ignored: Vec<&str> = request.ignored.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(ignored, ["unknownParam", "q", "procOnly"]);
        assert_eq!(request.reserved, json!({"_type": "int256"}).as_object().unwrap().clone());
        let codes: Vec<Code> = request.warnings.iter().map(|d| d.code).collect();
        assert_eq!(codes, [Code::BasicNotBase64, Code::PathValueChangesUrl]);
    }

    #[test]
    fn path_values_missing_or_falsy_fail_like_the_node() {
        for value in [json!(""), json!(0), json!(false)] {
            let err = build(&ois(), &options(json!({"itemId": value}))).unwrap_err();
            assert_eq!(err.code, Code::MissingPathValue);
            assert_eq!(err.message, "The following path parameters were expected but not provided: 'id'");
        }
        let request = build(&ois(), &options(json!({"itemId": "x$&y"}))).unwrap_err();
        assert_eq!(request.code, Code::MissingPathValue, "$& puts the placeholder back, as in JavaScript");
    }

    #[test]
    fn feed_mode_skips_defaults_and_metadata_absent_skips_relays() {
        let mut feed = options(json!({"itemId": "1"}));
        feed.mode = Mode::Feed;
        feed.metadata = None;
        let request = build(&ois(), &feed).unwrap();
        assert_eq!(request.url, "http://localhost:5000/api/items/1?fixedNum=42&api_key=QUERY-SECRET");
    }

    #[test]
    fn replacement_patterns_cannot_blow_up_the_path() {
        // Found by fuzzing: every `$`` / `$'` copies the path into itself.
        let placeholders: String = (0..40).map(|i| format!("/{{p{i}}}")).collect();
        let mut ois = ois();
        let parameters: Vec<Value> = (0..40).map(|i| json!({"in": "path", "name": format!("p{i}")})).collect();
        ois["apiSpecifications"]["paths"] = json!({placeholders.clone(): {"get": {"parameters": parameters}}});
        ois["endpoints"][0]["operation"]["path"] = json!(placeholders);
        ois["endpoints"][0]["fixedOperationParameters"] = (0..40)
            .map(|i| json!({"operationParameter": {"in": "path", "name": format!("p{i}")}, "value": "$`$'"}))
            .collect();
        let err = build(&ois, &options(json!({}))).unwrap_err();
        assert_eq!(err.code, Code::InvalidRequestUrl);
    }

    #[test]
    fn unknown_endpoint() {
        let mut unknown = options(json!({}));
        unknown.endpoint = "nope".into();
        let err = build(&ois(), &unknown).unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (Code::UnknownEndpoint, "Endpoint: 'nope' not found in the OIS."));
    }
}
