//! `ois`: OpenAPI documents to API3 OIS objects, OIS checks, and the node's request mapping.

pub mod convert;
pub mod diagnostic;
pub mod ois;
pub mod openapi;
pub mod output;
pub mod pointer;
pub mod source;
