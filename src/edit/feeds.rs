//! Feed edits: the `feed` endpoint made and kept in production's shape, one feed at a time. Each
//! edit reads the feeds from the endpoint's tables, changes the list, and writes the tables back
//! with the operation `GET /{path}` and the endpoint's parameters grown to what the feeds use;
//! everything else of the endpoint (its reserved parameters, a parameter's description, key
//! order) stays as it was.

use serde_json::{Map, Value, json};

use super::{endpoints_mut, note, text};
use crate::diagnostic::{Code, Diagnostic};
use crate::ois::feeds::{self, FEED_ENDPOINT, FEED_OPERATION_PATH, Feed, NAME_PARAMETER, PATH_PARAMETER};
use crate::ois::model::RESERVED_NAMES;

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
    let places: &[ParameterPlace] = match change {
        FeedChange::Put { feeds: new, places, replace } => {
            for feed in new {
                check_feed(feed)?;
                match list.iter().position(|f| f.name == feed.name) {
                    Some(at) if *replace => {
                        if let Some(slot) = list.get_mut(at) {
                            *slot = feed.clone();
                        }
                    }
                    Some(_) => {
                        return Err(refuse(format!(
                            "feed \"{}\" is served already: change it with `ois feed set`",
                            shown(&feed.name)
                        )));
                    }
                    None => list.push(feed.clone()),
                }
            }
            places
        }
        FeedChange::Set { name, rename, path, parameters, parser, places } => {
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
            notes.push(batch(&mut list, names, answer.as_ref(), find)?);
            &[]
        }
        FeedChange::All(_) => &[],
    };
    notes.extend(write(ois, &list, places)?);
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

/// Makes the feeds `names` one call; the note says which parameters became lists.
fn batch(
    list: &mut [Feed],
    names: &[String],
    answer: Option<&Value>,
    find: impl Fn(&[Feed], &str) -> Result<usize, Diagnostic>,
) -> Result<Diagnostic, Diagnostic> {
    if names.len() < 2 {
        return Err(refuse("a batch is two feeds or more".to_owned()));
    }
    let indexes = names.iter().map(|name| find(list, name)).collect::<Result<Vec<_>, _>>()?;
    let members: Vec<Feed> = indexes.iter().filter_map(|&i| list.get(i).cloned()).collect();
    let Some(first) = members.first() else { return Err(refuse("a batch is two feeds or more".to_owned())) };
    if let Some(other) = members.iter().find(|f| f.path != first.path) {
        return Err(refuse(format!(
            "feeds \"{}\" and \"{}\" call different paths ({} and {}): one call answers feeds of one path",
            shown(&first.name),
            shown(&other.name),
            shown(&first.path),
            shown(&other.path)
        )));
    }
    let mut merged = Map::new();
    let mut listed = Vec::new();
    for key in each_once(members.iter().flat_map(|m| m.parameters.keys().cloned())) {
        let values: Vec<&Value> = members.iter().filter_map(|m| m.parameters.get(&key)).collect();
        let first_value = values.first().copied().cloned().unwrap_or(Value::Null);
        if values.len() == members.len() && values.iter().all(|v| **v == first_value) {
            merged.insert(key, first_value);
            continue;
        }
        let texts: Vec<String> =
            values.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned)).collect();
        let items = each_once(
            texts.iter().flat_map(|text| text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned)),
        );
        listed.push(key.clone());
        merged.insert(key, Value::String(items.join(",")));
    }
    let read = own_elements(&members, &merged, &listed, answer)?;
    for (&i, parser) in indexes.iter().zip(read.parsers) {
        if let Some(member) = list.get_mut(i) {
            member.parameters = merged.clone();
            member.parser = parser;
        }
    }
    let what = if listed.is_empty() {
        "they already ask the same".to_owned()
    } else {
        format!("{} now list(s) every feed's value", listed.join(", "))
    };
    Ok(note(
        String::new(),
        format!(
            "{} feeds answered by one call ({what}); a trigger of their templates makes one API call; {}",
            names.len(),
            read.evidence.join(", ")
        ),
    ))
}

/// The field every element of `answer` (an array of objects) has that names each feed's own
/// element: for each of `owns`, exactly one element's field equals it (as text, any case). The
/// first such field of the first element, or none.
fn naming_field(answer: &Value, owns: &[Option<String>]) -> Option<String> {
    let elements = answer.as_array()?;
    let owns: Vec<&str> = owns.iter().map(|own| own.as_deref()).collect::<Option<_>>()?;
    let first = elements.first()?.as_object()?;
    let names = |element: &Value, field: &str| match element.get(field) {
        Some(Value::String(text)) => Some(text.clone()),
        Some(Value::Number(number)) => Some(number.to_string()),
        _ => None,
    };
    first
        .keys()
        .find(|field| {
            owns.iter().all(|own| {
                elements.iter().filter(|e| names(e, field).is_some_and(|n| n.eq_ignore_ascii_case(own))).count() == 1
            })
        })
        .cloned()
}

/// How each feed of a batch reads its own value from the one answer: its parser, and what says
/// the value is its own.
struct OwnElements {
    parsers: Vec<Option<String>>,
    evidence: Vec<String>,
}

/// Each feed's reader of the batch's one answer, made to read the feed's own element: a value
/// path through the feed's own value of the listed parameter (`bitcoin.usd`) is kept; one that
/// starts at an array index (`0.data.last`) is moved to the feed's place in the listed values,
/// the order the vendor answers an array in. Two feeds left reading the same value are refused:
/// every one of them would publish it.
fn own_elements(
    members: &[Feed],
    merged: &Map<String, Value>,
    listed: &[String],
    answer: Option<&Value>,
) -> Result<OwnElements, Diagnostic> {
    let items_of = |value: &Value| -> Vec<String> {
        let text = value.as_str().map_or_else(|| value.to_string(), str::to_owned);
        text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect()
    };
    // The one listed parameter each feed asks one value of, and the values in request order.
    let single = match listed {
        [key] => merged.get(key).map(|all| (key, items_of(all))),
        _ => None,
    };
    let owns: Vec<Option<String>> = members
        .iter()
        .map(|member| {
            let (key, _) = single.as_ref()?;
            let items = items_of(member.parameters.get(key.as_str())?);
            match items.as_slice() {
                [one] => Some(one.clone()),
                _ => None,
            }
        })
        .collect();
    let naming = answer.and_then(|answer| naming_field(answer, &owns));
    let mut parsers = Vec::with_capacity(members.len());
    let mut evidence = Vec::with_capacity(members.len());
    for (member, own) in members.iter().zip(&owns) {
        let Some(path) = member.value_path() else {
            evidence.push(format!("{} by its parser", shown(&member.name)));
            parsers.push(member.parser.clone());
            continue;
        };
        let mut segments = crate::ois::reserved::escape_aware_split(&path, '.');
        let place = own.as_ref().zip(single.as_ref()).and_then(|(own, (_, all))| all.iter().position(|v| v == own));
        let keyed = own.as_ref().is_some_and(|own| segments.iter().any(|segment| segment == own));
        let indexed =
            segments.first().is_some_and(|first| !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()));
        match (keyed, indexed, place, single.as_ref()) {
            (false, true, Some(_), Some(_)) if let (Some(field), Some(own)) = (&naming, own) => {
                let rest =
                    segments.get(1..).unwrap_or_default().iter().map(|s| s.replace('.', "\\.")).collect::<Vec<_>>();
                evidence.push(format!(
                    "{} in the element whose {} is {}",
                    shown(&member.name),
                    shown(field),
                    shown(own)
                ));
                parsers.push(Some(feeds::parser_finding(field, own, &rest.join("."))?));
            }
            (true, _, _, Some((key, _))) => {
                evidence.push(format!("{} at {} (its own {key})", shown(&member.name), shown(&path)));
                parsers.push(member.parser.clone());
            }
            (false, true, Some(place), Some((key, _))) => {
                if let Some(first) = segments.first_mut() {
                    *first = place.to_string();
                }
                let moved = segments.iter().map(|s| s.replace('.', "\\.")).collect::<Vec<_>>().join(".");
                evidence.push(format!(
                    "{} at {} (element {place} of the answer, as {key} lists it)",
                    shown(&member.name),
                    shown(&moved)
                ));
                parsers.push(Some(feeds::parser_for(&moved)?));
            }
            _ => {
                evidence.push(format!("{} at {}", shown(&member.name), shown(&path)));
                parsers.push(member.parser.clone());
            }
        }
    }
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (at, parser) in parsers.iter().enumerate() {
        let Some(parser) = parser else { continue };
        let read_as = Feed { parser: Some(parser.clone()), ..Feed::new("", "") };
        let Some(key) = read_as.same_value_key() else { continue };
        let Some(earlier) = seen.insert(key, at) else { continue };
        let (Some(first), Some(second)) = (members.get(earlier), members.get(at)) else { continue };
        let read = feeds::value_path_of(parser).unwrap_or_else(|| "the same parser".to_owned());
        return Err(refuse(format!(
            "feeds \"{}\" and \"{}\" would read the same value of the one answer ({}): both would publish it. \
             Give each the value of its own element: a value path through its own key (`bitcoin.usd`), or \
             starting at its position in the answer's array (`0.…`, in the order of the listed values), or \
             a parser that finds it (`response.find((item) => item.symbol === \"silver\")`)",
            shown(&first.name),
            shown(&second.name),
            shown(&read)
        )));
    }
    Ok(OwnElements { parsers, evidence })
}

/// Writes `list` into `ois`: the operation, the endpoint, its tables. With no feeds left, the
/// endpoint goes (and the operation, when no other endpoint uses it).
fn write(ois: &mut Value, list: &[Feed], places: &[ParameterPlace]) -> Result<Vec<Diagnostic>, Diagnostic> {
    let index = feeds::feed_endpoint_index(ois);
    if list.is_empty() {
        let Some(index) = index else { return Ok(Vec::new()) };
        endpoints_mut(ois)?.remove(index);
        let used = super::endpoints(ois).iter().any(|e| {
            e.get("operation")
                .is_some_and(|o| text(o, "path") == Some(FEED_OPERATION_PATH) && text(o, "method") == Some("get"))
        });
        let mut notes =
            vec![note(format!("/endpoints/{index}"), "no feeds are left: the feed endpoint is removed".to_owned())];
        if !used && let Some(Value::Object(paths)) = ois.pointer_mut("/apiSpecifications/paths") {
            paths.shift_remove(FEED_OPERATION_PATH);
            notes.push(note("/apiSpecifications/paths".to_owned(), "GET /{path} is removed with it".to_owned()));
        }
        return Ok(notes);
    }
    if let Some(index) = index {
        let operation = ois.pointer(&format!("/endpoints/{index}/operation"));
        let on_path =
            operation.is_some_and(|o| text(o, "path") == Some(FEED_OPERATION_PATH) && text(o, "method") == Some("get"));
        if !on_path {
            return Err(refuse(format!(
                "endpoint \"{FEED_ENDPOINT}\" is there and is not on GET {FEED_OPERATION_PATH}: give it another name to serve feeds by name"
            )));
        }
    }
    let used = each_once(list.iter().flat_map(|f| f.parameters.keys().cloned()));
    let declared = operation_parameters(ois, &used, places)?;
    let endpoint = match index {
        Some(index) => endpoints_mut(ois)?.get_mut(index).and_then(Value::as_object_mut),
        None => {
            let endpoints = endpoints_mut(ois)?;
            endpoints.push(json!({
                "name": FEED_ENDPOINT,
                "operation": {"method": "get", "path": FEED_OPERATION_PATH},
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

/// Makes `GET /{path}` declare `path` and every parameter in `used`; the place of each, by name.
fn operation_parameters(
    ois: &mut Value,
    used: &[String],
    places: &[ParameterPlace],
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
        .entry("get")
        .or_insert_with(|| json!({"parameters": []}));
    let parameters = operation
        .as_object_mut()
        .ok_or_else(|| refuse("GET /{path} is not an object".to_owned()))?
        .entry("parameters")
        .or_insert_with(|| json!([]));
    let list = parameters.as_array_mut().ok_or_else(|| refuse("GET /{path}'s parameters are not a list".to_owned()))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// How a feed was given its value before the batch.
    #[derive(Clone, Debug)]
    enum Given {
        /// Through its own key: `{own}.price`.
        Keyed,
        /// At some index of an array: `{index}.price`.
        Indexed(usize),
        /// The same path as every other feed given so: `data.price`.
        Shared,
    }

    fn read<'v>(answer: &'v Value, path: &str) -> Option<&'v Value> {
        path.split('.').try_fold(answer, |value, segment| match value {
            Value::Array(items) => items.get(segment.parse::<usize>().ok()?),
            Value::Object(members) => members.get(segment),
            _ => None,
        })
    }

    proptest! {
        /// A batch of distinct feeds over an answer keyed by the listed parameter, or an array in
        /// its order: after `feed batch`, every feed reads its own element's value (or none: a
        /// path that finds nothing fails its call), or the batch is refused. No feed ever reads
        /// another's.
        #[test]
        fn after_a_batch_every_feed_reads_its_own_value_or_the_batch_is_refused(
            given in prop::collection::vec(prop_oneof![
                Just(Given::Keyed), (0usize..6).prop_map(Given::Indexed), Just(Given::Shared)
            ], 2..6),
            keyed_answer in any::<bool>(),
            named in any::<bool>(),
        ) {
            let owns: Vec<String> = (0..given.len()).map(|i| format!("asset{i}")).collect();
            let mut list: Vec<Feed> = given.iter().zip(&owns).enumerate().map(|(i, (how, own))| {
                let mut feed = Feed::new(format!("F{i}/USD"), "spot");
                feed.parameters.insert("assets".into(), Value::from(own.as_str()));
                feed.parameters.insert("quote".into(), Value::from("usd"));
                let path = match how {
                    Given::Keyed => format!("{own}.price"),
                    Given::Indexed(index) => format!("{index}.price"),
                    Given::Shared => "data.price".to_owned(),
                };
                feed.parser = Some(feeds::parser_for(&path).unwrap());
                feed
            }).collect();
            // The vendor answers in request order, each asset's price its index plus one.
            let answer = if keyed_answer {
                Value::Object(owns.iter().enumerate().map(|(i, own)| (own.clone(), json!({"price": i + 1}))).collect())
            } else {
                Value::Array(owns.iter().enumerate().map(|(i, own)| json!({"symbol": own, "price": i + 1})).collect())
            };
            // With a sample of the answer, a feed may find its element by the field naming it.
            let sample = named.then_some(&answer);
            let names: Vec<String> = list.iter().map(|f| f.name.clone()).collect();
            let find = |list: &[Feed], name: &str| {
                list.iter().position(|f| f.name == name).ok_or_else(|| refuse(name.to_owned()))
            };
            if batch(&mut list, &names, sample, find).is_err() {
                return Ok(());
            }
            prop_assert_eq!(&list[0].parameters["assets"], &Value::from(owns.join(",")));
            for (index, feed) in list.iter().enumerate() {
                match feed.value_path() {
                    Some(path) => {
                        if let Some(value) = read(&answer, &path) {
                            prop_assert_eq!(value, &json!(index + 1), "{} reads {}", feed.name, path);
                        }
                    }
                    None => {
                        let parser = feed.parser.as_deref().unwrap_or_default();
                        prop_assert!(parser.contains(&format!("item.symbol === \"asset{index}\")")), "{}", parser);
                    }
                }
            }
        }
    }

    #[test]
    fn a_batch_moves_array_indexes_to_each_feed_s_place_and_refuses_one_shared_path() {
        let feed = |name: &str, metal: &str, path: &str| {
            let mut feed = Feed::new(name, "spot/summary");
            feed.parameters.insert("metals".into(), Value::from(metal));
            feed.parser = Some(feeds::parser_for(path).unwrap());
            feed
        };
        let find =
            |list: &[Feed], name: &str| list.iter().position(|f| f.name == name).ok_or_else(|| refuse(name.to_owned()));
        let names: Vec<String> = ["XAU/USD", "XAG/USD", "XPT/USD"].map(String::from).to_vec();
        let mut list = vec![
            feed("XAU/USD", "gold", "0.data.last"),
            feed("XAG/USD", "silver", "0.data.last"),
            feed("XPT/USD", "platinum", "0.data.last"),
        ];
        let note = batch(&mut list, &names, None, find).unwrap();
        let paths: Vec<String> = list.iter().filter_map(Feed::value_path).collect();
        assert_eq!(paths, ["0.data.last", "1.data.last", "2.data.last"]);
        assert!(
            note.message.contains("XAG/USD at 1.data.last (element 1 of the answer, as metals lists it)"),
            "{}",
            note.message
        );
        let mut list = vec![
            feed("XAU/USD", "gold", "data.last"),
            feed("XAG/USD", "silver", "data.last"),
            feed("XPT/USD", "platinum", "data.last"),
        ];
        let refused = batch(&mut list, &names, None, find).unwrap_err();
        assert!(
            refused.message.contains("\"XAU/USD\" and \"XAG/USD\" would read the same value"),
            "{}",
            refused.message
        );
    }
}
