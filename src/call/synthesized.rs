//! Answers made from an OpenAPI document, for `ois mock` without recordings: each get and post
//! operation answers with its first success response's example, or a value built from its schema
//! — deterministic for a seed, so that two runs of a test see the same numbers.

use serde_json::{Map, Value, json};

use crate::diagnostic::{Code, Diagnostic, Location};
use crate::openapi::Resolver;

/// Schemas nest at most this deep in an answer (a recursive schema stops there).
const MAX_DEPTH: usize = 8;

/// One operation and the answer it gives.
#[derive(Clone, Debug)]
pub struct Route {
    /// `GET` or `POST`.
    pub method: String,
    /// The path template, `/coins/{id}`, split at `/`.
    segments: Vec<String>,
    /// The path template as written.
    pub path: String,
    /// The status of the response it answers with.
    pub status: u16,
    /// The body.
    pub body: Value,
}

impl Route {
    /// Whether `path` (the request's, perhaps under the server's prefix) is this template.
    pub fn matches(&self, method: &str, path: &str) -> bool {
        if !self.method.eq_ignore_ascii_case(method) {
            return false;
        }
        let given: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        // The template's segments against the last of the request's (a server prefix before them).
        let Some(start) = given.len().checked_sub(self.segments.len()) else { return false };
        given.get(start..).is_some_and(|tail| {
            tail.iter()
                .zip(&self.segments)
                .all(|(given, template)| (template.starts_with('{') && template.ends_with('}')) || given == template)
        })
    }
}

/// Every get and post operation of `root` (an OpenAPI 3.x or Swagger 2.0 document) with its
/// answer; `seed` picks the numbers a schema leaves open.
pub fn routes(root: &Value, seed: u64) -> Result<Vec<Route>, Diagnostic> {
    let Some(paths) = root.get("paths").and_then(Value::as_object) else {
        return Err(Diagnostic::new(Code::NotOpenApi, "", "the document has no `paths` to answer"));
    };
    let resolver = Resolver::new(root);
    let swagger2 = crate::openapi::is_swagger2(root);
    let mut routes = Vec::new();
    for (path, item) in paths {
        let at = Location::input(crate::pointer::join("/paths", [path.as_str()]));
        let Ok(item) = resolver.resolve(item, &at) else { continue };
        for method in ["get", "post"] {
            let Some(operation) = item.value.get(method) else { continue };
            let (status, body) = answer(operation, &resolver, swagger2, seed ^ hash(&format!("{method} {path}")));
            routes.push(Route {
                method: method.to_ascii_uppercase(),
                segments: path.split('/').filter(|s| !s.is_empty()).map(str::to_owned).collect(),
                path: path.clone(),
                status,
                body,
            });
        }
    }
    if routes.is_empty() {
        return Err(Diagnostic::new(
            Code::NoOperations,
            "/paths",
            "the document has no get or post operation to answer",
        ));
    }
    Ok(routes)
}

/// The first success response's status and body (an empty object when it says nothing).
fn answer(operation: &Value, resolver: &Resolver<'_>, swagger2: bool, seed: u64) -> (u16, Value) {
    let nowhere = Location::input("");
    let responses = operation.get("responses").and_then(Value::as_object);
    let chosen = responses
        .into_iter()
        .flatten()
        .find(|(code, _)| code.starts_with('2'))
        .or_else(|| responses.into_iter().flatten().find(|(code, _)| code.as_str() == "default"));
    let Some((code, response)) = chosen else { return (200, json!({})) };
    let status = code.parse().unwrap_or(200);
    let Ok(response) = resolver.resolve(response, &nowhere) else { return (status, json!({})) };
    let response = response.value;
    let (example, schema) = if swagger2 {
        (response.pointer("/examples/application~1json").cloned(), response.get("schema"))
    } else {
        let content = response.get("content").and_then(Value::as_object);
        let media = content.and_then(|c| {
            c.get("application/json").or_else(|| c.iter().find(|(k, _)| k.contains("json")).map(|(_, v)| v))
        });
        let example = media.and_then(|m| {
            m.get("example").cloned().or_else(|| {
                let first = m.get("examples")?.as_object()?.values().next()?;
                resolver.resolve(first, &nowhere).ok()?.value.get("value").cloned()
            })
        });
        (example, media.and_then(|m| m.get("schema")))
    };
    let mut state = seed;
    let body = example.or_else(|| schema.map(|s| built(s, resolver, 0, &mut state))).unwrap_or_else(|| json!({}));
    (status, body)
}

/// A value of `schema`: its example, default, const or first enum value, or one built from its
/// type.
fn built(schema: &Value, resolver: &Resolver<'_>, depth: usize, state: &mut u64) -> Value {
    let nowhere = Location::input("");
    let Ok(schema) = resolver.resolve(schema, &nowhere) else { return Value::Null };
    let schema = schema.value;
    for key in ["example", "default", "const"] {
        if let Some(value) = schema.get(key) {
            return value.clone();
        }
    }
    if let Some(first) = schema.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
        return first.clone();
    }
    if depth >= MAX_DEPTH {
        return Value::Null;
    }
    if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
        let mut merged = Map::new();
        for part in parts {
            if let Value::Object(object) = built(part, resolver, depth + 1, state) {
                merged.extend(object);
            }
        }
        return Value::Object(merged);
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(first) = schema.get(key).and_then(Value::as_array).and_then(|a| a.first()) {
            return built(first, resolver, depth + 1, state);
        }
    }
    let kind = match schema.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).find(|k| *k != "null").unwrap_or("null"),
        _ if schema.get("properties").is_some() => "object",
        _ if schema.get("items").is_some() => "array",
        _ => "object",
    };
    match kind {
        "object" => {
            let properties = schema.get("properties").and_then(Value::as_object).into_iter().flatten();
            Value::Object(properties.map(|(name, s)| (name.clone(), built(s, resolver, depth + 1, state))).collect())
        }
        "array" => match schema.get("items") {
            Some(items) => Value::Array(vec![built(items, resolver, depth + 1, state)]),
            None => json!([]),
        },
        "integer" => json!(number(schema, state).round() as i64),
        "number" => json!((number(schema, state) * 100.0).round() / 100.0),
        "boolean" => json!(true),
        "string" => json!(match schema.get("format").and_then(Value::as_str) {
            Some("date-time") => "2026-01-01T00:00:00Z",
            Some("date") => "2026-01-01",
            Some("uuid") => "00000000-0000-4000-8000-000000000000",
            _ => "string",
        }),
        _ => Value::Null,
    }
}

/// A number within the schema's bounds (0 to 1000 when it has none), from the seeded sequence.
fn number(schema: &Value, state: &mut u64) -> f64 {
    let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
    let low = bound("minimum").or(bound("exclusiveMinimum")).unwrap_or(0.0);
    let high = bound("maximum").or(bound("exclusiveMaximum")).unwrap_or(low + 1000.0).max(low);
    // splitmix64: a fixed sequence for a seed.
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    let unit = (z >> 11) as f64 / (1u64 << 53) as f64;
    low + unit * (high - low)
}

fn hash(text: &str) -> u64 {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(text.as_bytes());
    digest.iter().take(8).fold(0u64, |acc, b| (acc << 8) | u64::from(*b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_first_then_schemas_the_same_for_a_seed() {
        let document = json!({"openapi": "3.0.3", "paths": {
            "/simple/price": {"get": {"responses": {"200": {"content": {"application/json": {
                "example": {"bitcoin": {"usd": 67123.45}}}}}}}},
            "/coins/{id}": {"get": {"responses": {"200": {"content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Coin"}}}}}}}},
            "components": {"schemas": {"Coin": {"type": "object", "properties": {
                "id": {"type": "string", "enum": ["bitcoin"]}, "price": {"type": "number", "minimum": 1, "maximum": 2},
                "tags": {"type": "array", "items": {"type": "string"}}}}}}});
        let made = routes(&document, 7).unwrap();
        assert_eq!(made[0].body, json!({"bitcoin": {"usd": 67123.45}}));
        let coin = &made[1].body;
        assert_eq!((coin["id"].clone(), coin["tags"].clone()), (json!("bitcoin"), json!(["string"])));
        let price = coin["price"].as_f64().unwrap();
        assert!((1.0..=2.0).contains(&price), "{coin}");
        assert_eq!(routes(&document, 7).unwrap()[1].body, *coin);
        assert!(made[1].matches("GET", "/api/v3/coins/ethereum"));
        assert!(!made[1].matches("GET", "/coins"));
        assert!(!made[1].matches("POST", "/coins/x"));
    }
}
