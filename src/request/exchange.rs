//! One endpoint call from end to end, as airnode-node's `callApi` and Airnode Feed make it:
//! pre-processing on the requester's parameters, the API request built from what it returned
//! (none for an endpoint without `operation`), post-processing on the response, and the value
//! extracted and encoded from what that returned.

use serde::Serialize;
use serde_json::{Map, Value};

use super::JsonBody;
use super::response::{Preview, extract_and_encode, extract_and_encode_body};
use super::{Request, RequestOptions, build_from, find_endpoint, requested, reserved_values};
use crate::diagnostic::Diagnostic;
use crate::processing::{self, EndpointProcessing, Engine, Failure, Phase};

/// A line a snippet wrote with `console.log` (or its siblings).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Log {
    /// `pre` or `post`.
    pub phase: &'static str,
    /// What it wrote.
    pub line: String,
}

/// The response side of a call.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Answer {
    /// The response after post-processing; `None` when the endpoint has none.
    pub processed: Option<Value>,
    /// The timestamp a V2 post-processing snippet returned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<u64>,
    /// The values extracted and their encoding.
    #[serde(flatten)]
    pub preview: Preview,
}

impl Answer {
    /// The answer as shown: unless `show_secrets`, every form of `secrets` masked
    /// ([`super::mask`]) in the post-processed response, the values and the encoded value — an
    /// API that echoes a credential, picked as the value, must not print it.
    pub fn shown(&self, secrets: &[String], show_secrets: bool) -> Answer {
        if show_secrets {
            return self.clone();
        }
        let mask = |value: &Value| super::mask_json_as(value, secrets, "****");
        let mut preview = self.preview.clone();
        preview.values = preview.values.iter().map(mask).collect();
        preview.encoded = super::mask(&preview.encoded, secrets);
        Answer { processed: self.processed.as_ref().map(mask), timestamp: self.timestamp, preview }
    }
}

/// Everything the node does for one call, up to the value it signs.
#[derive(Clone, Debug)]
pub struct Exchange {
    /// The requester's parameters as given.
    pub given: Map<String, Value>,
    /// The endpoint parameters after pre-processing (`None`: the endpoint has none).
    pub processed: Option<Map<String, Value>>,
    /// The API request; `None` for an endpoint without `operation` (no API call).
    pub request: Option<Request>,
    /// `_type`, `_path`, `_times` as the node resolves them for the response.
    pub reserved: Map<String, Value>,
    /// What comes back: with a response given, or always for an endpoint without an API call.
    pub answer: Option<Answer>,
    /// What the snippets logged.
    pub logs: Vec<Log>,
}

/// A call that stopped: why, and what the snippets logged before it did.
#[derive(Clone, Debug)]
pub struct Stopped {
    /// Why the node would fail the call too.
    pub diagnostic: Diagnostic,
    /// What the snippets logged.
    pub logs: Vec<Log>,
}

impl From<Diagnostic> for Stopped {
    fn from(diagnostic: Diagnostic) -> Self {
        Stopped { diagnostic, logs: Vec::new() }
    }
}

fn logs_of(phase: Phase, lines: Vec<String>) -> impl Iterator<Item = Log> {
    lines.into_iter().map(move |line| Log { phase: phase.name(), line })
}

/// The call up to the API request: pre-processing run, the request built (or, for an endpoint
/// that makes no API call, the response it stands in for).
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The requester's parameters as given.
    pub given: Map<String, Value>,
    /// The endpoint parameters after pre-processing (`None`: the endpoint has none).
    pub processed: Option<Map<String, Value>>,
    /// The API request; `None` for an endpoint without `operation` (no API call).
    pub request: Option<Request>,
    /// `_type`, `_path`, `_times` as the node resolves them for the response.
    pub reserved: Map<String, Value>,
    /// What the snippets logged so far.
    pub logs: Vec<Log>,
    processing: EndpointProcessing,
    /// Without an API call, the (pre-processed) parameters are the response.
    standing_in: Option<Value>,
}

/// An OIS as the node holds it, as `JSON.parse` made it (numbers doubles, keys in JavaScript's
/// order): made once, it serves every call of a run (`ois call --all` made it again per call, so
/// its time and memory grew with endpoints × OIS size). An OIS already held so (the usual one: no
/// integer beyond a double, no index key out of its place) is borrowed, not copied.
#[derive(Clone, Debug)]
pub struct HeldOis<'v>(std::borrow::Cow<'v, Value>);

impl<'v> HeldOis<'v> {
    /// `ois` as the node holds it.
    pub fn of(ois: &'v Value) -> HeldOis<'v> {
        HeldOis(crate::js::as_parsed_borrowed(ois))
    }

    /// The OIS.
    pub fn value(&self) -> &Value {
        &self.0
    }
}

impl HeldOis<'static> {
    /// `ois`, owned, as the node holds it.
    pub fn owned(ois: Value) -> HeldOis<'static> {
        match crate::js::as_parsed_borrowed(&ois) {
            std::borrow::Cow::Owned(parsed) => HeldOis(std::borrow::Cow::Owned(parsed)),
            std::borrow::Cow::Borrowed(_) => HeldOis(std::borrow::Cow::Owned(ois)),
        }
    }
}

/// Runs `options.endpoint`'s pre-processing with `engine` and builds the request from what it
/// returned, as the node does before calling the API.
pub fn prepare(ois: &Value, options: &RequestOptions, engine: &Engine) -> Result<Prepared, Stopped> {
    prepare_held(&HeldOis::of(ois), options, engine)
}

/// [`prepare`] for an OIS already as the node holds it.
pub fn prepare_held(held: &HeldOis<'_>, options: &RequestOptions, engine: &Engine) -> Result<Prepared, Stopped> {
    let parsed = held.value();
    let (index, endpoint) = find_endpoint(parsed, &options.endpoint)?;
    let at = format!("/endpoints/{index}");
    let processing = EndpointProcessing::of_endpoint_in(parsed, endpoint, &at);
    let given = requested(options);
    let mut logs = Vec::new();
    let processed = match &processing.pre {
        Some(_) => {
            let ran = processing::pre_process(engine, &processing, &given)
                .map_err(|f| failed(f, &at, Vec::new(), Phase::Pre))?;
            logs.extend(logs_of(Phase::Pre, ran.logs));
            ran.value.and_then(|v| v.as_object().cloned())
        }
        None => None,
    };
    // airnode-node and Airnode Feed skip the API call when there is no operation and no fixed
    // operation parameter; the (pre-processed) parameters are then the response.
    let skips_api = endpoint.get("operation").is_none_or(Value::is_null)
        && endpoint.get("fixedOperationParameters").and_then(Value::as_array).is_none_or(Vec::is_empty);
    if skips_api {
        let parameters = Value::Object(processed.clone().unwrap_or_else(|| given.clone()));
        // Airnode Feed's callApi returns `{data: parameters}` where it would return the API's
        // body, and post-processes that; airnode-node post-processes the parameters themselves.
        let standing_in = match options.mode {
            super::Mode::Feed => serde_json::json!({ "data": parameters }),
            super::Mode::Node => parameters,
        };
        let reserved = reserved_values(endpoint, &given);
        return Ok(Prepared {
            given,
            processed,
            request: None,
            reserved,
            logs,
            processing,
            standing_in: Some(standing_in),
        });
    }
    let request =
        build_from(parsed, options, processed.as_ref()).map_err(|d| Stopped { diagnostic: d, logs: logs.clone() })?;
    let reserved = request.reserved.clone();
    Ok(Prepared { given, processed, request: Some(request), reserved, logs, processing, standing_in: None })
}

/// What answering `options.endpoint` from another call's response needs — its post-processing
/// and `_type`, `_path`, `_times` for `options`'s parameters — without pre-processing or a
/// request: Airnode Feed answers every template of a trigger from its first template's API call.
pub fn prepare_answer_held(held: &HeldOis<'_>, options: &RequestOptions) -> Result<Prepared, Stopped> {
    let (index, endpoint) = find_endpoint(held.value(), &options.endpoint)?;
    let processing = EndpointProcessing::of_endpoint_in(held.value(), endpoint, &format!("/endpoints/{index}"));
    let given = requested(options);
    let reserved = reserved_values(endpoint, &given);
    Ok(Prepared { given, processed: None, request: None, reserved, logs: Vec::new(), processing, standing_in: None })
}

fn failed(failure: Failure, at: &str, mut logs: Vec<Log>, phase: Phase) -> Stopped {
    let diagnostic = failure.to_diagnostic(at);
    logs.extend(logs_of(phase, failure.logs));
    Stopped { diagnostic, logs }
}

impl Prepared {
    /// What an endpoint without an API call answers with (its parameters, as the node passes
    /// them to post-processing); `None` for one that calls its API.
    pub fn standing_in(&self) -> Option<&Value> {
        self.standing_in.as_ref()
    }

    /// The response as post-processing leaves it (the response itself when there is none), for
    /// picking a `_path`; `None` when there is no response (nor a stand-in for one).
    pub fn post_processed(&self, engine: &Engine, response: Option<&Value>) -> Result<Option<Value>, Stopped> {
        let Some(response) = self.standing_in.as_ref().or(response) else { return Ok(None) };
        if self.processing.post.is_none() {
            return Ok(Some(response.clone()));
        }
        let at = self
            .processing
            .post
            .as_ref()
            .and_then(|s| s.snippets().last())
            .map(|s| s.pointer.clone())
            .unwrap_or_default();
        let ran = processing::post_process(engine, &self.processing, response, &self.given)
            .map_err(|f| failed(f, &at, self.logs.clone(), Phase::Post))?;
        Ok(ran.value)
    }

    /// Finishes the call with the API's `response` (ignored for an endpoint without an API call,
    /// whose parameters are its response): post-processing, then the value extracted and encoded
    /// (`now` is the unix time a `timestamp` type encodes). Without a response, nothing more runs.
    pub fn answer(self, engine: &Engine, response: Option<&Value>, now: u64) -> Result<Exchange, Stopped> {
        self.finish(engine, response.map(Response::Value), now)
    }

    /// [`Prepared::answer`] with the API's JSON body: without post-processing, each `_path` is read
    /// from its text where it lies, and its value is never built.
    pub fn answer_body(self, engine: &Engine, response: Option<&JsonBody>, now: u64) -> Result<Exchange, Stopped> {
        self.finish(engine, response.map(Response::Body), now)
    }

    fn finish(self, engine: &Engine, response: Option<Response<'_>>, now: u64) -> Result<Exchange, Stopped> {
        let Prepared { given, processed, request, reserved, mut logs, processing, standing_in } = self;
        let Some(response) = standing_in.as_ref().map(Response::Value).or(response) else {
            return Ok(Exchange { given, processed, request, reserved, answer: None, logs });
        };
        // Without post-processing the value is read from the response itself, not a copy of it.
        let Some(post) = &processing.post else {
            let preview = match response {
                Response::Value(value) => extract_and_encode(value, &reserved, now),
                Response::Body(body) => extract_and_encode_body(body, &reserved, now),
            }
            .map_err(|d| Stopped { diagnostic: d, logs: logs.clone() })?;
            let answer = Answer { processed: None, timestamp: None, preview };
            return Ok(Exchange { given, processed, request, reserved, answer: Some(answer), logs });
        };
        let response = match response {
            Response::Value(value) => value,
            Response::Body(body) => body.value().map_err(|d| Stopped { diagnostic: d, logs: logs.clone() })?,
        };
        let at = post.snippets().last().map(|s| s.pointer.clone()).unwrap_or_default();
        // Post-processing sees the requester's parameters, not the pre-processed ones.
        let ran = processing::post_process(engine, &processing, response, &given)
            .map_err(|f| failed(f, &at, logs.clone(), Phase::Post))?;
        logs.extend(logs_of(Phase::Post, ran.logs));
        let Some(value) = &ran.value else {
            let diagnostic = Diagnostic::elsewhere(
                crate::diagnostic::Code::ValueNotFound,
                "post-processing returned undefined: there is no value to extract",
            );
            return Err(Stopped { diagnostic, logs });
        };
        let preview =
            extract_and_encode(value, &reserved, now).map_err(|d| Stopped { diagnostic: d, logs: logs.clone() })?;
        let processed_response = ran.value;
        let answer = Answer { processed: processed_response, timestamp: ran.timestamp, preview };
        Ok(Exchange { given, processed, request, reserved, answer: Some(answer), logs })
    }
}

/// An API's answer as a call holds it: a value, or a JSON body read where it lies.
#[derive(Clone, Copy)]
enum Response<'r> {
    Value(&'r Value),
    Body(&'r JsonBody),
}

/// Runs the call of `options.endpoint` as the node would, up to the value it encodes: the
/// endpoint's processing with `engine`, the request, and — with `response` (the API's answer),
/// or always for an endpoint that makes no API call — post-processing and the encoded value
/// (`now` is the unix time a `timestamp` type encodes).
pub fn exchange(
    ois: &Value,
    options: &RequestOptions,
    engine: &Engine,
    response: Option<&Value>,
    now: u64,
) -> Result<Exchange, Stopped> {
    prepare(ois, options, engine)?.answer(engine, response, now)
}

impl Exchange {
    /// Warnings about the request and notes about parameters it does not send.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.request.as_ref().map(Request::diagnostics).unwrap_or_default()
    }
}
