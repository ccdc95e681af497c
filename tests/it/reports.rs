//! Reports for machines: SARIF 2.1.0 validated against the published schema with a real JSON
//! Schema validator (ajv, tests/interop/sarif.js), and GitHub workflow commands, for `ois convert`
//! (one document and a batch) and `ois validate`; golden files for both on the samples.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use assert_cmd::Command;
use serde_json::{Value, json};

fn ois(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("ois")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .unwrap()
}

fn sarif_of(output: &std::process::Output, on_stdout: bool) -> Value {
    let text = if on_stdout { &output.stdout } else { &output.stderr };
    serde_json::from_slice(text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(text)))
}

#[test]
fn sarif_logs_pass_the_sarif_schema() {
    if !common::interop_installed("@microsoft/jest-sarif") {
        return;
    }
    let examples = common::shared_dir().join("examples/ois");
    let out = tempfile::tempdir().unwrap();
    let mut logs = vec![
        sarif_of(&ois(&["convert", "samples/coins.yaml", "--report", "sarif"]), false),
        sarif_of(&ois(&["convert", "samples", "-o", out.path().to_str().unwrap(), "--report", "sarif"]), false),
        sarif_of(
            &ois(&[
                "validate",
                examples.join("amberdata.json").to_str().unwrap(),
                examples.join("nodary.json").to_str().unwrap(),
                "--format",
                "sarif",
            ]),
            true,
        ),
    ];
    let results: usize = logs.iter().map(|l| l["runs"][0]["results"].as_array().unwrap().len()).sum();
    assert!(results > 20, "{results} results");
    assert_eq!(logs[0]["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap().len(), ois::Code::ALL.len());
    // What the schema refuses, it must refuse here too: the check can fail.
    let mut broken = logs[0].clone();
    broken["runs"][0]["results"][0]["level"] = json!("fatal");
    logs.push(broken);
    let verdicts = common::run_node("sarif.js", &Value::Array(logs));
    let verdicts = verdicts.as_array().unwrap();
    for (index, verdict) in verdicts.iter().enumerate().take(3) {
        assert_eq!(verdict["valid"], true, "log {index}: {}", verdict["errors"]);
    }
    assert_eq!(verdicts[3]["valid"], false);
}

#[test]
fn github_commands_and_sarif_are_golden() {
    let github = ois(&["convert", "samples/coins.yaml", "--report", "github"]);
    expectorate::assert_contents("samples/expected/coins.github.txt", &String::from_utf8_lossy(&github.stderr));
    let sarif = ois(&["convert", "samples/coins.yaml", "--report", "sarif"]);
    let mut log = sarif_of(&sarif, false);
    // The rules are the code table (tested elsewhere); the golden file keeps the results.
    log["runs"][0]["tool"]["driver"]["rules"] = json!("(every code)");
    log["runs"][0]["tool"]["driver"]["version"] = json!("(version)");
    expectorate::assert_contents(
        "samples/expected/coins.sarif.json",
        &(serde_json::to_string_pretty(&log).unwrap() + "\n"),
    );
    let validate = ois(&["validate", "samples/expected/coins.ois.json", "--format", "github"]);
    assert!(validate.status.success());
}
