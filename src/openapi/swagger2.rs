//! Swagger 2.0 read into the same view as OpenAPI 3: `host` + `basePath` + `schemes` become a
//! server, `securityDefinitions` become security schemes, `in: body` and `in: formData` parameters
//! become request bodies, other parameters get a `schema`. `$ref`s into `#/definitions`,
//! `#/parameters` and `#/responses` keep working because those sections stay where they are, so
//! pointers in diagnostics still point into the original document.

use serde_json::{Map, Value, json};

use super::files::Files;
use super::{METHODS, Resolver};
use crate::diagnostic::Location;
use crate::parallel;

/// Keys of a 2.0 non-body parameter that describe its value; they move into `schema`.
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
/// `$ref`s pulled in.
pub fn normalize(root: &mut Value, files: &Files) {
    // Everything new is worked out from the document as it is, then put in.
    let server = server(root);
    let mut components = Map::new();
    if let Some(definitions) = root.get("securityDefinitions").and_then(Value::as_object) {
        let schemes: Map<String, Value> =
            definitions.iter().map(|(name, scheme)| (name.clone(), security_scheme(scheme))).collect();
        components.insert("securitySchemes".to_owned(), Value::Object(schemes));
    }
    let consumes = media_types(root.get("consumes"));
    let resolver = Resolver::with_files(root, files);
    // Shared parameters are made 3.x-shaped once, where they are defined; the `$ref`s to them stay.
    let shared_parameters: Option<Map<String, Value>> =
        root.get("parameters").and_then(Value::as_object).map(|defined| {
            defined
                .iter()
                .map(|(name, parameter)| {
                    let target = resolved(&resolver, parameter);
                    let shaped = if matches!(location(target), "body" | "formData") {
                        parameter.clone()
                    } else {
                        with_schema(target)
                    };
                    (name.clone(), shaped)
                })
                .collect()
        });
    // Path items are independent: worked out side by side (Kubernetes has hundreds).
    let items: Vec<(&String, &Value)> = root.get("paths").and_then(Value::as_object).into_iter().flatten().collect();
    let changes: Vec<(String, ItemChanges)> = parallel::map_chunks(&items, 16, |items| {
        let changes =
            items.iter().filter_map(|(path, item)| Some(((*path).clone(), path_item(&resolver, item, &consumes)?)));
        changes.collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    let Some(object) = root.as_object_mut() else { return };
    object.remove("swagger");
    object.insert("openapi".to_owned(), json!("3.0.0"));
    if let Some(server) = server {
        object.insert("servers".to_owned(), json!([{"url": server}]));
    }
    object.insert("components".to_owned(), Value::Object(components));
    if let Some(shared_parameters) = shared_parameters {
        object.insert("parameters".to_owned(), Value::Object(shared_parameters));
    }
    if let Some(paths) = object.get_mut("paths").and_then(Value::as_object_mut) {
        for (path, item_changes) in changes {
            if let Some(item) = paths.get_mut(&path) {
                item_changes.apply(item);
            }
        }
    }
}

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
/// `parameters` and `requestBody`. Worked out while the document is borrowed, then put in, so
/// nothing else of the item (responses, descriptions: most of it) is copied.
struct ItemChanges {
    parameters: Option<Value>,
    operations: Vec<(&'static str, Option<Value>, Option<Value>)>,
}

fn path_item(resolver: &Resolver<'_>, item: &Value, consumes: &[String]) -> Option<ItemChanges> {
    let object = item.as_object()?;
    // Each parameter is resolved once, though the item's own are read for every operation.
    let shared = entries(resolver, object.get("parameters"));
    let parameters = object.get("parameters").map(|list| plain_parameters(list, &shared));
    let mut operations = Vec::new();
    for method in METHODS {
        let Some(operation) = object.get(method).and_then(Value::as_object) else { continue };
        let own_consumes;
        let consumes = match operation.get("consumes") {
            Some(own) => {
                own_consumes = media_types(Some(own));
                &own_consumes
            }
            None => consumes,
        };
        let own = entries(resolver, operation.get("parameters"));
        let body = request_body(&shared, &own, consumes);
        let parameters = operation.get("parameters").map(|list| plain_parameters(list, &own));
        operations.push((method, body, parameters));
    }
    Some(ItemChanges { parameters, operations })
}

/// A parameter list's entries, each with the parameter it is (following `$ref`s).
struct Entry<'a> {
    written: &'a Value,
    resolved: &'a Value,
}

fn entries<'a>(resolver: &Resolver<'a>, list: Option<&'a Value>) -> Vec<Entry<'a>> {
    let list = list.and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    list.iter().map(|written| Entry { written, resolved: resolved(resolver, written) }).collect()
}

impl ItemChanges {
    fn apply(self, item: &mut Value) {
        let Some(object) = item.as_object_mut() else { return };
        if let Some(parameters) = self.parameters {
            object.insert("parameters".to_owned(), parameters);
        }
        for (method, body, parameters) in self.operations {
            let Some(operation) = object.get_mut(method).and_then(Value::as_object_mut) else { continue };
            if let Some(body) = body {
                operation.insert("requestBody".to_owned(), body);
            }
            if let Some(parameters) = parameters {
                operation.insert("parameters".to_owned(), parameters);
            }
        }
    }
}

/// The parameter a list entry is (following `#/parameters/...` references).
fn resolved<'a>(resolver: &Resolver<'a>, parameter: &'a Value) -> &'a Value {
    resolver.resolve(parameter, &Location::default()).map_or(parameter, |r| r.value)
}

fn location(parameter: &Value) -> &str {
    parameter.get("in").and_then(Value::as_str).unwrap_or_default()
}

/// Parameters other than body and formData, each with its value keys moved into `schema`.
fn plain_parameters(list: &Value, entries: &[Entry<'_>]) -> Value {
    if !list.is_array() {
        return list.clone();
    }
    entries
        .iter()
        .filter(|entry| !matches!(location(entry.resolved), "body" | "formData"))
        .map(|entry| match entry.written.get("$ref").and_then(Value::as_str) {
            // A shared parameter of this document is made 3.x-shaped where it is defined.
            Some(reference) if reference.starts_with("#/parameters/") => entry.written.clone(),
            // One in another file keeps its 2.0 shape there; a copy of it gets a schema here.
            Some(_) => with_schema(entry.resolved),
            None => with_schema(entry.written),
        })
        .collect()
}

fn with_schema(parameter: &Value) -> Value {
    let Some(object) = parameter.as_object() else { return parameter.clone() };
    if object.contains_key("schema") {
        return parameter.clone();
    }
    let mut converted = Map::new();
    let mut schema = Map::new();
    for (key, value) in object {
        if SCHEMA_KEYS.contains(&key.as_str()) {
            schema.insert(key.clone(), value.clone());
        } else {
            converted.insert(key.clone(), value.clone());
        }
    }
    if let Some(example) = object.get("x-example") {
        converted.insert("example".to_owned(), example.clone());
    }
    converted.insert("schema".to_owned(), Value::Object(schema));
    Value::Object(converted)
}

/// The 3.x request body of a 2.0 operation: its `in: body` parameter, or its `in: formData`
/// parameters as an object schema.
fn request_body(shared: &[Entry<'_>], own: &[Entry<'_>], consumes: &[String]) -> Option<Value> {
    let all: Vec<&Value> = shared.iter().chain(own).map(|entry| entry.resolved).collect();
    if let Some(body) = all.iter().rev().find(|p| location(p) == "body") {
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
        return Some(Value::Object(request_body));
    }
    let form: Vec<&&Value> = all.iter().filter(|p| location(p) == "formData").collect();
    if form.is_empty() {
        return None;
    }
    let has_file = form.iter().any(|p| p.get("type").and_then(Value::as_str) == Some("file"));
    let media = if has_file || consumes.iter().any(|m| m.starts_with("multipart/")) {
        "multipart/form-data"
    } else {
        "application/x-www-form-urlencoded"
    };
    let mut properties = Map::new();
    let mut required = Vec::new();
    for parameter in form {
        let Some(name) = parameter.get("name").and_then(Value::as_str) else { continue };
        let mut schema = with_schema(parameter).get("schema").cloned().unwrap_or_else(|| json!({}));
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
        normalize(&mut normalized, &Files::default());
        assert_eq!(normalized["openapi"], "3.0.0");
        assert_eq!(normalized["servers"], json!([{"url": "https://api.example.com/v1"}]));
        assert_eq!(normalized["components"]["securitySchemes"]["b"], json!({"type": "http", "scheme": "basic"}));
        assert_eq!(normalized["components"]["securitySchemes"]["o"]["type"], "oauth2");
        let get = &normalized["paths"]["/pets"]["get"];
        // A shared parameter stays a `$ref`; its definition gets the schema, once.
        assert_eq!(get["parameters"][0], json!({"$ref": "#/parameters/Limit"}));
        assert_eq!(normalized["parameters"]["Limit"]["schema"]["default"], 10);
        assert_eq!(get["parameters"][1]["example"], "dog");
        let post = &normalized["paths"]["/pets"]["post"];
        assert_eq!(post["requestBody"]["content"]["application/json"]["schema"]["$ref"], "#/definitions/Pet");
        assert_eq!(post["parameters"], json!([]));
        let put = &normalized["paths"]["/pets"]["put"];
        assert_eq!(
            put["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"]["required"],
            json!(["name"])
        );
    }

    #[test]
    fn no_host_gives_a_relative_server() {
        let normalized = |mut document: Value| {
            normalize(&mut document, &Files::default());
            document
        };
        assert_eq!(normalized(json!({"swagger": "2.0", "basePath": "/api"}))["servers"], json!([{"url": "/api"}]));
        assert!(normalized(json!({"swagger": "2.0"})).get("servers").is_none());
    }
}
