//! `ois mock` against the floor: requests per second answered from recordings, and from a trivial
//! server on the same machine answering the same body, alternated in one run, medians reported
//! (a Feed with hundreds of templates must never wait on a mock). Run by `bench/run.sh mock`.
//!
//! Usage: mock [RUNS] [REQUESTS] [CLIENTS] [RECORDINGS]  (default: 7 runs, 20,000 requests, 4
//! clients, 50 recordings)

#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark: a failure stops it, loudly

use std::time::Instant;

use ois::call::mock::Mock;
use serde_json::json;

const BODY: &str = r#"{"rates": {"EUR": 0.92, "GBP": 0.79, "JPY": 151.2}}"#;

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples.get(samples.len() / 2).copied().unwrap_or(f64::NAN)
}

/// A server answering every request with [`BODY`], one at a time, as the mock serves.
fn floor() -> String {
    let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
    let base = format!("http://{}", server.server_addr().to_ip().unwrap());
    std::thread::spawn(move || {
        for request in server.incoming_requests() {
            let _ = request.respond(tiny_http::Response::from_string(BODY));
        }
    });
    base
}

/// Requests per second: `requests` GETs of `path` from `clients` threads, each with a kept-alive
/// connection.
fn rate(base: &str, path: &str, requests: usize, clients: usize) -> f64 {
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..clients {
            scope.spawn(|| {
                let agent = ureq::Agent::new_with_defaults();
                for _ in 0..requests / clients {
                    let mut answer = agent.get(format!("{base}{path}")).header("x-api-key", "k").call().unwrap();
                    answer.body_mut().read_to_string().unwrap();
                }
            });
        }
    });
    requests as f64 / started.elapsed().as_secs_f64()
}

fn main() {
    let arg =
        |index: usize, default: usize| std::env::args().nth(index).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (runs, requests, clients, recordings) = (arg(1, 7), arg(2, 20_000), arg(3, 4), arg(4, 50));
    let dir = tempfile::tempdir().unwrap();
    for index in 0..recordings {
        let recording = json!({
            "oisRecording": 1,
            "request": {"method": "GET", "url": format!("https://api.x.example/v1/rates?base=C{index}"),
                "headers": {"x-api-key": "<credential>"}},
            "response": {"status": 200, "headers": [["content-type", "application/json"]], "body": serde_json::from_str::<serde_json::Value>(BODY).unwrap()},
            "latencyMs": 10
        });
        std::fs::write(dir.path().join(format!("get-rates-{index:04}.json")), recording.to_string()).unwrap();
    }
    let mock = Mock::bind(dir.path(), 0, 0).unwrap();
    let mock_base = format!("http://127.0.0.1:{}", mock.port);
    std::thread::spawn(move || mock.serve(&|_| {}));
    let floor_base = floor();
    // The last recording: the mock reads every one before it.
    let path = format!("/v1/rates?base=C{}", recordings - 1);
    let (mut mocked, mut trivial) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        mocked.push(rate(&mock_base, &path, requests, clients));
        trivial.push(rate(&floor_base, &path, requests, clients));
    }
    let (mocked, trivial) = (median(mocked), median(trivial));
    println!(
        "{requests} requests, {clients} clients, {recordings} recordings: ois mock {mocked:.0}/s, trivial server {trivial:.0}/s (ratio {:.2})",
        mocked / trivial
    );
}
