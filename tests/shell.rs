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

/// `ois man --dir` replaces its own pages, but never writes through a link there (which could
/// lead anywhere) unless forced: nothing is written, the link's target untouched.
#[cfg(unix)]
#[test]
fn the_manual_is_never_written_through_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "untouched").unwrap();
    std::os::unix::fs::symlink(&victim, dir.path().join("ois-convert.1")).unwrap();
    let output = Command::cargo_bin("ois").unwrap().args(["man", "--dir"]).arg(dir.path()).output().unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("OUT001") && said.contains("--force"), "{said}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");
    assert!(!dir.path().join("ois.1").exists(), "all or nothing");
    // A page that is a regular file is replaced.
    std::fs::remove_file(dir.path().join("ois-convert.1")).unwrap();
    std::fs::write(dir.path().join("ois-convert.1"), "old").unwrap();
    ois(&["man", "--dir", dir.path().to_str().unwrap()]);
    assert!(std::fs::read_to_string(dir.path().join("ois-convert.1")).unwrap().contains(".TH"));
}
