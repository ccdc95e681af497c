//! The session's steps on their own, without the server: what the page is told after each.

use serde_json::{Value, json};

use super::*;
use history::UNDO_STEPS;

/// A session on a folder holding the coins sample, opened.
fn opened() -> (tempfile::TempDir, Session) {
    let folder = tempfile::tempdir().unwrap();
    std::fs::copy(format!("{}/samples/coins.yaml", env!("CARGO_MANIFEST_DIR")), folder.path().join("coins.yaml"))
        .unwrap();
    let mut session = Session::new(Folder::new(folder.path()).unwrap());
    session.open(OpenRequest { path: Some("coins.yaml".to_owned()), ..OpenRequest::default() }).unwrap();
    (folder, session)
}

fn edit(session: &mut Session, request: Value) -> Result<Value, Refusal> {
    session.edit(serde_json::from_value(request).unwrap()).map(Reply::into_value)
}

/// Every diagnostic of the last view `session` sent (`view`): those not about an endpoint, then
/// each endpoint's, as the page asks for them when a card opens.
fn every_diagnostic(session: &Session, view: &Value) -> Vec<Value> {
    let mut found = view["draft"]["diagnostics"].as_array().unwrap().clone();
    let counts = view["draft"]["problems"].as_array().unwrap();
    for (index, count) in counts.iter().enumerate() {
        let answer = session.problems(&ProblemsRequest { endpoint: index }).unwrap().into_value();
        let list = answer["diagnostics"].as_array().unwrap();
        assert_eq!(json!(list.len()), count[0], "endpoint {index}");
        let errors = list.iter().filter(|d| d["severity"] == "error").count();
        assert_eq!(json!(errors), count[1], "endpoint {index}");
        assert!(list.iter().all(|d| d["endpoint"] == index), "endpoint {index}: {list:?}");
        // Placed in the draft's text when asked for: its line and the line's text.
        assert!(list.iter().all(|d| d["line"].is_u64() && d["excerpt"].is_string()), "endpoint {index}: {list:?}");
        found.extend(list.iter().cloned());
    }
    assert!(session.problems(&ProblemsRequest { endpoint: counts.len() }).is_err(), "no endpoint past the last");
    found
}

fn endpoint_names(view: &Value) -> Vec<String> {
    view["draft"]["endpoints"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn an_edit_checks_the_document_once_and_the_view_says_what_a_fresh_check_says() {
    let (_folder, mut session) = opened();
    let view = edit(
        &mut session,
        json!({"kind": "set", "name": "simplePrice", "settings": {"reserved": [["_type", "int256"]]}}),
    )
    .unwrap();
    let edited = every_diagnostic(&session, &view);
    let reused = session.view();
    let reused = every_diagnostic(&session, &reused);
    *session.checked.get_mut() = None;
    let fresh = session.view();
    let fresh = every_diagnostic(&session, &fresh);
    assert_eq!(reused, fresh);
    assert_eq!(edited, fresh);
    assert!(!fresh.is_empty(), "the sample breaks some rules");
}

#[test]
fn undo_goes_back_through_edits_text_and_conversions() {
    let (_folder, mut session) = opened();
    let first = endpoint_names(&session.view());
    edit(&mut session, json!({"kind": "remove", "names": ["coinsId"]})).unwrap();
    edit(&mut session, json!({"kind": "set", "name": "simplePrice", "rename": "price"})).unwrap();
    assert!(!endpoint_names(&session.view()).contains(&"coinsId".to_owned()));
    let view = session.undo().unwrap().into_value();
    assert!(endpoint_names(&view).contains(&"simplePrice".to_owned()));
    assert_eq!(view["undo"], 1);
    assert_eq!(endpoint_names(&session.undo().unwrap().into_value()), first);
    assert!(session.undo().is_err(), "nothing left to undo");
    // A refused edit changes nothing, and leaves nothing to undo.
    assert!(edit(&mut session, json!({"kind": "remove", "names": ["nope"]})).is_err());
    assert!(session.undo().is_err());
    // Converting again replaces the draft: one undo away.
    edit(&mut session, json!({"kind": "remove", "names": ["coinsId"]})).unwrap();
    session.reconvert(GivenOptions::default()).unwrap();
    assert!(endpoint_names(&session.view()).contains(&"coinsId".to_owned()));
    assert!(!endpoint_names(&session.undo().unwrap().into_value()).contains(&"coinsId".to_owned()));
}

#[test]
fn undo_back_to_the_conversion_is_its_text_not_a_copy() {
    let (_folder, mut session) = opened();
    let converted = Arc::clone(&session.draft.as_ref().unwrap().text);
    edit(&mut session, json!({"kind": "set", "name": "simplePrice", "rename": "price"})).unwrap();
    edit(&mut session, json!({"kind": "remove", "names": ["coinsId"]})).unwrap();
    session.undo().unwrap();
    session.undo().unwrap();
    let text = &session.draft.as_ref().unwrap().text;
    assert_eq!(**text, *converted);
    let Some(Generated::Converted { text: record, .. }) = &session.record else { panic!("the conversion's record") };
    assert!(Arc::ptr_eq(text, &record.text().unwrap()), "the record's text, shared");
}

#[test]
fn the_record_is_deflated_once_the_draft_changes_and_reads_back_whole() {
    let (_folder, mut session) = opened();
    // A copy: the text itself held here would be shared, and stay whole.
    let converted = session.draft.as_ref().unwrap().text.to_string();
    edit(&mut session, json!({"kind": "remove", "names": ["coinsId"]})).unwrap();
    let record = match &session.record {
        Some(Generated::Converted { text, .. }) => text.clone(),
        _ => panic!("the conversion's record"),
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !record.is_deflated() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(record.is_deflated(), "deflated once the draft changed");
    assert_eq!(*record.text().unwrap(), converted);
    // Back to the text converted: shared again, not held twice.
    session.undo().unwrap();
    let text = &session.draft.as_ref().unwrap().text;
    assert!(!record.is_deflated());
    assert!(Arc::ptr_eq(text, &record.text().unwrap()), "the record's text, shared again");
}

#[test]
fn undo_keeps_at_most_its_steps() {
    let (_folder, mut session) = opened();
    for round in 0..(UNDO_STEPS + 5) {
        let name = if round % 2 == 0 { "price" } else { "simplePrice" };
        let from = if round % 2 == 0 { "simplePrice" } else { "price" };
        edit(&mut session, json!({"kind": "set", "name": from, "rename": name})).unwrap();
    }
    assert_eq!(session.view()["undo"], UNDO_STEPS);
}

#[test]
fn opening_another_document_forgets_the_last_one_s_undo() {
    let (_folder, mut session) = opened();
    edit(&mut session, json!({"kind": "remove", "names": ["coinsId"]})).unwrap();
    session.open(OpenRequest { path: Some("coins.yaml".to_owned()), ..OpenRequest::default() }).unwrap();
    assert_eq!(session.view()["undo"], 0);
}

#[test]
fn feeds_by_name_are_listed_in_the_view() {
    let (_folder, mut session) = opened();
    assert_eq!(session.view()["draft"]["feeds"], Value::Null);
    let add = json!({"kind": "addFeed", "name": "BTC/USD", "operation": "simplePrice",
        "parameters": [["ids", "bitcoin"], ["vs_currencies", "usd"]], "value": "bitcoin.usd"});
    let view = edit(&mut session, add).unwrap();
    assert_eq!(
        view["draft"]["feeds"],
        json!([{"name": "BTC/USD", "path": "simple/price", "parameters": {"ids": "bitcoin", "vs_currencies": "usd"},
            "value": "bitcoin.usd", "parserLines": 3}])
    );
}

#[test]
fn each_diagnostic_says_which_endpoint_and_which_part_of_its_form() {
    let (_folder, mut session) = opened();
    let view = edit(
        &mut session,
        json!({"kind": "set", "name": "simplePrice", "settings": {"reserved": [["_type", "int256"]]}}),
    )
    .unwrap();
    let names = endpoint_names(&view);
    let placed = every_diagnostic(&session, &view);
    assert!(!placed.is_empty());
    for d in &placed {
        let pointer = d["pointer"].as_str().unwrap();
        match pointer.strip_prefix("/endpoints/") {
            Some(rest) => {
                let index: usize = rest.split('/').next().unwrap().parse().unwrap();
                assert_eq!(d["endpoint"], index, "{d}");
                assert!(index < names.len());
                let part = d["part"].as_str().unwrap();
                assert!(["reserved", "parameters", "fixed", "pre", "post", "endpoint"].contains(&part), "{d}");
            }
            None => assert!(d.get("endpoint").is_none() && d.get("part").is_none(), "{d}"),
        }
    }
}

/// The page's view of the coins sample, opened: its shape, snapshot-tested
/// (`EXPECTORATE=overwrite cargo test --lib studio` writes it again).
#[test]
fn the_view_of_an_opened_document() {
    let (folder, session) = opened();
    let mut view = session.view();
    let root = folder.path().display().to_string();
    view["folder"] = json!("FOLDER");
    let text = serde_json::to_string_pretty(&view).unwrap().replace(&root, "FOLDER");
    expectorate::assert_contents("tests/studio/view-opened.json", &format!("{text}\n"));
}

/// An edit answered to a page holding the view before it: only the endpoint the edit changed,
/// and what the page makes of it (its held endpoints and diagnostics, those replaced) is the
/// whole view. A page holding another view, or an edit that renames, gets the whole view.
#[test]
fn an_edit_sends_only_the_endpoints_it_changed() {
    let (_folder, mut session) = opened();
    let before = session.view();
    let seen = before["draft"]["revision"].as_u64();
    let set = |name: &str, value: &str| -> EditRequest {
        serde_json::from_value(json!({"kind": "set", "name": name, "settings": {"reserved": [["_times", value]]}}))
            .unwrap()
    };
    let delta = session.edit_seen(set("simplePrice", "1000"), seen).unwrap().into_value();
    let index = endpoint_names(&before).iter().position(|n| n == "simplePrice").unwrap();
    assert_eq!(delta["draft"]["changed"], json!([index]), "{}", delta["draft"]);
    assert_eq!(delta["draft"]["endpoints"].as_array().unwrap().len(), 1);
    // The page's merge, as studio.js makes it: the changed endpoints and their counts replaced.
    let mut endpoints = before["draft"]["endpoints"].as_array().unwrap().clone();
    endpoints[index] = delta["draft"]["endpoints"][0].clone();
    let mut problems = before["draft"]["problems"].as_array().unwrap().clone();
    problems[index] = delta["draft"]["problems"][0].clone();
    let moved = delta["draft"]["moved"].as_array().unwrap();
    assert!(!moved.is_empty(), "the edit added lines above other endpoints: {}", delta["draft"]);
    assert!(!moved.contains(&json!(index)), "a changed endpoint is sent, not moved");
    let after = every_diagnostic(
        &session,
        &json!({"draft": {
            "diagnostics": delta["draft"]["diagnostics"], "problems": Value::Array(problems.clone()),
        }}),
    );
    let whole = session.view();
    assert_eq!(Value::Array(endpoints), whole["draft"]["endpoints"]);
    assert_eq!(Value::Array(problems), whole["draft"]["problems"]);
    assert_eq!(after, every_diagnostic(&session, &whole));
    // A page holding an older view gets all of it; so does a rename.
    let stale = session.edit_seen(set("simplePrice", "1001"), seen).unwrap().into_value();
    assert!(stale["draft"].get("changed").is_none());
    let now = stale["draft"]["revision"].as_u64();
    let rename = serde_json::from_value(json!({"kind": "set", "name": "simplePrice", "rename": "price"})).unwrap();
    let renamed = session.edit_seen(rename, now).unwrap().into_value();
    assert!(renamed["draft"].get("changed").is_none());
    assert_eq!(renamed["draft"]["endpoints"].as_array().unwrap().len(), endpoint_names(&before).len());
}

/// The view carries the conversion's report as counts and groups; its diagnostics come on
/// demand, and agree with them: each group's count, each operation's codes and indexes.
#[test]
fn the_conversion_s_diagnostics_come_when_asked_and_agree_with_the_view() {
    let (folder, session) = opened();
    let view = session.view();
    let report = session.report().unwrap().into_value();
    assert_eq!(report["revision"], view["openapi"]["revision"]);
    let diagnostics = report["diagnostics"].as_array().unwrap();
    let summary = &view["openapi"]["report"];
    let severities = ["error", "warning", "note"].map(|s| diagnostics.iter().filter(|d| d["severity"] == s).count());
    assert_eq!(
        severities.map(|n| json!(n)),
        [&summary["errors"], &summary["warnings"], &summary["notes"]].map(Value::clone)
    );
    for group in summary["groups"].as_array().unwrap() {
        let of_code: Vec<&Value> = diagnostics.iter().filter(|d| d["code"] == group["code"]).collect();
        assert_eq!(json!(of_code.len()), group["count"]);
        assert_eq!(of_code[0]["message"], group["message"]);
    }
    let mut said = 0;
    for operation in view["openapi"]["operations"].as_array().unwrap() {
        let mut codes: Vec<&Value> = Vec::new();
        for index in operation["diagnostics"].as_array().unwrap() {
            let code = &diagnostics[usize::try_from(index.as_u64().unwrap()).unwrap()]["code"];
            if !codes.contains(&code) {
                codes.push(code);
            }
            said += 1;
        }
        assert_eq!(operation["codes"].as_array().unwrap().iter().collect::<Vec<_>>(), codes);
    }
    assert!(said > 0, "the sample's operations have diagnostics");
    // Each with the line it points at, read from the document again; not once it changed on disk.
    let lines = |report: &Value| -> Vec<Value> {
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["line"].is_u64())
            .map(|d| d["excerpt"].clone())
            .collect()
    };
    assert!(!lines(&report).is_empty() && lines(&report).iter().all(Value::is_string), "{report}");
    let title = lines(&report).into_iter().find(|l| l.as_str().unwrap().contains("title:")).unwrap();
    assert_eq!(title, json!("  title: Coin Prices API (demo)"));
    let file = folder.path().join("coins.yaml");
    std::fs::write(&file, std::fs::read_to_string(&file).unwrap().replace("(demo)", "(live)")).unwrap();
    let after = session.report().unwrap().into_value();
    assert!(lines(&after).iter().all(Value::is_null), "lines of a text that changed: {after}");
    // Nothing opened: nothing to report.
    let empty = Session::new(Folder::new(folder.path()).unwrap());
    assert!(empty.report().is_err());
}

/// What a step hands the view instead of parsing the draft's text again (the conversion's tree on
/// an open, the edited document on an edit) and the checks it keeps (undo's) give the view a
/// fresh parse and check give.
#[test]
fn the_views_made_from_what_a_step_holds_are_the_views_of_the_text() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::copy(format!("{}/samples/coins.yaml", env!("CARGO_MANIFEST_DIR")), folder.path().join("coins.yaml"))
        .unwrap();
    let mut session = Session::new(Folder::new(folder.path()).unwrap());
    let fresh = |session: &mut Session| {
        *session.checked.get_mut() = None;
        let mut view = session.view();
        view["draft"]["revision"] = json!(0);
        view
    };
    // The step's answer and every diagnostic it lets the page ask for, against a fresh view's.
    let same = |session: &mut Session, mut answer: Value, step: &str| {
        let sent = every_diagnostic(session, &answer);
        let fresh = fresh(session);
        assert_eq!(sent, every_diagnostic(session, &fresh), "{step}");
        answer["draft"]["revision"] = json!(0);
        assert_eq!(answer["draft"], fresh["draft"], "{step}");
    };
    let opened = session.open(OpenRequest { path: Some("coins.yaml".to_owned()), ..OpenRequest::default() });
    let opened = opened.unwrap().into_value();
    same(&mut session, opened, "open");
    let set = json!({"kind": "set", "name": "simplePrice", "settings": {"reserved": [["_type", "int256"]]}});
    let edited = edit(&mut session, set).unwrap();
    same(&mut session, edited, "edit");
    edit(&mut session, json!({"kind": "remove", "names": ["coinsId"]})).unwrap();
    let undone = session.undo().unwrap().into_value();
    same(&mut session, undone, "undo");
    let reconverted = session.reconvert(GivenOptions::default()).unwrap().into_value();
    same(&mut session, reconverted, "convert again");
}

/// A document whose server is relative cannot be converted without a base URL: it stays opened
/// with its error and options (no dead end), and converting it again with the base URL the error
/// asks for makes the draft.
#[test]
fn a_document_that_cannot_be_converted_stays_open_to_be_fixed_in_the_page() {
    let folder = tempfile::tempdir().unwrap();
    let document = r#"{"openapi": "3.0.3", "info": {"title": "Weather", "version": "1.0.0"},
        "servers": [{"url": "/api/v1"}],
        "paths": {"/now": {"get": {"operationId": "now", "responses": {"200": {"description": "ok"}}}}}}"#;
    std::fs::write(folder.path().join("weather.json"), document).unwrap();
    let mut session = Session::new(Folder::new(folder.path()).unwrap());
    let view = session
        .open(OpenRequest { path: Some("weather.json".to_owned()), ..OpenRequest::default() })
        .unwrap()
        .into_value();
    assert!(view["draft"].is_null(), "{view}");
    assert_eq!(view["openapi"]["name"], "weather.json");
    assert_eq!(view["openapi"]["report"]["errors"], 1, "{view}");
    assert!(view["openapi"]["report"]["groups"].as_array().unwrap().iter().any(|g| g["code"] == "CNV002"), "{view}");
    let report = session.report().unwrap().into_value();
    let relative = report["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "CNV002").cloned();
    let help = relative.and_then(|d| d["help"].as_str().map(str::to_owned)).unwrap_or_default();
    assert!(help.contains("*Base URL* under Conversion settings"), "{report}");

    let options = GivenOptions { base_url: Some("https://weather.example".to_owned()), ..GivenOptions::default() };
    let view = session.reconvert(options).unwrap().into_value();
    assert_eq!(endpoint_names(&view), ["now"], "{view}");
    assert_eq!(view["openapi"]["report"]["errors"], 0, "{view}");
}

#[test]
fn a_draft_is_named_as_the_command_line_names_it() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::create_dir(folder.path().join("specs")).unwrap();
    std::fs::copy(
        format!("{}/samples/coins.yaml", env!("CARGO_MANIFEST_DIR")),
        folder.path().join("specs/api.v2.yaml"),
    )
    .unwrap();
    let mut session = Session::new(Folder::new(folder.path()).unwrap());
    session.open(OpenRequest { path: Some("specs/api.v2.yaml".to_owned()), ..OpenRequest::default() }).unwrap();
    let view = serde_json::to_value(session.view()).unwrap();
    assert_eq!(view["draft"]["suggested"], "specs/api.v2.ois.json", "{}", view["draft"]);
}

#[test]
fn a_parameter_change_is_sent_typed_not_in_the_command_line_s_words() {
    let (_folder, mut session) = opened();
    let typed = json!({"kind": "set", "name": "simplePrice", "settings": {"parameters": [["precision", "required"], ["ids", {"rename": "coins"}]]}});
    edit(&mut session, typed).unwrap();
    let view = serde_json::to_value(session.view()).unwrap();
    assert!(view.to_string().contains("\"coins\""), "the rename was made");
    let worded = json!({"kind": "set", "name": "simplePrice", "settings": {"parameters": [["ids", "default=5"]]}});
    assert!(
        serde_json::from_value::<EditRequest>(worded).is_err(),
        "the command line's mini-language is not the page's"
    );
}

#[test]
fn redo_makes_an_undone_change_again_until_a_change_of_its_own() {
    let (_folder, mut session) = opened();
    let first = endpoint_names(&session.view());
    edit(&mut session, json!({"kind": "remove", "names": ["coinsId"]})).unwrap();
    let edited = endpoint_names(&session.view());
    assert!(session.redo().is_err(), "nothing undone yet");
    let undone = session.undo().unwrap().into_value();
    assert_eq!((endpoint_names(&undone), undone["redo"].clone()), (first.clone(), json!(1)));
    let redone = session.redo().unwrap().into_value();
    assert_eq!((endpoint_names(&redone), redone["redo"].clone(), redone["undo"].clone()), (edited, json!(0), json!(1)));
    // Undo again, then a change of its own: nothing is left to redo.
    session.undo().unwrap();
    edit(&mut session, json!({"kind": "set", "name": "simplePrice", "rename": "price"})).unwrap();
    assert_eq!(session.view()["redo"], 0);
    assert!(session.redo().is_err());
}
