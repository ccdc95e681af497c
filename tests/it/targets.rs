//! `--target` on the scaffolds: the node a config is written for decides its version and which
//! `oisFormat` it accepts; an OIS the node would not read is refused. Without a target, a Feed
//! config is for the Feed that reads the OIS's format.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

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
    assert_eq!(config.unwrap()["nodeSettings"]["nodeVersion"], "4.6.0");
    // A release exactly: its version, as the Feed requires.
    let exact =
        ["scaffold", "feed", "--feed", "coinMarketData:coinId=string32:bitcoin", "--target", "airnode-feed@4.2.0"];
    let (output, config) = ois(&exact, "coingecko-public.json");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(config.unwrap()["nodeSettings"]["nodeVersion"], "4.2.0");
    let (output, config) = ois(&[&feed[..], &["--target", "airnode-feed@3.2.0"]].concat(), "nodary.json");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(config.unwrap()["nodeSettings"]["nodeVersion"], "3.2.0");
}

#[test]
fn without_a_target_the_feed_follows_the_ois_format() {
    // 3.0.0 → the newest Feed that reads it (4.6.0), 2.3.x → Airnode Feed 3.3.
    let (output, config) =
        ois(&["scaffold", "feed", "--feed", "coinMarketData:coinId=string32:bitcoin"], "coingecko-public.json");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(config.unwrap()["nodeSettings"]["nodeVersion"], "4.6.0");
    assert!(!stderr(&output).contains("OIS004"), "{}", stderr(&output));
    let (output, config) = ois(&["scaffold", "feed", "--feed", "feed:name=string32:BTC/USD"], "nodary.json");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(config.unwrap()["nodeSettings"]["nodeVersion"], "3.3.0");
    // A version named by hand that does not read the format is refused, as a target is.
    let (output, config) = ois(
        &["scaffold", "feed", "--feed", "coinMarketData:coinId=string32:bitcoin", "--node-version", "3.3.0"],
        "coingecko-public.json",
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(config.is_none());
    assert!(stderr(&output).contains("error[OIS004]"), "{}", stderr(&output));
    // Without a target the Airnode config.json is Airnode 0.15's, which reads 2.3.x only.
    let (output, config) = ois(&["scaffold", "airnode"], "coingecko-public.json");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(config.is_none());
}

#[test]
fn files_of_two_formats_have_no_feed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("config.json");
    let output = Command::cargo_bin("ois")
        .unwrap()
        .args(["scaffold", "feed", "--feed", "feed:name=string32:BTC/USD"])
        .arg(example("nodary.json"))
        .arg(example("coingecko-public.json"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).contains("no Airnode Feed reads both"), "{}", stderr(&output));
    assert!(!out.exists());
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

/// Each signed API pushes with its own token; replacing a filled secrets file keeps its values.
#[test]
fn each_signed_api_has_its_token_and_a_filled_secrets_file_keeps_its_values() {
    let dir = tempfile::tempdir().unwrap();
    let (out, secrets) = (dir.path().join("config.json"), dir.path().join("secrets.env"));
    std::fs::write(&secrets, "AIRNODE_WALLET_MNEMONIC='test test junk'\nFOREIGN=1\n").unwrap();
    let output = Command::cargo_bin("ois")
        .unwrap()
        .args(["scaffold", "feed", "--feed", "feed:name=string32:BTC/USD", "--force"])
        .args(["--signed-api", "eu=https://eu.example", "--signed-api", "us=https://us.example"])
        .arg(example("nodary.json"))
        .arg("-o")
        .arg(&out)
        .arg("--secrets-out")
        .arg(&secrets)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let config: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let tokens: Vec<&str> =
        config["signedApis"].as_array().unwrap().iter().map(|api| api["authToken"].as_str().unwrap()).collect();
    assert_eq!(tokens, ["${SIGNED_API_EU_AUTH_TOKEN}", "${SIGNED_API_US_AUTH_TOKEN}"]);
    let text = std::fs::read_to_string(&secrets).unwrap();
    assert!(text.starts_with("# Secrets for config.json:"), "{text}");
    assert!(text.contains("SIGNED_API_EU_AUTH_TOKEN=\n") && text.contains("SIGNED_API_US_AUTH_TOKEN=\n"), "{text}");
    assert!(text.contains("AIRNODE_WALLET_MNEMONIC=") && !text.contains("AIRNODE_WALLET_MNEMONIC=\n"), "{text}");
    assert!(text.contains("FOREIGN=1\n"), "{text}");
    assert!(stderr(&output).contains("OUT004") && stderr(&output).contains("FOREIGN"), "{}", stderr(&output));
}

/// docs/node.md's table of node versions is the one `--target` reads (src/node/target.rs):
/// `UPDATE_README=1 cargo test --test it targets` writes it again.
#[test]
fn the_node_versions_table_of_the_docs_is_the_target_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/node.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let (start, end) = ("<!-- node versions: generated -->\n", "<!-- end of node versions -->");
    let before = text.split(start).next().unwrap();
    let after = text.split(end).nth(1).unwrap();
    let expected = format!("{before}{start}{}{end}{after}", ois::node::releases_markdown());
    if std::env::var_os("UPDATE_README").is_some() {
        std::fs::write(&path, &expected).unwrap();
    }
    assert!(
        text == expected,
        "docs/node.md's node versions are out of date: run UPDATE_README=1 cargo test --test it targets"
    );
    // And `--target` names each release, the unknown ones refused with the list.
    let output =
        common::ois().args(["convert", "samples/coins.yaml", "--target", "airnode-feed@4.9.0"]).output().unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    for release in ois::node::RELEASES {
        assert!(said.contains(&release.name()), "{said}");
    }
}
