//! Validating builds no value for a field that no OIS or node config allows: its parse keeps such
//! a field as `null` (`ois::validate::parse`), which makes a 9 MB array under an unknown key cost
//! its check, not a million values. The diagnostics must be those of the whole parse: on every
//! OIS and config the project holds, and with unknown fields of any content added at any object
//! of them (a property test), in a small document and in one big enough to be parsed in pieces.

use std::path::{Path, PathBuf};

use ois::Source;
use ois::validate::{validate, validate_parsed};
use proptest::prelude::*;
use serde_json::{Value, json};

/// What validating `text` says, read as validating reads it, and read whole.
fn both_ways(text: &str) -> (Vec<String>, Vec<String>) {
    let said = |validation: ois::validate::Validation| {
        let mut said = vec![format!("{:?} {:?}", validation.kind, validation.families)];
        said.extend(
            validation.diagnostics.iter().map(|d| format!("{} {} {} {:?}", d.code, d.pointer(), d.message, d.help)),
        );
        said
    };
    let pruned = said(validate(&Source::from_text("t.json", None, text.to_owned()), None));
    let source = Source::from_text("t.json", None, text.to_owned());
    let whole = match source.parse() {
        Ok(value) => said(validate_parsed(&source, &value, None)),
        Err(error) => said(ois::validate::Validation::unreadable(error)),
    };
    (pruned, whole)
}

/// Every OIS and node config the project holds: fixtures, samples, examples, the nodes' own.
fn documents() -> Vec<(PathBuf, Value)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests/codes", "samples/expected", "docs/examples", "docs/examples/metals", "../shared/examples/ois"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let kept = name.ends_with(".ois.json")
                || name.ends_with(".config.json")
                || name.ends_with(".validate.json")
                || dir.ends_with("examples/ois");
            if kept && name.ends_with(".json") {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    let mut documents: Vec<(PathBuf, Value)> = files
        .into_iter()
        .filter_map(|path| Some((path.clone(), serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?)))
        .collect();
    documents.push((PathBuf::from("a Feed config with literal secrets"), literal_feed_config()));
    documents
}

/// An Airnode Feed config whose mnemonic and push token are written out, not named.
fn literal_feed_config() -> Value {
    json!({
        "nodeSettings": {"airnodeWalletMnemonic": "test test test test test test test test test test test junk",
            "nodeVersion": "4.6.0", "stage": "local"},
        "signedApis": [{"name": "a", "url": "https://a.example", "authToken": "literal-push-token"}],
        "templates": {}, "endpoints": {}, "triggers": {"signedApiUpdates": []},
        "apiCredentials": [], "ois": []
    })
}

#[test]
fn every_document_the_project_holds_is_said_the_same_read_either_way() {
    let documents = documents();
    assert!(documents.len() > 60, "only {} documents found", documents.len());
    for (path, value) in &documents {
        let text = serde_json::to_string_pretty(value).unwrap();
        let (pruned, whole) = both_ways(&text);
        assert_eq!(pruned, whole, "{}", path.display());
    }
}

#[test]
fn a_secret_in_a_field_no_document_allows_is_still_found() {
    let mut config = literal_feed_config();
    for (at, held, found) in [
        ("", json!([1, ["literal-push-token"]]), "OIS091 /x/1/0"),
        ("/nodeSettings", json!({"a": "${SIGNED_API_TOKEN}"}), "OIS091 /nodeSettings/x/a"),
        ("/signedApis/0", json!([true, "${AIRNODE_WALLET_MNEMONIC}"]), "OIS091 /signedApis/0/x/1"),
    ] {
        let mut config = config.clone();
        config.pointer_mut(at).unwrap().as_object_mut().unwrap().insert("x".to_owned(), held);
        for big in [false, true] {
            if big {
                config["x-padding"] = json!(vec![6123.45; 150_000]);
            }
            let (pruned, whole) = both_ways(&config.to_string());
            assert!(pruned.iter().any(|said| said.starts_with(found)), "{found} not in {pruned:#?}");
            assert_eq!(pruned, whole);
        }
    }
    // Without them, the field is read for its key only: what is said is the same.
    config["x"] = json!([1, "short", {"k": [null]}]);
    let (pruned, whole) = both_ways(&config.to_string());
    assert_eq!(pruned, whole);
}

/// The texts every check of every text might look for, and the rest.
fn leaf(texts: Vec<String>) -> impl Strategy<Value = Value> {
    let from_document =
        if texts.is_empty() { Just(String::new()).boxed() } else { proptest::sample::select(texts).boxed() };
    prop_oneof![
        Just(json!(1)),
        Just(json!(6123.45)),
        Just(json!(null)),
        Just(json!(true)),
        Just(json!("short")),
        Just(json!("eight ch")),
        Just(json!("${AIRNODE_WALLET_MNEMONIC}")),
        Just(json!("\\${NOT_A_SECRET}")),
        Just(json!("${PUSH_TOKEN}")),
        Just(json!("literal-push-token")),
        Just(json!("x literal-push-token y")),
        from_document.prop_map(Value::String),
    ]
}

fn content(texts: Vec<String>) -> impl Strategy<Value = Value> {
    leaf(texts).prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[a-z]{1,9}|\\$\\{[A-Z_]{1,12}\\}", inner), 0..4)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// Every string of `value`, keys included.
fn texts_of(value: &Value, texts: &mut Vec<String>) {
    match value {
        Value::String(text) => texts.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|item| texts_of(item, texts)),
        Value::Object(members) => members.iter().for_each(|(key, item)| {
            texts.push(key.clone());
            texts_of(item, texts);
        }),
        _ => {}
    }
}

/// The pointers of the objects of `value`, no deeper than 5 levels.
fn objects(value: &Value, at: String, found: &mut Vec<String>) {
    if at.matches('/').count() > 5 {
        return;
    }
    match value {
        Value::Object(members) => {
            found.push(at.clone());
            for (key, item) in members {
                objects(item, format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")), found);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                objects(item, format!("{at}/{index}"), found);
            }
        }
        _ => {}
    }
}

/// A document of the project's, a field no document allows added to some of its objects, and
/// whether it is made big enough to be parsed in pieces.
fn case() -> impl Strategy<Value = (PathBuf, Value, bool)> {
    let documents = documents();
    (0..documents.len(), any::<bool>()).prop_flat_map(move |(index, big)| {
        let (path, value) = documents[index].clone();
        let mut places = Vec::new();
        objects(&value, String::new(), &mut places);
        let mut texts = Vec::new();
        texts_of(&value, &mut texts);
        let added = prop::collection::vec((proptest::sample::select(places), content(texts)), 1..4);
        (Just(path), Just(value), added, Just(big)).prop_map(|(path, mut value, added, big)| {
            for (number, (at, content)) in added.into_iter().enumerate() {
                if let Some(Value::Object(object)) = value.pointer_mut(&at) {
                    object.insert(format!("x-added-{number}"), content);
                }
            }
            if big && let Some(object) = value.as_object_mut() {
                // Over the 1 MiB from which a document is parsed in pieces.
                object.insert("x-padding".to_owned(), json!(vec![6123.45; 150_000]));
            }
            (path, value, big)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_field_no_document_allows_changes_nothing_validate_says((path, value, big) in case()) {
        let text = if big { value.to_string() } else { serde_json::to_string_pretty(&value).unwrap() };
        let (pruned, whole) = both_ways(&text);
        prop_assert_eq!(pruned, whole, "{}", path.display());
    }
}
