//! secrets.env files read by `ois` and by the node's own reader, `dotenv.parse` 16
//! (tests/interop/dotenv.js): thousands of generated files built from the pieces dotenv treats
//! specially (quotes of three kinds, escapes, comments, `export`, `:`, line ends of every kind,
//! JavaScript-only white space) must give the same names and values.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)] // tests fail by panicking

mod common;

use std::collections::BTreeMap;

use serde_json::{Value, json};

use common::run_node;

const PIECES: &[&str] = &[
    "K",
    "API_KEY",
    "a.b-c",
    "1",
    "__proto__",
    "é",
    "export",
    "export ",
    " ",
    "  ",
    "\t",
    "=",
    " = ",
    ":",
    ": ",
    "=\"",
    "'",
    "\"",
    "`",
    "\\'",
    "\\\"",
    "\\`",
    "\\n",
    "\\r",
    "\\",
    "#",
    " #",
    "# c",
    "abc",
    "x y",
    "$",
    "${A}",
    "\n",
    "\r\n",
    "\r",
    "\u{2028}",
    "\u{2029}",
    "\u{85}",
    "\u{a0}",
    "\u{feff}",
    "\u{3000}",
    "\u{1F600}",
    "=x",
    "K=v\n",
    "V=\"a\nb\"",
    "W='q'",
    "Z=`t`",
];

/// A fixed xorshift sequence, so a failing file can be reproduced.
fn files(count: usize) -> Vec<String> {
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let length = next() % 24;
            (0..length).map(|_| PIECES[(next() % PIECES.len() as u64) as usize]).collect()
        })
        .collect()
}

fn ours(text: &str) -> BTreeMap<String, String> {
    ois::request::dotenv::parse(text).expect("readable").into_iter().map(|e| (e.name, e.value)).collect()
}

#[test]
fn secrets_files_read_as_dotenv_reads_them() {
    if !common::interop_installed("dotenv") {
        return;
    }
    let mut texts: Vec<String> = [
        "K=abc # note",
        "K=abc#def",
        "K=\"a\\nb\"",
        "K='a\\nb'",
        "K=`a'b\"c`",
        "export K=v",
        "K: v",
        "K=\"multi\nline\"",
        "K='it\\'s'",
        "K=\"unterminated\nL=next",
    ]
    .map(str::to_owned)
    .to_vec();
    texts.extend(files(5000));
    let Value::Array(theirs) = run_node("dotenv.js", &json!(texts)) else { panic!("no results") };
    let differences: Vec<String> = texts
        .iter()
        .zip(&theirs)
        .filter_map(|(text, real)| {
            let real: BTreeMap<String, String> = real
                .as_array()
                .unwrap()
                .iter()
                .map(|pair| (pair[0].as_str().unwrap().to_owned(), pair[1].as_str().unwrap().to_owned()))
                .collect();
            let ours = ours(text);
            (ours != real).then(|| format!("{text:?}\n  ours:   {ours:?}\n  dotenv: {real:?}"))
        })
        .collect();
    assert!(differences.is_empty(), "{} of {} differ:\n{}", differences.len(), texts.len(), differences.join("\n"));
}
