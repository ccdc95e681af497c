//! `ois processing extract|embed`: an endpoint's snippets as `.js` files and back.

use std::path::PathBuf;
use std::process::ExitCode;

use ois::jobs::processing::Moved;

use super::Shell;

#[derive(clap::Subcommand)]
pub(crate) enum ProcessingCommand {
    /// Write each processing snippet of an endpoint to a .js file (pre.v2.js, post.v1.0.js, …),
    /// as the code the node runs: `\${` in the OIS is `${` in the file.
    #[command(after_help = "EXAMPLES:
  ois processing extract api.ois.json --endpoint feed -o snippets/feed
  ois processing extract config.json --ois 'Coin Prices' --endpoint feed -o snippets")]
    Extract(ExtractArgs),
    /// Put the .js files of a folder back into the endpoint, escaped for the node (JSON and
    /// `\${`); code that does not parse is refused.
    #[command(after_help = "EXAMPLES:
  ois processing embed api.ois.json snippets/feed --endpoint feed
  ois processing embed api.ois.json snippets/feed --endpoint feed -o edited.ois.json")]
    Embed(EmbedArgs),
}

#[derive(clap::Args)]
pub(crate) struct ExtractArgs {
    /// An OIS (JSON or YAML) or a config.json.
    file: PathBuf,
    /// The endpoint whose snippets to write.
    #[arg(long)]
    endpoint: String,
    /// The folder to write them to (created when missing).
    #[arg(short, long, value_name = "DIR")]
    output: PathBuf,
    #[command(flatten)]
    ois: super::args::OisChoice,
    /// Replace files that exist.
    #[arg(long)]
    force: bool,
}

#[derive(clap::Args)]
pub(crate) struct EmbedArgs {
    /// An OIS (JSON or YAML) or a config.json; replaced unless --output is given.
    file: PathBuf,
    /// The endpoint to put the snippets into.
    #[arg(long)]
    endpoint: String,
    /// The folder of .js files (as `extract` names them).
    dir: PathBuf,
    /// Write the result here instead of replacing FILE.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace the --output file when it exists (and write through FILE when it is a link).
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    ois: super::args::OisChoice,
}

pub(crate) fn run_processing(command: ProcessingCommand, shell: &Shell) -> ExitCode {
    match command {
        ProcessingCommand::Extract(args) => {
            match ois::jobs::processing::extract(&args.file, args.ois.title(), &args.endpoint, &args.output, args.force)
            {
                Ok(moved) => {
                    for Moved { file, pointer, .. } in moved {
                        shell.say(&format!("{} <- {pointer}\n", file.display()));
                    }
                    ExitCode::SUCCESS
                }
                Err(error) => shell.fail(&error),
            }
        }
        ProcessingCommand::Embed(args) => {
            let output = args.output.as_deref();
            match ois::jobs::processing::embed(
                &args.file,
                args.ois.title(),
                &args.endpoint,
                &args.dir,
                output,
                args.force,
            ) {
                Ok(moved) => {
                    for Moved { file, pointer, .. } in moved {
                        shell.say(&format!("{}#{pointer} <- {}\n", file.display(), args.dir.display()));
                    }
                    ExitCode::SUCCESS
                }
                Err(problems) => {
                    for problem in &problems {
                        let _ = shell.fail(problem);
                    }
                    ExitCode::from(super::FAILURE)
                }
            }
        }
    }
}
