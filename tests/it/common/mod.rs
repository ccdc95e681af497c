//! What the interop tests share: the folder of the real npm packages, and running one of its
//! scripts on an input.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing, dead_code)] // tests fail by panicking; not every test uses every helper

pub mod nodes;
pub mod scratch;
pub mod server;
pub mod studio;
pub mod vendor;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The `ois` program, run from the project folder without colours.
pub fn ois() -> assert_cmd::Command {
    let mut command = assert_cmd::Command::cargo_bin("ois").expect("binary");
    command.current_dir(env!("CARGO_MANIFEST_DIR")).env("NO_COLOR", "1");
    command
}

/// A valid OIS (3.0.0) with one endpoint, `item`, on GET /items/{id}, an API key in the query and
/// a fixed parameter: the base the tests change one thing of.
pub fn base_ois() -> Value {
    serde_json::json!({
        "oisFormat": "3.0.0", "title": "Base", "version": "1.0.0",
        "apiSpecifications": {
            "servers": [{"url": "https://api.example.com"}],
            "paths": {"/items/{id}": {"get": {"parameters": [{"in": "path", "name": "id"}, {"in": "query", "name": "q"}]}}},
            "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "query", "name": "k"}}},
            "security": {"key": []}
        },
        "endpoints": [{
            "name": "item",
            "operation": {"method": "get", "path": "/items/{id}"},
            "fixedOperationParameters": [{"operationParameter": {"in": "query", "name": "q"}, "value": "x"}],
            "reservedParameters": [{"name": "_type", "fixed": "int256"}],
            "parameters": [{"name": "id", "operationParameter": {"in": "path", "name": "id"}}]
        }]
    })
}

/// Sets (or adds) the member at `pointer`, or removes it when `value` is `None`.
pub fn edit(ois: &mut Value, pointer: &str, value: Option<Value>) {
    let (parent, key) = pointer.rsplit_once('/').expect("pointer");
    let key = key.replace("~1", "/").replace("~0", "~");
    match (ois.pointer_mut(parent).unwrap_or_else(|| panic!("no {parent}")), value) {
        (Value::Object(map), Some(value)) => {
            map.insert(key, value);
        }
        (Value::Object(map), None) => {
            map.shift_remove(&key);
        }
        (Value::Array(items), Some(value)) => {
            let index: usize = key.parse().expect("index");
            if index == items.len() { items.push(value) } else { items[index] = value }
        }
        (Value::Array(items), None) => {
            items.remove(key.parse::<usize>().expect("index"));
        }
        _ => panic!("{pointer}: parent is not a container"),
    }
}

/// `tests/interop`, where `npm ci` installs the real packages.
pub fn interop_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/interop")
}

/// Runs `tests/interop/SCRIPT` on `input` (passed as a file) and returns what it prints.
pub fn run_node(script: &str, input: &Value) -> Value {
    run_node_with(script, input, None)
}

/// [`run_node`] with the `@api3/commons` the node package at `commons_from` loads (its scripts
/// take `@api3/commons` through `tests/interop/commons.js`), or the one installed here.
pub fn run_node_with(script: &str, input: &Value, commons_from: Option<&std::path::Path>) -> Value {
    let file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(file.path(), input.to_string()).expect("write");
    let mut command = Command::new("node");
    command.arg(interop_dir().join(script)).arg(file.path());
    if let Some(from) = commons_from {
        command.env("COMMONS_FROM", from);
    }
    let output = command.output().expect("node runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("the script prints JSON")
}

/// Whether `tests/interop/node_modules/PACKAGE` is installed. When it is not, the test says so on
/// the terminal (not in captured output, so a skip never passes for a silent "ok"), and under CI
/// it fails instead.
pub fn interop_installed(package: &str) -> bool {
    if interop_dir().join("node_modules").join(package).exists() {
        return true;
    }
    let message = format!("tests/interop is not installed ({package} is missing): run `npm ci --prefix tests/interop`");
    assert!(std::env::var_os("CI").is_none(), "{message}");
    say_skipped(&message);
    false
}

/// The entry point of a real node's `package` (`airnode-feed`, `signed-api`) at `version`: 3.3.0
/// from the npm registry (`npm ci --prefix tests/interop`), 4.6.0 built from `../shared/nodes`
/// (`tests/interop/build-node-4.sh`). `None` (said on the terminal; a failure under CI) when it is
/// not there.
pub fn node_main(version: &str, package: &str) -> Option<PathBuf> {
    let (main, how) = match version {
        "3.3.0" => (
            interop_dir().join("node_modules/@api3").join(package).join("dist/src/index.js"),
            "npm ci --prefix tests/interop",
        ),
        _ => (
            interop_dir().join(format!("nodes/signed-api-{version}/packages/{package}/dist/src/index.js")),
            "bash tests/interop/build-node-4.sh",
        ),
    };
    if main.is_file() {
        return Some(main);
    }
    let message = format!("{package} {version} is not there ({}): run `{how}`", main.display());
    assert!(std::env::var_os("CI").is_none(), "{message}");
    say_skipped(&message);
    None
}

/// The `@api3/commons` of each node generation, by the package folder that loads it: Airnode
/// 0.15's (installed here, for airnode-adapter), Airnode Feed 3.3.0's and 4.6.0's. The
/// differential tests of processing, IDs, interpolation and config hashes run against each.
pub fn commons_generations() -> Vec<(&'static str, Option<PathBuf>)> {
    let mut generations = vec![("the commons installed for Airnode 0.15", None)];
    for (label, version) in [("Airnode Feed 3.3.0's commons", "3.3.0"), ("Airnode Feed 4.6.0's commons", "4.6.0")] {
        if let Some(main) = node_main(version, "airnode-feed") {
            let package = main.parent().and_then(Path::parent).and_then(Path::parent).map(Path::to_path_buf);
            generations.push((label, package));
        }
    }
    generations
}

/// Writes `skipped: MESSAGE` to the real stderr, past the test harness's capture.
pub fn say_skipped(message: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "skipped: {message}");
}

/// `../shared` (specs, examples, corpus), next to the project: a test that needs it fails with
/// a message naming it when it is missing.
pub fn shared_dir() -> PathBuf {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    assert!(
        shared.join("corpus").is_dir() && shared.join("examples").is_dir(),
        "this test reads ../shared (corpus, examples, spec), which is missing: put the shared folder next to the project"
    );
    shared
}

/// A fixed xorshift sequence for generated cases, so a failing case can be reproduced from its seed.
pub struct Rng(pub u64);

impl Rng {
    /// The next number of the sequence.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (which must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One of `items` (which must not be empty).
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items.get(self.below(items.len())).copied().unwrap_or_default()
    }
}

/// The pair names (`"BTC/USD"`) a processing snippet's `preProcessingObject` /
/// `postProcessingObject` table is keyed by, each once, in order.
pub fn table_names(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in code.lines() {
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix('"')
            && let Some(end) = rest.find('"')
            && rest[end + 1..].trim_start().starts_with(':')
        {
            let name = &rest[..end];
            if name.contains('/') && !names.iter().any(|n| n == name) {
                names.push(name.to_owned());
            }
        }
    }
    names
}

/// A child `ois mock`, stopped when dropped, and the address it serves on.
pub struct MockProcess {
    child: std::process::Child,
    pub base: String,
}

impl Drop for MockProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `ois mock FROM MORE...` on a free port of 127.0.0.1 (its first line of output is its address).
pub fn ois_mock(from: &std::path::Path, more: &[&str]) -> MockProcess {
    use std::io::BufRead;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ois"))
        .arg("mock")
        .arg(from)
        .args(["--port", "0"])
        .args(more)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("ois mock runs");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("its output");
    std::io::BufReader::new(stdout).read_line(&mut line).expect("its address");
    MockProcess { child, base: line.trim().to_owned() }
}

/// `text` (a command's JSON report) parsed and checked against the schema `ois schema --reports`
/// gives it under `name`: a field printed but not typed, or typed but not printed as typed, fails.
pub fn report_of(name: &str, text: &[u8]) -> Value {
    let value: Value = serde_json::from_slice(text)
        .unwrap_or_else(|e| panic!("{name}: not JSON ({e}): {}", String::from_utf8_lossy(text)));
    assert_report_schema(name, &value);
    value
}

/// Checks `report` against the schema of the report `name`.
pub fn assert_report_schema(name: &str, report: &Value) {
    let mut schema = ois::jobs::report_schemas::document();
    assert!(schema["$defs"].get(name).is_some(), "no report schema named {name}");
    schema["$ref"] = Value::String(format!("#/$defs/{name}"));
    let validator = jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{name}: the schema: {e}"));
    let errors: Vec<String> =
        validator.iter_errors(report).take(5).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{name} does not match its schema:\n{}\n{report:#}", errors.join("\n"));
}
