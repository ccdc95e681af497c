//! `ois call`: the real API call, one endpoint or all of them.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::ValueEnum;
use serde_json::{Map, Value, json};

use ois::call::{CallFailure, CallOptions, Called, DEFAULT_MAX_RESPONSE_BYTES, Reply};
use ois::request::render;
use ois::{Code, Diagnostic, Source, Stage};

use super::request::Inputs;
use super::{FAILURE, write_stdout};

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum CallFormat {
    Text,
    Json,
}

#[derive(clap::Args)]
pub(crate) struct CallArgs {
    #[command(flatten)]
    pub(crate) inputs: Inputs,
    /// The endpoint to call.
    #[arg(long, required_unless_present = "all", conflicts_with = "all")]
    endpoint: Option<String>,
    /// Call every endpoint, each with its parameters' `example` values (and defaults); --param
    /// values are added to every call.
    #[arg(long)]
    all: bool,
    /// With --all: how many calls run at once.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: u16,
    #[arg(long, value_enum, default_value = "text")]
    format: CallFormat,
    /// Seconds to wait for the API's whole answer (the node waits 10).
    #[arg(long, default_value_t = 10.0, value_name = "SECS")]
    timeout: f64,
    /// The largest answer read, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_RESPONSE_BYTES, value_name = "N")]
    max_response_bytes: u64,
}

/// Lines of a body shown on a terminal before it is cut.
const BODY_LINES_ON_TERMINAL: usize = 40;

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

pub(crate) fn run_call(args: CallArgs) -> ExitCode {
    let terminal = std::io::stderr().is_terminal();
    let style = super::style_for(terminal);
    let source = match Source::read(&args.inputs.file) {
        Ok(source) => source,
        Err(error) => return report_and_fail(&[error], None, style),
    };
    if args.timeout.is_nan() || args.timeout <= 0.0 {
        let error = Diagnostic::elsewhere(Code::BadArgument, "--timeout must be a positive number of seconds");
        return report_and_fail(&[error], None, style);
    }
    let mut options = CallOptions::default();
    options.timeout = Duration::from_secs_f64(args.timeout.min(86_400.0));
    options.max_response_bytes = args.max_response_bytes;
    let warnings: Vec<Diagnostic> = args.inputs.engine.warning().into_iter().collect();
    if args.all {
        return run_all(&args, &source, &options, warnings, style);
    }
    let endpoint = args.endpoint.clone().unwrap_or_default();
    let (selected, request_options) = match args.inputs.setup(&source, &endpoint) {
        Ok(setup) => setup,
        Err(error) => return report_and_fail(&[warnings, vec![error]].concat(), Some(&source), style),
    };
    report(&warnings, Some(&source), style);
    let engine = args.inputs.engine.engine();
    let show = args.inputs.show_secrets;
    match ois::call::call(&selected.ois, &request_options, &engine, &options, now()) {
        Ok(called) => {
            let diagnostics: Vec<Diagnostic> =
                called.exchange.diagnostics().into_iter().map(|d| d.within(&selected.pointer)).collect();
            report(&diagnostics, Some(&source), style);
            let output = match args.format {
                CallFormat::Json => ois::js::stringify_pretty(&call_json(&called, show)) + "\n",
                CallFormat::Text => {
                    let body_lines = std::io::stdout().is_terminal().then_some(BODY_LINES_ON_TERMINAL);
                    render::text_before_answer(&called.exchange, show)
                        + &called
                            .reply
                            .as_ref()
                            .map(|r| reply_text(r, secrets_of(&called), show, body_lines))
                            .unwrap_or_default()
                        + &render::answer_text(&called.exchange)
                }
            };
            match write_stdout(&output) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => report_and_fail(&[error], None, style),
            }
        }
        Err(CallFailure { stopped, reply }) => {
            let logs: String =
                stopped.logs.iter().map(|log| format!("console ({}-processing): {}\n", log.phase, log.line)).collect();
            let _ = std::io::stderr().write_all(logs.as_bytes());
            if let Some(reply) = &reply {
                let secrets: Vec<String> = request_options.credentials.iter().map(|c| c.value.clone()).collect();
                let shown = reply_text(reply, &secrets, show, Some(BODY_LINES_ON_TERMINAL));
                let _ = std::io::stderr().write_all(shown.as_bytes());
            }
            let diagnostic = stopped.diagnostic.within(&selected.pointer);
            report_and_fail(&[diagnostic], Some(&source), style)
        }
    }
}

fn secrets_of(called: &Called) -> &[String] {
    called.exchange.request.as_ref().map_or(&[], |r| r.secrets.as_slice())
}

fn report(diagnostics: &[Diagnostic], source: Option<&Source>, style: ois::report::RenderStyle) {
    super::report_diagnostics(diagnostics, source, style);
}

fn report_and_fail(diagnostics: &[Diagnostic], source: Option<&Source>, style: ois::report::RenderStyle) -> ExitCode {
    report(diagnostics, source, style);
    ExitCode::from(FAILURE)
}

/// The answer for a person: status, latency, headers, the body (pretty when JSON), secrets masked.
fn reply_text(reply: &Reply, secrets: &[String], show: bool, body_lines: Option<usize>) -> String {
    let mut out = format!("\nHTTP {} in {} ms\n", reply.status, reply.latency.as_millis());
    for (name, value) in &reply.headers {
        out.push_str(&render::masked_text(secrets, show, &format!("{name}: {value}\n")));
    }
    let body = match &reply.json {
        Some(json) => ois::js::stringify_pretty(&render::masked_json(secrets, show, json)),
        None => render::masked_text(secrets, show, &reply.text),
    };
    out.push('\n');
    let lines: Vec<&str> = body.lines().collect();
    match body_lines {
        Some(limit) if lines.len() > limit => {
            out.push_str(&lines.iter().take(limit).copied().collect::<Vec<_>>().join("\n"));
            out.push_str(&format!("\n… ({} more lines; --format json shows all)\n", lines.len() - limit));
        }
        _ => {
            out.push_str(&body);
            out.push('\n');
        }
    }
    out
}

/// `ois request`'s JSON plus `"call": {"status", "latencyMs", "headers", "body"}`.
fn call_json(called: &Called, show: bool) -> Value {
    let mut out = render::json(&called.exchange, show);
    if let (Some(reply), Some(object)) = (&called.reply, out.as_object_mut()) {
        object.insert("call".to_owned(), reply_json(reply, secrets_of(called), show));
    }
    out
}

fn reply_json(reply: &Reply, secrets: &[String], show: bool) -> Value {
    let headers: Map<String, Value> = reply
        .headers
        .iter()
        .map(|(name, value)| (name.clone(), Value::String(render::masked_text(secrets, show, value))))
        .collect();
    let body = match &reply.json {
        Some(json) => render::masked_json(secrets, show, json),
        None => Value::String(render::masked_text(secrets, show, &reply.text)),
    };
    json!({"status": reply.status, "latencyMs": reply.latency.as_millis() as u64, "headers": headers, "body": body})
}

/// One endpoint's line of the `--all` summary.
struct Outcome {
    endpoint: String,
    status: Option<u16>,
    latency_ms: Option<u64>,
    values: Option<Vec<Value>>,
    encoded_bytes: Option<usize>,
    verdict: &'static str,
    problem: Option<Diagnostic>,
}

fn verdict(code: Code) -> &'static str {
    match code {
        Code::ValueNotFound | Code::CastFailed => "extraction failed",
        Code::InvalidType | Code::ReservedMismatch | Code::EncodedTooLarge | Code::EncodingFailed => "encoding failed",
        Code::ProcessingSyntax
        | Code::ProcessingThrew
        | Code::ProcessingTimeout
        | Code::ProcessingShape
        | Code::ProcessingValue
        | Code::NodeBuiltin
        | Code::ProcessingEngine => "processing failed",
        code if code.stage() == Stage::Call => "API error",
        _ => "request failed",
    }
}

/// The parameters an `--all` call gives an endpoint: each parameter's `example`, then `--param`s.
fn examples(endpoint: &Value) -> Vec<(String, Value)> {
    endpoint
        .get("parameters")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| Some((p.get("name")?.as_str()?.to_owned(), p.get("example")?.clone())))
        .collect()
}

fn run_all(
    args: &CallArgs,
    source: &Source,
    options: &CallOptions,
    warnings: Vec<Diagnostic>,
    style: ois::report::RenderStyle,
) -> ExitCode {
    use rayon::prelude::*;
    let (selected, base) = match args.inputs.setup(source, "") {
        Ok(setup) => setup,
        Err(error) => return report_and_fail(&[warnings, vec![error]].concat(), Some(source), style),
    };
    report(&warnings, Some(source), style);
    let endpoints: Vec<Value> = selected.ois.get("endpoints").and_then(Value::as_array).cloned().unwrap_or_default();
    let engine = args.inputs.engine.engine();
    let progress = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(endpoints.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(usize::from(args.jobs)).build();
    let call_one = |endpoint: &Value| -> Outcome {
        let name = endpoint.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
        let mut request_options = base.clone();
        request_options.endpoint = name.clone();
        let given = std::mem::take(&mut request_options.parameters);
        request_options.parameters = examples(endpoint).into_iter().collect();
        request_options.parameters.extend(given);
        let result = ois::call::call(&selected.ois, &request_options, &engine, options, now());
        progress.inc(1);
        match result {
            Ok(called) => Outcome {
                endpoint: name,
                status: called.reply.as_ref().map(|r| r.status),
                latency_ms: called.reply.as_ref().map(|r| r.latency.as_millis() as u64),
                values: called.exchange.answer.as_ref().map(|a| a.preview.values.clone()),
                encoded_bytes: called.exchange.answer.as_ref().map(|a| a.preview.encoded.len().saturating_sub(2) / 2),
                verdict: "ok",
                problem: None,
            },
            Err(CallFailure { stopped, reply }) => Outcome {
                verdict: verdict(stopped.diagnostic.code),
                problem: Some({
                    let mut diagnostic = stopped.diagnostic.within(&selected.pointer);
                    diagnostic.message = format!("endpoint \"{name}\": {}", diagnostic.message);
                    diagnostic
                }),
                endpoint: name,
                status: reply.as_ref().map(|r| r.status),
                latency_ms: reply.as_ref().map(|r| r.latency.as_millis() as u64),
                values: None,
                encoded_bytes: None,
            },
        }
    };
    let outcomes: Vec<Outcome> = match pool {
        Ok(pool) => pool.install(|| endpoints.par_iter().map(call_one).collect()),
        Err(_) => endpoints.iter().map(call_one).collect(),
    };
    progress.finish_and_clear();
    let failed = outcomes.iter().filter(|o| o.verdict != "ok").count();
    let output = match args.format {
        CallFormat::Json => {
            let rows: Vec<Value> = outcomes
                .iter()
                .map(|o| {
                    json!({"endpoint": o.endpoint, "status": o.status, "latencyMs": o.latency_ms, "values": o.values,
                        "encodedBytes": o.encoded_bytes, "verdict": o.verdict,
                        "code": o.problem.as_ref().map(|d| d.code.as_str()),
                        "message": o.problem.as_ref().map(|d| d.message.clone())})
                })
                .collect();
            ois::js::stringify_pretty(&json!({"endpoints": rows, "ok": outcomes.len() - failed, "failed": failed}))
                + "\n"
        }
        CallFormat::Text => summary_table(&outcomes),
    };
    // The problems in full, after the table, so the table stays readable.
    let problems: Vec<Diagnostic> = outcomes.iter().filter_map(|o| o.problem.clone()).collect();
    if args.format == CallFormat::Text {
        report(&problems, Some(source), style);
    }
    if let Err(error) = write_stdout(&output) {
        return report_and_fail(&[error], None, style);
    }
    if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(FAILURE) }
}

fn summary_table(outcomes: &[Outcome]) -> String {
    let rows: Vec<[String; 6]> = outcomes
        .iter()
        .map(|o| {
            let value = o
                .values
                .as_ref()
                .map(|v| {
                    v.iter()
                        .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_owned))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_else(|| "-".to_owned());
            let value: String =
                if value.chars().count() > 40 { value.chars().take(39).collect::<String>() + "…" } else { value };
            [
                o.endpoint.clone(),
                o.status.map_or_else(|| "-".to_owned(), |s| s.to_string()),
                o.latency_ms.map_or_else(|| "-".to_owned(), |l| format!("{l} ms")),
                value,
                o.encoded_bytes.map_or_else(|| "-".to_owned(), |b| format!("{b} B")),
                o.verdict.to_owned(),
            ]
        })
        .collect();
    let header = ["endpoint", "status", "latency", "value", "encoded", "verdict"].map(str::to_owned);
    let mut widths = header.clone().map(|h| h.chars().count());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: &[String; 6]| -> String {
        let padded: Vec<String> = cells.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
        padded.join("  ").trim_end().to_owned() + "\n"
    };
    let mut out = line(&header);
    for row in &rows {
        out.push_str(&line(row));
    }
    let failed = outcomes.iter().filter(|o| o.verdict != "ok").count();
    out.push_str(&format!("\n{} endpoint(s): {} ok, {failed} failed\n", outcomes.len(), outcomes.len() - failed));
    out
}
