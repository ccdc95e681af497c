//! `ois call CONFIG` over an Airnode Feed config of many templates (a trigger each, so an API call
//! each) against a loopback API that takes a fixed time to answer, against the floor: the same
//! number of plain HTTP GETs to the same API with the same concurrency. The difference, per
//! template, is what `ois` adds over the API's own latency (pre-processing, the request, the
//! answer, post-processing, encoding, beacon IDs). The two are alternated in one run and the
//! medians reported. Run by `bench/run.sh call-config`.
//!
//! Usage: call_config [RUNS] [TEMPLATES] [API_MS] [JOBS]  (default: 11 runs, 100 templates, 20 ms,
//! 4 at a time)

#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark: a failure stops it, loudly

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ois::jobs::call::CallJob;
use ois::jobs::call_config::{ManyReport, many};
use ois::jobs::request::CallInputs;
use ois::scaffold::node::{Feed, FeedOptions, feed_config};
use rayon::prelude::*;
use serde_json::json;

/// The Hardhat test mnemonic.
const MNEMONIC: &str = "test test test test test test test test test test test junk";

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples.get(samples.len() / 2).copied().unwrap_or(f64::NAN)
}

/// An API on 127.0.0.1 that answers every request after `latency`, each on a thread of its own.
fn api(latency: Duration) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                std::thread::sleep(latency);
                let body = r#"{"symbol": "X", "price": 61234.56789, "volume": 1200}"#;
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let mut stream = stream;
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(body.as_bytes());
            });
        }
    });
    base
}

fn main() -> ExitCode {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let runs = args.first().copied().unwrap_or(11);
    let templates = args.get(1).copied().unwrap_or(100);
    let latency = Duration::from_millis(args.get(2).copied().unwrap_or(20) as u64);
    let jobs = args.get(3).copied().unwrap_or(4);
    let base = api(latency);

    let ois = json!({
        "oisFormat": "2.3.2", "title": "Prices", "version": "1.0.0",
        "apiSpecifications": {
            "servers": [{"url": base}],
            "paths": {"/price": {"get": {"parameters": [{"in": "query", "name": "symbol"}]}}},
            "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "x-api-key"}}},
            "security": {"key": []}
        },
        "endpoints": [{
            "name": "price", "operation": {"method": "get", "path": "/price"}, "fixedOperationParameters": [],
            "parameters": [{"name": "symbol", "operationParameter": {"in": "query", "name": "symbol"}, "required": true}],
            "reservedParameters": [{"name": "_type", "fixed": "int256"}, {"name": "_path", "fixed": "price"},
                {"name": "_times", "fixed": "1000000000000000000"}],
            "postProcessingSpecificationV2": {"environment": "Node", "timeoutMs": 5000,
                "value": "async ({ response }) => ({ response: { ...response, price: response.price * 1 } })"}
        }]
    });
    let feeds: Vec<Feed> =
        (0..templates).map(|i| Feed::parse(&format!("price:symbol=string32:SYM{i}"), "feed").unwrap()).collect();
    let scaffold = feed_config(&[ois], &feeds, &FeedOptions::default()).unwrap();
    let config = scaffold.config;
    let dir = tempfile::tempdir().unwrap();
    let (config_path, secrets_path) = (dir.path().join("config.json"), dir.path().join("secrets.env"));
    std::fs::write(&config_path, serde_json::to_string_pretty(&config).unwrap()).unwrap();
    let secrets: String = scaffold
        .secrets_env
        .lines()
        .filter_map(|line| line.strip_suffix('=').filter(|_| !line.starts_with('#')))
        .map(|name| format!("{name}={}\n", if name.contains("MNEMONIC") { MNEMONIC } else { "k-123456" }))
        .collect();
    std::fs::write(&secrets_path, secrets).unwrap();

    let mut inputs = CallInputs::new(config_path);
    inputs.secrets = Some(secrets_path);
    let job = CallJob::new(inputs, ois::call::CallOptions::default());
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().unwrap();
    let agent = ureq::Agent::new_with_defaults();
    let urls: Vec<String> = (0..templates).map(|i| format!("{base}/price?symbol=SYM{i}")).collect();

    let (mut ours, mut floor) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let start = Instant::now();
        let report =
            many(&job, false, jobs, 0, &|_| {}).map_err(|stop| format!("{:?}", stop.located.diagnostics)).unwrap();
        ours.push(start.elapsed().as_secs_f64() * 1000.0);
        let ManyReport::Beacons(report) = report else { unreachable!("a Feed config") };
        if report.ok != templates || report.api_calls != templates {
            eprintln!(
                "{} ok of {templates}: {:?}",
                report.ok,
                report.beacons.first().and_then(|b| b.outcome.message.clone())
            );
            return ExitCode::FAILURE;
        }

        let start = Instant::now();
        pool.install(|| {
            urls.par_iter().for_each(|url| {
                let mut answer = agent.get(url).header("x-api-key", "k-123456").call().unwrap();
                let _ = answer.body_mut().read_to_string().unwrap();
            });
        });
        floor.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    let (ours, floor) = (median(ours), median(floor));
    let per_template = (ours - floor) * jobs as f64 / templates as f64;
    println!(
        "{templates} templates, a trigger each, API answers in {} ms, {jobs} at a time, {runs} runs alternating",
        latency.as_millis()
    );
    println!("ois call CONFIG: median {ours:.1} ms");
    println!("plain GETs:      median {floor:.1} ms");
    println!("ois adds {per_template:.2} ms per template over the API's latency (goal: at most 5)");
    ExitCode::SUCCESS
}
