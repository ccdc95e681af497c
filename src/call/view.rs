//! A call as a script reads it: the request as `ois request` shows it and the API's answer, every
//! secret masked unless asked for.

use serde::Serialize;
use serde_json::Value;

use super::{Called, Reply};
use crate::request;

impl Called {
    /// What `ois call` prints as JSON: `ois request`'s, and the API's answer as `call`; secrets
    /// masked unless `show_secrets`.
    pub fn view(&self, show_secrets: bool) -> CallView {
        CallView {
            request: request::render::RequestView::of(&self.exchange, show_secrets),
            call: self.reply.as_ref().map(|reply| reply.view(self.secrets(), show_secrets)),
        }
    }
}

/// A call as JSON: the request as `ois request` shows it, and what the API answered.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct CallView {
    /// The request, the value and its encoding.
    #[serde(flatten)]
    pub request: request::render::RequestView,
    /// The API's answer, when it gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call: Option<ReplyView>,
}

/// The API's answer as shown: its status, how long it took, its headers and its body (JSON when
/// it is JSON, else its text), secrets masked unless asked for.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplyView {
    /// The HTTP status.
    pub status: u16,
    /// From sending the request to the end of the body, in whole milliseconds.
    pub latency_ms: u64,
    /// The response headers, in order.
    pub headers: serde_json::Map<String, Value>,
    /// The body: its JSON, or its text when it is not JSON.
    // Written from the body's text where it lies: a big answer is never built to be shown.
    #[schemars(with = "Value")]
    pub body: Box<serde_json::value::RawValue>,
}

impl Reply {
    /// The answer as shown, `secrets` masked unless `show_secrets`.
    pub fn view(&self, secrets: &[String], show_secrets: bool) -> ReplyView {
        use request::render::{masked_body, masked_text};
        let headers = self
            .headers
            .iter()
            .map(|(name, value)| (name.clone(), Value::String(masked_text(secrets, show_secrets, value))))
            .collect();
        let body = match &self.json {
            Some(json) => serde_json::value::RawValue::from_string(masked_body(
                secrets,
                show_secrets,
                json,
                request::Style { pretty: false, javascript: false },
            )),
            None => serde_json::value::to_raw_value(&masked_text(secrets, show_secrets, &self.text)),
        };
        let body = body.unwrap_or_else(|_| serde_json::value::RawValue::NULL.to_owned());
        ReplyView { status: self.status, latency_ms: self.latency_ms(), headers, body }
    }
}
