//! `ois request`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;

use ois::{Code, Diagnostic, Source};

use super::{FAILURE, parse_pair, write_stdout};

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum RequestFormat {
    Text,
    Json,
    Curl,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum ModeArg {
    /// airnode-node: endpoint-parameter defaults applied, reserved names removed.
    Node,
    /// Airnode Feed: no defaults.
    Feed,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum EngineArg {
    /// In-process QuickJS, sandboxed: no file system, network, process, environment or Node.js
    /// modules; bounded time and memory.
    Embedded,
    /// The system `node`, exactly as the node runs snippets (Node.js modules included).
    /// UNSANDBOXED: the snippet can do anything you can. Only for code you trust.
    Node,
}

impl EngineArg {
    pub(crate) fn engine(self) -> ois::processing::Engine {
        match self {
            EngineArg::Embedded => ois::processing::Engine::Embedded,
            EngineArg::Node => ois::processing::Engine::Node { program: None },
        }
    }

    /// The one-line warning `--engine node` earns.
    pub(crate) fn warning(self) -> Option<Diagnostic> {
        (self == EngineArg::Node).then(|| {
            Diagnostic::elsewhere(
                Code::Unsandboxed,
                "--engine node runs the OIS's processing snippets with your system node, unsandboxed: they can read files, use the network and run programs as you",
            )
        })
    }
}

/// What `ois request` and `ois call` share: the file, the requester's parameters, the secrets,
/// which node, which engine.
#[derive(clap::Args)]
pub(crate) struct Inputs {
    /// An OIS (JSON or YAML) or a config.json; `-` for standard input.
    pub(crate) file: PathBuf,
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
    /// What runs the endpoint's pre- and post-processing snippets.
    #[arg(long, value_enum, default_value = "embedded")]
    pub(crate) engine: EngineArg,
    /// Show credential values instead of ****.
    #[arg(long)]
    pub(crate) show_secrets: bool,
    /// `--param` and `--param-json` values in command-line order (`true`: JSON), as
    /// [`Inputs::keep_order`] found them: the node's parameters are an ordered object where a
    /// later value replaces an earlier one.
    #[arg(skip)]
    requester: Vec<(String, String, bool)>,
}

#[derive(clap::Args)]
pub(crate) struct RequestArgs {
    #[command(flatten)]
    pub(crate) inputs: Inputs,
    /// The endpoint to call.
    #[arg(long)]
    endpoint: String,
    #[arg(long, value_enum, default_value = "text")]
    format: RequestFormat,
    /// A sample API response (JSON): show the values and the encoding the node would produce.
    #[arg(long, value_name = "FILE")]
    response: Option<PathBuf>,
}

impl Inputs {
    /// Records the order in which `--param` and `--param-json` were given (clap keeps each list in
    /// order, but not the two interleaved).
    pub(crate) fn keep_order(&mut self, matches: &clap::ArgMatches) {
        let positions = |id: &str| matches.indices_of(id).map(Iterator::collect::<Vec<_>>).unwrap_or_default();
        let texts = positions("params").into_iter().zip(self.params.iter().map(|(n, v)| (n, v, false)));
        let jsons = positions("params_json").into_iter().zip(self.params_json.iter().map(|(n, v)| (n, v, true)));
        let mut all: Vec<(usize, (&String, &String, bool))> = texts.chain(jsons).collect();
        all.sort_by_key(|(position, _)| *position);
        self.requester = all.into_iter().map(|(_, (n, v, json))| (n.clone(), v.clone(), json)).collect();
    }

    /// The chosen OIS (interpolated as the node interpolates it, checked) and the call's options
    /// for `endpoint`, from the file and the arguments.
    pub(crate) fn setup(
        &self,
        source: &Source,
        endpoint: &str,
    ) -> Result<(ois::request::Selected, ois::request::RequestOptions), Diagnostic> {
        use ois::request::{self, Metadata, Mode, RequestOptions};
        let document = source.parse()?;
        let secrets = match &self.secrets {
            Some(path) => {
                // A regular file only: a FIFO nobody writes to would block forever.
                let text = Source::read_regular(path)?.text;
                request::Secrets::parse(&text)?
            }
            None => request::Secrets::from_environment(),
        };
        let selected = request::select(&document, self.ois_title.as_deref(), &secrets)?;
        // What is said about the chosen OIS points into the file it came from (a config.json's /ois/N).
        request::check_ois(&selected.ois).map_err(|error| error.within(&selected.pointer))?;
        // As the node's parameter object: in the order given, a later value of a name replacing an
        // earlier one in its first place.
        let mut parameters = indexmap::IndexMap::new();
        for (name, text, json) in &self.requester {
            let value = if *json {
                serde_json::from_str(text).map_err(|err| {
                    Diagnostic::elsewhere(Code::BadArgument, format!("--param-json {name}: not JSON ({err})"))
                        .with_help("quote strings: --param-json name='\"text\"', or use --param")
                })?
            } else {
                serde_json::Value::String(text.clone())
            };
            parameters.insert(name.clone(), value);
        }
        let metadata = if self.metadata.is_empty() {
            None
        } else {
            let mut metadata = Metadata::default();
            for (key, value) in &self.metadata {
                let slot = match key.as_str() {
                    "chainId" => &mut metadata.chain_id,
                    "chainType" => &mut metadata.chain_type,
                    "requesterAddress" => &mut metadata.requester_address,
                    "sponsorAddress" => &mut metadata.sponsor_address,
                    "sponsorWalletAddress" => &mut metadata.sponsor_wallet_address,
                    "requestId" => &mut metadata.request_id,
                    other => {
                        return Err(Diagnostic::elsewhere(Code::BadArgument, format!("--metadata {other}: unknown key"))
                            .with_help("keys: chainId, chainType, requesterAddress, sponsorAddress, sponsorWalletAddress, requestId"));
                    }
                };
                *slot = Some(value.clone());
            }
            Some(metadata)
        };
        let mut options = RequestOptions::new(endpoint);
        options.parameters = parameters;
        options.credentials = selected.credentials.clone();
        options.metadata = metadata;
        options.mode = if self.mode == ModeArg::Feed { Mode::Feed } else { Mode::Node };
        Ok((selected, options))
    }
}

pub(crate) fn run_request(args: RequestArgs) -> ExitCode {
    let style = super::style_for(std::io::stderr().is_terminal());
    let source = Source::read(&args.inputs.file);
    let outcome = match &source {
        Ok(source) => request_for(&args, source),
        Err(error) => Err((vec![error.clone()], Vec::new())),
    };
    let source = source.as_ref().ok();
    let report = |diagnostics: &[Diagnostic]| super::report_diagnostics(diagnostics, source, style);
    match outcome {
        Ok((output, warnings)) => {
            report(&warnings);
            match write_stdout(&output) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    report(std::slice::from_ref(&error));
                    ExitCode::from(FAILURE)
                }
            }
        }
        Err((error, logs)) => {
            let logs: String =
                logs.iter().map(|log| format!("console ({}-processing): {}\n", log.phase, log.line)).collect();
            let _ = std::io::stderr().write_all(logs.as_bytes());
            report(&error);
            ExitCode::from(FAILURE)
        }
    }
}

/// What the command printed before it stopped: its diagnostics (the one that stopped it last)
/// and what the snippets logged.
pub(crate) type Stop = (Vec<Diagnostic>, Vec<ois::request::Log>);

/// The rendered call plus warnings, or what stops it.
pub(crate) fn request_for(args: &RequestArgs, source: &Source) -> Result<(String, Vec<Diagnostic>), Stop> {
    let mut warnings: Vec<Diagnostic> = args.inputs.engine.warning().into_iter().collect();
    match call(args, source, &mut warnings) {
        Ok(output) => Ok((output, warnings)),
        Err(stopped) => {
            warnings.push(stopped.diagnostic);
            Err((warnings, stopped.logs))
        }
    }
}

fn call(args: &RequestArgs, source: &Source, warnings: &mut Vec<Diagnostic>) -> Result<String, ois::request::Stopped> {
    use ois::request::{self, render};
    let (selected, options) = args.inputs.setup(source, &args.endpoint)?;
    let within = |error: Diagnostic| error.within(&selected.pointer);
    let response = match &args.response {
        Some(path) => {
            // Read as the node reads an API's response: JSON.parse, duplicates and 1e400 included.
            let (response, duplicate_keys, infinities) = Source::read(path)?.parse_as_javascript()?;
            let file = path.display();
            if duplicate_keys > 0 {
                warnings.push(Diagnostic::elsewhere(
                    Code::ResponseLenient,
                    format!("{file} repeats {duplicate_keys} key(s); the later value is used, as JSON.parse does"),
                ));
            }
            if infinities > 0 {
                warnings.push(Diagnostic::elsewhere(
                    Code::ResponseLenient,
                    format!(
                        "{file} has {infinities} number(s) beyond a double; they are Infinity, as JSON.parse reads them"
                    ),
                ));
            }
            Some(response)
        }
        None => None,
    };
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let exchange = request::exchange(&selected.ois, &options, &args.inputs.engine.engine(), response.as_ref(), now)
        .map_err(|stopped| request::Stopped { diagnostic: within(stopped.diagnostic), logs: stopped.logs })?;
    warnings.extend(exchange.diagnostics().into_iter().map(within));
    let output = match (args.format, &exchange.request) {
        (RequestFormat::Json, _) => render::json_text(&exchange, args.inputs.show_secrets),
        (RequestFormat::Text, _) => render::text(&exchange, args.inputs.show_secrets),
        (RequestFormat::Curl, Some(request)) => render::curl(request, args.inputs.show_secrets),
        (RequestFormat::Curl, None) => {
            return Err(Diagnostic::elsewhere(
                Code::BadArgument,
                format!(
                    "endpoint \"{}\" makes no API call (it has no operation): there is no curl command",
                    args.endpoint
                ),
            )
            .into());
        }
    };
    Ok(output)
}
