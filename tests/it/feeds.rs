//! Feeds by name (`ois feed`): API3's production `feed` endpoint read, rebuilt and kept by
//! commands, checked against the twelve production OIS files built on `GET /{path}`.

use crate::common;

use serde_json::Value;

/// The production OIS files whose one endpoint is `feed` on `GET /{path}`.
fn production() -> Vec<(String, Value)> {
    let dir = common::shared_dir().join("examples/ois");
    let mut found: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .expect("examples folder")
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let ois: Value = serde_json::from_str(&std::fs::read_to_string(&path).ok()?).ok()?;
            ois.pointer("/apiSpecifications/paths/~1{path}")?;
            Some((path.file_name()?.to_string_lossy().into_owned(), ois))
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

#[test]
fn the_tables_read_from_production_are_written_back_as_api3_s_scripts_wrote_them() {
    let oises = production();
    assert_eq!(oises.len(), 12);
    let mut feeds = 0;
    for (file, ois) in &oises {
        let tables = ois::feeds::read(ois).unwrap_or_else(|e| panic!("{file}: {e:?}")).expect("a feed endpoint");
        assert!(tables.parsers_without_request.is_empty(), "{file}");
        assert!(tables.feeds.iter().all(|f| f.parser.is_some()), "{file}");
        feeds += tables.feeds.len();
        let endpoint = &ois["endpoints"][0];
        let pre = ois::feeds::pre_processing_code(&tables.feeds);
        let post = ois::feeds::post_processing_code(&tables.feeds);
        assert_eq!(pre, endpoint["preProcessingSpecificationV2"]["value"].as_str().unwrap(), "{file}: pre");
        assert_eq!(post, endpoint["postProcessingSpecificationV2"]["value"].as_str().unwrap(), "{file}: post");
    }
    assert_eq!(feeds, 1217, "every name of the twelve");
}

/// `ois` + `feed`… run in `dir`, its stdout; panics with stderr on failure.
pub(crate) fn feed_ok(dir: &std::path::Path, args: &[&str]) -> String {
    let output = common::ois().current_dir(dir).args(args).output().expect("runs");
    assert!(output.status.success(), "ois {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `ois` + args run in `dir`, expected to fail: its stderr.
pub(crate) fn feed_refused(dir: &std::path::Path, args: &[&str]) -> String {
    let output = common::ois().current_dir(dir).args(args).output().expect("runs");
    assert_eq!(output.status.code(), Some(1), "ois {args:?} should fail");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The production OIS without its feed endpoint and `GET /{path}`: what an integrator has before
/// `ois feed` (servers and security from `ois convert`).
fn without_feeds(ois: &Value) -> Value {
    let mut base = ois.clone();
    base["endpoints"] = serde_json::json!([]);
    base["apiSpecifications"]["paths"].as_object_mut().unwrap().shift_remove("/{path}");
    base
}

fn request_of(ois: &Value, name: &str) -> (String, Value) {
    let mut options = ois::request::RequestOptions::new("feed");
    options.parameters.insert("name".to_owned(), Value::String(name.to_owned()));
    options.mode = ois::request::Mode::Feed;
    let prepared = ois::request::prepare(ois, &options, &ois::processing::Engine::Embedded)
        .unwrap_or_else(|e| panic!("{name}: {:?}", e.diagnostic));
    let request = prepared.request.expect("an API call");
    (request.url, Value::Object(request.headers))
}

#[test]
fn every_production_feed_endpoint_is_rebuilt_by_commands_and_asks_the_same_for_every_name() {
    let dir = tempfile::tempdir().unwrap();
    let mut names = 0;
    for (file, production) in production() {
        let base = dir.path().join(&file);
        std::fs::write(&base, serde_json::to_string_pretty(&without_feeds(&production)).unwrap()).unwrap();
        let from = common::shared_dir().join("examples/ois").join(&file);
        feed_ok(dir.path(), &["feed", "import", base.to_str().unwrap(), from.to_str().unwrap()]);
        let rebuilt: Value = serde_json::from_str(&std::fs::read_to_string(&base).unwrap()).unwrap();
        let (ours, theirs) = (&rebuilt["endpoints"][0], &production["endpoints"][0]);
        for key in ["preProcessingSpecificationV2", "postProcessingSpecificationV2", "reservedParameters", "operation"]
        {
            assert_eq!(ours[key], theirs[key], "{file}: {key}");
        }
        assert!(ois::validate_value(&rebuilt, None).diagnostics.iter().all(|d| !d.is_error()), "{file}");
        for feed in ois::feeds::read(&rebuilt).unwrap().unwrap().feeds {
            assert_eq!(request_of(&rebuilt, &feed.name), request_of(&production, &feed.name), "{file}: {}", feed.name);
            names += 1;
        }
    }
    assert_eq!(names, 1217, "every name of the twelve");
}

/// A vendor's document: two GET operations feeds can use, and a POST one they cannot.
fn vendor() -> Value {
    serde_json::json!({
        "openapi": "3.0.3",
        "info": {"title": "Coin Prices", "version": "1.0.0"},
        "servers": [{"url": "https://api.coins.example/v3"}],
        "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "x-api-key"}}},
        "security": [{"key": []}],
        "paths": {
            "/simple/price": {"get": {
                "operationId": "simplePrice",
                "parameters": [
                    {"name": "ids", "in": "query", "required": true, "schema": {"type": "string"}},
                    {"name": "vs_currencies", "in": "query", "required": true, "schema": {"type": "string"}},
                    {"name": "precision", "in": "query", "schema": {"type": "string"}}
                ],
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}
            }},
            "/tickers/{coin_id}": {"get": {
                "operationId": "ticker",
                "parameters": [
                    {"name": "coin_id", "in": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "quotes", "in": "query", "schema": {"type": "string"}}
                ],
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}
            }},
            "/orders": {"post": {
                "operationId": "order",
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}
            }}
        }
    })
}

#[test]
fn the_feed_loop_by_commands_add_batch_list_request_export_import_remove() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("vendor.json"), vendor().to_string()).unwrap();
    feed_ok(d, &["convert", "vendor.json", "-o", "api.ois.json"]);
    let add = |name: &str, more: &[&str]| {
        let mut args = vec!["feed", "add", "api.ois.json", name, "--openapi", "vendor.json"];
        args.extend_from_slice(more);
        feed_ok(d, &args)
    };
    add(
        "BTC/USD",
        &[
            "--operation",
            "simplePrice",
            "--param",
            "ids=bitcoin",
            "--param",
            "vs_currencies=usd",
            "--value",
            "bitcoin.usd",
        ],
    );
    add(
        "ETH/USD",
        &[
            "--operation",
            "GET /simple/price",
            "--param",
            "ids=ethereum",
            "--param",
            "vs_currencies=usd",
            "--value",
            "ethereum.usd",
        ],
    );
    add(
        "AAVE/USD",
        &[
            "--operation",
            "ticker",
            "--param",
            "coin_id=aave-new",
            "--param",
            "quotes=USD",
            "--value",
            "quotes.USD.price",
        ],
    );

    // The vendor's document says no.
    for (args, says) in [
        (vec!["--operation", "simplePrice", "--param", "ids=x", "--value", "x.usd"], "requires vs_currencies"),
        (
            vec![
                "--operation",
                "simplePrice",
                "--param",
                "ids=x",
                "--param",
                "vs_currencies=usd",
                "--param",
                "nope=1",
                "--value",
                "a",
            ],
            "has no parameter \"nope\"",
        ),
        (vec!["--operation", "order", "--value", "a"], "one endpoint has one method"),
        (vec!["--operation", "missing", "--value", "a"], "no operation ID \"missing\""),
        (vec!["--operation", "ticker", "--value", "a"], "give its path parameter(s) coin_id"),
    ] {
        let mut full = vec!["feed", "add", "api.ois.json", "NEW/USD", "--openapi", "vendor.json"];
        full.extend(args);
        let stderr = feed_refused(d, &full);
        assert!(stderr.contains("EDT004") && stderr.contains(says), "{says}: {stderr}");
    }
    let taken = feed_refused(
        d,
        &[
            "feed",
            "add",
            "api.ois.json",
            "BTC/USD",
            "--operation",
            "GET /simple/price",
            "--param",
            "ids=b",
            "--value",
            "b",
        ],
    );
    assert!(taken.contains("served already"), "{taken}");
    let long =
        feed_refused(d, &["feed", "add", "api.ois.json", &"X".repeat(32), "--operation", "GET /a", "--value", "b"]);
    assert!(long.contains("string32"), "{long}");

    feed_ok(d, &["feed", "batch", "api.ois.json", "BTC/USD", "ETH/USD"]);
    let listed: Value =
        serde_json::from_str(&feed_ok(d, &["feed", "list", "api.ois.json", "--format", "json"])).unwrap();
    let feeds = listed["feeds"].as_array().unwrap();
    assert_eq!(feeds.len(), 3);
    assert_eq!(feeds[0]["parameters"], serde_json::json!({"ids": "bitcoin,ethereum", "vs_currencies": "usd"}));
    assert_eq!(feeds[1]["parameters"], feeds[0]["parameters"]);
    assert_eq!(feeds[2]["path"], "tickers/aave-new");
    let text = feed_ok(d, &["feed", "list", "api.ois.json"]);
    assert!(text.contains("quotes.USD.price") && text.contains("bitcoin.usd"), "{text}");

    // The OIS passes every rule, and each name asks the vendor what its feed needs.
    feed_ok(d, &["validate", "api.ois.json"]);
    let shown = feed_ok(d, &["request", "api.ois.json", "--feed", "AAVE/USD", "--format", "json"]);
    let shown: Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(shown["url"], "https://api.coins.example/v3/tickers/aave-new?quotes=USD", "{shown}");
    let unknown = feed_refused(d, &["request", "api.ois.json", "--feed", "DOGE/USD"]);
    assert!(unknown.contains("serves no feed \"DOGE/USD\""), "{unknown}");

    // Blueprints out and back in: the same endpoint.
    feed_ok(d, &["feed", "export", "api.ois.json", "blueprints", "--batches", "batches.json"]);
    let btc: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("blueprints/BTC-USD.json")).unwrap()).unwrap();
    assert_eq!(btc["path"], "simple/price");
    assert_eq!(btc["parser"], "(response) => {\n  return response.bitcoin.usd\n}");
    let batches: Value = serde_json::from_str(&std::fs::read_to_string(d.join("batches.json")).unwrap()).unwrap();
    assert_eq!(batches["supportedFeedsInBatches"]["Coin Prices"], serde_json::json!([["BTC/USD", "ETH/USD"]]));
    feed_ok(d, &["convert", "vendor.json", "-o", "again.ois.json"]);
    feed_ok(d, &["feed", "import", "again.ois.json", "blueprints"]);
    let (first, again): (Value, Value) = (
        serde_json::from_str(&std::fs::read_to_string(d.join("api.ois.json")).unwrap()).unwrap(),
        serde_json::from_str(&std::fs::read_to_string(d.join("again.ois.json")).unwrap()).unwrap(),
    );
    let feed_of =
        |ois: &Value| ois["endpoints"].as_array().unwrap().iter().find(|e| e["name"] == "feed").cloned().unwrap();
    // Blueprint files come back in file-name order; the requests and values are the same.
    let (ours, theirs) = (ois::feeds::read(&first).unwrap().unwrap(), ois::feeds::read(&again).unwrap().unwrap());
    let mut sorted = ours.feeds.clone();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    assert_eq!(sorted, theirs.feeds);
    assert_eq!(feed_of(&first)["reservedParameters"], feed_of(&again)["reservedParameters"]);

    // A rename and a value changed; the last feed removed takes the endpoint and GET /{path}.
    feed_ok(
        d,
        &["feed", "set", "api.ois.json", "AAVE/USD", "--value", "quotes.USD.ath_price", "--rename", "AAVE/USD ATH"],
    );
    let text = feed_ok(d, &["feed", "list", "api.ois.json"]);
    assert!(text.contains("AAVE/USD ATH") && text.contains("quotes.USD.ath_price"), "{text}");
    feed_ok(d, &["feed", "rm", "api.ois.json", "BTC/USD", "ETH/USD", "AAVE/USD ATH"]);
    let emptied: Value = serde_json::from_str(&std::fs::read_to_string(d.join("api.ois.json")).unwrap()).unwrap();
    assert!(emptied["endpoints"].as_array().unwrap().iter().all(|e| e["name"] != "feed"));
    assert!(emptied.pointer("/apiSpecifications/paths/~1{path}").is_none());
}

#[test]
fn a_feed_endpoint_with_hand_written_processing_is_not_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let mut ois = common::base_ois();
    ois["endpoints"][0]["name"] = "feed".into();
    std::fs::write(dir.path().join("o.json"), ois.to_string()).unwrap();
    let stderr = feed_refused(dir.path(), &["feed", "list", "o.json"]);
    assert!(stderr.contains("EDT005"), "{stderr}");
    let stderr = feed_refused(dir.path(), &["feed", "add", "o.json", "A/B", "--operation", "GET /x", "--value", "a"]);
    assert!(stderr.contains("EDT005"), "{stderr}");
}

/// The OIS of [`vendor`] with three feeds, two of them one call.
fn three_feeds(d: &std::path::Path) {
    std::fs::write(d.join("vendor.json"), vendor().to_string()).unwrap();
    feed_ok(d, &["convert", "vendor.json", "-o", "api.ois.json", "--secrets-out", "secrets.env"]);
    for args in [
        ["BTC/USD", "simplePrice", "ids=bitcoin", "vs_currencies=usd", "bitcoin.usd"],
        ["ETH/USD", "simplePrice", "ids=ethereum", "vs_currencies=usd", "ethereum.usd"],
        ["AAVE/USD", "ticker", "coin_id=aave-new", "quotes=USD", "quotes.USD.price"],
    ] {
        let [name, operation, first, second, value] = args;
        feed_ok(
            d,
            &[
                "feed",
                "add",
                "api.ois.json",
                name,
                "--openapi",
                "vendor.json",
                "--operation",
                operation,
                "--param",
                first,
                "--param",
                second,
                "--value",
                value,
            ],
        );
    }
    feed_ok(d, &["feed", "batch", "api.ois.json", "BTC/USD", "ETH/USD"]);
    std::fs::write(d.join("secrets.env"), "COIN_PRICES_KEY=the-key\n").unwrap();
}

#[test]
fn every_feed_is_a_template_and_the_feeds_one_call_answers_share_a_trigger() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    three_feeds(d);
    feed_ok(d, &["scaffold", "feed", "api.ois.json", "--all-feeds", "-o", "feed.json", "--secrets-out", "feed.env"]);
    let config: Value = serde_json::from_str(&std::fs::read_to_string(d.join("feed.json")).unwrap()).unwrap();
    let templates = config["templates"].as_object().unwrap();
    let names: Vec<&Value> = templates.values().map(|t| &t["parameters"][0]["value"]).collect();
    assert_eq!(names, ["BTC/USD", "ETH/USD", "AAVE/USD"]);
    assert!(
        templates.values().all(|t| t["parameters"][0]["type"] == "string32" && t["parameters"][0]["name"] == "name")
    );
    let triggers = config["triggers"]["signedApiUpdates"].as_array().unwrap();
    let sizes: Vec<usize> = triggers.iter().map(|t| t["templateIds"].as_array().unwrap().len()).collect();
    assert_eq!(sizes, [2, 1]);
    assert!(triggers.iter().all(|t| t["fetchInterval"].as_u64() > Some(0)));
    feed_ok(d, &["validate", "feed.json"]);
    // `ois ids --all-feeds` on the OIS names the config's templates, by feed name.
    let ids: Value =
        serde_json::from_str(&feed_ok(d, &["ids", "api.ois.json", "--all-feeds", "--format", "json"])).unwrap();
    let listed: Vec<(&Value, &Value)> =
        ids["templates"].as_array().unwrap().iter().map(|t| (&t["templateId"], &t["parameters"][0]["value"])).collect();
    let configured: Vec<(Value, &Value)> =
        templates.iter().map(|(id, t)| (Value::from(id.as_str()), &t["parameters"][0]["value"])).collect();
    assert_eq!(listed, configured.iter().map(|(id, name)| (id, *name)).collect::<Vec<_>>());
}

#[test]
fn call_all_feeds_calls_the_api_once_per_batch_and_reads_each_feed_s_value() {
    use crate::common::server::{Server, answer};
    let server = Server::start(|request, stream| {
        let body = if request.path().starts_with("/v3/simple/price") {
            r#"{"bitcoin": {"usd": 67000.5}, "ethereum": {"usd": 3500.25}}"#
        } else {
            r#"{"quotes": {"USD": {"price": 91.75}}}"#
        };
        answer(stream, "200 OK", "application/json", "", body.as_bytes());
    });
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    three_feeds(d);
    let base = format!("{}/v3", server.base);
    let out = feed_ok(
        d,
        &["call", "api.ois.json", "--all-feeds", "--secrets", "secrets.env", "--server", &base, "--format", "json"],
    );
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["apiCalls"], 2, "{report}");
    let values: Vec<(&Value, &Value)> =
        report["beacons"].as_array().unwrap().iter().map(|b| (&b["feed"], &b["values"][0])).collect();
    assert_eq!(
        values,
        [
            (&Value::from("BTC/USD"), &Value::from("67000500000000000000000")),
            (&Value::from("ETH/USD"), &Value::from("3500250000000000000000")),
            (&Value::from("AAVE/USD"), &Value::from("91750000000000000000")),
        ]
    );
    let received = server.take();
    assert_eq!(received.len(), 2);
    assert!(received.iter().all(|r| r.header("x-api-key") == Some("the-key")));
    assert!(
        received.iter().any(|r| r.target == "/v3/simple/price?ids=bitcoin,ethereum&vs_currencies=usd"),
        "{:?}",
        received.iter().map(|r| r.target.clone()).collect::<Vec<_>>()
    );
    let text = feed_ok(
        d,
        &["call", "api.ois.json", "--feed", "AAVE/USD", "--secrets", "secrets.env", "--server", &base, "--paths"],
    );
    assert!(text.contains("ois feed set api.ois.json AAVE/USD --value quotes.USD.price"), "{text}");
}

#[test]
fn an_update_keeps_every_feed_and_refuses_one_whose_operation_went() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    three_feeds(d);
    let before = feed_ok(d, &["feed", "list", "api.ois.json", "--format", "json"]);
    let mut changed = vendor();
    changed["paths"]["/simple/price"]["get"]["parameters"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"name": "include_24hr_vol", "in": "query", "schema": {"type": "boolean"}}));
    std::fs::write(d.join("changed.json"), changed.to_string()).unwrap();
    feed_ok(d, &["convert", "changed.json", "--update", "api.ois.json"]);
    assert_eq!(feed_ok(d, &["feed", "list", "api.ois.json", "--format", "json"]), before);
    feed_ok(d, &["convert", "changed.json", "--update", "api.ois.json", "--check"]);

    changed["paths"].as_object_mut().unwrap().shift_remove("/tickers/{coin_id}");
    std::fs::write(d.join("gone.json"), changed.to_string()).unwrap();
    let kept = std::fs::read_to_string(d.join("api.ois.json")).unwrap();
    let stderr = feed_refused(d, &["convert", "gone.json", "--update", "api.ois.json"]);
    assert!(stderr.contains("CNV092") && stderr.contains("\"AAVE/USD\" calls GET /tickers/{coin_id}"), "{stderr}");
    assert_eq!(std::fs::read_to_string(d.join("api.ois.json")).unwrap(), kept);
}

#[test]
fn batches_come_from_api3_s_file_and_blueprints_from_one_array() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("vendor.json"), vendor().to_string()).unwrap();
    feed_ok(d, &["convert", "vendor.json", "-o", "api.ois.json"]);
    let blueprints = serde_json::json!([
        {"name": "BTC/USD", "parameters": {"ids": "bitcoin", "vs_currencies": "usd"}, "path": "simple/price", "parser": "(response) => response.bitcoin.usd"},
        {"name": "ETH/USD", "parameters": {"ids": "ethereum", "vs_currencies": "usd"}, "path": "simple/price", "parser": "(response) => response.ethereum.usd"},
        {"name": "SOL/USD", "parameters": {"ids": "solana", "vs_currencies": "usd"}, "path": "simple/price", "parser": "(response) => response.solana.usd"},
    ]);
    std::fs::write(d.join("feeds.json"), blueprints.to_string()).unwrap();
    std::fs::write(
        d.join("api-data.json"),
        serde_json::json!({"alias": "coins", "supportedFeedsInBatches": {"Coin Prices": [["BTC/USD", "SOL/USD"]]}})
            .to_string(),
    )
    .unwrap();
    feed_ok(
        d,
        &["feed", "import", "api.ois.json", "feeds.json", "--openapi", "vendor.json", "--batches", "api-data.json"],
    );
    let listed: Value =
        serde_json::from_str(&feed_ok(d, &["feed", "list", "api.ois.json", "--format", "json"])).unwrap();
    let ids: Vec<&Value> = listed["feeds"].as_array().unwrap().iter().map(|f| &f["parameters"]["ids"]).collect();
    assert_eq!(ids, ["bitcoin,solana", "ethereum", "bitcoin,solana"]);
    // A blueprint the vendor's document does not have: every problem named, nothing written.
    let before = std::fs::read_to_string(d.join("api.ois.json")).unwrap();
    let wrong = serde_json::json!([
        {"name": "X/USD", "parameters": {"coin": "x"}, "path": "simple/price", "parser": "(r) => r"},
        {"name": "Y/USD", "parameters": {}, "path": "nowhere", "parser": "(r) => r"},
    ]);
    std::fs::write(d.join("wrong.json"), wrong.to_string()).unwrap();
    let stderr = feed_refused(d, &["feed", "import", "api.ois.json", "wrong.json", "--openapi", "vendor.json"]);
    assert!(
        stderr.contains("X/USD: GET /simple/price has no parameter \"coin\"")
            && stderr.contains("Y/USD: no GET operation"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(d.join("api.ois.json")).unwrap(), before);
    // An import whose batches file is bad, or names a feed it does not have, writes nothing either.
    std::fs::write(d.join("bad.json"), "{not json").unwrap();
    let more = serde_json::json!([{"name": "DOGE/USD", "parameters": {"ids": "dogecoin", "vs_currencies": "usd"}, "path": "simple/price", "parser": "(r) => r.dogecoin.usd"}]);
    std::fs::write(d.join("more.json"), more.to_string()).unwrap();
    let unknown = serde_json::json!({"supportedFeedsInBatches": {"Coin Prices": [["DOGE/USD", "NOPE/USD"]]}});
    std::fs::write(d.join("unknown.json"), unknown.to_string()).unwrap();
    for batches in ["bad.json", "unknown.json"] {
        feed_refused(d, &["feed", "import", "api.ois.json", "more.json", "--batches", batches]);
        assert_eq!(std::fs::read_to_string(d.join("api.ois.json")).unwrap(), before, "{batches}");
    }
    // A batches file that is a FIFO nobody writes to is refused, not waited on.
    #[cfg(unix)]
    {
        let fifo = d.join("batches.fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let started = std::time::Instant::now();
        feed_refused(d, &["feed", "batch", "api.ois.json", "--batches", fifo.to_str().unwrap()]);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
    // A path holding a line break is refused, not imported to be printed raw.
    let broken = serde_json::json!([{"name": "CR/LF", "parameters": {}, "path": "simple/price\r\nX-Injected: 1", "parser": "(r) => r"}]);
    std::fs::write(d.join("broken.json"), broken.to_string()).unwrap();
    let stderr = feed_refused(d, &["feed", "import", "api.ois.json", "broken.json"]);
    assert!(stderr.contains("control character"), "{stderr}");
    // A feed named `..` goes out to a file of its own and comes back.
    let dots = serde_json::json!([{"name": "..", "parameters": {"ids": "x", "vs_currencies": "usd"}, "path": "simple/price", "parser": "(r) => r.x.usd"}]);
    std::fs::write(d.join("dots.json"), dots.to_string()).unwrap();
    feed_ok(d, &["feed", "import", "api.ois.json", "dots.json"]);
    feed_ok(d, &["feed", "export", "api.ois.json", "dots-out"]);
    feed_ok(d, &["convert", "vendor.json", "-o", "again.ois.json"]);
    feed_ok(d, &["feed", "import", "again.ois.json", "dots-out"]);
    let listed: Value =
        serde_json::from_str(&feed_ok(d, &["feed", "list", "again.ois.json", "--format", "json"])).unwrap();
    assert!(listed["feeds"].as_array().unwrap().iter().any(|f| f["name"] == ".."), "{listed}");
    feed_ok(d, &["feed", "rm", "api.ois.json", ".."]);
    // One array out, and a batch of feeds on two paths refused.
    feed_ok(d, &["feed", "export", "api.ois.json", "out.json"]);
    let out: Value = serde_json::from_str(&std::fs::read_to_string(d.join("out.json")).unwrap()).unwrap();
    assert_eq!(out.as_array().unwrap().len(), 3);
    assert_eq!(
        out[1],
        serde_json::json!({"name": "ETH/USD", "parameters": {"ids": "ethereum", "vs_currencies": "usd"}, "path": "simple/price", "parser": "(response) => response.ethereum.usd"})
    );
    feed_ok(
        d,
        &[
            "feed",
            "set",
            "api.ois.json",
            "ETH/USD",
            "--operation",
            "GET /tickers/{coin_id}",
            "--param",
            "coin_id=eth-ethereum",
            "--value",
            "quotes.USD.price",
        ],
    );
    let stderr = feed_refused(d, &["feed", "batch", "api.ois.json", "BTC/USD", "ETH/USD"]);
    assert!(stderr.contains("call different paths"), "{stderr}");
    feed_ok(d, &["feed", "set", "api.ois.json", "SOL/USD", "--drop-param", "vs_currencies"]);
    let listed: Value =
        serde_json::from_str(&feed_ok(d, &["feed", "list", "api.ois.json", "--format", "json"])).unwrap();
    assert_eq!(listed["feeds"][1]["path"], "tickers/eth-ethereum");
    assert_eq!(listed["feeds"][2]["parameters"], serde_json::json!({"ids": "bitcoin,solana"}));
}

/// A parser that throws on a recorded answer fails its row when the feeds are replayed, the
/// others read as before: the check of every parser against real answers, without the vendor.
#[test]
fn a_parser_that_throws_on_a_recorded_answer_fails_its_feed_on_replay() {
    use crate::common::server::{Server, answer};
    let server = Server::start(|_, stream| {
        answer(
            stream,
            "200 OK",
            "application/json",
            "",
            br#"{"bitcoin": {"usd": 67000.5}, "ethereum": {"usd": 3500.25}, "quotes": {"USD": {"price": 1}}}"#,
        );
    });
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    three_feeds(d);
    let base = format!("{}/v3", server.base);
    feed_ok(
        d,
        &["call", "api.ois.json", "--all-feeds", "--secrets", "secrets.env", "--server", &base, "--record", "answers"],
    );
    std::fs::write(
        d.join("throws.js"),
        "(response) => { if (!response.bitcoin.eur) throw new Error('no EUR price'); return response.bitcoin.eur }\n",
    )
    .unwrap();
    feed_ok(d, &["feed", "set", "api.ois.json", "BTC/USD", "--parser", "throws.js"]);
    let output = common::ois()
        .current_dir(d)
        .args([
            "call",
            "api.ois.json",
            "--all-feeds",
            "--secrets",
            "secrets.env",
            "--server",
            &base,
            "--replay",
            "answers",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let verdicts: Vec<(&str, &str)> = report["beacons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["feed"].as_str().unwrap(), b["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(verdicts, [("BTC/USD", "processing failed"), ("ETH/USD", "ok"), ("AAVE/USD", "ok")], "{report}");
    assert!(report.to_string().contains("no EUR price"), "{report}");
    assert!(server.take().len() == 2, "the replay sent nothing");
}
