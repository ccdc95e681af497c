//! A GET's query string, serialised as axios 1.x does it (`toFormData` through
//! `AxiosURLSearchParams`, encoded by `buildURL`): flat arrays as `k[]=a&k[]=b`, nested values as
//! `o[x][0]=1`, `null` dropped, brackets percent-encoded, spaces as `+`.

use serde_json::{Map, Value};

use crate::js::encode_uri_component;

/// axios's `buildURL` encoder: `encodeURIComponent` with `:`, `$`, `,` kept and spaces as `+`.
pub(crate) fn encode_for_query(text: &str) -> String {
    encode(text)
}

fn encode(text: &str) -> String {
    encode_uri_component(text).replace("%3A", ":").replace("%24", "$").replace("%2C", ",").replace("%20", "+")
}

/// The query string (without `?`) for `params`, empty when nothing is sent.
pub fn serialize_query(params: &Map<String, Value>) -> String {
    let mut pairs = Vec::new();
    for (key, value) in params {
        top_level(key.trim(), value, &mut pairs);
    }
    pairs.iter().map(|(k, v)| format!("{}={}", encode(k), encode(v))).collect::<Vec<_>>().join("&")
}

fn top_level(key: &str, value: &Value, pairs: &mut Vec<(String, String)>) {
    match value {
        Value::Null => {}
        Value::Array(items) if items.iter().all(|item| !is_visitable(item)) => {
            let key = key.strip_suffix("[]").unwrap_or(key);
            for item in items.iter().filter(|item| !item.is_null()) {
                pairs.push((format!("{key}[]"), scalar(item)));
            }
        }
        // `key{}` sends the value as JSON (axios's meta token).
        Value::Array(_) | Value::Object(_) if key.ends_with("{}") => pairs.push((key.to_owned(), value.to_string())),
        Value::Array(_) | Value::Object(_) => nested(&[key.to_owned()], value, pairs),
        scalar_value => pairs.push((key.to_owned(), scalar(scalar_value))),
    }
}

fn nested(path: &[String], value: &Value, pairs: &mut Vec<(String, String)>) {
    let children: Vec<(String, &Value)> = match value {
        Value::Array(items) => items.iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect(),
        Value::Object(map) => map.iter().map(|(k, v)| (k.trim().to_owned(), v)).collect(),
        _ => return,
    };
    for (key, child) in children {
        if child.is_null() {
            continue;
        }
        let mut child_path = path.to_vec();
        child_path.push(key);
        if is_visitable(child) {
            nested(&child_path, child, pairs);
        } else {
            pairs.push((render_key(&child_path), scalar(child)));
        }
    }
}

fn render_key(path: &[String]) -> String {
    path.iter()
        .enumerate()
        .map(|(i, token)| {
            let token = token.strip_suffix("[]").unwrap_or(token);
            if i == 0 { token.to_owned() } else { format!("[{token}]") }
        })
        .collect()
}

fn is_visitable(value: &Value) -> bool {
    matches!(value, Value::Array(_) | Value::Object(_))
}

fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => crate::js::number(n),
        other => crate::js::string(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn query(value: Value) -> String {
        serialize_query(value.as_object().unwrap())
    }

    #[test]
    fn axios_serialisation() {
        assert_eq!(
            query(
                json!({"arr": ["a", "b"], "bool": true, "num": 1.5, "empty": "", "nested": {"x": {"y": 1}}, "none": null})
            ),
            "arr%5B%5D=a&arr%5B%5D=b&bool=true&num=1.5&empty=&nested%5Bx%5D%5By%5D=1"
        );
        assert_eq!(
            query(json!({"filter": "x&y=z", "fixedObj": {"a": [1, 2], "b": "x y"}, "t": "a:b$c,d"})),
            "filter=x%26y%3Dz&fixedObj%5Ba%5D%5B0%5D=1&fixedObj%5Ba%5D%5B1%5D=2&fixedObj%5Bb%5D=x+y&t=a:b$c,d"
        );
        assert_eq!(
            query(json!({"deep": [[1], {"k": null}], "ids[]": [1, null, 2]})),
            "deep%5B0%5D%5B0%5D=1&ids%5B%5D=1&ids%5B%5D=2"
        );
        assert_eq!(query(json!({})), "");
    }

    #[test]
    fn encode_uri_component_matches_javascript() {
        assert_eq!(encode_uri_component("a b;c=d/é!~*'()"), "a%20b%3Bc%3Dd%2F%C3%A9!~*'()");
    }
}
