//! The commands as library jobs: each takes what it is asked to do, owns every policy of doing it
//! (strictness, which OIS, which files and in what order, what its report holds), and returns a
//! typed report. A front end (the command line, the studio) only gathers the request and shows
//! the report.

pub mod batch;
pub mod convert;
mod outputs;

pub use convert::{ConvertJob, ConvertReport, DocumentReport, Refused, Status, Writes};
pub mod update;

pub use update::{UpdateJob, UpdateReport};
pub mod call;
pub mod call_config;
pub mod compare;
pub mod deploy;
pub mod endpoint;
pub mod feed;
pub mod ids;
pub mod node_config;
pub mod processing;
pub mod report_schemas;
pub mod request;
mod rrp_templates;
pub mod scaffold;
pub mod schema;
pub mod status;
pub mod validate;

/// A document's text in memory (the studio's draft), and the name its diagnostics give it (its
/// extension tells JSON from YAML): what a job reads instead of its file when given one.
#[derive(Clone, Debug)]
pub struct Held {
    /// The name.
    pub name: String,
    /// The text, shared: a draft lends it to each job without a copy.
    pub text: std::sync::Arc<str>,
}

impl Held {
    /// Its text as a source, for parsing and locating.
    pub fn source(&self) -> crate::source::Source {
        crate::source::Source::from_text(&self.name, None, self.text.to_string())
    }

    /// What a job reads: the document `held`, or else the file at `file`.
    pub(crate) fn or_read(
        held: Option<&Held>,
        file: &std::path::Path,
    ) -> Result<crate::source::Source, crate::diagnostic::Diagnostic> {
        match held {
            Some(held) => Ok(held.source()),
            None => crate::source::Source::read(file),
        }
    }
}

/// Reads `file` and gives its chosen OIS (`title` picks one of several) and the pointer to it to
/// `with`; an error, whether the choice's or `with`'s (its pointer relative to the OIS), is
/// located in the file.
pub(crate) fn with_chosen_ois<T>(
    file: &std::path::Path,
    title: Option<&str>,
    with: impl FnOnce(&serde_json::Value, &str) -> Result<T, crate::diagnostic::Diagnostic>,
) -> Result<T, crate::diagnostic::Diagnostic> {
    let source = crate::source::Source::read(file)?;
    let root = source.parse()?;
    let read = crate::ois::OisDocument::read(&root).map_err(|(_, error)| error)?;
    let located = |mut error: crate::diagnostic::Diagnostic| {
        source.locate_diagnostic(&mut error);
        error
    };
    let chosen = read.choose(title).map_err(located)?;
    with(chosen.ois, &chosen.pointer).map_err(|mut error| {
        if error.location.document == crate::diagnostic::Document::Input {
            error.location.pointer = format!("{}{}", chosen.pointer, error.location.pointer);
        }
        located(error)
    })
}
