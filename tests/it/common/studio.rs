//! `ois studio` run as a user runs it, on a folder of the test's, and raw HTTP to it (so a test
//! can send any Host, token or path).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

/// A running studio; killed when dropped.
pub struct Studio {
    child: Child,
    /// The page's address, token included.
    pub url: String,
    pub port: u16,
    pub token: String,
    /// What it wrote to stderr (its request log).
    pub log: Arc<Mutex<String>>,
}

impl Studio {
    /// Starts `ois studio ARGS --no-open --port 0` in `folder`.
    pub fn start(folder: &Path, args: &[&str]) -> Studio {
        Studio::start_with_env(folder, args, &[])
    }

    /// [`Studio::start`] with these environment variables set for it.
    pub fn start_with_env(folder: &Path, args: &[&str], env: &[(&str, &str)]) -> Studio {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ois"))
            .envs(env.iter().copied())
            .arg("studio")
            .args(args)
            .args(["--no-open", "--port", "0"])
            .current_dir(folder)
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ois studio starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("the address line");
        let url = line.trim().strip_prefix("ois studio: ").unwrap_or_else(|| panic!("no address: {line}")).to_owned();
        let port = url.split(':').nth(2).and_then(|p| p.split('/').next()).and_then(|p| p.parse().ok()).expect("port");
        let token = url.split("token=").nth(1).expect("token").to_owned();
        let log = Arc::new(Mutex::new(String::new()));
        let mut stderr = child.stderr.take().expect("stderr");
        let sink = Arc::clone(&log);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buffer[..n]));
            }
        });
        std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = stdout.read_to_string(&mut rest);
        });
        Studio { child, url, port, token, log }
    }

    /// `METHOD target` with `headers` (Host and the token header as given: none added) and a
    /// body; the status and the body.
    pub fn raw(&self, method: &str, target: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connects");
        let mut request = format!("{method} {target} HTTP/1.1\r\n");
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str(&format!("Content-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len()));
        stream.write_all(request.as_bytes()).expect("sends");
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let split = answer.windows(4).position(|w| w == b"\r\n\r\n").map_or(answer.len(), |at| at + 4);
        let (head, body) = answer.split_at(split);
        let head = String::from_utf8_lossy(head);
        let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let chunked = head.lines().any(|line| line.eq_ignore_ascii_case("transfer-encoding: chunked"));
        let body = if chunked { unchunked(body) } else { body.to_vec() };
        (status, String::from_utf8(body).expect("UTF-8"))
    }

    /// The studio's process ID.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A call of the page's: its Host, its token, a JSON body.
    pub fn api(&self, path: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
        let host = format!("127.0.0.1:{}", self.port);
        let (status, text) = self.raw(
            "POST",
            path,
            &[("Host", &host), ("X-Ois-Token", &self.token), ("Content-Type", "application/json")],
            &body.to_string(),
        );
        (status, serde_json::from_str(&text).unwrap_or_else(|_| serde_json::Value::String(text)))
    }
}

/// The body of a chunked answer (a big one is sent that way): each chunk's size line, in hex, then
/// its bytes, until the empty chunk.
fn unchunked(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(line_end) = rest.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&rest[..line_end]).expect("a chunk's size line");
        let size = usize::from_str_radix(size.trim(), 16).expect("a chunk's size");
        if size == 0 {
            break;
        }
        let after = &rest[line_end + 2..];
        body.extend_from_slice(&after[..size]);
        rest = after[size..].strip_prefix(b"\r\n").expect("a chunk's end");
    }
    body
}

impl Drop for Studio {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
