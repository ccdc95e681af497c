//! Every file `ois` writes: never through a link it was not told to follow, never over a file it
//! was not told to replace, never a record read from a FIFO or a device, secrets for their owner
//! only. (Hostile input, round three: the file items.)

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use std::os::unix::fs::{PermissionsExt, symlink};
use std::time::{Duration, Instant};

use common::ois;

#[test]
fn extract_never_writes_through_a_dangling_link() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let planted = dir.path().join("elsewhere/planted.sh");
    std::fs::create_dir(planted.parent().unwrap()).unwrap();
    // The feed sample's endpoint has a V2 pre-processing snippet: pre.v2.js.
    let ois_file = dir.path().join("feed.ois.json");
    let converted = ois().args(["convert", "samples/coins.yaml", "-q"]).output().unwrap();
    let mut value: serde_json::Value = serde_json::from_slice(&converted.stdout).unwrap();
    value["endpoints"][0]["preProcessingSpecificationV2"] = serde_json::json!({"environment": "Node", "timeoutMs": 1000, "value": "({ endpointParameters }) => ({ endpointParameters })"});
    std::fs::write(&ois_file, value.to_string()).unwrap();
    symlink(&planted, out.join("pre.v2.js")).unwrap();
    let endpoint = value["endpoints"][0]["name"].as_str().unwrap().to_owned();
    let output = ois()
        .args(["processing", "extract"])
        .arg(&ois_file)
        .args(["--endpoint", &endpoint, "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stderr).contains("OUT001"));
    assert!(!planted.exists(), "the link's target was created");
}

/// A project whose OIS was converted with a record next to it.
fn converted(dir: &std::path::Path) -> std::path::PathBuf {
    let output = dir.join("api.ois.json");
    let status = ois().args(["convert", "samples/coins.yaml", "-q", "-o"]).arg(&output).output().unwrap().status;
    assert!(status.success());
    output
}

#[test]
fn a_record_that_is_a_link_is_replaced_only_when_forced() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = dir.path().join("elsewhere.json");
    std::fs::write(&elsewhere, "mine").unwrap();
    let output = dir.path().join("api.ois.json");
    symlink(&elsewhere, dir.path().join("api.ois.convert.json")).unwrap();
    let run = |force: bool| {
        let mut command = ois();
        command.args(["convert", "samples/coins.yaml", "-q", "-o"]).arg(&output);
        if force {
            command.arg("--force");
        }
        command.output().unwrap()
    };
    let refused = run(false);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("symbolic link"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    assert!(!output.exists(), "the OIS was written without its record");
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "mine");
    assert!(run(true).status.success());
    assert!(std::fs::read_to_string(&elsewhere).unwrap().contains("oisConvertRecord"));
}

#[test]
fn a_record_that_is_a_fifo_or_a_device_is_never_read() {
    let dir = tempfile::tempdir().unwrap();
    let ois_file = converted(dir.path());
    let record = dir.path().join("api.ois.convert.json");
    for special in ["fifo", "zero"] {
        std::fs::remove_file(&record).unwrap();
        if special == "fifo" {
            assert!(std::process::Command::new("mkfifo").arg(&record).status().unwrap().success());
        } else {
            symlink("/dev/zero", &record).unwrap();
        }
        let started = Instant::now();
        let output = ois()
            .args(["convert", "samples/coins.yaml", "--update"])
            .arg(&ois_file)
            .args(["--check", "--report", "json"])
            .timeout(Duration::from_secs(20))
            .output()
            .unwrap();
        assert!(started.elapsed() < Duration::from_secs(15), "{special}: the record was read");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("CNV08") && stderr.contains("not a regular file"), "{special}: {stderr}");
    }
}

#[test]
fn a_secrets_file_is_its_owner_s_alone_and_others_keep_the_usual_mode() {
    let dir = tempfile::tempdir().unwrap();
    let (output, secrets) = (dir.path().join("api.ois.json"), dir.path().join("secrets.env"));
    let status = ois()
        .args(["convert", "samples/coins.yaml", "-q", "--target", "airnode@0.15", "-o"])
        .arg(&output)
        .arg("--secrets-out")
        .arg(&secrets)
        .output()
        .unwrap()
        .status;
    assert!(status.success());
    assert_eq!(std::fs::metadata(&secrets).unwrap().permissions().mode() & 0o777, 0o600);
    assert_ne!(std::fs::metadata(&output).unwrap().permissions().mode() & 0o077, 0, "the OIS is not a secret");
    let config = dir.path().join("config.json");
    let feed_secrets = dir.path().join("feed.env");
    let status = ois()
        .args(["scaffold", "airnode"])
        .arg(&output)
        .arg("-o")
        .arg(&config)
        .arg("--secrets-out")
        .arg(&feed_secrets)
        .output()
        .unwrap()
        .status;
    assert!(status.success());
    assert_eq!(std::fs::metadata(&feed_secrets).unwrap().permissions().mode() & 0o777, 0o600);
}

#[test]
fn embed_replaces_an_output_file_only_when_forced() {
    let dir = tempfile::tempdir().unwrap();
    let ois_file = converted(dir.path());
    let snippets = dir.path().join("js");
    std::fs::create_dir(&snippets).unwrap();
    std::fs::write(snippets.join("pre.v2.js"), "({ endpointParameters }) => ({ endpointParameters })\n").unwrap();
    let target = dir.path().join("out.json");
    std::fs::write(&target, "keep").unwrap();
    let value: serde_json::Value = serde_json::from_slice(&std::fs::read(&ois_file).unwrap()).unwrap();
    let endpoint = value["endpoints"][0]["name"].as_str().unwrap().to_owned();
    let run = |force: bool| {
        let mut command = ois();
        command
            .args(["processing", "embed"])
            .arg(&ois_file)
            .args(["--endpoint", &endpoint])
            .arg(&snippets)
            .arg("-o")
            .arg(&target);
        if force {
            command.arg("--force");
        }
        command.output().unwrap()
    };
    assert_eq!(run(false).status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
    let forced = run(true);
    assert!(forced.status.success(), "{}", String::from_utf8_lossy(&forced.stderr));
    assert!(std::fs::read_to_string(&target).unwrap().contains("preProcessingSpecificationV2"));
}
