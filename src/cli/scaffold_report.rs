//! What a scaffold did, as `scaffold` and `config` report it on standard error.

use std::process::ExitCode;

use ois::jobs::scaffold::{ScaffoldKind, ScaffoldReport};

/// A scaffold's outcome settled: for scripts (`--report json`) written whole on standard error,
/// an error said — both done (`Err`, the exit code) — or the report to tell people about.
fn for_people<R: ois::report::Diagnosed>(
    result: Result<R, ois::Diagnostic>,
    format: super::ReportArg,
    shell: &Shell,
) -> Result<R, ExitCode> {
    let mut report = match result {
        Ok(report) => report,
        Err(error) if format == super::ReportArg::Json => {
            shell.err(&shell.stopped_json(&[error]));
            return Err(ExitCode::from(super::FAILURE));
        }
        Err(error) => return Err(shell.fail(&error)),
    };
    if format == super::ReportArg::Json {
        shell.err(&shell.report_json(&mut report));
        return Err(ExitCode::SUCCESS);
    }
    shell.settle(report.diagnostics_mut().0, None);
    Ok(report)
}

use super::Shell;

/// What a scaffold did, on standard error: its diagnostics, then (for people) the IDs and the
/// release, or (for scripts) the whole report as JSON.
pub(crate) fn show(
    result: Result<ScaffoldReport, ois::Diagnostic>,
    kind: &ScaffoldKind,
    format: super::ReportArg,
    shell: &Shell,
) -> ExitCode {
    let report = match for_people(result, format, shell) {
        Ok(report) => report,
        Err(done) => return done,
    };
    shell.diagnostics(&report.diagnostics, None);
    if matches!(kind, ScaffoldKind::Feed(_)) {
        shell.say(&id_table(&report));
    }
    match (&report.node, kind) {
        (Some(node), ScaffoldKind::Feed(_)) => shell.say(&format!(
            "for {node} (a node runs only a config naming exactly its own version; --target names another)\n"
        )),
        (Some(node), _) => shell.say(&format!("for {node} (the Feed config's version: they are released together)\n")),
        _ => {}
    }
    ExitCode::SUCCESS
}

/// The IDs of a generated Airnode Feed config, on standard error (the config may be on standard
/// output).
fn id_table(report: &ScaffoldReport) -> String {
    let mut table = String::from("endpoint IDs:\n");
    for endpoint in &report.endpoints {
        table.push_str(&format!("  {}  {} / {}\n", endpoint.endpoint_id, endpoint.ois_title, endpoint.endpoint_name));
    }
    table.push_str("template IDs:\n");
    for template in &report.templates {
        table.push_str(&format!("  {}  {}\n", template.template_id, template.parameters.join(",")));
    }
    table
}

/// What `scaffold deploy` wrote, on standard error: its notes, the files, the tokens it made (by
/// name), and how to start it; or the whole report as JSON.
pub(crate) fn show_deploy(
    result: Result<ois::jobs::deploy::DeployReport, ois::Diagnostic>,
    format: super::ReportArg,
    shell: &Shell,
) -> ExitCode {
    let report = match for_people(result, format, shell) {
        Ok(report) => report,
        Err(done) => return done,
    };
    shell.diagnostics(&report.diagnostics, None);
    let [feed, signed_api] = &report.releases;
    let mut said =
        format!("{}: Airnode Feed {feed} and Signed API {signed_api}, {} files\n", report.folder, report.files.len());
    if !report.made_secrets.is_empty() {
        said.push_str(&format!(
            "made (written to the secrets files, never shown): {}\n",
            report.made_secrets.join(", ")
        ));
    }
    said.push_str(&format!("start it: cd {} && docker compose up -d   (or with Node: its README.md)\n", report.folder));
    shell.say(&said);
    ExitCode::SUCCESS
}
