//! The `ois` command line: arguments → library call → printed results → exit code.

#![allow(clippy::result_large_err)]

mod cli;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use cli::{CallArgs, ConfigArgs, ConvertArgs, EndpointIdsArgs, IdsArgs, RequestArgs, ValidateArgs};

/// A conversion makes and frees millions of small strings and maps, many of them on worker
/// threads; glibc's malloc spent about a quarter of a big conversion's CPU on them, growing its
/// arenas a page at a time. mimalloc parses Kubernetes' 4 MB document in half the time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "ois", version, about = "OpenAPI → API3 OIS: convert, check, and preview the node's requests")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    global: cli::GlobalArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Convert an OpenAPI 3.x or Swagger 2.0 document (JSON or YAML), or a folder of them, into OIS.
    #[command(after_help = "EXAMPLES:
  ois convert api.yaml                         OIS on standard output, the report on standard error
  ois convert api.yaml -o api.ois.json         write it (refuses to replace without --force)
  ois convert api.yaml --include 'GET /coins/{id}' --server https://pro-api.example.com
  ois convert specs/ -o out/                   a folder of documents, on every core
  ois convert api.yaml --report json -q        every diagnostic as JSON, for scripts
  ois convert api-v2.yaml --update api.ois.json --diff     what the API's new version changes
  ois convert api-v2.yaml --update api.ois.json --check    in CI: exit 1 when the OIS is behind")]
    Convert(ConvertArgs),
    /// Check OIS files (an OIS object, an array of them, or a config.json) against every OIS rule.
    #[command(after_help = "EXAMPLES:
  ois validate api.ois.json                    every OIS rule, snippets read with the engine
  ois validate config.json                     a whole Airnode config.json or Airnode Feed config
  ois validate api.ois.json --ois-format 2.3   as the OIS format Airnode 0.15 reads")]
    Validate(ValidateArgs),
    /// Show the HTTP request the node makes for an endpoint call (and, with --response, what it encodes).
    #[command(after_help = "EXAMPLES:
  ois request api.ois.json --endpoint price --param coinId=bitcoin
  ois request feed.ois.json --endpoint feed --param name=BTC/USD --response sample.json
  ois request config.json --endpoint price --secrets secrets.env --format curl
  ois request api.ois.json --endpoint price --engine node      (snippets unsandboxed)")]
    Request(RequestArgs),
    /// Make the real API call for an endpoint (or every endpoint) and show what the node would put
    /// on chain. The only command that touches the network.
    #[command(after_help = "EXAMPLES:
  ois call api.ois.json --endpoint price --param coinId=bitcoin --secrets secrets.env
  ois call config.json --all --jobs 8                every endpoint with its examples, a summary table
  ois call config.json --all --format json           the same, for scripts (exit 1 unless all ok)
  ois call config.json --record answers/             call, and keep each exchange (no credentials)
  ois call config.json --replay answers/             the same values from the recordings: nothing sent
  ois call config.json --check answers/ --format sarif   in a scheduled CI job: exit 1 when an answer drifted")]
    Call(CallArgs),
    /// Check a running deployment: every beacon of an Airnode Feed config pushed to its Signed API,
    /// fresh, signed by the config's Airnode, and equal to what the API says now.
    #[command(after_help = "EXAMPLES:
  ois status airnode-feed/config/airnode-feed.json --secrets airnode-feed/config/secrets.env \\
      --signed-api-secrets signed-api/config/secrets.env
  ois status config.json --secrets secrets.env --signed-api-secrets signed-api.env --tolerance 0.5% --format sarif
  ois status config.json --secrets secrets.env --signed-api-secrets signed-api.env --watch 30")]
    Status(cli::StatusArgs),
    /// Serve recorded answers (`ois call … --record DIR` makes them), or answers made from an
    /// OpenAPI document, on 127.0.0.1: a call, a node or CI runs without the vendor. The one command besides `call` and `studio` that opens a socket.
    #[cfg(feature = "mock")]
    #[command(after_help = "EXAMPLES:
  ois mock answers/ --port 8701                 serve them; point a call or a config at it:
  ois call config.json --server http://127.0.0.1:8701 --secrets secrets.env
  ois mock api.yaml --seed 7                    answers made from the document's examples and schemas")]
    Mock(cli::MockArgs),
    /// Scaffold what a node needs next to an OIS: an Airnode Feed config, an Airnode config.json,
    /// or the config.json fragment.
    #[command(
        subcommand,
        after_help = "EXAMPLES:
  ois scaffold feed feed.ois.json --feed feed:name=string32:BTC/USD --feed feed:name=string32:ETH/USD --batch -o config.json --secrets-out secrets.env
  ois scaffold airnode api.ois.json --http -o config.json --secrets-out secrets.env
  ois scaffold config api.ois.json -o fragment.json"
    )]
    Scaffold(cli::ScaffoldCommand),
    /// Scaffold a config.json fragment (ois + apiCredentials) and a secrets.env template (the
    /// same as `ois scaffold config`).
    #[command(after_help = "EXAMPLES:
  ois config api.ois.json -o fragment.json --secrets-out secrets.env")]
    Config(ConfigArgs),
    /// List every endpoint with the ID Airnode and Airnode Feed derive from (title, name).
    #[command(after_help = "EXAMPLES:
  ois endpoint-ids config.json --format json")]
    EndpointIds(EndpointIdsArgs),
    /// Endpoint, template, beacon, OEV and beacon-set IDs; `ids verify` re-derives a config's IDs.
    #[command(after_help = "EXAMPLES:
  ois ids feed.ois.json --template feed:name=string32:BTC/USD --airnode 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266
  ois ids feed.ois.json --templates feeds.json --mnemonic-env AIRNODE_WALLET_MNEMONIC --set
  ois ids config.json --template price:coinId=string32:bitcoin --secrets secrets.env --sponsor 0xSPONSOR
                                               RRP: each template's createTemplate call, the sponsor's wallet
  ois ids verify config.json                   exit 1 when an ID is not derived from what it names")]
    Ids(IdsArgs),
    /// Shell completions for ois (bash, zsh, fish, powershell, elvish) on standard output.
    #[command(after_help = "EXAMPLES:
  ois completions bash > ~/.local/share/bash-completion/completions/ois
  ois completions zsh > ~/.zfunc/_ois          (with fpath+=~/.zfunc before compinit)
  ois completions fish > ~/.config/fish/completions/ois.fish")]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// The manual page (roff) on standard output, or one page per command into a folder.
    #[command(after_help = "EXAMPLES:
  ois man | man -l -                           read it now
  ois man --dir ~/.local/share/man/man1        ois.1 and ois-convert.1, ois-request.1, ...")]
    Man {
        /// Write ois.1 and a page per command (ois-convert.1, …) into this folder.
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
        /// With --dir: also replace a page that is a link (written through it).
        #[arg(long, requires = "dir")]
        force: bool,
    },
    /// The JSON Schema (draft 2020-12) of an OIS object, or of a node config, for editors.
    #[command(after_help = "EXAMPLES:
  ois schema -o ois.schema.json                OIS 3.0.x (Airnode Feed 4, Airnode next)
  ois schema --target airnode-feed@3 -o ois.schema.json
  ois schema --config --ois-format 2.3 -o config.schema.json")]
    Schema(cli::SchemaArgs),
    /// The whole loop in a local web page: open, convert, refine, preview, call, build a node
    /// config, save, update. Served on 127.0.0.1 only, behind a token in its address.
    #[command(after_help = "EXAMPLES:
  ois studio api.yaml                 convert a vendor's document and refine it in the browser
  ois studio api.ois.json --port 8700
  ois studio --no-open                print the address only (files: the current folder)")]
    #[cfg(feature = "studio")]
    Studio(cli::StudioArgs),
    /// An endpoint's processing snippets as .js files to edit, and back into the OIS.
    #[command(
        subcommand,
        after_help = "EXAMPLES:
  ois processing extract feed.ois.json --endpoint feed -o snippets/
  ois processing embed feed.ois.json --endpoint feed snippets/"
    )]
    Processing(cli::ProcessingCommand),
    /// Refine an OIS without editing JSON: list, add, set, rm and keep endpoints, in place.
    #[command(
        subcommand,
        after_help = "EXAMPLES:
  ois endpoint list api.ois.json
  ois endpoint set api.ois.json getPrice --rename price --reserved _type=int256 --reserved _path=price --reserved _times=1e18
  ois endpoint add api.ois.json feed --operation 'GET /rates' --param base:drop --post pick.js
  ois endpoint set api.ois.json price --fixed currency=usd --param symbol:required --dry-run
  ois endpoint keep api.ois.json 'GET /price' feed
  ois endpoint set config.json price --rename spot      (a Feed config's templates and triggers follow)"
    )]
    Endpoint(cli::EndpointCommand),
    /// Feeds by name: API3's production `feed` endpoint (one endpoint, every data feed by its
    /// name), made, kept, batched, imported from and exported to data-feed blueprints.
    #[command(
        subcommand,
        after_help = "EXAMPLES:
  ois feed add api.ois.json BTC/USD --operation 'GET /simple/price' --param ids=bitcoin --param vs_currencies=usd --value bitcoin.usd
  ois feed list api.ois.json
  ois feed batch api.ois.json BTC/USD ETH/USD
  ois feed import api.ois.json data-feed-blueprints/
  ois request api.ois.json --feed BTC/USD"
    )]
    Feed(cli::FeedCommand),
    /// What a diagnostic code means, why it matters and how to fix it, with an example.
    #[command(after_help = "EXAMPLES:
  ois explain OIS076
  ois explain              every code, its severity and what it is about")]
    Explain {
        /// The code, e.g. OIS076 or cnv030.
        code: Option<String>,
    },
}

/// The manual: `ois.1` on standard output, or it and a page per command into `dir` (existing
/// pages are replaced; written all or nothing).
fn man(dir: Option<&std::path::Path>, force: bool, shell: &cli::Shell) -> ExitCode {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let mut pages = Vec::new();
    if let Err(error) = man_pages(command, &mut pages) {
        return shell.fail(&ois::Diagnostic::elsewhere(ois::Code::OutputWrite, error.to_string()));
    }
    let written = match dir {
        // The root page is rendered last (after its subcommands'), as clap_mangen does.
        None => pages.pop().map_or(Ok(()), |(_, page)| shell.out(&page)),
        Some(dir) => {
            let mut plan = ois::emit::Plan::new();
            for (name, page) in pages {
                // An existing page is replaced when it is a regular file; a link there (which could
                // lead anywhere) only when forced: otherwise nothing is written.
                plan.companion(&dir.join(name), page, force);
            }
            plan.write()
        }
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => shell.fail(&error),
    }
}

/// Every page of `command` and its subcommands (theirs first), each with its file name.
fn man_pages(command: clap::Command, pages: &mut Vec<(String, String)>) -> std::io::Result<()> {
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()).cloned() {
        man_pages(sub, pages)?;
    }
    let man = clap_mangen::Man::new(command);
    let mut page = Vec::new();
    man.render(&mut page)?;
    pages.push((man.get_filename(), String::from_utf8_lossy(&page).into_owned()));
    Ok(())
}

fn main() -> ExitCode {
    // Interrupted (Ctrl-C, SIGTERM) while writing: no half-written temporary file is left behind.
    ois::emit::before_first_write(|| {
        let _ = ctrlc::set_handler(|| {
            ois::emit::remove_temporary_files();
            std::process::exit(130);
        });
    });
    let matches = Cli::command().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    match (&mut cli.command, matches.subcommand()) {
        (Command::Request(args), Some(("request", request))) => args.inputs.keep_order(request),
        (Command::Call(args), Some(("call", call))) => args.inputs.keep_order(call),
        _ => {}
    }
    let shell = cli::Shell::new(cli.global);
    let shell = &shell;
    match cli.command {
        Command::Convert(args) => cli::run_convert(args, shell),
        Command::Validate(args) => cli::run_validate(args, shell),
        Command::Request(args) => cli::run_request(args, shell),
        Command::Call(args) => cli::run_call(args, shell),
        Command::Status(args) => cli::run_status(args, shell),
        Command::Config(args) => cli::run_config(args, shell),
        Command::Scaffold(command) => cli::run_scaffold(command, shell),
        Command::EndpointIds(args) => cli::run_endpoint_ids(args, shell),
        Command::Ids(args) => cli::run_ids(args, shell),
        #[cfg(feature = "mock")]
        Command::Mock(args) => cli::run_mock(args, shell),
        Command::Schema(args) => cli::run_schema(args, shell),
        #[cfg(feature = "studio")]
        Command::Studio(args) => cli::run_studio(args, shell),
        Command::Completions { shell } => {
            let mut command = Cli::command();
            clap_complete::generate(shell, &mut command, "ois", &mut std::io::stdout());
            ExitCode::SUCCESS
        }
        Command::Man { dir, force } => man(dir.as_deref(), force, shell),
        Command::Processing(command) => cli::run_processing(command, shell),
        Command::Endpoint(command) => cli::run_endpoint(command, shell),
        Command::Feed(command) => cli::run_feed(command, shell),
        Command::Explain { code } => cli::run_explain(code.as_deref(), shell),
    }
}
