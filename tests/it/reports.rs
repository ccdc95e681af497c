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

/// Every command's JSON report carries every diagnostic (with a convert report's fields and
/// counts), fixes named by their flags: `ids`, `request`, `request --paths`, `call` and `call --all`
/// printed some on standard error only.
#[test]
fn every_json_report_carries_its_diagnostics() {
    let server = common::server::Server::start(|_, stream| {
        common::server::answer(stream, "200 OK", "application/json", "", b"2")
    });
    let ois_file = "tests/codes/REQ010.request.ois.json";
    let codes = |output: &std::process::Output| -> Vec<String> {
        let report: Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&output.stdout)));
        let listed = report["diagnostics"].as_array().unwrap_or_else(|| panic!("no diagnostics: {report}"));
        assert!(report["counts"].is_object(), "{report}");
        listed.iter().map(|d| d["code"].as_str().unwrap().to_owned()).collect()
    };
    let ids = ois(&[
        "ids",
        ois_file,
        "--template",
        "item:id=string32:1,flag=bool:false",
        "--airnode",
        "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        "--format",
        "json",
    ]);
    assert_eq!(codes(&ids), ["OIS074"]);
    let request = ["request", ois_file, "--endpoint", "item", "--param", "id=1", "--param", "unknown=2"];
    let output = ois(&[&request[..], &["--format", "json"]].concat());
    assert!(codes(&output).contains(&"REQ010".to_owned()), "{}", String::from_utf8_lossy(&output.stdout));
    let dir = tempfile::tempdir().unwrap();
    let secrets = dir.path().join("secrets.env");
    std::fs::write(&secrets, "BASE_KEY=k-4722\n").unwrap();
    let secrets = secrets.to_str().unwrap();
    let call = ["call", ois_file, "--endpoint", "item", "--param", "id=1", "--param", "unknown=2"];
    let call = [&call[..], &["--secrets", secrets]].concat();
    let call = [&call[..], &["--server"]].concat();
    let output = ois(&[&call[..], &[server.base.as_str(), "--format", "json"]].concat());
    assert!(codes(&output).contains(&"REQ010".to_owned()), "{}", String::from_utf8_lossy(&output.stdout));
    let output = ois(&[&call[..], &[server.base.as_str(), "--format", "json", "--paths"]].concat());
    assert!(codes(&output).contains(&"REQ010".to_owned()), "{}", String::from_utf8_lossy(&output.stdout));
    // A fix is named by its flag, as on standard error, and located in the file.
    let unauthenticated = ois(&["request", ois_file, "--endpoint", "item", "--param", "id=1", "--format", "json"]);
    let report: Value = serde_json::from_slice(&unauthenticated.stdout).unwrap();
    let warning = report["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "REQ016").unwrap();
    assert!(warning["help"].as_str().unwrap().contains("--secrets"), "{warning}");
    assert!(warning["line"].is_u64(), "{warning}");
}
