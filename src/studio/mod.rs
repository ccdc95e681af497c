//! `ois studio`: the integrator's whole loop in a local web page — open an OpenAPI document or an
//! OIS, pick and refine endpoints, see the node's request, call the API, pick the value, build an
//! Airnode Feed config with its IDs, save, update — served by `ois` itself on 127.0.0.1.
//!
//! The page is plain HTML, CSS and JavaScript embedded in the binary (no build step, works
//! offline). Every request must name the studio's host and carry its token ([`gate`]); files are
//! read and written only below the folder it was started on ([`Folder`]); secrets typed into the
//! page stay in memory and are masked in everything sent back; processing runs in the embedded
//! sandbox only; calls go to the OIS's server or the one typed. Each step is a library job
//! ([`crate::jobs`]) or an [`crate::edit`] operation on the draft (the session).

mod folder;
pub mod gate;
mod generated;
mod held;
mod memory;
mod page;
mod session;
mod view;

use std::sync::Mutex;

use serde::de::DeserializeOwned;

pub use folder::Folder;
pub use gate::{Incoming, Outgoing};
pub use memory::release_memory_with;
use session::{OpenRequest, Session};

use crate::call::loopback;
use crate::diagnostic::{Code, Diagnostic};

/// The largest request body read: a 5 MB OpenAPI document pasted, many times over.
pub const MAX_BODY_BYTES: u64 = 64 * 1024 * 1024;

const INDEX_HTML: &str = include_str!("assets/index.html");
/// The page's script: its parts (each a few sections, kept short) joined in order at build time,
/// served as one script behind the same token gate.
const STUDIO_JS: &str = concat!(
    include_str!("assets/js/base.js"),
    include_str!("assets/js/draft.js"),
    include_str!("assets/js/call_and_build.js"),
);
const STUDIO_CSS: &str = include_str!("assets/studio.css");

/// A studio: its token, its port and its session.
#[derive(Debug)]
pub struct Studio {
    token: String,
    port: u16,
    session: Mutex<Session>,
}

impl Studio {
    /// A studio on `folder`, answering on `port` with `token`.
    pub fn new(folder: Folder, port: u16, token: String) -> Studio {
        Studio { token, port, session: Mutex::new(Session::new(folder)) }
    }

    /// The page's address, token included.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/?token={}", self.port, self.token)
    }

    /// Runs `step` on the session, on one of the pool's threads: they give back what they freed
    /// once the studio is idle, and the thread serving the request cannot be asked to.
    pub fn with_session<T: Send>(&self, step: impl FnOnce(&mut Session) -> T + Send) -> T {
        let mut session = match self.session.lock() {
            Ok(session) => session,
            // A step that panicked left the session as it was before it wrote: go on with it.
            Err(poisoned) => poisoned.into_inner(),
        };
        // Taken here, before the step leaves this thread: one step at a time is ever on the way
        // to the pool, so a pool thread waiting inside a step never takes up a second one that
        // would wait for this lock.
        let session = &mut *session;
        memory::on_a_releasing_thread(|| step(session))
    }

    /// Answers one request (the gate first).
    pub fn handle(&self, incoming: &Incoming) -> Outgoing {
        if let Some(refusal) = gate::refusal(incoming, self.port, &self.token) {
            return refusal;
        }
        let path = incoming.url.split('?').next().unwrap_or_default();
        match (incoming.method.as_str(), path) {
            ("GET", "/" | "/index.html") => Outgoing {
                status: 200,
                content_type: "text/html; charset=utf-8",
                body: INDEX_HTML.replace("{{TOKEN}}", &self.token).into_bytes(),
            },
            ("GET", "/studio.js") => {
                Outgoing { status: 200, content_type: "text/javascript; charset=utf-8", body: STUDIO_JS.into() }
            }
            ("GET", "/studio.css") => {
                Outgoing { status: 200, content_type: "text/css; charset=utf-8", body: STUDIO_CSS.into() }
            }
            ("GET", "/api/versions") => {
                let versions = self.with_session(|s| serde_json::to_value(s.versions()).unwrap_or_default());
                self.written(&Body::Answered { ok: true, answer: session::Reply::Value(versions) })
            }
            ("GET", "/api/state") => {
                let view = session::Reply::Value(self.with_session(|s| s.view()));
                self.written(&Body::Answered { ok: true, answer: view })
            }
            ("POST", api) if api.starts_with("/api/") => self.api(api, &incoming.body),
            _ => Outgoing::text(404, "not found"),
        }
    }

    fn api(&self, path: &str, body: &[u8]) -> Outgoing {
        let answer = match path {
            "/api/open" => self.step(body, |s, r| s.open(r)),
            "/api/convert" => self.step(body, |s, r| s.reconvert(r)),
            "/api/choose" => self.step(body, |s, r: Option<String>| s.choose(r)),
            "/api/edit" => self.step(body, |s, mut r: serde_json::Value| {
                // Which draft view the page holds, beside the edit itself.
                let seen = r.as_object_mut().and_then(|o| o.remove("seen")).and_then(|v| v.as_u64());
                let edit = serde_json::from_value(r).map_err(page_sent)?;
                s.edit_seen(edit, seen)
            }),
            "/api/text" => self.step(body, |s, r: String| s.set_text(r)),
            "/api/request" => self.step(body, |s, r| s.request(&r)),
            "/api/call" => self.call(body),
            "/api/secrets" => self.step(body, |s, r| s.set_secrets(r)),
            "/api/build" => self.step(body, |s, r| s.build(r)),
            "/api/save" => self.step(body, |s, r| s.save(r)),
            "/api/disk" => self.with_session(|s| s.disk()),
            "/api/reload" => self.with_session(|s| s.reload()),
            "/api/undo" => self.step(body, |s, r: session::SeenRequest| s.undo_seen(r.seen)),
            "/api/redo" => self.step(body, |s, r: session::SeenRequest| s.redo_seen(r.seen)),
            "/api/draft" => self.with_session(|s| s.draft_text()),
            "/api/report" => self.with_session(|s| s.report()),
            "/api/problems" => self.step(body, |s, r| s.problems(&r)),
            "/api/update" => self.step(body, |s, r| s.update(r)),
            "/api/update/take" => self.with_session(|s| s.take_update()),
            "/api/calls" => self.with_session(|s| s.past_calls()),
            "/api/status" => self.status(body),
            _ => return Outgoing::text(404, "no such call"),
        };
        self.written(&match answer {
            Ok(answer) => Body::Answered { ok: true, answer },
            Err(refused) => Body::Refused { ok: false, refused },
        })
    }

    /// An answer as the page reads it, written on the pool like the step that made it, with every
    /// form of every secret held masked wherever it carries one (an echoed key picked as the value,
    /// its string32 hex, what a snippet logged), the mnemonic included. With none held, it is
    /// written as it is (a big document's view is megabytes).
    fn written(&self, body: &Body) -> Outgoing {
        let secrets = self.with_session(|s| s.secret_values());
        memory::on_a_releasing_thread(|| {
            if secrets.is_empty() {
                return Outgoing::json(200, body);
            }
            let body = serde_json::to_value(body).unwrap_or(serde_json::Value::Null);
            Outgoing::json(200, &crate::request::render::masked_json(&secrets, false, &body))
        })
    }

    /// A real call, made without holding the session: the page's other steps go on meanwhile.
    fn call(&self, body: &[u8]) -> session::Answer {
        let request: session::CallRequest = parse_request(body)?;
        let prepared = self.with_session(|session| session.prepare_call(&request))?;
        let (response, answer, past) = prepared.run();
        self.with_session(|session| {
            session.hold_response(response);
            session.remember_call(past);
        });
        answer
    }

    /// What is live of the config built last, checked without holding the session.
    fn status(&self, body: &[u8]) -> session::Answer {
        let request: session::StatusRequest = parse_request(body)?;
        let job = self.with_session(|session| session.prepare_status(&request))?;
        session::run_status(&job)
    }

    fn step<R: DeserializeOwned + Send>(
        &self,
        body: &[u8],
        step: impl FnOnce(&mut Session, R) -> session::Answer + Send,
    ) -> session::Answer {
        let request: R = parse_request(body)?;
        self.with_session(|session| step(session, request))
    }
}

fn parse_request<R: DeserializeOwned>(body: &[u8]) -> Result<R, session::Refusal> {
    serde_json::from_slice(body).map_err(page_sent)
}

/// The refusal of a request the page sent that does not read as the step's.
fn page_sent(error: serde_json::Error) -> session::Refusal {
    session::Refusal::from(Diagnostic::elsewhere(Code::BadArgument, format!("the page sent {error}")))
}

/// Binds the studio's server on 127.0.0.1 (only) at `port` (0: any free one).
pub fn bind(port: u16) -> Result<(tiny_http::Server, u16), Diagnostic> {
    let server = tiny_http::Server::http(("127.0.0.1", port)).map_err(|error| {
        Diagnostic::elsewhere(Code::BadArgument, format!("cannot listen on 127.0.0.1:{port}: {error}"))
            .with_fix(crate::diagnostic::Fix::ChoosePort)
    })?;
    let bound = server.server_addr().to_ip().map_or(port, |address| address.port());
    Ok((server, bound))
}

/// How long a request's body may take to arrive (the page sends its largest, a pasted document,
/// in well under a second).
const BODY_DEADLINE: std::time::Duration = std::time::Duration::from_secs(20);

/// Serves `studio` on `server` until the process ends, each request on a thread of its own (a slow
/// API call or a slow client holds only its own request); each logged as its method, path (never
/// the query, which holds the token), status and how long the studio took to answer.
pub fn serve(studio: &Studio, server: &tiny_http::Server, log: &(dyn Fn(&str) + Sync)) {
    let busy = |request| {
        respond(request, Outgoing::text(503, "the studio is busy: try again"), std::time::Instant::now(), log);
    };
    loopback::serve_each(server, &busy, &|request| {
        let _step = memory::Step::start();
        serve_one(studio, request, log);
    });
}

/// One request: who is asking is checked before its body is read; the body is read within its
/// size and time bounds; then the studio answers.
fn serve_one(studio: &Studio, mut request: tiny_http::Request, log: &(dyn Fn(&str) + Sync)) {
    let started = std::time::Instant::now();
    let header = |name: &'static str| {
        request.headers().iter().find(|h| h.field.equiv(name)).map(|h| h.value.as_str().to_owned())
    };
    let mut incoming = Incoming {
        method: request.method().as_str().to_owned(),
        url: request.url().to_owned(),
        host: header("Host"),
        token: header("X-Ois-Token"),
        origin: header("Origin"),
        body: Vec::new(),
    };
    if let Some(refusal) = gate::refusal(&incoming, studio.port, &studio.token) {
        return respond(request, refusal, started, log);
    }
    let outgoing = match loopback::read_body(&mut request, MAX_BODY_BYTES, BODY_DEADLINE) {
        Ok(body) => {
            incoming.body = body;
            studio.handle(&incoming)
        }
        Err(refusal) => Outgoing::text(refusal.status(), refusal.message()),
    };
    respond(request, outgoing, started, log);
}

fn respond(request: tiny_http::Request, outgoing: Outgoing, started: std::time::Instant, log: &(dyn Fn(&str) + Sync)) {
    let path = request.url().split('?').next().unwrap_or_default();
    let method = request.method().as_str();
    let took = started.elapsed().as_secs_f64() * 1000.0;
    log(&format!("{method} {} {} {took:.1} ms", crate::emit::printable(path), outgoing.status));
    let mut response = tiny_http::Response::from_data(outgoing.body).with_status_code(outgoing.status);
    let headers = gate::SECURITY_HEADERS.iter().copied().chain([("Content-Type", outgoing.content_type)]);
    for (name, value) in headers {
        if let Ok(header) = tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(header);
        }
    }
    let _ = request.respond(response);
}

/// What every answer of the studio is: a step's answer, or its refusal. A refusal is an answer
/// too (the page shows its diagnostics), not a failed request: the HTTP errors are for requests
/// the studio would not take at all.
#[derive(serde::Serialize)]
#[serde(untagged)]
enum Body {
    Answered { ok: bool, answer: session::Reply },
    Refused { ok: bool, refused: session::Refusal },
}

/// A started studio: its server, the studio, and what opening the file given said (the studio
/// starts either way, and the page shows the same).
pub struct Started {
    /// The server, bound.
    pub server: tiny_http::Server,
    /// The studio.
    pub studio: Studio,
    /// Why the file given did not open.
    pub problems: Vec<Diagnostic>,
}

/// Starts a studio on `port` (0: any free one) over the folder of `file` (or the current folder),
/// with `file` open.
pub fn start(file: Option<&std::path::Path>, port: u16) -> Result<Started, Diagnostic> {
    let folder = file
        .and_then(std::path::Path::parent)
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let folder = Folder::new(folder)?;
    let (server, bound) = bind(port)?;
    let studio = Studio::new(folder, bound, gate::new_token()?);
    let mut problems = Vec::new();
    if let Some(name) = file.and_then(std::path::Path::file_name) {
        let request = OpenRequest { path: Some(name.to_string_lossy().into_owned()), ..OpenRequest::default() };
        if let Err(refusal) = studio.with_session(|session| session.open(request)) {
            problems = refusal.diagnostics.into_iter().map(|placed| placed.diagnostic).collect();
        }
        memory::freed();
    }
    Ok(Started { server, studio, problems })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A step whose work waits on the pool (its other half taken by another pool thread) while a
    /// second step arrives: the second waits for the lock on its own thread, so the first ends.
    /// Were the lock taken on the pool, the waiting pool thread would take up the second step
    /// there and wait for the lock it holds itself.
    #[test]
    fn a_step_waiting_on_the_pool_never_takes_up_the_next() {
        if rayon::current_num_threads() < 2 {
            return;
        }
        let folder = tempfile::tempdir().unwrap();
        let studio = std::sync::Arc::new(Studio::new(Folder::new(folder.path()).unwrap(), 0, "t".to_owned()));
        let (done, ended) = std::sync::mpsc::channel();
        let first = (studio.clone(), done.clone());
        std::thread::spawn(move || {
            let (studio, done) = first;
            studio.with_session(|_| {
                rayon::join(
                    || std::thread::sleep(Duration::from_millis(20)),
                    || std::thread::sleep(Duration::from_millis(600)),
                )
            });
            let _ = done.send("first");
        });
        std::thread::sleep(Duration::from_millis(200));
        std::thread::spawn(move || {
            studio.with_session(|_| ());
            let _ = done.send("second");
        });
        let mut ended: Vec<_> = (0..2).map_while(|_| ended.recv_timeout(Duration::from_secs(20)).ok()).collect();
        ended.sort_unstable();
        assert_eq!(ended, ["first", "second"], "the steps did not both end: the studio is stuck");
    }
}
