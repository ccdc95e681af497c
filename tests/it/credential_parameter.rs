//! A vendor that documents its API key as a plain query parameter and declares no security
//! scheme: convert says so, `--api-key-param` makes it the API's credential (kept by `--update`,
//! which then reports no parameter "removed by the API"), the secrets template carries it, the
//! call sends it from the secrets, and a template that carries it anyway is warned about.

use std::path::Path;

use serde_json::Value;

use crate::common::{
    self,
    server::{Server, answer},
};

const DOCUMENT: &str = r#"{
  "openapi": "3.0.3",
  "info": {"title": "Weather", "version": "1.0.0"},
  "servers": [{"url": "https://api.weather.example/v1"}],
  "paths": {
    "/current.json": {
      "get": {
        "operationId": "current",
        "parameters": [
          {"name": "key", "in": "query", "required": true, "description": "Your registered API key.", "schema": {"type": "string"}},
          {"name": "q", "in": "query", "required": true, "description": "City name", "schema": {"type": "string"}}
        ]
      }
    }
  }
}"#;

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = common::ois().current_dir(dir).env("NO_COLOR", "1").args(args).output().unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_key_documented_as_a_parameter_becomes_the_api_s_credential() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("weather.json"), DOCUMENT).unwrap();

    // Convert says it, and rewrites nothing.
    let (code, _, err) = run(d, &["convert", "weather.json", "-o", "w.ois.json"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning[CNV075]") && err.contains("--api-key-param key"), "{err}");
    let ois = read_json(&d.join("w.ois.json"));
    assert_eq!(ois["endpoints"][0]["parameters"][0]["name"], "key", "{ois}");

    // A refinement, then the key made a credential by an update: the refinement is kept, the
    // parameter is gone from the operation and the endpoint, a scheme sends it.
    let (code, _, err) =
        run(d, &["endpoint", "set", "w.ois.json", "current", "--rename", "weather", "--reserved", "_type=int256"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(
        d,
        &["convert", "weather.json", "--update", "w.ois.json", "--api-key-param", "key", "--secrets-out", "s.env"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("note[CNV049]") && err.contains("is now the API's key"), "{err}");
    assert!(!err.contains("CNV084") && !err.contains("no longer has"), "{err}");
    let ois = read_json(&d.join("w.ois.json"));
    assert_eq!(
        ois["apiSpecifications"]["components"]["securitySchemes"]["key"],
        serde_json::json!({"type": "apiKey", "in": "query", "name": "key"})
    );
    assert_eq!(ois["apiSpecifications"]["security"], serde_json::json!({"key": []}));
    assert_eq!(ois["endpoints"][0]["name"], "weather");
    let names: Vec<&str> =
        ois["endpoints"][0]["parameters"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["q"]);
    let operation = &ois["apiSpecifications"]["paths"]["/current.json"]["get"]["parameters"];
    assert_eq!(operation.as_array().unwrap().len(), 1, "{operation}");
    let record = read_json(&d.join("w.ois.convert.json"));
    assert_eq!(record["records"][0]["options"]["apiKeyParameters"], serde_json::json!(["key"]));
    let template = std::fs::read_to_string(d.join("s.env")).unwrap();
    assert!(template.contains("Your registered API key.") && template.contains("\nWEATHER_KEY=\n"), "{template}");

    // The record knows it: a later update (no option given) is in sync, and keeps the filled
    // secret when it rewrites the template.
    let (code, _, err) = run(d, &["convert", "weather.json", "--update", "w.ois.json", "--check"]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(d.join("s.env"), template.replace("WEATHER_KEY=\n", "WEATHER_KEY=k-4720\n")).unwrap();
    let (code, _, err) = run(d, &["convert", "weather.json", "--update", "w.ois.json", "--secrets-out", "s.env"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("OUT004"), "{err}");
    assert!(std::fs::read_to_string(d.join("s.env")).unwrap().contains("WEATHER_KEY=k-4720\n"));

    // The call sends the key from the secrets, in the query, and the requester gives only `q`.
    let server = Server::start(|_, stream| answer(stream, "200 OK", "application/json", "", br#"{"t": 21.5}"#));
    let (code, out, err) = run(
        d,
        &[
            "call",
            "w.ois.json",
            "--endpoint",
            "weather",
            "--param",
            "q=London",
            "--secrets",
            "s.env",
            "--server",
            &server.base,
            "--param",
            "_path=t",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let received = server.take();
    assert_eq!(received.len(), 1);
    assert!(received[0].target.contains("key=k-4720") && received[0].target.contains("q=London"), "{received:?}");
}

#[test]
fn a_template_that_carries_a_key_is_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("weather.json"), DOCUMENT).unwrap();
    assert_eq!(run(d, &["convert", "weather.json", "-o", "w.ois.json"]).0, 0);
    let (code, _, err) = run(d, &["endpoint", "set", "w.ois.json", "current", "--reserved", "_type=int256"]);
    assert_eq!(code, 0, "{err}");

    // Left out, the required key is refused with the way to make it a credential, never with
    // "add it to the template".
    let (code, _, err) = run(d, &["scaffold", "feed", "w.ois.json", "--feed", "current:q=string32:London"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("OIS077") && err.contains("--api-key-param key"), "{err}");
    assert!(!err.contains("to the template"), "{err}");

    // Given in the template, it is warned about by the scaffold and by validate.
    let feed = "current:q=string32:London,key=string32:k-4721";
    let (code, _, err) = run(d, &["scaffold", "feed", "w.ois.json", "--feed", feed, "-o", "config.json"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning[OIS086]"), "{err}");
    let (code, out, err) = run(d, &["validate", "config.json", "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let codes: Vec<&str> =
        report[0]["diagnostics"].as_array().unwrap().iter().filter_map(|d| d["code"].as_str()).collect();
    assert!(codes.contains(&"OIS086"), "{out}");
}

#[test]
fn an_api_key_parameter_that_is_not_there_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("weather.json"), DOCUMENT).unwrap();
    for (asked, says) in [
        ("token", "no operation converted has such"),
        ("path:key", "no operation converted has such"),
        ("body:key", "names no parameter location"),
    ] {
        let (code, _, err) = run(d, &["convert", "weather.json", "--api-key-param", asked]);
        assert_eq!(code, 1, "{asked}: {err}");
        assert!(err.contains("CNV025") && err.contains(says), "{asked}: {err}");
    }
    // A header named in another case is the same header.
    let header = DOCUMENT.replace(r#""name": "key", "in": "query""#, r#""name": "X-Key", "in": "header""#);
    std::fs::write(d.join("header.json"), header).unwrap();
    let (code, out, err) = run(d, &["convert", "header.json", "--api-key-param", "header:x-key"]);
    assert_eq!(code, 0, "{err}");
    let ois: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(ois["apiSpecifications"]["components"]["securitySchemes"]["X-Key"]["in"], "header", "{out}");
}

/// A long title gives a secret name from the API's host; a name chosen is written in the config
/// and the secrets template, kept by the record through updates, and refused when the node would
/// not take it.
#[test]
fn secret_names_are_short_and_can_be_chosen() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let long = DOCUMENT.replace(r#""title": "Weather""#, r#""title": "Weather Interactive Swagger UI Documentation""#);
    std::fs::write(d.join("weather.json"), long).unwrap();
    let (code, _, err) =
        run(d, &["convert", "weather.json", "-o", "w.ois.json", "--api-key-param", "key", "--secrets-out", "s.env"]);
    assert_eq!(code, 0, "{err}");
    let template = std::fs::read_to_string(d.join("s.env")).unwrap();
    assert!(template.contains("\nWEATHER_KEY=\n"), "{template}");

    // Chosen at conversion, recorded, and kept by an update that rewrites the template.
    let (code, _, err) = run(
        d,
        &[
            "convert",
            "weather.json",
            "-o",
            "w.ois.json",
            "--api-key-param",
            "key",
            "--secrets-out",
            "s.env",
            "--secret-name",
            "key=WX_KEY",
            "--force",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(d.join("s.env")).unwrap().contains("\nWX_KEY=\n"));
    let (code, _, err) = run(d, &["convert", "weather.json", "--update", "w.ois.json", "--secrets-out", "s.env"]);
    assert_eq!(code, 0, "{err}");
    let template = std::fs::read_to_string(d.join("s.env")).unwrap();
    assert!(template.contains("\nWX_KEY=\n") && !template.contains("WEATHER_KEY="), "{template}");

    // Chosen for a node config.
    let (code, _, err) = run(d, &["endpoint", "set", "w.ois.json", "current", "--reserved", "_type=int256"]);
    assert_eq!(code, 0, "{err}");
    let scaffold = ["scaffold", "feed", "w.ois.json", "--feed", "current:q=string32:London", "-o", "config.json"];
    let (code, _, err) =
        run(d, &[&scaffold[..], &["--secret-name", "key=MY_WEATHER_KEY", "--secrets-out", "n.env"]].concat());
    assert_eq!(code, 0, "{err}");
    let config = read_json(&d.join("config.json"));
    assert_eq!(config["apiCredentials"][0]["securitySchemeValue"], "${MY_WEATHER_KEY}");
    assert!(std::fs::read_to_string(d.join("n.env")).unwrap().contains("\nMY_WEATHER_KEY=\n"));
    let (code, _, err) = run(d, &["validate", "config.json"]);
    assert_eq!(code, 0, "{err}");
    for (named, says) in [
        ("nope=X_KEY", "has no credential here"),
        ("key=lower", "breaks the node's rule"),
        ("key=AIRNODE_WALLET_MNEMONIC", "keeps for itself"),
    ] {
        let (code, _, err) = run(d, &[&scaffold[..], &["--secret-name", named, "--force"]].concat());
        assert_eq!(code, 1, "{named}: {err}");
        assert!(err.contains(says), "{named}: {err}");
    }
}

/// Where a scheme already sends the key, a parameter that looks like a key is most likely the
/// same key asked again: the warning says so and names the scheme, and does not advise making it
/// a second credential.
#[test]
fn a_key_looking_parameter_beside_a_scheme_is_not_advised_as_a_second_credential() {
    let dir = tempfile::tempdir().unwrap();
    let document = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/codes/CNV075.1.openapi.json");
    let (_, _, stderr) = run(dir.path(), &["convert", document]);
    assert!(stderr.contains("warning[CNV075]"), "{stderr}");
    assert!(stderr.contains("the key already goes by \"h\" (header x-key)"), "{stderr}");
    assert!(!stderr.contains("--api-key-param"), "{stderr}");
}
