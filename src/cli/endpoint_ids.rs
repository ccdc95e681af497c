//! `ois endpoint-ids`: every endpoint with the ID Airnode and Airnode Feed derive from it.

use std::path::PathBuf;
use std::process::ExitCode;

use super::config::read_oises;
use super::{ReportArg, fail_with, write_stdout};

#[derive(clap::Args)]
pub(crate) struct EndpointIdsArgs {
    /// An OIS, an array of them, or a config.json.
    file: PathBuf,
    #[arg(long, value_enum, default_value = "text")]
    format: ReportArg,
}

pub(crate) fn run_endpoint_ids(args: EndpointIdsArgs) -> ExitCode {
    let oises = match read_oises(&args.file) {
        Ok(oises) => oises,
        Err(error) => return fail_with(&error),
    };
    let mut rows = Vec::new();
    for ois_value in &oises {
        let title = ois_value.get("title").and_then(serde_json::Value::as_str).unwrap_or_default().to_owned();
        for (endpoint, id) in ois::node::endpoint_ids(ois_value) {
            rows.push((title.clone(), endpoint, id));
        }
    }
    let text = match args.format {
        ReportArg::Json => {
            let list: Vec<_> = rows
                .iter()
                .map(|(t, e, id)| serde_json::json!({"oisTitle": t, "endpointName": e, "endpointId": id}))
                .collect();
            serde_json::to_string_pretty(&list).unwrap_or_default() + "\n"
        }
        ReportArg::Text => rows.iter().map(|(t, e, id)| format!("{id}  {t} / {e}\n")).collect(),
    };
    match write_stdout(&text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail_with(&error),
    }
}
