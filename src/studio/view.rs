//! What the page shows of a report: each diagnostic with the line of the text it points at, the
//! operations of an OpenAPI document with what became of each, the secrets an OIS needs.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::{Diagnostic, Document, Fix};
use crate::source::Source;

/// Characters of a source line shown beside a diagnostic.
const EXCERPT_CHARS: usize = 240;

/// A diagnostic, its fix in the library's words, and the line of the text it points at.
#[derive(Clone, Debug, Serialize)]
pub struct Placed {
    /// The diagnostic (`code`, `severity`, `message`, `help`, `location`).
    #[serde(flatten)]
    pub diagnostic: Diagnostic,
    /// The line it points at, when the text is at hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
    /// The endpoint it is about (its index), when it points into one of the draft's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<usize>,
    /// The part of that endpoint's form it is about (`reserved`, `parameters`, `fixed`, `pre`,
    /// `post`, or `endpoint`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<&'static str>,
}

/// `diagnostics` located in `source` (when they point into it), each with its line.
pub fn placed(diagnostics: Vec<Diagnostic>, source: Option<&Source>) -> Vec<Placed> {
    let mut placed = located(diagnostics, source);
    if let Some(source) = source {
        excerpts(&mut placed, &source.text);
    }
    placed
}

/// `diagnostics` with their fixes in the page's words, not yet located: [`place`] them.
pub fn unplaced(diagnostics: Vec<Diagnostic>) -> Vec<Placed> {
    located(diagnostics, None)
}

/// Locates each of `placed` pointing into `source` and gives it its line.
pub fn place<'p>(placed: impl Iterator<Item = &'p mut Placed>, source: &Source) {
    for one in placed.filter(|one| one.diagnostic.location.document == Document::Input) {
        source.locate_diagnostic(&mut one.diagnostic);
        excerpt(one, |line| source.line_text(line));
    }
}

/// `diagnostics` located in `source` (when they point into it), without their lines: what is
/// held of a report the page is sent only when asked ([`excerpts`] then).
pub fn located(diagnostics: Vec<Diagnostic>, source: Option<&Source>) -> Vec<Placed> {
    diagnostics
        .into_iter()
        .map(|mut diagnostic| {
            diagnostic.settle_fix(in_the_page);
            if let Some(source) = source
                && diagnostic.location.document == Document::Input
            {
                source.locate_diagnostic(&mut diagnostic);
            }
            Placed { diagnostic, excerpt: None, endpoint: None, part: None }
        })
        .collect()
}

/// Gives each of `placed` located in the document `text` the line it points at.
pub fn excerpts(placed: &mut [Placed], text: &str) {
    let starts: Vec<usize> =
        std::iter::once(0).chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1)).collect();
    let line_text = |line: usize| {
        let start = *starts.get(line.checked_sub(1)?)?;
        let end = starts.get(line).map_or(text.len(), |next| next.saturating_sub(1));
        text.get(start..end)
    };
    for one in placed.iter_mut().filter(|one| one.diagnostic.location.document == Document::Input) {
        excerpt(one, line_text);
    }
}

/// Gives `one`, located in the document, the line it points at (`line_text` reads a 1-based line).
fn excerpt<'t>(one: &mut Placed, line_text: impl Fn(usize) -> Option<&'t str>) {
    one.excerpt = one.diagnostic.location.line.and_then(|line| {
        let line = line_text(line)?.trim_end();
        let column = one.diagnostic.location.column.unwrap_or(1);
        Some(around(line, column))
    });
}

/// At most [`EXCERPT_CHARS`] of `line` with its `column` (1-based, in characters) in them: a long
/// line (a one-line JSON document) is cut around the place, `…` where it was cut.
fn around(line: &str, column: usize) -> String {
    let count = line.chars().count();
    if count <= EXCERPT_CHARS {
        return line.to_owned();
    }
    let start = column.saturating_sub(1).saturating_sub(EXCERPT_CHARS / 4).min(count - EXCERPT_CHARS);
    let cut: String = line.chars().skip(start).take(EXCERPT_CHARS).collect();
    let before = if start > 0 { "…" } else { "" };
    let after = if start + EXCERPT_CHARS < count { "…" } else { "" };
    format!("{before}{cut}{after}")
}

/// A fix named by the page's own controls (the library never names a front end's settings).
fn in_the_page(fix: &Fix) -> String {
    let setting = |name: &str| format!("set *{name}* under Conversion settings, then Convert again");
    match fix {
        Fix::ChooseTitle => setting("Title"),
        Fix::ChooseVersion => setting("OIS version"),
        Fix::GiveBaseUrl | Fix::GiveRelativeBase | Fix::UseBaseUrlInstead => setting("Base URL"),
        Fix::PickServer | Fix::GiveServerVariable(_) => setting("Server"),
        Fix::CopyDefaults => setting("Write the document's defaults"),
        Fix::ChooseSecurity => setting("Security schemes"),
        Fix::MakeCredential(name) => {
            format!("add {name} to *API key parameters* under Conversion settings, then Convert again")
        }
        Fix::ChooseOis => "choose the OIS above the endpoints".to_owned(),
        Fix::Replace => "tick *replace a file that exists*".to_owned(),
        Fix::GiveParameters => "give the endpoint's parameters under Request and call".to_owned(),
        Fix::GiveSecret(name) | Fix::FillSecret { name, .. } => format!("type {name} under Secrets and hold it"),
        Fix::AddFeed => "add one under *Feeds by name* (Endpoints)".to_owned(),
        Fix::ChangeFeed(name) | Fix::GiveFeedValue(name) => {
            format!("change \"{name}\" under *Feeds by name* (Endpoints): its value path or parser")
        }
        Fix::WriteFeedTables => {
            "add the feeds under *Feeds by name* (Endpoints), or rename the endpoint to keep hand-written processing"
                .to_owned()
        }
        other => other.describe(),
    }
}

/// One operation of an OpenAPI document and what the conversion made of it.
#[derive(Clone, Debug, Serialize)]
pub struct Operation {
    /// `GET`, `POST`, …
    pub method: String,
    /// The path.
    pub path: String,
    /// Its summary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The endpoints made of it (none: it was skipped).
    pub endpoints: Vec<String>,
    /// The codes the conversion said about it, each once, in order.
    pub codes: Vec<crate::Code>,
    /// What the conversion said about it: indexes into the conversion's diagnostics.
    pub diagnostics: Vec<usize>,
}

const METHODS: &[&str] = &["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// `/paths/{path}/{method}` of a pointer below an operation.
fn operation_of(pointer: &str) -> Option<&str> {
    let mut cuts = pointer.match_indices('/').map(|(at, _)| at).skip(3);
    let end = cuts.next().unwrap_or(pointer.len());
    let head = pointer.get(..end)?;
    head.starts_with("/paths/").then_some(head)
}

/// Every operation of `document` in its order, with the endpoints made of it (`made`: each
/// endpoint's method, path and name) and the diagnostics about it (linear in all three).
pub fn operations<'m>(
    document: &Value,
    made: impl Iterator<Item = (&'m str, &'m str, &'m str)>,
    diagnostics: &[Diagnostic],
) -> Vec<Operation> {
    let mut said: HashMap<&str, Vec<usize>> = HashMap::new();
    for (index, diagnostic) in diagnostics.iter().enumerate() {
        if diagnostic.location.document == Document::Input
            && let Some(operation) = operation_of(&diagnostic.location.pointer)
        {
            said.entry(operation).or_default().push(index);
        }
    }
    let mut endpoints: HashMap<(&str, &str), Vec<String>> = HashMap::new();
    for (method, path, name) in made {
        endpoints.entry((method, path)).or_default().push(name.to_owned());
    }
    let mut found = Vec::new();
    for (path, item) in document.get("paths").and_then(Value::as_object).into_iter().flatten() {
        for (method, operation) in item.as_object().into_iter().flatten() {
            if !METHODS.contains(&method.as_str()) {
                continue;
            }
            let pointer = crate::pointer::join("/paths", [path.as_str(), method.as_str()]);
            let indexes = said.get(pointer.as_str()).cloned().unwrap_or_default();
            let mut codes: Vec<crate::Code> = Vec::new();
            for code in indexes.iter().filter_map(|&index| diagnostics.get(index)).map(|d| d.code) {
                if !codes.contains(&code) {
                    codes.push(code);
                }
            }
            found.push(Operation {
                method: method.to_ascii_uppercase(),
                path: path.clone(),
                summary: operation.get("summary").and_then(Value::as_str).map(str::to_owned),
                endpoints: endpoints.get(&(method.as_str(), path.as_str())).cloned().unwrap_or_default(),
                codes,
                diagnostics: indexes,
            });
        }
    }
    found
}

/// The secrets the node needs for `ois` (the names its secrets.env template gives them), in order.
pub fn secret_names(ois: &Value) -> Vec<String> {
    crate::node::credential_slots(ois).into_iter().map(|slot| slot.variable).collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn a_pointer_names_its_operation() {
        assert_eq!(operation_of("/paths/~1a~1b/get/parameters/0"), Some("/paths/~1a~1b/get"));
        assert_eq!(operation_of("/paths/~1a~1b/get"), Some("/paths/~1a~1b/get"));
        assert_eq!(operation_of("/paths/~1a"), Some("/paths/~1a"));
        assert_eq!(operation_of("/components/schemas/A"), None);
    }
}

#[cfg(test)]
mod excerpt_tests {
    use super::*;

    #[test]
    fn a_long_line_is_cut_around_its_place() {
        let line = format!("{}HERE{}", "a".repeat(300), "b".repeat(300));
        let shown = around(&line, 301);
        assert!(shown.contains("HERE") && shown.starts_with('…') && shown.ends_with('…'), "{shown}");
        assert_eq!(around("short", 3), "short");
        let start = around(&line, 1);
        assert!(start.starts_with("aaa") && start.ends_with('…'));
    }
}
