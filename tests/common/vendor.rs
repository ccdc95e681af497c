//! The vendor the loop tests integrate: a loopback API, its OpenAPI document, the OIS `ois convert`
//! makes of it (refined by one hand edit), and the config `ois scaffold feed` makes of that with its
//! secrets filled, as a user would.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::server::{Server, answer};

pub const KEY: &str = "k-secret-9183";
/// The Hardhat test mnemonic: a known Airnode for the expected IDs.
pub const MNEMONIC: &str = "test test test test test test test test test test test junk";

/// The vendor: `/rates` (all rates at once, for the batched `feed` endpoint) and `/price?symbol=`
/// (one at a time); 401 without the key; `symbol=NOPE` is a 404.
pub fn vendor() -> Server {
    Server::start(|request, stream| {
        if request.header("x-api-key") != Some(KEY) {
            return answer(stream, "401 Unauthorized", "application/json", "", br#"{"error": "no key"}"#);
        }
        let body = match (request.path(), request.target.split_once("symbol=").map(|(_, s)| s)) {
            ("/rates", _) => json!({"rates": {"EUR": 0.92, "GBP": 0.79, "JPY": 151.2}}),
            ("/price", Some("NOPE")) => {
                return answer(stream, "404 Not Found", "application/json", "", br#"{"error": "unknown"}"#);
            }
            ("/price", Some(symbol)) => json!({"symbol": symbol, "price": 100 + symbol.len()}),
            _ => return answer(stream, "404 Not Found", "text/plain", "", b"no such path"),
        };
        answer(stream, "200 OK", "application/json", "", body.to_string().as_bytes());
    })
}

/// The vendor's OpenAPI document: `/rates` (every rate against USD) and `/price?symbol=`, an API
/// key in a header.
fn openapi(base: &str) -> String {
    format!(
        r#"openapi: 3.0.3
info: {{title: Rates, version: 1.0.0}}
servers: [{{url: "{base}"}}]
security: [{{key: []}}]
components:
  securitySchemes:
    key: {{type: apiKey, in: header, name: x-api-key}}
paths:
  /rates:
    get:
      operationId: getRates
      summary: Every exchange rate against USD
      responses: {{"200": {{description: ok}}}}
  /price:
    get:
      operationId: getPrice
      summary: One asset's price
      parameters:
        - {{in: query, name: symbol, required: true, schema: {{type: string}}, example: BTC}}
      responses: {{"200": {{description: ok}}}}
"#
    )
}

/// The one hand edit of the converted OIS (what `ois endpoint set` is to do): `getRates` becomes
/// `feed`, whose pre-processing drops `name` (so its templates batch into one call) and whose
/// post-processing picks the rate; `getPrice` becomes `price`; both get `_type` and `_times`,
/// `price` its `_path`.
fn refine(ois: &mut Value) {
    let reserved = |path: Option<&str>| {
        let mut list = vec![json!({"name": "_type", "fixed": "int256"}), json!({"name": "_times", "fixed": "1000000"})];
        if let Some(path) = path {
            list.push(json!({"name": "_path", "fixed": path}));
        }
        Value::Array(list)
    };
    for endpoint in ois["endpoints"].as_array_mut().expect("endpoints") {
        match endpoint["name"].as_str() {
            Some("getRates") => {
                endpoint["name"] = json!("feed");
                endpoint["parameters"] = json!([{"name": "name", "required": true}]);
                endpoint["reservedParameters"] = reserved(None);
                endpoint["preProcessingSpecificationV2"] = json!({"environment": "Node", "timeoutMs": 5000,
                    "value": "async ({ endpointParameters }) => ({ endpointParameters: {} })"});
                endpoint["postProcessingSpecificationV2"] = json!({"environment": "Node", "timeoutMs": 5000,
                    "value": "async ({ response, endpointParameters }) => ({ response: response.rates[endpointParameters.name.split('/')[1]] })"});
            }
            Some("getPrice") => {
                endpoint["name"] = json!("price");
                endpoint["reservedParameters"] = reserved(Some("price"));
            }
            other => panic!("an endpoint the converter should not make: {other:?}"),
        }
    }
}

pub struct Deployment {
    pub dir: tempfile::TempDir,
    pub config: PathBuf,
    pub secrets: PathBuf,
    pub ois: PathBuf,
}

/// The config as the user makes it: `ois scaffold feed --batch` and the secrets template filled.
pub fn deploy(server: &Server, feeds: &[&str]) -> Deployment {
    deploy_with(server, feeds, &[])
}

/// [`deploy`], with more arguments for `ois scaffold feed`. As the README's recipe: convert with
/// a secrets template, fill the key, refine, scaffold onto the same secrets file (its values
/// kept), fill the mnemonic and the token.
pub fn deploy_with(server: &Server, feeds: &[&str], more: &[&str]) -> Deployment {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let at = |name: &str| dir.path().join(name);
    let (document, ois, config, secrets) =
        (at("rates.yaml"), at("rates.ois.json"), at("config.json"), at("secrets.env"));
    std::fs::write(&document, openapi(&server.base)).expect("write");
    run(&["convert", path(&document), "-o", path(&ois), "--secrets-out", path(&secrets)]);
    fill(&secrets, &[("KEY", KEY)]);
    let mut converted: Value = serde_json::from_str(&std::fs::read_to_string(&ois).expect("read")).expect("JSON");
    refine(&mut converted);
    std::fs::write(&ois, serde_json::to_string_pretty(&converted).expect("JSON")).expect("write");

    let mut args = vec!["scaffold", "feed", path(&ois), "--batch"];
    for feed in feeds {
        args.extend(["--feed", feed]);
    }
    args.extend(more);
    args.extend(["-o", path(&config), "--secrets-out", path(&secrets), "--force"]);
    run(&args);
    fill(&secrets, &[("MNEMONIC", MNEMONIC), ("AUTH_TOKEN", "t0ken-5150")]);
    Deployment { dir, config, secrets, ois }
}

fn path(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temporary path")
}

fn run(args: &[&str]) {
    let output = super::ois().args(args).output().expect("ois runs");
    assert!(output.status.success(), "ois {}: {}", args.join(" "), String::from_utf8_lossy(&output.stderr));
}

/// Fills each empty variable of the template whose name contains one of `values`' needles.
pub fn fill(secrets: &Path, values: &[(&str, &str)]) {
    let text = std::fs::read_to_string(secrets).unwrap();
    let filled: Vec<String> = text
        .lines()
        .map(|line| match line.split_once('=') {
            Some((name, "")) if !line.starts_with('#') => {
                let value = values.iter().find(|(needle, _)| name.contains(needle)).map_or("", |(_, v)| v);
                format!("{name}={value}")
            }
            _ => line.to_owned(),
        })
        .collect();
    std::fs::write(secrets, filled.join("\n") + "\n").unwrap();
}
