//! Stopping a run (what the CLI's SIGINT/SIGTERM handler does): temporary files being written are
//! removed and no new one is started. Its own test binary, as stopping is for the whole process.

#![allow(clippy::expect_used)] // tests fail by panicking

use std::path::Path;

#[test]
fn stopping_removes_temporary_files_and_refuses_new_writes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let target = dir.path().join("out.json");
    ois::write_atomically(&target, "{}\n", false).expect("written before stopping");
    ois::emit::remove_temporary_files();
    let refused = ois::write_atomically(&dir.path().join("later.json"), "{}\n", false);
    assert_eq!(refused.map_err(|d| d.code), Err(ois::Code::OutputWrite));
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("listing")
        .map(|entry| entry.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["out.json"], "a file already in place stays; nothing else is there");
    assert!(Path::new(&target).exists());
}
