//! `ois request` against the real `@api3/airnode-adapter` 0.15.0 (tests/interop/adapter.js): the
//! request for each case equals the adapter's `buildRequest` with the URL as axios sends it, and
//! each response preview equals `extractAndEncodeResponse`.
//!
//! Needs `npm ci --prefix tests/interop` (.ci/run does it); skipped with a message otherwise,
//! except under CI.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use std::process::Command;

use serde_json::{Value, json};

use common::run_node;

use ois::js;
use ois::request::{self as response, Credential, Metadata, Mode, RequestOptions, build};

fn base_ois() -> Value {
    let item_parameters = json!([
        {"in": "path", "name": "id"}, {"in": "query", "name": "q"}, {"in": "query", "name": "limit"},
        {"in": "header", "name": "X-Custom"}, {"in": "cookie", "name": "session"}, {"in": "query", "name": "fixedNum"},
        {"in": "query", "name": "fixedObj"}, {"in": "header", "name": "X-Fixed"}, {"in": "query", "name": "arr"},
        {"in": "query", "name": "obj"}, {"in": "processing", "name": "proc"}, {"in": "header", "name": "Cookie"},
        {"in": "query", "name": "api_key"}
    ]);
    json!({
        "oisFormat": "2.3.2", "title": "Interop", "version": "1.0.0",
        "apiSpecifications": {
            "servers": [{"url": "http://localhost:5000/api"}],
            "paths": {
                "/items/{id}": {"get": {"parameters": item_parameters}, "post": {"parameters": item_parameters}},
                "/pair/{a}/{b}": {"get": {"parameters": [{"in": "path", "name": "a"}, {"in": "path", "name": "b"}]}}
            },
            "components": {"securitySchemes": {
                "queryKey": {"type": "apiKey", "in": "query", "name": "api_key"},
                "headerKey": {"type": "apiKey", "in": "header", "name": "X-Api-Key"},
                "cookieKey": {"type": "apiKey", "in": "cookie", "name": "auth_cookie"},
                "basic": {"type": "http", "scheme": "basic"},
                "bearer": {"type": "http", "scheme": "bearer"},
                "chainId": {"type": "relayChainId", "in": "query", "name": "chain"},
                "chainType": {"type": "relayChainType", "in": "header", "name": "X-Chain-Type"},
                "requester": {"type": "relayRequesterAddress", "in": "header", "name": "X-Requester"},
                "sponsor": {"type": "relaySponsorAddress", "in": "query", "name": "sponsor"},
                "wallet": {"type": "relaySponsorWalletAddress", "in": "cookie", "name": "sw"},
                "requestId": {"type": "relayRequestId", "in": "header", "name": "X-Request-Id"}
            }},
            "security": {}
        },
        "endpoints": [
            {
                "name": "getItem",
                "operation": {"method": "get", "path": "/items/{id}"},
                "fixedOperationParameters": [
                    {"operationParameter": {"in": "query", "name": "fixedNum"}, "value": 42},
                    {"operationParameter": {"in": "query", "name": "fixedObj"}, "value": {"a": [1, 2], "b": "x y"}},
                    {"operationParameter": {"in": "header", "name": "X-Fixed"}, "value": "fixed-header"}
                ],
                "reservedParameters": [{"name": "_type", "fixed": "int256"}, {"name": "_path"}, {"name": "_times", "default": "100"}],
                "parameters": [
                    {"name": "itemId", "operationParameter": {"in": "path", "name": "id"}},
                    {"name": "query", "operationParameter": {"in": "query", "name": "q"}, "default": "default-q"},
                    {"name": "limit", "operationParameter": {"in": "query", "name": "limit"}},
                    {"name": "custom", "operationParameter": {"in": "header", "name": "X-Custom"}},
                    {"name": "session", "operationParameter": {"in": "cookie", "name": "session"}},
                    {"name": "fixedNum", "operationParameter": {"in": "query", "name": "fixedNum"}},
                    {"name": "arr", "operationParameter": {"in": "query", "name": "arr"}},
                    {"name": "obj", "operationParameter": {"in": "query", "name": "obj"}},
                    {"name": "proc", "operationParameter": {"in": "processing", "name": "proc"}},
                    {"name": "cookieHeader", "operationParameter": {"in": "header", "name": "Cookie"}},
                    {"name": "key", "operationParameter": {"in": "query", "name": "api_key"}},
                    {"name": "noTarget"}
                ]
            },
            {
                "name": "postItem",
                "operation": {"method": "post", "path": "/items/{id}"},
                "fixedOperationParameters": [{"operationParameter": {"in": "query", "name": "fixedNum"}, "value": 42}],
                "reservedParameters": [{"name": "_type"}],
                "parameters": [
                    {"name": "itemId", "operationParameter": {"in": "path", "name": "id"}},
                    {"name": "query", "operationParameter": {"in": "query", "name": "q"}},
                    {"name": "arr", "operationParameter": {"in": "query", "name": "arr"}},
                    {"name": "obj", "operationParameter": {"in": "query", "name": "obj"}},
                    {"name": "custom", "operationParameter": {"in": "header", "name": "X-Custom"}}
                ]
            },
            {
                "name": "pair",
                "operation": {"method": "get", "path": "/pair/{a}/{b}"},
                "fixedOperationParameters": [{"operationParameter": {"in": "path", "name": "b"}, "value": "usd"}],
                "reservedParameters": [{"name": "_type"}],
                "parameters": [{"name": "a", "operationParameter": {"in": "path", "name": "a"}}]
            }
        ]
    })
}

struct RequestCase {
    id: &'static str,
    ois: Value,
    endpoint: &'static str,
    parameters: Value,
    credentials: Vec<(&'static str, &'static str, &'static str)>,
    metadata: Option<Metadata>,
    mode: Mode,
}

fn with_security(schemes: &[&str]) -> Value {
    let mut ois = base_ois();
    ois["apiSpecifications"]["security"] = schemes.iter().map(|s| ((*s).to_owned(), json!([]))).collect();
    ois
}

fn all_metadata() -> Metadata {
    Metadata {
        chain_id: Some("31337".into()),
        chain_type: None,
        requester_address: Some("0x1111111111111111111111111111111111111111".into()),
        sponsor_address: Some("0x2222222222222222222222222222222222222222".into()),
        sponsor_wallet_address: Some("0x3333333333333333333333333333333333333333".into()),
        request_id: Some(format!("0x{}", "ab".repeat(32))),
    }
}

fn request_cases() -> Vec<RequestCase> {
    let case = |id, endpoint, parameters: Value| RequestCase {
        id,
        ois: base_ois(),
        endpoint,
        parameters,
        credentials: vec![],
        metadata: None,
        mode: Mode::Node,
    };
    let creds = vec![
        ("Interop", "queryKey", "QUERY-SECRET"),
        ("Interop", "headerKey", "HEADER-SECRET"),
        ("Interop", "cookieKey", "cookie secret;="),
        ("Interop", "basic", "dXNlcjpwYXNz"),
        ("Interop", "bearer", "BEARER-TOKEN"),
        ("Other", "queryKey", "OTHER-OIS-SECRET"),
    ];
    let secured = |id, schemes: &[&str], parameters: Value, metadata: Option<Metadata>| RequestCase {
        id,
        ois: with_security(schemes),
        endpoint: "getItem",
        parameters,
        credentials: creds.clone(),
        metadata,
        mode: Mode::Node,
    };
    let mut cases = vec![
        case("path and query", "getItem", json!({"itemId": "42", "limit": "10"})),
        case("defaults applied", "getItem", json!({"itemId": "1"})),
        case("requester overrides default", "getItem", json!({"itemId": "1", "query": "mine"})),
        case("unknown parameter ignored", "getItem", json!({"itemId": "1", "unknownParam": "x"})),
        case("API name instead of endpoint name", "getItem", json!({"itemId": "1", "q": "raw"})),
        case("no operationParameter ignored", "getItem", json!({"itemId": "1", "noTarget": "x"})),
        case("processing parameter ignored", "getItem", json!({"itemId": "1", "proc": "x"})),
        case("fixed overrides requester", "getItem", json!({"itemId": "1", "fixedNum": "7"})),
        case("array in query", "getItem", json!({"itemId": "1", "arr": ["a", "b", null, 3]})),
        case(
            "object in query",
            "getItem",
            json!({"itemId": "1", "obj": {"x": {"y": 1}, "z": [1, {"w": 2}], "n": null}}),
        ),
        case("null dropped", "getItem", json!({"itemId": "1", "limit": null})),
        case("empty string kept", "getItem", json!({"itemId": "1", "limit": ""})),
        case("encoding of specials", "getItem", json!({"itemId": "1", "limit": "x&y=z :$,+~!*'()"})),
        case("unicode value", "getItem", json!({"itemId": "1", "limit": "préço €"})),
        case("booleans and numbers", "getItem", json!({"itemId": "1", "limit": 2.5, "query": true})),
        case("path value with slash and query", "getItem", json!({"itemId": "a/b c?d"})),
        case("path value with hash", "getItem", json!({"itemId": "a#frag"})),
        case("path value number", "getItem", json!({"itemId": 7})),
        case("path value missing", "getItem", json!({})),
        case("path value empty", "getItem", json!({"itemId": ""})),
        case("path value zero", "getItem", json!({"itemId": 0})),
        case("path value with $&", "getItem", json!({"itemId": "x$&y"})),
        case("path value with $$", "getItem", json!({"itemId": "x$$y"})),
        case("cookie from requester", "getItem", json!({"itemId": "1", "session": "sess ion;1"})),
        case("Cookie header from requester", "getItem", json!({"itemId": "1", "cookieHeader": "raw=1"})),
        case("header from requester", "getItem", json!({"itemId": "1", "custom": "v"})),
        case("reserved names removed", "getItem", json!({"itemId": "1", "_type": "bool", "_path": "a"})),
        case("fixed path parameter", "pair", json!({"a": "btc"})),
        case("fixed path parameter wins", "pair", json!({"a": "btc", "b": "eur"})),
        case("post body", "postItem", json!({"itemId": "1", "query": "q", "arr": [1, 2], "obj": {"a": {"b": null}}})),
        case("post header", "postItem", json!({"itemId": "1", "custom": "h"})),
        case("unknown endpoint", "nope", json!({})),
        secured("apiKey in query overrides requester", &["queryKey"], json!({"itemId": "1", "key": "mine"}), None),
        secured("apiKey in header", &["headerKey"], json!({"itemId": "1"}), None),
        secured(
            "apiKey in cookie with requester cookie",
            &["cookieKey"],
            json!({"itemId": "1", "session": "s", "cookieHeader": "raw"}),
            None,
        ),
        secured("basic", &["basic"], json!({"itemId": "1"}), None),
        secured("bearer", &["bearer"], json!({"itemId": "1"}), None),
        secured("basic then bearer", &["basic", "bearer"], json!({"itemId": "1"}), None),
        secured(
            "relay schemes with metadata",
            &["chainId", "chainType", "requester", "sponsor", "wallet", "requestId"],
            json!({"itemId": "1"}),
            Some(all_metadata()),
        ),
        secured(
            "relay schemes with partial metadata",
            &["chainId", "chainType", "requester", "sponsor", "wallet", "requestId"],
            json!({"itemId": "1"}),
            Some(Metadata { chain_id: Some("31337".into()), ..Metadata::default() }),
        ),
        secured(
            "relay schemes without metadata",
            &["chainId", "chainType", "requester", "sponsor", "wallet"],
            json!({"itemId": "1"}),
            None,
        ),
        secured(
            "everything",
            &["queryKey", "headerKey", "cookieKey", "basic", "chainId", "wallet"],
            json!({"itemId": "a/b", "session": "x"}),
            Some(all_metadata()),
        ),
    ];
    let mut feed = secured(
        "feed mode: no defaults, unfiltered credentials",
        &["queryKey"],
        json!({"itemId": "1", "_type": "int256"}),
        None,
    );
    feed.mode = Mode::Feed;
    feed.credentials = vec![("Other", "queryKey", "OTHER-OIS-SECRET"), ("Interop", "queryKey", "QUERY-SECRET")];
    cases.push(feed);
    let mut filtered =
        secured("node mode: credentials of another OIS ignored", &["queryKey"], json!({"itemId": "1"}), None);
    filtered.credentials = vec![("Other", "queryKey", "OTHER-OIS-SECRET")];
    cases.push(filtered);
    let mut post = secured(
        "post with credentials and relay",
        &["queryKey", "headerKey", "chainId"],
        json!({"itemId": "1", "query": "q"}),
        Some(all_metadata()),
    );
    post.endpoint = "postItem";
    cases.push(post);
    let numbers =
        json!({"big": 12345678901234567891_u64, "e21": 1e21, "tiny": 1.5e-7, "negZero": -0.0, "fraction": 0.1});
    cases.push(case(
        "numbers as JavaScript holds them (query)",
        "getItem",
        json!({"itemId": "1", "obj": numbers, "limit": 9007199254740993_u64}),
    ));
    cases.push(case("numbers as JavaScript holds them (body)", "postItem", json!({"itemId": "1", "obj": numbers})));
    let indexed = json!({"b": 1, "10": 2, "a": {"z": 0, "1": 0}, "2": [{"y": 0, "0": 0}], "01": 4});
    cases.push(case("index-like keys first (query)", "getItem", json!({"itemId": "1", "obj": indexed})));
    cases.push(case("index-like keys first (body)", "postItem", json!({"itemId": "1", "obj": indexed})));
    let mut numbered =
        case("index-like parameter names", "numbered", json!({"hx": "x", "b": "b", "h7": "7", "2": "two", "1": "one"}));
    numbered.ois["apiSpecifications"]["paths"]["/numbered"] = json!({"get": {"parameters": [
        {"in": "query", "name": "b"}, {"in": "query", "name": "2"}, {"in": "query", "name": "1"},
        {"in": "header", "name": "X"}, {"in": "header", "name": "7"}
    ]}});
    numbered.ois["endpoints"].as_array_mut().unwrap().push(json!({
        "name": "numbered", "operation": {"method": "get", "path": "/numbered"},
        "fixedOperationParameters": [], "reservedParameters": [{"name": "_type"}],
        "parameters": [
            {"name": "b", "operationParameter": {"in": "query", "name": "b"}},
            {"name": "2", "operationParameter": {"in": "query", "name": "2"}},
            {"name": "1", "operationParameter": {"in": "query", "name": "1"}},
            {"name": "hx", "operationParameter": {"in": "header", "name": "X"}},
            {"name": "h7", "operationParameter": {"in": "header", "name": "7"}}
        ]
    }));
    cases.push(numbered);
    // Odd placeholder shapes: the node replaces each whole `{…}` match, named with its braces trimmed.
    for (label, path, names) in [
        ("path with doubled braces", "/odd/{{id}}", vec!["id"]),
        ("path with a brace inside a placeholder", "/odd/{a{b}/{c}", vec!["a{b", "c"]),
        ("path with empty braces", "/odd/{}/{c}", vec!["c"]),
        ("path with one placeholder twice", "/odd/{c}/{c}", vec!["c"]),
    ] {
        let mut odd = case(label, "odd", json!({"c": "C", "id": "I", "a{b": "AB"}));
        let parameters: Vec<Value> = names.iter().map(|n| json!({"in": "path", "name": n})).collect();
        odd.ois["apiSpecifications"]["paths"][path] = json!({"get": {"parameters": parameters}});
        let mapped: Vec<Value> =
            names.iter().map(|n| json!({"name": n, "operationParameter": {"in": "path", "name": n}})).collect();
        odd.ois["endpoints"].as_array_mut().unwrap().push(json!({
            "name": "odd", "operation": {"method": "get", "path": path},
            "fixedOperationParameters": [], "reservedParameters": [{"name": "_type"}], "parameters": mapped
        }));
        cases.push(odd);
    }
    let mut slash = case("trailing slash on the server", "getItem", json!({"itemId": "1"}));
    slash.ois["apiSpecifications"]["servers"][0]["url"] = json!("http://localhost:5000/api/");
    cases.push(slash);
    cases
}

fn response_cases() -> Vec<(&'static str, Value, Value)> {
    let data = json!({
        "price": "123.456789", "neg": -7.9, "str": "hello", "long": "a".repeat(40), "dotted.key": 5, "comma,key": 6,
        "strs": ["a", "b"], "nums": ["1", "2.5", 3], "bools": [1, 0], "big": "1e30", "hex": "0x1f",
        "addr": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "badAddr": "0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "bytes": "0xdeadbeef", "odd": "0x123", "b32": format!("0x{}", "11".repeat(32)), "nested": {"list": [{"v": 1}, {"v": 2.75}]},
        "flags": {"zero": "0", "false": "false", "num0": 0, "null": null, "yes": "yes"}, "grid": [[1, 2], [3, 4]],
        "huge": "x".repeat(17000), "obj": {"a": 1}, "bigInt": 12345678901234567891_u64, "tiny": 1.5e-7, "e21": 1e21
    });
    let r = |id, reserved: Value| (id, data.clone(), reserved);
    vec![
        r("int256 with times", json!({"_type": "int256", "_path": "price", "_times": "1000000"})),
        r("int256 truncates toward zero", json!({"_type": "int256", "_path": "neg", "_times": "1"})),
        r("int256 without times", json!({"_type": "int256", "_path": "price"})),
        r("uint256 negative fails", json!({"_type": "uint256", "_path": "neg"})),
        r("uint256 exponent string", json!({"_type": "uint256", "_path": "big", "_times": "1e18"})),
        r("uint256 hex string", json!({"_type": "uint256", "_path": "hex"})),
        r("bool from string", json!({"_type": "bool", "_path": "str"})),
        r("bool from '0'", json!({"_type": "bool", "_path": "flags.zero"})),
        r("bool from 'false'", json!({"_type": "bool", "_path": "flags.false"})),
        r("bool from 0", json!({"_type": "bool", "_path": "flags.num0"})),
        r("bytes32 from text fails", json!({"_type": "bytes32", "_path": "str"})),
        r("bytes32 from hex", json!({"_type": "bytes32", "_path": "b32"})),
        r("bytes from hex", json!({"_type": "bytes", "_path": "bytes"})),
        r("bytes odd length fails", json!({"_type": "bytes", "_path": "odd"})),
        r("address checksummed", json!({"_type": "address", "_path": "addr"})),
        r("address bad checksum fails", json!({"_type": "address", "_path": "badAddr"})),
        r("string from number", json!({"_type": "string", "_path": "price"})),
        r("string from object fails", json!({"_type": "string", "_path": "obj"})),
        r("string32 truncated", json!({"_type": "string32", "_path": "long"})),
        r("timestamp", json!({"_type": "timestamp"})),
        r("timestamp with path fails", json!({"_type": "timestamp", "_path": "price"})),
        r("escaped dot in path", json!({"_type": "int256", "_path": "dotted\\.key"})),
        r("escaped comma single fails", json!({"_type": "int256", "_path": "comma\\,key"})),
        r("escaped comma multiple", json!({"_type": "int256,int256", "_path": "comma\\,key,price"})),
        r("three values", json!({"_type": "int256,string,timestamp", "_path": "price,str,", "_times": "100,,"})),
        r("array index path", json!({"_type": "int256", "_path": "nested.list.1.v", "_times": "100"})),
        r("missing path fails", json!({"_type": "int256", "_path": "nope.deeper"})),
        r("int256 array with times", json!({"_type": "int256[]", "_path": "nums", "_times": "10"})),
        r("uint256 fixed array", json!({"_type": "uint256[2]", "_path": "nums"})),
        r("two-dimensional array", json!({"_type": "int256[][]", "_path": "grid"})),
        r("string array fails", json!({"_type": "string[]", "_path": "strs"})),
        r("invalid type", json!({"_type": "int8", "_path": "price"})),
        r("times with non-numeric type", json!({"_type": "string", "_path": "str", "_times": "10"})),
        r("count mismatch", json!({"_type": "int256,int256", "_path": "price"})),
        r("too large", json!({"_type": "string", "_path": "huge"})),
        r("whole response", json!({"_type": "string"})),
        r(
            "big integer as a double",
            json!({"_type": "string,int256,uint256", "_path": "bigInt,bigInt,bigInt", "_times": ",,1000"}),
        ),
        r("small number as text", json!({"_type": "string,int256", "_path": "tiny,tiny", "_times": ",1e9"})),
        r("1e21 as text", json!({"_type": "string,uint256", "_path": "e21,e21"})),
    ]
}

#[test]
fn requests_and_responses_match_the_adapter() {
    if !common::interop_installed("@api3/airnode-adapter") {
        return;
    }
    let requests = request_cases();
    let responses = response_cases();
    assert!(requests.len() >= 30 && responses.len() >= 15);
    // A field not given is absent (undefined to the adapter), not null.
    let metadata_json = |m: &Option<Metadata>| {
        m.as_ref().map(|m| {
            let fields = json!({"chainId": m.chain_id, "chainType": m.chain_type.clone().unwrap_or_else(|| "evm".into()),
                "requesterAddress": m.requester_address, "sponsorAddress": m.sponsor_address,
                "sponsorWalletAddress": m.sponsor_wallet_address, "requestId": m.request_id});
            Value::Object(fields.as_object().unwrap().iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (k.clone(), v.clone())).collect())
        })
    };
    let input = json!({
        "requests": requests.iter().map(|c| json!({
            "id": c.id, "ois": c.ois, "endpointName": c.endpoint, "parameters": c.parameters,
            "apiCredentials": c.credentials.iter().map(|(t, s, v)| json!({"oisTitle": t, "securitySchemeName": s, "securitySchemeValue": v})).collect::<Vec<_>>(),
            "metadata": metadata_json(&c.metadata), "mode": if c.mode == Mode::Feed { "feed" } else { "node" },
        })).collect::<Vec<_>>(),
        "responses": responses.iter().map(|(id, data, reserved)| json!({"id": id, "data": data, "reserved": reserved})).collect::<Vec<_>>(),
    });
    let theirs = run_node("adapter.js", &input);

    let mut differences = Vec::new();
    for (case, real) in requests.iter().zip(theirs["requests"].as_array().unwrap()) {
        let mut options = RequestOptions::new(case.endpoint);
        options.parameters = case.parameters.as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        options.credentials = case
            .credentials
            .iter()
            .map(|(t, s, v)| Credential { ois_title: (*t).into(), scheme: (*s).into(), value: (*v).into() })
            .collect();
        options.metadata = case.metadata.clone();
        options.mode = case.mode;
        let ours = match build(&case.ois, &options) {
            Ok(request) => {
                json!({"id": case.id, "method": request.method, "url": request.url, "headers": request.built_headers.unwrap_or(request.headers), "body": request.body})
            }
            Err(error) => json!({"id": case.id, "error": error.message}),
        };
        let same = match (ours.get("error"), real.get("error")) {
            (Some(a), Some(b)) => !case.id.starts_with("path value") || a == b,
            // As JSON.stringify writes them, so the order of keys and the numbers' text count too.
            (None, None) => js::stringify(&ours) == js::stringify(real),
            _ => false,
        };
        if !same {
            differences.push(format!("request {}:\n  ours   {ours}\n  theirs {real}", case.id));
        }
    }
    for ((id, data, reserved), real) in responses.iter().zip(theirs["responses"].as_array().unwrap()) {
        let ours = match response::extract_and_encode(data, reserved.as_object().unwrap(), 1_700_000_000) {
            Ok(preview) => json!({"id": id, "values": preview.values, "encoded": preview.encoded}),
            Err(error) => json!({"id": id, "error": error.message}),
        };
        let same = match (ours.get("error"), real.get("error")) {
            (Some(_), Some(_)) => true,
            (None, None) => ours == *real,
            _ => false,
        };
        if !same {
            differences.push(format!("response {id}:\n  ours   {ours}\n  theirs {real}"));
        }
    }
    if std::env::var_os("INTEROP_SHOW").is_some() {
        eprintln!("{}", serde_json::to_string_pretty(&theirs).unwrap());
    }
    let errors = |kind: &str| theirs[kind].as_array().unwrap().iter().filter(|r| r.get("error").is_some()).count();
    assert!(errors("requests") >= 5 && errors("responses") >= 10, "the cases should include failures the node reports");
    assert!(differences.is_empty(), "{} differences:\n{}", differences.len(), differences.join("\n"));
}

/// `String(number)` and `JSON.stringify(JSON.parse(text))` as node computes them, for thousands of
/// doubles (every exponent range), integers beyond 2^53, and objects with index-like keys.
#[test]
fn javascript_semantics_match_node() {
    if std::env::var_os("CI").is_none() && Command::new("node").arg("--version").output().is_err() {
        common::say_skipped("node is not installed");
        return;
    }
    let mut rng = common::Rng(0x9E37_79B9_7F4A_7C15);
    let mut next = move || rng.next();
    let mut numbers: Vec<String> = Vec::new();
    for _ in 0..3000 {
        let bits = next();
        let f = f64::from_bits(bits);
        if f.is_finite() {
            numbers.push(serde_json::Number::from_f64(f).unwrap().to_string());
        }
        // Doubles of every magnitude around the layout boundaries (1e-7 … 1e22).
        let scaled = (bits >> 11) as f64 / (1u64 << 53) as f64 * 10f64.powi((bits % 30) as i32 - 8);
        numbers.push(serde_json::Number::from_f64(scaled).unwrap().to_string());
        numbers.push((bits >> (bits % 64)).to_string());
        numbers.push(format!("-{}", bits >> 1));
    }
    numbers.extend(
        ["0", "-0", "0.1", "1e21", "1e-7", "123e-20", "5e-324", "1.7976931348623157e308", "9007199254740993"]
            .map(String::from),
    );
    let texts = [
        r#"{"b": 1, "10": 2, "a": {"z": 0, "1": 0}, "2": [{"y": 0, "0": 0}], "01": 4, "4294967294": 5, "4294967295": 6, "-1": 7}"#,
        r#"{"big": 12345678901234567891, "neg": -9223372036854775807, "e": 1e21, "tiny": 1.5e-7, "z": -0.0, "x": 0.30000000000000004}"#,
        r#"[{"2": {"1": [1e300, {"b": null, "0": true}]}, " 1": 0, "1 ": 0, "1.0": 0, "1": 0}]"#,
    ];
    let input = json!({"numbers": numbers, "texts": texts});
    let theirs = run_node("js.js", &input);

    let mut differences = Vec::new();
    for (literal, javascript) in numbers.iter().zip(theirs["numbers"].as_array().unwrap()) {
        let parsed: Value = serde_json::from_str(literal).unwrap();
        let ours = js::number(parsed.as_number().unwrap());
        if ours != javascript.as_str().unwrap() {
            differences.push(format!("String({literal}): ours {ours}, node {javascript}"));
        }
    }
    for (text, javascript) in texts.iter().zip(theirs["texts"].as_array().unwrap()) {
        let ours = js::stringify(&js::as_parsed(&serde_json::from_str(text).unwrap()));
        if ours != javascript.as_str().unwrap() {
            differences.push(format!("JSON.stringify(JSON.parse({text})):\n  ours {ours}\n  node {javascript}"));
        }
    }
    assert!(numbers.len() > 10_000, "the sample should be large");
    assert!(differences.is_empty(), "{} differences:\n{}", differences.len(), differences.join("\n"));
}

/// The value picker's paths, as the adapter reads them: every leaf of a response with keys holding
/// `.` and `,` (and numbers sent as strings), picked with its suggested `_type` and `_times`, alone
/// and (with its list form) as one value of two, encodes the same value in ours and the adapter's.
#[test]
fn the_picker_s_paths_read_what_the_adapter_reads() {
    if !common::interop_installed("@api3/airnode-adapter") {
        return;
    }
    let data = json!({
        "rates": {"EUR": "0.9512", "JPY": "151", "BTC.USD": 67123.45, "a,b": 2, "x.y,z": {"w": [1.25, "-3.5e-2"]}},
        "time_last_updated": 1_732_700_000, "base": "USD", "ok": true
    });
    let (leaves, _) = ois::request::paths::leaves(&data);
    let mut cases = Vec::new();
    for leaf in &leaves {
        let Some(kind) = leaf.suggested_type else { continue };
        let times = leaf.suggested_times.unwrap_or("");
        if let Some(path) = &leaf.path {
            cases.push(json!({"id": format!("{path} alone"), "data": data, "reserved": {"_type": kind, "_path": path, "_times": times}}));
        }
        let Some(listed) = leaf.path_in_list.as_ref().or(leaf.path.as_ref()) else { continue };
        cases.push(json!({"id": format!("{listed} in a list"), "data": data,
            "reserved": {"_type": format!("{kind},{kind}"), "_path": format!("{listed},{listed}"), "_times": format!("{times},{times}")}}));
    }
    assert!(cases.len() >= 14, "{cases:?}");
    // A key with a comma has no `_path` of one value (the adapter cannot read it), only a list form.
    let comma = leaves.iter().find(|l| l.value == json!(2)).unwrap();
    assert_eq!((comma.path.as_deref(), comma.path_in_list.as_deref()), (None, Some("rates.a\\,b")));
    let theirs = run_node("adapter.js", &json!({"requests": [], "responses": cases}));
    let mut differences = Vec::new();
    for (case, real) in cases.iter().zip(theirs["responses"].as_array().unwrap()) {
        let ours =
            match response::extract_and_encode(&case["data"], case["reserved"].as_object().unwrap(), 1_700_000_000) {
                Ok(preview) => json!({"id": case["id"], "values": preview.values, "encoded": preview.encoded}),
                Err(error) => json!({"id": case["id"], "error": error.message}),
            };
        if real.get("error").is_some() || ours != *real {
            differences.push(format!("{}:\n  ours   {ours}\n  theirs {real}", case["id"]));
        }
    }
    assert!(differences.is_empty(), "{} differences:\n{}", differences.len(), differences.join("\n"));
}
