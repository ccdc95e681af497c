//! Every console example of the README and docs/ runs: each ```console block's `$ ois …` lines
//! are run (in a scratch folder holding a copy of `samples/` and `docs/examples/`, with a loopback
//! API on 127.0.0.1:8765 the test starts), and what they print — standard output, then standard
//! error — must be the block's text. `...` on a line of its own stands for any lines, `[..]` within
//! a line for any text, `? N` after the output for the exit code when it is not 0. A changed flag or
//! message fails until the docs follow; `UPDATE_DOCS=1 cargo test --test it console_examples` writes
//! the outputs back into the files. The examples of a file share one folder, in order.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use std::path::{Path, PathBuf};

use common::scratch::{copy_dir, words};
use common::server::{Server, answer};

/// The port the docs' examples call (`http://127.0.0.1:8765`).
const PORT: u16 = 8765;

/// One `$ ois …` and what it printed.
struct Step {
    command: String,
    expected: Vec<String>,
    code: i32,
}

/// The ```console blocks of a Markdown text: each block's first line index and its steps.
fn blocks(text: &str) -> Vec<(usize, usize, Vec<Step>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        if lines[at].trim_end() != "```console" {
            at += 1;
            continue;
        }
        let start = at + 1;
        let mut end = start;
        while end < lines.len() && lines[end].trim_end() != "```" {
            end += 1;
        }
        let mut steps: Vec<Step> = Vec::new();
        let mut line = start;
        while line < end {
            let Some(first) = lines[line].strip_prefix("$ ") else {
                if let Some(step) = steps.last_mut() {
                    match lines[line].strip_prefix("? ") {
                        Some(code) => step.code = code.trim().parse().expect("an exit code"),
                        None => step.expected.push(lines[line].to_owned()),
                    }
                }
                line += 1;
                continue;
            };
            let mut command = first.to_owned();
            while command.ends_with('\\') && line + 1 < end {
                command.pop();
                line += 1;
                command.push_str(lines[line].trim_start());
            }
            steps.push(Step { command, expected: Vec::new(), code: 0 });
            line += 1;
        }
        found.push((start, end, steps));
        at = end + 1;
    }
    found
}

/// Whether `actual` is what `expected` shows (`...` lines, `[..]` within a line).
fn matches(expected: &[String], actual: &[&str]) -> bool {
    fn line_matches(pattern: &str, line: &str) -> bool {
        let parts: Vec<&str> = pattern.split("[..]").collect();
        if parts.len() == 1 {
            return pattern == line;
        }
        let mut rest = line;
        for (index, part) in parts.iter().enumerate() {
            if index == 0 {
                let Some(after) = rest.strip_prefix(part) else { return false };
                rest = after;
            } else if index == parts.len() - 1 {
                return rest.ends_with(part);
            } else {
                let Some(found) = rest.find(part) else { return false };
                rest = &rest[found + part.len()..];
            }
        }
        true
    }
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => (0..=actual.len()).any(|skip| matches(rest, &actual[skip..])),
        Some((first, rest)) => {
            actual.split_first().is_some_and(|(line, more)| line_matches(first, line) && matches(rest, more))
        }
    }
}

/// The API the examples call: `GET /price` answers `{"price": 61234.5}`.
fn api() -> Option<Server> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", PORT)).ok()?;
    drop(listener);
    let server = Server::start_on(PORT, |request, stream| match request.path() {
        "/price" => answer(stream, "200 OK", "application/json", "", br#"{"price": 61234.5}"#),
        _ => answer(stream, "404 Not Found", "text/plain", "", b"no such path"),
    });
    Some(server)
}

fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn every_console_example_prints_what_the_docs_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(_api) = api() else {
        common::say_skipped(&format!("console examples: 127.0.0.1:{PORT} is taken"));
        assert!(std::env::var_os("CI").is_none(), "127.0.0.1:{PORT} is taken");
        return;
    };
    let update = std::env::var_os("UPDATE_DOCS").is_some();
    let mut failures = Vec::new();
    let mut ran = 0;
    for file in documents() {
        let text = std::fs::read_to_string(&file).unwrap();
        let found = blocks(&text);
        if found.is_empty() {
            continue;
        }
        let scratch = tempfile::tempdir().unwrap();
        copy_dir(&root.join("samples"), &scratch.path().join("samples"));
        copy_dir(&root.join("docs/examples"), &scratch.path().join("examples"));
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        // From the last block up, so rewriting one keeps the earlier ones' line numbers.
        let mut rewrites: Vec<(usize, usize, Vec<String>)> = Vec::new();
        for (start, end, steps) in &found {
            let mut block = Vec::new();
            for step in steps {
                let words = words(&step.command);
                assert_eq!(
                    words.first().map(String::as_str),
                    Some("ois"),
                    "{}: only ois runs: {}",
                    file.display(),
                    step.command
                );
                let output = common::ois().current_dir(scratch.path()).args(&words[1..]).output().unwrap();
                ran += 1;
                let printed =
                    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
                let actual: Vec<&str> = printed.lines().collect();
                let code = output.status.code().unwrap_or(-1);
                let fine = matches(&step.expected, &actual) && code == step.code;
                if !fine {
                    failures.push(format!(
                        "{}: $ {}\nexpected (exit {}):\n{}\nprinted (exit {code}):\n{printed}",
                        file.display(),
                        step.command,
                        step.code,
                        step.expected.join("\n")
                    ));
                }
                block.push(format!("$ {}", step.command));
                // What still matches stays as written (its `...` and `[..]` kept).
                if fine {
                    block.extend(step.expected.iter().cloned());
                } else {
                    block.extend(actual.iter().map(|l| (*l).to_owned()));
                }
                if code != 0 {
                    block.push(format!("? {code}"));
                }
            }
            rewrites.push((*start, *end, block));
        }
        if update {
            for (start, end, block) in rewrites.into_iter().rev() {
                lines.splice(start..end, block);
            }
            std::fs::write(&file, lines.join("\n") + "\n").unwrap();
        }
    }
    assert!(ran >= 5, "only {ran} console examples ran");
    if !update {
        assert!(
            failures.is_empty(),
            "{}\n(UPDATE_DOCS=1 cargo test --test it console_examples writes the outputs back)",
            failures.join("\n\n")
        );
    }
}
