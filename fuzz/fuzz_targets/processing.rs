//! Raw bytes → processing snippets run in the embedded engine, as `ois request` runs an OIS's:
//! whatever the code, the sandbox must not crash (a panic, or QuickJS aborting), and must stop on
//! time. The first byte picks the form (V1 `Node`, V1 `Node async`, V2 pre, V2 post); the rest is
//! the code, run with a short `timeoutMs`. Also checked without running: `check_snippet`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ois::processing::{EndpointProcessing, Engine, Environment, Snippet, check_snippet, post_process, pre_process};
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let Some((&form, code)) = data.split_first() else { return };
    let code = String::from_utf8_lossy(code).into_owned();
    let spec = |environment: &str| json!({"environment": environment, "value": code, "timeoutMs": 20});
    let endpoint = match form % 4 {
        0 => json!({"preProcessingSpecifications": [spec("Node")]}),
        1 => json!({"postProcessingSpecifications": [spec("Node async")]}),
        2 => json!({"preProcessingSpecificationV2": spec("Node")}),
        _ => json!({"postProcessingSpecificationV2": spec("Node")}),
    };
    let processing = EndpointProcessing::of(&endpoint, "/endpoints/0");
    let parameters = json!({"name": "BTC/USD", "_type": "int256"});
    let parameters = parameters.as_object().cloned().unwrap_or_default();
    let started = std::time::Instant::now();
    let _ = pre_process(&Engine::Embedded, &processing, &parameters);
    let _ = post_process(&Engine::Embedded, &processing, &json!({"price": 1.5}), &parameters);
    // Each phase is bounded by its 20 ms (a timer the snippet waits for never runs past it).
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "ran {:?}", started.elapsed());
    let environment = if form % 4 == 1 { Environment::NodeAsync } else { Environment::Node };
    let snippet = Snippet { environment, code, timeout_ms: Some(20), pointer: "/x".into() };
    let _ = check_snippet(&snippet, form % 4 >= 2);
});
