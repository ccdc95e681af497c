//! `ois call`: the real API call, one endpoint or all of them.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::ValueEnum;

use ois::call::{CallOptions, DEFAULT_MAX_RESPONSE_BYTES, Reply};
use ois::jobs::call::{AllReport, CallJob, CallStop, EndpointCall};
use ois::request::render;
use ois::{Code, Diagnostic};

use super::request::{Inputs, show_stop};
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

pub(crate) fn run_call(args: CallArgs) -> ExitCode {
    let style = super::style_for(std::io::stderr().is_terminal());
    if args.timeout.is_nan() || args.timeout <= 0.0 {
        let error = Diagnostic::elsewhere(Code::BadArgument, "--timeout must be a positive number of seconds");
        super::report_diagnostics(&[error], None, style);
        return ExitCode::from(FAILURE);
    }
    let mut options = CallOptions::default();
    options.timeout = Duration::from_secs_f64(args.timeout.min(86_400.0));
    options.max_response_bytes = args.max_response_bytes;
    let job = CallJob::new(args.inputs.call_inputs(), options);
    if args.all {
        return run_all(&args, &job, style);
    }
    let show = args.inputs.show_secrets;
    match ois::jobs::call::one(&job, args.endpoint.as_deref().unwrap_or_default(), super::now()) {
        Ok(report) => {
            super::report_diagnostics(&report.diagnostics, report.source.as_ref(), style);
            let called = &report.called;
            let output = match args.format {
                CallFormat::Json => ois::js::stringify_pretty(&called.json(show)) + "\n",
                CallFormat::Text => {
                    let body_lines = std::io::stdout().is_terminal().then_some(BODY_LINES_ON_TERMINAL);
                    render::text_before_answer(&called.exchange, show)
                        + &called
                            .reply
                            .as_ref()
                            .map(|r| reply_text(r, called.secrets(), show, body_lines))
                            .unwrap_or_default()
                        + &render::answer_text(&called.exchange)
                }
            };
            // What the API answered may not act on the terminal.
            let output = match args.format {
                CallFormat::Json => ois::emit::printable_json(&output),
                CallFormat::Text => ois::emit::printable(&output),
            };
            match write_stdout(&*output) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    super::report_diagnostics(&[error], None, style);
                    ExitCode::from(FAILURE)
                }
            }
        }
        Err(CallStop { stop, reply, secrets, .. }) => {
            if let Some(reply) = &reply {
                let shown = reply_text(reply, &secrets, show, Some(BODY_LINES_ON_TERMINAL));
                let _ = std::io::stderr().write_all(ois::emit::printable(&shown).as_bytes());
            }
            show_stop(&stop, style)
        }
    }
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

fn run_all(args: &CallArgs, job: &CallJob, style: ois::report::RenderStyle) -> ExitCode {
    let progress =
        if std::io::stderr().is_terminal() { indicatif::ProgressBar::new(0) } else { indicatif::ProgressBar::hidden() };
    let started = std::sync::atomic::AtomicBool::new(false);
    let report = ois::jobs::call::all(job, usize::from(args.jobs), super::now(), &|step| {
        if started.swap(true, std::sync::atomic::Ordering::Relaxed) {
            progress.inc(step as u64);
        } else {
            progress.set_length(step as u64);
        }
    });
    progress.finish_and_clear();
    let report = match report {
        Ok(report) => report,
        Err(stop) => return show_stop(&stop, style),
    };
    super::report_diagnostics(&report.diagnostics, report.source.as_ref(), style);
    let output = match args.format {
        CallFormat::Json => {
            serde_json::to_value(&report).map(|v| ois::js::stringify_pretty(&v) + "\n").unwrap_or_default()
        }
        CallFormat::Text => summary_table(&report),
    };
    // The problems in full, after the table, so the table stays readable.
    if args.format == CallFormat::Text {
        let problems: Vec<Diagnostic> = report.endpoints.iter().filter_map(|c| c.problem.clone()).collect();
        super::report_diagnostics(&problems, report.source.as_ref(), style);
    }
    let output = match args.format {
        CallFormat::Json => ois::emit::printable_json(&output),
        CallFormat::Text => ois::emit::printable(&output),
    };
    if let Err(error) = write_stdout(&*output) {
        super::report_diagnostics(&[error], None, style);
        return ExitCode::from(FAILURE);
    }
    if report.failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(FAILURE) }
}

fn summary_table(report: &AllReport) -> String {
    let outcomes: &[EndpointCall] = &report.endpoints;
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
