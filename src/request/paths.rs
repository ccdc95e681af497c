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
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Leaf {
    /// The `_path` that reaches it (empty: the whole response, no `_path`); `None` when no
    /// `_path` can. As the node reads a `_path` of one value: a key's `.` is written `\.`.
    pub path: Option<String>,
    /// The same path as one part of a `_path` of several values (`_type` `int256,int256`), where
    /// the node splits on `,` first: a key's `,` is written `\,` there. Only when it differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_in_list: Option<String>,
    /// Its value.
    pub value: Value,
    /// The `_type` that fits it.
    pub suggested_type: Option<&'static str>,
    /// The `_times` that fits it (numbers with a fraction: 18 decimals, as data feeds use).
    pub suggested_times: Option<&'static str>,
}

/// The leaves inside the answer's `element` (a key of the root, or an index of a root array),
/// and the likeliest of them ([`suggested`]): what a feed of a batch picks from
/// ([`crate::ois::feeds::own_element`]). `None` when there are none, so that a wrong guess of
/// the element hides nothing.
pub fn within_element(leaves: &[Leaf], element: &str) -> Option<(Vec<Leaf>, Option<usize>)> {
    let prefix = format!("{}.", element.replace('.', "\\."));
    let inside: Vec<Leaf> =
        leaves.iter().filter(|leaf| leaf.path.as_deref().is_some_and(|p| p.starts_with(&prefix))).cloned().collect();
    (!inside.is_empty()).then(|| {
        let likeliest = suggested(&inside);
        (inside, likeliest)
    })
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
    let lands = |path: &str| extract_value(response, Some(path)).is_ok_and(|found| std::ptr::eq(found, value));
    // The whole response (no `_path`) is the empty path. The node splits even a `_path` of one
    // value on its unescaped commas (and refuses more parts than `_type` has), but then reads the
    // path as written: a key with a comma cannot be read by a `_path` of one value.
    let alone = crate::ois::reserved::escape_aware_split(&path, ',').len() == 1;
    let reaches = (alone && lands(&path)) || segments.is_empty();
    // In a list, the node splits on unescaped commas first and unescapes `\,`, then reads each
    // part as above.
    let in_list = path.replace(',', "\\,");
    let path_in_list = (in_list != path)
        .then(|| match crate::ois::reserved::escape_aware_split(&in_list, ',').as_slice() {
            [part] if lands(part) => Some(in_list),
            _ => None,
        })
        .flatten();
    let (suggested_type, suggested_times) = suggestion(value);
    Leaf { path: reaches.then_some(path), path_in_list, value: value.clone(), suggested_type, suggested_times }
}

/// The `_type` and `_times` that fit a value. A number with a fraction, or a string the node reads
/// as one (`"67123.45"`: its int256 cast parses it), is an int256 times 10^18, which keeps up to
/// 18 decimals, as data feeds use.
fn suggestion(value: &Value) -> (Option<&'static str>, Option<&'static str>) {
    const E18: &str = "1000000000000000000";
    match value {
        Value::Number(number) if number.is_u64() => (Some("uint256"), None),
        Value::Number(number) if number.is_i64() => (Some("int256"), None),
        Value::Number(_) => (Some("int256"), Some(E18)),
        Value::Bool(_) => (Some("bool"), None),
        Value::String(text) => match numeric_text(text) {
            Some(Numeric::Fraction) => (Some("int256"), Some(E18)),
            Some(Numeric::Integer) => (Some("int256"), None),
            None if text.len() <= 31 => (Some("string32"), None),
            None => (Some("string"), None),
        },
        _ => (None, None),
    }
}

enum Numeric {
    Integer,
    Fraction,
}

/// Whether `text` is a decimal number (`-12`, `67123.45`, `1.5e-7`): what an API that sends its
/// numbers as strings sends. Hex and the empty string are not.
fn numeric_text(text: &str) -> Option<Numeric> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let (mantissa, exponent) = match digits.find(['e', 'E']) {
        Some(at) => (digits.get(..at)?, Some(digits.get(at + 1..)?)),
        None => (digits, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (mantissa, None),
    };
    let all_digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    let exponent_ok = exponent.is_none_or(|e| all_digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    if !all_digits(whole) || !fraction.is_none_or(all_digits) || !exponent_ok {
        return None;
    }
    let fractional =
        fraction.is_some_and(|f| f.bytes().any(|b| b != b'0')) || exponent.is_some_and(|e| e.starts_with('-'));
    Some(if fractional { Numeric::Fraction } else { Numeric::Integer })
}

/// A key's words, lowercased: `time_last_updated`, `lastUpdatedAt` and `Last-Price` split where
/// a separator or a capital starts one.
fn key_words(key: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in key.chars() {
        if (!c.is_alphanumeric() || (c.is_uppercase() && previous_lower)) && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        if c.is_alphanumeric() {
            current.extend(c.to_lowercase());
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// The leaf a feed most likely wants, of those a `_path` reaches: the index in `leaves`. Keys
/// that say price, rate, value or last go first, keys that say what sits beside a price (a change,
/// an average, a volume, a high or low, a cloud cover) down; values with a fraction before
/// integers; integers whose key says count, ID, time or amount (`time_last_updated`, `amount`: a
/// conversion's input, not its result) or that look like a Unix time last; ties go to the first.
pub fn suggested(leaves: &[Leaf]) -> Option<usize> {
    let score = |leaf: &Leaf| -> Option<i32> {
        leaf.path.as_ref()?;
        let fraction = leaf.suggested_times.is_some();
        let numeric = matches!(leaf.suggested_type, Some("int256" | "uint256"));
        if !numeric {
            return None;
        }
        let key = leaf.path.as_deref().unwrap_or_default().rsplit('.').next().unwrap_or_default();
        let words = key_words(key);
        let says = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
        // What the key says weighs more than whether the number has a fraction: a weather
        // answer's first fraction is a cloud cover, a market's a buy average.
        let mut score = if fraction { 2 } else { 0 };
        if says(&[
            "price", "rate", "rates", "value", "last", "close", "mid", "bid", "ask", "quote", "result", "spot", "usd",
        ]) {
            score += 5;
        }
        let beside = [
            "change",
            "percent",
            "pct",
            "avg",
            "average",
            "volume",
            "vol",
            "cap",
            "supply",
            "high",
            "low",
            "open",
            "cloud",
            "humidity",
            "uv",
            "visibility",
            "precision",
            "weight",
        ];
        if says(&beside) {
            score -= 2;
        }
        let counts = ["id", "ids", "count", "total", "amount", "nonce", "decimals", "page", "limit", "status", "code"];
        if says(&counts)
            || words.iter().any(|w| {
                w.starts_with("time") || w.starts_with("date") || w == "updated" || w == "epoch" || w == "unix"
            })
        {
            score -= 3;
        }
        if !fraction && leaf.value.as_f64().is_some_and(|n| (1e9..2e10).contains(&n) || (1e12..2e13).contains(&n)) {
            score -= 3;
        }
        Some(score)
    };
    let mut best: Option<(usize, i32)> = None;
    for (index, leaf) in leaves.iter().enumerate() {
        if let Some(score) = score(leaf)
            && best.is_none_or(|(_, top)| score > top)
        {
            best = Some((index, score));
        }
    }
    best.map(|(index, _)| index).or_else(|| leaves.iter().position(|l| l.path.is_some()))
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
    fn numeric_strings_are_numbers_and_the_rate_is_suggested() {
        let response = json!({"amount": 1, "time_last_updated": 1_732_700_000, "count": 3, "rates": {"EUR": "0.9512", "JPY": "151"}, "id": 7});
        let (found, _) = leaves(&response);
        let eur = found.iter().find(|l| l.path.as_deref() == Some("rates.EUR")).unwrap();
        assert_eq!((eur.suggested_type, eur.suggested_times), (Some("int256"), Some("1000000000000000000")));
        let jpy = found.iter().find(|l| l.path.as_deref() == Some("rates.JPY")).unwrap();
        assert_eq!((jpy.suggested_type, jpy.suggested_times), (Some("int256"), None));
        assert_eq!(suggested(&found).and_then(|i| found[i].path.as_deref()), Some("rates.EUR"));
        // Among integers only, a count or a time is not the value.
        let (found, _) = leaves(&json!({"updatedAt": 1_732_700_000, "total": 2, "price": 67123}));
        assert_eq!(suggested(&found).and_then(|i| found[i].path.as_deref()), Some("price"));
        for text in ["0x1f", "", "-", "1.", ".5", "1e", "12a", "١٢"] {
            assert!(numeric_text(text).is_none(), "{text}");
        }
        // The name says more than the fraction: the trial's weather and market answers.
        let (found, _) = leaves(&json!({"cloud": 0.75, "temp_c": 21.3, "condition": {"code": 1000}}));
        assert_eq!(suggested(&found).and_then(|i| found[i].path.as_deref()), Some("temp_c"));
        let (found, _) = leaves(&json!({"buy": {"average": 2344.1}, "changePercent": 0.4, "last": 2345}));
        assert_eq!(suggested(&found).and_then(|i| found[i].path.as_deref()), Some("last"));
        assert_eq!(key_words("time_last_updated"), ["time", "last", "updated"]);
        assert_eq!(key_words("lastUpdatedAt"), ["last", "updated", "at"]);
    }

    #[test]
    fn keys_with_dots_and_commas_have_the_paths_the_node_reads() {
        let response = json!({"a.b": 1, "c,d": 2, "x": {"y,z.w": [3]}});
        let (found, _) = leaves(&response);
        let shown: Vec<(Option<&str>, Option<&str>)> =
            found.iter().map(|l| (l.path.as_deref(), l.path_in_list.as_deref())).collect();
        assert_eq!(shown, [(Some("a\\.b"), None), (None, Some("c\\,d")), (None, Some("x.y\\,z\\.w.0"))]);
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
