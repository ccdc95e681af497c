//! `ois schema`: the JSON Schema of an OIS object (or a node config) for editors.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use ois::FormatFamily;

use super::validate::parse_family;

use super::Shell;

#[derive(Args)]
pub(crate) struct SchemaArgs {
    /// The OIS format family (2.3.x or 3.0.x); by default the one the newest released node reads
    /// (airnode-feed@3: 2.3.x).
    #[arg(long, value_name = "VERSION", value_parser = parse_family, conflicts_with = "target")]
    ois_format: Option<FormatFamily>,
    /// The node that reads the OIS: airnode@0.15, airnode-feed@3 (OIS 2.3.x), airnode-feed@4,
    /// airnode@next (3.0.x), or a release exactly (airnode-feed@4.2.0).
    #[arg(long, value_parser = super::parse_target, value_name = "NODE")]
    target: Option<super::TargetArg>,
    /// The schema of a whole config (Airnode config.json or Airnode Feed config): its `ois`
    /// objects and `apiCredentials`.
    #[arg(long)]
    config: bool,
    /// The schema of every report a command prints as JSON (`--format json`, `--report json`),
    /// by name under `$defs`: `ConvertReport`, `ValidateReport`, `CallReport`, `Diagnostic`, …
    #[arg(long, conflicts_with_all = ["config", "target", "ois_format"])]
    reports: bool,
    /// Write it to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace FILE when it exists.
    #[arg(long)]
    force: bool,
}

pub(crate) fn run_schema(args: SchemaArgs, shell: &Shell) -> ExitCode {
    let mut job = ois::jobs::schema::SchemaJob::default();
    job.family = args.target.map(|t| t.target().family()).or(args.ois_format);
    job.config = args.config;
    job.reports = args.reports;
    job.output = args.output;
    job.force = args.force;
    match ois::jobs::schema::run(&job) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => shell.fail(&error),
    }
}
