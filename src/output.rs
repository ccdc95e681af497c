//! Writing results: OIS text in JSON or YAML, atomic file writes that never clobber by accident,
//! and the conversion report (text or JSON) for stderr.

use std::io::Write;
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::convert::Summary;
use crate::diagnostic::{Code, Counts, Diagnostic, RenderStyle, Severity, render};
use crate::source::Source;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    Json,
    Yaml,
}

impl OutputFormat {
    /// YAML for `.yaml`/`.yml` paths, JSON otherwise.
    pub fn for_path(path: &Path) -> OutputFormat {
        match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("yaml" | "yml") => OutputFormat::Yaml,
            _ => OutputFormat::Json,
        }
    }
}

/// The document as text: pretty JSON (2 spaces) or YAML, always ending in a newline.
pub fn to_text(value: &Value, format: OutputFormat) -> Result<String, Diagnostic> {
    model_text(value, format)
}

/// Anything serializable as the same text `to_text` gives for its `Value` (the typed OIS model
/// serializes its fields in the same order, so the bytes are identical).
pub fn model_text<T: Serialize>(value: &T, format: OutputFormat) -> Result<String, Diagnostic> {
    let text = match format {
        OutputFormat::Json => serde_json::to_string_pretty(value).map(|mut s| {
            s.push('\n');
            s
        }),
        OutputFormat::Yaml => yaml_serde::to_string(value).map_err(|e| serde_json::Error::io(std::io::Error::other(e))),
    };
    text.map_err(|err| Diagnostic::new(Code::OutputWrite, "", format!("cannot serialize the output: {err}")))
}

/// Writes `text` to `path` through a temporary file in the same folder and a rename, so a failed
/// or interrupted run leaves either the old file or the new one, never a partial one. Without
/// `force` an existing file is an error, checked atomically at the rename.
pub fn write_atomically(path: &Path, text: &str, force: bool) -> Result<(), Diagnostic> {
    let name = path.display();
    let exists_error = || {
        Diagnostic::new(Code::OutputExists, "", format!("{name} already exists; nothing was written"))
            .with_help("pass --force to replace it")
    };
    if !force && path.exists() {
        return Err(exists_error());
    }
    let write_error =
        |err: std::io::Error| Diagnostic::new(Code::OutputWrite, "", format!("cannot write {name}: {err}"));
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut temp = tempfile::Builder::new().prefix(".ois-").suffix(".tmp").tempfile_in(dir).map_err(write_error)?;
    temp.write_all(text.as_bytes()).map_err(write_error)?;
    temp.as_file().sync_all().map_err(write_error)?;
    if force {
        temp.persist(path).map_err(|e| write_error(e.error))?;
    } else {
        temp.persist_noclobber(path).map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists { exists_error() } else { write_error(e.error) }
        })?;
    }
    Ok(())
}

/// What `--report json` prints for one conversion.
#[derive(Serialize)]
pub struct Report<'a> {
    pub file: &'a str,
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<&'a Summary>,
    pub counts: Counts,
    pub diagnostics: &'a [Diagnostic],
}

/// The text report: every diagnostic at or above `min`, then a one-paragraph summary.
pub fn text_report(
    file: &str,
    diagnostics: &[Diagnostic],
    summary: Option<&Summary>,
    min: Severity,
    style: RenderStyle,
    source: Option<&Source>,
) -> String {
    let mut out = String::new();
    for diagnostic in diagnostics.iter().filter(|d| d.severity >= min) {
        out.push_str(&render(diagnostic, style, source));
        out.push('\n');
    }
    if min > Severity::Warning {
        return out;
    }
    let counts = Counts::of(diagnostics);
    if let Some(summary) = summary {
        out.push_str(&format!("converted {file}: {} operation(s) kept", summary.operations_kept));
        let skipped = summary.skipped_total();
        if skipped > 0 {
            let reasons: Vec<String> = summary.operations_skipped.iter().map(|(r, n)| format!("{n} {r}")).collect();
            out.push_str(&format!(", {skipped} skipped ({})", reasons.join(", ")));
        }
        out.push_str(&format!("; {} parameter(s)", summary.parameters));
        if summary.security_schemes.is_empty() {
            out.push_str("; no security schemes");
        } else {
            out.push_str(&format!("; security: {}", summary.security_schemes.join(", ")));
        }
        out.push('\n');
    } else {
        out.push_str(&format!("{file}: nothing was written\n"));
    }
    out.push_str(&format!("{} error(s), {} warning(s), {} note(s)\n", counts.errors, counts.warnings, counts.notes));
    out
}

/// The text report of one validated file: its diagnostics, then a verdict line.
pub fn validation_report(
    file: &str,
    validation: &crate::validate::Validation,
    min: Severity,
    style: RenderStyle,
    source: Option<&Source>,
) -> String {
    let mut out = String::new();
    for diagnostic in validation.diagnostics.iter().filter(|d| d.severity >= min) {
        out.push_str(&render(diagnostic, style, source));
        out.push('\n');
    }
    let counts = Counts::of(&validation.diagnostics);
    let verdict = if validation.is_valid() { "valid" } else { "invalid" };
    out.push_str(&format!(
        "{file}: {verdict} ({} error(s), {} warning(s), {} note(s))\n",
        counts.errors, counts.warnings, counts.notes
    ));
    out
}
