//! The proof of feeds by name for every shape is the real node: configs made only by `ois`
//! commands — an RPC feeds catalog imported for two chains, and a vendor whose feeds are POST
//! bodies — run by the real Airnode Feed 4.6.0 against loopback APIs (a JSON-RPC server that checks
//! the key in the URL's path and answers `eth_call` by contract; the quotes vendor answering each
//! body), pushing to the real Signed API 4.6.0: every beacon arrives with the value `ois call`
//! printed for it. Bounded in time; every process started is stopped.

use std::path::Path;

use serde_json::Value;

use crate::common;
use crate::common::nodes::{free_port, pushed, signed_api_config, start_node};

const MNEMONIC: &str = "test test test test test test test test test test test junk";
const READ_TOKEN: &str = "read-t0ken-1618";

fn ok(dir: &Path, args: &[&str]) -> Vec<u8> {
    let output = common::ois().current_dir(dir).args(args).output().expect("runs");
    assert!(output.status.success(), "ois {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    output.stdout
}

/// `ois scaffold feed OIS --all-feeds` for a Signed API on loopback, its secrets filled (with
/// `more`), `ois call` of the config, then the Feed and Signed API 4.6.0 running it: every beacon
/// pushed with the value the call printed. `None` when 4.6.0 is not built here.
fn run_by_the_real_feed(dir: &Path, ois_file: &str, more: &[(&str, &str)]) -> Option<usize> {
    let (feed_main, signed_api_main) = common::nodes::feed_and_signed_api("4.6.0")?;
    let port = free_port();
    let signed_api = format!("http://127.0.0.1:{port}");
    let target = format!("local={signed_api}");
    ok(
        dir,
        &["scaffold", "feed", ois_file, "--all-feeds", "--signed-api", &target, "--fetch-interval", "1"]
            .into_iter()
            .chain(["-o", "config.json", "--secrets-out", "secrets.env"])
            .collect::<Vec<_>>(),
    );
    let mut values = vec![("MNEMONIC", MNEMONIC), ("SIGNED_API_LOCAL_AUTH_TOKEN", "push-t0ken-1414")];
    values.extend_from_slice(more);
    common::vendor::fill(&dir.join("secrets.env"), &values);
    ok(dir, &["validate", "config.json", "--secrets", "secrets.env"]);
    let called: Value =
        serde_json::from_slice(&ok(dir, &["call", "config.json", "--secrets", "secrets.env", "--format", "json"]))
            .unwrap();
    let beacons = called["beacons"].as_array().unwrap();
    assert!(beacons.iter().all(|b| b["verdict"] == "ok"), "{called}");
    let ids: Value =
        serde_json::from_slice(&ok(dir, &["ids", "config.json", "--secrets", "secrets.env", "--format", "json"]))
            .unwrap();
    let airnode = ids["airnode"].as_str().unwrap().to_owned();

    let feed_dir = dir.join("feed");
    std::fs::create_dir_all(feed_dir.join("config")).unwrap();
    std::fs::copy(dir.join("config.json"), feed_dir.join("config/airnode-feed.json")).unwrap();
    std::fs::copy(dir.join("secrets.env"), feed_dir.join("config/secrets.env")).unwrap();
    let api_dir = dir.join("signed-api");
    signed_api_config(&api_dir, &dir.join("config.json"), &dir.join("secrets.env"), READ_TOKEN);
    let port_text = port.to_string();
    let _signed_api = start_node(&signed_api_main, &api_dir, &[("SERVER_PORT", &port_text)]);
    let _feed = start_node(&feed_main, &feed_dir, &[("LOG_HEARTBEAT", "false")]);
    let data = pushed(&signed_api, &airnode, READ_TOKEN, beacons.len(), &feed_dir);
    for beacon in beacons {
        let beacon_id = beacon["beaconId"].as_str().unwrap();
        let datum = data.get(beacon_id).unwrap_or_else(|| panic!("{} not pushed: {data:?}", beacon["feed"]));
        assert_eq!(datum["encodedValue"], beacon["encodedValue"], "{}", beacon["feed"]);
    }
    Some(beacons.len())
}

#[test]
fn the_real_feed_pushes_the_rpc_catalog_s_values_on_two_chains_as_ois_call_decoded_them() {
    let server = crate::rpc_feeds::chain_server();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let imported = crate::rpc_feeds::import(d, &server.base);
    assert!(imported.status.success(), "{}", String::from_utf8_lossy(&imported.stderr));
    let Some(beacons) = run_by_the_real_feed(d, "rpc.ois.json", &[("RPC_KEY", crate::rpc_feeds::KEY)]) else {
        return;
    };
    assert_eq!(beacons, 4, "three feeds on ethereum, one on bsc");
    let received = server.take();
    assert!(received.iter().all(|r| r.target.ends_with(crate::rpc_feeds::KEY)), "the key in the path, exactly");
}

#[test]
fn the_real_feed_pushes_a_post_vendor_s_feeds_by_name_as_ois_call_read_them() {
    let server = crate::post_feeds::quotes_server();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    crate::post_feeds::two_feeds(d);
    // The vendor's server is the loopback one.
    let mut ois: Value = serde_json::from_str(&std::fs::read_to_string(d.join("q.ois.json")).unwrap()).unwrap();
    ois["apiSpecifications"]["servers"][0]["url"] = Value::from(server.base.clone());
    std::fs::write(d.join("q.ois.json"), serde_json::to_string_pretty(&ois).unwrap()).unwrap();
    let Some(beacons) = run_by_the_real_feed(d, "q.ois.json", &[]) else { return };
    assert_eq!(beacons, 2);
    assert!(server.take().iter().all(|r| r.method == "POST"));
}
