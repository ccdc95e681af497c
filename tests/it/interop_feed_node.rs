//! The proof of the loop is the real node, both generations of it: configs made only by `ois`
//! commands (`ois convert` of the vendor's OpenAPI document, one documented refinement, `ois
//! scaffold feed --batch --signed-api`, `ois scaffold signed-api`, their secrets templates
//! filled) are run by the real Airnode Feed against a loopback vendor API, pushing to the real
//! Signed API on loopback: 3.3.0 from the npm registry (OIS 2.3.2, `--target airnode-feed@3`) and
//! 4.6.0 built from `../shared/nodes` (OIS 3.0.0, the default). Every beacon arrives; each encoded
//! value is the one `ois call CONFIG` predicted, each beacon and template ID the one `ois ids`
//! derived, each signature recovers to the Airnode `ois` derived from the mnemonic, and the config
//! hash `ois ids` prints is the one the Feed's heartbeat computes. A config with a broken template
//! fails `ois validate` before any node runs it. Bounded in time; every process started is stopped.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::nodes::{free_port, pushed, signed_api_config, signer, start_node};
use common::vendor::{deploy_for, deploy_with, vendor};
use serde_json::{Value, json};

/// `createSha256Hash(serializePlainObject(config))` by the `@api3/commons` the Feed package at
/// `feed_package` loads.
fn config_hash_by(feed_package: &Path, config: &Path) -> String {
    let script = "const c = require(require.resolve('@api3/commons', {paths: [process.argv[1]]})); const fs = require('fs'); \
        const raw = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')); \
        process.stdout.write(c.createSha256Hash(c.serializePlainObject(raw)));";
    let output = Command::new("node").arg("-e").arg(script).arg(feed_package).arg(config).output().expect("node runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_real_feed_3_pushes_what_ois_predicted() {
    the_real_feed_pushes_what_ois_predicted(Some("airnode-feed@3"), "3.3.0");
}

#[test]
fn the_real_feed_4_pushes_what_ois_predicted() {
    the_real_feed_pushes_what_ois_predicted(None, "4.6.0");
}

/// The README's recipe for `target` (none: the default), run by the real Airnode Feed and Signed
/// API `version`.
fn the_real_feed_pushes_what_ois_predicted(target: Option<&str>, version: &str) {
    let Some((feed_main, signed_api_main)) = common::nodes::feed_and_signed_api(version) else { return };
    let vendor = vendor();
    let port = free_port();
    let signed_api = format!("http://127.0.0.1:{port}");
    let feeds = ["feed:name=string32:USD/EUR", "feed:name=string32:USD/GBP", "price:symbol=string32:BTC"];
    let signed_api_arg = format!("local={signed_api}");
    let more = ["--signed-api", signed_api_arg.as_str(), "--fetch-interval", "1"];
    let deployment = deploy_for(&vendor, target, &feeds, &more);
    let config = deployment.config.display().to_string();
    let secrets = deployment.secrets.display().to_string();

    // The README's recipe, step by step (the conversion, the refinement, the scaffold and the
    // secrets are `deploy_with`'s): the bare OIS validated, previewed and called with its key.
    let ois_file = deployment.ois.display().to_string();
    let validated = common::ois().args(["validate", &ois_file]).output().unwrap();
    assert!(validated.status.success(), "{}", String::from_utf8_lossy(&validated.stdout));
    let sample = deployment.dir.path().join("sample.json");
    std::fs::write(&sample, r#"{"symbol": "BTC", "price": 103.5}"#).unwrap();
    let previewed = common::ois()
        .args(["request", &ois_file, "--endpoint", "price", "--param", "symbol=BTC", "--secrets", &secrets])
        .args(["--response", sample.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    assert!(previewed.status.success(), "{}", String::from_utf8_lossy(&previewed.stderr));
    let previewed: Value = serde_json::from_slice(&previewed.stdout).unwrap();
    assert!(
        previewed.to_string().contains("/price?symbol=BTC") && previewed.to_string().contains("103500000"),
        "{previewed}"
    );
    let one = common::ois()
        .args(["call", &ois_file, "--endpoint", "feed", "--param", "name=USD/EUR", "--secrets", &secrets])
        .args(["--mode", "feed", "--format", "json"])
        .output()
        .unwrap();
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));

    // What ois says of the config before any node runs.
    let validated = common::ois().args(["validate", &config]).output().unwrap();
    assert!(validated.status.success(), "{}", String::from_utf8_lossy(&validated.stderr));
    let called = common::ois().args(["call", &config, "--secrets", &secrets, "--format", "json"]).output().unwrap();
    assert!(called.status.success(), "{}", String::from_utf8_lossy(&called.stderr));
    let called: Value = serde_json::from_slice(&called.stdout).unwrap();
    let verified = common::ois().args(["ids", "verify", &config]).output().unwrap();
    assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stdout));
    let ids =
        common::ois().args(["ids", &config, "--secrets", &secrets, "--set", "--format", "json"]).output().unwrap();
    assert!(ids.status.success(), "{}", String::from_utf8_lossy(&ids.stderr));
    let ids: Value = serde_json::from_slice(&ids.stdout).unwrap();
    let airnode = ids["airnode"].as_str().unwrap().to_owned();
    let config_json: Value = serde_json::from_str(&std::fs::read_to_string(&deployment.config).unwrap()).unwrap();
    assert_eq!(config_json["nodeSettings"]["nodeVersion"], version, "the exact version the node requires");
    // The config hash the Feed's heartbeat logs (`createSha256Hash(serializePlainObject(rawConfig))`
    // of its @api3/commons, over the raw config), computed by that generation's own commons.
    let feed_package = feed_main.parent().unwrap().parent().unwrap().parent().unwrap();
    let hash = config_hash_by(feed_package, &deployment.config);
    assert_eq!(ids["configHash"].as_str(), Some(hash.as_str()), "the heartbeat's config hash");

    // The Feed reads config/airnode-feed.json and config/secrets.env from where it runs.
    let feed_dir = deployment.dir.path().join("feed");
    std::fs::create_dir_all(feed_dir.join("config")).unwrap();
    std::fs::copy(&deployment.config, feed_dir.join("config/airnode-feed.json")).unwrap();
    std::fs::copy(&deployment.secrets, feed_dir.join("config/secrets.env")).unwrap();
    // The Signed API's config, by `ois scaffold signed-api` from the Feed's config and its
    // mnemonic; its secrets template filled with the same push token and a read token.
    let api_dir = deployment.dir.path().join("signed-api");
    const READ_TOKEN: &str = "read-t0ken-2718";
    signed_api_config(&api_dir, &deployment.config, &deployment.secrets, READ_TOKEN);
    let api_config = api_dir.join("config/signed-api.json");
    let validated = common::ois().arg("validate").arg(&api_config).arg(&config).output().unwrap();
    assert!(validated.status.success(), "{}", String::from_utf8_lossy(&validated.stdout));

    let port_text = port.to_string();
    let _signed_api = start_node(&signed_api_main, &api_dir, &[("SERVER_PORT", &port_text)]);
    let _feed = start_node(&feed_main, &feed_dir, &[("LOG_HEARTBEAT", "false")]);

    let expected = called["beacons"].as_array().unwrap().len();
    let data = pushed(&signed_api, &airnode, READ_TOKEN, expected, &feed_dir);

    let pushed: BTreeMap<&str, &Value> = data.iter().map(|(beacon, datum)| (beacon.as_str(), datum)).collect();
    for (beacon, listed) in called["beacons"].as_array().unwrap().iter().zip(ids["templates"].as_array().unwrap()) {
        let beacon_id = beacon["beaconId"].as_str().unwrap();
        assert_eq!(beacon_id, listed["beaconId"].as_str().unwrap());
        let datum = pushed.get(beacon_id).unwrap_or_else(|| panic!("beacon {beacon_id} not pushed: {data:?}"));
        assert_eq!(datum["templateId"], beacon["templateId"]);
        assert_eq!(datum["templateId"], listed["templateId"]);
        assert_eq!(datum["encodedValue"], beacon["encodedValue"], "{beacon_id}");
        assert_eq!(datum["airnode"].as_str(), Some(airnode.as_str()));
        assert_eq!(signer(datum).to_checksum(None), airnode, "{datum}");
    }
}

#[test]
fn a_broken_template_fails_validation_before_any_node_runs_it() {
    let vendor = vendor();
    let deployment = deploy_with(&vendor, &["price:symbol=string32:BTC"], &[]);
    let mut config: Value = serde_json::from_str(&std::fs::read_to_string(&deployment.config).unwrap()).unwrap();
    let template = config["templates"].as_object_mut().unwrap().values_mut().next().unwrap();
    template["parameters"][0]["name"] = json!("ticker");
    std::fs::write(&deployment.config, config.to_string()).unwrap();
    let path = deployment.config.display().to_string();
    let validated = common::ois().args(["validate", &path]).output().unwrap();
    assert_eq!(validated.status.code(), Some(1));
    let shown = String::from_utf8_lossy(&validated.stdout);
    assert!(shown.contains("OIS076") && shown.contains("\"ticker\""), "{shown}");
}

/// The vendor's feeds and the arguments of the scaffold that deploys them to a signed API on `port`.
const FEEDS: [&str; 3] = ["feed:name=string32:USD/EUR", "feed:name=string32:USD/GBP", "price:symbol=string32:BTC"];

/// A staging config of the deployment's OIS pointed at `server`, made by `ois scaffold feed
/// --server` (the note said), with the Signed API's config beside it; the Feed and Signed API
/// 4.6.0 run them, and the beacons they push (all of `expected`) are returned.
fn staged_and_pushed(
    deployment: &common::vendor::Deployment,
    server: &str,
    port: u16,
    expected: usize,
) -> Option<serde_json::Map<String, Value>> {
    let version = "4.6.0";
    let (feed_main, signed_api_main) =
        (common::node_main(version, "airnode-feed")?, common::node_main(version, "signed-api")?);
    let signed_api = format!("http://127.0.0.1:{port}");
    let signed_api_arg = format!("local={signed_api}");
    let staging = deployment.dir.path().join("staging.json");
    let mut scaffold = vec!["scaffold", "feed", deployment.ois.to_str().unwrap(), "--batch"];
    for feed in &FEEDS {
        scaffold.extend(["--feed", feed]);
    }
    scaffold.extend(["--signed-api", &signed_api_arg, "--fetch-interval", "1", "--server", server, "--force", "-o"]);
    scaffold.push(staging.to_str().unwrap());
    let made = common::ois().args(&scaffold).output().unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    assert!(String::from_utf8_lossy(&made.stderr).contains("a staging config"), "the note");

    let feed_dir = deployment.dir.path().join("feed");
    std::fs::create_dir_all(feed_dir.join("config")).unwrap();
    std::fs::copy(&staging, feed_dir.join("config/airnode-feed.json")).unwrap();
    std::fs::copy(&deployment.secrets, feed_dir.join("config/secrets.env")).unwrap();
    let api_dir = deployment.dir.path().join("signed-api");
    const READ_TOKEN: &str = "read-t0ken-3141";
    signed_api_config(&api_dir, &staging, &deployment.secrets, READ_TOKEN);
    // The Airnode of the vendor's deployment mnemonic (Hardhat's).
    let airnode = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    let port_text = port.to_string();
    let _signed_api = start_node(&signed_api_main, &api_dir, &[("SERVER_PORT", &port_text)]);
    let _feed = start_node(&feed_main, &feed_dir, &[("LOG_HEARTBEAT", "false")]);
    Some(pushed(&signed_api, airnode, READ_TOKEN, expected, &feed_dir))
}

/// Every beacon of `called` (an `ois call CONFIG --format json` report) pushed with its value.
fn every_value_pushed(called: &Value, pushed: &serde_json::Map<String, Value>) {
    for beacon in called["beacons"].as_array().unwrap() {
        let beacon_id = beacon["beaconId"].as_str().unwrap();
        let datum = pushed.get(beacon_id).unwrap_or_else(|| panic!("beacon {beacon_id} not pushed: {pushed:?}"));
        assert_eq!(datum["encodedValue"], beacon["encodedValue"], "{beacon_id}");
    }
}

/// Without the vendor: the config's answers recorded by `ois call CONFIG --record`, the vendor
/// then never called again, `ois mock` serving the recordings, a staging config made by `ois
/// scaffold feed --server MOCK`, run by the real Airnode Feed 4.6.0 and Signed API: every beacon
/// arrives with the value the live call gave.
#[test]
fn the_real_feed_runs_on_recorded_answers_served_by_ois_mock() {
    let vendor = vendor();
    let port = free_port();
    let signed_api_arg = format!("local=http://127.0.0.1:{port}");
    let deployment = deploy_for(&vendor, None, &FEEDS, &["--signed-api", &signed_api_arg]);
    let (config, secrets) = (deployment.config.display().to_string(), deployment.secrets.display().to_string());
    let answers = deployment.dir.path().join("answers");
    let live = common::ois()
        .args(["call", &config, "--secrets", &secrets, "--format", "json", "--record"])
        .arg(&answers)
        .output()
        .unwrap();
    assert!(live.status.success(), "{}", String::from_utf8_lossy(&live.stderr));
    let live: Value = serde_json::from_slice(&live.stdout).unwrap();
    vendor.take();
    let mock = common::ois_mock(&answers, &[]);
    let mock_base = mock.base.clone();
    let Some(pushed) = staged_and_pushed(&deployment, &mock_base, port, live["beacons"].as_array().unwrap().len())
    else {
        return;
    };
    every_value_pushed(&live, &pushed);
    assert!(vendor.take().is_empty(), "the Feed reached the vendor, not the mock");
}

/// Before anything is recorded: `ois mock` of the vendor's document with response examples, the
/// staging config pointed at it, run by the real Feed: every beacon arrives with the value `ois
/// call` of the staging config gave, the examples' values.
#[test]
fn the_real_feed_runs_on_a_mock_made_from_the_vendor_s_examples() {
    let vendor = vendor();
    let port = free_port();
    let signed_api_arg = format!("local=http://127.0.0.1:{port}");
    let deployment = deploy_for(&vendor, None, &FEEDS, &["--signed-api", &signed_api_arg]);
    let document = deployment.dir.path().join("rates-examples.yaml");
    std::fs::write(
        &document,
        "openapi: 3.0.3\ninfo: {title: Rates, version: 1.0.0}\npaths:\n  /rates:\n    get:\n      responses:\n        \"200\":\n          description: ok\n          content: {application/json: {example: {rates: {EUR: 0.9, GBP: 0.8, JPY: 150}}}}\n  /price:\n    get:\n      responses:\n        \"200\":\n          description: ok\n          content: {application/json: {example: {symbol: BTC, price: 105}}}\n",
    )
    .unwrap();
    let mock = common::ois_mock(&document, &[]);
    let mock_base = mock.base.clone();
    let secrets = deployment.secrets.display().to_string();
    let staging = deployment.dir.path().join("preview.json");
    let mut scaffold = vec!["scaffold", "feed", deployment.ois.to_str().unwrap(), "--batch", "--server", &mock_base];
    for feed in &FEEDS {
        scaffold.extend(["--feed", feed]);
    }
    scaffold.extend(["-o", staging.to_str().unwrap()]);
    assert!(common::ois().args(&scaffold).output().unwrap().status.success());
    let called = common::ois()
        .args(["call", staging.to_str().unwrap(), "--secrets", &secrets, "--format", "json"])
        .output()
        .unwrap();
    assert!(called.status.success(), "{}", String::from_utf8_lossy(&called.stderr));
    let called: Value = serde_json::from_slice(&called.stdout).unwrap();
    let values: Vec<Value> = called["beacons"].as_array().unwrap().iter().map(|b| b["values"][0].clone()).collect();
    assert_eq!(values, [json!("900000"), json!("800000"), json!("105000000")], "the examples' values");
    let Some(pushed) = staged_and_pushed(&deployment, &mock_base, port, values.len()) else { return };
    every_value_pushed(&called, &pushed);
    assert!(vendor.take().is_empty(), "the vendor was reached, not the mock");
}

#[test]
fn the_real_feed_3_pushes_feeds_by_name() {
    the_real_feed_pushes_feeds_by_name(Some("airnode-feed@3"), "3.3.0");
}

#[test]
fn the_real_feed_4_pushes_feeds_by_name() {
    the_real_feed_pushes_feeds_by_name(None, "4.6.0");
}

/// The README's feeds-by-name variant: API3's production shape made by commands only — `ois
/// convert`, three `ois feed add` checked against the vendor's document (two names on one vendor
/// call), `ois scaffold feed --all-feeds` — run by the real Feed: one API call for the two rates,
/// every beacon pushed with the value `ois call OIS --all-feeds` predicted.
fn the_real_feed_pushes_feeds_by_name(target: Option<&str>, version: &str) {
    let Some((feed_main, signed_api_main)) = common::nodes::feed_and_signed_api(version) else { return };
    let vendor = vendor();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |args: &[&str]| {
        let output = common::ois().current_dir(d).args(args).output().unwrap();
        assert!(output.status.success(), "ois {}: {}", args.join(" "), String::from_utf8_lossy(&output.stderr));
        output.stdout
    };
    std::fs::write(d.join("rates.yaml"), common::vendor::openapi(&vendor.base)).unwrap();
    let mut convert = vec!["convert", "rates.yaml", "-o", "rates.ois.json", "--secrets-out", "secrets.env"];
    convert.extend(target.map(|t| ["--target", t]).into_iter().flatten());
    run(&convert);
    common::vendor::fill(&d.join("secrets.env"), &[("KEY", common::vendor::KEY)]);
    for (name, operation, value, parameters) in [
        ("USD/EUR", "getRates", "rates.EUR", vec![]),
        ("USD/GBP", "getRates", "rates.GBP", vec![]),
        ("BTC/USD", "getPrice", "price", vec!["--param", "symbol=BTC"]),
    ] {
        let mut add = vec!["feed", "add", "rates.ois.json", name, "--openapi", "rates.yaml", "--operation", operation];
        add.extend(["--value", value]);
        add.extend(parameters);
        run(&add);
    }
    let port = all_feeds_config(d, "rates.ois.json");
    run(&["validate", "config.json"]);
    let by_name: Value = serde_json::from_slice(&run(&[
        "call",
        "rates.ois.json",
        "--all-feeds",
        "--secrets",
        "secrets.env",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(by_name["apiCalls"], 2, "the two rates are one call: {by_name}");
    let called: Value =
        serde_json::from_slice(&run(&["call", "config.json", "--secrets", "secrets.env", "--format", "json"])).unwrap();
    let values = |report: &Value| -> Vec<Value> {
        report["beacons"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| json!([b["feed"], b["values"], b["encodedValue"]]))
            .collect()
    };
    assert_eq!(values(&by_name), values(&called));
    vendor.take();

    let pushed = feed_pushing(d, (&feed_main, &signed_api_main), port, 3);
    every_value_pushed(&by_name, &pushed);
    // One call a trigger: the rates' trigger asks /rates once for both names.
    let asked: Vec<String> = vendor.take().iter().map(|r| r.path().to_owned()).collect();
    assert!(asked.iter().any(|p| p == "/rates") && asked.iter().any(|p| p == "/price"), "{asked:?}");
}

/// The third trial's vendor, rebuilt: a batch answered with an array in request order
/// (`/spot/summary?metals=gold,silver,platinum` → `[{requestedSymbol: gold, data: {last}}, …]`),
/// three feeds each added reading the first element, made one call by `ois feed batch` — which
/// moves each to its own element. The real Feed 4.6.0 and Signed API push three different values,
/// each its own metal's, each the one `ois call --all-feeds` predicted.
#[test]
fn the_real_feed_4_pushes_each_feed_of_a_positional_batch_its_own_value() {
    let version = "4.6.0";
    let Some((feed_main, signed_api_main)) = common::nodes::feed_and_signed_api(version) else { return };
    let vendor = common::server::Server::start(|request, stream| {
        let asked = request.target.split("metals=").nth(1).unwrap_or_default().split('&').next().unwrap_or_default();
        let price = |metal: &str| match metal {
            "gold" => 2345.6,
            "silver" => 29.85,
            _ => 980.1,
        };
        let elements: Vec<Value> =
            asked.split(',').map(|m| json!({"requestedSymbol": m, "data": {"last": price(m)}})).collect();
        common::server::answer(stream, "200 OK", "application/json", "", Value::Array(elements).to_string().as_bytes());
    });
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |args: &[&str]| {
        let output = common::ois().current_dir(d).args(args).output().unwrap();
        assert!(output.status.success(), "ois {}: {}", args.join(" "), String::from_utf8_lossy(&output.stderr));
        output.stdout
    };
    let document = json!({
        "openapi": "3.0.3", "info": {"title": "Metals", "version": "1.0.0"}, "servers": [{"url": vendor.base}],
        "paths": {"/spot/summary": {"get": {"operationId": "spotSummary",
            "parameters": [{"name": "metals", "in": "query", "required": true, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok"}}}}}
    });
    std::fs::write(d.join("metals.json"), document.to_string()).unwrap();
    run(&["convert", "metals.json", "-o", "metals.ois.json"]);
    for (name, metal) in [("XAU/USD", "gold"), ("XAG/USD", "silver"), ("XPT/USD", "platinum")] {
        let metal = format!("metals={metal}");
        run(&[
            "feed",
            "add",
            "metals.ois.json",
            name,
            "--openapi",
            "metals.json",
            "--operation",
            "spotSummary",
            "--param",
            &metal,
            "--value",
            "0.data.last",
        ]);
    }
    run(&["feed", "batch", "metals.ois.json", "XAU/USD", "XAG/USD", "XPT/USD"]);
    let port = all_feeds_config(d, "metals.ois.json");
    let by_name: Value = serde_json::from_slice(&run(&[
        "call",
        "metals.ois.json",
        "--all-feeds",
        "--secrets",
        "secrets.env",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(by_name["apiCalls"], 1, "{by_name}");
    let values: Vec<&Value> = by_name["beacons"].as_array().unwrap().iter().map(|b| &b["values"][0]).collect();
    assert_eq!(
        values,
        [&json!("2345600000000000000000"), &json!("29850000000000000000"), &json!("980100000000000000000")]
    );
    let called: Value =
        serde_json::from_slice(&run(&["call", "config.json", "--secrets", "secrets.env", "--format", "json"])).unwrap();
    let pushed = feed_pushing(d, (&feed_main, &signed_api_main), port, 3);
    every_value_pushed(&called, &pushed);
    every_value_pushed(&by_name, &pushed);
    let encoded: std::collections::BTreeSet<String> =
        pushed.values().map(|datum| datum["encodedValue"].to_string()).collect();
    assert_eq!(encoded.len(), 3, "three beacons, three different values: {pushed:?}");
}

/// `config.json` and `secrets.env` of `d` run by the real Feed (its `config/` folder made in
/// `d/feed`), pushing to the real Signed API on `port` (its config by `ois scaffold signed-api`):
/// the beacons it serves once it holds `expected` of them. Both processes stop when this returns.
fn feed_pushing(
    d: &Path,
    (feed_main, signed_api_main): (&Path, &Path),
    port: u16,
    expected: usize,
) -> serde_json::Map<String, Value> {
    let feed_dir = d.join("feed");
    std::fs::create_dir_all(feed_dir.join("config")).unwrap();
    std::fs::copy(d.join("config.json"), feed_dir.join("config/airnode-feed.json")).unwrap();
    std::fs::copy(d.join("secrets.env"), feed_dir.join("config/secrets.env")).unwrap();
    let api_dir = d.join("signed-api");
    const READ_TOKEN: &str = "read-t0ken-1414";
    signed_api_config(&api_dir, &d.join("config.json"), &d.join("secrets.env"), READ_TOKEN);
    let port_text = port.to_string();
    let _signed_api = start_node(signed_api_main, &api_dir, &[("SERVER_PORT", &port_text)]);
    let _feed = start_node(feed_main, &feed_dir, &[("LOG_HEARTBEAT", "false")]);
    // The Airnode of the test mnemonic (Hardhat's).
    let airnode = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    pushed(&format!("http://127.0.0.1:{port}"), airnode, READ_TOKEN, expected, &feed_dir)
}

/// `config.json` and its `secrets.env` (filled) in `d`, made by `ois scaffold feed --all-feeds` of
/// `ois_file`, pushing to a signed API on a free port: that port.
fn all_feeds_config(d: &Path, ois_file: &str) -> u16 {
    let port = free_port();
    let signed_api = format!("local=http://127.0.0.1:{port}");
    let made = common::ois()
        .current_dir(d)
        .args(["scaffold", "feed", ois_file, "--all-feeds", "--signed-api", &signed_api, "--fetch-interval", "1"])
        .args(["-o", "config.json", "--secrets-out", "secrets.env", "--force"])
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    common::vendor::fill(
        &d.join("secrets.env"),
        &[("MNEMONIC", common::vendor::MNEMONIC), ("AUTH_TOKEN", "t0ken-1618")],
    );
    port
}
