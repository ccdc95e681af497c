//! `ois`: OpenAPI documents to API3 OIS objects, OIS checks, and the node's request mapping.

pub mod diagnostic;
pub mod ois;
pub mod openapi;
pub mod pointer;
pub mod source;
