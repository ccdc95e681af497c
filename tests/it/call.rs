//! `ois call` against a real HTTP server the test starts on 127.0.0.1 (no mocked client, nothing
//! beyond loopback): what the server receives equals what `ois request --format json` predicts,
//! for every security scheme and parameter location, GET and POST; redirects, timeouts, huge
//! and non-JSON bodies, 4xx/5xx, `--all`; and no secret in any output unless asked.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use std::io::Write;
use std::net::TcpListener;
use std::time::Duration;

use common::server::{Received, Server, answer, read_request};

use serde_json::{Value, json};

const SECRET_QUERY: &str = "q-secret-4711";
const SECRET_HEADER: &str = "h-secret-4712";
const SECRET_COOKIE: &str = "c-secret-4713";
const SECRET_BASIC: &str = "dXNlcjpzM2NyZXQ="; // user:s3cret
const SECRET_BEARER: &str = "b-secret-4714";
const SECRETS: [&str; 5] = [SECRET_QUERY, SECRET_HEADER, SECRET_COOKIE, SECRET_BASIC, SECRET_BEARER];

/// The API the tests call: it answers by path.
fn start_server() -> Server {
    Server::start(|request, stream| {
        let path = request.path().to_owned();
        match path.as_str() {
            "/redirect" => answer(stream, "302 Found", "text/plain", "Location: /items/7\r\n", b""),
            "/loop" => answer(stream, "302 Found", "text/plain", "Location: /loop\r\n", b""),
            "/slow" => {
                std::thread::sleep(Duration::from_secs(3));
                answer(stream, "200 OK", "application/json", "", br#"{"price": 1}"#);
            }
            "/huge" => {
                let body = format!("[{}1]", "1,".repeat(600_000));
                answer(stream, "200 OK", "application/json", "", body.as_bytes());
            }
            "/big" => {
                // Over 1 MiB: read where it lies. It echoes the key as a string, inside one, and as a key.
                let key =
                    request.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("x-api-key")).map(|(_, v)| v.clone());
                let key = key.unwrap_or_default();
                let prices: Vec<String> = (0..150_000).map(|i| format!("{}.25", 1000 + i)).collect();
                let body = format!(
                    r#"{{"echo": "{key}", "note": "key {key} echoed", "{key}": 1, "prices": [{}], "last": {{"price": 7.5}}}}"#,
                    prices.join(",")
                );
                answer(stream, "200 OK", "application/json", "", body.as_bytes());
            }
            "/text" => answer(stream, "200 OK", "text/html", "", b"<html>maintenance</html>"),
            "/latin1" => answer(stream, "200 OK", "application/json", "", b"{\"price\": 42, \"name\": \"caf\xe9\"}"),
            "/drip" => {
                let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 64\r\nConnection: close\r\n\r\n";
                let _ = stream.write_all(head.as_bytes());
                for _ in 0..64 {
                    std::thread::sleep(Duration::from_millis(100));
                    if stream.write_all(b" ").is_err() {
                        break;
                    }
                }
            }
            "/escape" => answer(
                stream,
                "500 Internal Server Error",
                "text/plain",
                "",
                b"\x1b]0;pwned\x07\x1b[2J\x1b]52;c;Y3VybCBldmlsCg==\x07 \xc2\x9b31m",
            ),
            "/denied" => {
                let body = format!("{{\"error\": \"key {SECRET_QUERY} is not valid\"}}");
                answer(stream, "401 Unauthorized", "application/json", "", body.as_bytes());
            }
            "/broken" => answer(stream, "503 Service Unavailable", "text/plain", "", b"down\nfor\nrepairs"),
            "/echo" => {
                let headers: serde_json::Map<String, Value> =
                    request.headers.iter().map(|(n, v)| (n.to_ascii_lowercase(), json!(v))).collect();
                let body = json!({"headers": headers, "target": request.target});
                answer(stream, "200 OK", "application/json", "", body.to_string().as_bytes());
            }
            _ => {
                let body = json!({"price": 61234.5, "data": {"items": [{"v": "7"}]}, "method": request.method});
                answer(stream, "200 OK", "application/json", "", body.to_string().as_bytes());
            }
        }
    })
}

fn endpoint(name: &str, method: &str, path: &str, parameters: Value, fixed: Value, path_type: &str) -> Value {
    json!({"name": name, "operation": {"method": method, "path": path}, "fixedOperationParameters": fixed,
        "parameters": parameters,
        "reservedParameters": [{"name": "_type", "fixed": "int256"}, {"name": "_path", "fixed": path_type}, {"name": "_times", "fixed": "100"}]})
}

/// A config.json for the server: every scheme, every location, GET and POST, and the failure paths.
fn config(base: &str) -> Value {
    let get_parameters = json!([
        {"in": "path", "name": "id"}, {"in": "query", "name": "q"}, {"in": "header", "name": "X-Trace"},
        {"in": "cookie", "name": "session"}, {"in": "query", "name": "unit"}, {"in": "query", "name": "fixedQ"}
    ]);
    let mapped = json!([
        {"name": "id", "operationParameter": {"in": "path", "name": "id"}, "example": "7"},
        {"name": "q", "operationParameter": {"in": "query", "name": "q"}, "example": "a b&c"},
        {"name": "trace", "operationParameter": {"in": "header", "name": "X-Trace"}, "example": "t-1"},
        {"name": "session", "operationParameter": {"in": "cookie", "name": "session"}, "example": "s=1"},
        {"name": "unit", "operationParameter": {"in": "query", "name": "unit"}, "default": "usd"}
    ]);
    let fixed = json!([{"operationParameter": {"in": "query", "name": "fixedQ"}, "value": "F"}]);
    let simple = |name: &str, path: &str| endpoint(name, "get", path, json!([]), json!([]), "price");
    let paths = json!({
        "/items/{id}": {"get": {"parameters": get_parameters}, "post": {"parameters": [{"in": "path", "name": "id"}, {"in": "query", "name": "amount"}, {"in": "query", "name": "nested"}]}},
        "/redirect": {"get": {"parameters": []}}, "/loop": {"get": {"parameters": []}}, "/slow": {"get": {"parameters": []}},
        "/huge": {"get": {"parameters": []}}, "/text": {"get": {"parameters": []}}, "/denied": {"get": {"parameters": []}},
        "/broken": {"get": {"parameters": []}}, "/escape": {"get": {"parameters": []}},
        "/latin1": {"get": {"parameters": []}}, "/drip": {"get": {"parameters": []}},
        "/echo": {"get": {"parameters": []}}, "/big": {"get": {"parameters": []}}
    });
    let ois = json!({
        "oisFormat": "2.3.2", "title": "Loopback", "version": "1.0.0",
        "apiSpecifications": {
            "servers": [{"url": base}],
            "paths": paths,
            "components": {"securitySchemes": {
                "queryKey": {"type": "apiKey", "in": "query", "name": "api_key"},
                "headerKey": {"type": "apiKey", "in": "header", "name": "X-Api-Key"},
                "cookieKey": {"type": "apiKey", "in": "cookie", "name": "ck"},
                "basic": {"type": "http", "scheme": "basic"},
                "bearer": {"type": "http", "scheme": "bearer"},
                "chainId": {"type": "relayChainId", "in": "query", "name": "chain"},
                "requester": {"type": "relayRequesterAddress", "in": "header", "name": "X-Requester"}
            }},
            "security": {"queryKey": [], "headerKey": [], "cookieKey": [], "basic": [], "chainId": [], "requester": []}
        },
        "endpoints": [
            endpoint("item", "get", "/items/{id}", mapped, fixed, "price"),
            endpoint("create", "post", "/items/{id}", json!([
                {"name": "id", "operationParameter": {"in": "path", "name": "id"}, "example": "7"},
                {"name": "amount", "operationParameter": {"in": "query", "name": "amount"}, "example": "12.5"},
                {"name": "nested", "operationParameter": {"in": "query", "name": "nested"}}
            ]), json!([]), "data.items.0.v"),
            simple("redirect", "/redirect"), simple("loop", "/loop"), simple("slow", "/slow"), simple("huge", "/huge"),
            simple("text", "/text"), simple("denied", "/denied"), simple("broken", "/broken"), simple("escape", "/escape"), simple("latin1", "/latin1"), simple("drip", "/drip"),
            endpoint("wrongPath", "get", "/redirect", json!([]), json!([]), "data.missing")
        ]
    });
    let credential = |scheme: &str, variable: &str| json!({"oisTitle": "Loopback", "securitySchemeName": scheme, "securitySchemeValue": format!("${{{variable}}}")});
    json!({"ois": [ois], "apiCredentials": [
        credential("queryKey", "QUERY_KEY"), credential("headerKey", "HEADER_KEY"), credential("cookieKey", "COOKIE_KEY"),
        credential("basic", "BASIC"), credential("bearer", "BEARER")
    ]})
}

struct Setup {
    _dir: tempfile::TempDir,
    config: std::path::PathBuf,
    secrets: std::path::PathBuf,
}

fn setup(server: &Server) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let config_path = dir.path().join("config.json");
    std::fs::write(&config_path, serde_json::to_string_pretty(&config(&server.base)).unwrap()).unwrap();
    let secrets = dir.path().join("secrets.env");
    let text = format!(
        "QUERY_KEY={SECRET_QUERY}\nHEADER_KEY={SECRET_HEADER}\nCOOKIE_KEY={SECRET_COOKIE}\nBASIC={SECRET_BASIC}\nBEARER={SECRET_BEARER}\n"
    );
    std::fs::write(&secrets, text).unwrap();
    Setup { _dir: dir, config: config_path, secrets }
}

fn ois(setup: &Setup, args: &[&str]) -> std::process::Output {
    common::ois()
        .env("NO_COLOR", "1")
        .env_remove("HTTP_PROXY")
        .env_remove("http_proxy")
        .env_remove("ALL_PROXY")
        .arg(args[0])
        .arg(&setup.config)
        .arg("--secrets")
        .arg(&setup.secrets)
        .args(&args[1..])
        .output()
        .unwrap()
}

fn assert_no_secret(output: &std::process::Output) {
    let all = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    for secret in SECRETS {
        assert!(!all.contains(secret), "{secret} leaked:\n{all}");
    }
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `ois call` sends what `ois request` predicts: URL (path and query), every header, the body.
fn predicted_equals_received(server: &Server, setup: &Setup, args: &[&str]) -> (Value, Received) {
    let mut request_args = vec!["request"];
    request_args.extend_from_slice(args);
    request_args.extend_from_slice(&["--format", "json", "--show-secrets"]);
    let predicted = ois(setup, &request_args);
    assert!(predicted.status.success(), "{}", stderr(&predicted));
    let predicted: Value = serde_json::from_slice(&predicted.stdout).unwrap();
    server.take();
    let mut call_args = vec!["call"];
    call_args.extend_from_slice(args);
    call_args.extend_from_slice(&["--format", "json"]);
    let called = ois(setup, &call_args);
    assert!(called.status.success(), "{}", stderr(&called));
    assert_no_secret(&called);
    let received = server.take();
    assert_eq!(received.len(), 1, "{received:?}");
    let received = received[0].clone();
    let url = predicted["url"].as_str().unwrap();
    assert_eq!(format!("{}{}", server.base, received.target), url);
    assert_eq!(received.method, predicted["method"].as_str().unwrap());
    for (name, value) in predicted["headers"].as_object().unwrap() {
        assert_eq!(received.header(name), Some(value.as_str().unwrap()), "header {name}: {received:?}");
    }
    if let Some(body) = predicted["body"].as_object() {
        assert_eq!(serde_json::from_str::<Value>(&received.body).unwrap(), Value::Object(body.clone()));
        assert_eq!(received.header("content-type"), Some("application/json"));
    }
    assert_eq!(received.header("user-agent"), Some("axios/1.21.1"));
    assert_eq!(received.header("accept"), Some("application/json, text/plain, */*"));
    let output: Value = serde_json::from_slice(&called.stdout).unwrap();
    (output, received)
}

#[test]
fn every_scheme_and_location_reaches_the_server_as_predicted() {
    let server = start_server();
    let setup = setup(&server);
    let metadata =
        ["--metadata", "chainId=31337", "--metadata", "requesterAddress=0x5FbDB2315678afecb367f032d93F642f64180aa3"];
    let mut args = vec![
        "--endpoint",
        "item",
        "--param",
        "id=7",
        "--param",
        "q=a b&c",
        "--param",
        "trace=t-1",
        "--param",
        "session=s=1",
    ];
    args.extend_from_slice(&metadata);
    let (output, received) = predicted_equals_received(&server, &setup, &args);
    assert!(received.target.contains(&format!("api_key={SECRET_QUERY}")) && received.target.contains("fixedQ=F"));
    assert!(received.target.contains("unit=usd"), "the default is sent in node mode: {}", received.target);
    assert_eq!(received.header("authorization"), Some(format!("Basic {SECRET_BASIC}").as_str()));
    assert!(received.header("cookie").unwrap().contains(&format!("ck={SECRET_COOKIE}")));
    assert_eq!(output["call"]["status"], 200);
    assert_eq!(output["response"]["values"], json!(["6123450"]));
    assert!(output["url"].as_str().unwrap().contains("****"), "masked in the output");

    // POST: every query parameter and credential in a JSON body.
    let (output, received) = predicted_equals_received(
        &server,
        &setup,
        &["--endpoint", "create", "--param", "id=7", "--param", "amount=12.5", "--param-json", "nested={\"a\":[1,2]}"],
    );
    assert_eq!(received.method, "POST");
    assert!(received.body.contains("\"nested\":{\"a\":[1,2]}"), "{}", received.body);
    assert_eq!(output["response"]["values"], json!(["700"]));

    // Bearer (basic and bearer both write Authorization, so it gets its own OIS).
    let mut bearer = config(&server.base);
    bearer["ois"][0]["apiSpecifications"]["security"] = json!({"bearer": []});
    std::fs::write(&setup.config, bearer.to_string()).unwrap();
    let (_, received) = predicted_equals_received(&server, &setup, &["--endpoint", "item", "--param", "id=7"]);
    assert_eq!(received.header("authorization"), Some(format!("Bearer {SECRET_BEARER}").as_str()));
    // Kept on a redirect to the same host, as follow-redirects keeps it.
    let redirected = ois(&setup, &["call", "--endpoint", "redirect"]);
    assert!(redirected.status.success(), "{}", stderr(&redirected));
    let hops = server.take();
    assert_eq!(hops.len(), 2);
    assert_eq!(hops[1].header("authorization"), Some(format!("Bearer {SECRET_BEARER}").as_str()));
}

#[test]
fn redirects_are_followed_and_a_loop_is_reported() {
    let server = start_server();
    let setup = setup(&server);
    let followed = ois(&setup, &["call", "--endpoint", "redirect", "--format", "json"]);
    assert!(followed.status.success(), "{}", stderr(&followed));
    assert!(server.take().iter().any(|r| r.target.starts_with("/items/7")));
    let looped = ois(&setup, &["call", "--endpoint", "loop"]);
    assert_eq!(looped.status.code(), Some(1));
    assert!(stderr(&looped).contains("CAL005"), "{}", stderr(&looped));
    assert_no_secret(&looped);
}

#[test]
fn failures_are_diagnostics_with_their_own_codes() {
    let server = start_server();
    let setup = setup(&server);
    let run = |args: &[&str]| {
        let output = ois(&setup, args);
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        assert_no_secret(&output);
        stderr(&output)
    };
    assert!(run(&["call", "--endpoint", "slow", "--timeout", "0.5"]).contains("error[CAL004]"));
    assert!(run(&["call", "--endpoint", "huge", "--max-response-bytes", "100000"]).contains("error[CAL008]"));
    let text = run(&["call", "--endpoint", "text"]);
    assert!(text.contains("error[CAL007]") && text.contains("maintenance") && text.contains("text/html"), "{text}");
    let denied = run(&["call", "--endpoint", "denied"]);
    assert!(
        denied.contains("error[CAL006]") && denied.contains("401") && denied.contains("key **** is not valid"),
        "{denied}"
    );
    let broken = run(&["call", "--endpoint", "broken"]);
    assert!(broken.contains("503") && broken.contains("for\n"), "{broken}");
    let missing = run(&["call", "--endpoint", "wrongPath"]);
    assert!(
        missing.contains("REQ020")
            && missing.contains("no 'missing' ('data' has the keys items)")
            && missing.contains("HTTP 200"),
        "{missing}"
    );

    // Nothing listens on a port we just closed.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let refused = config(&format!("http://127.0.0.1:{port}"));
    std::fs::write(&setup.config, refused.to_string()).unwrap();
    assert!(run(&["call", "--endpoint", "redirect"]).contains("error[CAL002]"));
    // A DNS failure would ask a name server: its mapping is a unit test in src/call.
}

#[test]
fn all_calls_every_endpoint_and_summarises() {
    let server = start_server();
    let setup = setup(&server);
    let output = ois(
        &setup,
        &["call", "--all", "--jobs", "4", "--timeout", "1", "--max-response-bytes", "100000", "--format", "json"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_no_secret(&output);
    let summary: Value = serde_json::from_slice(&output.stdout).unwrap();
    let verdicts: Vec<(String, String)> = summary["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["endpoint"].as_str().unwrap().to_owned(), e["verdict"].as_str().unwrap().to_owned()))
        .collect();
    let expected = [
        ("item", "ok"),
        ("create", "ok"),
        ("redirect", "ok"),
        ("loop", "API error"),
        ("slow", "API error"),
        ("huge", "API error"),
        ("text", "API error"),
        ("denied", "API error"),
        ("broken", "API error"),
        ("escape", "API error"),
        ("latin1", "ok"),
        ("drip", "API error"),
        ("wrongPath", "extraction failed"),
    ];
    let expected: Vec<(String, String)> = expected.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect();
    assert_eq!(verdicts, expected);
    assert_eq!(summary["ok"], 4);
    // An API error after an answer keeps its status.
    assert_eq!(summary["endpoints"][7]["status"], 401);
    assert_eq!(summary["endpoints"][8]["status"], 503);
    assert_eq!(summary["endpoints"][0]["encodedBytes"], 32);

    let text = ois(&setup, &["call", "--all", "--timeout", "1", "--max-response-bytes", "100000"]);
    let table = String::from_utf8_lossy(&text.stdout);
    assert!(table.starts_with("endpoint") && table.contains("13 endpoint(s): 4 ok, 9 failed"), "{table}");
    assert_no_secret(&text);
}

/// An OIS from someone else that puts `${NAME}` in a fixed parameter, a header value, or a
/// processing snippet: never filled from the secrets file or the environment, never sent. In the
/// server URL (where the node fills an RPC provider's key) it is filled from the secrets given
/// only, never the environment: not given, nothing is sent.
#[test]
fn an_untrusted_ois_cannot_send_the_environment_or_the_secrets_file() {
    let server = start_server();
    let setup = setup(&server);
    let mut config = config(&server.base);
    let places = [
        ("/ois/0/endpoints/0/fixedOperationParameters/0/value", "${EXFILTRATED_TOKEN}"),
        ("/ois/0/endpoints/0/parameters/4/default", "${QUERY_KEY}"),
        ("/ois/0/apiSpecifications/servers/0/url", "http://127.0.0.1:1/${EXFILTRATED_TOKEN}"),
    ];
    for (at, template) in places {
        let mut broken = config.clone();
        *broken.pointer_mut(at).unwrap() = json!(template);
        std::fs::write(&setup.config, serde_json::to_string_pretty(&broken).unwrap()).unwrap();
        for command in ["call", "request"] {
            let output = common::ois()
                .env("EXFILTRATED_TOKEN", "ghp_secret_from_the_environment")
                .args([command, "--endpoint", "item", "--show-secrets", "--secrets"])
                .arg(&setup.secrets)
                .arg(&setup.config)
                .output()
                .unwrap();
            let everything = [output.stdout, output.stderr].concat();
            let text = String::from_utf8_lossy(&everything);
            assert_eq!(output.status.code(), Some(1), "{command} {at}: {text}");
            let code = if at.ends_with("/url") { "REQ003" } else { "OIS060" };
            assert!(text.contains(code) && text.contains(at), "{command} {at}: {text}");
            assert!(!text.contains("ghp_secret") && !text.contains(SECRET_QUERY), "{command} {at}: {text}");
        }
    }
    assert!(server.take().is_empty(), "a request was sent");
    // An escaped one is a literal `${`, sent as such; the credentials are filled as before.
    *config.pointer_mut("/ois/0/endpoints/0/fixedOperationParameters/0/value").unwrap() =
        json!("\\${EXFILTRATED_TOKEN}");
    std::fs::write(&setup.config, serde_json::to_string_pretty(&config).unwrap()).unwrap();
    let output = common::ois()
        .env("EXFILTRATED_TOKEN", "ghp_secret_from_the_environment")
        .args(["call", "--endpoint", "item", "--param", "id=7", "--secrets"])
        .arg(&setup.secrets)
        .arg(&setup.config)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let sent = server.take();
    let target = &sent.first().expect("one request").target;
    assert!(target.contains("fixedQ=$%7BEXFILTRATED_TOKEN%7D") && target.contains(SECRET_QUERY), "{target}");
}

/// What an API answers reaches the terminal without a control character it could act on: no
/// window title, no cleared screen, no clipboard write (OSC 52), no C1 CSI.
#[test]
fn an_api_answer_cannot_act_on_the_terminal() {
    let server = start_server();
    let setup = setup(&server);
    for format in ["text", "json"] {
        let output = ois(&setup, &["call", "--endpoint", "escape", "--format", format]);
        assert_eq!(output.status.code(), Some(1));
        let everything = [output.stdout, output.stderr].concat();
        let text = String::from_utf8_lossy(&everything);
        assert!(!text.contains('\u{1b}') && !text.contains('\u{7}') && !text.contains('\u{9b}'), "{format}: {text:?}");
        assert!(text.contains("pwned"), "{format}: the answer is still shown: {text}");
    }
    let all = ois(&setup, &["call", "--all", "--format", "text"]);
    let everything = [all.stdout, all.stderr].concat();
    assert!(!String::from_utf8_lossy(&everything).contains('\u{1b}'));
}

/// A server that answers every request with a redirect to `location`.
fn redirector(location: String) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let _ = read_request(&stream);
            answer(&mut stream, "302 Found", "text/plain", &format!("Location: {location}\r\n"), b"");
        }
    });
    base
}

/// The node's client (follow-redirects) drops Authorization and Cookie when a redirect leads to
/// another port of the same host, and follows no redirect to anything but http(s).
#[test]
fn redirects_are_followed_as_the_node_follows_them() {
    use ois::request::{Credential, RequestOptions};
    let server = start_server();
    let other_port = redirector(format!("{}/items/7", server.base));
    let file = redirector("file:///etc/passwd".to_owned());
    let ois_for = |base: &str| {
        json!({"oisFormat": "2.3.2", "title": "R", "version": "1.0.0",
            "apiSpecifications": {"servers": [{"url": base}], "paths": {"/items/{id}": {"get": {"parameters": [{"in": "path", "name": "id"}]}}},
                "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}, "key": {"type": "apiKey", "in": "header", "name": "X-Api-Key"}}},
                "security": {"bearer": [], "key": []}},
            "endpoints": [endpoint("item", "get", "/items/{id}", json!([{"name": "id", "operationParameter": {"in": "path", "name": "id"}}]), json!([]), "price")]})
    };
    let mut request = RequestOptions::new("item");
    request.parameters.insert("id".into(), json!("7"));
    request.credentials = vec![
        Credential { ois_title: "R".into(), scheme: "bearer".into(), value: SECRET_BEARER.into() },
        Credential { ois_title: "R".into(), scheme: "key".into(), value: SECRET_HEADER.into() },
    ];
    let options = ois::call::CallOptions::default();
    let engine = ois::processing::Engine::Embedded;
    let called = ois::call::call(&ois_for(&other_port), &request, &engine, &options, 0).expect("followed");
    let received = server.take();
    let at_target = received.first().expect("the redirect was followed");
    assert_eq!(at_target.header("authorization"), None, "Authorization went to another port");
    // A custom key header goes along, as in the node; the call says so.
    assert_eq!(at_target.header("x-api-key"), Some(SECRET_HEADER));
    let notes = called.reply.expect("an answer").notes;
    assert_eq!(notes.first().map(|n| n.code), Some(ois::Code::CredentialRedirected), "{notes:?}");

    let refused = ois::call::call(&ois_for(&file), &request, &engine, &options, 0).expect_err("not followed");
    assert_eq!(refused.stopped.diagnostic.code, ois::Code::RedirectLoop);
    assert!(refused.stopped.diagnostic.message.contains("not http or https"));
    assert!(server.take().is_empty(), "the file: redirect was requested somewhere");
}

/// What the node's HTTP client makes of what a server sends: a body whose bytes keep coming past
/// the deadline is a timeout (CAL004), and a JSON body with a byte that is not UTF-8 is read with
/// U+FFFD in its place, as axios decodes it, not refused.
#[test]
fn slow_bodies_time_out_and_bad_utf8_is_decoded_as_axios_decodes_it() {
    let server = start_server();
    let setup = setup(&server);
    let drip = ois(&setup, &["call", "--endpoint", "drip", "--timeout", "1"]);
    assert!(String::from_utf8_lossy(&drip.stderr).contains("CAL004"), "{}", String::from_utf8_lossy(&drip.stderr));
    let latin1 = ois(&setup, &["call", "--endpoint", "latin1", "--format", "json"]);
    assert!(latin1.status.success(), "{}", String::from_utf8_lossy(&latin1.stderr));
    let value: Value = serde_json::from_slice(&latin1.stdout).unwrap();
    assert_eq!(value["call"]["body"]["name"], "caf\u{fffd}");
}

/// The loop's first joint: the secrets template `ois convert --secrets-out` writes, once filled,
/// gives a bare OIS its key in `ois request` and `ois call`; `--server` points both at a mock.
/// Without the key nothing is sent, and the error names the variable and the fix.
#[test]
fn a_converted_oiss_secrets_template_carries_its_key_to_the_call() {
    let server = start_server();
    let dir = tempfile::tempdir().unwrap();
    let (ois_file, secrets) = (dir.path().join("api.ois.json"), dir.path().join("secrets.env"));
    let output = common::ois()
        .args(["convert", "samples/coins.yaml", "-q", "-o"])
        .arg(&ois_file)
        .arg("--secrets-out")
        .arg(&secrets)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let template = std::fs::read_to_string(&secrets).unwrap();
    assert!(template.starts_with("# Secrets for api.ois.json:"), "{template}");
    let variable = "COIN_PRICES_API_DEMO_API_KEY_HEADER";
    let call = |secrets_file: Option<&std::path::Path>, command: &str| {
        let mut run = common::ois();
        run.env(variable, "from-the-environment").env("NO_COLOR", "1").args([
            command,
            "--endpoint",
            "simplePrice",
            "--param",
            "ids=bitcoin",
            "--param",
            "_type=int256",
            "--param",
            "_path=price",
            "--param",
            "_times=100",
            "--server",
            &server.base,
        ]);
        if let Some(file) = secrets_file {
            run.arg("--secrets").arg(file);
        }
        run.arg(&ois_file).output().unwrap()
    };

    // No secrets file: the preview warns, the call refuses; the environment is never read for it.
    let preview = call(None, "request");
    assert!(preview.status.success(), "{}", stderr(&preview));
    assert!(
        stderr(&preview).contains("warning[REQ016]") && stderr(&preview).contains(variable),
        "{}",
        stderr(&preview)
    );
    let refused = call(None, "call");
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("error[REQ016]") && stderr(&refused).contains("--secrets FILE"),
        "{}",
        stderr(&refused)
    );
    // A secrets file without the name: the error names the file and the line to add.
    let other = dir.path().join("other.env");
    std::fs::write(&other, "SOMETHING_ELSE=x\n").unwrap();
    let refused = call(Some(&other), "call");
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("error[REQ003]") && stderr(&refused).contains(&format!("add a line {variable}=")),
        "{}",
        stderr(&refused)
    );
    assert!(server.take().is_empty(), "an unauthenticated request was sent");

    // Filled: the key reaches the server, as the request predicted, and is masked in the output.
    std::fs::write(&secrets, template.replace(&format!("{variable}=\n"), &format!("{variable}=k-3141\n"))).unwrap();
    let preview = call(Some(&secrets), "request");
    assert!(preview.status.success(), "{}", stderr(&preview));
    let shown = String::from_utf8_lossy(&preview.stdout);
    assert!(shown.contains("x-cg-demo-api-key: ****") && shown.contains(&server.base), "{shown}");
    assert!(stderr(&preview).contains("note[REQ017]"), "{}", stderr(&preview));
    let called = call(Some(&secrets), "call");
    assert!(called.status.success(), "{}", stderr(&called));
    let sent = server.take();
    let request = sent.first().expect("one request");
    assert_eq!(request.header("x-cg-demo-api-key"), Some("k-3141"));
    assert!(request.target.starts_with("/simple/price?ids=bitcoin"), "{}", request.target);
    let everything = format!("{}{}", String::from_utf8_lossy(&called.stdout), stderr(&called));
    assert!(!everything.contains("k-3141") && !everything.contains("from-the-environment"), "{everything}");
}

const MNEMONIC: &str = "test test test test test test test test test test test junk";

/// The node's own secrets never reach an API: an OIS whose scheme would be named like the
/// mnemonic gets a name of its own (so a secrets.env holding the mnemonic gives it nothing), a
/// config whose credential names the mnemonic or a signed API's token is refused (OIS081), and a
/// config's `${NAME}` reads the environment only for a name the user allowed.
#[test]
fn the_node_s_own_secrets_never_reach_an_api() {
    let server = start_server();
    let dir = tempfile::tempdir().unwrap();
    let secrets = dir.path().join("secrets.env");
    std::fs::write(
        &secrets,
        format!(
            "AIRNODE_WALLET_MNEMONIC={MNEMONIC}\nSIGNED_API_LOCAL_AUTH_TOKEN=token-4715\nQUERY_KEY={SECRET_QUERY}\n"
        ),
    )
    .unwrap();
    let run = |file: &std::path::Path, extra: &[&str]| {
        let output = common::ois()
            .env("NO_COLOR", "1")
            .env("ENV_ONLY_KEY", "env-secret-4716")
            .arg("call")
            .arg(file)
            .args(["--endpoint", "redirect", "--secrets"])
            .arg(&secrets)
            .args(extra)
            .output()
            .unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        (output.status.code(), text)
    };
    // A bare OIS titled `Airnode` with a scheme `wallet_mnemonic`.
    let mut evil = config(&server.base)["ois"][0].clone();
    evil["title"] = json!("Airnode");
    evil["apiSpecifications"]["components"]["securitySchemes"] =
        json!({"wallet_mnemonic": {"type": "apiKey", "in": "header", "name": "x-api-key"}});
    evil["apiSpecifications"]["security"] = json!({"wallet_mnemonic": []});
    let bare = dir.path().join("evil.ois.json");
    std::fs::write(&bare, evil.to_string()).unwrap();
    let (code, text) = run(&bare, &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("AIRNODE_WALLET_MNEMONIC_API_CREDENTIAL") && text.contains("REQ003"), "{text}");
    assert!(server.take().is_empty(), "a request was sent: {text}");
    // A config whose credential is the mnemonic, a signed API's token, or a secret the config
    // names for the node itself.
    let mut base = config(&server.base);
    base["nodeSettings"] = json!({"airnodeWalletMnemonic": "${MY_WALLET}"});
    base["apiCredentials"] =
        json!([{"oisTitle": "Loopback", "securitySchemeName": "queryKey", "securitySchemeValue": "${QUERY_KEY}"}]);
    base["ois"][0]["apiSpecifications"]["security"] = json!({"queryKey": []});
    for variable in ["AIRNODE_WALLET_MNEMONIC", "SIGNED_API_LOCAL_AUTH_TOKEN", "MY_WALLET"] {
        let mut broken = base.clone();
        broken["apiCredentials"][0]["securitySchemeValue"] = json!(format!("${{{variable}}}"));
        let file = dir.path().join("config.json");
        std::fs::write(&file, broken.to_string()).unwrap();
        for command in [vec![], vec!["--show-secrets"]] {
            let (code, text) = run(&file, &command);
            assert_eq!(code, Some(1), "{variable}: {text}");
            assert!(text.contains("OIS081") && text.contains("/apiCredentials/0/securitySchemeValue"), "{text}");
            assert!(!text.contains("junk") && !text.contains("token-4715"), "{text}");
        }
        let validated = common::ois().arg("validate").arg(&file).output().unwrap();
        let said =
            format!("{}{}", String::from_utf8_lossy(&validated.stdout), String::from_utf8_lossy(&validated.stderr));
        assert_eq!(validated.status.code(), Some(1), "{said}");
        assert!(said.contains("OIS081"), "{said}");
    }
    assert!(server.take().is_empty(), "a request was sent");
    // The environment: not read for a name the user did not allow; read for one allowed.
    let mut from_environment = base.clone();
    from_environment["apiCredentials"][0]["securitySchemeValue"] = json!("${ENV_ONLY_KEY}");
    let file = dir.path().join("env.json");
    std::fs::write(&file, from_environment.to_string()).unwrap();
    let (code, text) = run(&file, &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("REQ003") && text.contains("--env-secret ENV_ONLY_KEY"), "{text}");
    assert!(server.take().is_empty(), "a request was sent: {text}");
    let (code, text) = run(&file, &["--env-secret", "ENV_ONLY_KEY"]);
    assert_eq!(code, Some(0), "{text}");
    let sent = server.take();
    assert!(sent.first().is_some_and(|r| r.target.contains("api_key=env-secret-4716")), "{sent:?}");
    assert!(!text.contains("env-secret-4716"), "{text}");
}

/// An API that echoes its key, the key picked as the value: never printed, in any form the node
/// encodes it in (`string`, the hex of `string32`; `bytes` takes only hex, which is the key as it
/// is), in any output format, for one
/// endpoint and for a whole config; shown with `--show-secrets`.
#[test]
fn an_echoed_credential_picked_as_the_value_is_masked() {
    let server = start_server();
    let setup = setup(&server);
    let mut config = config(&server.base);
    let mut echo = |name: &str, kind: &str| {
        let mut endpoint = endpoint(name, "get", "/echo", json!([]), json!([]), "headers.x-api-key");
        endpoint["reservedParameters"] =
            json!([{"name": "_type", "fixed": kind}, {"name": "_path", "fixed": "headers.x-api-key"}]);
        config["ois"][0]["endpoints"].as_array_mut().unwrap().push(endpoint);
    };
    for kind in ["string", "string32"] {
        echo(&format!("echo_{kind}"), kind);
    }
    std::fs::write(&setup.config, config.to_string()).unwrap();
    let hex = |text: &str| text.bytes().map(|b| format!("{b:02x}")).collect::<String>();
    let forms = [SECRET_HEADER.to_owned(), hex(SECRET_HEADER)];
    for kind in ["string", "string32"] {
        for format in ["text", "json"] {
            let output = ois(&setup, &["call", "--endpoint", &format!("echo_{kind}"), "--format", format]);
            let all = format!("{}{}", String::from_utf8_lossy(&output.stdout), stderr(&output));
            assert!(output.status.success(), "{kind} {format}: {all}");
            assert!(all.contains("****"), "{kind} {format}: {all}");
            for form in &forms {
                assert!(!all.contains(form.as_str()), "{kind} {format}: {form} leaked:\n{all}");
            }
        }
        let shown = ois(&setup, &["call", "--endpoint", &format!("echo_{kind}"), "--show-secrets"]);
        let all = String::from_utf8_lossy(&shown.stdout);
        assert!(forms.iter().any(|form| all.contains(form.as_str())), "{kind}: --show-secrets hides it:\n{all}");
    }
    for format in ["text", "json"] {
        let output = ois(&setup, &["call", "--all", "--format", format]);
        let all = format!("{}{}", String::from_utf8_lossy(&output.stdout), stderr(&output));
        for form in &forms {
            assert!(!all.contains(form.as_str()), "--all {format}: {form} leaked:\n{all}");
        }
    }
}

/// An answer over 1 MiB is read where it lies: the value at its `_path`, the answer shown, recorded,
/// replayed and checked for drift, each as of a small answer, the key it echoes masked everywhere.
#[test]
fn a_big_answer_is_read_where_it_lies_and_its_echoed_key_masked() {
    let server = start_server();
    let setup = setup(&server);
    let mut config = config(&server.base);
    for (name, path) in [("big", "prices.149999"), ("bigMissing", "prices.150000")] {
        let big = endpoint(name, "get", "/big", json!([]), json!([]), path);
        config["ois"][0]["endpoints"].as_array_mut().unwrap().push(big);
    }
    std::fs::write(&setup.config, config.to_string()).unwrap();
    let recordings = setup._dir.path().join("answers");
    let recordings = recordings.to_str().unwrap();
    for (format, more) in [("text", &[][..]), ("json", &[][..]), ("text", &["--record", recordings][..])] {
        let mut args = vec!["call", "--endpoint", "big", "--format", format];
        args.extend_from_slice(more);
        let output = ois(&setup, &args);
        let shown = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(output.status.success(), "{format}: {}", stderr(&output));
        assert_no_secret(&output);
        assert!(shown.contains("15099925"), "{format}: 150999.25 × 100 is the value");
        let masked = shown.matches("****").count();
        assert!(masked >= 3, "{format}: the echo, the note and the key are masked ({masked})");
        if format == "text" {
            assert!(shown.contains("  \"prices\": [\n    1000.25,\n"), "shown pretty, as JSON.stringify writes it");
            assert!(shown.contains("\"note\": \"key **** echoed\""), "masked inside a string");
        } else {
            let report: Value = serde_json::from_str(&shown).unwrap();
            assert_eq!(report["call"]["body"]["prices"][149_999], json!(150999.25));
            assert_eq!(report["call"]["body"]["****"], json!(1));
            // Written from its text into the report, indented as the report's own levels are.
            assert!(
                shown.contains("\n    \"body\": {\n      \"echo\": \"****\",\n")
                    && shown.contains("\n      \"prices\": [\n        1000.25,\n"),
                "{}",
                &shown[shown.find("\"call\"").unwrap_or(0)..][..300]
            );
        }
    }
    // Recorded without the key; replayed and checked against it as the live answer was read.
    for file in std::fs::read_dir(recordings).unwrap() {
        let text = std::fs::read_to_string(file.unwrap().path()).unwrap();
        assert!(!text.contains(SECRET_HEADER), "the recording holds the key");
        assert!(text.contains("\"<credential>\": 1"), "the echoed key is a key of the recording too");
    }
    for more in [["--replay", recordings], ["--check", recordings]] {
        let output = ois(&setup, &["call", "--endpoint", "big", "--format", "json", more[0], more[1]]);
        assert!(output.status.success(), "{more:?}: {}", stderr(&output));
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["response"]["values"], json!(["15099925"]), "{more:?}");
    }
    // A path past the end says what is there, as of a small answer.
    let output = ois(&setup, &["call", "--endpoint", "bigMissing"]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("no '150000' ('prices' is an array of 150000 item(s))"), "{}", stderr(&output));
}
