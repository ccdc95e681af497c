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
