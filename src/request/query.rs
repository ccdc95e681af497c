//! A GET's query string, serialised as axios 1.21 does it (`toFormData` through
//! `AxiosURLSearchParams`, encoded by `buildURL`): flat arrays as `k[]=a&k[]=b`, nested values as
//! `o[x][0]=1`, a top-level `k{}` as JSON, `null` dropped, brackets percent-encoded, spaces as `+`.
//! The params have been through [`crate::node::axios::without_unsafe_keys`] first, as axios's config
//! merge does it.

use serde_json::{Map, Value};

use crate::js::encode_uri_component;

/// axios's `buildURL` encoder: `encodeURIComponent` with `:`, `$`, `,` kept and spaces as `+`.
pub(crate) fn encode_for_query(text: &str) -> String {
    encode(text)
}

fn encode(text: &str) -> String {
    encode_uri_component(text).replace("%3A", ":").replace("%24", "$").replace("%2C", ",").replace("%20", "+")
}

/// axios's `toFormData` refuses values nested deeper than this.
pub const MAX_DEPTH: usize = 100;

/// Why axios refuses to serialise a query: a value nested deeper than [`MAX_DEPTH`] levels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooDeep {
    /// The depth reached.
    pub depth: usize,
}

/// The query string (without `?`) for `params`, empty when nothing is sent.
pub fn serialize_query(params: &Map<String, Value>) -> Result<String, TooDeep> {
    let mut pairs = Vec::new();
    for (key, value) in params {
        top_level(key, value, &mut pairs)?;
    }
    Ok(pairs.iter().map(|(k, v)| format!("{}={}", encode(k), encode(v))).collect::<Vec<_>>().join("&"))
}

/// axios's `defaultVisitor` with no path: the `{}` and `[]` meta keys apply only here. `raw` is the
/// key as written; the visitor sees it trimmed, but the path of its children keeps it as written.
fn top_level(raw: &str, value: &Value, pairs: &mut Vec<(String, String)>) -> Result<(), TooDeep> {
    let key = raw.trim_matches(crate::js::is_whitespace);
    match value {
        Value::Null => {}
        Value::Array(_) | Value::Object(_) if key.ends_with("{}") => {
            let depth = depth(value);
            if depth > MAX_DEPTH {
                return Err(TooDeep { depth });
            }
            pairs.push((key.to_owned(), crate::js::stringify(value)));
        }
        Value::Array(items) if items.iter().all(|item| !is_visitable(item)) || key.ends_with("[]") => {
            flat(key, items, pairs);
        }
        Value::Object(object) if key.ends_with("[]") => match array_like(object) {
            Some(items) => flat(key, &items, pairs),
            None => nested(&[raw.to_owned()], value, 1, pairs)?,
        },
        Value::Array(_) | Value::Object(_) => nested(&[raw.to_owned()], value, 1, pairs)?,
        scalar_value => pairs.push((key.to_owned(), scalar(scalar_value))),
    }
    Ok(())
}

/// `k[]=a&k[]=b`: each item that is not null, as `String(item)` (a nested array joined with
/// commas, an object `[object Object]`).
fn flat(key: &str, items: &[Value], pairs: &mut Vec<(String, String)>) {
    let key = key.strip_suffix("[]").unwrap_or(key);
    for item in items.iter().filter(|item| !item.is_null()) {
        pairs.push((format!("{key}[]"), scalar(item)));
    }
}

/// axios's `toArray` of a plain object: one with a `length` that is a safe integer and every
/// index below it as an own key (`{"length": 2, "0": "a", "1": "b"}`).
fn array_like(object: &Map<String, Value>) -> Option<Vec<Value>> {
    let length = object.get("length")?.as_f64()?;
    if length.fract() != 0.0 || !(0.0..=4_294_967_295.0).contains(&length) {
        return None;
    }
    // Bounded by the keys the object has, not by the length it claims.
    let length = length as usize;
    if length > object.len() {
        return None;
    }
    (0..length).map(|index| object.get(&index.to_string()).cloned()).collect()
}

fn nested(path: &[String], value: &Value, depth: usize, pairs: &mut Vec<(String, String)>) -> Result<(), TooDeep> {
    if depth > MAX_DEPTH {
        return Err(TooDeep { depth });
    }
    let children: Vec<(String, &Value)> = match value {
        Value::Array(items) => items.iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect(),
        Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), v)).collect(),
        _ => return Ok(()),
    };
    for (raw, child) in children {
        if child.is_null() {
            continue;
        }
        if is_visitable(child) {
            let mut child_path = path.to_vec();
            child_path.push(raw);
            nested(&child_path, child, depth + 1, pairs)?;
        } else {
            let key = raw.trim_matches(crate::js::is_whitespace);
            pairs.push((render_key(path, key), scalar(child)));
        }
    }
    Ok(())
}

/// axios's `renderKey`: the first token bare, the others in brackets, each without a `[]` suffix.
fn render_key(path: &[String], key: &str) -> String {
    path.iter()
        .map(String::as_str)
        .chain([key])
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

/// The nesting depth of `value` as axios's JSON depth limit counts it (a scalar is 0).
fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
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
        serialize_query(value.as_object().unwrap()).unwrap()
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
    fn meta_keys_and_untrimmed_paths_as_axios() {
        assert_eq!(query(json!({"f{}": ["x", null, "y"]})), "f%7B%7D=%5B%22x%22,null,%22y%22%5D");
        assert_eq!(query(json!({"ids[]": [["a", "b"], "c"]})), "ids%5B%5D=a,b&ids%5B%5D=c");
        assert_eq!(query(json!({"group ": {"a": 1}})), "group+%5Ba%5D=1");
        assert_eq!(query(json!({"x[]": {"length": 2, "0": "a", "1": "b"}})), "x%5B%5D=a&x%5B%5D=b");
        let mut deep = json!(1);
        for _ in 0..=MAX_DEPTH {
            deep = json!({"d": deep});
        }
        assert_eq!(serialize_query(json!({"k": deep}).as_object().unwrap()), Err(TooDeep { depth: 101 }));
    }

    #[test]
    fn encode_uri_component_matches_javascript() {
        assert_eq!(encode_uri_component("a b;c=d/é!~*'()"), "a%20b%3Bc%3Dd%2F%C3%A9!~*'()");
    }
}
