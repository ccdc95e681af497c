//! `ois call CONFIG --compare OTHER`: two runs of a config's beacons side by side — another
//! config (a staging or mock one: its own servers, the same secrets file) or the config's
//! recordings — beacon by beacon, with what either config keeps for its node withheld from the
//! other's APIs.

use serde::Serialize;
use serde_json::Value;

use super::call::CallJob;
use super::call_config::{ConfigCallReport, ManyReport, many};
use super::request::Stop;
use crate::diagnostic::{Code, Diagnostic};

/// One beacon of two runs side by side: a config and another (a mock, a staging host, the live
/// API), or a config live and its recordings.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ComparedBeacon {
    /// The template (the same in both: endpoint and template IDs do not name the server).
    pub template_id: String,
    /// The beacon, when the Airnode is known.
    pub beacon_id: Option<String>,
    /// The endpoint.
    pub endpoint: String,
    /// The values the Feed encodes in the first run (`None`: it failed there).
    pub values: Option<Vec<Value>>,
    /// The values in the other run.
    pub other_values: Option<Vec<Value>>,
    /// The relative difference of the first numeric values, `other / this - 1`, when both are
    /// numbers.
    pub difference: Option<f64>,
    /// `same`, `differs`, or what failed where (`failed here`, `failed there`, `only here`, …).
    pub verdict: String,
}

/// Two runs of a config's beacons, side by side.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CompareReport {
    /// Each beacon of the first run, then those only the other has.
    pub beacons: Vec<ComparedBeacon>,
    /// How many are the same.
    pub same: usize,
    /// How many differ or failed in one of the runs.
    pub different: usize,
}

/// The beacons of `first` and `other` (each a report of [`many`] over a config) side by side, by
/// template.
pub fn compare(first: &ConfigCallReport, other: &ConfigCallReport) -> CompareReport {
    let number = |values: &Option<Vec<Value>>| {
        values.as_ref()?.first().and_then(|v| v.as_str().and_then(|t| t.parse::<f64>().ok()).or_else(|| v.as_f64()))
    };
    let mut beacons = Vec::new();
    for beacon in &first.beacons {
        let there = other.beacons.iter().find(|b| b.template_id == beacon.template_id);
        let values = beacon.values.clone();
        let other_values = there.and_then(|b| b.values.clone());
        let difference = match (number(&values), number(&other_values)) {
            (Some(a), Some(b)) if a != 0.0 => Some(b / a - 1.0),
            _ => None,
        };
        let verdict = match (there, &values, &other_values) {
            (None, _, _) => "only here".to_owned(),
            (Some(_), Some(a), Some(b)) if a == b => "same".to_owned(),
            (Some(_), Some(_), Some(_)) => "differs".to_owned(),
            (Some(_), None, Some(_)) => format!("failed here: {}", beacon.outcome.verdict),
            (Some(there), Some(_), None) => format!("failed there: {}", there.outcome.verdict),
            (Some(_), None, None) => "failed in both".to_owned(),
        };
        beacons.push(ComparedBeacon {
            template_id: beacon.template_id.clone(),
            beacon_id: beacon.beacon_id.clone(),
            endpoint: beacon.endpoint.clone(),
            values,
            other_values,
            difference,
            verdict,
        });
    }
    for beacon in other.beacons.iter().filter(|b| !first.beacons.iter().any(|f| f.template_id == b.template_id)) {
        beacons.push(ComparedBeacon {
            template_id: beacon.template_id.clone(),
            beacon_id: beacon.beacon_id.clone(),
            endpoint: beacon.endpoint.clone(),
            values: None,
            other_values: beacon.values.clone(),
            difference: None,
            verdict: "only there".to_owned(),
        });
    }
    let same = beacons.iter().filter(|b| b.verdict == "same").count();
    let different = beacons.len() - same;
    CompareReport { beacons, same, different }
}

/// Runs `job`'s config and `other` side by side: another config (a staging or mock one: its own
/// servers, the same secrets), or a folder of recordings (the same config answered from them).
/// Each run as [`many`] makes it; refused unless both are configs of beacons. When `job` replays
/// recordings, another config is answered from the same ones (a recording answers its path and
/// query on any server), so a staging copy is compared with its original offline.
pub fn compare_runs(
    job: &CallJob,
    other: &std::path::Path,
    jobs: usize,
    now: u64,
    done: &(dyn Fn(usize) + Sync),
) -> Result<CompareReport, Stop> {
    let mut first = job.clone();
    let mut second = job.clone();
    if other.is_dir() {
        second.options.replay = Some(crate::call::recording::Recordings::at(other));
    } else {
        second.inputs.file = other.to_path_buf();
        second.inputs.server = None;
        // One secrets file serves both configs: what either names for its node, the other's
        // APIs never receive, whatever name it gives it.
        let node_secrets = |inputs: &super::request::CallInputs| -> Result<Vec<String>, Stop> {
            let unreadable = |error| Stop { located: crate::source::Located::new(vec![error], None), logs: Vec::new() };
            let document = inputs.read().and_then(|source| source.parse()).map_err(unreadable)?;
            Ok(crate::node::node_secrets_of(&document).into_iter().collect())
        };
        first.inputs.withheld_secrets.extend(node_secrets(&second.inputs)?);
        second.inputs.withheld_secrets.extend(node_secrets(&job.inputs)?);
    }
    let beacons = |report: ManyReport| match report {
        ManyReport::Beacons(report) => Ok(report),
        ManyReport::Endpoints(_) => Err(Stop {
            located: crate::source::Located::new(
                vec![Diagnostic::elsewhere(
                    Code::BadArgument,
                    "a comparison is of two node configs (or one and its recordings), beacon by beacon",
                )],
                None,
            ),
            logs: Vec::new(),
        }),
    };
    let first = beacons(many(&first, false, jobs, now, done)?)?;
    let second = beacons(many(&second, false, jobs, now, done)?)?;
    Ok(compare(&first, &second))
}

crate::diagnosed_by_field!(CompareReport);
