//! `ois endpoint list|add|set|rm|keep`: refinements of an OIS made in place, in an OIS file, a
//! list, a config.json or an Airnode Feed config (whose templates and triggers follow a rename,
//! their IDs re-derived). The result is written atomically in the file's own style, and only when
//! it breaks no rule the file did not already break; `dry_run` shows the change instead.

use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::edit::{self, EndpointSummary, Settings};
use crate::emit::{OutputFormat, Plan};
use crate::ois::{DocumentKind, OisDocument};
use crate::source::{Format, Source};

/// One edit of the endpoints.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum EndpointEdit {
    /// A new endpoint on an existing operation (`GET /path`).
    Add {
        /// Its name.
        name: String,
        /// The operation.
        operation: String,
        /// What to set on it.
        settings: Settings,
    },
    /// Changes to an endpoint, and a new name.
    Set {
        /// The endpoint.
        name: String,
        /// What to change.
        settings: Settings,
        /// Its new name.
        rename: Option<String>,
    },
    /// Endpoints removed.
    Remove {
        /// Their names.
        names: Vec<String>,
    },
    /// Only the endpoints matching (a name with wildcards, or `GET /path`) kept.
    Keep {
        /// The filters.
        filters: Vec<String>,
    },
    /// A change of the feeds served by name (`ois feed`).
    Feeds(crate::edit::feeds::FeedChange),
}

/// What `ois endpoint add|set|rm|keep` is asked for.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct EndpointJob {
    /// The file edited in place.
    pub file: PathBuf,
    /// The OIS of a file that holds several.
    pub ois_title: Option<String>,
    /// The edit.
    pub edit: EndpointEdit,
    /// Show the change, write nothing.
    pub dry_run: bool,
}

impl EndpointJob {
    /// `edit` of the file at `file`.
    pub fn new(file: PathBuf, edit: EndpointEdit) -> EndpointJob {
        EndpointJob { file, ois_title: None, edit, dry_run: false }
    }
}

/// What an edit did.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EditReport {
    /// The file.
    pub file: String,
    /// Whether its text changed.
    pub changed: bool,
    /// Whether it was written (not on a dry run, nor when nothing changed).
    pub written: bool,
    /// The change as a unified diff.
    pub diff: String,
    /// What the edit changed or kept beside what was asked (`diagnostics`, as every report
    /// names them).
    #[serde(rename = "diagnostics")]
    pub notes: Vec<Diagnostic>,
}

/// Every endpoint of the chosen OIS of the file at `file`.
pub fn list(file: &std::path::Path, title: Option<&str>) -> Result<Vec<EndpointSummary>, Diagnostic> {
    super::with_chosen_ois(file, title, |ois, _| Ok(edit::list(ois)))
}

/// The errors of `diagnostics` as (code, pointer), to tell the ones an edit made from those it
/// found.
fn errors(diagnostics: &[Diagnostic]) -> std::collections::HashSet<(Code, &str)> {
    diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (d.code, d.location.pointer.as_str()))
        .collect()
}

/// An edit made on a document's text: the new text in its style, and what the edit noted.
#[derive(Debug)]
#[non_exhaustive]
pub struct Edited {
    /// The document after the edit, in the style of the text before it (shared: a caller may
    /// hold it as it is).
    pub text: std::sync::Arc<str>,
    /// What the edit changed or kept beside what was asked.
    pub notes: Vec<Diagnostic>,
    /// Every rule the document breaks after the edit (not located in `text`): the check the edit
    /// made, for a caller that shows them not to make it again.
    pub diagnostics: Vec<Diagnostic>,
    /// The document after the edit, as `text` reads (for a caller that reads it, not to parse
    /// `text` again).
    pub document: Value,
}

/// Makes `edit` on the OIS `title` chooses in `source`; refused, located in it, when it fails or
/// breaks a rule the document did not already break.
pub fn edit_source(source: &Source, title: Option<&str>, edit: &EndpointEdit) -> Result<Edited, Vec<Diagnostic>> {
    edit_source_known(source, title, edit, None)
}

/// [`edit_source`] of a document whose rules were checked already: `known` is every diagnostic
/// of its validation (a previous edit's [`Edited::diagnostics`]), so it is checked once an edit,
/// after it, not before and after.
pub fn edit_source_known(
    source: &Source,
    title: Option<&str>,
    edit: &EndpointEdit,
    known: Option<&[Diagnostic]>,
) -> Result<Edited, Vec<Diagnostic>> {
    edit_source_beside(source, title, edit, known, |_| ()).map(|(edited, ())| edited)
}

/// [`edit_source_known`], with `read` of the edited document made beside its check (on another
/// core, with the text, when the document is JSON): what a caller reads of the document after
/// the edit, for the edit not to wait for it after the check. Made even when the edit is refused.
pub fn edit_source_beside<R: Send>(
    source: &Source,
    title: Option<&str>,
    edit: &EndpointEdit,
    known: Option<&[Diagnostic]>,
    read: impl FnOnce(&Value) -> R + Send,
) -> Result<(Edited, R), Vec<Diagnostic>> {
    let refused = |diagnostics: Vec<Diagnostic>| {
        let mut diagnostics = diagnostics;
        for diagnostic in &mut diagnostics {
            source.locate_diagnostic(diagnostic);
        }
        diagnostics
    };
    let before = source.parse().map_err(|error| refused(vec![error]))?;
    let (kind, pointer) = {
        let read = OisDocument::read(&before).map_err(|(_, error)| refused(vec![error]))?;
        let chosen = read.choose(title).map_err(|error| refused(vec![error]))?;
        (read.kind, chosen.pointer)
    };
    let checked_before;
    let known = match known {
        Some(known) => known,
        None => {
            checked_before = crate::validate::validate_value(&before, None).diagnostics;
            &checked_before
        }
    };
    let found = errors(known);
    // Only a YAML file's restyling compares the document before the edit with the one after it:
    // a JSON one is edited in place (a big OIS's copy is a big share of an edit's time).
    let (before, mut after) = match source.format {
        Format::Yaml => (Some(before.clone()), before),
        Format::Json => (None, before),
    };
    let mut notes = apply(&mut after, kind, &pointer, edit).map_err(|error| refused(vec![error]))?;
    // A JSON file's text is written while the edit is checked, on another core when the file is
    // big: both only read the edited document (a big OIS's text is a fifth of an edit), and a
    // refused edit is rare. A YAML file's restyling compares, after.
    let (checked, (written, reading)) = crate::parallel::join(
        crate::parallel::worth_splitting(source.text.len(), EDITED_ALONE_BYTES),
        || crate::validate::validate_value(&after, None),
        || {
            let written = (source.format == Format::Json)
                .then(|| crate::emit::to_text_like(&after, &source.text, OutputFormat::Json).map(std::sync::Arc::from));
            (written, read(&after))
        },
    );
    let diagnostics = checked.diagnostics;
    // A warning the edit brings is said with it (two feeds now reading one value, say).
    let warned: std::collections::HashSet<(Code, &str, &str)> =
        known.iter().map(|k| (k.code, k.location.pointer.as_str(), k.message.as_str())).collect();
    let is_new = |d: &&Diagnostic| !warned.contains(&(d.code, d.location.pointer.as_str(), d.message.as_str()));
    notes.extend(diagnostics.iter().filter(|d| d.severity == Severity::Warning).filter(is_new).cloned());
    let made: Vec<Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error && !found.contains(&(d.code, d.location.pointer.as_str())))
        .cloned()
        .collect();
    if let Some(first) = made.first() {
        let mut refusal = Diagnostic::new(
            Code::EditBreaksOis,
            first.location.pointer.clone(),
            format!(
                "the edit would break {} rule(s), e.g. {}: {}; nothing was written",
                made.len(),
                first.code,
                first.message
            ),
        );
        refusal.help = first.help.clone();
        return Err(vec![refusal]);
    }
    // A JSON file's text was written beside the check, in the file's indentation; a YAML file
    // keeps its style where only scalars and keys changed, and is written whole otherwise.
    let text = match written {
        Some(written) => written,
        None => match before.as_ref().and_then(|before| crate::edit::restyle::yaml_like(source, before, &after)) {
            Some(text) => Ok(text.into()),
            None => crate::emit::to_text_like(&after, &source.text, OutputFormat::Yaml).map(Into::into),
        },
    }
    .map_err(|error| vec![error])?;
    Ok((Edited { text, notes, diagnostics, document: after }, reading))
}

/// The size of a file up to which an edit is checked and written on one thread: the pool's start
/// would cost more than it saves.
const EDITED_ALONE_BYTES: usize = 1 << 20;

/// Makes the edit `job` asks for; what refuses it, located in the file.
pub fn run(job: &EndpointJob) -> Result<EditReport, Vec<Diagnostic>> {
    if crate::emit::is_standard_output(&job.file) {
        let error =
            Diagnostic::elsewhere(Code::BadEdit, "an edit is made in a file; standard input has none to write back");
        return Err(vec![error]);
    }
    let source = Source::read(&job.file).map_err(|error| vec![error])?;
    let Edited { text, notes, .. } = edit_source(&source, job.ois_title.as_deref(), &job.edit)?;
    let changed = *text != *source.text;
    let name = job.file.display().to_string();
    let diff = crate::emit::unified_diff(&name, &name, &source.text, &text);
    let written = changed && !job.dry_run;
    if written {
        let mut plan = Plan::new();
        // The file edited is replaced: that is what was asked (a link is not followed).
        plan.companion(&job.file, &*text, false);
        plan.write().map_err(|error| vec![error])?;
    }
    Ok(EditReport { file: job.file.display().to_string(), changed, written, diff, notes })
}

/// Applies `edit` to the OIS at `pointer` of `document` (a file of `kind`), and makes a node
/// config follow.
fn apply(
    document: &mut Value,
    kind: DocumentKind,
    pointer: &str,
    edit: &EndpointEdit,
) -> Result<Vec<Diagnostic>, Diagnostic> {
    let ois = document.pointer_mut(pointer).ok_or_else(|| Diagnostic::elsewhere(Code::BadEdit, "the OIS is gone"))?;
    let title = ois.get("title").and_then(Value::as_str).unwrap_or_default().to_owned();
    let before: Vec<String> = edit::names(ois).map(str::to_owned).collect();
    let mut notes = match edit {
        EndpointEdit::Add { name, operation, settings } => edit::add(ois, name, operation, settings)?,
        EndpointEdit::Set { name, settings, rename } => edit::set(ois, name, settings, rename.as_deref())?,
        EndpointEdit::Remove { names } => edit::remove(ois, names)?,
        EndpointEdit::Keep { filters } => edit::keep(ois, filters)?,
        EndpointEdit::Feeds(change) => edit::feeds::apply(ois, change)?,
    };
    let after: Vec<String> = edit::names(ois).map(str::to_owned).collect();
    if !kind.holds_ois_list() {
        return Ok(notes);
    }
    if let EndpointEdit::Set { name, rename: Some(new), .. } = edit
        && new != name
    {
        notes.extend(edit::follow_rename(document, &title, name, new)?);
        return Ok(notes);
    }
    for gone in before.iter().filter(|name| !after.contains(name)) {
        let uses = edit::references(document, &title, gone);
        if uses > 0 {
            return Err(Diagnostic::elsewhere(
                Code::EditBreaksOis,
                format!(
                    "endpoint \"{gone}\" is used by {uses} template(s) or trigger(s) of the config: remove those first; nothing was written"
                ),
            ));
        }
        edit::forget_endpoint(document, &title, gone);
    }
    Ok(notes)
}

crate::diagnosed_by_field!(EditReport => notes);
