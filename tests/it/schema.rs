//! `ois schema`: what it prints, its options, and docs/validate.md's list of the rules it leaves to
//! `ois validate`. (Its agreement with the checker and `@api3/ois` is in tests/interop.rs.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use assert_cmd::Command;
use serde_json::Value;

use ois::FormatFamily;
use ois::schema::{LEFT_TO_VALIDATE, config_schema, ois_schema};

fn schema(args: &[&str]) -> Value {
    let output = Command::cargo_bin("ois").unwrap().arg("schema").args(args).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("JSON")
}

#[test]
fn prints_the_schema_of_the_chosen_family() {
    // The default is the newest released node's format (airnode-feed@4: 3.0.x).
    assert_eq!(schema(&[]), ois_schema(FormatFamily::V3_0));
    assert_eq!(schema(&["--ois-format", "2.3"]), ois_schema(FormatFamily::V2_3));
    assert_eq!(schema(&["--target", "airnode-feed@3"]), ois_schema(FormatFamily::V2_3));
    assert_eq!(schema(&["--target", "airnode-feed@4"]), ois_schema(FormatFamily::V3_0));
    assert_eq!(schema(&["--config", "--target", "airnode@0.15"]), config_schema(FormatFamily::V2_3));
    assert_ne!(ois_schema(FormatFamily::V2_3), ois_schema(FormatFamily::V3_0));
}

#[test]
fn writes_a_file_and_refuses_to_replace_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ois.schema.json");
    let path_text = path.to_str().unwrap();
    Command::cargo_bin("ois").unwrap().args(["schema", "-o", path_text]).assert().success();
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(written["$schema"], "https://json-schema.org/draft/2020-12/schema");
    let refused = Command::cargo_bin("ois").unwrap().args(["schema", "--config", "-o", path_text]).assert().code(1);
    assert!(String::from_utf8_lossy(&refused.get_output().stderr).contains("OUT001"));
    Command::cargo_bin("ois").unwrap().args(["schema", "--config", "-o", path_text, "--force"]).assert().success();
    let replaced: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(replaced["properties"]["apiCredentials"].is_object());
}

#[test]
fn target_and_ois_format_do_not_mix() {
    Command::cargo_bin("ois")
        .unwrap()
        .args(["schema", "--target", "airnode@next", "--ois-format", "3.0"])
        .assert()
        .code(2);
}

/// docs/validate.md lists the rules the schema leaves to `ois validate`; `UPDATE_README=1 cargo test`
/// rewrites the list.
#[test]
fn readme_lists_the_rules_left_to_validate() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/validate.md");
    let readme = std::fs::read_to_string(path).expect("docs/validate.md");
    let start_marker = "<!-- schema-left:start (generated from src/ois/schema.rs) -->\n";
    let end_marker = "<!-- schema-left:end -->";
    let start = readme.find(start_marker).expect("start marker") + start_marker.len();
    let end = readme.find(end_marker).expect("end marker");
    let mut list = String::new();
    for (code, why) in LEFT_TO_VALIDATE {
        list.push_str(&format!("- `{code}` {} — {why}\n", code.summary()));
    }
    if readme[start..end] != list {
        if std::env::var_os("UPDATE_README").is_some() {
            std::fs::write(path, format!("{}{list}{}", &readme[..start], &readme[end..]))
                .expect("write docs/validate.md");
        } else {
            panic!(
                "the list of rules left to validate in docs/validate.md is out of date: run UPDATE_README=1 cargo test --test it schema"
            );
        }
    }
}
