//! `ois request`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;

use ois::Diagnostic;
use ois::jobs::request::{CallInputs, RequestJob, Stop};
use ois::request::{Mode, render};

use super::{FAILURE, Shell, parse_pair};

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
    #[command(flatten)]
    ois: super::args::OisChoice,
    /// A secrets.env file: the `${VAR}`s of a config's apiCredentials, or for a bare OIS its
    /// schemes' credentials under the names `ois config` gives them (`ois convert --secrets-out`
    /// writes the template). The node's own secrets in it (the mnemonic, signed API tokens) are
    /// never sent to an API.
    #[arg(long, value_name = "FILE")]
    secrets: Option<PathBuf>,
    /// Also read this secret from the environment variable of the same name when the secrets
    /// file lacks it (repeatable). No other variable of the environment is ever read.
    #[arg(long = "env-secret", value_name = "NAME")]
    env_secrets: Vec<String>,
    /// Call this server instead of the OIS's (a mock, a staging host); a note says so.
    #[arg(long, value_name = "URL")]
    server: Option<String>,
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
    #[arg(long, required_unless_present = "feed", conflicts_with = "feed")]
    endpoint: Option<String>,
    /// The feed to call, by name, of the OIS's `feed` endpoint (`ois feed list`).
    #[arg(long, value_name = "NAME")]
    feed: Option<String>,
    #[arg(long, value_enum, default_value = "text")]
    format: RequestFormat,
    /// A sample API response (JSON): show the values and the encoding the node would produce.
    #[arg(long, value_name = "FILE")]
    response: Option<PathBuf>,
    /// With --response: list every leaf of the (post-processed) response with its `_path` and the
    /// `_type`/`_times` that fit it, to pick from.
    #[arg(long, requires = "response")]
    paths: bool,
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

    /// As the library takes them.
    pub(crate) fn call_inputs(&self) -> CallInputs {
        let mut inputs = CallInputs::new(self.file.clone());
        inputs.parameters = self.requester.clone();
        inputs.ois_title = self.ois.title.clone();
        inputs.secrets = self.secrets.clone();
        inputs.secrets_from_environment = self.env_secrets.clone();
        inputs.server = self.server.clone();
        inputs.metadata = self.metadata.clone();
        inputs.mode = if self.mode == ModeArg::Feed { Mode::Feed } else { Mode::Node };
        inputs.engine = self.engine.engine();
        inputs.show_secrets = self.show_secrets;
        inputs
    }
}

pub(crate) fn run_request(args: RequestArgs, shell: &Shell) -> ExitCode {
    let mut inputs = args.inputs.call_inputs();
    let endpoint = match &args.feed {
        Some(name) => inputs.ask_for_feed(name).to_owned(),
        None => args.endpoint.clone().unwrap_or_default(),
    };
    let mut job = RequestJob::new(inputs, endpoint);
    job.response = args.response.clone();
    let show = args.inputs.show_secrets;
    if args.paths {
        return match ois::jobs::request::paths(&job) {
            Ok(mut report) => show_paths(&mut report, &args.inputs.file, args.format == RequestFormat::Json, shell),
            Err(mut stop) => show_stop_as(&mut stop, args.format == RequestFormat::Json, shell),
        };
    }
    match ois::jobs::request::run(&job, super::now()) {
        Ok(mut report) => {
            shell.settle(&mut report.located.diagnostics, report.located.source.as_ref());
            let report_them = |d: &[Diagnostic]| shell.diagnostics(d, report.located.source.as_ref());
            report_them(&report.located.diagnostics);
            let output = match args.format {
                RequestFormat::Json => Ok(shell.js_json(
                    &render::json(&report.exchange, show),
                    &report.located.diagnostics,
                    report.located.source.as_ref(),
                )),
                RequestFormat::Text => Ok(render::text(&report.exchange, show)),
                RequestFormat::Curl => report.curl(show),
            };
            // What a document or a snippet put in the text may not act on the terminal.
            let printable = |output: String| match args.format {
                RequestFormat::Json => ois::emit::printable_json(&output).into_owned(),
                _ => ois::emit::printable(&output).into_owned(),
            };
            match output.map(printable).and_then(|output| shell.out(&output)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    report_them(std::slice::from_ref(&error));
                    ExitCode::from(FAILURE)
                }
            }
        }
        Err(mut stop) => show_stop_as(&mut stop, args.format == RequestFormat::Json, shell),
    }
}

/// [`show_stop`], its diagnostics settled, and with `json` its JSON on standard output: a script
/// always has something to parse.
pub(crate) fn show_stop_as(stop: &mut Stop, json: bool, shell: &Shell) -> ExitCode {
    shell.settle(&mut stop.located.diagnostics, stop.located.source.as_ref());
    if json {
        let _ = shell.out(&*ois::emit::printable_json(&super::js_json_text(&super::as_value(&stop.view()))));
    }
    show_stop(stop, shell)
}

/// What a request or call printed before it stopped: what the snippets logged, then its
/// diagnostics (the one that stopped it last); exit 1.
pub(crate) fn show_stop(stop: &Stop, shell: &Shell) -> ExitCode {
    let logs: String =
        stop.logs.iter().map(|log| format!("console ({}-processing): {}\n", log.phase, log.line)).collect();
    shell.err(&logs);
    shell.diagnostics(&stop.located.diagnostics, stop.located.source.as_ref());
    ExitCode::from(FAILURE)
}

/// The value picker's table (or its JSON), and the command that applies a choice.
pub(crate) fn show_paths(
    report: &mut ois::jobs::request::PathsReport,
    file: &std::path::Path,
    json: bool,
    shell: &Shell,
) -> ExitCode {
    shell.diagnostics(&report.located.diagnostics, report.located.source.as_ref());
    let output = if json {
        shell.report_js_json(report)
    } else {
        let mut table = ois::report::Table::new(["_path", "value", "_type", "_times"]);
        for leaf in &report.leaves {
            let value = super::cell(&leaf.value);
            let path = match (leaf.path.as_deref(), leaf.path_in_list.as_deref()) {
                (Some(""), _) => "(the whole response: no _path)".to_owned(),
                (Some(path), _) => path.to_owned(),
                (None, Some(listed)) => format!("(only in a _path of several values: {listed})"),
                (None, None) => "(no _path reaches it)".to_owned(),
            };
            table.row([
                path,
                value,
                leaf.suggested_type.unwrap_or("-").to_owned(),
                leaf.suggested_times.unwrap_or("-").to_owned(),
            ]);
        }
        let mut out = String::new();
        if let (Some(element), Some(feed)) = (&report.element, &report.feed) {
            out.push_str(&format!(
                "The leaves of element {} of the answer, {}'s own (the other feeds of its call read the others):\n",
                ois::emit::printable(element),
                ois::emit::printable(feed)
            ));
        }
        out.push_str(&table.render());
        if report.truncated {
            out.push_str(&format!("… the first {} leaves only\n", report.leaves.len()));
        }
        let feed_value = report.suggested.and_then(|index| report.leaves.get(index)).zip(report.feed.as_deref());
        if let Some((first, feed)) = feed_value {
            out.push_str(&format!(
                "\nApply the likeliest: ois feed set {} {} --value {}\n",
                shell_word(&file.display().to_string()),
                shell_word(feed),
                shell_word(first.path.as_deref().unwrap_or_default())
            ));
        } else if let Some(first) = report.suggested.and_then(|index| report.leaves.get(index)) {
            let mut apply = format!(
                "\nApply the likeliest: ois endpoint set {} {}",
                shell_word(&file.display().to_string()),
                shell_word(&report.endpoint)
            );
            match first.path.as_deref() {
                Some("") | None => apply.push_str(" --reserved _path"),
                Some(path) => apply.push_str(&format!(" --reserved {}", shell_word(&format!("_path={path}")))),
            }
            if let Some(kind) = first.suggested_type {
                apply.push_str(&format!(" --reserved _type={kind}"));
            }
            if let Some(times) = first.suggested_times {
                apply.push_str(&format!(" --reserved _times={times}"));
            }
            out.push_str(&apply);
            out.push('\n');
        }
        ois::emit::printable(&out).into_owned()
    };
    match shell.out(&output) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            shell.diagnostics(&[error], None);
            ExitCode::from(FAILURE)
        }
    }
}

/// `word` as a POSIX shell reads it back: as it is when it holds only safe characters, else in
/// single quotes (a `_path` with `\.` would lose its backslash unquoted).
fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "._-/=:@+,".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}
