//! Human and JSON reports of one conversion or one validated file.

use serde::Serialize;

use super::group::{Show, by_code, more_lines};
use super::render::{RenderStyle, render};
use crate::convert::Summary;
use crate::diagnostic::{Counts, Diagnostic, Severity};
use crate::source::Source;
use crate::validate::Validation;

/// What `--report json` prints for one conversion.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Report<'a> {
    /// The input's display name.
    pub file: &'a str,
    /// `ok` or `failed`.
    pub status: &'static str,
    /// Where the OIS was written, when it was written to a file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<&'a str>,
    /// What the conversion kept and skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<&'a Summary>,
    /// Diagnostics by severity.
    pub counts: Counts,
    /// Every diagnostic.
    pub diagnostics: &'a [Diagnostic],
}

/// The diagnostics `show` asks for in full, then a line for each code with more.
pub fn diagnostics_text(diagnostics: &[Diagnostic], show: Show, style: RenderStyle, source: Option<&Source>) -> String {
    let mask = show.mask(diagnostics);
    let mut out = String::new();
    for (diagnostic, _) in diagnostics.iter().zip(&mask).filter(|(_, shown)| **shown) {
        out.push_str(&render(diagnostic, style, source));
        out.push('\n');
    }
    out.push_str(&more_lines(diagnostics, &mask, show.min));
    out
}

/// The text report of a conversion: the diagnostics `show` asks for, then a one-paragraph
/// summary with the counts by severity and by code.
pub fn text_report(
    file: &str,
    diagnostics: &[Diagnostic],
    summary: Option<&Summary>,
    show: Show,
    style: RenderStyle,
    source: Option<&Source>,
) -> String {
    let mut out = diagnostics_text(diagnostics, show, style, source);
    if show.min > Severity::Warning {
        return out;
    }
    if let Some(summary) = summary {
        out.push_str(&format!("converted {file}"));
        if !summary.ois_format.is_empty() {
            out.push_str(&format!(" to OIS {}", summary.ois_format));
            if !summary.read_by.is_empty() {
                out.push_str(&format!(", read by {}", summary.read_by.join(" and ")));
            }
        }
        out.push_str(&format!(": {} operation(s) kept", summary.operations_kept));
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
    out.push_str(&counts_text(diagnostics));
    out
}

/// "1 error(s), 2 warning(s), 0 note(s)" and the counts by code, one line each.
pub fn counts_text(diagnostics: &[Diagnostic]) -> String {
    let counts = Counts::of(diagnostics);
    format!(
        "{} error(s), {} warning(s), {} note(s)\n{}",
        counts.errors,
        counts.warnings,
        counts.notes,
        by_code(diagnostics)
    )
}

/// The text report of one validated file: the diagnostics `show` asks for, then a verdict line
/// (and the counts by code).
pub fn validation_report(
    file: &str,
    validation: &Validation,
    show: Show,
    style: RenderStyle,
    source: Option<&Source>,
) -> String {
    let mut out = diagnostics_text(&validation.diagnostics, show, style, source);
    let counts = Counts::of(&validation.diagnostics);
    let verdict = if validation.is_valid() { "valid" } else { "invalid" };
    out.push_str(&format!(
        "{file}: {verdict} ({} error(s), {} warning(s), {} note(s))\n",
        counts.errors, counts.warnings, counts.notes
    ));
    if show.min <= Severity::Warning {
        out.push_str(&by_code(&validation.diagnostics));
    }
    out
}
