//! What the interop tests share: the folder of the real npm packages, and running one of its
//! scripts on an input.

#![allow(clippy::expect_used, dead_code)] // tests fail by panicking; not every test uses every helper

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

/// `tests/interop`, where `npm ci` installs the real packages.
pub fn interop_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/interop")
}

/// Runs `tests/interop/SCRIPT` on `input` (passed as a file) and returns what it prints.
pub fn run_node(script: &str, input: &Value) -> Value {
    let file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(file.path(), input.to_string()).expect("write");
    let output = Command::new("node").arg(interop_dir().join(script)).arg(file.path()).output().expect("node runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("the script prints JSON")
}
