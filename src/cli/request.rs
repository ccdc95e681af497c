//! `ois request`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;

use ois::diagnostic::{Code, Diagnostic};
use ois::source::Source;

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

#[derive(clap::Args)]
pub(crate) struct RequestArgs {
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

pub(crate) fn run_request(args: RequestArgs) -> ExitCode {
    let style = super::style_for(std::io::stderr().is_terminal());
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
pub(crate) fn request_for(args: &RequestArgs, source: &Source) -> Result<(String, Vec<Diagnostic>), Diagnostic> {
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
            ois::request::js::stringify_pretty(&render::json(&built, preview.as_ref(), args.show_secrets)) + "\n"
        }
        RequestFormat::Text => render::text(&built, preview.as_ref(), args.show_secrets),
        RequestFormat::Curl => render::curl(&built, args.show_secrets),
    };
    Ok((output, warnings))
}
