//! `ois call`: the real API call of one endpoint, of every endpoint with its examples, or of
//! every template of an Airnode Feed config.

use serde::Serialize;
use serde_json::Value;

use super::request::{CallInputs, PathsReport, Setup, Stop};
use crate::call::{CallFailure, CallOptions, Called, Reply};
use crate::diagnostic::{Code, Diagnostic, Stage};
use crate::source::Source;

/// What `ois call` is asked for.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CallJob {
    /// The file and the requester's inputs.
    pub inputs: CallInputs,
    /// How the calls are made.
    pub options: CallOptions,
}

impl CallJob {
    /// Calls with `inputs`, made as `options` say.
    pub fn new(inputs: CallInputs, options: CallOptions) -> CallJob {
        CallJob { inputs, options }
    }
}

/// One endpoint called.
#[derive(Debug)]
#[non_exhaustive]
pub struct CallReport {
    /// The exchange and the API's answer.
    pub called: Called,
    /// The feed by name the call asked for, when it called a feeds-by-name endpoint.
    pub feed: Option<String>,
    /// The element of the answer that is the feed's own, when one call answers it with others
    /// ([`crate::ois::feeds::own_element`]): the value picker lists only what is inside it.
    pub element: Option<String>,
    /// Its diagnostics, and the file read for showing them in its text.
    pub located: crate::source::Located,
}

impl CallReport {
    /// The answer the value picker lists: a feed's as the vendor gave it (its value path is read
    /// from that by its parser), else the answer as post-processing leaves it, or as the API gave
    /// it when the endpoint has no post-processing.
    pub fn answer_to_pick(&self) -> Option<&Value> {
        let response = self.called.reply.as_ref().and_then(|r| r.json.as_ref()).and_then(|body| body.value().ok());
        if self.feed.is_some() {
            return response;
        }
        self.called.exchange.answer.as_ref().and_then(|a| a.processed.as_ref()).or(response)
    }
}

/// A call that stopped, with the API's answer when there was one.
#[derive(Debug)]
#[non_exhaustive]
pub struct CallStop {
    /// Why, with the warnings before it.
    pub stop: Stop,
    /// The answer, when the API gave one.
    pub reply: Option<Reply>,
    /// The secrets the request carried, for masking the answer.
    pub secrets: Vec<String>,
}

impl CallStop {
    /// What a script reads of a call that stopped: the diagnostic that stopped it, every one, and
    /// the API's answer when it gave one, secrets masked unless `show_secrets`.
    pub fn view(&self, show_secrets: bool) -> super::request::StopView {
        let mut view = self.stop.view();
        view.call = self.reply.as_ref().map(|reply| reply.view(&self.secrets, show_secrets));
        view
    }
}

/// The engine's warning, the file read, and the call's setup: where a call of `endpoint`
/// starts, or why it stopped before sending anything.
fn set_up(job: &CallJob, endpoint: &str) -> Result<(Vec<Diagnostic>, Source, Setup), CallStop> {
    let warnings: Vec<Diagnostic> = job.inputs.engine_warning().into_iter().collect();
    let stopped = |error: Diagnostic, source: Option<Source>| CallStop {
        stop: Stop {
            located: crate::source::Located::new([warnings.clone(), vec![error]].concat(), source),
            logs: Vec::new(),
        },
        reply: None,
        secrets: Vec::new(),
    };
    let source = job.inputs.read().map_err(|error| stopped(error, None))?;
    match job.inputs.setup(&source, endpoint, true) {
        Ok(setup) => Ok((warnings, source, setup)),
        Err(error) => Err(stopped(error, Some(source))),
    }
}

/// Calls `endpoint`.
pub fn one(job: &CallJob, endpoint: &str, now: u64) -> Result<CallReport, CallStop> {
    let (mut warnings, source, Setup { selected, options, notes, feed }) = set_up(job, endpoint)?;
    warnings.extend(notes);
    match crate::call::call(&selected.ois, &options, &job.inputs.engine, &job.options, now) {
        Ok(called) => {
            warnings.extend(called.reply.iter().flat_map(|reply| reply.notes.iter().cloned()));
            warnings.extend(called.exchange.diagnostics().into_iter().map(|d| d.within(&selected.pointer)));
            let element = feed.as_deref().and_then(|name| crate::ois::feeds::own_element(&selected.ois, name));
            Ok(CallReport { called, feed, element, located: crate::source::Located::new(warnings, Some(source)) })
        }
        Err(CallFailure { mut stopped, reply }) => {
            warnings.extend(reply.iter().flat_map(|reply| reply.notes.iter().cloned()));
            stopped.diagnostic = stopped.diagnostic.within(&selected.pointer);
            let secrets = options.secret_values();
            Err(CallStop { stop: Stop::new(warnings, stopped, Some(source)), reply, secrets })
        }
    }
}

/// The value picker on the real answer: calls `endpoint` and lists every leaf of the answer as
/// its post-processing leaves it.
pub fn paths(job: &CallJob, endpoint: &str) -> Result<PathsReport, CallStop> {
    let (mut warnings, source, Setup { selected, options, notes, feed }) = set_up(job, endpoint)?;
    warnings.extend(notes);
    let secrets: Vec<String> = options.secret_values();
    let picked = crate::request::prepare(&selected.ois, &options, &job.inputs.engine)
        .map_err(CallFailure::from)
        .and_then(|prepared| {
            let request = prepared.request.as_ref().map(crate::request::Request::diagnostics).unwrap_or_default();
            warnings.extend(request.into_iter().map(|d| d.within(&selected.pointer)));
            let reply = crate::call::fetch(&prepared, &job.options)?;
            let response = match reply.as_ref().and_then(|r| r.json.as_ref()).map(crate::request::JsonBody::value) {
                Some(Err(diagnostic)) => {
                    let stopped = crate::request::Stopped { diagnostic, logs: prepared.logs.clone() };
                    return Err(CallFailure { stopped, reply });
                }
                Some(Ok(value)) => Some(value),
                None => None,
            };
            // A feed's value path is read from the vendor's answer as it came.
            if feed.is_some() {
                return Ok((response.cloned(), reply));
            }
            let processed = prepared
                .post_processed(&job.inputs.engine, response)
                .map_err(|stopped| CallFailure { stopped, reply: reply.clone() })?;
            Ok((processed, reply))
        });
    match picked {
        Ok((processed, reply)) => {
            warnings.extend(reply.iter().flat_map(|reply| reply.notes.iter().cloned()));
            let report = PathsReport::of(endpoint, processed.as_ref(), warnings, source).for_feed(&selected.ois, feed);
            Ok(report)
        }
        Err(CallFailure { mut stopped, reply }) => {
            stopped.diagnostic = stopped.diagnostic.within(&selected.pointer);
            Err(CallStop { stop: Stop::new(warnings, stopped, Some(source)), reply, secrets })
        }
    }
}

/// What became of one endpoint's call in a call of every endpoint.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EndpointCall {
    /// The endpoint.
    pub endpoint: String,
    /// The API's HTTP status, when it answered.
    pub status: Option<u16>,
    /// How long the answer took.
    pub latency_ms: Option<u64>,
    /// The values the node would encode.
    pub values: Option<Vec<Value>>,
    /// The encoded value's size in bytes.
    pub encoded_bytes: Option<usize>,
    /// Whether it was ok, and what stopped it when not.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// A call of every endpoint.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[non_exhaustive]
pub struct AllReport {
    /// Each endpoint's call, in the OIS's order.
    pub endpoints: Vec<EndpointCall>,
    /// How many were ok.
    pub ok: usize,
    /// How many failed.
    pub failed: usize,
    /// Its diagnostics, and the file read for showing them in its text.
    #[serde(flatten)]
    pub located: crate::source::Located,
}

/// Whether a call was ok, and what stopped it when not (serialised at the end of its row).
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[non_exhaustive]
pub struct Outcome {
    /// `ok`, or what failed.
    pub verdict: &'static str,
    /// The code of what stopped it.
    pub code: Option<crate::diagnostic::Code>,
    /// What stopped it.
    pub message: Option<String>,
    /// What stopped it, in full.
    #[serde(skip)]
    pub problem: Option<Diagnostic>,
}

impl Outcome {
    /// A call that made its value.
    pub fn ok() -> Outcome {
        Outcome { verdict: "ok", code: None, message: None, problem: None }
    }

    /// A call that `problem` stopped.
    pub fn failed(problem: Diagnostic) -> Outcome {
        Outcome {
            verdict: verdict(problem.code),
            code: Some(problem.code),
            message: Some(problem.message.clone()),
            problem: Some(problem),
        }
    }

    /// Whether the call made its value.
    pub fn is_ok(&self) -> bool {
        self.problem.is_none()
    }
}

/// What failed, in a word, for a call's code.
fn verdict(code: Code) -> &'static str {
    match code {
        Code::ValueNotFound | Code::CastFailed => "extraction failed",
        Code::InvalidType | Code::ReservedMismatch | Code::EncodedTooLarge | Code::EncodingFailed => "encoding failed",
        Code::ProcessingSyntax
        | Code::ProcessingThrew
        | Code::ProcessingTimeout
        | Code::ProcessingShape
        | Code::ProcessingValue
        | Code::NodeBuiltin
        | Code::ProcessingEngine => "processing failed",
        Code::ValuesEqual => "same value",
        Code::AnswerDrifted => "drifted",
        code if code.stage() == Stage::Call => "API error",
        _ => "request failed",
    }
}

/// The parameters a call of every endpoint gives one: each parameter's `example`, then the
/// requester's parameters.
fn examples(endpoint: &Value) -> Vec<(String, Value)> {
    endpoint
        .get("parameters")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| Some((p.get("name")?.as_str()?.to_owned(), p.get("example")?.clone())))
        .collect()
}

/// Calls every endpoint of the file read as `source`, `jobs` at a time.
pub(super) fn all(
    job: &CallJob,
    source: Source,
    jobs: usize,
    now: u64,
    done: &(dyn Fn(usize) + Sync),
) -> Result<AllReport, Stop> {
    let mut warnings: Vec<Diagnostic> = job.inputs.engine_warning().into_iter().collect();
    let Setup { selected, options: base, notes, .. } = match job.inputs.setup(&source, "", true) {
        Ok(setup) => setup,
        Err(error) => {
            return Err(Stop {
                located: crate::source::Located::new([warnings, vec![error]].concat(), Some(source)),
                logs: Vec::new(),
            });
        }
    };
    warnings.extend(notes);
    // As the node holds it, once for every call (and its endpoints read from it, not copied).
    let held = crate::request::HeldOis::of(&selected.ois);
    let endpoints: &[Value] = held.value().get("endpoints").and_then(Value::as_array).map_or(&[], Vec::as_slice);
    done(endpoints.len());
    let call_one = |endpoint: &Value| -> EndpointCall {
        let name = endpoint.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
        let mut options = base.clone();
        options.endpoint = name.clone();
        let given = std::mem::take(&mut options.parameters);
        options.parameters = examples(endpoint).into_iter().collect();
        options.parameters.extend(given);
        let result = crate::call::call_held(&held, &options, &job.inputs.engine, &job.options, now);
        done(1);
        let latency = |reply: &Option<Reply>| reply.as_ref().map(Reply::latency_ms);
        match result {
            Ok(called) => EndpointCall {
                endpoint: name,
                status: called.reply.as_ref().map(|r| r.status),
                latency_ms: latency(&called.reply),
                values: called.exchange.answer.as_ref().map(|answer| {
                    let secrets = called.exchange.request.as_ref().map_or(&[][..], |r| r.secrets.as_slice());
                    answer.shown(secrets, job.inputs.show_secrets).preview.values
                }),
                encoded_bytes: called.exchange.answer.as_ref().map(|a| a.preview.encoded.len().saturating_sub(2) / 2),
                outcome: Outcome::ok(),
            },
            Err(CallFailure { stopped, reply }) => {
                let mut problem = stopped.diagnostic.within(&selected.pointer);
                problem.message = format!("endpoint \"{name}\": {}", problem.message);
                EndpointCall {
                    status: reply.as_ref().map(|r| r.status),
                    latency_ms: latency(&reply),
                    values: None,
                    encoded_bytes: None,
                    outcome: Outcome::failed(problem),
                    endpoint: name,
                }
            }
        }
    };
    let calls = crate::parallel::map_at_most(endpoints, jobs, |_, endpoint| call_one(endpoint));
    let failed = calls.iter().filter(|c| !c.outcome.is_ok()).count();
    Ok(AllReport {
        ok: calls.len() - failed,
        failed,
        endpoints: calls,
        located: crate::source::Located::new(warnings, Some(source)),
    })
}
