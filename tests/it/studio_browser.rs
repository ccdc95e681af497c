//! `ois studio` in a real headless browser (Debian's Chromium, driven by playwright-core from
//! tests/interop): the integrator's loop from the coins sample to a saved Airnode Feed config,
//! which then passes `ois validate` and the real Airnode Feed 3.3 config schema. Screenshots of
//! each step are kept in `target/studio-screenshots/`. Skipped, saying so, where no Chromium is
//! installed; under CI (which installs one) it fails instead.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};

use common::server::{Server, answer};
use common::studio::Studio;

const API_KEY: &str = "sk-studio-test-9f1c2e";

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    if path.exists() {
        return Some(path);
    }
    let message = format!("no Chromium at {} (set CHROMIUM, or install Debian's chromium)", path.display());
    assert!(std::env::var_os("CI").is_none(), "{message}");
    common::say_skipped(&message);
    None
}

#[test]
fn the_whole_loop_in_a_browser_ends_in_a_config_the_feed_accepts() {
    let Some(chromium) = chromium() else { return };
    if !common::interop_installed("playwright-core") || !common::interop_installed("@api3/airnode-feed") {
        return;
    }
    let api = Server::start(|request, stream| {
        let body = if request.header("x-cg-demo-api-key") == Some(API_KEY) {
            json!({"bitcoin": {"usd": 61234.5, "eur": 56780.25}}).to_string()
        } else {
            json!({"error": "no key"}).to_string()
        };
        answer(stream, "200 OK", "application/json", "", body.as_bytes());
    });
    let folder = tempfile::tempdir().unwrap();
    std::fs::copy(format!("{}/samples/coins.yaml", env!("CARGO_MANIFEST_DIR")), folder.path().join("coins.yaml"))
        .unwrap();
    let studio = Studio::start(folder.path(), &["coins.yaml"]);
    let shots = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/studio-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let port = common::nodes::free_port();
    let signed_api = format!("http://127.0.0.1:{port}");

    let output = Command::new("node")
        .arg(common::interop_dir().join("studio.js"))
        .args([&studio.url, &api.base, API_KEY, &shots.display().to_string(), &signed_api])
        .env("CHROMIUM", &chromium)
        .current_dir(common::interop_dir())
        .output()
        .expect("node runs");
    let log = studio.log.lock().unwrap().clone();
    assert!(
        output.status.success(),
        "the browser run failed:\n{}\nstudio log:\n{log}",
        String::from_utf8_lossy(&output.stderr)
    );
    let run: Value = serde_json::from_slice(&output.stdout).expect("the run's JSON");
    assert_eq!(run["consoleErrors"], json!([]), "{run}");
    assert_eq!(run["accessibility"], json!([]), "axe-core's WCAG 2 A/AA violations of the page built");
    assert_eq!(run["steps"].as_array().unwrap().len(), 14, "{run}");
    // The keyboard's way to the call: the skip link, then the call's own fields.
    let keys = run["keysToCall"].as_u64().unwrap_or(u64::MAX);
    assert!(keys <= 16, "{keys} keys from the top of the page to Call the API");
    for step in run["steps"].as_array().unwrap() {
        assert!(std::fs::read_dir(&shots).unwrap().any(|f| {
            f.unwrap().file_name().to_string_lossy().ends_with(&format!("-{}.png", step.as_str().unwrap()))
        }));
    }

    // The API was called with the key typed into the page, and the key went nowhere else.
    let calls = api.take();
    assert!(calls.iter().any(|c| c.header("x-cg-demo-api-key") == Some(API_KEY)), "{calls:?}");
    assert!(!log.contains(API_KEY) && !log.contains(&studio.token), "the studio's log:\n{log}");
    let written =
        |name: &str| std::fs::read_to_string(folder.path().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    for name in ["config.json", "secrets.env", "ids.json", "coins.ois.json", "coins.ois.convert.json"] {
        assert!(!written(name).contains(API_KEY), "{name} holds the key");
    }

    // The saved config: every ois rule, the refinement made in the page, and the real Feed's
    // schema once its secrets are filled in.
    common::ois().current_dir(folder.path()).args(["validate", "config.json"]).assert().success();
    common::ois().current_dir(folder.path()).args(["validate", "coins.ois.json"]).assert().success();
    let config: Value = serde_json::from_str(&written("config.json")).unwrap();
    let endpoint = config["ois"][0]["endpoints"].as_array().unwrap().iter().find(|e| e["name"] == "price").unwrap();
    let reserved =
        |name: &str| endpoint["reservedParameters"].as_array().unwrap().iter().find(|r| r["name"] == name).cloned();
    assert_eq!(reserved("_path").unwrap()["fixed"], "bitcoin.usd");
    assert_eq!(reserved("_type").unwrap()["fixed"], "int256");
    // Two feeds of `price`, and a template for each feed served by name.
    assert_eq!(config["templates"].as_object().unwrap().len(), 4);
    let names = ois::feeds::read(&config["ois"][0]).unwrap().unwrap().feeds;
    let names: Vec<(&str, Option<String>)> = names.iter().map(|f| (f.name.as_str(), f.value_path())).collect();
    assert_eq!(names, [("BTC/USD", Some("bitcoin.usd".to_owned())), ("BTC/EUR", Some("bitcoin.eur".to_owned()))]);
    assert!(config["triggers"]["signedApiUpdates"].as_array().unwrap().iter().all(|t| t["fetchInterval"] == 7));
    let mut secrets = serde_json::Map::new();
    for line in written("secrets.env").lines().filter(|l| !l.starts_with('#') && l.contains('=')) {
        let name = line.split('=').next().unwrap();
        let value = if name.contains("MNEMONIC") {
            "test test test test test test test test test test test junk".to_owned()
        } else {
            format!("value-of-{name}")
        };
        secrets.insert(name.to_owned(), Value::String(value));
    }
    // The config is for Airnode Feed 4.6.0 (the OIS is 3.0.0), built from its source.
    if common::node_main("4.6.0", "airnode-feed").is_some() {
        let verdicts =
            common::run_node("node-configs.js", &json!([{"kind": "feed", "config": config, "secrets": secrets}]));
        assert_eq!(verdicts[0]["valid"], true, "{verdicts}");
    }
    // `ois` reads what the studio wrote, as the next command in the loop would.
    common::ois().current_dir(folder.path()).args(["ids", "verify", "config.json"]).assert().success();
    common::ois()
        .current_dir(folder.path())
        .args(["convert", "coins.yaml", "--update", "coins.ois.json", "--check"])
        .assert()
        .success();

    // The saved config run by the real Airnode Feed 4.6.0, pushing to the real Signed API: every
    // beacon arrives with the value `ois call` of the config gives.
    let Some((feed_main, signed_api_main)) = common::nodes::feed_and_signed_api("4.6.0") else { return };
    let secrets_file = folder.path().join("secrets.env");
    common::vendor::fill(
        &secrets_file,
        &[("MNEMONIC", common::vendor::MNEMONIC), ("AUTH_TOKEN", "t0ken-2236"), ("COIN_PRICES", API_KEY)],
    );
    let called = common::ois()
        .current_dir(folder.path())
        .args(["call", "config.json", "--secrets", "secrets.env", "--format", "json"])
        .output()
        .unwrap();
    assert!(called.status.success(), "{}", String::from_utf8_lossy(&called.stderr));
    let called: Value = serde_json::from_slice(&called.stdout).unwrap();
    let feed_dir = folder.path().join("feed");
    std::fs::create_dir_all(feed_dir.join("config")).unwrap();
    std::fs::copy(folder.path().join("config.json"), feed_dir.join("config/airnode-feed.json")).unwrap();
    std::fs::copy(&secrets_file, feed_dir.join("config/secrets.env")).unwrap();
    let api_dir = folder.path().join("signed-api");
    const READ_TOKEN: &str = "read-t0ken-2236";
    common::nodes::signed_api_config(&api_dir, &folder.path().join("config.json"), &secrets_file, READ_TOKEN);
    let port_text = port.to_string();
    let _signed_api = common::nodes::start_node(&signed_api_main, &api_dir, &[("SERVER_PORT", &port_text)]);
    let _feed = common::nodes::start_node(&feed_main, &feed_dir, &[("LOG_HEARTBEAT", "false")]);
    let airnode = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    let beacons = called["beacons"].as_array().unwrap();
    assert_eq!(beacons.len(), 4);
    let data = common::nodes::pushed(&signed_api, airnode, READ_TOKEN, beacons.len(), &feed_dir);
    for beacon in beacons {
        let id = beacon["beaconId"].as_str().unwrap();
        let datum = data.get(id).unwrap_or_else(|| panic!("beacon {id} not pushed: {data:?}"));
        assert_eq!(datum["encodedValue"], beacon["encodedValue"], "{id}");
    }
}

/// A large document in the page (GitHub's API, 4 MB): every operation drawn, the table within its
/// section, an endpoint found among hundreds, refined and undone, the text fetched when asked.
#[test]
fn a_large_document_in_a_browser() {
    let Some(chromium) = chromium() else { return };
    if !common::interop_installed("playwright-core") {
        return;
    }
    let folder = tempfile::tempdir().unwrap();
    std::fs::copy(common::shared_dir().join("corpus/github/api.github.com.json"), folder.path().join("github.json"))
        .unwrap();
    let studio = Studio::start(folder.path(), &["github.json"]);
    let shots = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/studio-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let output = Command::new("node")
        .arg(common::interop_dir().join("studio-large.js"))
        .args([&studio.url, &shots.display().to_string()])
        .env("CHROMIUM", &chromium)
        .current_dir(common::interop_dir())
        .output()
        .expect("node runs");
    assert!(output.status.success(), "the browser run failed:\n{}", String::from_utf8_lossy(&output.stderr));
    let run: Value = serde_json::from_slice(&output.stdout).expect("the run's JSON");
    assert_eq!(run["consoleErrors"], json!([]), "{run}");
    assert_eq!(run["steps"].as_array().unwrap().len(), 3, "{run}");
    assert!(run["operations"].as_u64() > Some(800), "{run}");
}
