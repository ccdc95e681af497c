//! The last mile, proven by the real nodes: Airnode Feed and Signed API (4.6.0 and 3.3.0) started
//! straight from the folder `ois scaffold deploy` wrote — each from its own `config/`, the Signed
//! API on the port its README and compose file give it, nothing copied or edited — push every
//! beacon `ois call` predicts; then `ois status` says each is live and signed by the config's
//! Airnode, names the beacons whose value moved from the API's, and says stale once the Feed has
//! stopped.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::common;
use common::nodes::{free_port, pushed, start_node};
use common::server::{Server, answer};
use common::vendor::{deploy_for, vendor};

fn secret(path: &Path, name: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().find_map(|line| line.strip_prefix(&format!("{name}="))).unwrap_or_default().to_owned()
}

fn status(folder: &Path, more: &[&str]) -> (Output, Value) {
    let output = common::ois()
        .current_dir(folder)
        .args(["status", "airnode-feed/config/airnode-feed.json", "--secrets", "airnode-feed/config/secrets.env"])
        .args(["--signed-api-secrets", "signed-api/config/secrets.env", "--format", "json", "--timeout", "5"])
        .args(more)
        .output()
        .unwrap();
    let report = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output, report)
}

fn verdicts(report: &Value) -> Vec<String> {
    report["beacons"]
        .as_array()
        .map_or_else(Vec::new, |b| b.iter().map(|b| b["verdict"].as_str().unwrap().to_owned()).collect())
}

#[test]
fn the_real_feed_4_runs_from_the_deployment_folder_and_status_sees_it() {
    from_the_folder(None, "4.6.0");
}

#[test]
fn the_real_feed_3_runs_from_the_deployment_folder_and_status_sees_it() {
    from_the_folder(Some("airnode-feed@3"), "3.3.0");
}

fn from_the_folder(target: Option<&str>, version: &str) {
    let Some((feed_main, signed_api_main)) = common::nodes::feed_and_signed_api(version) else { return };
    let vendor = vendor();
    let port = free_port();
    let signed_api_arg = format!("local=http://127.0.0.1:{port}");
    let feeds = ["feed:name=string32:USD/EUR", "price:symbol=string32:BTC"];
    let deployment = deploy_for(&vendor, target, &feeds, &["--signed-api", &signed_api_arg, "--fetch-interval", "1"]);
    let folder = deployment.dir.path().join("deployment");
    let made = common::ois()
        .args(["scaffold", "deploy"])
        .arg(&deployment.config)
        .arg("--secrets")
        .arg(&deployment.secrets)
        .arg("-o")
        .arg(&folder)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let compose = std::fs::read_to_string(folder.join("docker-compose.yml")).unwrap();
    assert!(
        compose.contains(&format!("api3/airnode-feed:{version}"))
            && compose.contains(&format!("SERVER_PORT: \"{port}\""))
    );

    // As the folder's README says: each node from its folder, the Signed API on the Feed's port.
    let port_text = port.to_string();
    let signed_api = start_node(&signed_api_main, &folder.join("signed-api"), &[("SERVER_PORT", &port_text)]);
    let feed = start_node(&feed_main, &folder.join("airnode-feed"), &[("LOG_HEARTBEAT", "false")]);
    let called = common::ois()
        .args([
            "call",
            "airnode-feed/config/airnode-feed.json",
            "--secrets",
            "airnode-feed/config/secrets.env",
            "--format",
            "json",
        ])
        .current_dir(&folder)
        .output()
        .unwrap();
    assert!(called.status.success(), "{}", String::from_utf8_lossy(&called.stderr));
    let called: Value = serde_json::from_slice(&called.stdout).unwrap();
    let airnode = called["airnode"].as_str().unwrap().to_owned();
    let read_token = secret(&folder.join("signed-api/config/secrets.env"), "SIGNED_API_REAL_TIME_TOKEN");
    let data =
        pushed(&format!("http://127.0.0.1:{port}"), &airnode, &read_token, feeds.len(), &folder.join("airnode-feed"));
    for beacon in called["beacons"].as_array().unwrap() {
        let datum = &data[beacon["beaconId"].as_str().unwrap()];
        assert_eq!(datum["encodedValue"], beacon["encodedValue"], "{beacon}");
    }

    // Every beacon live, signed by the Airnode, equal to the API now.
    let (output, report) = status(&folder, &[]);
    assert!(output.status.success(), "{}{report}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(verdicts(&report), ["live", "live"], "{report}");
    assert_eq!(report["airnode"], airnode.as_str());
    assert!(report["beacons"].as_array().unwrap().iter().all(|b| b["signer"] == airnode.as_str()), "{report}");
    let text = String::from_utf8_lossy(&output.stdout) + String::from_utf8_lossy(&output.stderr);
    assert!(!text.contains(&read_token), "the read token is never shown");

    // The Feed stops; the API's values move 10 %: both beacons are named as moved.
    drop(feed);
    let moved = Server::start(|request, stream| {
        let body = match request.path() {
            "/rates" => r#"{"rates": {"EUR": 1.012, "GBP": 0.869, "JPY": 166.3}}"#,
            _ => r#"{"symbol": "BTC", "price": 114.4}"#,
        };
        answer(stream, "200 OK", "application/json", "", body.as_bytes());
    });
    let (output, report) = status(&folder, &["--server", &moved.base, "--max-age", "3600"]);
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert_eq!(verdicts(&report), ["moved", "moved"], "{report}");
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["CAL016", "CAL016"], "{report}");
    let (output, _) = status(&folder, &["--server", &moved.base, "--max-age", "3600", "--tolerance", "20%"]);
    assert!(output.status.success(), "within 20 %");

    // Older than allowed: stale, whatever the values.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let (output, report) = status(&folder, &["--max-age", "1"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(verdicts(&report), ["stale", "stale"], "{report}");

    // A second Feed run with another mnemonic, pushing to a Signed API that takes any Airnode: each
    // beacon is named as pushed by that Airnode instead.
    drop(signed_api);
    let open_api = deployment.dir.path().join("open-signed-api");
    std::fs::create_dir_all(open_api.join("config")).unwrap();
    let mut taking_any: Value =
        serde_json::from_slice(&std::fs::read(folder.join("signed-api/config/signed-api.json")).unwrap()).unwrap();
    taking_any["allowedAirnodes"] = Value::from("*");
    std::fs::write(open_api.join("config/signed-api.json"), taking_any.to_string()).unwrap();
    std::fs::copy(folder.join("signed-api/config/secrets.env"), open_api.join("config/secrets.env")).unwrap();
    let signed_api = start_node(&signed_api_main, &open_api, &[("SERVER_PORT", &port_text)]);
    let other_phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow";
    let other = ois::node::airnode_address(other_phrase).unwrap().to_checksum(None);
    let other_feed = deployment.dir.path().join("other-feed");
    common::scratch::copy_dir(&folder.join("airnode-feed"), &other_feed);
    let secrets = std::fs::read_to_string(other_feed.join("config/secrets.env")).unwrap();
    std::fs::write(other_feed.join("config/secrets.env"), secrets.replace(common::vendor::MNEMONIC, other_phrase))
        .unwrap();
    let _other_feed = start_node(&feed_main, &other_feed, &[("LOG_HEARTBEAT", "false")]);
    pushed(&format!("http://127.0.0.1:{port}"), &other, &read_token, feeds.len(), &other_feed);
    let (output, report) = status(&folder, &[]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(verdicts(&report), ["other signer", "other signer"], "{report}");
    assert!(report["beacons"].as_array().unwrap().iter().all(|b| b["signer"] == other.as_str()), "{report}");
    assert!(report.to_string().contains("another mnemonic"), "{report}");

    // The Signed API down: one clear error, bounded in time.
    drop(signed_api);
    let started = std::time::Instant::now();
    let (output, report) = status(&folder, &[]);
    assert_eq!(output.status.code(), Some(1));
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    let said = format!("{report}{}", String::from_utf8_lossy(&output.stderr));
    assert!(said.contains("error[CAL002]") && said.contains("\"CAL002\""), "{said}");
    assert!(!said.contains(&read_token), "{said}");
}
