//! Diagnostics for machines: SARIF 2.1.0 (code scanning, editors) and GitHub Actions workflow
//! commands (annotations on a pull request). Both carry every diagnostic, located.

use serde_json::{Value, json};

use crate::diagnostic::{Code, Diagnostic, Severity};

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// A SARIF 2.1.0 log of one run over `files` (name, diagnostics): every code of the table as a
/// rule (its summary as the description, its severity as the default level), every diagnostic as
/// a result with its file, line and column when known, and its JSON pointer as a logical location.
pub fn sarif(files: &[(&str, &[Diagnostic])]) -> Value {
    let rules: Vec<Value> = Code::ALL
        .iter()
        .map(|code| {
            json!({
                "id": code.as_str(),
                "shortDescription": {"text": code.summary()},
                "defaultConfiguration": {"level": level(code.severity())},
                "properties": {"stage": code.stage()},
            })
        })
        .collect();
    let mut results = Vec::new();
    for (file, diagnostics) in files {
        for diagnostic in diagnostics.iter() {
            let rule_index = Code::ALL.iter().position(|c| *c == diagnostic.code).unwrap_or_default();
            let mut text = diagnostic.message.clone();
            if let Some(help) = &diagnostic.help {
                text.push_str(&format!(" (help: {help})"));
            }
            let uri = diagnostic.location.file.clone().unwrap_or_else(|| (*file).to_owned());
            let mut physical = json!({"artifactLocation": {"uri": uri}});
            if let (Some(line), Some(object)) = (diagnostic.location.line, physical.as_object_mut()) {
                let column = diagnostic.location.column.unwrap_or(1);
                object.insert("region".into(), json!({"startLine": line, "startColumn": column}));
            }
            let mut location = json!({"physicalLocation": physical});
            if !diagnostic.location.pointer.is_empty()
                && let Some(object) = location.as_object_mut()
            {
                object.insert(
                    "logicalLocations".into(),
                    json!([{"fullyQualifiedName": diagnostic.location.pointer, "kind": "object"}]),
                );
            }
            results.push(json!({
                "ruleId": diagnostic.code.as_str(),
                "ruleIndex": rule_index,
                "level": level(diagnostic.severity),
                "message": {"text": text},
                "locations": [location],
            }));
        }
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "ois", "version": env!("CARGO_PKG_VERSION"), "rules": rules}},
            "results": results,
        }],
    })
}

/// GitHub's escaping of a command's message (`%`, CR, LF) and, in a property, also `:` and `,`.
fn escape(text: &str, property: bool) -> String {
    let mut out = text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A");
    if property {
        out = out.replace(':', "%3A").replace(',', "%2C");
    }
    out
}

/// One GitHub Actions workflow command per diagnostic: `::error file=…,line=…,col=…,title=CODE::message`
/// (`::warning`, `::notice` for the others).
pub fn github(file: &str, diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for diagnostic in diagnostics {
        let command = match diagnostic.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "notice",
        };
        let path = diagnostic.location.file.as_deref().unwrap_or(file);
        let mut properties = vec![format!("file={}", escape(path, true))];
        if let Some(line) = diagnostic.location.line {
            properties.push(format!("line={line}"));
            if let Some(column) = diagnostic.location.column {
                properties.push(format!("col={column}"));
            }
        }
        properties.push(format!("title={}", escape(diagnostic.code.as_str(), true)));
        let mut message = diagnostic.message.clone();
        if !diagnostic.location.pointer.is_empty() {
            message.push_str(&format!(" (at {})", diagnostic.location.pointer));
        }
        if let Some(help) = &diagnostic.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        out.push_str(&format!("::{command} {}::{}\n", properties.join(","), escape(&message, false)));
    }
    out
}

/// `report` (a JSON object) with `diagnostics` (as the front end settled them: fixes named its
/// way, located) and their counts: what every command's JSON report carries, with the fields of a
/// conversion's. Fields of those names already there are replaced in place; a report that is not
/// an object is returned as it is.
pub fn with_diagnostics(mut report: Value, diagnostics: &[Diagnostic]) -> Value {
    if let Some(object) = report.as_object_mut() {
        let counts = serde_json::to_value(crate::diagnostic::Counts::of(diagnostics)).unwrap_or(Value::Null);
        let listed = serde_json::to_value(diagnostics).unwrap_or(Value::Null);
        object.insert("counts".to_owned(), counts);
        object.insert("diagnostics".to_owned(), listed);
    }
    report
}

/// The JSON report of a command that stopped before it made anything: every diagnostic and their
/// counts.
pub fn diagnostics_report(diagnostics: &[Diagnostic]) -> Value {
    with_diagnostics(Value::Object(serde_json::Map::new()), diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_commands_escape_what_github_reads() {
        let mut diagnostic = Diagnostic::new(Code::JsonSyntax, "/a", "bad: 100%\nnext").at(3, 7);
        diagnostic.location.file = Some("dir,x/a:b.json".into());
        let line = github("api.json", &[diagnostic]);
        assert_eq!(line, "::error file=dir%2Cx/a%3Ab.json,line=3,col=7,title=INP004::bad: 100%25%0Anext (at /a)\n");
    }
}
