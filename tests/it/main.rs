//! Every integration test but one, in one binary (one link instead of one per file): each module
//! is what was a test file of its own, named for what it tests; `common` is what they share. Run
//! one with `cargo test --test it MODULE` (`cargo test --test it diagnostic_codes`).
//!
//! `tests/interrupt.rs` and `tests/interrupt_race.rs` stay binaries of their own: stopping (what
//! Ctrl-C does) is for the whole process, and every write of the other tests would be refused
//! after it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

mod common;

mod architecture;
mod bad_input;
mod batch_values;
mod call;
mod call_config;
mod cli;
mod console_examples;
mod corpus;
mod credential_parameter;
mod deploy;
mod diagnostic_codes;
mod endpoint;
mod feeds;
mod fidelity;
mod file_writes;
mod interop;
mod interop_adapter;
mod interop_config;
mod interop_deploy;
mod interop_feed_config;
mod interop_feed_node;
mod interop_feed_skip;
mod interop_feeds;
mod interop_ids;
mod interop_processing;
mod interop_rpc_feeds;
mod interop_rrp;
mod interop_scaffold;
mod interop_secrets;
mod interop_sent;
mod interop_yaml;
mod job_reports;
mod mock_server;
mod multi_file;
mod node_secrets;
mod npm_package;
mod post_feeds;
mod processing_cli;
mod real_ois_examples;
mod record_replay;
mod reports;
mod rpc_feeds;
mod samples;
mod schema;
mod shell;
mod studio;
mod studio_browser;
mod targets;
mod update;
mod validate_parse;
