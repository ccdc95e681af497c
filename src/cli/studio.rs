//! `ois studio`: the local web page over the library's jobs.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use ois::studio::Started;

use super::Shell;

#[derive(Args)]
pub(crate) struct StudioArgs {
    /// An OpenAPI document, an OIS or a node config to open; the studio reads and writes only in
    /// its folder (without one: the current folder).
    file: Option<PathBuf>,
    /// The port on 127.0.0.1 (0: any free one).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Print the page's address without opening a browser.
    #[arg(long)]
    no_open: bool,
}

pub(crate) fn run_studio(args: StudioArgs, shell: &Shell) -> ExitCode {
    purge_freed_memory_at_once();
    ois::studio::release_memory_with(release_freed_memory);
    let Started { server, studio, problems } = match ois::studio::start(args.file.as_deref(), args.port) {
        Ok(started) => started,
        Err(error) => return shell.fail(&error),
    };
    shell.diagnostics(&problems, None);
    let url = studio.url();
    // The address is the key to the page: printed for the user alone, on their terminal.
    let _ = shell.out(&format!("ois studio: {url}\n(only this machine can reach it; stop it with Ctrl-C)\n"));
    if !args.no_open && webbrowser::open(&url).is_err() {
        shell.err("no browser could be opened: open the address above\n");
    }
    ois::studio::serve(&studio, &server, &|line| shell.err(&format!("{line}\n")));
    ExitCode::SUCCESS
}

/// `mi_option_purge_delay` (mimalloc.h, v2): how long mimalloc keeps freed memory before it purges
/// it (10 ms by default). The crate names no constant for it.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// The studio's steps free trees of hundreds of MB that the next step does not reuse: purged at
/// once, a 47 MB document's studio peaked at 1.13 GB instead of 1.75–1.86 and kept 0.71 GB
/// resident instead of 1.34–1.37, its steps as fast (bench/README.md).
fn purge_freed_memory_at_once() {
    // SAFETY: `mi_option_set` takes no pointer and may be called at any time.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) }
}

/// Gives the memory this thread's heap holds free, and any an ended thread left, back to the
/// system (mimalloc, this program's allocator, keeps it for reuse otherwise).
fn release_freed_memory() {
    // SAFETY: `mi_collect` takes no pointer and may be called on any thread at any time.
    unsafe { libmimalloc_sys::mi_collect(true) }
}
