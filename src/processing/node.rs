//! The `node` engine: the system Node.js runs the phase through a small harness that reproduces
//! commons' evaluation (`node:vm` contexts holding the Node.js built-ins, the same globals, the
//! same timeouts). Exact, and unsandboxed: a snippet can do whatever the user can.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Value, json};

use super::outcome::{Failure, FailureKind, Processed, locate_in_stack};
use super::{Environment, Job, NODE_BUILTINS, PHASE_TIMEOUT, Specification};

const HARNESS: &str = include_str!("harness.js");
/// Time for `node` itself to start and stop, beyond the phase's.
const START_MARGIN: Duration = Duration::from_secs(10);
/// The harness's answer is one JSON line; more than this is not an answer.
const MAX_ANSWER: u64 = 64 << 20;

#[derive(Deserialize)]
struct Answer {
    kind: String,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    timestamp: Option<String>,
    #[serde(default)]
    name: String,
    #[serde(default)]
    message: String,
    #[serde(default)]
    stack: String,
    #[serde(default, rename = "snippetIndex")]
    snippet_index: Option<usize>,
    #[serde(default)]
    logs: Vec<String>,
}

/// The harness, with the shared shape check and the built-in names filled in.
fn script() -> String {
    let names: Vec<Value> = NODE_BUILTINS.iter().map(|n| json!(n)).collect();
    format!("const FINISH = {};\nconst BUILTIN_NAMES = {};\n{HARNESS}", super::embedded::FINISH, Value::Array(names))
}

pub(super) fn run(job: &Job<'_>, program: Option<&Path>) -> Result<Processed, Failure> {
    let program = program.unwrap_or(Path::new("node"));
    let v2 = matches!(job.specification, Specification::V2(_));
    let snippets: Vec<Value> = job
        .specification
        .snippets()
        .iter()
        .map(|s| {
            let environment = if s.environment == Environment::Node { "Node" } else { "Node async" };
            json!({"environment": environment, "code": s.code, "timeoutMs": s.timeout_ms})
        })
        .collect();
    let request = json!({
        "phase": job.phase.name(),
        "v2": v2,
        "requireResponse": job.requires_response(),
        "snippets": snippets,
        "input": job.input,
        "parameters": job.parameters,
        "phaseTimeoutMs": PHASE_TIMEOUT.as_millis() as u64,
    });
    let engine = |message: String| Failure::new(FailureKind::Engine, message);
    let mut child = Command::new(program)
        .arg("-e")
        .arg(script())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| match error.kind() {
            std::io::ErrorKind::NotFound => engine(format!(
                "`{}` was not found: the node engine needs Node.js installed (the embedded engine does not)",
                program.display()
            )),
            _ => engine(format!("cannot start `{}`: {error}", program.display())),
        })?;
    let input = serde_json::to_vec(&request).map_err(|e| engine(e.to_string()))?;
    let mut stdin = child.stdin.take();
    let writer = std::thread::spawn(move || stdin.as_mut().map(|s| s.write_all(&input)));
    let mut stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(out) = stdout.as_mut() {
            let _ = out.take(MAX_ANSWER).read_to_string(&mut text);
        }
        text
    });
    let mut stderr = child.stderr.take();
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(err) = stderr.as_mut() {
            let _ = err.take(1 << 20).read_to_string(&mut text);
        }
        text
    });
    let deadline = Instant::now() + PHASE_TIMEOUT + START_MARGIN;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Failure::new(
                    FailureKind::Timeout,
                    format!("`node` did not finish the phase within {} s", (PHASE_TIMEOUT + START_MARGIN).as_secs()),
                ));
            }
        }
    }
    let _ = writer.join();
    let text = reader.join().unwrap_or_default();
    let error_text = errors.join().unwrap_or_default();
    let Some(answer) = text.lines().last().and_then(|line| serde_json::from_str::<Answer>(line).ok()) else {
        let detail = error_text.lines().find(|l| !l.trim().is_empty()).unwrap_or("no output");
        return Err(engine(format!("`{}` did not run the harness: {detail}", program.display())));
    };
    into_result(job, answer, v2)
}

fn into_result(job: &Job<'_>, answer: Answer, v2: bool) -> Result<Processed, Failure> {
    let snippets = job.specification.snippets();
    let pointer = answer.snippet_index.and_then(|i| snippets.get(i)).map(|s| s.pointer.clone());
    let kind = match answer.kind.as_str() {
        "ok" => {
            let value =
                match &answer.text {
                    Some(text) => Some(serde_json::from_str(text).map_err(|e| {
                        Failure::new(FailureKind::NotSerialisable, format!("the result is not JSON: {e}"))
                    })?),
                    None => None,
                };
            let timestamp = answer.timestamp.as_deref().and_then(|t| t.parse().ok());
            return Ok(Processed { value, timestamp, logs: answer.logs });
        }
        "shape" => FailureKind::Shape,
        "value" => FailureKind::NotSerialisable,
        "timeout" => FailureKind::Timeout,
        "syntax" => FailureKind::Syntax,
        _ => FailureKind::Threw,
    };
    let message = match kind {
        FailureKind::Shape => super::embedded::shape_message(job.phase, v2, answer.text.unwrap_or_default()),
        FailureKind::NotSerialisable => format!(
            "the {}-processed value cannot be carried as JSON: {}",
            job.phase.name(),
            answer.text.unwrap_or_default()
        ),
        FailureKind::Timeout => format!("the snippet ran past its time: {}", answer.message),
        FailureKind::Syntax => format!("the snippet does not parse: SyntaxError: {}", answer.message),
        _ if answer.name.is_empty() => format!("the snippet threw {}", answer.message),
        _ => format!("the snippet threw {}: {}", answer.name, answer.message),
    };
    let line_offset = u32::from(v2);
    let mut failure = Failure::new(kind, message);
    failure.line_column = locate_in_stack(&answer.stack, "snippet.js", line_offset);
    failure.pointer = pointer;
    failure.logs = answer.logs;
    Err(failure)
}
