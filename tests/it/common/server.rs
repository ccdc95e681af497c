//! A small HTTP/1.1 server on 127.0.0.1 for the tests that call an API: it records every request
//! and answers as the test's handler says. Nothing beyond loopback.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// One request as the server read it.
#[derive(Clone, Debug)]
pub struct Received {
    pub method: String,
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The target without its query.
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or_default()
    }
}

/// The server: its base URL and what it received.
pub struct Server {
    pub base: String,
    received: Arc<Mutex<Vec<Received>>>,
}

pub fn read_request(stream: &TcpStream) -> Option<Received> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let (method, target) = (parts.next()?.to_owned(), parts.next()?.to_owned());
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        headers.push((name.trim().to_owned(), value.trim().to_owned()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Received { method, target, headers, body: String::from_utf8_lossy(&body).into_owned() })
}

/// Writes a whole answer and closes.
pub fn answer(stream: &mut TcpStream, status: &str, content_type: &str, extra: &str, body: &[u8]) {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
}

impl Server {
    /// Starts serving on a free port, each request on a thread of its own, answered by `handler`.
    pub fn start(handler: impl Fn(&Received, &mut TcpStream) + Send + Sync + 'static) -> Server {
        Server::start_on(0, handler)
    }

    /// [`Server::start`] on `port` of 127.0.0.1 (0: a free one).
    pub fn start_on(port: u16, handler: impl Fn(&Received, &mut TcpStream) + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind(("127.0.0.1", port)).expect("a loopback port");
        let base = format!("http://{}", listener.local_addr().expect("its address"));
        let received: Arc<Mutex<Vec<Received>>> = Arc::default();
        let log = Arc::clone(&received);
        let handler = Arc::new(handler);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let (log, handler) = (Arc::clone(&log), Arc::clone(&handler));
                std::thread::spawn(move || {
                    let Some(request) = read_request(&stream) else { return };
                    log.lock().expect("the log").push(request.clone());
                    handler(&request, &mut stream);
                });
            }
        });
        Server { base, received }
    }

    /// What it received since the last take.
    pub fn take(&self) -> Vec<Received> {
        std::mem::take(&mut *self.received.lock().expect("the log"))
    }
}
