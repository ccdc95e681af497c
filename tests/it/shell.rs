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
    subcommands(&[])
}

/// The subcommands `ois COMMAND... --help` lists (none for a command without them).
fn subcommands(command: &[&str]) -> Vec<String> {
    let help = ois(&[command, &["--help"]].concat());
    let Some(listed) = help.split("Commands:").nth(1) else { return Vec::new() };
    let listed = listed.split("Options:").next().unwrap().split("Arguments:").next().unwrap();
    listed
        .lines()
        .filter_map(|line| line.strip_prefix("  ")?.split_whitespace().next().map(str::to_owned))
        .filter(|name| name != "help")
        .collect()
}

/// Every command and subcommand, as the words that run it (`["scaffold", "feed"]`).
fn command_tree() -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut pending: Vec<Vec<String>> = commands().into_iter().map(|c| vec![c]).collect();
    while let Some(command) = pending.pop() {
        let words: Vec<&str> = command.iter().map(String::as_str).collect();
        for sub in subcommands(&words) {
            pending.push([command.clone(), vec![sub]].concat());
        }
        found.push(command);
    }
    found
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

/// Every command of the whole tree — `scaffold feed`, `endpoint set`, `ids verify` too — ends
/// its help with EXAMPLES that run it.
#[test]
fn every_command_has_examples_in_its_help() {
    let tree = command_tree();
    assert!(
        tree.iter().any(|c| c == &["scaffold", "feed"]) && tree.iter().any(|c| c == &["ids", "verify"]),
        "{tree:?}"
    );
    let mut missing = Vec::new();
    for command in &tree {
        let words: Vec<&str> = command.iter().map(String::as_str).collect();
        let help = ois(&[&words[..], &["--help"]].concat());
        let runs_it = format!("EXAMPLES:\n  ois {}", command.join(" "));
        if !help.contains(&runs_it) {
            missing.push(command.join(" "));
        }
    }
    assert!(missing.is_empty(), "commands whose --help has no EXAMPLES running them: {missing:?}");
}

/// Every command takes the global options, before or after its name, and says so in its help.
#[test]
fn every_command_takes_the_global_options() {
    let mut refused = Vec::new();
    for command in command_tree() {
        let words: Vec<&str> = command.iter().map(String::as_str).collect();
        for global in [&["-q"][..], &["--quiet"], &["--color", "never"], &["--color=always"]] {
            for args in [[&words[..], global, &["--help"]].concat(), [global, &words[..], &["--help"]].concat()] {
                let output = Command::cargo_bin("ois").unwrap().args(&args).output().unwrap();
                let help = String::from_utf8_lossy(&output.stdout);
                if !output.status.success() || !help.contains("--quiet") || !help.contains("--color <WHEN>") {
                    refused.push(args.join(" "));
                }
            }
        }
    }
    assert!(refused.is_empty(), "refused or not in the help: {refused:?}");
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
