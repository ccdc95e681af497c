//! One mirror endpoint per kept operation. Names are stable across runs (Airnode Feed derives
//! on-chain endpoint IDs from them): lowerCamelCase of the operationId, else of method and path,
//! with numeric suffixes in document order where two would collide.

use foldhash::{HashSet, HashSetExt};

#[cfg(test)]
use super::shared::base_name;
use super::shared::{ApiParameter, KeptOperation};
use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::ois::model::{Endpoint, EndpointOperation, EndpointParameter, FixedParameter, ReservedParameter};
use crate::parallel;

/// Reserved parameters every generated endpoint lists, for the requester to supply.
const OPEN_RESERVED: [&str; 3] = ["_type", "_path", "_times"];

/// `names` are the natural names of every get/post operation in the document ([`Collected`]).
///
/// [`Collected`]: super::operations::Collected
/// `copy_defaults`: write the document's defaults of optional parameters as OIS defaults.
pub(super) fn build(
    operations: &[KeptOperation<'_>],
    names: &[String],
    copy_defaults: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Endpoint> {
    let unique = unique_names(names);
    // Side by side in groups (a big API has thousands), each with its own diagnostics, in order.
    let groups = parallel::map_chunks(operations, OPERATIONS_PER_TASK, |operations| {
        let mut diagnostics = Vec::new();
        let endpoints: Vec<Endpoint> = operations
            .iter()
            .map(|operation| endpoint(operation, names, &unique, copy_defaults, &mut diagnostics))
            .collect();
        (endpoints, diagnostics)
    });
    let mut endpoints = Vec::with_capacity(operations.len());
    for (group, found) in groups {
        endpoints.extend(group);
        diagnostics.extend(found);
    }
    endpoints
}

/// Operations made into endpoints by one task.
pub(super) const OPERATIONS_PER_TASK: usize = 64;

fn endpoint(
    operation: &KeptOperation<'_>,
    names: &[String],
    unique: &[String],
    copy_defaults: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Endpoint {
    let base = names.get(operation.name_index).map_or("", String::as_str);
    let name = unique.get(operation.name_index).map_or(base, String::as_str).to_owned();
    if name != base {
        diagnostics.push(Diagnostic::new(
            Code::EndpointRenamed,
            &operation.place,
            format!(
                "endpoint for {} {} is named \"{name}\": \"{}\" is already taken",
                operation.method.as_str().to_uppercase(),
                operation.path,
                base
            ),
        ));
    }
    Endpoint {
        name,
        operation: EndpointOperation { method: operation.method, path: operation.path.clone() },
        fixed_operation_parameters: fixed_parameters(operation, diagnostics),
        reserved_parameters: OPEN_RESERVED.iter().map(|name| ReservedParameter::open(name)).collect(),
        parameters: parameters(operation, copy_defaults, diagnostics),
        summary: operation.summary.map(str::to_owned),
        description: operation.description.map(str::to_owned),
        external_docs: operation.external_docs.map(str::to_owned),
    }
}

/// Natural names stay as they are; the second and later holders of a taken name get the smallest
/// free suffix (2, 3, …), so adding an operation never renames one that had its name to itself.
fn unique_names(bases: &[String]) -> Vec<String> {
    let taken: HashSet<&str> = bases.iter().map(String::as_str).collect();
    let mut used: HashSet<String> = HashSet::new();
    let mut names = Vec::with_capacity(bases.len());
    for base in bases {
        if used.insert(base.clone()) {
            names.push(base.clone());
            continue;
        }
        let name = (2u64..)
            .map(|n| format!("{base}{n}"))
            .find(|candidate| !taken.contains(candidate.as_str()) && !used.contains(candidate))
            .unwrap_or_else(|| base.clone());
        used.insert(name.clone());
        names.push(name);
    }
    names
}

fn parameters(
    operation: &KeptOperation<'_>,
    copy_defaults: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<EndpointParameter> {
    let mut used: HashSet<String> = HashSet::new();
    operation
        .parameters
        .iter()
        .filter(|parameter| fixed_value(parameter).is_none())
        .map(|parameter| {
            let base = sanitize_parameter_name(&parameter.name);
            let name = if used.contains(&base) {
                (2u64..).map(|n| format!("{base}{n}")).find(|c| !used.contains(c)).unwrap_or_else(|| base.clone())
            } else {
                base
            };
            if name != parameter.name {
                diagnostics.push(Diagnostic::new(
                    Code::ParamRenamed,
                    &operation.place,
                    format!(
                        "the endpoint parameter for {} parameter \"{}\" of {} {} is named \"{name}\"",
                        parameter.location.as_str(),
                        parameter.name,
                        operation.method.as_str().to_uppercase(),
                        operation.path
                    ),
                ));
            }
            used.insert(name.clone());
            let (default, example) = defaults(operation, parameter, copy_defaults, diagnostics);
            EndpointParameter {
                name,
                operation_parameter: Some(parameter.operation_parameter()),
                required: Some(parameter.required),
                default,
                example,
                description: parameter.description.map(str::to_owned),
            }
        })
        .collect()
}

/// The value a parameter is sent with whatever the requester asks: the one its document allows,
/// when it is required (an optional one may be left out, which the API may read otherwise).
fn fixed_value<'p>(parameter: &'p ApiParameter<'_>) -> Option<&'p serde_json::Value> {
    parameter.only.as_ref().filter(|_| parameter.required && !parameter.name.contains("${"))
}

/// The operation's parameters that allow one value, each fixed to it, with a note saying so.
fn fixed_parameters(operation: &KeptOperation<'_>, diagnostics: &mut Vec<Diagnostic>) -> Vec<FixedParameter> {
    let mut fixed = Vec::new();
    for parameter in &operation.parameters {
        let Some(value) = fixed_value(parameter) else { continue };
        diagnostics.push(
            Diagnostic::new(
                Code::ValueFixed,
                &operation.place,
                format!(
                    "{} \"{}\" of {} {} allows one value, {value}: it is sent as a fixed value, not asked of the requester",
                    what_it_is(operation, parameter),
                    parameter.name,
                    operation.method.as_str().to_uppercase(),
                    operation.path
                ),
            )
            .about(parameter.location.as_str()),
        );
        fixed.push(FixedParameter { operation_parameter: parameter.operation_parameter(), value: value.clone() });
    }
    fixed
}

/// What a parameter is to a person: a POST sends its `query` parameters as its JSON body's
/// properties.
fn what_it_is(operation: &KeptOperation<'_>, parameter: &ApiParameter<'_>) -> String {
    match (operation.method, parameter.location) {
        (crate::ois::model::Method::Post, crate::ois::model::Location::Query) => "body property".to_owned(),
        (_, location) => format!("{} parameter", location.as_str()),
    }
}

/// The OIS `default` and `example` of a parameter. The node sends a default whenever the requester
/// gives no value, while the API applies its own default to an absent parameter: copying it gains
/// nothing and can change the answer (alternative parameters all get sent). So the document's
/// default is written only for an optional parameter and only when asked; otherwise it is kept as
/// the example when there is none, and a note says so.
fn defaults(
    operation: &KeptOperation<'_>,
    parameter: &ApiParameter,
    copy_defaults: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Option<String>, Option<String>) {
    let Some(value) = &parameter.default else { return (None, parameter.example.clone()) };
    if copy_defaults && !parameter.required {
        return (Some(value.clone()), parameter.example.clone());
    }
    let kept = if parameter.example.is_none() { "; it is kept as the example" } else { "" };
    let label = format!("{} {}", operation.method.as_str().to_uppercase(), operation.path);
    let what = what_it_is(operation, parameter);
    let it = if what == "body property" { "property" } else { "parameter" };
    let mut note = Diagnostic::new(
        Code::DefaultNotWritten,
        &operation.place,
        format!(
            "the default \"{value}\" of {what} \"{}\" of {label} is not written: the API applies its own when the {it} is absent{kept}",
            parameter.name
        ),
    )
    .about(parameter.location.as_str());
    note = if parameter.required {
        note.with_help("a required parameter's value must come from the requester")
    } else {
        note.with_fix(Fix::CopyDefaults)
    };
    diagnostics.push(note);
    (None, parameter.example.clone().or_else(|| Some(value.clone())))
}

/// No whitespace (runs become `_`) and no leading `_` (the OIS format reserves those names).
pub(crate) fn sanitize_parameter_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for word in name.split(crate::js::is_whitespace).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push('_');
        }
        out.push_str(word);
    }
    let trimmed = out.trim_start_matches('_');
    if trimmed.is_empty() { "param".to_owned() } else { trimmed.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn names_from_operation_id_or_method_and_path() {
        assert_eq!(base_name(Some("coins/markets"), "get", "/x"), "coinsMarkets");
        assert_eq!(base_name(Some("CoinMarketData"), "get", "/x"), "coinMarketData");
        assert_eq!(base_name(None, "get", "/coins/{id}/history"), "getCoinsIdHistory");
        assert_eq!(base_name(Some("!!"), "post", "/"), "post");
    }

    #[test]
    fn names_do_not_depend_on_which_operations_are_kept() {
        use crate::convert::{ConvertOptions, convert_value, filter::Filter};
        use serde_json::json;
        let document = |first: serde_json::Value| {
            json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "servers": [{"url": "https://x.io"}],
                "paths": {"/a": {"get": first}, "/b": {"get": {"operationId": "list"}, "post": {"operationId": "list2"}}}})
        };
        let names = |document: &serde_json::Value, options: &ConvertOptions| -> Vec<String> {
            let ois = convert_value(document, options).unwrap().ois;
            ois["endpoints"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap().to_owned()).collect()
        };
        let all = document(json!({"operationId": "list"}));
        assert_eq!(names(&all, &ConvertOptions::default()), ["list", "list3", "list2"]);
        let only_b = ConvertOptions { include: vec![Filter::parse("GET /b").unwrap()], ..ConvertOptions::default() };
        assert_eq!(names(&all, &only_b), ["list3"]);
        // A broken first operation still holds its name.
        let mut broken = document(json!({}));
        broken["paths"]["/a"] = json!({"post": {"operationId": "list", "requestBody": {"$ref": "#/missing"}}});
        assert_eq!(names(&broken, &ConvertOptions::default()), ["list3", "list2"]);
    }

    #[test]
    fn a_required_parameter_of_one_value_is_fixed_to_it() {
        use crate::convert::{ConvertOptions, convert_value};
        use serde_json::json;
        let body = json!({"type": "object", "required": ["jsonrpc", "method", "params", "id", "blank"], "properties": {
            "jsonrpc": {"enum": ["2.0"]}, "method": {"const": "eth_call"}, "params": {"type": "array"},
            "id": {"type": "integer", "enum": [1]}, "tag": {"enum": ["latest"]}, "blank": {"const": ""},
            "many": {"enum": ["a", "b"]}}});
        let document = json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
            "servers": [{"url": "https://x.io"}],
            "paths": {"/": {"post": {"operationId": "call", "requestBody": {"content": {"application/json": {"schema": body}}}}},
                "/q": {"get": {"parameters": [{"name": "v", "in": "query", "required": true, "schema": {"enum": [2]}}]}}}});
        let converted = convert_value(&document, &ConvertOptions::default()).unwrap();
        let endpoint = &converted.ois["endpoints"][0];
        assert_eq!(
            endpoint["fixedOperationParameters"],
            json!([
                {"operationParameter": {"in": "query", "name": "jsonrpc"}, "value": "2.0"},
                {"operationParameter": {"in": "query", "name": "method"}, "value": "eth_call"},
                {"operationParameter": {"in": "query", "name": "id"}, "value": 1},
            ])
        );
        let asked: Vec<&str> =
            endpoint["parameters"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
        // Optional (`tag`), empty (`blank`) or of many values: still the requester's.
        assert_eq!(asked, ["params", "tag", "blank", "many"]);
        assert_eq!(converted.ois["endpoints"][1]["fixedOperationParameters"][0]["value"], json!(2));
        let notes = converted.diagnostics.iter().filter(|d| d.code == Code::ValueFixed).count();
        assert_eq!(notes, 4);
    }

    #[test]
    fn parameter_names() {
        assert_eq!(sanitize_parameter_name("_id"), "id");
        assert_eq!(sanitize_parameter_name(" page size "), "page_size");
        assert_eq!(sanitize_parameter_name("___"), "param");
        assert_eq!(sanitize_parameter_name("X-Api-Key"), "X-Api-Key");
    }

    proptest! {
        #[test]
        fn sanitized_names_are_valid(name in "\\PC{0,30}") {
            let sanitized = sanitize_parameter_name(&name);
            prop_assert!(!sanitized.is_empty());
            prop_assert!(!sanitized.starts_with('_'));
            prop_assert!(!sanitized.chars().any(crate::js::is_whitespace));
        }
    }
}
