//! Real answers kept to be used again without the vendor: a call can record each exchange (one
//! readable JSON file per request, its credentials replaced by [`CREDENTIAL`] and never written)
//! and replay them instead of the network; `ois mock` serves them. A recording is found for a
//! request by method, path, query and body: the recorded path may carry the server's own prefix
//! (`/api/v3/simple/price` answers `/simple/price` too, so that a config pointed at a mock or a
//! staging host finds it), and where the recording has a credential any value matches, as a
//! vendor checks only that one is there.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

use super::Reply;
use crate::diagnostic::Diagnostic;
use crate::request::Request;

mod folder;

pub use folder::{Recordings, read_folder};

/// The version of the recording format; files of another are not read.
pub const RECORDING_VERSION: u64 = 1;

/// What a credential is written as in a recording.
pub const CREDENTIAL: &str = "<credential>";

/// One exchange: the request as the node made it (credentials replaced) and the answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Recording {
    /// [`RECORDING_VERSION`].
    pub ois_recording: u64,
    /// The request.
    pub request: RecordedRequest,
    /// The answer.
    pub response: RecordedResponse,
    /// How long the answer took when it was recorded.
    pub latency_ms: u64,
}

/// A request as sent, credentials replaced by [`CREDENTIAL`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedRequest {
    /// `GET` or `POST`.
    pub method: String,
    /// The URL, query included.
    pub url: String,
    /// The headers that carry a credential (the others are what every client sends).
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub headers: serde_json::Map<String, Value>,
    /// The JSON body of a POST.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Value>,
}

/// An answer: status, headers, and the body (JSON as `JSON.parse` read it, or text). The body is
/// kept as its text: a mock serves it as it is, and a replay builds its value once, where a
/// value of every recording read would cost many times the folder's size.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RecordedResponse {
    /// The HTTP status.
    pub status: u16,
    /// The headers, in order.
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    /// The body: JSON when it was JSON, else its text as a string (with `text` set).
    pub body: Box<RawValue>,
    /// Whether `body` is the text of a body that was not JSON.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub text: bool,
}

impl Recording {
    /// The recording of `request` answered by `reply`, every credential of the request replaced.
    pub fn of(request: &Request, reply: &Reply) -> Recording {
        let secrets = &request.secrets;
        let redact = |text: &str| redacted(text, secrets);
        let headers = request
            .headers
            .iter()
            .filter_map(|(name, value)| {
                let text = value.as_str().map_or_else(|| value.to_string(), str::to_owned);
                let clean = redact(&text);
                (clean != text).then(|| (name.clone(), Value::String(clean)))
            })
            .collect();
        let (body, text) = match &reply.json {
            Some(json) => (
                RawValue::from_string(crate::request::mask_body_as(
                    json,
                    secrets,
                    CREDENTIAL,
                    crate::request::Style { pretty: false, javascript: false },
                )),
                false,
            ),
            None => (serde_json::value::to_raw_value(&redact(&reply.text)), true),
        };
        let body = body.unwrap_or_else(|_| RawValue::NULL.to_owned());
        Recording {
            ois_recording: RECORDING_VERSION,
            request: RecordedRequest {
                method: request.method.to_owned(),
                url: redact(&request.url),
                headers,
                body: request.body.as_ref().map(|b| redacted_json(b, secrets)),
            },
            response: RecordedResponse {
                status: reply.status,
                headers: reply.headers.iter().map(|(n, v)| (n.clone(), redact(v))).collect(),
                body,
                text,
            },
            latency_ms: reply.latency_ms(),
        }
    }

    /// The answer as the call reads it; an error when its body would become more values than
    /// its size allows.
    pub fn reply(&self) -> Result<Reply, Diagnostic> {
        let text: std::sync::Arc<str> = match self.response.text {
            true => std::sync::Arc::from(self.response.text()),
            false => std::sync::Arc::from(self.response.body.get()),
        };
        let json = if self.response.text { None } else { crate::request::JsonBody::read(text.clone())? };
        Ok(Reply {
            status: self.response.status,
            latency: Duration::from_millis(self.latency_ms),
            headers: self.response.headers.clone(),
            text,
            json,
            notes: Vec::new(),
        })
    }

    /// The file name this recording is kept under: method, a slug of the path and a hash of the
    /// request, so that one request always has the same file.
    pub fn file_name(&self) -> String {
        use sha2::Digest;
        let request = &self.request;
        let body = request.body.as_ref().map(crate::js::stringify).unwrap_or_default();
        let digest = sha2::Sha256::digest(format!("{}\n{}\n{body}", request.method, request.url).as_bytes());
        let hash: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
        let path = url::Url::parse(&request.url).map(|u| u.path().to_owned()).unwrap_or_default();
        let mut slug: String = path
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
            .collect::<String>()
            .split('-')
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        slug.truncate(48);
        let slug = if slug.is_empty() { "root".to_owned() } else { slug.trim_end_matches('-').to_owned() };
        // The method as read from a recording may be anything (`POST:9/x`): only its letters and
        // digits name the file, which stays in its folder.
        let method: String =
            request.method.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect();
        format!("{method}-{slug}-{hash}.json")
    }

    /// Whether this recording answers `method` at `url` with `headers` and `body` (see the module):
    /// at the same path when `exactly`, else at one that differs by the server's prefix.
    pub fn answers(
        &self,
        method: &str,
        url: &str,
        headers: &[(String, String)],
        body: Option<&Value>,
        exactly: bool,
    ) -> bool {
        let (Ok(recorded), Ok(asked)) = (url::Url::parse(&self.request.url), url::Url::parse(url)) else {
            return false;
        };
        self.request.method.eq_ignore_ascii_case(method)
            && (if exactly { recorded.path() == asked.path() } else { same_path(recorded.path(), asked.path()) })
            && same_query(&recorded, &asked)
            && self.request.headers.iter().all(|(name, value)| {
                let given = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str());
                match (value.as_str(), given) {
                    (_, None) => false,
                    (Some(recorded), Some(given)) => matches_text(recorded, given),
                    (None, Some(_)) => true,
                }
            })
            && match (&self.request.body, body) {
                (None, None) => true,
                (Some(recorded), Some(given)) => matches_json(recorded, given),
                (None, Some(given)) => given.is_null(),
                (Some(recorded), None) => recorded.is_null(),
            }
    }

    /// Where the recorded request carried a credential that the request at `url` with `headers`
    /// does not carry (`query "key"`, `header "x-api-key"`): a vendor refuses it.
    pub fn credential_missing(&self, url: &str, headers: &[(String, String)]) -> Option<String> {
        let recorded = url::Url::parse(&self.request.url).ok()?;
        let asked = url::Url::parse(url).ok()?;
        let in_query = recorded
            .query_pairs()
            .filter(|(_, value)| value.contains(CREDENTIAL))
            .find(|(name, _)| !asked.query_pairs().any(|(given, _)| given == *name))
            .map(|(name, _)| format!("query \"{name}\""));
        in_query.or_else(|| {
            self.request
                .headers
                .keys()
                .find(|name| !headers.iter().any(|(given, _)| given.eq_ignore_ascii_case(name)))
                .map(|name| format!("header \"{name}\""))
        })
    }

    /// The query parameters this recording's request carried a credential in.
    pub fn credential_query_names(&self) -> Vec<String> {
        let Ok(recorded) = url::Url::parse(&self.request.url) else { return Vec::new() };
        recorded
            .query_pairs()
            .filter(|(_, value)| value.contains(CREDENTIAL))
            .map(|(name, _)| name.into_owned())
            .collect()
    }

    /// Whether this recording is for the same operation as `url` (method and path), whatever its
    /// query or body: the nearest to name when none answers.
    pub fn is_near(&self, method: &str, url: &str) -> bool {
        let (Ok(recorded), Ok(asked)) = (url::Url::parse(&self.request.url), url::Url::parse(url)) else {
            return false;
        };
        self.request.method.eq_ignore_ascii_case(method) && same_path(recorded.path(), asked.path())
    }
}

/// The recorded path is the asked one, or ends with it at a segment (the server's prefix left out
/// by a config pointed elsewhere), or the other way round.
fn same_path(recorded: &str, asked: &str) -> bool {
    let ends_with_segments = |long: &str, short: &str| {
        short.len() > 1
            && long.ends_with(short)
            && long.get(..long.len() - short.len()).is_some_and(|p| !p.ends_with('/') || short.starts_with('/'))
    };
    recorded == asked || ends_with_segments(recorded, asked) || ends_with_segments(asked, recorded)
}

/// The same query pairs, in any order; a recorded credential matches any value.
fn same_query(recorded: &url::Url, asked: &url::Url) -> bool {
    let mut left: Vec<(String, String)> =
        recorded.query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
    let right: Vec<(String, String)> = asked.query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
    if left.len() != right.len() {
        return false;
    }
    for (name, value) in &right {
        match left.iter().position(|(n, v)| n == name && matches_text(v, value)) {
            Some(index) => {
                left.swap_remove(index);
            }
            None => return false,
        }
    }
    true
}

/// `given` is `recorded`, where each [`CREDENTIAL`] in it stands for any non-empty text.
fn matches_text(recorded: &str, given: &str) -> bool {
    let parts: Vec<&str> = recorded.split(CREDENTIAL).collect();
    let (Some(first), Some(last), true) = (parts.first(), parts.last(), parts.len() > 1) else {
        return recorded == given;
    };
    let Some(mut rest) = given.strip_prefix(first).and_then(|r| r.strip_suffix(last)) else { return false };
    // Each part between two credentials, in order, after at least one character of credential.
    for part in parts.get(1..parts.len() - 1).unwrap_or_default() {
        let Some(at) = rest.get(1..).and_then(|r| r.find(part)) else { return false };
        rest = rest.get(1 + at + part.len()..).unwrap_or_default();
    }
    !rest.is_empty()
}

fn matches_json(recorded: &Value, given: &Value) -> bool {
    match (recorded, given) {
        (Value::String(recorded), Value::String(given)) => matches_text(recorded, given),
        (Value::Array(left), Value::Array(right)) => {
            left.len() == right.len() && left.iter().zip(right).all(|(l, r)| matches_json(l, r))
        }
        (Value::Object(left), Value::Object(right)) => {
            left.len() == right.len()
                && left.iter().all(|(key, value)| right.get(key).is_some_and(|other| matches_json(value, other)))
        }
        (left, right) => left == right,
    }
}

/// `text` with every credential replaced by [`CREDENTIAL`], in every form the request or an echo
/// may carry it ([`crate::request::mask_as`]).
pub(crate) fn redacted(text: &str, secrets: &[String]) -> String {
    crate::request::mask_as(text, secrets, CREDENTIAL)
}

fn redacted_json(value: &Value, secrets: &[String]) -> Value {
    crate::request::mask_json_as(value, secrets, CREDENTIAL)
}

impl RecordedResponse {
    /// The body as served: the recorded JSON's text, or the text of a body that was not JSON.
    pub fn text(&self) -> String {
        match self.text {
            true => serde_json::from_str::<String>(self.body.get()).unwrap_or_default(),
            false => self.body.get().to_owned(),
        }
    }

    /// The body's value, as a replay reads it (`None` for a text); an error when it would
    /// become more values than its size allows.
    pub fn json(&self) -> Result<Option<crate::request::JsonBody>, Diagnostic> {
        if self.text {
            return Ok(None);
        }
        crate::request::JsonBody::read(std::sync::Arc::from(self.body.get()))
    }
}

/// Two answers are the same when their status, headers and bodies are, however the bodies' text
/// is spaced.
impl PartialEq for RecordedResponse {
    // The bodies are compared written alike from their texts, never built: a recording may hold a
    // million prices.
    fn eq(&self, other: &Self) -> bool {
        let compact = |body: &RawValue| {
            crate::request::restyled(body.get(), crate::request::Style { pretty: false, javascript: false }, 0)
        };
        self.status == other.status
            && self.headers == other.headers
            && self.text == other.text
            && (self.body.get() == other.body.get() || compact(&self.body) == compact(&other.body))
    }
}

/// How a recording's body is written: as serde_json writes a value.
const BODY_AS_KEPT: crate::request::Style = crate::request::Style { pretty: true, javascript: false };

/// Writes `recording` into `folder` (made when missing) under its [`Recording::file_name`],
/// unless the file there already holds the same answer (a recording made again changes only what
/// changed). Returns the file written, if any.
pub fn keep(folder: &Path, recording: &Recording) -> Result<Option<PathBuf>, Diagnostic> {
    let path = folder.join(recording.file_name());
    if let Ok(source) = crate::source::Source::read_regular(&path)
        && let Ok(kept) = serde_json::from_str::<Recording>(&source.text)
        && kept.request == recording.request
        && kept.response == recording.response
    {
        return Ok(None);
    }
    let text = kept_text(recording)?;
    let mut plan = crate::emit::Plan::new();
    // The file is named by `ois`, not by the user: a link placed there is never written through.
    plan.companion_in_new_folder(&path, text);
    plan.write()?;
    Ok(Some(path))
}

/// The text of a recording's file: pretty JSON, the body written from its text where it lies (as
/// part of the recording's value, a million prices would be built first).
fn kept_text(recording: &Recording) -> Result<String, Diagnostic> {
    let json = crate::emit::OutputFormat::Json;
    let Some((stand_in, stand_in_text)) = crate::emit::stand_in() else {
        return crate::emit::to_text(&serde_json::to_value(recording).unwrap_or_default(), json);
    };
    let response = &recording.response;
    let without_body = Recording {
        response: RecordedResponse { body: stand_in, headers: response.headers.clone(), ..*response },
        request: recording.request.clone(),
        ..*recording
    };
    let text = crate::emit::model_text(&without_body, json)?;
    let body = response.body.get();
    Ok(crate::emit::splice_json(text, &stand_in_text, |depth| crate::request::restyled(body, BODY_AS_KEPT, depth))
        .concat())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::folder::Indexed;
    use super::*;

    #[test]
    fn credentials_match_any_value_and_prefixes_may_differ() {
        assert!(matches_text("<credential>", "k-1"));
        assert!(matches_text("Bearer <credential>", "Bearer t"));
        assert!(!matches_text("Bearer <credential>", "Bearer "));
        assert!(!matches_text("Bearer <credential>", "Basic t"));
        assert!(same_path("/api/v3/simple/price", "/simple/price"));
        assert!(same_path("/simple/price", "/api/v3/simple/price"));
        assert!(!same_path("/a", "/b"));
        let recording = Recording {
            ois_recording: RECORDING_VERSION,
            request: RecordedRequest {
                method: "GET".into(),
                url: "https://api.x.example/api/v3/price?ids=btc&key=<credential>".into(),
                headers: serde_json::Map::new(),
                body: None,
            },
            response: RecordedResponse {
                status: 200,
                headers: Vec::new(),
                body: serde_json::value::to_raw_value(&serde_json::json!({"p": 1})).unwrap(),
                text: false,
            },
            latency_ms: 5,
        };
        assert!(recording.answers("GET", "http://127.0.0.1:1/price?key=other&ids=btc", &[], None, false));
        assert!(!recording.answers("GET", "http://127.0.0.1:1/price?key=other&ids=btc", &[], None, true));
        assert!(recording.answers("GET", "http://127.0.0.1:1/api/v3/price?key=k&ids=btc", &[], None, true));
        assert!(!recording.answers("GET", "http://127.0.0.1:1/price?ids=btc", &[], None, false));
        assert!(!recording.answers("GET", "http://127.0.0.1:1/price?ids=eth&key=k", &[], None, false));
        assert!(recording.file_name().starts_with("get-api-v3-price-"), "{}", recording.file_name());
    }

    /// JSON values of every kind, nested a few levels.
    pub(crate) fn json() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-1.0e12f64..1.0e12).prop_map(|n| serde_json::json!(n)),
            any::<i32>().prop_map(|n| serde_json::json!(n)),
            "[a-z0-9 ,.\\\\\"]{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::btree_map("[a-z.,]{1,6}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        /// A replay answers with exactly what was recorded: the body as the call read it.
        #[test]
        fn a_replay_is_the_recorded_answer(body in json(), status in 200u16..300) {
            let request = Request {
                method: "GET",
                url: "https://api.x.example/v1/rates?key=k-4750".into(),
                headers: serde_json::Map::new(),
                built_headers: None,
                body: None,
                ignored: Vec::new(),
                reserved: serde_json::Map::new(),
                warnings: Vec::new(),
                secrets: vec!["k-4750".into()],
            };
            let reply = Reply {
                status,
                latency: Duration::from_millis(3),
                headers: vec![("content-type".into(), "application/json".into())],
                text: std::sync::Arc::from(crate::js::stringify(&body)),
                json: Some(crate::request::JsonBody::of_value(body.clone())),
                notes: Vec::new(),
            };
            let recording = Recording::of(&request, &reply);
            proptest::prop_assert!(!serde_json::to_string(&recording).unwrap().contains("k-4750"));
            let written = serde_json::to_string(&recording).unwrap();
            let read: Recording = serde_json::from_str(&written).unwrap();
            let replayed = read.reply().unwrap();
            proptest::prop_assert_eq!(replayed.json.as_ref().map(|b| b.value().cloned().unwrap()), Some(body));
            proptest::prop_assert_eq!(replayed.status, status);
            proptest::prop_assert!(read.answers("GET", "http://127.0.0.1:9/v1/rates?key=other", &[], None, true));
        }

    }

    proptest::proptest! {
        /// A recording's file, its body written from its text, is what writing it as a value
        /// writes; and a body spaced otherwise is the same answer.
        #[test]
        fn a_recording_is_kept_as_its_value_would_be(body in crate::testing::json_value(), text: bool) {
            let body_text = if text { Value::String(body.to_string()).to_string() } else { body.to_string() };
            let recording = Recording {
                ois_recording: RECORDING_VERSION,
                request: RecordedRequest { method: "GET".into(), url: "https://a.example/p?k=<credential>".into(), headers: Default::default(), body: None },
                response: RecordedResponse { status: 200, headers: vec![("a".into(), "b".into())], body: RawValue::from_string(body_text).unwrap(), text },
                latency_ms: 4,
            };
            let as_value = crate::emit::to_text(&serde_json::to_value(&recording).unwrap(), crate::emit::OutputFormat::Json).unwrap();
            proptest::prop_assert_eq!(kept_text(&recording).unwrap(), as_value.clone());
            let read: Recording = serde_json::from_str(&as_value).unwrap();
            proptest::prop_assert_eq!(&read.response, &recording.response);
            let other = RecordedResponse { status: 201, ..read.response.clone() };
            proptest::prop_assert_ne!(&other, &recording.response);
        }

        /// The index finds what comparing every recording found: the same recording, or none,
        /// for any recorded and asked paths (prefixes, trailing slashes, methods mixed).
        #[test]
        fn the_index_finds_what_a_scan_finds(
            recorded in proptest::collection::vec((0usize..2, proptest::collection::vec(0usize..4, 0..4), proptest::bool::ANY), 0..12),
            asked in (0usize..2, proptest::collection::vec(0usize..4, 0..4), proptest::bool::ANY),
        ) {
            const SEGMENTS: [&str; 4] = ["api", "v1", "price", "coins"];
            const METHODS: [&str; 2] = ["GET", "post"];
            let url = |(method, segments, slash): &(usize, Vec<usize>, bool)| {
                let path: Vec<&str> = segments.iter().map(|&i| SEGMENTS[i]).collect();
                let tail = if *slash { "/" } else { "" };
                (METHODS[*method], format!("https://api.example.com/{}{tail}", path.join("/")))
            };
            let all: Vec<(String, Recording)> = recorded.iter().enumerate().map(|(index, item)| {
                let (method, url) = url(item);
                let recording = Recording {
                    ois_recording: RECORDING_VERSION,
                    request: RecordedRequest { method: method.to_owned(), url, headers: Default::default(), body: None },
                    response: RecordedResponse { status: 200, headers: Vec::new(), body: RawValue::NULL.to_owned(), text: false },
                    latency_ms: 0,
                };
                (format!("{index:02}.json"), recording)
            }).collect();
            let (method, asked_url) = url(&asked);
            let scanned = [true, false].into_iter().find_map(|exactly| {
                all.iter().find(|(_, r)| r.answers(method, &asked_url, &[], None, exactly)).map(|(n, _)| n.clone())
            });
            let near_scanned = all.iter().find(|(_, r)| r.is_near(method, &asked_url)).map(|(n, _)| n.clone());
            let indexed = Indexed::of(all);
            let found = [true, false].into_iter().find_map(|exactly| {
                indexed.candidates(method, &asked_url).find(|(_, r)| r.answers(method, &asked_url, &[], None, exactly)).map(|(n, _)| n.clone())
            });
            let near = indexed.candidates(method, &asked_url).find(|(_, r)| r.is_near(method, &asked_url)).map(|(n, _)| n.clone());
            proptest::prop_assert_eq!(found, scanned);
            proptest::prop_assert_eq!(near, near_scanned);
        }
    }

    /// Found by the `recordings` fuzz target: a recording's method named a folder of its file.
    #[test]
    fn a_file_name_stays_in_its_folder_whatever_the_method() {
        let recording = Recording {
            ois_recording: RECORDING_VERSION,
            request: RecordedRequest {
                method: "POST:9/../pr".to_owned(),
                url: "https://api.example.com/rpc".to_owned(),
                headers: Default::default(),
                body: None,
            },
            response: RecordedResponse {
                status: 200,
                headers: Vec::new(),
                body: RawValue::NULL.to_owned(),
                text: false,
            },
            latency_ms: 0,
        };
        let name = recording.file_name();
        assert!(name.starts_with("post9pr-rpc-") && !name.contains('/'), "{name}");
    }
}
