//! An interrupt's sweep racing with workers that are writing: once it has run, no temporary file
//! is left and none is started (a worker that made its file between checking for the interrupt
//! and listing its file once left `.ois-*.tmp` files in 4 of 5 interrupted batches). Its own test
//! binary, as stopping is for the whole process.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail by panicking

use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn no_temporary_file_survives_a_sweep_that_races_with_writers() {
    let dir = tempfile::tempdir().expect("temp dir");
    let written = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for worker in 0..8 {
            let (dir, written) = (dir.path(), &written);
            scope.spawn(move || {
                for n in 0.. {
                    let path = dir.join(format!("w{worker}-{n}.json"));
                    if ois::write_atomically(&path, &"x".repeat(4096), false).is_err() {
                        break;
                    }
                    written.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        while written.load(Ordering::Relaxed) < 200 {
            std::thread::yield_now();
        }
        ois::emit::remove_temporary_files();
        // The CLI's handler exits here: whatever is on disk now stays.
        let at_exit = temporary_files(dir.path());
        assert!(at_exit.is_empty(), "left behind at exit: {at_exit:?}");
    });
    let after = temporary_files(dir.path());
    assert!(after.is_empty(), "made after the sweep: {after:?}");
}

fn temporary_files(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".ois-"))
        .collect()
}
