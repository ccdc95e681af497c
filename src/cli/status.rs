//! `ois status CONFIG`: every beacon of a running deployment, live, signed right and equal to
//! what the API says now — once, or again every few seconds (`--watch`), printing what changed.

use std::process::ExitCode;
use std::time::Duration;

use ois::call::CallOptions;
use ois::jobs::call::CallJob;
use ois::jobs::status::{BeaconStatus, StatusJob, StatusReport};

use super::call::CallFormat;
use super::request::Inputs;
use super::{FAILURE, Shell};

#[derive(clap::Args)]
pub(crate) struct StatusArgs {
    #[command(flatten)]
    pub(crate) inputs: Inputs,
    /// The Signed API to read, instead of the one the config pushes to.
    #[arg(long = "signed-api-url", value_name = "URL")]
    signed_api_url: Option<String>,
    /// Which of the config's signed APIs (by name; default: its only one).
    #[arg(long = "signed-api", value_name = "NAME")]
    signed_api: Option<String>,
    /// The Signed API's secrets: its real-time read token (SIGNED_API_REAL_TIME_TOKEN) is sent.
    #[arg(long, value_name = "FILE")]
    signed_api_secrets: Option<std::path::PathBuf>,
    /// The Signed API endpoint that serves the data.
    #[arg(long, default_value = "/real-time", value_name = "PATH")]
    endpoint: String,
    /// The oldest a pushed value may be and still count as live, in seconds.
    #[arg(long, default_value_t = 60, value_name = "SECS")]
    max_age: u64,
    /// How far a pushed value may be from what the API says now (`1%` or `0.01`).
    #[arg(long, default_value = "1%", value_parser = super::call::parse_tolerance, value_name = "FRACTION")]
    tolerance: f64,
    /// What the API says now, answered from these recordings instead of asked.
    #[arg(long, value_name = "DIR")]
    replay: Option<std::path::PathBuf>,
    /// Seconds to wait for the Signed API and for each API call.
    #[arg(long, default_value_t = 10.0, value_name = "SECS")]
    timeout: f64,
    /// Triggers called at once.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: u16,
    /// Check again every SECONDS, printing only the beacons whose verdict changed (until Ctrl+C).
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    watch: Option<u64>,
    #[arg(long, value_enum, default_value = "text")]
    format: CallFormat,
}

pub(crate) fn run_status(args: StatusArgs, shell: &Shell) -> ExitCode {
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        let error =
            ois::Diagnostic::elsewhere(ois::Code::BadArgument, "--timeout must be a positive number of seconds");
        shell.diagnostics(&[error], None);
        return ExitCode::from(FAILURE);
    }
    let timeout = Duration::from_secs_f64(args.timeout.min(86_400.0));
    let mut options = CallOptions::default();
    options.timeout = timeout;
    options.replay = args.replay.clone().map(ois::call::recording::Recordings::at);
    let job = |now: u64| {
        let mut job = StatusJob::new(CallJob::new(args.inputs.call_inputs(), options.clone()), now);
        job.signed_api_url = args.signed_api_url.clone();
        job.signed_api = args.signed_api.clone();
        job.signed_api_secrets = args.signed_api_secrets.clone();
        job.endpoint = args.endpoint.clone();
        job.max_age = args.max_age;
        job.tolerance = args.tolerance;
        job.timeout = timeout;
        job.jobs = usize::from(args.jobs);
        job
    };
    let Some(every) = args.watch else { return once(&args, &job(super::now()), shell) };
    let mut before: Option<StatusReport> = None;
    loop {
        match ois::jobs::status::run(&job(super::now())) {
            Ok(report) => {
                let changed: Vec<&BeaconStatus> = match &before {
                    Some(before) => report.changed_since(before),
                    None => report.beacons.iter().collect(),
                };
                if !changed.is_empty() {
                    let stamp = super::now();
                    let _ = shell.out(&format!(
                        "at {stamp}: {} live, {} not\n{}",
                        report.live,
                        report.failing,
                        table(&changed)
                    ));
                }
                before = Some(report);
            }
            Err(mut stop) => {
                shell.settle(&mut stop.located.diagnostics, stop.located.source.as_ref());
                shell.diagnostics(&stop.located.diagnostics, stop.located.source.as_ref());
                before = None;
            }
        }
        std::thread::sleep(Duration::from_secs(every));
    }
}

fn once(args: &StatusArgs, job: &StatusJob, shell: &Shell) -> ExitCode {
    let mut report = match ois::jobs::status::run(job) {
        Ok(report) => report,
        Err(mut stop) => {
            shell.settle(&mut stop.located.diagnostics, stop.located.source.as_ref());
            if args.format == CallFormat::Json {
                let _ = shell.out(&*super::js_json_text(&super::as_value(&stop.view())));
            }
            if let Some(machine) = args.format.machine() {
                let file = args.inputs.file.display().to_string();
                let text = super::machine_report(machine, &[(&file, &stop.located.diagnostics)]).unwrap_or_default();
                let _ = shell.out(&*ois::emit::printable(&text));
            }
            shell.diagnostics(&stop.located.diagnostics, stop.located.source.as_ref());
            return ExitCode::from(FAILURE);
        }
    };
    shell.settle(&mut report.located.diagnostics, report.located.source.as_ref());
    let output = match args.format {
        CallFormat::Json => shell.report_js_json(&mut report),
        CallFormat::Text => {
            shell.diagnostics(&report.located.diagnostics, report.located.source.as_ref());
            let beacons: Vec<&BeaconStatus> = report.beacons.iter().collect();
            format!(
                "{}\n{} beacon(s) at {}: {} live, {} not (Airnode {})\n",
                table(&beacons),
                report.beacons.len(),
                report.signed_api,
                report.live,
                report.failing,
                report.airnode
            )
        }
        machine => {
            let file = args.inputs.file.display().to_string();
            let diagnostics = &report.located.diagnostics;
            machine.machine().and_then(|m| super::machine_report(m, &[(&file, diagnostics)])).unwrap_or_default()
        }
    };
    if shell.out(&*ois::emit::printable(&output)).is_err() {
        return ExitCode::from(FAILURE);
    }
    if report.failing == 0 { ExitCode::SUCCESS } else { ExitCode::from(FAILURE) }
}

/// A row per beacon: what it is, how old, who signed, the values and the verdict.
fn table(beacons: &[&BeaconStatus]) -> String {
    use ois::node::ids::short;
    let dash = || "-".to_owned();
    let mut table =
        ois::report::Table::new(["beacon", "feed", "age", "signed by", "pushed", "now", "deviation", "verdict"]);
    for beacon in beacons {
        table.row([
            short(&beacon.beacon_id),
            beacon.feed.as_ref().map_or_else(|| beacon.endpoint.clone(), |feed| format!("{} {feed}", beacon.endpoint)),
            beacon.age_seconds.map_or_else(dash, |age| format!("{age} s")),
            beacon.signer.as_deref().map_or_else(dash, short),
            beacon.pushed.clone().map_or_else(dash, |v| super::shorten(&v)),
            beacon.now.clone().map_or_else(dash, |v| super::shorten(&v)),
            beacon.deviation.map_or_else(dash, |d| format!("{:+.2} %", d * 100.0)),
            beacon.verdict.to_owned(),
        ]);
    }
    table.render()
}
