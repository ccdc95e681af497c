//! Where the shell meets the tool: completions for every shell, the manual, and an EXAMPLES
//! section in every command's help — all from the same clap definitions.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use assert_cmd::Command;

fn ois(args: &[&str]) -> String {
    let output = Command::cargo_bin("ois").unwrap().args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// The commands `ois --help` lists.
fn commands() -> Vec<String> {
    let help = ois(&["--help"]);
    let listed = help.split("Commands:").nth(1).unwrap().split("Options:").next().unwrap();
    listed
        .lines()
        .filter_map(|line| line.strip_prefix("  ")?.split_whitespace().next().map(str::to_owned))
        .filter(|name| name != "help")
        .collect()
}

#[test]
fn completions_for_every_shell_know_every_command() {
    let commands = commands();
    assert!(commands.len() >= 11, "{commands:?}");
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = ois(&["completions", shell]);
        for command in &commands {
            assert!(script.contains(command.as_str()), "{shell} completions lack {command}");
        }
        // Options are spelled `--engine` or (fish) `-l engine`.
        assert!(script.contains("endpoint") && script.contains("engine") && script.contains("mnemonic-env"), "{shell}");
    }
}

#[test]
fn the_manual_has_a_page_per_command() {
    let page = ois(&["man"]);
    assert!(page.contains(".TH ois 1"), "{page}");
    let dir = tempfile::tempdir().unwrap();
    ois(&["man", "--dir", dir.path().to_str().unwrap()]);
    for command in commands() {
        let page = dir.path().join(format!("ois-{command}.1"));
        assert!(page.exists(), "{} missing", page.display());
    }
}

#[test]
fn every_command_has_examples_in_its_help() {
    for command in commands() {
        let help = ois(&[command.as_str(), "--help"]);
        assert!(help.contains("EXAMPLES:\n  ois "), "{command} --help has no EXAMPLES");
    }
}
