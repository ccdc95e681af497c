//! `ois config`: a config.json fragment and a secrets.env template for OIS files.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use ois::report::{RenderStyle, Show, validation_report};
use ois::{Diagnostic, OisDocument, Severity, Source, validate_value};

use super::scaffold::{Outputs, write_outputs};
use super::{FAILURE, fail_with};

#[derive(clap::Args)]
pub(crate) struct ConfigArgs {
    /// OIS files (an OIS object or an array of them each).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The node the fragment is for (airnode@0.15, airnode-feed@3: OIS 2.3.x; airnode-feed@4,
    /// airnode@next: 3.0.x). An OIS it does not read is refused.
    #[arg(long, value_enum)]
    target: Option<super::TargetArg>,
    #[command(flatten)]
    outputs: Outputs,
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
    if let Some(target) = args.target
        && let Err(error) =
            ois::scaffold::node::require_family(&oises, target.target().family(), target.target().name())
    {
        return fail_with(&error);
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
    match write_outputs(&scaffold.config, &scaffold.secrets_env, &args.outputs) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail_with(&error),
    }
}
