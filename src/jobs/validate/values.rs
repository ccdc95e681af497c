//! `validate` with recorded answers: a config's templates, or an OIS's feeds by name, answered
//! from them as the node would answer them, so that a value that is not its own (two feeds
//! reading one element, a path that finds nothing, a parser that throws) is found before a node
//! publishes it. Nothing is sent: an exchange without a recording is said, not made.

use std::path::Path;

use serde_json::Value;

use crate::call::CallOptions;
use crate::call::recording::Recordings;
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::jobs::call::CallJob;
use crate::jobs::call_config::{self, ConfigCallReport};
use crate::jobs::request::CallInputs;
use crate::ois::DocumentKind;
use crate::request::Secrets;
use crate::source::Source;

/// What the values of a file are checked with.
pub(super) struct Answers<'a> {
    /// The recordings.
    pub recordings: &'a Path,
    /// A secrets file the file's credentials are filled from; any it lacks stand in (a recording
    /// keeps no credential, so none is needed to find one).
    pub secrets: Option<&'a Path>,
    /// Two values of one call equal by right are accepted.
    pub allow_equal: bool,
    /// The unix time `timestamp` values encode.
    pub now: u64,
}

/// The diagnostics of answering `source`'s templates or feeds from the recordings: each problem
/// a call met, and a note of how many values were answered. Nothing for a file with neither.
pub(super) fn check(source: &Source, kind: Option<DocumentKind>, answers: &Answers) -> Vec<Diagnostic> {
    let Ok(document) = crate::validate::parse(source) else { return Vec::new() };
    let job = |ois_title: Option<String>| -> Result<CallJob, Diagnostic> {
        let mut inputs = CallInputs::new(source.name.clone().into());
        inputs.held = Some(crate::jobs::Held { name: source.name.clone(), text: source.text.as_str().into() });
        inputs.held_secrets = Some(secrets_with_stand_ins(&source.text, &document, answers.secrets)?);
        inputs.ois_title = ois_title;
        let options = CallOptions {
            replay: Some(Recordings::at(answers.recordings)),
            allow_equal_values: answers.allow_equal,
            ..CallOptions::default()
        };
        Ok(CallJob::new(inputs, options))
    };
    let quiet = |_: usize| {};
    let mut reports = Vec::new();
    if call_config::has_templates(&document) {
        let report = job(None).and_then(|job| {
            call_config::run(&job, job.inputs.read()?, &document, 1, answers.now, &quiet).map_err(first_problem)
        });
        reports.push(report);
    } else if kind.is_some_and(|kind| matches!(kind, DocumentKind::Ois | DocumentKind::List) || kind.holds_ois_list()) {
        for title in titles_serving_feeds(&document) {
            let report = job(Some(title))
                .and_then(|job| call_config::every_feed(&job, 1, answers.now, &quiet).map_err(first_problem));
            reports.push(report);
        }
    }
    reports.into_iter().flat_map(|report| said(report, answers.recordings)).collect()
}

/// What one run says: its problems (an exchange no recording answers only warned of: that value
/// was not checked), and how many values were answered, or what stopped it.
fn said(report: Result<ConfigCallReport, Diagnostic>, recordings: &Path) -> Vec<Diagnostic> {
    let report = match report {
        Ok(report) => report,
        Err(stopped) => return vec![stopped],
    };
    let total = report.beacons.len();
    let answered = report.beacons.iter().filter(|beacon| beacon.outcome.problem.is_none()).count();
    let mut said = call_config::ManyReport::Beacons(report).problems();
    for problem in &mut said {
        if problem.code == Code::NoRecording {
            problem.severity = Severity::Warning;
        }
    }
    let outcome = if answered == total {
        "each its own".to_owned()
    } else {
        format!("{answered} ok, {} not (said above)", total - answered)
    };
    said.push(Diagnostic::elsewhere(
        Code::ValuesReplayed,
        format!("{total} value(s) answered from the recordings in {}: {outcome}", recordings.display()),
    ));
    said
}

/// A run that stopped before any call: its first error (the setup's problem).
fn first_problem(stop: crate::jobs::request::Stop) -> Diagnostic {
    let mut found = stop.located.diagnostics;
    let at = found.iter().position(|d| d.severity == Severity::Error).unwrap_or_default();
    if at < found.len() {
        found.swap_remove(at)
    } else {
        Diagnostic::elsewhere(Code::ValuesReplayed, "the values could not be answered from the recordings")
    }
}

/// The titles of the OIS objects of `document` that serve feeds by name.
fn titles_serving_feeds(document: &Value) -> Vec<String> {
    let Ok(read) = crate::ois::OisDocument::read(document) else { return Vec::new() };
    read.oises
        .iter()
        .filter(|(_, ois)| crate::ois::feeds::read(ois).ok().flatten().is_some_and(|tables| !tables.feeds.is_empty()))
        .filter_map(|(_, ois)| ois.get("title").and_then(Value::as_str).map(str::to_owned))
        .collect()
}

/// The secrets `file` gives, and a stand-in for every other name the document's credentials and
/// `${…}` references use: recordings keep no credential, so finding one needs none.
fn secrets_with_stand_ins(text: &str, document: &Value, file: Option<&Path>) -> Result<Secrets, Diagnostic> {
    let given = match file {
        Some(path) => Secrets::parse(&Source::read_regular(path)?.text)?,
        None => Secrets::none(),
    };
    let mut names: Vec<String> = crate::node::referenced_names(text).map(str::to_owned).collect();
    if let Ok(read) = crate::ois::OisDocument::read(document) {
        for (_, ois) in &read.oises {
            names.extend(crate::node::credential_slots(ois).into_iter().map(|slot| slot.variable));
        }
    }
    let values = names.into_iter().map(|name| {
        let value = given.file_value(&name).map_or_else(|| format!("stand-in-for-{name}"), str::to_owned);
        (name, value)
    });
    Ok(Secrets::from_values(values))
}
