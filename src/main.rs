//! The `ois` command line: arguments → library call → printed results → exit code.

#![allow(clippy::result_large_err)]

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use ois::convert::{ConvertOptions, Failure, Positions, convert_rendered};
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
    /// Show the HTTP request the node makes for an endpoint call (and, with --response, what it encodes).
    Request(RequestArgs),
    /// Scaffold a config.json fragment (ois + apiCredentials) and a secrets.env template.
    Config(ConfigArgs),
    /// List every endpoint with the ID Airnode and Airnode Feed derive from (title, name).
    EndpointIds(EndpointIdsArgs),
}

#[derive(clap::Args)]
struct ConfigArgs {
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
struct EndpointIdsArgs {
    /// An OIS, an array of them, or a config.json.
    file: PathBuf,
    #[arg(long, value_enum, default_value = "text")]
    format: ReportArg,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum RequestFormat {
    Text,
    Json,
    Curl,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum ModeArg {
    /// airnode-node: endpoint-parameter defaults applied, reserved names removed.
    Node,
    /// Airnode Feed: no defaults.
    Feed,
}

#[derive(clap::Args)]
struct RequestArgs {
    /// An OIS (JSON or YAML) or a config.json; `-` for standard input.
    file: PathBuf,
    /// The endpoint to call.
    #[arg(long)]
    endpoint: String,
    /// A requester parameter, as a string (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = parse_pair)]
    params: Vec<(String, String)>,
    /// A requester parameter given as JSON (repeatable).
    #[arg(long = "param-json", value_name = "NAME=JSON", value_parser = parse_pair)]
    params_json: Vec<(String, String)>,
    /// With a config.json of several OIS objects: the title of the one to use.
    #[arg(long = "ois", value_name = "TITLE")]
    ois_title: Option<String>,
    /// A secrets.env file for the `${VAR}`s of apiCredentials (the environment is used too).
    #[arg(long, value_name = "FILE")]
    secrets: Option<PathBuf>,
    /// Request metadata for relay schemes: chainId, chainType, requesterAddress, sponsorAddress,
    /// sponsorWalletAddress, requestId (repeatable; none: no relay values, as with a gateway).
    #[arg(long, value_name = "KEY=VALUE", value_parser = parse_pair)]
    metadata: Vec<(String, String)>,
    #[arg(long, value_enum, default_value = "node")]
    mode: ModeArg,
    #[arg(long, value_enum, default_value = "text")]
    format: RequestFormat,
    /// A sample API response (JSON): show the values and the encoding the node would produce.
    #[arg(long, value_name = "FILE")]
    response: Option<PathBuf>,
    /// Show credential values instead of ****.
    #[arg(long)]
    show_secrets: bool,
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
    /// Write a config.json fragment ({"ois": [...], "apiCredentials": [...]}) instead of the bare OIS.
    #[arg(long)]
    config: bool,
    /// Let `$ref`s reach files anywhere below DIR (default: only below the document's folder).
    #[arg(long, value_name = "DIR")]
    allow_root: Option<PathBuf>,
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
        Command::Request(args) => run_request(args),
        Command::Config(args) => run_config(args),
        Command::EndpointIds(args) => run_endpoint_ids(args),
    }
}

fn run_convert(args: ConvertArgs) -> ExitCode {
    let style = RenderStyle { color: std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() };
    let filters =
        |list: &[String]| list.iter().map(|f| ois::convert::filter::Filter::parse(f)).collect::<Result<Vec<_>, _>>();
    let (include, exclude) = match (filters(&args.include), filters(&args.exclude)) {
        (Ok(include), Ok(exclude)) => (include, exclude),
        (Err(error), _) | (_, Err(error)) => return fail_with(&error),
    };
    let options = ConvertOptions {
        server: args.server.clone(),
        server_vars: args.server_vars.clone(),
        base_url: args.base_url.clone(),
        ois_format: Some(args.ois_format.clone()),
        title: args.title.clone(),
        ois_version: args.ois_version.clone(),
        allow_root: args.allow_root.clone(),
        include,
        exclude,
    };
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
        let root = source.parse()?;
        let result = convert_rendered(source, &root, &options, format);
        // The process ends soon; freeing the parsed document piece by piece would only cost time.
        std::mem::forget(root);
        result
    });
    let (mut diagnostics, summary, text) = match result {
        Ok((conversion, text)) => {
            let ois::convert::Conversion { ois, mut diagnostics, summary, .. } = conversion;
            let text = if args.config {
                let scaffold = ois::scaffold::config(std::slice::from_ref(&ois));
                output::to_text(&scaffold.config, format).map_err(|error| diagnostics.push(error)).ok()
            } else {
                Some(text)
            };
            std::mem::forget(ois);
            (diagnostics, Some(summary), text)
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

fn run_request(args: RequestArgs) -> ExitCode {
    let style = RenderStyle { color: std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() };
    let source = Source::read(&args.file);
    let outcome = source.as_ref().map_err(Clone::clone).and_then(|source| request_for(&args, source));
    let source = source.as_ref().ok();
    let report = |diagnostics: &[Diagnostic]| {
        let text: String = diagnostics
            .iter()
            .map(|d| {
                let mut d = d.clone();
                let in_source =
                    !d.pointer.is_empty() && (d.code.as_str().starts_with("REQ") || d.code.as_str().starts_with("INP"));
                if let Some(source) = source.filter(|_| in_source) {
                    d.locate_in(source);
                }
                ois::diagnostic::render(&d, style, source) + "\n"
            })
            .collect();
        let _ = std::io::stderr().write_all(text.as_bytes());
    };
    match outcome {
        Ok((output, warnings)) => {
            report(&warnings);
            write_stdout(&output);
            ExitCode::SUCCESS
        }
        Err(error) => {
            report(std::slice::from_ref(&error));
            ExitCode::from(FAILURE)
        }
    }
}

/// The rendered request (and preview) plus warnings, or the error that stops it.
fn request_for(args: &RequestArgs, source: &Source) -> Result<(String, Vec<Diagnostic>), Diagnostic> {
    use ois::request::{self, Metadata, Mode, RequestOptions, render, response, setup};
    let document = source.parse()?;
    let secrets = match &args.secrets {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|err| {
                Diagnostic::new(Code::BadArgument, "", format!("cannot read secrets file {}: {err}", path.display()))
            })?;
            setup::Secrets::parse(&text)?
        }
        None => setup::Secrets::from_environment(),
    };
    let (ois_value, credentials) = setup::select(&document, args.ois_title.as_deref(), &secrets)?;
    setup::check_ois(&ois_value)?;
    let mut parameters = indexmap::IndexMap::new();
    for (name, value) in &args.params {
        parameters.insert(name.clone(), serde_json::Value::String(value.clone()));
    }
    for (name, text) in &args.params_json {
        let value = serde_json::from_str(text).map_err(|err| {
            Diagnostic::new(Code::BadArgument, "", format!("--param-json {name}: not JSON ({err})"))
                .with_help("quote strings: --param-json name='\"text\"', or use --param")
        })?;
        parameters.insert(name.clone(), value);
    }
    let metadata = if args.metadata.is_empty() {
        None
    } else {
        let mut metadata = Metadata::default();
        for (key, value) in &args.metadata {
            let slot = match key.as_str() {
                "chainId" => &mut metadata.chain_id,
                "chainType" => &mut metadata.chain_type,
                "requesterAddress" => &mut metadata.requester_address,
                "sponsorAddress" => &mut metadata.sponsor_address,
                "sponsorWalletAddress" => &mut metadata.sponsor_wallet_address,
                "requestId" => &mut metadata.request_id,
                other => {
                    return Err(Diagnostic::new(Code::BadArgument, "", format!("--metadata {other}: unknown key"))
                        .with_help("keys: chainId, chainType, requesterAddress, sponsorAddress, sponsorWalletAddress, requestId"));
                }
            };
            *slot = Some(value.clone());
        }
        Some(metadata)
    };
    let options = RequestOptions {
        endpoint: args.endpoint.clone(),
        parameters,
        credentials,
        metadata,
        mode: if args.mode == ModeArg::Feed { Mode::Feed } else { Mode::Node },
    };
    let built = request::build(&ois_value, &options)?;
    let warnings = built.diagnostics();
    let preview = match &args.response {
        Some(path) => {
            let response = Source::read(path)?.parse()?;
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
            Some(response::extract_and_encode(&response, &built.reserved, now)?)
        }
        None => None,
    };
    let output = match args.format {
        RequestFormat::Json => {
            serde_json::to_string_pretty(&render::json(&built, preview.as_ref(), args.show_secrets)).unwrap_or_default()
                + "\n"
        }
        RequestFormat::Text => render::text(&built, preview.as_ref(), args.show_secrets),
        RequestFormat::Curl => render::curl(&built, args.show_secrets),
    };
    Ok((output, warnings))
}

fn run_batch(args: &ConvertArgs, options: &ConvertOptions, format: OutputFormat) -> ExitCode {
    use ois::batch;
    let Some(out_dir) = &args.output else {
        eprintln!("error: converting several documents needs an output folder: -o DIR");
        return ExitCode::from(2);
    };
    let items = match batch::discover(&args.inputs, format) {
        Ok(items) => items,
        Err(error) => return fail_with(&error),
    };
    let progress = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(items.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let positions = if args.report == ReportArg::Json { Positions::All } else { Positions::ErrorsOnly };
    let settings = batch::Settings { format, force: args.force, positions };
    let results = batch::run(&items, out_dir, options, settings, &|| progress.inc(1));
    progress.finish_and_clear();
    let failed = results.iter().any(|r| r.status == batch::Status::Failed);
    let report = match args.report {
        ReportArg::Json => serde_json::to_string_pretty(&results).map(|s| s + "\n").unwrap_or_default(),
        ReportArg::Text => {
            let style =
                RenderStyle { color: std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() };
            let mut text = String::new();
            for result in results.iter().filter(|r| r.status == batch::Status::Failed) {
                for diagnostic in result.diagnostics.iter().filter(|d| d.is_error()) {
                    text.push_str(&ois::diagnostic::render(diagnostic, style, None));
                    text.push('\n');
                }
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

/// The OIS objects in a file: an OIS, an array of them, or a config.json's `ois`.
fn read_oises(path: &std::path::Path) -> Result<(Source, Vec<serde_json::Value>), Diagnostic> {
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

fn fail_with(diagnostic: &Diagnostic) -> ExitCode {
    let style = RenderStyle { color: std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() };
    let _ = std::io::stderr().write_all((ois::diagnostic::render(diagnostic, style, None) + "\n").as_bytes());
    ExitCode::from(FAILURE)
}

fn run_config(args: ConfigArgs) -> ExitCode {
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

fn run_endpoint_ids(args: EndpointIdsArgs) -> ExitCode {
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

/// Writes to stdout; a closed pipe (`ois convert big.json | head`) ends the output quietly.
fn write_stdout(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
}
