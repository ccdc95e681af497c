//! `ois mock`: recorded answers served on 127.0.0.1 until stopped.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Shell;

#[derive(clap::Args)]
pub(crate) struct MockArgs {
    /// A folder of recordings (`ois call … --record DIR` writes them), or an OpenAPI document
    /// whose operations answer with their examples (or values built from their schemas).
    dir: PathBuf,
    /// The port on 127.0.0.1 (0: any free one, printed).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// With an OpenAPI document: the seed of the numbers its schemas leave open (the same seed,
    /// the same answers).
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

pub(crate) fn run_mock(args: MockArgs, shell: &Shell) -> ExitCode {
    let mock = match ois::call::mock::Mock::bind(&args.dir, args.port, args.seed) {
        Ok(mock) => mock,
        Err(error) => return shell.fail(&error),
    };
    // The address first, on its own line, for a script or a test to read.
    let _ = shell.out(&format!("http://127.0.0.1:{}\n", mock.port));
    let what = if mock.is_recorded() { "recording(s)" } else { "operation(s)" };
    shell.say(&format!(
        "serving {} {what} from {} on http://127.0.0.1:{} (Ctrl-C stops it)\n",
        mock.len(),
        args.dir.display(),
        mock.port
    ));
    mock.serve(&|line| shell.say(&format!("{line}\n")));
    ExitCode::SUCCESS
}
