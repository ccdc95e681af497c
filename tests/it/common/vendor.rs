//! The vendor the loop tests integrate: a loopback API, its OpenAPI document, the OIS `ois convert`
//! makes of it (refined with `ois endpoint set`), and the config `ois scaffold feed` makes of that
//! with its secrets filled, as a user would: `ois` commands only.

use std::path::{Path, PathBuf};

use serde_json::json;

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
pub fn openapi(base: &str) -> String {
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

/// Post-processing of the `feed` endpoint: the rate its `name` (`USD/EUR`) asks for.
const PICK_RATE: &str = "async ({ response, endpointParameters }) => ({ response: response.rates[endpointParameters.name.split('/')[1]] })\n";

/// [`deploy`], with more arguments for `ois scaffold feed`. As the README's recipe: convert with
/// a secrets template, fill the key, refine with `ois endpoint set`, scaffold onto the same
/// secrets file (its values kept), fill the mnemonic and the token.
pub fn deploy_with(server: &Server, feeds: &[&str], more: &[&str]) -> Deployment {
    deploy_for(server, None, feeds, more)
}

/// [`deploy_with`] for a node of the user's choice (`--target` of the conversion: the OIS format
/// it reads; the scaffold follows the OIS's format), or the default node.
pub fn deploy_for(server: &Server, target: Option<&str>, feeds: &[&str], more: &[&str]) -> Deployment {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let at = |name: &str| dir.path().join(name);
    let (document, ois, config, secrets) =
        (at("rates.yaml"), at("rates.ois.json"), at("config.json"), at("secrets.env"));
    std::fs::write(&document, openapi(&server.base)).expect("write");
    let mut convert = vec!["convert", path(&document), "-o", path(&ois), "--secrets-out", path(&secrets)];
    if let Some(target) = target {
        convert.extend(["--target", target]);
    }
    run(&convert);
    fill(&secrets, &[("KEY", KEY)]);
    // The refinement, by `ois endpoint` only: `getRates` becomes `feed`, whose pre-processing
    // drops `name` (so its templates batch into one call) and whose post-processing picks the
    // rate; `getPrice` becomes `price`; both get `_type` and `_times`, `price` its `_path`.
    let (pre, post) = (at("pre.js"), at("post.js"));
    std::fs::write(&pre, "async ({ endpointParameters }) => ({ endpointParameters: {} })\n").expect("write");
    std::fs::write(&post, PICK_RATE).expect("write");
    let fixed = ["--reserved", "_type=int256", "--reserved", "_times=1e6"];
    let mut feed = vec!["endpoint", "set", path(&ois), "getRates", "--rename", "feed", "--param", "name:required"];
    feed.extend(fixed);
    feed.extend(["--pre", path(&pre), "--post", path(&post)]);
    run(&feed);
    let mut price = vec!["endpoint", "set", path(&ois), "getPrice", "--rename", "price", "--reserved", "_path=price"];
    price.extend(fixed);
    run(&price);

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
