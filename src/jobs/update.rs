//! `ois convert NEW --update OIS_FILE`: the update, `check` and `diff`, and what is written.

use std::path::PathBuf;

use serde::Serialize;

use super::convert::{Refused, Status, Writes};
use crate::diagnostic::{Code, Counts, Diagnostic, Fix};
use crate::emit::Plan;
use crate::source::Source;
use crate::update::{EndpointChange, Fate, Update, UpdateOptions, record, update};

/// What an update is asked to do.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct UpdateJob {
    /// The API's new OpenAPI document.
    pub new: PathBuf,
    /// The OIS file to bring up to date (an OIS, or a config.json with `title`).
    pub ois_file: PathBuf,
    /// The OpenAPI document the OIS was generated from (instead of the record).
    pub base: Option<PathBuf>,
    /// Where the update goes (`None`: the OIS file itself; `-`: standard output).
    pub output: Option<PathBuf>,
    /// The conversion options as given.
    pub given: crate::convert::GivenOptions,
    /// The OIS of a config.json that holds several.
    pub title: Option<String>,
    /// Write nothing; fail when the update would change the file.
    pub check: bool,
    /// Write nothing; the report carries the unified diff.
    pub diff: bool,
    /// Also write the secrets.env template of the updated OIS here; a file there keeps the values
    /// it holds.
    pub secrets_out: Option<PathBuf>,
    /// Replace, strict, records.
    pub writes: Writes,
}

/// What an update did (`--report json` prints it).
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[non_exhaustive]
pub struct UpdateReport {
    /// The OIS file's display name.
    pub file: String,
    /// Where the update was written, when it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// Whether everything asked for was done (and, with `check`, the file is in sync).
    pub status: Status,
    /// Whether the update changes the file (`None`: it could not be made).
    pub changed: Option<bool>,
    /// Every endpoint with its ID and fate.
    pub endpoints: Option<Vec<EndpointChange>>,
    /// "12 endpoint(s) kept, 1 added, 0 removed, 2 conflict(s)".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tally: Option<String>,
    /// Whether anything was written.
    pub written: bool,
    /// Diagnostics by severity.
    pub counts: Counts,
    /// Every diagnostic.
    pub diagnostics: Vec<Diagnostic>,
    /// With `diff`: the unified diff of the file to its update.
    #[serde(skip)]
    pub diff: Option<String>,
}

/// Runs the update `job` asks for.
pub fn run(job: &UpdateJob) -> Result<UpdateReport, Refused> {
    let (new, ois_file) = match (Source::read(&job.new), Source::read(&job.ois_file)) {
        (Ok(new), Ok(ois_file)) => (new, ois_file),
        (Err(error), _) | (_, Err(error)) => return Err(Refused(error)),
    };
    let base = job.base.as_deref().map(Source::read).transpose().map_err(Refused)?;
    let (records, record_problem) = record::read(&record::path_for(&job.ois_file));
    let options = UpdateOptions { given: job.given.clone(), title: job.title.clone(), records };
    let file = job.ois_file.display().to_string();
    let (mut diagnostics, outcome) = match update(&new, base.as_ref(), &ois_file, &options) {
        Ok(update) => (update.diagnostics.clone(), Some(update)),
        Err(failure) => (failure.diagnostics, None),
    };
    diagnostics.splice(0..0, record_problem);
    let mut report = UpdateReport {
        file: file.clone(),
        output: None,
        status: Status::Failed,
        changed: None,
        endpoints: None,
        tally: None,
        written: false,
        counts: Counts::default(),
        diagnostics: Vec::new(),
        diff: None,
    };
    if let Some(update) = &outcome {
        report.status = Status::Ok;
        report.changed = Some(!update.unchanged);
        report.endpoints = Some(update.merged.endpoints.clone());
        report.tally = Some(tally(update));
        if job.diff {
            report.diff = Some(crate::emit::unified_diff(
                &format!("a/{file}"),
                &format!("b/{file}"),
                &ois_file.text,
                &update.text,
            ));
        }
        if job.check && !update.unchanged {
            diagnostics.push(
                Diagnostic::elsewhere(
                    Code::UpdateChanges,
                    format!(
                        "{file} is not in sync with {}: the update would change it ({})",
                        job.new.display(),
                        tally(update)
                    ),
                )
                .with_fix(Fix::UpdateInstead),
            );
            report.status = Status::Failed;
        } else if !job.check && !job.diff {
            if let Some(refusal) = job.writes.strict_refusal(&diagnostics) {
                diagnostics.push(refusal);
                report.status = Status::Failed;
            } else {
                match write(job, update) {
                    Ok((output, kept)) => {
                        report.written = true;
                        report.output = output;
                        diagnostics.extend(kept);
                    }
                    Err(error) => {
                        diagnostics.push(error);
                        report.status = Status::Failed;
                    }
                }
            }
        }
    }
    // In CI, an option a record slipped in that moves the OIS's calls is a failure.
    if job.check && diagnostics.iter().any(|d| d.code == Code::RecordChangesCalls) {
        report.status = Status::Failed;
    }
    report.counts = Counts::of(&diagnostics);
    report.diagnostics = diagnostics;
    Ok(report)
}

/// Writes the updated file (itself, or the output), the record next to it and the secrets
/// template, all or nothing; returns where the OIS went (`None`: standard output) and which
/// values of the secrets file were kept.
fn write(job: &UpdateJob, update: &Update) -> Result<(Option<String>, Option<Diagnostic>), Diagnostic> {
    let mut plan = Plan::new();
    let mut kept = None;
    if let Some(path) = &job.secrets_out {
        let descriptions = &update.scheme_descriptions;
        let mut scaffold = crate::scaffold::config_described(std::slice::from_ref(&update.merged.ois), |_, scheme| {
            descriptions.get(scheme).cloned()
        });
        let names = &update.record.options.secret_names;
        crate::scaffold::name_secrets(&mut scaffold.config, &mut scaffold.secrets_env, names)?;
        let for_what = super::outputs::file_name(job.output.as_deref().unwrap_or(&job.ois_file));
        let replace = super::outputs::SecretsReplace::Companion(job.writes.force);
        kept = super::outputs::plan_secrets(&mut plan, path, &scaffold.secrets_env, &for_what, replace);
    }
    let target = match &job.output {
        Some(output) => {
            plan.file(output, update.text.as_str(), job.writes.force);
            output.as_path()
        }
        // The file being updated is replaced: that is what was asked (a link only when forced).
        None => {
            plan.companion(&job.ois_file, update.text.as_str(), job.writes.force);
            job.ois_file.as_path()
        }
    };
    if crate::emit::is_standard_output(target) {
        plan.write()?;
        return Ok((None, kept));
    }
    if job.writes.record {
        let record = &update.record;
        let (path, text) = record::file_next_to(target, &record.title, &record.options, &record.generated)?;
        plan.companion(&path, text, job.writes.force);
    }
    plan.write()?;
    Ok((Some(target.display().to_string()), kept))
}

/// "12 endpoint(s) kept, 1 added, 1 removed, 2 conflict(s)".
fn tally(update: &Update) -> String {
    let count = |fate| update.merged.endpoints.iter().filter(|e| e.fate == fate).count();
    let conflicts = update.merged.diagnostics.iter().filter(|d| d.code == Code::UpdateConflict).count();
    format!(
        "{} endpoint(s) kept, {} added, {} removed, {conflicts} conflict(s)",
        count(Fate::Kept),
        count(Fate::Added),
        count(Fate::Removed)
    )
}

crate::diagnosed_by_field!(UpdateReport => diagnostics);
