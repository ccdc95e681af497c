//! Processing as the node runs it, against `@api3/commons` itself (tests/interop/processing.js
//! calls `preProcessEndpointParameters` / `postProcessResponse`, as airnode-node 0.15 and Airnode
//! Feed do): for every case, both of our engines must give the same value (JSON text, key order
//! included) and timestamp, or fail where commons fails. The cases: hand-written ones for each
//! rule (V1 chains, `Node async`, V2 sync and async, reserved parameters, timestamps, throws,
//! timeouts, wrong shapes, unicode, big numbers), and every processing snippet of
//! `../shared/examples/ois` with the parameters it was written for.
//!
//! The one difference allowed: a snippet that uses a Node.js module (`crypto`, `fs`, …) fails in
//! the embedded sandbox with REQ035 by design.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)] // tests fail by panicking

use crate::common;

use serde_json::{Map, Value, json};

use ois::processing::{Commons, EndpointProcessing, Engine, FailureKind, Processed, post_process, pre_process};

struct Case {
    name: String,
    endpoint: Value,
    phase: &'static str,
    parameters: Value,
    response: Value,
}

fn v1(phase: &'static str, snippets: &[(&str, &str)], parameters: Value, response: Value) -> (Value, Value, Value) {
    let list: Vec<Value> =
        snippets.iter().map(|(env, code)| json!({"environment": env, "value": code, "timeoutMs": 400})).collect();
    (json!({format!("{phase}ProcessingSpecifications"): list}), parameters, response)
}

fn v2(phase: &'static str, code: &str, parameters: Value, response: Value) -> (Value, Value, Value) {
    let spec = json!({"environment": "Node", "value": code, "timeoutMs": 400});
    (json!({format!("{phase}ProcessingSpecificationV2"): spec}), parameters, response)
}

/// Hand-written cases: (name, phase, (endpoint, parameters, response)).
fn written() -> Vec<Case> {
    let p = json!({"name": "BTC/USD", "amount": "12", "_type": "int256", "_path": "price"});
    let r = json!({"price": 61234.5, "list": [1, 2, 3], "nested": {"a": {"b": "c"}}});
    let list: Vec<(&str, &'static str, (Value, Value, Value))> = vec![
        (
            "v1 sync map",
            "pre",
            v1("pre", &[("Node", "const output = { pair: input.name.replace('/', '') };")], p.clone(), r.clone()),
        ),
        (
            "v1 sync sees no reserved",
            "pre",
            v1(
                "pre",
                &[(
                    "Node",
                    "const output = { keys: Object.keys(input).join(','), ep: Object.keys(endpointParameters).join(',') };",
                )],
                p.clone(),
                r.clone(),
            ),
        ),
        (
            "v1 chain of three",
            "pre",
            v1(
                "pre",
                &[
                    ("Node", "const output = { ...input, step1: 1 };"),
                    ("Node async", "resolve({ ...input, step2: endpointParameters.amount * 2 });"),
                    ("Node", "const output = { ...input, step3: Object.keys(input).length };"),
                ],
                p.clone(),
                r.clone(),
            ),
        ),
        (
            "v1 snippets cannot change what the next sees",
            "pre",
            v1(
                "pre",
                &[
                    ("Node", "endpointParameters.name = 'changed'; const output = input;"),
                    ("Node", "const output = { ...input, seen: endpointParameters.name };"),
                ],
                p.clone(),
                r.clone(),
            ),
        ),
        ("v1 var output", "pre", v1("pre", &[("Node", "var output = { a: '1' };")], p.clone(), r.clone())),
        (
            "v1 implicit global output",
            "pre",
            v1("pre", &[("Node", "output = { a: 'implicit' };")], p.clone(), r.clone()),
        ),
        ("v1 no output", "pre", v1("pre", &[("Node", "const result = 1;")], p.clone(), r.clone())),
        ("v1 output a number", "pre", v1("pre", &[("Node", "const output = 5;")], p.clone(), r.clone())),
        ("v1 output an array", "pre", v1("pre", &[("Node", "const output = [1, 2];")], p.clone(), r.clone())),
        ("v1 output null", "pre", v1("pre", &[("Node", "const output = null;")], p.clone(), r.clone())),
        (
            "v1 output with undefined values",
            "pre",
            v1("pre", &[("Node", "const output = { a: undefined, b: '2' };")], p.clone(), r.clone()),
        ),
        ("v1 throws", "pre", v1("pre", &[("Node", "throw new Error('bad pair');")], p.clone(), r.clone())),
        ("v1 syntax error", "pre", v1("pre", &[("Node", "const output = {;")], p.clone(), r.clone())),
        ("v1 infinite loop", "pre", v1("pre", &[("Node", "while (true) {}")], p.clone(), r.clone())),
        (
            "v1 require",
            "pre",
            v1("pre", &[("Node", "const x = require('fs'); const output = {};")], p.clone(), r.clone()),
        ),
        (
            "v1 async via timer",
            "pre",
            v1("pre", &[("Node async", "setTimeout(() => resolve({ late: true }), 20);")], p.clone(), r.clone()),
        ),
        ("v1 async reject", "pre", v1("pre", &[("Node async", "reject(new Error('no'));")], p.clone(), r.clone())),
        ("v1 async never resolves", "pre", v1("pre", &[("Node async", "const x = 1;")], p.clone(), r.clone())),
        ("v1 async throws", "pre", v1("pre", &[("Node async", "null.x;")], p.clone(), r.clone())),
        (
            "v1 async resolve twice",
            "pre",
            v1("pre", &[("Node async", "resolve({ first: 1 }); resolve({ second: 2 });")], p.clone(), r.clone()),
        ),
        ("v1 post extract", "post", v1("post", &[("Node", "const output = input.price * 2;")], p.clone(), r.clone())),
        (
            "v1 post chain",
            "post",
            v1(
                "post",
                &[
                    ("Node", "const output = input.list.map((x) => x * 10);"),
                    ("Node async", "resolve(input.reduce((a, b) => a + b, 0) + Number(endpointParameters.amount));"),
                ],
                p.clone(),
                r.clone(),
            ),
        ),
        ("v1 post undefined", "post", v1("post", &[("Node", "const output = input.missing;")], p.clone(), r.clone())),
        (
            "v1 post big number",
            "post",
            v1(
                "post",
                &[("Node", "const output = { v: input.big * 3, s: String(input.big) };")],
                p.clone(),
                json!({"big": 12_345_678_901_234_567_890_u64}),
            ),
        ),
        (
            "v2 pre map",
            "pre",
            v2(
                "pre",
                "({ endpointParameters }) => ({ endpointParameters: { path: endpointParameters.name.toLowerCase(), ...{ q: '1' } } })",
                p.clone(),
                r.clone(),
            ),
        ),
        (
            "v2 pre async",
            "pre",
            v2(
                "pre",
                "async ({ endpointParameters }) => { await null; return { endpointParameters: { n: endpointParameters.name } }; }",
                p.clone(),
                r.clone(),
            ),
        ),
        (
            "v2 pre returns reserved",
            "pre",
            v2(
                "pre",
                "({ endpointParameters }) => ({ endpointParameters: { _type: 'uint256', _times: '100', x: '1' } })",
                p.clone(),
                r.clone(),
            ),
        ),
        (
            "v2 pre extra keys",
            "pre",
            v2("pre", "() => ({ endpointParameters: { a: '1' }, other: 2 })", p.clone(), r.clone()),
        ),
        ("v2 pre bare value", "pre", v2("pre", "() => 5", p.clone(), r.clone())),
        (
            "v2 pre parameters not an object",
            "pre",
            v2("pre", "() => ({ endpointParameters: 'x' })", p.clone(), r.clone()),
        ),
        ("v2 pre not a function", "pre", v2("pre", "42", p.clone(), r.clone())),
        (
            "v2 pre timer",
            "pre",
            v2(
                "pre",
                "() => new Promise((resolve) => setTimeout(() => resolve({ endpointParameters: { t: 1 } }), 15))",
                p.clone(),
                r.clone(),
            ),
        ),
        (
            "v2 pre timer too late",
            "pre",
            v2(
                "pre",
                "() => new Promise((resolve) => setTimeout(() => resolve({ endpointParameters: {} }), 5000))",
                p.clone(),
                r.clone(),
            ),
        ),
        ("v2 post value", "post", v2("post", "({ response }) => ({ response: response.price })", p.clone(), r.clone())),
        (
            "v2 post timestamp",
            "post",
            v2(
                "post",
                "({ response }) => ({ response: response.nested.a.b, timestamp: 1700000000 })",
                p.clone(),
                r.clone(),
            ),
        ),
        (
            "v2 post timestamp negative",
            "post",
            v2("post", "() => ({ response: 1, timestamp: -1 })", p.clone(), r.clone()),
        ),
        (
            "v2 post timestamp fraction",
            "post",
            v2("post", "() => ({ response: 1, timestamp: 1.5 })", p.clone(), r.clone()),
        ),
        (
            "v2 post timestamp text",
            "post",
            v2("post", "() => ({ response: 1, timestamp: '1700000000' })", p.clone(), r.clone()),
        ),
        ("v2 post bare value", "post", v2("post", "({ response }) => response.price", p.clone(), r.clone())),
        ("v2 post no response key", "post", v2("post", "() => ({ timestamp: 5 })", p.clone(), r.clone())),
        ("v2 post throws", "post", v2("post", "({ response }) => response.missing.deeper", p.clone(), r.clone())),
        ("v2 post rejects", "post", v2("post", "async () => { throw new TypeError('nope'); }", p.clone(), r.clone())),
        ("v2 post infinite loop", "post", v2("post", "() => { for (;;) {} }", p.clone(), r.clone())),
        (
            "v2 post sees parameters",
            "post",
            v2(
                "post",
                "({ response, endpointParameters }) => ({ response: Object.keys(endpointParameters).join(',') + ':' + response.price })",
                p.clone(),
                r.clone(),
            ),
        ),
        (
            "v2 post unicode",
            "post",
            v2(
                "post",
                "({ response }) => ({ response: { 'ключ': response.text + ' — 😀', len: response.text.length } })",
                p.clone(),
                json!({"text": "ü€😀\u{2028}"}),
            ),
        ),
        (
            "v2 post big integer text",
            "post",
            v2(
                "post",
                "({ response }) => ({ response: (BigInt(response.wei) * 2n).toString() })",
                p.clone(),
                json!({"wei": "123456789012345678901234567890"}),
            ),
        ),
        (
            "v2 post big number",
            "post",
            v2("post", "({ response }) => ({ response: response.n * 10 })", p.clone(), json!({"n": 1e300})),
        ),
        (
            "v2 post tiny number",
            "post",
            v2("post", "({ response }) => ({ response: response.n / 3 })", p.clone(), json!({"n": 1e-300})),
        ),
        (
            "v2 post integer keys",
            "post",
            v2("post", "() => ({ response: { b: 1, 10: 2, a: 3, 2: 4 } })", p.clone(), r.clone()),
        ),
        ("v2 post Date", "post", v2("post", "() => ({ response: new Date(0).toISOString() })", p.clone(), r.clone())),
        (
            "v2 post eval",
            "post",
            v2(
                "post",
                "({ response }) => { const f = eval('(r) => r.list.length'); return { response: f(response) }; }",
                p.clone(),
                r.clone(),
            ),
        ),
        (
            "v2 post json",
            "post",
            v2(
                "post",
                "({ response }) => ({ response: JSON.parse(JSON.stringify(response)).nested })",
                p.clone(),
                r.clone(),
            ),
        ),
        (
            "v2 post sort and math",
            "post",
            v2(
                "post",
                "({ response }) => ({ response: [3, 1, 2].sort().concat([Math.max(...response.list), (0.1 + 0.2)]) })",
                p.clone(),
                r.clone(),
            ),
        ),
        (
            "v2 post regexp",
            "post",
            v2("post", "() => ({ response: 'BTC/USD'.match(/^([A-Z]+)\\/([A-Z]+)$/).slice(1) })", p.clone(), r.clone()),
        ),
        (
            "node module crypto",
            "post",
            v2(
                "post",
                "() => ({ response: crypto.createHash('sha256').update('x').digest('hex') })",
                p.clone(),
                r.clone(),
            ),
        ),
        (
            "node module Buffer",
            "post",
            v2("post", "() => ({ response: buffer.Buffer.from('hi').toString('base64') })", p.clone(), r.clone()),
        ),
    ];
    list.into_iter()
        .map(|(name, phase, (endpoint, parameters, response))| Case {
            name: name.to_owned(),
            endpoint,
            phase,
            parameters,
            response,
        })
        .collect()
}

/// Every processing snippet of the example OIS files, with parameters it was written for.
fn examples() -> Vec<Case> {
    let dir = common::shared_dir().join("examples/ois");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut cases = Vec::new();
    for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "json")) {
        let ois: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let file_name = file.file_name().unwrap().to_string_lossy().into_owned();
        for endpoint in ois["endpoints"].as_array().into_iter().flatten() {
            let processing: Map<String, Value> = endpoint
                .as_object()
                .unwrap()
                .iter()
                .filter(|(k, _)| k.contains("rocessingSpecification"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if processing.is_empty() {
                continue;
            }
            let source: Vec<&str> = processing.values().filter_map(|v| v["value"].as_str()).collect();
            let mut names = common::table_names(&source.join("\n"));
            // A handful of names per file keeps the run short; the first, the last and some between.
            if names.len() > 6 {
                let step = names.len() / 5;
                names = names.iter().step_by(step).cloned().chain(names.last().cloned()).collect();
            }
            let parameters: Vec<Value> = if names.is_empty() {
                // Written for a unix timestamp (coingecko-history-preprocessing).
                vec![json!({"unixTimestamp": "1700000000", "coinId": "bitcoin", "_type": "int256"})]
            } else {
                names.iter().map(|n| json!({"name": n, "_type": "int256"})).collect()
            };
            for parameters in parameters {
                for phase in ["pre", "post"] {
                    if !processing.keys().any(|k| k.starts_with(phase)) {
                        continue;
                    }
                    // Post-processing tables pick a field of the response; give them one of each
                    // shape they read, and let both sides fail alike where it does not fit.
                    let response = json!({"price": 1.5, "rate": 2.5, "value": 3.5, "a": 1, "b": 2,
                        "quote": {"USD": 4.5}, "data": [{"price": 5.5}], "rates": {"USD": 6.5}});
                    cases.push(Case {
                        name: format!("{file_name} {} {phase} {}", endpoint["name"], parameters),
                        endpoint: Value::Object(processing.clone()),
                        phase,
                        parameters: parameters.clone(),
                        response,
                    });
                }
            }
        }
    }
    cases
}

fn ours(engine: &Engine, case: &Case) -> Result<Processed, FailureKind> {
    let processing = EndpointProcessing::of(&case.endpoint, "/endpoints/0");
    let parameters = case.parameters.as_object().unwrap();
    match case.phase {
        "pre" => pre_process(engine, &processing, parameters),
        _ => post_process(engine, &processing, &case.response, parameters),
    }
    .map_err(|f| f.kind)
}

fn compare(cases: &[Case]) -> usize {
    let input: Vec<Value> = cases
        .iter()
        .map(|c| json!({"endpoint": c.endpoint, "phase": c.phase, "parameters": c.parameters, "response": c.response}))
        .collect();
    let theirs = common::run_node("processing.js", &Value::Array(input));
    let theirs = theirs.as_array().unwrap();
    assert_eq!(theirs.len(), cases.len());
    let node = std::process::Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let mut engines = vec![("embedded", Engine::Embedded)];
    if node {
        engines.push(("node", Engine::Node { program: None }));
    }
    let mut differences = Vec::new();
    let mut compared = 0;
    for (case, expected) in cases.iter().zip(theirs) {
        for (engine_name, engine) in &engines {
            compared += 1;
            let got = ours(engine, case);
            let same = match (&got, expected["ok"].as_bool().unwrap()) {
                (Ok(processed), true) => {
                    let value = processed.value.as_ref().map(|v| serde_json::to_string(v).unwrap());
                    let expected_value = expected["value"]
                        .as_str()
                        .map(|t| serde_json::to_string(&serde_json::from_str::<Value>(t).unwrap()).unwrap());
                    value == expected_value && processed.timestamp == expected["timestamp"].as_u64()
                }
                (Err(_), false) => true,
                // The sandbox has no Node.js modules, on purpose.
                (Err(FailureKind::NodeBuiltin), true) => *engine_name == "embedded",
                _ => false,
            };
            if !same {
                differences.push(format!("{} [{engine_name}]: ours {got:?}, commons {expected}", case.name));
            }
        }
    }
    assert!(differences.is_empty(), "{} of {compared} differ:\n{}", differences.len(), differences.join("\n"));
    compared
}

#[test]
fn written_cases_match_commons() {
    if !common::interop_installed("@api3/commons") {
        return;
    }
    let cases = written();
    assert!(cases.len() >= 40, "{} cases", cases.len());
    compare(&cases);
}

#[test]
fn example_snippets_match_commons() {
    if !common::interop_installed("@api3/commons") {
        return;
    }
    let cases = examples();
    assert!(cases.len() >= 40, "{} cases", cases.len());
    compare(&cases);
}

/// Processing as each generation's `@api3/commons` runs it: Airnode 0.15's, Airnode Feed 3.3's
/// (0.x) and Airnode Feed 4.6's (1.x: its import paths and error wording moved, and with zod 4 a V2
/// post-processing result must hold `response`). Our embedded engine, told the generation
/// (`Commons::for_ois`: OIS 3.0.x is Feed 4's), succeeds or fails on every written and example
/// case as that generation does, with the same value and timestamp.
#[test]
fn every_generation_of_commons_is_matched() {
    if !common::interop_installed("@api3/commons") {
        return;
    }
    let cases: Vec<Case> = written().into_iter().chain(examples()).collect();
    let input: Vec<Value> = cases
        .iter()
        .map(|c| json!({"endpoint": c.endpoint, "phase": c.phase, "parameters": c.parameters, "response": c.response}))
        .collect();
    let generations = common::commons_generations();
    for (label, from) in &generations {
        let commons = if label.contains("4.6.0") { Commons::V1 } else { Commons::V0 };
        let theirs = common::run_node_with("processing.js", &Value::Array(input.clone()), from.as_deref());
        let mut differing = Vec::new();
        for (case, expected) in cases.iter().zip(theirs.as_array().unwrap()) {
            let mut processing = EndpointProcessing::of(&case.endpoint, "/endpoints/0");
            processing.commons = commons;
            let parameters = case.parameters.as_object().unwrap();
            let got = match case.phase {
                "pre" => pre_process(&Engine::Embedded, &processing, parameters),
                _ => post_process(&Engine::Embedded, &processing, &case.response, parameters),
            };
            let ours = match &got {
                Ok(processed) => (
                    json!(true),
                    processed.value.as_ref().map_or(Value::Null, |v| json!(serde_json::to_string(v).unwrap())),
                    processed.timestamp.map_or(Value::Null, |t| json!(t)),
                ),
                Err(_) => (json!(false), Value::Null, Value::Null),
            };
            // A Node.js module the sandbox does not give is a refusal of its own (REQ035).
            if got.as_ref().is_err_and(|f| f.kind == FailureKind::NodeBuiltin) {
                continue;
            }
            let theirs = (expected["ok"].clone(), expected["value"].clone(), expected["timestamp"].clone());
            // Their value is JSON text; ours compared as parsed JSON.
            let same_value = match (ours.1.as_str(), theirs.1.as_str()) {
                (Some(a), Some(b)) => serde_json::from_str::<Value>(a).ok() == serde_json::from_str::<Value>(b).ok(),
                _ => ours.1 == theirs.1,
            };
            if ours.0 != theirs.0 || !same_value || ours.2 != theirs.2 {
                differing.push(format!("{}: ours {ours:?}, theirs {expected}", case.endpoint));
            }
        }
        assert!(differing.is_empty(), "{label}: {} case(s) differ:\n{}", differing.len(), differing.join("\n"));
    }
    assert!(generations.len() >= 3 || std::env::var_os("CI").is_none(), "every generation ran under CI");
}
