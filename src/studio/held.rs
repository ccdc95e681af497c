//! Diagnostics as the studio holds them between steps: a conversion's report (the page is sent its
//! counts and groups at once and its diagnostics only when it asks) and each endpoint's problems
//! in the draft (sent when its card opens). A Graph-sized document's 47,000 took 30 MB as
//! [`Placed`] (288 bytes each before their text, the same few help texts copied into every one),
//! half of all the studio held. Here each text is exact and each help text and file name is held
//! once.

use std::collections::HashSet;
use std::sync::Arc;

use crate::diagnostic::{Code, Diagnostic, Document, Fix, Location, Severity};

use super::view::Placed;

/// Diagnostics held small; [`HeldReport::placed`] gives them back as they were.
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
    excerpt: Option<Box<str>>,
    endpoint: Option<usize>,
    part: Option<&'static str>,
}

impl HeldReport {
    /// Holds `report`.
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
                let Placed { diagnostic, excerpt, endpoint, part } = placed;
                let Diagnostic { code, severity, message, help, fix, location, subject } = diagnostic;
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
                    excerpt: excerpt.map(String::into_boxed_str),
                    endpoint,
                    part,
                }
            })
            .collect();
        HeldReport { items }
    }

    /// The diagnostics held, as they were given.
    pub fn placed(&self) -> Vec<Placed> {
        self.items.iter().map(HeldDiagnostic::placed).collect()
    }

    /// Those of `range`, as they were given; none when it is not within them.
    pub fn placed_in(&self, range: std::ops::Range<usize>) -> Vec<Placed> {
        self.items.get(range).unwrap_or_default().iter().map(HeldDiagnostic::placed).collect()
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
        let excerpt = self.excerpt.as_deref().map(String::from);
        Placed { diagnostic, excerpt, endpoint: self.endpoint, part: self.part }
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
        let placed = report.iter().cloned().enumerate().map(|(n, diagnostic)| Placed {
            diagnostic,
            excerpt: (n == 0).then(|| "  \"get\": {".to_owned()),
            endpoint: (n < 2).then_some(n),
            part: (n == 1).then_some("reserved"),
        });
        let held = HeldReport::new(placed.collect());
        let again = held.placed();
        let diagnostics: Vec<Diagnostic> = again.iter().map(|placed| placed.diagnostic.clone()).collect();
        assert_eq!(diagnostics, report);
        let rest: Vec<_> =
            again.iter().map(|placed| (placed.excerpt.as_deref(), placed.endpoint, placed.part)).collect();
        assert_eq!(rest[..2], [(Some("  \"get\": {"), Some(0), None), (None, Some(1), Some("reserved"))]);
        assert!(rest[2..].iter().all(|rest| *rest == (None, None, None)));
        assert_eq!(held.placed_in(1..3).len(), 2);
        assert!(held.placed_in(4..9).is_empty());
        let each: Vec<(Code, Severity, &str)> = held.each().collect();
        assert_eq!(each[1], (Code::DefaultNotWritten, Severity::Error, "default 1"));
        // One help text and one file name for the three that share them.
        let (first, second) = (&held.items[0], &held.items[2]);
        assert!(Arc::ptr_eq(first.help.as_ref().unwrap(), second.help.as_ref().unwrap()));
        assert!(Arc::ptr_eq(first.file.as_ref().unwrap(), second.file.as_ref().unwrap()));
    }
}
