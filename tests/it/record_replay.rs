//! Without the vendor: `ois call CONFIG --record DIR` keeps each exchange (no credential written),
//! `--replay DIR` gives the same values with nothing sent, and `ois mock DIR` serves the
//! recordings to a call pointed at it, refusing what they do not answer.

use serde_json::Value;

use crate::common::{self, vendor};

fn call(config: &std::path::Path, secrets: &std::path::Path, more: &[&str]) -> (i32, Value, String) {
    let output = common::ois()
        .env("NO_COLOR", "1")
        .arg("call")
        .arg(config)
        .arg("--secrets")
        .arg(secrets)
        .args(["--format", "json"])
        .args(more)
        .output()
        .unwrap();
    let report = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output.status.code().unwrap_or(-1), report, String::from_utf8_lossy(&output.stderr).into_owned())
}

fn values(report: &Value) -> Vec<Value> {
    report["beacons"].as_array().unwrap().iter().map(|b| b["values"].clone()).collect()
}

fn mock(from: &std::path::Path) -> common::MockProcess {
    common::ois_mock(from, &[])
}

#[test]
fn record_replay_and_mock_give_the_values_the_vendor_gave() {
    let server = vendor::vendor();
    let deployment = vendor::deploy(
        &server,
        &["feed:name=string32:USD/EUR", "feed:name=string32:USD/GBP", "price:symbol=string32:BTC"],
    );
    let (config, secrets) = (&deployment.config, &deployment.secrets);
    let recordings = deployment.dir.path().join("answers");

    let (code, live, err) = call(config, secrets, &["--record", recordings.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let sent = server.take().len();
    assert_eq!(sent, 2, "one call for the batched feed, one for price");
    let files: Vec<String> = std::fs::read_dir(&recordings)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files.len(), 2, "{files:?}");
    for file in &files {
        let text = std::fs::read_to_string(recordings.join(file)).unwrap();
        assert!(!text.contains(vendor::KEY), "{file} holds the key: {text}");
        assert!(text.contains("<credential>"), "{file}: {text}");
    }
    // Recorded again, the same answers leave the files as they were.
    let before: Vec<std::time::SystemTime> =
        files.iter().map(|f| std::fs::metadata(recordings.join(f)).unwrap().modified().unwrap()).collect();
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert_eq!(call(config, secrets, &["--record", recordings.to_str().unwrap()]).0, 0);
    let after: Vec<std::time::SystemTime> =
        files.iter().map(|f| std::fs::metadata(recordings.join(f)).unwrap().modified().unwrap()).collect();
    assert_eq!(before, after, "unchanged recordings were rewritten");
    server.take();

    // Replayed: the same values, nothing sent.
    let (code, replayed, err) = call(config, secrets, &["--replay", recordings.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(values(&replayed), values(&live));
    assert!(server.take().is_empty(), "a replay sent a request");

    // Served by `ois mock` to the config pointed at it.
    let mocked = mock(&recordings);
    let (code, served, err) = call(config, secrets, &["--server", &mocked.base]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(values(&served), values(&live));
    assert!(server.take().is_empty(), "the vendor was called, not the mock");
    // Without the key, the mock refuses as the vendor would.
    let unauthorized = ureq::get(format!("{}/price?symbol=BTC", mocked.base)).call();
    assert!(matches!(unauthorized, Err(ureq::Error::StatusCode(401))), "{unauthorized:?}");

    // A request no recording answers (its recording taken away): CAL011 from a replay, naming
    // what was asked; 404 from the mock, so the call fails.
    drop(mocked);
    let price = files.iter().find(|f| f.contains("price")).unwrap();
    std::fs::remove_file(recordings.join(price)).unwrap();
    let (code, report, err) = call(config, secrets, &["--replay", recordings.to_str().unwrap()]);
    assert_eq!(code, 1, "{report} {err}");
    let failed: Vec<&Value> = report["beacons"].as_array().unwrap().iter().filter(|b| b["verdict"] != "ok").collect();
    assert_eq!(failed.len(), 1, "{report}");
    assert_eq!(failed[0]["code"], "CAL011", "{report}");
    assert!(failed[0]["message"].as_str().unwrap().contains("/price?symbol=BTC"), "{report}");
    let mocked = mock(&recordings);
    let (code, report, _) = call(config, secrets, &["--server", &mocked.base]);
    assert_eq!(code, 1, "{report}");
    assert!(report.to_string().contains("404"), "{report}");
    assert!(server.take().is_empty());
}

/// `ois request --response` reads a recording as the answer it recorded.
#[test]
fn a_recording_is_a_response_to_preview() {
    let dir = tempfile::tempdir().unwrap();
    let recording = dir.path().join("get-items-2-00000000.json");
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/codes/CAL011.in/answers/get-items-2-00000000.json");
    let text = std::fs::read_to_string(fixture).unwrap().replace(r#"{"price": 2}"#, "7");
    std::fs::write(&recording, text).unwrap();
    let ois_file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/codes/CAL011.in/api.ois.json");
    let output = common::ois()
        .args(["request", ois_file, "--endpoint", "item", "--param", "id=2", "--response"])
        .arg(&recording)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(report.to_string().contains("\"values\":[\"7\"]"), "{report}");
}

/// `--check DIR` calls the API and compares each answer with its recording: no drift, exit 0;
/// a number moved beyond the tolerance or a value of another type is CAL012, exit 1, in SARIF
/// for a scheduled CI job.
#[test]
fn a_drifted_answer_is_caught_against_its_recording() {
    let server = vendor::vendor();
    let deployment = vendor::deploy(&server, &["feed:name=string32:USD/EUR", "price:symbol=string32:BTC"]);
    let (config, secrets) = (&deployment.config, &deployment.secrets);
    let answers = deployment.dir.path().join("answers");
    let answers = answers.to_str().unwrap();
    assert_eq!(call(config, secrets, &["--record", answers]).0, 0);
    let (code, report, err) = call(config, secrets, &["--check", answers]);
    assert_eq!(code, 0, "{report} {err}");

    // Another server with the answers moved: EUR up 60 %, the price now a string.
    let drifted = common::server::Server::start(|request, stream| {
        let body = match request.path() {
            "/rates" => r#"{"rates": {"EUR": 1.5, "GBP": 0.79, "JPY": 151.2}}"#,
            _ => r#"{"symbol": "BTC", "price": "103"}"#,
        };
        common::server::answer(stream, "200 OK", "application/json", "", body.as_bytes());
    });
    let output = common::ois()
        .arg("call")
        .arg(config)
        .arg("--secrets")
        .arg(secrets)
        .args(["--server", &drifted.base, "--check", answers, "--format", "sarif"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let sarif = String::from_utf8_lossy(&output.stdout);
    assert!(sarif.contains("CAL012") && sarif.contains("/rates/EUR moved from 0.92 to 1.5"), "{sarif}");
    assert!(sarif.contains("/price was a number and is now a string"), "{sarif}");
    let (code, report, _) =
        call(config, secrets, &["--server", &drifted.base, "--check", answers, "--tolerance", "100%"]);
    assert_eq!(code, 1);
    let failed: Vec<&str> = report["beacons"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["verdict"] != "ok")
        .map(|b| b["endpoint"].as_str().unwrap())
        .collect();
    assert_eq!(failed, ["price"], "{report}");
}

/// `--compare`: a config against its recordings (every beacon the same), and against a staging
/// config pointed at another server (the moved rate differs, with its difference).
#[test]
fn two_runs_side_by_side() {
    let server = vendor::vendor();
    let feeds = ["feed:name=string32:USD/EUR", "price:symbol=string32:BTC"];
    let deployment = vendor::deploy(&server, &feeds);
    let (config, secrets) = (&deployment.config, &deployment.secrets);
    let answers = deployment.dir.path().join("answers");
    assert_eq!(call(config, secrets, &["--record", answers.to_str().unwrap()]).0, 0);
    let (code, report, err) = call(config, secrets, &["--compare", answers.to_str().unwrap()]);
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!((report["same"].as_u64(), report["different"].as_u64()), (Some(2), Some(0)), "{report}");

    let moved = common::server::Server::start(|request, stream| {
        let body = match request.path() {
            "/rates" => r#"{"rates": {"EUR": 0.966, "GBP": 0.79, "JPY": 151.2}}"#,
            _ => r#"{"symbol": "BTC", "price": 103}"#,
        };
        common::server::answer(stream, "200 OK", "application/json", "", body.as_bytes());
    });
    let staging = deployment.dir.path().join("staging.json");
    let mut scaffold = vec!["scaffold", "feed", deployment.ois.to_str().unwrap(), "--batch"];
    for feed in &feeds {
        scaffold.extend(["--feed", feed]);
    }
    scaffold.extend(["--server", &moved.base, "-o", staging.to_str().unwrap()]);
    let made = common::ois().args(&scaffold).output().unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let output = common::ois()
        .arg("call")
        .arg(config)
        .arg("--secrets")
        .arg(secrets)
        .args(["--compare", staging.to_str().unwrap()])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{table} {}", String::from_utf8_lossy(&output.stderr));
    assert!(table.contains("920000") && table.contains("966000") && table.contains("+5.00 %"), "{table}");
    assert!(table.contains("1 the same, 1 not"), "{table}");

    // Offline: the staging copy and the original both answered from the recordings, nothing sent.
    drop(moved);
    server.take();
    let compare = ["--compare", staging.to_str().unwrap(), "--replay", answers.to_str().unwrap()];
    let (code, report, err) = call(config, secrets, &compare);
    assert_eq!(code, 0, "{report} {err}");
    assert_eq!((report["same"].as_u64(), report["different"].as_u64()), (Some(2), Some(0)), "{report}");
    assert!(server.take().is_empty(), "a replayed comparison sends nothing");
}

/// `ois mock OPENAPI`: each operation answers with its example, or a value its schema allows, the
/// same for a seed; a call of the converted OIS pointed at it gets that value.
#[test]
fn a_mock_made_from_an_openapi_document() {
    let dir = tempfile::tempdir().unwrap();
    let document = dir.path().join("coins.yaml");
    std::fs::write(
        &document,
        r#"openapi: 3.0.3
info: {title: Coins, version: 1.0.0}
servers: [{url: "https://api.coins.example/api/v3"}]
paths:
  /simple/price:
    get:
      operationId: simplePrice
      parameters: [{in: query, name: ids, required: true, schema: {type: string}}]
      responses:
        "200":
          description: ok
          content: {application/json: {example: {bitcoin: {usd: 67123.45}}}}
  /coins/{id}:
    get:
      operationId: coin
      parameters: [{in: path, name: id, required: true, schema: {type: string}}]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  id: {type: string, enum: [bitcoin]}
                  price: {type: number, minimum: 1000, maximum: 2000}
"#,
    )
    .unwrap();
    let ois_file = dir.path().join("coins.ois.json");
    let converted = common::ois().arg("convert").arg(&document).arg("-o").arg(&ois_file).output().unwrap();
    assert!(converted.status.success(), "{}", String::from_utf8_lossy(&converted.stderr));
    let value_of = |base: &str, endpoint: &str, params: &[&str], reserved: &[&str]| -> Value {
        let mut args =
            vec!["call", ois_file.to_str().unwrap(), "--endpoint", endpoint, "--server", base, "--format", "json"];
        for param in params.iter().chain(reserved) {
            args.extend(["--param", param]);
        }
        // No `_type` yet: the call stops after the answer, which its report still carries.
        let output = common::ois().args(&args).output().unwrap();
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["call"]["status"], 200, "{report}");
        report["call"]["body"].clone()
    };
    let seeded = |seed: &str| common::ois_mock(&document, &["--seed", seed]);
    let first = seeded("7");
    assert_eq!(
        value_of(&first.base, "simplePrice", &["ids=bitcoin"], &[]),
        serde_json::json!({"bitcoin": {"usd": 67123.45}})
    );
    let coin = value_of(&first.base, "coin", &["id=bitcoin"], &[]);
    assert_eq!(coin["id"], "bitcoin");
    let price = coin["price"].as_f64().unwrap();
    assert!((1000.0..=2000.0).contains(&price), "{coin}");
    let again = seeded("7");
    assert_eq!(value_of(&again.base, "coin", &["id=ethereum"], &[]), coin, "the same seed, the same answer");
    // What the document does not have: 404 for a path, 501 for a method.
    let status = |method: &str, path: &str| match ureq::run(
        ureq::http::Request::builder().method(method).uri(format!("{}{path}", first.base)).body(()).unwrap(),
    ) {
        Ok(response) => response.status().as_u16(),
        Err(ureq::Error::StatusCode(code)) => code,
        Err(other) => panic!("{other}"),
    };
    assert_eq!(status("GET", "/nowhere"), 404);
    assert_eq!(status("POST", "/simple/price"), 501);
}

/// A link placed in the recordings folder under a recording's name (to a file outside, or to
/// nothing yet) is never written through: the call stops, and the file outside is untouched.
#[cfg(unix)]
#[test]
fn a_recording_is_never_written_through_a_link_in_its_folder() {
    let server = vendor::vendor();
    let deployment = vendor::deploy(&server, &["price:symbol=string32:BTC"]);
    let (config, secrets) = (&deployment.config, &deployment.secrets);
    let recordings = deployment.dir.path().join("answers");
    let record = ["--record", recordings.to_str().unwrap()];
    assert_eq!(call(config, secrets, &record).0, 0);
    let name = std::fs::read_dir(&recordings).unwrap().next().unwrap().unwrap().file_name();
    let outside = deployment.dir.path().join("outside.txt");
    std::fs::write(&outside, "keep me").unwrap();
    for target in [outside.clone(), deployment.dir.path().join("made-through-a-dangling-link.json")] {
        std::fs::remove_file(recordings.join(&name)).unwrap();
        std::os::unix::fs::symlink(&target, recordings.join(&name)).unwrap();
        let (code, report, err) = call(config, secrets, &record);
        assert_ne!(code, 0, "{target:?}: {err}");
        assert!(report.to_string().contains("symbolic link"), "{target:?}: {report}");
    }
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep me");
    assert!(!deployment.dir.path().join("made-through-a-dangling-link.json").exists());
}
