//! `ois convert`: one document, or a batch of them.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;

use ois::emit::Text;
use ois::report::{Positions, Report, Show, convert_rendered, diagnostics_text, text_report};
use ois::{Code, ConvertOptions, Counts, Diagnostic, Failure, OutputFormat, Severity, Source};

use super::{DiagnosticsArg, FAILURE, fail_with, in_flags, parse_pair, write_stdout};

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum FormatArg {
    Json,
    Yaml,
}

#[derive(clap::Args)]
pub(crate) struct ConvertArgs {
    /// The OpenAPI/Swagger document, or `-` for standard input. Several files or folders convert
    /// every document in them (a batch), into the folder given with -o.
    #[arg(required = true, num_args = 1..)]
    pub(super) inputs: Vec<PathBuf>,
    /// Write the OIS here instead of standard output (atomically; see --force); for a batch, the
    /// output folder.
    #[arg(short, long, value_name = "FILE|DIR")]
    pub(super) output: Option<PathBuf>,
    /// Convert only operations matching this: 'GET /coins/*', 'tag:market' or 'id:coinsMarkets'
    /// (repeatable).
    #[arg(long, value_name = "FILTER")]
    pub(super) include: Vec<String>,
    /// Leave out operations matching this (repeatable; same forms as --include).
    #[arg(long, value_name = "FILTER")]
    pub(super) exclude: Vec<String>,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub(super) force: bool,
    /// Output format (default: from the -o extension, else json).
    #[arg(long, value_enum)]
    pub(super) format: Option<FormatArg>,
    /// Which server to use: its 0-based index or its URL (default: the first).
    #[arg(long, value_name = "INDEX|URL")]
    pub(super) server: Option<String>,
    /// A server variable's value, instead of its default (repeatable).
    #[arg(long = "server-var", value_name = "NAME=VALUE", value_parser = parse_pair)]
    pub(super) server_vars: Vec<(String, String)>,
    /// Base URL for a relative server URL, or the server when the document has none.
    #[arg(long, value_name = "URL")]
    pub(super) base_url: Option<String>,
    /// The oisFormat to write: 3.0.0 (Airnode Feed 4.x) or 2.3.2 (Airnode 0.15). For experts:
    /// --target says it by the node.
    #[arg(long, value_name = "VERSION", value_parser = parse_ois_format, conflicts_with = "target")]
    pub(super) ois_format: Option<String>,
    /// The node the OIS is for: airnode@0.15 and airnode-feed@3 read OIS 2.3.x, airnode-feed@4
    /// and airnode@next 3.0.x.
    #[arg(long, value_enum)]
    pub(super) target: Option<super::TargetArg>,
    /// The OIS title (default: info.title made to fit the OIS rule).
    #[arg(long)]
    pub(super) title: Option<String>,
    /// The OIS version (default: info.version made x.y.z).
    #[arg(long, value_name = "X.Y.Z")]
    pub(super) ois_version: Option<String>,
    /// How to report on stderr.
    #[arg(long, value_enum, default_value = "text")]
    pub(super) report: DiagnosticsArg,
    /// Show only errors.
    #[arg(short, long)]
    pub(super) quiet: bool,
    /// Show every diagnostic in full (by default the text report shows the first 3 of each code
    /// and counts the rest; --report json always has every one).
    #[arg(short, long)]
    pub(super) verbose: bool,
    /// Treat any warning as a failure: nothing is written, exit 1.
    #[arg(long)]
    pub(super) strict: bool,
    /// Write a config.json fragment ({"ois": [...], "apiCredentials": [...]}) instead of the bare OIS.
    #[arg(long)]
    pub(super) config: bool,
    /// Also write the secrets.env template here, with what the document says of each security
    /// scheme (a prefix the value needs, where to get a key).
    #[arg(long, value_name = "FILE")]
    pub(super) secrets_out: Option<PathBuf>,
    /// The security schemes to use: NAME, or NAME+NAME for several together; repeat for
    /// alternatives in order of preference (the first that serves the most operations is used);
    /// `none` for a public API. Default: the smallest set that serves every operation.
    #[arg(long, value_name = "NAME[+NAME]|none")]
    pub(super) security: Vec<String>,
    /// Write the document's defaults of optional parameters as OIS defaults (by default none are:
    /// the node would send them whenever the requester gives no value, where the API would apply
    /// its own).
    #[arg(long)]
    pub(super) defaults: bool,
    /// Let `$ref`s reach files anywhere below DIR (default: only below the document's folder).
    #[arg(long, value_name = "DIR")]
    pub(super) allow_root: Option<PathBuf>,
    /// Bring this OIS file (an OIS, or a config.json with --ois) up to date with the document,
    /// keeping its refinements: a three-way merge with what was generated last time (the
    /// `.convert.json` record next to it, or --base). Replaces the file unless -o is given.
    #[arg(long, value_name = "OIS_FILE", conflicts_with_all = ["config", "secrets_out", "format"])]
    pub(super) update: Option<PathBuf>,
    /// With --update: the OpenAPI document the OIS was generated from (instead of the record).
    #[arg(long, value_name = "OLD_OPENAPI", requires = "update")]
    pub(super) base: Option<PathBuf>,
    /// With --update: write nothing; exit 0 when the OIS is in sync with the document, 1 when the
    /// update would change it (for CI).
    #[arg(long, requires = "update")]
    pub(super) check: bool,
    /// With --update: print the unified diff of the OIS file to the update; write nothing.
    #[arg(long, requires = "update")]
    pub(super) diff: bool,
    /// With --update: the title of the OIS to update in a config.json that holds several.
    #[arg(long = "ois", value_name = "TITLE", requires = "update")]
    pub(super) ois_title: Option<String>,
    /// Do not write the `.convert.json` record next to the output (it lets --update tell
    /// refinements from API changes later).
    #[arg(long)]
    pub(super) no_record: bool,
}

impl ConvertArgs {
    /// The convert options as given on the command line, as a record keeps them.
    pub(super) fn given(&self) -> ois::update::record::RecordedOptions {
        let mut given = ois::update::record::RecordedOptions::default();
        given.server = self.server.clone();
        given.server_vars = self.server_vars.clone();
        given.base_url = self.base_url.clone();
        given.title = self.title.clone();
        given.ois_version = self.ois_version.clone();
        given.ois_format = self.target.map(|t| t.ois_format().to_owned()).or_else(|| self.ois_format.clone());
        given.include = self.include.clone();
        given.exclude = self.exclude.clone();
        given.security = self.security.clone();
        given.defaults = self.defaults;
        given
    }
}

pub(crate) fn run_convert(args: ConvertArgs) -> ExitCode {
    let style = super::style_for(std::io::stderr().is_terminal());
    if ois::update::record::security_choice(&args.security).is_err() {
        eprintln!("error: --security none cannot be combined with other --security values");
        return ExitCode::from(2);
    }
    if args.update.is_some() {
        return super::update::run_update(&args);
    }
    let given = args.given();
    let mut options = match given.convert_options() {
        Ok(options) => options,
        Err(error) => return fail_with(&error),
    };
    options.allow_root = args.allow_root.clone();
    let batch = args.inputs.len() > 1 || args.inputs.iter().any(|i| i.is_dir());
    let format = match (args.format, &args.output) {
        (Some(FormatArg::Json), _) => OutputFormat::Json,
        (Some(FormatArg::Yaml), _) => OutputFormat::Yaml,
        (None, Some(path)) if !batch => OutputFormat::for_path(path),
        _ => OutputFormat::Json,
    };
    if batch {
        return run_batch(&args, &options, format);
    }
    let Some(input) = args.inputs.first() else { return ExitCode::from(2) };
    let name = input.display().to_string();
    let source = Source::read(input);
    let result = source.as_ref().map_err(|error| Failure::from(error.clone())).and_then(|source| {
        let mut root = ois::convert::parse(source)?;
        let result = convert_rendered(source, &mut root, &options, format, positions(&args));
        // The process ends soon; freeing the parsed document piece by piece would only cost time.
        std::mem::forget(root);
        result
    });
    let mut secrets_env = None;
    let mut record_file = None;
    let (mut diagnostics, summary, text) = match result {
        Ok(mut conversion) => {
            // A record sits next to an OIS file; standard output has no "next to".
            let record_next_to =
                args.output.as_deref().filter(|output| !args.no_record && !ois::emit::is_standard_output(output));
            if let Some(output) = record_next_to {
                record_file = Some(conversion.record_file(output, &given));
            }
            // Problems making the config, reported after the conversion's own.
            let mut problems = Vec::new();
            let descriptions = &conversion.scheme_descriptions;
            let scaffold = (args.config || args.secrets_out.is_some())
                .then(|| conversion.ois().map_err(|error| problems.push(error)).ok())
                .flatten()
                .map(|ois| {
                    ois::scaffold::config_described(std::slice::from_ref(&ois), |_, scheme| {
                        descriptions.get(scheme).cloned()
                    })
                });
            let text = match &scaffold {
                Some(scaffold) if args.config => {
                    ois::to_text(&scaffold.config, format).map(Text::from).map_err(|error| problems.push(error)).ok()
                }
                _ => Some(std::mem::take(&mut conversion.text)),
            };
            secrets_env = scaffold.map(|scaffold| scaffold.secrets_env);
            let mut diagnostics = std::mem::take(&mut conversion.diagnostics);
            diagnostics.append(&mut problems);
            let summary = std::mem::take(&mut conversion.summary);
            // As with the parsed document: the model is as big, and the process ends soon.
            std::mem::forget(conversion);
            (diagnostics, Some(summary), text)
        }
        Err(failure) => (failure.diagnostics, None, None),
    };

    let mut written = false;
    if let Some(text) = text {
        let warnings = Counts::of(&diagnostics).warnings;
        if args.strict && warnings > 0 {
            diagnostics.push(
                Diagnostic::elsewhere(
                    Code::StrictWarnings,
                    format!("--strict: {warnings} warning(s), so nothing was written"),
                )
                .with_help("fix what the warnings say, or run without --strict"),
            );
        } else {
            // The secrets template first: when it cannot be written, nothing is.
            let secrets = match (&args.secrets_out, &secrets_env) {
                (Some(path), Some(secrets)) => ois::write_atomically(path, secrets, args.force),
                _ => Ok(()),
            };
            let outcome = secrets.and_then(|()| match &args.output {
                Some(path) => ois::write_atomically(path, &text, args.force).and_then(|()| match record_file {
                    Some(Ok((record, text))) => ois::write_atomically(&record, &text, true),
                    Some(Err(error)) => Err(error),
                    None => Ok(()),
                }),
                None => write_stdout(&text),
            });
            match outcome {
                Ok(()) => written = true,
                Err(error) => diagnostics.push(error),
            }
        }
    }

    in_flags(&mut diagnostics);
    let output_name = args.output.as_ref().map(|p| p.display().to_string());
    let summary = summary.as_ref().filter(|_| written);
    let report = match args.report {
        DiagnosticsArg::Sarif => {
            let log = ois::report::machine::sarif(&[(name.as_str(), diagnostics.as_slice())]);
            super::json_text(&log)
        }
        DiagnosticsArg::Github => ois::report::machine::github(&name, &diagnostics),
        DiagnosticsArg::Json => {
            let report = Report {
                file: &name,
                status: if written { "ok" } else { "failed" },
                output: output_name.as_deref().filter(|_| written),
                summary,
                counts: Counts::of(&diagnostics),
                diagnostics: &diagnostics,
            };
            super::json_text(&report)
        }
        DiagnosticsArg::Text => text_report(&name, &diagnostics, summary, show(&args), style, source.as_ref().ok()),
    };
    let _ = std::io::stderr().write_all(report.as_bytes());
    if written { ExitCode::SUCCESS } else { ExitCode::from(FAILURE) }
}

/// What the text report shows.
fn show(args: &ConvertArgs) -> Show {
    Show::new(if args.quiet { Severity::Error } else { Severity::Note }, args.verbose)
}

/// Which diagnostics to locate: all for a JSON report, those shown for a text one.
fn positions(args: &ConvertArgs) -> Positions {
    if args.report.reports_all() { Positions::All } else { Positions::Shown(show(args)) }
}

pub(crate) fn run_batch(args: &ConvertArgs, options: &ConvertOptions, format: OutputFormat) -> ExitCode {
    use ois::batch;
    let Some(out_dir) = &args.output else {
        eprintln!("error: converting several documents needs an output folder: -o DIR");
        return ExitCode::from(2);
    };
    let items = batch::discover(&args.inputs, format);
    let progress = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(items.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    // A batch's text report shows the errors of the files that failed.
    let errors = Show::new(Severity::Error, args.verbose);
    let positions = if args.report.reports_all() { Positions::All } else { Positions::Shown(errors) };
    let given = args.given();
    let record = (!args.no_record).then_some(&given);
    let settings = batch::Settings { format, force: args.force, positions, record };
    let mut results = batch::run(&items, out_dir, options, settings, &|| progress.inc(1));
    for result in &mut results {
        in_flags(&mut result.diagnostics);
    }
    progress.finish_and_clear();
    let failed = results.iter().any(|r| r.status == batch::Status::Failed);
    let report = match args.report {
        DiagnosticsArg::Json => super::json_text(&results),
        DiagnosticsArg::Sarif => {
            let files: Vec<(&str, &[ois::Diagnostic])> =
                results.iter().map(|r| (r.file.as_str(), r.diagnostics.as_slice())).collect();
            super::json_text(&ois::report::machine::sarif(&files))
        }
        DiagnosticsArg::Github => {
            results.iter().map(|r| ois::report::machine::github(&r.file, &r.diagnostics)).collect()
        }
        DiagnosticsArg::Text => {
            let style = super::style_for(std::io::stderr().is_terminal());
            let mut text = String::new();
            for result in results.iter().filter(|r| r.status == batch::Status::Failed) {
                text.push_str(&diagnostics_text(&result.diagnostics, errors, style, None));
            }
            if !args.quiet {
                text.push_str(&batch::table(&results));
            }
            text
        }
    };
    let _ = std::io::stderr().write_all(report.as_bytes());
    if failed { ExitCode::from(FAILURE) } else { ExitCode::SUCCESS }
}

/// `--ois-format`: a full version of a family the node reads; anything else is a usage error.
fn parse_ois_format(text: &str) -> Result<String, String> {
    match ois::FormatFamily::of_version(text) {
        Some(_) => Ok(text.to_owned()),
        None => Err(format!(
            "\"{text}\" is not an oisFormat to write: use 3.0.0 (Airnode Feed 4.x) or 2.3.2 (Airnode 0.15, Airnode Feed ≤ 3.3), or another 3.0.x / 2.3.x"
        )),
    }
}
