//! `ois config` and `ois endpoint-ids`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use ois::diagnostic::{Code, Diagnostic, RenderStyle, Severity};
use ois::output::{self, OutputFormat};
use ois::source::Source;
use ois::validate;

use super::{FAILURE, ReportArg, fail_with, write_stdout};

#[derive(clap::Args)]
pub(crate) struct ConfigArgs {
    /// OIS files (an OIS object or an array of them each).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write the config fragment here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write the secrets.env template here.
    #[arg(long, value_name = "FILE")]
    secrets_out: Option<PathBuf>,
    /// Replace existing output files.
    #[arg(long)]
    force: bool,
}

#[derive(clap::Args)]
pub(crate) struct EndpointIdsArgs {
    /// An OIS, an array of them, or a config.json.
    file: PathBuf,
    #[arg(long, value_enum, default_value = "text")]
    format: ReportArg,
}

/// The OIS objects in a file: an OIS, an array of them, or a config.json's `ois`.
pub(crate) fn read_oises(path: &std::path::Path) -> Result<(Source, Vec<serde_json::Value>), Diagnostic> {
    let source = Source::read(path)?;
    let document = source.parse()?;
    let oises = match document {
        serde_json::Value::Array(items) => items,
        serde_json::Value::Object(mut object) if object.contains_key("ois") => match object.remove("ois") {
            Some(serde_json::Value::Array(items)) => items,
            _ => return Err(Diagnostic::new(Code::WrongType, "/ois", "`ois` must be an array")),
        },
        other => vec![other],
    };
    Ok((source, oises))
}

pub(crate) fn run_config(args: ConfigArgs) -> ExitCode {
    let mut oises = Vec::new();
    for path in &args.files {
        match read_oises(path) {
            Ok((_, found)) => oises.extend(found),
            Err(error) => return fail_with(&error),
        }
    }
    let scaffold = ois::scaffold::config(&oises);
    let validation = validate::validate_value(&scaffold.config, None);
    if !validation.is_valid() {
        let style = RenderStyle { color: false };
        let report = output::validation_report("the scaffold", &validation, Severity::Error, style, None);
        let _ = std::io::stderr().write_all(report.as_bytes());
        return ExitCode::from(FAILURE);
    }
    let text = match output::to_text(&scaffold.config, OutputFormat::Json) {
        Ok(text) => text,
        Err(error) => return fail_with(&error),
    };
    let written = match &args.output {
        Some(path) => output::write_atomically(path, &text, args.force),
        None => {
            write_stdout(&text);
            Ok(())
        }
    };
    if let Err(error) = written {
        return fail_with(&error);
    }
    if let Some(path) = &args.secrets_out
        && let Err(error) = output::write_atomically(path, &scaffold.secrets_env, args.force)
    {
        return fail_with(&error);
    }
    ExitCode::SUCCESS
}

pub(crate) fn run_endpoint_ids(args: EndpointIdsArgs) -> ExitCode {
    let oises = match read_oises(&args.file) {
        Ok((_, oises)) => oises,
        Err(error) => return fail_with(&error),
    };
    let mut rows = Vec::new();
    for ois_value in &oises {
        let title = ois_value.get("title").and_then(serde_json::Value::as_str).unwrap_or_default().to_owned();
        for (endpoint, id) in ois::scaffold::endpoint_ids(ois_value) {
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
    write_stdout(&text);
    ExitCode::SUCCESS
}
