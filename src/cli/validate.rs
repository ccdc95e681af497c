//! `ois validate`: OIS files and config.json files against every rule.

use std::path::PathBuf;
use std::process::ExitCode;

use ois::jobs::validate::ValidateJob;
use ois::report::{Show, validation_report};
use ois::{FormatFamily, Severity};

use super::{DiagnosticsArg, FAILURE, Shell};

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
    /// airnode-feed@4, airnode@next (3.0.x), or a release exactly (airnode-feed@4.2.0).
    #[arg(long, value_parser = super::parse_target, value_name = "NODE")]
    target: Option<super::TargetArg>,
    /// Warnings count as errors (exit 1): for CI.
    #[arg(long)]
    strict: bool,
    /// A secrets file (repeatable: the Feed's and the Signed API's): an Airnode Feed config and
    /// its Signed API config checked together are checked with their push tokens filled from
    /// them (never shown), so a token typed differently fails here, not as the Feed's 403; an
    /// Airnode config.json's RRP template IDs are derived from the mnemonic it holds (read, never shown).
    #[arg(long, value_name = "FILE")]
    secrets: Vec<PathBuf>,
    /// Recorded answers (`ois call --record DIR`): each config's templates, or each OIS's feeds
    /// by name, are answered from them as the node would answer them, and a value that is not its
    /// own (two feeds reading one element, a path that finds nothing) is an error. Nothing is sent.
    #[arg(long, value_name = "DIR")]
    replay: Option<PathBuf>,
    /// With --replay: two values of one call that are equal by right (two names of one asset) pass.
    #[arg(long, requires = "replay")]
    allow_equal: bool,
    /// Show every diagnostic in full (by default the first 3 of each code, then a count).
    #[arg(short, long)]
    verbose: bool,
}

pub(crate) fn parse_family(text: &str) -> Result<FormatFamily, String> {
    let padded = if text.matches('.').count() == 1 { format!("{text}.0") } else { text.to_owned() };
    FormatFamily::of(&padded).ok_or_else(|| format!("\"{text}\" is not a supported OIS format: use 2.3.x or 3.0.x"))
}

pub(crate) fn run_validate(args: ValidateArgs, shell: &Shell) -> ExitCode {
    let style = shell.stdout_style();
    let show = Show::new(shell.least_shown(), args.verbose);
    let mut job = ValidateJob::default();
    job.files = args.files.clone();
    job.family = args.target.map(|t| t.target().family()).or(args.ois_format);
    job.target = args.target.map(|t| t.spec());
    job.strict = args.strict;
    job.secrets = args.secrets.clone();
    job.replay = args.replay.clone();
    job.allow_equal = args.allow_equal;
    job.now = super::now();
    let mut verdicts = ois::jobs::validate::run(&job);
    for verdict in &mut verdicts {
        shell.settle(&mut verdict.located.diagnostics, None);
    }
    let files: Vec<(&str, &[ois::Diagnostic])> =
        verdicts.iter().map(|v| (v.file.as_str(), v.located.diagnostics.as_slice())).collect();
    let text = match args.format {
        DiagnosticsArg::Json => super::json_text(&verdicts),
        DiagnosticsArg::Text => verdicts
            .iter()
            .map(|v| {
                let mut report = validation_report(&v.file, &v.validation(), show, style, v.located.source.as_ref());
                if show.min <= Severity::Note {
                    if let Some(advice) = &v.unreleased {
                        let newest = ois::node::Target::NEWEST_RELEASED;
                        report.push_str(&format!(
                            "note: {}: {advice} (`ois convert OPENAPI --update {} --target {newest}`)\n",
                            v.file, v.file
                        ));
                    }
                    if !v.accepted_by.is_empty() {
                        let nodes = v.accepted_by.join(", ");
                        report.push_str(&format!(
                            "note: {}: for {nodes} (a node runs only a config naming its own version)\n",
                            v.file
                        ));
                    }
                }
                report
            })
            .collect(),
        machine => super::machine_report(machine, &files).unwrap_or_default(),
    };
    if let Err(error) = shell.out(&text) {
        return shell.fail(&error);
    }
    if verdicts.iter().all(|v| v.valid) { ExitCode::SUCCESS } else { ExitCode::from(FAILURE) }
}
