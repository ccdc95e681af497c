//! The embedded engine against `node`, on a typical pre-processing snippet: each call starts its
//! engine, runs the snippet and reads the result, as `ois request` does. The two engines are
//! alternated in one run (machines are shared and noisy: compare the ratio), and the medians
//! reported. Run by `bench/run.sh processing`.
//!
//! Usage: processing [RUNS] [OIS ENDPOINT NAME]  (default: 31 runs, finnhub.json's `feed` with
//! name AAPL/USD, a V2 snippet with a 60-entry table)

use std::process::ExitCode;
use std::time::Instant;

use ois::processing::{EndpointProcessing, Engine, pre_process};
use serde_json::{Map, Value, json};

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples.get(samples.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: usize = args.first().and_then(|r| r.parse().ok()).unwrap_or(31);
    let file = args.get(1).cloned().unwrap_or_else(|| "../shared/examples/ois/finnhub.json".to_owned());
    let endpoint_name = args.get(2).cloned().unwrap_or_else(|| "feed".to_owned());
    let name = args.get(3).cloned().unwrap_or_else(|| "AAPL/USD".to_owned());
    let Ok(text) = std::fs::read_to_string(&file) else {
        eprintln!("cannot read {file}");
        return ExitCode::from(2);
    };
    let Ok(ois) = serde_json::from_str::<Value>(&text) else {
        eprintln!("{file} is not JSON");
        return ExitCode::from(2);
    };
    let endpoints = ois.get("endpoints").and_then(Value::as_array).cloned().unwrap_or_default();
    let Some(endpoint) =
        endpoints.iter().find(|e| e.get("name").and_then(Value::as_str) == Some(endpoint_name.as_str()))
    else {
        eprintln!("no endpoint {endpoint_name}");
        return ExitCode::from(2);
    };
    let processing = EndpointProcessing::of(endpoint, "/endpoints/0");
    let parameters: Map<String, Value> = json!({"name": name}).as_object().cloned().unwrap_or_default();
    let engines = [("embedded", Engine::Embedded), ("node", Engine::Node { program: None })];
    let mut times: Vec<Vec<f64>> = vec![Vec::new(), Vec::new()];
    let mut result = None;
    for _ in 0..runs {
        for (index, (label, engine)) in engines.iter().enumerate() {
            let start = Instant::now();
            let ran = pre_process(engine, &processing, &parameters);
            let elapsed = start.elapsed().as_secs_f64() * 1000.0;
            match ran {
                Ok(processed) => result = processed.value,
                Err(failure) => {
                    eprintln!("{label}: {}", failure.message);
                    return ExitCode::FAILURE;
                }
            }
            if let Some(samples) = times.get_mut(index) {
                samples.push(elapsed);
            }
        }
    }
    let embedded = median(times.first().cloned().unwrap_or_default());
    let node = median(times.get(1).cloned().unwrap_or_default());
    println!("{file} {endpoint_name} name={name}: {runs} runs each, alternating");
    println!("processed: {}", result.map(|v| v.to_string()).unwrap_or_default());
    println!("embedded (QuickJS): median {embedded:.2} ms per call");
    println!("node:               median {node:.2} ms per call");
    println!("node / embedded:    {:.1}x", node / embedded);
    ExitCode::SUCCESS
}
