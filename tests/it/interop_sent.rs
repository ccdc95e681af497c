//! `ois request` against what really goes on the wire: thousands of generated requests sent by
//! `@api3/airnode-adapter` 0.15 through axios 1.21.1 to a loopback server (tests/interop/sent.js).
//! The cases are generated from what axios treats specially: `__proto__`/`constructor`/
//! `prototype` keys at any depth, query names ending in `{}`, `[]` or spaces with arrays and
//! objects, array-like objects, header values with control characters, line breaks, non-Latin-1
//! characters and surrounding spaces, `null`/`false` header values, and header names that differ
//! only in case. URL, headers and body must be the same.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use serde_json::{Map, Value, json};

use common::{Rng, run_node};
use ois::request::{RequestOptions, build};

const QUERY_NAMES: &[&str] = &[
    "q",
    "k[]",
    "f{}",
    "group ",
    " lead",
    "__proto__",
    "constructor",
    "prototype",
    "a.b",
    "0",
    "10",
    "x y",
    "é",
    "length",
];
const KEYS: &[&str] = &["a", "constructor", "__proto__", "prototype", "0", "2", "b[]", " sp ", "length", "x{}", "c"];
const STRINGS: &[&str] = &["", "x", "a b", "é€", "a&b=c", ":$,", "[]", "{}", "+%"];
const HEADER_NAMES: &[&str] = &["X-A", "x-a", "X-B", "constructor", "Accept", "X-C"];
const HEADER_PIECES: &[&str] = &[" ", "\t", "v", "w", "\r\n", "\u{1}", "\u{7f}", "é", "€", "😀", "\u{85}", "\0"];

fn value(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth >= 3 { 5 } else { 9 }) {
        0 => Value::Null,
        1 => json!(rng.below(2) == 1),
        2 => json!(rng.below(100)),
        3 => json!([1.5, -0.25, 1e21][rng.below(3)]),
        4 => json!(rng.pick(STRINGS)),
        5 | 6 => (0..rng.below(4)).map(|_| value(rng, depth + 1)).collect(),
        7 => json!({"length": 2, "0": value(rng, depth + 1), "1": rng.pick(STRINGS)}),
        _ => {
            let mut object = Map::new();
            for _ in 0..rng.below(4) {
                object.insert(rng.pick(KEYS).to_owned(), value(rng, depth + 1));
            }
            Value::Object(object)
        }
    }
}

fn header_value(rng: &mut Rng) -> Value {
    match rng.below(8) {
        0 => Value::Null,
        1 => json!(false),
        2 => json!(rng.below(1000)),
        _ => json!((0..rng.below(6)).map(|_| rng.pick(HEADER_PIECES)).collect::<String>()),
    }
}

struct Case {
    ois: Value,
    parameters: Map<String, Value>,
}

fn case(rng: &mut Rng) -> Case {
    let method = if rng.below(3) == 0 { "post" } else { "get" };
    let mut targets: Vec<(&str, String)> = Vec::new();
    for _ in 0..1 + rng.below(4) {
        targets.push(("query", rng.pick(QUERY_NAMES).to_owned()));
    }
    for _ in 0..rng.below(3) {
        targets.push(("header", rng.pick(HEADER_NAMES).to_owned()));
    }
    if rng.below(4) == 0 {
        targets.push(("cookie", "session".to_owned()));
    }
    targets.dedup();
    let mut parameters = Map::new();
    let mut operation_parameters = Vec::new();
    let mut endpoint_parameters = Vec::new();
    for (index, (location, name)) in targets.iter().enumerate() {
        let endpoint_name = format!("p{index}");
        operation_parameters.push(json!({"in": location, "name": name}));
        endpoint_parameters.push(json!({"name": endpoint_name, "operationParameter": {"in": location, "name": name}}));
        let given = if *location == "header" { header_value(rng) } else { value(rng, 0) };
        parameters.insert(endpoint_name, given);
    }
    let ois = json!({
        "oisFormat": "2.3.2", "title": "Sent", "version": "1.0.0",
        "apiSpecifications": {
            "servers": [{"url": "https://api.example.com/v1"}],
            "paths": {"/x": {method: {"parameters": operation_parameters}}},
            "components": {"securitySchemes": {}}, "security": {}
        },
        "endpoints": [{
            "name": "e", "operation": {"method": method, "path": "/x"},
            "fixedOperationParameters": [], "reservedParameters": [{"name": "_type", "fixed": "int256"}],
            "parameters": endpoint_parameters
        }]
    });
    Case { ois, parameters }
}

/// What axios and the transport add on their own, compared only when the OIS sets them.
const CLIENT_HEADERS: &[&str] =
    &["accept", "user-agent", "accept-encoding", "host", "connection", "content-length", "content-type"];

fn ours(case: &Case) -> Value {
    let mut options = RequestOptions::new("e");
    options.parameters = case.parameters.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    match build(&case.ois, &options) {
        Ok(request) => {
            let headers: Map<String, Value> =
                request.headers.iter().map(|(name, value)| (name.to_lowercase(), value.clone())).collect();
            json!({"method": request.method, "url": request.url, "headers": headers, "body": request.body})
        }
        Err(error) => json!({"error": error.message}),
    }
}

fn theirs(real: &Value, ours: &Value) -> Value {
    if real.get("error").is_some() {
        return json!({"error": real["error"]});
    }
    let mut headers = Map::new();
    for pair in real["headers"].as_array().unwrap() {
        let name = pair[0].as_str().unwrap().to_lowercase();
        let ours_has = ours["headers"].get(&name).is_some();
        if CLIENT_HEADERS.contains(&name.as_str()) && !ours_has {
            continue;
        }
        let value = pair[1].as_str().unwrap();
        // Several lines of one name (an array value) read as one, joined.
        match headers.get_mut(&name) {
            Some(Value::String(existing)) => *existing = format!("{existing}, {value}"),
            _ => {
                headers.insert(name, json!(value));
            }
        }
    }
    let body = real["body"].as_str().filter(|b| !b.is_empty()).map(|b| serde_json::from_str::<Value>(b).unwrap());
    json!({"method": real["method"], "url": real["url"], "headers": headers, "body": body})
}

#[test]
fn requests_match_what_axios_sends() {
    if !common::interop_installed("@api3/airnode-adapter") {
        return;
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let cases: Vec<Case> = (0..1500).map(|_| case(&mut rng)).collect();
    let input: Vec<Value> = cases
        .iter()
        .enumerate()
        .map(|(id, c)| {
            json!({"id": id, "ois": c.ois, "endpointName": "e", "parameters": c.parameters, "apiCredentials": [],
                "metadata": null, "mode": "node"})
        })
        .collect();
    let Value::Array(real) = run_node("sent.js", &json!(input)) else { panic!("no results") };
    let mut errors = 0;
    let differences: Vec<String> = cases
        .iter()
        .zip(&real)
        .filter_map(|(case, real)| {
            let ours = ours(case);
            let theirs = theirs(real, &ours);
            let same = match (ours.get("error"), theirs.get("error")) {
                (Some(_), Some(_)) => {
                    errors += 1;
                    true
                }
                (None, None) => ours == theirs,
                _ => false,
            };
            (!same).then(|| {
                format!("parameters {}\n  ours:  {ours}\n  axios: {theirs}", Value::Object(case.parameters.clone()))
            })
        })
        .collect();
    assert!(errors < cases.len() / 10, "{errors} cases failed on both sides");
    assert!(
        differences.is_empty(),
        "{} of {} differ:\n{}",
        differences.len(),
        cases.len(),
        differences.iter().take(15).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Requester parameters as a command line gives them, `--param` and `--param-json` mixed, names
/// repeated: `ois request` must send them in the order and with the values the node's object
/// holds after assigning them one by one.
#[test]
fn command_line_parameters_keep_the_nodes_order() {
    if !common::interop_installed("@api3/airnode-adapter") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let names = ["a", "b", "c", "d"];
    let mut input = Vec::new();
    let mut ours = Vec::new();
    for id in 0..200 {
        let method = if rng.below(3) == 0 { "post" } else { "get" };
        let ois = json!({
            "oisFormat": "2.3.2", "title": "Order", "version": "1.0.0",
            "apiSpecifications": {
                "servers": [{"url": "https://api.example.com"}],
                "paths": {"/x": {method: {"parameters": names.map(|n| json!({"in": "query", "name": n}))}}},
                "components": {"securitySchemes": {}}, "security": {}
            },
            "endpoints": [{"name": "e", "operation": {"method": method, "path": "/x"}, "fixedOperationParameters": [],
                "reservedParameters": [{"name": "_type", "fixed": "int256"}],
                "parameters": names.map(|n| json!({"name": n, "operationParameter": {"in": "query", "name": n}}))}]
        });
        let file = dir.path().join(format!("{id}.json"));
        std::fs::write(&file, ois.to_string()).unwrap();
        let mut args: Vec<String> =
            vec!["request".into(), file.to_str().unwrap().into(), "--endpoint".into(), "e".into()];
        let mut assignments = Vec::new();
        for _ in 0..1 + rng.below(6) {
            let name = rng.pick(&names);
            let given = value(&mut rng, 1);
            if rng.below(2) == 0 {
                let text = text_of(&given);
                args.extend(["--param".into(), format!("{name}={text}")]);
                assignments.push(json!([name, text]));
            } else {
                args.extend(["--param-json".into(), format!("{name}={given}")]);
                assignments.push(json!([name, given]));
            }
        }
        args.extend(["--format".into(), "json".into()]);
        let output = common::ois().args(&args).output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        let request: Value = serde_json::from_slice(&output.stdout).unwrap();
        ours.push((args, json!({"url": request["url"], "body": request["body"]})));
        input.push(json!({"id": id, "ois": ois, "endpointName": "e", "assignments": assignments,
            "apiCredentials": [], "metadata": null, "mode": "node"}));
    }
    let Value::Array(real) = run_node("sent.js", &json!(input)) else { panic!("no results") };
    let differences: Vec<String> = ours
        .iter()
        .zip(&real)
        .filter_map(|((args, ours), real)| {
            let body =
                real["body"].as_str().filter(|b| !b.is_empty()).map(|b| serde_json::from_str::<Value>(b).unwrap());
            let theirs = json!({"url": real["url"], "body": body});
            (*ours != theirs).then(|| format!("{args:?}\n  ours:  {ours}\n  axios: {theirs}"))
        })
        .collect();
    assert!(differences.is_empty(), "{} of 200 differ:\n{}", differences.len(), differences.join("\n"));
}

/// A value as `--param` text: a string as it is, anything else as JSON.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// Airnode Feed with several OIS in one config.json: it takes the first credential with the
/// scheme's name whichever OIS it is for, so every credential's `${VAR}` must be filled.
#[test]
fn feed_mode_takes_any_ois_credential_filled() {
    if !common::interop_installed("@api3/airnode-adapter") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let secrets = dir.path().join("secrets.env");
    std::fs::write(&secrets, "KEY_A=alpha\nKEY_B='beta b'\nKEY_C=\"gam\\nma\"\n").unwrap();
    let values = [("KEY_A", "alpha"), ("KEY_B", "beta b"), ("KEY_C", "gam\nma")];
    let mut rng = Rng(0x0F0F_1234_5555_AAAA);
    let mut input = Vec::new();
    let mut ours = Vec::new();
    for id in 0..60 {
        let count = 1 + rng.below(3);
        let oises: Vec<Value> = (0..count)
            .map(|i| {
                json!({
                    "oisFormat": "2.3.2", "title": format!("Api{i}"), "version": "1.0.0",
                    "apiSpecifications": {
                        "servers": [{"url": "https://api.example.com"}],
                        "paths": {"/x": {"get": {"parameters": []}}},
                        "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": format!("X-Key-{i}")}}},
                        "security": {"key": []}
                    },
                    "endpoints": [{"name": "e", "operation": {"method": "get", "path": "/x"}, "fixedOperationParameters": [],
                        "reservedParameters": [{"name": "_type", "fixed": "int256"}], "parameters": []}]
                })
            })
            .collect();
        let mut credentials = Vec::new();
        let mut resolved = Vec::new();
        for _ in 0..1 + rng.below(4) {
            let title = format!("Api{}", rng.below(count));
            let (variable, secret) = values[rng.below(values.len())];
            credentials.push(json!({"oisTitle": title, "securitySchemeName": "key", "securitySchemeValue": format!("${{{variable}}}")}));
            resolved.push(json!({"oisTitle": title, "securitySchemeName": "key", "securitySchemeValue": secret}));
        }
        let chosen = rng.below(count);
        let config = dir.path().join(format!("{id}.json"));
        std::fs::write(&config, json!({"ois": oises, "apiCredentials": credentials}).to_string()).unwrap();
        let output = assert_cmd::Command::cargo_bin("ois")
            .unwrap()
            .args(["request", "--endpoint", "e", "--mode", "feed", "--show-secrets", "--format", "json"])
            .args(["--ois", &format!("Api{chosen}"), "--secrets"])
            .arg(&secrets)
            .arg(&config)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let request: Value = serde_json::from_slice(&output.stdout).unwrap();
        let headers: Map<String, Value> =
            request["headers"].as_object().unwrap().iter().map(|(k, v)| (k.to_lowercase(), v.clone())).collect();
        ours.push(Value::Object(headers));
        input.push(json!({"id": id, "ois": oises[chosen], "endpointName": "e", "parameters": {},
            "apiCredentials": resolved, "metadata": null, "mode": "feed"}));
    }
    let Value::Array(real) = run_node("sent.js", &json!(input)) else { panic!("no results") };
    for (ours, real) in ours.iter().zip(&real) {
        let theirs = theirs(real, &json!({"headers": ours}));
        assert_eq!(ours, &theirs["headers"], "{real}");
    }
}
