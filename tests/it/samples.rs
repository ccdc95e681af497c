//! Golden files: every sample in samples/ converts to exactly samples/expected/<name>.ois.json,
//! with exactly the report in samples/expected/<name>.report.txt. `EXPECTORATE=overwrite cargo test`
//! rewrites them; review the diff before committing.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use std::path::Path;

use assert_cmd::Command;

/// (sample, extra arguments)
const SAMPLES: &[(&str, &[&str])] = &[
    ("coins.yaml", &[]),
    ("orders.json", &[]),
    ("auth.yaml", &[]),
    ("weather-3.1.yaml", &["--base-url", "https://weather.example/"]),
    ("regions.json", &["--ois-format", "2.3.2"]),
];

fn check_golden(path: &Path, actual: &str) {
    expectorate::assert_contents(path, actual);
}

#[test]
fn samples_convert_to_their_golden_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (sample, args) in SAMPLES {
        let output = Command::cargo_bin("ois")
            .expect("binary")
            .current_dir(root)
            .arg("convert")
            .arg(format!("samples/{sample}"))
            .args(*args)
            .env("NO_COLOR", "1")
            .output()
            .expect("runs");
        assert!(output.status.success(), "{sample}: {}", String::from_utf8_lossy(&output.stderr));
        let stem = sample.rsplit_once('.').map_or(*sample, |(stem, _)| stem);
        let expected = root.join("samples/expected");
        check_golden(&expected.join(format!("{stem}.ois.json")), &String::from_utf8_lossy(&output.stdout));
        check_golden(&expected.join(format!("{stem}.report.txt")), &String::from_utf8_lossy(&output.stderr));
    }
}

#[test]
fn conversion_is_deterministic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (sample, args) in SAMPLES {
        let run = || {
            Command::cargo_bin("ois")
                .expect("binary")
                .current_dir(root)
                .arg("convert")
                .arg(format!("samples/{sample}"))
                .args(*args)
                .output()
                .expect("runs")
                .stdout
        };
        assert_eq!(run(), run(), "{sample}");
    }
}

#[test]
fn yaml_output_holds_the_same_document() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = |format: &str| {
        let output = Command::cargo_bin("ois")
            .expect("binary")
            .current_dir(root)
            .args(["convert", "samples/auth.yaml", "--format", format])
            .output()
            .expect("runs");
        assert!(output.status.success());
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    let json: serde_json::Value = serde_json::from_str(&run("json")).expect("JSON");
    let yaml: serde_json::Value = yaml_serde::from_str(&run("yaml")).expect("YAML");
    assert_eq!(json, yaml);
}
