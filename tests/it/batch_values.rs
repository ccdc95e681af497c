//! A wrong value never passes in silence: feeds answered by one call each read their own element
//! of the answer, or a command says which of them read the same one. The shapes of the third
//! integrator trial, rebuilt: a vendor answering a batch with an array in request order.

use serde_json::Value;

use crate::common;
use crate::common::server::{Server, answer};

/// `ois` + args run in `dir`: its exit code, stdout and stderr.
fn run(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let output = common::ois().current_dir(dir).args(args).output().expect("runs");
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code(), text(&output.stdout), text(&output.stderr))
}

fn ok(dir: &std::path::Path, args: &[&str]) -> String {
    let (code, stdout, stderr) = run(dir, args);
    assert_eq!(code, Some(0), "ois {args:?}: {stderr}");
    stdout
}

/// A metals vendor: `GET /spot/summary?metals=gold,silver` answers an array, one element per
/// metal asked, in the order asked.
fn metals_vendor() -> Value {
    serde_json::json!({
        "openapi": "3.0.3",
        "info": {"title": "Metals", "version": "1.0.0"},
        "servers": [{"url": "https://api.metals.example"}],
        "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "query", "name": "api_key"}}},
        "security": [{"key": []}],
        "paths": {"/spot/summary": {"get": {
            "operationId": "spotSummary",
            "parameters": [{"name": "metals", "in": "query", "required": true, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array"}}}}}
        }}}
    })
}

/// The vendor's prices: gold 2345.6, silver 29.85, platinum `platinum`.
fn serve_metals(platinum: f64) -> Server {
    Server::start(move |request, stream| {
        let asked = request.target.split("metals=").nth(1).unwrap_or_default().split('&').next().unwrap_or_default();
        let elements: Vec<Value> = asked
            .split(',')
            .map(|metal| {
                let last = match metal {
                    "gold" => 2345.6,
                    "silver" => 29.85,
                    _ => platinum,
                };
                serde_json::json!({"requestedSymbol": metal, "data": {"last": last, "ask": last + 1.0}})
            })
            .collect();
        answer(stream, "200 OK", "application/json", "", Value::Array(elements).to_string().as_bytes());
    })
}

/// The vendor's document and its OIS, with a feed for each (name, metal) of `feeds`, each read at
/// `value`, added as the trial added them.
fn metal_feeds(d: &std::path::Path, feeds: &[(&str, &str)], value: &str) {
    std::fs::write(d.join("metals.json"), metals_vendor().to_string()).unwrap();
    ok(d, &["convert", "metals.json", "-o", "metals.ois.json", "-q"]);
    for (name, metal) in feeds {
        let metal = format!("metals={metal}");
        let add = ["feed", "add", "metals.ois.json", name, "--openapi", "metals.json", "--operation", "spotSummary"];
        ok(d, &[add.as_slice(), &["--param", &metal, "--value", value]].concat());
    }
}

/// The vendor's OIS with XAU/USD, XAG/USD and XPT/USD, each added as the trial added them (the
/// first element's price), then made one call.
fn three_metals(d: &std::path::Path) -> String {
    metal_feeds(d, &[("XAU/USD", "gold"), ("XAG/USD", "silver"), ("XPT/USD", "platinum")], "0.data.last");
    std::fs::write(d.join("secrets.env"), "METALS_KEY=k-1\n").unwrap();
    let (code, _, stderr) = run(d, &["feed", "batch", "metals.ois.json", "XAU/USD", "XAG/USD", "XPT/USD"]);
    assert_eq!(code, Some(0), "{stderr}");
    stderr
}

fn values_by_feed(report: &Value) -> Vec<(String, Value)> {
    report["beacons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["feed"].as_str().unwrap().to_owned(), b["values"][0].clone()))
        .collect()
}

#[test]
fn a_batch_of_a_positional_array_reads_each_feed_s_own_element() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let said = three_metals(d);
    assert!(said.contains("XAG/USD at 1.data.last (element 1 of the answer, as metals lists it)"), "{said}");
    let listed = ok(d, &["feed", "list", "metals.ois.json"]);
    for (name, path) in [("XAU/USD", "0.data.last"), ("XAG/USD", "1.data.last"), ("XPT/USD", "2.data.last")] {
        assert!(listed.lines().any(|l| l.starts_with(name) && l.ends_with(path)), "{name}: {listed}");
    }
    let server = serve_metals(980.1);
    let out = ok(
        d,
        &[
            "call",
            "metals.ois.json",
            "--all-feeds",
            "--secrets",
            "secrets.env",
            "--server",
            &server.base,
            "--format",
            "json",
        ],
    );
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["apiCalls"], 1, "{report}");
    assert_eq!(
        values_by_feed(&report),
        [
            ("XAU/USD".to_owned(), Value::from("2345600000000000000000")),
            ("XAG/USD".to_owned(), Value::from("29850000000000000000")),
            ("XPT/USD".to_owned(), Value::from("980100000000000000000")),
        ]
    );
    let read_from: Vec<&str> =
        report["beacons"].as_array().unwrap().iter().map(|b| b["readFrom"].as_str().unwrap()).collect();
    assert_eq!(read_from, ["0.data.last", "1.data.last", "2.data.last"]);
    // The picker after the batched call proposes only what is inside silver's own element.
    let picked = ok(
        d,
        &[
            "call",
            "metals.ois.json",
            "--feed",
            "XAG/USD",
            "--secrets",
            "secrets.env",
            "--server",
            &server.base,
            "--paths",
        ],
    );
    assert!(picked.contains("The leaves of element 1 of the answer, XAG/USD's own"), "{picked}");
    assert!(picked.contains("1.data.ask") && !picked.contains("0.data") && !picked.contains("2.data"), "{picked}");
    assert!(picked.contains("ois feed set metals.ois.json XAG/USD --value 1.data."), "{picked}");
    // Pointing one back at gold's element is said at once, and `validate --strict` fails on it.
    let (code, _, stderr) = run(d, &["feed", "set", "metals.ois.json", "XAG/USD", "--value", "0.data.last"]);
    assert_eq!(code, Some(0));
    assert!(stderr.contains("OIS092") && stderr.contains("\"XAU/USD\" and \"XAG/USD\""), "{stderr}");
    let (code, stdout, _) = run(d, &["validate", "metals.ois.json", "--strict"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("warning[OIS092]"), "{stdout}");
}

#[test]
fn a_batch_whose_feeds_would_read_one_value_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    metal_feeds(d, &[("XAU/USD", "gold"), ("XAG/USD", "silver")], "data.last");
    let before = std::fs::read_to_string(d.join("metals.ois.json")).unwrap();
    let (code, _, stderr) = run(d, &["feed", "batch", "metals.ois.json", "XAU/USD", "XAG/USD"]);
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("\"XAU/USD\" and \"XAG/USD\" would read the same value of the one answer (data.last)"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(d.join("metals.ois.json")).unwrap(), before);
}

#[test]
fn feeds_of_one_call_that_get_the_same_value_fail_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    three_metals(d);
    // Platinum priced as silver is: the run cannot tell a true tie from a misread element.
    let server = serve_metals(29.85);
    let args = ["call", "metals.ois.json", "--all-feeds", "--secrets", "secrets.env", "--server", &server.base];
    let (code, stdout, stderr) = run(d, &args);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    let shown = format!("{stdout}{stderr}");
    assert!(shown.contains("CAL013"), "{shown}");
    assert!(shown.contains("feed \"XAG/USD\" and feed \"XPT/USD\" got the same value"), "{shown}");
    assert!(shown.contains("--allow-equal"), "{shown}");
    let allowed = [args.as_slice(), &["--allow-equal", "--format", "json"]].concat();
    let report: Value = serde_json::from_str(&ok(d, &allowed)).unwrap();
    assert_eq!(report["failed"], 0, "{report}");
}

/// The push token is one value: a Signed API scaffold made with the Feed's secrets carries it
/// into its own, and `validate FEED SIGNED_API --secrets …` fails on the two typed differently
/// (the Feed's 403 otherwise), never showing either value.
#[test]
fn the_push_token_is_carried_and_the_pair_checked_with_their_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    three_metals(d);
    ok(
        d,
        &["scaffold", "feed", "metals.ois.json", "--all-feeds", "-o", "feed.json", "--secrets-out", "feed.env", "-q"],
    );
    std::fs::write(
        d.join("feed.env"),
        "AIRNODE_WALLET_MNEMONIC=test test test test test test test test test test test junk\nSIGNED_API_AUTH_TOKEN=push-7781\nMETALS_KEY=k-1\n",
    )
    .unwrap();
    ok(
        d,
        &[
            "scaffold",
            "signed-api",
            "feed.json",
            "--secrets",
            "feed.env",
            "-o",
            "sa.json",
            "--secrets-out",
            "sa.env",
            "-q",
        ],
    );
    let carried = std::fs::read_to_string(d.join("sa.env")).unwrap();
    assert!(carried.contains("\nSIGNED_API_AUTH_TOKEN=push-7781\n"), "{carried}");
    let filled = carried
        .replace("SIGNED_API_REAL_TIME_TOKEN=\n", "SIGNED_API_REAL_TIME_TOKEN=rt-1\n")
        .replace("SIGNED_API_OEV_TOKEN=\n", "SIGNED_API_OEV_TOKEN=oev-1\n");
    std::fs::write(d.join("sa.env"), &filled).unwrap();
    let pair = ["validate", "feed.json", "sa.json", "--secrets", "feed.env", "--secrets", "sa.env"];
    ok(d, &pair);
    std::fs::write(d.join("sa.env"), filled.replace("push-7781", "push-7718")).unwrap();
    let (code, stdout, stderr) = run(d, &pair);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("SIGNED_API_AUTH_TOKEN has one value in feed.env and another in sa.env"), "{stdout}");
    assert!(!format!("{stdout}{stderr}").contains("push-77"), "a token shown: {stdout}{stderr}");
}

/// A feed is checked against the vendor's paths and parameters: a document whose server URL is
/// relative is no reason to refuse it (the check once failed with a help naming an option the
/// command does not take).
#[test]
fn a_feed_is_checked_against_a_document_whose_server_is_relative() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut relative = metals_vendor();
    relative["servers"] = serde_json::json!([{"url": "/api/v1"}]);
    std::fs::write(d.join("metals.json"), metals_vendor().to_string()).unwrap();
    std::fs::write(d.join("relative.json"), relative.to_string()).unwrap();
    ok(d, &["convert", "metals.json", "-o", "metals.ois.json", "-q"]);
    let add = |param: &str| {
        run(
            d,
            &[
                "feed",
                "add",
                "metals.ois.json",
                "XRH/USD",
                "--openapi",
                "relative.json",
                "--operation",
                "spotSummary",
                "--param",
                param,
                "--value",
                "0.data.last",
            ],
        )
    };
    let (code, _, stderr) = add("metals=rhodium");
    assert_eq!(code, Some(0), "{stderr}");
    let (code, _, stderr) = add("metal=rhodium");
    assert_eq!(code, Some(1));
    assert!(stderr.contains("has no parameter \"metal\"") && !stderr.contains("--base-url"), "{stderr}");
}

/// With a sample of the answer whose elements name what they are, each feed of a batch finds its
/// own element by that field (`requestedSymbol`), so a vendor answering in another order than
/// asked still gives each feed its own value.
#[test]
fn a_batch_with_a_sample_answer_finds_each_element_by_the_field_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    metal_feeds(d, &[("XAU/USD", "gold"), ("XAG/USD", "silver")], "0.data.last");
    std::fs::write(
        d.join("sample.json"),
        r#"[{"requestedSymbol": "gold", "data": {"last": 1}}, {"requestedSymbol": "silver", "data": {"last": 2}}]"#,
    )
    .unwrap();
    let (code, _, said) =
        run(d, &["feed", "batch", "metals.ois.json", "XAU/USD", "XAG/USD", "--answer", "sample.json"]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("XAG/USD in the element whose requestedSymbol is silver"), "{said}");
    // The vendor answers silver first.
    let server = Server::start(|_, stream| {
        let body = r#"[{"requestedSymbol": "silver", "data": {"last": 29.85}}, {"requestedSymbol": "gold", "data": {"last": 2345.6}}]"#;
        answer(stream, "200 OK", "application/json", "", body.as_bytes());
    });
    std::fs::write(d.join("secrets.env"), "METALS_KEY=k-1\n").unwrap();
    let out = ok(
        d,
        &[
            "call",
            "metals.ois.json",
            "--all-feeds",
            "--secrets",
            "secrets.env",
            "--server",
            &server.base,
            "--format",
            "json",
        ],
    );
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        values_by_feed(&report),
        [
            ("XAU/USD".to_owned(), Value::from("2345600000000000000000")),
            ("XAG/USD".to_owned(), Value::from("29850000000000000000")),
        ]
    );
    // Each value shows what named its element.
    let read_from: Vec<&str> =
        report["beacons"].as_array().unwrap().iter().map(|b| b["readFrom"].as_str().unwrap()).collect();
    assert_eq!(
        read_from,
        [r#"requestedSymbol = "gold", then data.last"#, r#"requestedSymbol = "silver", then data.last"#]
    );
}

/// A staging copy of a Feed config: the config and a server, no feeds asked for, make the same
/// templates, triggers and IDs with every OIS calling that server.
#[test]
fn a_feed_config_and_a_server_make_its_staging_copy() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    three_metals(d);
    ok(d, &["scaffold", "feed", "metals.ois.json", "--all-feeds", "-o", "feed.json", "-q"]);
    let (code, _, said) =
        run(d, &["scaffold", "feed", "feed.json", "--server", "http://127.0.0.1:8701", "-o", "staging.json"]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("a staging config"), "{said}");
    let read = |name: &str| -> Value { serde_json::from_str(&std::fs::read_to_string(d.join(name)).unwrap()).unwrap() };
    let (production, staging) = (read("feed.json"), read("staging.json"));
    for key in ["templates", "triggers", "endpoints", "signedApis", "nodeSettings"] {
        assert_eq!(production[key], staging[key], "{key}");
    }
    assert_eq!(
        staging["ois"][0]["apiSpecifications"]["servers"],
        serde_json::json!([{"url": "http://127.0.0.1:8701"}])
    );
    ok(d, &["validate", "staging.json"]);
}

/// A `feed` endpoint whose feeds ask different calls is told to batch its feeds, not to become
/// the `feed` endpoint it already is (OIS087).
#[test]
fn feeds_by_name_that_need_two_calls_are_told_to_batch() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    metal_feeds(d, &[("XAU/USD", "gold"), ("XAG/USD", "silver")], "0.data.last");
    let (code, _, said) = run(
        d,
        &[
            "scaffold",
            "feed",
            "metals.ois.json",
            "--feed",
            "feed:name=string32:XAU/USD",
            "--feed",
            "feed:name=string32:XAG/USD",
            "--batch",
            "-o",
            "feed.json",
        ],
    );
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("note[OIS087]") && said.contains("make them one call with a batch of the feeds"), "{said}");
    assert!(!said.contains("a `feed` endpoint by name, as API3's own"), "{said}");
}

/// `validate --replay DIR` answers the feeds (and a config's templates) from recorded answers as
/// the node would: each its own value, or an error naming the two that share one; an exchange no
/// recording answers is a warning (that value was not checked). No secret is needed, and nothing
/// is sent.
#[test]
fn validate_answers_the_feeds_from_recorded_answers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    three_metals(d);
    let server = serve_metals(980.1);
    let record =
        ["call", "metals.ois.json", "--all-feeds", "--secrets", "secrets.env", "--server", &server.base, "--record"];
    ok(d, &[record.as_slice(), &["answers"]].concat());
    ok(d, &["scaffold", "feed", "metals.ois.json", "--all-feeds", "-o", "config.json", "-q"]);
    drop(server);

    for file in ["metals.ois.json", "config.json"] {
        let (code, stdout, stderr) = run(d, &["validate", file, "--replay", "answers"]);
        assert_eq!(code, Some(0), "{file}: {stdout}{stderr}");
        assert!(
            stdout.contains("note[OIS095]: 3 value(s) answered from the recordings in answers: each its own"),
            "{stdout}"
        );
    }

    // Platinum pointed at silver's element: the recorded answer shows both read one value.
    ok(d, &["feed", "set", "metals.ois.json", "XPT/USD", "--value", "1.data.last"]);
    let (code, stdout, _) = run(d, &["validate", "metals.ois.json", "--replay", "answers", "--format", "json"]);
    assert_eq!(code, Some(1), "{stdout}");
    let verdicts: Value = serde_json::from_str(&stdout).unwrap();
    let codes: Vec<&str> =
        verdicts[0]["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert!(codes.contains(&"CAL013") && codes.contains(&"OIS095"), "{codes:?}");
    let (code, _, _) = run(d, &["validate", "metals.ois.json", "--replay", "answers", "--allow-equal"]);
    assert_eq!(code, Some(0));

    // Without the recording, the values are not checked, and that is said.
    for entry in std::fs::read_dir(d.join("answers")).unwrap() {
        std::fs::remove_file(entry.unwrap().path()).unwrap();
    }
    let (code, stdout, _) = run(d, &["validate", "config.json", "--replay", "answers"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("warning[CAL011]")
            && stdout.contains("3 value(s) answered from the recordings in answers: 0 ok, 3 not"),
        "{stdout}"
    );
}
