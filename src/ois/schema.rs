//! A JSON Schema (draft 2020-12) of an OIS object, and of a node config that holds OIS objects,
//! for editors: completion, hover text and checking while people type.
//!
//! It is built from the tables the checker reads (`ois/rules/tables.rs`) and the
//! patterns beside its string rules, so the two agree on every field. What JSON Schema cannot say
//! (one part of the document naming another, uniqueness by a key, URL parsing, JavaScript) is left
//! to `ois validate`: [`LEFT_TO_VALIDATE`] lists those rules. The schema never refuses an OIS the
//! checker accepts.

use serde_json::{Map, Value, json};

use crate::diagnostic::Code;
use crate::ois::model::FormatFamily;
use crate::ois::rules::tables::{self, Fields};
use crate::ois::rules::text;

const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The error rules of an OIS object that the schema does not check (or checks only in part), each
/// with why: `ois validate` checks them.
pub const LEFT_TO_VALIDATE: &[(Code, &str)] = &[
    (Code::InvalidServerUrl, "parsing a URL as WHATWG does is not a pattern"),
    (Code::ServerNotAbsoluteHttp, "in part: the schema refuses `{`, not every URL of another scheme"),
    (Code::PathTemplateMismatch, "a path's `{placeholders}` against its parameters"),
    (Code::DuplicateOperationParameter, "uniqueness of (in, name) within an operation"),
    (Code::UnmappedParameter, "an endpoint against the operation it names"),
    (Code::UnknownOperationParameter, "an endpoint against the operation it names"),
    (Code::ParameterMappedTwice, "uniqueness of (in, name) within an endpoint"),
    (Code::UnknownOperation, "an endpoint's operation against `apiSpecifications.paths`"),
    (Code::UndefinedSecurity, "`security` against `components.securitySchemes`"),
    (Code::DuplicateParameterName, "uniqueness of names within an endpoint"),
    (Code::BadReservedNumber, "JavaScript's parseInt"),
    (Code::DuplicateEndpointName, "uniqueness of names within `endpoints`"),
];

/// The JSON Schema of an OIS object of `family`.
pub fn ois_schema(family: FormatFamily) -> Value {
    let mut schema = Definitions::new(family).ois();
    let header = json!({
        "$schema": DIALECT,
        "title": format!("OIS {} (Oracle Integration Specifications)", family.name()),
    });
    prepend(&mut schema, header);
    schema
}

/// The JSON Schema of a node config (Airnode `config.json` or an Airnode Feed config): its `ois`
/// objects of `family` and their `apiCredentials` in full, the node's own sections by name only.
pub fn config_schema(family: FormatFamily) -> Value {
    let definitions = Definitions::new(family);
    let credential =
        object(&tables::CREDENTIAL, "A credential for one security scheme of one OIS object.", |key| match key {
            "oisTitle" => string("The `title` of the OIS object whose scheme this is."),
            "securitySchemeName" => string("The name of a scheme in that OIS's `components.securitySchemes`."),
            _ => string("The credential: a `${VARIABLE}` reference to the secrets file, never the value itself."),
        });
    let section = |description: &str| json!({ "description": description });
    let mut defs = definitions.defs();
    defs.insert("ois".to_owned(), definitions.ois());
    defs.insert("credential".to_owned(), credential);
    json!({
        "$schema": DIALECT,
        "title": format!("Airnode or Airnode Feed config with OIS {}", family.name()),
        "type": "object",
        "required": ["ois", "apiCredentials"],
        "properties": {
            "ois": {
                "description": "The OIS objects: one per API, each with its own title.",
                "type": "array",
                "items": {"$ref": "#/$defs/ois"},
            },
            "apiCredentials": {
                "description": "One credential per enabled apiKey/http security scheme.",
                "type": "array",
                "items": {"$ref": "#/$defs/credential"},
            },
            "chains": section("Airnode: the chains the node serves."),
            "nodeSettings": section("The node's settings."),
            "triggers": section("What the node answers (Airnode) or signs (Airnode Feed)."),
            "templates": section("Airnode Feed: endpoint and encoded parameters by template ID."),
            "endpoints": section("Airnode Feed: OIS title and endpoint name by endpoint ID."),
            "beaconSets": section("Airnode Feed: the beacon sets it signs for."),
            "signedApis": section("Airnode Feed: where it pushes signed data."),
        },
        "$defs": defs,
    })
}

/// Puts `head`'s members before `schema`'s, so the file reads `$schema` first.
fn prepend(schema: &mut Value, head: Value) {
    if let (Value::Object(head), Value::Object(body)) = (head, std::mem::take(schema)) {
        let mut merged = head;
        merged.extend(body);
        *schema = Value::Object(merged);
    }
}

/// A strict object of `fields`, each property from `property(key)`.
fn object(fields: &Fields, description: &str, property: impl Fn(&str) -> Value) -> Value {
    let properties: Map<String, Value> = fields.allowed.iter().map(|key| ((*key).to_owned(), property(key))).collect();
    json!({
        "description": description,
        "type": "object",
        "properties": properties,
        "required": fields.required,
        "additionalProperties": false,
    })
}

fn string(description: &str) -> Value {
    json!({"description": description, "type": "string"})
}

fn one_of(description: &str, values: &[&str]) -> Value {
    json!({"description": description, "type": "string", "enum": values})
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/$defs/{name}")})
}

/// `{"properties": {key: {"const": value}}, "required": [key]}`: "`key` is `value`".
fn has(key: &str, value: &str) -> Value {
    json!({"properties": {key: {"const": value}}, "required": [key]})
}

/// The `$defs` every schema shares; `family` decides where the formats differ.
struct Definitions {
    family: FormatFamily,
}

impl Definitions {
    fn new(family: FormatFamily) -> Definitions {
        Definitions { family }
    }

    /// The OIS object, its sub-objects in `$defs`.
    fn ois(&self) -> Value {
        let family = self.family;
        let mut ois = object(
            &tables::ROOT,
            "An OIS object: one API's operations (`apiSpecifications`) and the node endpoints mapped to them (`endpoints`).",
            |key| match key {
                "oisFormat" => json!({
                    "description": format!("The OIS format version this object follows ({}).", family.name()),
                    "type": "string",
                    "pattern": text::ois_format_pattern(family),
                }),
                "title" => json!({
                    "description": "The API's name: 1-64 ASCII letters, digits, `_`, `-` and spaces. With an endpoint's name it makes the endpoint ID; credentials name it.",
                    "type": "string",
                    "pattern": text::TITLE_PATTERN,
                }),
                "version" => json!({
                    "description": "Your own version of this OIS object (x.y.z), unrelated to `oisFormat`.",
                    "type": "string",
                    "pattern": text::semver_pattern(family),
                }),
                "apiSpecifications" => with_description(
                    reference("apiSpecifications"),
                    "The API: its server, operations and security schemes.",
                ),
                _ => json!({
                    "description": "The node endpoints, each mapped to an API operation (or to processing alone).",
                    "type": "array",
                    "items": reference("endpoint"),
                }),
            },
        );
        if let Value::Object(map) = &mut ois {
            map.insert("$defs".to_owned(), Value::Object(self.defs()));
        }
        ois
    }

    fn defs(&self) -> Map<String, Value> {
        let mut defs = Map::new();
        defs.insert("apiSpecifications".to_owned(), self.api_specifications());
        defs.insert("apiParameter".to_owned(), self.api_parameter());
        defs.insert("securityScheme".to_owned(), self.security_scheme());
        defs.insert("endpoint".to_owned(), self.endpoint());
        defs.insert("operationParameter".to_owned(), self.operation_parameter());
        defs.insert("fixedOperationParameter".to_owned(), self.fixed());
        defs.insert("parameter".to_owned(), self.parameter());
        defs.insert("reservedParameter".to_owned(), self.reserved());
        defs.insert("processingV1".to_owned(), processing(tables::V1_ENVIRONMENTS));
        defs.insert("processingV2".to_owned(), processing(tables::V2_ENVIRONMENTS));
        defs
    }

    fn api_specifications(&self) -> Value {
        object(&tables::API, "The API's operations, where it is and how the node authenticates.", |key| match key {
            "servers" => json!({
                "description": "Exactly one server: the API's absolute http(s) base URL, without `{variables}`.",
                "type": "array",
                "minItems": 1,
                "maxItems": 1,
                "items": object(&tables::SERVER, "The API's server.", |_| json!({
                    "description": "The absolute base URL the node prefixes to every path, e.g. https://api.example.com/v1.",
                    "type": "string",
                    "format": "uri",
                    "pattern": "^[^{]*$",
                })),
            }),
            "paths" => json!({
                "description": "API paths (each starting with `/`), then methods (`get`, `post`), then the operation's parameters.",
                "type": "object",
                "propertyNames": {"pattern": text::PATH_KEY_PATTERN},
                "additionalProperties": {
                    "description": "The operations of this path, by method.",
                    "type": "object",
                    "propertyNames": {"enum": tables::METHODS},
                    "additionalProperties": object(&tables::OPERATION, "An API operation.", |_| json!({
                        "description": "The operation's parameters. A post operation's body fields are declared `in: query`.",
                        "type": "array",
                        "items": reference("apiParameter"),
                    })),
                },
            }),
            "components" => object(&tables::COMPONENTS, "Reusable parts: the security schemes.", |_| {
                json!({
                    "description": "The API's security schemes, by name; `apiCredentials` gives their values.",
                    "type": "object",
                    "additionalProperties": reference("securityScheme"),
                })
            }),
            _ => json!({
                "description": "The names of the schemes in use, each mapped to an empty list.",
                "type": "object",
                "additionalProperties": {"type": "array", "maxItems": 0},
            }),
        })
    }

    fn api_parameter(&self) -> Value {
        let mut parameter = object(&tables::API_PARAMETER, "A parameter of an API operation.", |key| match key {
            "in" => one_of("Where the parameter goes in the request.", tables::OPERATION_LOCATIONS),
            _ => json!({
                "description": "The parameter's name in the API (a reserved name like `_type` is refused).",
                "type": "string",
                "not": {"enum": tables::RESERVED_PARAMETER_NAMES},
            }),
        });
        insert(&mut parameter, "allOf", json!([header_name_rule()]));
        parameter
    }

    fn security_scheme(&self) -> Value {
        let mut types = vec![tables::API_KEY_TYPE, tables::HTTP_TYPE];
        types.extend(tables::RELAYS);
        let api_key = object(&tables::API_KEY_SCHEME, "An API key sent as `name` in `in`.", |key| match key {
            "type" => json!({"description": "An API key.", "const": tables::API_KEY_TYPE}),
            "in" => one_of("Where the key goes.", tables::SCHEME_LOCATIONS),
            _ => string("The query parameter, header or cookie name that carries the key."),
        });
        let http = object(&tables::HTTP_SCHEME, "An `Authorization` header.", |key| match key {
            "type" => json!({"description": "HTTP authentication.", "const": tables::HTTP_TYPE}),
            _ => one_of("The Authorization scheme.", tables::HTTP_SCHEMES),
        });
        let relay = object(&tables::RELAY_SCHEME, "A value the node relays from the request.", |key| match key {
            "type" => json!({"description": "What the node relays.", "enum": tables::RELAYS}),
            "in" => one_of("Where the value goes.", tables::SCHEME_LOCATIONS),
            _ => string("The query parameter, header or cookie name that carries it."),
        });
        let mut api_key = api_key;
        insert(&mut api_key, "allOf", json!([header_name_rule()]));
        json!({
            "description": "A security scheme: apiKey, http (basic or bearer), or a relayed value.",
            "type": "object",
            "required": ["type"],
            "properties": {"type": one_of("The kind of scheme.", &types)},
            "allOf": [
                {"if": has("type", tables::API_KEY_TYPE), "then": api_key},
                {"if": has("type", tables::HTTP_TYPE), "then": http},
                {"if": {"properties": {"type": {"enum": tables::RELAYS}}, "required": ["type"]}, "then": relay},
            ],
        })
    }

    fn endpoint(&self) -> Value {
        let mut endpoint = object(&tables::ENDPOINT, "A node endpoint: what a requester calls.", |key| match key {
            "name" => string(
                "The endpoint's name, unique in the OIS. With the title it makes the endpoint ID: renaming it changes the ID.",
            ),
            "operation" => object(
                &tables::ENDPOINT_OPERATION,
                "The API operation the endpoint calls; omit it for an endpoint that only processes.",
                |key| match key {
                    "method" => one_of("The operation's method.", tables::METHODS),
                    _ => json!({
                        "description": "The operation's path, as in `apiSpecifications.paths`.",
                        "type": "string",
                        "pattern": text::PATH_KEY_PATTERN,
                    }),
                },
            ),
            "fixedOperationParameters" => json!({
                "description": "API parameters the node always sends with a fixed value; requesters cannot change them.",
                "type": "array",
                "items": reference("fixedOperationParameter"),
            }),
            "reservedParameters" => json!({
                "description": "How the node encodes the answer: `_type` (required), `_path`, `_times`, `_gasPrice`, `_minConfirmations`.",
                "type": "array",
                "items": reference("reservedParameter"),
                "contains": has("name", tables::TYPE_PARAMETER),
            }),
            "parameters" => json!({
                "description": "The parameters a requester passes, each mapped to an API parameter (or to none).",
                "type": "array",
                "items": reference("parameter"),
            }),
            "summary" => string("One sentence about the endpoint (documentation only)."),
            "description" => string("What the endpoint returns (documentation only)."),
            "externalDocs" => string("A URL of the endpoint's documentation (documentation only)."),
            "preProcessingSpecifications" | "postProcessingSpecifications" => json!({
                "description": "Deprecated (V1): snippets run in order, each reading `input` and assigning `output`.",
                "type": "array",
                "items": reference("processingV1"),
            }),
            "preProcessingSpecificationV2" => with_description(
                reference("processingV2"),
                "A function of `{endpointParameters}` that returns `{endpointParameters}`, run before the API call.",
            ),
            _ => with_description(
                reference("processingV2"),
                "A function of `{response, endpointParameters}` that returns `{response}` (and, optionally, `timestamp`).",
            ),
        });
        let mut rules: Vec<Value> =
            tables::PHASES.iter().map(|(v1, v2, _)| json!({"not": {"required": [v1, v2]}})).collect();
        let phases: Vec<Value> = tables::PHASES
            .iter()
            .flat_map(|(v1, v2, _)| {
                [json!({"required": [v1], "properties": {*v1: {"minItems": 1}}}), json!({"required": [v2]})]
            })
            .collect();
        rules.push(json!({
            "if": {"not": {"required": ["operation"]}},
            "then": {
                "properties": {"fixedOperationParameters": {"maxItems": 0}},
                "anyOf": phases,
            },
        }));
        insert(&mut endpoint, "allOf", Value::Array(rules));
        endpoint
    }

    fn operation_parameter(&self) -> Value {
        object(&tables::OPERATION_PARAMETER, "The API parameter this maps to.", |key| match key {
            "in" => one_of("Where the API parameter goes.", tables::OPERATION_LOCATIONS),
            _ => string("The API parameter's name."),
        })
    }

    fn fixed(&self) -> Value {
        let mut fixed =
            object(&tables::FIXED, "An API parameter with a value the node always sends.", |key| match key {
                "operationParameter" => {
                    with_description(reference("operationParameter"), "The API parameter that gets the value.")
                }
                _ => json!({"description": "The value the node always sends (any JSON value)."}),
            });
        if self.family == FormatFamily::V3_0 {
            insert(&mut fixed, "required", json!(["operationParameter", tables::FIXED_VALUE_SINCE_3_0]));
        }
        fixed
    }

    fn parameter(&self) -> Value {
        object(&tables::PARAMETER, "A parameter requesters pass.", |key| match key {
            "name" => json!({
                "description": "The name requesters use: no whitespace, not starting with `_`.",
                "type": "string",
                "pattern": text::PARAMETER_NAME_PATTERN,
                "not": {"pattern": "^_"},
            }),
            "operationParameter" => with_description(
                reference("operationParameter"),
                "The API parameter that gets the requester's value; without it the value is not sent.",
            ),
            "description" => string("What the parameter means (documentation only)."),
            "example" => string("A value for test calls (`ois call --all` uses it)."),
            "default" => string("The value the node sends when a requester gives none."),
            _ => json!({"description": "Whether a requester must give it.", "type": "boolean"}),
        })
    }

    fn reserved(&self) -> Value {
        let mut reserved =
            object(&tables::RESERVED, "A reserved parameter: how the node encodes the answer.", |key| match key {
                "name" => one_of("Which reserved parameter.", tables::RESERVED_PARAMETER_NAMES),
                "default" => string("Used when a requester gives none; cannot be combined with `fixed`."),
                _ => string("A value requesters cannot change; cannot be combined with `default`."),
            });
        insert(&mut reserved, "not", json!({"required": ["default", "fixed"]}));
        reserved
    }
}

fn processing(environments: &[&str]) -> Value {
    object(&tables::PROCESSING, "JavaScript the node runs.", |key| match key {
        "environment" => one_of("How the code is run.", environments),
        "value" => string("The code (a `${` must be written `\\${`: the node's secret interpolation reads it)."),
        _ => json!({"description": "The longest the code may run, in milliseconds.", "type": "integer", "minimum": 0}),
    })
}

/// An object `{in, name}` whose `in` is `header` has a `name` that is an HTTP token.
fn header_name_rule() -> Value {
    json!({
        "if": has("in", "header"),
        "then": {"properties": {"name": {"pattern": text::HTTP_TOKEN_PATTERN}}},
    })
}

fn insert(schema: &mut Value, key: &str, value: Value) {
    if let Value::Object(map) = schema {
        map.insert(key.to_owned(), value);
    }
}

/// A `$ref` with its own description (2020-12 allows siblings of `$ref`).
fn with_description(mut schema: Value, description: &str) -> Value {
    insert(&mut schema, "description", Value::String(description.to_owned()));
    schema
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every property the schema names, with its path, for checks over all of them.
    fn properties<'v>(schema: &'v Value, path: String, found: &mut Vec<(String, &'v Value)>) {
        match schema {
            Value::Object(map) => {
                for (key, value) in map {
                    if key == "properties"
                        && let Some(properties) = value.as_object()
                    {
                        for (name, property) in properties {
                            found.push((format!("{path}/{name}"), property));
                        }
                    }
                    properties(value, format!("{path}/{key}"), found);
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    properties(item, format!("{path}/{index}"), found);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn every_field_of_every_table_is_described() {
        for schema in [ois_schema(FormatFamily::V3_0), config_schema(FormatFamily::V2_3)] {
            let mut found = Vec::new();
            properties(&schema, String::new(), &mut found);
            // Constraints inside `if`/`then`/`not`/`anyOf`/`contains` refine a field described elsewhere.
            let described = |(path, property): &(String, &Value)| {
                ["/if/", "/then/", "/not/", "/anyOf/", "/contains/"].iter().any(|part| path.contains(part))
                    || property.get("description").is_some()
            };
            let bare: Vec<&String> = found.iter().filter(|p| !described(p)).map(|(path, _)| path).collect();
            assert!(bare.is_empty(), "properties without a description: {bare:?}");
            assert!(found.len() > 40, "{} properties", found.len());
        }
    }

    #[test]
    fn the_formats_differ_where_the_checker_does() {
        let v2 = ois_schema(FormatFamily::V2_3);
        let v3 = ois_schema(FormatFamily::V3_0);
        let required = |schema: &Value| schema.pointer("/$defs/fixedOperationParameter/required").cloned();
        assert_eq!(required(&v2), Some(json!(["operationParameter"])));
        assert_eq!(required(&v3), Some(json!(["operationParameter", "value"])));
        assert_eq!(v2.pointer("/properties/oisFormat/pattern"), Some(&json!(r"^2\.3\.[0-9]*$")));
        assert_eq!(v3["$schema"], DIALECT);
    }

    #[test]
    fn every_rule_left_to_validate_is_an_error_of_an_ois_object() {
        for (code, why) in LEFT_TO_VALIDATE {
            assert!(code.as_str().starts_with("OIS0"), "{code}");
            assert_eq!(code.severity(), crate::diagnostic::Severity::Error, "{code}");
            assert!(!why.is_empty());
        }
    }
}
