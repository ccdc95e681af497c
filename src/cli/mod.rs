//! What the subcommands share: exit codes, argument parsers, printing.

mod check;
mod convert;
mod request;
mod scaffold;

pub(crate) use check::{ValidateArgs, run_validate};
pub(crate) use convert::{ConvertArgs, run_convert};
pub(crate) use request::{RequestArgs, run_request};
pub(crate) use scaffold::{ConfigArgs, EndpointIdsArgs, run_config, run_endpoint_ids};

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::ValueEnum;

use ois::diagnostic::{Diagnostic, RenderStyle};

/// Exit code: input could not be converted (or --strict found warnings); nothing was written.
pub(crate) const FAILURE: u8 = 1;

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum ReportArg {
    Text,
    Json,
}

pub(crate) fn parse_pair(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_owned(), value.to_owned())),
        _ => Err(format!("expected NAME=VALUE, got \"{text}\"")),
    }
}

pub(crate) fn fail_with(diagnostic: &Diagnostic) -> ExitCode {
    let style = style_for(std::io::stderr().is_terminal());
    let _ = std::io::stderr().write_all((ois::diagnostic::render(diagnostic, style, None) + "\n").as_bytes());
    ExitCode::from(FAILURE)
}

/// Writes to stdout; a closed pipe (`ois convert big.json | head`) ends the output quietly.
pub(crate) fn write_stdout(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
}

/// Colours only on a terminal, and never with NO_COLOR set.
pub(crate) fn style_for(terminal: bool) -> RenderStyle {
    RenderStyle { color: terminal && std::env::var_os("NO_COLOR").is_none() }
}
