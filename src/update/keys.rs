//! How an update knows each item across base, ours and theirs: an operation by (method, path), an
//! endpoint by its operation and name, a parameter by (in, name).

use std::collections::{HashMap, HashSet};

use serde_json::Value;

/// (method, path) of an endpoint's operation.
pub(super) type Operation = (String, String);

pub(super) fn operation_of(endpoint: &Value) -> Option<Operation> {
    let operation = endpoint.get("operation")?;
    let method = operation.get("method")?.as_str()?;
    let path = operation.get("path")?.as_str()?;
    Some((method.to_owned(), path.to_owned()))
}

pub(super) fn name_of(endpoint: &Value) -> Option<&str> {
    endpoint.get("name").and_then(Value::as_str)
}

pub(super) fn endpoints(ois: &Value) -> &[Value] {
    ois.get("endpoints").and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// (in, name) of an API parameter or of an `operationParameter`.
pub(super) fn located(value: &Value) -> Option<(String, String)> {
    Some((value.get("in")?.as_str()?.to_owned(), value.get("name")?.as_str()?.to_owned()))
}

pub(super) fn located_key(value: &Value) -> Option<String> {
    located(value).map(|(location, name)| format!("{location}\u{0}{name}"))
}

/// An endpoint parameter is known by the API parameter it maps, or else by its name.
pub(super) fn endpoint_parameter_key(parameter: &Value) -> Option<String> {
    match parameter.get("operationParameter") {
        Some(operation) => located_key(operation),
        None => parameter.get("name").and_then(Value::as_str).map(|name| format!("name\u{0}{name}")),
    }
}

pub(super) fn fixed_key(fixed: &Value) -> Option<String> {
    fixed.get("operationParameter").and_then(located_key)
}

pub(super) fn reserved_key(reserved: &Value) -> Option<String> {
    reserved.get("name").and_then(Value::as_str).map(str::to_owned)
}

/// An operation's parameters as (in, name), in order.
pub(super) type Parameters = indexmap::IndexSet<(String, String)>;

/// The parameters of each operation of `ois`.
pub(super) fn operations(ois: &Value) -> HashMap<Operation, Parameters> {
    let mut found = HashMap::new();
    let paths = ois.pointer("/apiSpecifications/paths").and_then(Value::as_object);
    for (path, item) in paths.into_iter().flatten() {
        for (method, operation) in item.as_object().into_iter().flatten() {
            let parameters = operation.get("parameters").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
            found.insert((method.clone(), path.clone()), parameters.iter().filter_map(located).collect());
        }
    }
    found
}

/// The indexes of `items` by `key`, in order.
pub(super) fn index_by<K: std::hash::Hash + Eq>(
    items: &[Value],
    key: impl Fn(&Value) -> Option<K>,
) -> HashMap<K, Vec<usize>> {
    let mut index: HashMap<K, Vec<usize>> = HashMap::new();
    for (at, item) in items.iter().enumerate() {
        if let Some(key) = key(item) {
            index.entry(key).or_default().push(at);
        }
    }
    index
}

/// `base` with a numeric suffix when another endpoint has that name (as the converter does).
pub(super) fn unique_name(base: &str, names: &HashSet<String>) -> String {
    if !names.contains(base) {
        return base.to_owned();
    }
    (2..).map(|n| format!("{base}{n}")).find(|name| !names.contains(name)).unwrap_or_else(|| base.to_owned())
}
