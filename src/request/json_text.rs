//! A JSON text read where it lies: a value's end, an object's members, an array's elements, found
//! by scanning the text, not by building it. A `serde_json::Value` costs 80 bytes and more however
//! short its text, so an answer of a million prices is ten times its size as values; reading one
//! `_path` from it, or showing it, needs none of them. Every function here expects text a JSON
//! parser accepted ([`super::body::JsonBody`] checks it first) and never panics on other text: it
//! reads less of it.

use std::ops::Range;

/// Where the whitespace from `at` ends.
fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// Where the value starting at `at` (no whitespace before it) ends.
fn value_end(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at) {
        Some(b'"') => crate::source::density::string_end(bytes, at + 1),
        Some(b'[' | b'{') => container_end(bytes, at),
        // A number or a literal: up to the next delimiter.
        Some(_) => {
            let rest = bytes.get(at..).unwrap_or_default();
            at + rest
                .iter()
                .position(|b| matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r'))
                .unwrap_or(rest.len())
        }
        None => at,
    }
}

/// Where the array or object opening at `at` closes (just after its bracket): brackets counted
/// outside strings, with no stack (valid text closes each with its own kind).
fn container_end(bytes: &[u8], mut at: usize) -> usize {
    let mut depth = 0usize;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'"' => {
                at = crate::source::density::string_end(bytes, at + 1);
                continue;
            }
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return at + 1;
                }
            }
            _ => {}
        }
        at += 1;
    }
    bytes.len()
}

/// The whole text's value, its surrounding whitespace left out.
pub(crate) fn root(text: &str) -> Range<usize> {
    let bytes = text.as_bytes();
    let start = skip_space(bytes, 0);
    start..value_end(bytes, start)
}

/// What kind of value `span` of `text` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Object,
    Array,
    Scalar,
}

pub(crate) fn kind(text: &str, span: &Range<usize>) -> Kind {
    match text.as_bytes().get(span.start) {
        Some(b'{') => Kind::Object,
        Some(b'[') => Kind::Array,
        _ => Kind::Scalar,
    }
}

/// The elements of the array at `span`, each its span, in order.
pub(crate) fn elements<'t>(text: &'t str, span: &Range<usize>) -> impl Iterator<Item = Range<usize>> + 't {
    Items { bytes: text.as_bytes(), at: span.start + 1, end: span.end, keyed: false }.map(|(_, value)| value)
}

/// The members of the object at `span`, each its key's span (quotes included) and its value's.
pub(crate) fn members<'t>(
    text: &'t str,
    span: &Range<usize>,
) -> impl Iterator<Item = (Range<usize>, Range<usize>)> + 't {
    Items { bytes: text.as_bytes(), at: span.start + 1, end: span.end, keyed: true }
        .filter_map(|(key, value)| Some((key?, value)))
}

struct Items<'t> {
    bytes: &'t [u8],
    at: usize,
    end: usize,
    keyed: bool,
}

impl Iterator for Items<'_> {
    type Item = (Option<Range<usize>>, Range<usize>);

    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.bytes;
        let mut at = skip_space(bytes, self.at);
        if at >= self.end || matches!(bytes.get(at), Some(b']' | b'}') | None) {
            self.at = self.end;
            return None;
        }
        let key = if self.keyed {
            let key_end = value_end(bytes, at);
            let key = at..key_end;
            at = skip_space(bytes, key_end);
            // The colon.
            at = skip_space(bytes, at + 1);
            Some(key)
        } else {
            None
        };
        let value_end = value_end(bytes, at);
        let next = skip_space(bytes, value_end);
        // Past the comma, or at the closing bracket (the next call stops there).
        self.at = if bytes.get(next) == Some(&b',') { next + 1 } else { next };
        if value_end <= at && self.at <= at {
            // Text that is not JSON: stop rather than read the same place again.
            self.at = self.end;
        }
        Some((key, at..value_end))
    }
}

/// The key whose span (quotes included) is `span`, unescaped.
pub(crate) fn key<'t>(text: &'t str, span: &Range<usize>) -> std::borrow::Cow<'t, str> {
    let raw = text.get(span.start + 1..span.end.saturating_sub(1)).unwrap_or_default();
    if raw.contains('\\') {
        let quoted = text.get(span.clone()).unwrap_or_default();
        std::borrow::Cow::Owned(serde_json::from_str::<String>(quoted).unwrap_or_else(|_| raw.to_owned()))
    } else {
        std::borrow::Cow::Borrowed(raw)
    }
}

/// How a JSON value is written out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Two spaces an indent, as `JSON.stringify(value, null, 2)` and serde_json's pretty writer.
    pub pretty: bool,
    /// Numbers as JavaScript prints them (`1e+21`, `100` for `100.0`), else as serde_json does.
    pub javascript: bool,
}

/// `text` written again as a value of it is written in `style`, each string (key or value) given
/// to `string` first (`true` for a key), each number read as serde_json reads it (a number beyond
/// a double, which `JSON.parse` makes Infinity, as the text `"Infinity"`, as the answer's value
/// holds it). Keys stay in the order and number the text has them.
pub(crate) fn rewritten(text: &str, style: Style, string: &dyn Fn(&str, bool) -> String) -> String {
    rewritten_at(text, style, 0, string)
}

/// [`rewritten`] as a value `depth` levels deep in a pretty document is written: its lines
/// indented to that level.
pub(crate) fn rewritten_at(text: &str, style: Style, depth: usize, string: &dyn Fn(&str, bool) -> String) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let span = root(text);
    write_value(text, &span, style, depth, string, &mut out);
    out
}

fn write_value(
    text: &str,
    span: &Range<usize>,
    style: Style,
    depth: usize,
    string: &dyn Fn(&str, bool) -> String,
    out: &mut String,
) {
    let pretty = style.pretty;
    let raw = text.get(span.clone()).unwrap_or_default();
    let newline = |out: &mut String, depth: usize| {
        if pretty {
            out.push('\n');
            for _ in 0..depth {
                out.push_str("  ");
            }
        }
    };
    match kind(text, span) {
        Kind::Object => {
            out.push('{');
            let mut any = false;
            for (key_span, value) in members(text, span) {
                if any {
                    out.push(',');
                }
                any = true;
                newline(out, depth + 1);
                out.push_str(&quote(&string(&key(text, &key_span), true)));
                out.push_str(if pretty { ": " } else { ":" });
                write_value(text, &value, style, depth + 1, string, out);
            }
            if any {
                newline(out, depth);
            }
            out.push('}');
        }
        Kind::Array => {
            out.push('[');
            let mut any = false;
            for element in elements(text, span) {
                if any {
                    out.push(',');
                }
                any = true;
                newline(out, depth + 1);
                write_value(text, &element, style, depth + 1, string, out);
            }
            if any {
                newline(out, depth);
            }
            out.push(']');
        }
        Kind::Scalar if raw.starts_with('"') => {
            let decoded = serde_json::from_str::<String>(raw).unwrap_or_default();
            out.push_str(&quote(&string(&decoded, false)));
        }
        Kind::Scalar if matches!(raw, "true" | "false" | "null") => out.push_str(raw),
        Kind::Scalar => match serde_json::from_str::<serde_json::Number>(raw) {
            Ok(number) if style.javascript => out.push_str(&crate::js::number(&number)),
            Ok(number) => out.push_str(&number.to_string()),
            Err(_) => out.push_str(&quote(&string(if raw.starts_with('-') { "-Infinity" } else { "Infinity" }, false))),
        },
    }
}

fn quote(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_and_elements_are_found_where_they_lie() {
        let text = r#" { "a" : [1, "x]", {"b":{}}] , "c\"d": null, "e":-1.5e3 } "#;
        let root = root(text);
        let found: Vec<(String, &str)> =
            members(text, &root).map(|(k, v)| (key(text, &k).into_owned(), &text[v])).collect();
        assert_eq!(
            found,
            [("a".to_owned(), r#"[1, "x]", {"b":{}}]"#), ("c\"d".to_owned(), "null"), ("e".to_owned(), "-1.5e3")]
        );
        let array = members(text, &root).next().map(|(_, v)| v).unwrap_or_default();
        let items: Vec<&str> = elements(text, &array).map(|v| &text[v]).collect();
        assert_eq!(items, ["1", r#""x]""#, r#"{"b":{}}"#]);
        assert_eq!(elements("[]", &(0..2)).count(), 0);
        assert_eq!(members("{ }", &(0..3)).count(), 0);
    }

    #[test]
    fn rewritten_text_is_what_serde_json_writes_of_the_value() {
        let text = r#"{"a":[1,2.50,1e2,{}, [], "\u00e9\/"],"b":{"c":true,"d":null},"n":12345678901234567890}"#;
        let value: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
        let same = |s: &str, _: bool| s.to_owned();
        let style = |pretty, javascript| Style { pretty, javascript };
        assert_eq!(
            rewritten(text, style(true, false), &same),
            serde_json::to_string_pretty(&value).unwrap_or_default()
        );
        assert_eq!(rewritten(text, style(false, false), &same), value.to_string());
        assert_eq!(rewritten(text, style(true, true), &same), crate::js::stringify_pretty(&value));
        assert_eq!(rewritten(text, style(false, true), &same), crate::js::stringify(&value));
        assert_eq!(rewritten("[1e400, -1e400]", style(false, false), &same), r#"["Infinity","-Infinity"]"#);
    }

    #[test]
    fn text_that_is_not_json_ends_the_scan() {
        for text in ["{", "[1,", "{\"a\"", "[\"", "{\"a\":}", "[,,]", "}", "{\"a\" 1 2}"] {
            let root = root(text);
            let _ = members(text, &root).count();
            let _ = elements(text, &root).count();
            let _ = rewritten(text, Style { pretty: true, javascript: true }, &|s, _| s.to_owned());
        }
    }
}
