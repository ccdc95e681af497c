//! `ois schema`: the JSON Schema of an OIS object (or a node config) for editors.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use ois::FormatFamily;

use super::validate::parse_family;

#[derive(Args)]
pub(crate) struct SchemaArgs {
    /// The OIS format family (2.3.x or 3.0.x); 3.0.x by default.
    #[arg(long, value_name = "VERSION", value_parser = parse_family, conflicts_with = "target")]
    ois_format: Option<FormatFamily>,
    /// The node that reads the OIS: airnode@0.15, airnode-feed@3 (OIS 2.3.x), airnode-feed@4,
    /// airnode@next (3.0.x).
    #[arg(long, value_enum)]
    target: Option<super::TargetArg>,
    /// The schema of a whole config (Airnode config.json or Airnode Feed config): its `ois`
    /// objects and `apiCredentials`.
    #[arg(long)]
    config: bool,
    /// Write it to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace FILE when it exists.
    #[arg(long)]
    force: bool,
}

pub(crate) fn run_schema(args: SchemaArgs) -> ExitCode {
    let family = args.target.map(|t| t.target().family()).or(args.ois_format).unwrap_or(FormatFamily::V3_0);
    let schema = if args.config { ois::schema::config_schema(family) } else { ois::schema::ois_schema(family) };
    let text = match serde_json::to_string_pretty(&schema) {
        Ok(text) => text + "\n",
        Err(error) => return super::fail_with(&ois::Diagnostic::elsewhere(ois::Code::OutputWrite, error.to_string())),
    };
    let mut plan = ois::emit::Plan::new();
    match &args.output {
        Some(path) => plan.file(path, text, args.force),
        None => plan.stdout(text),
    };
    let written = plan.write();
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => super::fail_with(&error),
    }
}
