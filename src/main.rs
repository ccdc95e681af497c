//! The `ois` command line: arguments → library call → printed results → exit code.

#![allow(clippy::result_large_err)]

mod cli;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use cli::{CallArgs, ConfigArgs, ConvertArgs, EndpointIdsArgs, IdsArgs, RequestArgs, ValidateArgs};

#[derive(Parser)]
#[command(name = "ois", version, about = "OpenAPI → API3 OIS: convert, check, and preview the node's requests")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Convert an OpenAPI 3.x or Swagger 2.0 document (JSON or YAML), or a folder of them, into OIS.
    Convert(ConvertArgs),
    /// Check OIS files (an OIS object, an array of them, or a config.json) against every OIS rule.
    Validate(ValidateArgs),
    /// Show the HTTP request the node makes for an endpoint call (and, with --response, what it encodes).
    Request(RequestArgs),
    /// Make the real API call for an endpoint (or every endpoint) and show what the node would put
    /// on chain. The only command that touches the network.
    Call(CallArgs),
    /// Scaffold what a node needs next to an OIS: an Airnode Feed config, an Airnode config.json,
    /// or the config.json fragment.
    #[command(subcommand)]
    Scaffold(cli::ScaffoldCommand),
    /// Scaffold a config.json fragment (ois + apiCredentials) and a secrets.env template (the
    /// same as `ois scaffold config`).
    Config(ConfigArgs),
    /// List every endpoint with the ID Airnode and Airnode Feed derive from (title, name).
    EndpointIds(EndpointIdsArgs),
    /// Endpoint, template, beacon, OEV and beacon-set IDs; `ids verify` re-derives a config's IDs.
    Ids(IdsArgs),
    /// An endpoint's processing snippets as .js files to edit, and back into the OIS.
    #[command(subcommand)]
    Processing(cli::ProcessingCommand),
}

fn main() -> ExitCode {
    // Interrupted (Ctrl-C, SIGTERM): no half-written temporary file is left behind.
    let _ = ctrlc::set_handler(|| {
        ois::emit::remove_temporary_files();
        std::process::exit(130);
    });
    let matches = Cli::command().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    match (&mut cli.command, matches.subcommand()) {
        (Command::Request(args), Some(("request", request))) => args.inputs.keep_order(request),
        (Command::Call(args), Some(("call", call))) => args.inputs.keep_order(call),
        _ => {}
    }
    match cli.command {
        Command::Convert(args) => cli::run_convert(args),
        Command::Validate(args) => cli::run_validate(args),
        Command::Request(args) => cli::run_request(args),
        Command::Call(args) => cli::run_call(args),
        Command::Config(args) => cli::run_config(args),
        Command::Scaffold(command) => cli::run_scaffold(command),
        Command::EndpointIds(args) => cli::run_endpoint_ids(args),
        Command::Ids(args) => cli::run_ids(args),
        Command::Processing(command) => cli::run_processing(command),
    }
}
