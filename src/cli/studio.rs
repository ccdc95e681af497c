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
    keep_memory_in_small_pages();
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

/// The studio's memory in 4 KiB pages, not the 2 MB huge pages mimalloc asks the kernel for: a
/// huge page stays resident whole for one live block, and the kernel fills sparse regions into
/// huge pages again while the studio idles. On a 47 MB document, six edits left 193–221 MB
/// resident with them and 156–187 MB without; *Open* took 1.2 s instead of 1.8 s, an edit 7% longer
/// (bench/README.md). A conversion keeps them: it is 25% faster with them and ends at once.
fn keep_memory_in_small_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: `PR_SET_THP_DISABLE` takes no pointer; it only changes how later page faults of this
    // process are served. Where the kernel refuses, the studio runs as before.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// Gives the memory this thread's heap holds free, and any an ended thread left, back to the
/// system (mimalloc, this program's allocator, keeps it for reuse otherwise).
fn release_freed_memory() {
    // SAFETY: `mi_collect` takes no pointer and may be called on any thread at any time.
    unsafe { libmimalloc_sys::mi_collect(true) }
}
