//! `ois feed list|add|set|rm|batch|import|export`: feeds by name, API3's production `feed`
//! endpoint made and kept by commands.

use std::path::PathBuf;
use std::process::ExitCode;

use ois::Diagnostic;
use ois::edit::feeds::FeedChange;
use ois::jobs::endpoint::EndpointEdit;
use ois::jobs::feed::FeedInput;

use super::endpoint::{Target, edit_in_place};
use super::{ReportArg, Shell};

#[derive(clap::Subcommand)]
pub(crate) enum FeedCommand {
    /// Every feed served by name: its name, vendor path, parameters and value.
    #[command(after_help = "EXAMPLES:
  ois feed list api.ois.json
  ois feed list config.json --ois CoinGecko --format json")]
    List {
        /// An OIS, a list of them, a config.json or an Airnode Feed config.
        file: PathBuf,
        #[command(flatten)]
        ois: super::args::OisChoice,
        #[arg(long, value_enum, default_value = "text")]
        format: ReportArg,
    },
    /// A feed served by name: the `feed` endpoint on GET /{path} (POST /{path} for a POST
    /// operation, its body from --body and --param-json) is made or grown to serve it.
    #[command(after_help = "EXAMPLES:
  ois feed add api.ois.json BTC/USD --operation 'GET /simple/price' --param ids=bitcoin --param vs_currencies=usd --value bitcoin.usd
  ois feed add api.ois.json ETH/USD --openapi coingecko.json --operation simplePrice --param ids=ethereum --param vs_currencies=usd --value ethereum.usd
  ois feed add api.ois.json AAPL/USD --operation 'GET /stock/bidask' --param symbol=AAPL --parser mid.js
  ois feed add api.ois.json WTI/USD --openapi vendor.yaml --operation getQuote --body '{\"symbol\": \"WTI\", \"fields\": [\"last\"]}' --value data.last")]
    Add {
        #[command(flatten)]
        target: Target,
        /// The feed's name, as templates give it (`BTC/USD`, at most 31 bytes).
        name: String,
        #[command(flatten)]
        feed: FeedArgs,
    },
    /// Change a feed: its operation and parameters, its value, its name.
    #[command(after_help = "EXAMPLES:
  ois feed set api.ois.json BTC/USD --value bitcoin.usd
  ois feed set api.ois.json BTC/USD --param vs_currencies=eur --drop-param include_24hr_vol --rename BTC/EUR")]
    Set {
        #[command(flatten)]
        target: Target,
        /// The feed.
        name: String,
        /// Its new name.
        #[arg(long, value_name = "NEW")]
        rename: Option<String>,
        /// A parameter taken away (repeatable).
        #[arg(long, value_name = "NAME")]
        drop_param: Vec<String>,
        #[command(flatten)]
        feed: FeedArgs,
    },
    /// Remove feeds (the last one takes the `feed` endpoint with it).
    #[command(after_help = "EXAMPLES:
  ois feed rm api.ois.json DOGE/USD SHIB/USD")]
    Rm {
        #[command(flatten)]
        target: Target,
        /// The feeds.
        #[arg(required = true)]
        names: Vec<String>,
    },
    /// Feeds answered by one call: the parameters that differ become lists (`ids=bitcoin,ethereum`),
    /// as production's batches are; their templates then share one API call per trigger.
    #[command(after_help = "EXAMPLES:
  ois feed batch api.ois.json BTC/USD ETH/USD SOL/USD
  ois feed batch api.ois.json --batches api-data.json")]
    Batch {
        #[command(flatten)]
        target: Target,
        /// The feeds, two or more on one vendor path.
        names: Vec<String>,
        /// The batches of a file in the shape API3 keeps (`supportedFeedsInBatches`).
        #[arg(long, value_name = "FILE", conflicts_with = "names")]
        batches: Option<PathBuf>,
        /// A sample of the one call's answer (a recorded or example answer): where it is an array
        /// whose elements name what they are (`"requestedSymbol": "silver"`), each feed finds its
        /// own element by that field instead of by its place.
        #[arg(long, value_name = "FILE", conflicts_with = "batches")]
        answer: Option<PathBuf>,
    },
    /// Feeds from API3's data-feed blueprints (a folder of them, or one JSON array), from
    /// another OIS's `feed` endpoint, or from an RPC feeds catalog (one OIS a chain, made or
    /// brought up to date, each feed one eth_call); feeds of the same name are replaced.
    #[command(after_help = "EXAMPLES:
  ois feed import api.ois.json data-feed-blueprints/
  ois feed import api.ois.json production.ois.json --batches api-data.json
  ois feed import rpc.ois.json rpc-catalog.json --provider Infura --chain-url 'ethereum=https://mainnet.infura.io/v3/${INFURA_KEY}'")]
    Import {
        #[command(flatten)]
        target: Target,
        /// A folder of blueprint files, a JSON array of blueprints, an OIS with a feed endpoint, or
        /// an RPC feeds catalog (`rpcFeedsCatalog` of @api3/api-integrations, as JSON).
        from: PathBuf,
        /// An RPC catalog's chain and its JSON-RPC URL, CHAIN=URL; `${NAME}` after the host is a
        /// secret the node fills (repeatable; only these chains' feeds are imported).
        #[arg(long = "chain-url", value_name = "CHAIN=URL")]
        chain_urls: Vec<String>,
        /// An RPC catalog's provider: each chain's OIS is titled `NAME CHAIN`.
        #[arg(long, value_name = "NAME", default_value = "RPC", requires = "chain_urls")]
        provider: String,
        /// Then make the batches of this file (`supportedFeedsInBatches`) one call each.
        #[arg(long, value_name = "FILE")]
        batches: Option<PathBuf>,
        /// The vendor's OpenAPI document: every feed's path and parameters are checked against it.
        #[arg(long, value_name = "FILE")]
        openapi: Option<PathBuf>,
    },
    /// The feeds as API3's data-feed blueprints: one file each into a folder, or one JSON array.
    #[command(after_help = "EXAMPLES:
  ois feed export api.ois.json data-feed-blueprints/
  ois feed export api.ois.json feeds.json --batches batches.json")]
    Export {
        /// An OIS, a list of them, a config.json or an Airnode Feed config.
        file: PathBuf,
        #[command(flatten)]
        ois: super::args::OisChoice,
        /// A folder (one blueprint file a feed), or a file ending in .json (one array).
        to: PathBuf,
        /// Also write the feeds one call answers, as `supportedFeedsInBatches`.
        #[arg(long, value_name = "FILE")]
        batches: Option<PathBuf>,
        /// Replace files that exist.
        #[arg(long)]
        force: bool,
        #[arg(long, value_enum, default_value = "text")]
        format: ReportArg,
    },
}

#[derive(clap::Args)]
pub(crate) struct FeedArgs {
    /// The vendor operation: an operation ID of --openapi's document, or 'GET /path'.
    #[arg(long, value_name = "ID|'GET /path'")]
    operation: Option<String>,
    /// The vendor's OpenAPI document: the operation and parameters are checked against it.
    #[arg(long, value_name = "FILE")]
    openapi: Option<PathBuf>,
    /// A vendor parameter, NAME=VALUE (a path parameter fills the path; without --openapi,
    /// header:NAME=VALUE for a header) (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    parameters: Vec<String>,
    /// A vendor parameter with a JSON value, NAME=JSON: a POST body's number, array or object
    /// (`--param-json 'params=[{"to":"0x…","data":"0x…"},"latest"]'`) (repeatable).
    #[arg(long = "param-json", value_name = "NAME=JSON")]
    json_parameters: Vec<String>,
    /// A POST operation's JSON body, inline or `@FILE`: each property a parameter of the feed
    /// (the node sends a POST's parameters as its body); --param and --param-json change one.
    #[arg(long, value_name = "JSON|@FILE")]
    body: Option<String>,
    /// The value: its path in the response, as `_path` reads one (`quotes.USD.price`).
    #[arg(long, value_name = "PATH", conflicts_with = "parser")]
    value: Option<String>,
    /// The value: a parser from a .js file, `(response) => …`.
    #[arg(long, value_name = "FILE.js")]
    parser: Option<PathBuf>,
}

impl FeedArgs {
    fn input(&self, name: String) -> Result<FeedInput, Diagnostic> {
        let mut input = FeedInput::default();
        input.name = name;
        input.operation = self.operation.clone();
        input.document = self.openapi.clone();
        for text in &self.parameters {
            let (key, value) = text.split_once('=').ok_or_else(|| {
                Diagnostic::elsewhere(ois::Code::BadFeed, format!("--param {text}: write NAME=VALUE"))
            })?;
            input.parameters.push((key.to_owned(), value.to_owned()));
        }
        for text in &self.json_parameters {
            let (key, json) = text.split_once('=').ok_or_else(|| {
                Diagnostic::elsewhere(ois::Code::BadFeed, format!("--param-json {text}: write NAME=JSON"))
            })?;
            let value = serde_json::from_str(json).map_err(|error| {
                Diagnostic::elsewhere(ois::Code::BadFeed, format!("--param-json {key}: not JSON ({error})"))
                    .with_fix(ois::Fix::QuoteJsonString)
            })?;
            input.json_parameters.push((key.to_owned(), value));
        }
        if let Some(body) = &self.body {
            let source = match body.strip_prefix('@') {
                Some(file) => ois::Source::read_regular(std::path::Path::new(file))?,
                None => ois::Source::from_text("--body", None, body.clone()),
            };
            match source.parse()? {
                serde_json::Value::Object(properties) => input.body = Some(properties),
                _ => {
                    return Err(Diagnostic::elsewhere(
                        ois::Code::BadFeed,
                        "--body: the node sends a POST's parameters as one JSON object; give an object",
                    ));
                }
            }
        }
        input.value = self.value.clone();
        if let Some(file) = &self.parser {
            input.parser = Some(ois::Source::read_regular(file)?.text);
        }
        Ok(input)
    }
}

pub(crate) fn run_feed(command: FeedCommand, shell: &Shell) -> ExitCode {
    let edit = |target: &Target, made: Result<FeedChange, Diagnostic>| match made {
        Ok(change) => edit_in_place(target, EndpointEdit::Feeds(change), shell),
        Err(error) => shell.fail(&error),
    };
    match command {
        FeedCommand::List { file, ois, format } => list(&file, ois.title(), format, shell),
        FeedCommand::Add { target, name, feed } => {
            edit(&target, feed.input(name).and_then(|input| ois::jobs::feed::add(&input)))
        }
        FeedCommand::Set { target, name, rename, drop_param, feed } => {
            let made = feed.input(name).and_then(|mut input| {
                input.rename = rename;
                input.dropped = drop_param;
                ois::jobs::feed::set(&input)
            });
            edit(&target, made)
        }
        FeedCommand::Rm { target, names } => edit(&target, Ok(FeedChange::Remove { names })),
        FeedCommand::Batch { target, names, batches, answer } => match batches {
            Some(file) => edit(&target, ois::jobs::feed::batches(&target.file, target.ois.title(), &file)),
            None => edit(&target, ois::jobs::feed::batch(names, answer.as_deref())),
        },
        FeedCommand::Import { target, from, chain_urls, provider, batches, openapi } => {
            if !chain_urls.is_empty() {
                return import_rpc(&target, from, &chain_urls, provider, shell);
            }
            let title = target.ois.title();
            let change = ois::jobs::feed::import_with_batches(
                &target.file,
                &from,
                title,
                openapi.as_deref(),
                batches.as_deref(),
            );
            edit(&target, change)
        }
        FeedCommand::Export { file, ois, to, batches, force, format } => {
            match ois::jobs::feed::export(&file, ois.title(), &to, batches.as_deref(), force) {
                Ok(mut report) => {
                    let text = match format {
                        ReportArg::Json => shell.report_json(&mut report),
                        ReportArg::Text => format!(
                            "{} feed(s), {} batch(es): {}\n",
                            report.feeds,
                            report.batches,
                            report.written.join(", ")
                        ),
                    };
                    shell.out_then_succeed(&*ois::emit::printable(&text))
                }
                Err(error) => shell.fail_as(&error, format == ReportArg::Json),
            }
        }
    }
}

/// `feed import FILE CATALOG --chain-url CHAIN=URL…`.
fn import_rpc(target: &Target, catalog: PathBuf, chain_urls: &[String], title: String, shell: &Shell) -> ExitCode {
    let mut chains = Vec::new();
    for text in chain_urls {
        match text.split_once('=') {
            Some((chain, url)) if !chain.is_empty() => chains.push((chain.to_owned(), url.to_owned())),
            _ => {
                return shell.fail(&Diagnostic::elsewhere(
                    ois::Code::BadArgument,
                    format!("--chain-url {text}: write CHAIN=URL"),
                ));
            }
        }
    }
    let mut job = ois::jobs::feed::rpc::RpcImport::new(target.file.clone(), catalog, chains);
    job.title = title;
    job.dry_run = target.dry_run;
    super::endpoint::show_edit(ois::jobs::feed::rpc::import(&job), target, shell)
}

fn list(file: &std::path::Path, title: Option<&str>, format: ReportArg, shell: &Shell) -> ExitCode {
    let mut tables = match ois::jobs::feed::list(file, title) {
        Ok(tables) => tables,
        Err(error) => return shell.fail_as(&error, format == ReportArg::Json),
    };
    let output = match format {
        ReportArg::Json => shell.report_json(&mut tables),
        ReportArg::Text => {
            let mut table = ois::report::Table::new(["NAME", "PATH", "PARAMETERS", "VALUE"]);
            for feed in &tables.feeds {
                let parameters: Vec<String> =
                    feed.parameters.iter().map(|(k, v)| format!("{k}={}", super::cell(v))).collect();
                let value = match (&feed.parser, feed.value_path()) {
                    (None, _) => "(no parser)".to_owned(),
                    (Some(_), Some(path)) => path,
                    (Some(code), None) => format!("parser, {} line(s)", code.lines().count()),
                };
                table.row([feed.name.clone(), feed.path.clone(), parameters.join(" "), value]);
            }
            let mut text = table.render();
            if tables.feeds.is_empty() {
                text = "no feeds (the OIS has no `feed` endpoint)\n".to_owned();
            }
            for name in &tables.parsers_without_request {
                text.push_str(&format!("{name}: a parser with no request in the pre-processing table\n"));
            }
            text
        }
    };
    shell.out_then_succeed(&*ois::emit::printable(&output))
}
