//! `ois convert`: one document, or a batch of them.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;

use ois::jobs::convert::{ConvertJob, ConvertReport, DocumentReport, Refused, Writes};
use ois::jobs::{UpdateJob, batch};
use ois::report::{Show, diagnostics_text, text_report};
use ois::{Code, OutputFormat, Severity};

use super::{DiagnosticsArg, FAILURE, Shell, parse_pair};

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
    inputs: Vec<PathBuf>,
    /// Write the OIS here instead of standard output (atomically; see --force); for a batch, the
    /// output folder.
    #[arg(short, long, value_name = "FILE|DIR")]
    output: Option<PathBuf>,
    /// Convert only operations matching this: 'GET /coins/*', 'tag:market' or 'id:coinsMarkets'
    /// (repeatable).
    #[arg(long, value_name = "FILTER")]
    include: Vec<String>,
    /// Leave out operations matching this (repeatable; same forms as --include).
    #[arg(long, value_name = "FILTER")]
    exclude: Vec<String>,
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
    /// The oisFormat to write: 3.0.0 (Airnode Feed 4.x) or 2.3.2 (Airnode 0.15). For experts:
    /// --target says it by the node.
    #[arg(long, value_name = "VERSION", value_parser = parse_ois_format, conflicts_with = "target")]
    ois_format: Option<String>,
    /// The node the OIS is for: airnode@0.15 and airnode-feed@3 read OIS 2.3.x, airnode-feed@4
    /// and airnode@next 3.0.x (a release exactly: airnode-feed@4.2.0). Default: the newest
    /// released node, airnode-feed@4 (4.6.0, OIS 3.0.0). With --update, moves the OIS to the
    /// node's format, keeping its refinements.
    #[arg(long, value_parser = super::parse_target, value_name = "NODE")]
    target: Option<super::TargetArg>,
    /// The OIS title (default: info.title made to fit the OIS rule).
    #[arg(long)]
    title: Option<String>,
    /// The OIS version (default: info.version made x.y.z).
    #[arg(long, value_name = "X.Y.Z")]
    ois_version: Option<String>,
    /// How to report on stderr.
    #[arg(long, value_enum, default_value = "text")]
    report: DiagnosticsArg,
    /// Show every diagnostic in full (by default the text report shows the first 3 of each code
    /// and counts the rest; --report json always has every one).
    #[arg(short, long)]
    verbose: bool,
    /// Treat any warning as a failure: nothing is written, exit 1.
    #[arg(long)]
    strict: bool,
    /// Write a config.json fragment ({"ois": [...], "apiCredentials": [...]}) instead of the bare OIS.
    #[arg(long)]
    config: bool,
    /// Also write the secrets.env template here, with what the document says of each security
    /// scheme (a prefix the value needs, where to get a key). With --update, the template of the
    /// updated OIS replaces the file, keeping every value it holds.
    #[arg(long, value_name = "FILE")]
    secrets_out: Option<PathBuf>,
    /// The security schemes to use: NAME, or NAME+NAME for several together; repeat for
    /// alternatives in order of preference (the first that serves the most operations is used);
    /// `none` for a public API. Default: the smallest set that serves every operation.
    #[arg(long, value_name = "NAME[+NAME]|none")]
    security: Vec<String>,
    /// A parameter that carries the API's key though the document declares no security scheme
    /// for it (NAME, or query:NAME, header:NAME, cookie:NAME): it becomes an apiKey scheme the
    /// node fills from its secrets, and no endpoint parameter. Repeat for several; with --update,
    /// added to those its record names.
    #[arg(long = "api-key-param", value_name = "[LOCATION:]NAME")]
    api_key_params: Vec<String>,
    /// With --secrets-out or --config: the secrets.env name of a scheme's credential, instead of
    /// the one derived from the OIS title (or its host, for a long title); repeatable, recorded
    /// for --update.
    #[arg(long = "secret-name", value_name = "SCHEME=NAME", value_parser = super::parse_pair)]
    secret_names: Vec<(String, String)>,
    /// Write the document's defaults of optional parameters as OIS defaults (by default none are:
    /// the node would send them whenever the requester gives no value, where the API would apply
    /// its own).
    #[arg(long)]
    defaults: bool,
    /// Let `$ref`s reach files anywhere below DIR (default: only below the document's folder).
    #[arg(long, value_name = "DIR")]
    allow_root: Option<PathBuf>,
    /// Bring this OIS file (an OIS, or a config.json with --ois) up to date with the document,
    /// keeping its refinements: a three-way merge with what was generated last time (the
    /// `.convert.json` record next to it, or --base). Replaces the file unless -o is given.
    #[arg(long, value_name = "OIS_FILE", conflicts_with_all = ["config", "format"])]
    update: Option<PathBuf>,
    /// With --update: the OpenAPI document the OIS was generated from (instead of the record).
    #[arg(long, value_name = "OLD_OPENAPI", requires = "update")]
    base: Option<PathBuf>,
    /// With --update: write nothing; exit 0 when the OIS is in sync with the document, 1 when the
    /// update would change it (for CI).
    #[arg(long, requires = "update")]
    check: bool,
    /// With --update: print the unified diff of the OIS file to the update; write nothing.
    #[arg(long, requires = "update")]
    diff: bool,
    /// With --update: the title of the OIS to update in a config.json that holds several.
    #[arg(long = "ois", value_name = "TITLE", requires = "update")]
    ois_title: Option<String>,
    /// Do not write the `.convert.json` record next to the output (it lets --update tell
    /// refinements from API changes later).
    #[arg(long)]
    no_record: bool,
}

impl ConvertArgs {
    /// The convert options as given on the command line, as a record keeps them.
    fn given(&self) -> ois::convert::GivenOptions {
        let mut given = ois::convert::GivenOptions::default();
        given.server = self.server.clone();
        given.server_vars = self.server_vars.clone();
        given.base_url = self.base_url.clone();
        given.title = self.title.clone();
        given.ois_version = self.ois_version.clone();
        given.ois_format = self.ois_format.clone();
        if let Some(target) = self.target {
            given = given.with_target(target.target());
        }
        given.include = self.include.clone();
        given.exclude = self.exclude.clone();
        given.security = self.security.clone();
        given.defaults = self.defaults;
        given.api_key_parameters = self.api_key_params.clone();
        given.secret_names = self.secret_names.clone();
        given
    }

    fn writes(&self) -> Writes {
        Writes::new(self.force, self.strict, !self.no_record)
    }

    /// What the text report shows.
    fn show(&self, shell: &Shell) -> Show {
        Show::new(shell.least_shown(), self.verbose)
    }

    fn job(&self, shell: &Shell) -> ConvertJob {
        let mut job = ConvertJob::default();
        job.inputs = self.inputs.clone();
        job.output = self.output.clone();
        job.format = self.format.map(|format| match format {
            FormatArg::Json => OutputFormat::Json,
            FormatArg::Yaml => OutputFormat::Yaml,
        });
        job.given = self.given();
        job.allow_root = self.allow_root.clone();
        job.config = self.config;
        job.secrets_out = self.secrets_out.clone();
        job.writes = self.writes();
        job.shown = (!self.report.reports_all()).then(|| self.show(shell));
        // The command ends with the job: freeing the document piece by piece would only cost time.
        job.ends_the_process = true;
        job
    }

    fn update_job(&self, ois_file: PathBuf) -> Result<UpdateJob, &'static str> {
        let [input] = self.inputs.as_slice() else { return Err("--update takes one OpenAPI document") };
        let mut job = UpdateJob::default();
        job.new = input.clone();
        job.ois_file = ois_file;
        job.base = self.base.clone();
        job.output = self.output.clone();
        job.given = self.given();
        job.title = self.ois_title.clone();
        job.check = self.check;
        job.diff = self.diff;
        job.secrets_out = self.secrets_out.clone();
        job.writes = self.writes();
        Ok(job)
    }
}

pub(crate) fn run_convert(args: ConvertArgs, shell: &Shell) -> ExitCode {
    if let Some(ois_file) = args.update.clone() {
        return match args.update_job(ois_file) {
            Ok(job) => match ois::jobs::update::run(&job) {
                Ok(report) => super::update::show(report, args.report, args.show(shell), shell),
                Err(Refused(error)) => shell.fail(&error),
            },
            Err(usage) => shell.usage_error(usage),
        };
    }
    let job = args.job(shell);
    let batch = job.is_batch();
    if batch && job.output.is_none() {
        return shell.usage_error("converting several documents needs an output folder: -o DIR");
    }
    let progress = if batch { shell.progress_bar() } else { indicatif::ProgressBar::hidden() };
    let outcome = ois::jobs::convert::run(&job, &|step| {
        if progress.length() == Some(0) { progress.set_length(step as u64) } else { progress.inc(step as u64) }
    });
    progress.finish_and_clear();
    let mut report = match outcome {
        Ok(report) => report,
        Err(Refused(error)) if error.code == Code::BadArgument => return shell.usage_error(&error.message),
        Err(Refused(error)) => return shell.fail(&error),
    };
    for diagnostic in report.diagnostics_mut() {
        diagnostic.settle_fix(super::flag_help);
    }
    let succeeded = report.succeeded();
    let text = match &report {
        ConvertReport::Document(document) => document_text(document, &args, shell),
        ConvertReport::Batch(results) => batch_text(results, &args, shell),
        _ => String::new(),
    };
    shell.err(&text);
    if succeeded { ExitCode::SUCCESS } else { ExitCode::from(FAILURE) }
}

fn document_text(report: &DocumentReport, args: &ConvertArgs, shell: &Shell) -> String {
    let name = report.file.as_str();
    match args.report {
        DiagnosticsArg::Json => super::json_text(report),
        DiagnosticsArg::Text => {
            let style = shell.style();
            text_report(
                name,
                &report.located.diagnostics,
                report.summary.as_ref(),
                args.show(shell),
                style,
                report.located.source.as_ref(),
            )
        }
        machine => super::machine_report(machine, &[(name, &report.located.diagnostics)]).unwrap_or_default(),
    }
}

fn batch_text(results: &[batch::FileResult], args: &ConvertArgs, shell: &Shell) -> String {
    let files: Vec<(&str, &[ois::Diagnostic])> =
        results.iter().map(|r| (r.file.as_str(), r.diagnostics.as_slice())).collect();
    match args.report {
        DiagnosticsArg::Json => super::json_text(&results),
        DiagnosticsArg::Text => {
            // A batch's text report shows the errors of the files that failed.
            let errors = Show::new(Severity::Error, args.verbose);
            let style = shell.style();
            let mut text = String::new();
            for result in results.iter().filter(|r| r.status == batch::Status::Failed) {
                text.push_str(&diagnostics_text(&result.diagnostics, errors, style, None));
            }
            if !shell.quiet() {
                text.push_str(&batch_table(results));
            }
            text
        }
        machine => super::machine_report(machine, &files).unwrap_or_default(),
    }
}

/// The end-of-batch table: file, operations kept / skipped, warnings, status (files that are not
/// OpenAPI documents are only counted).
fn batch_table(results: &[batch::FileResult]) -> String {
    let mut table =
        ois::report::Table::new(["file", "kept", "skipped", "warnings", "status"]).right_aligned(&[1, 2, 3]);
    for result in results.iter().filter(|r| r.status != batch::Status::Skipped) {
        let (kept, skipped) = result.summary.as_ref().map_or((0, 0), |s| (s.operations_kept, s.skipped_total()));
        let status = match result.status {
            batch::Status::Converted => "converted",
            batch::Status::Skipped => "skipped (not OpenAPI)",
            batch::Status::Empty => "no get/post operations",
            batch::Status::Failed => "FAILED",
        };
        table.row([
            result.file.clone(),
            kept.to_string(),
            skipped.to_string(),
            result.counts.warnings.to_string(),
            status.to_owned(),
        ]);
    }
    let mut out = table.render();
    let count = |status| results.iter().filter(|r| r.status == status).count();
    out.push_str(&format!(
        "{} converted, {} with nothing to convert, {} failed; {} files that are not OpenAPI documents skipped\n",
        count(batch::Status::Converted),
        count(batch::Status::Empty),
        count(batch::Status::Failed),
        count(batch::Status::Skipped)
    ));
    out
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
