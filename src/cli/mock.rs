//! `ois mock`: recorded answers served on 127.0.0.1 until stopped.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::fail_with;

#[derive(clap::Args)]
pub(crate) struct MockArgs {
    /// A folder of recordings (`ois call … --record DIR` writes them).
    dir: PathBuf,
    /// The port on 127.0.0.1 (0: any free one, printed).
    #[arg(long, default_value_t = 0)]
    port: u16,
}

pub(crate) fn run_mock(args: MockArgs) -> ExitCode {
    let mock = match ois::call::mock::Mock::bind(&args.dir, args.port) {
        Ok(mock) => mock,
        Err(error) => return fail_with(&error),
    };
    // The address first, on its own line, for a script or a test to read.
    let _ = writeln!(std::io::stdout(), "http://127.0.0.1:{}", mock.port);
    let _ = std::io::stdout().flush();
    super::say(&format!(
        "serving {} recording(s) from {} on http://127.0.0.1:{} (Ctrl-C stops it)\n",
        mock.len(),
        args.dir.display(),
        mock.port
    ));
    mock.serve(&|line| super::say(&format!("{line}\n")));
    ExitCode::SUCCESS
}
