//! Our YAML against js-yaml (tests/interop, run with node), the YAML reader of the node's tooling:
//! every string, as a value and as a key, must come back from js-yaml as the same string (not a
//! date, a number, a boolean or a merge key).

#![allow(clippy::expect_used)] // tests fail by panicking

use crate::common;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};

use common::run_node;

/// Strings YAML readers are known to take for something else, then thousands of generated ones.
fn strings() -> Vec<String> {
    let mut strings: Vec<String> = [
        "yes",
        "Yes",
        "NO",
        "on",
        "Off",
        "y",
        "n",
        "~",
        "null",
        "Null",
        "true",
        "False",
        "2018-02-02",
        "2001-12-14t21:59:43.10-05:00",
        "1:20",
        "190:20:30",
        "<<",
        "=",
        "0o17",
        "0x1F",
        "0b101",
        "1_000",
        "+12",
        ".5",
        "1e3",
        "1.0e+3",
        ".inf",
        "-.Inf",
        ".NaN",
        "3.0.0",
        "",
        " ",
        "a #b",
        "a: b",
        "- a",
        "? a",
        "[a]",
        "{a: 1}",
        "*ref",
        "&anchor",
        "!tag",
        "|",
        ">",
        "%YAML",
        "@x",
        "`x",
        "'",
        "\"",
        "line\nbreak",
        "tab\there",
        "\u{85}",
        "\u{2028}",
        "\u{feff}bom",
        "https://api.example.com/v1",
        "/coins/{id}",
        "Coin Prices API",
        "x-",
        "-",
        "--- a",
        "... a",
    ]
    .map(str::to_owned)
    .to_vec();
    // Longer than YAML's 1,024-character implicit keys: written `? key` then `: value`.
    strings.push(format!("/{}", "p".repeat(1100)));
    strings.push(format!("/{}: 'q'", "ü".repeat(1030)));
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]));
    let special = "[-a-zA-Z0-9 :#'\"{}\\[\\],.&*!|>%@`?<=~_/+\\\\\n\t]{0,10}";
    for strategy in [special.boxed(), proptest::arbitrary::any::<String>().boxed()] {
        for _ in 0..2000 {
            strings.push(strategy.new_tree(&mut runner).expect("a string").current());
        }
    }
    strings
}

#[test]
fn every_string_reads_back_the_same_in_js_yaml() {
    if !common::interop_installed("js-yaml") {
        return;
    }
    let values: Vec<Value> = strings()
        .into_iter()
        .map(|s| json!({"value": s.clone(), "list": [s.clone(), {"inner": s.clone()}], s: "as a key"}))
        .collect();
    let texts: Vec<String> = values.iter().map(ois::emit::to_yaml).collect();
    let Value::Array(read) = run_node("yaml.js", &json!(texts)) else { panic!("no results") };
    let differences: Vec<String> = values
        .iter()
        .zip(&texts)
        .zip(&read)
        .filter(|((value, _), result)| result.get("value") != Some(*value))
        .map(|((value, text), result)| format!("{value}\n--- ours:\n{text}--- js-yaml: {result}"))
        .collect();
    assert!(differences.is_empty(), "{} of {} differ:\n{}", differences.len(), values.len(), differences.join("\n\n"));
}
