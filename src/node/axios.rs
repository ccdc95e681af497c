//! What axios 1.21 (the node's HTTP client) does to the adapter's request before it goes on the
//! wire: its config merge drops `__proto__`, `constructor` and `prototype` keys from the params,
//! the body and the headers; headers merge without regard to case; a header value loses its
//! control characters and anything beyond Latin-1, and its surrounding spaces and tabs.

use serde_json::{Map, Value};

/// The `User-Agent` the node's axios sends.
pub const USER_AGENT: &str = "axios/1.21.1";

/// The `Accept` axios sends unless told otherwise.
pub const ACCEPT: &str = "application/json, text/plain, */*";

/// The `Content-Type` axios gives a JSON body.
const JSON_CONTENT_TYPE: &str = "application/json";

/// The `Content-Type` axios adds to a request with a JSON body: none when the request's own
/// headers name one already (in any case).
pub fn added_content_type<'h>(mut header_names: impl Iterator<Item = &'h String>) -> Option<&'static str> {
    (!header_names.any(|name| name.eq_ignore_ascii_case("content-type"))).then_some(JSON_CONTENT_TYPE)
}

/// Keys axios's merge never copies.
fn is_unsafe_key(key: &str) -> bool {
    matches!(key, "__proto__" | "constructor" | "prototype")
}

/// `value` as axios's config merge copies it: every object reached through objects loses its
/// unsafe keys; an array is copied as it is (the objects inside it keep theirs).
pub(crate) fn without_unsafe_keys(value: &Map<String, Value>) -> Map<String, Value> {
    value
        .iter()
        .filter(|(key, _)| !is_unsafe_key(key))
        .map(|(key, item)| {
            let item = match item {
                Value::Object(object) => Value::Object(without_unsafe_keys(object)),
                other => other.clone(),
            };
            (key.clone(), item)
        })
        .collect()
}

/// A header as it goes on the wire, and the value the adapter built when axios changed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SentHeader {
    pub name: String,
    pub value: String,
    pub changed_from: Option<String>,
}

/// The headers axios sends for the adapter's `built` ones: merged without regard to case (the
/// first spelling, the last value), unsafe names, `null` and `false` values dropped, each value
/// `String(value)` cleaned as axios cleans it (an array is sent as one line per item, shown
/// joined with `, `).
pub(crate) fn sent_headers(built: &Map<String, Value>) -> Vec<SentHeader> {
    let mut sent: Vec<(String, &Value)> = Vec::new();
    let mut by_folded_name: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (name, value) in built.iter().filter(|(name, _)| !is_unsafe_key(name)) {
        match by_folded_name.entry(name.trim().to_lowercase()) {
            std::collections::hash_map::Entry::Occupied(seen) => {
                if let Some(entry) = sent.get_mut(*seen.get()) {
                    entry.1 = value;
                }
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(sent.len());
                sent.push((name.clone(), value));
            }
        }
    }
    sent.into_iter()
        .filter_map(|(name, value)| {
            let (value, original) = match value {
                Value::Null | Value::Bool(false) => return None,
                Value::Array(items) => {
                    let items: Vec<String> = items.iter().map(crate::js::string).collect();
                    (items.iter().map(|item| clean(item)).collect::<Vec<_>>().join(", "), items.join(", "))
                }
                other => {
                    let text = crate::js::string(other);
                    (clean(&text), text)
                }
            };
            let changed_from = (value != original).then_some(original);
            Some(SentHeader { name, value, changed_from })
        })
        .collect()
}

/// axios's `sanitizeHeaderValue` then `sanitizeByteStringHeaderValue`: C0 controls but tab and
/// DEL removed, then everything outside tab, printable ASCII and U+0080–U+00FF, spaces and tabs
/// trimmed after each.
pub(crate) fn clean(value: &str) -> String {
    let is_space = |c: char| c == ' ' || c == '\t';
    let unicode: String =
        value.chars().filter(|&c| !matches!(c, '\0'..='\u{8}' | '\n'..='\u{1f}' | '\u{7f}')).collect();
    let bytes: String = unicode
        .trim_matches(is_space)
        .chars()
        .filter(|&c| matches!(c, '\t' | ' '..='~' | '\u{80}'..='\u{ff}'))
        .collect();
    bytes.trim_matches(is_space).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unsafe_keys_go_from_object_chains_only() {
        let params = json!({"a": 1, "constructor": 2, "o": {"prototype": 3, "k": [{"constructor": 4}]}});
        assert_eq!(
            Value::Object(without_unsafe_keys(params.as_object().unwrap())),
            json!({"a": 1, "o": {"k": [{"constructor": 4}]}})
        );
    }

    #[test]
    fn headers_as_axios_sends_them() {
        let built = json!({"X-A": " v\u{1}al€é\r\n ", "x-a": "second", "X-Off": false, "X-None": null,
            "constructor": "c", "X-N": 1.5, "X-Same": "same"});
        let sent = sent_headers(built.as_object().unwrap());
        let shown: Vec<(&str, &str, Option<&str>)> =
            sent.iter().map(|h| (h.name.as_str(), h.value.as_str(), h.changed_from.as_deref())).collect();
        assert_eq!(shown, [("X-A", "second", None), ("X-N", "1.5", None), ("X-Same", "same", None)]);
        assert_eq!(clean(" v\u{1}al€é\r\n "), "valé");
        assert_eq!(clean("\t\u{7f} a \u{1F600}"), "a");
    }
}
