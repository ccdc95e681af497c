//! `ois validate` on Airnode Feed configs against the Feed's own `configSchema`, both node
//! generations (3.3.0 from npm, 4.6.0 built from ../shared/nodes; tests/interop/node-configs.js
//! interpolates the secrets with the node's own commons first, as its `loadConfig` does): every
//! one-edit mutant of a config `ois scaffold feed` writes — each field removed or given another
//! type or value, an unknown key in each object, lists emptied or doubled, IDs in other cases,
//! versions, stages, URLs, tokens and `${…}` of every kind — that the Feed refuses, `ois validate`
//! refuses too (0 missed); where `ois` is stricter, it is for a documented code of its own.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use std::collections::BTreeMap;

use serde_json::{Value, json};

const MNEMONIC: &str = "test test test test test test test test test test test junk";

/// Codes by which `ois validate` refuses what the Feed's schema accepts, on purpose: the Feed
/// loads the config and then fails (or sends no key) at run time.
const STRICTER: &[(&str, &str)] = &[
    ("OIS063", "an enabled scheme without a credential: the Feed loads it and calls the API without the key"),
    ("OIS061", "a credential naming no OIS: the Feed loads it and sends no key"),
    ("OIS062", "a credential naming a scheme its OIS lacks: the Feed loads it and sends no key"),
    ("OIS076", "a template parameter its endpoint does not have: the Feed loads it and does not send it"),
    ("OIS077", "a template without a parameter its endpoint requires: every call of it fails"),
    ("OIS078", "a template the Feed cannot serve (no _type, a request it cannot make)"),
    ("OIS073", "a template parameter the encoder refuses"),
    ("OIS075", "an ID not derived from what it names (the Feed re-derives most, not all)"),
    ("OIS081", "a credential that names one of the node's own secrets"),
    (
        "OIS091",
        "one of the node's own secrets named where the node sends it elsewhere (a signed API's URL, a template value)",
    ),
    ("REQ014", "a `${…}` that is not a secret's name"),
];

/// The base OIS of the diagnostic fixtures, scaffolded into a Feed config for `target`.
fn scaffolded(target: &str, ois_format: &str) -> Value {
    let fixture: Value =
        serde_json::from_str(&std::fs::read_to_string("tests/codes/OIS064.config.json").unwrap()).unwrap();
    let mut ois_value = fixture["ois"][0].clone();
    ois_value["oisFormat"] = json!(ois_format);
    let dir = tempfile::tempdir().unwrap();
    let (ois_path, config_path) = (dir.path().join("base.ois.json"), dir.path().join("config.json"));
    std::fs::write(&ois_path, ois_value.to_string()).unwrap();
    let output = common::ois()
        .args(["scaffold", "feed", ois_path.to_str().unwrap(), "--feed", "item:id=string32:7", "--target", target])
        .args(["--signed-api", "local=http://127.0.0.1:8090", "-o", config_path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_str(&std::fs::read_to_string(&config_path).unwrap()).unwrap()
}

/// Every one-edit mutant of `config` outside its OIS objects (they have a differential of their
/// own), with what it changed.
fn mutants(config: &Value) -> Vec<(String, Value)> {
    let mut found = Vec::new();
    let mut walk = |at: String| {
        let Some(value) = config.pointer(&at) else { return };
        let mut edits: Vec<(String, Value)> = Vec::new();
        match value {
            Value::Object(map) => {
                edits.push(("an unknown key".into(), {
                    let mut m = map.clone();
                    m.insert("extra".into(), json!(1));
                    Value::Object(m)
                }));
                for key in map.keys() {
                    let mut m = map.clone();
                    m.shift_remove(key);
                    edits.push((format!("without {key}"), Value::Object(m)));
                    if key.starts_with("0x") {
                        let mut renamed = serde_json::Map::new();
                        for (k, v) in map {
                            let k = if k == key { k.to_uppercase().replacen("0X", "0x", 1) } else { k.clone() };
                            renamed.insert(k, v.clone());
                        }
                        edits.push((format!("{key} in upper case"), Value::Object(renamed.clone())));
                        let mut prefixed = serde_json::Map::new();
                        for (k, v) in map {
                            let k = if k == key { k.replacen("0x", "0X", 1) } else { k.clone() };
                            prefixed.insert(k, v.clone());
                        }
                        edits.push((format!("{key} with 0X"), Value::Object(prefixed)));
                    }
                }
                // The root as another type is no longer a Feed config to `ois validate`.
                if !at.is_empty() {
                    edits.push(("an array".into(), json!([])));
                    edits.push(("null".into(), Value::Null));
                }
            }
            Value::Array(items) => {
                edits.push(("empty".into(), json!([])));
                if let Some(first) = items.first() {
                    edits.push(("its first item twice".into(), json!([first, first])));
                }
                edits.push(("an object".into(), json!({})));
            }
            Value::String(text) => {
                // (A `${NAME}` the secrets fill is not judged: its value is not in the config.)
                for other in ["", "x", "${token}", "${A B}", "${1X}", "\\${LITERAL}"] {
                    edits.push((format!("{other:?}"), json!(other)));
                }
                edits.push(("upper case".into(), json!(text.to_uppercase())));
                if text.starts_with("0x") {
                    edits.push(("0X".into(), json!(text.replacen("0x", "0X", 1))));
                }
                edits.push(("a number".into(), json!(5)));
                edits.push(("null".into(), Value::Null));
            }
            Value::Number(_) => {
                for other in [json!(0), json!(-1), json!(0.5), json!("5"), Value::Null] {
                    edits.push((format!("{other}"), other));
                }
            }
            _ => {}
        }
        for (what, edit) in edits {
            let mut mutant = config.clone();
            if at.is_empty() {
                mutant = edit;
            } else {
                *mutant.pointer_mut(&at).unwrap() = edit;
            }
            found.push((format!("{at}: {what}"), mutant));
        }
    };
    let mut pointers = vec![String::new()];
    let mut index = 0;
    while index < pointers.len() {
        let at = pointers[index].clone();
        index += 1;
        let Some(value) = config.pointer(&at) else { continue };
        match value {
            Value::Object(map) => {
                for key in map.keys().filter(|k| !(at.is_empty() && *k == "ois")) {
                    pointers.push(format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")));
                }
            }
            Value::Array(items) => pointers.extend((0..items.len()).map(|i| format!("{at}/{i}"))),
            _ => {}
        }
    }
    for at in pointers {
        walk(at);
    }
    // Settings the Feed reads by value.
    let specific: &[(&str, Value)] = &[
        ("/nodeSettings/nodeVersion", json!("3.3.0")),
        ("/nodeSettings/nodeVersion", json!("4.6.0")),
        // A release other than the two built is judged by the one built of its major: not compared.
        ("/nodeSettings/nodeVersion", json!("4.6.1")),
        ("/nodeSettings/stage", json!("Local")),
        ("/nodeSettings/stage", json!("a b")),
        ("/nodeSettings/stage", json!("x".repeat(257))),
        ("/nodeSettings/stage", json!("x".repeat(256))),
        ("/nodeSettings/airnodeWalletMnemonic", json!("test test test")),
        ("/nodeSettings/airnodeWalletMnemonic", json!(MNEMONIC)),
        ("/signedApis/0/url", json!("not a url")),
        ("/signedApis/0/url", json!("127.0.0.1:8090")),
        ("/signedApis/0/url", json!("ftp://example.com")),
        ("/signedApis/0/authToken", Value::Null),
        ("/signedApis/0/name", json!("")),
        ("/triggers/signedApiUpdates/0/fetchInterval", json!(1e9)),
    ];
    for (at, value) in specific {
        let mut mutant = config.clone();
        *mutant.pointer_mut(at).unwrap() = value.clone();
        found.push((format!("{at}: {value}"), mutant));
    }
    let mut second_api = config.clone();
    let api = second_api["signedApis"][0].clone();
    second_api["signedApis"].as_array_mut().unwrap().push(api);
    found.push(("/signedApis: the same name twice".into(), second_api));
    let mut dangling = config.clone();
    let endpoint = dangling["endpoints"].as_object_mut().unwrap().values_mut().next().unwrap();
    endpoint["oisTitle"] = json!("Nowhere");
    found.push(("/endpoints/…/oisTitle: an OIS the config lacks".into(), dangling));
    found
}

fn secrets() -> BTreeMap<&'static str, &'static str> {
    BTreeMap::from([
        ("AIRNODE_WALLET_MNEMONIC", MNEMONIC),
        ("SIGNED_API_LOCAL_AUTH_TOKEN", "t0ken"),
        ("BASE_KEY", "k3y"),
    ])
}

fn compare(version: &str, target: &str, ois_format: &str) {
    let base = scaffolded(target, ois_format);
    assert_eq!(base["nodeSettings"]["nodeVersion"], version);
    let mutants = mutants(&base);
    let items: Vec<Value> =
        mutants.iter().map(|(_, config)| json!({"kind": "feed", "config": config, "secrets": secrets()})).collect();
    let theirs = common::run_node("node-configs.js", &Value::Array(items));
    let (mut missed, mut unexplained, mut both, mut stricter) = (Vec::new(), Vec::new(), 0, 0);
    for ((what, config), real) in mutants.iter().zip(theirs.as_array().unwrap()) {
        let ours = ois::validate_value(config, None);
        let real_valid = real["valid"] == true;
        let errors: Vec<&str> = ours.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code.as_str()).collect();
        match (real_valid, ours.is_valid()) {
            (false, true) => missed.push(format!("{what}: the Feed says {}", real["issues"])),
            (true, false) => {
                stricter += 1;
                if !errors.iter().all(|code| STRICTER.iter().any(|(allowed, _)| allowed == code)) {
                    unexplained.push(format!("{what}: ours {errors:?}"));
                }
            }
            (false, false) => both += 1,
            (true, true) => {}
        }
    }
    assert!(
        missed.is_empty(),
        "{version}: {} of {} mutants the Feed refuses pass ois validate:\n{}",
        missed.len(),
        mutants.len(),
        missed.join("\n")
    );
    assert!(
        unexplained.is_empty(),
        "{version}: stricter than the Feed without a documented reason:\n{}",
        unexplained.join("\n")
    );
    assert!(
        both >= 100,
        "{version}: only {both} mutants refused by both ({} in all, {stricter} stricter)",
        mutants.len()
    );
    eprintln!(
        "{version}: {} mutants, {both} refused by both, {stricter} refused by ois alone, 0 missed",
        mutants.len()
    );
}

#[test]
fn validate_refuses_what_feed_4_refuses() {
    if common::node_main("4.6.0", "airnode-feed").is_none() {
        return;
    }
    compare("4.6.0", "airnode-feed@4", "3.0.0");
}

#[test]
fn validate_refuses_what_feed_3_refuses() {
    if !common::interop_installed("@api3/airnode-feed") {
        return;
    }
    compare("3.3.0", "airnode-feed@3", "2.3.2");
}
