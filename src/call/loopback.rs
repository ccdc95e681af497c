//! Serving on 127.0.0.1, for our own servers (the studio and `ois mock`): what a request must be
//! before it is answered, whoever sends it. Each request is served on a thread of its own, a
//! bounded number at once, so a client that announces a body and never sends it holds only its
//! own; a body is read within a size and a time; a `Host` that is not this server's own is
//! refused (a web page elsewhere cannot reach it through DNS rebinding).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How many requests are served at once; one more is answered at once as busy.
pub const MAX_IN_FLIGHT: usize = 32;

/// Serves every request of `server` until the process ends on [`MAX_IN_FLIGHT`] threads kept for
/// it (a thread made per request halved the mock's rate): `one` serves a request, or `busy` when
/// every thread is serving one already, so a stalled client holds only its own.
pub fn serve_each(
    server: &tiny_http::Server,
    busy: &(dyn Fn(tiny_http::Request) + Sync),
    one: &(dyn Fn(tiny_http::Request) + Sync),
) {
    let in_flight = AtomicUsize::new(0);
    let (hand, taken) = std::sync::mpsc::channel::<tiny_http::Request>();
    let taken = std::sync::Mutex::new(taken);
    std::thread::scope(|scope| {
        for _ in 0..MAX_IN_FLIGHT {
            scope.spawn(|| {
                loop {
                    // The lock is held only while waiting for the next request, never while serving.
                    let next = match taken.lock() {
                        Ok(receiver) => receiver.recv(),
                        Err(_) => return,
                    };
                    let Ok(request) = next else { return };
                    one(request);
                    in_flight.fetch_sub(1, Ordering::SeqCst);
                }
            });
        }
        for request in server.incoming_requests() {
            if in_flight.fetch_add(1, Ordering::SeqCst) >= MAX_IN_FLIGHT {
                in_flight.fetch_sub(1, Ordering::SeqCst);
                busy(request);
            } else if let Err(unsent) = hand.send(request) {
                in_flight.fetch_sub(1, Ordering::SeqCst);
                busy(unsent.0);
            }
        }
        drop(hand);
    });
}

/// Why a request's body was not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyRefusal {
    /// The connection failed while reading it.
    Unreadable,
    /// It is larger than the server reads.
    TooLarge,
    /// It came more slowly than the server waits.
    TooSlow,
}

impl BodyRefusal {
    /// The HTTP status that says so.
    pub fn status(self) -> u16 {
        match self {
            BodyRefusal::Unreadable => 400,
            BodyRefusal::TooLarge => 413,
            BodyRefusal::TooSlow => 408,
        }
    }

    /// What the answer says.
    pub fn message(self) -> &'static str {
        match self {
            BodyRefusal::Unreadable => "the request could not be read",
            BodyRefusal::TooLarge => "the request is larger than this server reads",
            BodyRefusal::TooSlow => "the request's body came too slowly",
        }
    }
}

/// The body of `request`: at most `max` bytes (a larger announced length is refused before a byte
/// is read), within `deadline`.
pub fn read_body(request: &mut tiny_http::Request, max: u64, deadline: Duration) -> Result<Vec<u8>, BodyRefusal> {
    if request.body_length().is_some_and(|length| length as u64 > max) {
        return Err(BodyRefusal::TooLarge);
    }
    let reader = request.as_reader();
    let started = Instant::now();
    let mut body = Vec::new();
    let mut chunk = [0u8; 64 * 1024];
    loop {
        let read = reader.read(&mut chunk).map_err(|_| BodyRefusal::Unreadable)?;
        let Some(bytes) = chunk.get(..read).filter(|bytes| !bytes.is_empty()) else { return Ok(body) };
        body.extend_from_slice(bytes);
        if body.len() as u64 > max {
            return Err(BodyRefusal::TooLarge);
        }
        if started.elapsed() > deadline {
            return Err(BodyRefusal::TooSlow);
        }
    }
}

/// Whether `host` (a `Host` header) names this server: 127.0.0.1 or localhost, at `port`.
pub fn is_own_host(host: &str, port: u16) -> bool {
    let Some((name, given_port)) = host.rsplit_once(':') else { return false };
    matches!(name.to_ascii_lowercase().as_str(), "127.0.0.1" | "localhost") && given_port == port.to_string()
}

/// The `Host` header of `request`.
pub fn host(request: &tiny_http::Request) -> Option<&str> {
    request.headers().iter().find(|header| header.field.equiv("Host")).map(|header| header.value.as_str())
}

/// Whether a header may be sent as it is: no line break or other control character in its name or
/// value (a recorded `a\r\nSet-Cookie: …` would be sent as two headers).
pub fn is_sendable_header(name: &str, value: &str) -> bool {
    !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_graphic() && b != b':')
        && value.bytes().all(|b| b == b'\t' || !b.is_ascii_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_server_s_host_and_plain_headers() {
        assert!(is_own_host("127.0.0.1:8080", 8080) && is_own_host("LOCALHOST:8080", 8080));
        for host in ["127.0.0.1:8081", "evil.example:8080", "127.0.0.1", "127.0.0.1.evil:8080"] {
            assert!(!is_own_host(host, 8080), "{host}");
        }
        assert!(is_sendable_header("content-type", "application/json; charset=utf-8\tx"));
        for (name, value) in [("a", "b\r\nset-cookie: x"), ("a\r\nb", "c"), ("", "x"), ("a b", "c"), ("a", "\0")] {
            assert!(!is_sendable_header(name, value), "{name:?}: {value:?}");
        }
    }
}
