//! Structured OpenAPI-shaped documents (built from `arbitrary` input) → convert. Reaches the deep
//! paths raw bytes rarely do: `$ref`s (good, missing, cyclic, external), allOf/oneOf bodies,
//! security requirements, server variables, path templates. Converting twice must give the same.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use ois::{Code, ConvertOptions, convert_value};
use serde_json::{Map, Value, json};

#[derive(Arbitrary, Debug)]
enum Name {
    A,
    B,
    Id,
    Type,
    Path,
    Spaced,
    /// `{id}`: as a placeholder it makes `{{id}}`, as a server variable value a leftover template.
    Braced,
    Raw(String),
}

impl Name {
    fn text(&self) -> String {
        match self {
            Name::A => "a".into(),
            Name::B => "b".into(),
            Name::Id => "id".into(),
            Name::Type => "_type".into(),
            Name::Path => "_path".into(),
            Name::Spaced => "page size".into(),
            Name::Braced => "{id}".into(),
            Name::Raw(s) => s.clone(),
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Reference {
    Parameter(Name),
    Schema(Name),
    Body(Name),
    Path(Vec<Name>),
    Raw(String),
}

impl Reference {
    fn value(&self) -> Value {
        let target = match self {
            Reference::Parameter(n) => format!("#/components/parameters/{}", n.text()),
            Reference::Schema(n) => format!("#/components/schemas/{}", n.text()),
            Reference::Body(n) => format!("#/components/requestBodies/{}", n.text()),
            Reference::Path(segments) => format!("#/paths/{}", path(segments).replace('~', "~0").replace('/', "~1")),
            Reference::Raw(s) => s.clone(),
        };
        json!({"$ref": target})
    }
}

fn path(segments: &[Name]) -> String {
    segments
        .iter()
        .enumerate()
        .map(|(i, s)| if i % 2 == 1 { format!("/{{{}}}", s.text()) } else { format!("/{}", s.text()) })
        .collect()
}

#[derive(Arbitrary, Debug)]
enum Scalar {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
    List(Vec<i8>),
}

impl Scalar {
    fn value(&self) -> Value {
        match self {
            Scalar::Null => Value::Null,
            Scalar::Bool(b) => json!(b),
            Scalar::Int(i) => json!(i),
            Scalar::Float(f) => json!(f),
            Scalar::Text(s) => json!(s),
            Scalar::List(l) => json!(l),
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Schema {
    Ref(Reference),
    Object { properties: Vec<(Name, Schema)>, required: Vec<Name>, read_only: bool },
    AllOf(Vec<Schema>),
    OneOf(Vec<Schema>),
    Typed { kind: u8, default: Option<Scalar>, example: Option<Scalar> },
    Array(Box<Schema>),
}

impl Schema {
    fn value(&self) -> Value {
        match self {
            Schema::Ref(r) => r.value(),
            Schema::Object { properties, required, read_only } => {
                let properties: Map<String, Value> = properties.iter().map(|(n, s)| (n.text(), s.value())).collect();
                let required: Vec<String> = required.iter().map(Name::text).collect();
                json!({"type": "object", "properties": properties, "required": required, "readOnly": read_only})
            }
            Schema::AllOf(parts) => json!({"allOf": parts.iter().map(Schema::value).collect::<Vec<_>>()}),
            Schema::OneOf(parts) => json!({"oneOf": parts.iter().map(Schema::value).collect::<Vec<_>>()}),
            Schema::Typed { kind, default, example } => {
                let kinds = ["string", "integer", "number", "boolean", "object", "array"];
                let mut schema = json!({"type": kinds[usize::from(*kind) % kinds.len()]});
                if let Some(d) = default {
                    schema["default"] = d.value();
                }
                if let Some(e) = example {
                    schema["example"] = e.value();
                }
                schema
            }
            Schema::Array(items) => json!({"type": "array", "items": items.value()}),
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Parameter {
    name: Name,
    location: u8,
    required: Option<bool>,
    schema: Option<Schema>,
    example: Option<Scalar>,
}

impl Parameter {
    fn value(&self) -> Value {
        let locations = ["query", "header", "path", "cookie", "body", "querystring"];
        let mut parameter =
            json!({"name": self.name.text(), "in": locations[usize::from(self.location) % locations.len()]});
        if let Some(r) = self.required {
            parameter["required"] = json!(r);
        }
        if let Some(s) = &self.schema {
            parameter["schema"] = s.value();
        }
        if let Some(e) = &self.example {
            parameter["example"] = e.value();
        }
        parameter
    }
}

#[derive(Arbitrary, Debug)]
enum ParameterOrRef {
    Parameter(Parameter),
    Ref(Reference),
}

impl ParameterOrRef {
    fn value(&self) -> Value {
        match self {
            ParameterOrRef::Parameter(p) => p.value(),
            ParameterOrRef::Ref(r) => r.value(),
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Operation {
    id: Option<Name>,
    parameters: Vec<ParameterOrRef>,
    body: Option<(u8, Schema)>,
    body_ref: Option<Reference>,
    security: Option<Vec<Vec<Name>>>,
    servers: Option<Vec<String>>,
}

fn requirements(alternatives: &[Vec<Name>]) -> Value {
    alternatives.iter().map(|names| names.iter().map(|n| (n.text(), json!([]))).collect::<Map<_, _>>()).collect()
}

impl Operation {
    fn value(&self) -> Value {
        let mut operation =
            json!({"parameters": self.parameters.iter().map(ParameterOrRef::value).collect::<Vec<_>>()});
        if let Some(id) = &self.id {
            operation["operationId"] = json!(id.text());
        }
        if let Some((media, schema)) = &self.body {
            let medias = [
                "application/json",
                "application/x-www-form-urlencoded",
                "multipart/form-data",
                "text/plain",
                "application/vnd.x+json",
            ];
            operation["requestBody"] =
                json!({"content": {medias[usize::from(*media) % medias.len()]: {"schema": schema.value()}}});
        } else if let Some(r) = &self.body_ref {
            operation["requestBody"] = r.value();
        }
        if let Some(security) = &self.security {
            operation["security"] = requirements(security);
        }
        if let Some(servers) = &self.servers {
            operation["servers"] = servers.iter().map(|url| json!({"url": url})).collect();
        }
        operation
    }
}

#[derive(Arbitrary, Debug)]
struct PathItem {
    segments: Vec<Name>,
    reference: Option<Reference>,
    parameters: Vec<ParameterOrRef>,
    operations: Vec<(u8, Operation)>,
}

#[derive(Arbitrary, Debug)]
struct Document {
    version: u8,
    title: Option<String>,
    info_version: Option<String>,
    servers: Vec<(String, Vec<(Name, String, Vec<String>)>)>,
    paths: Vec<PathItem>,
    schemes: Vec<(Name, u8, Name)>,
    security: Option<Vec<Vec<Name>>>,
    schemas: Vec<(Name, Schema)>,
    parameters: Vec<(Name, ParameterOrRef)>,
    bodies: Vec<(Name, Schema)>,
}

impl Document {
    fn value(&self) -> Value {
        let versions = ["3.0.3", "3.1.0", "3.0", "2.0", "3.2.0", "banana"];
        let mut document = json!({"openapi": versions[usize::from(self.version) % versions.len()], "info": {}});
        if let Some(t) = &self.title {
            document["info"]["title"] = json!(t);
        }
        if let Some(v) = &self.info_version {
            document["info"]["version"] = json!(v);
        }
        document["servers"] = self
            .servers
            .iter()
            .map(|(url, variables)| {
                let variables: Map<String, Value> =
                    variables.iter().map(|(n, d, e)| (n.text(), json!({"default": d, "enum": e}))).collect();
                json!({"url": url, "variables": variables})
            })
            .collect();
        let methods = ["get", "post", "put", "delete", "parameters", "x-ext"];
        let mut paths = Map::new();
        for item in &self.paths {
            let value = match &item.reference {
                Some(r) => r.value(),
                None => {
                    let mut object = Map::new();
                    object.insert("parameters".into(), item.parameters.iter().map(ParameterOrRef::value).collect());
                    for (method, operation) in &item.operations {
                        object.insert(methods[usize::from(*method) % methods.len()].into(), operation.value());
                    }
                    Value::Object(object)
                }
            };
            paths.insert(path(&item.segments), value);
        }
        document["paths"] = Value::Object(paths);
        let kinds = [
            json!({"type": "apiKey", "in": "query", "name": "k"}),
            json!({"type": "apiKey", "in": "path", "name": "k"}),
            json!({"type": "http", "scheme": "basic"}),
            json!({"type": "http", "scheme": "Bearer"}),
            json!({"type": "http", "scheme": "digest"}),
            json!({"type": "oauth2", "flows": {}}),
            json!({"type": "openIdConnect", "openIdConnectUrl": "https://x"}),
            json!({"type": "mutualTLS"}),
        ];
        let schemes: Map<String, Value> = self
            .schemes
            .iter()
            .map(|(n, k, r)| {
                let kind = usize::from(*k);
                let scheme = if kind >= kinds.len() * 2 {
                    json!({"$ref": format!("#/components/securitySchemes/{}", r.text())})
                } else {
                    kinds[kind % kinds.len()].clone()
                };
                (n.text(), scheme)
            })
            .collect();
        document["components"] = json!({
            "securitySchemes": schemes,
            "schemas": self.schemas.iter().map(|(n, s)| (n.text(), s.value())).collect::<Map<_, _>>(),
            "parameters": self.parameters.iter().map(|(n, p)| (n.text(), p.value())).collect::<Map<_, _>>(),
            "requestBodies": self.bodies.iter().map(|(n, s)| (n.text(), json!({"content": {"application/json": {"schema": s.value()}}}))).collect::<Map<_, _>>(),
        });
        if let Some(security) = &self.security {
            document["security"] = requirements(security);
        }
        document
    }
}

fuzz_target!(|document: Document| {
    let value = document.value();
    let options = ConvertOptions::default().with_base_url("https://api.example.com");
    let first = convert_value(&value, &options);
    let second = convert_value(&value, &options);
    // The self-check is never where an input problem is found first: each has its own code.
    let diagnostics = match &first {
        Ok(conversion) => &conversion.diagnostics,
        Err(failure) => &failure.diagnostics,
    };
    if let Some(bug) = diagnostics.iter().find(|d| d.code == Code::SelfCheckFailed) {
        panic!("the self-check found what the conversion missed: {diagnostics:#?}\n{bug}");
    }
    match (first, second) {
        (Ok(a), Ok(b)) => assert_eq!(a.ois, b.ois, "conversion is not deterministic"),
        (Err(_), Err(_)) => {}
        _ => panic!("one run converted and the other did not"),
    }
});
