//! Run-time traps the real validator lets through (ground truth §2–§4): reserved parameter values
//! the node cannot use, path values it inserts unencoded, and `${` its secrets interpolation takes.

use crate::pointer::Member as _;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::ois::reserved::{BASE_TYPES, escape_aware_split, parse_type};
use crate::pointer;

/// What the node trips on at run time in one OIS object; pointers are relative to it.
pub(super) fn check(ois: &Value) -> Vec<Diagnostic> {
    let mut diagnostics = templates(ois);
    let Some(endpoints) = ois.member("endpoints").and_then(Value::as_array) else { return diagnostics };
    // A feed endpoint's vendor path comes from its own table, a `/` in it meant, not from a requester.
    let serves_feeds = matches!(crate::ois::feeds::read(ois), Ok(Some(_)));
    for (index, endpoint) in endpoints.iter().enumerate() {
        let at = pointer::join("/endpoints", [index.to_string().as_str()]);
        let name = endpoint.member("name").and_then(Value::as_str).unwrap_or("?");
        reserved(endpoint, &at, name, &mut diagnostics);
        let from_table = serves_feeds && name == crate::ois::feeds::FEED_ENDPOINT;
        path_values(endpoint, &at, name, from_table, &mut diagnostics);
    }
    diagnostics
}

/// Every `${` the node's secrets interpolation would replace (or fail on) when it loads the
/// config; an OIS keeps its secrets in `apiCredentials`, outside the OIS, or after the host of its
/// server URL (an RPC provider's key in the URL's path).
fn templates(ois: &Value) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    crate::ois::templates::find_unescaped(ois, "", &mut found);
    found
        .into_iter()
        .filter_map(|at| {
            if crate::ois::templates::is_server_url(&at) {
                let url = ois.pointer(&at).and_then(Value::as_str).unwrap_or_default();
                let why = crate::node::server_url_secret_problem(url, crate::node::is_node_secret)?;
                return Some(
                    Diagnostic::new(Code::UnescapedTemplate, at, format!("the server URL's secret cannot be filled there: {why}"))
                        .with_help("the node fills a `${NAME}` of the server URL from its secrets: `https://host/path/${KEY}`, the key in a secrets file"),
                );
            }
            Some(Diagnostic::new(
                Code::UnescapedTemplate,
                at,
                "an unescaped `${`: the node replaces `${NAME}` with the secret NAME when it loads its config, and fails to start when there is none",
            )
            .with_help("write `\\${` for a literal `${` (`\\\\${` inside a JSON string); keep secrets in apiCredentials"))
        })
        .collect()
}

/// A reserved parameter's value as the node resolves it when the requester sends nothing:
/// `fixed || default` (an empty `fixed` falls through).
fn reserved_value<'v>(endpoint: &'v Value, name: &str) -> Option<(&'v str, String)> {
    let list = endpoint.member("reservedParameters")?.as_array()?;
    let (index, parameter) =
        list.iter().enumerate().find(|(_, p)| p.member("name").and_then(Value::as_str) == Some(name))?;
    let text = |key: &str| parameter.member(key).and_then(Value::as_str).filter(|s| !s.is_empty());
    let (key, value) = text("fixed").map(|v| ("fixed", v)).or_else(|| text("default").map(|v| ("default", v)))?;
    Some((value, format!("/reservedParameters/{index}/{key}")))
}

fn reserved(endpoint: &Value, at: &str, name: &str, diagnostics: &mut Vec<Diagnostic>) {
    if let Some(list) = endpoint.member("reservedParameters").and_then(Value::as_array) {
        for (index, parameter) in list.iter().enumerate() {
            if parameter.member("fixed").and_then(Value::as_str) == Some("") {
                let reserved = parameter.member("name").and_then(Value::as_str).unwrap_or("?");
                diagnostics.push(
                    Diagnostic::new(
                        Code::EmptyFixed,
                        format!("{at}/reservedParameters/{index}/fixed"),
                        format!("endpoint \"{name}\": `fixed: \"\"` on {reserved} does not fix anything; requesters can set it"),
                    )
                    .with_help("give the value to fix, or remove `fixed`"),
                );
            }
        }
    }
    let Some((types, type_at)) = reserved_value(endpoint, "_type") else { return };
    let type_at = format!("{at}{type_at}");
    let types = escape_aware_split(types, ',');
    let multiple = types.len() > 1;
    for kind in &types {
        match parse_type(kind) {
            None => diagnostics.push(
                Diagnostic::new(Code::UnencodableType, &type_at, format!("endpoint \"{name}\": the node cannot encode _type \"{kind}\""))
                    .with_help(format!("use one of {} (or arrays of them); separate several with `,` and no spaces", BASE_TYPES.join(", "))),
            ),
            Some(parsed) if parsed.dimensions > 0 && !parsed.is_numeric() => diagnostics.push(
                Diagnostic::new(
                    Code::ArrayTypeBroken,
                    &type_at,
                    format!("endpoint \"{name}\": _type \"{kind}\": the node casts array elements as numbers, so {} arrays fail or come out wrong", parsed.base),
                )
                .with_help("use int256[] or uint256[], or encode the values one by one"),
            ),
            _ => {}
        }
    }
    // `_path` and `_times` are split like `_type` only when it lists several types.
    let split =
        |value: &str| -> Vec<String> { if multiple { escape_aware_split(value, ',') } else { vec![value.to_owned()] } };
    let path = reserved_value(endpoint, "_path").map(|(v, p)| (split(v), format!("{at}{p}")));
    let times = reserved_value(endpoint, "_times").map(|(v, p)| (split(v), format!("{at}{p}")));
    for (values, value_at, what) in
        [path.as_ref().map(|(v, p)| (v, p, "_path")), times.as_ref().map(|(v, p)| (v, p, "_times"))]
            .into_iter()
            .flatten()
    {
        if multiple && values.len() != types.len() {
            diagnostics.push(Diagnostic::new(
                Code::ReservedCountMismatch,
                value_at,
                format!(
                    "endpoint \"{name}\": {what} has {} values for {} types; the node rejects the response",
                    values.len(),
                    types.len()
                ),
            ));
        }
    }
    for (position, kind) in types.iter().enumerate() {
        let value_at = |list: &Option<(Vec<String>, String)>| {
            list.as_ref().and_then(|(values, at)| values.get(position).filter(|v| !v.is_empty()).map(|_| at.clone()))
        };
        if kind == "timestamp"
            && let Some(value_at) = value_at(&path).or_else(|| value_at(&times))
        {
            diagnostics.push(
                Diagnostic::new(
                    Code::TimestampWithPath,
                    value_at,
                    format!("endpoint \"{name}\": _type timestamp takes no _path or _times; the node fails"),
                )
                .with_help("timestamp encodes the current time; leave its _path and _times empty"),
            );
        }
        let numeric = parse_type(kind).is_some_and(|parsed| parsed.is_numeric());
        if !numeric
            && kind != "timestamp"
            && let Some(value_at) = value_at(&times)
        {
            diagnostics.push(
                Diagnostic::new(
                    Code::TimesNotNumeric,
                    value_at,
                    format!("endpoint \"{name}\": _times cannot be used with _type \"{kind}\"; the node fails"),
                )
                .with_help("_times multiplies numbers: use it with int256 or uint256"),
            );
        }
    }
}

/// The base type and whether it is an array, for a type the node can encode.
fn path_values(endpoint: &Value, at: &str, name: &str, from_table: bool, diagnostics: &mut Vec<Diagnostic>) {
    let is_path = |item: &Value| {
        item.member("operationParameter").and_then(|p| p.member("in")).and_then(Value::as_str) == Some("path")
    };
    if let Some(fixed) = endpoint.member("fixedOperationParameters").and_then(Value::as_array) {
        for (index, item) in fixed.iter().enumerate().filter(|(_, item)| is_path(item)) {
            let value = match item.member("value") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => String::new(),
                Some(other) => other.to_string(),
            };
            let parameter =
                item.member("operationParameter").and_then(|p| p.member("name")).and_then(Value::as_str).unwrap_or("?");
            let unsafe_value = value.is_empty() || value.contains(['/', '?', '#']) || value.contains("$&");
            if unsafe_value {
                diagnostics.push(
                    Diagnostic::new(
                        Code::PathValueUnsafe,
                        format!("{at}/fixedOperationParameters/{index}/value"),
                        if value.is_empty() {
                            format!("endpoint \"{name}\": path parameter \"{parameter}\" is fixed to an empty value; the node fails")
                        } else {
                            format!("endpoint \"{name}\": fixed path value \"{value}\" for {{{parameter}}} is inserted unencoded and changes the URL's structure")
                        },
                    )
                    .with_help("this is fine only if you mean it (e.g. a `/{path}` operation); otherwise percent-encode the value"),
                );
            }
        }
    }
    if let Some(parameters) = endpoint.member("parameters").and_then(Value::as_array) {
        for (index, parameter) in parameters.iter().enumerate().filter(|(_, p)| is_path(p)) {
            let endpoint_parameter = parameter.member("name").and_then(Value::as_str).unwrap_or("?");
            if from_table && endpoint_parameter == crate::ois::feeds::PATH_PARAMETER {
                continue;
            }
            diagnostics.push(Diagnostic::new(
                Code::PathUnencoded,
                format!("{at}/parameters/{index}"),
                format!("endpoint \"{name}\": the value of \"{endpoint_parameter}\" goes into the path unencoded; `/`, `?` or `#` in it change the URL"),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn codes(reserved: Value) -> Vec<Code> {
        check(&json!({"endpoints": [{"name": "e", "reservedParameters": reserved}]})).iter().map(|d| d.code).collect()
    }

    #[test]
    fn reserved_traps() {
        assert_eq!(codes(json!([{"name": "_type", "fixed": "int256"}, {"name": "_times", "fixed": "1e18"}])), []);
        assert_eq!(codes(json!([{"name": "_type", "fixed": ""}])), [Code::EmptyFixed]);
        assert_eq!(codes(json!([{"name": "_type", "fixed": "int8"}])), [Code::UnencodableType]);
        assert_eq!(codes(json!([{"name": "_type", "fixed": "address[]"}])), [Code::ArrayTypeBroken]);
        assert_eq!(
            codes(json!([{"name": "_type", "fixed": "timestamp"}, {"name": "_path", "fixed": "a"}])),
            [Code::TimestampWithPath]
        );
        assert_eq!(
            codes(json!([{"name": "_type", "fixed": "string"}, {"name": "_times", "default": "100"}])),
            [Code::TimesNotNumeric]
        );
        assert_eq!(
            codes(
                json!([{"name": "_type", "fixed": "int256,string,timestamp"}, {"name": "_path", "fixed": "price,str,"}, {"name": "_times", "fixed": "100,,"}])
            ),
            []
        );
        assert_eq!(
            codes(json!([{"name": "_type", "fixed": "int256,int256"}, {"name": "_path", "fixed": "a\\,b"}])),
            [Code::ReservedCountMismatch]
        );
        // An escaped backslash before the comma: two paths, as the adapter splits them.
        assert_eq!(
            codes(json!([{"name": "_type", "fixed": "int256,int256"}, {"name": "_path", "fixed": "a\\\\,b"}])),
            []
        );
    }

    #[test]
    fn path_traps() {
        let ois = json!({"endpoints": [{"name": "e",
            "fixedOperationParameters": [{"operationParameter": {"in": "path", "name": "path"}, "value": "simple/price"}],
            "parameters": [{"name": "id", "operationParameter": {"in": "path", "name": "id"}}]}]});
        let codes: Vec<Code> = check(&ois).iter().map(|d| d.code).collect();
        assert_eq!(codes, [Code::PathValueUnsafe, Code::PathUnencoded]);
    }
}
