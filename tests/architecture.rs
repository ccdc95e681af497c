//! The layering the README draws holds: a library module imports only modules below it in
//! [`LAYERS`], and the conversion stages import `shared`/`options`, not each other.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Top-level library modules, top first. A module may import those after it, never those before.
const LAYERS: &[&str] = &[
    "jobs",
    "report",
    "update",
    "convert",
    "validate",
    "call",
    "request",
    "processing",
    "scaffold",
    "ois",
    "js",
    "openapi",
    "source",
    "emit",
    "diagnostic",
    "pointer",
    "parallel",
    "testing",
];

/// Conversion stages and the sibling modules each may import.
const STAGES: &[(&str, &[&str])] = &[
    ("body", &["shared"]),
    ("endpoints", &["shared"]),
    ("meta", &[]),
    ("operations", &["shared", "options", "body", "filter"]),
    ("security", &["shared"]),
    ("servers", &["shared", "options"]),
    ("shared", &[]),
    ("templates", &[]),
    ("options", &["filter"]),
    ("reading", &[]),
    ("filter", &["shared"]),
];

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The code of a file before its tests (tests may reach anywhere).
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.split("#[cfg(test)]").next().unwrap_or_default().to_owned()
}

/// Every `crate::NAME` a text mentions.
fn crate_modules(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (at, _) in text.match_indices("crate::") {
        let name: String = text[at + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if !name.is_empty() {
            found.insert(name);
        }
    }
    found
}

#[test]
fn library_modules_import_only_modules_below_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    for path in &files {
        let relative = path.strip_prefix(&src).unwrap();
        let top =
            relative.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_owned();
        if matches!(top.as_str(), "lib" | "main" | "cli") {
            continue;
        }
        let rank = LAYERS.iter().position(|l| *l == top).unwrap_or_else(|| panic!("{top} is not in LAYERS"));
        for module in crate_modules(&code_of(path)) {
            let Some(other) = LAYERS.iter().position(|l| *l == module) else { continue };
            if other < rank {
                wrong.push(format!("{} imports {module}, which is above it", relative.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn conversion_stages_import_what_they_share_not_each_other() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/convert");
    let mut wrong = Vec::new();
    for (stage, allowed) in STAGES {
        let code = code_of(&dir.join(format!("{stage}.rs")));
        for (sibling, _) in STAGES {
            let imports = code.contains(&format!("super::{sibling}")) || code.contains(&format!("convert::{sibling}"));
            if sibling != stage && imports && !allowed.contains(sibling) {
                wrong.push(format!("convert/{stage}.rs imports {sibling}"));
            }
        }
    }
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    assert_eq!(files.len(), STAGES.len() + 1, "a new stage belongs in STAGES");
    assert!(wrong.is_empty(), "{wrong:#?}");
}
