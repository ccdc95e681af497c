//! Strategies the unit tests of several modules share.

use proptest::prelude::*;
use serde_json::Value;

/// Any JSON value a few levels deep, with strings full of the bytes JSON scanners trip on
/// (quotes, backslashes, brackets, commas, colons).
pub(crate) fn json_value() -> impl Strategy<Value = Value> {
    let text = "[a-b{}\\[\\]\"\\\\ ,:é]{0,4}";
    let number = prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from)
    ];
    let leaf = prop_oneof![Just(Value::Null), any::<bool>().prop_map(Value::from), number, text.prop_map(Value::from)];
    leaf.prop_recursive(4, 40, 5, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::from),
            proptest::collection::vec((text, inner), 0..5)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}
