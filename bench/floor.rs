//! The benchmark floor: only read files and parse them into `serde_json::Value`, with the same
//! crates `ois` uses. `ois convert` is measured against this. Given one file, it also reads and
//! parses every file its `$ref`s name (a multi-file document is all of them), once each. Given
//! folders, it parses every `*.json`/`*.yaml`/`*.yml` below them on every core, as a batch
//! conversion would.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rayon::prelude::*;

/// The allocator `ois` itself uses, so the ratio measures our code, not a change of allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn read(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    if text.trim_start().starts_with(['{', '[']) {
        serde_json::from_str(&text).map_err(|e| e.to_string())
    } else {
        yaml_serde::from_str(&text).map_err(|e| e.to_string())
    }
}

fn parse(path: &Path) -> Result<usize, String> {
    Ok(read(path)?.as_object().map_or(0, |o| o.len()))
}

/// The document at `path` and every file its `$ref`s name, transitively, each parsed once.
fn parse_with_refs(path: &Path) -> Result<usize, String> {
    let mut seen = std::collections::HashSet::new();
    let mut queue = vec![path.to_path_buf()];
    let mut keys = 0;
    while let Some(file) = queue.pop() {
        let Ok(canonical) = file.canonicalize() else { continue };
        if !seen.insert(canonical) {
            continue;
        }
        let Ok(value) = read(&file) else { continue };
        keys += value.as_object().map_or(0, |o| o.len());
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut stack = vec![&value];
        while let Some(node) = stack.pop() {
            match node {
                serde_json::Value::Object(map) => {
                    if let Some(serde_json::Value::String(reference)) = map.get("$ref") {
                        let location = reference.split('#').next().unwrap_or_default();
                        if !location.is_empty() && !location.contains("://") {
                            queue.push(dir.join(location));
                        }
                    }
                    stack.extend(map.values());
                }
                serde_json::Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
    }
    Ok(keys)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| matches!(e, "json" | "yaml" | "yml")) {
            files.push(path);
        }
    }
}

fn main() -> ExitCode {
    let inputs: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if inputs.is_empty() {
        eprintln!("usage: floor FILE|DIR...");
        return ExitCode::from(2);
    }
    if let [single] = inputs.as_slice()
        && single.is_file()
    {
        return match parse_with_refs(single) {
            Ok(keys) => {
                println!("{keys}");
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("{}: {err}", single.display());
                ExitCode::FAILURE
            }
        };
    }
    let mut files = Vec::new();
    for input in &inputs {
        if input.is_dir() { walk(input, &mut files) } else { files.push(input.clone()) }
    }
    let parsed = files.par_iter().filter(|f| parse(f).is_ok()).count();
    println!("{parsed} of {} files parsed", files.len());
    ExitCode::SUCCESS
}
