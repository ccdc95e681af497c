//! `ois`: OpenAPI documents to API3 OIS objects, OIS checks, and the node's request mapping.

// Errors are values here: a `Diagnostic` in `Err` is the point, and it is created once per failed
// item, never in a loop that its size would slow down.
#![allow(clippy::result_large_err)]

pub mod batch;
pub mod convert;
pub mod diagnostic;
pub mod ois;
pub mod openapi;
pub mod output;
pub mod pointer;
pub mod request;
pub mod scaffold;
pub mod source;
pub mod validate;
