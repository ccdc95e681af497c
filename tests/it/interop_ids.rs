//! Template parameters and IDs against the real encoder and derivations: `@api3/airnode-abi` 0.15
//! `encode` and `@api3/commons` `deriveEndpointId`, `deriveTemplateIdV1` (Airnode Feed),
//! `deriveTemplateIdV0` (Airnode RRP), `deriveBeaconId`, `deriveBeaconSetId`, and the OEV
//! template ID (`keccak256(templateId)`), on generated cases: every type, valid and refused
//! values, long and unicode names and strings, up to 31 parameters. Equal bytes and IDs, or both
//! refuse. And `decode` (what airnode-node reads of an RRP template's `encodedParameters`) on
//! those encodings and mutations of them (a digit changed, a byte more, a word less, upper case):
//! equal parameters, or both refuse.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)] // tests fail by panicking

use crate::common;

use alloy_primitives::{Address, B256};
use serde_json::{Value, json};

use ois::node::ids::{self, TemplateParameter};

const TYPES: &[&str] = &["bytes", "bytes32", "string", "string32", "address", "int256", "uint256", "bool"];

fn values_for(kind: &str) -> Vec<Value> {
    let long = "x".repeat(40);
    match kind {
        "bytes" => {
            vec![json!("0x"), json!("0x00ff"), json!("0x123"), json!("12"), json!(format!("0x{}", "ab".repeat(70)))]
        }
        "bytes32" => {
            vec![json!(format!("0x{}", "11".repeat(32))), json!("0x1234"), json!(format!("0X{}", "AB".repeat(32)))]
        }
        "string" => vec![json!(""), json!("BTC/USD"), json!("ünïcödé ✓ 😀"), json!(long)],
        "string32" => vec![json!("ETH"), json!(""), json!("😀😀😀😀😀😀😀"), json!("😀😀😀😀😀😀😀😀"), json!(long)],
        "address" => vec![
            json!("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"),
            json!("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"),
            json!("0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266"),
            json!("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92267"),
            json!("0x1234"),
        ],
        "int256" => vec![
            json!("0"),
            json!("-1"),
            json!("12345678901234567890123"),
            json!("-0x1f"),
            json!("1.5"),
            json!("1e3"),
            json!(format!("{}", "9".repeat(80))),
            json!("-57896044618658097711785492504343953926634992332820282019728792003956564819968"),
            json!(" 1"),
        ],
        "uint256" => vec![
            json!("0"),
            json!("115792089237316195423570985008687907853269984665640564039457584007913129639935"),
            json!("115792089237316195423570985008687907853269984665640564039457584007913129639936"),
            json!("-1"),
            json!("0xff"),
            json!(""),
        ],
        _ => vec![json!("true"), json!("false"), json!(""), json!("0"), json!("yes")],
    }
}

const NAMES: &[&str] =
    &["from", "to", "_path", "coinId", "ünïcödé", "a-name-that-is-far-too-long-for-bytes32", "", "x"];

fn cases() -> Vec<Value> {
    let mut rng = common::Rng(0x9E37_79B9_7F4A_7C15);
    let airnodes = ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"];
    let mut cases = Vec::new();
    for index in 0..140 {
        let count = match index {
            0 => 0,
            1 => 30,
            2 => 31,
            _ => rng.below(6) + 1,
        };
        let parameters: Vec<Value> = (0..count)
            .map(|_| {
                let kind = rng.pick(TYPES);
                let values = values_for(kind);
                let value = values[rng.below(values.len())].clone();
                // Mostly valid names, sometimes not.
                let name = if rng.below(8) == 0 { rng.pick(NAMES).to_owned() } else { format!("p{}", rng.below(100)) };
                json!({"type": kind, "name": name, "value": value})
            })
            .collect();
        cases.push(json!({
            "title": if index % 3 == 0 { "CoinGecko Pro".to_owned() } else { format!("OIS ✓ {index}") },
            "endpoint": if index % 4 == 0 { "feed" } else { "coinMarketData" },
            "airnode": airnodes[index % 2],
            "parameters": parameters,
        }));
    }
    cases
}

fn hex(bytes: &[u8]) -> String {
    format!("0x{}", alloy_primitives::hex::encode(bytes))
}

#[test]
fn encoding_and_every_id_match_airnode_abi_and_commons() {
    if !common::interop_installed("@api3/airnode-abi") {
        return;
    }
    // Every generation's commons derives every ID alike (Airnode Feed 4's 1.x moved only its
    // import paths): ours against each.
    for (label, from) in common::commons_generations() {
        ids_match(label, from.as_deref());
    }
}

/// The hash Airnode Feed's heartbeat logs of its config, `ois ids`' `configHash`, against each
/// generation's commons, on the samples' scaffolded configs and generated ones: keys that sort
/// apart by UTF-16, integer-like keys, objects inside arrays (which commons does not sort),
/// numbers JavaScript writes its own way, escapes.
#[test]
fn the_config_hash_is_the_heartbeat_s() {
    if !common::interop_installed("@api3/commons") {
        return;
    }
    let mut rng = common::Rng(0x5eed_c0f1);
    let keys = ["b", "a", "10", "2", "Z", "é", "\u{1f600}", "\u{ff5e}", "", "_x", "01"];
    let values = [
        json!(1e21),
        json!(0.1),
        json!(-0.0),
        json!(123456789012345678u64),
        json!("${SECRET}"),
        json!("\u{2028}\"\\"),
        json!(null),
        json!(true),
    ];
    let mut configs = Vec::new();
    for _ in 0..200 {
        let mut object = serde_json::Map::new();
        for _ in 0..rng.below(6) {
            let mut inner = serde_json::Map::new();
            for _ in 0..rng.below(4) {
                inner.insert(rng.pick(&keys).to_owned(), values[rng.below(values.len())].clone());
            }
            let value = match rng.below(3) {
                0 => Value::Object(inner),
                1 => json!([Value::Object(inner), [values[rng.below(values.len())].clone()]]),
                _ => values[rng.below(values.len())].clone(),
            };
            object.insert(rng.pick(&keys).to_owned(), value);
        }
        configs.push(Value::Object(object));
    }
    for sample in
        ["samples/expected/coins.ois.json", "tests/codes/OIS080.config.json", "tests/codes/OIS081.config.json"]
    {
        configs.push(serde_json::from_str(&std::fs::read_to_string(sample).unwrap()).unwrap());
    }
    for (label, from) in common::commons_generations() {
        let theirs = common::run_node_with("config-hash.js", &Value::Array(configs.clone()), from.as_deref());
        let differing: Vec<String> = configs
            .iter()
            .zip(theirs.as_array().unwrap())
            .filter(|(config, hash)| hash.as_str() != Some(ois::node::ids::config_hash(config).as_str()))
            .map(|(config, hash)| format!("{config}: theirs {hash}, ours {}", ois::node::ids::config_hash(config)))
            .collect();
        assert!(differing.is_empty(), "{label}: {} differ:\n{}", differing.len(), differing.join("\n"));
    }
}

fn ids_match(label: &str, commons_from: Option<&std::path::Path>) {
    let cases = cases();
    let theirs = common::run_node_with("ids.js", &Value::Array(cases.clone()), commons_from);
    let results = theirs["cases"].as_array().unwrap();
    let mut differences = Vec::new();
    let (mut encoded_count, mut refused_count) = (0, 0);
    let mut beacons = Vec::new();
    for (case, expected) in cases.iter().zip(results) {
        let endpoint_id = ois::node::endpoint_id(case["title"].as_str().unwrap(), case["endpoint"].as_str().unwrap());
        if endpoint_id != expected["endpointId"].as_str().unwrap() {
            differences.push(format!("endpoint ID of {case}"));
        }
        let parameters: Vec<TemplateParameter> = ids::parameters_from_json(&case["parameters"]).unwrap();
        match (ids::encode_parameters(&parameters), expected.get("encoded").and_then(Value::as_str)) {
            (Ok(encoded), Some(their_bytes)) => {
                encoded_count += 1;
                if hex(&encoded.bytes) != their_bytes {
                    differences.push(format!("encoding of {case}"));
                    continue;
                }
                let airnode: Address = case["airnode"].as_str().unwrap().parse().unwrap();
                let endpoint: B256 = endpoint_id.parse().unwrap();
                let template = ids::feed_template_id(endpoint, &encoded.bytes);
                let beacon = ids::beacon_id(airnode, template);
                beacons.push(beacon);
                let ours = [
                    ("feedTemplateId", template.to_string()),
                    ("rrpTemplateId", ois::node::rrp_template_id(airnode, endpoint, &encoded.bytes)),
                    ("beaconId", beacon.to_string()),
                    ("oevTemplateId", ids::oev_template_id(template).to_string()),
                ];
                for (key, value) in ours {
                    if expected[key].as_str() != Some(value.as_str()) {
                        differences.push(format!("{key} of {case}: ours {value}, theirs {}", expected[key]));
                    }
                }
            }
            (Err(_), None) => refused_count += 1,
            (ours, _) => differences.push(format!("{case}: ours {:?}, theirs {expected}", ours.map(|e| hex(&e.bytes)))),
        }
    }
    let set = ids::beacon_set_id(&beacons).to_string();
    if theirs["beaconSetId"].as_str() != Some(set.as_str()) {
        differences.push(format!("beacon set of {} beacons", beacons.len()));
    }
    assert!(differences.is_empty(), "{label}: {} differ:\n{}", differences.len(), differences.join("\n"));
    assert!(encoded_count >= 50 && refused_count >= 20, "{encoded_count} encoded, {refused_count} refused");
}

/// Mutations of an encoding that a decoder must judge as airnode-abi does: one hex digit changed,
/// a byte more or a word less, upper case.
fn mutations(encoded: &str, rng: &mut common::Rng) -> Vec<String> {
    let digits = encoded.trim_start_matches("0x");
    let mut flipped = digits.as_bytes().to_vec();
    if !flipped.is_empty() {
        let at = rng.below(flipped.len());
        flipped[at] = b"0123456789abcdef"[rng.below(16)];
    }
    vec![
        format!("0x{}", String::from_utf8(flipped).unwrap()),
        format!("{encoded}00"),
        encoded.get(..encoded.len().saturating_sub(64).max(2)).unwrap().to_owned(),
        format!("0x{}", digits.to_uppercase()),
    ]
}

#[test]
fn decoding_matches_airnode_abi() {
    if !common::interop_installed("@api3/airnode-abi") {
        return;
    }
    let mut rng = common::Rng(0x51_7CC1_B727_220A);
    let mut inputs = vec!["0x".to_owned(), "0x00".to_owned(), "nothex".to_owned()];
    for case in cases() {
        let parameters: Vec<TemplateParameter> = serde_json::from_value::<Vec<Value>>(case["parameters"].clone())
            .unwrap()
            .into_iter()
            .map(|p| TemplateParameter {
                kind: p["type"].as_str().unwrap().to_owned(),
                name: p["name"].as_str().unwrap().to_owned(),
                value: p["value"].clone(),
            })
            .collect();
        let Ok(encoded) = ids::encode_parameters(&parameters) else { continue };
        let encoded = hex(&encoded.bytes);
        inputs.extend(mutations(&encoded, &mut rng));
        inputs.push(encoded);
    }
    let Value::Array(theirs) = common::run_node("decode.js", &json!(inputs)) else { panic!("no results") };
    let (mut decoded, mut refused) = (0, 0);
    for (input, theirs) in inputs.iter().zip(&theirs) {
        match ois::node::abi_decode::decode_parameters(input) {
            Ok(ours) => {
                decoded += 1;
                assert_eq!(Some(&Value::Object(ours.into_iter().collect())), theirs.get("ok"), "{input}: {theirs}");
            }
            Err(error) => {
                refused += 1;
                assert!(
                    theirs.get("error").is_some(),
                    "{input}: we refuse ({}), airnode-abi decodes {theirs}",
                    error.message
                );
            }
        }
    }
    assert!(decoded > 60 && refused > 100, "{decoded} decoded, {refused} refused");
}

/// Airnode RRP's sponsor wallets and `createTemplate` call data as airnode-node 0.15 derives them
/// and AirnodeRrpV0 encodes it (tests/interop/rrp.js), for generated sponsors (the edges of the
/// 31-bit parts included), mnemonics and template parameters.
#[test]
fn sponsor_wallets_and_create_template_match_airnode_node() {
    if !common::interop_installed("@api3/airnode-node") || !common::interop_installed("@api3/airnode-protocol") {
        return;
    }
    let mnemonics = [
        "test test test test test test test test test test test junk",
        "diamond result history offer forest diagram crop armed stumble orchard stage glance",
    ];
    let mut rng = common::Rng(0x5EED_5F0A_50E5_0001);
    let mut sponsors: Vec<[u8; 20]> = vec![[0; 20], [0xff; 20]];
    for _ in 0..30 {
        let mut bytes = [0u8; 20];
        bytes.iter_mut().for_each(|b| *b = (rng.next() & 0xff) as u8);
        sponsors.push(bytes);
    }
    let cases: Vec<(String, alloy_primitives::Address, alloy_primitives::B256, Vec<u8>)> = sponsors
        .iter()
        .enumerate()
        .map(|(index, bytes)| {
            let endpoint = alloy_primitives::B256::from([(index as u8).wrapping_mul(7); 32]);
            let parameters: Vec<u8> = (0..rng.below(200)).map(|_| (rng.next() & 0xff) as u8).collect();
            (mnemonics[index % 2].to_owned(), alloy_primitives::Address::from(*bytes), endpoint, parameters)
        })
        .collect();
    let airnode = ois::node::airnode_address(mnemonics[0]).unwrap();
    let input: Vec<Value> = cases
        .iter()
        .map(|(mnemonic, sponsor, endpoint, parameters)| {
            json!({
                "mnemonic": mnemonic, "sponsor": sponsor.to_checksum(None), "airnode": airnode.to_checksum(None),
                "endpointId": endpoint.to_string(), "parameters": hex(parameters),
            })
        })
        .collect();
    let real = common::run_node("rrp.js", &Value::Array(input));
    for (index, (mnemonic, sponsor, endpoint, parameters)) in cases.iter().enumerate() {
        let wallet = ois::node::sponsor_wallet(mnemonic, *sponsor).unwrap().to_checksum(None);
        assert_eq!(real[index]["wallet"], wallet.as_str(), "sponsor {sponsor}");
        let data = ois::node::create_template_calldata(airnode, *endpoint, parameters);
        assert_eq!(real[index]["createTemplate"], data.as_str(), "case {index}");
    }
}
