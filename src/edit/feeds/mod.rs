//! Feed edits: the `feed` endpoint made and kept in production's shape, one feed at a time. Each
//! edit reads the feeds from the endpoint's tables, changes the list, and writes the tables back
//! with the operation `GET /{path}` (or `POST /{path}`, for a vendor whose feeds are POST bodies:
//! the node sends a POST's parameters as its JSON body) and the endpoint's parameters grown to
//! what the feeds use;
//! everything else of the endpoint (its reserved parameters, a parameter's description, key
//! order) stays as it was.

use serde_json::{Map, Value, json};

mod batch;

use super::{endpoints_mut, note, text};
use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::ois::feeds::{self, FEED_ENDPOINT, FEED_OPERATION_PATH, Feed, NAME_PARAMETER, PATH_PARAMETER};
use crate::ois::model::{Method, RESERVED_NAMES};

/// Where a vendor parameter goes in the request (`query`, `header`, `cookie`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParameterPlace {
    /// The parameter's name.
    pub name: String,
    /// Its `in`.
    pub location: String,
}

/// A change of the feeds of an OIS.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum FeedChange {
    /// New feeds; a name already served is refused unless `replace`.
    Put {
        /// The feeds.
        feeds: Vec<Feed>,
        /// Where their parameters go (a parameter not listed, and not declared by the operation
        /// already, goes in the query).
        places: Vec<ParameterPlace>,
        /// Feeds of the same name are replaced (an import); otherwise refused (an add).
        replace: bool,
        /// The method of their vendor operation: the feed endpoint's (one for all its feeds).
        method: Method,
    },
    /// Changes to one feed.
    Set {
        /// The feed.
        name: String,
        /// Its new name.
        rename: Option<String>,
        /// Its new vendor path; with it, its parameters are the ones given, not added to.
        path: Option<String>,
        /// Parameters set (`Some`) or removed (`None`).
        parameters: Vec<(String, Option<Value>)>,
        /// Its new parser.
        parser: Option<String>,
        /// Where new parameters go.
        places: Vec<ParameterPlace>,
        /// The method of its new vendor operation, when it has one.
        method: Option<Method>,
    },
    /// Feeds removed.
    Remove {
        /// Their names.
        names: Vec<String>,
    },
    /// Feeds answered by one call: every parameter that differs among them becomes the list of
    /// their values (comma-separated, in order, each once), as production's batches are.
    Batch {
        /// The feeds, two or more on one vendor path.
        names: Vec<String>,
        /// A sample of the one call's answer: where it is an array whose elements name what they
        /// are (`requestedSymbol`), each feed is made to find its own by that field.
        answer: Option<Value>,
    },
    /// Several changes made as one: each in turn, all or none (an import and its batches).
    All(Vec<FeedChange>),
}

fn refuse(message: String) -> Diagnostic {
    Diagnostic::elsewhere(Code::BadFeed, message)
}

fn shown(name: &str) -> String {
    crate::emit::printable(name).into_owned()
}

/// Applies `change` to the feeds of `ois`.
pub fn apply(ois: &mut Value, change: &FeedChange) -> Result<Vec<Diagnostic>, Diagnostic> {
    if let FeedChange::All(changes) = change {
        // On the OIS in hand: the caller writes it once, when every change went through.
        let mut notes = Vec::new();
        for change in changes {
            notes.extend(apply(ois, change)?);
        }
        return Ok(notes);
    }
    let mut list = feeds::read(ois)?.map(|tables| tables.feeds).unwrap_or_default();
    let mut notes = Vec::new();
    let find = |list: &[Feed], name: &str| {
        list.iter().position(|f| f.name == name).ok_or_else(|| {
            let there: Vec<&str> = list.iter().map(|f| f.name.as_str()).take(20).collect();
            refuse(format!("no feed \"{}\" (the feeds: {})", shown(name), there.join(", ")))
        })
    };
    let mut method = None;
    let places: &[ParameterPlace] = match change {
        FeedChange::Put { feeds: new, places, replace, method: theirs } => {
            method = Some(*theirs);
            for feed in new {
                check_feed(feed)?;
                match list.iter().position(|f| f.name == feed.name) {
                    Some(at) if *replace => {
                        if let Some(slot) = list.get_mut(at) {
                            *slot = feed.clone();
                        }
                    }
                    Some(_) => {
                        let name = shown(&feed.name);
                        return Err(
                            refuse(format!("feed \"{name}\" is served already")).with_fix(Fix::ChangeFeed(name))
                        );
                    }
                    None => list.push(feed.clone()),
                }
            }
            places
        }
        FeedChange::Set { name, rename, path, parameters, parser, places, method: theirs } => {
            method = *theirs;
            let at = find(&list, name)?;
            let mut feed = list.get(at).cloned().ok_or_else(|| refuse(format!("no feed \"{}\"", shown(name))))?;
            if let Some(path) = path {
                feed.path = path.clone();
                feed.parameters = Map::new();
            }
            for (key, value) in parameters {
                match value {
                    Some(value) => {
                        feed.parameters.insert(key.clone(), value.clone());
                    }
                    None => {
                        if feed.parameters.shift_remove(key).is_none() {
                            return Err(refuse(format!(
                                "feed \"{}\" has no parameter \"{}\"",
                                shown(name),
                                shown(key)
                            )));
                        }
                    }
                }
            }
            if let Some(parser) = parser {
                feed.parser = Some(parser.clone());
            }
            if let Some(new) = rename.as_ref().filter(|new| *new != name) {
                if list.iter().any(|f| &f.name == new) {
                    return Err(refuse(format!("feed name \"{}\" is taken", shown(new))));
                }
                feed.name = new.clone();
            }
            check_feed(&feed)?;
            if let Some(slot) = list.get_mut(at) {
                *slot = feed;
            }
            places
        }
        FeedChange::Remove { names } => {
            for name in names {
                let at = find(&list, name)?;
                list.remove(at);
            }
            &[]
        }
        FeedChange::Batch { names, answer } => {
            notes.push(batch::batch(&mut list, names, answer.as_ref(), find)?);
            &[]
        }
        FeedChange::All(_) => &[],
    };
    notes.extend(write(ois, &list, places, method)?);
    Ok(notes)
}

/// `items` in their order, each once.
fn each_once(items: impl Iterator<Item = String>) -> Vec<String> {
    items.collect::<indexmap::IndexSet<String>>().into_iter().collect()
}

fn check_feed(feed: &Feed) -> Result<(), Diagnostic> {
    feeds::check_name(&feed.name)?;
    if feed.path.starts_with('/') || feed.path.trim().is_empty() {
        return Err(refuse(format!(
            "feed \"{}\": its path \"{}\" is empty or starts with `/` (the operation is `/{{path}}`: write `simple/price`)",
            shown(&feed.name),
            shown(&feed.path)
        )));
    }
    if feed.path.chars().chain(feed.parameters.keys().flat_map(|key| key.chars())).any(char::is_control) {
        return Err(refuse(format!(
            "feed \"{}\": its path \"{}\" or a parameter's name holds a control character (a line break?), which no request carries",
            shown(&feed.name),
            shown(&feed.path)
        )));
    }
    for key in feed.parameters.keys() {
        if key == PATH_PARAMETER || RESERVED_NAMES.contains(&key.as_str()) {
            return Err(refuse(format!(
                "feed \"{}\": a vendor parameter cannot be named \"{key}\" on the feed endpoint (it carries the feed's own)",
                shown(&feed.name)
            )));
        }
    }
    if feed.parser.is_none() {
        return Err(refuse(format!("feed \"{}\" has no value: give a value path or a parser", shown(&feed.name))));
    }
    Ok(())
}

/// Writes `list` into `ois`: the operation, the endpoint, its tables. With no feeds left, the
/// endpoint goes (and the operation, when no other endpoint uses it). `method`: the vendor
/// operation's of the feeds changed, which must be the endpoint's when it has feeds already.
fn write(
    ois: &mut Value,
    list: &[Feed],
    places: &[ParameterPlace],
    method: Option<Method>,
) -> Result<Vec<Diagnostic>, Diagnostic> {
    let index = feeds::feed_endpoint_index(ois);
    let present = index.and_then(|index| {
        let operation = ois.pointer(&format!("/endpoints/{index}/operation"))?;
        (text(operation, "path") == Some(FEED_OPERATION_PATH)).then(|| Method::named(text(operation, "method")?))?
    });
    if list.is_empty() {
        let Some(index) = index else { return Ok(Vec::new()) };
        let method = present.unwrap_or(Method::Get);
        endpoints_mut(ois)?.remove(index);
        let used = super::endpoints(ois).iter().any(|e| {
            e.get("operation").is_some_and(|o| {
                text(o, "path") == Some(FEED_OPERATION_PATH) && text(o, "method") == Some(method.as_str())
            })
        });
        let mut notes =
            vec![note(format!("/endpoints/{index}"), "no feeds are left: the feed endpoint is removed".to_owned())];
        let paths = ois.pointer_mut("/apiSpecifications/paths").and_then(Value::as_object_mut);
        if !used && let Some(paths) = paths {
            let emptied = paths.get_mut(FEED_OPERATION_PATH).and_then(Value::as_object_mut).is_some_and(|item| {
                item.shift_remove(method.as_str());
                item.is_empty()
            });
            if emptied {
                paths.shift_remove(FEED_OPERATION_PATH);
            }
            let removed = format!("{} {FEED_OPERATION_PATH} is removed with it", method.as_str().to_uppercase());
            notes.push(note("/apiSpecifications/paths".to_owned(), removed));
        }
        return Ok(notes);
    }
    let method = match (index, present, method) {
        (Some(_), None, _) => {
            return Err(refuse(format!(
                "endpoint \"{FEED_ENDPOINT}\" is there and is not on GET or POST {FEED_OPERATION_PATH}: give it another name to serve feeds by name"
            )));
        }
        (Some(_), Some(present), Some(theirs)) if present != theirs && list.len() > 1 => {
            return Err(refuse(format!(
                "the feed endpoint calls {} {FEED_OPERATION_PATH}, and this feed's operation is {}: one endpoint has one method (serve these feeds from an OIS of their own)",
                present.as_str().to_uppercase(),
                theirs.as_str().to_uppercase()
            )));
        }
        (_, _, Some(theirs)) => theirs,
        (_, Some(present), None) => present,
        (None, None, None) => Method::Get,
    };
    if let Some(index) = index.filter(|_| present != Some(method)) {
        // Its one feed moves to an operation of another method: the endpoint moves with it.
        if let Some(operation) =
            ois.pointer_mut(&format!("/endpoints/{index}/operation")).and_then(Value::as_object_mut)
        {
            operation.insert("method".to_owned(), json!(method.as_str()));
        }
    }
    let used = each_once(list.iter().flat_map(|f| f.parameters.keys().cloned()));
    let declared = operation_parameters(ois, &used, places, method)?;
    let endpoint = match index {
        Some(index) => endpoints_mut(ois)?.get_mut(index).and_then(Value::as_object_mut),
        None => {
            let endpoints = endpoints_mut(ois)?;
            endpoints.push(json!({
                "name": FEED_ENDPOINT,
                "operation": {"method": method.as_str(), "path": FEED_OPERATION_PATH},
                "fixedOperationParameters": [],
                "reservedParameters": [
                    {"name": "_type", "fixed": "int256"},
                    {"name": "_times", "fixed": "1000000000000000000"}
                ],
                "parameters": [],
            }));
            endpoints.last_mut().and_then(Value::as_object_mut)
        }
    }
    .ok_or_else(|| refuse("the feed endpoint is not an object".to_owned()))?;
    endpoint_parameters(endpoint, &used, &declared)?;
    for (key, code) in [
        ("preProcessingSpecificationV2", feeds::pre_processing_code(list)),
        ("postProcessingSpecificationV2", feeds::post_processing_code(list)),
    ] {
        let code = crate::ois::templates::escape(&code).unwrap_or(code);
        match endpoint.get_mut(key).and_then(Value::as_object_mut) {
            Some(specification) => {
                specification.insert("value".to_owned(), Value::String(code));
            }
            None => {
                endpoint.insert(key.to_owned(), json!({"environment": "Node", "value": code, "timeoutMs": 5000}));
            }
        }
    }
    // One kind of processing a phase: V1 lists beside the tables would be ignored by the node.
    endpoint.shift_remove("preProcessingSpecifications");
    endpoint.shift_remove("postProcessingSpecifications");
    Ok(Vec::new())
}

/// Makes `GET /{path}` (or `POST`) declare `path` and every parameter in `used`; the place of
/// each, by name.
fn operation_parameters(
    ois: &mut Value,
    used: &[String],
    places: &[ParameterPlace],
    method: Method,
) -> Result<Vec<(String, String)>, Diagnostic> {
    let specification = ois
        .as_object_mut()
        .ok_or_else(|| refuse("the OIS is not an object".to_owned()))?
        .entry("apiSpecifications")
        .or_insert_with(|| json!({}));
    let paths = specification
        .as_object_mut()
        .ok_or_else(|| refuse("apiSpecifications is not an object".to_owned()))?
        .entry("paths")
        .or_insert_with(|| json!({}));
    let operation = paths
        .as_object_mut()
        .ok_or_else(|| refuse("apiSpecifications.paths is not an object".to_owned()))?
        .entry(FEED_OPERATION_PATH)
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .ok_or_else(|| refuse("apiSpecifications.paths./{path} is not an object".to_owned()))?
        .entry(method.as_str())
        .or_insert_with(|| json!({"parameters": []}));
    let parameters = operation
        .as_object_mut()
        .ok_or_else(|| refuse("the operation /{path} is not an object".to_owned()))?
        .entry("parameters")
        .or_insert_with(|| json!([]));
    let list = parameters.as_array_mut().ok_or_else(|| refuse("/{path}'s parameters are not a list".to_owned()))?;
    let has = |list: &[Value], name: &str| {
        list.iter().any(|p| text(p, "name") == Some(name) && text(p, "in") != Some("path"))
    };
    if !list.iter().any(|p| text(p, "name") == Some(PATH_PARAMETER) && text(p, "in") == Some("path")) {
        list.insert(0, json!({"in": "path", "name": PATH_PARAMETER}));
    }
    for name in used {
        if has(list, name) {
            continue;
        }
        let location = places.iter().find(|p| &p.name == name).map_or("query", |p| p.location.as_str());
        list.push(json!({"in": location, "name": name}));
    }
    Ok(list
        .iter()
        .filter_map(|p| Some((text(p, "name")?.to_owned(), text(p, "in")?.to_owned())))
        .filter(|(_, location)| location != "path")
        .collect())
}

/// Makes the endpoint's parameters hold `name`, `path` and a mapping of each parameter `used`.
fn endpoint_parameters(
    endpoint: &mut Map<String, Value>,
    used: &[String],
    declared: &[(String, String)],
) -> Result<(), Diagnostic> {
    let list = super::list_at(endpoint, "parameters")?;
    let maps = |list: &[Value], name: &str| {
        list.iter().any(|p| p.get("operationParameter").and_then(|o| text(o, "name")) == Some(name))
    };
    let location = |name: &str| declared.iter().find(|(n, _)| n == name).map_or("query", |(_, l)| l.as_str());
    // A vendor parameter `name` (Nodary's) is the same endpoint parameter: the table sets it.
    let mapping = used
        .iter()
        .any(|u| u == NAME_PARAMETER)
        .then(|| json!({"in": location(NAME_PARAMETER), "name": NAME_PARAMETER}));
    match list.iter_mut().find(|p| text(p, "name") == Some(NAME_PARAMETER)).and_then(Value::as_object_mut) {
        None => {
            let mut parameter = Map::new();
            parameter.insert("name".to_owned(), json!(NAME_PARAMETER));
            if let Some(mapping) = &mapping {
                parameter.insert("operationParameter".to_owned(), mapping.clone());
            }
            parameter.insert("required".to_owned(), json!(true));
            list.insert(0, Value::Object(parameter));
        }
        Some(parameter) => {
            if let Some(mapping) = mapping.filter(|_| !parameter.contains_key("operationParameter")) {
                parameter.insert("operationParameter".to_owned(), mapping);
            }
        }
    }
    if !maps(list, PATH_PARAMETER) {
        if list.iter().any(|p| text(p, "name") == Some(PATH_PARAMETER)) {
            return Err(refuse(
                "the feed endpoint has a parameter \"path\" that is not the operation's path".to_owned(),
            ));
        }
        let at = list.iter().position(|p| text(p, "name") == Some(NAME_PARAMETER)).map_or(0, |i| i + 1);
        list.insert(at, json!({"name": PATH_PARAMETER, "operationParameter": {"in": "path", "name": PATH_PARAMETER}, "required": true}));
    }
    for name in used {
        if maps(list, name) {
            continue;
        }
        if list.iter().any(|p| text(p, "name") == Some(name.as_str())) {
            return Err(refuse(format!(
                "the feed endpoint has a parameter \"{}\" mapping another operation parameter",
                shown(name)
            )));
        }
        list.push(json!({"name": name, "operationParameter": {"in": location(name), "name": name}}));
    }
    Ok(())
}
