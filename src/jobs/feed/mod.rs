//! `ois feed list|add|set|rm|batch|import|export`: feeds by name on an OIS's `feed` endpoint.
//! A feed is given as API3's blueprints give one (a name, a vendor operation and its parameters,
//! a value); here it is checked against the vendor's document when that is given, and made into
//! the [`FeedChange`] the endpoint edit applies (written as `ois endpoint` writes: atomically, in
//! the file's style, refused when it breaks a rule).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::edit::feeds::{FeedChange, ParameterPlace};
use crate::ois::feeds::{self, Feed, FeedTables};
use crate::ois::model::Method;
use crate::source::Source;

mod files;
pub mod rpc;
pub use files::{ExportReport, batch, batch_groups, batches, export, import, import_with_batches, read_batches};

fn refuse(message: String) -> Diagnostic {
    Diagnostic::elsewhere(Code::BadFeed, message)
}

/// A feed as given on the command line or in the studio.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct FeedInput {
    /// Its name.
    pub name: String,
    /// The vendor operation: an operation ID of the vendor's document, or `GET /path`.
    pub operation: Option<String>,
    /// The vendor's OpenAPI document, to check the operation and parameters against.
    pub document: Option<PathBuf>,
    /// The vendor's document already in hand (the studio's), instead of `document`.
    pub held_document: Option<super::Held>,
    /// Parameters `NAME=VALUE` (a path parameter of the operation fills its path); a name may be
    /// written `header:NAME` where no document says where it goes.
    pub parameters: Vec<(String, String)>,
    /// Parameters with JSON values (a POST body's number, array or object), after `parameters`.
    pub json_parameters: Vec<(String, Value)>,
    /// A POST operation's JSON body: each property a parameter, as the node sends a POST's
    /// parameters as the properties of its body (before `parameters`, which may change one).
    pub body: Option<Map<String, Value>>,
    /// Parameters taken away (`feed set`).
    pub dropped: Vec<String>,
    /// The value: a `_path`-like path in the response.
    pub value: Option<String>,
    /// The value: a parser snippet, `(response) => …`.
    pub parser: Option<String>,
    /// Its new name (`feed set`).
    pub rename: Option<String>,
}

/// A vendor operation as the feed endpoint calls it.
#[derive(Clone, Debug)]
struct VendorOperation {
    method: String,
    path: String,
    /// Its query, header and cookie parameters: name, `in`, required.
    parameters: Vec<(String, String, bool)>,
    /// Its path parameters.
    path_parameters: Vec<String>,
    /// What the conversion fixed (a required parameter of one value: `jsonrpc: "2.0"`): name,
    /// `in`, value. The feed endpoint serves many operations, so each feed carries them.
    fixed: Vec<(String, String, Value)>,
    /// A POST body's properties by name with the JSON type their schema gives (`integer`,
    /// `array`, …), to send a value given as text with its type.
    body_types: Vec<(String, String)>,
}

/// A feed's request to the vendor, as its table entry holds it.
struct VendorRequest {
    method: Method,
    /// Without its leading `/`.
    path: String,
    parameters: Map<String, Value>,
    places: Vec<ParameterPlace>,
}

/// The feeds of the chosen OIS of `file` (none when it has no feed endpoint).
pub fn list(file: &Path, title: Option<&str>) -> Result<FeedTables, Diagnostic> {
    super::with_chosen_ois(file, title, |ois, _| feeds::read(ois).map(Option::unwrap_or_default))
}

/// The title of the chosen OIS of `file`.
pub fn list_title(file: &Path, title: Option<&str>) -> Result<String, Diagnostic> {
    super::with_chosen_ois(file, title, |ois, _| {
        Ok(ois.get("title").and_then(Value::as_str).unwrap_or_default().to_owned())
    })
}

/// The change `feed add` makes of `input`.
pub fn add(input: &FeedInput) -> Result<FeedChange, Diagnostic> {
    let operation = input.operation.as_deref().ok_or_else(|| {
        refuse(format!("feed \"{}\": give the vendor operation it calls", crate::emit::printable(&input.name)))
    })?;
    let VendorRequest { method, path, parameters, places } =
        request(operation, vendor(input)?.as_ref(), &given(input))?;
    let mut feed = Feed::new(input.name.clone(), path);
    feed.parameters = parameters;
    feed.parser = Some(parser(input)?.ok_or_else(|| {
        refuse(format!("feed \"{}\" has no value: give a value path or a parser", crate::emit::printable(&input.name)))
    })?);
    Ok(FeedChange::Put { feeds: vec![feed], places, replace: false, method })
}

/// Every parameter `input` gives, in order: the body's properties, then `NAME=VALUE`s as strings,
/// then the JSON ones (a later one of a name replaces an earlier).
fn given(input: &FeedInput) -> Vec<(String, Value)> {
    let body = input.body.iter().flatten().map(|(key, value)| (key.clone(), value.clone()));
    let texts = input.parameters.iter().map(|(key, value)| (key.clone(), Value::String(value.clone())));
    body.chain(texts).chain(input.json_parameters.iter().cloned()).collect()
}

/// The change `feed set` makes of `input`: with an operation, the feed's path and parameters are
/// the ones given; without, the parameters given are set on it and `dropped` taken away.
pub fn set(input: &FeedInput) -> Result<FeedChange, Diagnostic> {
    let (path, parameters, places, method) = match input.operation.as_deref() {
        Some(operation) => {
            let VendorRequest { method, path, parameters, places } =
                request(operation, vendor(input)?.as_ref(), &given(input))?;
            (Some(path), parameters.into_iter().map(|(k, v)| (k, Some(v))).collect(), places, Some(method))
        }
        None => {
            let mut places = Vec::new();
            let mut parameters = Vec::new();
            for (key, value) in given(input) {
                let (location, name) = placed(&key);
                places.push(ParameterPlace { name: name.to_owned(), location: location.to_owned() });
                parameters.push((name.to_owned(), Some(value)));
            }
            (None, parameters, places, None)
        }
    };
    let mut parameters: Vec<(String, Option<Value>)> = parameters;
    parameters.extend(input.dropped.iter().map(|name| (name.clone(), None)));
    Ok(FeedChange::Set {
        name: input.name.clone(),
        rename: input.rename.clone(),
        path,
        parameters,
        parser: parser(input)?,
        places,
        method,
    })
}

fn parser(input: &FeedInput) -> Result<Option<String>, Diagnostic> {
    match (&input.value, &input.parser) {
        (Some(_), Some(_)) => Err(refuse("give a value path or a parser, not both".to_owned())),
        (Some(path), None) => feeds::parser_for(path).map(Some),
        (None, Some(code)) => Ok(Some(code.trim_end().to_owned())),
        (None, None) => Ok(None),
    }
}

/// `header:NAME` → (`header`, `NAME`); a plain name goes in the query.
fn placed(key: &str) -> (&str, &str) {
    match key.split_once(':') {
        Some((location @ ("query" | "header" | "cookie"), name)) => (location, name),
        _ => ("query", key),
    }
}

/// The feed's request to the vendor, for `operation` given `given`: a GET's parameters go in its
/// query (or where the document says), a POST's in its JSON body, with their JSON types.
fn request(
    operation: &str,
    document: Option<&VendorDocument>,
    given: &[(String, Value)],
) -> Result<VendorRequest, Diagnostic> {
    let vendor = match document {
        Some(document) => document.operation(operation)?,
        None => {
            let (method, path) = method_and_path(operation).ok_or_else(|| {
                refuse(format!(
                    "operation \"{}\": without the vendor's document, write it METHOD /path (e.g. 'GET /simple/price')",
                    crate::emit::printable(operation)
                ))
            })?;
            let path_parameters = braced(&path);
            let parameters = given
                .iter()
                .map(|(key, _)| placed(key))
                .filter(|(_, name)| !path_parameters.iter().any(|p| p == name))
                .map(|(location, name)| (name.to_owned(), location.to_owned(), false))
                .collect();
            VendorOperation { method, path, parameters, path_parameters, fixed: Vec::new(), body_types: Vec::new() }
        }
    };
    let method = Method::named(&vendor.method).ok_or_else(|| {
        refuse(format!(
            "{} {} is neither a GET nor a POST: the node calls only those",
            vendor.method.to_uppercase(),
            vendor.path
        ))
    })?;
    let label = format!("{} {}", vendor.method.to_uppercase(), vendor.path);
    let mut path = vendor.path.trim_start_matches('/').to_owned();
    let mut parameters = Map::new();
    let mut places = Vec::new();
    for (key, value) in given {
        let (_, name) = placed(key);
        if vendor.path_parameters.iter().any(|p| p == name) {
            let text = match value {
                Value::String(text) => text.clone(),
                Value::Number(number) => number.to_string(),
                _ => return Err(refuse(format!("{label}: its path parameter \"{name}\" takes a string or a number"))),
            };
            path = path.replace(&format!("{{{name}}}"), &text);
            continue;
        }
        let Some((_, location, _)) = vendor.parameters.iter().find(|(n, _, _)| n == name) else {
            let known: Vec<&str> = vendor
                .path_parameters
                .iter()
                .map(String::as_str)
                .chain(vendor.parameters.iter().map(|(n, _, _)| n.as_str()))
                .collect();
            return Err(refuse(format!(
                "{label} has no parameter \"{}\" (it has: {})",
                crate::emit::printable(name),
                if known.is_empty() { "none".to_owned() } else { known.join(", ") }
            )));
        };
        let value = &typed(&label, name, value, &vendor.body_types)?;
        if method == Method::Get && !value.is_string() {
            return Err(refuse(format!(
                "{label}: \"{}\" is a query parameter, sent as text; give it as NAME=VALUE (JSON values are for a POST's body)",
                crate::emit::printable(name)
            )));
        }
        parameters.insert(name.to_owned(), value.clone());
        if !places.iter().any(|p: &ParameterPlace| p.name == name) {
            places.push(ParameterPlace { name: name.to_owned(), location: location.clone() });
        }
    }
    for (name, location, value) in &vendor.fixed {
        if !parameters.contains_key(name) {
            parameters.insert(name.clone(), value.clone());
            places.push(ParameterPlace { name: name.clone(), location: location.clone() });
        }
    }
    let unfilled = braced(&path);
    if !unfilled.is_empty() {
        return Err(refuse(format!("{label}: give its path parameter(s) {}", unfilled.join(", "))));
    }
    let missing: Vec<&str> = vendor
        .parameters
        .iter()
        .filter(|(n, _, required)| *required && !parameters.contains_key(n))
        .map(|(n, _, _)| n.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(refuse(format!("{label} requires {}", missing.join(", "))));
    }
    Ok(VendorRequest { method, path, parameters, places })
}

/// A body property's value with the type its schema gives: text given for an `integer`, a
/// `number`, a `boolean`, an `array` or an `object` is read as JSON of that type (the node sends
/// the body's values with their JSON types, and `"2"` is not `2`); text that is none is refused.
fn typed(label: &str, name: &str, value: &Value, types: &[(String, String)]) -> Result<Value, Diagnostic> {
    let Value::String(text) = value else { return Ok(value.clone()) };
    let Some((_, kind)) = types.iter().find(|(n, _)| n == name).filter(|(_, kind)| kind != "string") else {
        return Ok(value.clone());
    };
    let read: Option<Value> = serde_json::from_str(text).ok();
    let fits = |v: &Value| match kind.as_str() {
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => false,
    };
    match read.filter(fits) {
        Some(read) => Ok(read),
        None if matches!(kind.as_str(), "integer" | "number" | "boolean" | "array" | "object") => Err(refuse(format!(
            "{label}: body property \"{}\" is {kind} in the document, and \"{}\" is not one: the node would send it as text",
            crate::emit::printable(name),
            crate::emit::printable(text)
        ))
        .with_fix(Fix::GiveJsonValue(name.to_owned()))),
        None => Ok(value.clone()),
    }
}

fn method_and_path(operation: &str) -> Option<(String, String)> {
    let (method, path) = operation.trim().split_once(' ')?;
    let path = path.trim();
    path.starts_with('/').then(|| (method.to_ascii_lowercase(), path.to_owned()))
}

/// The `{name}`s of a path.
fn braced(path: &str) -> Vec<String> {
    path.split('{').skip(1).filter_map(|part| part.split_once('}').map(|(name, _)| name.to_owned())).collect()
}

/// The vendor's OpenAPI document, converted once: its operations as the conversion reads them
/// ($refs, path-level parameters, OpenAPI 2.0).
struct VendorDocument {
    root: Value,
    ois: Value,
}

/// The vendor's document `input` names or holds.
fn vendor(input: &FeedInput) -> Result<Option<VendorDocument>, Diagnostic> {
    match (&input.held_document, &input.document) {
        (Some(held), _) => VendorDocument::of(&held.source()).map(Some),
        (None, Some(path)) => VendorDocument::read(path).map(Some),
        (None, None) => Ok(None),
    }
}

impl VendorDocument {
    fn read(document: &Path) -> Result<VendorDocument, Diagnostic> {
        VendorDocument::of(&Source::read(document)?)
    }

    fn of(source: &Source) -> Result<VendorDocument, Diagnostic> {
        let root = source.parse()?;
        // A feed is checked against the document's paths and parameters only: a server URL that
        // is relative (or missing) is no reason to refuse it, so it is resolved against a host
        // that is never called.
        let options = crate::convert::ConvertOptions {
            base_url: Some("https://vendor.invalid".to_owned()),
            ..Default::default()
        };
        let converted = crate::convert::convert(source, &options).map_err(|failure| {
            failure
                .diagnostics
                .into_iter()
                .next()
                .unwrap_or_else(|| refuse("the vendor's document does not convert".to_owned()))
        })?;
        Ok(VendorDocument { root, ois: converted.ois })
    }

    /// The operation `operation`: an operation ID, or `GET /path`.
    fn operation(&self, operation: &str) -> Result<VendorOperation, Diagnostic> {
        let (method, path) = match method_and_path(operation) {
            Some(found) => found,
            None => operation_by_id(&self.root, operation).ok_or_else(|| {
                refuse(format!(
                    "the vendor's document has no operation ID \"{}\" (write an operation ID, or METHOD /path)",
                    crate::emit::printable(operation)
                ))
            })?,
        };
        let ois = &self.ois;
        let declared = ois
            .pointer("/apiSpecifications/paths")
            .and_then(|paths| paths.get(&path))
            .and_then(|item| item.get(&method))
            .ok_or_else(|| {
                refuse(format!(
                    "the vendor's document has no operation {} {path} (or the conversion left it out)",
                    method.to_uppercase()
                ))
            })?;
        let endpoints: Vec<&Value> = ois
            .get("endpoints")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|e| {
                e.get("operation").is_some_and(|o| {
                    o.get("path").and_then(Value::as_str) == Some(path.as_str())
                        && o.get("method").and_then(Value::as_str) == Some(method.as_str())
                })
            })
            .collect();
        let fixed = endpoints
            .iter()
            .flat_map(|e| e.get("fixedOperationParameters").and_then(Value::as_array).into_iter().flatten())
            .filter_map(|f| {
                let name = f.pointer("/operationParameter/name")?.as_str()?.to_owned();
                let location = f.pointer("/operationParameter/in")?.as_str()?.to_owned();
                Some((name, location, f.get("value")?.clone()))
            })
            .collect();
        let required: Vec<String> = endpoints
            .iter()
            .flat_map(|e| e.get("parameters").and_then(Value::as_array).into_iter().flatten())
            .filter(|p| p.get("required").and_then(Value::as_bool) == Some(true))
            .filter_map(|p| p.pointer("/operationParameter/name").and_then(Value::as_str).map(str::to_owned))
            .collect();
        let mut parameters = Vec::new();
        let mut path_parameters = Vec::new();
        for parameter in declared.get("parameters").and_then(Value::as_array).into_iter().flatten() {
            let (Some(name), Some(location)) =
                (parameter.get("name").and_then(Value::as_str), parameter.get("in").and_then(Value::as_str))
            else {
                continue;
            };
            if location == "path" {
                path_parameters.push(name.to_owned());
            } else {
                parameters.push((name.to_owned(), location.to_owned(), required.iter().any(|r| r == name)));
            }
        }
        let body_types = if method == "post" { self.body_types(&path) } else { Vec::new() };
        Ok(VendorOperation { method, path, parameters, path_parameters, fixed, body_types })
    }

    /// The JSON type of each top-level property of `path`'s POST JSON body, as its schema says
    /// (local `$ref`s followed; a property without one is left out).
    fn body_types(&self, path: &str) -> Vec<(String, String)> {
        let root = &self.root;
        let Some(body) = self.root.pointer("/paths").and_then(|p| p.get(path)).and_then(|i| i.get("post")) else {
            return Vec::new();
        };
        let body = body.get("requestBody").map(|b| follow_ref(root, b));
        let content = body.and_then(|b| b.get("content")).and_then(Value::as_object);
        let json = content.and_then(|c| c.iter().find(|(media, _)| media.contains("json"))).map(|(_, m)| m);
        let schema = json.and_then(|m| m.get("schema")).map(|s| follow_ref(root, s));
        let properties = schema.and_then(|s| s.get("properties")).and_then(Value::as_object);
        properties
            .into_iter()
            .flatten()
            .filter_map(|(name, property)| {
                Some((name.clone(), follow_ref(root, property).get("type")?.as_str()?.to_owned()))
            })
            .collect()
    }

    /// Checks each of `feeds` calls an operation of `method` of the document with parameters it
    /// declares; where each parameter goes. Every feed that does not is named, not only the first.
    fn check(&self, feeds: &[Feed], method: Method) -> Result<Vec<ParameterPlace>, Diagnostic> {
        let mut places: Vec<ParameterPlace> = Vec::new();
        let mut problems = Vec::new();
        let upper = method.as_str().to_uppercase();
        for feed in feeds {
            let Some(template) = feeds::operation_for(&self.ois, &feed.path, method) else {
                problems
                    .push(format!("{}: no {upper} operation of the document has the path /{}", feed.name, feed.path));
                continue;
            };
            let operation = self.operation(&format!("{upper} {template}"))?;
            for (name, _) in &feed.parameters {
                match operation.parameters.iter().find(|(n, _, _)| n == name) {
                    Some((_, location, _)) => {
                        if !places.iter().any(|p| &p.name == name) {
                            places.push(ParameterPlace { name: name.clone(), location: location.clone() });
                        }
                    }
                    None => problems.push(format!("{}: {upper} {template} has no parameter \"{name}\"", feed.name)),
                }
            }
        }
        if let Some(first) = problems.first() {
            let more = if problems.len() > 1 {
                format!(
                    " (and {} more: {})",
                    problems.len() - 1,
                    problems.iter().skip(1).take(5).cloned().collect::<Vec<_>>().join("; ")
                )
            } else {
                String::new()
            };
            return Err(refuse(format!("feeds the vendor's document does not have: {first}{more}")));
        }
        Ok(places)
    }
}

/// `value`, or what its local `$ref` names (followed up to 16 times), in `root`.
fn follow_ref<'v>(root: &'v Value, mut value: &'v Value) -> &'v Value {
    for _ in 0..16 {
        let Some(target) = value.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix('#')) else {
            break;
        };
        match root.pointer(target) {
            Some(found) => value = found,
            None => break,
        }
    }
    value
}

fn operation_by_id(root: &Value, id: &str) -> Option<(String, String)> {
    root.get("paths")?.as_object()?.iter().find_map(|(path, item)| {
        item.as_object()?.iter().find_map(|(method, operation)| {
            (operation.get("operationId").and_then(Value::as_str) == Some(id))
                .then(|| (method.to_ascii_lowercase(), path.clone()))
        })
    })
}

/// A template for each feed every OIS serves by name: the `feed` endpoint, its `name` as string32.
pub(crate) fn templates(oises: &[Value]) -> Result<Vec<crate::scaffold::node::Feed>, Diagnostic> {
    let mut feeds = Vec::new();
    for ois in oises {
        let Some(tables) = crate::ois::feeds::read(ois)? else { continue };
        for feed in tables.feeds {
            feeds.push(crate::scaffold::node::Feed {
                ois_title: ois.get("title").and_then(Value::as_str).map(str::to_owned),
                endpoint: crate::ois::feeds::FEED_ENDPOINT.to_owned(),
                parameters: vec![crate::node::ids::TemplateParameter {
                    kind: "string32".to_owned(),
                    name: crate::ois::feeds::NAME_PARAMETER.to_owned(),
                    value: Value::String(feed.name),
                }],
            });
        }
    }
    if feeds.is_empty() {
        return Err(Diagnostic::elsewhere(
            Code::BadArgument,
            "no feeds by name: no OIS has a `feed` endpoint with feeds",
        )
        .with_fix(Fix::AddFeed));
    }
    Ok(feeds)
}
