//! Showing a request: JSON (for scripts and the interop tests), a readable text view, or a curl
//! command. Secrets are masked unless asked for.

use serde_json::{Value, json};

use super::Request;
use super::response::Preview;
use super::setup::mask;

fn masked(request: &Request, show_secrets: bool, text: &str) -> String {
    if show_secrets { text.to_owned() } else { mask(text, &request.secrets) }
}

fn masked_value(request: &Request, show_secrets: bool, value: &Value) -> Value {
    match value {
        Value::String(s) => Value::String(masked(request, show_secrets, s)),
        Value::Array(items) => Value::Array(items.iter().map(|v| masked_value(request, show_secrets, v)).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), masked_value(request, show_secrets, v))).collect())
        }
        other => other.clone(),
    }
}

/// `{"method", "url", "headers", "body", "ignored", "reserved"}` (+ `"headersBuilt"` when the HTTP
/// client changes the headers, `"response"` with a preview).
pub fn json(request: &Request, preview: Option<&Preview>, show_secrets: bool) -> Value {
    let mut out = json!({
        "method": request.method,
        "url": masked(request, show_secrets, &request.url),
        "headers": masked_value(request, show_secrets, &Value::Object(request.headers.clone())),
        "body": request.body.as_ref().map(|b| masked_value(request, show_secrets, b)),
        "ignored": request.ignored,
        "reserved": request.reserved,
    });
    if let (Some(built), Some(object)) = (&request.built_headers, out.as_object_mut()) {
        let built = masked_value(request, show_secrets, &Value::Object(built.clone()));
        object.insert("headersBuilt".to_owned(), built);
    }
    if let (Some(preview), Some(object)) = (preview, out.as_object_mut()) {
        object.insert("response".to_owned(), json!({"values": preview.values, "encoded": preview.encoded}));
    }
    out
}

/// [`json()`] as the text `JSON.stringify(value, null, 2)` writes, with a final newline.
pub fn json_text(request: &Request, preview: Option<&Preview>, show_secrets: bool) -> String {
    crate::js::stringify_pretty(&json(request, preview, show_secrets)) + "\n"
}

/// A readable view of the request.
pub fn text(request: &Request, preview: Option<&Preview>, show_secrets: bool) -> String {
    let mut out = format!("{} {}\n", request.method, masked(request, show_secrets, &request.url));
    for (name, value) in &request.headers {
        out.push_str(&format!("{name}: {}\n", masked(request, show_secrets, &header_text(value))));
    }
    // What the HTTP client changed, so nobody wonders where a character went.
    for (name, built) in request.built_headers.iter().flatten() {
        if request.headers.get(name).map(header_text) != Some(header_text(built)) {
            let built = masked(request, show_secrets, &header_text(built));
            out.push_str(&format!("  (built as {name}: {built:?}; the HTTP client changes it)\n"));
        }
    }
    if let Some(body) = &request.body {
        let body = masked_value(request, show_secrets, body);
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
    if !request.reserved.is_empty() {
        let reserved: Vec<String> = request.reserved.iter().map(|(k, v)| format!("{k}={}", header_text(v))).collect();
        out.push_str(&format!("\nreserved: {}\n", reserved.join(" ")));
    }
    if let Some(preview) = preview {
        let values: Vec<String> = preview.values.iter().map(Value::to_string).collect();
        out.push_str(&format!("\nvalues: {}\nencoded: {}\n", values.join(", "), preview.encoded));
    }
    out
}

/// An equivalent curl command.
pub fn curl(request: &Request, show_secrets: bool) -> String {
    let mut parts = vec!["curl".to_owned()];
    if request.method == "POST" {
        parts.push("-X POST".to_owned());
    }
    parts.push(shell_quote(&masked(request, show_secrets, &request.url)));
    for (name, value) in &request.headers {
        parts.push(format!(
            "-H {}",
            shell_quote(&format!("{name}: {}", masked(request, show_secrets, &header_text(value))))
        ));
    }
    if let Some(body) = &request.body {
        parts.push(format!("-H {}", shell_quote("Content-Type: application/json")));
        let body = masked_value(request, show_secrets, body);
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
    fn json_masks_unless_asked() {
        assert_eq!(json(&request(), None, false)["headers"]["Authorization"], "Bearer ****");
        assert_eq!(json(&request(), None, true)["body"]["k"], "tok'en");
    }

    #[test]
    fn what_the_client_changes_is_shown_beside_what_is_sent() {
        let mut changed = request();
        let mut built = changed.headers.clone();
        built.insert("Authorization".into(), json!(" Bearer tok'en\r\n"));
        changed.built_headers = Some(built);
        let shown = text(&changed, None, false);
        assert!(
            shown.contains("Authorization: Bearer ****\n  (built as Authorization: \" Bearer ****\\r\\n\""),
            "{shown}"
        );
        assert!(json(&changed, None, false)["headersBuilt"]["Authorization"].as_str().unwrap().contains("****"));
    }
}
