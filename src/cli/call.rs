//! `ois call`: the real API call, one endpoint or all of them.

use std::process::ExitCode;
use std::time::Duration;

use clap::ValueEnum;

use ois::call::{CallOptions, DEFAULT_MAX_RESPONSE_BYTES, Reply};
use ois::jobs::call::{AllReport, CallJob, EndpointCall};
use ois::jobs::call_config::{ConfigCallReport, ManyReport};
use ois::request::render;
use ois::{Code, Diagnostic};

use super::request::{Inputs, show_stop};
use super::{FAILURE, Shell};

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum CallFormat {
    Text,
    Json,
    /// SARIF 2.1.0 of what failed (a scheduled CI job watching a feed's source: `--check`).
    Sarif,
    /// GitHub Actions workflow commands of what failed.
    Github,
}

impl CallFormat {
    /// The machine format of diagnostics this is, if it is one.
    pub(crate) fn machine(self) -> Option<super::DiagnosticsArg> {
        match self {
            CallFormat::Sarif => Some(super::DiagnosticsArg::Sarif),
            CallFormat::Github => Some(super::DiagnosticsArg::Github),
            CallFormat::Text | CallFormat::Json => None,
        }
    }
}

#[derive(clap::Args)]
pub(crate) struct CallArgs {
    #[command(flatten)]
    pub(crate) inputs: Inputs,
    /// The endpoint to call. Without it, an Airnode Feed config is called whole: every trigger as
    /// the Feed calls it, a row per beacon.
    #[arg(long, conflicts_with_all = ["all", "feed", "all_feeds"])]
    endpoint: Option<String>,
    /// The feed to call, by name, of the OIS's `feed` endpoint (`ois feed list`).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["all", "all_feeds"])]
    feed: Option<String>,
    /// Call every feed served by name, as the Airnode Feed config `ois scaffold feed --all-feeds`
    /// makes would: one API call for the feeds one call answers, a row per feed.
    #[arg(long, conflicts_with_all = ["all", "compare"])]
    all_feeds: bool,
    /// Call every endpoint, each with its parameters' `example` values (and defaults); --param
    /// values are added to every call. On an Airnode Feed config: its templates.
    #[arg(long)]
    all: bool,
    /// Calling many (--all, a Feed config): how many calls run at once.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: u16,
    #[arg(long, value_enum, default_value = "text")]
    format: CallFormat,
    /// Seconds to wait for the API's whole answer (the node waits 10).
    #[arg(long, default_value_t = 10.0, value_name = "SECS")]
    timeout: f64,
    /// With --endpoint: list every leaf of the (post-processed) answer with its `_path` and the
    /// `_type`/`_times` that fit it, to pick from.
    #[arg(long)]
    paths: bool,
    /// The largest answer read, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_RESPONSE_BYTES, value_name = "N")]
    max_response_bytes: u64,
    /// Keep each exchange in DIR, one readable JSON file per request (credentials replaced, never
    /// written; a recording made again is rewritten only when the answer changed).
    #[arg(long, value_name = "DIR", conflicts_with = "replay")]
    record: Option<std::path::PathBuf>,
    /// Answer from the recordings in DIR instead of the API: nothing is sent (CAL011 when none
    /// answers a request).
    #[arg(long, value_name = "DIR", conflicts_with = "check")]
    replay: Option<std::path::PathBuf>,
    /// Call the API and compare each answer with its recording in DIR: a value gone, of another
    /// type, or a number moved by more than --tolerance is drift (CAL012, exit 1).
    #[arg(long, value_name = "DIR", conflicts_with = "record")]
    check: Option<std::path::PathBuf>,
    /// Call the config and OTHER beacon by beacon, and print both values and their difference:
    /// OTHER is another config (a mock or staging one, calling its own servers) or a folder of
    /// recordings (the same config answered from them). For moving mock → staging → live. With
    /// --replay DIR, both are answered from DIR (a recording answers its path and query on any
    /// server): a staging copy checked against the original offline.
    #[arg(long, value_name = "OTHER", conflicts_with_all = ["endpoint", "all", "record", "check"])]
    compare: Option<std::path::PathBuf>,
    /// Accept templates (feeds) answered by one API call that get the same value: without it, each
    /// pair is an error (CAL013), as one of them is likely reading the other's element.
    #[arg(long)]
    allow_equal: bool,
    /// With --check: how far a number may move, relative (`5%` or `0.05`).
    #[arg(long, value_name = "FRACTION", default_value = "5%", value_parser = parse_tolerance, requires = "check")]
    tolerance: f64,
}

/// `5%` or `0.05`: a relative change, not negative.
pub(crate) fn parse_tolerance(text: &str) -> Result<f64, String> {
    let (number, scale) = match text.strip_suffix('%') {
        Some(percent) => (percent, 100.0),
        None => (text, 1.0),
    };
    match number.trim().parse::<f64>() {
        Ok(value) if value.is_finite() && value >= 0.0 => Ok(value / scale),
        _ => Err(format!("\"{text}\" is not a tolerance: write 5% or 0.05")),
    }
}

/// Lines of a body shown on a terminal before it is cut.
const BODY_LINES_ON_TERMINAL: usize = 40;

/// What `ois call` was asked to do, resolved from its arguments once.
enum CallMode {
    /// Two configs' beacons side by side (`--compare OTHER`).
    Compare(std::path::PathBuf),
    /// Every endpoint (`--all`), every feed (`--all-feeds`), or a whole config's templates.
    Many,
    /// One call's answer as the value picker lists it (`--paths`).
    Paths(String),
    /// One call, only its diagnostics, as SARIF or GitHub commands.
    Diagnostics(String, super::DiagnosticsArg),
    /// One call, shown.
    One(String),
}

impl CallMode {
    /// The mode `args` ask for, with the endpoint (a feed's, when it names one) in `inputs`.
    fn of(args: &CallArgs, inputs: &mut ois::jobs::request::CallInputs) -> Result<CallMode, Diagnostic> {
        if args.timeout.is_nan() || args.timeout <= 0.0 {
            return Err(Diagnostic::elsewhere(Code::BadArgument, "--timeout must be a positive number of seconds"));
        }
        let endpoint = match &args.feed {
            Some(name) => Some(inputs.ask_for_feed(name).to_owned()),
            None => args.endpoint.clone(),
        };
        Ok(match (endpoint, &args.compare) {
            (None, _) if args.paths => {
                return Err(Diagnostic::elsewhere(
                    Code::BadArgument,
                    "--paths lists one call's answer: name --endpoint or --feed",
                ));
            }
            (None, Some(other)) => CallMode::Compare(other.clone()),
            (None, None) => CallMode::Many,
            (Some(endpoint), _) if args.paths => CallMode::Paths(endpoint),
            (Some(endpoint), _) => match args.format.machine() {
                Some(machine) => CallMode::Diagnostics(endpoint, machine),
                None => CallMode::One(endpoint),
            },
        })
    }
}

pub(crate) fn run_call(args: CallArgs, shell: &Shell) -> ExitCode {
    let mut inputs = args.inputs.call_inputs();
    let mode = match CallMode::of(&args, &mut inputs) {
        Ok(mode) => mode,
        Err(error) => {
            shell.diagnostics(&[error], None);
            return ExitCode::from(FAILURE);
        }
    };
    let job = CallJob::new(inputs, call_options(&args));
    match mode {
        CallMode::Compare(other) => compare(&args, &job, &other, shell),
        CallMode::Many => run_many(&args, &job, shell),
        CallMode::Paths(endpoint) => match ois::jobs::call::paths(&job, &endpoint) {
            Ok(mut report) => {
                super::request::show_paths(&mut report, &args.inputs.file, args.format == CallFormat::Json, shell)
            }
            Err(mut stopped) => super::request::show_stop_as(&mut stopped.stop, args.format == CallFormat::Json, shell),
        },
        CallMode::Diagnostics(endpoint, machine) => diagnostics_only(&args, &job, &endpoint, machine, shell),
        CallMode::One(endpoint) => one(&args, &job, &endpoint, shell),
    }
}

/// The call's options, as the arguments give them.
fn call_options(args: &CallArgs) -> CallOptions {
    let mut options = CallOptions::default();
    options.timeout = Duration::from_secs_f64(args.timeout.min(86_400.0));
    options.max_response_bytes = args.max_response_bytes;
    options.allow_equal_values = args.allow_equal;
    options.record = args.record.clone();
    options.replay = args.replay.clone().map(ois::call::recording::Recordings::at);
    options.check = args.check.clone().map(|folder| ois::call::drift::DriftCheck {
        recordings: ois::call::recording::Recordings::at(folder),
        tolerance: args.tolerance,
    });
    options
}

/// One call, only its diagnostics, as SARIF or GitHub commands.
fn diagnostics_only(
    args: &CallArgs,
    job: &CallJob,
    endpoint: &str,
    machine: super::DiagnosticsArg,
    shell: &Shell,
) -> ExitCode {
    let (mut diagnostics, source, ok) = match ois::jobs::call::one(job, endpoint, super::now()) {
        Ok(report) => (report.located.diagnostics, report.located.source, true),
        Err(stopped) => (stopped.stop.located.diagnostics, stopped.stop.located.source, false),
    };
    shell.settle(&mut diagnostics, source.as_ref());
    let file = args.inputs.file.display().to_string();
    let output = super::machine_report(machine, &[(&file, &diagnostics)]).unwrap_or_default();
    let written = shell.out(&*ois::emit::printable(&output));
    if ok && written.is_ok() { ExitCode::SUCCESS } else { ExitCode::from(FAILURE) }
}

/// A call's view written as JSON by `write`, its answer's body written from its text where it
/// lies: written with the rest, a 9 MB answer of a million prices would be built as values first.
fn with_body_spliced<V>(
    mut view: V,
    reply: fn(&mut V) -> Option<&mut ois::call::ReplyView>,
    write: impl FnOnce(&V) -> String,
) -> Vec<String> {
    let (Some(reply), Some((raw, stand_in))) = (reply(&mut view), ois::emit::stand_in()) else {
        return vec![write(&view)];
    };
    let body = std::mem::replace(&mut reply.body, raw);
    let style = ois::request::Style { pretty: true, javascript: true };
    ois::emit::splice_json(write(&view), &stand_in, |depth| ois::request::restyled(body.get(), style, depth))
}

/// One call, shown: the request, the answer, the value; or why it stopped.
fn one(args: &CallArgs, job: &CallJob, endpoint: &str, shell: &Shell) -> ExitCode {
    let show = args.inputs.show_secrets;
    match ois::jobs::call::one(job, endpoint, super::now()) {
        Ok(mut report) => {
            shell.settle(&mut report.located.diagnostics, report.located.source.as_ref());
            shell.diagnostics(&report.located.diagnostics, report.located.source.as_ref());
            let called = &report.called;
            let output = match args.format {
                CallFormat::Json => with_body_spliced(
                    called.view(show),
                    |view| view.call.as_mut(),
                    |view| shell.js_json(view, &report.located.diagnostics, report.located.source.as_ref()),
                ),
                // The machine formats were answered above.
                CallFormat::Text | CallFormat::Sarif | CallFormat::Github => {
                    let body_lines = shell.stdout_is_terminal().then_some(BODY_LINES_ON_TERMINAL);
                    let mut shown = render::text_before_answer(&called.exchange, show);
                    if let Some(reply) = &called.reply {
                        push_reply(&mut shown, reply, called.secrets(), show, body_lines);
                    }
                    shown.push_str(&render::answer_text(&called.exchange, show));
                    vec![shown]
                }
            };
            // What the API answered may not act on the terminal.
            let printable = match args.format {
                CallFormat::Json => ois::emit::printable_json,
                _ => ois::emit::printable,
            };
            match output.iter().try_for_each(|part| shell.out(&*printable(part))) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    shell.diagnostics(&[error], None);
                    ExitCode::from(FAILURE)
                }
            }
        }
        Err(mut stopped) => {
            shell.settle(&mut stopped.stop.located.diagnostics, stopped.stop.located.source.as_ref());
            if args.format == CallFormat::Json {
                // A script always has something to parse.
                let json = with_body_spliced(
                    stopped.view(show),
                    |view| view.call.as_mut(),
                    |view| super::js_json_text(&super::as_value(view)),
                );
                for part in json {
                    let _ = shell.out(&*ois::emit::printable_json(&part));
                }
            } else if let Some(reply) = &stopped.reply {
                let mut shown = String::new();
                push_reply(&mut shown, reply, &stopped.secrets, show, Some(BODY_LINES_ON_TERMINAL));
                shell.err(&shown);
            }
            show_stop(&stopped.stop, shell)
        }
    }
}

/// The answer for a person, added to `out`: status, latency, headers, the body (pretty when
/// JSON; cut after `body_lines`), secrets masked. A big body is written once, into `out`.
fn push_reply(out: &mut String, reply: &Reply, secrets: &[String], show: bool, body_lines: Option<usize>) {
    out.push_str(&format!("\nHTTP {} in {} ms\n", reply.status, reply.latency_ms()));
    for (name, value) in &reply.headers {
        out.push_str(&render::masked_text(secrets, show, &format!("{name}: {value}\n")));
    }
    let body = match &reply.json {
        Some(json) => render::masked_body(secrets, show, json, ois::request::Style { pretty: true, javascript: true }),
        None => render::masked_text(secrets, show, &reply.text),
    };
    out.push('\n');
    // Where the line after the last one shown starts, when there are more.
    let cut = body_lines.and_then(|limit| body.match_indices('\n').nth(limit.checked_sub(1)?).map(|(at, _)| at));
    match cut.filter(|at| body.get(at + 1..).is_some_and(|rest| !rest.is_empty())) {
        Some(at) => {
            out.push_str(body.get(..at).unwrap_or_default());
            let more = body.get(at + 1..).unwrap_or_default().lines().count();
            out.push_str(&format!("\n… ({more} more lines; --format json shows all)\n"));
        }
        None => {
            out.push_str(&body);
            out.push('\n');
        }
    }
}

/// A step of a run over many calls on the progress bar: the first sets its length.
fn stepper(progress: &indicatif::ProgressBar) -> impl Fn(usize) + Sync + '_ {
    let started = std::sync::atomic::AtomicBool::new(false);
    move |step: usize| {
        if started.swap(true, std::sync::atomic::Ordering::Relaxed) {
            progress.inc(step as u64);
        } else {
            progress.set_length(step as u64);
        }
    }
}

/// Two configs' beacons side by side.
fn compare(args: &CallArgs, job: &CallJob, other: &std::path::Path, shell: &Shell) -> ExitCode {
    let progress = shell.progress_bar();
    let compared =
        ois::jobs::compare::compare_runs(job, other, usize::from(args.jobs), super::now(), &stepper(&progress));
    progress.finish_and_clear();
    show_comparison(args, compared, shell)
}

fn run_many(args: &CallArgs, job: &CallJob, shell: &Shell) -> ExitCode {
    let progress = shell.progress_bar();
    let step = stepper(&progress);
    let report = if args.all_feeds {
        ois::jobs::call_config::every_feed(job, usize::from(args.jobs), super::now(), &step).map(ManyReport::Beacons)
    } else {
        ois::jobs::call_config::many(job, args.all, usize::from(args.jobs), super::now(), &step)
    };
    progress.finish_and_clear();
    let report = match report {
        Ok(report) => report,
        Err(mut stop) => return super::request::show_stop_as(&mut stop, args.format == CallFormat::Json, shell),
    };
    shell.diagnostics(report.diagnostics(), report.source());
    let mut diagnostics = report.diagnostics().to_vec();
    shell.settle(&mut diagnostics, report.source());
    let output = match (args.format, &report) {
        (CallFormat::Json, ManyReport::Endpoints(r)) => shell.js_json(r, &diagnostics, report.source()),
        (CallFormat::Json, ManyReport::Beacons(r)) => shell.js_json(r, &diagnostics, report.source()),
        (CallFormat::Text, ManyReport::Endpoints(r)) => summary_table(r),
        (CallFormat::Text, ManyReport::Beacons(r)) => beacon_table(r),
        (machine, _) => {
            let mut problems = report.problems();
            shell.settle(&mut problems, report.source());
            diagnostics.extend(problems);
            let file = args.inputs.file.display().to_string();
            machine.machine().and_then(|m| super::machine_report(m, &[(&file, &diagnostics)])).unwrap_or_default()
        }
    };
    // The problems in full, after the table, so the table stays readable.
    if args.format == CallFormat::Text {
        shell.diagnostics(&report.problems(), report.source());
    }
    let output = match args.format {
        CallFormat::Json => ois::emit::printable_json(&output),
        _ => ois::emit::printable(&output),
    };
    if let Err(error) = shell.out(&*output) {
        shell.diagnostics(&[error], None);
        return ExitCode::from(FAILURE);
    }
    if report.failed() == 0 { ExitCode::SUCCESS } else { ExitCode::from(FAILURE) }
}

/// The values, joined and cut to fit a column.
fn values_cell(values: Option<&Vec<serde_json::Value>>) -> String {
    let value = values
        .map(|v| {
            v.iter().map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_owned)).collect::<Vec<_>>().join(", ")
        })
        .unwrap_or_else(|| "-".to_owned());
    super::shorten(&value)
}

/// Rows under a header, drawn by the library's one table.
fn table<const N: usize>(header: [&str; N], rows: Vec<[String; N]>) -> String {
    let mut table = ois::report::Table::new(header);
    rows.into_iter().for_each(|row| table.row(row));
    table.render()
}

fn optional<T>(value: Option<T>, show: impl Fn(T) -> String) -> String {
    value.map_or_else(|| "-".to_owned(), show)
}

fn beacon_table(report: &ConfigCallReport) -> String {
    use ois::node::ids::short;
    let rows: Vec<[String; 9]> = report
        .beacons
        .iter()
        .map(|b| {
            [
                short(&b.template_id),
                optional(b.beacon_id.as_deref(), short),
                b.feed.as_ref().map_or_else(|| b.endpoint.clone(), |name| format!("{} {name}", b.endpoint)),
                optional(b.status, |s| s.to_string()),
                optional(b.latency_ms, |l| format!("{l} ms")),
                values_cell(b.values.as_ref()),
                optional(b.read_from.as_deref(), str::to_owned),
                optional(b.encoded_value.as_deref(), short),
                b.outcome.verdict.to_owned(),
            ]
        })
        .collect();
    let header = ["template", "beacon", "endpoint", "status", "latency", "value", "read from", "encoded", "verdict"];
    let mut out = table(header, rows);
    let airnode = report.airnode.as_deref().map(|a| format!(", Airnode {a}")).unwrap_or_default();
    let rows = if report.node == ois::node::ConfigKind::Airnode { "RRP template(s)" } else { "beacon(s)" };
    out.push_str(&format!(
        "\n{} {rows} from {} API call(s): {} ok, {} failed{airnode}\n",
        report.beacons.len(),
        report.api_calls,
        report.ok,
        report.failed
    ));
    out
}

fn summary_table(report: &AllReport) -> String {
    let rows: Vec<[String; 6]> = report
        .endpoints
        .iter()
        .map(|o: &EndpointCall| {
            [
                o.endpoint.clone(),
                optional(o.status, |s| s.to_string()),
                optional(o.latency_ms, |l| format!("{l} ms")),
                values_cell(o.values.as_ref()),
                optional(o.encoded_bytes, |b| format!("{b} B")),
                o.outcome.verdict.to_owned(),
            ]
        })
        .collect();
    let count = rows.len();
    let mut out = table(["endpoint", "status", "latency", "value", "encoded", "verdict"], rows);
    out.push_str(&format!("\n{count} endpoint(s): {} ok, {} failed\n", report.ok, report.failed));
    out
}

/// Two runs side by side: a table (or the report as JSON); exit 1 when a beacon failed in either
/// run or is in one only (values that differ are what a comparison is for).
fn show_comparison(
    args: &CallArgs,
    compared: Result<ois::jobs::compare::CompareReport, ois::jobs::request::Stop>,
    shell: &Shell,
) -> ExitCode {
    let mut report = match compared {
        Ok(report) => report,
        Err(mut stop) => return super::request::show_stop_as(&mut stop, args.format == CallFormat::Json, shell),
    };
    let output = if args.format == CallFormat::Json {
        shell.report_js_json(&mut report)
    } else {
        let rows: Vec<[String; 6]> = report
            .beacons
            .iter()
            .map(|b| {
                [
                    optional(b.beacon_id.as_deref().or(Some(b.template_id.as_str())), ois::node::ids::short),
                    b.endpoint.clone(),
                    values_cell(b.values.as_ref()),
                    values_cell(b.other_values.as_ref()),
                    optional(b.difference, |d| format!("{:+.2} %", d * 100.0)),
                    b.verdict.clone(),
                ]
            })
            .collect();
        let mut out = table(["beacon", "endpoint", "this", "other", "difference", "verdict"], rows);
        out.push_str(&format!("\n{} the same, {} not\n", report.same, report.different));
        out
    };
    if let Err(error) = shell.out(&*ois::emit::printable(&output)) {
        shell.diagnostics(&[error], None);
        return ExitCode::from(FAILURE);
    }
    let failed = report.beacons.iter().any(|b| b.verdict != "same" && b.verdict != "differs");
    if failed { ExitCode::from(FAILURE) } else { ExitCode::SUCCESS }
}
