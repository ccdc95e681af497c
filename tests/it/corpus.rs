//! Every root document of ../shared/corpus (listed in its SOURCES.md): no panic; each converts or is
//! refused with an error diagnostic; every OIS written passes the OIS rules; converting twice
//! gives identical bytes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use std::path::PathBuf;

use ois::Code;
use ois::Source;
use ois::convert::{Positions, convert_rendered};
use ois::{ConvertOptions, convert};
use ois::{OutputFormat, to_text};

fn corpus() -> PathBuf {
    common::shared_dir().join("corpus")
}

fn root_documents() -> Vec<PathBuf> {
    let sources = std::fs::read_to_string(corpus().join("SOURCES.md")).expect("corpus SOURCES.md");
    sources
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("| ")?;
            let (number, rest) = rest.split_once(" | `")?;
            number.trim().parse::<u32>().ok()?;
            let (path, _) = rest.split_once('`')?;
            Some(corpus().join(path))
        })
        .collect()
}

#[test]
fn every_corpus_document_converts_or_is_refused_clearly() {
    let documents = root_documents();
    assert!(documents.len() >= 50, "found only {} documents", documents.len());
    let options = ConvertOptions::default().with_base_url("https://api.example.com");
    let mut converted = 0;
    for path in &documents {
        let source = Source::read(path).expect("readable");
        match convert(&source, &options) {
            Ok(conversion) => {
                let errors: Vec<_> =
                    ois::check_ois(&conversion.ois, None).into_iter().filter(|d| d.is_error()).collect();
                assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
                // The CLI renders from the typed model on another thread: the same bytes, every time.
                let root = source.parse().expect("parses");
                let again = convert_rendered(&source, &mut root.clone(), &options, OutputFormat::Json, Positions::All)
                    .expect("again");
                let text = to_text(&conversion.ois, OutputFormat::Json).expect("text");
                assert_eq!(text, again.text, "{}", path.display());
                assert_eq!(conversion.ois, again.ois().expect("a value"), "{}", path.display());
                assert_eq!(conversion.diagnostics, again.diagnostics, "{}", path.display());
                converted += 1;
            }
            Err(failure) => {
                let error = failure.diagnostics.iter().find(|d| d.is_error());
                let error = error.unwrap_or_else(|| panic!("{}: refused without an error", path.display()));
                assert!(!error.message.is_empty());
                // Only documents with no get/post operation are refused.
                assert!(matches!(error.code, Code::NoOperations), "{}: {error:?}", path.display());
            }
        }
    }
    assert!(converted >= 50, "only {converted} converted");
}

/// A diagnostic about a document points at something written in it: a Swagger 2.0 document is
/// converted through its OpenAPI 3 view, whose request bodies, security schemes, server and
/// shifted parameter lists are not where the document has them.
#[test]
fn every_diagnostic_points_into_the_document_as_written() {
    let options = ConvertOptions::default().with_base_url("https://api.example.com");
    let mut swagger2 = 0;
    for path in &root_documents() {
        let source = Source::read(path).expect("readable");
        let document = source.parse().expect("parses");
        swagger2 += usize::from(document.get("swagger").is_some());
        let diagnostics = match convert(&source, &options) {
            Ok(conversion) => conversion.diagnostics,
            Err(failure) => failure.diagnostics,
        };
        let nowhere: Vec<_> = diagnostics
            .iter()
            .filter(|d| d.location.document == ois::Document::Input && document.pointer(&d.location.pointer).is_none())
            // A document without operations is told so where they would be.
            .filter(|d| !(d.code == Code::NoOperations && d.location.pointer == "/paths"))
            .map(|d| format!("{:?} {}", d.code, d.location.pointer))
            .collect();
        assert!(nowhere.is_empty(), "{}: {nowhere:#?}", path.display());
    }
    assert!(swagger2 >= 5, "only {swagger2} Swagger 2.0 documents");
}

/// `ois mock` of every corpus document: each get and post operation (every one the conversion
/// keeps, and the others) answers with a body its response schema accepts (ajv 8,
/// tests/interop/schema-check.js), when the body is built from the schema (a vendor's own example
/// is served as the vendor wrote it).
#[test]
fn a_mock_of_every_corpus_document_answers_what_its_schemas_say() {
    if !common::interop_installed("ajv-8") {
        return;
    }
    let mut documents = Vec::new();
    let mut count = 0;
    for path in &root_documents() {
        let Some(root) = Source::read(path).ok().and_then(|s| s.parse().ok()) else { continue };
        let Ok(routes) = ois::call::synthesized::routes(&root, 7) else { continue };
        let cases: Vec<serde_json::Value> = routes
            .iter()
            .filter(|r| !r.from_example)
            .filter_map(|r| {
                let schema = r.schema.as_ref().filter(|s| s.is_object())?;
                Some(serde_json::json!({"id": format!("{} {}", r.method, r.path), "schema": schema, "body": r.body}))
            })
            .collect();
        count += cases.len();
        // Its `$ref`s resolve in the document's components (3.x) or definitions (2.0), given once.
        let defs = serde_json::json!({"components": root.get("components"), "definitions": root.get("definitions")});
        documents.push(serde_json::json!({"document": path.display().to_string(), "defs": defs, "cases": cases}));
    }
    assert!(count >= 200, "only {count} operations with a schema");
    let results = common::run_node("schema-check.js", &serde_json::Value::Array(documents));
    let results = results.as_array().unwrap();
    let failed: Vec<String> =
        results.iter().filter(|r| r["valid"] == false).map(|r| format!("{}: {}", r["id"], r["errors"])).collect();
    let checked = results.iter().filter(|r| r["valid"] == true).count();
    assert!(checked >= 1900, "only {checked} checked");
    // A body two alternatives of an ambiguous `oneOf` accept (binance's loan repay) is the
    // document's ambiguity; there are few.
    let ambiguous = results.iter().filter(|r| r["valid"] == "ambiguous").count();
    assert!(ambiguous <= 3, "{ambiguous} ambiguous oneOf bodies");
    assert!(
        failed.is_empty(),
        "{} of {} bodies break their schema:\n{}",
        failed.len(),
        checked + failed.len(),
        failed.join("\n")
    );
}
