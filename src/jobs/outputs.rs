//! What one conversion writes, and how: the OIS (or config fragment), its record, its secrets
//! template, all or nothing, under the same rules for one document and for each of a batch.

use std::path::Path;

use crate::convert::GivenOptions;
use crate::convert::Rendered;
use crate::convert::Summary;
use crate::diagnostic::{Code, Counts, Diagnostic, Fix};
use crate::emit::{OutputFormat, Plan, Text};

/// How a command writes its files: one setting for every command that writes.
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct Writes {
    /// Replace files that exist.
    pub force: bool,
    /// Any warning is a failure: nothing is written.
    pub strict: bool,
    /// Write the `.convert.json` record next to an OIS file.
    pub record: bool,
}

impl Writes {
    /// Writes as given.
    pub fn new(force: bool, strict: bool, record: bool) -> Writes {
        Writes { force, strict, record }
    }

    /// Under `strict`, the error that stops a write when `diagnostics` hold warnings.
    pub fn strict_refusal(&self, diagnostics: &[Diagnostic]) -> Option<Diagnostic> {
        let warnings = Counts::of(diagnostics).warnings;
        (self.strict && warnings > 0).then(|| {
            Diagnostic::elsewhere(
                Code::StrictWarnings,
                format!("strict: {warnings} warning(s), so nothing was written"),
            )
            .with_fix(Fix::LeaveStrict)
        })
    }
}

/// Where one conversion's outputs go.
pub(super) struct Outputs<'a> {
    /// The OIS (or config fragment); `None`: standard output.
    pub ois: Option<&'a Path>,
    /// The secrets template.
    pub secrets: Option<&'a Path>,
    /// The config.json fragment instead of the bare OIS.
    pub config: bool,
    /// Create the OIS's folder when missing (a batch's output tree).
    pub create_folder: bool,
}

/// The outputs of one conversion, written all or nothing: the OIS (or config fragment), its
/// record next to it, the secrets template. Returns whether they were written, the diagnostics
/// (the conversion's, then what stopped the write) and the summary.
pub(super) fn write_conversion(
    conversion: &mut Rendered,
    outputs: &Outputs<'_>,
    writes: Writes,
    given: &GivenOptions,
    format: OutputFormat,
) -> (bool, Vec<Diagnostic>, Option<Summary>) {
    let mut diagnostics = std::mem::take(&mut conversion.diagnostics);
    let summary = Some(std::mem::take(&mut conversion.summary));
    let mut problems = Vec::new();
    let scaffold = (outputs.config || outputs.secrets.is_some())
        .then(|| conversion.ois().map_err(|error| problems.push(error)).ok())
        .flatten()
        .and_then(|ois| {
            let descriptions = &conversion.scheme_descriptions;
            let mut scaffold = crate::scaffold::config_described(std::slice::from_ref(&ois), |_, scheme| {
                descriptions.get(scheme).cloned()
            });
            if !outputs.config {
                scaffold.notes = crate::scaffold::suffixed_secret_notes(&ois, "");
            }
            let named =
                crate::scaffold::name_secrets(&mut scaffold.config, &mut scaffold.secrets_env, &given.secret_names);
            named.map_err(|error| problems.push(error)).ok()?;
            Some(scaffold)
        });
    diagnostics.extend(scaffold.iter().flat_map(|scaffold| scaffold.notes.iter().cloned()));
    // A record sits next to an OIS file; standard output has no "next to".
    let record_at = outputs.ois.filter(|path| writes.record && !crate::emit::is_standard_output(path));
    let record = record_at.map(|path| record_file(conversion, path, given));
    let text: Option<Text> = match &scaffold {
        Some(scaffold) if outputs.config => {
            crate::emit::to_text(&scaffold.config, format).map(Text::from).map_err(|error| problems.push(error)).ok()
        }
        _ => Some(std::mem::take(&mut conversion.text)),
    };
    // The OIS, its config and its secrets template go together: none is written without the others.
    let complete = problems.is_empty();
    diagnostics.append(&mut problems);
    let Some(text) = text.filter(|_| complete) else {
        return (false, diagnostics, summary);
    };
    if let Some(refusal) = writes.strict_refusal(&diagnostics) {
        diagnostics.push(refusal);
        return (false, diagnostics, summary);
    }
    let mut plan = Plan::new();
    let secrets_env = scaffold.map(|scaffold| scaffold.secrets_env);
    let mut kept = None;
    if let (Some(path), Some(secrets_env)) = (outputs.secrets, secrets_env) {
        let for_what = outputs
            .ois
            .filter(|p| !crate::emit::is_standard_output(p))
            .map_or_else(|| if outputs.config { "the config".to_owned() } else { "the OIS".to_owned() }, file_name);
        kept = plan_secrets(&mut plan, path, &secrets_env, &for_what, SecretsReplace::WhenForced(writes.force));
    }
    match outputs.ois {
        Some(path) if outputs.create_folder => plan.file_in_new_folder(path, text, writes.force),
        Some(path) => plan.file(path, text, writes.force),
        None => plan.stdout(text),
    };
    match record {
        Some(Ok((path, record_text))) => {
            // The record belongs to the OIS it sits next to: it is replaced with it (a link only
            // when forced).
            plan.companion(&path, record_text, writes.force);
        }
        Some(Err(error)) => {
            diagnostics.push(error);
            return (false, diagnostics, summary);
        }
        None => {}
    }
    match plan.write() {
        Ok(()) => {
            diagnostics.extend(kept);
            (true, diagnostics, summary)
        }
        Err(error) => {
            diagnostics.push(error);
            (false, diagnostics, summary)
        }
    }
}

/// A file's name, as a secrets template's header names the file it is for.
pub(super) fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |name| name.to_string_lossy().into_owned())
}

/// How a secrets template may replace a file already there.
#[derive(Clone, Copy)]
pub(super) enum SecretsReplace {
    /// Only when forced (a new scaffold).
    WhenForced(bool),
    /// A regular file always, a link only when forced: the template of an OIS being updated,
    /// which goes with it.
    Companion(bool),
}

/// Plans the secrets template `body` (headed as the secrets of `for_what`) at `path`. Replacing a
/// regular file keeps every value it holds; the note returned says which.
pub(super) fn plan_secrets(
    plan: &mut Plan,
    path: &Path,
    body: &str,
    for_what: &str,
    replace: SecretsReplace,
) -> Option<Diagnostic> {
    let replaces = matches!(replace, SecretsReplace::WhenForced(true) | SecretsReplace::Companion(_));
    let existing = (replaces && !crate::emit::is_standard_output(path))
        .then(|| crate::source::Source::read_regular(path).ok())
        .flatten();
    let filled = crate::scaffold::secrets::template(body, for_what, existing.as_ref().map(|s| s.text.as_str()));
    match replace {
        SecretsReplace::WhenForced(force) => plan.secret_file(path, filled.text, force),
        SecretsReplace::Companion(force) => plan.secret_companion(path, filled.text, force),
    };
    if filled.kept.is_empty() && filled.unknown.is_empty() {
        return None;
    }
    let mut message = format!("{}: the value of {} name(s) it held kept", path.display(), filled.kept.len());
    if !filled.unknown.is_empty() {
        message.push_str(&format!(
            "; {} name(s) this configuration does not refer to kept at its end: {}",
            filled.unknown.len(),
            filled.unknown.join(", ")
        ));
    }
    Some(Diagnostic::elsewhere(Code::SecretsKept, message))
}

/// The path and text of the conversion record next to the OIS file `output`, with `options` as
/// given: the OIS's JSON text moved in when that is the text, or written straight from the model.
fn record_file(
    conversion: &Rendered,
    output: &Path,
    options: &GivenOptions,
) -> Result<(std::path::PathBuf, String), Diagnostic> {
    use crate::update::record::{file_next_to, file_next_to_written};
    match conversion.format() {
        OutputFormat::Json => file_next_to_written(output, conversion.title(), options, &conversion.text),
        OutputFormat::Yaml => file_next_to(output, conversion.title(), options, conversion.model()),
    }
}
