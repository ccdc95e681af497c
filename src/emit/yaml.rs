//! YAML text that every reader reads back as the same data. A serializer that follows YAML 1.2
//! alone writes `yes`, `on`, `2018-02-02`, `1:20` and `<<` as plain scalars, which YAML 1.1 readers
//! (js-yaml, PyYAML, the node's tooling) take for booleans, dates, sexagesimal numbers and merge
//! keys. Here a string is written plain only when it cannot be anything but a string in either
//! version; every other one is quoted.

use std::fmt::Write;

use serde_json::{Map, Value};

/// `value` as block-style YAML (two-space indentation, sequences level with their key, as the
/// common emitters write it), ending in a newline.
pub fn to_yaml(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(map) if !map.is_empty() => mapping(&mut out, map, 0),
        Value::Array(items) if !items.is_empty() => sequence(&mut out, items, 0),
        scalar => {
            out.push_str(&inline(scalar));
            out.push('\n');
        }
    }
    out
}

fn mapping(out: &mut String, map: &Map<String, Value>, indent: usize) {
    for (index, (key, value)) in map.iter().enumerate() {
        // The first entry of a mapping inside a sequence item follows its `- `.
        if index > 0 || !out.ends_with("- ") {
            pad(out, indent);
        }
        let key = string(key);
        if key.chars().count() > MAX_IMPLICIT_KEY {
            // Too long for `key:`: the explicit form, `? key` then `: value`.
            out.push_str("? ");
            out.push_str(&key);
            out.push('\n');
            pad(out, indent);
            out.push(':');
            match value {
                // Below `:`, a sequence is indented like a mapping (it cannot stand level with it).
                Value::Array(items) if !items.is_empty() => {
                    out.push('\n');
                    sequence(out, items, indent + 2);
                }
                value => member(out, value, indent),
            }
            continue;
        }
        out.push_str(&key);
        out.push(':');
        member(out, value, indent);
    }
}

/// The longest key YAML allows in `key: value` form (an implicit key), in characters as written.
const MAX_IMPLICIT_KEY: usize = 1024;

fn sequence(out: &mut String, items: &[Value], indent: usize) {
    for (index, item) in items.iter().enumerate() {
        if index > 0 || !out.ends_with("- ") {
            pad(out, indent);
        }
        out.push_str("- ");
        match item {
            Value::Object(map) if !map.is_empty() => mapping(out, map, indent + 2),
            Value::Array(items) if !items.is_empty() => sequence(out, items, indent + 2),
            scalar => {
                out.push_str(&inline(scalar));
                out.push('\n');
            }
        }
    }
}

/// What follows `key:`: a scalar on the same line, or a block on the next ones.
fn member(out: &mut String, value: &Value, indent: usize) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('\n');
            mapping(out, map, indent + 2);
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            sequence(out, items, indent);
        }
        scalar => {
            out.push(' ');
            out.push_str(&inline(scalar));
            out.push('\n');
        }
    }
}

fn pad(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

/// A scalar or an empty collection on one line.
pub(crate) fn inline(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number(n),
        Value::String(s) => string(s),
        Value::Array(_) => "[]".to_owned(),
        Value::Object(_) => "{}".to_owned(),
    }
}

/// A number as both versions read it: YAML 1.1 reads `1e300` as a string, and needs a dot in
/// the mantissa and a sign in the exponent (`1.0e+300`).
fn number(n: &serde_json::Number) -> String {
    let text = n.to_string();
    let Some((mantissa, exponent)) = text.split_once(['e', 'E']) else { return text };
    let mantissa = if mantissa.contains('.') { mantissa.to_owned() } else { format!("{mantissa}.0") };
    let exponent = if exponent.starts_with(['-', '+']) { exponent.to_owned() } else { format!("+{exponent}") };
    format!("{mantissa}e{exponent}")
}

/// Words some YAML version reads as a boolean or null (compared without case: quoting a few
/// more than needed costs nothing).
const SPECIAL_WORDS: [&str; 11] = ["y", "n", "yes", "no", "true", "false", "on", "off", "null", "nan", "inf"];

/// A string as a scalar: plain when it is unmistakably a string, else single-quoted, or
/// double-quoted (JSON escapes, which YAML shares) when it holds characters single quotes cannot.
pub(crate) fn string(text: &str) -> String {
    if is_plain_safe(text) {
        return text.to_owned();
    }
    if text.chars().all(|c| !c.is_control() && c != '\u{feff}' && c != '\u{2028}' && c != '\u{2029}' && c != '\u{85}') {
        return format!("'{}'", text.replace('\'', "''"));
    }
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push_str("\\t"),
            '\r' => quoted.push_str("\\r"),
            c if c.is_control() || matches!(c, '\u{feff}' | '\u{2028}' | '\u{2029}' | '\u{85}') => {
                let _ = write!(quoted, "\\u{:04x}", u32::from(c));
            }
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// Plain only when it starts with a letter, `_` or `/`, uses letters, digits, spaces and a few
/// punctuation marks that mean nothing in a block scalar, has no `: ` or trailing space, and is
/// not a word some YAML version reads as something else.
fn is_plain_safe(text: &str) -> bool {
    let Some(first) = text.chars().next() else { return false };
    let allowed =
        |c: char| c.is_ascii_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.' | '/' | '(' | ')' | ':' | '@' | '+');
    (first.is_ascii_alphabetic() || first == '_' || first == '/')
        && text.chars().all(allowed)
        && !text.ends_with([' ', ':'])
        && !text.contains(": ")
        && !SPECIAL_WORDS.iter().any(|word| text.eq_ignore_ascii_case(word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn a_key_too_long_for_key_colon_is_written_explicitly_and_read_back_the_same() {
        let long = format!("/{}", "a".repeat(1100));
        let quoted = format!("/{}: x", "é".repeat(1100));
        let value =
            json!({"paths": {long.clone(): {"get": {"parameters": [1, 2]}}, quoted: [3, {"a": 4}], "short": "x"}});
        let text = to_yaml(&value);
        assert!(text.contains(&format!("  ? {long}\n  :\n")), "{text}");
        let back: Value = yaml_serde::from_str(&text).unwrap();
        assert_eq!(back, value, "{text}");
    }

    #[test]
    fn ambiguous_scalars_are_quoted() {
        for text in [
            "yes",
            "No",
            "on",
            "OFF",
            "y",
            "~",
            "null",
            "2018-02-02",
            "1:20",
            "<<",
            "0o17",
            "1_000",
            ".inf",
            "=",
            "",
            " a",
            "a ",
            "a: b",
            "a #b",
            "-",
            "?",
            "@x",
            "1.0.0",
            "true",
        ] {
            assert_ne!(string(text), text, "{text:?} must be quoted");
        }
        for text in ["getItem", "page_size", "/coins/{id}", "https://api.example.com/v1", "Coin Prices API"] {
            let expected = if text.contains('{') { format!("'{text}'") } else { text.to_owned() };
            assert_eq!(string(text), expected);
        }
        assert_eq!(string("it's"), "'it''s'");
        assert_eq!(string("a\nb\u{7}"), "\"a\\nb\\u0007\"");
    }

    #[test]
    fn layout_matches_the_common_emitters() {
        let value = json!({"a": [{"b": 1, "c": [true, null]}, "x", []], "d": {}, "e": {"f": "yes"}});
        assert_eq!(to_yaml(&value), "a:\n- b: 1\n  c:\n  - true\n  - null\n- x\n- []\nd: {}\ne:\n  f: 'yes'\n");
        assert_eq!(to_yaml(&json!([[1, 2], {"k": [3]}])), "- - 1\n  - 2\n- k:\n  - 3\n");
    }

    fn any_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
            any::<String>().prop_map(Value::String),
            "[a-zA-Z0-9 :#'\"{}\\[\\],.&*!|>%@`?<=~_/+\\-]{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec(("[a-z<~ :'#-]{0,6}", inner), 0..4)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Whatever we write, our YAML reader reads back as the same value.
        #[test]
        fn round_trips_through_our_reader(value in any_value()) {
            let text = to_yaml(&value);
            let read: Value = yaml_serde::from_str(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(read, value, "{}", text);
        }
    }
}
