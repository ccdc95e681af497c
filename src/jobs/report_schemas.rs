//! The JSON Schema of every JSON report the jobs make, by name, made from the report types
//! themselves: a script can check what it reads, and the npm package's TypeScript types are
//! generated from it, so neither can drift from what is printed.

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value};

use crate::diagnostic::{Counts, Diagnostic};

/// A report with its diagnostics and their counts, as every report is printed (the schema of
/// [`crate::report::machine::with_diagnostics`]'s output).
#[derive(JsonSchema)]
#[allow(dead_code)] // only its schema is made
struct Reported<T> {
    #[serde(flatten)]
    report: T,
    /// Diagnostics by severity.
    counts: Counts,
    /// Every diagnostic, each the same shape in every report.
    diagnostics: Vec<Diagnostic>,
}

/// A report of nothing but diagnostics: what a job that stopped before it made anything prints.
#[derive(JsonSchema)]
#[allow(dead_code)] // only its schema is made
struct DiagnosticsOnly {
    /// Diagnostics by severity.
    counts: Counts,
    /// Every diagnostic.
    diagnostics: Vec<Diagnostic>,
}

fn named<T: JsonSchema>(generator: &mut SchemaGenerator, description: &str) -> Value {
    let mut schema = T::json_schema(generator);
    schema.insert("description".to_owned(), Value::String(description.to_owned()));
    // A report's own `counts` and `diagnostics` are named again by `Reported`: once is the rule.
    if let Some(Value::Array(required)) = schema.get_mut("required") {
        let mut seen = std::collections::HashSet::new();
        required.retain(|name| seen.insert(name.clone()));
    }
    schema.to_value()
}

/// Every report by name (`ConvertReport`, `RequestReport`, …), each with what prints it.
fn reports(generator: &mut SchemaGenerator) -> Vec<(&'static str, Value)> {
    use super::*;
    vec![
        ("ConvertReport", named::<Reported<convert::DocumentReport>>(generator, "A conversion of one document.")),
        (
            "ConvertBatchReport",
            named::<Vec<batch::FileResult>>(generator, "A conversion of several documents: one result per file."),
        ),
        (
            "UpdateReport",
            named::<update::UpdateReport>(generator, "An OIS brought up to date with its API's document."),
        ),
        (
            "ValidateReport",
            named::<Vec<validate::FileVerdict>>(generator, "Every file checked: one verdict each, in the order given."),
        ),
        (
            "RequestReport",
            named::<Reported<crate::request::render::RequestView>>(
                generator,
                "The node's request for one call, and the value it would encode from a response.",
            ),
        ),
        (
            "PathsReport",
            named::<Reported<request::PathsReport>>(
                generator,
                "Every value of an answer with its `_path`, for picking one.",
            ),
        ),
        (
            "StoppedReport",
            named::<request::StopView>(
                generator,
                "A request or call that stopped: why, and what the API answered when it did.",
            ),
        ),
        (
            "CallReport",
            named::<Reported<crate::call::CallView>>(
                generator,
                "One real call: the request, what the API answered, the value and its encoding.",
            ),
        ),
        ("CallAllReport", named::<Reported<call::AllReport>>(generator, "Every endpoint of an OIS called.")),
        (
            "CallConfigReport",
            named::<Reported<call_config::ConfigCallReport>>(
                generator,
                "A config called as its node calls it: a row per beacon (or per feed by name).",
            ),
        ),
        (
            "CompareReport",
            named::<Reported<compare::CompareReport>>(generator, "Two configs called, beacon by beacon."),
        ),
        (
            "StatusReport",
            named::<Reported<status::StatusReport>>(
                generator,
                "A running deployment: each beacon as its Signed API serves it, against the API now.",
            ),
        ),
        (
            "IdsReport",
            named::<Reported<ids::IdsReport>>(
                generator,
                "The endpoint, template, beacon and beacon-set IDs to deploy with.",
            ),
        ),
        ("IdsVerifyReport", named::<Reported<ids::VerifyReport>>(generator, "Every ID of a config derived again.")),
        ("EndpointIdsReport", named::<Vec<ids::EndpointId>>(generator, "Each endpoint's ID.")),
        (
            "ScaffoldReport",
            named::<Reported<scaffold::ScaffoldReport>>(
                generator,
                "A node config written: what was written, its templates and IDs.",
            ),
        ),
        (
            "EditReport",
            named::<Reported<endpoint::EditReport>>(
                generator,
                "An edit of an OIS in place (an endpoint or a feed): the change as a diff.",
            ),
        ),
        ("EndpointListReport", named::<Vec<crate::edit::EndpointSummary>>(generator, "Every endpoint of an OIS.")),
        (
            "FeedListReport",
            named::<Reported<crate::ois::feeds::FeedTables>>(
                generator,
                "Every feed served by name, from the OIS's feed tables.",
            ),
        ),
        (
            "FeedExportReport",
            named::<Reported<feed::ExportReport>>(generator, "Feeds written out as data-feed blueprints."),
        ),
        (
            "DiagnosticsReport",
            named::<DiagnosticsOnly>(generator, "A job that stopped before it made anything: every diagnostic."),
        ),
    ]
}

/// Every object schema with `properties` closed to others (`additionalProperties: false`): a
/// report holds exactly what its type says, so a field printed but not typed fails a check, and
/// the TypeScript types have no catch-all index.
fn closed(value: &mut Value) {
    match value {
        Value::Object(object) => {
            if object.contains_key("properties") && !object.contains_key("additionalProperties") {
                object.insert("additionalProperties".to_owned(), Value::Bool(false));
            }
            object.values_mut().for_each(closed);
        }
        Value::Array(items) => items.iter_mut().for_each(closed),
        _ => {}
    }
}

/// One JSON Schema (draft 2020-12) document: every report under `$defs` by name, with the types
/// they share (`Diagnostic`, `DiagnosticCode`, `Counts`, …).
pub fn document() -> Value {
    let mut generator = schemars::generate::SchemaSettings::draft2020_12().for_serialize().into_generator();
    let named = reports(&mut generator);
    let mut defs: Map<String, Value> = generator.take_definitions(true).into_iter().collect();
    for (name, schema) in named {
        defs.insert(name.to_owned(), schema);
    }
    let mut document = Schema::default();
    document.insert("$schema".to_owned(), Value::String("https://json-schema.org/draft/2020-12/schema".to_owned()));
    document.insert("title".to_owned(), Value::String("ois reports".to_owned()));
    document.insert(
        "description".to_owned(),
        Value::String("Every report `ois` prints as JSON, by name under `$defs`.".to_owned()),
    );
    let mut defs = Value::Object(defs);
    closed(&mut defs);
    document.insert("$defs".to_owned(), defs);
    document.to_value()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reference_has_its_definition() {
        let document = document();
        let text = document.to_string();
        let defs = document.get("$defs").and_then(Value::as_object).cloned().unwrap_or_default();
        for (at, _) in text.match_indices("\"$ref\":\"#/$defs/") {
            let rest = &text[at + "\"$ref\":\"#/$defs/".len()..];
            let name = rest.split('"').next().unwrap_or_default();
            assert!(defs.contains_key(name), "no definition of {name}");
        }
        for name in ["ConvertReport", "Diagnostic", "DiagnosticCode", "CallReport", "FeedListReport"] {
            assert!(defs.contains_key(name), "{name}");
        }
    }
}
