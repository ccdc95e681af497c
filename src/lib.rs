//! `ois`: OpenAPI documents to API3 OIS objects, OIS checks, and the HTTP request an Airnode or
//! Airnode Feed makes for an endpoint call.
//!
//! OIS (Oracle Integration Specifications) is the JSON object inside a node's `config.json` that
//! describes one API's operations and the node endpoints mapped to them. This crate
//!
//! - [converts](convert()) an OpenAPI 3.x or Swagger 2.0 document into an OIS that the real node
//!   accepts, saying what it dropped and why;
//! - [validates](validate()) OIS objects and config.json files against every rule of `@api3/ois`,
//!   and the run-time traps the real tools miss;
//! - [builds the request](request::build) the node sends for an endpoint call, and
//!   [previews](request::extract_and_encode) the value it would encode from a response;
//! - runs an endpoint's [pre- and post-processing](processing) as the node does, in a sandboxed
//!   embedded JavaScript engine or the system `node`, and a whole [call](request::exchange()) with
//!   it: processed parameters, request, processed response, value;
//! - [scaffolds](scaffold) a config.json fragment and derives endpoint IDs.
//!
//! Each command of the `ois` program is a [job](jobs): it takes what the command is asked
//! ([`jobs::ConvertJob`], [`jobs::UpdateJob`], …), owns every policy of doing it (strictness,
//! which OIS of a file, which files are written, all or nothing) and returns a typed, serialisable
//! report; the command line only fills the job from its flags and shows the report. What the
//! nodes are — targets, ID derivation, secret names, what axios puts on the wire — is [`node`].
//!
//! The local web page of `ois studio` is the module `studio`, behind the `studio` feature (on by
//! default); a library user who only converts, checks and previews turns it off
//! (`default-features = false`) and builds no HTTP server.
//!
//! Every problem is a [`Diagnostic`] with a stable [`Code`], a [`Location`] (which document, a
//! JSON pointer, and a line and column when the text is at hand) and a message a person can act
//! on. Functions return them as values; nothing here prints, exits or touches the network.
//!
//! # Convert
//!
//! ```
//! use ois::{ConvertOptions, Source, convert};
//!
//! let text = r#"
//! openapi: 3.0.3
//! info: {title: Coins, version: "1.2"}
//! servers: [{url: "https://api.coins.example/v3"}]
//! paths:
//!   /price:
//!     get:
//!       operationId: price
//!       parameters: [{name: ids, in: query, required: true, schema: {type: string}}]
//! "#;
//! let source = Source::from_text("coins.yaml", None, text.to_owned());
//! let conversion = convert(&source, &ConvertOptions::default()).expect("converts");
//! assert_eq!(conversion.ois["title"], "Coins");
//! assert_eq!(conversion.ois["endpoints"][0]["name"], "price");
//! // `info.version` "1.2" became "1.2.0"; the note says so, and where.
//! let note = &conversion.diagnostics[0];
//! assert_eq!(note.code, ois::Code::VersionChanged);
//! assert_eq!((note.location.pointer.as_str(), note.location.line), ("/info/version", Some(3)));
//! ```
//!
//! # Validate
//!
//! ```
//! use ois::{Code, validate_value};
//! use serde_json::json;
//!
//! let validation = validate_value(&json!({"oisFormat": "3.0.0", "title": "T/1"}), None);
//! assert!(!validation.is_valid());
//! let codes: Vec<Code> = validation.diagnostics.iter().map(|d| d.code).collect();
//! assert!(codes.contains(&Code::BadTitle) && codes.contains(&Code::MissingField));
//! ```
//!
//! # Request
//!
//! ```
//! use ois::request::{self, RequestOptions};
//! use serde_json::json;
//!
//! let ois = json!({
//!     "oisFormat": "3.0.0", "title": "Coins", "version": "1.0.0",
//!     "apiSpecifications": {
//!         "servers": [{"url": "https://api.coins.example"}],
//!         "paths": {"/price": {"get": {"parameters": [{"in": "query", "name": "ids"}]}}},
//!         "components": {"securitySchemes": {}}, "security": {}
//!     },
//!     "endpoints": [{
//!         "name": "price", "operation": {"method": "get", "path": "/price"},
//!         "fixedOperationParameters": [], "reservedParameters": [{"name": "_type", "fixed": "int256"}],
//!         "parameters": [{"name": "coin", "operationParameter": {"in": "query", "name": "ids"}}]
//!     }]
//! });
//! let mut options = RequestOptions::new("price");
//! options.parameters.insert("coin".into(), json!("bitcoin"));
//! let built = request::build(&ois, &options).expect("builds");
//! assert_eq!(built.url, "https://api.coins.example/price?ids=bitcoin");
//! let preview = request::extract_and_encode(&json!(61234.5), &built.reserved, 0).expect("encodes");
//! assert_eq!(preview.values, [json!("61234")]);
//! ```
//!
//! # Process
//!
//! ```
//! use ois::processing::{EndpointProcessing, Engine, pre_process};
//! use serde_json::json;
//!
//! let endpoint = json!({"preProcessingSpecificationV2": {"environment": "Node", "timeoutMs": 1000,
//!     "value": "({ endpointParameters }) => ({ endpointParameters: { ids: endpointParameters.coin.toLowerCase() } })"}});
//! let processing = EndpointProcessing::of(&endpoint, "/endpoints/0");
//! let given = json!({"coin": "BTC", "_type": "int256"});
//! let processed = pre_process(&Engine::Embedded, &processing, given.as_object().unwrap()).expect("runs");
//! assert_eq!(processed.value, Some(json!({"ids": "btc", "_type": "int256"})));
//! ```

// Errors are values here: a `Diagnostic` in `Err` is the point, and it is created once per failed
// item, never in a loop that its size would slow down.
#![allow(clippy::result_large_err)]
#![deny(missing_docs)]

pub mod call;
pub mod convert;
mod diagnostic;
pub mod edit;
pub mod emit;
pub mod jobs;
pub mod js;
pub mod node;
mod ois;
mod openapi;
mod parallel;
mod pointer;
pub mod processing;
pub mod report;
pub mod request;
pub mod scaffold;
mod source;
#[cfg(feature = "studio")]
pub mod studio;
#[cfg(test)]
mod testing;
pub mod update;
pub mod validate;

pub use convert::{Conversion, ConvertOptions, Failure, Filter, Summary, convert, convert_value};
pub use diagnostic::{Code, Counts, Diagnostic, Document, Fix, Location, Severity, Stage};
pub use emit::{OutputFormat, to_text, write_atomically};
/// Feeds by name: the production `feed` endpoint's tables, read and written.
pub use ois::feeds;
pub use ois::model::{FormatFamily, Method, RESERVED_NAMES};
pub use ois::rules::check as check_ois;
pub use ois::rules::placeholders;
pub use ois::schema;
pub use ois::templates::escape as escape_templates;
pub use ois::{Chosen, DocumentKind, OisDocument, oises_in_file, oises_in_files};
pub use source::{Format as SourceFormat, Interest, MAX_DEPTH, Reading, STDIN_NAME, Source};
pub use validate::{Validation, validate, validate_value, verify_ids};
