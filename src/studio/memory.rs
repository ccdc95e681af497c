//! Memory given back to the system once the studio is idle. An allocator keeps what a step freed
//! for the next one to reuse, on the thread that freed it, and an idle thread never gives it back:
//! after opening a 21 MB document the studio held 80 MB and kept 320 MB resident for as long as it
//! ran. Between steps the studio waits for a person, and what it freed is no use to it meanwhile.
//! Only the program knows its allocator, so it says how to give memory back
//! ([`release_memory_with`]); the studio says when: once no step has run for [`QUIET`], never
//! during a step or between the requests a page sends one after the other (memory given back is
//! memory the next step touches afresh, and zeroed pages cost time). It is given back on the
//! threads that can be asked to: the pool's, where every step runs ([`on_a_releasing_thread`]).

use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How long the studio has been idle before it gives memory back.
pub(crate) const QUIET: Duration = Duration::from_secs(1);

/// Whether memory was freed since it was last given back, how many steps are running, and when
/// the last one ended.
#[derive(Debug)]
struct Activity {
    freed: bool,
    running: usize,
    last: Instant,
}

struct Releaser {
    release: fn(),
    activity: Mutex<Activity>,
    changed: Condvar,
}

static RELEASER: OnceLock<Releaser> = OnceLock::new();

/// Gives what the studio frees back to the system with `release`, called once the studio is
/// idle on every thread that may hold freed memory: each of the pool's (a conversion parses and
/// checks on all of them) and one of its own, which also takes what ended threads left. The
/// first call sets it; it cannot be changed.
pub fn release_memory_with(release: fn()) {
    let activity = Activity { freed: false, running: 0, last: Instant::now() };
    if RELEASER.set(Releaser { release, activity: Mutex::new(activity), changed: Condvar::new() }).is_ok() {
        let _ = std::thread::Builder::new().name("ois studio memory".to_owned()).spawn(give_back_when_idle);
    }
}

/// Runs `work` on one of the threads memory is given back on (the pool's), this thread waiting.
/// A thread serving requests waits for the next one and cannot be asked: what a step freed there
/// stayed resident, and a page's requests are served by whichever is free, so each edit left its
/// own (a 47 MB document's studio: 239 MB resident after one edit, 293 MB after six, 10 MB more
/// with each; with its steps on the pool, 180 and 193 MB).
pub(crate) fn on_a_releasing_thread<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    rayon::scope(|_| work())
}

/// A step running: memory is not given back until it and every other has ended, [`QUIET`] ago.
#[must_use = "the step runs as long as this is held"]
pub(crate) struct Step(());

impl Step {
    pub(crate) fn start() -> Step {
        note(|activity| activity.running += 1);
        Step(())
    }
}

impl Drop for Step {
    fn drop(&mut self) {
        note(|activity| {
            activity.running = activity.running.saturating_sub(1);
            activity.freed = true;
        });
    }
}

/// Notes memory freed outside a step (a tree dropped aside).
pub(crate) fn freed() {
    note(|activity| activity.freed = true);
}

fn note(change: impl FnOnce(&mut Activity)) {
    if let Some(releaser) = RELEASER.get() {
        let mut activity = releaser.activity.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        change(&mut activity);
        activity.last = Instant::now();
        releaser.changed.notify_one();
    }
}

/// The releasing thread: waits for memory freed and [`QUIET`] without a step, then gives it back.
fn give_back_when_idle() {
    let Some(releaser) = RELEASER.get() else { return };
    let mut activity = releaser.activity.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    loop {
        let idle = activity.last.elapsed();
        activity = if !activity.freed || activity.running > 0 {
            releaser.changed.wait(activity).unwrap_or_else(|poisoned| poisoned.into_inner())
        } else if idle < QUIET {
            let waited = releaser.changed.wait_timeout(activity, QUIET.saturating_sub(idle));
            waited.unwrap_or_else(|poisoned| poisoned.into_inner()).0
        } else {
            activity.freed = false;
            drop(activity);
            rayon::broadcast(|_| (releaser.release)());
            (releaser.release)();
            releaser.activity.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
        };
    }
}
