//! What a conversion reads of an OpenAPI document: a big document's parse leaves the rest
//! unbuilt ([`Source::parse_for`]), and most of an API's text is its responses.

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::ois::model::Method;
use crate::openapi::METHODS;
use crate::source::{Reading, Source};

/// How much a conversion reads of the value at `path` in an OpenAPI document (2.0 or 3.x): all
/// of it but its operations and its schemas. Of an operation it converts (get or post) it reads
/// everything but the `responses`; of one it skips for its method, only what a filter matches
/// (`operationId`, `tags`) and a `$ref`. Schemas (`definitions`, `components/schemas`) it reads
/// only where a `$ref` leads: most describe responses. So it reads the components only a `$ref`
/// can reach from what it reads: examples, responses, headers, links and callbacks.
pub fn reading(path: &[&str]) -> Reading {
    match path {
        [] | ["paths"] | ["paths", _] | ["components"] => Reading::Members,
        // What only a `$ref` reaches: in a big API, its examples and responses are much of its
        // text (GitHub's examples: a third).
        ["definitions"] | ["components", "schemas" | "examples" | "responses" | "headers" | "links" | "callbacks"] => {
            Reading::Referenced
        }
        ["paths", _, method] if METHODS.contains(method) => Reading::Members,
        ["paths", _, method, key] if METHODS.contains(method) => {
            let converted = Method::ALL.iter().any(|converted| converted.as_str() == *method);
            match (converted, *key) {
                (true, "responses") => Reading::Nothing,
                (true, _) | (false, "operationId" | "tags" | "$ref") => Reading::Whole,
                (false, _) => Reading::Nothing,
            }
        }
        _ => Reading::Whole,
    }
}

/// The document in `source` as a conversion reads it ([`reading`]): what it never reads is
/// checked but not built, unless a `$ref` leads there.
pub fn parse(source: &Source) -> Result<Value, Diagnostic> {
    source.parse_for(reading)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::convert::{ConvertOptions, Filter, convert, convert_value};

    #[test]
    fn a_conversion_reads_all_but_responses_and_most_of_what_it_skips() {
        let cases: [(&[&str], Reading); 23] = [
            (&[], Reading::Members),
            (&["paths"], Reading::Members),
            (&["paths", "/a"], Reading::Members),
            (&["paths", "/a", "get"], Reading::Members),
            (&["paths", "/a", "delete"], Reading::Members),
            (&["paths", "/a", "get", "responses"], Reading::Nothing),
            (&["paths", "/a", "post", "responses"], Reading::Nothing),
            (&["paths", "/a", "post", "parameters"], Reading::Whole),
            (&["paths", "/a", "delete", "tags"], Reading::Whole),
            (&["paths", "/a", "patch", "operationId"], Reading::Whole),
            (&["paths", "/a", "put", "$ref"], Reading::Whole),
            (&["paths", "/a", "delete", "parameters"], Reading::Nothing),
            (&["paths", "/a", "delete", "requestBody"], Reading::Nothing),
            (&["paths", "/a", "parameters"], Reading::Whole),
            (&["paths", "/a", "query"], Reading::Whole),
            (&["definitions"], Reading::Referenced),
            (&["components"], Reading::Members),
            (&["components", "schemas"], Reading::Referenced),
            (&["components", "securitySchemes"], Reading::Whole),
            (&["components", "examples"], Reading::Referenced),
            (&["components", "responses"], Reading::Referenced),
            (&["components", "parameters"], Reading::Whole),
            (&["components", "requestBodies"], Reading::Whole),
        ];
        for (path, expected) in cases {
            assert_eq!(reading(path), expected, "{path:?}");
        }
    }

    /// What a conversion of `document` as JSON text gives: the OIS and each diagnostic's code and
    /// pointer, and whether the parse left anything out.
    fn converted(document: &Value, options: &ConvertOptions) -> (Value, Vec<(crate::Code, String)>) {
        let diagnostics = |diagnostics: Vec<Diagnostic>| {
            diagnostics.into_iter().map(|d| (d.code, d.location.pointer)).collect::<Vec<_>>()
        };
        let source = Source::from_text("api.json", None, serde_json::to_string_pretty(document).unwrap());
        let conversion = convert(&source, options).unwrap();
        let whole = convert_value(document, options).unwrap();
        assert_eq!(conversion.ois, whole.ois);
        assert_eq!(diagnostics(conversion.diagnostics.clone()), diagnostics(whole.diagnostics));
        (conversion.ois, diagnostics(conversion.diagnostics))
    }

    #[test]
    fn what_a_conversion_leaves_unread_changes_nothing_it_converts_or_reports() {
        let document = json!({
            "openapi": "3.0.0",
            "info": {"title": "A", "version": "1"},
            "servers": [{"url": "https://api.example.com"}],
            "paths": {"/a": {
                "get": {
                    "operationId": "getA",
                    "parameters": [{"$ref": "#/paths/~1a/delete/parameters/0"}],
                    "responses": {"200": {"description": "ok", "content": {"application/json": {}}}}
                },
                "delete": {
                    "operationId": "deleteA",
                    "tags": ["admin"],
                    "parameters": [{"name": "id", "in": "query", "schema": {"type": "string"}}],
                    "responses": {"204": {"description": "gone"}}
                }
            }}
        });
        let options = ConvertOptions::default();
        // The `$ref` into the skipped operation leads where it leads in the whole document.
        let (ois, _) = converted(&document, &options);
        assert_eq!(ois.pointer("/apiSpecifications/paths/~1a/get/parameters/0/name"), Some(&json!("id")));
        // A filter matches a skipped operation by its tag and its operationId.
        let mut plain = document.clone();
        plain["paths"]["/a"]["get"]["parameters"] = json!([{"name": "q", "in": "query"}]);
        for filter in ["tag:admin", "id:deleteA"] {
            let options = ConvertOptions { exclude: vec![Filter::parse(filter).unwrap()], ..ConvertOptions::default() };
            let (_, diagnostics) = converted(&plain, &options);
            assert!(!diagnostics.iter().any(|(code, _)| *code == crate::Code::FilterUnmatched), "{filter}");
        }
    }

    #[test]
    fn a_big_document_s_schemas_and_examples_are_parsed_where_a_ref_first_leads() {
        let filler = |n: usize| json!({"type": "object", "description": "f".repeat(1000), "properties": {"n": {"type": "integer", "example": n}}});
        let mut schemas: serde_json::Map<String, Value> =
            (0..1200).map(|n| (format!("Filler{n}"), filler(n))).collect();
        schemas.insert(
            "Order".to_owned(),
            json!({"type": "object", "required": ["item"], "properties": {
                "item": {"$ref": "#/components/schemas/Item"},
                "note": {"$ref": "#/components/schemas/Item/properties/name"}
            }}),
        );
        schemas.insert(
            "Item".to_owned(),
            json!({"type": "object", "properties": {"name": {"type": "string", "description": "named"}}}),
        );
        // Examples are read only where a `$ref` leads too: here, oddly, to a parameter.
        let mut examples: serde_json::Map<String, Value> =
            (0..300).map(|n| (format!("Example{n}"), json!({"value": filler(n)}))).collect();
        examples.insert(
            "Parameter".to_owned(),
            json!({"value": {"name": "currency", "in": "query", "schema": {"type": "string"}}}),
        );
        let document = json!({
            "openapi": "3.0.0",
            "info": {"title": "Shop", "version": "1.0.0"},
            "servers": [{"url": "https://api.example.com"}],
            "paths": {"/orders": {"post": {
                "operationId": "order",
                "parameters": [{"$ref": "#/components/examples/Parameter/value"}],
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Order"}}}},
                "responses": {"200": {"description": "ok"}}
            }}},
            "components": {"schemas": schemas, "examples": examples}
        });
        let text = serde_json::to_string_pretty(&document).unwrap();
        assert!(text.len() > 1024 * 1024, "big enough to be parsed in pieces");
        let source = Source::from_text("shop.json", None, text);
        // The parse left every schema aside, unparsed.
        let parsed = parse(&source).unwrap();
        assert_eq!(parsed.pointer("/components/schemas"), Some(&json!({})));
        assert_eq!(parsed.pointer("/components/examples"), Some(&json!({})));
        let (ois, diagnostics) = converted(&document, &ConvertOptions::default());
        let names: Vec<&Value> =
            ois.pointer("/endpoints/0/parameters").unwrap().as_array().unwrap().iter().map(|p| &p["name"]).collect();
        assert!(names.len() >= 3, "{names:?} {diagnostics:?}");
        assert!(names.contains(&&json!("currency")), "{names:?}");
        // A `$ref` from a schema into what the conversion leaves out: everything is read.
        let mut into_paths = document.clone();
        into_paths["components"]["schemas"]["Filler7"]["properties"]["n"] =
            json!({"$ref": "#/paths/~1orders/post/responses/200"});
        let source = Source::from_text("shop.json", None, serde_json::to_string_pretty(&into_paths).unwrap());
        assert_eq!(parse(&source).unwrap(), into_paths);
    }
}
