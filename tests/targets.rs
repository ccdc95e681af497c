//! `--target` on the scaffolds: the node a config is written for decides its version and which
//! `oisFormat` it accepts; an OIS the node would not read is refused (and, without a target,
//! warned about).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

mod common;

use std::path::PathBuf;
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

/// nodary.json is OIS 2.3.0, coingecko-public.json 3.0.0.
fn example(name: &str) -> PathBuf {
    common::shared_dir().join("examples/ois").join(name)
}

fn ois(args: &[&str], file: &str) -> (Output, Option<Value>) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("config.json");
    let output = Command::cargo_bin("ois").unwrap().args(args).arg(example(file)).arg("-o").arg(&out).output().unwrap();
    let written = std::fs::read_to_string(&out).ok().map(|text| serde_json::from_str(&text).unwrap());
    (output, written)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn feed_targets_set_the_node_version_and_the_format_it_reads() {
    let feed = ["scaffold", "feed", "--feed", "feed:name=string32:BTC/USD"];
    let (output, config) = ois(&[&feed[..], &["--target", "airnode-feed@3"]].concat(), "nodary.json");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(config.unwrap()["nodeSettings"]["nodeVersion"], "3.3.0");

    let (output, config) = ois(&[&feed[..], &["--target", "airnode-feed@4"]].concat(), "nodary.json");
    assert_eq!(output.status.code(), Some(1));
    assert!(config.is_none(), "nothing is written");
    let message = stderr(&output);
    assert!(message.contains("OIS004") && message.contains("reads only 3.0.x"), "{message}");

    let single = ["scaffold", "feed", "--feed", "coinMarketData:coinId=string32:bitcoin", "--target", "airnode-feed@4"];
    let (output, config) = ois(&single, "coingecko-public.json");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(config.unwrap()["nodeSettings"]["nodeVersion"], "4.0.0");
    assert!(stderr(&output).contains("not released yet"), "{}", stderr(&output));
}

#[test]
fn without_a_target_a_format_the_node_does_not_read_is_a_warning() {
    let (output, config) =
        ois(&["scaffold", "feed", "--feed", "coinMarketData:coinId=string32:bitcoin"], "coingecko-public.json");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(config.is_some());
    assert!(stderr(&output).contains("warning[OIS004]"), "{}", stderr(&output));
}

#[test]
fn airnode_and_fragment_targets_refuse_what_the_node_does_not_read() {
    let (output, config) = ois(&["scaffold", "airnode", "--target", "airnode@0.15"], "nodary.json");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(config.unwrap()["nodeSettings"]["nodeVersion"], "0.15.0");
    let (output, _) = ois(&["scaffold", "airnode", "--target", "airnode@0.15"], "coingecko-public.json");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));

    for (target, file, ok) in [
        ("airnode-feed@4", "nodary.json", false),
        ("airnode@next", "coingecko-public.json", true),
        ("airnode@0.15", "coingecko-public.json", false),
        ("airnode-feed@3", "nodary.json", true),
    ] {
        let (output, config) = ois(&["scaffold", "config", "--target", target], file);
        assert_eq!(output.status.success(), ok, "{target} {file}: {}", stderr(&output));
        assert_eq!(config.is_some(), ok);
    }
}

#[test]
fn a_node_that_cannot_take_the_config_is_a_usage_error() {
    for args in [
        &["scaffold", "feed", "--feed", "feed:name=string32:BTC/USD", "--target", "airnode@0.15"][..],
        &["scaffold", "airnode", "--target", "airnode@next"],
        &[
            "scaffold",
            "feed",
            "--feed",
            "feed:name=string32:BTC/USD",
            "--target",
            "airnode-feed@3",
            "--node-version",
            "3.1.0",
        ],
    ] {
        let (output, config) = ois(args, "nodary.json");
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
        assert!(config.is_none());
    }
}
