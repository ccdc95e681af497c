//! `ois call` of many: every endpoint of a file with its examples, or (`ois call CONFIG`) a dry run
//! of an Airnode Feed config. A dry run calls every trigger as the Feed does — one API call with the
//! first template's parameters, every template of the trigger answered from it — and reports each
//! beacon's ID, value and encoded value, and what failed.

use std::collections::HashMap;

use alloy_primitives::Address;
use serde::Serialize;
use serde_json::Value;

use super::call::{AllReport, CallJob, Outcome};
use super::request::Stop;
use crate::diagnostic::{Code, Diagnostic, Fix, Severity};
use crate::node::ConfigKind;
use crate::request::{HeldOis, Mode, RequestOptions, Secrets, Selected};
use crate::source::Source;
use crate::validate::templates::trigger_template_ids;

mod calls;
mod evidence;

/// One template of a trigger, called.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct BeaconCall {
    /// The trigger's index in `triggers.signedApiUpdates` (none for an RRP template).
    pub trigger: Option<usize>,
    /// The template.
    pub template_id: String,
    /// The beacon the Feed signs for (`None`: an RRP template, or the Airnode's mnemonic was not
    /// at hand).
    pub beacon_id: Option<String>,
    /// The OIS of the template's endpoint.
    pub ois_title: String,
    /// The endpoint.
    pub endpoint: String,
    /// The feed's name, for a template of a feed endpoint served by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feed: Option<String>,
    /// The API's HTTP status, when it answered.
    pub status: Option<u16>,
    /// How long the trigger's API call took.
    pub latency_ms: Option<u64>,
    /// The values the Feed encodes.
    pub values: Option<Vec<Value>>,
    /// The encoded value the Feed signs, `0x…`.
    pub encoded_value: Option<String>,
    /// What of the answer the value was read from, as evidence that it is this template's own:
    /// its `_path`, or its feed's parser's reading (`requestedSymbol = "silver", then data.last`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_from: Option<String>,
    /// Whether it was ok, and what stopped it when not.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// A dry run of a whole Airnode Feed config.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ConfigCallReport {
    /// Whose config: `airnode-feed` (a row per beacon of each trigger) or `airnode` (a row per
    /// RRP template).
    pub node: ConfigKind,
    /// The Airnode's address, when its mnemonic was at hand.
    pub airnode: Option<String>,
    /// The API calls made (one per Feed trigger, or RRP template, that calls its API).
    pub api_calls: usize,
    /// Each Feed trigger's templates, or each RRP template, in the config's order.
    pub beacons: Vec<BeaconCall>,
    /// How many were ok.
    pub ok: usize,
    /// How many failed.
    pub failed: usize,
    /// Its diagnostics, and the file read for showing them in its text.
    #[serde(flatten)]
    pub located: crate::source::Located,
}

/// A call of many: the templates of an Airnode Feed config, or every endpoint with its examples.
#[derive(Debug)]
pub enum ManyReport {
    /// Every endpoint, each with its parameters' examples.
    Endpoints(AllReport),
    /// Every trigger of an Airnode Feed config as the Feed calls them, or every RRP template of a
    /// config.json.
    Beacons(ConfigCallReport),
}

impl ManyReport {
    /// How many calls failed.
    pub fn failed(&self) -> usize {
        match self {
            ManyReport::Endpoints(report) => report.failed,
            ManyReport::Beacons(report) => report.failed,
        }
    }

    /// The notes about the whole, located in the file.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            ManyReport::Endpoints(report) => &report.located.diagnostics,
            ManyReport::Beacons(report) => &report.located.diagnostics,
        }
    }

    /// What stopped each call that failed, in full; a problem several calls share (a trigger's
    /// API call failing, two feeds getting one value) once.
    pub fn problems(&self) -> Vec<Diagnostic> {
        let all: Vec<&Diagnostic> = match self {
            ManyReport::Endpoints(report) => {
                report.endpoints.iter().filter_map(|c| c.outcome.problem.as_ref()).collect()
            }
            ManyReport::Beacons(report) => report.beacons.iter().filter_map(|c| c.outcome.problem.as_ref()).collect(),
        };
        let mut seen = std::collections::HashSet::new();
        all.into_iter().filter(|problem| seen.insert((problem.code, problem.message.as_str()))).cloned().collect()
    }

    /// The file read, for showing diagnostics in its text.
    pub fn source(&self) -> Option<&Source> {
        match self {
            ManyReport::Endpoints(report) => report.located.source.as_ref(),
            ManyReport::Beacons(report) => report.located.source.as_ref(),
        }
    }
}

/// Calls many, `jobs` at a time: an Airnode Feed config's templates as the Feed calls them (one
/// API call per trigger), a config.json's RRP templates, any other file's endpoints each with its
/// examples (`every_endpoint`: asked for; a file without templates is refused without it). `done` is called
/// with how many calls there are, once, then after each.
pub fn many(
    job: &CallJob,
    every_endpoint: bool,
    jobs: usize,
    now: u64,
    done: &(dyn Fn(usize) + Sync),
) -> Result<ManyReport, Stop> {
    let stop = |error, source| stopped(job, error, source);
    let source = job.inputs.read().map_err(|error| stop(error, None))?;
    let document = match source.parse() {
        Ok(document) => document,
        Err(error) => return Err(stop(error, Some(source))),
    };
    if has_templates(&document) {
        return run(job, source, &document, jobs, now, done).map(ManyReport::Beacons);
    }
    if !every_endpoint {
        let error = Diagnostic::elsewhere(
            Code::BadArgument,
            "which endpoint? Only a config with templates (Airnode Feed, or a config.json's RRP templates) is called whole without one named",
        )
        .with_fix(crate::diagnostic::Fix::ChooseEndpoint);
        return Err(stop(error, Some(source)));
    }
    super::call::all(job, source, jobs, now, done).map(ManyReport::Endpoints)
}

/// Calls every feed the chosen OIS serves by name, as the Airnode Feed config `ois scaffold feed
/// --all-feeds` makes of it would: a template a name, one API call for the feeds one call answers.
pub fn every_feed(
    job: &CallJob,
    jobs: usize,
    now: u64,
    done: &(dyn Fn(usize) + Sync),
) -> Result<ConfigCallReport, Stop> {
    let source = job.inputs.read().map_err(|error| stopped(job, error, None))?;
    let config = (|| {
        let document = source.parse()?;
        let read = crate::ois::OisDocument::read(&document).map_err(|(_, error)| error)?;
        let chosen = read.choose(job.inputs.ois_title.as_deref())?;
        let request = super::scaffold::FeedRequest { all_feeds: true, ..Default::default() };
        let scaffold =
            super::scaffold::build(std::slice::from_ref(chosen.ois), &super::scaffold::ScaffoldKind::Feed(request))?;
        Ok::<_, Diagnostic>(scaffold.config)
    })();
    let config = match config {
        Ok(config) => config,
        Err(error) => return Err(stopped(job, error, Some(source))),
    };
    let text = serde_json::to_string_pretty(&config).unwrap_or_default();
    let name = format!("the Airnode Feed config of {}'s feeds", source.name);
    run(job, Source::from_text(&name, None, text), &config, jobs, now, done)
}

/// A call of many stopped by `error` before any call, with the engine's warning (and the file, when
/// it was read).
fn stopped(job: &CallJob, error: Diagnostic, source: Option<Source>) -> Stop {
    Stop {
        located: crate::source::Located::new(job.inputs.engine_warning().into_iter().chain([error]).collect(), source),
        logs: Vec::new(),
    }
}

/// Whether `document` is a config whose templates are called whole: an Airnode Feed config's, or
/// a config.json's RRP templates.
pub fn has_templates(document: &Value) -> bool {
    is_feed_config(document) || has_rrp_templates(document)
}

/// Whether `document` is an Airnode Feed config with its templates (what is called whole).
fn is_feed_config(document: &Value) -> bool {
    ConfigKind::of(document) == Some(ConfigKind::AirnodeFeed) && document.get("templates").is_some_and(Value::is_object)
}

/// Whether `document` is an Airnode config.json with RRP templates.
fn has_rrp_templates(document: &Value) -> bool {
    ConfigKind::of(document) == Some(ConfigKind::Airnode)
        && document.get("templates").and_then(Value::as_array).is_some_and(|t| !t.is_empty())
}

/// What every trigger shares.
struct Run<'a> {
    config: &'a Value,
    oises: HashMap<&'a str, (HeldOis<'a>, &'a Selected)>,
    base: RequestOptions,
    job: &'a CallJob,
    airnode: Option<Address>,
    now: u64,
    /// Every credential of the config, masked in the values it reports unless the job shows them.
    secrets: Vec<String>,
}

/// Calls every trigger of the Feed config `document` (read from `source`), `jobs` triggers at a
/// time; `done` is called with how many triggers there are, then after each.
pub fn run(
    job: &CallJob,
    source: Source,
    document: &Value,
    jobs: usize,
    now: u64,
    done: &(dyn Fn(usize) + Sync),
) -> Result<ConfigCallReport, Stop> {
    let mut notes: Vec<Diagnostic> = job.inputs.engine_warning().into_iter().collect();
    let prepared = (|| {
        let secrets = job.inputs.secrets()?;
        let (selected, server_notes) = job.inputs.setup_all(document, &secrets)?;
        let mut base = job.inputs.base_options("")?;
        base.mode = Mode::Feed;
        base.metadata = None;
        Ok::<_, Diagnostic>((secrets, selected, server_notes, base))
    })();
    let (secrets, selected, server_notes, base) = match prepared {
        Ok(prepared) => prepared,
        Err(error) => {
            notes.push(error);
            return Err(Stop { located: crate::source::Located::new(notes, Some(source)), logs: Vec::new() });
        }
    };
    notes.extend(server_notes);
    let feed = is_feed_config(document);
    let mut airnode_notes = Vec::new();
    let airnode = airnode(document, &secrets, job.inputs.secrets.as_deref(), &mut airnode_notes);
    if feed {
        notes.extend(airnode_notes);
    }
    let oises = selected
        .iter()
        .filter_map(|s| Some((s.ois.get("title")?.as_str()?, (HeldOis::of(&s.ois), s))))
        .collect::<HashMap<_, _>>();
    let mut base = base;
    base.credentials = selected.first().map(|s| s.credentials.clone()).unwrap_or_default();
    base.server_secrets = selected.first().map(|s| s.server_secrets.clone()).unwrap_or_default();
    let secrets = base.secret_values();
    let run = Run { config: document, oises, base, job, airnode, now, secrets };

    let per_trigger: Vec<(bool, Vec<BeaconCall>)> = if feed {
        let triggers: &[Value] =
            document.pointer("/triggers/signedApiUpdates").and_then(Value::as_array).map_or(&[], Vec::as_slice);
        notes.extend(uncalled(document, triggers));
        done(triggers.len());
        crate::parallel::map_at_most(triggers, jobs, |index, trigger| {
            let calls = run.trigger(index, trigger);
            done(1);
            calls
        })
    } else {
        let templates: &[Value] = document.get("templates").and_then(Value::as_array).map_or(&[], Vec::as_slice);
        done(templates.len());
        crate::parallel::map_at_most(templates, jobs, |index, template| {
            let call = run.rrp(index, template);
            done(1);
            (call.status.is_some(), vec![call])
        })
    };
    let api_calls = per_trigger.iter().filter(|(called, _)| *called).count();
    let beacons: Vec<BeaconCall> = per_trigger.into_iter().flat_map(|(_, calls)| calls).collect();
    let failed = beacons.iter().filter(|b| !b.outcome.is_ok()).count();
    Ok(ConfigCallReport {
        node: if feed { ConfigKind::AirnodeFeed } else { ConfigKind::Airnode },
        airnode: airnode.map(|a| a.to_checksum(None)),
        api_calls,
        ok: beacons.len() - failed,
        failed,
        beacons,
        located: crate::source::Located::new(notes, Some(source)),
    })
}

/// The Airnode's address from the config's mnemonic, filled from the secrets; a note when it
/// cannot be had (the beacon IDs are then left out, the calls still made).
fn airnode(
    document: &Value,
    secrets: &Secrets,
    file: Option<&std::path::Path>,
    notes: &mut Vec<Diagnostic>,
) -> Option<Address> {
    const AT: &str = "/nodeSettings/airnodeWalletMnemonic";
    let written = document.pointer(AT).and_then(Value::as_str)?;
    let address = secrets.interpolate(written, AT).ok().and_then(|mnemonic| crate::node::airnode_address(&mnemonic));
    if address.is_none() {
        let name = crate::node::mnemonic_secret(document);
        let mut note = Diagnostic::new(
            Code::MissingSecret,
            AT,
            "the Airnode's mnemonic is not at hand (or not a valid BIP-39 mnemonic), so the beacon IDs are left out; the calls are made",
        );
        note.severity = Severity::Note;
        notes.push(note.with_fix(Fix::FillSecret { name, file: file.map(|f| f.display().to_string()) }));
    }
    address
}

/// A note naming the templates no trigger uses: the Feed never calls them.
fn uncalled(document: &Value, triggers: &[Value]) -> Option<Diagnostic> {
    let used: Vec<&str> = triggers.iter().flat_map(trigger_template_ids).collect();
    let templates = document.get("templates").and_then(Value::as_object)?;
    let unused: Vec<&String> = templates.keys().filter(|id| !used.contains(&id.as_str())).collect();
    let first = unused.first()?;
    let mut note = Diagnostic::new(
        Code::TemplateUnservable,
        crate::pointer::join("/templates", [first.as_str()]),
        format!("{} template(s) are in no trigger: the Feed never calls them, and neither does this run", unused.len()),
    );
    note.severity = Severity::Note;
    Some(note)
}

crate::diagnosed_by_located!(ConfigCallReport, AllReport);
