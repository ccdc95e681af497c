//! `ois convert NEW --update OIS_FILE`: the update's report, and its diff on standard output.

use std::process::ExitCode;

use ois::jobs::{Status, UpdateReport};
use ois::report::{Show, counts_text, diagnostics_text};
use ois::update::Fate;

use super::{DiagnosticsArg, FAILURE, Shell};

/// Prints what the update did: the diff (when asked) on standard output, the report on standard
/// error; exit 1 unless it did all that was asked.
pub(crate) fn show(mut report: UpdateReport, format: DiagnosticsArg, show: Show, shell: &Shell) -> ExitCode {
    shell.settle(&mut report.diagnostics, None);
    if let Some(diff) = &report.diff {
        let _ = shell.out(&coloured(diff, shell));
    }
    let name = report.file.as_str();
    let text = match format {
        DiagnosticsArg::Json => shell.report_json(&mut report),
        DiagnosticsArg::Sarif => {
            super::json_text(&ois::report::machine::sarif(&[(name, report.diagnostics.as_slice())]))
        }
        DiagnosticsArg::Github => ois::report::machine::github(name, &report.diagnostics),
        DiagnosticsArg::Text => text(&report, show, shell),
    };
    shell.err(&text);
    if report.status == Status::Ok { ExitCode::SUCCESS } else { ExitCode::from(FAILURE) }
}

fn text(report: &UpdateReport, show: Show, shell: &Shell) -> String {
    let style = shell.style();
    let mut text = diagnostics_text(&report.diagnostics, show, style, None);
    if show.min > ois::Severity::Warning {
        return text;
    }
    match (&report.endpoints, &report.tally, report.changed) {
        (Some(endpoints), Some(tally), Some(changed)) => {
            for endpoint in endpoints {
                let fate = match endpoint.fate {
                    Fate::Kept => "kept   ",
                    Fate::Added => "added  ",
                    Fate::Removed => "removed",
                };
                text.push_str(&format!("  {fate} {}  {}\n", endpoint.endpoint_id, endpoint.name));
            }
            let file = report.file.as_str();
            let elsewhere = report.output.as_deref().filter(|output| report.written && *output != file);
            let (name, verb) = match (changed, elsewhere) {
                (false, Some(output)) => (output, format!("written from {file}, which is in sync")),
                (false, None) => (file, "in sync, nothing to change".to_owned()),
                (true, Some(output)) => (output, format!("{file} updated into it")),
                (true, None) if report.written && report.output.is_some() => (file, "updated".to_owned()),
                (true, None) if report.written => (file, "updated (on standard output)".to_owned()),
                (true, None) => (file, "would change, nothing was written".to_owned()),
            };
            text.push_str(&format!("{name}: {verb} ({tally})\n"));
        }
        _ => text.push_str(&format!("{}: not updated, nothing was written\n", report.file)),
    }
    text.push_str(&counts_text(&report.diagnostics));
    text
}

/// The diff coloured on a terminal (and never with NO_COLOR set).
fn coloured(diff: &str, shell: &Shell) -> String {
    let colour = shell.stdout_style().color;
    if !colour {
        return diff.to_owned();
    }
    diff.lines()
        .map(|line| match line.as_bytes().first() {
            Some(b'+') if !line.starts_with("+++") => format!("\u{1b}[32m{line}\u{1b}[0m\n"),
            Some(b'-') if !line.starts_with("---") => format!("\u{1b}[31m{line}\u{1b}[0m\n"),
            Some(b'@') => format!("\u{1b}[36m{line}\u{1b}[0m\n"),
            _ => format!("{line}\n"),
        })
        .collect()
}
