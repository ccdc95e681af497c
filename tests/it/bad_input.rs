//! The bad-input matrix: each class of broken input ends in exit status 1 with its exact
//! diagnostic code and a message naming the problem, quickly, and leaves no output file behind.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use std::time::{Duration, Instant};

use serde_json::Value;

/// A hang guard, not a performance target: every case finishes in milliseconds.
const HANG_GUARD: Duration = Duration::from_secs(10);

struct Case {
    name: &'static str,
    file: &'static str,
    bytes: Vec<u8>,
    code: &'static str,
    /// A word the message must contain, so it names the problem.
    says: &'static str,
}

fn case(
    name: &'static str,
    file: &'static str,
    bytes: impl Into<Vec<u8>>,
    code: &'static str,
    says: &'static str,
) -> Case {
    Case { name, file, bytes: bytes.into(), code, says }
}

fn openapi(paths: &str, components: &str) -> String {
    format!(
        r#"{{"openapi": "3.0.3", "info": {{"title": "T", "version": "1.0.0"}}, "servers": [{{"url": "https://a.example"}}],
            "paths": {paths}, "components": {components}}}"#
    )
}

fn alias_bomb() -> String {
    let mut text = String::from("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    let mut previous = 'a';
    for name in 'b'..='j' {
        let refs = vec![format!("*{previous}"); 9].join(",");
        text.push_str(&format!("{name}: &{name} [{refs}]\n"));
        previous = name;
    }
    text
}

fn cases() -> Vec<Case> {
    // A body that cannot be followed skips its operation (a parameter would skip only itself).
    let get = r#"{"post": {"operationId": "x", "requestBody": {"$ref": "REF"}}}"#;
    let with_ref = |reference: &str, components: &str| {
        openapi(&format!(r#"{{"/a": {}}}"#, get.replace("REF", reference)), components)
    };
    vec![
        case("empty file", "empty.json", "", "INP003", "empty"),
        case("whitespace only", "blank.yaml", "  \n\n", "INP003", "empty"),
        case("truncated JSON", "truncated.json", r#"{"openapi": "3.0.0", "paths": {"/a": "#, "INP004", "JSON"),
        case("invalid YAML", "bad.yaml", "openapi: 3.0.0\npaths:\n  - a\n  b: [", "INP005", "YAML"),
        case("YAML alias bomb", "bomb.yaml", alias_bomb(), "INP008", "repetition"),
        case("100k-deep JSON", "deep.json", "[".repeat(100_000), "INP006", "recursion"),
        case("100k-deep YAML", "deep.yaml", format!("a: {}", "[".repeat(100_000)), "INP006", "nesting"),
        case("100k-deep YAML sequence", "deep-seq.yaml", "- ".repeat(100_000), "INP006", "nesting"),
        case("root is an array", "array.json", "[1, 2]", "INP009", "array"),
        case("root is a string", "string.json", r#""openapi""#, "INP009", "string"),
        case("root is a number", "number.yaml", "42", "INP009", "number"),
        case("no openapi field", "none.json", r#"{"info": {"title": "x"}, "paths": {}}"#, "OAS001", "openapi"),
        case("future version", "future.json", r#"{"openapi": "4.0.0", "paths": {}}"#, "OAS002", "4.0.0"),
        case("unknown version", "unknown.yaml", "openapi: banana\n", "OAS002", "banana"),
        case(
            "non-UTF-8",
            "latin1.json",
            b"{\"openapi\": \"3.0.0\", \"info\": {\"title\": \"Caf\xe9\"}}".to_vec(),
            "INP002",
            "UTF-8",
        ),
        case(
            "random binary",
            "random.bin",
            (0u8..=255).rev().cycle().take(4096).collect::<Vec<u8>>(),
            "INP002",
            "UTF-8",
        ),
        case("NaN in JSON", "nan.json", r#"{"openapi": "3.0.0", "x": NaN}"#, "INP004", "JSON"),
        case("Infinity in YAML", "inf.yaml", "openapi: 3.0.0\nx: .inf\n", "INP010", "JSON"),
        case("duplicate keys", "dup.json", r#"{"openapi": "3.0.0", "openapi": "3.1.0"}"#, "INP007", "duplicate"),
        case(
            "direct $ref cycle",
            "cycle.json",
            with_ref(
                "#/components/requestBodies/A",
                r##"{"requestBodies": {"A": {"$ref": "#/components/requestBodies/A"}}}"##,
            ),
            "OAS011",
            "cycle",
        ),
        case(
            "$ref cycle through allOf",
            "cycle-allof.json",
            openapi(
                r##"{"/a": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}}}}"##,
                r##"{"schemas": {"A": {"allOf": [{"$ref": "#/components/schemas/B"}]}, "B": {"allOf": [{"$ref": "#/components/schemas/A"}]}}}"##,
            ),
            "OAS011",
            "itself",
        ),
        case(
            "$ref cycle through path items",
            "cycle-paths.json",
            openapi(r##"{"/a": {"$ref": "#/paths/~1b"}, "/b": {"$ref": "#/paths/~1a"}}"##, "{}"),
            "OAS011",
            "cycle",
        ),
        case(
            "missing $ref target",
            "missing.json",
            with_ref("#/components/requestBodies/Gone", "{}"),
            "OAS010",
            "Gone",
        ),
        case("$ref to a URL", "url.json", with_ref("https://example.com/params.json#/P", "{}"), "OAS013", "network"),
        case(
            "$ref escaping the folder",
            "inner/escape.json",
            with_ref("../outside.json#/P", "{}"),
            "OAS015",
            "leaves the document's folder",
        ),
        case(
            "server variable holding a template",
            "braces.json",
            r#"{"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
                "servers": [{"url": "https://{r}.example", "variables": {"r": {"default": "{eu}"}}}],
                "paths": {"/a": {"get": {}}}}"#,
            "CNV009",
            "template",
        ),
        case(
            "only a reserved placeholder and a malformed template",
            "templates.json",
            openapi(r#"{"/a/{_type}": {"get": {}}, "/b/{{id}}": {"get": {}}}"#, "{}"),
            "CNV032",
            "none of",
        ),
        case(
            "every operation unsupported",
            "unsupported.json",
            openapi(r#"{"/a": {"put": {}, "delete": {}}}"#, "{}"),
            "CNV032",
            "none of",
        ),
        case(
            "no paths at all",
            "nopaths.json",
            r#"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "webhooks": {}}"#,
            "CNV032",
            "no get or post",
        ),
    ]
}

#[test]
fn each_bad_input_fails_with_its_code_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("inner")).unwrap();
    std::fs::write(dir.path().join("outside.json"), r#"{"P": {"name": "p", "in": "query"}}"#).unwrap();
    for case in cases() {
        let input = dir.path().join(case.file);
        std::fs::write(&input, &case.bytes).unwrap();
        let output = dir.path().join(format!("{}.ois.json", case.file));
        let started = Instant::now();
        let result = common::ois()
            .arg("convert")
            .arg(&input)
            .arg("-o")
            .arg(&output)
            .args(["--report", "json"])
            .timeout(HANG_GUARD)
            .output()
            .unwrap();
        let elapsed = started.elapsed();
        assert!(elapsed < HANG_GUARD, "{}: took {elapsed:?}", case.name);
        assert_eq!(result.status.code(), Some(1), "{}: {}", case.name, String::from_utf8_lossy(&result.stderr));
        let report: Value = serde_json::from_slice(&result.stderr).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let diagnostics = report["diagnostics"].as_array().unwrap();
        let hit = diagnostics.iter().find(|d| d["code"] == case.code);
        let hit = hit.unwrap_or_else(|| panic!("{}: no {} in {diagnostics:#?}", case.name, case.code));
        let message = hit["message"].as_str().unwrap();
        assert!(message.contains(case.says), "{}: message {message:?} does not say {:?}", case.name, case.says);
        assert!(diagnostics.iter().any(|d| d["severity"] == "error"), "{}: no error", case.name);
        assert!(!output.exists(), "{}: an output file was written", case.name);
    }
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".ois-"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left behind: {leftovers:?}");
}

#[test]
fn one_broken_operation_does_not_spoil_the_rest() {
    let document = openapi(
        r##"{"/good": {"get": {"operationId": "good", "parameters": [{"name": "q", "in": "query"}]}},
             "/broken": {"get": {"operationId": "broken", "parameters": [{"$ref": "#/components/parameters/Gone"}, {"name": "kept", "in": "query"}]}},
             "/body": {"post": {"operationId": "body", "requestBody": {"$ref": "#/components/requestBodies/Gone"}}},
             "/odd": {"get": {"operationId": "odd", "parameters": [{"in": "query"}, {"name": "ok", "in": "query"}]}}}"##,
        "{}",
    );
    let output = common::ois().args(["convert", "-", "--report", "json"]).write_stdin(document).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let ois: Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&str> = ois["endpoints"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    // A parameter that cannot be followed is dropped alone; a body that cannot be, its operation.
    assert_eq!(names, ["good", "broken", "odd"]);
    let parameters = |index: usize| -> Vec<&str> {
        let list = ois["endpoints"][index]["parameters"].as_array().unwrap();
        list.iter().map(|p| p["name"].as_str().unwrap()).collect()
    };
    assert_eq!(parameters(1), ["kept"]);
    assert_eq!(parameters(2), ["ok"]);
    let report: Value = serde_json::from_slice(&output.stderr).unwrap();
    let codes: Vec<&str> =
        report["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert!(codes.contains(&"OAS010") && codes.contains(&"OAS020"), "{codes:?}");
    assert_eq!(report["summary"]["operations_skipped"]["unresolvable $ref"], 1);
}
