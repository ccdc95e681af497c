//! The input of each code's case, read from the files beside its snapshot in `tests/codes/`, as
//! ruff keeps a fixture per rule. A file's name says what runs it: `<CODE>.<kind>`, or
//! `<CODE>.<n>.<kind>` for a further case of the same code (which must produce the code too; the
//! snapshot is the first case's).
//!
//! | kind | what runs |
//! |---|---|
//! | `ois.json` | the OIS rules ([`ois::check_ois`]) |
//! | `validate.json`, `config.json` | `ois validate` of an OIS file, of a config |
//! | `openapi.json` (+ `options.json`) | a conversion, with the options a `.convert.json` record keeps |
//! | `input.<ext>` | reading and converting a document named `a.<ext>` |
//! | `pre.js`, `post.js` | the base OIS's endpoint called with that V2 snippet |
//! | `response.json` | extracting and encoding `response` with the `reserved` parameters |
//! | `request.json` + `request.ois.json` | building a call (endpoint, parameters, credentials, metadata) of that OIS |
//! | `generated.json` | the converter's self-check of an OIS it generated |
//! | `update.json` | a three-way update: `old` converted, refined by `refine`, updated with `new` |
//! | `call.json` | the base OIS (changed by `refine`) called against loopback servers answering `answers` |
//! | `cmd` (+ `in/`) | `ois` command lines, run in a scratch folder holding `samples/` and the `<CODE>.in/` files |
//!
//! `refine` is a list of edits of an OIS: `{"set": POINTER, "value": V}` sets (or adds) a member,
//! `{"push": POINTER, "value": V}` appends to an array. In a `cmd`, every command but the last must
//! succeed; the last one's diagnostics are the case's (from its JSON report when it asks for one,
//! else each diagnostic's block of its text), with the scratch folder written `<tmp>`.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{Shown, converted, json_report_codes, processing_codes, request_codes, response_codes, shown, text_codes};
use crate::common;
use ois::{Code, ConvertOptions, Source};

/// The folder of the fixtures and snapshots.
pub fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/codes")
}

/// Every fixture's case, in the order of their file names: the code it must produce, and what
/// it produced.
pub fn cases() -> Vec<(Code, Vec<Shown>)> {
    let dir = folder();
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    // A code's own case first, then its further cases by number.
    names.sort_by_key(|name| {
        let mut parts = name.splitn(3, '.');
        let code = parts.next().unwrap_or_default().to_owned();
        let variant = parts.next().and_then(|part| part.parse::<u32>().ok()).unwrap_or(0);
        (code, variant, name.clone())
    });
    let mut cases = Vec::new();
    for name in &names {
        let Some((code, rest)) = name.split_once('.') else { continue };
        let Some(code) = Code::ALL.iter().copied().find(|c| c.as_str() == code) else {
            panic!("{name}: {code} is not a diagnostic code (a fixture of a code that is gone?)")
        };
        // `<CODE>.2.openapi.json`: a further case; its companions are `<CODE>.2.<companion>`.
        let (stem, kind) = match rest.split_once('.') {
            Some((n, kind)) if n.chars().all(|c| c.is_ascii_digit()) => (format!("{code}.{n}"), kind),
            _ => (code.as_str().to_owned(), rest),
        };
        let fixture = Fixture { dir: &dir, stem: &stem, file: name };
        let Some(shown) = fixture.run(kind) else { continue };
        cases.push((code, shown));
    }
    cases
}

/// One fixture file and the stem its companions share.
struct Fixture<'a> {
    dir: &'a Path,
    stem: &'a str,
    file: &'a str,
}

impl Fixture<'_> {
    fn text(&self) -> String {
        std::fs::read_to_string(self.dir.join(self.file)).unwrap()
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.text()).unwrap_or_else(|e| panic!("{}: {e}", self.file))
    }

    /// The companion file `<stem>.<kind>`, when there is one.
    fn companion(&self, kind: &str) -> Option<String> {
        std::fs::read_to_string(self.dir.join(format!("{}.{kind}", self.stem))).ok()
    }

    /// Runs the fixture of `kind`; `None` for a companion file (run with the file it goes with)
    /// or the snapshot. A file of no known kind fails the run: a misspelt fixture is not skipped.
    fn run(&self, kind: &str) -> Option<Vec<Shown>> {
        Some(match kind {
            "ois.json" => {
                let text = self.text();
                let ois: Value = serde_json::from_str(&text).unwrap();
                shown(&ois::check_ois(&ois, None), Some(&Source::from_text("ois.json", None, text)))
            }
            "pre.js" | "post.js" => processing_codes(kind.trim_end_matches(".js"), &self.text()),
            "response.json" => {
                let input = self.json();
                response_codes(input["response"].clone(), input["reserved"].clone())
            }
            "request.json" => {
                let call = self.json();
                let ois: Value = serde_json::from_str(&self.companion("request.ois.json").unwrap()).unwrap();
                request_codes(ois, &call)
            }
            "config.json" | "validate.json" => {
                let file = if kind == "config.json" { "config.json" } else { "ois.json" };
                let source = Source::from_text(file, None, self.text());
                shown(&ois::validate(&source, None).diagnostics, Some(&source))
            }
            "openapi.json" => {
                let options = match self.companion("options.json") {
                    Some(text) => {
                        serde_json::from_str::<ois::convert::GivenOptions>(&text).unwrap().convert_options().unwrap()
                    }
                    None => ConvertOptions::default(),
                };
                converted(&Source::from_text("openapi.json", None, self.text()), &options)
            }
            "generated.json" => {
                let text = self.text();
                let generated: Value = serde_json::from_str(&text).unwrap();
                let failures = ois::convert::self_check(&generated, ois::FormatFamily::V3_0).unwrap_err();
                // The generated OIS has no text of its own: reported without a line.
                shown(&failures, Some(&Source::from_text("ois.json", None, text)))
            }
            "update.json" => update_codes(&self.json()),
            "call.json" => call_codes(&self.json()),
            "cmd" => command_codes(&self.text(), &self.dir.join(format!("{}.in", self.stem))),
            kind if kind.starts_with("input.") => {
                let extension = kind.trim_start_matches("input.");
                text_codes(&format!("a.{extension}"), &std::fs::read(self.dir.join(self.file)).unwrap())
            }
            // A snapshot, or a file that goes with another (read with it).
            "txt" | "options.json" | "request.ois.json" | "in" => return None,
            other => panic!("{}: no fixture is of kind `{other}` (see tests/diagnostic_codes/fixtures.rs)", self.file),
        })
    }
}

/// Applies `edits` (`{"set"|"push": POINTER, "value": V}`) to `document`.
pub fn refine(document: &mut Value, edits: &Value) {
    for edit in edits.as_array().map(Vec::as_slice).unwrap_or_default() {
        let value = edit["value"].clone();
        if let Some(pointer) = edit["push"].as_str() {
            document
                .pointer_mut(pointer)
                .and_then(Value::as_array_mut)
                .unwrap_or_else(|| panic!("{pointer} is not an array"))
                .push(value);
            continue;
        }
        let pointer = edit["set"].as_str().unwrap_or_else(|| panic!("an edit is set or push: {edit}"));
        common::edit(document, pointer, Some(value));
    }
}

/// `{"old", "refine", "new", "base"}`: what `old` converts to, refined, updated with `new` (with
/// `old` as the base unless `base` is false); the merge's diagnostics.
fn update_codes(case: &Value) -> Vec<Shown> {
    use ois::update::{UpdateOptions, update};
    let source =
        |name: &str, document: &Value| Source::from_text(name, None, serde_json::to_string_pretty(document).unwrap());
    let old = source("old.json", &case["old"]);
    let mut ours = ois::convert(&old, &ConvertOptions::default()).expect("old converts").ois;
    refine(&mut ours, &case["refine"]);
    let ours = source("api.ois.json", &ours);
    let new = source("new.json", &case["new"]);
    let base = (case["base"] != json!(false)).then_some(&old);
    match update(&new, base, &ours, &UpdateOptions::default()) {
        Ok(update) => shown(&update.diagnostics, None),
        Err(failure) => shown(&failure.diagnostics, None),
    }
}

/// A loopback server that answers every connection with `answer`, after `delay_ms`, and closes
/// it (saying so: a client that kept the connection for the next request would find it closed).
/// Not `common::server::Server`, which answers only what parses as an HTTP request: this one
/// answers whatever arrives (a TLS hello for CAL003) with the raw bytes the fixture gives.
fn serve(answer: Vec<u8>, delay_ms: u64) -> String {
    use std::io::{Read, Write};
    let answer = match answer.windows(2).position(|w| w == b"\r\n") {
        Some(end) => [&answer[..end + 2], b"Connection: close\r\n", &answer[end + 2..]].concat(),
        None => answer,
    };
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let answer = answer.clone();
            std::thread::spawn(move || {
                let mut head = [0u8; 4096];
                let _ = stream.read(&mut head);
                std::thread::sleep(std::time::Duration::from_millis(delay_ms));
                let _ = stream.write_all(&answer);
            });
        }
    });
    base
}

/// `{"answers", "closed", "https", "delayMs", "timeoutMs", "maxResponseBytes", "refine",
/// "credentials", "check"}`: the base OIS's `item` endpoint (id 1) called with its server replaced by the
/// first of loopback servers that each answer with their `answers` (lines joined by CRLF; `{1}`
/// in one is the second server's URL), or by a port nothing listens on when `closed`. The call's
/// error, or the reply's notes; every server's port written `PORT`.
fn call_codes(case: &Value) -> Vec<Shown> {
    use ois::call::{CallOptions, call};
    use ois::request::{Credential, RequestOptions};
    let answers: Vec<String> = case["answers"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|lines| lines.as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect::<Vec<_>>().join("\r\n"))
        .collect();
    let delay = case["delayMs"].as_u64().unwrap_or(0);
    // The last server first: the ones before may name it.
    let mut servers: Vec<String> = Vec::new();
    for answer in answers.iter().rev() {
        let answer = match servers.first() {
            Some(next) => answer.replace("{1}", next),
            None => answer.clone(),
        };
        servers.insert(0, serve(answer.into_bytes(), delay));
    }
    if case["closed"] == json!(true) {
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        servers.insert(0, format!("http://{}", closed.local_addr().unwrap()));
    }
    let first = servers.first().expect("a server").clone();
    let url = if case["https"] == json!(true) { first.replacen("http://", "https://", 1) } else { first };
    let mut ois = common::base_ois();
    ois["apiSpecifications"]["servers"] = json!([{ "url": url }]);
    refine(&mut ois, &case["refine"]);
    let mut request = RequestOptions::new("item");
    request.parameters.insert("id".into(), json!("1"));
    if let Some(credentials) = case["credentials"].as_object() {
        request.credentials = credentials
            .iter()
            .map(|(scheme, value)| Credential {
                ois_title: "Base".into(),
                scheme: scheme.clone(),
                value: value.as_str().unwrap().into(),
            })
            .collect();
    }
    let mut options = CallOptions::default();
    if let Some(ms) = case["timeoutMs"].as_u64() {
        options.timeout = std::time::Duration::from_millis(ms);
    }
    if let Some(bytes) = case["maxResponseBytes"].as_u64() {
        options.max_response_bytes = bytes;
    }
    // `"check": {"recording", "tolerance"}`: the answer compared with that recording.
    let recordings = tempfile::tempdir().unwrap();
    if let Some(check) = case.get("check") {
        std::fs::write(recordings.path().join("get-items-1.json"), check["recording"].to_string()).unwrap();
        options.check = Some(ois::call::drift::DriftCheck {
            recordings: ois::call::recording::Recordings::at(recordings.path()),
            tolerance: check["tolerance"].as_f64().unwrap_or(0.05),
        });
    }
    let produced = match call(&ois, &request, &ois::processing::Engine::Embedded, &options, 0) {
        Ok(called) => called.reply.map(|reply| reply.notes).unwrap_or_default(),
        Err(failure) => vec![failure.stopped.diagnostic],
    };
    let ports: Vec<String> = servers.iter().map(|s| s.rsplit(':').next().unwrap_or_default().to_owned()).collect();
    shown(&produced, None)
        .into_iter()
        .map(|(code, mut text)| {
            for port in &ports {
                text = text.replace(port.as_str(), "PORT");
            }
            (code, text)
        })
        .collect()
}

/// Runs each command line of `script` (`#` starts a comment; `NAME=VALUE` words before `ois`
/// set its environment) in a scratch folder holding `samples/` and the files of `inputs`.
fn command_codes(script: &str, inputs: &Path) -> Vec<Shown> {
    let scratch = tempfile::tempdir().unwrap();
    common::scratch::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("samples"), &scratch.path().join("samples"));
    if inputs.is_dir() {
        common::scratch::copy_dir(inputs, scratch.path());
    }
    let lines: Vec<&str> = script.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    let (last, before) = lines.split_last().expect("a command");
    let run = |line: &str| {
        let words = common::scratch::words(line);
        let at = words.iter().position(|w| w == "ois").unwrap_or_else(|| panic!("only ois runs: {line}"));
        let mut command = common::ois();
        command.current_dir(scratch.path());
        for assignment in &words[..at] {
            let (name, value) = assignment.split_once('=').expect("NAME=VALUE");
            command.env(name, value);
        }
        let output = command.args(&words[at + 1..]).output().unwrap();
        (words, output)
    };
    for line in before {
        let (_, output) = run(line);
        assert!(output.status.success(), "{line}: {}", String::from_utf8_lossy(&output.stderr));
    }
    let (words, output) = run(last);
    let folder = scratch.path().display().to_string();
    let canonical = scratch.path().canonicalize().unwrap().display().to_string();
    let json = words.windows(2).any(|w| matches!(w[0].as_str(), "--report" | "--format") && w[1] == "json");
    // A report is on standard error, or is the output itself (`ois ids verify`).
    let produced = if json {
        json_report_codes(&output.stderr)
    } else {
        let printed = [output.stdout.as_slice(), b"\n\n", output.stderr.as_slice()].concat();
        text_blocks(&String::from_utf8_lossy(&printed))
    };
    produced
        .into_iter()
        .map(|(code, text)| (code, text.replace(&canonical, "<tmp>").replace(&folder, "<tmp>")))
        .collect()
}

/// Each diagnostic's block of a text report, by its code.
pub fn text_blocks(stderr: &str) -> Vec<Shown> {
    let blocks: Vec<&str> = stderr.split("\n\n").collect();
    Code::ALL
        .iter()
        .flat_map(|code| {
            let tag = format!("[{}]", code.as_str());
            blocks.iter().filter(move |b| b.contains(&tag)).map(move |b| (*code, format!("{b}\n")))
        })
        .collect()
}
