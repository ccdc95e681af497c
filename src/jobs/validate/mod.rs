//! `ois validate`: OIS files and node configs against every rule, and, when a file fails only for
//! the format it was checked as, which nodes read it as it is.

use std::path::PathBuf;

use serde::Serialize;

use serde_json::Value;

use crate::diagnostic::{Code, Counts, Diagnostic, Severity};
use crate::node::Target;
use crate::ois::model::FormatFamily;
use crate::ois::{ConfigKind, DocumentKind};
use crate::source::Source;
use crate::validate::{Validation, validate};

mod values;

/// What `ois validate` is asked to check.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ValidateJob {
    /// The files (`-`: standard input).
    pub files: Vec<PathBuf>,
    /// Check as this OIS format family, not each file's own `oisFormat`.
    pub family: Option<FormatFamily>,
    /// The node release the files are checked for: a config naming another is refused.
    pub target: Option<crate::node::TargetSpec>,
    /// Secrets files (each read as the node reads its `secrets.env`): an Airnode Feed config and
    /// a Signed API config checked together are checked with their tokens filled from them; an
    /// Airnode config.json's RRP template IDs are derived from the mnemonic they hold.
    pub secrets: Vec<PathBuf>,
    /// Warnings count as errors (a fetch interval that would hammer an API, say).
    pub strict: bool,
    /// Recorded answers: each config's templates, or each OIS's feeds by name, are answered from
    /// them as the node would answer them, and what is not its own value is said. Nothing is sent.
    pub replay: Option<PathBuf>,
    /// With `replay`, two values of one call equal by right (two names of one asset) pass.
    pub allow_equal: bool,
    /// With `replay`, the unix time `timestamp` values encode.
    pub now: u64,
}

/// One file's verdict (`--format json` prints a list of them).
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FileVerdict {
    /// The file's display name.
    pub file: String,
    /// Whether it has no error.
    pub valid: bool,
    /// What the file turned out to be.
    pub kind: Option<DocumentKind>,
    /// Diagnostics by severity.
    pub counts: Counts,
    /// Its diagnostics, and the file read for showing them in its text.
    #[serde(flatten)]
    pub located: crate::source::Located,
    /// The OIS format families of its OIS objects.
    #[serde(skip)]
    pub families: Vec<FormatFamily>,
    /// The nodes that read it as it is (by its `oisFormat`), oldest first.
    pub read_by: Vec<&'static str>,
    /// A node config: the node releases that accept it (it names exactly one version).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub accepted_by: Vec<String>,
    /// When it is valid and no released node reads it: what to do.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unreleased: Option<String>,
}

impl FileVerdict {
    /// The verdict as a [`Validation`], for the text report.
    pub fn validation(&self) -> Validation {
        Validation {
            kind: self.kind,
            diagnostics: self.located.diagnostics.clone(),
            families: self.families.clone(),
            accepted_by: self.accepted_by.clone(),
        }
    }
}

/// Checks every file of `job`; an Airnode Feed config and a Signed API config given together are
/// also checked against each other.
pub fn run(job: &ValidateJob) -> Vec<FileVerdict> {
    let mut verdicts = each_file(job);
    agree(&mut verdicts, &job.secrets);
    rrp_template_ids(&mut verdicts, &job.secrets);
    if let Some(recordings) = &job.replay {
        answer_values(&mut verdicts, job, recordings);
    }
    if job.strict {
        for verdict in verdicts.iter_mut().filter(|v| v.valid && v.counts.warnings > 0) {
            verdict.valid = false;
            verdict.located.diagnostics.push(Diagnostic::elsewhere(
                Code::StrictWarnings,
                format!("strict: its {} warning(s) count as errors", verdict.counts.warnings),
            ));
            verdict.counts = Counts::of(&verdict.located.diagnostics);
        }
    }
    verdicts
}

/// Each file's values answered from `recordings` (with the secrets file given in its place, or
/// the first), said in its verdict.
fn answer_values(verdicts: &mut [FileVerdict], job: &ValidateJob, recordings: &std::path::Path) {
    for (index, verdict) in verdicts.iter_mut().enumerate() {
        let Some(source) = &verdict.located.source else { continue };
        let answers = values::Answers {
            recordings,
            secrets: job.secrets.get(index).or(job.secrets.first()).map(PathBuf::as_path),
            allow_equal: job.allow_equal,
            now: job.now,
        };
        let mut said = values::check(source, verdict.kind, &answers);
        for diagnostic in &mut said {
            source.locate_diagnostic(diagnostic);
        }
        verdict.located.diagnostics.extend(said);
        verdict.counts = Counts::of(&verdict.located.diagnostics);
        verdict.valid = verdict.counts.errors == 0;
    }
}

/// Each Signed API config of the files against each Airnode Feed config of them (only those two
/// kinds are read again, and only when there is a Signed API config), their push tokens filled
/// from `secrets` when given.
fn agree(verdicts: &mut [FileVerdict], secrets: &[PathBuf]) {
    if !verdicts.iter().any(|v| v.kind == Some(DocumentKind::Node(ConfigKind::SignedApi))) {
        return;
    }
    let parsed = |v: &FileVerdict| v.located.source.as_ref().and_then(|s| crate::validate::parse(s).ok());
    let feeds: Vec<Value> = verdicts
        .iter()
        .filter(|v| v.kind == Some(DocumentKind::Node(ConfigKind::AirnodeFeed)))
        .filter_map(parsed)
        .collect();
    for verdict in verdicts.iter_mut().filter(|v| v.kind == Some(DocumentKind::Node(ConfigKind::SignedApi))) {
        let Some(signed_api) = parsed(verdict) else { continue };
        let mut found: Vec<Diagnostic> =
            feeds.iter().flat_map(|feed| crate::validate::configs_agree(feed, &signed_api)).collect();
        match read_secrets(secrets) {
            Ok(read) if !read.is_empty() => {
                found.extend(feeds.iter().flat_map(|feed| crate::validate::tokens_agree(feed, &signed_api, &read)));
            }
            Ok(_) => {}
            Err(error) => found.push(error),
        }
        if let Some(source) = &verdict.located.source {
            for diagnostic in &mut found {
                source.locate_diagnostic(diagnostic);
            }
        }
        verdict.valid &= !found.iter().any(Diagnostic::is_error);
        verdict.located.diagnostics.extend(found);
        verdict.counts = Counts::of(&verdict.located.diagnostics);
    }
}

/// An Airnode config.json's RRP template IDs derived after all, from the mnemonic a secrets file
/// given holds (read, never shown), where they could not be checked without it.
fn rrp_template_ids(verdicts: &mut [FileVerdict], secrets: &[PathBuf]) {
    let unchecked = |v: &FileVerdict| v.located.diagnostics.iter().any(|d| d.code == Code::RrpTemplatesUnchecked);
    if secrets.is_empty() || !verdicts.iter().any(unchecked) {
        return;
    }
    let files = match read_secrets(secrets) {
        Ok(files) => files,
        Err(error) => {
            if let Some(first) = verdicts.first_mut() {
                first.located.diagnostics.push(error);
                first.valid = false;
                first.counts = Counts::of(&first.located.diagnostics);
            }
            return;
        }
    };
    for verdict in verdicts.iter_mut().filter(|v| unchecked(v)) {
        let Some(source) = verdict.located.source.as_ref() else { continue };
        let Ok(config) = crate::validate::parse(source) else { continue };
        let mut diagnostics = std::mem::take(&mut verdict.located.diagnostics);
        let before = diagnostics.len();
        if files
            .iter()
            .any(|(_, secrets)| crate::validate::rrp_template_ids_with_secrets(&config, secrets, &mut diagnostics))
        {
            for diagnostic in diagnostics.iter_mut().skip(before.saturating_sub(1)) {
                source.locate_diagnostic(diagnostic);
            }
        }
        verdict.located.diagnostics = diagnostics;
        verdict.valid &= !verdict.located.diagnostics.iter().any(Diagnostic::is_error);
        verdict.counts = Counts::of(&verdict.located.diagnostics);
    }
}

/// Each secrets file, by its name.
fn read_secrets(files: &[PathBuf]) -> Result<Vec<(String, crate::request::Secrets)>, Diagnostic> {
    files
        .iter()
        .map(|path| {
            let name = path.display().to_string();
            let source = Source::read_regular(path)?;
            let secrets = crate::request::Secrets::parse(&source.text).map_err(|error| error.in_file(name.clone()))?;
            Ok((name, secrets))
        })
        .collect()
}

fn each_file(job: &ValidateJob) -> Vec<FileVerdict> {
    job.files
        .iter()
        .map(|path| {
            let (mut validation, source) = match Source::read(path) {
                Ok(source) => (validate(&source, job.family), Some(source)),
                Err(error) => (Validation::unreadable(error), None),
            };
            if let (Some(source), Some(_)) = (&source, job.family) {
                which_targets_accept(source, &mut validation);
            }
            let config = matches!(validation.kind, Some(DocumentKind::Node(_)));
            if let (Some(source), Some(target), true) = (&source, &job.target, config)
                && let Some(mut refused) =
                    crate::validate::parse(source).ok().and_then(|root| crate::validate::against_target(&root, target))
            {
                source.locate_diagnostic(&mut refused);
                validation.diagnostics.push(refused);
            }
            let readers = Target::reading_all(&validation.families);
            let unreleased = (validation.is_valid() && !readers.is_empty() && !readers.iter().any(|t| t.released()))
                .then(|| unreleased_advice(&readers));
            FileVerdict {
                accepted_by: validation.accepted_by.clone(),
                file: path.display().to_string(),
                read_by: readers.iter().map(|t| t.name()).collect(),
                unreleased,
                families: validation.families.clone(),
                valid: validation.is_valid(),
                kind: validation.kind,
                counts: Counts::of(&validation.diagnostics),
                located: crate::source::Located::new(validation.diagnostics, source),
            }
        })
        .collect()
}

/// What a file no released node reads is for, and how to move it to the default target.
fn unreleased_advice(readers: &[Target]) -> String {
    let names: Vec<&str> = readers.iter().map(|t| t.name()).collect();
    let newest = Target::NEWEST_RELEASED;
    format!(
        "no released node reads it yet ({} will); the default target, {newest}, reads OIS {}: converting it again for {newest} with an update moves it, keeping its refinements",
        names.join(", "),
        newest.family().name(),
    )
}

/// When an OIS fails only because of its `oisFormat` for the chosen family, say which targets
/// would accept it as it is.
fn which_targets_accept(source: &Source, validation: &mut Validation) {
    let mut errors = validation.diagnostics.iter().filter(|d| d.severity == Severity::Error).peekable();
    if errors.peek().is_none() || errors.any(|d| d.code != Code::BadOisFormat) {
        return;
    }
    let accepting: Vec<String> = [FormatFamily::V2_3, FormatFamily::V3_0]
        .into_iter()
        .filter(|family| validate(source, Some(*family)).is_valid())
        .map(Target::reading)
        .collect();
    if accepting.is_empty() {
        return;
    }
    for diagnostic in validation.diagnostics.iter_mut().filter(|d| d.code == Code::BadOisFormat) {
        let said = diagnostic.help.take().map(|h| format!("{h}; ")).unwrap_or_default();
        diagnostic.help = Some(format!("{said}as it is, it is valid for {}", accepting.join(", ")));
    }
}
