//! `ois explain CODE`: a diagnostic code's page (docs/codes/CODE.md, built into the binary), as
//! `rustc --explain` prints an error's.

use std::process::ExitCode;

use ois::{Code, Diagnostic};

use super::Shell;
use super::explain_pages::PAGES;

pub(crate) fn run_explain(code: Option<&str>, shell: &Shell) -> ExitCode {
    let Some(code) = code else {
        let list: String =
            Code::ALL.iter().map(|c| format!("{c}  {}  {}\n", c.severity().as_str(), c.summary())).collect();
        return shell.out_then_succeed(&list);
    };
    let wanted = code.trim().to_ascii_uppercase();
    match PAGES.iter().find(|(name, _)| *name == wanted) {
        Some((_, page)) => shell.out_then_succeed(*page),
        None => {
            let stage: String = wanted.chars().take(3).collect();
            let same_stage: Vec<&str> =
                Code::ALL.iter().map(|c| c.as_str()).filter(|c| c.starts_with(&stage)).take(12).collect();
            let mut error =
                Diagnostic::elsewhere(Code::BadArgument, format!("no diagnostic code {}", ois::emit::printable(code)));
            error = if same_stage.is_empty() {
                error.with_help("`ois explain` with no code lists them all (CNV030, OIS076, …)")
            } else {
                error.with_help(format!(
                    "codes of that stage: {} …; `ois explain` lists them all",
                    same_stage.join(", ")
                ))
            };
            shell.fail(&error)
        }
    }
}
