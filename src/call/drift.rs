//! Drift: how a live answer moved from its recording (`call --check`): a value gone, of another
//! type, or a number moved by more than a tolerance.

use serde_json::Value;

use super::recording::Recordings;

/// How far a live answer may be from its recording before it has drifted.
#[derive(Clone, Debug)]
pub struct DriftCheck {
    /// The recordings compared with.
    pub recordings: Recordings,
    /// The largest relative change of a number (`0.05`: 5 %).
    pub tolerance: f64,
}

/// What moved between `recorded` and `live`: every value of the recording must still be there, of
/// the same JSON type, and a number within `tolerance` of what it was (relative). At most a few
/// moves are said, each with its JSON pointer; an empty list is no drift.
pub fn drift(recorded: &Value, live: &Value, tolerance: f64) -> Vec<String> {
    const MOST: usize = 5;
    let mut moved = Vec::new();
    // In document order: a value gone is said where it was.
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

fn kind(value: &Value) -> &'static str {
    crate::openapi::kind_of(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drift_is_a_path_gone_a_type_changed_or_a_number_moved() {
        let was = serde_json::json!({"rates": {"EUR": 0.92, "GBP": 0.79}, "base": "USD", "list": [1, 2]});
        assert!(
            drift(
                &was,
                &serde_json::json!({"rates": {"EUR": 0.93, "GBP": 0.79, "JPY": 1}, "base": "USD", "list": [1, 2, 3]}),
                0.05
            )
            .is_empty()
        );
        let moved = drift(&was, &serde_json::json!({"rates": {"EUR": "0.92"}, "base": "EUR", "list": [1]}), 0.05);
        assert_eq!(moved, ["/rates/EUR was a number and is now a string", "/rates/GBP is gone", "/list/1 is gone"]);
        let moved =
            drift(&was, &serde_json::json!({"rates": {"EUR": 1.5, "GBP": 0.79}, "base": "USD", "list": [1, 2]}), 0.05);
        assert_eq!(moved.len(), 1);
        assert!(moved[0].starts_with("/rates/EUR moved from 0.92 to 1.5"), "{moved:?}");
    }

    proptest::proptest! {
        /// An answer never drifts from itself, and a value taken away always does.
        #[test]
        fn drift_is_what_changed(body in super::super::recording::tests::json()) {
            proptest::prop_assert!(drift(&body, &body, 0.0).is_empty());
            if let Value::Object(map) = &body
                && let Some((key, _)) = map.iter().next()
            {
                let mut gone = map.clone();
                gone.remove(key);
                proptest::prop_assert!(!drift(&body, &Value::Object(gone), 0.0).is_empty());
            }
        }
    }
}
