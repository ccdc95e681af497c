//! Generated node configurations against the real validators: every Airnode Feed config `ois
//! scaffold feed` writes for the example OIS files passes `@api3/airnode-feed` 3's config schema
//! (which re-derives every endpoint and template ID and pre-processes batched templates), every
//! Airnode config.json `ois scaffold airnode` writes passes airnode-validator 0.15 — both after
//! the secrets are interpolated as the node interpolates them. `ois ids verify` passes them too,
//! and catches each deliberately broken ID.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)] // tests fail by panicking

use crate::common;

use serde_json::{Map, Value, json};

use ois::node::ids::TemplateParameter;
use ois::scaffold::node::{AirnodeOptions, Feed, FeedOptions, airnode_config, feed_config};

/// The first pair names of an endpoint's pre-processing table (none without one).
fn names(endpoint: &Value) -> Vec<String> {
    let code = endpoint.pointer("/preProcessingSpecificationV2/value").and_then(Value::as_str).unwrap_or_default();
    let mut found = common::table_names(code);
    found.truncate(3);
    found
}

/// Secrets for every `${NAME}` of `config`.
fn secrets_for(config: &Value) -> Map<String, Value> {
    let text = config.to_string();
    let mut secrets = Map::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find("${") {
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else { break };
        let name = &after[..end];
        let value = match name {
            "AIRNODE_WALLET_MNEMONIC" => "test test test test test test test test test test test junk",
            "CHAIN_ID" => "31337",
            url if url.ends_with("_PROVIDER_URL") => "http://127.0.0.1:8545",
            rrp if rrp.ends_with("AIRNODE_RRP_ADDRESS") => "0x5FbDB2315678afecb367f032d93F642f64180aa3",
            _ => "secret-value",
        };
        secrets.insert(name.to_owned(), json!(value));
        rest = &after[end..];
    }
    secrets
}

fn example_oises() -> Vec<(String, Value)> {
    let dir = common::shared_dir().join("examples/ois");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "json"))
        .map(|f| {
            (
                f.file_name().unwrap().to_string_lossy().into_owned(),
                serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn generated_configs_pass_the_real_validators_and_verify() {
    if !common::interop_installed("@api3/airnode-feed") {
        return;
    }
    let mut items = Vec::new();
    let mut labels = Vec::new();
    for (file, ois) in example_oises() {
        let oises = match &ois {
            Value::Array(list) => list.clone(),
            one => vec![one.clone()],
        };
        // Airnode Feed 3 reads OIS 2.3.x; the 3.0 examples are for Airnode Feed 4 (not on npm).
        let feed_ready = oises.iter().all(|o| o["oisFormat"].as_str().is_some_and(|f| f.starts_with("2.3")));
        if !feed_ready {
            continue;
        }
        // Airnode 0.15 reads OIS 2.3.x too.
        let airnode = airnode_config(&oises, &AirnodeOptions::default()).unwrap();
        assert_eq!(ois::verify_ids(&airnode.config).unwrap(), vec![], "{file}");
        let ours = ois::validate_value(&airnode.config, None);
        assert!(ours.is_valid(), "{file}: {:?}", ours.diagnostics);
        items.push(json!({"kind": "airnode", "secrets": secrets_for(&airnode.config), "config": airnode.config}));
        labels.push(format!("{file} (airnode)"));
        let mut feeds = Vec::new();
        for o in &oises {
            for endpoint in o["endpoints"].as_array().unwrap().iter().take(3) {
                let name = endpoint["name"].as_str().unwrap().to_owned();
                let pairs = names(endpoint);
                if pairs.is_empty() {
                    feeds.push(Feed { ois_title: None, endpoint: name.clone(), parameters: vec![] });
                }
                for pair in pairs {
                    let parameters =
                        vec![TemplateParameter { kind: "string32".into(), name: "name".into(), value: json!(pair) }];
                    feeds.push(Feed { ois_title: None, endpoint: name.clone(), parameters });
                }
            }
        }
        let mut feed_3 = FeedOptions::default();
        feed_3.node_version = "3.3.0".to_owned();
        let feed = feed_config(&oises, &feeds, &feed_3).unwrap();
        assert_eq!(ois::verify_ids(&feed.config).unwrap(), vec![], "{file}");
        let ours = ois::validate_value(&feed.config, None);
        assert!(ours.is_valid(), "{file}: {:?}", ours.diagnostics);
        items.push(json!({"kind": "feed", "secrets": secrets_for(&feed.config), "config": feed.config}));
        labels.push(format!("{file} (feed, {} templates)", feeds.len()));
        // The same OIS as 3.0.0 (each fixed parameter has its value, as 3.0 requires), for Airnode
        // Feed 4.6.0: its own config schema, from the build of ../shared/nodes.
        if common::node_main("4.6.0", "airnode-feed").is_none() {
            continue;
        }
        let as_3_0: Vec<Value> = oises
            .iter()
            .map(|o| {
                let mut o = o.clone();
                o["oisFormat"] = json!("3.0.0");
                o
            })
            .collect();
        if !as_3_0.iter().all(|o| ois::validate_value(o, None).is_valid()) {
            continue;
        }
        let mut options = FeedOptions::default();
        options.node_version = "4.6.0".to_owned();
        let feed = feed_config(&as_3_0, &feeds, &options).unwrap();
        let ours = ois::validate_value(&feed.config, None);
        assert!(ours.is_valid(), "{file} (Feed 4): {:?}", ours.diagnostics);
        items.push(json!({"kind": "feed", "secrets": secrets_for(&feed.config), "config": feed.config}));
        labels.push(format!("{file} (feed 4.6.0, {} templates)", feeds.len()));
    }
    let results = common::run_node("node-configs.js", &Value::Array(items));
    let refused: Vec<String> = labels
        .iter()
        .zip(results.as_array().unwrap())
        .filter(|(_, r)| r["valid"] != true)
        .map(|(label, r)| format!("{label}: {}", r["issues"]))
        .collect();
    assert!(refused.is_empty(), "{} refused:\n{}", refused.len(), refused.join("\n"));
    assert!(labels.iter().filter(|l| l.contains("(feed,")).count() >= 10, "{labels:?}");
    if common::node_main("4.6.0", "airnode-feed").is_some() {
        assert!(labels.iter().filter(|l| l.contains("(feed 4.6.0")).count() >= 10, "{labels:?}");
    }
}

#[test]
fn verify_catches_each_broken_id() {
    let (_, nodary) = example_oises().into_iter().find(|(f, _)| f == "nodary.json").unwrap();
    let feeds: Vec<Feed> = ["BTC/USD", "ETH/USD"]
        .iter()
        .map(|pair| Feed {
            ois_title: None,
            endpoint: "feed".into(),
            parameters: vec![TemplateParameter { kind: "string32".into(), name: "name".into(), value: json!(pair) }],
        })
        .collect();
    let mut feed_3 = FeedOptions::default();
    feed_3.node_version = "3.3.0".to_owned();
    let config = feed_config(&[nodary], &feeds, &feed_3).unwrap().config;
    assert_eq!(ois::verify_ids(&config).unwrap(), vec![]);
    let endpoint_id = config["endpoints"].as_object().unwrap().keys().next().unwrap().clone();
    let template_ids: Vec<String> = config["templates"].as_object().unwrap().keys().cloned().collect();
    let mut broken: Vec<(&str, Value)> = Vec::new();
    let mut renamed = config.clone();
    renamed["endpoints"][&endpoint_id]["endpointName"] = json!("feed2");
    broken.push(("endpoint renamed", renamed));
    let mut retitled = config.clone();
    retitled["endpoints"][&endpoint_id]["oisTitle"] = json!("Nodary2");
    broken.push(("endpoint of another OIS title", retitled));
    let mut value = config.clone();
    value["templates"][&template_ids[0]]["parameters"][0]["value"] = json!("SOL/USD");
    broken.push(("template value changed", value));
    let mut kind = config.clone();
    kind["templates"][&template_ids[1]]["parameters"][0]["type"] = json!("string");
    broken.push(("template type changed", kind));
    let mut moved = config.clone();
    moved["templates"][&template_ids[0]]["endpointId"] = json!(format!("0x{}", "11".repeat(32)));
    broken.push(("template of another endpoint", moved));
    let mut trigger = config.clone();
    trigger["triggers"]["signedApiUpdates"][0]["templateIds"][0] = json!(format!("0x{}", "22".repeat(32)));
    broken.push(("trigger naming no template", trigger));
    for (what, config) in broken {
        let found = ois::verify_ids(&config).unwrap();
        assert!(found.iter().any(|d| d.code == ois::Code::IdMismatch), "{what}: {found:?}");
    }
}

#[test]
fn batched_triggers_pass_the_feeds_same_operation_check() {
    if !common::interop_installed("@api3/airnode-feed") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("feed.json");
    let example = common::shared_dir().join("examples/ois/ncfx-crypto.json");
    let status = common::ois()
        .args(["scaffold", "feed"])
        .arg(&example)
        .args([
            "--feed",
            "feed:name=string32:BTC/USD",
            "--feed",
            "feed:name=string32:ETH/USD",
            "--feed",
            "feed:name=string32:AAVE/USD",
            "--batch",
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    let config: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let updates = config["triggers"]["signedApiUpdates"].as_array().unwrap();
    assert!(updates.iter().any(|u| u["templateIds"].as_array().unwrap().len() > 1), "nothing batched: {updates:?}");
    let results = common::run_node(
        "node-configs.js",
        &json!([{"kind": "feed", "secrets": secrets_for(&config), "config": config}]),
    );
    assert_eq!(results[0]["valid"], true, "{}", results[0]["issues"]);
    // Batching templates whose calls differ is what the Feed refuses: check it would.
    let mut wrong = config.clone();
    let all: Vec<Value> = wrong["templates"].as_object().unwrap().keys().map(|k| json!(k)).collect();
    wrong["triggers"]["signedApiUpdates"] = json!([{"templateIds": all, "fetchInterval": 5}]);
    let results = common::run_node(
        "node-configs.js",
        &json!([{"kind": "feed", "secrets": secrets_for(&wrong), "config": wrong}]),
    );
    let differs = config["triggers"]["signedApiUpdates"].as_array().unwrap().len() > 1;
    assert_eq!(results[0]["valid"], !differs, "{}", results[0]["issues"]);
}

/// Three feeds of one endpoint that differ in `_path`: a batching scaffold gives them triggers of
/// their own and says why (`OIS087`), and the real Feed agrees: one trigger for the two that
/// differ only in `_path` is refused by its same-operation check (reserved parameters are compared
/// as given).
#[test]
fn feeds_that_differ_in_path_are_not_batched_and_the_feed_agrees() {
    // The OIS is 3.0.0: Airnode Feed 4.6.0 reads the config.
    if !common::interop_installed("@api3/airnode-feed") || common::node_main("4.6.0", "airnode-feed").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/codes/OIS087.in/fx.json"), d.join("fx.json")).unwrap();
    let run = |args: &[&str]| {
        let output = common::ois().current_dir(d).args(args).output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    run(&["convert", "fx.json", "-o", "fx.ois.json"]);
    run(&["endpoint", "set", "fx.ois.json", "latest", "--reserved", "_type=int256", "--reserved", "_path"]);
    let told = run(&[
        "scaffold",
        "feed",
        "fx.ois.json",
        "--feed",
        "latest:base=string32:USD,_path=string32:rates.EUR",
        "--feed",
        "latest:base=string32:USD,_path=string32:rates.JPY",
        "--batch",
        "-o",
        "config.json",
    ]);
    assert!(told.contains("OIS087") && told.contains("`_path`") && !told.contains("`base`"), "{told}");
    let config: Value = serde_json::from_str(&std::fs::read_to_string(d.join("config.json")).unwrap()).unwrap();
    let updates = config["triggers"]["signedApiUpdates"].as_array().unwrap();
    assert_eq!(updates.len(), 2, "{updates:?}");
    let verdict = |config: &Value| {
        common::run_node(
            "node-configs.js",
            &json!([{"kind": "feed", "secrets": secrets_for(config), "config": config}]),
        )
    };
    assert_eq!(verdict(&config)[0]["valid"], true, "{}", verdict(&config)[0]["issues"]);
    let mut merged = config.clone();
    let all: Vec<Value> = merged["templates"].as_object().unwrap().keys().map(|k| json!(k)).collect();
    merged["triggers"]["signedApiUpdates"] = json!([{"templateIds": all, "fetchInterval": 5}]);
    let results = verdict(&merged);
    assert_eq!(results[0]["valid"], false, "the Feed batched templates that differ in _path");
    assert!(results[0]["issues"].to_string().contains("same operation effect"), "{}", results[0]["issues"]);
}

/// `scaffold airnode --template` derives each RRP template's ID from the Airnode of the mnemonic it
/// is given: airnode-validator 0.15 accepts the config, secrets filled, and refuses it, as `ids verify
/// --secrets` does, once a template ID is changed.
#[test]
fn rrp_templates_by_command_pass_airnode_validator() {
    if !common::interop_installed("@api3/airnode-validator") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |args: &[&str]| common::ois().current_dir(d).args(args).output().unwrap();
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/coins.yaml"), d.join("coins.yaml")).unwrap();
    let converted = run(&["convert", "coins.yaml", "-o", "coins.ois.json", "--target", "airnode@0.15"]);
    assert!(converted.status.success(), "{}", String::from_utf8_lossy(&converted.stderr));
    std::fs::write(
        d.join("secrets.env"),
        "AIRNODE_WALLET_MNEMONIC=test test test test test test test test test test test junk\n",
    )
    .unwrap();
    let scaffolded = run(&[
        "scaffold",
        "airnode",
        "coins.ois.json",
        "--template",
        "simplePrice:ids=string32:bitcoin,vs_currencies=string32:usd",
        "--template",
        "coinsId:id=string32:ethereum",
        "--secrets",
        "secrets.env",
        "--http",
        "--gateway-port",
        "3456",
        "--gateway-max-concurrency",
        "7",
        "--chain",
        "31337",
        "--chain",
        "11155111",
        "--gas-price",
        "30",
        "--min-confirmations",
        "1",
        "--requester-authorizer",
        "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
        "-o",
        "config.json",
    ]);
    assert!(scaffolded.status.success(), "{}", String::from_utf8_lossy(&scaffolded.stderr));
    let config: Value = serde_json::from_slice(&std::fs::read(d.join("config.json")).unwrap()).unwrap();
    assert_eq!(config["templates"].as_array().unwrap().len(), 2);
    assert_eq!(config["nodeSettings"]["cloudProvider"]["gatewayServerPort"], 3456);
    assert_eq!(config["nodeSettings"]["httpGateway"]["maxConcurrency"], 7);
    let chains = config["chains"].as_array().unwrap();
    assert_eq!((chains[0]["id"].as_str(), chains[1]["id"].as_str()), (Some("31337"), Some("11155111")));
    assert_eq!(chains[1]["providers"]["provider"]["url"], "${CHAIN_11155111_PROVIDER_URL}");
    assert_eq!(chains[0]["minConfirmations"], 1);
    assert_eq!(
        chains[1]["authorizers"]["requesterEndpointAuthorizers"][0],
        "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0"
    );
    assert_eq!(chains[0]["options"]["gasPriceOracle"][1]["gasPrice"]["value"], 30);
    let mut broken = config.clone();
    let id = broken["templates"][0]["templateId"].as_str().unwrap().to_owned();
    let last = if id.ends_with('0') { '1' } else { '0' };
    broken["templates"][0]["templateId"] = json!(format!("{}{last}", &id[..65]));
    let verdicts = common::run_node(
        "node-configs.js",
        &json!([
            {"kind": "airnode", "secrets": secrets_for(&config), "config": config},
            {"kind": "airnode", "secrets": secrets_for(&broken), "config": broken},
        ]),
    );
    assert_eq!(verdicts[0]["valid"], true, "{}", verdicts[0]);
    assert_eq!(verdicts[1]["valid"], false, "{}", verdicts[1]);
    std::fs::write(d.join("broken.json"), serde_json::to_string_pretty(&broken).unwrap()).unwrap();
    assert!(run(&["ids", "verify", "config.json", "--secrets", "secrets.env"]).status.success());
    assert_eq!(run(&["ids", "verify", "broken.json", "--secrets", "secrets.env"]).status.code(), Some(1));
}
