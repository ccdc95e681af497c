//! An API's answer that is JSON: its text, and its value as `JSON.parse` makes it, built only when
//! something needs all of it (post-processing, the value picker, a drift check). A big answer's
//! `_path` is read from its text where it lies, and the answer is shown from its text: a million
//! prices in 9 MB are 96 MB as values, more than ten times the answer.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::json_text::{self, Kind, Style};
use super::response::{Shape, value_not_found};
use crate::diagnostic::{Code, Diagnostic};
use crate::ois::reserved::escape_aware_split;
use crate::source::Source;

/// An answer smaller than this is read whole at once, as the node reads it: its value costs little.
const READ_WHOLE_BELOW: usize = 1 << 20;

/// Paths read from the text before the value is built and read instead: each read scans the text,
/// and an endpoint may read as many paths as it has types.
const SCANS_BEFORE_BUILDING: usize = 4;

/// A JSON body: its text, and its value when it has been built.
#[derive(Clone, Debug)]
pub struct JsonBody(Arc<Held>);

#[derive(Debug)]
struct Held {
    text: Arc<str>,
    value: OnceLock<Result<Value, Diagnostic>>,
    scans: AtomicUsize,
}

impl JsonBody {
    /// `text` read as `JSON.parse` reads it (a later duplicate key wins, `1e400` is Infinity);
    /// `None` when it is not JSON (YAML, HTML, text); an error when it would become more values
    /// than its size allows. A big text is checked, not built: its value is made when first asked.
    pub fn read(text: Arc<str>) -> Result<Option<JsonBody>, Diagnostic> {
        if text.len() >= READ_WHOLE_BELOW && crate::source::Format::of_text(&text) == crate::source::Format::Json {
            return Ok(crate::source::is_json_unbuilt("the answer", &text)?.then(|| JsonBody::unbuilt(text)));
        }
        let source = Source::from_text("the answer", None, text.to_string());
        let value = if source.format == crate::source::Format::Json {
            match source.parse_as_javascript() {
                Ok((value, _, _)) => Some(value),
                Err(refused) if refused.code == Code::TooManyValues => return Err(refused),
                Err(_) => None,
            }
        } else {
            // A bare JSON scalar: a number, a string, true, false, null.
            serde_json::from_str(source.text.trim()).ok()
        };
        Ok(value.map(|value| JsonBody::built(text, value)))
    }

    /// A body already held as a value (its text is the value's).
    pub fn of_value(value: Value) -> JsonBody {
        JsonBody::built(Arc::from(value.to_string()), value)
    }

    fn built(text: Arc<str>, value: Value) -> JsonBody {
        let held = Held { text, value: OnceLock::from(Ok(value)), scans: AtomicUsize::new(0) };
        JsonBody(Arc::new(held))
    }

    /// `text`, known to be JSON, with no value built yet.
    pub(crate) fn unbuilt(text: Arc<str>) -> JsonBody {
        JsonBody(Arc::new(Held { text, value: OnceLock::new(), scans: AtomicUsize::new(0) }))
    }

    /// The body's text as the API sent it.
    pub fn text(&self) -> &str {
        &self.0.text
    }

    /// Whether the value has been built.
    pub fn is_built(&self) -> bool {
        self.0.value.get().is_some()
    }

    /// The value as `JSON.parse` makes it, built the first time it is asked for. An error only for
    /// a text that checks as JSON but holds more numbers beyond a double than are read as Infinity.
    pub fn value(&self) -> Result<&Value, Diagnostic> {
        self.0
            .value
            .get_or_init(|| {
                Source::from_text("the answer", None, self.text().to_owned()).parse_as_javascript().map(|(v, _, _)| v)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The value at `path` (`getRawValue`'s walk: `.`-separated, `\.` escaped), as JavaScript holds
    /// it; read from the text where it lies until the value is built or has been scanned for often.
    pub(crate) fn value_at(&self, path: Option<&str>) -> Result<std::borrow::Cow<'_, Value>, Diagnostic> {
        let scanned = self.0.scans.fetch_add(1, Ordering::Relaxed);
        if self.is_built() || scanned >= SCANS_BEFORE_BUILDING {
            use std::borrow::Cow;
            return Ok(match crate::js::as_parsed_borrowed(self.value()?) {
                Cow::Borrowed(value) => Cow::Borrowed(super::response::extract_value(value, path)?),
                Cow::Owned(value) => Cow::Owned(super::response::extract_value(&value, path)?.clone()),
            });
        }
        let text = self.text();
        let span = span_at(text, path)?;
        Ok(std::borrow::Cow::Owned(value_of(text, &span)?))
    }

    /// The body written out in `style`, each string given to
    /// `string` first (`true` for a key): a built value is written, else the text is rewritten where
    /// it lies, keys in the order and number the API sent them.
    pub fn shown(&self, style: Style, string: &dyn Fn(&str, bool) -> String) -> String {
        let Some(Ok(value)) = self.0.value.get() else { return json_text::rewritten(self.text(), style, string) };
        let masked = map_texts(value, string);
        match (style.pretty, style.javascript) {
            (true, true) => crate::js::stringify_pretty(&masked),
            (false, true) => crate::js::stringify(&masked),
            (true, false) => serde_json::to_string_pretty(&masked).unwrap_or_default(),
            (false, false) => masked.to_string(),
        }
    }
}

/// What reading `text` where it lies finds at `path` (a `_path`), against what its value finds:
/// `None` when they agree (the same value, or the same message), else both. For the `answer_text`
/// fuzz target, which holds the two readers together on any input; a text a big answer's check
/// would refuse agrees by definition, as it is never read.
#[doc(hidden)]
pub fn text_and_value_disagree(text: &str, path: Option<&str>) -> Option<String> {
    if !crate::source::is_json_unbuilt("the answer", text).unwrap_or(false) {
        return None;
    }
    let body = JsonBody::unbuilt(Arc::from(text));
    let from_text = body.value_at(path).map(std::borrow::Cow::into_owned).map_err(|d| d.message);
    let value = body.value().ok()?;
    let from_value = super::response::extract_value(&crate::js::as_parsed(value), path).cloned().map_err(|d| d.message);
    (from_text != from_value).then(|| format!("from the text: {from_text:?}; from the value: {from_value:?}"))
}

/// `value` with every string given to `string` (`true` for a key, which keeps its place).
pub(super) fn map_texts(value: &Value, string: &dyn Fn(&str, bool) -> String) -> Value {
    match value {
        Value::String(text) => Value::String(string(text, false)),
        Value::Array(items) => Value::Array(items.iter().map(|v| map_texts(v, string)).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (string(k, true), map_texts(v, string))).collect()),
        other => other.clone(),
    }
}

/// The value of `span`, read as `JSON.parse` reads it and held as JavaScript holds it.
fn value_of(text: &str, span: &Range<usize>) -> Result<Value, Diagnostic> {
    let piece = text.get(span.clone()).unwrap_or_default().to_owned();
    let (value, _, _) = Source::from_text("the answer", None, piece).parse_as_javascript()?;
    Ok(crate::js::as_parsed(&value))
}

/// Where the value at `path` lies in `text`, as [`super::response::extract_value`] walks a value: an
/// object's member by key (the last of a repeated key, as `JSON.parse` keeps it), an array's
/// element by canonical index.
fn span_at(text: &str, path: Option<&str>) -> Result<Range<usize>, Diagnostic> {
    let mut current = json_text::root(text);
    let Some(path) = path.filter(|p| !p.is_empty()) else { return Ok(current) };
    let mut walked: Vec<String> = Vec::new();
    for segment in escape_aware_split(path, '.') {
        let next = match json_text::kind(text, &current) {
            Kind::Object => json_text::members(text, &current)
                .filter(|(key, _)| json_text::key(text, key) == segment.as_str())
                .last()
                .map(|(_, value)| value),
            Kind::Array => segment
                .parse::<usize>()
                .ok()
                .filter(|_| super::response::canonical_index(&segment))
                .and_then(|index| json_text::elements(text, &current).nth(index)),
            Kind::Scalar => None,
        };
        let Some(next) = next else {
            return Err(value_not_found(path, &walked, &segment, shape_of(text, &current)?));
        };
        walked.push(segment);
        current = next;
    }
    Ok(current)
}

/// What the value at `span` is, for saying what was there instead of a path's next step.
fn shape_of(text: &str, span: &Range<usize>) -> Result<Shape, Diagnostic> {
    Ok(match json_text::kind(text, span) {
        Kind::Array => Shape::Array(json_text::elements(text, span).count()),
        Kind::Object => {
            let mut keys = indexmap::IndexSet::new();
            for (key, _) in json_text::members(text, span) {
                keys.insert(json_text::key(text, &key).into_owned());
            }
            Shape::object(keys.into_iter())
        }
        Kind::Scalar => Shape::Other(crate::openapi::kind_of(&value_of(text, span)?)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn read_both(text: &str, path: Option<&str>) -> (Result<Value, String>, Result<Value, String>) {
        let whole = JsonBody::read(Arc::from(text)).ok().flatten().map(|b| b.value().cloned().map(JsonBody::of_value));
        let from_value = match whole {
            Some(Ok(body)) => {
                let value = body.value().cloned().unwrap_or_default();
                let parsed = crate::js::as_parsed(&value);
                super::super::response::extract_value(&parsed, path).cloned().map_err(|d| d.message)
            }
            _ => Err("not JSON".to_owned()),
        };
        let from_text =
            JsonBody::unbuilt(Arc::from(text)).value_at(path).map(|v| v.into_owned()).map_err(|d| d.message);
        (from_value, from_text)
    }

    fn read_value(text: &str) -> Result<Option<Value>, Diagnostic> {
        JsonBody::read(Arc::from(text)).map(|body| body.map(|b| b.value().cloned().unwrap_or_default()))
    }

    #[test]
    fn only_json_is_json() {
        let read = |text: &str| read_value(text).unwrap();
        assert_eq!(read("<html>maintenance</html>"), None);
        assert_eq!(read("maintenance"), None);
        assert_eq!(read("a: 1"), None);
        assert_eq!(read(" 42 "), Some(serde_json::json!(42)));
        assert_eq!(read("\"text\""), Some(serde_json::json!("text")));
        assert_eq!(read(r#"{"a": 1, "a": 2}"#), Some(serde_json::json!({"a": 2})));
    }

    #[test]
    fn a_big_answer_is_checked_whole_and_built_only_when_asked() {
        let prices = format!("[{}1e400]", "61234.5,".repeat(200_000));
        let body = JsonBody::read(Arc::from(prices.as_str())).unwrap().unwrap();
        assert!(!body.is_built());
        let reserved = |path: &str| {
            serde_json::json!({"_type": "int256", "_path": path, "_times": "10"})
                .as_object()
                .cloned()
                .unwrap_or_default()
        };
        let preview = super::super::extract_and_encode_body(&body, &reserved("199999"), 0).unwrap();
        assert_eq!(preview.values, [serde_json::json!("612345")]);
        assert!(!body.is_built(), "a path is read where it lies");
        let missing = super::super::extract_and_encode_body(&body, &reserved("200001"), 0).unwrap_err();
        assert!(missing.message.contains("is an array of 200001 item(s)"), "{}", missing.message);
        assert_eq!(body.value().unwrap()[200_000], "Infinity");
        // Not JSON, and too dense, are told as of a small answer.
        assert_eq!(read_value(&format!("[{}", "61234.5,".repeat(200_000))).unwrap(), None);
        let dense = format!("[{}{{}}]", "{},".repeat(400_000));
        assert_eq!(read_value(&dense).unwrap_err().code, Code::TooManyValues);
        let small_dense = format!("[{}{{}}]", "{},".repeat(200_000));
        assert_eq!(read_value(&small_dense).unwrap_err().code, Code::TooManyValues);
    }

    #[test]
    fn a_path_read_from_the_text_is_what_the_value_holds() {
        let text = r#"{"b": 1, "2": {"x": [10, 20, {"y.z": "w"}]}, "b": [true, null], "1": 1e400, "s": "t"}"#;
        for path in [
            None,
            Some("b"),
            Some("b.0"),
            Some("2.x.2.y\\.z"),
            Some("1"),
            Some("2.x.01"),
            Some("2.x.3"),
            Some("s.0"),
            Some("nope"),
            Some("b.1.q"),
        ] {
            let (value, text) = read_both(text, path);
            assert_eq!(value, text, "{path:?}");
        }
    }

    /// Whether an object of `text` names a key twice.
    fn repeats_a_key(text: &str, span: &Range<usize>) -> bool {
        match json_text::kind(text, span) {
            Kind::Object => {
                let mut keys = std::collections::HashSet::new();
                json_text::members(text, span).any(|(key, value)| {
                    !keys.insert(json_text::key(text, &key).into_owned()) || repeats_a_key(text, &value)
                })
            }
            Kind::Array => json_text::elements(text, span).any(|element| repeats_a_key(text, &element)),
            Kind::Scalar => false,
        }
    }

    /// JSON texts (a container at the root, as a big answer is), spaced oddly, keys repeated.
    fn json_text() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("null".to_owned()),
            Just("true".to_owned()),
            (-1.0e6f64..1.0e6).prop_map(|n| n.to_string()),
            Just("1e400".to_owned()),
            Just("12345678901234567890".to_owned()),
            "[a-c0-9.\\\\\"]{0,4}".prop_map(|s| Value::String(s).to_string()),
        ];
        let container = |inner: BoxedStrategy<String>| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..5).prop_map(|items| format!("[ {} ]", items.join(" ,"))),
                proptest::collection::vec(("[a-c0-9.]{0,2}", inner), 0..5).prop_map(|members| {
                    let members: Vec<String> =
                        members.into_iter().map(|(k, v)| format!("{}: {v}", Value::String(k))).collect();
                    format!("{{{}}}", members.join(","))
                }),
            ]
        };
        leaf.prop_recursive(4, 32, 5, move |inner| container(inner).boxed())
            .prop_flat_map(move |value| container(Just(value).boxed()))
    }

    proptest! {
        /// Any answer and any path: the text read where it lies gives the value, or the message, that
        /// the answer's value gives (repeated keys, index keys, escaped dots, Infinity included).
        #[test]
        fn the_text_and_the_value_agree(text in json_text(), path in "[a-c0-9.]{0,6}") {
            let (value, from_text) = read_both(&text, Some(&path));
            prop_assert_eq!(value, from_text);
        }

        /// Shown from its text, an answer is what its value shows (when its keys are not repeated).
        #[test]
        fn shown_from_the_text_is_shown_from_the_value(text in json_text()) {
            let same = |s: &str, _: bool| s.to_uppercase();
            prop_assume!(!repeats_a_key(&text, &json_text::root(&text)));
            let built = JsonBody::read(Arc::from(text.as_str())).ok().flatten();
            let Some(built) = built else { return Ok(()) };
            let from_text = JsonBody::unbuilt(Arc::from(text.as_str()));
            for (pretty, javascript) in [(true, true), (false, false)] {
                let style = Style { pretty, javascript };
                prop_assert_eq!(from_text.shown(style, &same), built.shown(style, &same));
            }
        }
    }
}
