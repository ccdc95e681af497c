//! `ois call CONFIG`: an Airnode Feed config made by `ois scaffold feed` is called whole against a
//! loopback API — one API call per trigger, as the Feed makes them, each template answered from
//! it — and every beacon's ID equals `ois ids`, every value what the API said.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

mod common;

use std::path::{Path, PathBuf};

use common::server::{Server, answer};
use serde_json::{Value, json};

const KEY: &str = "k-secret-9183";
/// The Hardhat test mnemonic: a known Airnode for the expected IDs.
const MNEMONIC: &str = "test test test test test test test test test test test junk";

/// The vendor: `/rates` (all rates at once, for the batched `feed` endpoint) and `/price?symbol=`
/// (one at a time); 401 without the key; `symbol=NOPE` is a 404.
fn vendor() -> Server {
    Server::start(|request, stream| {
        if request.header("x-api-key") != Some(KEY) {
            return answer(stream, "401 Unauthorized", "application/json", "", br#"{"error": "no key"}"#);
        }
        let body = match (request.path(), request.target.split_once("symbol=").map(|(_, s)| s)) {
            ("/rates", _) => json!({"rates": {"EUR": 0.92, "GBP": 0.79, "JPY": 151.2}}),
            ("/price", Some("NOPE")) => {
                return answer(stream, "404 Not Found", "application/json", "", br#"{"error": "unknown"}"#);
            }
            ("/price", Some(symbol)) => json!({"symbol": symbol, "price": 100 + symbol.len()}),
            _ => return answer(stream, "404 Not Found", "text/plain", "", b"no such path"),
        };
        answer(stream, "200 OK", "application/json", "", body.to_string().as_bytes());
    })
}

/// An OIS 2.3.2 for the vendor: `feed` (pre-processing drops `name`, so its templates batch;
/// post-processing picks the rate) and `price` (one call per symbol).
fn vendor_ois(base: &str) -> Value {
    let reserved = |path: Option<&str>| {
        let mut list = vec![json!({"name": "_type", "fixed": "int256"}), json!({"name": "_times", "fixed": "1000000"})];
        if let Some(path) = path {
            list.push(json!({"name": "_path", "fixed": path}));
        }
        list
    };
    json!({
        "oisFormat": "2.3.2", "title": "Rates", "version": "1.0.0",
        "apiSpecifications": {
            "servers": [{"url": base}],
            "paths": {
                "/rates": {"get": {"parameters": []}},
                "/price": {"get": {"parameters": [{"in": "query", "name": "symbol"}]}}
            },
            "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "x-api-key"}}},
            "security": {"key": []}
        },
        "endpoints": [
            {
                "name": "feed",
                "operation": {"method": "get", "path": "/rates"},
                "fixedOperationParameters": [],
                "parameters": [{"name": "name", "required": true}],
                "reservedParameters": reserved(None),
                "preProcessingSpecificationV2": {"environment": "Node", "timeoutMs": 5000,
                    "value": "async ({ endpointParameters }) => ({ endpointParameters: {} })"},
                "postProcessingSpecificationV2": {"environment": "Node", "timeoutMs": 5000,
                    "value": "async ({ response, endpointParameters }) => ({ response: response.rates[endpointParameters.name.split('/')[1]] })"}
            },
            {
                "name": "price",
                "operation": {"method": "get", "path": "/price"},
                "fixedOperationParameters": [],
                "parameters": [{"name": "symbol", "operationParameter": {"in": "query", "name": "symbol"}, "required": true}],
                "reservedParameters": reserved(Some("price"))
            }
        ]
    })
}

struct Deployment {
    _dir: tempfile::TempDir,
    config: PathBuf,
    secrets: PathBuf,
    ois: PathBuf,
}

/// The config as the user makes it: `ois scaffold feed --batch` and the secrets template filled.
fn deploy(server: &Server, feeds: &[&str]) -> Deployment {
    let dir = tempfile::tempdir().unwrap();
    let (ois, config, secrets) =
        (dir.path().join("rates.ois.json"), dir.path().join("config.json"), dir.path().join("secrets.env"));
    std::fs::write(&ois, serde_json::to_string_pretty(&vendor_ois(&server.base)).unwrap()).unwrap();
    let mut args: Vec<String> = vec!["scaffold".into(), "feed".into(), ois.display().to_string(), "--batch".into()];
    for feed in feeds {
        args.extend(["--feed".to_owned(), (*feed).to_owned()]);
    }
    args.extend(["-o".into(), config.display().to_string(), "--secrets-out".into(), secrets.display().to_string()]);
    let made = common::ois().args(&args).output().unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    fill(&secrets, &[("KEY", KEY), ("MNEMONIC", MNEMONIC), ("AUTH_TOKEN", "t0ken-5150")]);
    Deployment { _dir: dir, config, secrets, ois }
}

/// Fills each empty variable of the template whose name contains one of `values`' needles.
fn fill(secrets: &Path, values: &[(&str, &str)]) {
    let text = std::fs::read_to_string(secrets).unwrap();
    let filled: Vec<String> = text
        .lines()
        .map(|line| match line.split_once('=') {
            Some((name, "")) if !line.starts_with('#') => {
                let value = values.iter().find(|(needle, _)| name.contains(needle)).map_or("", |(_, v)| v);
                format!("{name}={value}")
            }
            _ => line.to_owned(),
        })
        .collect();
    std::fs::write(secrets, filled.join("\n") + "\n").unwrap();
}

fn call(deployment: &Deployment, extra: &[&str]) -> (std::process::Output, Value) {
    let config = deployment.config.display().to_string();
    let secrets = deployment.secrets.display().to_string();
    let mut args = vec!["call", &config, "--secrets", &secrets, "--format", "json"];
    args.extend(extra);
    let output = common::ois().args(&args).output().unwrap();
    let json = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("stdout is JSON: {}", String::from_utf8_lossy(&output.stderr)));
    (output, json)
}

/// `ois ids`'s beacon IDs for the same templates.
fn predicted_beacons(deployment: &Deployment, templates: &[&str]) -> Vec<String> {
    let mut args = vec!["ids".to_owned(), deployment.ois.display().to_string()];
    for template in templates {
        args.extend(["--template".to_owned(), (*template).to_owned()]);
    }
    args.extend(["--mnemonic-env".into(), "IDS_MNEMONIC".into(), "--format".into(), "json".into()]);
    let output = common::ois().args(&args).env("IDS_MNEMONIC", MNEMONIC).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    report["templates"].as_array().unwrap().iter().map(|t| t["beaconId"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn a_scaffolded_config_is_called_as_the_feed_calls_it() {
    let server = vendor();
    let feeds = ["feed:name=string32:USD/EUR", "feed:name=string32:USD/GBP", "price:symbol=string32:BTC"];
    let deployment = deploy(&server, &feeds);
    server.take();
    let (output, report) = call(&deployment, &[]);
    assert!(output.status.success(), "{}\n{report}", String::from_utf8_lossy(&output.stderr));

    // One call for the batched `feed` trigger, one for `price`: as the Feed makes them.
    let received = server.take();
    let mut paths: Vec<&str> = received.iter().map(|r| r.path()).collect();
    paths.sort_unstable();
    assert_eq!(paths, ["/price", "/rates"], "{received:?}");
    assert!(received.iter().all(|r| r.header("x-api-key") == Some(KEY)));
    assert_eq!(report["apiCalls"], 2);
    assert_eq!((report["ok"].as_u64(), report["failed"].as_u64()), (Some(3), Some(0)));

    let beacons = report["beacons"].as_array().unwrap();
    let values: Vec<&Value> = beacons.iter().map(|b| &b["values"][0]).collect();
    assert_eq!(values, [&json!("920000"), &json!("790000"), &json!("103000000")]);
    let ids: Vec<&str> = beacons.iter().map(|b| b["beaconId"].as_str().unwrap()).collect();
    assert_eq!(ids, predicted_beacons(&deployment, &feeds));
    assert_eq!(report["airnode"], "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    for beacon in beacons {
        assert_eq!(beacon["verdict"], "ok");
        assert_eq!(beacon["encodedValue"].as_str().unwrap().len(), 66, "{beacon}");
    }
    // The key never shows.
    assert!(!String::from_utf8_lossy(&output.stdout).contains(KEY));
    assert!(!String::from_utf8_lossy(&output.stderr).contains(KEY));
}

#[test]
fn a_failing_template_fails_the_run_and_the_others_still_report() {
    let server = vendor();
    let deployment = deploy(&server, &["price:symbol=string32:ETH", "price:symbol=string32:NOPE"]);
    let (output, report) = call(&deployment, &[]);
    assert_eq!(output.status.code(), Some(1));
    let beacons = report["beacons"].as_array().unwrap();
    assert_eq!(beacons[0]["verdict"], "ok");
    assert_eq!((beacons[1]["verdict"].as_str(), beacons[1]["status"].as_u64()), (Some("API error"), Some(404)));
    assert_eq!(beacons[1]["code"], "CAL006", "{}", beacons[1]);
    assert_eq!((report["ok"].as_u64(), report["failed"].as_u64()), (Some(1), Some(1)));

    // The text table says the same, the problem in full on stderr.
    let config = deployment.config.display().to_string();
    let secrets = deployment.secrets.display().to_string();
    let text = common::ois().args(["call", &config, "--secrets", &secrets]).output().unwrap();
    assert_eq!(text.status.code(), Some(1));
    let table = String::from_utf8_lossy(&text.stdout);
    assert!(table.starts_with("template "), "{table}");
    assert!(table.contains("2 beacon(s) from 2 API call(s): 1 ok, 1 failed, Airnode 0xf39F"), "{table}");
    assert!(String::from_utf8_lossy(&text.stderr).contains("404"));
}

#[test]
fn without_the_mnemonic_the_beacons_are_left_out_and_without_the_key_nothing_is_sent() {
    let server = vendor();
    let deployment = deploy(&server, &["price:symbol=string32:ETH"]);
    let filled = std::fs::read_to_string(&deployment.secrets).unwrap();
    let without = |needle: &str| filled.lines().filter(|l| !l.contains(needle)).collect::<Vec<_>>().join("\n");

    std::fs::write(&deployment.secrets, without("MNEMONIC")).unwrap();
    let (output, report) = call(&deployment, &[]);
    assert!(output.status.success(), "{report}");
    assert_eq!(report["beacons"][0]["beaconId"], Value::Null);
    assert_eq!(report["beacons"][0]["values"], json!(["103000000"]));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("beacon IDs are left out"), "{stderr}");

    server.take();
    std::fs::write(&deployment.secrets, without("RATES_KEY")).unwrap();
    let (output, report) = call(&deployment, &[]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(report["error"]["code"], "REQ003", "{report}");
    assert!(server.take().is_empty(), "nothing is sent without the key");
}

#[test]
fn a_file_that_is_not_a_feed_config_needs_an_endpoint() {
    let server = vendor();
    let deployment = deploy(&server, &["price:symbol=string32:ETH"]);
    let ois = deployment.ois.display().to_string();
    let output = common::ois().args(["call", &ois]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--endpoint NAME calls one"));
}

#[test]
fn a_failed_single_call_still_prints_json() {
    let server = vendor();
    let deployment = deploy(&server, &["price:symbol=string32:ETH"]);
    let (output, report) = call(&deployment, &["--endpoint", "price", "--param", "symbol=NOPE"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(report["error"]["code"], "CAL006", "{report}");
    assert_eq!(report["call"]["status"], 404);
    assert_eq!(report["call"]["body"], json!({"error": "unknown"}));
}

#[test]
fn ids_of_a_config_list_its_own_templates_beacons_as_the_dry_run_derives_them() {
    let server = vendor();
    let feeds = ["feed:name=string32:USD/EUR", "feed:name=string32:USD/GBP", "price:symbol=string32:BTC"];
    let deployment = deploy(&server, &feeds);
    let config = deployment.config.display().to_string();
    let args = ["ids", &config, "--mnemonic-env", "IDS_MNEMONIC", "--set", "--format", "json"];
    let output = common::ois().args(args).env("IDS_MNEMONIC", MNEMONIC).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let ids: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(ids["airnode"], "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    let listed: Vec<&str> =
        ids["templates"].as_array().unwrap().iter().map(|t| t["beaconId"].as_str().unwrap()).collect();
    assert_eq!(listed, predicted_beacons(&deployment, &feeds));
    let (_, called) = call(&deployment, &[]);
    let called: Vec<&str> =
        called["beacons"].as_array().unwrap().iter().map(|b| b["beaconId"].as_str().unwrap()).collect();
    assert_eq!(listed, called);
    // The config's own template IDs, each with its OEV IDs; the set of all three beacons.
    let config_json: Value = serde_json::from_str(&std::fs::read_to_string(&deployment.config).unwrap()).unwrap();
    let keys: Vec<&String> = config_json["templates"].as_object().unwrap().keys().collect();
    let derived: Vec<&str> =
        ids["templates"].as_array().unwrap().iter().map(|t| t["templateId"].as_str().unwrap()).collect();
    assert_eq!(keys, derived);
    assert!(ids["templates"].as_array().unwrap().iter().all(|t| t["oevBeaconId"].is_string()));
    assert!(ids["beaconSetId"].as_str().is_some_and(|s| s.len() == 66));

    let text = common::ois()
        .args(["ids", &config, "--mnemonic-env", "IDS_MNEMONIC"])
        .env("IDS_MNEMONIC", MNEMONIC)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&text.stdout).starts_with("Airnode 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\n"));
}
