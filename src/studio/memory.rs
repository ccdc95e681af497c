//! Memory given back to the system after a step. An allocator keeps what a step freed for the
//! next one to reuse, on the thread that freed it, and an idle thread never gives it back: after
//! opening a 21 MB document the studio held 80 MB and kept 320 MB resident for as long as it ran
//! (a step of a few milliseconds afterwards changed nothing). The studio waits between steps for a
//! person; what it freed is no use to it meanwhile. Only the program knows its allocator, so it
//! says how to give memory back ([`release_memory_with`]); the studio says when.

use std::sync::OnceLock;

static RELEASE: OnceLock<fn()> = OnceLock::new();

/// Gives what the studio frees back to the system with `release`, called after each step on every
/// thread that may hold freed memory: the thread that freed it and each of the pool's (a
/// conversion parses and checks on all of them). The first call sets it; it cannot be changed.
pub fn release_memory_with(release: fn()) {
    let _ = RELEASE.set(release);
}

/// Gives freed memory back, when the program said how: on each of the pool's threads, then on
/// this one. A pool thread busy with another step's work runs it when that work is done.
pub(crate) fn release() {
    if let Some(release) = RELEASE.get().copied() {
        rayon::broadcast(|_| release());
        release();
    }
}
