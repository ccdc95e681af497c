//! One test per diagnostic code, as ruff has a snapshot per rule: an input that triggers the code,
//! and the diagnostic rendered as a person sees it (code, message, file:line:column, pointer, help)
//! in `tests/codes/<CODE>.txt`. Adding a code without a test fails `every_code_has_a_test`.
//!
//! Where the input is a document, it is a file beside the snapshot ([`file_cases`]):
//! `<CODE>.ois.json`, `.validate.json`, `.config.json`, `.openapi.json` (+ `.options.json`),
//! `.input.<ext>`, `.pre.js`/`.post.js` (a snippet), `.response.json` (an answer and the reserved
//! parameters) or `.request.json` + `.request.ois.json` (a call and the OIS it is of).
//! The cases that need a server, a folder, a command line or a generated input are [`cases`].

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

mod common;

use common::base_ois;
use std::sync::OnceLock;

use serde_json::{Value, json};

use ois::Source;
use ois::report::{RenderStyle, render};
use ois::{Code, Diagnostic};
use ois::{ConvertOptions, convert};

/// One diagnostic as a person sees it: its code, and the text `ois` renders for it (plain).
type Shown = (Code, String);

/// Renders `diagnostics` (located in `source` when they point into it), paths of temporary folders
/// replaced by `<tmp>` so the text is the same on every run.
fn shown(diagnostics: &[Diagnostic], source: Option<&Source>) -> Vec<Shown> {
    let temp = std::env::temp_dir().canonicalize().unwrap_or_else(|_| std::env::temp_dir());
    diagnostics
        .iter()
        .map(|diagnostic| {
            let mut diagnostic = diagnostic.clone();
            if let Some(source) = source {
                source.locate_diagnostic(&mut diagnostic);
            }
            let text = render(&diagnostic, RenderStyle::default(), source);
            (
                diagnostic.code,
                scrub(&scrub(&text, &temp.display().to_string()), &std::env::temp_dir().display().to_string()),
            )
        })
        .collect()
}

/// `text` with every `TEMP/.tmpXXXX` folder written as `<tmp>`.
fn scrub(text: &str, temp: &str) -> String {
    let marker = format!("{}/.tmp", temp.trim_end_matches('/'));
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(&marker) {
        out.push_str(&rest[..at]);
        let after = &rest[at + marker.len()..];
        let end = after.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(after.len());
        out.push_str("<tmp>");
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// A document as the pretty JSON text a person would have written, so diagnostics get a line and
/// column.
fn source_of(name: &str, document: &Value) -> Source {
    Source::from_text(name, None, serde_json::to_string_pretty(document).unwrap())
}

/// Diagnostics of converting `source`, rendered.
fn converted(source: &Source, options: &ConvertOptions) -> Vec<Shown> {
    match convert(source, options) {
        Ok(conversion) => shown(&conversion.diagnostics, Some(source)),
        Err(failure) => shown(&failure.diagnostics, Some(source)),
    }
}

/// Converting `document` (as pretty JSON text) with `options`.
fn convert_codes(document: Value, options: &ConvertOptions) -> Vec<Shown> {
    converted(&source_of("openapi.json", &document), options)
}

fn text_codes(name: &str, bytes: &[u8]) -> Vec<Shown> {
    match Source::from_bytes(name, None, bytes.to_vec()) {
        Ok(source) => converted(&source, &ConvertOptions::default()),
        Err(diagnostic) => shown(&[diagnostic], None),
    }
}

/// A minimal document around `paths`, with one server.
fn doc(paths: Value) -> Value {
    json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1.0.0"},
           "servers": [{"url": "https://api.example.com"}], "paths": paths})
}

fn get_ok() -> Value {
    json!({"get": {"operationId": "ok"}})
}

/// Appends to the array at `pointer`.
fn push(ois: &mut Value, pointer: &str, value: Value) {
    ois.pointer_mut(pointer).and_then(Value::as_array_mut).expect("an array").push(value);
}

/// Sets (or adds) the member at `pointer`.
fn set(ois: &mut Value, pointer: &str, value: Value) {
    let (parent, key) = pointer.rsplit_once('/').expect("a pointer");
    let key = key.replace("~1", "/").replace("~0", "~");
    let parent = ois.pointer_mut(parent).unwrap_or_else(|| panic!("no {parent}"));
    match parent {
        Value::Object(map) => {
            map.insert(key, value);
        }
        Value::Array(items) => items[key.parse::<usize>().expect("index")] = value,
        _ => panic!("{pointer}: parent is not a container"),
    }
}

/// The cases whose input is a file beside the code's snapshot, as ruff keeps a fixture per rule:
/// `<CODE>.ois.json` is checked against the OIS rules, `<CODE>.validate.json` validated as an OIS
/// file and `<CODE>.config.json` as a config.json; `<CODE>.openapi.json` is converted, with
/// the options of `<CODE>.options.json` when there is one (as a `.convert.json` record keeps
/// them); `<CODE>.input.<ext>` is read as a document named `a.<ext>` and converted.
fn file_cases() -> Vec<(Code, Vec<Shown>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/codes");
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let mut cases = Vec::new();
    for name in &names {
        let Some((code, kind)) = name.split_once('.') else { continue };
        let Some(code) = Code::ALL.iter().copied().find(|c| c.as_str() == code) else { continue };
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
        let shown = match kind {
            "ois.json" => {
                let text = read(name);
                let ois: Value = serde_json::from_str(&text).unwrap();
                shown(&ois::check_ois(&ois, None), Some(&Source::from_text("ois.json", None, text)))
            }
            "pre.js" | "post.js" => processing_codes(kind.trim_end_matches(".js"), &read(name)),
            "response.json" => {
                let input: Value = serde_json::from_str(&read(name)).unwrap();
                response_codes(input["response"].clone(), input["reserved"].clone())
            }
            "request.json" => {
                let call: Value = serde_json::from_str(&read(name)).unwrap();
                let ois: Value = serde_json::from_str(&read(&format!("{code}.request.ois.json"))).unwrap();
                let credentials: Vec<(String, String)> = serde_json::from_value(call["credentials"].clone()).unwrap();
                let credentials: Vec<(&str, &str)> =
                    credentials.iter().map(|(s, v)| (s.as_str(), v.as_str())).collect();
                request_codes(
                    |base| *base = ois,
                    call["endpoint"].as_str().unwrap(),
                    call["parameters"].clone(),
                    &credentials,
                )
            }
            "config.json" | "validate.json" => {
                let file = if kind == "config.json" { "config.json" } else { "ois.json" };
                let source = Source::from_text(file, None, read(name));
                shown(&ois::validate(&source, None).diagnostics, Some(&source))
            }
            "openapi.json" => {
                let options_file = dir.join(format!("{code}.options.json"));
                let options = match std::fs::read_to_string(&options_file) {
                    Ok(text) => serde_json::from_str::<ois::update::record::RecordedOptions>(&text)
                        .unwrap()
                        .convert_options()
                        .unwrap(),
                    Err(_) => ConvertOptions::default(),
                };
                converted(&Source::from_text("openapi.json", None, read(name)), &options)
            }
            kind if kind.starts_with("input.") => {
                let extension = kind.trim_start_matches("input.");
                text_codes(&format!("a.{extension}"), &std::fs::read(dir.join(name)).unwrap())
            }
            _ => continue,
        };
        cases.push((code, shown));
    }
    cases
}

/// `ois endpoint` edits of the base OIS: one of an endpoint it lacks (EDT001), one whose result
/// leaves a path parameter unmapped (EDT002, written nowhere), and a new parameter that maps no
/// operation parameter (EDT003).
fn edit_codes() -> Vec<(Code, Vec<Shown>)> {
    use ois::edit::{ParameterChange, Settings};
    use ois::jobs::endpoint::{EndpointEdit, EndpointJob};
    let drop = |name: &str| {
        let mut settings = Settings::default();
        settings.parameters.push((name.to_owned(), ParameterChange::Drop));
        settings
    };
    let edited = |edit: EndpointEdit| {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("api.ois.json");
        std::fs::write(&file, serde_json::to_string_pretty(&common::base_ois()).unwrap()).unwrap();
        match ois::jobs::endpoint::run(&EndpointJob::new(file, edit)) {
            Ok(report) => shown(&report.notes, None),
            Err(diagnostics) => shown(&diagnostics, None),
        }
    };
    let mut extra = Settings::default();
    extra.parameters.push(("extra".to_owned(), ParameterChange::Required));
    vec![
        (Code::BadEdit, edited(EndpointEdit::Set { name: "nope".into(), settings: Settings::default(), rename: None })),
        (Code::EditBreaksOis, edited(EndpointEdit::Set { name: "item".into(), settings: drop("id"), rename: None })),
        (Code::EditNote, edited(EndpointEdit::Set { name: "item".into(), settings: extra, rename: None })),
    ]
}

/// Every case: the code it must produce, and what it did produce.
fn cases() -> Vec<(Code, Vec<Shown>)> {
    let mut cases = file_cases();
    let none = ConvertOptions::default();
    let base = ConvertOptions::default().with_base_url("https://base.example");
    cases.extend(edit_codes());
    cases.extend([
        (Code::RefEscapes, escaping_ref_codes()),
        (Code::BadFilter, shown(&[ois::Filter::parse("GET /a/[").unwrap_err()], None)),
        (Code::NotOpenApiFile, {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("fragment.yaml"), "Pet: {}\n").unwrap();
            let mut job = ois::jobs::ConvertJob::default();
            job.inputs = vec![dir.path().to_path_buf()];
            job.output = Some(dir.path().join("out"));
            let Ok(ois::jobs::ConvertReport::Batch(results)) = ois::jobs::convert::run(&job, &|_| {}) else {
                panic!("a batch")
            };
            shown(&results.iter().flat_map(|r| r.diagnostics.clone()).collect::<Vec<_>>(), None)
        }),
    ]);
    let paths = json!({"/a": get_ok()});
    let with_servers = |servers: Value, options: &ConvertOptions| {
        let mut document = doc(paths.clone());
        document["servers"] = servers;
        convert_codes(document, options)
    };
    cases.extend([
        (
            Code::ServerVariableTemplate,
            with_servers(json!([{"url": "https://{x}.example", "variables": {"x": {"default": "{eu}"}}}]), &none),
        ),
        (
            Code::ServerVariableTemplate,
            with_servers(
                json!([{"url": "https://{x}.example", "variables": {"x": {"default": "eu"}}}]),
                &ConvertOptions::default().with_server_var("x", "a}b"),
            ),
        ),
        (
            Code::BadServerUrl,
            with_servers(json!([{"url": "https://{{x}}.example", "variables": {"x": {"default": "eu"}}}]), &none),
        ),
    ]);
    cases.extend([]);
    let op = |path: &str, method: &str, operation: Value| {
        convert_codes(doc(json!({path: {method: operation}, "/ok": get_ok()})), &none)
    };
    cases.extend([
        (Code::PathUnusable, op("/a b", "get", json!({}))),
        (Code::PathUnusable, op("/a/{{id}}", "get", json!({}))),
        (Code::UpdateNoBase, update_codes(api_doc(false, false), |_| {}, api_doc(false, false), false)),
        (
            Code::UpdateConflict,
            update_codes(
                api_doc(false, false),
                |ois| set(ois, "/endpoints/0/summary", json!("Mine")),
                {
                    let mut new = api_doc(false, false);
                    set(&mut new, "/paths/~1a/get/summary", json!("Theirs"));
                    new
                },
                true,
            ),
        ),
        (Code::EndpointRemoved, update_codes(api_doc(true, false), |_| {}, api_doc(false, false), true)),
        (Code::EndpointAdded, update_codes(api_doc(false, false), |_| {}, api_doc(true, false), true)),
        (Code::ApiParameterRemoved, update_codes(api_doc(false, true), |_| {}, api_doc(false, false), true)),
        (
            Code::ApiParameterMoved,
            update_codes(
                api_doc(false, true),
                |_| {},
                {
                    let mut new = api_doc(false, true);
                    set(&mut new, "/paths/~1a/get/parameters/0/in", json!("header"));
                    new
                },
                true,
            ),
        ),
        (
            Code::UpdateBreaksOis,
            update_codes(
                api_doc(false, true),
                // The user fixes `q` and maps another parameter to it; the API moves `q`.
                |ois| {
                    push(
                        ois,
                        "/endpoints/0/parameters",
                        json!({"name": "again", "operationParameter": {"in": "header", "name": "q"}}),
                    )
                },
                {
                    let mut new = api_doc(false, true);
                    set(&mut new, "/paths/~1a/get/parameters/0/in", json!("header"));
                    new
                },
                true,
            ),
        ),
        (Code::RecordUnreadable, {
            let dir = tempfile::tempdir().expect("temp dir");
            let path = dir.path().join("api.ois.convert.json");
            std::fs::write(&path, "{\"oisConvertRecord\": 1}").expect("write");
            let (_, problem) = ois::update::record::read(&path);
            shown(&problem.into_iter().collect::<Vec<_>>(), None)
        }),
        (Code::UpdateChanges, update_check_codes()),
        (Code::RecordChangesCalls, tampered_record_codes()),
        (Code::FormatMoved, format_moved_codes()),
        (Code::ParameterRenamed, {
            // The vendor renamed `q` to `query`; the OIS had fixed `q`.
            let mut renamed = api_doc(false, true);
            renamed["paths"]["/a"]["get"]["parameters"][0]["name"] = json!("query");
            let fix = |ois: &mut Value| {
                let endpoint = &mut ois["endpoints"][0];
                endpoint["parameters"] = json!([]);
                endpoint["fixedOperationParameters"] =
                    json!([{"operationParameter": {"in": "query", "name": "q"}, "value": "usd"}]);
            };
            update_codes(api_doc(false, true), fix, renamed, true)
        }),
        (Code::CredentialNotGiven, request_job_codes(None, None)),
        (
            Code::ServerReplaced,
            request_job_codes(Some("COIN_PRICES_API_DEMO_API_KEY_HEADER=k\n"), Some("http://127.0.0.1:9")),
        ),
        (Code::SecretsKept, secrets_kept_codes()),
        (Code::RelayValueMissing, {
            use ois::request::{Metadata, RequestOptions, build};
            let mut ois = base_ois();
            set(
                &mut ois,
                "/apiSpecifications/components/securitySchemes/sponsor",
                json!({"type": "relaySponsorAddress", "in": "cookie", "name": "sponsor"}),
            );
            set(&mut ois, "/apiSpecifications/security", json!({"sponsor": []}));
            let mut options = RequestOptions::new("item");
            options.parameters.insert("id".into(), json!("7"));
            options.metadata = Some(Metadata { chain_id: Some("1".into()), ..Metadata::default() });
            let source = source_of("ois.json", &ois);
            shown(&build(&ois, &options).expect("a request").diagnostics(), Some(&source))
        }),
        (Code::TemplateParameterUnknown, feed_template_codes(|_| {}, &["item:id=string32:7,nope=string32:x"], false)),
        (
            Code::TemplateParameterMissing,
            feed_template_codes(
                |ois| push(ois, "/endpoints/0/parameters", json!({"name": "extra", "required": true})),
                &["item:id=string32:7"],
                false,
            ),
        ),
        (
            Code::TemplateUnservable,
            feed_template_codes(
                |ois| set(ois, "/endpoints/0/reservedParameters", json!([])),
                &["item:id=string32:7"],
                false,
            ),
        ),
        (Code::BatchNotOneCall, feed_template_codes(|_| {}, &["item:id=string32:7", "item:id=string32:8"], true)),
        (Code::SelfCheckFailed, self_check_codes()),
        (Code::OutputExists, shown(&[output_exists()], None)),
        (Code::PathOutsideFolder, shown(&[path_outside_folder()], None)),
        (Code::OutputWrite, shown(&[output_unwritable()], None)),
        (Code::InputUnreadable, {
            shown(&[Source::read(std::path::Path::new("/nonexistent/input.yaml")).expect_err("missing file")], None)
        }),
        (Code::StrictWarnings, cli_codes(&["convert", "samples/orders.json", "--strict", "--report", "json"])),
        (Code::InputTooLarge, {
            let refused = Source::read_within(std::path::Path::new("samples/orders.json"), 100);
            shown(&[refused.expect_err("over the limit")], None)
        }),
        (Code::InputNotRegular, {
            shown(&[Source::read_regular(std::path::Path::new("samples")).expect_err("a folder")], None)
        }),
    ]);
    cases.push((Code::RelativeServer, with_servers(json!([{"url": "/v1"}]), &none)));
    assert!(!with_servers(json!([{"url": "/v1"}]), &base).iter().any(|(code, _)| *code == Code::RelativeServer));
    cases.extend([
        (Code::MissingSecret, shown(
                &[ois::request::Secrets::parse("").unwrap().interpolate("${OIS_TEST_UNSET_SECRET_1}", "").unwrap_err()],
                None,
            ),
        ),
        (Code::ResponseLenient, {
            let dir = tempfile::tempdir().expect("temp dir");
            let response = dir.path().join("response.json");
            std::fs::write(&response, r#"{"price": 1, "price": 2}"#).expect("write");
            let response = response.to_str().expect("UTF-8 path").to_owned();
            let args = ["--param", "_type=int256", "--param", "_path=price", "--response", response.as_str()];
            let mut shown = cli_text_codes(&[COINS_REQUEST, &args[..]].concat());
            for (_, text) in &mut shown {
                *text = text.replace(&response, "response.json");
            }
            shown
        }),
        (Code::InvalidOis, {
            let mut broken = base_ois();
            set(&mut broken, "/title", json!("a.b"));
            shown(&[ois::request::check_ois(&broken).unwrap_err()], Some(&source_of("ois.json", &broken)))
        }),
        (Code::OisChoice, {
            let config = json!({"ois": [base_ois(), base_ois()], "apiCredentials": []});
            let error = ois::request::select(&config, None, &ois::request::Secrets::default()).unwrap_err();
            shown(&[error], Some(&source_of("config.json", &config)))
        }),
        (Code::BadArgument, cli_text_codes(&[
                "request",
                "samples/expected/coins.ois.json",
                "--endpoint",
                "simplePrice",
                "--param-json",
                "ids=[not json",
            ]),
        ),
        (Code::BadSecretsEntry, shown(&[ois::request::Secrets::parse("API_KEY=x\napi_secret=y").unwrap_err()], None)),
        (Code::SecretExpression, shown(&[ois::request::Secrets::parse("").unwrap().interpolate("key=${A + B}", "/x").unwrap_err()], None),
        ),
        (Code::HostNotFound, shown(&[ois::call::host_not_found("api.example.invalid", "Name or service not known")], None),
        ),
        (Code::ConnectionFailed, {
            let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            let port = closed.local_addr().unwrap().port();
            drop(closed);
            call_codes(&format!("http://127.0.0.1:{port}"), ois::call::CallOptions::default())
        }),
        (Code::TlsFailed, {
            let base = serve(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}".to_vec(), 0);
            call_codes(&base.replacen("http://", "https://", 1), ois::call::CallOptions::default())
        }),
        (Code::CallTimeout, {
            let mut options = ois::call::CallOptions::default();
            options.timeout = std::time::Duration::from_millis(200);
            call_codes(&serve(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}".to_vec(), 2000), options)
        }),
        (Code::RedirectLoop, call_codes(
                &serve(b"HTTP/1.1 302 Found\r\nLocation: /again\r\nContent-Length: 0\r\n\r\n".to_vec(), 0),
                ois::call::CallOptions::default(),
            ),
        ),
        (Code::CredentialRedirected, credential_redirected_codes()),
        (Code::HttpStatus, call_codes(
                &serve(
                    b"HTTP/1.1 429 Too Many Requests\r\nContent-Length: 25\r\n\r\n{\"error\": \"rate limited\"}"
                        .to_vec(),
                    0,
                ),
                ois::call::CallOptions::default(),
            ),
        ),
        (Code::NotJson, call_codes(
                &serve(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 13\r\n\r\n<html></html>".to_vec(),
                    0,
                ),
                ois::call::CallOptions::default(),
            ),
        ),
        (Code::ResponseTooLarge, {
            let mut options = ois::call::CallOptions::default();
            options.max_response_bytes = 10;
            call_codes(
                &serve(b"HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n[1,2,3,4,5,6,7,8,9,0]".to_vec(), 0),
                options,
            )
        }),
        (Code::CallFailed, call_codes(&serve(b"NOT HTTP AT ALL\r\n\r\n".to_vec(), 0), ois::call::CallOptions::default()),
        ),
        (Code::BadTemplateParameter, {
            let parameter = ois::node::ids::TemplateParameter { kind: "uint256".into(), name: "decimals".into(), value: json!("-8") };
            shown(&[ois::node::ids::encode_parameters(&[parameter]).unwrap_err()], None)
        }),
        (Code::TemplateValueSurprise, {
            let parameter = ois::node::ids::TemplateParameter { kind: "bool".into(), name: "inverse".into(), value: json!("false") };
            shown(&ois::node::ids::encode_parameters(&[parameter]).unwrap().surprises, None)
        }),
        (Code::IdMismatch, {
            let feed = json!({"endpoints": {"0x3528e42b017a5fbf9d2993a2df04efc3ed474357575065a111b054ddf9de2acc": {"oisTitle": "Nodary", "endpointName": "price"}}, "templates": {}});
            shown(&ois::verify_ids(&feed).unwrap(), None)
        }),
        (Code::Unsandboxed, cli_text_codes(&[COINS_REQUEST, &["--engine", "node"]].concat())),
    ]);
    cases
}

/// `ois request` of the converted coins sample's price endpoint.
const COINS_REQUEST: &[&str] = &[
    "request",
    "samples/expected/coins.ois.json",
    "--endpoint",
    "simplePrice",
    "--param",
    "ids=x",
    "--param",
    "vs_currencies=usd",
];

/// A loopback server that answers every connection with `answer`, after `delay_ms`.
/// The server answers once per connection and closes it, so it says so: a client that kept the
/// connection for the next request (a redirect) would find it closed.
fn serve(answer: Vec<u8>, delay_ms: u64) -> String {
    use std::io::{Read, Write};
    let answer = match answer.windows(2).position(|w| w == b"\r\n") {
        Some(end) => [&answer[..end + 2], b"Connection: close\r\n", &answer[end + 2..]].concat(),
        None => answer,
    };
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let answer = answer.clone();
            std::thread::spawn(move || {
                let mut head = [0u8; 4096];
                let _ = stream.read(&mut head);
                std::thread::sleep(std::time::Duration::from_millis(delay_ms));
                let _ = stream.write_all(&answer);
            });
        }
    });
    base
}

/// `ois call` of the base OIS's endpoint against `base` (its server replaced).
/// A call whose API redirects to another port: the key in a custom header goes along (as the
/// node's client sends it), and the call says so.
fn credential_redirected_codes() -> Vec<Shown> {
    let target = serve(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1\r\n\r\n1".to_vec(), 0);
    let first =
        serve(format!("HTTP/1.1 302 Found\r\nLocation: {target}/items/1\r\nContent-Length: 0\r\n\r\n").into_bytes(), 0);
    let mut ois = base_ois();
    set(&mut ois, "/apiSpecifications/servers", json!([{"url": first}]));
    set(
        &mut ois,
        "/apiSpecifications/components/securitySchemes/key",
        json!({"type": "apiKey", "in": "header", "name": "X-Key"}),
    );
    let mut request = ois::request::RequestOptions::new("item");
    request.parameters.insert("id".into(), json!("1"));
    request.credentials =
        vec![ois::request::Credential { ois_title: "Base".into(), scheme: "key".into(), value: "s3cret-key".into() }];
    let called =
        ois::call::call(&ois, &request, &ois::processing::Engine::Embedded, &ois::call::CallOptions::default(), 0)
            .unwrap_or_else(|failure| panic!("{:?}", failure.stopped.diagnostic));
    let notes = called.reply.map(|reply| reply.notes).unwrap_or_default();
    let target_port = target.rsplit(':').next().unwrap_or_default().to_owned();
    shown(&notes, None).into_iter().map(|(code, text)| (code, text.replace(&target_port, "PORT"))).collect()
}

fn call_codes(base: &str, options: ois::call::CallOptions) -> Vec<Shown> {
    use ois::request::RequestOptions;
    let mut ois = base_ois();
    set(&mut ois, "/apiSpecifications/servers", json!([{"url": base}]));
    set(&mut ois, "/apiSpecifications/security", json!({}));
    let mut request = RequestOptions::new("item");
    request.parameters.insert("id".into(), json!("1"));
    match ois::call::call(&ois, &request, &ois::processing::Engine::Embedded, &options, 0) {
        Ok(_) => Vec::new(),
        Err(failure) => {
            let mut diagnostic = failure.stopped.diagnostic;
            diagnostic.message = diagnostic.message.replace(base, "http://127.0.0.1:PORT");
            let port = base.rsplit(':').next().unwrap_or_default();
            diagnostic.message = diagnostic.message.replace(port, "PORT");
            shown(&[diagnostic], None)
        }
    }
}

/// Calling the base OIS's endpoint with a V2 `phase`-processing snippet, in the embedded engine.
fn processing_codes(phase: &str, code: &str) -> Vec<Shown> {
    use ois::processing::Engine;
    use ois::request::{RequestOptions, exchange};
    let mut ois = base_ois();
    let snippet = json!({"environment": "Node", "value": code, "timeoutMs": 300});
    set(&mut ois, &format!("/endpoints/0/{phase}ProcessingSpecificationV2"), snippet);
    let mut options = RequestOptions::new("item");
    options.parameters.insert("id".into(), json!("1"));
    match exchange(&ois, &options, &Engine::Embedded, Some(&json!({"price": 1})), 0) {
        Ok(_) => Vec::new(),
        Err(stopped) => shown(&[stopped.diagnostic], None),
    }
}

/// Building a request for the base OIS (after `mutate`) with `parameters`.
fn request_codes(
    mutate: impl FnOnce(&mut Value),
    endpoint: &str,
    parameters: Value,
    credentials: &[(&str, &str)],
) -> Vec<Shown> {
    use ois::request::{Credential, RequestOptions, build};
    let mut ois = base_ois();
    mutate(&mut ois);
    let mut options = RequestOptions::new(endpoint);
    options.parameters = parameters.as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    options.credentials = credentials
        .iter()
        .map(|(scheme, value)| Credential {
            ois_title: "Base".into(),
            scheme: (*scheme).into(),
            value: (*value).into(),
        })
        .collect();
    let source = source_of("ois.json", &ois);
    match build(&ois, &options) {
        Ok(request) => shown(&request.diagnostics(), Some(&source)),
        Err(error) => shown(&[error], Some(&source)),
    }
}

fn response_codes(data: Value, reserved: Value) -> Vec<Shown> {
    match ois::request::extract_and_encode(&data, reserved.as_object().unwrap(), 0) {
        Ok(_) => vec![],
        Err(error) => shown(&[error], None),
    }
}

/// Converting a file whose parameter `$ref`s a file one folder up.
fn escaping_ref_codes() -> Vec<Shown> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("spec")).unwrap();
    std::fs::write(dir.path().join("shared.json"), r#"{"P": {"name": "p", "in": "query"}}"#).unwrap();
    let document = doc(json!({"/a": {"get": {"parameters": [{"$ref": "../shared.json#/P"}]}}, "/ok": get_ok()}));
    let path = dir.path().join("spec/api.json");
    std::fs::write(&path, document.to_string()).unwrap();
    converted(&Source::read(&path).unwrap(), &ConvertOptions::default())
}

/// An API with `GET /a` (with a query parameter `q` when `with_q`), and `GET /b` when `with_b`.
fn api_doc(with_b: bool, with_q: bool) -> Value {
    let parameters =
        if with_q { json!([{"name": "q", "in": "query", "schema": {"type": "string"}}]) } else { json!([]) };
    let mut paths = json!({"/a": {"get": {"operationId": "a", "parameters": parameters, "responses": {"200": {"description": "ok"}}}}});
    if with_b {
        paths["/b"] = get_ok();
    }
    json!({"openapi": "3.0.0", "info": {"title": "Updates", "version": "1.0.0"}, "servers": [{"url": "https://x.example"}], "paths": paths})
}

/// Updating what `old` converts to, refined by `refine`, with `new` (the base given when
/// `with_base`); the merge's diagnostics located in the refined OIS.
fn update_codes(old: Value, refine: impl FnOnce(&mut Value), new: Value, with_base: bool) -> Vec<Shown> {
    use ois::update::{UpdateOptions, update};
    let old_source = source_of("old.json", &old);
    let mut ours = convert(&old_source, &ConvertOptions::default()).expect("old converts").ois;
    refine(&mut ours);
    let ours_source = source_of("api.ois.json", &ours);
    let new_source = source_of("new.json", &new);
    let base = with_base.then_some(&old_source);
    match update(&new_source, base, &ours_source, &UpdateOptions::default()) {
        Ok(update) => shown(&update.diagnostics, None),
        Err(failure) => shown(&failure.diagnostics, None),
    }
}

/// `ois convert --update --check` of an OIS that is behind its document.
fn update_check_codes() -> Vec<Shown> {
    let dir = tempfile::tempdir().expect("temp dir");
    let (old, new, ois) = (dir.path().join("old.json"), dir.path().join("new.json"), dir.path().join("api.ois.json"));
    std::fs::write(&old, api_doc(false, false).to_string()).expect("write");
    std::fs::write(&new, api_doc(true, false).to_string()).expect("write");
    let output = common::ois()
        .args(["convert".as_ref(), old.as_os_str(), "-o".as_ref(), ois.as_os_str()])
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let output = common::ois()
        .args([
            "convert".as_ref(),
            new.as_os_str(),
            "--update".as_ref(),
            ois.as_os_str(),
            "--check".as_ref(),
            "--report".as_ref(),
            "json".as_ref(),
        ])
        .output()
        .expect("runs");
    let temp = dir.path().display().to_string();
    json_report_codes(&output.stderr).into_iter().map(|(code, text)| (code, text.replace(&temp, "<tmp>"))).collect()
}

/// An OIS written as 3.0.0, moved by `--update --target airnode-feed@3` to the format it reads.
fn format_moved_codes() -> Vec<Shown> {
    let dir = tempfile::tempdir().expect("temp dir");
    let ois = dir.path().join("api.ois.json");
    let output = common::ois()
        .args(["convert", "samples/coins.yaml", "--ois-format", "3.0.0", "-o"])
        .arg(&ois)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let output = common::ois()
        .args(["convert", "samples/coins.yaml", "--target", "airnode-feed@3", "--report", "json", "--update"])
        .arg(&ois)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let temp = dir.path().display().to_string();
    json_report_codes(&output.stderr).into_iter().map(|(code, text)| (code, text.replace(&temp, "<tmp>"))).collect()
}

/// `ois request` of coins.ois.json (one API-key scheme) as the library job runs it: with a
/// secrets file of `secrets` (none: no file), calling `server` instead of the OIS's.
fn request_job_codes(secrets: Option<&str>, server: Option<&str>) -> Vec<Shown> {
    use ois::jobs::request::{CallInputs, RequestJob, run};
    let dir = tempfile::tempdir().expect("temp dir");
    let mut inputs = CallInputs::new("samples/expected/coins.ois.json".into());
    inputs.parameters = vec![("ids".into(), "bitcoin".into(), false)];
    if let Some(text) = secrets {
        let path = dir.path().join("secrets.env");
        std::fs::write(&path, text).expect("write");
        inputs.secrets = Some(path);
    }
    inputs.server = server.map(str::to_owned);
    let report = run(&RequestJob::new(inputs, "simplePrice".into()), 0).expect("a request");
    shown(&report.diagnostics, report.source.as_ref())
}

/// An Airnode Feed config for the base OIS (changed by `mutate`) serving `feeds` (in one trigger
/// when `batched`), written without the scaffold's checks, then validated.
fn feed_template_codes(mutate: impl FnOnce(&mut Value), feeds: &[&str], batched: bool) -> Vec<Shown> {
    use ois::scaffold::node::{Feed, FeedOptions, feed_config};
    let mut ois = base_ois();
    mutate(&mut ois);
    let feeds: Vec<Feed> = feeds.iter().map(|text| Feed::parse(text).expect("a feed")).collect();
    let mut options = FeedOptions::default();
    options.batches = batched.then(|| vec![(0..feeds.len()).collect()]);
    let config = feed_config(&[ois], &feeds, &options).expect("a config").config;
    let source = source_of("config.json", &config);
    shown(&ois::validate(&source, None).diagnostics, Some(&source))
}

/// A scaffold's secrets template replacing a filled secrets file: its values kept.
fn secrets_kept_codes() -> Vec<Shown> {
    use ois::jobs::scaffold::{ScaffoldJob, ScaffoldKind, ScaffoldOutputs, run};
    let dir = tempfile::tempdir().expect("temp dir");
    let secrets = dir.path().join("secrets.env");
    std::fs::write(&secrets, "COIN_PRICES_API_DEMO_API_KEY_HEADER=k\nOLD_NAME=v\n").expect("write");
    let mut outputs = ScaffoldOutputs::default();
    outputs.output = Some(dir.path().join("config.json"));
    outputs.secrets_out = Some(secrets);
    outputs.force = true;
    let job = ScaffoldJob::new(
        vec!["samples/expected/coins.ois.json".into()],
        ScaffoldKind::Fragment { target: None },
        outputs,
    );
    let report = run(&job).expect("written");
    let temp = dir.path().display().to_string();
    shown(&report.diagnostics, None).into_iter().map(|(code, text)| (code, text.replace(&temp, "<tmp>"))).collect()
}

/// A record whose options were edited to send the OIS's calls elsewhere, found by `--check`.
fn tampered_record_codes() -> Vec<Shown> {
    let dir = tempfile::tempdir().expect("temp dir");
    let ois = dir.path().join("api.ois.json");
    let output = common::ois().args(["convert", "samples/coins.yaml", "-o"]).arg(&ois).output().expect("runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let record = dir.path().join("api.ois.convert.json");
    let mut value: Value = serde_json::from_slice(&std::fs::read(&record).expect("record")).expect("JSON");
    value["records"][0]["options"]["server"] = json!("https://attacker.example");
    std::fs::write(&record, serde_json::to_string_pretty(&value).expect("JSON")).expect("write");
    let output = common::ois()
        .args(["convert", "samples/coins.yaml", "--update"])
        .arg(&ois)
        .args(["--check", "--report", "json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1), "--check passes a tampered record");
    let temp = dir.path().display().to_string();
    json_report_codes(&output.stderr).into_iter().map(|(code, text)| (code, text.replace(&temp, "<tmp>"))).collect()
}

fn self_check_codes() -> Vec<Shown> {
    let mut broken = base_ois();
    set(&mut broken, "/title", json!("not.valid"));
    let failures = ois::convert::self_check(&broken, ois::FormatFamily::V3_0).expect_err("broken OIS");
    assert!(ois::convert::self_check(&base_ois(), ois::FormatFamily::V3_0).is_ok());
    // The generated OIS has no text: these are reported without a line.
    shown(&failures, Some(&source_of("ois.json", &broken)))
}

/// The diagnostics of the JSON report of an `ois` command, each as its JSON object.
fn cli_codes(args: &[&str]) -> Vec<Shown> {
    let output = common::ois().current_dir(env!("CARGO_MANIFEST_DIR")).args(args).output().expect("runs");
    json_report_codes(&output.stderr)
}

/// Each diagnostic of a JSON report (`--report json`), by its code.
fn json_report_codes(stderr: &[u8]) -> Vec<Shown> {
    let report: Value = serde_json::from_slice(stderr).expect("JSON report");
    report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| {
            let code = Code::ALL.iter().copied().find(|code| d["code"] == code.as_str())?;
            Some((code, serde_json::to_string_pretty(d).unwrap() + "\n"))
        })
        .collect()
}

/// Running the CLI with a text report: each diagnostic's block of stderr, by its code.
fn cli_text_codes(args: &[&str]) -> Vec<Shown> {
    let output =
        common::ois().current_dir(env!("CARGO_MANIFEST_DIR")).env("NO_COLOR", "1").args(args).output().expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let blocks: Vec<&str> = stderr.split("\n\n").collect();
    Code::ALL
        .iter()
        .flat_map(|code| {
            let tag = format!("[{}]", code.as_str());
            blocks.iter().filter(move |b| b.contains(&tag)).map(move |b| (*code, format!("{b}\n")))
        })
        .collect()
}

fn output_exists() -> Diagnostic {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("out.json");
    std::fs::write(&path, "old").expect("write");
    let error = ois::write_atomically(&path, "new", false).expect_err("must refuse");
    assert_eq!(std::fs::read_to_string(&path).expect("read"), "old");
    error
}

/// The studio asked for a file above its folder.
fn path_outside_folder() -> Diagnostic {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = ois::studio::Folder::new(dir.path()).expect("the folder");
    folder.existing("../config.json").expect_err("must refuse")
}

fn output_unwritable() -> Diagnostic {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("missing-folder/out.json");
    ois::write_atomically(&path, "new", true).expect_err("must fail")
}

/// Every case, computed once for all the tests of this file.
fn all_cases() -> &'static [(Code, Vec<Shown>)] {
    static CASES: OnceLock<Vec<(Code, Vec<Shown>)>> = OnceLock::new();
    CASES.get_or_init(cases)
}

/// The first case for `code` produces it, rendered exactly as `tests/codes/<CODE>.txt` says
/// (`EXPECTORATE=overwrite cargo test --test diagnostic_codes` rewrites them; review the diff).
fn check(code: Code) {
    let (_, produced) = all_cases().iter().find(|(c, _)| *c == code).unwrap_or_else(|| panic!("{code} has no case"));
    let Some((_, text)) = produced.iter().find(|(c, _)| *c == code) else {
        let codes: Vec<Code> = produced.iter().map(|(c, _)| *c).collect();
        panic!("{code}: the case produced {codes:?}");
    };
    let path = format!("{}/tests/codes/{code}.txt", env!("CARGO_MANIFEST_DIR"));
    expectorate::assert_contents(path, text);
}

macro_rules! one_test_per_code {
    ($($test:ident: $code:ident,)*) => {
        $(
            #[test]
            fn $test() {
                check(Code::$code);
            }
        )*

        #[test]
        fn every_code_has_a_test() {
            let tested = [$(Code::$code,)*];
            let missing: Vec<&Code> = Code::ALL.iter().filter(|c| !tested.contains(c)).collect();
            assert!(missing.is_empty(), "codes without a test: {missing:?}");
        }
    };
}

one_test_per_code! {
    ois073_bad_template_parameter: BadTemplateParameter,
    ois074_template_value_surprise: TemplateValueSurprise,
    ois075_id_mismatch: IdMismatch,
    cal001_host_not_found: HostNotFound,
    cal002_connection_failed: ConnectionFailed,
    cal003_tls_failed: TlsFailed,
    cal004_call_timeout: CallTimeout,
    cal005_redirect_loop: RedirectLoop,
    cal006_http_status: HttpStatus,
    cal007_not_json: NotJson,
    cal008_response_too_large: ResponseTooLarge,
    cal009_call_failed: CallFailed,
    cal010_credential_redirected: CredentialRedirected,
    edt001_bad_edit: BadEdit,
    edt002_edit_breaks_ois: EditBreaksOis,
    edt003_edit_note: EditNote,
    ois071_snippet_unrunnable: SnippetUnrunnable,
    ois072_no_snippet_result: NoSnippetResult,
    req030_processing_syntax: ProcessingSyntax,
    req031_processing_threw: ProcessingThrew,
    req032_processing_timeout: ProcessingTimeout,
    req033_processing_shape: ProcessingShape,
    req034_processing_value: ProcessingValue,
    req035_node_builtin: NodeBuiltin,
    req036_processing_engine: ProcessingEngine,
    req037_unsandboxed: Unsandboxed,
    inp001_input_unreadable: InputUnreadable,
    inp002_input_not_utf8: InputNotUtf8,
    inp003_input_empty: InputEmpty,
    inp004_json_syntax: JsonSyntax,
    inp005_yaml_syntax: YamlSyntax,
    inp006_too_deep: TooDeep,
    inp007_duplicate_key: DuplicateKey,
    inp008_alias_limit: AliasLimit,
    inp009_root_not_object: RootNotObject,
    inp010_not_a_number: NotANumber,
    inp011_input_too_large: InputTooLarge,
    inp012_input_not_regular: InputNotRegular,
    inp013_tag_ignored: TagIgnored,
    oas001_not_open_api: NotOpenApi,
    oas002_unsupported_version: UnsupportedVersion,
    oas010_ref_missing: RefMissing,
    oas011_ref_cycle: RefCycle,
    oas012_ref_external: RefExternal,
    oas013_ref_url: RefUrl,
    oas014_ref_malformed: RefMalformed,
    oas015_ref_escapes: RefEscapes,
    oas020_invalid_item: InvalidItem,
    oas021_schema_too_deep: SchemaTooDeep,
    cnv001_no_server: NoServer,
    cnv002_relative_server: RelativeServer,
    cnv003_bad_server_url: BadServerUrl,
    cnv004_server_choice: ServerChoice,
    cnv005_server_variable: ServerVariable,
    cnv006_server_chosen: ServerChosen,
    cnv007_operation_server: OperationServer,
    cnv008_base_url_unused: BaseUrlUnused,
    cnv009_server_variable_template: ServerVariableTemplate,
    cnv020_scheme_as_bearer: SchemeAsBearer,
    cnv021_scheme_dropped: SchemeDropped,
    cnv022_security_unmet: SecurityUnmet,
    cnv023_security_choice: SecurityChoice,
    cnv024_scheme_undefined: SchemeUndefined,
    cnv025_security_not_available: SecurityNotAvailable,
    cnv026_security_clash: SecurityClash,
    cnv030_method_skipped: MethodSkipped,
    cnv031_path_unusable: PathUnusable,
    cnv032_no_operations: NoOperations,
    cnv033_path_reserved_placeholder: PathReservedPlaceholder,
    cnv034_bad_filter: BadFilter,
    cnv035_operations_filtered: OperationsFiltered,
    cnv036_not_open_api_file: NotOpenApiFile,
    cnv037_filter_unmatched: FilterUnmatched,
    cnv040_header_ignored: HeaderIgnored,
    cnv041_reserved_name: ReservedName,
    cnv042_path_param_added: PathParamAdded,
    cnv043_path_param_dropped: PathParamDropped,
    cnv044_duplicate_parameter: DuplicateParameter,
    cnv045_param_location: ParamLocation,
    cnv046_param_renamed: ParamRenamed,
    cnv047_default_not_written: DefaultNotWritten,
    cnv048_header_name_invalid: HeaderNameInvalid,
    cnv050_body_on_get: BodyOnGet,
    cnv051_body_unsupported: BodyUnsupported,
    cnv052_body_form_encoded: BodyFormEncoded,
    cnv053_body_nested: BodyNested,
    cnv054_body_union: BodyUnion,
    cnv055_body_not_object: BodyNotObject,
    cnv056_body_collision: BodyCollision,
    cnv057_body_read_only: BodyReadOnly,
    cnv058_body_free_form: BodyFreeForm,
    cnv060_endpoint_renamed: EndpointRenamed,
    cnv070_title_changed: TitleChanged,
    cnv071_version_changed: VersionChanged,
    cnv072_template_escaped: TemplateEscaped,
    cnv073_template_nested: TemplateNested,
    cnv099_self_check_failed: SelfCheckFailed,
    ois001_wrong_type: WrongType,
    ois002_missing_field: MissingField,
    ois003_unknown_field: UnknownField,
    ois004_bad_ois_format: BadOisFormat,
    ois005_bad_title: BadTitle,
    ois006_bad_version: BadVersion,
    ois007_open_api_not_ois: OpenApiNotOis,
    ois010_server_count: ServerCount,
    ois011_invalid_server_url: InvalidServerUrl,
    ois012_server_not_absolute_http: ServerNotAbsoluteHttp,
    ois013_server_trailing_slash: ServerTrailingSlash,
    ois014_bad_path_key: BadPathKey,
    ois015_bad_method: BadMethod,
    ois016_bad_location: BadLocation,
    ois017_reserved_operation_parameter: ReservedOperationParameter,
    ois018_path_template_mismatch: PathTemplateMismatch,
    ois019_duplicate_operation_parameter: DuplicateOperationParameter,
    ois020_bad_security_scheme: BadSecurityScheme,
    ois021_unmapped_parameter: UnmappedParameter,
    ois022_unknown_operation_parameter: UnknownOperationParameter,
    ois023_parameter_mapped_twice: ParameterMappedTwice,
    ois024_unknown_operation: UnknownOperation,
    ois025_undefined_security: UndefinedSecurity,
    ois026_security_not_empty: SecurityNotEmpty,
    ois027_bad_parameter_name: BadParameterName,
    ois028_duplicate_parameter_name: DuplicateParameterName,
    ois029_underscore_parameter_name: UnderscoreParameterName,
    ois030_not_a_string: NotAString,
    ois031_bad_reserved_name: BadReservedName,
    ois032_fixed_and_default: FixedAndDefault,
    ois033_bad_reserved_number: BadReservedNumber,
    ois034_missing_type: MissingType,
    ois035_bad_processing: BadProcessing,
    ois036_processing_both_forms: ProcessingBothForms,
    ois037_no_operation_rules: NoOperationRules,
    ois038_fixed_value_missing: FixedValueMissing,
    ois039_duplicate_endpoint_name: DuplicateEndpointName,
    ois040_bad_enum_value: BadEnumValue,
    ois050_empty_fixed: EmptyFixed,
    ois051_unencodable_type: UnencodableType,
    ois052_array_type_broken: ArrayTypeBroken,
    ois053_timestamp_with_path: TimestampWithPath,
    ois054_times_not_numeric: TimesNotNumeric,
    ois055_path_value_unsafe: PathValueUnsafe,
    ois056_path_unencoded: PathUnencoded,
    ois057_reserved_count_mismatch: ReservedCountMismatch,
    ois058_bad_header_name: BadHeaderName,
    ois059_schemes_clash: SchemesClash,
    ois060_unescaped_template: UnescapedTemplate,
    ois061_unknown_credential_title: UnknownCredentialTitle,
    ois062_unknown_credential_scheme: UnknownCredentialScheme,
    ois063_missing_credential: MissingCredential,
    ois064_literal_secret: LiteralSecret,
    ois065_duplicate_title: DuplicateTitle,
    ois066_relay_with_gateway: RelayWithGateway,
    ois067_bad_trigger: BadTrigger,
    ois068_concurrency_too_low: ConcurrencyTooLow,
    ois069_bad_mnemonic: BadMnemonic,
    ois070_bad_template_id: BadTemplateId,
    req001_unknown_endpoint: UnknownEndpoint,
    req002_missing_path_value: MissingPathValue,
    req003_missing_secret: MissingSecret,
    req004_path_value_changes_url: PathValueChangesUrl,
    req005_basic_not_base64: BasicNotBase64,
    req006_invalid_request_url: InvalidRequestUrl,
    req007_invalid_ois: InvalidOis,
    req008_ois_choice: OisChoice,
    req009_bad_argument: BadArgument,
    req010_parameter_ignored: ParameterIgnored,
    req011_invalid_header_value: InvalidHeaderValue,
    req012_response_lenient: ResponseLenient,
    req013_bad_secrets_entry: BadSecretsEntry,
    req014_secret_expression: SecretExpression,
    req015_client_refused: ClientRefused,
    req020_value_not_found: ValueNotFound,
    req021_cast_failed: CastFailed,
    req022_invalid_type: InvalidType,
    req023_reserved_mismatch: ReservedMismatch,
    req024_encoded_too_large: EncodedTooLarge,
    req025_encoding_failed: EncodingFailed,
    out001_output_exists: OutputExists,
    inp014_path_outside_folder: PathOutsideFolder,
    out002_output_write: OutputWrite,
    out003_strict_warnings: StrictWarnings,
    cnv080_update_no_base: UpdateNoBase,
    cnv081_update_conflict: UpdateConflict,
    cnv082_endpoint_removed: EndpointRemoved,
    cnv083_endpoint_added: EndpointAdded,
    cnv084_api_parameter_removed: ApiParameterRemoved,
    cnv085_api_parameter_moved: ApiParameterMoved,
    cnv086_update_breaks_ois: UpdateBreaksOis,
    cnv087_record_unreadable: RecordUnreadable,
    cnv088_update_changes: UpdateChanges,
    cnv089_record_changes_calls: RecordChangesCalls,
    cnv090_format_moved: FormatMoved,
    cnv091_parameter_renamed: ParameterRenamed,
    cnv049_credential_parameter: CredentialParameter,
    req016_credential_not_given: CredentialNotGiven,
    req017_server_replaced: ServerReplaced,
    out004_secrets_kept: SecretsKept,
    ois076_template_parameter_unknown: TemplateParameterUnknown,
    ois077_template_parameter_missing: TemplateParameterMissing,
    ois078_template_unservable: TemplateUnservable,
    ois079_batch_not_one_call: BatchNotOneCall,
    ois080_undecodable_parameters: UndecodableParameters,
    req018_relay_value_missing: RelayValueMissing,
}

/// docs/diagnostics.md's code table is generated from the code list; `UPDATE_README=1 cargo test` rewrites it.
#[test]
fn readme_code_table_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/diagnostics.md");
    let readme = std::fs::read_to_string(path).expect("docs/diagnostics.md");
    let start_marker = "<!-- codes:start (generated from src/diagnostic/codes.rs) -->\n";
    let end_marker = "<!-- codes:end -->";
    let start = readme.find(start_marker).expect("start marker") + start_marker.len();
    let end = readme.find(end_marker).expect("end marker");
    let mut table = String::from("| code | severity | meaning |\n|---|---|---|\n");
    for code in Code::ALL {
        table.push_str(&format!(
            "| `{code}` | {} | {} |\n",
            code.severity().as_str(),
            code.summary().replace('|', "\\|")
        ));
    }
    if readme[start..end] != table {
        if std::env::var_os("UPDATE_README").is_some() {
            std::fs::write(path, format!("{}{table}{}", &readme[..start], &readme[end..]))
                .expect("write docs/diagnostics.md");
        } else {
            panic!(
                "the code table of docs/diagnostics.md is out of date: run UPDATE_README=1 cargo test --test diagnostic_codes"
            );
        }
    }
}

/// What a code's severity means for the user, on its page.
fn why_it_matters(code: Code) -> &'static str {
    match code.severity() {
        ois::Severity::Error => {
            "It is an error: the node would reject the input or fail on it, so `ois` exits 1 and writes nothing."
        }
        ois::Severity::Warning => {
            "It is a warning: the node would run, but not as the document or the user likely meant; `--strict` makes it an error."
        }
        _ => "It is a note: what `ois` decided or kept, said so that nothing changes in silence.",
    }
}

/// The page of one code: what it means, why it matters, how to fix it, and an example taken from
/// the code's own test (its input when the test reads one from a file, and the rendered
/// diagnostic).
fn code_page(code: Code) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/codes");
    let shown = std::fs::read_to_string(dir.join(format!("{code}.txt"))).unwrap_or_default();
    let shown = shown.trim_end();
    let mut page = format!(
        "# {code}: {}\n\n{} · stage `{}`\n\n{}\n",
        code.summary(),
        code.severity().as_str(),
        code.stage().prefix(),
        why_it_matters(code)
    );
    // The help as the code's test gave it, without the `ois explain` every help ends with.
    let suffix = format!(" (ois explain {code})");
    let helps: Vec<&str> = shown
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("= help: "))
        .filter_map(|help| help.strip_suffix(suffix.as_str()))
        .collect();
    if !helps.is_empty() {
        page.push_str("\n## How to fix it\n\n");
        for help in helps.iter().take(3) {
            page.push_str(&format!("- {help}\n"));
        }
    }
    let mut inputs: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/codes")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            name.starts_with(&format!("{code}.")) && !name.ends_with(".txt")
        })
        .collect();
    inputs.sort();
    page.push_str("\n## Example\n\n");
    for input in inputs {
        let text = std::fs::read_to_string(&input).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let cut = if lines.len() > 40 { format!("\n… ({} more lines)", lines.len() - 40) } else { String::new() };
        let name = input.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        page.push_str(&format!(
            "`{name}`:\n\n```text\n{}{cut}\n```\n\n",
            lines.iter().take(40).copied().collect::<Vec<_>>().join("\n")
        ));
    }
    page.push_str(&format!("What `ois` says:\n\n```text\n{shown}\n```\n"));
    page
}

/// One page per code in docs/codes/, generated from the code table and each code's test; the
/// binary's `ois explain` pages are the same files. `UPDATE_README=1 cargo test` rewrites them.
#[test]
fn every_code_has_its_current_page() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("docs/codes");
    let update = std::env::var_os("UPDATE_README").is_some();
    let mut stale = Vec::new();
    let mut index = String::from(
        "// Generated by tests/diagnostic_codes.rs (`UPDATE_README=1 cargo test --test diagnostic_codes`):\n// each code's page, for `ois explain`.\n\npub(crate) const PAGES: &[(&str, &str)] = &[\n",
    );
    for code in Code::ALL {
        let page = code_page(*code);
        let path = dir.join(format!("{code}.md"));
        if std::fs::read_to_string(&path).ok().as_deref() != Some(page.as_str()) {
            if update {
                std::fs::create_dir_all(&dir).expect("docs/codes");
                std::fs::write(&path, &page).expect("write a page");
            } else {
                stale.push(code.as_str());
            }
        }
        index.push_str(&format!("    (\"{code}\", include_str!(\"../../docs/codes/{code}.md\")),\n"));
    }
    index.push_str("];\n");
    let index_path = root.join("src/cli/explain_pages.rs");
    if std::fs::read_to_string(&index_path).ok().as_deref() != Some(index.as_str()) {
        if update {
            std::fs::write(&index_path, &index).expect("write the page index");
        } else {
            stale.push("src/cli/explain_pages.rs");
        }
    }
    // No page for a code that is gone.
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().trim_end_matches(".md").to_owned();
        if !Code::ALL.iter().any(|c| c.as_str() == name) {
            if update {
                std::fs::remove_file(entry.path()).expect("remove a stale page");
            } else {
                stale.push("a page of a code that is gone");
            }
        }
    }
    assert!(
        stale.is_empty(),
        "missing or stale pages: {stale:?}: run UPDATE_README=1 cargo test --test diagnostic_codes"
    );
}
