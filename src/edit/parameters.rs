//! An endpoint's parameters: an operation parameter fixed to a value or given back to the
//! requester, an endpoint parameter changed, added or dropped (and the operation's with it when no
//! other endpoint uses it).

use serde_json::{Value, json};

use super::{ParameterChange, declared, endpoint_at, endpoints, list_at, note, refuse, text};
use crate::diagnostic::{Diagnostic, Fix};
use crate::ois::model::RESERVED_NAMES;

/// Fixes operation parameter `name` of endpoint `index` (or the one its endpoint parameter `name`
/// maps) to `value`. A POST sends its `query`
/// parameters as the JSON body, their JSON types kept: a value written as a JSON object or array
/// is fixed as that JSON (a vendor refuses the text of it where it wants the thing), and a note
/// says so.
pub(super) fn fix(ois: &mut Value, index: usize, name: &str, value: &str) -> Result<Option<Diagnostic>, Diagnostic> {
    let endpoint = endpoint_at(ois, index)?;
    let post = endpoint
        .get("operation")
        .and_then(|operation| text(operation, "method"))
        .is_some_and(|method| method.eq_ignore_ascii_case("post"));
    let parameters = list_at(endpoint, "parameters")?;
    let mapped = parameters.iter().position(|p| text(p, "name") == Some(name));
    let target = match mapped {
        Some(at) => parameters.remove(at).get("operationParameter").cloned(),
        None => None,
    };
    let target = match target {
        Some(target) => target,
        None => {
            let operation = endpoint.get("operation").cloned().unwrap_or(Value::Null);
            let (method, path) = (
                text(&operation, "method").unwrap_or_default().to_owned(),
                text(&operation, "path").unwrap_or_default().to_owned(),
            );
            let declared =
                declared(ois, &method, &path).iter().find(|p| text(p, "name") == Some(name)).cloned().ok_or_else(
                    || refuse(format!("\"{name}\" is neither a parameter of the endpoint nor of its operation")),
                )?;
            json!({"in": declared.get("in"), "name": name})
        }
    };
    let in_body = post && target.get("in").and_then(Value::as_str) == Some("query");
    let structured = serde_json::from_str::<Value>(value.trim()).ok().filter(|v| v.is_object() || v.is_array());
    let (written, said) = match structured {
        Some(json) if in_body => {
            let said = note(
                String::new(),
                format!(
                    "\"{name}\" is fixed to the JSON {} in the POST body, not to its text",
                    crate::emit::printable(&js_text(&json))
                ),
            );
            (json, Some(said))
        }
        _ => (Value::String(value.to_owned()), None),
    };
    let endpoint = endpoint_at(ois, index)?;
    let fixed = list_at(endpoint, "fixedOperationParameters")?;
    fixed.retain(|f| f.get("operationParameter") != Some(&target));
    fixed.push(json!({"operationParameter": target, "value": written}));
    Ok(said)
}

/// A short JSON text of `value` for a note (its first 60 characters).
fn js_text(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", text.get(..cut).unwrap_or_default()),
        None => text,
    }
}

pub(super) fn change_parameter(
    ois: &mut Value,
    index: usize,
    name: &str,
    change: &ParameterChange,
) -> Result<Vec<Diagnostic>, Diagnostic> {
    let endpoint = endpoint_at(ois, index)?;
    let parameters = list_at(endpoint, "parameters")?;
    let mut notes = Vec::new();
    let at = match parameters.iter().position(|p| text(p, "name") == Some(name)) {
        Some(_) if *change == ParameterChange::Add => {
            return Err(refuse(format!("the endpoint already has a parameter \"{name}\"")));
        }
        Some(at) => at,
        None if matches!(change, ParameterChange::Drop | ParameterChange::Rename(_)) => {
            let names: Vec<&str> = parameters.iter().filter_map(|p| text(p, "name")).collect();
            return Err(refuse(format!(
                "the endpoint has no parameter \"{name}\" (its parameters: {})",
                names.join(", ")
            )));
        }
        None => {
            if RESERVED_NAMES.contains(&name) {
                return Err(refuse(format!("\"{name}\" is a reserved parameter, not a requester one"))
                    .with_fix(Fix::SetReserved(name.to_owned())));
            }
            // The operation's own parameter of that name, when it has one no fixed value takes.
            let declared = operation_parameter(ois, index, name);
            let endpoint = endpoint_at(ois, index)?;
            let fixed = endpoint.get("fixedOperationParameters").and_then(Value::as_array).is_some_and(|list| {
                list.iter().any(|f| f.pointer("/operationParameter/name").and_then(Value::as_str) == Some(name))
            });
            let parameters = list_at(endpoint, "parameters")?;
            match declared.filter(|_| !fixed) {
                Some(target) => {
                    let place = target.get("in").and_then(Value::as_str).unwrap_or("query").to_owned();
                    parameters.push(json!({"name": name, "operationParameter": target}));
                    notes.push(note(String::new(), format!("parameter \"{name}\" added: the requester gives the operation's {place} parameter \"{name}\"")));
                }
                None => {
                    parameters.push(json!({"name": name}));
                    notes.push(note(
                        String::new(),
                        format!(
                            "parameter \"{name}\" is new: it maps no operation parameter, so its value reaches processing only"
                        ),
                    ));
                }
            }
            parameters.len() - 1
        }
    };
    let endpoint = endpoint_at(ois, index)?;
    let parameters = list_at(endpoint, "parameters")?;
    if let ParameterChange::Rename(new) = change {
        let unseen = |c: char| c.is_control() || crate::emit::is_invisible(c);
        if new.trim().is_empty() || RESERVED_NAMES.contains(&new.as_str()) || new.chars().any(unseen) {
            return Err(refuse(format!("parameter name \"{}\" cannot be used", crate::emit::printable(new))));
        }
        if parameters.iter().any(|p| text(p, "name") == Some(new.as_str())) {
            return Err(refuse(format!("the endpoint already has a parameter \"{new}\"")));
        }
    }
    let Some(parameter) = parameters.get_mut(at).and_then(Value::as_object_mut) else {
        return Err(refuse(format!("parameter \"{name}\" is not an object")));
    };
    match change {
        ParameterChange::Required => {
            parameter.insert("required".to_owned(), Value::Bool(true));
        }
        ParameterChange::Optional => {
            parameter.remove("required");
        }
        ParameterChange::Default(value) => {
            parameter.insert("default".to_owned(), Value::String(value.clone()));
        }
        ParameterChange::Description(text) => {
            parameter.insert("description".to_owned(), Value::String(text.clone()));
        }
        ParameterChange::Rename(new) => {
            parameter.insert("name".to_owned(), Value::String(new.clone()));
        }
        ParameterChange::Add => {}
        ParameterChange::Drop => {
            let dropped = parameters.remove(at);
            if let Some(refusal) = drop_from_operation(ois, index, name, dropped.get("operationParameter")) {
                return Err(refusal);
            }
        }
    }
    Ok(notes)
}

/// The operation parameter `name` of endpoint `index`'s operation, as an endpoint parameter maps
/// it (`{"in", "name"}`), when the operation declares one.
fn operation_parameter(ois: &Value, index: usize, name: &str) -> Option<Value> {
    let operation = endpoints(ois).get(index)?.get("operation")?;
    let (method, path) = (text(operation, "method")?, text(operation, "path")?);
    let found = declared(ois, method, path).iter().find(|p| text(p, "name") == Some(name))?;
    Some(json!({"in": found.get("in"), "name": name}))
}

/// Operation parameter `name` of endpoint `index` no longer fixed: its fixed value goes, and an
/// endpoint parameter of the same name maps it (the requester gives it again).
pub(super) fn unfix(ois: &mut Value, index: usize, name: &str) -> Result<(), Diagnostic> {
    let endpoint = endpoint_at(ois, index)?;
    let fixed = list_at(endpoint, "fixedOperationParameters")?;
    let at = fixed
        .iter()
        .position(|f| f.pointer("/operationParameter/name").and_then(Value::as_str) == Some(name))
        .ok_or_else(|| {
            let names: Vec<&str> =
                fixed.iter().filter_map(|f| f.pointer("/operationParameter/name").and_then(Value::as_str)).collect();
            let listed = if names.is_empty() { "none".to_owned() } else { names.join(", ") };
            refuse(format!("the endpoint fixes no operation parameter \"{name}\" (it fixes: {listed})"))
        })?;
    let target = fixed.remove(at).get("operationParameter").cloned().unwrap_or(Value::Null);
    let parameters = list_at(endpoint, "parameters")?;
    if parameters.iter().any(|p| text(p, "name") == Some(name)) {
        return Err(refuse(format!("the endpoint already has a parameter \"{name}\": rename it first")));
    }
    parameters.push(json!({"name": name, "operationParameter": target}));
    Ok(())
}

/// Removes the operation parameter `target` a dropped endpoint parameter mapped; the refusal when
/// another endpoint on the same operation still maps or fixes it (it must).
fn drop_from_operation(ois: &mut Value, index: usize, name: &str, target: Option<&Value>) -> Option<Diagnostic> {
    let target = target?.clone();
    let operation = endpoints(ois).get(index)?.get("operation")?.clone();
    let uses = |endpoint: &Value| {
        let maps = endpoint
            .get("parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|p| p.get("operationParameter") == Some(&target));
        let fixes = endpoint
            .get("fixedOperationParameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|p| p.get("operationParameter") == Some(&target));
        endpoint.get("operation") == Some(&operation) && (maps || fixes)
    };
    let others: Vec<String> = endpoints(ois)
        .iter()
        .enumerate()
        .filter(|(i, e)| *i != index && uses(e))
        .filter_map(|(_, e)| text(e, "name").map(str::to_owned))
        .collect();
    let (method, path) = (text(&operation, "method")?.to_owned(), text(&operation, "path")?.to_owned());
    let pointer = crate::pointer::join("/apiSpecifications/paths", [path.as_str(), method.as_str(), "parameters"]);
    if !others.is_empty() {
        return Some(
            refuse(format!(
                "\"{name}\" cannot go: endpoint(s) {} on the same operation still use it, and every endpoint of an operation must map or fix each of its parameters",
                others.join(", ")
            ))
            .with_fix(Fix::FixParameter(name.to_owned())),
        );
    }
    let declared = ois.pointer_mut(&pointer)?.as_array_mut()?;
    declared.retain(|p| !(p.get("in") == target.get("in") && p.get("name") == target.get("name")));
    None
}
