//! `ois validate`: OIS files and config.json files against every rule.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use ois::report::{Show, validation_report};
use ois::{Counts, FormatFamily, Severity, Source, Validation};

use super::{DiagnosticsArg, FAILURE, in_flags, write_stdout};

#[derive(clap::Args)]
pub(crate) struct ValidateArgs {
    /// The files to check (JSON or YAML), `-` for standard input.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: DiagnosticsArg,
    /// Check against this OIS format family (2.3.x or 3.0.x) instead of each file's oisFormat.
    #[arg(long, value_name = "VERSION", value_parser = parse_family, conflicts_with = "target")]
    ois_format: Option<FormatFamily>,
    /// Check for the node that will read it: airnode@0.15, airnode-feed@3 (OIS 2.3.x),
    /// airnode-feed@4, airnode@next (3.0.x).
    #[arg(long, value_enum)]
    target: Option<super::TargetArg>,
    /// Show only errors.
    #[arg(short, long)]
    quiet: bool,
    /// Show every diagnostic in full (by default the first 3 of each code, then a count).
    #[arg(short, long)]
    verbose: bool,
}

/// When an OIS fails only because of its `oisFormat` for the chosen family, say which targets
/// would accept it as it is.
fn which_targets_accept(source: &Source, validation: &mut Validation) {
    let errors: Vec<&ois::Diagnostic> =
        validation.diagnostics.iter().filter(|d| d.severity == ois::Severity::Error).collect();
    if errors.is_empty() || errors.iter().any(|d| d.code != ois::Code::BadOisFormat) {
        return;
    }
    let accepting: Vec<String> = [FormatFamily::V2_3, FormatFamily::V3_0]
        .into_iter()
        .filter(|family| ois::validate(source, Some(*family)).is_valid())
        .map(ois::node::Target::reading)
        .collect();
    if accepting.is_empty() {
        return;
    }
    for diagnostic in validation.diagnostics.iter_mut().filter(|d| d.code == ois::Code::BadOisFormat) {
        let said = diagnostic.help.take().map(|h| format!("{h}; ")).unwrap_or_default();
        diagnostic.help = Some(format!("{said}as it is, it is valid for {}", accepting.join(", ")));
    }
}

pub(crate) fn parse_family(text: &str) -> Result<FormatFamily, String> {
    let padded = if text.matches('.').count() == 1 { format!("{text}.0") } else { text.to_owned() };
    FormatFamily::of(&padded).ok_or_else(|| format!("\"{text}\" is not a supported OIS format: use 2.3.x or 3.0.x"))
}

pub(crate) fn run_validate(args: ValidateArgs) -> ExitCode {
    let style = super::style_for(std::io::stdout().is_terminal());
    let show = Show::new(if args.quiet { Severity::Error } else { Severity::Note }, args.verbose);
    let mut all_valid = true;
    let mut reports = Vec::new();
    let mut files: Vec<(String, Vec<ois::Diagnostic>)> = Vec::new();
    let mut text = String::new();
    for path in &args.files {
        let name = path.display().to_string();
        let (mut validation, source) = match Source::read(path) {
            Ok(source) => {
                let family = args.target.map(|t| t.target().family()).or(args.ois_format);
                let mut validation = ois::validate(&source, family);
                if family.is_some() {
                    which_targets_accept(&source, &mut validation);
                }
                (validation, Some(source))
            }
            Err(error) => (Validation::unreadable(error), None),
        };
        in_flags(&mut validation.diagnostics);
        all_valid &= validation.is_valid();
        match args.format {
            DiagnosticsArg::Sarif => files.push((name.clone(), validation.diagnostics.clone())),
            DiagnosticsArg::Github => text.push_str(&ois::report::machine::github(&name, &validation.diagnostics)),
            DiagnosticsArg::Json => reports.push(serde_json::json!({
                "file": name,
                "valid": validation.is_valid(),
                "kind": validation.kind,
                "counts": Counts::of(&validation.diagnostics),
                "diagnostics": validation.diagnostics,
            })),
            DiagnosticsArg::Text => text.push_str(&validation_report(&name, &validation, show, style, source.as_ref())),
        }
    }
    if args.format == DiagnosticsArg::Json {
        text = super::json_text(&reports);
    }
    if args.format == DiagnosticsArg::Sarif {
        let runs: Vec<(&str, &[ois::Diagnostic])> = files.iter().map(|(n, d)| (n.as_str(), d.as_slice())).collect();
        text = super::json_text(&ois::report::machine::sarif(&runs));
    }
    if let Err(error) = write_stdout(&text) {
        return super::fail_with(&error);
    }
    if all_valid { ExitCode::SUCCESS } else { ExitCode::from(FAILURE) }
}
