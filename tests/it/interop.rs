//! Our OIS verdicts against the real `@api3/ois` 2.3.2 and 3.0.0 (tests/interop, run with node):
//! every rule broken once in both formats, plus every OIS the converter writes for samples/ and the
//! corpus. Verdicts must be equal, except where our documented stricter rules (the format text's)
//! reject what the real library accepts.
//!
//! Needs `npm ci --prefix tests/interop` (.ci/run does it). Without it the test is skipped with a
//! message, except under CI, where that is a failure.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use std::path::Path;

use indexmap::IndexSet;
use serde_json::{Value, json};

use common::{edit, run_node};

use ois::Source;
use ois::{Code, Severity};
use ois::{ConvertOptions, convert};

/// Our rules that are stricter than `@api3/ois` on purpose (README: "stricter than the real tools").
const STRICTER: &[Code] =
    &[Code::ServerCount, Code::ServerNotAbsoluteHttp, Code::DuplicateEndpointName, Code::UnderscoreParameterName];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn base(format: &str) -> Value {
    json!({
        "oisFormat": format, "title": "Interop base", "version": "1.0.0",
        "apiSpecifications": {
            "servers": [{"url": "https://api.example.com/v1"}],
            "paths": {
                "/items/{id}": {"get": {"parameters": [{"in": "path", "name": "id"}, {"in": "query", "name": "q"}, {"in": "header", "name": "X-H"}]}},
                "/items": {"post": {"parameters": [{"in": "query", "name": "name"}]}}
            },
            "components": {"securitySchemes": {
                "key": {"type": "apiKey", "in": "query", "name": "api_key"},
                "chain": {"type": "relayChainId", "in": "header", "name": "X-Chain"}
            }},
            "security": {"key": [], "chain": []}
        },
        "endpoints": [
            {
                "name": "item",
                "operation": {"method": "get", "path": "/items/{id}"},
                "fixedOperationParameters": [{"operationParameter": {"in": "query", "name": "q"}, "value": "x"}],
                "reservedParameters": [{"name": "_type", "fixed": "int256"}, {"name": "_path", "default": "price"}, {"name": "_times"}],
                "parameters": [
                    {"name": "id", "operationParameter": {"in": "path", "name": "id"}, "required": true, "description": "d", "example": "e", "default": "f"},
                    {"name": "header", "operationParameter": {"in": "header", "name": "X-H"}}
                ],
                "summary": "s", "description": "d", "externalDocs": "https://docs.example.com"
            },
            {
                "name": "create",
                "operation": {"method": "post", "path": "/items"},
                "fixedOperationParameters": [],
                "reservedParameters": [{"name": "_type"}],
                "parameters": [{"name": "name", "operationParameter": {"in": "query", "name": "name"}}]
            }
        ]
    })
}

const EP: &str = "/endpoints/0";
const API: &str = "/apiSpecifications";
const OP: &str = "/apiSpecifications/paths/~1items~1{id}/get/parameters";

/// A change to the base document: set (or add) the value at a pointer, or remove it (`None`).
type Edit = (String, Option<Value>);

/// (name, edits): each case breaks (or deliberately keeps) one rule.
fn mutations() -> Vec<(&'static str, Vec<Edit>)> {
    let set = |p: &str, v: Value| (p.to_owned(), Some(v));
    let del = |p: &str| (p.to_owned(), None);
    let ep = |rest: &str| format!("{EP}{rest}");
    let api = |rest: &str| format!("{API}{rest}");
    let op = |rest: &str| format!("{OP}{rest}");
    let v2 = json!({"environment": "Node", "value": "async ({response}) => ({response})", "timeoutMs": 5000});
    vec![
        ("valid base", vec![]),
        ("missing oisFormat", vec![del("/oisFormat")]),
        ("missing title", vec![del("/title")]),
        ("missing version", vec![del("/version")]),
        ("missing apiSpecifications", vec![del("/apiSpecifications")]),
        ("missing endpoints", vec![del("/endpoints")]),
        ("extra root key", vec![set("/description", json!("x"))]),
        ("oisFormat 1.0.0", vec![set("/oisFormat", json!("1.0.0"))]),
        ("oisFormat number", vec![set("/oisFormat", json!(3))]),
        ("title with a dot", vec![set("/title", json!("Probe.API"))]),
        ("title 65 characters", vec![set("/title", json!("a".repeat(65)))]),
        ("title empty", vec![set("/title", json!(""))]),
        ("title with tab", vec![set("/title", json!("tab\there"))]),
        ("title non-ASCII", vec![set("/title", json!("Café"))]),
        // JavaScript's `\s` has U+FEFF and U+00A0 but not U+0085: the title rule and the
        // schema's pattern must both read it so.
        ("title with BOM", vec![set("/title", json!("a\u{feff}b"))]),
        ("title with NBSP", vec![set("/title", json!("a\u{a0}b"))]),
        ("title with NEL", vec![set("/title", json!("a\u{85}b"))]),
        ("title with line separator", vec![set("/title", json!("a\u{2028}b"))]),
        ("version v1", vec![set("/version", json!("v1.0.0"))]),
        ("version with empty part", vec![set("/version", json!("1.0."))]),
        ("version leading zero", vec![set("/version", json!("01.2.3"))]),
        ("version pre-release", vec![set("/version", json!("1.0.0-beta"))]),
        ("extra apiSpecifications key", vec![set(&api("/info"), json!({}))]),
        ("servers empty", vec![set(&api("/servers"), json!([]))]),
        ("two servers", vec![set(&api("/servers/1"), json!({"url": "https://b.example.com"}))]),
        ("server relative", vec![set(&api("/servers/0/url"), json!("/v1"))]),
        ("server ftp", vec![set(&api("/servers/0/url"), json!("ftp://files.example.com"))]),
        ("server variable", vec![set(&api("/servers/0/url"), json!("https://{region}.example.com"))]),
        ("server trailing slash", vec![set(&api("/servers/0/url"), json!("https://api.example.com/"))]),
        ("server description", vec![set(&api("/servers/0/description"), json!("d"))]),
        ("server bare host", vec![set(&api("/servers/0/url"), json!("api.example.com"))]),
        ("path without slash", vec![set(&api("/paths/items"), json!({"get": {"parameters": []}}))]),
        ("path with space", vec![set(&api("/paths/~1a b"), json!({"get": {"parameters": []}}))]),
        ("path with NBSP", vec![set(&api("/paths/~1a\u{a0}b"), json!({"get": {"parameters": []}}))]),
        ("path with NEL", vec![set(&api("/paths/~1a\u{85}b"), json!({"get": {"parameters": []}}))]),
        ("path with query", vec![set(&api("/paths/~1a?b=c"), json!({"get": {"parameters": []}}))]),
        ("method put", vec![set(&api("/paths/~1items/put"), json!({"parameters": []}))]),
        ("method upper case", vec![set(&api("/paths/~1items/GET"), json!({"parameters": []}))]),
        ("operation summary", vec![set(&api("/paths/~1items/post/summary"), json!("s"))]),
        ("operation without parameters", vec![set(&api("/paths/~1other"), json!({"get": {}}))]),
        (
            "parameter in body",
            vec![set(&op("/2/in"), json!("body")), set(&ep("/parameters/1/operationParameter/in"), json!("body"))],
        ),
        (
            "parameter in processing",
            vec![
                set(&op("/2/in"), json!("processing")),
                set(&ep("/parameters/1/operationParameter/in"), json!("processing")),
            ],
        ),
        (
            "api parameter named _type",
            vec![
                set(&op("/2/name"), json!("_type")),
                set(&ep("/parameters/1/operationParameter/name"), json!("_type")),
            ],
        ),
        (
            "placeholder without parameter",
            vec![set(&op("/0/in"), json!("query")), set(&ep("/parameters/0/operationParameter/in"), json!("query"))],
        ),
        (
            "path parameter not in template",
            vec![
                set(&op("/3"), json!({"in": "path", "name": "other"})),
                set(
                    &ep("/parameters/2"),
                    json!({"name": "other", "operationParameter": {"in": "path", "name": "other"}}),
                ),
            ],
        ),
        ("duplicate api parameter", vec![set(&op("/3"), json!({"in": "query", "name": "q"}))]),
        (
            "same name other location",
            vec![
                set(&op("/3"), json!({"in": "header", "name": "q"})),
                set(&ep("/parameters/2"), json!({"name": "hq", "operationParameter": {"in": "header", "name": "q"}})),
            ],
        ),
        ("api parameter extra key", vec![set(&op("/0/required"), json!(true))]),
        ("components schemas", vec![set(&api("/components/schemas"), json!({}))]),
        ("scheme oauth2", vec![set(&api("/components/securitySchemes/key"), json!({"type": "oauth2", "flows": {}}))]),
        (
            "scheme http digest",
            vec![set(&api("/components/securitySchemes/key"), json!({"type": "http", "scheme": "digest"}))],
        ),
        (
            "scheme http bearer",
            vec![set(&api("/components/securitySchemes/key"), json!({"type": "http", "scheme": "bearer"}))],
        ),
        (
            "scheme bearerFormat",
            vec![set(
                &api("/components/securitySchemes/key"),
                json!({"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}),
            )],
        ),
        ("scheme apiKey in path", vec![set(&api("/components/securitySchemes/key/in"), json!("path"))]),
        ("scheme apiKey empty name", vec![set(&api("/components/securitySchemes/key/name"), json!(""))]),
        ("scheme description", vec![set(&api("/components/securitySchemes/key/description"), json!("d"))]),
        ("scheme relay in cookie", vec![set(&api("/components/securitySchemes/chain/in"), json!("cookie"))]),
        ("security scope", vec![set(&api("/security/key"), json!(["read"]))]),
        ("security undefined", vec![set(&api("/security/nope"), json!([]))]),
        ("security empty", vec![set(&api("/security"), json!({}))]),
        ("security as array", vec![set(&api("/security"), json!([{"key": []}]))]),
        ("endpoint without parameters", vec![del(&ep("/parameters"))]),
        ("endpoint without reservedParameters", vec![del(&ep("/reservedParameters"))]),
        ("endpoint without fixedOperationParameters", vec![del(&ep("/fixedOperationParameters"))]),
        ("reserved without _type", vec![set(&ep("/reservedParameters"), json!([{"name": "_path"}]))]),
        ("parameter default number", vec![set(&ep("/parameters/0/default"), json!(5))]),
        ("parameter example boolean", vec![set(&ep("/parameters/0/example"), json!(true))]),
        ("parameter required string", vec![set(&ep("/parameters/0/required"), json!("yes"))]),
        ("parameter name with space", vec![set(&ep("/parameters/0/name"), json!("coin id"))]),
        ("parameter name with BOM", vec![set(&ep("/parameters/0/name"), json!("coin\u{feff}id"))]),
        ("parameter name with NEL", vec![set(&ep("/parameters/0/name"), json!("coin\u{85}id"))]),
        ("parameter name empty", vec![set(&ep("/parameters/0/name"), json!(""))]),
        ("parameter name with underscore", vec![set(&ep("/parameters/0/name"), json!("_id"))]),
        ("duplicate parameter names", vec![set(&ep("/parameters/1/name"), json!("id"))]),
        ("parameter without operationParameter", vec![set(&ep("/parameters/2"), json!({"name": "extra"}))]),
        ("parameter extra key", vec![set(&ep("/parameters/0/in"), json!("query"))]),
        ("reserved name unknown", vec![set(&ep("/reservedParameters/2/name"), json!("_foo"))]),
        ("reserved fixed number", vec![set(&ep("/reservedParameters/0/fixed"), json!(256))]),
        ("reserved fixed and default", vec![set(&ep("/reservedParameters/0/default"), json!("int256"))]),
        ("reserved fixed empty string", vec![set(&ep("/reservedParameters/0/fixed"), json!(""))]),
        ("reserved _type unvalidated", vec![set(&ep("/reservedParameters/0/fixed"), json!("int8"))]),
        ("gasPrice abc", vec![set(&ep("/reservedParameters/3"), json!({"name": "_gasPrice", "fixed": "abc"}))]),
        ("gasPrice 12abc", vec![set(&ep("/reservedParameters/3"), json!({"name": "_gasPrice", "fixed": "12abc"}))]),
        (
            "minConfirmations -1",
            vec![set(&ep("/reservedParameters/3"), json!({"name": "_minConfirmations", "default": "-1"}))],
        ),
        (
            "minConfirmations 0x10",
            vec![set(&ep("/reservedParameters/3"), json!({"name": "_minConfirmations", "fixed": "0x10"}))],
        ),
        ("fixed value object", vec![set(&ep("/fixedOperationParameters/0/value"), json!({"a": [1, 2]}))]),
        ("fixed value null", vec![set(&ep("/fixedOperationParameters/0/value"), Value::Null)]),
        ("fixed value missing", vec![del(&ep("/fixedOperationParameters/0/value"))]),
        ("fixed extra key", vec![set(&ep("/fixedOperationParameters/0/name"), json!("q"))]),
        ("api parameter unmapped", vec![set(&ep("/fixedOperationParameters"), json!([]))]),
        (
            "mapped parameter not in operation",
            vec![set(&ep("/parameters/2"), json!({"name": "z", "operationParameter": {"in": "query", "name": "z"}}))],
        ),
        (
            "mapped twice",
            vec![set(&ep("/parameters/2"), json!({"name": "q", "operationParameter": {"in": "query", "name": "q"}}))],
        ),
        ("operation not in paths", vec![set(&ep("/operation/path"), json!("/nope"))]),
        ("operation method upper case", vec![set(&ep("/operation/method"), json!("GET"))]),
        ("operation extra key", vec![set(&ep("/operation/servers"), json!([]))]),
        (
            "no operation no processing",
            vec![
                del(&ep("/operation")),
                set(&ep("/fixedOperationParameters"), json!([])),
                set(&ep("/parameters"), json!([])),
            ],
        ),
        (
            "no operation with V2 post",
            vec![
                del(&ep("/operation")),
                set(&ep("/fixedOperationParameters"), json!([])),
                set(&ep("/parameters"), json!([])),
                set(&ep("/postProcessingSpecificationV2"), v2.clone()),
            ],
        ),
        (
            "no operation with fixed",
            vec![
                del(&ep("/operation")),
                set(&ep("/parameters"), json!([])),
                set(&ep("/postProcessingSpecificationV2"), v2.clone()),
            ],
        ),
        (
            "no operation empty V1",
            vec![
                del(&ep("/operation")),
                set(&ep("/fixedOperationParameters"), json!([])),
                set(&ep("/parameters"), json!([])),
                set(&ep("/postProcessingSpecifications"), json!([])),
            ],
        ),
        (
            "V1 and V2 together",
            vec![
                set(&ep("/postProcessingSpecificationV2"), v2.clone()),
                set(
                    &ep("/postProcessingSpecifications"),
                    json!([{"environment": "Node", "value": "output = input", "timeoutMs": 1}]),
                ),
            ],
        ),
        (
            "V2 Node async",
            vec![set(
                &ep("/preProcessingSpecificationV2"),
                json!({"environment": "Node async", "value": "x", "timeoutMs": 1}),
            )],
        ),
        (
            "V1 Node async",
            vec![set(
                &ep("/preProcessingSpecifications"),
                json!([{"environment": "Node async", "value": "resolve(input)", "timeoutMs": 1}]),
            )],
        ),
        (
            "V1 Node 14",
            vec![set(
                &ep("/preProcessingSpecifications"),
                json!([{"environment": "Node 14", "value": "x", "timeoutMs": 1}]),
            )],
        ),
        (
            "timeoutMs string",
            vec![set(
                &ep("/postProcessingSpecificationV2"),
                json!({"environment": "Node", "value": "x", "timeoutMs": "5000"}),
            )],
        ),
        (
            "timeoutMs negative",
            vec![set(
                &ep("/postProcessingSpecificationV2"),
                json!({"environment": "Node", "value": "x", "timeoutMs": -1}),
            )],
        ),
        ("V2 as array", vec![set(&ep("/postProcessingSpecificationV2"), json!([v2.clone()]))]),
        ("duplicate endpoint names", vec![set("/endpoints/1/name", json!("item"))]),
        ("endpoint extra key", vec![set(&ep("/testable"), json!(true))]),
        ("endpoint summary number", vec![set(&ep("/summary"), json!(1))]),
        ("endpoint name with spaces", vec![set(&ep("/name"), json!("my item"))]),
    ]
}

fn converted_documents() -> Vec<(String, Value)> {
    let mut documents = Vec::new();
    let samples = [
        ("coins.yaml", None),
        ("orders.json", None),
        ("auth.yaml", None),
        ("regions.json", None),
        ("weather-3.1.yaml", Some("https://weather.example")),
    ];
    for format in ["3.0.0", "2.3.2"] {
        for (sample, base_url) in samples {
            let mut options = ConvertOptions::default().with_ois_format(format);
            options.base_url = base_url.map(Into::into);
            let source = Source::read(&root().join("samples").join(sample)).expect("sample");
            let conversion = convert(&source, &options).expect("sample converts");
            documents.push((format!("sample {sample} as {format}"), conversion.ois));
        }
    }
    let corpus = common::shared_dir().join("corpus");
    let sources = std::fs::read_to_string(corpus.join("SOURCES.md")).expect("corpus");
    let options = ConvertOptions::default().with_base_url("https://api.example.com");
    for line in sources.lines() {
        let Some(path) = line.strip_prefix("| ").and_then(|l| l.split_once(" | `")).and_then(|(n, rest)| {
            n.trim().parse::<u32>().ok()?;
            rest.split_once('`').map(|(p, _)| p)
        }) else {
            continue;
        };
        let Ok(source) = Source::read(&corpus.join(path)) else { continue };
        if let Ok(conversion) = convert(&source, &options) {
            documents.push((format!("corpus {path}"), conversion.ois));
        }
    }
    documents
}

/// Every string of one to five characters of `{`, `}`, `a`, `b`.
fn placeholder_shapes() -> Vec<String> {
    let mut shapes = vec![String::new()];
    let mut all = Vec::new();
    for _ in 0..5 {
        shapes = shapes.iter().flat_map(|s| ['{', '}', 'a', 'b'].map(|c| format!("{s}{c}"))).collect();
        all.extend(shapes.iter().cloned());
    }
    all
}

/// The text between each `{` and the next `}`, as a naive reader would take placeholders.
fn raw_placeholders(path: &str) -> IndexSet<String> {
    let mut found = IndexSet::new();
    let mut rest = path;
    while let Some((_, after)) = rest.split_once('{') {
        let Some((inner, next)) = after.split_once('}') else { break };
        found.insert(inner.to_owned());
        rest = next;
    }
    found
}

/// Every case the verdict tests compare, as (id, format, OIS), and how many are mutations and
/// path shapes (the rest are converted documents).
fn cases() -> (Vec<(String, &'static str, Value)>, usize) {
    let mut cases: Vec<(String, &str, Value)> = Vec::new();
    for format in ["2.3.2", "3.0.0"] {
        for (name, edits) in mutations() {
            let mut ois = base(format);
            for (pointer, value) in edits {
                edit(&mut ois, &pointer, value);
            }
            cases.push((format!("{name} ({format})"), format, ois));
        }
    }
    // Every path shape of up to five characters of `{`, `}`, `a`, `b`: an operation whose path
    // parameters are the placeholders we read from it (valid only if we read them as @api3/ois
    // does), and one whose parameters are the raw text between braces.
    for format in ["2.3.2", "3.0.0"] {
        for shape in placeholder_shapes() {
            let path = format!("/s/{shape}");
            let ours: IndexSet<&str> = ois::placeholders(&path).into_iter().collect();
            let raw: IndexSet<String> = raw_placeholders(&path);
            for (variant, names) in
                [("ours", ours.iter().map(|n| n.to_string()).collect::<Vec<_>>()), ("raw", raw.into_iter().collect())]
            {
                let mut ois = base(format);
                let parameters: Vec<Value> = names.iter().map(|n| json!({"in": "path", "name": n})).collect();
                ois["apiSpecifications"]["paths"][&path] = json!({"get": {"parameters": parameters}});
                cases.push((format!("path {path:?} with {variant} parameters ({format})"), format, ois));
            }
        }
    }
    let mutation_count = cases.len();
    for (name, ois) in converted_documents() {
        let format = if ois["oisFormat"] == "2.3.2" { "2.3.2" } else { "3.0.0" };
        cases.push((name, format, ois));
    }
    (cases, mutation_count)
}

#[test]
fn verdicts_match_the_real_library() {
    if !common::interop_installed("ois-3.0.0") {
        return;
    }
    let (cases, mutation_count) = cases();
    assert!(mutation_count >= 160 && cases.len() >= 200, "{mutation_count} mutations, {} cases", cases.len());

    let input: Vec<Value> = cases.iter().map(|(id, _, ois)| json!({"id": id, "ois": ois})).collect();
    let Value::Array(verdicts) = run_node("verdicts.js", &Value::Array(input)) else { panic!("no verdicts") };

    let mut differences = Vec::new();
    let mut stricter = 0;
    for ((id, format, ois), verdict) in cases.iter().zip(&verdicts) {
        let real = &verdict[*format];
        let real_valid = real["valid"].as_bool().expect("valid");
        let errors: Vec<_> = ois::check_ois(ois, None).into_iter().filter(|d| d.severity == Severity::Error).collect();
        let ours_valid = errors.is_empty();
        if ours_valid == real_valid {
            continue;
        }
        if !ours_valid && real_valid && errors.iter().all(|d| STRICTER.contains(&d.code)) {
            stricter += 1;
            continue;
        }
        let ours: Vec<String> = errors.iter().map(|d| format!("{} {} {}", d.code, d.pointer(), d.message)).collect();
        differences.push(format!("{id}: ours {ours_valid} {ours:?}, @api3/ois {real_valid} {}", real["issues"]));
    }
    let real_invalid = cases.iter().zip(&verdicts).filter(|((_, format, _), v)| v[*format]["valid"] == false).count();
    eprintln!(
        "{} cases: {real_invalid} invalid for @api3/ois, {stricter} refused only by our stricter rules",
        cases.len()
    );
    assert!(differences.is_empty(), "{} differences:\n{}", differences.len(), differences.join("\n"));
    assert!(real_invalid >= 120, "only {real_invalid} cases break a rule of the real library");
    assert!(stricter >= 4, "the documented stricter rules were exercised only {stricter} times");
}

/// The 20 hand-written OIS files, each as `format` (they are valid in both families).
fn examples(format: &str) -> Vec<(String, Value)> {
    let dir = common::shared_dir().join("examples/ois");
    let mut examples = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("examples folder") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let mut ois: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("JSON");
        ois["oisFormat"] = json!(format);
        examples.push((format!("example {} ({format})", path.display()), ois));
    }
    assert_eq!(examples.len(), 20);
    examples
}

/// `ois schema` read by a real JSON Schema validator (ajv 8, draft 2020-12, strict): it accepts
/// every hand-written example and every OIS the converter writes, never refuses what the checker
/// accepts, and refuses every case the checker refuses for a rule the schema expresses (all but
/// `LEFT_TO_VALIDATE`), which covers each structural mutation `@api3/ois` rejects.
#[test]
fn the_json_schema_agrees_with_the_checker_and_the_real_library() {
    if !common::interop_installed("ajv-8") || !common::interop_installed("ois-3.0.0") {
        return;
    }
    let left: Vec<Code> = ois::schema::LEFT_TO_VALIDATE.iter().map(|(code, _)| *code).collect();
    let (mut cases, _) = cases();
    let examples_from = cases.len();
    for format in ["2.3.2", "3.0.0"] {
        cases.extend(examples(format).into_iter().map(|(id, ois)| (id, format, ois)));
    }
    let mut inputs: Vec<Value> =
        cases.iter().map(|(id, format, ois)| json!({"id": id, "schema": format, "document": ois})).collect();
    // Each example inside a config, for the config schema.
    for (index, (id, format, ois)) in cases.iter().enumerate().skip(examples_from) {
        let config = json!({"ois": [ois], "apiCredentials": [], "nodeSettings": {}, "triggers": {}});
        inputs.push(
            json!({"id": format!("{index} config of {id}"), "schema": format!("config {format}"), "document": config}),
        );
    }
    let schemas = json!({
        "2.3.2": ois::schema::ois_schema(ois::FormatFamily::V2_3),
        "3.0.0": ois::schema::ois_schema(ois::FormatFamily::V3_0),
        "config 2.3.2": ois::schema::config_schema(ois::FormatFamily::V2_3),
        "config 3.0.0": ois::schema::config_schema(ois::FormatFamily::V3_0),
    });
    let Value::Array(results) = run_node("schema.js", &json!({"schemas": schemas, "cases": inputs})) else {
        panic!("no results")
    };
    let real_input: Vec<Value> = cases.iter().map(|(id, _, ois)| json!({"id": id, "ois": ois})).collect();
    let Value::Array(verdicts) = run_node("verdicts.js", &Value::Array(real_input)) else { panic!("no verdicts") };

    let mut problems = Vec::new();
    let (mut refused, mut real_refused_structural) = (0, 0);
    for (index, ((id, format, ois), result)) in cases.iter().zip(&results).enumerate() {
        let schema_valid = result["valid"].as_bool().expect("valid");
        let errors: Vec<_> = ois::check_ois(ois, None).into_iter().filter(|d| d.severity == Severity::Error).collect();
        let expressed: Vec<String> =
            errors.iter().filter(|d| !left.contains(&d.code)).map(|d| format!("{} {}", d.code, d.pointer())).collect();
        let real_valid = verdicts[index][*format]["valid"].as_bool().expect("real verdict");
        if !schema_valid {
            refused += 1;
        }
        if !schema_valid && errors.is_empty() {
            problems.push(format!("{id}: the schema refuses what the checker accepts: {}", result["errors"]));
        }
        if schema_valid && !expressed.is_empty() {
            problems.push(format!("{id}: the schema accepts, the checker refuses with {expressed:?}"));
        }
        if !real_valid && !expressed.is_empty() {
            real_refused_structural += 1;
        }
        if index >= examples_from && !schema_valid {
            problems.push(format!("{id}: the schema refuses an example: {}", result["errors"]));
        }
    }
    for result in &results[cases.len()..] {
        if result["valid"] != true {
            problems.push(format!("{}: the config schema refuses it: {}", result["id"], result["errors"]));
        }
    }
    eprintln!(
        "{} cases: the schema refuses {refused}, including all {real_refused_structural} that @api3/ois refuses for a rule it expresses",
        cases.len()
    );
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
    assert!(real_refused_structural >= 100, "only {real_refused_structural} structural refusals were compared");
}
