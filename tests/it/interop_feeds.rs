//! Feeds by name against the real packages: for every name of every production feed endpoint
//! rebuilt by `ois feed`, `@api3/commons`' pre-processing and the adapter's `buildRequest` ask
//! for the URL `ois request --feed` shows, and commons' post-processing reads the value ours does
//! (every commons generation: Airnode 0.15's, Airnode Feed 3.3.0's and 4.6.0's).

use crate::common;

use serde_json::{Value, json};

use ois::edit::feeds::{FeedChange, apply};
use ois::processing::{EndpointProcessing, Engine, post_process};

/// Each production OIS on `GET /{path}`, rebuilt from its own tables by the feed edit.
fn rebuilt() -> Vec<(String, Value)> {
    let dir = common::shared_dir().join("examples/ois");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let Ok(production) = serde_json::from_str::<Value>(&std::fs::read_to_string(&path).unwrap()) else { continue };
        let Ok(Some(tables)) = ois::feeds::read(&production) else { continue };
        let mut ois = production.clone();
        ois["endpoints"] = json!([]);
        ois["apiSpecifications"]["paths"].as_object_mut().unwrap().shift_remove("/{path}");
        apply(
            &mut ois,
            &FeedChange::Put {
                feeds: tables.feeds,
                places: Vec::new(),
                replace: true,
                method: ois::feeds::method_of(&production),
            },
        )
        .unwrap();
        found.push((path.file_name().unwrap().to_string_lossy().into_owned(), ois));
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

fn our_url(ois: &Value, name: &str) -> String {
    let mut options = ois::request::RequestOptions::new("feed");
    options.parameters.insert("name".to_owned(), Value::String(name.to_owned()));
    options.mode = ois::request::Mode::Feed;
    let prepared = ois::request::prepare(ois, &options, &Engine::Embedded).unwrap();
    prepared.request.unwrap().url
}

#[test]
fn commons_and_the_adapter_ask_what_ois_shows_for_every_feed_by_name() {
    if !common::interop_installed("@api3/airnode-adapter") || !common::interop_installed("@api3/commons") {
        return;
    }
    let oises = rebuilt();
    assert_eq!(oises.len(), 12);
    let mut pre_cases = Vec::new();
    let mut names = Vec::new();
    for (file, ois) in &oises {
        let endpoint = &ois["endpoints"][0];
        for feed in ois::feeds::read(ois).unwrap().unwrap().feeds {
            pre_cases.push(json!({"endpoint": endpoint, "phase": "pre", "parameters": {"name": feed.name}}));
            names.push((file.clone(), ois, feed.name));
        }
    }
    let processed = common::run_node("processing.js", &Value::Array(pre_cases));
    let mut requests = Vec::new();
    for (index, ((_, ois, _), result)) in names.iter().zip(processed.as_array().unwrap()).enumerate() {
        assert_eq!(result["ok"], true, "{result}");
        let parameters: Value = serde_json::from_str(result["value"].as_str().unwrap()).unwrap();
        requests.push(json!({"id": index, "ois": ois, "endpointName": "feed", "parameters": parameters, "apiCredentials": [], "metadata": null, "mode": "feed"}));
    }
    let built = common::run_node("adapter.js", &json!({"requests": requests, "responses": []}));
    for ((file, ois, name), theirs) in names.iter().zip(built["requests"].as_array().unwrap()) {
        assert_eq!(theirs["url"].as_str(), Some(our_url(ois, name).as_str()), "{file}: {name}: {theirs}");
    }
    assert_eq!(names.len(), 1217, "every name of the twelve");
}

/// A response holding `value` where the value path `path` reads.
fn answer_at(path: &str, value: Value) -> Value {
    let mut answer = value;
    for segment in path.rsplit('.') {
        answer = match segment.parse::<usize>() {
            Ok(index) => Value::Array(std::iter::repeat_n(json!(null), index).chain([answer]).collect()),
            Err(_) => json!({ segment: answer }),
        };
    }
    answer
}

#[test]
fn every_commons_generation_reads_each_feed_s_value_as_ours_does() {
    if !common::interop_installed("@api3/commons") {
        return;
    }
    let mut cases = Vec::new();
    for (_, ois) in rebuilt() {
        let endpoint = &ois["endpoints"][0];
        for feed in ois::feeds::read(&ois).unwrap().unwrap().feeds {
            let Some(path) = feed.value_path().filter(|p| !p.contains('\\')) else { continue };
            let response = answer_at(&path, json!(1234.5678));
            cases.push(
                json!({"endpoint": endpoint, "phase": "post", "parameters": {"name": feed.name}, "response": response}),
            );
        }
    }
    assert_eq!(cases.len(), 769, "the feeds whose parser reads one value path");
    for (label, commons) in common::commons_generations() {
        let theirs = common::run_node_with("processing.js", &Value::Array(cases.clone()), commons.as_deref());
        for (case, theirs) in cases.iter().zip(theirs.as_array().unwrap()) {
            let processing = EndpointProcessing::of(&case["endpoint"], "/endpoints/0");
            let parameters = case["parameters"].as_object().unwrap();
            let ours = post_process(&Engine::Embedded, &processing, &case["response"], parameters).unwrap();
            let ours = ois::js::stringify(ours.value.as_ref().unwrap());
            assert_eq!(theirs["value"].as_str(), Some(ours.as_str()), "{label}: {}", case["parameters"]);
            assert_eq!(ours, "1234.5678");
        }
    }
}
