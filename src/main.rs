//! The `ois` command line: arguments → library call → printed results → exit code.

#![allow(clippy::result_large_err)]

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use ois::convert::{ConvertOptions, Failure, convert_rendered};
use ois::diagnostic::{Code, Counts, Diagnostic, RenderStyle, Severity};
use ois::ois::FormatFamily;
use ois::output::{self, OutputFormat, Report};
use ois::source::Source;
use ois::validate;

/// Exit code: input could not be converted (or --strict found warnings); nothing was written.
const FAILURE: u8 = 1;

#[derive(Parser)]
#[command(name = "ois", version, about = "OpenAPI → API3 OIS: convert, check, and preview the node's requests")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Convert an OpenAPI 3.0/3.1 document (JSON or YAML) into an OIS object.
    Convert(ConvertArgs),
    /// Check OIS files (an OIS object, an array of them, or a config.json) against every OIS rule.
    Validate(ValidateArgs),
}

#[derive(clap::Args)]
struct ValidateArgs {
    /// The files to check (JSON or YAML), `-` for standard input.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: ReportArg,
    /// Check against this OIS format family (2.3.x or 3.0.x) instead of each file's oisFormat.
    #[arg(long, value_name = "VERSION", value_parser = parse_family)]
    ois_format: Option<FormatFamily>,
    /// Show only errors.
    #[arg(short, long)]
    quiet: bool,
}

fn parse_family(text: &str) -> Result<FormatFamily, String> {
    let padded = if text.matches('.').count() == 1 { format!("{text}.0") } else { text.to_owned() };
    FormatFamily::of(&padded).ok_or_else(|| format!("\"{text}\" is not a supported OIS format: use 2.3.x or 3.0.x"))
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Json,
    Yaml,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum ReportArg {
    Text,
    Json,
}

#[derive(clap::Args)]
struct ConvertArgs {
    /// The OpenAPI document, or `-` for standard input.
    input: PathBuf,
    /// Write the OIS here instead of standard output (atomically; see --force).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,
    /// Output format (default: from the -o extension, else json).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Which server to use: its 0-based index or its URL (default: the first).
    #[arg(long, value_name = "INDEX|URL")]
    server: Option<String>,
    /// A server variable's value, instead of its default (repeatable).
    #[arg(long = "server-var", value_name = "NAME=VALUE", value_parser = parse_pair)]
    server_vars: Vec<(String, String)>,
    /// Base URL for a relative server URL, or the server when the document has none.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// The oisFormat to write: 3.0.0 (Airnode Feed 4.x) or 2.3.2 (Airnode 0.15).
    #[arg(long, value_name = "VERSION", default_value = "3.0.0")]
    ois_format: String,
    /// The OIS title (default: info.title made to fit the OIS rule).
    #[arg(long)]
    title: Option<String>,
    /// The OIS version (default: info.version made x.y.z).
    #[arg(long, value_name = "X.Y.Z")]
    ois_version: Option<String>,
    /// How to report on stderr.
    #[arg(long, value_enum, default_value = "text")]
    report: ReportArg,
    /// Show only errors.
    #[arg(short, long)]
    quiet: bool,
    /// Treat any warning as a failure: nothing is written, exit 1.
    #[arg(long)]
    strict: bool,
}

fn parse_pair(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_owned(), value.to_owned())),
        _ => Err(format!("expected NAME=VALUE, got \"{text}\"")),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Convert(args) => run_convert(args),
        Command::Validate(args) => run_validate(args),
    }
}

fn run_convert(args: ConvertArgs) -> ExitCode {
    let style = RenderStyle { color: std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() };
    let name = args.input.display().to_string();
    let options = ConvertOptions {
        server: args.server.clone(),
        server_vars: args.server_vars.clone(),
        base_url: args.base_url.clone(),
        ois_format: Some(args.ois_format.clone()),
        title: args.title.clone(),
        ois_version: args.ois_version.clone(),
    };
    let format = match (args.format, &args.output) {
        (Some(FormatArg::Json), _) => OutputFormat::Json,
        (Some(FormatArg::Yaml), _) => OutputFormat::Yaml,
        (None, Some(path)) => OutputFormat::for_path(path),
        (None, None) => OutputFormat::Json,
    };
    let source = Source::read(&args.input);
    let result = source.as_ref().map_err(|error| Failure::from(error.clone())).and_then(|source| {
        let root = source.parse()?;
        let result = convert_rendered(source, &root, &options, format);
        // The process ends soon; freeing the parsed document piece by piece would only cost time.
        std::mem::forget(root);
        result
    });
    let (mut diagnostics, summary, text) = match result {
        Ok((conversion, text)) => {
            let ois::convert::Conversion { ois, diagnostics, summary, .. } = conversion;
            std::mem::forget(ois);
            (diagnostics, Some(summary), Some(text))
        }
        Err(failure) => (failure.diagnostics, None, None),
    };

    let mut written = false;
    if let Some(text) = text {
        let warnings = Counts::of(&diagnostics).warnings;
        if args.strict && warnings > 0 {
            diagnostics.push(
                Diagnostic::new(
                    Code::StrictWarnings,
                    "",
                    format!("--strict: {warnings} warning(s), so nothing was written"),
                )
                .with_help("fix what the warnings say, or run without --strict"),
            );
        } else {
            let outcome = match &args.output {
                Some(path) => output::write_atomically(path, &text, args.force),
                None => {
                    write_stdout(&text);
                    Ok(())
                }
            };
            match outcome {
                Ok(()) => written = true,
                Err(error) => diagnostics.push(error),
            }
        }
    }

    let output_name = args.output.as_ref().map(|p| p.display().to_string());
    let summary = summary.as_ref().filter(|_| written);
    let report = match args.report {
        ReportArg::Json => {
            let report = Report {
                file: &name,
                status: if written { "ok" } else { "failed" },
                output: output_name.as_deref().filter(|_| written),
                summary,
                counts: Counts::of(&diagnostics),
                diagnostics: &diagnostics,
            };
            serde_json::to_string_pretty(&report).map(|s| s + "\n").unwrap_or_default()
        }
        ReportArg::Text => {
            let min = if args.quiet { Severity::Error } else { Severity::Note };
            output::text_report(&name, &diagnostics, summary, min, style, source.as_ref().ok())
        }
    };
    let _ = std::io::stderr().write_all(report.as_bytes());
    if written { ExitCode::SUCCESS } else { ExitCode::from(FAILURE) }
}

fn run_validate(args: ValidateArgs) -> ExitCode {
    let style = RenderStyle { color: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none() };
    let min = if args.quiet { Severity::Error } else { Severity::Note };
    let mut all_valid = true;
    let mut reports = Vec::new();
    let mut text = String::new();
    for path in &args.files {
        let name = path.display().to_string();
        let (validation, source) = match Source::read(path) {
            Ok(source) => (validate::validate(&source, args.ois_format), Some(source)),
            Err(error) => (validate::Validation { kind: None, diagnostics: vec![error] }, None),
        };
        all_valid &= validation.is_valid();
        match args.format {
            ReportArg::Json => reports.push(serde_json::json!({
                "file": name,
                "valid": validation.is_valid(),
                "kind": validation.kind,
                "counts": Counts::of(&validation.diagnostics),
                "diagnostics": validation.diagnostics,
            })),
            ReportArg::Text => {
                text.push_str(&output::validation_report(&name, &validation, min, style, source.as_ref()))
            }
        }
    }
    if args.format == ReportArg::Json {
        text = serde_json::to_string_pretty(&reports).map(|s| s + "\n").unwrap_or_default();
    }
    write_stdout(&text);
    if all_valid { ExitCode::SUCCESS } else { ExitCode::from(FAILURE) }
}

/// Writes to stdout; a closed pipe (`ois convert big.json | head`) ends the output quietly.
fn write_stdout(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
}
