//! The one output object of the command line, made in `main` from the global options (cargo's
//! `Shell`): everything a command shows goes through it. It names each diagnostic's fix by its
//! flag and locates it in the text it is about (settles it), leaves out what `-q` hides, renders
//! it for a terminal or not, and writes reports to standard output and the rest to standard error.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use ois::report::Diagnosed;
use ois::report::{RenderStyle, render};
use ois::{Diagnostic, Severity};

use super::{ColorArg, FAILURE, GlobalArgs};

/// Where and how the command line shows what a command did.
#[derive(Clone, Copy)]
pub(crate) struct Shell {
    quiet: bool,
    color: ColorArg,
}

impl Shell {
    /// The shell the global options (`-q`, `--color`) ask for.
    pub(crate) fn new(global: GlobalArgs) -> Shell {
        Shell { quiet: global.quiet, color: global.color }
    }

    /// Whether only errors are shown (`-q`).
    pub(crate) fn quiet(&self) -> bool {
        self.quiet
    }

    /// The least severe diagnostic shown on standard error: errors only with `-q`.
    pub(crate) fn least_shown(&self) -> Severity {
        if self.quiet { Severity::Error } else { Severity::Note }
    }

    /// Whether standard output is a terminal (where long answers are cut to a screen).
    pub(crate) fn stdout_is_terminal(&self) -> bool {
        std::io::stdout().is_terminal()
    }

    /// A progress bar on standard error, drawn only on a terminal and never with `-q`.
    pub(crate) fn progress_bar(&self) -> indicatif::ProgressBar {
        if !self.quiet && std::io::stderr().is_terminal() {
            indicatif::ProgressBar::new(0)
        } else {
            indicatif::ProgressBar::hidden()
        }
    }

    /// How text for standard error is coloured.
    pub(crate) fn style(&self) -> RenderStyle {
        self.style_for(std::io::stderr().is_terminal())
    }

    /// How text for standard output is coloured.
    pub(crate) fn stdout_style(&self) -> RenderStyle {
        self.style_for(std::io::stdout().is_terminal())
    }

    /// Colours as `--color` says: by default only on a terminal, and never with NO_COLOR set.
    fn style_for(&self, terminal: bool) -> RenderStyle {
        let color = match self.color {
            ColorArg::Always => true,
            ColorArg::Never => false,
            ColorArg::Auto => terminal && std::env::var_os("NO_COLOR").is_none(),
        };
        RenderStyle { color }
    }

    /// `diagnostics` as a report carries them: each fix named by its flag, each located in the
    /// text of `source` when it is about that file.
    pub(crate) fn settle(&self, diagnostics: &mut [Diagnostic], source: Option<&ois::Source>) {
        super::in_flags(diagnostics);
        if let Some(source) = source {
            diagnostics.iter_mut().for_each(|d| source.locate_diagnostic(d));
        }
    }

    /// Renders `diagnostics` on standard error, settled; those about the file are located in its
    /// text (those about the arguments, the secrets or a response are not). With `-q`, errors only.
    pub(crate) fn diagnostics(&self, diagnostics: &[Diagnostic], source: Option<&ois::Source>) {
        let mut shown: Vec<Diagnostic> =
            diagnostics.iter().filter(|d| !self.quiet || d.severity == Severity::Error).cloned().collect();
        self.settle(&mut shown, source);
        let style = self.style();
        let text: String = shown.iter().map(|d| render(d, style, source) + "\n").collect();
        let _ = std::io::stderr().write_all(text.as_bytes());
    }

    /// Writes `text` (what a person reads beside the output: tables, what was written) to standard
    /// error, unless `-q`.
    pub(crate) fn say(&self, text: &str) {
        if !self.quiet {
            let _ = std::io::stderr().write_all(text.as_bytes());
        }
    }

    /// Writes to standard output (a closed pipe ends it quietly).
    pub(crate) fn out(&self, text: &(impl ois::emit::Contents + ?Sized)) -> Result<(), Diagnostic> {
        ois::emit::write_stdout(text)
    }

    /// Writes `text` to standard output, the exit code success, or the failure to write.
    pub(crate) fn out_then_succeed(&self, text: &(impl ois::emit::Contents + ?Sized)) -> ExitCode {
        self.out(text).map_or_else(|error| self.fail(&error), |()| ExitCode::SUCCESS)
    }

    /// A job's report as JSON: its diagnostics settled in place first, then the report with them
    /// and their counts.
    pub(crate) fn report_json(&self, report: &mut impl Diagnosed) -> String {
        super::json_text(&self.settled_value(report))
    }

    /// [`Shell::report_json`], numbers written as the node's JavaScript writes them.
    pub(crate) fn report_js_json(&self, report: &mut impl Diagnosed) -> String {
        super::js_json_text(&self.settled_value(report))
    }

    fn settled_value(&self, report: &mut impl Diagnosed) -> serde_json::Value {
        let (diagnostics, source) = report.diagnostics_mut();
        self.settle(diagnostics, source);
        let value = super::as_value(report);
        ois::report::machine::with_diagnostics(value, report.diagnostics_mut().0)
    }

    /// A view of a report (what a call or a request shows, not the report itself) as JSON, with
    /// the report's `diagnostics`, settled, and their counts.
    pub(crate) fn json(&self, report: &impl serde::Serialize, diagnostics: &[Diagnostic]) -> String {
        let mut settled = diagnostics.to_vec();
        self.settle(&mut settled, None);
        super::json_text(&ois::report::machine::with_diagnostics(super::as_value(report), &settled))
    }

    /// `report` as JSON the way the node's JavaScript writes numbers (`JSON.stringify`), with
    /// `diagnostics`, settled (located in `source`), and their counts.
    pub(crate) fn js_json(
        &self,
        report: &impl serde::Serialize,
        diagnostics: &[Diagnostic],
        source: Option<&ois::Source>,
    ) -> String {
        let mut settled = diagnostics.to_vec();
        self.settle(&mut settled, source);
        super::js_json_text(&ois::report::machine::with_diagnostics(super::as_value(report), &settled))
    }

    /// `diagnostics` rendered for standard output (a report whose diagnostics are its output),
    /// settled and located in `source`.
    pub(crate) fn rendered_for_stdout(&self, diagnostics: &[Diagnostic], source: Option<&ois::Source>) -> String {
        let mut settled = diagnostics.to_vec();
        self.settle(&mut settled, source);
        let style = self.stdout_style();
        settled.iter().map(|d| render(d, style, source) + "\n").collect()
    }

    /// Writes `text` to standard error whatever `-q` says: a report scripts read there, what a
    /// snippet logged.
    pub(crate) fn err(&self, text: &str) {
        let _ = std::io::stderr().write_all(ois::emit::printable(text).as_bytes());
    }

    /// A mistake in the arguments clap could not see: said, exit 2 (as clap's own).
    pub(crate) fn usage_error(&self, message: &str) -> ExitCode {
        self.err(&format!("error: {message}\n"));
        ExitCode::from(2)
    }

    /// Shows `diagnostic` on standard error and fails.
    pub(crate) fn fail(&self, diagnostic: &Diagnostic) -> ExitCode {
        let mut diagnostic = diagnostic.clone();
        self.settle(std::slice::from_mut(&mut diagnostic), None);
        let _ = std::io::stderr().write_all((render(&diagnostic, self.style(), None) + "\n").as_bytes());
        ExitCode::from(FAILURE)
    }

    /// [`Shell::fail`], and with `json` the report of it on standard output (a script always has
    /// something to parse).
    pub(crate) fn fail_as(&self, diagnostic: &Diagnostic, json: bool) -> ExitCode {
        if json {
            let _ = self.out(&*self.stopped_json(std::slice::from_ref(diagnostic)));
        }
        self.fail(diagnostic)
    }

    /// The JSON report of a command that stopped before it made anything: `diagnostics`, settled,
    /// and their counts.
    pub(crate) fn stopped_json(&self, diagnostics: &[Diagnostic]) -> String {
        self.json(&serde_json::Map::new(), diagnostics)
    }
}
