//! After the merge: every endpoint maps only the parameters its operation still has, and each one
//! the API added.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::keys::{Operation, Parameters, endpoints, index_by, located, name_of, operation_of, operations};
use super::merge::Notes;
use super::renames::likely_renames;
use crate::diagnostic::{Code, Diagnostic};

/// After the merge: every endpoint maps only parameters its operation still has (the rest are
/// removed and reported), and maps each parameter the API added (as the generated endpoint does,
/// unless it fixes it). `before` and `now` are base's and theirs' operations.
pub(super) fn tidy_mappings(
    merged: &mut Value,
    before: &HashMap<Operation, Parameters>,
    now: &HashMap<Operation, Parameters>,
    ours: &Value,
    theirs: &Value,
    notes: &mut Notes,
) {
    let declared = operations(merged);
    let had = operations(ours);
    // Parameters only one of `from` and `to` has, by operation both have.
    let only = |from: &HashMap<Operation, Parameters>, to: &HashMap<Operation, Parameters>| {
        let mut found: Vec<(Operation, Vec<(String, String)>)> = to
            .iter()
            .filter_map(|(operation, parameters)| {
                let other = from.get(operation)?;
                let new: Vec<_> = parameters.iter().filter(|p| !other.contains(*p)).cloned().collect();
                (!new.is_empty()).then(|| (operation.clone(), new))
            })
            .collect();
        found.sort();
        found
    };
    let added: HashMap<Operation, Vec<(String, String)>> = only(before, now).into_iter().collect();
    // Each operation's generated endpoint, where an added parameter's mapping is found.
    let generated_endpoints = index_by(endpoints(theirs), operation_of);
    let removed = only(now, before);
    for (operation, parameters) in &removed {
        if !declared.contains_key(operation) {
            continue;
        }
        let ours_had = |parameter: &(String, String)| had.get(operation).is_some_and(|list| list.contains(parameter));
        for (location, name) in parameters.iter().filter(|p| ours_had(p)) {
            if let Some(scheme) = scheme_sending(theirs, location, name) {
                notes.diagnostics.push(Diagnostic::new(
                    Code::CredentialParameter,
                    crate::pointer::join("/apiSpecifications/paths", [operation.1.as_str(), operation.0.as_str()]),
                    format!(
                        "{} {}: {location} parameter \"{name}\" is now the API's key, sent by security scheme \"{scheme}\" from the node's secrets; it is removed from the operation and from every endpoint that mapped or fixed it",
                        operation.0.to_uppercase(),
                        operation.1
                    ),
                ));
                continue;
            }
            notes.diagnostics.push(Diagnostic::new(
                Code::ApiParameterRemoved,
                crate::pointer::join("/apiSpecifications/paths", [operation.1.as_str(), operation.0.as_str()]),
                format!(
                    "{} {}: the API no longer has {location} parameter \"{name}\"; it is removed from the operation and from every endpoint that mapped or fixed it",
                    operation.0.to_uppercase(),
                    operation.1
                ),
            ));
        }
    }
    notes.diagnostics.extend(likely_renames(&removed, &added, ours));
    let reported: HashSet<(&Operation, &(String, String))> =
        removed.iter().flat_map(|(operation, parameters)| parameters.iter().map(move |p| (operation, p))).collect();
    // The generated mapping of each added parameter, from theirs' endpoint of the operation.
    let generated = |operation: &Operation, parameter: &(String, String)| -> Option<Value> {
        generated_endpoints
            .get(operation)
            .into_iter()
            .flatten()
            .filter_map(|index| endpoints(theirs).get(*index))
            .flat_map(|e| e.get("parameters").and_then(Value::as_array).into_iter().flatten())
            .find(|p| p.get("operationParameter").and_then(located).as_ref() == Some(parameter))
            .cloned()
    };
    let Some(list) = merged.get_mut("endpoints").and_then(Value::as_array_mut) else { return };
    for (index, endpoint) in list.iter_mut().enumerate() {
        let Some(operation) = operation_of(endpoint) else { continue };
        let Some(parameters) = declared.get(&operation) else { continue };
        let name = name_of(endpoint).unwrap_or_default().to_owned();
        for key in ["parameters", "fixedOperationParameters"] {
            let Some(items) = endpoint.get_mut(key).and_then(Value::as_array_mut) else { continue };
            items.retain(|item| {
                let Some(target) = item.get("operationParameter").and_then(located) else { return true };
                let keep = parameters.contains(&target);
                if !keep && !reported.contains(&(&operation, &target)) {
                    notes.diagnostics.push(Diagnostic::new(
                        Code::ApiParameterRemoved,
                        format!("/endpoints/{index}/{key}"),
                        format!(
                            "endpoint \"{name}\": the API no longer has {} parameter \"{}\" of {} {}; its mapping was removed",
                            target.0, target.1, operation.0.to_uppercase(), operation.1
                        ),
                    ));
                }
                keep
            });
        }
        for parameter in added.get(&operation).into_iter().flatten() {
            let mapped = ["parameters", "fixedOperationParameters"].iter().any(|key| {
                endpoint
                    .get(*key)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .any(|item| item.get("operationParameter").and_then(located).as_ref() == Some(parameter))
            });
            if mapped || !parameters.contains(parameter) {
                continue;
            }
            if let (Some(mapping), Some(items)) =
                (generated(&operation, parameter), endpoint.get_mut("parameters").and_then(Value::as_array_mut))
            {
                items.push(mapping);
            }
        }
    }
}

/// The apiKey scheme of `ois` that sends the `location` parameter `name` (header names compared
/// without case), if one does: the parameter was made the API's key, not taken away by the API.
pub(super) fn scheme_sending<'o>(ois: &'o Value, location: &str, name: &str) -> Option<&'o str> {
    let schemes = ois.pointer("/apiSpecifications/components/securitySchemes")?.as_object()?;
    schemes.iter().find_map(|(scheme, value)| {
        let sends = value.get("type")?.as_str()? == "apiKey"
            && value.get("in")?.as_str()? == location
            && value
                .get("name")?
                .as_str()
                .is_some_and(|n| if location == "header" { n.eq_ignore_ascii_case(name) } else { n == name });
        sends.then_some(scheme.as_str())
    })
}
