//! `ois scaffold feed|airnode|config`: what a node needs next to an OIS.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value;

use ois::scaffold::node::{AirnodeOptions, Feed, FeedOptions, NodeScaffold};
use ois::{Code, Diagnostic, Fix, OutputFormat, Source};

use super::config::{ConfigArgs, read_oises, run_config};
use super::{fail_with, write_stdout};

#[derive(clap::Subcommand)]
pub(crate) enum ScaffoldCommand {
    /// A complete Airnode Feed configuration: ois, endpoints, templates, triggers, signedApis,
    /// apiCredentials and nodeSettings (secrets as `${…}`), plus a secrets.env template.
    Feed(FeedArgs),
    /// An Airnode 0.15 config.json: a placeholder chain, nodeSettings, an RRP trigger (and
    /// gateway triggers) per endpoint, ois and apiCredentials, plus a secrets.env template.
    Airnode(AirnodeArgs),
    /// The config.json fragment (ois + apiCredentials) and secrets.env template (as `ois config`).
    Config(ConfigArgs),
}

/// The nodes an Airnode Feed config can be written for.
#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum FeedTarget {
    /// Airnode Feed 3.3.0 (reads OIS 2.3.x).
    #[value(name = "airnode-feed@3")]
    AirnodeFeed3,
    /// Airnode Feed 4 (reads OIS 3.0.x; not released yet).
    #[value(name = "airnode-feed@4")]
    AirnodeFeed4,
}

/// The nodes an Airnode config.json can be written for.
#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum AirnodeTarget {
    /// Airnode 0.15 (reads OIS 2.3.x).
    #[value(name = "airnode@0.15")]
    Airnode015,
}

#[derive(clap::Args)]
pub(crate) struct Outputs {
    /// Write the configuration here instead of standard output.
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
pub(crate) struct FeedArgs {
    /// OIS files (an OIS object, an array of them, or a config.json).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// A data feed: its endpoint and template parameters (repeatable), e.g.
    /// `feed:name=string32:WTI/USD`.
    #[arg(long = "feed", value_name = "ENDPOINT:NAME=TYPE:VALUE,...")]
    feeds: Vec<String>,
    /// Feeds from a JSON file: `[{"endpoint": "feed", "parameters": [{"type", "name", "value"}]}]`.
    #[arg(long = "feeds", value_name = "FILE")]
    feeds_file: Option<PathBuf>,
    /// The Airnode Feed the config is for: airnode-feed@3 (3.3.0, reads OIS 2.3.x) or
    /// airnode-feed@4 (reads OIS 3.0.x; not released yet). An OIS it does not read is refused.
    #[arg(long, value_enum, conflicts_with = "node_version")]
    target: Option<FeedTarget>,
    /// The Airnode Feed version the node runs (`nodeSettings.nodeVersion` must equal it).
    #[arg(long, default_value = ois::node::Target::AirnodeFeed3.node_version())]
    node_version: String,
    /// A signed API to push to (repeatable; default: one placeholder).
    #[arg(long = "signed-api", value_name = "NAME=URL", value_parser = super::parse_pair)]
    signed_apis: Vec<(String, String)>,
    /// Seconds between the API calls of each trigger.
    #[arg(long, default_value_t = 5)]
    fetch_interval: u64,
    /// One trigger (one API call) for the templates of an endpoint whose pre-processed parameters
    /// are equal, as Airnode Feed requires of a batch; pre-processing runs in the embedded engine.
    #[arg(long)]
    batch: bool,
    #[command(flatten)]
    outputs: Outputs,
}

#[derive(clap::Args)]
pub(crate) struct AirnodeArgs {
    /// OIS files (an OIS object, an array of them, or a config.json).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Add an HTTP gateway trigger for every endpoint.
    #[arg(long)]
    http: bool,
    /// Add an HTTP signed-data gateway trigger for every endpoint.
    #[arg(long)]
    signed_http: bool,
    /// The Airnode the config.json is for: airnode@0.15 (reads OIS 2.3.x), the only release
    /// (airnode@next has no release whose config.json could be written yet). An OIS it does not
    /// read is refused.
    #[arg(long, value_enum)]
    target: Option<AirnodeTarget>,
    #[command(flatten)]
    outputs: Outputs,
}

pub(crate) fn run_scaffold(command: ScaffoldCommand) -> ExitCode {
    let result = match command {
        ScaffoldCommand::Config(args) => return run_config(args),
        ScaffoldCommand::Feed(args) => feed(&args).and_then(|s| {
            write(&s, &args.outputs)?;
            id_table(&s.config);
            Ok(())
        }),
        ScaffoldCommand::Airnode(args) => airnode(&args).and_then(|s| write(&s, &args.outputs)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail_with(&error),
    }
}

fn read_all(files: &[PathBuf]) -> Result<Vec<Value>, Diagnostic> {
    let mut oises = Vec::new();
    for path in files {
        oises.extend(read_oises(path)?);
    }
    Ok(oises)
}

fn feed(args: &FeedArgs) -> Result<NodeScaffold, Diagnostic> {
    let oises = read_all(&args.files)?;
    let mut feeds = Vec::new();
    for text in &args.feeds {
        feeds.push(
            Feed::parse(text).map_err(|e| Diagnostic::elsewhere(Code::BadArgument, format!("--feed {}", e.message)))?,
        );
    }
    if let Some(path) = &args.feeds_file {
        feeds.extend(Feed::list_from_json(&Source::read(path)?.parse()?, &path.display().to_string())?);
    }
    if feeds.is_empty() {
        return Err(Diagnostic::elsewhere(
            Code::BadArgument,
            "no feeds: give at least one --feed ENDPOINT:NAME=TYPE:VALUE (or --feeds FILE)",
        ));
    }
    let mut options = FeedOptions::default();
    if args.batch {
        options.batches = Some(batches(&oises, &feeds)?);
    }
    options.node_version = match args.target {
        Some(FeedTarget::AirnodeFeed3) => ois::node::Target::AirnodeFeed3.node_version().to_owned(),
        Some(FeedTarget::AirnodeFeed4) => ois::node::Target::AirnodeFeed4.node_version().to_owned(),
        None => args.node_version.clone(),
    };
    options.require_format = args.target.is_some();
    options.signed_apis = args.signed_apis.clone();
    options.fetch_interval = args.fetch_interval;
    let scaffold = ois::scaffold::node::feed_config(&oises, &feeds, &options)?;
    for warning in &scaffold.warnings {
        let _ = fail_with(warning);
    }
    Ok(scaffold)
}

/// Groups of feeds one API call serves: the same endpoint, and pre-processed parameters that are
/// equal (what Airnode Feed checks of a trigger's templates).
fn batches(oises: &[Value], feeds: &[Feed]) -> Result<Vec<Vec<usize>>, Diagnostic> {
    use ois::processing::{EndpointProcessing, Engine, pre_process};
    let mut groups: Vec<(String, Value, Vec<usize>)> = Vec::new();
    for (index, feed) in feeds.iter().enumerate() {
        let endpoint = oises
            .iter()
            .flat_map(|ois| ois.get("endpoints").and_then(Value::as_array).into_iter().flatten())
            .find(|e| e.get("name").and_then(Value::as_str) == Some(feed.endpoint.as_str()))
            .cloned()
            .unwrap_or(Value::Null);
        let processing = EndpointProcessing::of(&endpoint, "");
        let given: serde_json::Map<String, Value> =
            feed.parameters.iter().map(|p| (p.name.clone(), Value::String(ois::js::string(&p.value)))).collect();
        let processed = pre_process(&Engine::Embedded, &processing, &given)
            .map_err(|failure| failure.to_diagnostic("").within(&format!("(endpoint \"{}\")", feed.endpoint)))?
            .value
            .unwrap_or(Value::Null);
        match groups.iter_mut().find(|(e, p, _)| *e == feed.endpoint && *p == processed) {
            Some((_, _, members)) => members.push(index),
            None => groups.push((feed.endpoint.clone(), processed, vec![index])),
        }
    }
    Ok(groups.into_iter().map(|(_, _, members)| members).collect())
}

/// The IDs of a generated Airnode Feed config, on standard error (the config may be on standard
/// output).
fn id_table(config: &Value) {
    let mut table = String::from("endpoint IDs:\n");
    for (id, endpoint) in config.get("endpoints").and_then(Value::as_object).into_iter().flatten() {
        let name = |key: &str| endpoint.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
        table.push_str(&format!("  {id}  {} / {}\n", name("oisTitle"), name("endpointName")));
    }
    table.push_str("template IDs:\n");
    for (id, template) in config.get("templates").and_then(Value::as_object).into_iter().flatten() {
        let parameters: Vec<String> = template
            .get("parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|p| {
                let field = |key: &str| p.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
                format!("{}={}:{}", field("name"), field("type"), field("value"))
            })
            .collect();
        table.push_str(&format!("  {id}  {}\n", parameters.join(",")));
    }
    eprint!("{table}");
}

fn airnode(args: &AirnodeArgs) -> Result<NodeScaffold, Diagnostic> {
    let oises = read_all(&args.files)?;
    let mut options = AirnodeOptions::default();
    options.http_gateway = args.http;
    options.signed_http_gateway = args.signed_http;
    options.require_format = args.target.is_some();
    let scaffold = ois::scaffold::node::airnode_config(&oises, &options)?;
    for warning in &scaffold.warnings {
        let _ = fail_with(warning);
    }
    Ok(scaffold)
}

fn write(scaffold: &NodeScaffold, outputs: &Outputs) -> Result<(), Diagnostic> {
    write_outputs(&scaffold.config, &scaffold.secrets_env, outputs)
}

/// Writes a configuration (to `--output` or standard output) and its secrets.env template (to
/// `--secrets-out`). Every target is checked before any is written.
pub(crate) fn write_outputs(config: &Value, secrets_env: &str, outputs: &Outputs) -> Result<(), Diagnostic> {
    // Every target is checked before any is written: a failure leaves nothing half-done.
    if !outputs.force {
        for path in [&outputs.output, &outputs.secrets_out].into_iter().flatten() {
            if std::fs::symlink_metadata(path).is_ok() {
                return Err(Diagnostic::elsewhere(
                    Code::OutputExists,
                    format!("{} already exists; nothing was written", path.display()),
                )
                .with_fix(Fix::Replace));
            }
        }
    }
    let text = ois::to_text(config, OutputFormat::Json)?;
    match &outputs.output {
        Some(path) => ois::write_atomically(path, &text, outputs.force)?,
        None => write_stdout(&text)?,
    }
    if let Some(path) = &outputs.secrets_out {
        ois::write_atomically(Path::new(path), secrets_env, outputs.force)?;
    }
    Ok(())
}
