//! `ois scaffold feed|signed-api|airnode|config`: what a node needs next to an OIS.

use std::path::PathBuf;
use std::process::ExitCode;

use ois::jobs::ids::Airnode;
use ois::jobs::scaffold::{FeedRequest, ScaffoldJob, ScaffoldKind, SignedApiRequest};

use super::args::Outputs;
use super::config::{ConfigArgs, run_config};

use super::Shell;

#[derive(clap::Subcommand)]
pub(crate) enum ScaffoldCommand {
    /// A complete Airnode Feed configuration: ois, endpoints, templates, triggers, signedApis,
    /// apiCredentials and nodeSettings (secrets as `${…}`), plus a secrets.env template.
    #[command(after_help = "EXAMPLES:
  ois scaffold feed api.ois.json --feed feed:name=string32:USD/EUR --feed price:symbol=string32:BTC --batch \\
      --signed-api local=http://127.0.0.1:8090 -o config.json --secrets-out secrets.env
  ois scaffold feed api.ois.json --feeds feeds.json --target airnode-feed@3 -o config.json")]
    Feed(FeedArgs),
    /// The Signed API's configuration for an Airnode Feed config's signed API: the Airnode it
    /// accepts (with the token the Feed sends), real-time and OEV endpoints, the exact version;
    /// plus a secrets.env template.
    #[command(after_help = "EXAMPLES:
  ois scaffold signed-api config.json --secrets secrets.env -o signed-api.json --secrets-out signed-api.env
  ois scaffold signed-api config.json --airnode 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 --delayed 60")]
    SignedApi(SignedApiArgs),
    /// A folder that runs an Airnode Feed config and its Signed API as it is: each node's
    /// config/ (config and secrets.env), a docker-compose.yml naming the official images at the
    /// configs' versions, a package.json per node, and a README saying how to start it.
    #[command(after_help = "EXAMPLES:
  ois scaffold deploy config.json --secrets secrets.env -o deployment
  ois scaffold deploy config.json --secrets secrets.env --signed-api-config signed-api.json \\
      --signed-api-secrets signed-api.env -o deployment")]
    Deploy(DeployArgs),
    /// An Airnode 0.15 config.json: a placeholder chain, nodeSettings, an RRP trigger (and
    /// gateway triggers) per endpoint, ois and apiCredentials, plus a secrets.env template.
    #[command(after_help = "EXAMPLES:
  ois scaffold airnode api.ois.json -o config.json --secrets-out secrets.env
  ois scaffold airnode api.ois.json --http --signed-http -o config.json")]
    Airnode(AirnodeArgs),
    /// The config.json fragment (ois + apiCredentials) and secrets.env template (as `ois config`).
    #[command(after_help = "EXAMPLES:
  ois scaffold config api.ois.json -o config.json --secrets-out secrets.env
  ois scaffold config a.ois.json b.ois.json --target airnode@0.15")]
    Config(ConfigArgs),
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
    /// `feed:name=string32:WTI/USD`; `\,` is a comma in a value (`pairs=string:USD/EUR\,USD/GBP`).
    #[arg(long = "feed", value_name = "ENDPOINT:NAME=TYPE:VALUE,...")]
    feeds: Vec<String>,
    /// Feeds from a JSON file: `[{"endpoint": "feed", "parameters": [{"type", "name", "value"}]}]`.
    #[arg(long = "feeds", value_name = "FILE")]
    feeds_file: Option<PathBuf>,
    /// The Airnode Feed the config is for: airnode-feed@4 (its newest release, 4.6.0; reads OIS
    /// 3.0.x), airnode-feed@3 (3.3.0; reads OIS 2.3.x), or a release exactly (airnode-feed@4.2.0):
    /// `nodeSettings.nodeVersion` is that version, which the Feed requires exactly. An OIS it does
    /// not read is refused. Default: the newest Feed that reads the OIS's format.
    #[arg(long, value_parser = super::parse_feed_target, value_name = "NODE", conflicts_with = "node_version")]
    target: Option<super::TargetArg>,
    /// The Airnode Feed version the node runs, when it is none of the releases `--target` names
    /// (`nodeSettings.nodeVersion` must equal it).
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
    /// A template for every feed the OIS serves by name (its `feed` endpoint; `ois feed list`),
    /// the feeds one call answers in one trigger.
    #[arg(long)]
    all_feeds: bool,
    /// A staging config: every OIS calls this server (`ois mock`'s address, a staging host)
    /// instead of its own, said in a note.
    #[arg(long, value_name = "URL")]
    server: Option<String>,
    #[command(flatten)]
    outputs: Outputs,
}

#[derive(clap::Args)]
pub(crate) struct SignedApiArgs {
    /// The Airnode Feed config (as `ois scaffold feed` writes it).
    config: PathBuf,
    /// Which of the config's signed APIs (by name; default: its only one).
    #[arg(long = "signed-api", value_name = "NAME")]
    signed_api: Option<String>,
    /// The secrets file holding the Airnode's mnemonic (never printed), for its address.
    #[arg(long, value_name = "FILE", conflicts_with = "airnode")]
    secrets: Option<PathBuf>,
    /// The Airnode's address, instead of its mnemonic.
    #[arg(long, value_name = "ADDRESS")]
    airnode: Option<String>,
    /// Also a public endpoint (/delayed, no token) serving the data this many seconds late.
    #[arg(long, value_name = "SECONDS")]
    delayed: Option<u64>,
    #[command(flatten)]
    outputs: Outputs,
}

#[derive(clap::Args)]
pub(crate) struct DeployArgs {
    /// The Airnode Feed config (as `ois scaffold feed` writes it).
    config: PathBuf,
    /// Its secrets (the mnemonic, the API keys; the push token when you chose one): never printed.
    /// A value the folder's own secrets.env holds is kept when this file gives none.
    #[arg(long, value_name = "FILE")]
    secrets: Option<PathBuf>,
    /// The Signed API config to run (default: made from the Feed config, as `ois scaffold
    /// signed-api` makes it).
    #[arg(long, value_name = "FILE")]
    signed_api_config: Option<PathBuf>,
    /// The Signed API's secrets (its read tokens, when you chose them; made otherwise).
    #[arg(long, value_name = "FILE")]
    signed_api_secrets: Option<PathBuf>,
    /// Which of the Feed config's signed APIs the folder runs (by name; default: its only one).
    #[arg(long = "signed-api", value_name = "NAME")]
    signed_api: Option<String>,
    /// The folder to write.
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    folder: PathBuf,
    /// Replace files of the folder whose text changed (the secrets keep their values regardless).
    #[arg(long)]
    force: bool,
    /// How the outcome is reported on standard error: text, or the whole report as JSON.
    #[arg(long, value_enum, default_value = "text")]
    report: super::ReportArg,
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
    /// An RRP template (repeatable), as `ois ids` takes one: `price:coinId=string32:bitcoin`. Its
    /// ID derives from the Airnode (--airnode, or --secrets holding the mnemonic); a template must
    /// also be made on chain (`ois ids` gives its createTemplate call).
    #[arg(long = "template", value_name = "ENDPOINT:NAME=TYPE:VALUE,...")]
    templates: Vec<String>,
    /// The Airnode's address, for the templates' IDs.
    #[arg(long, value_name = "ADDRESS", conflicts_with = "secrets")]
    airnode: Option<String>,
    /// A secrets file holding the Airnode's mnemonic (AIRNODE_WALLET_MNEMONIC; read, never shown),
    /// for the templates' IDs.
    #[arg(long, value_name = "FILE")]
    secrets: Option<PathBuf>,
    /// The port the HTTP gateways listen on (the node's default: 3000; it listens on every
    /// interface).
    #[arg(long, value_name = "PORT")]
    gateway_port: Option<u16>,
    /// How many requests each gateway serves at once [default: 20].
    #[arg(long, value_name = "N")]
    gateway_max_concurrency: Option<u64>,
    /// A chain the Airnode serves, by ID (repeatable; each with its provider URL and AirnodeRrpV0
    /// address as secrets). None: one chain whose ID is a secret too.
    #[arg(long = "chain", value_name = "ID")]
    chains: Vec<String>,
    /// The gas price in gwei when the provider recommends none (the provider's recommended price,
    /// ×1.2, comes first) [default: 10].
    #[arg(long, value_name = "GWEI")]
    gas_price: Option<u64>,
    /// Blocks a request waits for before the Airnode serves it [the node's default: 0].
    #[arg(long, value_name = "BLOCKS")]
    min_confirmations: Option<u64>,
    /// A RequesterAuthorizerWithAirnode contract (repeatable): only the requesters it allows are
    /// served. Without one, every requester whose sponsor funds a sponsor wallet is.
    #[arg(long = "requester-authorizer", value_name = "ADDRESS")]
    requester_authorizers: Vec<String>,
    /// A staging config: every OIS calls this server (`ois mock`'s address, a staging host)
    /// instead of its own; its IDs are the production config's.
    #[arg(long, value_name = "URL")]
    server: Option<String>,
    /// The Airnode the config.json is for: airnode@0.15 (reads OIS 2.3.x), the only release and
    /// so the default (airnode@next has no release whose config.json could be written yet). An
    /// OIS it does not read is refused.
    #[arg(long, value_enum)]
    target: Option<AirnodeTarget>,
    #[command(flatten)]
    outputs: Outputs,
}

pub(crate) fn run_scaffold(command: ScaffoldCommand, shell: &Shell) -> ExitCode {
    let report_format = match &command {
        ScaffoldCommand::Config(_) => super::ReportArg::Text,
        ScaffoldCommand::Deploy(args) => args.report,
        ScaffoldCommand::Feed(args) => args.outputs.report,
        ScaffoldCommand::SignedApi(args) => args.outputs.report,
        ScaffoldCommand::Airnode(args) => args.outputs.report,
    };
    let job = match command {
        ScaffoldCommand::Config(args) => return run_config(args, shell),
        ScaffoldCommand::Deploy(args) => return run_deploy(args, shell),
        ScaffoldCommand::Feed(args) => {
            let mut request = FeedRequest::default();
            request.feeds = args.feeds.clone();
            request.feeds_file = args.feeds_file.clone();
            request.target = args.target.map(super::TargetArg::target);
            request.node_version =
                args.target.map(|target| target.spec().node_version().to_owned()).or_else(|| args.node_version.clone());
            request.signed_apis = args.signed_apis.clone();
            request.fetch_interval = args.fetch_interval;
            request.batch = args.batch;
            request.all_feeds = args.all_feeds;
            request.server = args.server.clone();
            ScaffoldJob::new(args.files, ScaffoldKind::Feed(request), args.outputs.outputs())
        }
        ScaffoldCommand::SignedApi(args) => {
            let mut request = SignedApiRequest::default();
            request.signed_api = args.signed_api.clone();
            request.delayed = args.delayed;
            request.airnode = match (&args.airnode, &args.secrets) {
                (Some(address), _) => Airnode::Address(address.clone()),
                (None, Some(file)) => Airnode::SecretsFile(file.clone()),
                (None, None) => Airnode::None,
            };
            ScaffoldJob::new(vec![args.config], ScaffoldKind::SignedApi(request), args.outputs.outputs())
        }
        ScaffoldCommand::Airnode(args) => {
            // airnode@0.15 is the only choice (the argument says so in scripts).
            let _ = args.target;
            let airnode = match (args.airnode, args.secrets) {
                (Some(address), _) => ois::jobs::ids::Airnode::Address(address),
                (None, Some(file)) => ois::jobs::ids::Airnode::SecretsFile(file),
                (None, None) => ois::jobs::ids::Airnode::None,
            };
            let mut request = ois::jobs::scaffold::AirnodeRequest::default();
            let options = &mut request.options;
            options.http_gateway = args.http;
            options.signed_http_gateway = args.signed_http;
            options.gateway_port = args.gateway_port;
            options.gateway_max_concurrency = args.gateway_max_concurrency;
            options.chains = args.chains;
            options.gas_price_gwei = args.gas_price;
            options.min_confirmations = args.min_confirmations;
            options.requester_authorizers = args.requester_authorizers;
            request.templates = args.templates;
            request.airnode = airnode;
            request.server = args.server;
            let kind = ScaffoldKind::Airnode(request);
            ScaffoldJob::new(args.files, kind, args.outputs.outputs())
        }
    };
    super::scaffold_report::show(ois::jobs::scaffold::run(&job), &job.kind, report_format, shell)
}

fn run_deploy(args: DeployArgs, shell: &Shell) -> ExitCode {
    let mut job = ois::jobs::deploy::DeployJob::default();
    job.config = args.config;
    job.secrets = args.secrets;
    job.signed_api_config = args.signed_api_config;
    job.signed_api_secrets = args.signed_api_secrets;
    job.signed_api = args.signed_api;
    job.folder = args.folder;
    job.force = args.force;
    super::scaffold_report::show_deploy(ois::jobs::deploy::run(&job), args.report, shell)
}
