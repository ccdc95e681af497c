//! Answers made from an OpenAPI document, for `ois mock` without recordings: each get and post
//! operation answers with its first success response's example, or a value built from its schema
//! — deterministic for a seed, so that two runs of a test see the same numbers.

use serde_json::{Map, Value, json};

use crate::diagnostic::{Code, Diagnostic, Location};
use crate::openapi::Resolver;

/// Schemas nest at most this deep in an answer (a recursive schema stops there).
const MAX_DEPTH: usize = 8;

/// Deeper than this nothing more is built, whatever the schema requires (a recursive array of
/// `minItems: 1` would otherwise nest until the stack ran out).
const HARD_DEPTH: usize = 3 * MAX_DEPTH;

/// The most values one answer is built of: self-referencing properties multiply at each level,
/// and the answer must stay linear in the document, not exponential.
const MAX_VALUES: usize = 20_000;

/// The most bytes of text one answer holds (a `minLength: 3000000` is cut to fit).
const MAX_TEXT_BYTES: usize = 1 << 20;

/// What building one answer may still spend, and the seeded numbers it draws.
struct Maker {
    state: u64,
    values_left: usize,
    text_left: usize,
}

impl Maker {
    fn new(seed: u64) -> Maker {
        Maker { state: seed, values_left: MAX_VALUES, text_left: MAX_TEXT_BYTES }
    }

    /// Takes `bytes` of text of the budget; `false` (and none left) once it cannot.
    fn spend_text(&mut self, bytes: usize) -> bool {
        match self.text_left.checked_sub(bytes) {
            Some(left) => {
                self.text_left = left;
                true
            }
            None => {
                self.text_left = 0;
                false
            }
        }
    }

    /// Takes one value of the budget; `false` once it is spent.
    fn spend(&mut self) -> bool {
        match self.values_left.checked_sub(1) {
            Some(left) => {
                self.values_left = left;
                true
            }
            None => false,
        }
    }
}

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
    /// The response's schema, as the document writes it (`$ref`s unresolved), when it has one.
    pub schema: Option<Value>,
    /// Whether the body is the document's own example (not built from the schema).
    pub from_example: bool,
    /// The credentials a request must carry, as the document's security requires them: any one
    /// of the sets, each whole (empty: none required).
    pub security: Vec<Vec<super::required_credentials::CredentialPlace>>,
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

    /// The credential a request to `url` with `headers` lacks, as the vendor would find it
    /// missing (the first of the first set its security asks for); `None` when it has one set
    /// whole, or needs none.
    pub fn credential_missing(&self, url: &str, headers: &[(String, String)]) -> Option<String> {
        super::required_credentials::missing(&self.security, url, headers)
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
            let answered = answer(operation, &resolver, swagger2, seed ^ hash(&format!("{method} {path}")));
            routes.push(Route {
                method: method.to_ascii_uppercase(),
                segments: path.split('/').filter(|s| !s.is_empty()).map(str::to_owned).collect(),
                path: path.clone(),
                status: answered.status,
                body: answered.body,
                schema: answered.schema,
                from_example: answered.from_example,
                security: super::required_credentials::required(root, operation),
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

/// The query parameters `root`'s security schemes send an API key in (OpenAPI 3's
/// `components.securitySchemes`, Swagger 2.0's `securityDefinitions`).
pub fn query_credential_names(root: &Value) -> Vec<String> {
    let schemes = root.pointer("/components/securitySchemes").or_else(|| root.get("securityDefinitions"));
    let in_query = |scheme: &Value| scheme.get("in").and_then(Value::as_str) == Some("query");
    schemes
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(_, scheme)| in_query(scheme))
        .filter_map(|(_, scheme)| scheme.get("name").and_then(Value::as_str).map(str::to_owned))
        .collect()
}

/// What an operation answers.
struct Answered {
    status: u16,
    body: Value,
    schema: Option<Value>,
    from_example: bool,
}

/// The first success response's status and body (an empty object when it says nothing).
fn answer(operation: &Value, resolver: &Resolver<'_>, swagger2: bool, seed: u64) -> Answered {
    let empty = |status| Answered { status, body: json!({}), schema: None, from_example: false };
    let nowhere = Location::input("");
    let responses = operation.get("responses").and_then(Value::as_object);
    let chosen = responses
        .into_iter()
        .flatten()
        .find(|(code, _)| code.starts_with('2'))
        .or_else(|| responses.into_iter().flatten().find(|(code, _)| code.as_str() == "default"));
    let Some((code, response)) = chosen else { return empty(200) };
    let status = code.parse().unwrap_or(200);
    let Ok(response) = resolver.resolve(response, &nowhere) else { return empty(status) };
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
    let mut maker = Maker::new(seed);
    let from_example = example.is_some();
    let body = example.or_else(|| schema.map(|s| built(s, resolver, 0, &mut maker))).unwrap_or_else(|| json!({}));
    Answered { status, body, schema: schema.cloned(), from_example }
}

/// A value of `schema`: its example, default, const or first enum value, or one built from its
/// type within its bounds (lengths, item counts, a pattern when a likely text fits it).
fn built(schema: &Value, resolver: &Resolver<'_>, depth: usize, maker: &mut Maker) -> Value {
    let nowhere = Location::input("");
    if depth > HARD_DEPTH || !maker.spend() {
        return Value::Null;
    }
    let Ok(schema) = resolver.resolve(schema, &nowhere) else { return Value::Null };
    let schema = schema.value;
    // A vendor's example or default that breaks the type it sits in (`"series": "{}"` of an
    // object) is not served: the answer must be what the schema says.
    // A structure is built from its parts (an example of a whole object may hold a part of
    // another type than the part's own schema says); a leaf takes its example.
    let structured = ["properties", "items", "allOf", "oneOf", "anyOf"].iter().any(|key| schema.get(*key).is_some());
    for key in ["const", "example", "default"] {
        if let Some(value) = schema.get(key).filter(|value| of_its_type(value, schema))
            && (key == "const" || !structured)
        {
            return value.clone();
        }
    }
    if let Some(first) = schema.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
        return first.clone();
    }
    if let Some(parts) = schema.get("allOf").and_then(Value::as_array).filter(|_| depth < HARD_DEPTH) {
        return all_of(parts, resolver, depth, maker);
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(first) =
            schema.get(key).and_then(Value::as_array).and_then(|a| a.first()).filter(|_| depth < HARD_DEPTH)
        {
            return built(first, resolver, depth + 1, maker);
        }
    }
    let kind = match schema.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).find(|k| *k != "null").unwrap_or("null"),
        _ if schema.get("properties").is_some() => "object",
        _ if schema.get("items").is_some() => "array",
        _ => "object",
    };
    // Deeper than this (a recursive schema): the least value of its type.
    let deep = depth >= MAX_DEPTH;
    let size = |key: &str| schema.get(key).and_then(Value::as_u64).and_then(|n| usize::try_from(n).ok());
    match kind {
        // Deeper: only what it requires, until even that stops.
        "object" if depth >= HARD_DEPTH => json!({}),
        "object" => {
            let required: indexmap::IndexSet<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let properties = schema.get("properties").and_then(Value::as_object);
            let mut object = Map::new();
            // A key is text of the answer too: its name is spent from the text budget.
            for (name, part) in properties.into_iter().flatten() {
                if deep && !required.contains(name.as_str()) {
                    continue;
                }
                if !maker.spend_text(name.len()) {
                    break;
                }
                let value = built(part, resolver, depth + 1, maker);
                object.insert(name.clone(), value);
            }
            // Required, with no schema of its own: any value does.
            for name in required {
                if !object.contains_key(name) {
                    if !maker.spend() || !maker.spend_text(name.len() + "string".len()) {
                        break;
                    }
                    object.insert(name.to_owned(), json!("string"));
                }
            }
            Value::Object(object)
        }
        "array" if deep && size("minItems").is_none_or(|n| n == 0) => json!([]),
        "array" => match schema.get("items") {
            Some(items) => {
                let count = size("minItems").unwrap_or(1).max(1).min(size("maxItems").unwrap_or(usize::MAX)).min(16);
                Value::Array((0..count).map(|_| built(items, resolver, depth + 1, maker)).collect())
            }
            None => json!([]),
        },
        "integer" => json!(number(schema, &mut maker.state).round() as i64),
        "number" => json!((number(schema, &mut maker.state) * 100.0).round() / 100.0),
        "boolean" => json!(true),
        "string" => {
            let made = text(schema, size("minLength").map(|min| min.min(maker.text_left)), size("maxLength"));
            maker.spend_text(made.len());
            json!(made)
        }
        _ => Value::Null,
    }
}

/// A value every part of an `allOf` accepts: the parts' properties merged schema by schema (a
/// property two parts describe is built from both: the one naming its values wins), their required
/// names together; parts without properties merged value by value.
fn all_of(parts: &[Value], resolver: &Resolver<'_>, depth: usize, maker: &mut Maker) -> Value {
    let nowhere = Location::input("");
    let resolved: Vec<&Value> =
        parts.iter().filter_map(|p| resolver.resolve(p, &nowhere).ok().map(|r| r.value)).collect();
    // A part that names the value (an enum, a const) decides it.
    if let Some(narrow) = resolved.iter().find(|p| p.get("enum").is_some() || p.get("const").is_some()) {
        return built(narrow, resolver, depth + 1, maker);
    }
    if resolved.iter().any(|p| p.get("properties").is_some()) {
        let mut properties: Map<String, Value> = Map::new();
        let mut required: Vec<Value> = Vec::new();
        let mut rest = Vec::new();
        for part in &resolved {
            match part.get("properties").and_then(Value::as_object) {
                Some(own) => {
                    for (name, property) in own {
                        if !maker.spend() {
                            break;
                        }
                        match properties.get_mut(name) {
                            Some(Value::Object(both)) if both.contains_key("allOf") && both.len() == 1 => {
                                if let Some(Value::Array(list)) = both.get_mut("allOf") {
                                    list.push(property.clone());
                                }
                            }
                            Some(first) => *first = json!({"allOf": [first.clone(), property]}),
                            None => {
                                properties.insert(name.clone(), property.clone());
                            }
                        }
                    }
                    required.extend(part.get("required").and_then(Value::as_array).into_iter().flatten().cloned());
                }
                None if part.get("allOf").is_some() || part.get("oneOf").is_some() || part.get("anyOf").is_some() => {
                    rest.push((*part).clone());
                }
                None => {}
            }
        }
        let merged = json!({"type": "object", "properties": properties, "required": required});
        let mut value = built(&merged, resolver, depth + 1, maker);
        // Parts that are combinations themselves add what they build.
        for part in rest {
            if let (Value::Object(object), Value::Object(more)) = (&mut value, built(&part, resolver, depth + 1, maker))
            {
                for (name, extra) in more {
                    object.entry(name).or_insert(extra);
                }
            }
        }
        return value;
    }
    // The first part to give a value its type keeps it (a later one may only add a description).
    let mut merged = Map::new();
    let mut scalar = None;
    for part in &resolved {
        match built(part, resolver, depth + 1, maker) {
            Value::Object(object) => {
                for (name, value) in object {
                    merged.entry(name).or_insert(value);
                }
            }
            other if scalar.is_none() && !other.is_null() => scalar = Some(other),
            _ => {}
        }
    }
    scalar.filter(|_| merged.is_empty()).unwrap_or(Value::Object(merged))
}

/// Whether `value` is of the type `schema` declares (any, when it declares none).
fn of_its_type(value: &Value, schema: &Value) -> bool {
    let fits = |kind: &str| match kind {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        _ => true,
    };
    match schema.get("type") {
        Some(Value::String(kind)) => {
            fits(kind) || (value.is_null() && schema.get("nullable") == Some(&Value::Bool(true)))
        }
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).any(fits),
        _ => true,
    }
}

/// A string of `schema`: one its `format` names, or the first of a few likely texts that its
/// `pattern` accepts (the pattern's own literal start among them), fitted to its lengths.
fn text(schema: &Value, min: Option<usize>, max: Option<usize>) -> String {
    let formatted = match schema.get("format").and_then(Value::as_str) {
        Some("date-time") => Some("2026-01-01T00:00:00Z"),
        Some("date") => Some("2026-01-01"),
        Some("time") => Some("00:00:00"),
        Some("uuid") => Some("00000000-0000-4000-8000-000000000000"),
        Some("email") => Some("user@example.com"),
        Some("uri" | "url") => Some("https://example.com"),
        Some("ipv4") => Some("127.0.0.1"),
        Some("ipv6") => Some("::1"),
        _ => None,
    };
    let mut candidates: Vec<String> = formatted.into_iter().map(str::to_owned).collect();
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
        let literal: String =
            pattern.trim_start_matches('^').chars().take_while(|c| !"\\[](){}|.*+?$^".contains(*c)).collect();
        let tries =
            [literal.clone(), format!("{literal}0"), "0".into(), "1".into(), "a".into(), "A".into(), "string".into()];
        let fits = fancy_regex::Regex::new(pattern)
            .ok()
            .and_then(|regex| tries.into_iter().find(|t| regex.is_match(t).unwrap_or(false)));
        candidates.extend(fits);
    }
    let mut chosen = candidates.into_iter().next().unwrap_or_else(|| "string".to_owned());
    let short_by = min.unwrap_or(0).saturating_sub(chosen.chars().count());
    chosen.extend(std::iter::repeat_n('x', short_by));
    if let Some(max) = max {
        chosen = chosen.chars().take(max).collect();
    }
    chosen
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

    /// The body made for `schema` under `components` (its `$ref`s' home).
    fn made(schema: Value, components: Value) -> Value {
        let document = json!({"openapi": "3.0.3", "components": {"schemas": components}, "paths": {
            "/x": {"get": {"responses": {"200": {"content": {"application/json": {"schema": schema}}}}}}}});
        routes(&document, 1).unwrap().remove(0).body
    }

    /// An answer's size stays within the budget, whatever the schema asks.
    fn bounded(body: &Value) -> usize {
        let size = body.to_string().len();
        assert!(size <= MAX_TEXT_BYTES + MAX_VALUES * 64, "{size} bytes");
        size
    }

    #[test]
    fn hostile_schemas_make_bounded_answers() {
        let node = json!({"$ref": "#/components/schemas/Node"});
        // A recursive array that requires an item at every level: stops, no stack overflow.
        bounded(&made(node.clone(), json!({"Node": {"type": "array", "minItems": 1, "items": node}})));
        // Six self-referencing properties: 6^8 values before; the budget now.
        let six: Map<String, Value> = (0..6).map(|i| (format!("p{i}"), node.clone())).collect();
        bounded(&made(node.clone(), json!({"Node": {"type": "object", "properties": six}})));
        // Two required ones, which the depth alone did not stop.
        let two = json!({"Node": {"type": "object", "required": ["a", "b"], "properties": {"a": node, "b": node}}});
        bounded(&made(node.clone(), two));
        // Long names of required properties (found by the `mock_answers` fuzz target): the keys
        // are spent from the text budget too.
        let long = "a".repeat(100);
        let named = json!({"Node": {"type": "object", "required": [long, "b"], "properties": {"b": node, "c": node}}});
        bounded(&made(node.clone(), named));
        // A huge minLength: cut to the text budget, made in linear time.
        let long = made(json!({"type": "string", "minLength": 3_000_000}), json!({}));
        assert_eq!(long.as_str().unwrap().len(), MAX_TEXT_BYTES);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Any graph of schemas referring to each other, arrays with required items and objects
        /// with required properties among them, makes an answer within the budget.
        #[test]
        fn any_schema_graph_makes_a_bounded_answer(
            shapes in proptest::collection::vec(
                (0u8..3, proptest::collection::vec((0usize..5, proptest::bool::ANY), 0..6), 0u64..4),
                1..5,
            )
        ) {
            let reference = |index: usize| json!({"$ref": format!("#/components/schemas/S{}", index % shapes.len())});
            let mut components = Map::new();
            for (index, (kind, links, min)) in shapes.iter().enumerate() {
                let schema = match kind {
                    0 => json!({"type": "array", "minItems": min, "items": reference(links.first().map_or(index, |l| l.0))}),
                    1 => {
                        let properties: Map<String, Value> =
                            links.iter().enumerate().map(|(i, (to, _))| (format!("p{i}"), reference(*to))).collect();
                        let required: Vec<String> =
                            links.iter().enumerate().filter(|(_, (_, r))| *r).map(|(i, _)| format!("p{i}")).collect();
                        json!({"type": "object", "properties": properties, "required": required})
                    }
                    _ => json!({"allOf": links.iter().map(|(to, _)| reference(*to)).collect::<Vec<_>>()}),
                };
                components.insert(format!("S{index}"), schema);
            }
            bounded(&made(reference(0), Value::Object(components)));
        }
    }
}
