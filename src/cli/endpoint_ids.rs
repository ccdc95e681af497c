//! `ois endpoint-ids`: every endpoint with the ID Airnode and Airnode Feed derive from it.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{ReportArg, Shell};

#[derive(clap::Args)]
pub(crate) struct EndpointIdsArgs {
    /// An OIS, an array of them, or a config.json.
    file: PathBuf,
    #[arg(long, value_enum, default_value = "text")]
    format: ReportArg,
}

pub(crate) fn run_endpoint_ids(args: EndpointIdsArgs, shell: &Shell) -> ExitCode {
    let rows = match ois::jobs::ids::endpoint_ids(&args.file) {
        Ok(rows) => rows,
        Err(error) => return shell.fail_as(&error, args.format == ReportArg::Json),
    };
    let text = match args.format {
        ReportArg::Json => super::json_text(&rows),
        ReportArg::Text => {
            rows.iter().map(|r| format!("{}  {} / {}\n", r.endpoint_id, r.ois_title, r.endpoint_name)).collect()
        }
    };
    shell.out_then_succeed(&text)
}
