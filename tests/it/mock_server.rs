//! `ois mock` as a server someone else talks to (hardening round five): a client that stalls
//! holds only its own request, a Host that is not the mock's is refused, a recording's header
//! or status that HTTP cannot carry is not sent as recorded, and its log shows no credential and
//! no raw control character.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;

/// A child `ois mock` whose log (standard error) goes to a file, stopped when dropped.
struct Mock {
    child: std::process::Child,
    port: u16,
    log: std::path::PathBuf,
}

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Mock {
    fn start(from: &Path, log: std::path::PathBuf) -> Mock {
        use std::io::BufRead;
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ois"))
            .arg("mock")
            .arg(from)
            .args(["--port", "0"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let port = line.trim().rsplit(':').next().unwrap().parse().unwrap();
        Mock { child, port, log }
    }

    /// The raw answer to `request` (a whole HTTP/1.1 request), within five seconds.
    fn raw(&self, request: &str) -> String {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).into_owned()
    }

    fn get(&self, target: &str) -> String {
        self.raw(&format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n", self.port))
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap()
    }
}

/// A folder of recordings: `GET /price?key=<credential>` answered with `status` and `headers`.
fn recorded(dir: &Path, name: &str, path: &str, status: u16, headers: serde_json::Value) {
    let recording = json!({
        "oisRecording": 1,
        "request": {"method": "GET", "url": format!("https://api.example.com{path}?key=%3Ccredential%3E")},
        "response": {"status": status, "headers": headers, "body": {"price": 1}},
        "latencyMs": 1
    });
    std::fs::write(dir.join(name), recording.to_string()).unwrap();
}

#[test]
fn the_mock_holds_against_its_clients() {
    let dir = tempfile::tempdir().unwrap();
    let recordings = dir.path().join("answers");
    std::fs::create_dir(&recordings).unwrap();
    recorded(&recordings, "get-price-1.json", "/price", 200, json!([["x-split", "a\r\nset-cookie: pwned=1"]]));
    recorded(&recordings, "get-switch\u{1b}[31m-2.json", "/switch", 101, json!([]));
    recorded(&recordings, "get-zero-3.json", "/zero", 0, json!([]));
    let mock = Mock::start(&recordings, dir.path().join("mock.log"));

    // A client that announces a body and never sends it: the next request is answered anyway.
    let mut stalled = TcpStream::connect(("127.0.0.1", mock.port)).unwrap();
    let announce = format!("POST /price HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 100\r\n\r\n", mock.port);
    stalled.write_all(announce.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let answer = mock.get("/price?key=s3cr3t-query-key");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(3), "answered after {:?}", started.elapsed());
    // The recorded header with a line break in it is not sent, let alone as two headers.
    assert!(!answer.to_ascii_lowercase().contains("set-cookie"), "{answer}");
    drop(stalled);

    // Another Host (DNS rebinding): refused.
    let rebound = mock.raw("GET /price?key=x HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
    assert!(rebound.starts_with("HTTP/1.1 403"), "{rebound}");

    // Statuses HTTP cannot carry, or that would switch protocols: a 502 saying so.
    for path in ["/switch?key=x", "/zero?key=x"] {
        let answer = mock.get(path);
        assert!(answer.starts_with("HTTP/1.1 502"), "{path}: {answer}");
        assert!(answer.contains("cannot be served"), "{path}: {answer}");
    }

    std::thread::sleep(Duration::from_millis(200));
    let log = mock.log();
    assert!(!log.contains("s3cr3t-query-key"), "the log shows the key: {log}");
    assert!(log.contains("key=****"), "{log}");
    assert!(!log.contains('\u{1b}'), "a raw escape in the log: {log:?}");
}

#[test]
fn a_document_s_query_key_is_masked_in_the_mock_s_log() {
    let dir = tempfile::tempdir().unwrap();
    let document = dir.path().join("api.yaml");
    std::fs::write(
        &document,
        r#"openapi: 3.0.3
info: {title: Metals, version: 1.0.0}
servers: [{url: "https://api.metals.example"}]
security: [{q: []}]
components:
  securitySchemes:
    q: {type: apiKey, in: query, name: access}
paths:
  /spot:
    get:
      responses: {"200": {description: ok, content: {application/json: {example: {gold: 1}}}}}
"#,
    )
    .unwrap();
    let mock = Mock::start(&document, dir.path().join("mock.log"));
    assert!(mock.get("/spot?access=zq-9918-key&metal=gold").starts_with("HTTP/1.1 200"));
    std::thread::sleep(Duration::from_millis(200));
    let log = mock.log();
    assert!(!log.contains("zq-9918-key") && log.contains("access=****&metal=gold"), "{log}");
}

/// As the vendor would, and as it does on recordings: a request without the credential the
/// document's security requires is refused 401, naming where the credential goes; one of the
/// alternatives whole is enough, and an operation whose security is optional (`{}`) needs none.
#[test]
fn a_document_s_security_is_required_of_each_request() {
    let dir = tempfile::tempdir().unwrap();
    let document = dir.path().join("api.yaml");
    std::fs::write(
        &document,
        r#"openapi: 3.0.3
info: {title: Weather, version: 1.0.0}
servers: [{url: "https://api.weather.example"}]
security: [{q: []}, {h: [], b: []}]
components:
  securitySchemes:
    q: {type: apiKey, in: query, name: appid}
    h: {type: apiKey, in: header, name: X-Key}
    b: {type: http, scheme: bearer}
paths:
  /now:
    get:
      responses: {"200": {description: ok, content: {application/json: {example: {t: 21}}}}}
  /status:
    get:
      security: [{}]
      responses: {"200": {description: ok, content: {application/json: {example: {up: true}}}}}
"#,
    )
    .unwrap();
    let mock = Mock::start(&document, dir.path().join("mock.log"));
    let refused = mock.get("/now?city=paris");
    assert!(refused.starts_with("HTTP/1.1 401"), "{refused}");
    assert!(refused.contains(r#"no credential in query \"appid\""#), "{refused}");
    assert!(mock.get("/now?appid=k-1").starts_with("HTTP/1.1 200"));
    let with_headers = |headers: &str| {
        mock.raw(&format!("GET /now HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n{headers}Connection: close\r\n\r\n", mock.port))
    };
    assert!(with_headers("X-Key: k-2\r\n").starts_with("HTTP/1.1 401"), "half of a set is not the set");
    assert!(with_headers("X-Key: k-2\r\nAuthorization: Bearer t\r\n").starts_with("HTTP/1.1 200"));
    assert!(mock.get("/status").starts_with("HTTP/1.1 200"));
}
