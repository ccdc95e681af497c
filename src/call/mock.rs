//! `ois mock`: the recordings of a folder — or answers made from an OpenAPI document — served on
//! 127.0.0.1, so that a call, a node or CI can run without the vendor. A request gets the
//! recording that answers it ([`Recording::answers`](super::recording::Recording::answers): method, path, query and body; a recorded
//! credential must be there, any value), or the document's operation at its path; one that none
//! answers gets 404 (501 for a path the document has with another method) naming what was asked.
//! Each hit is logged.

use std::path::{Path, PathBuf};

use super::recording::Recordings;
use super::synthesized::{Route, routes};
use crate::diagnostic::{Code, Diagnostic, Fix};

/// The largest request body read (a node's POST bodies are small).
const MAX_BODY_BYTES: u64 = 1 << 20;

/// How long a request's body may take to arrive.
const BODY_DEADLINE: std::time::Duration = std::time::Duration::from_secs(10);

/// What a mock answers with.
enum Answers {
    /// A folder's recordings.
    Recorded(Recordings),
    /// An OpenAPI document's operations.
    Made(Vec<Route>),
}

/// A mock bound to its port, with what it serves.
pub struct Mock {
    server: tiny_http::Server,
    /// The port bound (the one asked for, or the free one chosen for 0).
    pub port: u16,
    /// The folder of recordings, or the OpenAPI document, served.
    pub folder: PathBuf,
    answers: Answers,
    /// The query parameters that carry a credential, masked in the log.
    credential_names: Vec<String>,
}

impl Mock {
    /// Reads what `from` holds — a folder of recordings, or an OpenAPI document whose answers are
    /// made with `seed` — and binds 127.0.0.1 (only) at `port` (0: any free one). Refused when
    /// there is nothing to serve.
    pub fn bind(from: &Path, port: u16, seed: u64) -> Result<Mock, Diagnostic> {
        let credential_names;
        let answers = if from.is_dir() {
            let recordings = Recordings::at(from);
            let all = recordings.all()?;
            if all.is_empty() {
                return Err(Diagnostic::elsewhere(
                    Code::NoRecording,
                    format!("{} holds no recording to serve", from.display()),
                )
                .with_help("record a call's exchanges into it first"));
            }
            credential_names = all.iter().flat_map(|(_, r)| r.credential_query_names()).collect();
            Answers::Recorded(recordings)
        } else {
            let source = crate::source::Source::read(from)?;
            let root = source.parse()?;
            credential_names = super::synthesized::query_credential_names(&root);
            Answers::Made(routes(&root, seed).map_err(|mut error| {
                source.locate_diagnostic(&mut error);
                error
            })?)
        };
        let folder = from;
        let server = tiny_http::Server::http(("127.0.0.1", port)).map_err(|error| {
            Diagnostic::elsewhere(Code::BadArgument, format!("cannot listen on 127.0.0.1:{port}: {error}"))
                .with_fix(Fix::ChoosePort)
        })?;
        let port = server.server_addr().to_ip().map_or(port, |address| address.port());
        Ok(Mock { server, port, folder: folder.to_path_buf(), answers, credential_names })
    }

    /// How many recordings or operations it serves.
    pub fn len(&self) -> usize {
        match &self.answers {
            Answers::Recorded(recordings) => recordings.all().map_or(0, <[_]>::len),
            Answers::Made(routes) => routes.len(),
        }
    }

    /// Whether it serves none (never, once bound).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether it serves recordings (not answers made from a document).
    pub fn is_recorded(&self) -> bool {
        matches!(self.answers, Answers::Recorded(_))
    }

    /// Serves until the process ends, each request on a thread of its own (a client that stalls
    /// holds only its own request); `log` hears a line per request, its credentials masked and
    /// its control characters shown as escapes:
    /// `GET /simple/price?ids=bitcoin → 200 get-simple-price-1a2b3c4d.json`.
    pub fn serve(&self, log: &(dyn Fn(&str) + Sync)) {
        let busy = |request: tiny_http::Request| {
            let _ =
                request.respond(tiny_http::Response::from_string("the mock is busy: try again").with_status_code(503));
        };
        super::loopback::serve_each(&self.server, &busy, &|request| self.serve_one(request, log));
    }

    fn serve_one(&self, mut request: tiny_http::Request, log: &(dyn Fn(&str) + Sync)) {
        let method = request.method().as_str().to_owned();
        let target = request.url().to_owned();
        let masked = self.masked(&target);
        let shown = crate::emit::printable(&masked);
        let refused = |request: tiny_http::Request, status: u16, message: &str| {
            log(&format!("{method} {shown} → {status} refused: {message}"));
            let _ = request.respond(tiny_http::Response::from_string(message).with_status_code(status));
        };
        if !super::loopback::host(&request).is_some_and(|host| super::loopback::is_own_host(host, self.port)) {
            return refused(request, 403, "refused: the Host is not this mock's (127.0.0.1 or localhost, its port)");
        }
        let body = match super::loopback::read_body(&mut request, MAX_BODY_BYTES, BODY_DEADLINE) {
            Ok(body) => body,
            Err(refusal) => return refused(request, refusal.status(), refusal.message()),
        };
        let headers: Vec<(String, String)> = request
            .headers()
            .iter()
            .map(|h| (h.field.as_str().as_str().to_owned(), h.value.as_str().to_owned()))
            .collect();
        let json = (!body.is_empty()).then(|| serde_json::from_slice(&body).ok()).flatten();
        let url = format!("http://127.0.0.1:{}{target}", self.port);
        let (status, response_headers, text, said) = self.respond(&method, &url, &target, &headers, json.as_ref());
        // A status HTTP cannot carry, or one that would change the connection (101), is not
        // served as recorded.
        let (status, text, said) = if (200..=599).contains(&status) {
            (status, text, said)
        } else {
            (
                502,
                format!("the recorded status {status} cannot be served"),
                format!("{said} (recorded status {status})"),
            )
        };
        log(&format!("{method} {shown} → {status} {}", crate::emit::printable(&said)));
        let mut response = tiny_http::Response::from_data(text.into_bytes()).with_status_code(status);
        for (name, value) in response_headers {
            if !super::loopback::is_sendable_header(&name, &value) {
                continue;
            }
            if let Ok(header) = tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()) {
                response.add_header(header);
            }
        }
        let _ = request.respond(response);
    }

    /// `target` with the value of every query parameter that carries a credential masked: those
    /// the recordings hold as credentials, those the document's security schemes send in the
    /// query, and any whose name says it is a key.
    fn masked(&self, target: &str) -> String {
        let Some((path, query)) = target.split_once('?') else { return target.to_owned() };
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| {
                let (name, _) = pair.split_once('=').unwrap_or((pair, ""));
                let decoded = percent_encoding::percent_decode_str(name).decode_utf8_lossy();
                let secret = self.credential_names.iter().any(|known| known == decoded.as_ref())
                    || crate::ois::credential::looks_like_credential(&decoded, None);
                if secret { format!("{name}=****") } else { pair.to_owned() }
            })
            .collect();
        format!("{path}?{}", pairs.join("&"))
    }

    /// The status, headers, body and what answered (for the log) of one request.
    fn respond(
        &self,
        method: &str,
        url: &str,
        target: &str,
        headers: &[(String, String)],
        body: Option<&serde_json::Value>,
    ) -> (u16, Vec<(String, String)>, String, String) {
        let json_type = || vec![("content-type".to_owned(), "application/json".to_owned())];
        let refused = |status: u16, error: String, nearest: Option<String>| {
            let body = serde_json::json!({"error": error, "nearest": nearest});
            (status, json_type(), body.to_string(), "no answer".to_owned())
        };
        match &self.answers {
            Answers::Recorded(recordings) => match recordings.answering(method, url, headers, body).ok().flatten() {
                Some((name, recording)) => {
                    let answer = &recording.response;
                    let kept: Vec<(String, String)> = answer
                        .headers
                        .iter()
                        .filter(|(n, _)| {
                            !["content-length", "transfer-encoding", "connection", "content-encoding"]
                                .contains(&n.to_ascii_lowercase().as_str())
                        })
                        .cloned()
                        .collect();
                    (answer.status, kept, answer.text(), name.clone())
                }
                None => {
                    let near = recordings.nearest(method, url);
                    // As the vendor would: a request without the credential it requires is
                    // refused as unauthorized.
                    if let Some((name, missing)) =
                        near.and_then(|(n, r)| Some((n, r.credential_missing(url, headers)?)))
                    {
                        let error = format!("no credential in {missing}, which the recording {name} was made with");
                        return refused(401, error, Some(name.clone()));
                    }
                    let error = format!("no recording in {} answers {method} {target}", self.folder.display());
                    refused(404, error, near.map(|(n, _)| n.clone()))
                }
            },
            Answers::Made(routes) => {
                let path = url::Url::parse(url).map(|u| u.path().to_owned()).unwrap_or_default();
                match routes.iter().find(|route| route.matches(method, &path)) {
                    // As the vendor would: a request without the credential its security requires
                    // is refused as unauthorized.
                    Some(route) if let Some(missing) = route.credential_missing(url, headers) => refused(
                        401,
                        format!(
                            "no credential in {missing}, which {} requires for {} {}",
                            self.folder.display(),
                            route.method,
                            route.path
                        ),
                        None,
                    ),
                    Some(route) => (
                        route.status,
                        json_type(),
                        crate::js::stringify(&route.body),
                        format!("{} {}", route.method, route.path),
                    ),
                    None => match routes.iter().find(|route| route.matches(&route.method, &path)) {
                        Some(route) => refused(
                            501,
                            format!("{} has {} {}, not {method}", self.folder.display(), route.method, route.path),
                            None,
                        ),
                        None => refused(404, format!("{} has no operation at {target}", self.folder.display()), None),
                    },
                }
            }
        }
    }
}
