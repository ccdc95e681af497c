//! `ois endpoint list|add|set|rm|keep`: refine an OIS without editing JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use ois::edit::{EndpointSummary, ParameterChange, Settings, Snippet};
use ois::jobs::endpoint::{EditReport, EndpointEdit, EndpointJob};
use ois::{Code, Diagnostic};

use super::{FAILURE, ReportArg, Shell};

#[derive(clap::Subcommand)]
pub(crate) enum EndpointCommand {
    /// Every endpoint: name, operation, parameters, reserved and fixed values, processing, ID.
    #[command(after_help = "EXAMPLES:
  ois endpoint list api.ois.json
  ois endpoint list config.json --ois 'Coin Prices' --format json")]
    List {
        /// An OIS, a list of them, a config.json or an Airnode Feed config.
        file: PathBuf,
        #[command(flatten)]
        ois: super::args::OisChoice,
        #[arg(long, value_enum, default_value = "text")]
        format: ReportArg,
    },
    /// A new endpoint on an operation of the OIS (a second endpoint beside the mirror one).
    #[command(after_help = "EXAMPLES:
  ois endpoint add api.ois.json feed --operation 'GET /rates' --param name:required --reserved _type=int256
  ois endpoint add api.ois.json btcUsd --operation 'GET /price' --fixed symbol=BTC --reserved _path=price --dry-run")]
    Add {
        #[command(flatten)]
        target: Target,
        /// The new endpoint's name.
        name: String,
        /// The operation, `METHOD /path` as in apiSpecifications.paths, e.g. 'GET /rates'.
        #[arg(long, value_name = "'METHOD /path'")]
        operation: String,
        #[command(flatten)]
        settings: SettingsArgs,
    },
    /// Change an endpoint: reserved and fixed values, parameters, processing, its name.
    #[command(after_help = "EXAMPLES:
  ois endpoint set api.ois.json getPrice --rename price --reserved _type=int256 --reserved _path=price
  ois endpoint set api.ois.json feed --param name:required --pre drop-name.js --post pick-rate.js --diff")]
    Set {
        #[command(flatten)]
        target: Target,
        /// The endpoint.
        name: String,
        /// Its new name (a config's templates and triggers follow, their IDs re-derived).
        #[arg(long, value_name = "NEW")]
        rename: Option<String>,
        #[command(flatten)]
        settings: SettingsArgs,
    },
    /// Remove endpoints (refused while a config's templates or triggers use them).
    #[command(after_help = "EXAMPLES:
  ois endpoint rm api.ois.json coinsMarkets coinsId
  ois endpoint rm config.json oldFeed --dry-run")]
    Rm {
        #[command(flatten)]
        target: Target,
        /// The endpoints.
        #[arg(required = true)]
        names: Vec<String>,
    },
    /// Keep only the endpoints matching a filter (a name, `*` and `?` as wildcards, or
    /// 'METHOD /path'), and the operations they use.
    #[command(after_help = "EXAMPLES:
  ois endpoint keep api.ois.json simplePrice 'GET /coins/*'
  ois endpoint keep api.ois.json 'price*' --dry-run")]
    Keep {
        #[command(flatten)]
        target: Target,
        /// The filters; an endpoint matching any is kept.
        #[arg(required = true)]
        filters: Vec<String>,
    },
}

/// The file edited in place, and how.
#[derive(clap::Args)]
pub(crate) struct Target {
    /// The file edited in place: an OIS (JSON or YAML), a list, a config.json or an Airnode Feed
    /// config; its style (indent, key order, final newline) is kept.
    pub(crate) file: PathBuf,
    #[command(flatten)]
    pub(crate) ois: super::args::OisChoice,
    /// Show the change as a diff and write nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Also show the change as a diff when writing.
    #[arg(long)]
    pub(crate) diff: bool,
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: ReportArg,
}

#[derive(clap::Args)]
pub(crate) struct SettingsArgs {
    /// A reserved parameter fixed to a value (`_type=int256`, `_path=data.rate`, `_times=1e18`),
    /// or, with no value, left to the requester (repeatable).
    #[arg(long, value_name = "NAME[=VALUE]")]
    reserved: Vec<String>,
    /// A reserved parameter taken away from the endpoint (`_path`, to pick another), before any
    /// --reserved (repeatable).
    #[arg(long, value_name = "NAME")]
    unreserve: Vec<String>,
    /// An operation parameter fixed to a value; the endpoint parameter mapping it goes
    /// (repeatable).
    #[arg(long, value_name = "NAME=VALUE")]
    fixed: Vec<String>,
    /// An operation parameter no longer fixed: its value goes and the requester gives it again
    /// (an endpoint parameter of that name maps it) (repeatable).
    #[arg(long, value_name = "NAME")]
    unfix: Vec<String>,
    /// An endpoint parameter changed: required, optional, default=V, description=TEXT, rename=NEW,
    /// drop (also from the operation when no other endpoint uses it), or add (a new one, mapping
    /// the operation's parameter of that name when it has one) (repeatable).
    #[arg(long = "param", value_name = "NAME:CHANGE")]
    parameters: Vec<String>,
    /// Pre-processing from a .js file: a V2 function expression.
    #[arg(long, value_name = "FILE.js", conflicts_with = "pre_v1")]
    pre: Option<PathBuf>,
    /// Pre-processing from a .js file: a V1 `Node` snippet (a chain of one).
    #[arg(long, value_name = "FILE.js")]
    pre_v1: Option<PathBuf>,
    /// Post-processing from a .js file: a V2 function expression.
    #[arg(long, value_name = "FILE.js", conflicts_with = "post_v1")]
    post: Option<PathBuf>,
    /// Post-processing from a .js file: a V1 `Node` snippet (a chain of one).
    #[arg(long, value_name = "FILE.js")]
    post_v1: Option<PathBuf>,
}

fn bad(message: String) -> Diagnostic {
    Diagnostic::elsewhere(Code::BadEdit, message)
}

fn snippet(v2: Option<&PathBuf>, v1: Option<&PathBuf>) -> Result<Option<Snippet>, Diagnostic> {
    let (path, is_v1) = match (v2, v1) {
        (Some(path), _) => (path, false),
        (None, Some(path)) => (path, true),
        (None, None) => return Ok(None),
    };
    let code = ois::Source::read_regular(path)?.text;
    let mut snippet = Snippet::v2(code.strip_suffix('\n').unwrap_or(&code));
    snippet.v1 = is_v1;
    Ok(Some(snippet))
}

impl SettingsArgs {
    fn settings(&self) -> Result<Settings, Diagnostic> {
        let mut settings = Settings::default();
        settings.unreserved = self.unreserve.clone();
        settings.unfixed = self.unfix.clone();
        for text in &self.reserved {
            let (name, value) = match text.split_once('=') {
                Some((name, value)) => (name, Some(value.to_owned())),
                None => (text.as_str(), None),
            };
            settings.reserved.push((name.to_owned(), value));
        }
        for text in &self.fixed {
            let (name, value) = text.split_once('=').ok_or_else(|| bad(format!("--fixed {text}: write NAME=VALUE")))?;
            settings.fixed.push((name.to_owned(), value.to_owned()));
        }
        for text in &self.parameters {
            let change = text.split_once(':').and_then(|(name, change)| Some((name, ParameterChange::parse(change)?)));
            let (name, change) = change.ok_or_else(|| {
                bad(format!("--param {text}: write NAME:required, NAME:optional, NAME:default=V, NAME:description=TEXT, NAME:rename=NEW, NAME:drop or NAME:add"))
            })?;
            settings.parameters.push((name.to_owned(), change));
        }
        settings.pre = snippet(self.pre.as_ref(), self.pre_v1.as_ref())?;
        settings.post = snippet(self.post.as_ref(), self.post_v1.as_ref())?;
        Ok(settings)
    }
}

pub(crate) fn run_endpoint(command: EndpointCommand, shell: &Shell) -> ExitCode {
    let (target, edit) = match command {
        EndpointCommand::List { file, ois, format } => return list(&file, ois.title(), format, shell),
        EndpointCommand::Add { target, name, operation, settings } => match settings.settings() {
            Ok(settings) => (target, EndpointEdit::Add { name, operation, settings }),
            Err(error) => return shell.fail(&error),
        },
        EndpointCommand::Set { target, name, rename, settings } => match settings.settings() {
            Ok(settings) => (target, EndpointEdit::Set { name, settings, rename }),
            Err(error) => return shell.fail(&error),
        },
        EndpointCommand::Rm { target, names } => (target, EndpointEdit::Remove { names }),
        EndpointCommand::Keep { target, filters } => (target, EndpointEdit::Keep { filters }),
    };
    edit_in_place(&target, edit, shell)
}

/// Makes `edit` on the target file and shows what it did.
pub(crate) fn edit_in_place(target: &Target, edit: EndpointEdit, shell: &Shell) -> ExitCode {
    let mut job = EndpointJob::new(target.file.clone(), edit);
    job.ois_title = target.ois.title.clone();
    job.dry_run = target.dry_run;
    show_edit(ois::jobs::endpoint::run(&job), target, shell)
}

/// An edit's report (or why it was refused) as `target` asks.
pub(crate) fn show_edit(edited: Result<EditReport, Vec<ois::Diagnostic>>, target: &Target, shell: &Shell) -> ExitCode {
    match edited {
        Ok(report) => show(report, target, shell),
        Err(diagnostics) => {
            if target.format == ReportArg::Json {
                let _ = shell.out(&*shell.stopped_json(&diagnostics));
            }
            shell.diagnostics(&diagnostics, None);
            ExitCode::from(FAILURE)
        }
    }
}

fn show(mut report: EditReport, target: &Target, shell: &Shell) -> ExitCode {
    shell.diagnostics(&report.notes, None);
    let output = match target.format {
        ReportArg::Json => shell.report_json(&mut report),
        ReportArg::Text => {
            let mut text = if target.dry_run || target.diff { report.diff.clone() } else { String::new() };
            let outcome = match (report.changed, report.written) {
                (false, _) => "nothing to change",
                (true, true) => "written",
                (true, false) => "not written (--dry-run)",
            };
            text.push_str(&format!("{}: {outcome}\n", report.file));
            text
        }
    };
    shell.out_then_succeed(&*ois::emit::printable(&output))
}

fn list(file: &std::path::Path, title: Option<&str>, format: ReportArg, shell: &Shell) -> ExitCode {
    let endpoints = match ois::jobs::endpoint::list(file, title) {
        Ok(endpoints) => endpoints,
        Err(error) => return shell.fail_as(&error, format == ReportArg::Json),
    };
    let output = match format {
        ReportArg::Json => super::json_text(&endpoints),
        ReportArg::Text => endpoints.iter().map(summary).collect(),
    };
    shell.out_then_succeed(&*ois::emit::printable(&output))
}

fn summary(endpoint: &EndpointSummary) -> String {
    let js = |value: &serde_json::Value| value.as_str().map_or_else(|| value.to_string(), str::to_owned);
    let mut out = format!("{}  {}\n", endpoint.name, endpoint.operation.as_deref().unwrap_or("(no API call)"));
    let parameters: Vec<String> = endpoint
        .parameters
        .iter()
        .map(|p| {
            let mut shown = p.name.clone();
            if p.required {
                shown.push('*');
            }
            if let Some(default) = &p.default {
                shown.push_str(&format!("={}", js(default)));
            }
            shown
        })
        .collect();
    if !parameters.is_empty() {
        out.push_str(&format!("  parameters: {}\n", parameters.join(", ")));
    }
    let reserved: Vec<String> = endpoint
        .reserved
        .iter()
        .map(|(name, fixed)| fixed.as_ref().map_or_else(|| name.clone(), |v| format!("{name}={}", js(v))))
        .collect();
    if !reserved.is_empty() {
        out.push_str(&format!("  reserved:   {}\n", reserved.join(", ")));
    }
    let fixed: Vec<String> = endpoint.fixed.iter().map(|(name, value)| format!("{name}={}", js(value))).collect();
    if !fixed.is_empty() {
        out.push_str(&format!("  fixed:      {}\n", fixed.join(", ")));
    }
    if endpoint.processing {
        out.push_str("  processing: yes\n");
    }
    out.push_str(&format!("  endpointId: {}\n", endpoint.endpoint_id));
    out
}
