//! `ois scaffold feed|airnode|config`: what a node needs next to an OIS.

use std::path::PathBuf;
use std::process::ExitCode;

use ois::jobs::scaffold::{FeedRequest, ScaffoldJob, ScaffoldKind, ScaffoldReport};
use ois::node::Target;

use super::args::Outputs;
use super::config::{ConfigArgs, run_config};
use super::fail_with;

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
    /// The Airnode Feed version the node runs (`nodeSettings.nodeVersion` must equal it). Default:
    /// the Feed that reads the OIS's format (2.3.x: airnode-feed@3, 3.3.0; 3.0.x: airnode-feed@4).
    #[arg(long)]
    node_version: Option<String>,
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
    /// The Airnode the config.json is for: airnode@0.15 (reads OIS 2.3.x), the only release and
    /// so the default (airnode@next has no release whose config.json could be written yet). An
    /// OIS it does not read is refused.
    #[arg(long, value_enum)]
    target: Option<AirnodeTarget>,
    #[command(flatten)]
    outputs: Outputs,
}

pub(crate) fn run_scaffold(command: ScaffoldCommand) -> ExitCode {
    let job = match command {
        ScaffoldCommand::Config(args) => return run_config(args),
        ScaffoldCommand::Feed(args) => {
            let mut request = FeedRequest::default();
            request.feeds = args.feeds.clone();
            request.feeds_file = args.feeds_file.clone();
            request.target = args.target.map(|target| match target {
                FeedTarget::AirnodeFeed3 => Target::AirnodeFeed3,
                FeedTarget::AirnodeFeed4 => Target::AirnodeFeed4,
            });
            request.node_version = args.node_version.clone();
            request.signed_apis = args.signed_apis.clone();
            request.fetch_interval = args.fetch_interval;
            request.batch = args.batch;
            ScaffoldJob::new(args.files, ScaffoldKind::Feed(request), args.outputs.outputs())
        }
        ScaffoldCommand::Airnode(args) => {
            // airnode@0.15 is the only choice (the argument says so in scripts).
            let _ = args.target;
            let kind = ScaffoldKind::Airnode { http: args.http, signed_http: args.signed_http };
            ScaffoldJob::new(args.files, kind, args.outputs.outputs())
        }
    };
    match ois::jobs::scaffold::run(&job) {
        Ok(report) => {
            for diagnostic in &report.diagnostics {
                let _ = fail_with(diagnostic);
            }
            if matches!(job.kind, ScaffoldKind::Feed(_)) {
                eprint!("{}", id_table(&report));
            }
            ExitCode::SUCCESS
        }
        Err(error) => fail_with(&error),
    }
}

/// The IDs of a generated Airnode Feed config, on standard error (the config may be on standard
/// output).
fn id_table(report: &ScaffoldReport) -> String {
    let mut table = String::from("endpoint IDs:\n");
    for endpoint in &report.endpoints {
        table.push_str(&format!("  {}  {} / {}\n", endpoint.endpoint_id, endpoint.ois_title, endpoint.endpoint_name));
    }
    table.push_str("template IDs:\n");
    for template in &report.templates {
        table.push_str(&format!("  {}  {}\n", template.template_id, template.parameters.join(",")));
    }
    table
}
