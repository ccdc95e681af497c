//! The JavaScript semantics the node relies on, in one place: how `JSON.parse` stores a value
//! (every number a double, integer-like keys first), `String(value)`, `JSON.stringify`,
//! truthiness, `encodeURIComponent`, `parseInt` and the `\s` of its regular expressions. Values
//! reach the adapter through `JSON.parse`, so we normalise them the same way before building
//! anything from them.

mod text;

pub use text::{ParsedInt, encode_uri_component, is_whitespace, parse_int};

use std::io;

use serde_json::ser::Formatter;
use serde_json::{Map, Number, Value};

/// Integers beyond this magnitude are not all representable as a double.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// `value` as JavaScript holds it after `JSON.parse`: integers a double cannot hold are rounded
/// to the nearest double, and in every object the keys that are array indices come first, in
/// ascending order, the others after them in their order (ECMAScript `OrdinaryOwnPropertyKeys`).
pub fn as_parsed(value: &Value) -> Value {
    match value {
        Value::Number(n) => Value::Number(as_double(n)),
        Value::Array(items) => Value::Array(items.iter().map(as_parsed).collect()),
        Value::Object(map) => {
            let mut map: Map<String, Value> = map.iter().map(|(k, v)| (k.clone(), as_parsed(v))).collect();
            order_keys(&mut map);
            Value::Object(map)
        }
        other => other.clone(),
    }
}

/// [`as_parsed`], borrowing `value` when it already is as JavaScript holds it (the usual answer:
/// no integer beyond a double, no object whose index keys come late), so that a big answer is
/// not copied to be read.
pub fn as_parsed_borrowed(value: &Value) -> std::borrow::Cow<'_, Value> {
    if is_as_parsed(value) { std::borrow::Cow::Borrowed(value) } else { std::borrow::Cow::Owned(as_parsed(value)) }
}

fn is_as_parsed(value: &Value) -> bool {
    // A walk with a stack of its own: an answer may nest as deep as the parser allows.
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            Value::Number(n) if as_double(n) != *n => return false,
            Value::Object(map) if map.keys().any(|k| array_index(k).is_some()) => return false,
            Value::Array(items) => pending.extend(items),
            Value::Object(map) => pending.extend(map.values()),
            _ => {}
        }
    }
    true
}

/// Puts the array-index keys of `map` first, as a JavaScript object enumerates them.
pub fn order_keys(map: &mut Map<String, Value>) {
    if !map.keys().any(|k| array_index(k).is_some()) {
        return;
    }
    let mut entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
    // Stable: the other keys keep their insertion order.
    entries.sort_by_key(|(k, _)| key_rank(k));
    map.extend(entries);
}

/// Where `key` comes in a JavaScript object's keys: array indices first, ascending, then the rest in
/// their order (sort by this, stably).
pub fn key_rank(key: &str) -> (u8, u32) {
    array_index(key).map_or((1, 0), |i| (0, i))
}

/// The index of a key that is an array index: the canonical decimal form of an integer
/// below 2^32 − 1.
fn array_index(key: &str) -> Option<u32> {
    let index: u32 = key.parse().ok()?;
    (index != u32::MAX && index.to_string() == key).then_some(index)
}

fn as_double(n: &Number) -> Number {
    let exact = n.as_u64().is_some_and(|u| u <= MAX_SAFE_INTEGER)
        || n.as_i64().is_some_and(|i| i.unsigned_abs() <= MAX_SAFE_INTEGER)
        || n.is_f64();
    if exact {
        return n.clone();
    }
    // Rounded to the nearest double, as parsing its decimal text would.
    n.as_f64().and_then(Number::from_f64).unwrap_or_else(|| n.clone())
}

/// JavaScript truthiness.
pub fn is_truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// JavaScript's `String(value)`.
pub fn string(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number(n),
        Value::Array(items) => {
            items.iter().map(|v| if v.is_null() { String::new() } else { string(v) }).collect::<Vec<_>>().join(",")
        }
        Value::Object(_) => "[object Object]".to_owned(),
    }
}

/// JavaScript's `String(number)` (ECMAScript `Number::toString`): the shortest digits that
/// round-trip, laid out in plain notation from 1e-6 up to 1e21 and as `1.5e+21` beyond.
pub fn number(n: &Number) -> String {
    if let Some(i) = n.as_i64().filter(|i| i.unsigned_abs() <= MAX_SAFE_INTEGER) {
        return i.to_string();
    }
    // ryu-js implements ECMAScript's Number::toString exactly: shortest round-trip digits, ties
    // between shortest forms to the even digit, plain notation from 1e-6 up to 1e21, `-0` as "0".
    ryu_js::Buffer::new().format(n.as_f64().unwrap_or(0.0)).to_owned()
}

/// `JSON.stringify(value)`: numbers as JavaScript prints them (`1e+21`, `12345678901234567000`).
pub fn stringify(value: &Value) -> String {
    write(value, serde_json::ser::CompactFormatter)
}

/// `JSON.stringify(value, null, 2)`.
pub fn stringify_pretty(value: &Value) -> String {
    write(value, serde_json::ser::PrettyFormatter::new())
}

fn write<F: Formatter>(value: &Value, formatter: F) -> String {
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, JsNumbers(formatter));
    // Serialising a `Value` into memory cannot fail: its keys are strings and it holds no NaN.
    if serde::Serialize::serialize(value, &mut serializer).is_err() {
        return String::new();
    }
    String::from_utf8(out).unwrap_or_default()
}

/// A formatter that lays out like `F` and writes numbers with [`number`].
struct JsNumbers<F>(F);

impl<F: Formatter> Formatter for JsNumbers<F> {
    fn write_i64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: i64) -> io::Result<()> {
        writer.write_all(number(&Number::from(value)).as_bytes())
    }
    fn write_u64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: u64) -> io::Result<()> {
        writer.write_all(number(&Number::from(value)).as_bytes())
    }
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        // Not finite cannot come from a `Value`; JSON.stringify would write null.
        let text = Number::from_f64(value).map_or_else(|| "null".to_owned(), |n| number(&n));
        writer.write_all(text.as_bytes())
    }
    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_array(writer)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array(writer)
    }
    fn begin_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_array_value(writer, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array_value(writer)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object(writer)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object(writer)
    }
    fn begin_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_object_key(writer, first)
    }
    fn end_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_key(writer)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object_value(writer)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_value(writer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn n(v: Value) -> String {
        number(v.as_number().unwrap())
    }

    #[test]
    fn numbers_as_javascript_prints_them() {
        // Each expectation is what node prints for `String(x)`.
        for (value, javascript) in [
            (json!(42), "42"),
            (json!(-3), "-3"),
            (json!(1.5), "1.5"),
            (json!(2.0), "2"),
            (json!(-0.0), "0"),
            (json!(1e21), "1e+21"),
            (json!(1.5e21), "1.5e+21"),
            (json!(1e20), "100000000000000000000"),
            (json!(123456789012345680000.0), "123456789012345680000"),
            (json!(0.000001), "0.000001"),
            (json!(0.0000001), "1e-7"),
            (json!(-1.25e-7), "-1.25e-7"),
            (json!(0.1 + 0.2), "0.30000000000000004"),
            (json!(5e-324), "5e-324"),
            (json!(f64::MAX), "1.7976931348623157e+308"),
            (json!(9007199254740993_u64), "9007199254740992"),
            (json!(12345678901234567891_u64), "12345678901234567000"),
            (json!(-9223372036854775807_i64), "-9223372036854776000"),
            (json!(1.2345678901234567e19), "12345678901234567000"),
            // Halfway between two shortest forms: the even one.
            (json!("2107394749191249.25".parse::<f64>().unwrap()), "2107394749191249.2"),
            (json!("261360148647986.625".parse::<f64>().unwrap()), "261360148647986.62"),
        ] {
            assert_eq!(n(value.clone()), javascript, "String({value})");
        }
    }

    #[test]
    fn json_parse_puts_index_keys_first_and_rounds_big_integers() {
        let parsed =
            as_parsed(&json!({"b": 1, "10": 2, "a": {"x": 0, "1": 0}, "2": 3, "01": 4, "4294967295": 5, "-1": 6,
            "big": [18446744073709551615_u64]}));
        assert_eq!(
            stringify(&parsed),
            r#"{"2":3,"10":2,"b":1,"a":{"1":0,"x":0},"01":4,"4294967295":5,"-1":6,"big":[18446744073709552000]}"#
        );
    }

    #[test]
    fn stringify_like_json_stringify() {
        let value = as_parsed(
            &json!({"big": 12345678901234567891_u64, "e": 1e21, "z": -0.0, "l": [1.5, {"k": 0.1}], "s": "é\""}),
        );
        assert_eq!(stringify(&value), r#"{"big":12345678901234567000,"e":1e+21,"z":0,"l":[1.5,{"k":0.1}],"s":"é\""}"#);
        assert_eq!(stringify_pretty(&json!({"a": [1e21]})), "{\n  \"a\": [\n    1e+21\n  ]\n}");
    }

    proptest! {
        /// Whatever the layout, the text reads back as the same double.
        #[test]
        fn javascript_number_text_round_trips(f in any::<f64>().prop_filter("finite", |f| f.is_finite())) {
            let text = number(&Number::from_f64(f).unwrap());
            prop_assert_eq!(text.parse::<f64>().unwrap(), if f == 0.0 { 0.0 } else { f });
            prop_assert!(!text.contains("e") || text.contains("e+") || text.contains("e-"));
        }

        #[test]
        fn integers_print_plainly_below_1e21(i in any::<i64>()) {
            let text = number(&Number::from(i));
            prop_assert!(!text.contains('e'));
            prop_assert_eq!(text.parse::<f64>().unwrap(), i as f64);
        }
    }
}
