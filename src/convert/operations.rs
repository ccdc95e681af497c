//! Paths and operations: which operations OIS can hold (get and post on usable paths), and the
//! API parameters of each, merged from path item and operation and checked against the path
//! template.

use std::borrow::Cow;

use foldhash::{HashMap, HashMapExt, HashSet};
use serde_json::{Map, Value};

use super::body;
use super::filter::Selection;
use super::options::ConvertOptions;
use super::shared::{ApiParameter, KeptOperation, Summary, base_name, ois_string, only_value, reason};
// `Location` here is a parameter's `in`; a place in the documents is a `Place`.
use crate::diagnostic::{Code, Diagnostic, Location as Place};
use crate::ois::model::{Location, Method, RESERVED_NAMES};
use crate::ois::rules::{is_http_token, is_path_key, placeholders};
use crate::openapi::{Document, METHODS, Resolver, SpecVersion};
use crate::parallel;
use crate::pointer;

/// The parts of a Parameter object the conversion reads, borrowed from the document; everything
/// else is ignored, so that OpenAPI 3.1 schema features never make a parameter unreadable.
struct RawParameter<'a> {
    name: &'a str,
    location: &'a str,
    required: bool,
    description: Option<&'a str>,
    schema: Option<&'a Value>,
    /// A Swagger 2.0 parameter's own `default` (a 3.x one has it in its `schema`).
    default: Option<&'a Value>,
    example: Option<&'a Value>,
    examples: Option<&'a Map<String, Value>>,
    content: Option<&'a Map<String, Value>>,
}

impl<'a> RawParameter<'a> {
    /// Reads a Parameter object; the error says which field is wrong. One pass over its fields
    /// rather than a lookup per field: big APIs have tens of thousands of parameters. `in_2_0_shape`
    /// says that one without a `schema` has its value keys beside its name, as Swagger 2.0 writes
    /// them: its `default` is its own, and its `x-example` is its example.
    fn read(value: &'a Value, in_2_0_shape: bool) -> Result<RawParameter<'a>, String> {
        let object = value.as_object().ok_or("it is not an object")?;
        let [mut name, mut location, mut required, mut description] = [None; 4];
        let (mut schema, mut example, mut examples, mut content) = (None, None, None, None);
        let (mut default, mut x_example) = (None, None);
        for (key, value) in object {
            match key.as_str() {
                "name" => name = Some(value),
                "in" => location = Some(value),
                "required" => required = Some(value),
                "description" => description = Some(value),
                "schema" => schema = Some(value),
                "example" => example = Some(value),
                "examples" => examples = value.as_object(),
                "content" => content = value.as_object(),
                "default" => default = Some(value),
                "x-example" => x_example = Some(value),
                _ => {}
            }
        }
        // Swagger 2.0 has no `content`; a 2.0 parameter with a `schema` is read as 3.x writes it.
        let in_2_0_shape = in_2_0_shape && schema.is_none();
        if in_2_0_shape {
            example = x_example.or(example);
            content = None;
        } else {
            default = None;
        }
        let text = |key: &str, value: Option<&'a Value>| -> Result<Option<&'a str>, String> {
            match value {
                None => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.as_str())),
                Some(_) => Err(format!("`{key}` is not a string")),
            }
        };
        Ok(RawParameter {
            name: text("name", name)?.ok_or("it has no `name`")?,
            location: text("in", location)?.ok_or("it has no `in`")?,
            required: match required {
                None => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err("`required` is not true or false".to_owned()),
            },
            description: text("description", description)?,
            schema,
            default,
            example,
            examples,
            content,
        })
    }
}

/// What [`collect`] found.
#[derive(Default)]
pub(super) struct Collected<'a> {
    /// Every get/post operation that can be converted, in document order.
    pub kept: Vec<KeptOperation<'a>>,
    /// The natural endpoint name of every get/post operation, kept or not, in document order
    /// (`KeptOperation::name_index` points here): names are settled over all of them, so a
    /// filter or a broken neighbour never renames an endpoint (its ID would change).
    pub names: Vec<String>,
    /// The filters that matched no operation, described ("include filter \"GET /x\"").
    pub unmatched: Vec<String>,
    /// The operations the filters left out, `GET /path`, in document order.
    pub filtered: Vec<String>,
}

/// Every get/post operation that can be converted, and the names of all of them. Path items are
/// read in parallel groups (a big API has thousands), and what each found is joined in document
/// order, so the result is the same as reading them one by one.
pub(super) fn collect<'a>(
    document: &Document<'a>,
    options: &ConvertOptions,
    diagnostics: &mut Vec<Diagnostic>,
    summary: &mut Summary,
) -> Collected<'a> {
    let mut collected = Collected::default();
    let mut selection = Selection::new(&options.include, &options.exclude);
    let Some(paths) = document.root.get("paths").and_then(Value::as_object) else {
        return collected;
    };
    let resolver = document.resolver();
    let items: Vec<(&'a String, &'a Value)> = paths.iter().collect();
    let groups: Vec<Group<'a, '_>> = parallel::map_chunks(&items, PATHS_PER_TASK, |items| {
        let mut group = Group {
            selection: Selection::new(&options.include, &options.exclude),
            kept: Vec::new(),
            names: Vec::new(),
            diagnostics: Vec::new(),
            summary: Summary::default(),
            filtered: Vec::new(),
        };
        for (path, item) in items {
            path_item(&resolver, document.version, path, item, &mut group);
        }
        group
    });
    // Reserved at their final sizes: moved once, not copied into ever larger lists.
    collected.kept.reserve(groups.iter().map(|group| group.kept.len()).sum());
    collected.names.reserve(groups.iter().map(|group| group.names.len()).sum());
    diagnostics.reserve(groups.iter().map(|group| group.diagnostics.len()).sum());
    for group in groups {
        let offset = collected.names.len();
        let renumbered =
            group.kept.into_iter().map(|kept| KeptOperation { name_index: kept.name_index + offset, ..kept });
        collected.kept.extend(renumbered);
        collected.names.extend(group.names);
        collected.filtered.extend(group.filtered);
        diagnostics.extend(group.diagnostics);
        for (why, count) in group.summary.operations_skipped {
            *summary.operations_skipped.entry(why).or_default() += count;
        }
        selection.absorb(&group.selection);
    }
    collected.unmatched =
        selection.unmatched().into_iter().map(|(kind, filter)| format!("{kind} filter \"{filter}\"")).collect();
    collected
}

/// Path items read by one task.
const PATHS_PER_TASK: usize = 64;

/// What one group of path items gave (`KeptOperation::name_index` counts from its own `names`).
struct Group<'a, 'f> {
    selection: Selection<'f>,
    kept: Vec<KeptOperation<'a>>,
    names: Vec<String>,
    diagnostics: Vec<Diagnostic>,
    summary: Summary,
    filtered: Vec<String>,
}

/// The operations of one path item, into `group`.
fn path_item<'a>(
    resolver: &Resolver<'a>,
    version: SpecVersion,
    path: &'a str,
    item: &'a Value,
    group: &mut Group<'a, '_>,
) {
    let Group { selection, kept, names, diagnostics, summary, filtered } = group;
    if path.starts_with("x-") {
        return;
    }
    let item_at = Place::input(pointer::join("/paths", [path]));
    let item = match resolver.resolve(item, &item_at) {
        Ok(resolved) => resolved,
        Err(error) => {
            diagnostics.push(error);
            summary.skip(reason::REF);
            return;
        }
    };
    let Some(methods) = item.value.as_object() else {
        diagnostics.push(Diagnostic::new(
            Code::InvalidItem,
            &item_at,
            format!("path item {path} is not an object; it is skipped"),
        ));
        summary.skip(reason::INVALID);
        return;
    };
    let problem = path_problem(path);
    let mut unusable = 0;
    // OpenAPI 3.2: the `query` method and custom methods under `additionalOperations`.
    if version == SpecVersion::V3_2 {
        let custom = methods.get("additionalOperations").and_then(Value::as_object);
        let extra = custom
            .into_iter()
            .flatten()
            .map(|(m, _)| (item.location.join(["additionalOperations", m.as_str()]), m.clone()));
        let query = methods.get("query").map(|_| (item.location.join(["query"]), "query".to_owned()));
        for (at, method) in query.into_iter().chain(extra) {
            diagnostics.push(
                Diagnostic::new(
                    Code::MethodSkipped,
                    at,
                    format!("{} {path} is skipped: OIS supports only get and post", method.to_uppercase()),
                )
                .about(method.to_lowercase()),
            );
            summary.skip(reason::METHOD);
        }
    }
    for (method, operation) in methods {
        if !METHODS.contains(&method.as_str()) {
            continue;
        }
        let name_index = names.len();
        let named = Method::named(method).is_some();
        // A get or post needs its name; any other method is skipped, and needs one (and its tags)
        // only for a filter to tell "filtered" from "method skipped".
        if named || selection.is_active() {
            let target = resolver.resolve(operation, &item.location).map_or(operation, |r| r.value);
            let name = base_name(target.get("operationId").and_then(Value::as_str), method, path);
            let selected = selection.selects(method, path, target, &name);
            if named {
                names.push(name);
            }
            if !selected {
                summary.skip(reason::FILTERED);
                filtered.push(format!("{} {path}", method.to_uppercase()));
                continue;
            }
        }
        let operation_at = item.location.join([method.as_str()]);
        let method = match Method::named(method) {
            Some(method) => method,
            None => {
                diagnostics.push(
                    Diagnostic::new(
                        Code::MethodSkipped,
                        &operation_at,
                        format!("{} {path} is skipped: OIS supports only get and post", method.to_uppercase()),
                    )
                    .about(method),
                );
                summary.skip(reason::METHOD);
                continue;
            }
        };
        if problem.is_some() {
            unusable += 1;
            summary.skip(reason::PATH);
            continue;
        }
        match operation_of(resolver, path, method, operation, &operation_at, methods, &item.location, diagnostics) {
            Ok(operation) => kept.push(KeptOperation { name_index, ..operation }),
            Err((error, why)) => {
                diagnostics.push(error);
                summary.skip(why);
            }
        }
    }
    if let Some((code, why)) = problem.filter(|_| unusable > 0) {
        let message =
            format!("path \"{path}\" cannot be an OIS path ({why}); its {unusable} get/post operation(s) are skipped");
        diagnostics.push(Diagnostic::new(code, &item_at, message).with_help(match code {
            Code::PathReservedPlaceholder => "rename the placeholder (and its parameter) in the document",
            _ => "OIS paths are OpenAPI path templates: `/`, then text and `{name}` placeholders, no whitespace",
        }));
    }
}

/// Why a path cannot be an OIS path, and the code that says so: OIS needs a leading `/`, no
/// whitespace, and a strict OpenAPI template (`{name}` with a non-empty name and no brace inside;
/// the node would read `{{id}}` as a placeholder `id` followed by a stray `}`), and none of its
/// placeholders may be a reserved parameter name (the path parameter would need that name).
fn path_problem(path: &str) -> Option<(Code, String)> {
    let unusable = |why: &str| Some((Code::PathUnusable, why.to_owned()));
    if !is_path_key(path) {
        return unusable("it must start with `/` and have no whitespace");
    }
    let mut placeholder: Option<usize> = None;
    for c in path.chars() {
        placeholder = match (c, placeholder) {
            ('{', Some(_)) => return unusable("a `{` inside a placeholder"),
            ('{', None) => Some(0),
            ('}', None) => return unusable("a `}` outside a placeholder"),
            ('}', Some(0)) => return unusable("an empty placeholder `{}`"),
            ('}', Some(_)) => None,
            (_, Some(length)) => Some(length + 1),
            (_, None) => None,
        };
    }
    if placeholder.is_some() {
        return unusable("a `{` that is never closed");
    }
    let reserved = placeholders(path).into_iter().find(|name| RESERVED_NAMES.contains(name))?;
    Some((
        Code::PathReservedPlaceholder,
        format!("its placeholder {{{reserved}}} has a reserved parameter name, which no API parameter may have"),
    ))
}

#[allow(clippy::too_many_arguments)]
fn operation_of<'a>(
    resolver: &Resolver<'a>,
    path: &str,
    method: Method,
    operation: &'a Value,
    at: &Place,
    path_item: &'a Map<String, Value>,
    path_item_at: &Place,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<KeptOperation<'a>, (Diagnostic, &'static str)> {
    let resolved = resolver.resolve(operation, at).map_err(|e| (e, reason::REF))?;
    let at = &resolved.location;
    let Some(object) = resolved.value.as_object() else {
        let message = format!("{} {path} is not an object; it is skipped", method.as_str().to_uppercase());
        return Err((Diagnostic::new(Code::InvalidItem, &**at, message), reason::INVALID));
    };
    let label = format!("{} {path}", method.as_str().to_uppercase());
    let text = |key: &str| object.get(key).and_then(Value::as_str);

    let mut parameters = parameters(resolver, path_item, path_item_at, object, at, &label, diagnostics);
    check_path_template(path, at, &label, &mut parameters, diagnostics);
    match (method, object.get("requestBody")) {
        (Method::Post, Some(request_body)) => {
            let properties = body::parameters(resolver, request_body, &at.join(["requestBody"]), &label, diagnostics)
                .map_err(|e| (e, reason::REF))?;
            add_body_parameters(&mut parameters, properties, at, &label, diagnostics);
        }
        (Method::Get, Some(_)) => diagnostics.push(
            Diagnostic::new(
                Code::BodyOnGet,
                at.join(["requestBody"]),
                format!("{label} declares a request body, which is ignored"),
            )
            .with_help("the node sends no body with get requests"),
        ),
        _ => {}
    }
    Ok(KeptOperation {
        path: path.to_owned(),
        method,
        place: Place::clone(at),
        path_item_place: path_item_at.clone(),
        name_index: 0, // set by `collect`
        summary: text("summary"),
        description: text("description"),
        external_docs: object.get("externalDocs").and_then(|d| d.get("url")).and_then(Value::as_str),
        parameters,
        security: object.get("security"),
        servers: object.get("servers"),
        path_servers: path_item.get("servers"),
    })
}

/// Path-item parameters merged with the operation's (the operation wins on the same in+name),
/// each checked for what OIS can hold.
fn parameters<'a>(
    resolver: &Resolver<'a>,
    path_item: &'a Map<String, Value>,
    path_item_at: &Place,
    operation: &'a Map<String, Value>,
    operation_at: &Place,
    label: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<ApiParameter<'a>> {
    let mut merged: Vec<(ApiParameter<'a>, bool)> = Vec::new();
    // (in, name) → its place in `merged`: an operation may declare thousands of parameters.
    // Keyed by the name as the document writes it (the converted one is a copy of it).
    let mut seen: HashMap<(Location, &'a str), usize> = HashMap::new();
    let levels =
        [(path_item.get("parameters"), path_item_at, false), (operation.get("parameters"), operation_at, true)];
    for (list, list_owner, operation_level) in levels {
        let Some(list) = list.and_then(Value::as_array) else {
            continue;
        };
        for (index, raw) in list.iter().enumerate() {
            // Where the entry is written: made only for a diagnostic (most parameters get none).
            let listed = || list_owner.join(["parameters", index.to_string().as_str()]);
            let unplaced = Place::default();
            let listed_place;
            // A parameter that cannot be followed is skipped on its own, not with its operation;
            // it is followed again from its place, which the diagnostic then names.
            let resolved = match resolver.resolve(raw, &unplaced) {
                Ok(resolved) => resolved,
                Err(_) => {
                    listed_place = listed();
                    match resolver.resolve(raw, &listed_place) {
                        Ok(resolved) => resolved,
                        Err(error) => {
                            diagnostics.push(error);
                            continue;
                        }
                    }
                }
            };
            // The parameter's place: where a `$ref` led, else the entry's own.
            let place = || match &resolved.location {
                Cow::Owned(followed) => followed.clone(),
                Cow::Borrowed(_) => listed(),
            };
            let parameter = match RawParameter::read(resolved.value, resolver.parameters_in_2_0_shape()) {
                Ok(parameter) => parameter,
                Err(err) => {
                    diagnostics.push(Diagnostic::new(
                        Code::InvalidItem,
                        place(),
                        format!("a parameter of {label} is not a valid Parameter object ({err}); it is skipped"),
                    ));
                    continue;
                }
            };
            let name = parameter.name;
            let Some(converted) = convert_parameter(resolver, parameter, &place, label, diagnostics) else {
                continue;
            };
            match seen.get(&(converted.location, name)).copied() {
                Some(existing) if operation_level && merged.get(existing).is_some_and(|(_, from_op)| !from_op) => {
                    if let Some(slot) = merged.get_mut(existing) {
                        *slot = (converted, true);
                    }
                }
                Some(_) => diagnostics.push(Diagnostic::new(
                    Code::DuplicateParameter,
                    listed(),
                    format!(
                        "{label} declares {} parameter \"{}\" twice; the first is kept",
                        converted.location.as_str(),
                        converted.name
                    ),
                )),
                None => {
                    seen.insert((converted.location, name), merged.len());
                    merged.push((converted, operation_level));
                }
            }
        }
    }
    merged.into_iter().map(|(parameter, _)| parameter).collect()
}

/// `at` gives the parameter's place, for a diagnostic.
fn convert_parameter<'a>(
    resolver: &Resolver<'a>,
    raw: RawParameter<'a>,
    at: &dyn Fn() -> Place,
    label: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<ApiParameter<'a>> {
    let Some(location) = Location::parse(raw.location) else {
        diagnostics.push(
            Diagnostic::new(
                Code::ParamLocation,
                at().join(["in"]),
                format!(
                    "parameter \"{}\" of {label} is in \"{}\", which OIS cannot express; it is skipped",
                    raw.name, raw.location
                ),
            )
            .with_help("OIS parameters are in query, header, path or cookie")
            .about(raw.location),
        );
        return None;
    };
    if location == Location::Header
        && ["accept", "content-type", "authorization"].contains(&raw.name.to_ascii_lowercase().as_str())
    {
        diagnostics.push(
            Diagnostic::new(
                Code::HeaderIgnored,
                at(),
                format!("header parameter \"{}\" of {label} is ignored, as OpenAPI says", raw.name),
            )
            .about(raw.name.to_ascii_lowercase()),
        );
        return None;
    }
    if location == Location::Header && !is_http_token(raw.name) {
        diagnostics.push(
            Diagnostic::new(
                Code::HeaderNameInvalid,
                at().join(["name"]),
                format!(
                    "header parameter {:?} of {label} is not an HTTP token, which the node's HTTP client cannot send; it is skipped",
                    raw.name
                ),
            )
            .with_help("HTTP header names are ASCII letters, digits and !#$%&'*+-.^_`|~"),
        );
        return None;
    }
    if RESERVED_NAMES.contains(&raw.name) {
        diagnostics.push(
            Diagnostic::new(
                Code::ReservedName,
                at().join(["name"]),
                format!(
                    "parameter \"{}\" of {label} has a reserved OIS name and cannot be an API parameter; it is skipped",
                    raw.name
                ),
            )
            .with_help("to send it, edit the OIS by hand and rename it in the API specification"),
        );
        return None;
    }
    // The schema (or the first media type's schema) carries default, example and description.
    let schema = raw
        .schema
        .or_else(|| raw.content.and_then(|c| c.values().next()).and_then(|m| m.get("schema")))
        // Followed from the parameter's place (a `$ref` back to it is a cycle, and no schema).
        .and_then(|schema| match schema.get("$ref") {
            Some(_) => resolver.resolve(schema, &at()).ok().map(|resolved| resolved.value),
            None => Some(schema),
        });
    let first_example = raw.examples.and_then(|e| e.values().next()).and_then(|e| e.get("value"));
    let schema_example = || {
        let examples = schema.and_then(|s| s.get("examples")).and_then(Value::as_array);
        schema.and_then(|s| s.get("example")).or_else(|| examples.and_then(|e| e.first()))
    };
    let example = raw.example.or(first_example).or_else(schema_example);
    let schema_description = || schema.and_then(|s| s.get("description")).and_then(Value::as_str);
    Some(ApiParameter {
        required: raw.required || location == Location::Path,
        default: schema.and_then(|s| s.get("default")).or(raw.default).and_then(ois_string),
        example: example.and_then(ois_string),
        description: raw.description.or_else(schema_description),
        location,
        name: raw.name.to_owned(),
        only: schema.and_then(only_value),
    })
}

/// Every `{x}` needs an `in: path` parameter, and every path parameter a `{x}`.
fn check_path_template(
    path: &str,
    at: &Place,
    label: &str,
    parameters: &mut Vec<ApiParameter<'_>>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let template = placeholders(path);
    let wanted: HashSet<&str> = template.iter().copied().collect();
    parameters.retain(|p| {
        let keep = p.location != Location::Path || wanted.contains(p.name.as_str());
        if !keep {
            diagnostics.push(Diagnostic::new(
                Code::PathParamDropped,
                at.join(["parameters"]),
                format!("path parameter \"{}\" of {label} is not in the path template; it is dropped", p.name),
            ));
        }
        keep
    });
    let mut present: HashSet<String> =
        parameters.iter().filter(|p| p.location == Location::Path).map(|p| p.name.clone()).collect();
    for name in template {
        if present.insert(name.to_owned()) {
            diagnostics.push(Diagnostic::new(
                Code::PathParamAdded,
                at,
                format!("{label} has no path parameter for {{{name}}}; one is added"),
            ));
            parameters.push(ApiParameter {
                location: Location::Path,
                name: name.to_owned(),
                required: true,
                default: None,
                example: None,
                description: None,
                only: None,
            });
        }
    }
}

/// Body properties become `in: query` parameters (the node sends all query parameters of a post as
/// its JSON body); one that has a query parameter's name would be the same JSON key.
fn add_body_parameters<'a>(
    parameters: &mut Vec<ApiParameter<'a>>,
    properties: Vec<ApiParameter<'a>>,
    at: &Place,
    label: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut query: HashSet<String> =
        parameters.iter().filter(|p| p.location == Location::Query).map(|p| p.name.clone()).collect();
    for property in properties {
        if property.location == Location::Query && !query.insert(property.name.clone()) {
            diagnostics.push(
                Diagnostic::new(
                    Code::BodyCollision,
                    at.join(["requestBody"]),
                    format!("body property \"{}\" of {label} has the name of a query parameter; the query parameter is kept", property.name),
                )
                .with_help("the node sends query parameters of a post as the JSON body, so both would be the same key"),
            );
            continue;
        }
        parameters.push(property);
    }
}
