//! `ois schema`: the JSON Schema of an OIS object (or of a whole node config), for editors; or of
//! every JSON report, for scripts.

use std::path::PathBuf;

use crate::diagnostic::{Code, Diagnostic};
use crate::emit::Plan;
use crate::node::Target;
use crate::ois::model::FormatFamily;

/// What `ois schema` is asked to write.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct SchemaJob {
    /// The OIS format family (`None`: the one the newest released node reads).
    pub family: Option<FormatFamily>,
    /// The schema of a whole config (its `ois` objects and `apiCredentials`).
    pub config: bool,
    /// The schema of every JSON report instead ([`super::report_schemas::document`]).
    pub reports: bool,
    /// Where (`None`: standard output).
    pub output: Option<PathBuf>,
    /// Replace the output when it exists.
    pub force: bool,
}

/// Writes the schema `job` asks for.
pub fn run(job: &SchemaJob) -> Result<(), Diagnostic> {
    let family = job.family.unwrap_or(Target::NEWEST_RELEASED.family());
    let schema = if job.reports {
        super::report_schemas::document()
    } else if job.config {
        crate::ois::schema::config_schema(family)
    } else {
        crate::ois::schema::ois_schema(family)
    };
    let text = serde_json::to_string_pretty(&schema)
        .map_err(|error| Diagnostic::elsewhere(Code::OutputWrite, error.to_string()))?
        + "\n";
    let mut plan = Plan::new();
    match &job.output {
        Some(path) => plan.file(path, text, job.force),
        None => plan.stdout(text),
    };
    plan.write()
}
