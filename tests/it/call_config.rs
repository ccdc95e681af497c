//! `ois call CONFIG`: an Airnode Feed config made by `ois scaffold feed` is called whole against a
//! loopback API — one API call per trigger, as the Feed makes them, each template answered from
//! it — and every beacon's ID equals `ois ids`, every value what the API said.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use common::vendor::{Deployment, KEY, MNEMONIC, deploy, vendor};
use serde_json::{Value, json};

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
    let read_from: Vec<&Value> = beacons.iter().map(|b| &b["readFrom"]).collect();
    assert_eq!(
        read_from,
        [&json!("the post-processed answer"), &json!("the post-processed answer"), &json!("price")],
        "{report}"
    );
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

#[test]
fn ids_read_the_mnemonic_from_the_secrets_file_the_scaffold_wrote() {
    let server = vendor();
    let deployment = deploy(&server, &["price:symbol=string32:BTC"]);
    let (config, secrets) = (deployment.config.display().to_string(), deployment.secrets.display().to_string());
    let output = common::ois().args(["ids", &config, "--secrets", &secrets, "--format", "json"]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let ids: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(ids["airnode"], "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    assert!(!String::from_utf8_lossy(&output.stdout).contains("junk"), "the mnemonic is never shown");

    std::fs::write(&deployment.secrets, "RATES_KEY=x\n").unwrap();
    let output = common::ois().args(["ids", &config, "--secrets", &secrets]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("has no AIRNODE_WALLET_MNEMONIC"), "{stderr}");
}

#[test]
fn a_config_json_s_rrp_templates_are_each_called_as_airnode_node_calls_them() {
    let server = vendor();
    let deployment = common::vendor::deploy_for(&server, Some("airnode@0.15"), &["price:symbol=string32:ETH"], &[]);
    let at = |name: &str| deployment.dir.path().join(name).display().to_string();
    let (ois_file, config, secrets) = (deployment.ois.display().to_string(), at("airnode.json"), at("secrets.env"));
    let made = common::ois().args(["scaffold", "airnode", &ois_file, "-o", &config]).output().unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let airnode = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    let templates = ["price:symbol=string32:ETH", "price:symbol=string32:NOPE", "price:ticker=string32:X"];
    let mut args = vec!["ids", &ois_file, "--airnode", airnode, "--format", "json"];
    for template in &templates {
        args.extend(["--template", template]);
    }
    let ids: Value = serde_json::from_slice(&common::ois().args(&args).output().unwrap().stdout).unwrap();
    let listed: Vec<Value> = ids["templates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| json!({"templateId": t["rrpTemplateId"], "endpointId": t["endpointId"], "encodedParameters": t["encodedParameters"]}))
        .collect();
    let mut written: Value = serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    written["templates"] = Value::Array(listed);
    written["nodeSettings"]["airnodeWalletMnemonic"] = json!(MNEMONIC);
    std::fs::write(&config, serde_json::to_string_pretty(&written).unwrap()).unwrap();

    // The node does not send a template parameter its endpoint lacks.
    let validated = common::ois().args(["validate", &config]).output().unwrap();
    let shown = String::from_utf8_lossy(&validated.stdout);
    assert!(shown.contains("OIS076") && shown.contains("\"ticker\" is not a parameter"), "{shown}");

    server.take();
    let output = common::ois().args(["call", &config, "--secrets", &secrets, "--format", "json"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["node"], "airnode");
    let rows = report["beacons"].as_array().unwrap();
    let verdicts: Vec<&str> = rows.iter().map(|r| r["verdict"].as_str().unwrap()).collect();
    assert_eq!(verdicts, ["ok", "API error", "API error"]);
    assert_eq!(rows[0]["values"], json!(["103000000"]));
    assert_eq!(rows[0]["templateId"], ids["templates"][0]["rrpTemplateId"]);
    assert!(rows.iter().all(|r| r["beaconId"].is_null() && r["trigger"].is_null()));
    let received = server.take();
    assert_eq!(received.len(), 3);
    assert!(received.iter().all(|r| r.header("x-api-key") == Some(KEY)));
}
