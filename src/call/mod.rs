//! The real API call, made locally the way the node makes it. This is the only part of the crate
//! that touches the network, and only when called.
//!
//! The request is the one [`request::prepare`] builds (pre-processing included); it is sent with
//! ureq (rustls, no OpenSSL) the way the node's axios sends it: the node's 10 s timeout, redirects
//! followed (21 at most, as axios's follow-redirects), `Accept: application/json, text/plain, */*`
//! and a JSON body for POST. The answer is read up to a size limit, parsed as `JSON.parse` would,
//! and finished as the node finishes it: post-processing, `_path`/`_times`/`_type`, the encoding.

pub mod drift;
#[cfg(any(feature = "studio", feature = "mock"))]
pub mod loopback;
#[cfg(feature = "mock")]
pub mod mock;
pub mod recording;
mod required_credentials;
pub mod synthesized;
mod view;

pub use view::{CallView, ReplyView};

use std::io::Read;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::processing::Engine;
use crate::request::{self, Exchange, Request, RequestOptions, Stopped};

/// airnode-node's first attempt and Airnode Feed's only one wait this long (airnode-node then
/// retries once with 20 s).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// axios sets no limit; we do, so that a runaway API cannot exhaust memory.
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 4 << 20;
/// follow-redirects (axios's transport in Node.js) stops after this many.
pub const MAX_REDIRECTS: u32 = 21;
/// The lines of a body a diagnostic quotes.
const QUOTED_LINES: usize = 5;

/// How the call is made.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CallOptions {
    /// How long to wait for the whole answer.
    pub timeout: Duration,
    /// The largest answer read; a larger one is [`Code::ResponseTooLarge`].
    pub max_response_bytes: u64,
    /// Keep each exchange in this folder ([`recording`]), credentials replaced.
    pub record: Option<std::path::PathBuf>,
    /// Answer from these recordings instead of the network: nothing is sent.
    pub replay: Option<recording::Recordings>,
    /// Compare each live answer with its recording: a call whose answer drifted fails.
    pub check: Option<drift::DriftCheck>,
    /// Accept two templates of one API call getting the same value (otherwise each is
    /// [`Code::ValuesEqual`]: one of them is likely reading the other's element).
    pub allow_equal_values: bool,
}

impl Default for CallOptions {
    fn default() -> Self {
        CallOptions {
            timeout: DEFAULT_TIMEOUT,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            record: None,
            replay: None,
            check: None,
            allow_equal_values: false,
        }
    }
}

/// What the API answered.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// From sending the request to the end of the body.
    pub latency: Duration,
    /// The response headers, in order.
    pub headers: Vec<(String, String)>,
    /// The body as text (invalid UTF-8 replaced).
    pub text: Arc<str>,
    /// The body as `JSON.parse` reads it (its value built when first asked for); `None` when it
    /// is not JSON.
    pub json: Option<request::JsonBody>,
    /// What the redirects on the way did that the user should know (a credential carried to
    /// another origin).
    pub notes: Vec<Diagnostic>,
}

fn millis(duration: &Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// A call from end to end.
#[derive(Clone, Debug)]
pub struct Called {
    /// Processing, the request and the value, as `ois request` shows them.
    pub exchange: Exchange,
    /// What the API answered; `None` for an endpoint that makes no API call.
    pub reply: Option<Reply>,
}

/// A call that stopped: why (and what the snippets logged), and the API's answer when there was
/// one.
#[derive(Clone, Debug)]
pub struct CallFailure {
    /// Why.
    pub stopped: Stopped,
    /// The answer, when the API gave one (a failed extraction, say).
    pub reply: Option<Reply>,
}

impl From<Stopped> for CallFailure {
    fn from(stopped: Stopped) -> Self {
        CallFailure { stopped, reply: None }
    }
}

/// Makes the call of `options.endpoint` against the real API: pre-processing, the request,
/// the answer, post-processing and the value (`now` is the unix time a `timestamp` encodes).
pub fn call(
    ois: &Value,
    options: &RequestOptions,
    engine: &Engine,
    call_options: &CallOptions,
    now: u64,
) -> Result<Called, CallFailure> {
    call_held(&request::HeldOis::of(ois), options, engine, call_options, now)
}

/// [`call`] of an OIS already as the node holds it (made once for many calls).
pub fn call_held(
    ois: &request::HeldOis<'_>,
    options: &RequestOptions,
    engine: &Engine,
    call_options: &CallOptions,
    now: u64,
) -> Result<Called, CallFailure> {
    let prepared = request::prepare_held(ois, options, engine)?;
    let reply = fetch(&prepared, call_options)?;
    let response = reply.as_ref().and_then(|reply| reply.json.as_ref());
    match prepared.answer_body(engine, response, now) {
        Ok(exchange) => Ok(Called { exchange, reply }),
        Err(stopped) => Err(CallFailure { stopped, reply }),
    }
}

/// Sends the request `prepared` holds and takes the answer as axios does: a status outside 2xx
/// or a body that is not JSON is a failure. `Ok(None)` for an endpoint that makes no API call.
pub fn fetch(prepared: &request::Prepared, call_options: &CallOptions) -> Result<Option<Reply>, CallFailure> {
    let Some(built) = &prepared.request else { return Ok(None) };
    let stopped = |diagnostic| Stopped { diagnostic, logs: prepared.logs.clone() };
    let reply = match &call_options.replay {
        Some(recordings) => recordings.find(built).and_then(|(_, found)| found.reply()).map_err(stopped)?,
        None => send(built, call_options).map_err(stopped)?,
    };
    if let Some(folder) = &call_options.record {
        recording::keep(folder, &recording::Recording::of(built, &reply)).map_err(stopped)?;
    }
    if !(200..300).contains(&reply.status) {
        return Err(CallFailure { stopped: stopped(status_error(&reply, &built.secrets)), reply: Some(reply) });
    }
    if reply.json.is_none() {
        return Err(CallFailure { stopped: stopped(not_json(&reply, &built.secrets)), reply: Some(reply) });
    }
    if let Some(check) = &call_options.check {
        let drifted = |message: String| Diagnostic::elsewhere(Code::AnswerDrifted, message);
        let (name, recorded) = check.recordings.find(built).map_err(stopped)?;
        // Compared as it would be recorded: a credential it echoes is `<credential>` in both.
        let compact = request::Style { pretty: false, javascript: false };
        let live =
            reply.json.as_ref().map(|body| request::mask_body_as(body, &built.secrets, recording::CREDENTIAL, compact));
        let live = live.as_deref().unwrap_or("null");
        let recorded_body = recorded.response.json().map_err(stopped)?;
        let recorded_body = recorded_body.as_ref().map_or("null", request::JsonBody::text);
        let moved = drift::drift(recorded_body, live, check.tolerance);
        if !moved.is_empty() {
            let message = format!(
                "the answer to {} {} drifted from its recording {name}: {}",
                built.method,
                crate::emit::printable(&recording::redacted(&built.url, &built.secrets)),
                moved.join("; ")
            );
            return Err(CallFailure { stopped: stopped(drifted(message)), reply: Some(reply) });
        }
    }
    Ok(Some(reply))
}

impl Called {
    /// The secrets the request carried, for masking what is shown.
    pub fn secrets(&self) -> &[String] {
        self.exchange.request.as_ref().map_or(&[], |r| r.secrets.as_slice())
    }
}

impl Reply {
    /// How long the answer took, in whole milliseconds.
    pub fn latency_ms(&self) -> u64 {
        millis(&self.latency)
    }
}

/// Sends `request` and reads the answer, whatever its status ([`call`] makes a status outside 2xx
/// an error, as axios does). Redirects are followed as follow-redirects (axios's transport in
/// Node.js) follows them: at most [`MAX_REDIRECTS`]; `Authorization`, `Proxy-Authorization` and
/// `Cookie` dropped when the next URL is on another host or port (not a subdomain) or moves from
/// https to http; POST turned into GET for 301/302/303; only http and https followed.
pub fn send(request: &Request, options: &CallOptions) -> Result<Reply, Diagnostic> {
    let config = ureq::Agent::config_builder()
        // Redirects are followed below, as the node's client follows them.
        .max_redirects(0)
        .http_status_as_error(false)
        .save_redirect_history(false)
        // What the node's axios sends, so that an API treats us as it treats the node.
        .user_agent(ureq::config::AutoHeaderValue::Provided(std::sync::Arc::new(
            crate::node::axios::USER_AGENT.to_owned(),
        )))
        .accept(crate::node::axios::ACCEPT)
        .build();
    let agent = ureq::Agent::new_with_config(config);
    let started = Instant::now();
    let mut hop = Hop {
        url: request.url.clone(),
        post: request.method == "POST",
        headers: request.headers.iter().map(|(name, value)| (name.clone(), crate::js::string(value))).collect(),
    };
    let body = request.body.as_ref().map(crate::js::stringify).unwrap_or_else(|| "{}".to_owned());
    if hop.post
        && let Some(content_type) = crate::node::axios::added_content_type(request.headers.keys())
    {
        hop.headers.push(("Content-Type".to_owned(), content_type.to_owned()));
    }
    let mut notes = Vec::new();
    let mut redirects = 0;
    let mut response = loop {
        let remaining = options.timeout.saturating_sub(started.elapsed());
        let sent = if hop.post {
            let mut builder = agent.post(&hop.url).config().timeout_global(Some(remaining)).build();
            for (name, value) in &hop.headers {
                builder = builder.header(name.as_str(), value.as_str());
            }
            builder.send(body.as_bytes())
        } else {
            let mut builder = agent.get(&hop.url).config().timeout_global(Some(remaining)).build();
            for (name, value) in &hop.headers {
                builder = builder.header(name.as_str(), value.as_str());
            }
            builder.call()
        };
        let response = sent.map_err(|error| transport_error(error, request, options))?;
        let status = response.status().as_u16();
        let location = response.headers().get("location").and_then(|value| value.to_str().ok());
        let (true, Some(location)) = (matches!(status, 301 | 302 | 303 | 307 | 308), location) else {
            break response;
        };
        redirects += 1;
        if redirects > MAX_REDIRECTS {
            return Err(Diagnostic::elsewhere(
                Code::RedirectLoop,
                format!("{}: more than {MAX_REDIRECTS} redirects", host_of(&request.url)),
            ));
        }
        hop = hop.redirected(status, location, &request.secrets, &mut notes)?;
    };
    let status = response.status().as_u16();
    let headers: Vec<(String, String)> = response
        .headers()
        .iter()
        .map(|(name, value)| (name.as_str().to_owned(), String::from_utf8_lossy(value.as_bytes()).into_owned()))
        .collect();
    let mut bytes = Vec::new();
    let limit = options.max_response_bytes;
    response.body_mut().as_reader().take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(|error| {
        // ureq reports its deadline passing mid-body as an I/O error wrapping its own Timeout.
        let timed_out = error
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<ureq::Error>())
            .is_some_and(|inner| matches!(inner, ureq::Error::Timeout(_)));
        if timed_out {
            timeout(&host_of(&request.url), options)
        } else {
            transport_error(ureq::Error::Io(error), request, options)
        }
    })?;
    let latency = started.elapsed();
    if bytes.len() as u64 > limit {
        return Err(Diagnostic::elsewhere(
            Code::ResponseTooLarge,
            format!("the answer is larger than {limit} bytes (status {status}); it was not read to its end"),
        )
        .with_help("raise the limit if the API really answers this much (the node reads any size)"));
    }
    // axios decodes the body as UTF-8, a bad sequence becoming U+FFFD, before JSON.parse reads it.
    let text: Arc<str> = Arc::from(String::from_utf8_lossy(&bytes));
    drop(bytes);
    let json = request::JsonBody::read(text.clone())?;
    Ok(Reply { status, latency, headers, text, json, notes })
}

/// One request of a chain of redirects.
struct Hop {
    url: String,
    post: bool,
    headers: Vec<(String, String)>,
}

impl Hop {
    /// The next request, after a `status` redirect to `location`, as follow-redirects makes it.
    fn redirected(
        self,
        status: u16,
        location: &str,
        secrets: &[String],
        notes: &mut Vec<Diagnostic>,
    ) -> Result<Hop, Diagnostic> {
        let unfollowed = |why: String| {
            Diagnostic::elsewhere(
                Code::RedirectLoop,
                format!("{}: a redirect the node's client does not follow: {why}", host_of(&self.url)),
            )
        };
        let current = url::Url::parse(&self.url).map_err(|e| unfollowed(e.to_string()))?;
        let next = current.join(location).map_err(|e| unfollowed(format!("Location {location:?}: {e}")))?;
        if !matches!(next.scheme(), "http" | "https") {
            // follow-redirects refuses any other protocol (file:, data:, ftp:): nothing is read.
            return Err(unfollowed(format!("Location {location:?} is not http or https")));
        }
        let current_host = host_and_port(&current);
        let downgraded = next.scheme() != current.scheme() && next.scheme() != "https";
        let elsewhere =
            host_and_port(&next) != current_host && !is_subdomain(next.host_str().unwrap_or_default(), &current_host);
        let mut headers = self.headers;
        if downgraded || elsewhere {
            headers.retain(|(name, _)| {
                !matches!(name.to_ascii_lowercase().as_str(), "authorization" | "proxy-authorization" | "cookie")
            });
            let carried: Vec<&str> = headers
                .iter()
                .filter(|(_, value)| secrets.iter().any(|secret| !secret.is_empty() && value.contains(secret.as_str())))
                .map(|(name, _)| name.as_str())
                .collect();
            if !carried.is_empty() {
                notes.push(
                    Diagnostic::elsewhere(
                        Code::CredentialRedirected,
                        format!(
                            "a redirect to {} carries the credential header {} there, as the node's client does (it drops only Authorization and Cookie)",
                            host_and_port(&next),
                            carried.join(", ")
                        ),
                    )
                    .with_help("check that the API really redirects to that host; the node would send the key there too"),
                );
            }
        }
        // 301/302 after a POST, and 303, are followed with a GET and no body.
        let post = self.post && !matches!(status, 301..=303);
        if self.post && !post {
            headers.retain(|(name, _)| {
                !name.eq_ignore_ascii_case("content-type") && !name.eq_ignore_ascii_case("content-length")
            });
        }
        Ok(Hop { url: next.to_string(), post, headers })
    }
}

/// `host:port` as a `Host` header names it (the port only when it is not the scheme's own).
fn host_and_port(url: &url::Url) -> String {
    match url.port() {
        Some(port) => format!("{}:{port}", url.host_str().unwrap_or_default()),
        None => url.host_str().unwrap_or_default().to_owned(),
    }
}

/// follow-redirects' `isSubdomain(subdomain, domain)`: `subdomain` ends with `.domain`.
fn is_subdomain(subdomain: &str, domain: &str) -> bool {
    subdomain.len() > domain.len() + 1
        && subdomain.ends_with(domain)
        && subdomain.as_bytes().get(subdomain.len() - domain.len() - 1) == Some(&b'.')
}

fn host_of(url: &str) -> String {
    url::Url::parse(url).map(|u| host_and_port(&u)).unwrap_or_else(|_| url.to_owned())
}

fn status_error(reply: &Reply, secrets: &[String]) -> Diagnostic {
    Diagnostic::elsewhere(
        Code::HttpStatus,
        format!("the API answered {}{}", reply.status, quoted(&reply.text, secrets)),
    )
    .with_help(
        "the node's HTTP client fails on any status outside 2xx (airnode-node tries once more, then fails the call)",
    )
}

fn not_json(reply: &Reply, secrets: &[String]) -> Diagnostic {
    let kind = reply.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("content-type")).map(|(_, v)| v.as_str());
    Diagnostic::elsewhere(
        Code::NotJson,
        format!(
            "the API answered {} with a body that is not JSON{}{}",
            reply.status,
            kind.map(|k| format!(" (Content-Type: {k})")).unwrap_or_default(),
            quoted(&reply.text, secrets)
        ),
    )
    .with_help("the node hands such a body to processing as a string; `_path` finds nothing in it")
}

/// The first lines of `text`, secrets masked, for a message.
fn quoted(text: &str, secrets: &[String]) -> String {
    if text.trim().is_empty() {
        return " with an empty body".to_owned();
    }
    // Masked before it is cut: a cut secret would no longer be found, and its start would show.
    let lines = request::mask(&text.lines().take(QUOTED_LINES).collect::<Vec<_>>().join("\n"), secrets);
    let mut shown: String = lines.chars().take(600).collect();
    if text.lines().count() > QUOTED_LINES || shown.len() < lines.len() {
        shown.push_str("\n…");
    }
    format!(":\n{shown}")
}

fn transport_error(error: ureq::Error, request: &Request, options: &CallOptions) -> Diagnostic {
    let host = url::Url::parse(&request.url).ok().and_then(|u| u.host_str().map(str::to_owned)).unwrap_or_default();
    let mask = |text: String| request::mask(&text, &request.secrets);
    match error {
        ureq::Error::HostNotFound => host_not_found(&host, "no address"),
        ureq::Error::ConnectionFailed => {
            Diagnostic::elsewhere(Code::ConnectionFailed, format!("{host}: the connection was refused or failed"))
                .with_help("check the server URL and its port, and that the API is up")
        }
        ureq::Error::Io(io) if dns_failure(&io) => host_not_found(&host, &io.to_string()),
        // rustls reports a failed handshake through the I/O error it wraps.
        ureq::Error::Io(io) if io.get_ref().is_some_and(|inner| inner.is::<rustls::Error>()) => {
            Diagnostic::elsewhere(Code::TlsFailed, format!("{host}: TLS failed: {io}"))
                .with_help("check that the server speaks https on that port, and its certificate")
        }
        ureq::Error::Io(io)
            if matches!(
                io.kind(),
                std::io::ErrorKind::ConnectionRefused
                    | std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::ConnectionAborted
                    | std::io::ErrorKind::UnexpectedEof
            ) =>
        {
            Diagnostic::elsewhere(Code::ConnectionFailed, mask(format!("{host}: {io}")))
        }
        ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => timeout(&host, options),
        ureq::Error::Timeout(_) => timeout(&host, options),
        ureq::Error::TooManyRedirects | ureq::Error::RedirectFailed => Diagnostic::elsewhere(
            Code::RedirectLoop,
            format!("{host}: more than {MAX_REDIRECTS} redirects, or one that cannot be followed"),
        ),
        ureq::Error::Tls(what) => Diagnostic::elsewhere(Code::TlsFailed, format!("{host}: TLS failed: {what}"))
            .with_help("check that the server speaks https on that port, and its certificate"),
        ureq::Error::Rustls(error) => Diagnostic::elsewhere(Code::TlsFailed, format!("{host}: TLS failed: {error}"))
            .with_help("check that the server speaks https on that port, and its certificate"),
        ureq::Error::BodyExceedsLimit(limit) => {
            Diagnostic::elsewhere(Code::ResponseTooLarge, format!("the answer is larger than {limit} bytes"))
        }
        other => Diagnostic::elsewhere(Code::CallFailed, mask(format!("{host}: {other}"))),
    }
}

/// CAL001 for `host`. Public (hidden) so that the code's snapshot test can show it: making a DNS
/// failure in a test would ask a name server.
#[doc(hidden)]
pub fn host_not_found(host: &str, detail: &str) -> Diagnostic {
    Diagnostic::elsewhere(Code::HostNotFound, format!("{host}: the host name does not resolve ({detail})"))
        .with_help("check the server URL in apiSpecifications.servers[0].url, and the network")
}

/// The system resolver's failure, which reaches us as a plain I/O error.
fn dns_failure(error: &std::io::Error) -> bool {
    let text = error.to_string();
    ["failed to lookup address", "Name or service not known", "nodename nor servname", "No address associated"]
        .iter()
        .any(|sign| text.contains(sign))
}

fn timeout(host: &str, options: &CallOptions) -> Diagnostic {
    Diagnostic::elsewhere(
        Code::CallTimeout,
        format!("{host}: no complete answer within {:.1} s", options.timeout.as_secs_f64()),
    )
    .with_help("the node waits 10 s (airnode-node then tries once more with 20 s; Airnode Feed does not)")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A DNS failure cannot be made in a test without asking a name server, so its mapping is
    /// checked here on the error the system resolver gives.
    #[test]
    fn transport_errors_have_their_codes() {
        let request = Request {
            method: "GET",
            url: "https://api.example.invalid/x".into(),
            headers: serde_json::Map::new(),
            built_headers: None,
            body: None,
            ignored: vec![],
            reserved: serde_json::Map::new(),
            warnings: vec![],
            secrets: vec![],
        };
        let code = |error: ureq::Error| transport_error(error, &request, &CallOptions::default());
        let io = std::io::Error::other("failed to lookup address information: Name or service not known");
        let dns = code(ureq::Error::Io(io));
        assert_eq!(dns.code, Code::HostNotFound);
        assert!(dns.message.starts_with("api.example.invalid: the host name does not resolve"));
        assert_eq!(code(ureq::Error::HostNotFound).code, Code::HostNotFound);
        assert_eq!(code(ureq::Error::TooManyRedirects).code, Code::RedirectLoop);
        assert_eq!(code(ureq::Error::Tls("bad certificate")).code, Code::TlsFailed);
        assert_eq!(code(ureq::Error::ConnectionFailed).code, Code::ConnectionFailed);
    }
}
