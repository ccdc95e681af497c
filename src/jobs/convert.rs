//! `ois convert`: one document or a batch of them, or an update of an OIS file. The policy of a
//! conversion lives here once: which format, what `strict` refuses, which files go together
//! (the OIS or config fragment, its record, the secrets template) and that they are written all
//! or nothing.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::batch;
pub use super::outputs::Writes;
use super::outputs::{Outputs, write_conversion};
use crate::Failure;
use crate::convert::Summary;
use crate::convert::{GivenOptions, security_choice};
use crate::convert::{Positions, convert_rendered};
use crate::diagnostic::Show;
use crate::diagnostic::{Code, Counts, Diagnostic};
use crate::emit::OutputFormat;
use crate::source::Source;

/// Everything `ois convert` is asked to do.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ConvertJob {
    /// The documents (`-`: standard input), or folders of them. Several, or a folder: a batch.
    pub inputs: Vec<PathBuf>,
    /// Where the OIS goes (`None` or `-`: standard output); a batch's output folder.
    pub output: Option<PathBuf>,
    /// The output format; `None`: from the output's extension, else JSON.
    pub format: Option<OutputFormat>,
    /// The conversion options as given, as a record keeps them.
    pub given: GivenOptions,
    /// Where `$ref`s may reach (default: the document's folder).
    pub allow_root: Option<PathBuf>,
    /// Write the config.json fragment instead of the bare OIS.
    pub config: bool,
    /// Also write the secrets.env template here.
    pub secrets_out: Option<PathBuf>,
    /// How the outputs are written.
    pub writes: Writes,
    /// What a text report shows (so only those diagnostics are located); `None`: every
    /// diagnostic is reported, so every one is located.
    pub shown: Option<Show>,
    /// The caller's process ends right after the job (a command line): the parsed document and
    /// the model, as big as the input, are left to the process's end instead of being freed piece
    /// by piece. A caller that goes on (a library user, the studio) leaves it unset.
    pub ends_the_process: bool,
}

/// Whether a document's outputs were written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Converted and written.
    Ok,
    /// Not converted, or not written.
    Failed,
}

/// What converting one document did (`--report json` prints it).
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[non_exhaustive]
pub struct DocumentReport {
    /// The input's display name.
    pub file: String,
    /// Whether it was converted and written.
    pub status: Status,
    /// Where the OIS was written, when it was written to a file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// What the conversion kept and skipped (when written).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<Summary>,
    /// Diagnostics by severity.
    pub counts: Counts,
    /// Its diagnostics, and the file read for showing them in its text.
    #[serde(flatten)]
    pub located: crate::source::Located,
}

/// What `ois convert` did.
#[derive(Debug)]
#[non_exhaustive]
pub enum ConvertReport {
    /// One document.
    Document(Box<DocumentReport>),
    /// A batch: one result per file found.
    Batch(Vec<batch::FileResult>),
}

impl ConvertReport {
    /// Whether everything asked for was done.
    pub fn succeeded(&self) -> bool {
        match self {
            ConvertReport::Document(report) => report.status == Status::Ok,
            ConvertReport::Batch(results) => results.iter().all(|r| r.status != batch::Status::Failed),
        }
    }

    /// Every diagnostic, for naming fixes in a front end's own terms.
    pub fn diagnostics_mut(&mut self) -> Vec<&mut Diagnostic> {
        match self {
            ConvertReport::Document(report) => report.located.diagnostics.iter_mut().collect(),
            ConvertReport::Batch(results) => results.iter_mut().flat_map(|r| r.diagnostics.iter_mut()).collect(),
        }
    }
}

/// A job that could not start: the request itself is wrong (a usage error), nothing was read.
#[derive(Clone, Debug)]
pub struct Refused(pub Diagnostic);

impl ConvertJob {
    /// Whether the inputs make a batch: several, or a folder.
    pub fn is_batch(&self) -> bool {
        self.inputs.len() > 1 || self.inputs.iter().any(|i| i.is_dir())
    }

    fn output_format(&self) -> OutputFormat {
        match (self.format, &self.output) {
            (Some(format), _) => format,
            (None, Some(path)) if !self.is_batch() => OutputFormat::for_path(path),
            _ => OutputFormat::Json,
        }
    }

    fn positions(&self, min: crate::Severity) -> Positions {
        match self.shown {
            None => Positions::All,
            Some(show) => Positions::Shown(Show::new(show.min.max(min), show.per_code.is_none())),
        }
    }
}

/// Runs the conversion `job` asks for; `done` is called after each document of a batch.
pub fn run(job: &ConvertJob, done: &(dyn Fn(usize) + Sync)) -> Result<ConvertReport, Refused> {
    security_choice(&job.given.security).map_err(Refused)?;
    let given = job.given.clone().with_default_target();
    let mut options = match given.convert_options() {
        Ok(options) => options,
        Err(error) => {
            let file = job.inputs.first().map(|p| p.display().to_string()).unwrap_or_default();
            return Ok(ConvertReport::Document(Box::new(failed(file, vec![error], None))));
        }
    };
    options.allow_root = job.allow_root.clone();
    let format = job.output_format();
    if job.is_batch() {
        let Some(out_dir) = &job.output else {
            return Err(Refused(Diagnostic::elsewhere(
                Code::BadArgument,
                "converting several documents needs an output folder",
            )));
        };
        let items = batch::discover(&job.inputs, format);
        done(items.len());
        let settings = batch::Settings {
            format,
            writes: job.writes,
            positions: job.positions(crate::Severity::Error),
            given: &given,
        };
        return Ok(ConvertReport::Batch(batch::run(&items, out_dir, &options, settings, &|| done(1))));
    }
    let Some(input) = job.inputs.first() else {
        return Err(Refused(Diagnostic::elsewhere(Code::BadArgument, "no document to convert")));
    };
    Ok(ConvertReport::Document(Box::new(one(job, input, &options, &given, format))))
}

fn failed(file: String, diagnostics: Vec<Diagnostic>, source: Option<Source>) -> DocumentReport {
    DocumentReport {
        file,
        status: Status::Failed,
        output: None,
        summary: None,
        counts: Counts::of(&diagnostics),
        located: crate::source::Located::new(diagnostics, source),
    }
}

fn one(
    job: &ConvertJob,
    input: &Path,
    options: &crate::ConvertOptions,
    given: &GivenOptions,
    format: OutputFormat,
) -> DocumentReport {
    let file = input.display().to_string();
    let source = match Source::read(input) {
        Ok(source) => source,
        Err(error) => return failed(file, vec![error], None),
    };
    let converted = crate::convert::parse(&source).map_err(Failure::from).and_then(|mut root| {
        let result = convert_rendered(&source, &mut root, options, format, job.positions(crate::Severity::Note));
        if job.ends_the_process {
            std::mem::forget(root);
        }
        result
    });
    let mut conversion = match converted {
        Ok(conversion) => conversion,
        Err(failure) => return failed(file, failure.diagnostics, Some(source)),
    };
    let outputs = Outputs {
        ois: job.output.as_deref(),
        secrets: job.secrets_out.as_deref(),
        config: job.config,
        create_folder: false,
    };
    let (written, mut diagnostics, summary) = write_conversion(&mut conversion, &outputs, job.writes, given, format);
    if job.ends_the_process {
        std::mem::forget(conversion);
    }
    let output = job.output.as_ref().filter(|p| written && !crate::emit::is_standard_output(p));
    DocumentReport {
        file,
        status: if written { Status::Ok } else { Status::Failed },
        output: output.map(|p| p.display().to_string()),
        summary: summary.filter(|_| written),
        counts: Counts::of(&diagnostics),
        located: crate::source::Located::new(std::mem::take(&mut diagnostics), Some(source)),
    }
}
