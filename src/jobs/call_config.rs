//! `ois call` of many: every endpoint of a file with its examples, or (`ois call CONFIG`) a dry run
//! of an Airnode Feed config. A dry run calls every trigger as the Feed does — one API call with the
//! first template's parameters, every template of the trigger answered from it — and reports each
//! beacon's ID, value and encoded value, and what failed.

use std::collections::HashMap;

use alloy_primitives::{Address, B256};
use serde::Serialize;
use serde_json::Value;

use super::call::{AllReport, CallJob, Outcome};
use super::request::Stop;
use crate::call::{CallFailure, Reply};
use crate::diagnostic::{Code, Diagnostic, Fix, Severity};
use crate::node::ConfigKind;
use crate::node::ids::{beacon_id, parameters_from_json};
use crate::request::{self, HeldOis, Mode, RequestOptions, Secrets, Selected, Stopped};
use crate::source::Source;
use crate::validate::templates::trigger_template_ids;

/// One template of a trigger, called.
#[derive(Clone, Debug, Serialize)]
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
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ConfigCallReport {
    /// Whose config: `airnode-feed` (a row per beacon of each trigger) or `airnode` (a row per
    /// RRP template).
    pub node: &'static str,
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
    oises: HashMap<&'a str, (HeldOis, &'a Selected)>,
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
    let secrets = selected.iter().flat_map(|s| s.credentials.iter().map(|c| c.value.clone())).collect();
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
        node: if feed { "airnode-feed" } else { "airnode" },
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

/// Fails every pair of rows of one API call that got the same value from different templates:
/// one of them is likely reading the other's element of the answer (two feeds of a batch given
/// the same value path), and each beacon would carry the one value.
fn fail_equal_values(rows: &mut [BeaconCall]) {
    let mut first_with: HashMap<&str, usize> = HashMap::new();
    let mut pairs = Vec::new();
    for (at, row) in rows.iter().enumerate() {
        let Some(encoded) = row.encoded_value.as_deref().filter(|_| row.outcome.is_ok()) else { continue };
        match first_with.get(encoded) {
            Some(&first) if rows.get(first).is_some_and(|f| f.template_id != row.template_id) => {
                pairs.push((first, at))
            }
            Some(_) => {}
            None => {
                first_with.insert(encoded, at);
            }
        }
    }
    let named = |row: &BeaconCall| match &row.feed {
        Some(feed) => format!("feed \"{}\"", crate::emit::printable(feed)),
        None => format!("template {}", crate::node::ids::short(&row.template_id)),
    };
    let problems: Vec<(usize, usize, Diagnostic)> = pairs
        .into_iter()
        .filter_map(|(first, at)| {
            let (one, other) = (rows.get(first)?, rows.get(at)?);
            let value = one.values.as_ref().and_then(|v| v.first()).map(Value::to_string).unwrap_or_default();
            let problem = Diagnostic::elsewhere(
                Code::ValuesEqual,
                format!(
                    "{} and {} got the same value ({value}) from one API call: is one of them reading the other's element of the answer?",
                    named(one),
                    named(other)
                ),
            )
            .with_help("give each the value of its own element: through its own key, at its position in the answer's array, or by a field naming it")
            .with_fix(Fix::AllowEqualValues);
            Some((first, at, problem))
        })
        .collect();
    for (first, at, problem) in problems {
        for index in [first, at] {
            if let Some(row) = rows.get_mut(index) {
                row.outcome = Outcome::failed(problem.clone());
            }
        }
    }
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

impl Run<'_> {
    /// The trigger's API call and every template answered from it; whether the API was called.
    fn trigger(&self, index: usize, trigger: &Value) -> (bool, Vec<BeaconCall>) {
        let ids = trigger_template_ids(trigger);
        let rows = |ids: &[&str]| -> Vec<BeaconCall> { ids.iter().map(|id| self.row(Some(index), id)).collect() };
        let Some(first) = ids.first() else { return (false, Vec::new()) };
        // As the Feed: the first template's endpoint and OIS make the call for all.
        let (held, selected, options) = match self.template(first) {
            Ok(found) => found,
            Err(problem) => {
                return (false, rows(&ids).into_iter().map(|row| row.failed(problem.clone(), None)).collect());
            }
        };
        let engine = &self.job.inputs.engine;
        let fetched = request::prepare_held(held, &options, engine).map_err(CallFailure::from).and_then(|prepared| {
            let reply = crate::call::fetch(&prepared, &self.job.options)?;
            let response = match &reply {
                Some(reply) => reply.json.clone(),
                None => prepared.standing_in().cloned(),
            };
            Ok((reply, response))
        });
        let (reply, response) = match fetched {
            Ok(fetched) => fetched,
            Err(CallFailure { stopped, reply }) => {
                let problem = self.placed(first, &options.endpoint, stopped, selected);
                let called = reply.is_some();
                let rows = rows(&ids).into_iter().map(|row| row.failed(problem.clone(), reply.as_ref()));
                return (called, rows.collect());
            }
        };
        let response = response.unwrap_or(Value::Null);
        let answered = ids.iter().map(|id| {
            let row = self.row(Some(index), id).with_reply(reply.as_ref());
            match self.answer(id, &response) {
                Ok((answer, reading)) => {
                    let row = row.answered(answer.shown(&self.secrets, self.job.inputs.show_secrets));
                    BeaconCall { read_from: reading, ..row }
                }
                Err(problem) => row.failed(problem, reply.as_ref()),
            }
        });
        let mut rows: Vec<BeaconCall> = answered.collect();
        if !self.job.options.allow_equal_values {
            fail_equal_values(&mut rows);
        }
        (reply.is_some(), rows)
    }

    /// An Airnode config.json's RRP template called as airnode-node calls it for a request that
    /// adds nothing: its parameters decoded from `encodedParameters`, the endpoint its trigger
    /// names, node mode (defaults applied), that OIS's credentials.
    fn rrp(&self, index: usize, template: &Value) -> BeaconCall {
        let text = |key: &str| template.get(key).and_then(Value::as_str).unwrap_or_default();
        let at = format!("/templates/{index}");
        let mut row = self.row(None, text("templateId"));
        let trigger = self.config.pointer("/triggers/rrp").and_then(Value::as_array).and_then(|triggers| {
            triggers.iter().find(|t| t.get("endpointId").and_then(Value::as_str) == Some(text("endpointId")))
        });
        let named = |key: &str| trigger.and_then(|t| t.get(key)).and_then(Value::as_str).unwrap_or_default().to_owned();
        (row.ois_title, row.endpoint) = (named("oisTitle"), named("endpointName"));
        let Some((held, selected)) = trigger.and_then(|_| self.oises.get(row.ois_title.as_str())) else {
            let problem = Diagnostic::new(
                Code::TemplateUnservable,
                format!("{at}/endpointId"),
                format!(
                    "template {}: no RRP trigger serves its endpointId {}",
                    crate::node::ids::short(text("templateId")),
                    text("endpointId")
                ),
            );
            return row.failed(problem, None);
        };
        let parameters = match crate::node::abi_decode::decode_parameters(text("encodedParameters")) {
            Ok(parameters) => parameters,
            Err(error) => {
                return row.failed(Diagnostic::new(error.code, format!("{at}/encodedParameters"), error.message), None);
            }
        };
        let mut options = self.base.clone();
        options.mode = Mode::Node;
        options.metadata = self.job.inputs.base_options("").ok().and_then(|o| o.metadata);
        options.endpoint = row.endpoint.clone();
        let given = std::mem::take(&mut options.parameters);
        options.parameters = parameters.into_iter().collect();
        options.parameters.extend(given);
        match crate::call::call_held(held, &options, &self.job.inputs.engine, &self.job.options, self.now) {
            Ok(called) => {
                let row = row.with_reply(called.reply.as_ref());
                let read_from = reading(held.value(), &options, &called.exchange.reserved);
                match called.exchange.answer {
                    Some(answer) => BeaconCall {
                        read_from,
                        ..row.answered(answer.shown(&self.secrets, self.job.inputs.show_secrets))
                    },
                    None => row,
                }
            }
            Err(CallFailure { stopped, reply }) => {
                let problem = self.placed(text("templateId"), &options.endpoint, stopped, selected);
                row.failed(problem, reply.as_ref())
            }
        }
    }

    /// The template's OIS as held, its OIS's selection, and the options of its call.
    fn template(&self, id: &str) -> Result<(&HeldOis, &Selected, RequestOptions), Diagnostic> {
        let at = crate::pointer::join("/templates", [id]);
        let missing =
            |what: &str| Diagnostic::new(Code::TemplateUnservable, at.clone(), format!("template {id}: {what}"));
        let template =
            self.config.get("templates").and_then(|t| t.get(id)).ok_or_else(|| missing("not in `templates`"))?;
        let endpoint_id = template.get("endpointId").and_then(Value::as_str).unwrap_or_default();
        let named = self
            .config
            .get("endpoints")
            .and_then(|e| e.get(endpoint_id))
            .ok_or_else(|| missing(&format!("its endpointId {endpoint_id} is not in `endpoints`")))?;
        let text = |key: &str| named.get(key).and_then(Value::as_str).unwrap_or_default();
        let (title, name) = (text("oisTitle"), text("endpointName"));
        let (held, selected) = self.oises.get(title).ok_or_else(|| missing(&format!("no OIS titled \"{title}\"")))?;
        let parameters = parameters_from_json(template.get("parameters").unwrap_or(&Value::Null))
            .map_err(|error| error.within(&at))?;
        let mut options = self.base.clone();
        options.endpoint = name.to_owned();
        // The Feed calls with the template's parameters alone; the requester's are added for a run.
        let given = std::mem::take(&mut options.parameters);
        options.parameters = parameters.into_iter().map(|p| (p.name, p.value)).collect();
        options.parameters.extend(given);
        Ok((held, selected, options))
    }

    /// The template's value from the trigger's response: its own post-processing and reserved
    /// parameters, with the first template's OIS (as the Feed looks its endpoint up there).
    fn answer(&self, id: &str, response: &Value) -> Result<(request::Answer, Option<String>), Diagnostic> {
        let (held, selected, options) = self.template(id)?;
        let engine = &self.job.inputs.engine;
        let exchange = request::prepare_answer_held(held, &options)
            .and_then(|prepared| prepared.answer(engine, Some(response), self.now))
            .map_err(|stopped| self.placed(id, &options.endpoint, stopped, selected))?;
        let reading = reading(held.value(), &options, &exchange.reserved);
        let answer = exchange.answer.ok_or_else(|| {
            Diagnostic::new(Code::ValueNotFound, crate::pointer::join("/templates", [id]), "no value was made")
        })?;
        Ok((answer, reading))
    }

    /// What stopped a template, placed in the config and naming the template.
    fn placed(&self, id: &str, endpoint: &str, stopped: Stopped, selected: &Selected) -> Diagnostic {
        let mut problem = stopped.diagnostic.within(&selected.pointer);
        problem.message =
            format!("template {} (endpoint \"{endpoint}\"): {}", crate::node::ids::short(id), problem.message);
        problem
    }

    /// A row for template `id` of trigger `index`, before its call.
    fn row(&self, trigger: Option<usize>, id: &str) -> BeaconCall {
        let named = self
            .config
            .get("templates")
            .and_then(|t| t.get(id))
            .and_then(|t| t.get("endpointId"))
            .and_then(Value::as_str)
            .and_then(|e| self.config.get("endpoints")?.get(e));
        let text = |key: &str| named.and_then(|n| n.get(key)).and_then(Value::as_str).unwrap_or_default().to_owned();
        let endpoint = text("endpointName");
        let feed = (endpoint == crate::ois::feeds::FEED_ENDPOINT)
            .then(|| {
                let parameters = self.config.get("templates")?.get(id)?.get("parameters")?.as_array()?;
                let name = parameters
                    .iter()
                    .find(|p| p.get("name").and_then(Value::as_str) == Some(crate::ois::feeds::NAME_PARAMETER))?;
                name.get("value")?.as_str().map(str::to_owned)
            })
            .flatten();
        let airnode = self.airnode.filter(|_| trigger.is_some());
        let beacon = airnode.zip(id.parse::<B256>().ok()).map(|(airnode, template)| beacon_id(airnode, template));
        BeaconCall {
            trigger,
            template_id: id.to_owned(),
            beacon_id: beacon.map(|b| b.to_string()),
            ois_title: text("oisTitle"),
            endpoint,
            feed,
            status: None,
            latency_ms: None,
            values: None,
            encoded_value: None,
            read_from: None,
            outcome: Outcome::ok(),
        }
    }
}

/// What of the answer a call of `options` reads its value from: a feed's parser's reading, or the
/// `_path` the node resolved (the whole answer when empty).
fn reading(ois: &Value, options: &RequestOptions, reserved: &serde_json::Map<String, Value>) -> Option<String> {
    let name = options.parameters.get(crate::ois::feeds::NAME_PARAMETER);
    if let Ok(Some(name)) = crate::ois::feeds::asked(ois, &options.endpoint, name) {
        let tables = crate::ois::feeds::read(ois).ok()??;
        let feed = tables.feeds.into_iter().find(|feed| feed.name == name)?;
        return Some(feed.reading().unwrap_or_else(|| "its parser".to_owned()));
    }
    let path = reserved.get("_path").map(crate::js::string).unwrap_or_default();
    let endpoint = ois
        .get("endpoints")?
        .as_array()?
        .iter()
        .find(|e| e.get("name").and_then(Value::as_str) == Some(&options.endpoint))?;
    let processed = ["postProcessingSpecificationV2", "postProcessingSpecifications"].iter().any(|key| {
        endpoint.get(key).is_some_and(|spec| !spec.is_null() && spec.as_array().is_none_or(|list| !list.is_empty()))
    });
    Some(match (processed, path.is_empty()) {
        (false, true) => "the whole answer".to_owned(),
        (false, false) => path,
        (true, true) => "the post-processed answer".to_owned(),
        (true, false) => format!("{path} of the post-processed answer"),
    })
}

impl BeaconCall {
    fn with_reply(mut self, reply: Option<&Reply>) -> BeaconCall {
        self.status = reply.map(|r| r.status);
        self.latency_ms = reply.map(Reply::latency_ms);
        self
    }

    fn answered(mut self, answer: request::Answer) -> BeaconCall {
        self.values = Some(answer.preview.values);
        self.encoded_value = Some(answer.preview.encoded);
        self
    }

    fn failed(self, problem: Diagnostic, reply: Option<&Reply>) -> BeaconCall {
        let mut row = self.with_reply(reply);
        row.outcome = Outcome::failed(problem);
        row
    }
}
