//! `ois config`: a config.json fragment and a secrets.env template for OIS files.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use ois::report::{RenderStyle, Show, validation_report};
use ois::{Code, Diagnostic, Fix, OisDocument, OutputFormat, Severity, Source, validate_value};

use super::{FAILURE, fail_with, write_stdout};

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

/// The OIS objects in a file: an OIS, an array of them, or a config.json's `ois`.
pub(crate) fn read_oises(path: &std::path::Path) -> Result<Vec<serde_json::Value>, Diagnostic> {
    let source = Source::read(path)?;
    let document = source.parse()?;
    let read = OisDocument::read(&document).map_err(|(_, mut error)| {
        source.locate_diagnostic(&mut error);
        error
    })?;
    Ok(read.oises.into_iter().map(|(_, ois)| ois.clone()).collect())
}

pub(crate) fn run_config(args: ConfigArgs) -> ExitCode {
    let mut oises = Vec::new();
    for path in &args.files {
        match read_oises(path) {
            Ok(found) => oises.extend(found),
            Err(error) => return fail_with(&error),
        }
    }
    let scaffold = ois::scaffold::config(&oises);
    let validation = validate_value(&scaffold.config, None);
    if !validation.is_valid() {
        let style = RenderStyle { color: false };
        let report =
            validation_report("the scaffold", &validation, Show { min: Severity::Error, per_code: None }, style, None);
        let _ = std::io::stderr().write_all(report.as_bytes());
        return ExitCode::from(FAILURE);
    }
    let text = match ois::to_text(&scaffold.config, OutputFormat::Json) {
        Ok(text) => text,
        Err(error) => return fail_with(&error),
    };
    // Every target is checked before any is written: a failure leaves nothing half-done.
    if !args.force {
        for path in [&args.output, &args.secrets_out].into_iter().flatten() {
            if std::fs::symlink_metadata(path).is_ok() {
                let error = Diagnostic::elsewhere(
                    Code::OutputExists,
                    format!("{} already exists; nothing was written", path.display()),
                )
                .in_file(path.display().to_string())
                .with_fix(Fix::Replace);
                return fail_with(&error);
            }
        }
    }
    let written = match &args.output {
        Some(path) => ois::write_atomically(path, &text, args.force),
        None => write_stdout(&text),
    };
    if let Err(error) = written {
        return fail_with(&error);
    }
    if let Some(path) = &args.secrets_out
        && let Err(error) = ois::write_atomically(path, &scaffold.secrets_env, args.force)
    {
        return fail_with(&error);
    }
    ExitCode::SUCCESS
}
