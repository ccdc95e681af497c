//! Refinements of an OIS as operations, the ones every production OIS carries: rename an
//! endpoint, fix its reserved parameters, fix an operation parameter to a value, change or drop a
//! parameter, keep only some endpoints, add a second endpoint on an operation, attach processing.
//! Each works on the OIS `Value` in place and keeps everything else as it was (key order
//! included), so `ois convert --update` keeps the result as it keeps any refinement. Whether the
//! result passes every OIS rule is the caller's check ([`crate::jobs::endpoint`] refuses to write
//! one that does not).

pub mod feeds;
mod follow;
mod parameters;
pub mod restyle;

pub use follow::{follow_rename, forget_endpoint, references};

use crate::pointer::Member as _;
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::ois::model::RESERVED_NAMES;

/// What to change of an endpoint.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Settings {
    /// Reserved parameters: the name and its fixed value (`None`: left to the requester).
    pub reserved: Vec<(String, Option<String>)>,
    /// Reserved parameters taken away from the endpoint (a `_path` picked before, to pick again).
    pub unreserved: Vec<String>,
    /// Operation parameters fixed to a value (the endpoint parameter mapping it goes).
    pub fixed: Vec<(String, String)>,
    /// Operation parameters no longer fixed: the requester gives them again (an endpoint
    /// parameter of the same name maps each).
    pub unfixed: Vec<String>,
    /// Endpoint parameters changed or dropped.
    pub parameters: Vec<(String, ParameterChange)>,
    /// Pre-processing to attach.
    pub pre: Option<Snippet>,
    /// Post-processing to attach.
    pub post: Option<Snippet>,
}

/// A change of one endpoint parameter. As data (the studio's page sends it so): `"required"`,
/// `"optional"`, `"drop"`, `"add"`, `{"default": V}`, `{"description": TEXT}`, `{"rename": NEW}`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ParameterChange {
    /// The requester must give it.
    Required,
    /// The requester may leave it out.
    Optional,
    /// Its value when the requester gives none (airnode-node; Airnode Feed applies no defaults).
    Default(String),
    /// Its description.
    Description(String),
    /// Its name (the operation parameter it maps stays).
    Rename(String),
    /// Gone from the endpoint (and from the operation when no other endpoint uses it).
    Drop,
    /// A new endpoint parameter: it maps the operation's parameter of that name when the
    /// operation declares one, else it reaches processing only.
    Add,
}

impl ParameterChange {
    /// `required`, `optional`, `default=V`, `description=TEXT`, `rename=NEW`, `drop` or `add`.
    pub fn parse(text: &str) -> Option<ParameterChange> {
        match text {
            "required" => Some(ParameterChange::Required),
            "optional" => Some(ParameterChange::Optional),
            "drop" => Some(ParameterChange::Drop),
            "add" => Some(ParameterChange::Add),
            _ => match text.split_once('=') {
                Some(("default", value)) => Some(ParameterChange::Default(value.to_owned())),
                Some(("description", value)) => Some(ParameterChange::Description(value.to_owned())),
                Some(("rename", value)) => Some(ParameterChange::Rename(value.to_owned())),
                _ => None,
            },
        }
    }
}

/// Processing code to attach to an endpoint.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Snippet {
    /// The code as the node runs it (a `${` is escaped as it goes into the OIS): a V2 function
    /// expression, or a V1 `Node` snippet.
    pub code: String,
    /// A V1 chain (`preProcessingSpecifications`) of this one snippet instead of V2.
    pub v1: bool,
}

impl Snippet {
    /// `code` as a V2 snippet.
    pub fn v2(code: impl Into<String>) -> Snippet {
        Snippet { code: code.into(), v1: false }
    }
}

/// The snippets' time limit written with attached code (the node's own default for V2 is 10 s;
/// Airnode Feed's cycle is shorter).
const SNIPPET_TIMEOUT_MS: u64 = 5_000;
/// Longer names than this are refused: an endpoint name goes into IDs, logs and file names.
const MAX_NAME_CHARS: usize = 64;

/// One endpoint as `ois endpoint list` shows it.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EndpointSummary {
    /// The name.
    pub name: String,
    /// `GET /path`, or none for an endpoint without an API call.
    pub operation: Option<String>,
    /// Its parameters: name, and whether required.
    pub parameters: Vec<ParameterSummary>,
    /// Its reserved parameters with their fixed values.
    pub reserved: Vec<(String, Option<Value>)>,
    /// The operation parameters it fixes.
    pub fixed: Vec<(String, Value)>,
    /// Whether it has pre- or post-processing.
    pub processing: bool,
    /// Its endpoint ID (`keccak256(abi.encode(title, name))`).
    pub endpoint_id: String,
}

/// One endpoint parameter as listed.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[non_exhaustive]
pub struct ParameterSummary {
    /// Its name.
    pub name: String,
    /// Whether the requester must give it.
    pub required: bool,
    /// Its default, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
}

fn refuse(message: String) -> Diagnostic {
    Diagnostic::elsewhere(Code::BadEdit, message)
}

pub(crate) fn note(at: String, message: String) -> Diagnostic {
    let mut note = Diagnostic::new(Code::EditNote, at, message);
    note.severity = Severity::Note;
    note
}

fn text<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.member(key).and_then(Value::as_str)
}

fn endpoints(ois: &Value) -> &[Value] {
    ois.member("endpoints").and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

fn endpoints_mut(ois: &mut Value) -> Result<&mut Vec<Value>, Diagnostic> {
    ois.get_mut("endpoints")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| refuse("the OIS has no `endpoints` list".to_owned()))
}

/// The index of the endpoint `name`, or the error naming the endpoints there are.
fn position(ois: &Value, name: &str) -> Result<usize, Diagnostic> {
    endpoints(ois).iter().position(|e| text(e, "name") == Some(name)).ok_or_else(|| {
        let there: Vec<&str> = names(ois).collect();
        refuse(format!("no endpoint \"{name}\" (the endpoints: {})", there.join(", ")))
    })
}

/// A name an endpoint can have: not empty, at most 64 characters, no control characters or path
/// separators, and not the name of another endpoint.
fn check_name(ois: &Value, name: &str) -> Result<(), Diagnostic> {
    let shown = crate::emit::printable(name);
    if name.trim().is_empty() || name.trim() != name {
        return Err(refuse(format!("endpoint name \"{shown}\": empty, or with spaces at its ends")));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(refuse(format!("endpoint name \"{shown}\" is longer than {MAX_NAME_CHARS} characters")));
    }
    if name.chars().any(|c| c.is_control() || crate::emit::is_invisible(c) || matches!(c, '/' | '\\')) {
        return Err(refuse(format!(
            "endpoint name \"{shown}\" has a control character, an invisible or bidirectional format character, or a path separator"
        )));
    }
    if names(ois).any(|taken| taken == name) {
        return Err(refuse(format!("endpoint name \"{shown}\" is taken")));
    }
    Ok(())
}

/// The names of the endpoints of `ois`, in order (what [`list`] shows without deriving IDs).
pub fn names(ois: &Value) -> impl Iterator<Item = &str> {
    endpoints(ois).iter().filter_map(|e| text(e, "name"))
}

/// Every endpoint of `ois`, for listing.
pub fn list(ois: &Value) -> Vec<EndpointSummary> {
    let title = text(ois, "title").unwrap_or_default();
    endpoints(ois)
        .iter()
        .map(|endpoint| {
            let name = text(endpoint, "name").unwrap_or_default().to_owned();
            let operation = endpoint.member("operation").filter(|o| o.is_object()).map(|o| {
                format!(
                    "{} {}",
                    text(o, "method").unwrap_or_default().to_uppercase(),
                    text(o, "path").unwrap_or_default()
                )
            });
            let list = |key: &str| endpoint.member(key).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
            let parameters = list("parameters")
                .iter()
                .map(|p| ParameterSummary {
                    name: text(p, "name").unwrap_or_default().to_owned(),
                    required: p.member("required").and_then(Value::as_bool).unwrap_or(false),
                    default: p.member("default").cloned(),
                })
                .collect();
            let reserved = list("reservedParameters")
                .iter()
                .map(|p| (text(p, "name").unwrap_or_default().to_owned(), p.member("fixed").cloned()))
                .collect();
            let fixed = list("fixedOperationParameters")
                .iter()
                .map(|p| {
                    let at =
                        p.member("operationParameter").and_then(|o| text(o, "name")).unwrap_or_default().to_owned();
                    (at, p.member("value").cloned().unwrap_or(Value::Null))
                })
                .collect();
            let processing = [
                "preProcessingSpecifications",
                "preProcessingSpecificationV2",
                "postProcessingSpecifications",
                "postProcessingSpecificationV2",
            ]
            .iter()
            .any(|key| endpoint.member(key).is_some_and(|v| !v.is_null()));
            let endpoint_id = crate::node::endpoint_id(title, &name);
            EndpointSummary { name, operation, parameters, reserved, fixed, processing, endpoint_id }
        })
        .collect()
}

/// The operation `GET /path` of the OIS's `apiSpecifications`, as (method, path).
fn operation_of(ois: &Value, operation: &str) -> Result<(String, String), Diagnostic> {
    let (method, path) =
        operation
            .split_once(' ')
            .map(|(m, p)| (m.trim().to_ascii_lowercase(), p.trim().to_owned()))
            .ok_or_else(|| refuse(format!("operation \"{operation}\": write it METHOD /path, e.g. 'GET /rates'")))?;
    let exists = ois
        .pointer("/apiSpecifications/paths")
        .and_then(|paths| paths.get(&path))
        .and_then(|p| p.get(&method))
        .is_some();
    if !exists {
        return Err(refuse(format!(
            "the OIS has no operation {} {path} in apiSpecifications.paths",
            method.to_uppercase()
        )));
    }
    Ok((method, path))
}

/// The parameters `apiSpecifications` declares for the operation `method` `path` (none when it
/// has no such operation).
fn declared<'o>(ois: &'o Value, method: &str, path: &str) -> &'o [Value] {
    ois.pointer("/apiSpecifications/paths")
        .and_then(|paths| paths.get(path))
        .and_then(|item| item.member(method))
        .and_then(|operation| operation.member("parameters"))
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Adds endpoint `name` on `operation` (`GET /path`), each of the operation's parameters mapped,
/// the reserved parameters open, then `settings` applied.
pub fn add(ois: &mut Value, name: &str, operation: &str, settings: &Settings) -> Result<Vec<Diagnostic>, Diagnostic> {
    check_name(ois, name)?;
    let (method, path) = operation_of(ois, operation)?;
    let declared = declared(ois, &method, &path).to_vec();
    let mut parameters = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for parameter in &declared {
        let (Some(location), Some(operation_name)) = (text(parameter, "in"), text(parameter, "name")) else { continue };
        // Two operation parameters of one name (a query `id`, a path `id`) need two endpoint names.
        let endpoint_name = if names.iter().any(|n| n == operation_name) {
            format!("{location}_{operation_name}")
        } else {
            operation_name.to_owned()
        };
        names.push(endpoint_name.clone());
        parameters.push(json!({"name": endpoint_name, "operationParameter": {"in": location, "name": operation_name}}));
    }
    let endpoint = json!({
        "name": name,
        "operation": {"method": method, "path": path},
        "fixedOperationParameters": [],
        "reservedParameters": [{"name": "_type"}, {"name": "_path"}, {"name": "_times"}],
        "parameters": parameters,
    });
    endpoints_mut(ois)?.push(endpoint);
    set(ois, name, settings, None)
}

/// Applies `settings` to endpoint `name`, then renames it to `rename`. The notes say what was
/// kept that the user may have expected gone.
pub fn set(
    ois: &mut Value,
    name: &str,
    settings: &Settings,
    rename: Option<&str>,
) -> Result<Vec<Diagnostic>, Diagnostic> {
    let index = position(ois, name)?;
    let mut notes = Vec::new();
    for name in &settings.unreserved {
        unreserve(ois, index, name)?;
    }
    for (reserved, value) in &settings.reserved {
        set_reserved(ois, index, reserved, value.as_deref())?;
    }
    for parameter in &settings.unfixed {
        parameters::unfix(ois, index, parameter)?;
    }
    for (parameter, value) in &settings.fixed {
        notes.extend(parameters::fix(ois, index, parameter, value)?);
    }
    for (parameter, change) in &settings.parameters {
        // Fixing a parameter already takes it off the endpoint (and needs the operation's): a
        // drop of it in the same edit asks for nothing more.
        if *change == ParameterChange::Drop && settings.fixed.iter().any(|(fixed, _)| fixed == parameter) {
            continue;
        }
        notes.extend(parameters::change_parameter(ois, index, parameter, change)?);
    }
    for (key_v2, key_v1, snippet) in [
        ("preProcessingSpecificationV2", "preProcessingSpecifications", &settings.pre),
        ("postProcessingSpecificationV2", "postProcessingSpecifications", &settings.post),
    ] {
        if let Some(snippet) = snippet {
            attach(ois, index, key_v2, key_v1, snippet)?;
        }
    }
    if let Some(new) = rename
        && new != name
    {
        check_name(ois, new)?;
        if let Some(endpoint) = endpoints_mut(ois)?.get_mut(index) {
            endpoint["name"] = Value::String(new.to_owned());
        }
    }
    Ok(notes)
}

fn endpoint_at(ois: &mut Value, index: usize) -> Result<&mut Map<String, Value>, Diagnostic> {
    endpoints_mut(ois)?
        .get_mut(index)
        .and_then(Value::as_object_mut)
        .ok_or_else(|| refuse("the endpoint is gone".to_owned()))
}

fn list_at<'e>(endpoint: &'e mut Map<String, Value>, key: &str) -> Result<&'e mut Vec<Value>, Diagnostic> {
    let slot = endpoint.entry(key.to_owned()).or_insert_with(|| Value::Array(Vec::new()));
    if !slot.is_array() {
        *slot = Value::Array(Vec::new());
    }
    slot.as_array_mut().ok_or_else(|| refuse(format!("`{key}` is not a list")))
}

/// `_times` as the node reads it (bignumber.js): a decimal number, `1e18` written out.
fn times_value(value: &str) -> Result<String, Diagnostic> {
    let bad = || refuse(format!("_times \"{value}\" is not a number the node can multiply by"));
    let number: f64 = value.parse().map_err(|_| bad())?;
    if !number.is_finite() {
        return Err(bad());
    }
    match value.split_once(['e', 'E']) {
        Some((mantissa, exponent)) if !mantissa.contains('.') && !exponent.starts_with('-') => {
            let zeros: usize = exponent.trim_start_matches('+').parse().map_err(|_| bad())?;
            if zeros > 77 {
                return Err(bad());
            }
            Ok(format!("{mantissa}{}", "0".repeat(zeros)))
        }
        _ => Ok(value.to_owned()),
    }
}

/// Takes the reserved parameter `name` away from the endpoint at `index`; refused when it has none.
fn unreserve(ois: &mut Value, index: usize, name: &str) -> Result<(), Diagnostic> {
    let endpoint = endpoint_at(ois, index)?;
    let reserved = list_at(endpoint, "reservedParameters")?;
    let before = reserved.len();
    reserved.retain(|r| text(r, "name") != Some(name));
    if reserved.len() == before {
        return Err(refuse(format!("the endpoint has no reserved parameter \"{name}\" to take away")));
    }
    Ok(())
}

fn set_reserved(ois: &mut Value, index: usize, name: &str, value: Option<&str>) -> Result<(), Diagnostic> {
    if !RESERVED_NAMES.contains(&name) {
        return Err(refuse(format!("\"{name}\" is not a reserved parameter ({})", RESERVED_NAMES.join(", "))));
    }
    // `_type` and `_times` may list one entry per value (`int256,int256`, `1e18,`), as the node
    // splits them.
    let value = match (name, value) {
        ("_type", Some(kinds)) => {
            let unknown = kinds.split(',').find(|kind| crate::ois::reserved::parse_type(kind).is_none());
            if let Some(kind) = unknown {
                return Err(refuse(format!(
                    "_type \"{kind}\" is not a type the encoder knows (int256, uint256, bool, bytes32, address, bytes, string, string32, timestamp, arrays of them; several are written int256,uint256)"
                )));
            }
            Some(kinds.to_owned())
        }
        ("_times", Some(times)) if times.contains(',') => Some(
            times
                .split(',')
                .map(|part| if part.is_empty() { Ok(String::new()) } else { times_value(part) })
                .collect::<Result<Vec<_>, _>>()?
                .join(","),
        ),
        ("_times", Some(times)) => Some(times_value(times)?),
        (_, value) => value.map(str::to_owned),
    };
    let endpoint = endpoint_at(ois, index)?;
    let reserved = list_at(endpoint, "reservedParameters")?;
    let entry = match reserved.iter_mut().find(|r| text(r, "name") == Some(name)) {
        Some(entry) => entry,
        None => {
            reserved.push(json!({"name": name}));
            reserved.last_mut().ok_or_else(|| refuse("the reserved parameter is gone".to_owned()))?
        }
    };
    if let Some(object) = entry.as_object_mut() {
        object.remove("default");
        match value {
            Some(value) => {
                object.insert("fixed".to_owned(), Value::String(value));
            }
            None => {
                object.remove("fixed");
            }
        }
    }
    Ok(())
}

fn attach(ois: &mut Value, index: usize, key_v2: &str, key_v1: &str, snippet: &Snippet) -> Result<(), Diagnostic> {
    let endpoint = endpoint_at(ois, index)?;
    // One kind of processing per phase: the node runs V2 when both are there.
    endpoint.remove(key_v2);
    endpoint.remove(key_v1);
    // The file holds the code the node runs; in the OIS a `${` is written `\${`, or the node's
    // config interpolation would take it for a secret (as `ois processing embed` writes it).
    let code = crate::ois::templates::escape(&snippet.code).unwrap_or_else(|| snippet.code.clone());
    let specification = json!({"environment": "Node", "timeoutMs": SNIPPET_TIMEOUT_MS, "value": code});
    if snippet.v1 {
        endpoint.insert(key_v1.to_owned(), Value::Array(vec![specification]));
    } else {
        endpoint.insert(key_v2.to_owned(), specification);
    }
    Ok(())
}

/// Removes the endpoints `names` (every one must exist).
pub fn remove(ois: &mut Value, names: &[String]) -> Result<Vec<Diagnostic>, Diagnostic> {
    for name in names {
        position(ois, name)?;
    }
    endpoints_mut(ois)?.retain(|e| !names.iter().any(|n| text(e, "name") == Some(n.as_str())));
    Ok(Vec::new())
}

/// Whether endpoint `endpoint` matches `filter`: a name (`*` and `?` as wildcards) or an
/// operation, `GET /path` (the path may have wildcards too).
fn matches(endpoint: &Value, filter: &str) -> bool {
    let pattern = |text: &str| glob::Pattern::new(text).ok();
    if let Some((method, path)) = filter.split_once(' ') {
        let operation = endpoint.member("operation");
        let method_ok =
            operation.and_then(|o| text(o, "method")).is_some_and(|m| m.eq_ignore_ascii_case(method.trim()));
        let path_ok = operation
            .and_then(|o| text(o, "path"))
            .is_some_and(|p| pattern(path.trim()).is_some_and(|pattern| pattern.matches(p)));
        return method_ok && path_ok;
    }
    text(endpoint, "name").is_some_and(|name| pattern(filter).is_some_and(|pattern| pattern.matches(name)))
}

/// Keeps the endpoints matching any of `filters` and the operations they use; the rest go.
pub fn keep(ois: &mut Value, filters: &[String]) -> Result<Vec<Diagnostic>, Diagnostic> {
    let kept: Vec<Value> = endpoints(ois).iter().filter(|e| filters.iter().any(|f| matches(e, f))).cloned().collect();
    if kept.is_empty() {
        return Err(refuse(format!("no endpoint matches {}: nothing would be left", filters.join(", "))));
    }
    let used: std::collections::HashSet<(String, String)> = kept
        .iter()
        .filter_map(|e| {
            let operation = e.member("operation")?;
            Some((text(operation, "path")?.to_owned(), text(operation, "method")?.to_owned()))
        })
        .collect();
    *endpoints_mut(ois)? = kept;
    let mut notes = Vec::new();
    if let Some(paths) = ois.pointer_mut("/apiSpecifications/paths").and_then(Value::as_object_mut) {
        // Each path that lost operations, and how many: one note each for a few, one for many.
        let mut gone: Vec<(String, usize)> = Vec::new();
        for (path, item) in paths.iter_mut() {
            if let Some(methods) = item.as_object_mut() {
                let before = methods.len();
                methods.retain(|method, _| used.contains(&(path.clone(), method.clone())));
                if methods.len() < before {
                    gone.push((path.clone(), before - methods.len()));
                }
            }
        }
        const SAID_ONE_BY_ONE: usize = 3;
        if gone.len() <= SAID_ONE_BY_ONE {
            for (path, count) in &gone {
                notes.push(note(
                    crate::pointer::join("/apiSpecifications/paths", [path.as_str()]),
                    format!("{count} operation(s) of {path} went with their endpoints"),
                ));
            }
        } else {
            let operations: usize = gone.iter().map(|(_, count)| count).sum();
            let first: Vec<&str> = gone.iter().take(SAID_ONE_BY_ONE).map(|(path, _)| path.as_str()).collect();
            notes.push(note(
                "/apiSpecifications/paths".to_owned(),
                format!(
                    "{operations} operation(s) of {} paths went with their endpoints ({}, and {} more)",
                    gone.len(),
                    first.join(", "),
                    gone.len() - SAID_ONE_BY_ONE
                ),
            ));
        }
        paths.retain(|_, item| item.as_object().is_none_or(|methods| !methods.is_empty()));
    }
    Ok(notes)
}
