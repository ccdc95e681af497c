//! `ois validate` on whole node configurations against airnode-validator 0.15 (tests/interop/
//! config.js): generated mutations of a valid config.json — triggers naming missing OIS or
//! endpoints or carrying wrong endpoint IDs, node settings and chains of the wrong shape, unknown
//! and missing sections — must be valid for both or for neither.
//!
//! Not compared, as `ois validate` does not check them (README): the deep chain settings
//! (`authorizers`, `authorizations`, `options`, `contracts`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use serde_json::{Value, json};

use common::run_node;

fn base() -> Value {
    let ois = json!({
        "oisFormat": "2.3.2", "title": "Prices", "version": "1.0.0",
        "apiSpecifications": {
            "servers": [{"url": "https://api.example.com"}],
            "paths": {"/price": {"get": {"parameters": [{"in": "query", "name": "id"}]}}},
            "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}},
            "security": {"key": []}
        },
        "endpoints": [
            {"name": "price", "operation": {"method": "get", "path": "/price"}, "fixedOperationParameters": [],
             "reservedParameters": [{"name": "_type"}, {"name": "_path"}],
             "parameters": [{"name": "id", "operationParameter": {"in": "query", "name": "id"}}]},
            {"name": "other", "operation": {"method": "get", "path": "/price"},
             "fixedOperationParameters": [{"operationParameter": {"in": "query", "name": "id"}, "value": "btc"}],
             "reservedParameters": [{"name": "_type"}], "parameters": []}
        ]
    });
    json!({
        "chains": [{
            "authorizers": {"requesterEndpointAuthorizers": [], "crossChainRequesterAuthorizers": [],
                "requesterAuthorizersWithErc721": [], "crossChainRequesterAuthorizersWithErc721": []},
            "authorizations": {"requesterEndpointAuthorizations": {}},
            "contracts": {"AirnodeRrp": "0xa0AD79D995DdeeB18a14eAef56A549A04e3Aa1Bd"},
            "id": "11155111", "providers": {"p": {"url": "https://rpc.example.com"}}, "type": "evm",
            "options": {"fulfillmentGasLimit": 500000,
                "gasPriceOracle": [{"gasPriceStrategy": "constantGasPrice", "gasPrice": {"value": 10, "unit": "gwei"}}]},
            "maxConcurrency": 100
        }],
        "nodeSettings": {
            "cloudProvider": {"type": "local"},
            "airnodeWalletMnemonic": "test test test test test test test test test test test junk",
            "heartbeat": {"enabled": false}, "httpGateway": {"enabled": false},
            "httpSignedDataGateway": {"enabled": false}, "oevGateway": {"enabled": false},
            "logFormat": "plain", "logLevel": "INFO", "nodeVersion": "0.15.0", "stage": "dev"
        },
        "ois": [ois],
        "triggers": {"rrp": [], "http": [], "httpSignedData": []},
        "templates": [],
        "apiCredentials": [{"oisTitle": "Prices", "securitySchemeName": "key", "securitySchemeValue": "${KEY}"}]
    })
}

/// Airnode ABI for no parameters (the header `1` alone): what the node decodes, so a template's
/// other rules are what is compared (an undecodable one is OIS080, beyond the validator).
const NO_PARAMETERS: &str = "0x3100000000000000000000000000000000000000000000000000000000000000";

/// A template of the base mnemonic's Airnode with its derived ID.
fn template(endpoint_id: &str, parameters: &str) -> Value {
    let airnode = ois::node::airnode_address("test test test test test test test test test test test junk").unwrap();
    let endpoint = endpoint_id.parse().unwrap();
    let bytes = alloy_primitives::hex::decode(&parameters[2..]).unwrap();
    let id = ois::node::rrp_template_id(airnode, endpoint, &bytes);
    json!({"templateId": id, "endpointId": endpoint_id, "encodedParameters": parameters})
}

fn trigger(title: &str, name: &str, id: &str) -> Value {
    json!({"endpointId": id, "oisTitle": title, "endpointName": name})
}

/// Adds a trigger to a section (unless an earlier change made it something else).
fn push(config: &mut Value, section: &str, trigger: Value) {
    if let Some(list) = config.pointer_mut(&format!("/triggers/{section}")).and_then(Value::as_array_mut) {
        list.push(trigger);
    }
}

/// One change to a config, named for the failure message.
type Mutation = (&'static str, fn(&mut Value));

fn mutations() -> Vec<Mutation> {
    fn id(title: &str, name: &str) -> String {
        ois::node::endpoint_id(title, name)
    }
    vec![
        ("rrp trigger", |c| {
            let mut t = trigger("Prices", "price", &id("Prices", "price"));
            t["cacheResponses"] = json!(false);
            push(c, "rrp", t);
        }),
        ("rrp trigger without cacheResponses", |c| {
            push(c, "rrp", trigger("Prices", "price", &id("Prices", "price")));
        }),
        ("rrp trigger with a text cacheResponses", |c| {
            let mut t = trigger("Prices", "other", &id("Prices", "other"));
            t["cacheResponses"] = json!("true");
            push(c, "rrp", t);
        }),
        ("http trigger", |c| {
            push(c, "http", trigger("Prices", "other", &id("Prices", "other")));
        }),
        ("http trigger for a missing OIS", |c| {
            push(c, "http", trigger("Nope", "price", &id("Nope", "price")));
        }),
        ("signed trigger for a missing endpoint", |c| {
            push(c, "httpSignedData", trigger("Prices", "nope", &id("Prices", "nope")));
        }),
        ("signed trigger with another endpoint's ID", |c| {
            push(c, "httpSignedData", trigger("Prices", "price", &id("Prices", "other")));
        }),
        ("http trigger with an uppercase ID", |c| {
            let upper = format!("0x{}", id("Prices", "price")[2..].to_uppercase());
            push(c, "http", trigger("Prices", "price", &upper));
        }),
        ("trigger with an extra field", |c| {
            let mut t = trigger("Prices", "price", &id("Prices", "price"));
            t["note"] = json!("x");
            push(c, "http", t);
        }),
        ("triggers without httpSignedData", |c| {
            c["triggers"].as_object_mut().map(|o| o.remove("httpSignedData"));
        }),
        ("triggers.http not an array", |c| c["triggers"]["http"] = json!({})),
        ("no templates", |c| {
            c.as_object_mut().map(|o| o.remove("templates"));
        }),
        ("template with a short ID", |c| {
            c["templates"] =
                json!([{"templateId": "0x12", "endpointId": id("Prices", "price"), "encodedParameters": "0x"}]);
        }),
        ("template", |c| c["templates"] = json!([template(&id("Prices", "price"), NO_PARAMETERS)])),
        ("template with empty parameters", |c| c["templates"] = json!([template(&id("Prices", "other"), "0x")])),
        ("template with a wrong ID", |c| {
            let mut wrong = template(&id("Prices", "price"), NO_PARAMETERS);
            wrong["encodedParameters"] = json!("0x1235");
            c["templates"] = json!([wrong]);
        }),
        ("template with an uppercase ID", |c| {
            let mut upper = template(&id("Prices", "price"), NO_PARAMETERS);
            upper["templateId"] = json!(format!("0x{}", upper["templateId"].as_str().unwrap()[2..].to_uppercase()));
            c["templates"] = json!([upper]);
        }),
        ("mnemonic with a wrong word", |c| {
            c["nodeSettings"]["airnodeWalletMnemonic"] =
                json!("test test test test test test test test test test test test");
        }),
        ("mnemonic in capitals", |c| {
            c["nodeSettings"]["airnodeWalletMnemonic"] =
                json!("TEST TEST TEST TEST TEST TEST TEST TEST TEST TEST TEST JUNK");
        }),
        ("mnemonic with a leading space", |c| {
            c["nodeSettings"]["airnodeWalletMnemonic"] =
                json!(" test test test test test test test test test test test junk");
        }),
        ("unknown top-level key", |c| c["extra"] = json!(1)),
        ("no chains", |c| {
            c.as_object_mut().map(|o| o.remove("chains"));
        }),
        ("log level lowercase", |c| c["nodeSettings"]["logLevel"] = json!("info")),
        ("log format yaml", |c| c["nodeSettings"]["logFormat"] = json!("yaml")),
        ("stage with capitals", |c| c["nodeSettings"]["stage"] = json!("Dev")),
        ("stage too long", |c| c["nodeSettings"]["stage"] = json!("a-very-long-stage-x")),
        ("old node version", |c| c["nodeSettings"]["nodeVersion"] = json!("0.14.0")),
        ("no heartbeat", |c| {
            c["nodeSettings"].as_object_mut().map(|o| o.remove("heartbeat"));
        }),
        ("heartbeat on without a key", |c| {
            c["nodeSettings"]["heartbeat"] = json!({"enabled": true, "url": "https://h"})
        }),
        ("heartbeat on", |c| {
            c["nodeSettings"]["heartbeat"] = json!({"enabled": true, "url": "https://h", "apiKey": "k".repeat(40)});
        }),
        ("heartbeat with a short key", |c| {
            c["nodeSettings"]["heartbeat"] = json!({"enabled": true, "url": "https://h", "apiKey": "short"});
        }),
        ("gateway on", |c| {
            c["nodeSettings"]["httpGateway"] = json!({"enabled": true, "maxConcurrency": 20, "corsOrigins": []});
        }),
        ("gateway with zero concurrency", |c| {
            c["nodeSettings"]["httpGateway"] = json!({"enabled": true, "maxConcurrency": 0, "corsOrigins": []});
        }),
        ("gateway with fractional concurrency", |c| {
            c["nodeSettings"]["oevGateway"] = json!({"enabled": true, "maxConcurrency": 1.5, "corsOrigins": ["*"]});
        }),
        ("gateway enabled as text", |c| c["nodeSettings"]["httpSignedDataGateway"] = json!({"enabled": "false"})),
        ("gateway off with extra fields", |c| {
            c["nodeSettings"]["httpGateway"] = json!({"enabled": false, "maxConcurrency": 1});
        }),
        ("aws without region", |c| {
            c["nodeSettings"]["cloudProvider"] = json!({"type": "aws", "disableConcurrencyReservations": false});
        }),
        ("gcp", |c| {
            c["nodeSettings"]["cloudProvider"] =
                json!({"type": "gcp", "region": "r", "projectId": "p", "disableConcurrencyReservations": true});
        }),
        ("local with a port", |c| {
            c["nodeSettings"]["cloudProvider"] = json!({"type": "local", "gatewayServerPort": 3000})
        }),
        ("unknown cloud", |c| c["nodeSettings"]["cloudProvider"] = json!({"type": "azure"})),
        ("unknown node setting", |c| c["nodeSettings"]["debug"] = json!(true)),
        ("chain id not digits", |c| c["chains"][0]["id"] = json!("sepolia")),
        ("chain type", |c| c["chains"][0]["type"] = json!("solana")),
        ("chain without options", |c| {
            c["chains"][0].as_object_mut().map(|o| o.remove("options"));
        }),
        ("two providers", |c| c["chains"][0]["providers"]["q"] = json!({"url": "https://rpc2.example.com"})),
        ("concurrency below providers", |c| {
            c["chains"][0]["providers"]["q"] = json!({"url": "https://rpc2.example.com"});
            c["chains"][0]["maxConcurrency"] = json!(1);
        }),
        ("provider url not a URL", |c| c["chains"][0]["providers"]["p"]["url"] = json!("rpc.example.com")),
        ("chain with an extra field", |c| c["chains"][0]["name"] = json!("x")),
        ("chain minConfirmations", |c| c["chains"][0]["minConfirmations"] = json!(2)),
        ("chain minConfirmations fractional", |c| c["chains"][0]["minConfirmations"] = json!(0.5)),
    ]
}

#[test]
fn whole_configs_valid_exactly_when_airnode_validator_says_so() {
    if !common::interop_installed("@api3/airnode-validator") {
        return;
    }
    let mutations = mutations();
    // Each mutation alone, then generated pairs and triples (a fixed xorshift sequence).
    let mut chosen: Vec<Vec<usize>> = vec![vec![]];
    chosen.extend((0..mutations.len()).map(|i| vec![i]));
    let mut rng = common::Rng(0xDEAD_BEEF_CAFE_F00D);
    for _ in 0..300 {
        let count = 2 + rng.below(2);
        chosen.push((0..count).map(|_| rng.below(mutations.len())).collect());
    }
    let configs: Vec<Value> = chosen
        .iter()
        .map(|picks| {
            let mut config = base();
            // Later mutations first, so a removal (listed before the changes inside what it
            // removes) comes after them.
            let mut picks = picks.clone();
            picks.sort_unstable_by(|a, b| b.cmp(a));
            for &pick in &picks {
                (mutations[pick].1)(&mut config);
            }
            config
        })
        .collect();
    let Value::Array(real) = run_node("config.js", &json!(configs)) else { panic!("no results") };
    let differences: Vec<String> = chosen
        .iter()
        .zip(&configs)
        .zip(&real)
        .filter_map(|((picks, config), real)| {
            let ours = ois::validate_value(config, None);
            let theirs = real["valid"].as_bool().unwrap();
            (ours.is_valid() != theirs).then(|| {
                let names: Vec<&str> = picks.iter().map(|&p| mutations[p].0).collect();
                let errors: Vec<String> = ours
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| format!("{} {}", d.code, d.message))
                    .collect();
                format!("{names:?}\n  ours: {errors:?}\n  validator: {}", real["issues"])
            })
        })
        .collect();
    assert!(real[0]["valid"].as_bool().unwrap(), "the base config is valid: {}", real[0]);
    assert!(differences.is_empty(), "{} of {} differ:\n{}", differences.len(), configs.len(), differences.join("\n"));
}
