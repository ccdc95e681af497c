//! Feeds read from contracts through JSON-RPC (`ois feed import FILE catalog.json --chain-url
//! CHAIN=URL`): one OIS a chain, its server the chain's URL with the key a secret the node fills,
//! each feed one `eth_call` whose answer its parser decodes as the catalog's return type says.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::common;
use crate::common::server::{Server, answer};

pub(crate) const KEY: &str = "rpc-key-0123456789";

/// A 32-byte word of `value`, as hex without `0x`.
fn word(value: u128) -> String {
    format!("{value:064x}")
}

/// What the test chain's contracts return, by address: the `result` of an `eth_call`.
fn result_of(to: &str) -> Option<String> {
    match to {
        "0x00000000000000000000000000000000000000a1" => Some(format!("0x{}", word(1_051_234_567_890_123_456))),
        "0x00000000000000000000000000000000000000a2" => Some(format!("0x{}", word(99_998_765))),
        "0x00000000000000000000000000000000000000a3" => {
            Some(format!("0x{}{}{}", word(7), word(3_000_000_000_000_000_000), word(2_000_000_000_000_000_000)))
        }
        "0x00000000000000000000000000000000000000b1" => Some(format!("0x{}{}", word(987_654_321_000_000_000), word(1))),
        _ => None,
    }
}

pub(crate) fn catalog() -> Value {
    let entry = |name: &str, chain: &str, to: &str, kind: &str, decimals: u32, data: &[&str]| {
        json!({"name": name, "decimals": decimals, "chainAlias": chain, "returnType": kind, "contractAddress": to,
            "contractMethods": ["m"], "contractMethodsParameters": [[]], "callData": data})
    };
    json!([
        entry(
            "rETH/ETH Exchange Rate",
            "ethereum",
            "0x00000000000000000000000000000000000000a1",
            "type-0",
            18,
            &["0xe6aa216c"]
        ),
        entry(
            "eBTC/WBTC Exchange Rate",
            "ethereum",
            "0x00000000000000000000000000000000000000a2",
            "type-0",
            8,
            &["0x679aefce"]
        ),
        entry(
            "ETHx/ETH Exchange Rate",
            "ethereum",
            "0x00000000000000000000000000000000000000a3",
            "type-2",
            18,
            &["0x3ba0b9a9"]
        ),
        entry(
            "spETH/ETH Exchange Rate",
            "ethereum",
            "0x00000000000000000000000000000000000000a4",
            "type-3",
            18,
            &["0xa404898f", "0xd795f23f"]
        ),
        entry(
            "BNBx/BNB Exchange Rate",
            "bsc",
            "0x00000000000000000000000000000000000000b1",
            "type-1",
            18,
            &["0xca0506e80000000000000000000000000000000000000000000000000de0b6b3a7640000"]
        ),
        entry(
            "sAVAX/AVAX Exchange Rate",
            "avalanche",
            "0x00000000000000000000000000000000000000c1",
            "type-0",
            18,
            &["0x4a36d6c1"]
        ),
    ])
}

/// A JSON-RPC server for two chains (`/eth/KEY`, `/bsc/KEY`): an `eth_call` of a known contract is
/// answered, anything else is a JSON-RPC error; a wrong key is a 401.
pub(crate) fn chain_server() -> Server {
    Server::start(|request, stream| {
        let body: Value = serde_json::from_str(&request.body).unwrap_or_default();
        let keyed = request.target == format!("/eth/{KEY}") || request.target == format!("/bsc/{KEY}");
        if !keyed || request.method != "POST" {
            answer(stream, "401 Unauthorized", "application/json", "", br#"{"error": "bad key"}"#);
            return;
        }
        let call = &body["params"][0];
        let answered = match (body["jsonrpc"].as_str(), body["method"].as_str(), call["to"].as_str()) {
            (Some("2.0"), Some("eth_call"), Some(to)) if body["params"][1] == "latest" && call["data"].is_string() => {
                result_of(to)
            }
            _ => None,
        };
        let reply = match answered {
            Some(result) => json!({"jsonrpc": "2.0", "id": body["id"], "result": result}),
            None => {
                json!({"jsonrpc": "2.0", "id": body["id"], "error": {"code": -32000, "message": "execution reverted"}})
            }
        };
        answer(stream, "200 OK", "application/json", "", reply.to_string().as_bytes());
    })
}

fn run(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    common::ois().current_dir(dir).args(args).output().expect("runs")
}

pub(crate) fn import(dir: &std::path::Path, base: &str) -> std::process::Output {
    std::fs::write(dir.join("catalog.json"), catalog().to_string()).unwrap();
    let ethereum = format!("ethereum={base}/eth/${{RPC_KEY}}");
    let bsc = format!("bsc={base}/bsc/${{RPC_KEY}}");
    run(
        dir,
        &[
            "feed",
            "import",
            "rpc.ois.json",
            "catalog.json",
            "--provider",
            "Chains",
            "--chain-url",
            &ethereum,
            "--chain-url",
            &bsc,
        ],
    )
}

#[test]
fn rpc_feeds_are_one_ois_a_chain_each_an_eth_call_decoded_as_its_return_type() {
    let server = chain_server();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let imported = import(d, &server.base);
    let said = String::from_utf8_lossy(&imported.stderr).into_owned();
    assert!(imported.status.success(), "{said}");
    assert!(said.contains("spETH/ETH Exchange Rate") && said.contains("2 contract calls"), "{said}");
    assert!(!said.contains("sAVAX"), "a chain without a URL is left out: {said}");

    let written: Value = serde_json::from_str(&std::fs::read_to_string(d.join("rpc.ois.json")).unwrap()).unwrap();
    let titles: Vec<&str> = written.as_array().unwrap().iter().map(|o| o["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Chains ethereum", "Chains bsc"]);
    assert_eq!(written[0]["apiSpecifications"]["servers"][0]["url"], format!("{}/eth/${{RPC_KEY}}#", server.base));
    let validated = run(d, &["validate", "rpc.ois.json"]);
    assert!(validated.status.success(), "{}", String::from_utf8_lossy(&validated.stderr));

    std::fs::write(d.join("secrets.env"), format!("RPC_KEY={KEY}\n")).unwrap();
    let call = |title: &str| {
        let output = run(
            d,
            &["call", "rpc.ois.json", "--ois", title, "--all-feeds", "--secrets", "secrets.env", "--format", "json"],
        );
        let everything = String::from_utf8_lossy(&[output.stdout.clone(), output.stderr.clone()].concat()).into_owned();
        assert!(output.status.success(), "{everything}");
        assert!(!everything.contains(KEY), "the key is masked: {everything}");
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        report["beacons"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| (b["feed"].clone(), b["values"][0].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        call("Chains ethereum"),
        [
            (json!("rETH/ETH Exchange Rate"), json!("1051234567890123456")),
            (json!("eBTC/WBTC Exchange Rate"), json!("999987650000000000")),
            (json!("ETHx/ETH Exchange Rate"), json!("1500000000000000000")),
        ]
    );
    assert_eq!(call("Chains bsc"), [(json!("BNBx/BNB Exchange Rate"), json!("987654321000000000"))]);
    let received = server.take();
    assert_eq!(received.len(), 4, "one eth_call a feed");
    assert!(received.iter().all(|r| r.header("content-type") == Some("application/json")));

    // Imported again with another URL: the chain's OIS is brought up to date, its feeds replaced.
    let again = import(d, "https://rpc.example.com");
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    let written: Value = serde_json::from_str(&std::fs::read_to_string(d.join("rpc.ois.json")).unwrap()).unwrap();
    assert_eq!(written.as_array().unwrap().len(), 2);
    assert_eq!(written[1]["apiSpecifications"]["servers"][0]["url"], "https://rpc.example.com/bsc/${RPC_KEY}#");
}

#[test]
fn an_rpc_catalog_needs_each_chain_s_url_and_a_url_the_node_may_fill() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("catalog.json"), catalog().to_string()).unwrap();
    let refused = |args: &[&str], says: &str| {
        let output = run(d, args);
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{says}: {stderr}");
        assert!(!d.join("rpc.ois.json").exists());
    };
    refused(&["feed", "import", "rpc.ois.json", "catalog.json"], "--chain-url ethereum=");
    let import = ["feed", "import", "rpc.ois.json", "catalog.json", "--chain-url"];
    refused(&[&import[..], &["ethereum=https://${HOST}/v3"]].concat(), "after the URL's host");
    refused(&[&import[..], &["ethereum=https://x.io/${AIRNODE_WALLET_MNEMONIC}"]].concat(), "node's own secrets");
    refused(&[&import[..], &["solana=https://x.io/${K}"]].concat(), "no feeds on \"solana\"");
    refused(&[&import[..], &["ethereum=ftp://x.io/a"]].concat(), "not an absolute http(s) URL");
}

/// A catalog of `feeds` entries on up to three chains, each its own contract and call data.
fn generated_catalog() -> impl Strategy<Value = Vec<(String, String, String)>> {
    let chains = prop::sample::select(vec!["ethereum", "bsc", "mantle"]);
    prop::collection::vec(
        (chains, prop::array::uniform20(any::<u8>()), prop::collection::vec(any::<u8>(), 4..40)),
        1..12,
    )
    .prop_map(|entries| {
        entries
            .into_iter()
            .map(|(chain, address, data)| {
                let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
                (chain.to_owned(), format!("0x{}", hex(&address)), format!("0x{}", hex(&data)))
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Every feed's body holds its own contract and call data, and a chain's OIS holds only that
    /// chain's feeds.
    #[test]
    fn every_feed_calls_its_own_contract_on_its_own_chain(entries in generated_catalog()) {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let catalog: Vec<Value> = entries
            .iter()
            .enumerate()
            .map(|(i, (chain, to, data))| json!({"name": format!("F{i}/USD"), "decimals": 18, "chainAlias": chain,
                "returnType": "type-0", "contractAddress": to, "callData": [data]}))
            .collect();
        std::fs::write(d.join("catalog.json"), Value::Array(catalog).to_string()).unwrap();
        let mut chains: Vec<&str> = entries.iter().map(|(chain, _, _)| chain.as_str()).collect();
        chains.dedup();
        let chains: Vec<&str> = chains.into_iter().collect::<indexmap::IndexSet<_>>().into_iter().collect();
        let mut args = vec!["feed".to_owned(), "import".into(), "rpc.ois.json".into(), "catalog.json".into()];
        for chain in &chains {
            args.push("--chain-url".into());
            args.push(format!("{chain}=https://{chain}.rpc.example/v3/${{RPC_KEY}}"));
        }
        let output = common::ois().current_dir(d).args(&args).output().unwrap();
        prop_assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let written: Value = serde_json::from_str(&std::fs::read_to_string(d.join("rpc.ois.json")).unwrap()).unwrap();
        let oises = match written { Value::Array(items) => items, one => vec![one] };
        prop_assert_eq!(oises.len(), chains.len());
        for (i, (chain, to, data)) in entries.iter().enumerate() {
            let name = format!("F{i}/USD");
            let holders: Vec<&Value> = oises
                .iter()
                .filter(|ois| ois::feeds::read(ois).unwrap().unwrap().feeds.iter().any(|f| f.name == name))
                .collect();
            prop_assert_eq!(holders.len(), 1, "{} is in one OIS", name);
            prop_assert_eq!(holders[0]["title"].as_str().unwrap(), format!("RPC {chain}"));
            let tables = ois::feeds::read(holders[0]).unwrap().unwrap();
            let feed = tables.feeds.iter().find(|f| f.name == name).unwrap();
            prop_assert_eq!(&feed.parameters["params"], &json!([{"to": to, "data": data}, "latest"]));
        }
    }
}
