//! `ois status CONFIG`: is a running deployment doing what its config says? The Signed API the
//! config pushes to is read once, and each beacon of the config is judged: pushed and fresh
//! (its timestamp against a maximum age), signed by the config's Airnode for the template and
//! beacon the config derives, and equal, within a tolerance, to what the API answers now — asked
//! as the Feed asks it (one call per trigger), or answered from recordings.

use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value};

use super::call::CallJob;
use super::call_config::{self, BeaconCall, ConfigCallReport};
use super::request::Stop;
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::node::signed_data::{SignedDatum, as_number, deviation};
use crate::source::Source;

/// What `ois status` is asked to check.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct StatusJob {
    /// The config, its secrets, and how the API is asked now (or answered from recordings).
    pub call: CallJob,
    /// The Signed API to read instead of the one the config pushes to.
    pub signed_api_url: Option<String>,
    /// Which signed API of the config (by name; its only one when `None`).
    pub signed_api: Option<String>,
    /// The Signed API's secrets: its real-time read token is taken from there.
    pub signed_api_secrets: Option<PathBuf>,
    /// The read token itself, held in memory (the studio's), instead of a secrets file.
    pub signed_api_token: Option<String>,
    /// The endpoint that serves the data, as the Signed API config names it.
    pub endpoint: String,
    /// The oldest a beacon may be and still be live, in seconds.
    pub max_age: u64,
    /// How far (relative) a value may be from what the API answers now.
    pub tolerance: f64,
    /// How long the Signed API may take to answer.
    pub timeout: Duration,
    /// Triggers called at once.
    pub jobs: usize,
    /// The unix time now.
    pub now: u64,
}

impl StatusJob {
    /// A check of `call`'s config with the defaults: `/real-time`, 60 s, 1 %, 10 s.
    pub fn new(call: CallJob, now: u64) -> StatusJob {
        StatusJob {
            call,
            signed_api_url: None,
            signed_api: None,
            signed_api_secrets: None,
            signed_api_token: None,
            endpoint: "/real-time".to_owned(),
            max_age: 60,
            tolerance: 0.01,
            timeout: Duration::from_secs(10),
            jobs: 4,
            now,
        }
    }
}

/// One beacon of the config, judged.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct BeaconStatus {
    /// The template.
    pub template_id: String,
    /// The beacon the config derives.
    pub beacon_id: String,
    /// The endpoint, and the feed's name for a feed by name.
    pub endpoint: String,
    /// The feed's name, for a feed by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feed: Option<String>,
    /// How old the pushed value is, in seconds (`None`: not pushed).
    pub age_seconds: Option<u64>,
    /// Who signed it, when it was pushed and carries a signature.
    pub signer: Option<String>,
    /// The value pushed, as a number when it is one (else its encoding).
    pub pushed: Option<String>,
    /// The value the API gives now, alike.
    pub now: Option<String>,
    /// How far the pushed value is from now's, relative.
    pub deviation: Option<f64>,
    /// `live`, or what is wrong: `not pushed`, `stale`, `other signer`, `moved`, `call failed`.
    pub verdict: &'static str,
    /// What is wrong, in full.
    #[serde(skip)]
    pub problem: Option<Diagnostic>,
}

/// A deployment, checked.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct StatusReport {
    /// The Signed API read (its URL).
    pub signed_api: String,
    /// The config's Airnode.
    pub airnode: String,
    /// Each beacon of the config, in its triggers' order.
    pub beacons: Vec<BeaconStatus>,
    /// How many are live, signed right and within tolerance.
    pub live: usize,
    /// How many are not.
    pub failing: usize,
    /// The problems, each beacon's once, and the notes; the config read.
    #[serde(flatten)]
    pub located: crate::source::Located,
}

impl StatusReport {
    /// The beacons whose verdict differs from `before`'s (a beacon new to either included): what a
    /// watch prints after the first time.
    pub fn changed_since<'a>(&'a self, before: &StatusReport) -> Vec<&'a BeaconStatus> {
        self.beacons
            .iter()
            .filter(|beacon| {
                before
                    .beacons
                    .iter()
                    .find(|b| b.beacon_id == beacon.beacon_id)
                    .is_none_or(|b| b.verdict != beacon.verdict)
            })
            .collect()
    }
}

/// Checks the deployment `job` names. An error before any beacon could be judged (the config, the
/// Signed API unreachable or unusable) stops it.
pub fn run(job: &StatusJob) -> Result<StatusReport, Stop> {
    let stop = |error: Diagnostic, source: Option<Source>| Stop {
        located: crate::source::Located::new(vec![error], source),
        logs: Vec::new(),
    };
    let source = job.call.inputs.read().map_err(|error| stop(error, None))?;
    let document = match source.parse() {
        Ok(document) => document,
        Err(error) => return Err(stop(error, Some(source))),
    };
    if crate::node::ConfigKind::of(&document) != Some(crate::node::ConfigKind::AirnodeFeed) {
        let error = Diagnostic::elsewhere(Code::BadArgument, "a status is of a running Airnode Feed: give its config");
        return Err(stop(error, Some(source)));
    }
    let url = match signed_api_url(job, &document) {
        Ok(url) => url,
        Err(error) => return Err(stop(error, Some(source))),
    };
    let token = match read_token(job) {
        Ok(token) => token,
        Err(error) => return Err(stop(error, Some(source))),
    };
    let quiet = |_: usize| {};
    let called = call_config::run(&job.call, source, &document, job.jobs, job.now, &quiet)?;
    let Some(airnode) = called.airnode.clone() else {
        let error = Diagnostic::elsewhere(
            Code::MissingSecret,
            "the Airnode's mnemonic is not at hand: which beacons are yours, and who must have signed them, come from it",
        )
        .with_fix(crate::diagnostic::Fix::GiveAirnode);
        return Err(Stop {
            located: crate::source::Located::new(vec![error], called.located.source),
            logs: Vec::new(),
        });
    };
    let data = match served(job, &url, &airnode, token.as_deref()) {
        Ok(data) => data,
        Err(error) => {
            return Err(Stop {
                located: crate::source::Located::new(vec![error], called.located.source),
                logs: Vec::new(),
            });
        }
    };
    Ok(judge(job, url, airnode, called, &data, token.as_deref()))
}

/// The other Airnodes whose data a Signed API is asked for at most, looking for a beacon's template
/// pushed under another Airnode.
const OTHER_AIRNODES: usize = 8;

/// A beacon its Signed API does not serve under the config's Airnode, whose template it serves under
/// another, validly signed by that one: the Feed runs with another mnemonic than the config's
/// secrets. Such beacons are named as signed by that Airnode. Looked for only when a beacon is not
/// pushed, in at most [`OTHER_AIRNODES`] reads; a read that fails changes nothing.
fn pushed_by_another(job: &StatusJob, beacons: &mut [BeaconStatus], url: &str, airnode: &str, token: Option<&str>) {
    if !beacons.iter().any(|b| b.verdict == "not pushed") {
        return;
    }
    let listed = get_json(job, &format!("{url}/airnodes"), None).ok();
    let others: Vec<String> = listed
        .as_ref()
        .and_then(|answer| answer.get("data")?.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|a| a.as_str().map(str::to_owned))
        .filter(|a| !a.eq_ignore_ascii_case(airnode))
        .take(OTHER_AIRNODES)
        .collect();
    let endpoint = job.endpoint.trim_matches('/').to_owned();
    for other in others {
        let Ok(answer) = get_json(job, &format!("{url}/{endpoint}/{other}"), token) else { continue };
        let Some(data) = answer.get("data").and_then(Value::as_object) else { continue };
        for beacon in beacons.iter_mut().filter(|b| b.verdict == "not pushed") {
            let found = data.iter().filter_map(|(id, value)| SignedDatum::from_json(id, value)).find(|datum| {
                datum.template_id.eq_ignore_ascii_case(&beacon.template_id)
                    && datum.signer().is_some_and(|signer| signer.to_checksum(None).eq_ignore_ascii_case(&other))
            });
            let Some(datum) = found else { continue };
            beacon.verdict = "other signer";
            beacon.signer = datum.signer().map(|a| a.to_checksum(None));
            beacon.age_seconds = Some(job.now.saturating_sub(datum.timestamp));
            beacon.pushed = Some(as_number(&datum.encoded_value).unwrap_or_else(|| datum.encoded_value.clone()));
            let message = format!(
                "beacon {}: its template is pushed by Airnode {other}, not by the config's {}: the Feed runs with another mnemonic than the config's secrets",
                crate::node::ids::short(&beacon.beacon_id),
                airnode
            );
            beacon.problem = Some(Diagnostic::elsewhere(Code::BeaconMisSigned, message));
        }
    }
}

/// Each beacon of `called` (the config called now) against what the Signed API serves.
fn judge(
    job: &StatusJob,
    url: String,
    airnode: String,
    called: ConfigCallReport,
    data: &Map<String, Value>,
    token: Option<&str>,
) -> StatusReport {
    let mut beacons: Vec<BeaconStatus> =
        called.beacons.iter().filter(|b| b.trigger.is_some()).map(|beacon| one(job, &airnode, beacon, data)).collect();
    pushed_by_another(job, &mut beacons, &url, &airnode, token);
    let live = beacons.iter().filter(|b| b.problem.is_none()).count();
    let failing = beacons.len() - live;
    let mut diagnostics: Vec<Diagnostic> = beacons.iter().filter_map(|b| b.problem.clone()).collect();
    diagnostics.extend(called.located.diagnostics.into_iter().filter(|d| d.severity != Severity::Error));
    StatusReport {
        signed_api: url,
        airnode,
        beacons,
        live,
        failing,
        located: crate::source::Located::new(diagnostics, called.located.source),
    }
}

/// One beacon judged: pushed, fresh, signed, equal.
fn one(job: &StatusJob, airnode: &str, called: &BeaconCall, data: &Map<String, Value>) -> BeaconStatus {
    let beacon_id = called.beacon_id.clone().unwrap_or_default();
    let named = match &called.feed {
        Some(feed) => format!("beacon {} ({feed})", crate::node::ids::short(&beacon_id)),
        None => format!("beacon {} ({})", crate::node::ids::short(&beacon_id), called.endpoint),
    };
    let now = called.encoded_value.as_deref().map(|e| as_number(e).unwrap_or_else(|| e.to_owned()));
    let mut status = BeaconStatus {
        template_id: called.template_id.clone(),
        beacon_id: beacon_id.clone(),
        endpoint: called.endpoint.clone(),
        feed: called.feed.clone(),
        age_seconds: None,
        signer: None,
        pushed: None,
        now,
        deviation: None,
        verdict: "live",
        problem: None,
    };
    let fail = |status: &mut BeaconStatus, verdict: &'static str, code: Code, message: String| {
        status.verdict = verdict;
        status.problem = Some(Diagnostic::elsewhere(code, format!("{named}: {message}")));
    };
    let Some(datum) = data.get(&beacon_id).and_then(|value| SignedDatum::from_json(&beacon_id, value)) else {
        fail(&mut status, "not pushed", Code::BeaconNotLive, "the Signed API serves no value for it".to_owned());
        return status;
    };
    let age = job.now.saturating_sub(datum.timestamp);
    status.age_seconds = Some(age);
    status.pushed = Some(as_number(&datum.encoded_value).unwrap_or_else(|| datum.encoded_value.clone()));
    status.signer = datum.signer().map(|a| a.to_checksum(None));
    if status.signer.as_deref() != Some(airnode) {
        let signer = status.signer.clone().unwrap_or_else(|| "no one (the signature is not one)".to_owned());
        fail(
            &mut status,
            "other signer",
            Code::BeaconMisSigned,
            format!("signed by {signer}, not by the config's Airnode {airnode}"),
        );
        return status;
    }
    if !datum.template_id.eq_ignore_ascii_case(&called.template_id) || !datum.beacon_id.eq_ignore_ascii_case(&beacon_id)
    {
        let message =
            format!("the datum is for template {} and beacon {}, not this one", datum.template_id, datum.beacon_id);
        fail(&mut status, "other template", Code::BeaconMisSigned, message);
        return status;
    }
    if age > job.max_age {
        fail(
            &mut status,
            "stale",
            Code::BeaconNotLive,
            format!("its value is {age} s old, older than the {} s allowed: is the Feed running?", job.max_age),
        );
        return status;
    }
    let (Some(pushed), Some(fresh)) = (status.pushed.clone(), status.now.clone()) else {
        let why =
            called.outcome.problem.as_ref().map_or_else(|| called.outcome.verdict.to_owned(), |p| p.message.clone());
        status.verdict = "call failed";
        status.problem = Some(Diagnostic::elsewhere(
            called.outcome.problem.as_ref().map_or(Code::CallFailed, |p| p.code),
            format!("{named}: live, but its value could not be checked: the API call failed ({why})"),
        ));
        return status;
    };
    status.deviation = deviation(&fresh, &pushed);
    let moved = match status.deviation {
        Some(by) => by.abs() > job.tolerance,
        None => pushed != fresh,
    };
    if moved {
        let by = status.deviation.map_or_else(
            || "another value than".to_owned(),
            |by| format!("{:.2} % {}", by.abs() * 100.0, if by < 0.0 { "below" } else { "above" }),
        );
        let message =
            format!("pushed {pushed}, {by} what the API says now ({fresh}; {:.2} % allowed)", job.tolerance * 100.0);
        fail(&mut status, "moved", Code::BeaconMoved, message);
    }
    status
}

/// The URL of the Signed API to read: given, or the one the config pushes to.
fn signed_api_url(job: &StatusJob, config: &Value) -> Result<String, Diagnostic> {
    if let Some(url) = &job.signed_api_url {
        return Ok(url.trim_end_matches('/').to_owned());
    }
    crate::scaffold::deploy::pushes_to(config, job.signed_api.as_deref())
        .map(|url| url.trim_end_matches('/').to_owned())
        .ok_or_else(|| {
            Diagnostic::elsewhere(Code::BadArgument, "which signed API? The config pushes to several, or to none")
                .with_fix(crate::diagnostic::Fix::ChooseSignedApi)
        })
}

/// The real-time read token, from the Signed API's secrets.
fn read_token(job: &StatusJob) -> Result<Option<String>, Diagnostic> {
    if let Some(token) = job.signed_api_token.as_ref().filter(|token| !token.is_empty()) {
        return Ok(Some(token.clone()));
    }
    let Some(path) = &job.signed_api_secrets else { return Ok(None) };
    let text = Source::read_regular(path)?.text;
    let entries = crate::node::dotenv::parse(&text).map_err(|too_complex| {
        Diagnostic::elsewhere(
            Code::BadSecretsEntry,
            format!("{} line {}: not read as a secrets file", path.display(), too_complex.line),
        )
    })?;
    let name = crate::scaffold::signed_api::REAL_TIME_TOKEN;
    let token = entries.into_iter().rev().find(|entry| entry.name == name).map(|entry| entry.value);
    match token {
        Some(token) if !token.is_empty() => Ok(Some(token)),
        _ => Err(Diagnostic::elsewhere(
            Code::MissingSecret,
            format!("{} has no {name}: the read token the Signed API asks for", path.display()),
        )),
    }
}

/// `GET url` of the Signed API (with the read token when given), as JSON: the answer, or why not.
fn get_json(job: &StatusJob, url: &str, token: Option<&str>) -> Result<Value, Diagnostic> {
    let mut headers = Map::new();
    if let Some(token) = token {
        headers.insert("Authorization".to_owned(), Value::String(format!("Bearer {token}")));
    }
    let secrets = token.into_iter().map(str::to_owned).collect();
    let request = crate::request::Request::get(url.to_owned(), headers, secrets);
    let options = crate::call::CallOptions { timeout: job.timeout, max_response_bytes: 64 << 20, ..Default::default() };
    let reply = crate::call::send(&request, &options)?;
    let unusable = |what: String| Diagnostic::elsewhere(Code::SignedApiUnusable, format!("{url}: {what}"));
    if reply.status != 200 {
        let hint = match reply.status {
            401 | 403 => " (the read token is missing or not one it accepts)",
            404 => " (no such endpoint: is it the Signed API, and does it serve this one?)",
            _ => "",
        };
        return Err(unusable(format!("answered {}{hint}", reply.status)));
    }
    let body = reply.json.ok_or_else(|| unusable("the answer is not JSON".to_owned()))?;
    body.value().cloned()
}

/// What the Signed API serves for `airnode`: its `data`, by beacon ID.
fn served(job: &StatusJob, url: &str, airnode: &str, token: Option<&str>) -> Result<Map<String, Value>, Diagnostic> {
    let read = format!("{url}/{}/{airnode}", job.endpoint.trim_matches('/'));
    let answer = get_json(job, &read, token)?;
    answer.get("data").and_then(Value::as_object).cloned().ok_or_else(|| {
        Diagnostic::elsewhere(
            Code::SignedApiUnusable,
            format!("{read}: the answer is not a Signed API's (no `data` object)"),
        )
    })
}

crate::diagnosed_by_located!(StatusReport);
#[cfg(test)]
mod tests {
    use super::*;

    fn report(verdicts: &[(&str, &'static str)]) -> StatusReport {
        let beacon = |(id, verdict): &(&str, &'static str)| BeaconStatus {
            template_id: String::new(),
            beacon_id: (*id).to_owned(),
            endpoint: "feed".to_owned(),
            feed: None,
            age_seconds: None,
            signer: None,
            pushed: None,
            now: None,
            deviation: None,
            verdict,
            problem: None,
        };
        StatusReport {
            signed_api: String::new(),
            airnode: String::new(),
            beacons: verdicts.iter().map(beacon).collect(),
            live: 0,
            failing: 0,
            located: crate::source::Located::new(Vec::new(), None),
        }
    }

    #[test]
    fn a_watch_prints_only_the_beacons_whose_verdict_changed() {
        let before = report(&[("a", "live"), ("b", "live")]);
        let after = report(&[("a", "live"), ("b", "stale"), ("c", "live")]);
        let changed: Vec<&str> = after.changed_since(&before).iter().map(|b| b.beacon_id.as_str()).collect();
        assert_eq!(changed, ["b", "c"]);
        assert!(before.changed_since(&before).is_empty());
    }
}
