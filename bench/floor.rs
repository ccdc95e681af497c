//! The benchmark floor: only read a file and parse it into `serde_json::Value`, with the same
//! crates `ois` uses. `ois convert` is measured against this.

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: floor FILE");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("{path}: {err}");
            return ExitCode::FAILURE;
        }
    };
    let parsed: Result<serde_json::Value, String> = if text.trim_start().starts_with(['{', '[']) {
        serde_json::from_str(&text).map_err(|e| e.to_string())
    } else {
        serde_yaml::from_str(&text).map_err(|e| e.to_string())
    };
    match parsed {
        Ok(value) => {
            println!("{}", value.as_object().map_or(0, |o| o.len()));
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("{path}: {err}");
            ExitCode::FAILURE
        }
    }
}
