//! An endpoint without an API call, in Airnode Feed: its `callApi` returns `{data: parameters}`
//! where it would return the API's body, and post-processing gets that (airnode-node gives the
//! parameters themselves). `ois` in Feed mode hands post-processing the same, compared with the
//! real `@api3/airnode-feed` 3.3.0 for endpoints with and without pre-processing.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use ois::processing::Engine;
use ois::request::{Mode, RequestOptions, prepare};
use serde_json::{Value, json};

fn ois_with(endpoint: Value) -> Value {
    json!({
        "oisFormat": "2.3.2", "title": "Skip", "version": "1.0.0",
        "apiSpecifications": {"servers": [{"url": "http://127.0.0.1:9"}], "paths": {},
            "components": {"securitySchemes": {}}, "security": {}},
        "endpoints": [endpoint]
    })
}

#[test]
fn post_processing_gets_what_the_feed_gives_it() {
    if !common::interop_installed("@api3/airnode-feed") {
        return;
    }
    let pre = "async ({ endpointParameters }) => ({ endpointParameters: { ...endpointParameters, added: 2 } })";
    let cases = [
        (
            ois_with(json!({"name": "plain", "parameters": [{"name": "x"}],
            "reservedParameters": [{"name": "_type", "fixed": "int256"}]})),
            json!({"x": "1", "_path": "data.x"}),
        ),
        (
            ois_with(json!({"name": "pre", "parameters": [{"name": "x"}],
            "reservedParameters": [{"name": "_type", "fixed": "int256"}],
            "preProcessingSpecificationV2": {"environment": "Node", "timeoutMs": 1000, "value": pre}})),
            json!({"x": "7"}),
        ),
    ];
    let input: Vec<Value> = cases
        .iter()
        .map(|(ois, parameters)| json!({"ois": ois, "endpoint": ois["endpoints"][0]["name"], "parameters": parameters}))
        .collect();
    let Value::Array(real) = common::run_node("feed-skip.js", &json!(input)) else { panic!("no results") };
    assert_eq!(real.len(), cases.len());
    for ((ois, parameters), theirs) in cases.iter().zip(&real) {
        let mut options = RequestOptions::new(ois["endpoints"][0]["name"].as_str().unwrap());
        options.mode = Mode::Feed;
        options.parameters = parameters.as_object().unwrap().clone().into_iter().collect();
        let prepared = prepare(ois, &options, &Engine::Embedded).unwrap();
        assert_eq!(prepared.standing_in(), Some(&theirs["ok"]), "{ois}");
    }
}
