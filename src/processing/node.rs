//! The `node` engine: the system Node.js, as the node runs snippets (placeholder).

use std::path::Path;

use super::Job;
use super::outcome::{Failure, FailureKind, Processed};

pub(super) fn run(_job: &Job<'_>, _program: Option<&Path>) -> Result<Processed, Failure> {
    Err(Failure::new(FailureKind::Engine, "not yet"))
}
