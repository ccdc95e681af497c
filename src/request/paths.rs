//! The value picker: every leaf of a response with the `_path` that reaches it as the node's
//! path reader walks it (`.` between segments, `\.` for a dot in a key, `0`, `1`, … into arrays),
//! its value, and the `_type` and `_times` that fit it. Each path is checked with the node's own
//! reader before it is offered, so a key no `_path` can reach (an empty one, a backslash before a
//! dot) is shown without one.

use serde::Serialize;
use serde_json::Value;

use super::response::extract_value;

/// At most this many leaves are listed: a response from someone else may hold millions.
pub const MAX_LEAVES: usize = 5_000;

/// One leaf of a response.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Leaf {
    /// The `_path` that reaches it (empty: the whole response, no `_path`); `None` when no
    /// `_path` can.
    pub path: Option<String>,
    /// Its value.
    pub value: Value,
    /// The `_type` that fits it.
    pub suggested_type: Option<&'static str>,
    /// The `_times` that fits it (numbers with a fraction: 18 decimals, as data feeds use).
    pub suggested_times: Option<&'static str>,
}

/// The leaves of `response` in document order (at most [`MAX_LEAVES`]), and whether there were
/// more.
pub fn leaves(response: &Value) -> (Vec<Leaf>, bool) {
    let mut found = Vec::new();
    let mut truncated = false;
    let mut stack: Vec<(Vec<String>, &Value)> = vec![(Vec::new(), response)];
    while let Some((segments, value)) = stack.pop() {
        let children: Vec<(String, &Value)> = match value {
            Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), v)).collect(),
            Value::Array(items) => items.iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect(),
            _ => Vec::new(),
        };
        if children.is_empty() {
            if found.len() == MAX_LEAVES {
                truncated = true;
                break;
            }
            found.push(leaf(response, &segments, value));
            continue;
        }
        // Reversed onto the stack, so they come off in document order.
        for (key, child) in children.into_iter().rev() {
            let mut path = segments.clone();
            path.push(key);
            stack.push((path, child));
        }
    }
    (found, truncated)
}

fn leaf(response: &Value, segments: &[String], value: &Value) -> Leaf {
    let written: Vec<String> = segments.iter().map(|s| s.replace('.', "\\.")).collect();
    let path = written.join(".");
    // Offered only when the node's reader, given it, lands on this very value.
    let reaches = extract_value(response, Some(&path)).is_ok_and(|found| std::ptr::eq(found, value));
    // The whole response (no `_path`) is the empty path.
    let path = (reaches || segments.is_empty()).then_some(path);
    let (suggested_type, suggested_times) = suggestion(value);
    Leaf { path, value: value.clone(), suggested_type, suggested_times }
}

fn suggestion(value: &Value) -> (Option<&'static str>, Option<&'static str>) {
    match value {
        Value::Number(number) if number.is_u64() => (Some("uint256"), None),
        Value::Number(number) if number.is_i64() => (Some("int256"), None),
        Value::Number(_) => (Some("int256"), Some("1000000000000000000")),
        Value::Bool(_) => (Some("bool"), None),
        Value::String(text) if text.len() <= 31 => (Some("string32"), None),
        Value::String(_) => (Some("string"), None),
        _ => (None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_leaf_with_the_path_the_node_reads() {
        let response = json!({"data": {"price": 61234.5, "a.b": true, "": 1, "list": [7, "BTC"]}, "n": -3, "x\\.y": 2});
        let (found, truncated) = leaves(&response);
        assert!(!truncated);
        let shown: Vec<(Option<&str>, &Value, Option<&str>)> =
            found.iter().map(|l| (l.path.as_deref(), &l.value, l.suggested_type)).collect();
        assert_eq!(
            shown,
            [
                (Some("data.price"), &json!(61234.5), Some("int256")),
                (Some("data.a\\.b"), &json!(true), Some("bool")),
                // The node's reader reaches an empty key with a trailing dot.
                (Some("data."), &json!(1), Some("uint256")),
                (Some("data.list.0"), &json!(7), Some("uint256")),
                (Some("data.list.1"), &json!("BTC"), Some("string32")),
                (Some("n"), &json!(-3), Some("int256")),
                // A backslash before a dot: no `_path` reaches it.
                (None, &json!(2), Some("uint256")),
            ]
        );
        assert_eq!(found.first().and_then(|l| l.suggested_times), Some("1000000000000000000"));
    }

    #[test]
    fn a_huge_response_is_cut() {
        let response = Value::Array((0..MAX_LEAVES + 10).map(|i| json!(i)).collect());
        let (found, truncated) = leaves(&response);
        assert_eq!((found.len(), truncated), (MAX_LEAVES, true));
    }
}

#[cfg(test)]
mod whole {
    use super::*;

    #[test]
    fn a_bare_value_is_the_whole_response() {
        let (found, _) = leaves(&serde_json::json!(0.92));
        assert_eq!(found.first().and_then(|l| l.path.as_deref()), Some(""));
    }
}
