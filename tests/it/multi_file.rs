//! Multi-file documents: `$ref`s to local files resolved relative to the file that holds them,
//! each file read once, kept inside the document's folder, cycles across files reported, and
//! diagnostics naming the file where the problem is.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use std::path::Path;

use serde_json::Value;

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn convert(file: &Path, extra: &[&str]) -> (Option<i32>, Value, Value) {
    let output = common::ois().arg("convert").arg(file).args(["--report", "json"]).args(extra).output().unwrap();
    let report: Value = serde_json::from_slice(&output.stderr).unwrap();
    let ois = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output.status.code(), ois, report)
}

fn root_document(paths: &str) -> String {
    format!(
        "openapi: 3.0.3\ninfo: {{title: Multi, version: 1.0.0}}\nservers: [{{url: 'https://api.example.com'}}]\npaths:\n{paths}"
    )
}

#[test]
fn refs_resolve_relative_to_the_file_that_holds_them() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec");
    write(&spec, "openapi.yaml", &root_document("  /pets:\n    $ref: 'paths/pets.yaml'\n"));
    write(
        &spec,
        "paths/pets.yaml",
        "get:\n  operationId: listPets\n  parameters:\n    - $ref: '../common/parameters.yaml#/Limit'\npost:\n  operationId: addPet\n  requestBody:\n    content:\n      application/json:\n        schema:\n          $ref: '../common/pet.json'\n",
    );
    write(
        &spec,
        "common/parameters.yaml",
        "Limit:\n  name: limit\n  in: query\n  schema: {type: integer, default: 20}\n",
    );
    write(
        &spec,
        "common/pet.json",
        r##"{"type": "object", "required": ["name"], "properties": {"name": {"$ref": "#/definitions/Name"}, "tag": {"type": "string"}}, "definitions": {"Name": {"type": "string", "description": "the pet's name"}}}"##,
    );
    let (code, ois, report) = convert(&spec.join("openapi.yaml"), &[]);
    assert_eq!(code, Some(0), "{report:#}");
    let list = &ois["endpoints"][0]["parameters"][0];
    // The default is the API's own: kept as the example, not written as an OIS default.
    assert_eq!((list["name"].as_str(), list["example"].as_str()), (Some("limit"), Some("20")));
    let add: Vec<&str> =
        ois["endpoints"][1]["parameters"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(add, ["name", "tag"]);
    assert_eq!(ois["endpoints"][1]["parameters"][0]["description"], "the pet's name");
}

#[test]
fn a_ref_escaping_the_folder_is_refused_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec");
    write(dir.path(), "shared.yaml", "Q:\n  name: q\n  in: query\n");
    write(
        &spec,
        "openapi.yaml",
        &root_document(
            "  /a:\n    get:\n      operationId: a\n      parameters:\n        - $ref: '../shared.yaml#/Q'\n  /b:\n    get:\n      operationId: b\n",
        ),
    );
    let (code, ois, report) = convert(&spec.join("openapi.yaml"), &[]);
    assert_eq!(code, Some(0));
    let diagnostic = report["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "OAS015").expect("OAS015");
    assert!(diagnostic["file"].as_str().unwrap().ends_with("openapi.yaml"));
    // Only the parameter with the escaping ref is skipped, not its operation.
    assert_eq!(ois["endpoints"].as_array().unwrap().len(), 2);
    assert_eq!(ois["endpoints"][0]["parameters"].as_array().map(Vec::len), Some(0));
    let allowed = dir.path().to_str().unwrap();
    let (code, ois, _) = convert(&spec.join("openapi.yaml"), &["--allow-root", allowed]);
    assert_eq!(code, Some(0));
    assert_eq!(ois["endpoints"][0]["parameters"][0]["name"], "q");
}

#[test]
fn a_cycle_across_files_is_reported_in_the_file_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "openapi.yaml",
        &root_document(
            "  /a:\n    get:\n      operationId: a\n      parameters:\n        - $ref: 'one.yaml#/P'\n  /b:\n    get:\n      operationId: b\n",
        ),
    );
    write(dir.path(), "one.yaml", "P:\n  $ref: 'two.yaml#/P'\n");
    write(dir.path(), "two.yaml", "P:\n  $ref: 'one.yaml#/P'\n");
    let (code, _, report) = convert(&dir.path().join("openapi.yaml"), &[]);
    assert_eq!(code, Some(0));
    let cycle = report["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "OAS011").expect("OAS011");
    let file = cycle["file"].as_str().unwrap();
    assert!(file.ends_with("one.yaml") || file.ends_with("two.yaml"), "{cycle:#}");
    assert_eq!(cycle["line"], 2);
}

#[test]
fn a_missing_or_broken_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "openapi.yaml",
        &root_document(
            "  /a:\n    get:\n      operationId: a\n      parameters:\n        - $ref: 'gone.yaml#/P'\n        - $ref: 'broken.yaml#/P'\n  /b:\n    get:\n      operationId: b\n",
        ),
    );
    write(dir.path(), "broken.yaml", "P: [unclosed\n");
    let (code, _, report) = convert(&dir.path().join("openapi.yaml"), &[]);
    assert_eq!(code, Some(0));
    let messages: Vec<&str> =
        report["diagnostics"].as_array().unwrap().iter().filter_map(|d| d["message"].as_str()).collect();
    assert!(messages.iter().any(|m| m.contains("gone.yaml")), "{messages:#?}");
}

/// Through the library: a diagnostic about a referenced file names that file as its document, with
/// a pointer into it (not into a bundle of all files), and its own line.
#[test]
fn diagnostics_name_the_referenced_document() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "openapi.yaml",
        &root_document("  /a:\n    get:\n      operationId: a\n      parameters:\n        - $ref: 'common.yaml#/Q'\n"),
    );
    write(dir.path(), "common.yaml", "# shared parameters\nQ:\n  name: q\n  in: body\n");
    let source = ois::Source::read(&dir.path().join("openapi.yaml")).unwrap();
    let conversion = ois::convert(&source, &ois::ConvertOptions::default()).unwrap();
    let skipped = conversion.diagnostics.iter().find(|d| d.code == ois::Code::ParamLocation).expect("CNV045");
    assert_eq!(skipped.location.document, ois::Document::Referenced(0));
    assert_eq!(skipped.location.pointer, "/Q/in");
    assert!(skipped.location.file.as_deref().unwrap().ends_with("common.yaml"));
    assert_eq!((skipped.location.line, skipped.location.column), (Some(4), Some(3)));
}

#[test]
fn a_swagger_2_parameter_in_another_file_is_read_in_its_2_0_shape() {
    // Its value keys sit beside its name, in a file that is never reshaped; the root's own
    // parameters are read the same way.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "swagger.yaml",
        "swagger: '2.0'\ninfo: {title: Two, version: 1.0.0}\nhost: api.example.com\npaths:\n  /pets:\n    get:\n      parameters:\n        - $ref: 'common.yaml#/Limit'\n        - {name: tag, in: query, type: string, x-example: dog}\n",
    );
    write(dir.path(), "common.yaml", "Limit: {name: limit, in: query, type: integer, default: 10, x-example: 3}\n");
    let (code, ois, report) = convert(&dir.path().join("swagger.yaml"), &["--defaults"]);
    assert_eq!(code, Some(0), "{report:#}");
    let parameters = &ois["endpoints"][0]["parameters"];
    assert_eq!(parameters[0]["name"], "limit");
    assert_eq!(parameters[0]["default"], "10");
    assert_eq!(parameters[0]["example"], "3");
    assert_eq!(parameters[1]["example"], "dog");
}
