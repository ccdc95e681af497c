//! A conversion's report as the studio holds it between steps. The page is sent its counts and
//! groups at once and its diagnostics only when it asks, so the studio keeps them for as long as
//! the document is open: a Graph-sized document's 47,000 took 30 MB as [`Placed`] (288 bytes each
//! before their text, and the same few help texts copied into every one), half of all the studio
//! held. Here each text is exact and each help text and file name is held once.

use std::collections::HashSet;
use std::sync::Arc;

use crate::diagnostic::{Code, Diagnostic, Document, Fix, Location, Severity};

use super::view::Placed;

/// Located diagnostics, held small; [`HeldReport::placed`] gives them back as they were.
#[derive(Debug, Default)]
pub struct HeldReport {
    items: Vec<HeldDiagnostic>,
}

/// One diagnostic: [`Diagnostic`]'s fields, its texts exact (`Box<str>`) or shared (`Arc<str>`).
#[derive(Debug)]
struct HeldDiagnostic {
    code: Code,
    severity: Severity,
    message: Box<str>,
    help: Option<Arc<str>>,
    fix: Option<Box<Fix>>,
    document: Document,
    pointer: Box<str>,
    file: Option<Arc<str>>,
    line: Option<usize>,
    column: Option<usize>,
    subject: Option<Box<str>>,
}

impl HeldReport {
    /// Holds `report` (diagnostics located, without lines: what a conversion's report is between
    /// steps; a line or an endpoint given is not held).
    pub fn new(report: Vec<Placed>) -> HeldReport {
        let mut shared: HashSet<Arc<str>> = HashSet::new();
        let mut share = |text: String| -> Arc<str> {
            if let Some(known) = shared.get(text.as_str()) {
                return Arc::clone(known);
            }
            let text: Arc<str> = text.into();
            shared.insert(Arc::clone(&text));
            text
        };
        let items = report
            .into_iter()
            .map(|placed| {
                let Diagnostic { code, severity, message, help, fix, location, subject } = placed.diagnostic;
                let Location { document, pointer, file, line, column } = location;
                HeldDiagnostic {
                    code,
                    severity,
                    message: message.into_boxed_str(),
                    help: help.map(&mut share),
                    fix: fix.map(Box::new),
                    document,
                    pointer: pointer.into_boxed_str(),
                    file: file.map(&mut share),
                    line,
                    column,
                    subject: subject.map(String::into_boxed_str),
                }
            })
            .collect();
        HeldReport { items }
    }

    /// The diagnostics held, as they were given.
    pub fn placed(&self) -> Vec<Placed> {
        self.items.iter().map(HeldDiagnostic::placed).collect()
    }

    /// Each diagnostic's code, severity and message, in order: what the report's counts and groups
    /// are made of.
    pub fn each(&self) -> impl Iterator<Item = (Code, Severity, &str)> {
        self.items.iter().map(|held| (held.code, held.severity, &*held.message))
    }
}

impl HeldDiagnostic {
    fn placed(&self) -> Placed {
        let location = Location {
            document: self.document.clone(),
            pointer: String::from(&*self.pointer),
            file: self.file.as_deref().map(String::from),
            line: self.line,
            column: self.column,
        };
        let diagnostic = Diagnostic {
            code: self.code,
            severity: self.severity,
            message: String::from(&*self.message),
            help: self.help.as_deref().map(String::from),
            fix: self.fix.as_deref().cloned(),
            location,
            subject: self.subject.as_deref().map(String::from),
        };
        Placed { diagnostic, excerpt: None, endpoint: None, part: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_held_is_given_back_as_it_was_its_repeated_texts_held_once() {
        let help = "pass --defaults to write it";
        let mut report: Vec<Diagnostic> = (0..3)
            .map(|n| {
                Diagnostic::new(Code::DefaultNotWritten, format!("/paths/~1a{n}/get"), format!("default {n}"))
                    .with_help(help)
                    .in_file("api.json".to_owned())
                    .at(n + 1, 7)
            })
            .collect();
        report[1].severity = Severity::Error;
        report[1].subject = Some("query".to_owned());
        report.push(
            Diagnostic::new(Code::TitleChanged, Location::new(Document::Referenced(2), "/info"), "a title")
                .with_fix(Fix::ChooseTitle),
        );
        report.push(Diagnostic::elsewhere(Code::BadArgument, "no help, no file"));
        let placed =
            report.iter().cloned().map(|diagnostic| Placed { diagnostic, excerpt: None, endpoint: None, part: None });
        let held = HeldReport::new(placed.collect());
        let again: Vec<Diagnostic> = held.placed().into_iter().map(|placed| placed.diagnostic).collect();
        assert_eq!(again, report);
        let each: Vec<(Code, Severity, &str)> = held.each().collect();
        assert_eq!(each[1], (Code::DefaultNotWritten, Severity::Error, "default 1"));
        // One help text and one file name for the three that share them.
        let (first, second) = (&held.items[0], &held.items[2]);
        assert!(Arc::ptr_eq(first.help.as_ref().unwrap(), second.help.as_ref().unwrap()));
        assert!(Arc::ptr_eq(first.file.as_ref().unwrap(), second.file.as_ref().unwrap()));
    }
}
