//! Parameters the API moved (same name, another `in`) or renamed (same place, a name alike): found
//! between base and theirs, so the merge sees the user's refinements of them unchanged.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::keys::{Operation, Parameters, endpoints, located, name_of, operation_of};
use super::merge::Notes;
use crate::diagnostic::{Code, Diagnostic};

/// Parameters that moved (`in` changed, same name, same operation) between base and theirs, each
/// reported; the merge moves them in base and ours too, so that it sees the user's refinements of
/// them unchanged.
pub(super) fn find_moves(
    before: &HashMap<Operation, Parameters>,
    after: &HashMap<Operation, Parameters>,
    notes: &mut Notes,
) -> Moves {
    let mut moves: Vec<(Operation, String, String, String)> = Vec::new();
    for (operation, old) in before {
        let Some(new) = after.get(operation) else { continue };
        // Names the API declares anew, each with where it now is.
        let arrived: HashMap<&str, &str> = new
            .iter()
            .filter(|parameter| !old.contains(*parameter))
            .map(|(location, name)| (name.as_str(), location.as_str()))
            .collect();
        for (location, name) in old {
            if new.contains(&(location.clone(), name.clone())) {
                continue;
            }
            if let Some(to) = arrived.get(name.as_str()) {
                moves.push((operation.clone(), name.clone(), location.clone(), (*to).to_owned()));
            }
        }
    }
    moves.sort();
    for (operation, name, from, to) in &moves {
        notes.diagnostics.push(Diagnostic::new(
            Code::ApiParameterMoved,
            crate::pointer::join("/apiSpecifications/paths", [operation.1.as_str(), operation.0.as_str()]),
            format!(
                "{} {}: parameter \"{name}\" moved from {from} to {to}; the endpoints that map or fix it follow",
                operation.0.to_uppercase(),
                operation.1
            ),
        ));
    }
    let mut by_operation = Moves::new();
    for (operation, name, from, to) in moves {
        by_operation.entry(operation).or_default().insert((from, name), to);
    }
    by_operation
}

/// By operation: (in, name) of each parameter that moved → its new `in`.
pub(super) type Moves = HashMap<Operation, HashMap<(String, String), String>>;

/// Gives each moved parameter its new `in`, in the operations and in the endpoints that map or
/// fix it.
pub(super) fn move_parameters(ois: &mut Value, moves: &Moves) {
    let rewrite = |value: &mut Value, moved: &HashMap<(String, String), String>| {
        let Some(target) = located(value) else { return };
        if let (Some(to), Some(map)) = (moved.get(&target), value.as_object_mut()) {
            map.insert("in".to_owned(), json!(to));
        }
    };
    if let Some(paths) = ois.pointer_mut("/apiSpecifications/paths").and_then(Value::as_object_mut) {
        for (path, item) in paths.iter_mut() {
            for (method, operation) in item.as_object_mut().into_iter().flatten() {
                let Some(moved) = moves.get(&(method.clone(), path.clone())) else { continue };
                for parameter in operation.get_mut("parameters").and_then(Value::as_array_mut).into_iter().flatten() {
                    rewrite(parameter, moved);
                }
            }
        }
    }
    for endpoint in ois.get_mut("endpoints").and_then(Value::as_array_mut).into_iter().flatten() {
        let Some(moved) = operation_of(endpoint).and_then(|operation| moves.get(&operation)) else { continue };
        for list in ["parameters", "fixedOperationParameters"] {
            for item in endpoint.get_mut(list).and_then(Value::as_array_mut).into_iter().flatten() {
                if let Some(target) = item.get_mut("operationParameter") {
                    rewrite(target, moved);
                }
            }
        }
    }
}

/// Names alike enough to be one renamed: equal but for case, `_` and `-`, or one inside the
/// other.
pub(super) fn alike(a: &str, b: &str) -> bool {
    let plain = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase();
    let (a, b) = (plain(a), plain(b));
    !a.is_empty() && !b.is_empty() && (a == b || a.contains(&b) || b.contains(&a))
}

/// A parameter that went and another that came in the same place of an operation (the only pair
/// there, or alike names): likely a rename, which refinements do not follow. The note names the
/// command that carries each fixed value over.
pub(super) fn likely_renames(
    removed: &[(Operation, Vec<(String, String)>)],
    added: &HashMap<Operation, Vec<(String, String)>>,
    ours: &Value,
) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    for (operation, gone) in removed {
        let came = added.get(operation).map_or(&[][..], Vec::as_slice);
        for (location, old) in gone {
            let here = |list: &[(String, String)]| list.iter().filter(|(l, _)| l == location).count();
            let new =
                came.iter().find(|(l, n)| l == location && (alike(old, n) || (here(gone) == 1 && here(came) == 1)));
            let Some((_, new)) = new else { continue };
            let mut carry = Vec::new();
            for endpoint in endpoints(ours).iter().filter(|e| operation_of(e).as_ref() == Some(operation)) {
                let fixed =
                    endpoint.get("fixedOperationParameters").and_then(Value::as_array).into_iter().flatten().find(
                        |f| {
                            f.get("operationParameter").and_then(located).as_ref()
                                == Some(&(location.clone(), old.clone()))
                        },
                    );
                if let (Some(fixed), Some(name)) = (fixed, name_of(endpoint)) {
                    let value = fixed
                        .get("value")
                        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                        .unwrap_or_default();
                    carry.push((name.to_owned(), new.clone(), value));
                }
            }
            let mut note = Diagnostic::new(
                Code::ParameterRenamed,
                crate::pointer::join("/apiSpecifications/paths", [operation.1.as_str(), operation.0.as_str()]),
                format!(
                    "{} {}: {location} parameter \"{old}\" went and \"{new}\" came in its place: likely a rename, and refinements do not follow one",
                    operation.0.to_uppercase(),
                    operation.1
                ),
            );
            note.severity = crate::diagnostic::Severity::Note;
            if !carry.is_empty() {
                note = note.with_fix(crate::diagnostic::Fix::CarryFixed { file: "OIS".to_owned(), fixes: carry });
            }
            notes.push(note);
        }
    }
    notes
}
