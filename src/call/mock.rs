//! `ois mock`: the recordings of a folder served on 127.0.0.1, so that a call, a node or CI can
//! run without the vendor. A request gets the recording that answers it ([`Recording::answers`]:
//! method, path, query and body; a recorded credential must be there, any value); one that none
//! answers gets 404 naming what was asked and the nearest recording. Each hit is logged.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::recording::{Recording, read_folder};
use crate::diagnostic::{Code, Diagnostic, Fix};

/// The largest request body read (a node's POST bodies are small).
const MAX_BODY_BYTES: u64 = 1 << 20;

/// A mock bound to its port, with the recordings it serves.
pub struct Mock {
    server: tiny_http::Server,
    /// The port bound (the one asked for, or the free one chosen for 0).
    pub port: u16,
    /// The folder the recordings came from.
    pub folder: PathBuf,
    recordings: Vec<(String, Recording)>,
}

impl Mock {
    /// Reads the recordings of `folder` and binds 127.0.0.1 (only) at `port` (0: any free one).
    /// Refused when the folder holds no recording.
    pub fn bind(folder: &Path, port: u16) -> Result<Mock, Diagnostic> {
        let recordings = read_folder(folder)?;
        if recordings.is_empty() {
            return Err(Diagnostic::elsewhere(
                Code::NoRecording,
                format!("{} holds no recording to serve", folder.display()),
            )
            .with_help("record a call's exchanges into it first"));
        }
        let server = tiny_http::Server::http(("127.0.0.1", port)).map_err(|error| {
            Diagnostic::elsewhere(Code::BadArgument, format!("cannot listen on 127.0.0.1:{port}: {error}"))
                .with_fix(Fix::ChoosePort)
        })?;
        let port = server.server_addr().to_ip().map_or(port, |address| address.port());
        Ok(Mock { server, port, folder: folder.to_path_buf(), recordings })
    }

    /// How many recordings it serves.
    pub fn len(&self) -> usize {
        self.recordings.len()
    }

    /// Whether it serves none (never, once bound).
    pub fn is_empty(&self) -> bool {
        self.recordings.is_empty()
    }

    /// Serves until the process ends, one request at a time; `log` hears a line per request:
    /// `GET /simple/price?ids=bitcoin → 200 get-simple-price-1a2b3c4d.json`.
    pub fn serve(&self, log: &dyn Fn(&str)) {
        for mut request in self.server.incoming_requests() {
            let method = request.method().as_str().to_owned();
            let target = request.url().to_owned();
            let headers: Vec<(String, String)> = request
                .headers()
                .iter()
                .map(|h| (h.field.as_str().as_str().to_owned(), h.value.as_str().to_owned()))
                .collect();
            let mut body = Vec::new();
            let read = request.as_reader().take(MAX_BODY_BYTES).read_to_end(&mut body);
            let json = (read.is_ok() && !body.is_empty()).then(|| serde_json::from_slice(&body).ok()).flatten();
            let url = format!("http://127.0.0.1:{}{target}", self.port);
            let (status, response_headers, text, said) = match self.answer(&method, &url, &headers, json.as_ref()) {
                Some((name, recording)) => {
                    let reply = recording.reply();
                    let kept: Vec<(String, String)> = reply
                        .headers
                        .into_iter()
                        .filter(|(n, _)| {
                            !["content-length", "transfer-encoding", "connection", "content-encoding"]
                                .contains(&n.to_ascii_lowercase().as_str())
                        })
                        .collect();
                    (reply.status, kept, reply.text, name.clone())
                }
                None => {
                    let nearest =
                        self.recordings.iter().find(|(_, r)| r.is_near(&method, &url)).map(|(n, _)| n.clone());
                    let error = serde_json::json!({
                        "error": format!("no recording in {} answers {method} {target}", self.folder.display()),
                        "nearest": nearest,
                    });
                    let content = vec![("content-type".to_owned(), "application/json".to_owned())];
                    (404, content, error.to_string(), "no recording".to_owned())
                }
            };
            log(&format!("{method} {target} → {status} {said}"));
            let mut response = tiny_http::Response::from_data(text.into_bytes()).with_status_code(status);
            for (name, value) in response_headers {
                if let Ok(header) = tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()) {
                    response.add_header(header);
                }
            }
            let _ = request.respond(response);
        }
    }

    /// The recording that answers a request: at its very path first, then at one differing by a
    /// server prefix.
    fn answer(
        &self,
        method: &str,
        url: &str,
        headers: &[(String, String)],
        body: Option<&serde_json::Value>,
    ) -> Option<&(String, Recording)> {
        [true, false]
            .into_iter()
            .find_map(|exactly| self.recordings.iter().find(|(_, r)| r.answers(method, url, headers, body, exactly)))
    }
}
