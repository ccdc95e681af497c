//! The npm package as an integrator gets it: `npm/pack.sh` makes the tarballs, a fresh npm project
//! with no Rust on its PATH installs only them (offline), runs the package README's recipe through
//! `npx ois`, the JS API (tests/npm/api.test.mjs, ES modules and CommonJS), a TypeScript script
//! using it (compiled with `tsc --strict`, then run), and type-checks every report the API returned
//! against the generated types, the READMEs' snippets, and a misuse that must not type-check. The generated types are what the report types make.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(command: &mut Command) -> Output {
    let output = command.output().unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(
        output.status.success(),
        "{command:?}: {}\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// A PATH holding node and the system's programs, and no cargo or rustc.
fn path_without_rust() -> String {
    let node = String::from_utf8(Command::new("sh").args(["-c", "command -v node"]).output().unwrap().stdout).unwrap();
    let node_dir = Path::new(node.trim()).parent().unwrap().display().to_string();
    let path = format!("{node_dir}:/usr/bin:/bin");
    for program in ["cargo", "rustc"] {
        let found = Command::new("sh").args(["-c", &format!("command -v {program}")]).env("PATH", &path).output();
        assert!(!found.unwrap().status.success(), "{program} is on {path}");
    }
    path
}

/// What the package's README tells a newcomer to run after installing: its `npx ois` lines.
fn readme_recipe() -> Vec<Vec<String>> {
    let readme = std::fs::read_to_string(root().join("npm/ois-cli/README.md")).unwrap();
    let lines: Vec<Vec<String>> = readme
        .lines()
        .filter(|line| line.starts_with("npx ois ") && !line.contains("--version"))
        .map(|line| line.split_whitespace().map(str::to_owned).collect())
        .collect();
    assert!(lines.len() >= 3, "{lines:?}");
    lines
}

/// The ```js blocks of the project's README and the package's: the API as they show it.
fn readme_snippets() -> Vec<String> {
    let mut snippets = Vec::new();
    for readme in ["README.md", "npm/ois-cli/README.md", "docs/npm.md"] {
        let text = std::fs::read_to_string(root().join(readme)).unwrap();
        let mut rest = text.as_str();
        while let Some(start) = rest.find("```js\n") {
            let body = &rest[start + 6..];
            let end = body.find("```").unwrap();
            snippets.push(body[..end].to_owned());
            rest = &body[end..];
        }
    }
    assert!(snippets.len() >= 2, "{snippets:?}");
    snippets
}

/// The reports tests/npm/api.test.mjs kept, as one TypeScript file: each a constant of its type.
fn reports_as_typescript(project: &Path) -> String {
    let mut text = "import type * as T from 'ois-cli';\n".to_owned();
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(project.join("reports")).unwrap().map(|entry| entry.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 8, "{files:?}");
    for file in files {
        let kept: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        let ty = kept["type"].as_str().unwrap();
        let ty = ty
            .split_inclusive(|c: char| !c.is_alphanumeric())
            .map(|part| {
                let starts_upper = part.chars().next().is_some_and(char::is_uppercase);
                if starts_upper && !part.starts_with("Record") { format!("T.{part}") } else { part.to_owned() }
            })
            .collect::<String>();
        let name = file.file_stem().unwrap().to_str().unwrap().replace('-', "_");
        text.push_str(&format!("export const {name}: {ty} = {:#};\n", kept["value"]));
    }
    text
}

#[test]
fn the_npm_package_installs_alone_and_its_api_and_types_work() {
    if !common::interop_installed("typescript") {
        return;
    }
    let binary = env!("CARGO_BIN_EXE_ois");
    let tsc = common::interop_dir().join("node_modules/.bin/tsc");

    // The committed types are what the report types make now.
    run(Command::new("node").arg(root().join("npm/scripts/types.mjs")).args([binary, "--check"]));

    let packed = tempfile::tempdir().unwrap();
    run(Command::new("bash").arg(root().join("npm/pack.sh")).arg(packed.path()).env("OIS_BINARY", binary));
    let mut tarballs: Vec<PathBuf> =
        std::fs::read_dir(packed.path()).unwrap().map(|entry| entry.unwrap().path()).collect();
    tarballs.sort();
    assert_eq!(tarballs.len(), 2, "the main package and this platform's: {tarballs:?}");

    let project = tempfile::tempdir().unwrap();
    let dir = project.path();
    let path = path_without_rust();
    let npm = |args: &[&str]| {
        let mut command = Command::new("npm");
        command.args(args).current_dir(dir).env("PATH", &path).env("npm_config_update_notifier", "false");
        command
    };
    std::fs::write(dir.join("package.json"), r#"{"name": "integrator", "version": "1.0.0", "private": true}"#).unwrap();
    let mut install = npm(&["install", "--offline", "--no-audit", "--no-fund", "--omit=optional"]);
    install.args(&tarballs);
    run(&mut install);

    let version = run(&mut npm(&["exec", "--offline", "--", "ois", "--version"]));
    assert_eq!(String::from_utf8_lossy(&version.stdout).trim(), format!("ois {}", env!("CARGO_PKG_VERSION")));

    // The README's recipe, as written, on a sample document named as it names it.
    std::fs::copy(root().join("samples/coins.yaml"), dir.join("api.yaml")).unwrap();
    for line in readme_recipe() {
        let mut command = Command::new("npx");
        command.arg("--offline").args(&line[1..]).current_dir(dir).env("PATH", &path).env("NO_COLOR", "1");
        run(&mut command);
    }
    assert!(dir.join("api.ois.json").is_file() && dir.join("secrets.env").is_file());

    // The API, from ES modules and CommonJS.
    std::fs::copy(root().join("samples/coins.yaml"), dir.join("coins.yaml")).unwrap();
    for file in ["api.test.mjs", "usage.ts", "misuse.ts"] {
        std::fs::copy(root().join("tests/npm").join(file), dir.join(file)).unwrap();
    }
    let mut api = Command::new("node");
    api.args(["--test", "api.test.mjs"]).current_dir(dir).env("PATH", &path);
    run(&mut api);

    // The types: the integrator's script, the READMEs' snippets and every real report check; the
    // misuse does not.
    std::fs::write(dir.join("reports.ts"), reports_as_typescript(dir)).unwrap();
    let mut checked = vec!["usage.ts".to_owned(), "reports.ts".to_owned()];
    for (index, snippet) in readme_snippets().iter().enumerate() {
        let name = format!("readme{index}.mts");
        std::fs::write(
            dir.join(&name),
            format!("{snippet}\nexport {{ ois, diagnostics, valid, method, url, headers }};\n"),
        )
        .unwrap();
        checked.push(name);
    }
    let tsc_args = ["--strict", "--noEmit", "--module", "node16", "--moduleResolution", "node16", "--target", "es2022"];
    run(Command::new(&tsc).args(tsc_args).args(&checked).current_dir(dir).env("PATH", &path));
    // The script runs, compiled (CommonJS, as a package without "type": "module" makes it).
    let emit =
        ["--strict", "--module", "node16", "--moduleResolution", "node16", "--target", "es2022", "--outDir", "out"];
    run(Command::new(&tsc).args(emit).arg("usage.ts").current_dir(dir).env("PATH", &path));
    let ran = run(Command::new("node").arg("out/usage.js").current_dir(dir).env("PATH", &path));
    let printed = String::from_utf8_lossy(&ran.stdout);
    for expected in [
        "converted 5 operations: simplePrice coinsId",
        "valid true, 0 errors",
        "GET https://api.coins.example/api/v3/simple/price?ids=bitcoin&vs_currencies=usd&precision=2",
        "Airnode Feed 4.6.0: 1 template(s), 0 ID(s) wrong",
        "refused (exit 1): ",
    ] {
        assert!(printed.contains(expected), "{expected:?} not in:\n{printed}");
    }
    let misuse =
        Command::new(&tsc).args(tsc_args).arg("misuse.ts").current_dir(dir).env("PATH", &path).output().unwrap();
    let said = String::from_utf8_lossy(&misuse.stdout);
    assert!(!misuse.status.success(), "the misuse type-checked");
    let marked =
        std::fs::read_to_string(dir.join("misuse.ts")).unwrap().lines().position(|l| l.contains("MISUSE")).unwrap();
    assert!(said.contains(&format!("misuse.ts({},", marked + 1)) && said.contains("TS2322"), "{said}");
}
