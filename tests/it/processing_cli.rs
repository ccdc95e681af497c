//! Processing through the command line: `ois request` on the production OIS files that route a
//! `name` through a pre-processing table, endpoints without an API call, failures, and the
//! extract / embed round trip.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use serde_json::{Value, json};

use common::ois;

fn example(name: &str) -> String {
    common::shared_dir().join("examples/ois").join(name).display().to_string()
}

fn json_of(output: &std::process::Output) -> Value {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn a_name_goes_through_the_pre_processing_table_to_the_path() {
    let response = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(response.path(), r#"{"a": 190.5, "b": 190.7}"#).unwrap();
    let output = ois()
        .args([
            "request",
            &example("finnhub.json"),
            "--endpoint",
            "feed",
            "--param",
            "name=AAPL/USD",
            "--format",
            "json",
        ])
        .arg("--response")
        .arg(response.path())
        .output()
        .unwrap();
    let call = json_of(&output);
    assert_eq!(call["parameters"]["given"], json!({"name": "AAPL/USD"}));
    assert_eq!(call["parameters"]["processed"], json!({"path": "stock/bidask", "symbol": "AAPL"}));
    assert_eq!(call["url"], "https://finnhub.io/api/v1/stock/bidask?symbol=AAPL");
    assert_eq!(call["response"]["processed"], json!(190.6));
    assert_eq!(call["response"]["values"], json!(["190600000000000000000"]));
}

#[test]
fn every_production_table_endpoint_builds_a_request() {
    for (file, name) in [
        ("coingecko-pro.json", "BTC/USD"),
        ("twelvedata.json", "AAPL/USD"),
        ("nodary.json", "AAPL/USD"),
        ("kaiko.json", "AAVE/USD"),
        ("ncfx-forex.json", "AUD/USD"),
    ] {
        let output = ois()
            .args([
                "request",
                &example(file),
                "--endpoint",
                "feed",
                "--param",
                &format!("name={name}"),
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        let call = json_of(&output);
        assert!(call["url"].as_str().unwrap().starts_with("https://"), "{file}: {call}");
        assert!(call["parameters"]["processed"].is_object(), "{file}");
    }
}

fn write_ois(endpoint: Value) -> tempfile::NamedTempFile {
    let ois = json!({
        "oisFormat": "2.3.2", "title": "Calc", "version": "1.0.0",
        "apiSpecifications": {"servers": [{"url": "https://calc.example"}], "paths": {}, "components": {"securitySchemes": {}}, "security": {}},
        "endpoints": [endpoint]
    });
    let file = tempfile::Builder::new().suffix(".json").tempfile().unwrap();
    std::fs::write(file.path(), serde_json::to_string_pretty(&ois).unwrap()).unwrap();
    file
}

#[test]
fn an_endpoint_without_an_api_call_gets_its_value_from_processing() {
    let file = write_ois(json!({
        "name": "double", "fixedOperationParameters": [], "parameters": [{"name": "x"}],
        "reservedParameters": [{"name": "_type", "fixed": "int256"}],
        "preProcessingSpecificationV2": {"environment": "Node", "timeoutMs": 1000,
            "value": "({ endpointParameters }) => { console.log('x is', endpointParameters.x); return { endpointParameters: { value: endpointParameters.x * 2 } }; }"},
        "postProcessingSpecificationV2": {"environment": "Node", "timeoutMs": 1000,
            "value": "({ response }) => ({ response: response.value, timestamp: 1700000000 })"}
    }));
    let output = ois()
        .arg("request")
        .arg(file.path())
        .args(["--endpoint", "double", "--param", "x=21", "--format", "json"])
        .output()
        .unwrap();
    let call = json_of(&output);
    assert_eq!(call["url"], Value::Null);
    assert_eq!(call["response"]["processed"], json!(42));
    assert_eq!(call["response"]["timestamp"], json!(1_700_000_000));
    assert_eq!(call["response"]["values"], json!(["42"]));
    assert_eq!(call["logs"], json!([{"phase": "pre", "line": "x is 21"}]));
    let text =
        ois().arg("request").arg(file.path()).args(["--endpoint", "double", "--param", "x=21"]).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("no API call") && text.contains("values: \"42\""), "{text}");
}

#[test]
fn a_failing_snippet_exits_1_with_its_place_and_what_it_logged() {
    let file = write_ois(json!({
        "name": "broken", "fixedOperationParameters": [], "parameters": [],
        "reservedParameters": [{"name": "_type", "fixed": "int256"}],
        "preProcessingSpecificationV2": {"environment": "Node", "timeoutMs": 1000,
            "value": "({ endpointParameters }) => {\n  console.log('about to fail');\n  return endpointParameters.missing.x;\n}"}
    }));
    let output = ois().arg("request").arg(file.path()).args(["--endpoint", "broken"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("console (pre-processing): about to fail"), "{stderr}");
    assert!(stderr.contains("error[REQ031]") && stderr.contains("line 3"), "{stderr}");
    assert!(stderr.contains("/endpoints/0/preProcessingSpecificationV2/value"), "{stderr}");
}

#[test]
fn a_node_module_in_the_sandbox_points_at_the_node_engine() {
    let file = write_ois(json!({
        "name": "hash", "fixedOperationParameters": [], "parameters": [],
        "reservedParameters": [{"name": "_type", "fixed": "bytes32"}],
        "preProcessingSpecificationV2": {"environment": "Node", "timeoutMs": 1000,
            "value": "() => ({ endpointParameters: { h: '0x' + crypto.createHash('sha256').update('x').digest('hex') } })"},
        "postProcessingSpecificationV2": {"environment": "Node", "timeoutMs": 1000,
            "value": "({ response }) => ({ response: response.h })"}
    }));
    let sandboxed = ois().arg("request").arg(file.path()).args(["--endpoint", "hash"]).output().unwrap();
    assert_eq!(sandboxed.status.code(), Some(1));
    let stderr = String::from_utf8(sandboxed.stderr).unwrap();
    assert!(stderr.contains("REQ035") && stderr.contains("--engine node"), "{stderr}");
    let node = ois().arg("request").arg(file.path()).args(["--endpoint", "hash", "--engine", "node"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&node.stderr);
    assert!(node.status.success(), "{stderr}");
    assert!(stderr.contains("warning[REQ037]"), "{stderr}");
    let stdout = String::from_utf8(node.stdout).unwrap();
    assert!(stdout.contains("0x2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"), "{stdout}");
}

#[test]
fn snippets_extract_to_files_and_embed_back_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let original = dir.path().join("ois.json");
    std::fs::copy(example("coingecko-pro.json"), &original).unwrap();
    let snippets = dir.path().join("snippets");
    ois()
        .args(["processing", "extract"])
        .arg(&original)
        .args(["--endpoint", "feed", "-o"])
        .arg(&snippets)
        .assert()
        .success();
    let pre = std::fs::read_to_string(snippets.join("pre.v2.js")).unwrap();
    assert!(pre.starts_with("({ endpointParameters }) =>"), "{pre}");
    // Again without --force: the files exist.
    ois()
        .args(["processing", "extract"])
        .arg(&original)
        .args(["--endpoint", "feed", "-o"])
        .arg(&snippets)
        .assert()
        .code(1);
    let back = dir.path().join("back.json");
    ois()
        .args(["processing", "embed"])
        .arg(&original)
        .args(["--endpoint", "feed"])
        .arg(&snippets)
        .arg("-o")
        .arg(&back)
        .assert()
        .success();
    let read = |path: &std::path::Path| serde_json::from_str::<Value>(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(read(&back), read(&original));

    // A template literal in the file is escaped for the node's interpolation, and comes back.
    std::fs::write(snippets.join("post.v2.js"), "({ response }) => ({ response: `${response.x}` })\n").unwrap();
    ois().args(["processing", "embed"]).arg(&original).args(["--endpoint", "feed"]).arg(&snippets).assert().success();
    let embedded = read(&original);
    assert_eq!(
        embedded["endpoints"][0]["postProcessingSpecificationV2"]["value"],
        "({ response }) => ({ response: `\\${response.x}` })"
    );
    ois().args(["validate"]).arg(&original).assert().success();
    // The node unescapes it before it runs: the template literal works.
    let response = dir.path().join("response.json");
    std::fs::write(&response, r#"{"x": 61234}"#).unwrap();
    let call = ois()
        .args(["request"])
        .arg(&original)
        .args(["--endpoint", "feed", "--param", "name=BTC/USD", "--format", "json", "--response"])
        .arg(&response)
        .output()
        .unwrap();
    assert_eq!(json_of(&call)["response"]["processed"], "61234");

    // Code that does not parse is refused, and the OIS is left as it was.
    std::fs::write(snippets.join("post.v2.js"), "({ response }) => {\n").unwrap();
    let before = std::fs::read(&original).unwrap();
    let refused = ois()
        .args(["processing", "embed"])
        .arg(&original)
        .args(["--endpoint", "feed"])
        .arg(&snippets)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("OIS071"));
    assert_eq!(std::fs::read(&original).unwrap(), before);
}
