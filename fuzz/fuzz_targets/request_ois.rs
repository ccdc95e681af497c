//! OIS-shaped JSON (built from `arbitrary` input) → the node's request and the response preview,
//! whether or not the OIS is valid: building must never panic, only report.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use ois::request::{self as response, Credential, Metadata, Mode, RequestOptions, build};
use serde_json::{Map, Value, json};

#[derive(Arbitrary, Debug)]
enum Text {
    Id,
    Q,
    Key,
    Slashy,
    Dollar,
    Empty,
    Index(u8),
    Raw(String),
}

impl Text {
    fn text(&self) -> String {
        match self {
            Text::Id => "id".into(),
            Text::Q => "q".into(),
            Text::Key => "key".into(),
            Text::Slashy => "a/b?c#d".into(),
            Text::Dollar => "$&$'$`$$".into(),
            Text::Empty => String::new(),
            Text::Index(i) => i.to_string(),
            Text::Raw(s) => s.clone(),
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Big(u64),
    Float(f64),
    Text(Text),
    List(Vec<Json>),
    Object(Vec<(Text, Json)>),
}

impl Json {
    fn value(&self, depth: usize) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => json!(b),
            Json::Int(i) => json!(i),
            Json::Big(u) => json!(u),
            Json::Float(f) => json!(f),
            Json::Text(t) => json!(t.text()),
            Json::List(items) if depth < 6 => items.iter().map(|j| j.value(depth + 1)).collect(),
            Json::Object(pairs) if depth < 6 => {
                Value::Object(pairs.iter().map(|(k, v)| (k.text(), v.value(depth + 1))).collect())
            }
            _ => Value::Null,
        }
    }
}

const LOCATIONS: [&str; 6] = ["path", "query", "header", "cookie", "processing", "body"];
const TYPES: [&str; 14] = [
    "int256",
    "uint256",
    "bool",
    "bytes32",
    "address",
    "bytes",
    "string",
    "string32",
    "timestamp",
    "int256[]",
    "uint256[2][]",
    "bool[]",
    "int256,string",
    "int8",
];

#[derive(Arbitrary, Debug)]
struct Input {
    server: Text,
    path: Vec<(bool, Text)>,
    post: bool,
    api_parameters: Vec<(u8, Text)>,
    endpoint_parameters: Vec<(Text, Option<(u8, Text)>, Option<Json>)>,
    fixed: Vec<(u8, Text, Json)>,
    schemes: Vec<(Text, u8, u8, Text)>,
    requester: Vec<(Text, Json)>,
    credentials: Vec<(bool, Text, Text)>,
    metadata: Option<(Text, Text)>,
    feed: bool,
    reserved: (u8, Option<Text>, Option<Text>),
    response: Json,
}

fuzz_target!(|input: Input| {
    let path: String = input
        .path
        .iter()
        .map(|(p, t)| if *p { format!("/{{{}}}", t.text()) } else { format!("/{}", t.text()) })
        .collect();
    let method = if input.post { "post" } else { "get" };
    let api: Vec<Value> = input
        .api_parameters
        .iter()
        .map(|(l, n)| json!({"in": LOCATIONS[usize::from(*l) % LOCATIONS.len()], "name": n.text()}))
        .collect();
    let kinds = ["apiKey", "http", "relayChainId", "relayChainType", "relayRequestId", "other"];
    let schemes: Map<String, Value> = input
        .schemes
        .iter()
        .map(|(n, k, l, name)| {
            let kind = kinds[usize::from(*k) % kinds.len()];
            let scheme = if kind == "http" {
                json!({"type": "http", "scheme": if l % 2 == 0 { "basic" } else { "bearer" }})
            } else {
                json!({"type": kind, "in": LOCATIONS[usize::from(*l) % LOCATIONS.len()], "name": name.text()})
            };
            (n.text(), scheme)
        })
        .collect();
    let security: Map<String, Value> = schemes.keys().map(|k| (k.clone(), json!([]))).collect();
    let endpoint_parameters: Vec<Value> = input
        .endpoint_parameters
        .iter()
        .map(|(name, target, default)| {
            let mut parameter = json!({"name": name.text()});
            if let Some((l, n)) = target {
                parameter["operationParameter"] =
                    json!({"in": LOCATIONS[usize::from(*l) % LOCATIONS.len()], "name": n.text()});
            }
            if let Some(d) = default {
                parameter["default"] = d.value(0);
            }
            parameter
        })
        .collect();
    let fixed: Vec<Value> = input
        .fixed
        .iter()
        .map(|(l, n, v)| json!({"operationParameter": {"in": LOCATIONS[usize::from(*l) % LOCATIONS.len()], "name": n.text()}, "value": v.value(0)}))
        .collect();
    let (kind, reserved_path, times) = &input.reserved;
    let mut reserved = vec![json!({"name": "_type", "fixed": TYPES[usize::from(*kind) % TYPES.len()]})];
    if let Some(p) = reserved_path {
        reserved.push(json!({"name": "_path", "default": p.text()}));
    }
    if let Some(t) = times {
        reserved.push(json!({"name": "_times", "fixed": t.text()}));
    }
    let ois = json!({
        "oisFormat": "3.0.0", "title": "Fuzz", "version": "1.0.0",
        "apiSpecifications": {"servers": [{"url": format!("https://{}", input.server.text())}],
            "paths": {path.clone(): {method: {"parameters": api}}},
            "components": {"securitySchemes": schemes}, "security": security},
        "endpoints": [{"name": "e", "operation": {"method": method, "path": path}, "fixedOperationParameters": fixed,
            "reservedParameters": reserved, "parameters": endpoint_parameters}]
    });
    let mut options = RequestOptions::new("e");
    options.parameters = input.requester.iter().map(|(k, v)| (k.text(), v.value(0))).collect();
    options.credentials = input
        .credentials
        .iter()
        .map(|(own, scheme, value)| Credential {
            ois_title: if *own { "Fuzz".into() } else { "Other".into() },
            scheme: scheme.text(),
            value: value.text(),
        })
        .collect();
    options.metadata = input.metadata.as_ref().map(|(chain, id)| Metadata {
        chain_id: Some(chain.text()),
        request_id: Some(id.text()),
        ..Default::default()
    });
    options.mode = if input.feed { Mode::Feed } else { Mode::Node };
    if let Ok(request) = build(&ois, &options) {
        let _ = request.diagnostics();
        let _ = ois::request::render::curl(&request, false);
        let _ = response::extract_and_encode(&input.response.value(0), &request.reserved, 1_700_000_000);
    }
    // The whole call as `ois request --response` makes it (this OIS has no processing to run).
    let response = input.response.value(0);
    let engine = ois::processing::Engine::Embedded;
    if let Ok(exchange) = ois::request::exchange(&ois, &options, &engine, Some(&response), 1_700_000_000) {
        let _ = exchange.diagnostics();
        let _ = ois::request::render::text(&exchange, false);
        let _ = ois::request::render::json(&exchange, false);
    }
});
