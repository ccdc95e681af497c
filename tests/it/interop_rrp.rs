//! The seed's own node, for real: Airnode RRP. A vendor's document converted for `airnode@0.15`,
//! refined and scaffolded with RRP templates by command (no file edited), AirnodeRrpV0 deployed on
//! a local chain (hardhat from npm, bound to 127.0.0.1), and the real airnode-node 0.15 coordinator
//! run on the config (tests/interop/rrp-chain.js): a full request and a template request (the
//! template created on chain as `ois ids` says) are fulfilled with `ois call`'s encoded value, and
//! a `_path` that finds nothing fails on chain as `ois call` fails; its HTTP and signed-data gateways
//! answer that value too.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use crate::common;
use common::server::{Server, answer};

const MNEMONIC: &str = "test test test test test test test test test test test junk";

/// A hardhat node on 127.0.0.1, stopped when dropped.
struct Chain {
    child: Child,
    rpc: String,
}

impl Drop for Chain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn chain(dir: &Path) -> Chain {
    let port = common::nodes::free_port();
    let config = dir.join("hardhat.config.js");
    std::fs::write(&config, "module.exports = { networks: { hardhat: { chainId: 31337 } } };\n").unwrap();
    let child = Command::new(common::interop_dir().join("node_modules/.bin/hardhat"))
        .args(["--config", config.to_str().unwrap(), "node", "--hostname", "127.0.0.1", "--port", &port.to_string()])
        .current_dir(common::interop_dir())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let chain = Chain { child, rpc: format!("http://127.0.0.1:{port}") };
    let ask = r#"{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}"#;
    for _ in 0..150 {
        let answered = ureq::post(&chain.rpc).header("content-type", "application/json").send(ask);
        if answered.is_ok() {
            return chain;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("the local chain did not start at {}", chain.rpc);
}

#[test]
fn the_real_airnode_fulfils_rrp_requests_with_ois_call_s_value() {
    if !common::interop_installed("hardhat") || !common::interop_installed("@api3/airnode-node") {
        return;
    }
    let vendor = Server::start(|_, stream| {
        answer(stream, "200 OK", "application/json", "", br#"{"bitcoin": {"usd": 67123.45}}"#);
    });
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |args: &[&str]| {
        let output = common::ois().current_dir(d).args(args).output().unwrap();
        assert!(output.status.success(), "ois {}: {}", args.join(" "), String::from_utf8_lossy(&output.stderr));
        output.stdout
    };
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/coins.yaml"), d.join("coins.yaml")).unwrap();
    std::fs::write(
        d.join("secrets.env"),
        format!("AIRNODE_WALLET_MNEMONIC={MNEMONIC}\nCOIN_PRICES_API_DEMO_API_KEY_HEADER=k\n"),
    )
    .unwrap();
    run(&["convert", "coins.yaml", "-o", "coins.ois.json", "--target", "airnode@0.15"]);
    // The value's type and scale fixed on the endpoint, its path the requester's.
    run(&[
        "endpoint",
        "set",
        "coins.ois.json",
        "simplePrice",
        "--reserved",
        "_type=int256",
        "--reserved",
        "_times=100",
    ]);
    run(&["endpoint", "set", "coins.ois.json", "simplePrice", "--reserved", "_path"]);
    let good = "simplePrice:ids=string32:bitcoin,vs_currencies=string32:usd,_path=string32:bitcoin.usd";
    let bad = "simplePrice:ids=string32:bitcoin,vs_currencies=string32:usd,_path=string32:nope.usd";
    run(&[
        "scaffold",
        "airnode",
        "coins.ois.json",
        "--server",
        &vendor.base,
        "--template",
        good,
        "--secrets",
        "secrets.env",
        "--http",
        "--signed-http",
        "-o",
        "config.json",
    ]);
    let ids: Value = serde_json::from_slice(&run(&[
        "ids",
        "config.json",
        "--template",
        good,
        "--template",
        bad,
        "--secrets",
        "secrets.env",
        "--format",
        "json",
    ]))
    .unwrap();
    let (good_ids, bad_ids) = (&ids["templates"][0], &ids["templates"][1]);
    let config: Value = serde_json::from_slice(&std::fs::read(d.join("config.json")).unwrap()).unwrap();
    assert_eq!(config["templates"][0]["templateId"], good_ids["rrpTemplateId"], "the config's template is ois ids'");

    // What `ois call` says the node encodes, and how it fails.
    let call = |path: &str| {
        let output = common::ois()
            .current_dir(d)
            .args(["call", "config.json", "--endpoint", "simplePrice", "--param", "ids=bitcoin"])
            .args(["--param", "vs_currencies=usd", "--param", &format!("_path={path}"), "--secrets", "secrets.env"])
            .args(["--format", "json"])
            .output()
            .unwrap();
        serde_json::from_slice::<Value>(&output.stdout).unwrap()
    };
    let called = call("bitcoin.usd");
    let encoded = called["response"]["encoded"].as_str().unwrap().to_owned();
    let refused = call("nope.usd");
    let message = refused["error"]["message"].as_str().unwrap().to_owned();

    let chain = chain(d);
    let request = |t: &Value| json!({"endpointId": t["endpointId"], "parameters": t["encodedParameters"]});
    let input = json!({
        "rpc": chain.rpc,
        "config": d.join("config.json"),
        "secrets": {"AIRNODE_WALLET_MNEMONIC": MNEMONIC, "COIN_PRICES_API_DEMO_API_KEY_HEADER": "k"},
        "requests": [request(good_ids), {"template": {"createTemplate": good_ids["createTemplate"]}}, request(bad_ids)],
        "gateway": {
            "endpointId": good_ids["endpointId"],
            "parameters": {"ids": "bitcoin", "vs_currencies": "usd", "_path": "bitcoin.usd"},
            "encodedParameters": good_ids["encodedParameters"],
        },
    });
    std::fs::write(d.join("chain-in.json"), input.to_string()).unwrap();
    let driven = Command::new("node")
        .arg(common::interop_dir().join("rrp-chain.js"))
        .args([d.join("chain-in.json"), d.join("chain-out.json")])
        .current_dir(common::interop_dir())
        .output()
        .unwrap();
    assert!(driven.status.success(), "{}", String::from_utf8_lossy(&driven.stderr));
    drop(chain);
    let out: Value = serde_json::from_slice(&std::fs::read(d.join("chain-out.json")).unwrap()).unwrap();
    let results = &out["requests"];
    assert_eq!(results[0]["fulfilled"], encoded.as_str(), "a full request: {results}");
    assert_eq!(results[1]["templateId"], good_ids["rrpTemplateId"], "the template made on chain is ois ids'");
    assert_eq!(results[1]["fulfilled"], encoded.as_str(), "a template request: {results}");
    let failed = results[2]["failed"].as_str().unwrap_or_else(|| panic!("a path that finds nothing fails: {results}"));
    assert!(results[2]["fulfilled"].is_null(), "{results}");
    // Both gateways answer the value `ois call` encodes.
    assert_eq!(out["http"]["data"]["encodedValue"], encoded.as_str(), "the HTTP gateway: {}", out["http"]);
    assert_eq!(out["signed"]["data"]["encodedValue"], encoded.as_str(), "the signed-data gateway: {}", out["signed"]);
    // Signed by the Airnode, over the template ID `ois ids` derives (a Feed's, with no Airnode in it).
    let mut datum = out["signed"]["data"].clone();
    datum["templateId"] = good_ids["templateId"].clone();
    assert_eq!(Value::String(common::nodes::signer(&datum).to_checksum(None)), ids["airnode"], "{datum}");
    // `ois call` says what the node says, then why.
    assert!(message.starts_with(failed), "on chain: {failed}\nois call: {message}");
}
