//! `ois convert NEW --update OIS_FILE`: the update, `--check` and `--diff`.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use ois::report::{Show, counts_text, diagnostics_text};
use ois::update::{Fate, Update, UpdateOptions, record, update};
use ois::{Code, Counts, Diagnostic, Severity, Source};

use super::convert::ConvertArgs;
use super::{DiagnosticsArg, FAILURE, fail_with, in_flags, write_stdout};

pub(crate) fn run_update(args: &ConvertArgs) -> ExitCode {
    let Some(ois_path) = args.update.clone() else { return ExitCode::from(2) };
    let [input] = args.inputs.as_slice() else {
        eprintln!("error: --update takes one OpenAPI document");
        return ExitCode::from(2);
    };
    let read = |path: &std::path::Path| Source::read(path);
    let (new, ois_file) = match (read(input), read(&ois_path)) {
        (Ok(new), Ok(ois_file)) => (new, ois_file),
        (Err(error), _) | (_, Err(error)) => return fail_with(&error),
    };
    let base = match args.base.as_deref().map(read).transpose() {
        Ok(base) => base,
        Err(error) => return fail_with(&error),
    };
    let (records, record_problem) = record::read(&record::path_for(&ois_path));
    let mut options = UpdateOptions::default();
    options.given = args.given();
    options.title = args.ois_title.clone();
    options.records = records;
    let name = ois_path.display().to_string();

    let (mut diagnostics, outcome) = match update(&new, base.as_ref(), &ois_file, &options) {
        Ok(update) => (update.diagnostics.clone(), Some(update)),
        Err(failure) => (failure.diagnostics, None),
    };
    diagnostics.splice(0..0, record_problem);
    let mut ok = outcome.is_some();
    if let Some(update) = &outcome {
        let warnings = Counts::of(&diagnostics).warnings;
        if args.diff {
            print_diff(&name, &ois_file.text, &update.text);
        }
        if args.check && !update.unchanged {
            diagnostics.push(
                Diagnostic::elsewhere(
                    Code::UpdateChanges,
                    format!(
                        "{name} is not in sync with {}: the update would change it ({})",
                        input.display(),
                        tally(update)
                    ),
                )
                .with_help("run the same command without --check to update it"),
            );
            ok = false;
        } else if args.check || args.diff {
            // Nothing is written.
        } else if args.strict && warnings > 0 {
            diagnostics.push(
                Diagnostic::elsewhere(
                    Code::StrictWarnings,
                    format!("--strict: {warnings} warning(s), so nothing was written"),
                )
                .with_help("resolve the conflicts in the OIS, or run without --strict"),
            );
            ok = false;
        } else if let Err(error) = write(args, &ois_path, update) {
            diagnostics.push(error);
            ok = false;
        }
    }
    in_flags(&mut diagnostics);
    let report = match args.report {
        DiagnosticsArg::Json => {
            let report = serde_json::json!({
                "file": name,
                "status": if ok { "ok" } else { "failed" },
                "changed": outcome.as_ref().map(|u| !u.unchanged),
                "endpoints": outcome.as_ref().map(|u| &u.merged.endpoints),
                "counts": Counts::of(&diagnostics),
                "diagnostics": diagnostics,
            });
            super::json_text(&report)
        }
        DiagnosticsArg::Sarif => {
            let log = ois::report::machine::sarif(&[(name.as_str(), diagnostics.as_slice())]);
            super::json_text(&log)
        }
        DiagnosticsArg::Github => ois::report::machine::github(&name, &diagnostics),
        DiagnosticsArg::Text => {
            let style = super::style_for(std::io::stderr().is_terminal());
            let show = Show::new(if args.quiet { Severity::Error } else { Severity::Note }, args.verbose);
            let mut text = diagnostics_text(&diagnostics, show, style, None);
            if !args.quiet {
                if let Some(update) = &outcome {
                    text.push_str(&endpoint_table(update));
                    let verb = match (update.unchanged, args.check || args.diff || !ok) {
                        (true, _) => "in sync, nothing to change",
                        (false, true) => "would change, nothing was written",
                        (false, false) => "updated",
                    };
                    text.push_str(&format!("{name}: {verb} ({})\n", tally(update)));
                } else {
                    text.push_str(&format!("{name}: not updated, nothing was written\n"));
                }
                text.push_str(&counts_text(&diagnostics));
            }
            text
        }
    };
    let _ = std::io::stderr().write_all(report.as_bytes());
    if ok { ExitCode::SUCCESS } else { ExitCode::from(FAILURE) }
}

/// Writes the updated file (itself, or -o) and the record next to it.
fn write(args: &ConvertArgs, ois_path: &std::path::Path, update: &Update) -> Result<(), Diagnostic> {
    let (target, force) = match &args.output {
        Some(output) if !ois::emit::is_standard_output(output) => (output.as_path(), args.force),
        Some(_) => return write_stdout(&update.text),
        None => (ois_path, true),
    };
    ois::write_atomically(target, &update.text, force)?;
    if args.no_record { Ok(()) } else { record::write_next_to(target, update.record.clone()) }
}

/// "12 endpoints kept, 1 added, 1 removed, 2 conflicts".
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

/// Every endpoint with its ID and fate, on standard error.
fn endpoint_table(update: &Update) -> String {
    let mut table = String::new();
    for endpoint in &update.merged.endpoints {
        let fate = match endpoint.fate {
            Fate::Kept => "kept   ",
            Fate::Added => "added  ",
            Fate::Removed => "removed",
        };
        table.push_str(&format!("  {fate} {}  {}\n", endpoint.endpoint_id, endpoint.name));
    }
    table
}

/// The unified diff of the file to its update, coloured on a terminal, on standard output.
fn print_diff(name: &str, old: &str, new: &str) {
    let diff = similar::TextDiff::from_lines(old, new);
    let text = diff.unified_diff().context_radius(3).header(&format!("a/{name}"), &format!("b/{name}")).to_string();
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let text = if colour {
        text.lines()
            .map(|line| match line.as_bytes().first() {
                Some(b'+') if !line.starts_with("+++") => format!("\u{1b}[32m{line}\u{1b}[0m\n"),
                Some(b'-') if !line.starts_with("---") => format!("\u{1b}[31m{line}\u{1b}[0m\n"),
                Some(b'@') => format!("\u{1b}[36m{line}\u{1b}[0m\n"),
                _ => format!("{line}\n"),
            })
            .collect()
    } else {
        text
    };
    let _ = write_stdout(&text);
}
