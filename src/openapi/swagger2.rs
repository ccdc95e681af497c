//! Swagger 2.0 read into the same view as OpenAPI 3: `host` + `basePath` + `schemes` become a
//! server, `securityDefinitions` become security schemes, `in: body` and `in: formData` parameters
//! become request bodies. Other parameters keep their 2.0 shape, their value keys (`type`,
//! `default`, …) beside their name rather than in a `schema`: the converter reads them there
//! ([`Files::parameters_in_2_0_shape`]), so that thousands of parameters are not rebuilt only to be
//! read once. `$ref`s into `#/definitions`, `#/parameters` and `#/responses` keep working because
//! those sections stay where they are.
//! What did move is recorded ([`Origins`]), so that diagnostics point into the document as
//! written, not into its view.

use serde_json::{Map, Value, json};

use super::Resolver;
use super::files::{Files, Origins};
use crate::diagnostic::{Document, Location};
use crate::{parallel, pointer};

/// Keys of a 2.0 formData parameter that describe its value: its field's schema in the form.
const SCHEMA_KEYS: [&str; 17] = [
    "type",
    "format",
    "items",
    "collectionFormat",
    "default",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "enum",
    "multipleOf",
];

/// Makes the document the OpenAPI 3.0 view of itself, in place (`definitions`, `parameters` and
/// the rest stay where they are, uncopied: most of a big document); `files` are the files its
/// `$ref`s pulled in. Only the operations of `methods` are reshaped; the others keep their 2.0
/// parameters, for a reader that skips them unread (the converter keeps get and post; Kubernetes'
/// 466 other operations were two fifths of this work).
pub fn normalize(root: &mut Value, files: &Files, methods: &[&'static str]) -> Origins {
    // What changes is worked out from the document as it is (following `$ref`s needs all of it),
    // then made, moving what moves: parameters (long descriptions and all) are not copied.
    let mut origins = Origins::default();
    origins.moved("/openapi".to_owned(), "/swagger".to_owned());
    let server = server(root);
    if server.is_some() {
        let written = if root.get("host").is_some() { "/host" } else { "/basePath" };
        for view in ["/servers", "/servers/0", "/servers/0/url"] {
            origins.moved(view.to_owned(), written.to_owned());
        }
    }
    let mut components = Map::new();
    if let Some(definitions) = root.get("securityDefinitions").and_then(Value::as_object) {
        let schemes: Map<String, Value> =
            definitions.iter().map(|(name, scheme)| (name.clone(), security_scheme(scheme))).collect();
        components.insert("securitySchemes".to_owned(), Value::Object(schemes));
        origins.moved("/components/securitySchemes".to_owned(), "/securityDefinitions".to_owned());
    }
    let consumes = media_types(root.get("consumes"));
    let resolver = Resolver::with_files(root, files);
    // Path items are independent: worked out side by side (Kubernetes has hundreds).
    let items: Vec<(&String, &Value)> = root.get("paths").and_then(Value::as_object).into_iter().flatten().collect();
    let mut plans: Vec<Option<ItemPlan>> = parallel::map_chunks(&items, ITEMS_PER_TASK, |items| {
        items.iter().map(|(path, item)| path_item(&resolver, path, item, &consumes, methods)).collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    let moved: Vec<Vec<(String, String)>> =
        plans.iter_mut().flatten().map(|plan| std::mem::take(&mut plan.origins)).collect();
    let Some(object) = root.as_object_mut() else { return origins };
    object.remove("swagger");
    object.insert("openapi".to_owned(), json!("3.0.0"));
    if let Some(server) = server {
        object.insert("servers".to_owned(), json!([{"url": server}]));
    }
    object.insert("components".to_owned(), Value::Object(components));
    let Some(paths) = object.get_mut("paths").and_then(Value::as_object_mut) else { return origins };
    let mut work: Vec<(&mut Value, ItemPlan)> =
        paths.values_mut().zip(plans).filter_map(|(item, plan)| Some((item, plan?))).collect();
    // What moved is gathered while the plans are applied; neither reads the other.
    let split = parallel::worth_splitting(work.len(), ITEMS_PER_TASK);
    parallel::join(
        split,
        || origins.0.extend(moved.into_iter().flatten()),
        || {
            parallel::map_chunks_mut(&mut work, ITEMS_PER_TASK, |_, work| {
                for (item, plan) in work {
                    std::mem::take(plan).apply(item);
                }
            })
        },
    );
    origins
}

/// Path items per task: a few dozen parameters each.
const ITEMS_PER_TASK: usize = 16;

/// `https` when listed (else the first scheme, else `http`), `host`, `basePath`; just `basePath`
/// (relative, so `--base-url` resolves it) without a host.
fn server(root: &Value) -> Option<String> {
    let base_path = root.get("basePath").and_then(Value::as_str).unwrap_or_default();
    match root.get("host").and_then(Value::as_str) {
        Some(host) => {
            let schemes: Vec<&str> =
                root.get("schemes").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
            let scheme = if schemes.contains(&"https") { "https" } else { schemes.first().copied().unwrap_or("http") };
            Some(format!("{scheme}://{host}{base_path}"))
        }
        None if !base_path.is_empty() => Some(base_path.to_owned()),
        None => None,
    }
}

fn security_scheme(scheme: &Value) -> Value {
    match scheme.get("type").and_then(Value::as_str) {
        Some("basic") => json!({"type": "http", "scheme": "basic"}),
        Some("oauth2") => json!({"type": "oauth2", "flows": {}}),
        _ => scheme.clone(),
    }
}

fn media_types(value: Option<&Value>) -> Vec<String> {
    value.and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
}

/// What 2.0 → 3 changes in one path item: its own `parameters`, and each operation's
/// `parameters` and `requestBody`. Worked out while the document is borrowed, then made.
#[derive(Default)]
struct ItemPlan {
    parameters: Option<Leaving>,
    operations: Vec<OperationPlan>,
    /// What moved in it: view pointer → document pointer.
    origins: Vec<(String, String)>,
}

/// An operation's method, its new `requestBody`, and what leaves its `parameters`.
struct OperationPlan {
    method: &'static str,
    body: Option<Value>,
    parameters: Option<Leaving>,
}

/// For each entry of a parameter list, whether it leaves the list: a body or formData parameter
/// is the request body now. The others stay as they are.
type Leaving = Vec<bool>;

fn path_item(
    resolver: &Resolver<'_>,
    path: &str,
    item: &Value,
    consumes: &[String],
    methods: &[&'static str],
) -> Option<ItemPlan> {
    let object = item.as_object()?;
    // Pointers are written only for what moved (most parameters do not).
    let item_at = || pointer::join("/paths", [path]);
    let mut origins = Vec::new();
    // Each parameter is resolved once, though the item's own are read for every operation.
    let shared = entries(resolver, object.get("parameters"), &item_at);
    let parameters = leaving(&shared);
    if let Some(leaving) = &parameters {
        moved_up(leaving, &item_at, &mut origins);
    }
    let mut operations = Vec::new();
    for &method in methods {
        let Some(operation) = object.get(method).and_then(Value::as_object) else { continue };
        let own_consumes;
        let consumes = match operation.get("consumes") {
            Some(own) => {
                own_consumes = media_types(Some(own));
                &own_consumes
            }
            None => consumes,
        };
        let operation_at = || pointer::join(&item_at(), [method]);
        let own = entries(resolver, operation.get("parameters"), &operation_at);
        let body_at = || pointer::join(&operation_at(), ["requestBody"]);
        let body = request_body(&shared, &own, consumes, &body_at, &mut origins);
        let parameters = leaving(&own);
        if let Some(leaving) = &parameters {
            moved_up(leaving, &operation_at, &mut origins);
        }
        operations.push(OperationPlan { method, body, parameters });
    }
    Some(ItemPlan { parameters, operations, origins })
}

/// The entries of the `parameters` list of `owner` that a body or formData parameter before them
/// moves up when it leaves.
fn moved_up(leaving: &[bool], owner: &dyn Fn() -> String, origins: &mut Vec<(String, String)>) {
    let list = pointer::join(&owner(), ["parameters"]);
    let kept = leaving.iter().enumerate().filter(|(_, leaves)| !**leaves);
    for (view, (written, _)) in kept.enumerate().filter(|(view, (written, _))| view != written) {
        origins.push((format!("{list}/{view}"), format!("{list}/{written}")));
    }
}

/// A parameter list's entries, each with the parameter it is (following `$ref`s) and, for a body
/// or formData parameter (part of the request body), where that is written.
struct Entry<'a> {
    resolved: &'a Value,
    /// Its `in`, read once (every step below asks it).
    location: &'a str,
    at: Option<String>,
}

/// The entries of the `parameters` list of the object at `owner`.
fn entries<'a>(resolver: &Resolver<'a>, list: Option<&'a Value>, owner: &dyn Fn() -> String) -> Vec<Entry<'a>> {
    let list = list.and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    list.iter()
        .enumerate()
        .map(|(index, written)| {
            let nowhere = Location::default();
            let found = resolver.resolve(written, &nowhere).ok();
            let resolved = found.as_ref().map_or(written, |found| found.value);
            let place = location(resolved);
            let at = is_request_body(place).then(|| match found {
                // A shared parameter of this document is written where it is defined.
                Some(found) if written.get("$ref").is_some() && found.location.document == Document::Input => {
                    found.location.into_owned().pointer
                }
                _ => format!("{}/parameters/{index}", owner()),
            });
            Entry { resolved, location: place, at }
        })
        .collect()
}

impl ItemPlan {
    fn apply(self, item: &mut Value) {
        let Some(object) = item.as_object_mut() else { return };
        if let Some(leaving) = self.parameters {
            leave(object.get_mut("parameters"), &leaving);
        }
        for OperationPlan { method, body, parameters } in self.operations {
            let Some(operation) = object.get_mut(method).and_then(Value::as_object_mut) else { continue };
            if let Some(body) = body {
                operation.insert("requestBody".to_owned(), body);
            }
            if let Some(leaving) = parameters {
                leave(operation.get_mut("parameters"), &leaving);
            }
        }
    }
}

fn location(parameter: &Value) -> &str {
    parameter.get("in").and_then(Value::as_str).unwrap_or_default()
}

/// Whether a parameter in `location` is (part of) the request body in OpenAPI 3.
fn is_request_body(location: &str) -> bool {
    matches!(location, "body" | "formData")
}

/// What leaves a list with these entries (its body and formData parameters); `None` when nothing
/// does, and the list stays as it is.
fn leaving(entries: &[Entry<'_>]) -> Option<Leaving> {
    let leaving: Leaving = entries.iter().map(|entry| is_request_body(entry.location)).collect();
    leaving.contains(&true).then_some(leaving)
}

/// The list `leaving` was worked out for, without the entries that leave it.
fn leave(list: Option<&mut Value>, leaving: &[bool]) {
    let Some(list) = list.and_then(Value::as_array_mut) else { return };
    let mut leaving = leaving.iter();
    list.retain(|_| !leaving.next().copied().unwrap_or(false));
}

/// The schema of a form field: its parameter's own `schema` if it has one, else an object of
/// copies of its value keys alone (a parameter's name and description are not copied to be
/// dropped).
fn schema_of(parameter: &Value) -> Value {
    let Some(object) = parameter.as_object() else { return json!({}) };
    if let Some(schema) = object.get("schema") {
        return schema.clone();
    }
    let keys = object.iter().filter(|(key, _)| SCHEMA_KEYS.contains(&key.as_str()));
    Value::Object(keys.map(|(key, value)| (key.clone(), value.clone())).collect())
}

/// The 3.x request body of a 2.0 operation: its `in: body` parameter, or its `in: formData`
/// parameters as an object schema. Where its parts come from goes into `origins`.
fn request_body(
    shared: &[Entry<'_>],
    own: &[Entry<'_>],
    consumes: &[String],
    at: &dyn Fn() -> String,
    origins: &mut Vec<(String, String)>,
) -> Option<Value> {
    let all: Vec<&Entry<'_>> = shared.iter().chain(own).collect();
    let written = |entry: &Entry<'_>| entry.at.clone().unwrap_or_default();
    // The body, its content and its one media type are written as `whole`, its schema as `schema`.
    let mut from = |media: &str, whole: &str, schema: String| {
        let at = at();
        let content = pointer::join(&at, ["content"]);
        let media = pointer::join(&content, [media]);
        origins.push((pointer::join(&media, ["schema"]), schema));
        for view in [at, content, media] {
            origins.push((view, whole.to_owned()));
        }
    };
    if let Some(entry) = all.iter().rev().find(|entry| entry.location == "body") {
        let body = entry.resolved;
        let media = consumes
            .iter()
            .find(|m| m.contains("json"))
            .or(consumes.first())
            .map_or("application/json", String::as_str);
        let schema = body.get("schema").cloned().unwrap_or_else(|| json!({}));
        let mut request_body = Map::new();
        request_body.insert("content".to_owned(), json!({media: {"schema": schema}}));
        if let Some(required) = body.get("required") {
            request_body.insert("required".to_owned(), required.clone());
        }
        let whole = written(entry);
        from(media, &whole, pointer::join(&whole, ["schema"]));
        return Some(Value::Object(request_body));
    }
    let form: Vec<&Entry<'_>> = all.into_iter().filter(|entry| entry.location == "formData").collect();
    let first = form.first()?;
    let has_file = form.iter().any(|entry| entry.resolved.get("type").and_then(Value::as_str) == Some("file"));
    let media = if has_file || consumes.iter().any(|m| m.starts_with("multipart/")) {
        "multipart/form-data"
    } else {
        "application/x-www-form-urlencoded"
    };
    // The form as a whole is where its first field is written; each property, its field.
    let first = written(first);
    from(media, &first, first.clone());
    let properties_at = pointer::join(&at(), ["content", media, "schema", "properties"]);
    let mut properties = Map::new();
    let mut required = Vec::new();
    for entry in form {
        let parameter = entry.resolved;
        let Some(name) = parameter.get("name").and_then(Value::as_str) else { continue };
        origins.push((pointer::join(&properties_at, [name]), written(entry)));
        let mut schema = schema_of(parameter);
        if let (Some(description), Some(object)) = (parameter.get("description"), schema.as_object_mut()) {
            object.insert("description".to_owned(), description.clone());
        }
        properties.insert(name.to_owned(), schema);
        if parameter.get("required").and_then(Value::as_bool) == Some(true) {
            required.push(json!(name));
        }
    }
    Some(json!({"content": {media: {"schema": {"type": "object", "properties": properties, "required": required}}}}))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openapi::METHODS;

    #[test]
    fn servers_schemes_and_bodies() {
        let root = json!({
            "swagger": "2.0", "host": "api.example.com", "basePath": "/v1", "schemes": ["http", "https"],
            "consumes": ["application/json"],
            "securityDefinitions": {"b": {"type": "basic"}, "k": {"type": "apiKey", "in": "header", "name": "X-Key"}, "o": {"type": "oauth2", "flow": "implicit"}},
            "parameters": {"Limit": {"name": "limit", "in": "query", "type": "integer", "default": 10}},
            "paths": {"/pets": {
                "get": {"parameters": [{"$ref": "#/parameters/Limit"}, {"name": "tag", "in": "query", "type": "string", "x-example": "dog"}]},
                "post": {"parameters": [{"name": "pet", "in": "body", "required": true, "schema": {"$ref": "#/definitions/Pet"}}]},
                "put": {"consumes": ["application/x-www-form-urlencoded"], "parameters": [{"name": "name", "in": "formData", "type": "string", "required": true}]}
            }},
            "definitions": {"Pet": {"type": "object", "properties": {"name": {"type": "string"}}}}
        });
        let mut normalized = root.clone();
        normalize(&mut normalized, &Files::default(), &METHODS);
        assert_eq!(normalized["openapi"], "3.0.0");
        assert_eq!(normalized["servers"], json!([{"url": "https://api.example.com/v1"}]));
        assert_eq!(normalized["components"]["securitySchemes"]["b"], json!({"type": "http", "scheme": "basic"}));
        assert_eq!(normalized["components"]["securitySchemes"]["o"]["type"], "oauth2");
        let get = &normalized["paths"]["/pets"]["get"];
        // Parameters that stay keep their 2.0 shape, shared ones and the operation's own: the
        // converter reads their value keys where they are.
        assert_eq!(get["parameters"], root["paths"]["/pets"]["get"]["parameters"]);
        assert_eq!(normalized["parameters"], root["parameters"]);
        let post = &normalized["paths"]["/pets"]["post"];
        assert_eq!(post["requestBody"]["content"]["application/json"]["schema"]["$ref"], "#/definitions/Pet");
        assert_eq!(post["parameters"], json!([]));
        let put = &normalized["paths"]["/pets"]["put"];
        assert_eq!(
            put["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"]["required"],
            json!(["name"])
        );

        // Operations of the methods not asked for keep their 2.0 parameters, untouched.
        let mut only_get = root.clone();
        normalize(&mut only_get, &Files::default(), &["get"]);
        assert_eq!(only_get["paths"]["/pets"]["get"], get.clone());
        assert_eq!(only_get["paths"]["/pets"]["put"], root["paths"]["/pets"]["put"]);
        assert_eq!(only_get["paths"]["/pets"]["post"], root["paths"]["/pets"]["post"]);
        assert_eq!(only_get["parameters"], root["parameters"]);
    }

    #[test]
    fn what_moved_is_pointed_to_where_it_is_written() {
        let written = json!({
            "swagger": "2.0", "host": "api.example.com",
            "securityDefinitions": {"k": {"type": "apiKey", "in": "header", "name": "X-Key"}},
            "parameters": {"Body": {"name": "b", "in": "body", "schema": {"type": "object"}}},
            "paths": {
                "/a": {"post": {"parameters": [
                    {"name": "b", "in": "body", "schema": {"type": "object", "properties": {"x": {"type": "string"}}}},
                    {"name": "q", "in": "query", "type": "string"}
                ]}},
                "/b": {
                    "parameters": [{"name": "f", "in": "formData", "type": "string"}, {"name": "h", "in": "header", "type": "string"}],
                    "post": {"parameters": [{"name": "g", "in": "formData", "type": "integer", "enum": [1, 2]}]}
                },
                "/c": {"post": {"parameters": [{"$ref": "#/parameters/Body"}]}}
            }
        });
        let mut view = written.clone();
        let origins = normalize(&mut view, &Files::default(), &METHODS);
        let form = "/paths/~1b/post/requestBody/content/application~1x-www-form-urlencoded/schema";
        for (in_view, as_written) in [
            // The query parameter moved up when the body before it left.
            ("/paths/~1a/post/parameters/0", "/paths/~1a/post/parameters/1"),
            ("/paths/~1a/post/requestBody", "/paths/~1a/post/parameters/0"),
            ("/paths/~1a/post/requestBody/content/application~1json", "/paths/~1a/post/parameters/0"),
            (
                "/paths/~1a/post/requestBody/content/application~1json/schema/properties/x",
                "/paths/~1a/post/parameters/0/schema/properties/x",
            ),
            ("/paths/~1b/parameters/0", "/paths/~1b/parameters/1"),
            (&format!("{form}/properties/f"), "/paths/~1b/parameters/0"),
            (&format!("{form}/properties/g/enum/1"), "/paths/~1b/post/parameters/0/enum/1"),
            ("/paths/~1c/post/requestBody/content/application~1json/schema", "/parameters/Body/schema"),
            ("/components/securitySchemes/k/name", "/securityDefinitions/k/name"),
            ("/servers/0/url", "/host"),
            ("/openapi", "/swagger"),
        ] {
            assert!(view.pointer(in_view).is_some(), "{in_view} is not in the view");
            assert_eq!(origins.original(in_view).as_deref(), Some(as_written), "{in_view}");
            assert!(written.pointer(as_written).is_some(), "{as_written} is not in the document");
        }
        for unmoved in ["/paths/~1a/post", "/paths/~1b/post/parameters", "/parameters/Body", "", "/info"] {
            assert_eq!(origins.original(unmoved), None, "{unmoved}");
        }
    }

    #[test]
    fn a_form_field_schema_is_its_value_keys_or_its_own_schema() {
        let field = json!({"name": "n", "in": "formData", "description": "d", "x-example": 3,
            "type": "integer", "enum": [1, 3], "default": 1, "required": true});
        let schema = schema_of(&field);
        // The value keys alone, in the order they are written.
        assert_eq!(schema, json!({"type": "integer", "enum": [1, 3], "default": 1}));
        assert_eq!(
            schema.as_object().map(|o| o.keys().cloned().collect::<Vec<_>>()),
            Some(vec!["type".to_owned(), "enum".to_owned(), "default".to_owned()])
        );
        let own = json!({"name": "n", "in": "formData", "type": "string", "schema": {"type": "integer"}});
        assert_eq!(schema_of(&own), json!({"type": "integer"}));
        assert_eq!(schema_of(&json!("not an object")), json!({}));
    }

    #[test]
    fn no_host_gives_a_relative_server() {
        let normalized = |mut document: Value| {
            normalize(&mut document, &Files::default(), &METHODS);
            document
        };
        assert_eq!(normalized(json!({"swagger": "2.0", "basePath": "/api"}))["servers"], json!([{"url": "/api"}]));
        assert!(normalized(json!({"swagger": "2.0"})).get("servers").is_none());
    }
}
