//! Showing a request: JSON (for scripts and the interop tests), a readable text view, or a curl
//! command. Secrets are masked unless asked for.

use serde::Serialize;
use serde_json::{Map, Value};

use super::setup::mask;
use super::{Exchange, Request};

fn masked(secrets: &[String], show_secrets: bool, text: &str) -> String {
    if show_secrets { text.to_owned() } else { mask(text, secrets) }
}

fn masked_value(secrets: &[String], show_secrets: bool, value: &Value) -> Value {
    if show_secrets { value.clone() } else { super::setup::mask_json_as(value, secrets, "****") }
}

fn secrets_of(exchange: &Exchange) -> &[String] {
    exchange.request.as_ref().map_or(&[], |r| r.secrets.as_slice())
}

/// The requester's parameters, as given and as pre-processing left them.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ParametersView {
    /// As given.
    pub given: Map<String, Value>,
    /// After pre-processing (`null`: the endpoint has none).
    pub processed: Option<Map<String, Value>>,
}

/// What `ois request` prints as JSON (and `ois call` before its `call`): the parameters, the
/// request (`method`, `url` and `body` `null` without an API call), what comes back when there is
/// an answer, and what the snippets logged. Secrets are masked unless asked for.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequestView {
    /// The requester's parameters.
    pub parameters: ParametersView,
    /// `GET` or `POST`; `null` without an API call.
    pub method: Option<&'static str>,
    /// The full URL as sent, query string included.
    pub url: Option<String>,
    /// The headers as they go on the wire.
    pub headers: Map<String, Value>,
    /// The JSON body of a POST.
    pub body: Option<Value>,
    /// Requester parameters that are not sent, and why.
    pub ignored: Vec<super::Ignored>,
    /// `_type`, `_path`, `_times` as the node resolves them.
    pub reserved: Map<String, Value>,
    /// The headers as the adapter built them, when the HTTP client changes them before sending.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headers_built: Option<Map<String, Value>>,
    /// The (post-processed) response, the values and their encoding, when there is an answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response: Option<super::exchange::Answer>,
    /// What the snippets logged, when they logged anything.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub logs: Vec<super::exchange::Log>,
}

impl RequestView {
    /// `exchange` as shown: every secret it carried masked unless `show_secrets`.
    pub fn of(exchange: &Exchange, show_secrets: bool) -> RequestView {
        let secrets = secrets_of(exchange);
        let show = |map: &Map<String, Value>| match masked_value(secrets, show_secrets, &Value::Object(map.clone())) {
            Value::Object(masked) => masked,
            _ => Map::new(),
        };
        let parameters =
            ParametersView { given: show(&exchange.given), processed: exchange.processed.as_ref().map(show) };
        let request = exchange.request.as_ref();
        let logs = exchange
            .logs
            .iter()
            .map(|log| super::exchange::Log { phase: log.phase, line: masked(secrets, show_secrets, &log.line) })
            .collect();
        RequestView {
            parameters,
            method: request.map(|r| r.method),
            url: request.map(|r| masked(secrets, show_secrets, &r.url)),
            headers: request.map(|r| show(&r.headers)).unwrap_or_default(),
            body: request.and_then(|r| r.body.as_ref()).map(|body| masked_value(secrets, show_secrets, body)),
            ignored: request.map(|r| r.ignored.clone()).unwrap_or_default(),
            reserved: exchange.reserved.clone(),
            headers_built: request.and_then(|r| r.built_headers.as_ref()).map(show),
            response: exchange.answer.as_ref().map(|answer| answer.shown(secrets, show_secrets)),
            logs,
        }
    }
}

/// [`RequestView`] as JSON.
pub fn json(exchange: &Exchange, show_secrets: bool) -> Value {
    serde_json::to_value(RequestView::of(exchange, show_secrets)).unwrap_or(Value::Null)
}

/// [`json()`] as the text `JSON.stringify(value, null, 2)` writes, with a final newline.
pub fn json_text(exchange: &Exchange, show_secrets: bool) -> String {
    crate::js::stringify_pretty(&json(exchange, show_secrets)) + "\n"
}

fn parameter_line(parameters: &Map<String, Value>) -> String {
    if parameters.is_empty() {
        return "(none)".to_owned();
    }
    let shown: Vec<String> = parameters.iter().map(|(k, v)| format!("{k}={}", crate::js::stringify(v))).collect();
    shown.join(" ")
}

/// A readable view of the call: parameters before and after pre-processing, the request, and
/// the response after post-processing with the value it encodes.
pub fn text(exchange: &Exchange, show_secrets: bool) -> String {
    text_before_answer(exchange, show_secrets) + &answer_text(exchange, show_secrets)
}

/// [`text()`] up to the answer: the parameters, the request (or that there is none), the reserved
/// parameters.
pub fn text_before_answer(exchange: &Exchange, show_secrets: bool) -> String {
    let secrets = secrets_of(exchange);
    let mut out = String::new();
    if let Some(processed) = &exchange.processed {
        out.push_str(&format!("parameters:    {}\n", masked(secrets, show_secrets, &parameter_line(&exchange.given))));
        out.push_str(&format!("pre-processed: {}\n", masked(secrets, show_secrets, &parameter_line(processed))));
    }
    for log in exchange.logs.iter().filter(|l| l.phase == "pre") {
        out.push_str(&format!("console (pre-processing): {}\n", masked(secrets, show_secrets, &log.line)));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    match &exchange.request {
        Some(request) => out.push_str(&request_text(request, show_secrets)),
        None => out.push_str(
            "no API call: the endpoint has no operation, so the (pre-processed) parameters are the response\n",
        ),
    }
    if !exchange.reserved.is_empty() {
        let reserved: Vec<String> = exchange.reserved.iter().map(|(k, v)| format!("{k}={}", header_text(v))).collect();
        out.push_str(&format!("\nreserved: {}\n", reserved.join(" ")));
    }
    out
}

/// [`text()`] from the answer on: post-processing's console output and result, the values and
/// their encoding, secrets masked unless `show_secrets`.
pub fn answer_text(exchange: &Exchange, show_secrets: bool) -> String {
    let secrets = secrets_of(exchange);
    let mut out = String::new();
    for log in exchange.logs.iter().filter(|l| l.phase == "post") {
        out.push_str(&format!("console (post-processing): {}\n", masked(secrets, show_secrets, &log.line)));
    }
    let answer = exchange.answer.as_ref().map(|answer| answer.shown(secrets, show_secrets));
    if let Some(answer) = &answer {
        if let Some(processed) = &answer.processed {
            out.push_str(&format!("\npost-processed: {}\n", crate::js::stringify(processed)));
        }
        if let Some(timestamp) = answer.timestamp {
            out.push_str(&format!("timestamp: {timestamp}\n"));
        }
        let values: Vec<String> = answer.preview.values.iter().map(Value::to_string).collect();
        let gap = if answer.processed.is_some() { "" } else { "\n" };
        out.push_str(&format!("{gap}values: {}\nencoded: {}\n", values.join(", "), answer.preview.encoded));
    }
    out
}

/// `value` with `secrets` masked unless `show_secrets`.
pub fn masked_json(secrets: &[String], show_secrets: bool, value: &Value) -> Value {
    masked_value(secrets, show_secrets, value)
}

/// An API's JSON body written out in `style`, `secrets` masked unless `show_secrets`.
pub fn masked_body(secrets: &[String], show_secrets: bool, body: &super::JsonBody, style: super::Style) -> String {
    let none: &[String] = &[];
    super::mask_body_as(body, if show_secrets { none } else { secrets }, "****", style)
}

/// `text` with `secrets` masked unless `show_secrets`.
pub fn masked_text(secrets: &[String], show_secrets: bool, text: &str) -> String {
    masked(secrets, show_secrets, text)
}

fn request_text(request: &Request, show_secrets: bool) -> String {
    let secrets = &request.secrets;
    let mut out = format!("{} {}\n", request.method, masked(secrets, show_secrets, &request.url));
    for (name, value) in &request.headers {
        out.push_str(&format!("{name}: {}\n", masked(secrets, show_secrets, &header_text(value))));
    }
    // What the HTTP client changed, so nobody wonders where a character went.
    for (name, built) in request.built_headers.iter().flatten() {
        if request.headers.get(name).map(header_text) != Some(header_text(built)) {
            let built = masked(secrets, show_secrets, &header_text(built));
            out.push_str(&format!("  (built as {name}: {built:?}; the HTTP client changes it)\n"));
        }
    }
    if let Some(body) = &request.body {
        let body = masked_value(secrets, show_secrets, body);
        out.push('\n');
        out.push_str(&crate::js::stringify_pretty(&body));
        out.push('\n');
    }
    if !request.ignored.is_empty() {
        out.push_str("\nnot sent:\n");
        for ignored in &request.ignored {
            out.push_str(&format!("  {}: {}\n", ignored.name, ignored.reason));
        }
    }
    out
}

/// An equivalent curl command.
pub fn curl(request: &Request, show_secrets: bool) -> String {
    let mut parts = vec!["curl".to_owned()];
    if request.method == "POST" {
        parts.push("-X POST".to_owned());
    }
    let secrets = &request.secrets;
    parts.push(shell_quote(&masked(secrets, show_secrets, &request.url)));
    for (name, value) in &request.headers {
        parts.push(format!(
            "-H {}",
            shell_quote(&format!("{name}: {}", masked(secrets, show_secrets, &header_text(value))))
        ));
    }
    if let Some(body) = &request.body {
        if let Some(content_type) = crate::node::axios::added_content_type(request.headers.keys()) {
            parts.push(format!("-H {}", shell_quote(&format!("Content-Type: {content_type}"))));
        }
        let body = masked_value(secrets, show_secrets, body);
        parts.push(format!("--data-raw {}", shell_quote(&crate::js::stringify(&body))));
    }
    parts.join(" \\\n  ") + "\n"
}

/// Header values as the HTTP client sends them (`String(value)`).
fn header_text(value: &Value) -> String {
    crate::js::string(value)
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;
    use serde_json::json;

    fn request() -> Request {
        let mut headers = Map::new();
        headers.insert("Authorization".into(), json!("Bearer tok'en"));
        Request {
            method: "POST",
            url: "https://a.example/x".into(),
            headers,
            built_headers: None,
            body: Some(json!({"k": "tok'en", "n": 1})),
            ignored: vec![],
            reserved: Map::new(),
            warnings: vec![],
            secrets: vec!["tok'en".into()],
        }
    }

    #[test]
    fn curl_quotes_and_masks() {
        let masked = curl(&request(), false);
        assert_eq!(
            masked,
            "curl \\\n  -X POST \\\n  'https://a.example/x' \\\n  -H 'Authorization: Bearer ****' \\\n  -H 'Content-Type: application/json' \\\n  --data-raw '{\"k\":\"****\",\"n\":1}'\n"
        );
        assert!(curl(&request(), true).contains("Bearer tok'\\''en"));
    }

    #[test]
    fn curl_sends_one_content_type_as_axios_does() {
        let mut fixed = request();
        fixed.headers.insert("content-type".into(), json!("application/vnd.api+json"));
        let command = curl(&fixed, false);
        assert_eq!(command.to_ascii_lowercase().matches("content-type").count(), 1, "{command}");
        assert!(command.contains("-H 'content-type: application/vnd.api+json'"), "{command}");
    }

    fn exchange(request: Request) -> Exchange {
        Exchange {
            given: Map::new(),
            processed: None,
            reserved: Map::new(),
            request: Some(request),
            answer: None,
            logs: vec![],
        }
    }

    #[test]
    fn json_masks_unless_asked() {
        assert_eq!(json(&exchange(request()), false)["headers"]["Authorization"], "Bearer ****");
        assert_eq!(json(&exchange(request()), true)["body"]["k"], "tok'en");
    }

    #[test]
    fn what_the_client_changes_is_shown_beside_what_is_sent() {
        let mut changed = request();
        let mut built = changed.headers.clone();
        built.insert("Authorization".into(), json!(" Bearer tok'en\r\n"));
        changed.built_headers = Some(built);
        let shown = text(&exchange(changed.clone()), false);
        assert!(
            shown.contains("Authorization: Bearer ****\n  (built as Authorization: \" Bearer ****\\r\\n\""),
            "{shown}"
        );
        assert!(json(&exchange(changed), false)["headersBuilt"]["Authorization"].as_str().unwrap().contains("****"));
    }
}
