//! Secrets as `ois request` and the node read them.
//!
//! - secrets.env files, against `dotenv.parse` 16 (tests/interop/dotenv.js): thousands of
//!   generated files built from the pieces dotenv treats specially (quotes of three kinds,
//!   escapes, comments, `export`, `:`, line ends of every kind, JavaScript-only white space)
//!   must give the same names and values.
//! - interpolation, against `@api3/commons` `interpolateSecretsIntoConfig` (tests/interop/secrets.js):
//!   thousands of generated strings of `${`, `}`, `\`, names and quotes must give the same text,
//!   or both fail.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)] // tests fail by panicking

use crate::common;

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

/// Texts of up to `longest` pieces, from a fixed xorshift sequence so a failure can be reproduced.
fn generated(pieces: &[&str], count: usize, longest: u64) -> Vec<String> {
    let mut rng = common::Rng(0x2545_F491_4F6C_DD1D);
    (0..count)
        .map(|_| {
            let length = rng.next() % longest;
            (0..length).map(|_| rng.pick(pieces)).collect()
        })
        .collect()
}

fn ours(text: &str) -> BTreeMap<String, String> {
    ois::node::dotenv::parse(text).expect("readable").into_iter().map(|e| (e.name, e.value)).collect()
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
    texts.extend(generated(PIECES, 5000, 24));
    let Value::Array(theirs) = run_node("dotenv.js", &json!(texts)) else { panic!("no results") };
    let differences: Vec<String> = texts
        .iter()
        .zip(theirs)
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

const TEMPLATE_PIECES: &[&str] = &[
    "${",
    "}",
    "{",
    "$",
    "\\",
    "\\${",
    "K",
    "API_KEY",
    "MISSING_SECRET_X",
    " ",
    "a",
    "\"",
    "\n",
    "\u{2028}",
    "é",
    "${K}",
    "${ API_KEY }",
    "${MISSING_SECRET_X}",
    "\\\\",
    "${K.length}",
    "x}",
];

#[test]
fn interpolation_matches_the_node() {
    if !common::interop_installed("@api3/commons") {
        return;
    }
    let values = [("K", "v\"al\\ue ${K} \\${K}"), ("API_KEY", "abc")];
    let secrets = ois::request::Secrets::from_values(values.map(|(k, v)| (k.to_owned(), v.to_owned())));
    let strings = generated(TEMPLATE_PIECES, 5000, 8);
    let input = json!({"secrets": values.into_iter().collect::<BTreeMap<_, _>>(), "strings": strings});
    // Every generation's commons interpolates alike: ours against each.
    for (label, from) in common::commons_generations() {
        let Value::Array(theirs) = common::run_node_with("secrets.js", &input, from.as_deref()) else {
            panic!("no results")
        };
        compare_interpolation(label, &secrets, &strings, &theirs);
    }
}

fn compare_interpolation(label: &str, secrets: &ois::request::Secrets, strings: &[String], theirs: &[Value]) {
    let mut compared = 0;
    let differences: Vec<String> = strings
        .iter()
        .zip(theirs)
        .filter_map(|(text, real)| {
            let ours = secrets.interpolate(text, "");
            // Anything but a name inside `${…}` is refused on purpose: the node would run it.
            if ours.as_ref().is_err_and(|e| e.code == ois::Code::SecretExpression) {
                return None;
            }
            compared += 1;
            let same = match (&ours, real.get("value")) {
                (Ok(ours), Some(Value::String(real))) => ours == real,
                (Err(_), None) => true,
                _ => false,
            };
            (!same).then(|| format!("{text:?}\n  ours: {ours:?}\n  node: {real}"))
        })
        .collect();
    assert!(compared > 2000, "{label}: only {compared} compared");
    assert!(
        differences.is_empty(),
        "{label}: {} of {} differ:\n{}",
        differences.len(),
        compared,
        differences.join("\n")
    );
}

/// Real documents whose texts carry `${` (JavaScript template literals in Jira's and
/// DigitalOcean's descriptions): converted, they load in the node, and the node reads back exactly
/// what our interpolation gives.
#[test]
fn converted_documents_with_templates_load_in_the_node() {
    if !common::interop_installed("@api3/commons") {
        return;
    }
    for document in ["jira/platform-swagger.v3.json", "digitalocean/specification/DigitalOcean-public.v2.yaml"] {
        let path = common::shared_dir().join("corpus").join(document);
        let source = ois::Source::read(&path).expect("readable");
        let mut options = ois::ConvertOptions::default();
        options.base_url = Some("https://api.example.com".into());
        let conversion = ois::convert(&source, &options).expect("converts");
        assert!(conversion.diagnostics.iter().any(|d| d.code == ois::Code::TemplateEscaped), "{document}");
        let config = json!({"ois": [conversion.ois]});
        let real = run_node("interpolate.js", &config);
        assert!(real.get("error").is_none(), "{document}: {}", real["error"]);
        let ours = ois::request::Secrets::from_values([]).interpolate_document(&config).expect("loads");
        assert!(ours == real["config"], "{document}: our interpolation differs from the node's");
    }
}

/// A `${` inside another `${…}` cannot be escaped so the node reads it back: the converted OIS
/// still loads, CNV073 says so, and the text it quotes is the one the node reads.
#[test]
fn nested_templates_are_read_as_the_warning_says() {
    if !common::interop_installed("@api3/commons") {
        return;
    }
    let texts = ["`${a ${b}}` in a shell", "${${", "x ${a ${b} c} ${d}", "${a}${b} is fine"];
    let paths: serde_json::Map<String, Value> = texts
        .iter()
        .enumerate()
        .map(|(i, text)| (format!("/t{i}"), json!({"get": {"operationId": format!("t{i}"), "description": text}})))
        .collect();
    let document = json!({"openapi": "3.0.3", "info": {"title": "Nested", "version": "1.0.0"},
        "servers": [{"url": "https://api.example.com"}], "paths": paths});
    let source = ois::Source::from_text("nested.json", None, document.to_string());
    let conversion = ois::convert(&source, &ois::ConvertOptions::default()).expect("converts");
    let real = run_node("interpolate.js", &json!({"ois": [conversion.ois]}));
    assert!(real.get("error").is_none(), "{}", real["error"]);
    for (i, text) in texts.iter().enumerate() {
        let read = real["config"]["ois"][0]["endpoints"][i]["description"].as_str().unwrap();
        let at = format!("/endpoints/{i}/description");
        let warning = conversion.diagnostics.iter().find(|d| d.location.pointer == at);
        let nested = ois::escape_templates(text).is_some() && read != *text;
        match warning {
            Some(d) if d.code == ois::Code::TemplateNested => {
                assert!(nested, "{text:?} is read back as it was");
                assert!(d.message.ends_with(&format!(": \"{read}\"")), "{text:?}: {}", d.message);
            }
            Some(d) => {
                assert!(!nested && d.code == ois::Code::TemplateEscaped, "{text:?}: {d:?}, the node reads {read:?}")
            }
            None => panic!("{text:?} has a `${{` and no diagnostic"),
        }
    }
}
