//! Request bodies → `in: query` parameters: the top-level properties of a JSON (or form) body
//! schema, with `$ref`, `allOf`, `oneOf`/`anyOf` and `readOnly` handled, depth bounded.

use indexmap::IndexMap;
use serde_json::Value;

use super::shared::{ApiParameter, ois_string, only_value};
use crate::diagnostic::{Code, Diagnostic, Location as Place};
use crate::ois::model::{Location, RESERVED_NAMES};
use crate::openapi::Resolver;

/// How deep `allOf`/`oneOf`/`anyOf` nesting is followed.
const MAX_DEPTH: usize = 32;
/// How many schemas one body may expand to: a `oneOf` whose alternatives share a definition is
/// walked once per use, so nesting them grows exponentially without this bound.
const MAX_VISITS: usize = 10_000;

/// The body's properties as parameters. `Err` only for `$ref` problems, which skip the operation.
pub(super) fn parameters<'a>(
    resolver: &Resolver<'a>,
    request_body: &'a Value,
    at: &Place,
    label: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Vec<ApiParameter<'a>>, Diagnostic> {
    let body = resolver.resolve(request_body, at)?;
    let Some(content) = body.value.get("content").and_then(Value::as_object) else {
        return Ok(Vec::new());
    };
    let media = |wanted: fn(&str) -> bool| content.iter().find(|(mime, _)| wanted(&essence(mime)));
    let (mime, media_type) = match (media(is_json), media(|m| m == "application/x-www-form-urlencoded")) {
        (Some(json), _) => json,
        (None, Some(form)) => {
            diagnostics.push(
                Diagnostic::new(
                    Code::BodyFormEncoded,
                    body.location.join(["content", form.0.as_str()]),
                    format!("{label} takes a form-encoded body; its fields become parameters, but the node sends them as JSON"),
                )
                .with_help("check that the API also accepts a JSON body"),
            );
            form
        }
        (None, None) => {
            let types: Vec<&str> = content.keys().map(String::as_str).collect();
            diagnostics.push(
                Diagnostic::new(
                    Code::BodyUnsupported,
                    body.location.join(["content"]),
                    format!(
                        "{label} takes a {} body, which the node cannot send; the body is left out",
                        types.join(" or ")
                    ),
                )
                .with_help("the node sends only flat JSON bodies"),
            );
            return Ok(Vec::new());
        }
    };
    let Some(schema) = media_type.get("schema") else {
        return Ok(Vec::new());
    };
    let schema_at = body.location.join(["content", mime.as_str(), "schema"]);
    let mut flat = Flattened::default();
    flatten(resolver, schema, &schema_at, 0, &mut Vec::new(), &mut 0, &mut flat)?;

    if let Some(kind) = &flat.not_object {
        diagnostics.push(
            Diagnostic::new(
                Code::BodyNotObject,
                &schema_at,
                format!("{label} takes a body that is {kind}, not an object with properties; the body is left out"),
            )
            .with_help("the node sends the post's parameters as one flat JSON object"),
        );
        return Ok(Vec::new());
    }
    if flat.union {
        diagnostics.push(
            Diagnostic::new(
                Code::BodyUnion,
                &schema_at,
                format!("{label} takes one of several body shapes; the parameters are the union of their properties"),
            )
            .with_help("requesters should send only the fields of one alternative"),
        );
    }
    if flat.properties.is_empty() {
        if flat.free_form {
            diagnostics.push(
                Diagnostic::new(
                    Code::BodyFreeForm,
                    &schema_at,
                    format!("{label} takes an object body without declared properties; no body parameters are made"),
                )
                .with_help("add the fields the API expects to the OIS by hand"),
            );
        }
        return Ok(Vec::new());
    }
    if !flat.read_only.is_empty() {
        diagnostics.push(Diagnostic::new(
            Code::BodyReadOnly,
            &schema_at,
            format!("{label}: readOnly properties are left out of the body: {}", flat.read_only.join(", ")),
        ));
    }

    let mut parameters = Vec::new();
    let mut nested = Vec::new();
    for (name, (property, property_at)) in &flat.properties {
        if RESERVED_NAMES.contains(&name.as_str()) {
            diagnostics.push(Diagnostic::new(
                Code::ReservedName,
                property_at,
                format!("body property \"{name}\" of {label} has a reserved OIS name; it is skipped"),
            ));
            continue;
        }
        let property = resolver.resolve(property, property_at)?.value;
        if is_nested(property) {
            nested.push(name.as_str());
        }
        let example = property
            .get("example")
            .or_else(|| property.get("examples").and_then(Value::as_array).and_then(|e| e.first()));
        parameters.push(ApiParameter {
            location: Location::Query,
            name: name.clone(),
            required: flat.required.contains(name),
            default: property.get("default").and_then(ois_string),
            example: example.and_then(ois_string),
            description: property.get("description").and_then(Value::as_str),
            only: only_value(property),
        });
    }
    if !nested.is_empty() {
        diagnostics.push(
            Diagnostic::new(
                Code::BodyNested,
                &schema_at,
                format!(
                    "{label}: body properties with object or array values are kept and sent as given: {}",
                    nested.join(", ")
                ),
            )
            .with_help(
                "the node sends each value as the requester gives it; nested fields cannot be mapped one by one",
            ),
        );
    }
    Ok(parameters)
}

/// The media type without parameters, lower case: `application/json; charset=utf-8` → `application/json`.
fn essence(mime: &str) -> String {
    mime.split(';').next().unwrap_or_default().trim().to_ascii_lowercase()
}

fn is_json(essence: &str) -> bool {
    essence == "application/json" || essence.ends_with("+json")
}

fn is_nested(schema: &Value) -> bool {
    let typed = |t: &str| match schema.get("type") {
        Some(Value::String(s)) => s == t,
        Some(Value::Array(types)) => types.iter().any(|x| x == t),
        _ => false,
    };
    typed("object") || typed("array") || schema.get("properties").is_some() || schema.get("items").is_some()
}

#[derive(Default)]
struct Flattened<'a> {
    /// name → (schema, place), in document order; the first declaration of a name wins.
    properties: IndexMap<String, (&'a Value, Place)>,
    required: Vec<String>,
    read_only: Vec<String>,
    union: bool,
    free_form: bool,
    /// Set when the body is not an object ("an array", "a string", …).
    not_object: Option<String>,
}

/// Collects the top-level properties of `schema` into `flat`. `stack` holds the pointers being
/// flattened, so that an `allOf` that includes itself is reported instead of followed forever.
fn flatten<'a>(
    resolver: &Resolver<'a>,
    schema: &'a Value,
    at: &Place,
    depth: usize,
    stack: &mut Vec<Place>,
    visits: &mut usize,
    flat: &mut Flattened<'a>,
) -> Result<(), Diagnostic> {
    *visits += 1;
    if *visits > MAX_VISITS {
        return Err(Diagnostic::new(
            Code::SchemaTooDeep,
            at,
            format!("the body schema expands to more than {MAX_VISITS} schemas through allOf/oneOf/anyOf"),
        ));
    }
    let resolved = resolver.resolve(schema, at)?;
    if depth > MAX_DEPTH {
        return Err(Diagnostic::new(
            Code::SchemaTooDeep,
            at,
            format!("the body schema nests allOf/oneOf/anyOf deeper than {MAX_DEPTH} levels"),
        ));
    }
    if stack.contains(&resolved.location) {
        return Err(Diagnostic::new(
            Code::RefCycle,
            at,
            format!("the body schema includes itself through allOf/oneOf/anyOf ({})", resolved.location.pointer),
        )
        .with_help("a body whose properties are defined in terms of itself cannot be flattened"));
    }
    let schema = resolved.value;
    let Some(object) = schema.as_object() else {
        return Ok(());
    };
    stack.push(Place::clone(&resolved.location));

    if let Some(kind) = non_object_type(schema) {
        flat.not_object.get_or_insert(kind);
    }
    if let Some(parts) = object.get("allOf").and_then(Value::as_array) {
        for (index, part) in parts.iter().enumerate() {
            let part_at = resolved.location.join(["allOf", index.to_string().as_str()]);
            flatten(resolver, part, &part_at, depth + 1, stack, visits, flat)?;
        }
    }
    for key in ["oneOf", "anyOf"] {
        let Some(alternatives) = object.get(key).and_then(Value::as_array) else {
            continue;
        };
        let mut required: Option<Vec<String>> = None;
        for (index, alternative) in alternatives.iter().enumerate() {
            let alternative_at = resolved.location.join([key, index.to_string().as_str()]);
            let mut part = Flattened::default();
            flatten(resolver, alternative, &alternative_at, depth + 1, stack, visits, &mut part)?;
            // A property is required by the union only when every alternative requires it.
            required = Some(match required {
                None => part.required.clone(),
                Some(before) => before.into_iter().filter(|r| part.required.contains(r)).collect(),
            });
            for (name, property) in part.properties {
                flat.properties.entry(name).or_insert(property);
            }
            flat.read_only.extend(part.read_only);
        }
        flat.required.extend(required.unwrap_or_default());
        flat.union = true;
    }
    if let Some(properties) = object.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            let property_at = resolved.location.join(["properties", name.as_str()]);
            let read_only = resolver
                .resolve(property, &property_at)
                .ok()
                .and_then(|p| p.value.get("readOnly"))
                .and_then(Value::as_bool)
                .unwrap_or(false);
            if read_only {
                flat.read_only.push(name.clone());
                continue;
            }
            flat.properties.entry(name.clone()).or_insert((property, property_at));
        }
    } else if !object.contains_key("allOf") && !object.contains_key("oneOf") && !object.contains_key("anyOf") {
        flat.free_form = true;
    }
    if let Some(required) = object.get("required").and_then(Value::as_array) {
        flat.required.extend(required.iter().filter_map(Value::as_str).map(str::to_owned));
    }
    stack.pop();
    Ok(())
}

/// "an array", "a string", … when the schema's `type` rules out an object.
fn non_object_type(schema: &Value) -> Option<String> {
    let describe = |t: &str| match t {
        "array" | "integer" => format!("an {t}"),
        other => format!("a {other}"),
    };
    match schema.get("type") {
        Some(Value::String(t)) if t != "object" => Some(describe(t)),
        Some(Value::Array(types)) if !types.iter().any(|t| t == "object") => {
            types.iter().filter_map(Value::as_str).find(|t| *t != "null").map(describe)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(root: &Value, body: Value) -> (Vec<String>, Vec<Code>) {
        let mut diagnostics = Vec::new();
        let names = parameters(&Resolver::new(root), &body, &"/b".into(), "POST /x", &mut diagnostics)
            .map(|ps| ps.into_iter().map(|p| format!("{}{}", p.name, if p.required { "*" } else { "" })).collect())
            .unwrap_or_else(|d| vec![format!("error {}", d.code)]);
        (names, diagnostics.into_iter().map(|d| d.code).collect())
    }

    fn json_body(schema: Value) -> Value {
        json!({"content": {"application/json; charset=utf-8": {"schema": schema}}})
    }

    #[test]
    fn all_of_merges_properties_and_required_and_skips_read_only() {
        let root = json!({"components": {"schemas": {
            "Base": {"type": "object", "required": ["name"], "properties": {"id": {"type": "integer", "readOnly": true}, "name": {"type": "string"}}},
            "Pet": {"allOf": [{"$ref": "#/components/schemas/Base"}, {"properties": {"tag": {"type": "string"}, "meta": {"type": "object"}}}]}
        }}});
        let (names, codes) = run(&root, json_body(json!({"$ref": "#/components/schemas/Pet"})));
        assert_eq!(names, ["name*", "tag", "meta"]);
        assert_eq!(codes, [Code::BodyReadOnly, Code::BodyNested]);
    }

    #[test]
    fn unions_non_objects_and_unsupported_media() {
        let root = json!({});
        let union = json_body(json!({"oneOf": [
            {"required": ["a", "b"], "properties": {"a": {}, "b": {}}},
            {"required": ["a"], "properties": {"a": {}, "c": {}}}]}));
        assert_eq!(run(&root, union), (vec!["a*".into(), "b".into(), "c".into()], vec![Code::BodyUnion]));
        assert_eq!(run(&root, json_body(json!({"type": "array", "items": {}}))), (vec![], vec![Code::BodyNotObject]));
        assert_eq!(run(&root, json_body(json!({"type": "object"}))), (vec![], vec![Code::BodyFreeForm]));
        let multipart = json!({"content": {"multipart/form-data": {"schema": {"properties": {"f": {}}}}}});
        assert_eq!(run(&root, multipart), (vec![], vec![Code::BodyUnsupported]));
        let form = json!({"content": {"application/x-www-form-urlencoded": {"schema": {"properties": {"f": {}}}}}});
        assert_eq!(run(&root, form), (vec!["f".into()], vec![Code::BodyFormEncoded]));
    }

    #[test]
    fn shared_alternatives_cannot_expand_exponentially() {
        // Found by fuzzing: each level's two alternatives are the same next level, 2^40 walks.
        let mut schemas = serde_json::Map::new();
        for level in 0..40 {
            let next = json!({"$ref": format!("#/components/schemas/S{}", level + 1)});
            schemas.insert(format!("S{level}"), json!({"oneOf": [next.clone(), next]}));
        }
        schemas.insert("S40".into(), json!({"properties": {"a": {}}}));
        let root = json!({"components": {"schemas": schemas}});
        let (names, _) = run(&root, json_body(json!({"$ref": "#/components/schemas/S0"})));
        assert_eq!(names, ["error OAS021"]);
    }

    #[test]
    fn self_including_all_of_is_a_cycle_not_a_hang() {
        let root = json!({"components": {"schemas": {"A": {"allOf": [{"$ref": "#/components/schemas/B"}]}, "B": {"allOf": [{"$ref": "#/components/schemas/A"}]}}}});
        let (names, _) = run(&root, json_body(json!({"$ref": "#/components/schemas/A"})));
        assert_eq!(names, ["error OAS011"]);
    }
}
