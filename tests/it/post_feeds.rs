//! Feeds by name on a vendor whose operations are POST with a JSON body: the feed endpoint on
//! `POST /{path}`, each feed's body in the tables with its JSON types, and every command that
//! knows the feeds (list, request, call, scaffold, validate, export and import, update) on it.

use serde_json::{Value, json};

use crate::common::server::{Server, answer};
use crate::feeds::{feed_ok as ok, feed_refused as refused};

/// A quotes vendor: one POST operation, its body a symbol, optional fields and depth, and a
/// format of one value (the conversion fixes it).
fn vendor() -> Value {
    let body = json!({"type": "object", "required": ["symbol", "format"], "properties": {
        "symbol": {"type": "string", "example": "WTI"},
        "fields": {"type": "array", "items": {"type": "string"}},
        "depth": {"$ref": "#/components/schemas/Depth"},
        "format": {"type": "string", "enum": ["json"]}}});
    json!({"openapi": "3.0.3", "info": {"title": "Quotes", "version": "1.0.0"},
        "servers": [{"url": "https://quotes.example.com"}],
        "paths": {"/v1/quote": {"post": {"operationId": "getQuote",
            "requestBody": {"required": true, "content": {"application/json": {"schema": body}}},
            "responses": {"200": {"description": "ok"}}}},
            "/v1/status": {"get": {"operationId": "status", "responses": {"200": {"description": "ok"}}}}},
        "components": {"schemas": {"Depth": {"type": "integer"}}}})
}

pub(crate) fn two_feeds(d: &std::path::Path) {
    std::fs::write(d.join("vendor.json"), vendor().to_string()).unwrap();
    ok(d, &["convert", "vendor.json", "-o", "q.ois.json", "-q"]);
    let add = ["feed", "add", "q.ois.json", "--openapi", "vendor.json", "--operation", "getQuote"];
    let wti = [&add[..], &["WTI/USD", "--body", r#"{"symbol": "WTI", "fields": ["last"]}"#]].concat();
    ok(d, &[&wti[..], &["--param-json", "depth=2", "--value", "data.last"]].concat());
    // Text for an integer is sent as the integer the document says it is.
    ok(
        d,
        &[&add[..], &["BRENT/USD", "--param", "symbol=BRENT", "--param", "depth=3", "--value", "data.last"]].concat(),
    );
}

/// The quotes vendor on loopback: a POST's JSON body answered by its symbol.
pub(crate) fn quotes_server() -> Server {
    Server::start(|request, stream| {
        let body: Value = serde_json::from_str(&request.body).unwrap_or_default();
        let last = match (request.method.as_str(), body["symbol"].as_str(), body["format"].as_str()) {
            ("POST", Some("WTI"), Some("json")) => 71.25,
            ("POST", Some("BRENT"), Some("json")) => 75.5,
            _ => {
                answer(stream, "400 Bad Request", "application/json", "", br#"{"error": "bad body"}"#);
                return;
            }
        };
        answer(stream, "200 OK", "application/json", "", json!({"data": {"last": last}}).to_string().as_bytes());
    })
}

#[test]
fn post_feeds_by_name_are_written_requested_called_and_scaffolded_with_their_json_bodies() {
    let server = quotes_server();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    two_feeds(d);

    let ois: Value = serde_json::from_str(&std::fs::read_to_string(d.join("q.ois.json")).unwrap()).unwrap();
    let feed = ois["endpoints"].as_array().unwrap().iter().find(|e| e["name"] == "feed").unwrap();
    assert_eq!(feed["operation"], json!({"method": "post", "path": "/{path}"}));
    let declared = &ois["apiSpecifications"]["paths"]["/{path}"]["post"]["parameters"];
    assert!(declared.as_array().unwrap().contains(&json!({"in": "query", "name": "fields"})), "{declared}");

    let listed: Value = serde_json::from_str(&ok(d, &["feed", "list", "q.ois.json", "--format", "json"])).unwrap();
    assert_eq!(
        listed["feeds"][0]["parameters"],
        json!({"symbol": "WTI", "fields": ["last"], "depth": 2, "format": "json"})
    );
    assert_eq!(listed["feeds"][1]["parameters"], json!({"symbol": "BRENT", "depth": 3, "format": "json"}));

    let request = ok(d, &["request", "q.ois.json", "--feed", "WTI/USD", "--format", "json"]);
    let request: Value = serde_json::from_str(&request).unwrap();
    assert_eq!(request["method"], "POST");
    assert_eq!(request["body"], json!({"symbol": "WTI", "fields": ["last"], "depth": 2, "format": "json"}));

    let called = ok(d, &["call", "q.ois.json", "--all-feeds", "--server", &server.base, "--format", "json"]);
    let called: Value = serde_json::from_str(&called).unwrap();
    let values: Vec<&Value> = called["beacons"].as_array().unwrap().iter().map(|b| &b["values"][0]).collect();
    assert_eq!(values, [&json!("71250000000000000000"), &json!("75500000000000000000")], "{called}");
    let bodies: Vec<Value> = server.take().iter().map(|r| serde_json::from_str(&r.body).unwrap()).collect();
    assert!(bodies.contains(&json!({"symbol": "BRENT", "depth": 3, "format": "json"})), "{bodies:?}");

    let picked = ok(d, &["call", "q.ois.json", "--feed", "BRENT/USD", "--server", &server.base, "--paths"]);
    assert!(picked.contains("ois feed set q.ois.json BRENT/USD --value data.last"), "{picked}");
    ok(d, &["scaffold", "feed", "q.ois.json", "--all-feeds", "-o", "feed.json", "--secrets-out", "feed.env"]);
    ok(d, &["validate", "feed.json"]);
    let config: Value = serde_json::from_str(&std::fs::read_to_string(d.join("feed.json")).unwrap()).unwrap();
    assert_eq!(config["templates"].as_object().unwrap().len(), 2);
}

#[test]
fn post_feeds_keep_their_method_through_export_import_and_an_update_and_refuse_a_mix() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    two_feeds(d);
    let before = ok(d, &["feed", "list", "q.ois.json", "--format", "json"]);

    ok(d, &["feed", "export", "q.ois.json", "blueprints"]);
    let blueprint: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("blueprints/WTI-USD.json")).unwrap()).unwrap();
    assert_eq!(blueprint["method"], "post");
    ok(d, &["feed", "export", "q.ois.json", "feeds.json"]);
    ok(d, &["convert", "vendor.json", "-o", "fresh.ois.json", "-q"]);
    ok(d, &["feed", "import", "fresh.ois.json", "feeds.json", "--openapi", "vendor.json"]);
    assert_eq!(ok(d, &["feed", "list", "fresh.ois.json", "--format", "json"]), before);

    ok(d, &["convert", "vendor.json", "--update", "q.ois.json", "-q"]);
    assert_eq!(ok(d, &["feed", "list", "q.ois.json", "--format", "json"]), before);
    let mut gone = vendor();
    gone["paths"].as_object_mut().unwrap().shift_remove("/v1/quote");
    std::fs::write(d.join("gone.json"), gone.to_string()).unwrap();
    let stderr = refused(d, &["convert", "gone.json", "--update", "q.ois.json"]);
    assert!(stderr.contains("CNV092") && stderr.contains("POST /v1/quote"), "{stderr}");

    // One endpoint has one method; a value the document types otherwise is refused.
    let add = ["feed", "add", "q.ois.json", "--openapi", "vendor.json"];
    let stderr = refused(d, &[&add[..], &["UP", "--operation", "status", "--value", "up"]].concat());
    assert!(stderr.contains("one endpoint has one method"), "{stderr}");
    let stderr = refused(
        d,
        &[
            &add[..],
            &["X/USD", "--operation", "getQuote", "--param", "symbol=X", "--param", "depth=two", "--value", "a"],
        ]
        .concat(),
    );
    assert!(stderr.contains("\"depth\" is integer") && stderr.contains("--param-json depth="), "{stderr}");
    let stderr = refused(
        d,
        &["feed", "add", "q.ois.json", "Y", "--operation", "GET /v1/status", "--param-json", "n=1", "--value", "a"],
    );
    assert!(stderr.contains("JSON values are for a POST's body"), "{stderr}");
    assert_eq!(ok(d, &["feed", "list", "q.ois.json", "--format", "json"]), before);
}
