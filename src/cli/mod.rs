//! What the subcommands share: exit codes, argument parsers, printing, and how the library's
//! [`Fix`]es are named on the command line.

mod args;
mod call;
mod config;
mod convert;
mod endpoint;
mod endpoint_ids;
mod explain;
mod explain_pages;
mod feed;
mod ids;
#[cfg(feature = "mock")]
mod mock;
mod processing;
mod request;
mod scaffold;
mod scaffold_report;
mod schema;
mod shell;
mod status;
#[cfg(feature = "studio")]
mod studio;
mod update;
mod validate;

pub(crate) use call::{CallArgs, run_call};
pub(crate) use config::{ConfigArgs, run_config};
pub(crate) use convert::{ConvertArgs, run_convert};
pub(crate) use endpoint::{EndpointCommand, run_endpoint};
pub(crate) use endpoint_ids::{EndpointIdsArgs, run_endpoint_ids};
pub(crate) use explain::run_explain;
pub(crate) use feed::{FeedCommand, run_feed};
pub(crate) use ids::{IdsArgs, run_ids};
#[cfg(feature = "mock")]
pub(crate) use mock::{MockArgs, run_mock};
pub(crate) use processing::{ProcessingCommand, run_processing};
pub(crate) use request::{RequestArgs, run_request};
pub(crate) use scaffold::{ScaffoldCommand, run_scaffold};
pub(crate) use schema::{SchemaArgs, run_schema};
pub(crate) use shell::Shell;
pub(crate) use status::{StatusArgs, run_status};
#[cfg(feature = "studio")]
pub(crate) use studio::{StudioArgs, run_studio};
pub(crate) use validate::{ValidateArgs, run_validate};

use clap::ValueEnum;

use ois::{Diagnostic, Fix};

/// The options every command takes, before or after its name.
#[derive(clap::Args, Clone, Copy)]
pub(crate) struct GlobalArgs {
    /// Show only errors on standard error (no warnings, notes or tables); what goes to standard
    /// output is unchanged.
    #[arg(short, long, global = true)]
    pub(crate) quiet: bool,
    /// When to colour what goes to standard error: auto (on a terminal, unless NO_COLOR is set),
    /// always, never.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto", global = true)]
    pub(crate) color: ColorArg,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum ColorArg {
    Auto,
    Always,
    Never,
}

/// Exit code: input could not be converted (or --strict found warnings); nothing was written.
pub(crate) const FAILURE: u8 = 1;

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum ReportArg {
    Text,
    Json,
}

/// The node an OIS is for: what people know, rather than the `oisFormat` it reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TargetArg(pub(crate) ois::node::TargetSpec);

impl TargetArg {
    /// The library's target (the node; its exact release is [`TargetArg::spec`]'s).
    pub(crate) fn target(self) -> ois::node::Target {
        self.0.target
    }

    /// The node and its exact release.
    pub(crate) fn spec(self) -> ois::node::TargetSpec {
        self.0
    }
}

/// `--target`: a node (`airnode-feed@4`, its newest release) or one release exactly
/// (`airnode-feed@4.2.0`), as the table of releases names them.
pub(crate) fn parse_target(text: &str) -> Result<TargetArg, String> {
    ois::node::TargetSpec::parse(text).map(TargetArg)
}

/// `--target` of `scaffold feed`: an Airnode Feed, or one of its releases.
pub(crate) fn parse_feed_target(text: &str) -> Result<TargetArg, String> {
    let spec = ois::node::TargetSpec::parse(text)?;
    if !spec.target.is_feed() {
        let feeds: Vec<String> = ois::node::Release::feeds().map(ois::node::Release::name).collect();
        return Err(format!(
            "{text} is not an Airnode Feed: airnode-feed@4, airnode-feed@3, or one of {}",
            feeds.join(", ")
        ));
    }
    Ok(TargetArg(spec))
}

/// How `ois convert` and `ois validate` report their diagnostics.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum DiagnosticsArg {
    /// For people, in the style of rustc.
    Text,
    /// Every diagnostic as JSON, with counts.
    Json,
    /// SARIF 2.1.0: code scanning, editors.
    Sarif,
    /// GitHub Actions workflow commands: annotations on the pull request.
    Github,
}

impl DiagnosticsArg {
    /// Whether every diagnostic is reported (so every one is located), not only those shown.
    pub(crate) fn reports_all(self) -> bool {
        self != DiagnosticsArg::Text
    }
}

pub(crate) fn parse_pair(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_owned(), value.to_owned())),
        _ => Err(format!("expected NAME=VALUE, got \"{text}\"")),
    }
}

/// The library names a setting that would help; this is its name here, a flag.
fn flag_help(fix: &Fix) -> String {
    match fix {
        Fix::ChooseTitle => "pass --title to choose it yourself".to_owned(),
        Fix::ChooseVersion => "pass --ois-version to choose it yourself".to_owned(),
        Fix::GiveBaseUrl => "pass the API's base URL with --base-url https://api.example.com".to_owned(),
        Fix::GiveRelativeBase => "pass the URL it is relative to with --base-url https://api.example.com".to_owned(),
        Fix::UseBaseUrlInstead => "use --base-url instead".to_owned(),
        Fix::PickServer => "pick another with --server INDEX or --server URL".to_owned(),
        Fix::GiveServerVariable(name) => {
            format!("pass a value with --server-var {name}=VALUE, or pick another server with --server")
        }
        Fix::ConvertWithItsServer => {
            "convert this operation separately with --server/--base-url set to its server".to_owned()
        }
        Fix::AllowRoot => "pass --allow-root DIR to allow references below DIR".to_owned(),
        Fix::Replace => "pass --force to replace it".to_owned(),
        Fix::GiveParameters => "pass them with --param NAME=VALUE".to_owned(),
        Fix::GiveSecret(name) => {
            format!("pass --secrets secrets.env with a line {name}=..., or --env-secret {name} to read it from the environment")
        }
        Fix::ChooseOis => "say which with --ois TITLE".to_owned(),
        Fix::ChooseSignedApi => "say which with --signed-api NAME".to_owned(),
        Fix::GiveAirnode => "pass --secrets FILE holding the mnemonic, or --airnode ADDRESS".to_owned(),
        Fix::CopyDefaults => "pass --defaults to write it (the node then sends it whenever none is given)".to_owned(),
        Fix::ChooseSecurity => "choose the scheme to keep with --security NAME".to_owned(),
        Fix::AllowEqualValues => {
            "if the values are equal by right (two names of one asset), pass --allow-equal".to_owned()
        }
        Fix::RecordFirst => {
            "record it first: the same call with --record DIR instead of --replay reaches the API once and keeps its answer"
                .to_owned()
        }
        Fix::MakeCredential(name) => format!(
            "make it the API's credential, sent from the node's secrets: convert again with --api-key-param {name} (`--update OIS` keeps your refinements); never put the key in a template"
        ),
        Fix::UseNodeEngine => {
            "run it with --engine node, which has the Node.js built-ins (and no sandbox: only for code you trust)"
                .to_owned()
        }
        Fix::GiveBase => {
            "pass --base OLD_OPENAPI (the document the OIS was generated from) to take the API's changes too".to_owned()
        }
        Fix::QuoteJsonString => "quote strings: --param-json name='\"text\"', or use --param".to_owned(),
        Fix::GiveJsonValue(name) => format!("give it with --param-json {name}=JSON (or in --body)"),
        Fix::GiveChainUrl(chain) => {
            format!("pass --chain-url {chain}=https://…/v3/${{RPC_KEY}} for each chain (a `${{NAME}}` is a secret the node fills)")
        }
        Fix::EscapeComma => {
            r"a comma inside a value is written \, in single quotes: --feed 'feed:pairs=string32:USD/EUR\,USD/GBP' (--template alike)"
                .to_owned()
        }
        Fix::UpdateInstead => "run the same command without --check to update it".to_owned(),
        Fix::LeaveStrict => "fix what the warnings say, or run without --strict".to_owned(),
        Fix::GiveMetadata => {
            "give it with --metadata KEY=VALUE (chainId, chainType, requesterAddress, sponsorAddress, sponsorWalletAddress, requestId)"
                .to_owned()
        }
        Fix::SetReserved(name) => format!("set it with --reserved {name}=VALUE"),
        Fix::FixParameter(name) => format!("fix it instead: --fixed {name}=VALUE"),
        Fix::ChooseEndpoint => "--endpoint NAME calls one, --all calls every endpoint with its parameters' examples".to_owned(),
        Fix::GiveResponse => "give one with --response FILE, or call the API: ois call ... --paths".to_owned(),
        Fix::ConvertFor(target) => {
            format!("convert them again for one node (`ois convert OPENAPI --update OIS --target {target}`), or scaffold them apart")
        }
        Fix::ChoosePort => "choose another port with --port, or 0 for any free one".to_owned(),
        Fix::ConvertFirst => "convert it first: ois convert FILE --output FILE.ois.json".to_owned(),
        Fix::AddFeed => "make one with `ois feed add OIS NAME --operation ID --value PATH`".to_owned(),
        Fix::ChangeFeed(name) => format!("change it with `ois feed set OIS '{name}' --value PATH` (or --param, --parser)"),
        Fix::GiveFeedValue(name) => format!("give it one with `ois feed set OIS '{name}' --value PATH` (or --parser FILE.js)"),
        Fix::WriteFeedTables => {
            "write the feeds with `ois feed add` (--openapi, --operation, --value), or rename the endpoint to keep hand-written processing"
                .to_owned()
        }
        Fix::GiveMnemonic(name) => {
            format!("pass --secrets FILE with a line {name}=... (the Airnode's mnemonic: read, never shown)")
        }
        Fix::VerifyIds => "`ois ids verify FILE --format json` re-derives every ID of the config".to_owned(),
        Fix::DeriveTemplates => {
            "rename in the OIS alone (`ois endpoint set OIS.json OLD --rename NEW`), then derive the templates with `ois ids`"
                .to_owned()
        }
        Fix::CarryFixed { file, fixes } => {
            let each: Vec<String> = fixes
                .iter()
                .map(|(endpoint, name, value)| format!("ois endpoint set {file} {endpoint} --fixed {name}={value}"))
                .collect();
            format!("carry the fixed value over: {}", each.join("; "))
        }
        Fix::EncodeTemplate => {
            "encode the parameters again (`ois ids FILE --template ENDPOINT:NAME=TYPE:VALUE --airnode ADDRESS` prints them)".to_owned()
        }
        Fix::FillSecret { name, file: Some(file) } => {
            format!("add a line {name}=... to {file} (`ois convert --secrets-out` and `ois config` write the template)")
        }
        Fix::FillSecret { name, file: None } => {
            format!(
                "pass --secrets FILE with a line {name}=... (`ois convert … --secrets-out FILE` writes the template)"
            )
        }
        other => other.describe(),
    }
}

/// Names every fix in command-line terms, before anything is printed.
fn in_flags(diagnostics: &mut [Diagnostic]) {
    for diagnostic in diagnostics {
        diagnostic.settle_fix(flag_help);
    }
}

/// The SARIF log or the GitHub workflow commands of each file's diagnostics; `None` for the
/// formats each command renders its own way (text, JSON).
pub(crate) fn machine_report(format: DiagnosticsArg, files: &[(&str, &[Diagnostic])]) -> Option<String> {
    match format {
        DiagnosticsArg::Sarif => Some(json_text(&ois::report::machine::sarif(files))),
        DiagnosticsArg::Github => Some(files.iter().map(|(file, d)| ois::report::machine::github(file, d)).collect()),
        DiagnosticsArg::Text | DiagnosticsArg::Json => None,
    }
}

/// A report as pretty JSON with a final newline (empty if it cannot be serialized, which a report
/// of plain data never is).
/// The widest a value is shown in a table column, in characters.
const CELL_CHARS: usize = 40;

/// `text` cut to a table column, `…` where it was cut.
pub(crate) fn shorten(text: &str) -> String {
    if text.chars().count() > CELL_CHARS {
        text.chars().take(CELL_CHARS - 1).collect::<String>() + "…"
    } else {
        text.to_owned()
    }
}

/// A JSON value in a table column: a string as its text, anything else as JSON, cut to fit.
pub(crate) fn cell(value: &serde_json::Value) -> String {
    shorten(&value.as_str().map_or_else(|| value.to_string(), str::to_owned))
}

pub(crate) fn json_text(report: &impl serde::Serialize) -> String {
    // serde_json leaves DEL, the C1 controls and the invisible format characters raw in strings:
    // escaped, they read back as the same JSON and cannot act on a terminal.
    serde_json::to_string_pretty(report).map(|s| ois::emit::printable_json(&s).into_owned() + "\n").unwrap_or_default()
}

/// A report as a JSON value, for [`js_json_text`] (`null` if it cannot be serialized, which a
/// report of plain data never is).
pub(crate) fn as_value(report: &impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(report).unwrap_or_default()
}

/// `value` as `JSON.stringify(value, null, 2)` writes it (numbers as JavaScript writes them), with
/// the characters a terminal would act on escaped (the same JSON), and a final newline.
pub(crate) fn js_json_text(value: &serde_json::Value) -> String {
    ois::emit::printable_json(&ois::js::stringify_pretty(value)).into_owned() + "\n"
}

/// Seconds since the Unix epoch (for `_times` of time-stamped values and processing's clock).
pub(crate) fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fix_is_named_by_its_flag() {
        let fixes = [
            Fix::ChooseTitle,
            Fix::ChooseVersion,
            Fix::GiveBaseUrl,
            Fix::GiveRelativeBase,
            Fix::UseBaseUrlInstead,
            Fix::PickServer,
            Fix::GiveServerVariable("v".into()),
            Fix::ConvertWithItsServer,
            Fix::AllowRoot,
            Fix::Replace,
            Fix::GiveParameters,
            Fix::GiveSecret("K".into()),
            Fix::ChooseOis,
            Fix::ChooseSignedApi,
            Fix::GiveAirnode,
            Fix::SetReserved("_type".into()),
            Fix::FixParameter("k".into()),
            Fix::ChooseEndpoint,
            Fix::GiveResponse,
            Fix::ConvertFor("airnode-feed@4".into()),
            Fix::ChoosePort,
            Fix::EncodeTemplate,
            Fix::ConvertFirst,
            Fix::AddFeed,
            Fix::ChangeFeed("BTC/USD".into()),
            Fix::GiveFeedValue("BTC/USD".into()),
            Fix::WriteFeedTables,
            Fix::VerifyIds,
            Fix::DeriveTemplates,
            Fix::GiveMnemonic("AIRNODE_WALLET_MNEMONIC".into()),
            Fix::CarryFixed { file: "f".into(), fixes: vec![("e".into(), "p".into(), "v".into())] },
            Fix::CopyDefaults,
            Fix::ChooseSecurity,
            Fix::MakeCredential("key".into()),
            Fix::RecordFirst,
            Fix::AllowEqualValues,
            Fix::UseNodeEngine,
            Fix::GiveBase,
            Fix::LeaveStrict,
            Fix::UpdateInstead,
            Fix::QuoteJsonString,
            Fix::GiveJsonValue("depth".into()),
            Fix::GiveChainUrl("ethereum".into()),
            Fix::EscapeComma,
            Fix::FillSecret { name: "K".into(), file: None },
            Fix::GiveMetadata,
        ];
        for fix in fixes {
            assert!(flag_help(&fix).contains("--"), "{fix:?} has no flag in its help");
        }
    }
}
