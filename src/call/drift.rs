//! Drift: how a live answer moved from its recording (`call --check`): a value gone, of another
//! type, or a number moved by more than a tolerance.

use std::ops::Range;

use super::recording::Recordings;
use crate::request::json_text;

/// How far a live answer may be from its recording before it has drifted.
#[derive(Clone, Debug)]
pub struct DriftCheck {
    /// The recordings compared with.
    pub recordings: Recordings,
    /// The largest relative change of a number (`0.05`: 5 %).
    pub tolerance: f64,
}

/// At most this many moves are said.
const MOST: usize = 5;

/// What moved between the JSON texts `recorded` and `live` (each as `JSON.parse` reads it: a
/// repeated key's last value, a number beyond a double Infinity, which is a string there): every
/// value of the recording must still be there, of the same JSON type, and a number within
/// `tolerance` of what it was (relative). At most a few moves are said, each with its JSON pointer,
/// in the recording's order; an empty list is no drift. Both are read where they lie: a big answer
/// and its recording are compared without building either.
pub fn drift(recorded: &str, live: &str, tolerance: f64) -> Vec<String> {
    let mut moved = Vec::new();
    let mut frames =
        vec![Frame::Values(vec![(String::new(), json_text::root(recorded), Some(json_text::root(live)))].into_iter())];
    while moved.len() < MOST {
        let Some(frame) = frames.last_mut() else { break };
        let Some((pointer, was, now)) = frame.next() else {
            frames.pop();
            continue;
        };
        let at = if pointer.is_empty() { "the answer".to_owned() } else { pointer.clone() };
        let Some(now) = now else {
            moved.push(format!("{at} is gone"));
            continue;
        };
        match (Scalar::of(recorded, &was), Scalar::of(live, &now)) {
            (None, None) if json_text::kind(recorded, &was) == json_text::kind(live, &now) => {
                frames.push(Frame::below(recorded, live, pointer, was, now));
            }
            (Some(Scalar::Number(was)), Some(Scalar::Number(now))) => {
                let change = if was == 0.0 { now.abs() } else { ((now - was) / was).abs() };
                if change > tolerance {
                    moved.push(format!("{at} moved from {was} to {now} ({:.1} %)", change * 100.0));
                }
            }
            (was_scalar, now_scalar) => {
                let (was_kind, now_kind) = (kind(recorded, &was, was_scalar), kind(live, &now, now_scalar));
                if was_kind != now_kind {
                    moved.push(format!("{at} was {was_kind} and is now {now_kind}"));
                }
            }
        }
    }
    moved
}

/// The values still to compare below one object or array: each one's pointer, its span in the
/// recording and in the live answer (none when it is gone).
enum Frame<'t> {
    Values(std::vec::IntoIter<(String, Range<usize>, Option<Range<usize>>)>),
    /// An array's elements, read side by side as they are reached.
    Elements {
        pointer: String,
        index: usize,
        was: Box<dyn Iterator<Item = Range<usize>> + 't>,
        now: Box<dyn Iterator<Item = Range<usize>> + 't>,
    },
}

impl<'t> Frame<'t> {
    fn below(recorded: &'t str, live: &'t str, pointer: String, was: Range<usize>, now: Range<usize>) -> Frame<'t> {
        if json_text::kind(recorded, &was) == json_text::Kind::Array {
            return Frame::Elements {
                pointer,
                index: 0,
                was: Box::new(json_text::elements(recorded, &was)),
                now: Box::new(json_text::elements(live, &now)),
            };
        }
        // An object: each key once (its last value, in the place of its first), found in the live
        // object by key.
        let mut members: indexmap::IndexMap<std::borrow::Cow<'t, str>, Range<usize>> = indexmap::IndexMap::new();
        for (key, value) in json_text::members(recorded, &was) {
            members.insert(json_text::key(recorded, &key), value);
        }
        let live_members: std::collections::HashMap<std::borrow::Cow<'t, str>, Range<usize>> =
            json_text::members(live, &now).map(|(key, value)| (json_text::key(live, &key), value)).collect();
        let values: Vec<_> = members
            .into_iter()
            .map(|(key, value)| {
                let found = live_members.get(&key).cloned();
                let mut below = pointer.clone();
                crate::pointer::push(&mut below, &key);
                (below, value, found)
            })
            .collect();
        Frame::Values(values.into_iter())
    }

    fn next(&mut self) -> Option<(String, Range<usize>, Option<Range<usize>>)> {
        match self {
            Frame::Values(values) => values.next(),
            Frame::Elements { pointer, index, was, now } => {
                let was = was.next()?;
                let found = format!("{pointer}/{index}");
                *index += 1;
                Some((found, was, now.next()))
            }
        }
    }
}

/// A value that is neither an object nor an array, as far as drift tells them apart.
#[derive(Clone, Copy)]
enum Scalar {
    Number(f64),
    Other(&'static str),
}

impl Scalar {
    fn of(text: &str, span: &Range<usize>) -> Option<Scalar> {
        if json_text::kind(text, span) != json_text::Kind::Scalar {
            return None;
        }
        let raw = text.get(span.clone()).unwrap_or_default();
        Some(match raw.as_bytes().first() {
            Some(b'"') => Scalar::Other("a string"),
            Some(b't' | b'f') => Scalar::Other("a boolean"),
            Some(b'n') => Scalar::Other("null"),
            // A number beyond a double is Infinity to JSON.parse, held as a string.
            _ => match serde_json::from_str::<serde_json::Number>(raw) {
                Ok(number) => Scalar::Number(number.as_f64().unwrap_or(0.0)),
                Err(_) => Scalar::Other("a string"),
            },
        })
    }
}

fn kind(text: &str, span: &Range<usize>, scalar: Option<Scalar>) -> &'static str {
    match (scalar, json_text::kind(text, span)) {
        (Some(Scalar::Number(_)), _) => "a number",
        (Some(Scalar::Other(kind)), _) => kind,
        (None, json_text::Kind::Array) => "an array",
        (None, _) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn drift_of(was: &Value, now: &Value, tolerance: f64) -> Vec<String> {
        drift(&was.to_string(), &now.to_string(), tolerance)
    }

    /// Drift as it reads on values: the oracle the texts read where they lie must agree with.
    fn drift_of_values(recorded: &Value, live: &Value, tolerance: f64) -> Vec<String> {
        let mut moved = Vec::new();
        let mut stack: Vec<(String, &Value, Option<&Value>)> = vec![(String::new(), recorded, Some(live))];
        while let Some((pointer, was, now)) = stack.pop() {
            if moved.len() == MOST {
                break;
            }
            let at = if pointer.is_empty() { "the answer".to_owned() } else { pointer.clone() };
            let Some(now) = now else {
                moved.push(format!("{at} is gone"));
                continue;
            };
            let kind = crate::openapi::kind_of;
            match (was, now) {
                (Value::Object(was), Value::Object(now)) => {
                    for (key, value) in was.iter().rev() {
                        let mut below = pointer.clone();
                        crate::pointer::push(&mut below, key);
                        stack.push((below, value, now.get(key)));
                    }
                }
                (Value::Array(was), Value::Array(now)) => {
                    for (index, value) in was.iter().enumerate().rev() {
                        stack.push((format!("{pointer}/{index}"), value, now.get(index)));
                    }
                }
                (Value::Number(was), Value::Number(now)) => {
                    let (was, now) = (was.as_f64().unwrap_or(0.0), now.as_f64().unwrap_or(0.0));
                    let change = if was == 0.0 { now.abs() } else { ((now - was) / was).abs() };
                    if change > tolerance {
                        moved.push(format!("{at} moved from {was} to {now} ({:.1} %)", change * 100.0));
                    }
                }
                (was, now) if kind(was) != kind(now) => {
                    moved.push(format!("{at} was {} and is now {}", kind(was), kind(now)));
                }
                _ => {}
            }
        }
        moved
    }

    #[test]
    fn drift_is_a_path_gone_a_type_changed_or_a_number_moved() {
        let was = serde_json::json!({"rates": {"EUR": 0.92, "GBP": 0.79}, "base": "USD", "list": [1, 2]});
        assert!(
            drift_of(
                &was,
                &serde_json::json!({"rates": {"EUR": 0.93, "GBP": 0.79, "JPY": 1}, "base": "USD", "list": [1, 2, 3]}),
                0.05
            )
            .is_empty()
        );
        let moved = drift_of(&was, &serde_json::json!({"rates": {"EUR": "0.92"}, "base": "EUR", "list": [1]}), 0.05);
        assert_eq!(moved, ["/rates/EUR was a number and is now a string", "/rates/GBP is gone", "/list/1 is gone"]);
        let moved = drift_of(
            &was,
            &serde_json::json!({"rates": {"EUR": 1.5, "GBP": 0.79}, "base": "USD", "list": [1, 2]}),
            0.05,
        );
        assert_eq!(moved.len(), 1);
        assert!(moved[0].starts_with("/rates/EUR moved from 0.92 to 1.5"), "{moved:?}");
        // As JSON.parse reads them: a repeated key's last value, Infinity a string.
        assert_eq!(drift(r#"{"a": "x", "a": 1}"#, r#"{"a": 2}"#, 0.1), ["/a moved from 1 to 2 (100.0 %)"]);
        assert_eq!(drift("[1e400]", "[1]", 0.1), ["/0 was a string and is now a number"]);
    }

    proptest::proptest! {
        /// An answer never drifts from itself, and a value taken away always does.
        #[test]
        fn drift_is_what_changed(body in super::super::recording::tests::json()) {
            proptest::prop_assert!(drift_of(&body, &body, 0.0).is_empty());
            if let Value::Object(map) = &body
                && let Some((key, _)) = map.iter().next()
            {
                let mut gone = map.clone();
                gone.remove(key);
                proptest::prop_assert!(!drift_of(&body, &Value::Object(gone), 0.0).is_empty());
            }
        }

        /// Read where they lie, two answers drift as their values do.
        #[test]
        fn the_texts_drift_as_their_values(
            was in super::super::recording::tests::json(),
            now in super::super::recording::tests::json(),
            tolerance in 0.0f64..0.5,
        ) {
            proptest::prop_assert_eq!(drift_of(&was, &now, tolerance), drift_of_values(&was, &now, tolerance));
        }
    }
}
