//! `ois request`: the node's request for an endpoint call, and what it would encode from a
//! response; and what `ois request` and `ois call` share: from a file and the requester's
//! inputs to the chosen OIS and the call's options.

use std::path::PathBuf;

use indexmap::IndexMap;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::node::CredentialSlot;
use crate::processing::Engine;
use crate::request::{self, Exchange, Log, Metadata, Mode, RequestOptions, Secrets, Selected, Stopped};
use crate::source::Source;

/// What `ois request` and `ois call` are given.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CallInputs {
    /// An OIS or a config (`-`: standard input).
    pub file: PathBuf,
    /// The requester's parameters in the order given: name, text, and whether the text is JSON
    /// (a later value of a name replaces an earlier one in its first place, as in the node).
    pub parameters: Vec<(String, String, bool)>,
    /// The OIS of a file that holds several.
    pub ois_title: Option<String>,
    /// A secrets.env file.
    pub secrets: Option<PathBuf>,
    /// Names whose `${NAME}` the environment may fill when the secrets lack them (no other
    /// variable of the environment is read: a config from someone else names its own).
    pub secrets_from_environment: Vec<String>,
    /// Request metadata for relay schemes, by key.
    pub metadata: Vec<(String, String)>,
    /// Airnode's request or Airnode Feed's.
    pub mode: Mode,
    /// What runs the snippets.
    pub engine: Engine,
    /// A server to call instead of the OIS's (a mock, a staging host).
    pub server: Option<String>,
    /// The document already in hand (the studio's draft): read instead of `file`, which then
    /// only names it.
    pub held: Option<super::Held>,
    /// Secrets given in memory: used instead of `secrets` and never the environment.
    pub held_secrets: Option<Secrets>,
    /// The held document was checked and breaks no rule (the studio's check of its draft): its
    /// OIS is not checked again unless the secrets or another server change it.
    pub held_breaks_no_rule: bool,
    /// Names whose secrets no API of this run may receive: another config's node secrets, when
    /// two are run beside each other ([`Secrets::withholding`]).
    pub withheld_secrets: Vec<String>,
    /// Reports carry credentials as they are instead of `****` (an echoed key picked as a value
    /// included).
    pub show_secrets: bool,
}

/// The chosen OIS and a call's options, with what was noted on the way.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Setup {
    /// The OIS (with the server given instead of its own) and its credentials.
    pub selected: Selected,
    /// The call's options.
    pub options: RequestOptions,
    /// Notes and warnings: another server, a credential not given.
    pub notes: Vec<Diagnostic>,
    /// The feed by name the call asks for, when it calls a feeds-by-name endpoint.
    pub feed: Option<String>,
}

impl CallInputs {
    /// Inputs for `file`, with nothing else given.
    pub fn new(file: PathBuf) -> CallInputs {
        CallInputs {
            file,
            parameters: Vec::new(),
            ois_title: None,
            secrets: None,
            secrets_from_environment: Vec::new(),
            metadata: Vec::new(),
            mode: Mode::Node,
            engine: Engine::Embedded,
            server: None,
            held: None,
            held_secrets: None,
            held_breaks_no_rule: false,
            withheld_secrets: Vec::new(),
            show_secrets: false,
        }
    }

    /// Asks for the feed `name` of the OIS's `feed` endpoint (feeds by name): its `name` first
    /// among the requester's parameters. The endpoint to call.
    pub fn ask_for_feed(&mut self, name: &str) -> &'static str {
        self.parameters.insert(0, (crate::ois::feeds::NAME_PARAMETER.to_owned(), name.to_owned(), false));
        crate::ois::feeds::FEED_ENDPOINT
    }

    /// The document: the one held, or the file read.
    pub fn read(&self) -> Result<Source, Diagnostic> {
        super::Held::or_read(self.held.as_ref(), &self.file)
    }

    /// The warning running snippets unsandboxed earns.
    pub fn engine_warning(&self) -> Option<Diagnostic> {
        matches!(self.engine, Engine::Node { .. }).then(|| {
            Diagnostic::elsewhere(
                Code::Unsandboxed,
                "the OIS's processing snippets run with your system node, unsandboxed: they can read files, use the network and run programs as you",
            )
        })
    }

    /// The chosen OIS (interpolated as the node interpolates it, checked) and the options of a
    /// call of `endpoint`. `sending`: the request is to be sent, so a credential a bare OIS needs
    /// and was not given is an error (never an unauthenticated call in silence); a preview shows
    /// the request without it, with a warning.
    pub fn setup(&self, source: &Source, endpoint: &str, sending: bool) -> Result<Setup, Diagnostic> {
        let document = source.parse()?;
        let secrets = self.secrets()?;
        let mut selected = request::select(document, self.ois_title.as_deref(), &secrets)?;
        // What is said about the chosen OIS points into the file it came from (a config.json's /ois/N).
        let checked_as_it_is = self.held.is_some() && self.held_breaks_no_rule && !selected.templated;
        if !checked_as_it_is {
            request::check_ois(&selected.ois).map_err(|error| error.within(&selected.pointer))?;
        }
        let mut notes = Vec::new();
        if let Some(slot) = selected.missing.first() {
            let problem = self.missing_credential(slot, selected.missing.len(), sending).within(&selected.pointer);
            if problem.is_error() {
                return Err(problem);
            }
            notes.push(problem);
        }
        if let Some(server) = &self.server {
            notes.push(replace_server(&mut selected.ois, server)?.within(&selected.pointer));
        }
        let mut options = self.base_options(endpoint)?;
        let feed = crate::ois::feeds::asked(
            &selected.ois,
            endpoint,
            options.parameters.get(crate::ois::feeds::NAME_PARAMETER),
        )
        .map_err(|error| error.within(&selected.pointer))?;
        options.credentials = selected.credentials.clone();
        options.server_secrets = selected.server_secrets.clone();
        Ok(Setup { selected, options, notes, feed })
    }

    /// The secrets: those held, or the file given, and the environment's for the names allowed.
    pub fn secrets(&self) -> Result<Secrets, Diagnostic> {
        let withheld = self.withheld_secrets.iter().cloned();
        if let Some(held) = &self.held_secrets {
            return Ok(held.clone().withholding(withheld));
        }
        let given = match &self.secrets {
            // A regular file only: a FIFO nobody writes to would block forever.
            Some(path) => Secrets::parse(&Source::read_regular(path)?.text)?,
            None => Secrets::none(),
        };
        Ok(given.with_environment(self.secrets_from_environment.iter().cloned()).withholding(withheld))
    }

    /// Every OIS of a config (interpolated as the node interpolates it, checked, with the server
    /// given instead of its own) and the notes on the way, for a run over the config's templates.
    pub fn setup_all(
        &self,
        document: &Value,
        secrets: &Secrets,
    ) -> Result<(Vec<Selected>, Vec<Diagnostic>), Diagnostic> {
        let mut all = request::select_all(document, secrets)?;
        let mut notes = Vec::new();
        for selected in &mut all {
            request::check_ois(&selected.ois).map_err(|error| error.within(&selected.pointer))?;
            if let Some(server) = &self.server {
                notes.push(replace_server(&mut selected.ois, server)?.within(&selected.pointer));
            }
        }
        Ok((all, notes))
    }

    /// The options every call starts from: the requester's parameters, the metadata, the mode.
    pub fn base_options(&self, endpoint: &str) -> Result<RequestOptions, Diagnostic> {
        let mut options = RequestOptions::new(endpoint);
        options.parameters = self.parameters()?;
        options.metadata = self.metadata()?;
        options.mode = self.mode;
        Ok(options)
    }

    /// What is said of a credential a bare OIS needs and was not given (`count` of them).
    fn missing_credential(&self, slot: &CredentialSlot, count: usize, sending: bool) -> Diagnostic {
        let at = crate::pointer::join("/apiSpecifications/components/securitySchemes", [slot.scheme.as_str()]);
        let others = if count > 1 { format!(" (and {} more)", count - 1) } else { String::new() };
        let outcome = if sending {
            "the call would go unauthenticated; nothing was sent"
        } else {
            "the request is shown without it"
        };
        let needs =
            format!("security scheme \"{}\" needs {} ({}){others}", slot.scheme, slot.variable, slot.explanation);
        let file = self.secrets.as_ref().map(|file| file.display().to_string());
        let mut told = match &file {
            Some(file) => {
                Diagnostic::new(Code::MissingSecret, at, format!("{needs}, which {file} does not hold: {outcome}"))
            }
            // Secrets held in memory (the studio's): there is no file to speak of.
            None if self.held_secrets.is_some() => {
                Diagnostic::new(Code::CredentialNotGiven, at, format!("{needs}, which is not held: {outcome}"))
            }
            None => Diagnostic::new(
                Code::CredentialNotGiven,
                at,
                format!("{needs}, and no secrets file was given: {outcome}"),
            ),
        };
        if sending {
            told.severity = crate::Severity::Error;
        }
        told.with_fix(Fix::FillSecret { name: slot.variable.clone(), file })
    }

    fn parameters(&self) -> Result<IndexMap<String, Value>, Diagnostic> {
        let mut parameters = IndexMap::new();
        for (name, text, json) in &self.parameters {
            let value = if *json {
                serde_json::from_str(text).map_err(|err| {
                    Diagnostic::elsewhere(Code::BadArgument, format!("parameter {name}: not JSON ({err})"))
                        .with_fix(Fix::QuoteJsonString)
                })?
            } else {
                Value::String(text.clone())
            };
            parameters.insert(name.clone(), value);
        }
        Ok(parameters)
    }

    fn metadata(&self) -> Result<Option<Metadata>, Diagnostic> {
        if self.metadata.is_empty() {
            return Ok(None);
        }
        let mut metadata = Metadata::default();
        for (key, value) in &self.metadata {
            let slot = match key.as_str() {
                "chainId" => &mut metadata.chain_id,
                "chainType" => &mut metadata.chain_type,
                "requesterAddress" => &mut metadata.requester_address,
                "sponsorAddress" => &mut metadata.sponsor_address,
                "sponsorWalletAddress" => &mut metadata.sponsor_wallet_address,
                "requestId" => &mut metadata.request_id,
                other => {
                    return Err(Diagnostic::elsewhere(Code::BadArgument, format!("metadata {other}: unknown key"))
                        .with_help("keys: chainId, chainType, requesterAddress, sponsorAddress, sponsorWalletAddress, requestId"));
                }
            };
            *slot = Some(value.clone());
        }
        Ok(Some(metadata))
    }
}

/// `ois`, calling `server` instead of its own server; the note that says so.
pub(super) fn replace_server(ois: &mut Value, server: &str) -> Result<Diagnostic, Diagnostic> {
    let parsed = url::Url::parse(server).ok().filter(|url| matches!(url.scheme(), "http" | "https") && url.has_host());
    if parsed.is_none() {
        return Err(Diagnostic::elsewhere(
            Code::BadArgument,
            format!("the server given, {}, is not an absolute http(s) URL", crate::emit::printable(server)),
        ));
    }
    let own = ois.pointer("/apiSpecifications/servers/0/url").and_then(Value::as_str).unwrap_or("none").to_owned();
    if let Some(servers) = ois.pointer_mut("/apiSpecifications/servers") {
        *servers = serde_json::json!([{ "url": server }]);
    }
    // The server replaces the OIS's whole URL, its base path included: said when one is lost or
    // another put in its place, as a mock of recordings made at `/api/v3/…` answers either way
    // but a staging host may not.
    let path = |url: &str| url::Url::parse(url).map(|u| u.path().trim_end_matches('/').to_owned()).unwrap_or_default();
    let (own_path, given_path) = (path(&own), path(server));
    let base = match (own_path.is_empty(), own_path == given_path) {
        (_, true) => String::new(),
        (false, false) if given_path.is_empty() => format!(
            "; its base path {} is not kept (an operation's path goes right after the host): give it in the server to keep it",
            crate::emit::printable(&own_path)
        ),
        _ => format!(
            "; the base path {} is used instead of {}",
            crate::emit::printable(if given_path.is_empty() { "/" } else { &given_path }),
            crate::emit::printable(if own_path.is_empty() { "/" } else { &own_path })
        ),
    };
    Ok(Diagnostic::new(
        Code::ServerReplaced,
        "/apiSpecifications/servers/0/url",
        format!(
            "calling {} instead of the OIS's server {}: the node calls the OIS's{base}",
            crate::emit::printable(server),
            crate::emit::printable(&own)
        ),
    ))
}

/// What `ois request` is asked for.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RequestJob {
    /// The file and the requester's inputs.
    pub inputs: CallInputs,
    /// The endpoint to call.
    pub endpoint: String,
    /// A sample API response (JSON), for the value the node would encode.
    pub response: Option<PathBuf>,
    /// A response already in hand (the studio's last call), used instead of `response`.
    pub held_response: Option<Value>,
}

impl RequestJob {
    /// A request of `endpoint` with `inputs`.
    pub fn new(inputs: CallInputs, endpoint: String) -> RequestJob {
        RequestJob { inputs, endpoint, response: None, held_response: None }
    }
}

/// What `ois request` found: the exchange and the warnings about it.
#[derive(Debug)]
#[non_exhaustive]
pub struct RequestReport {
    /// Processing, the request and the value.
    pub exchange: Exchange,
    /// Its diagnostics, and the file read for showing them in its text.
    pub located: crate::source::Located,
}

impl RequestReport {
    /// The request as a curl command; an error for an endpoint that makes no API call.
    pub fn curl(&self, show_secrets: bool) -> Result<String, Diagnostic> {
        match &self.exchange.request {
            Some(built) => Ok(request::render::curl(built, show_secrets)),
            None => Err(Diagnostic::elsewhere(
                Code::BadArgument,
                "the endpoint makes no API call (it has no operation): there is no curl command",
            )),
        }
    }
}

/// Why a request or call stopped: every diagnostic (warnings first, the one that stopped it last),
/// what the snippets logged, and the file for locating them.
#[derive(Debug)]
#[non_exhaustive]
pub struct Stop {
    /// Its diagnostics (the one that stopped it last), and the file read when it was.
    pub located: crate::source::Located,
    /// What the snippets logged.
    pub logs: Vec<Log>,
}

impl Stop {
    /// What a script reads of it: the diagnostic that stopped it, and every one.
    pub fn view(&self) -> StopView {
        StopView {
            error: self.located.diagnostics.last().cloned(),
            diagnostics: self.located.diagnostics.clone(),
            call: None,
        }
    }

    pub(super) fn new(mut warnings: Vec<Diagnostic>, stopped: Stopped, source: Option<Source>) -> Stop {
        warnings.push(stopped.diagnostic);
        Stop { located: crate::source::Located::new(warnings, source), logs: stopped.logs }
    }
}

/// What a request or call that stopped prints as JSON.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[non_exhaustive]
pub struct StopView {
    /// The diagnostic that stopped it.
    pub error: Option<Diagnostic>,
    /// Every diagnostic, the one that stopped it last.
    pub diagnostics: Vec<Diagnostic>,
    /// The API's answer, when a call stopped after it answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call: Option<crate::call::ReplyView>,
}

/// Builds the request `job` asks for.
pub fn run(job: &RequestJob, now: u64) -> Result<RequestReport, Stop> {
    let mut warnings: Vec<Diagnostic> = job.inputs.engine_warning().into_iter().collect();
    let source = match job.inputs.read() {
        Ok(source) => source,
        Err(error) => return Err(Stop { located: crate::source::Located::new(vec![error], None), logs: Vec::new() }),
    };
    match exchange(job, &source, &mut warnings, now) {
        Ok(exchange) => Ok(RequestReport { exchange, located: crate::source::Located::new(warnings, Some(source)) }),
        Err(stopped) => Err(Stop::new(warnings, stopped, Some(source))),
    }
}

fn exchange(job: &RequestJob, source: &Source, warnings: &mut Vec<Diagnostic>, now: u64) -> Result<Exchange, Stopped> {
    let Setup { selected, options, notes, .. } = job.inputs.setup(source, &job.endpoint, false)?;
    warnings.extend(notes);
    let within = |error: Diagnostic| error.within(&selected.pointer);
    let response = match (&job.held_response, &job.response) {
        (Some(held), _) => Some(held.clone()),
        (None, Some(path)) => Some(read_response(path, warnings)?),
        (None, None) => None,
    };
    let exchange = request::exchange(&selected.ois, &options, &job.inputs.engine, response.as_ref(), now)
        .map_err(|stopped| Stopped { diagnostic: within(stopped.diagnostic), logs: stopped.logs })?;
    warnings.extend(exchange.diagnostics().into_iter().map(within));
    Ok(exchange)
}

/// A sample response, read as the node reads an API's answer: JSON.parse, duplicates and 1e400
/// included, each leniency a warning; of a recording, the answer it recorded.
fn read_response(path: &std::path::Path, warnings: &mut Vec<Diagnostic>) -> Result<Value, Diagnostic> {
    let (response, duplicate_keys, infinities) = Source::read(path)?.parse_as_javascript()?;
    // A recording (`ois call … --record`): its answer's body.
    let response = match response.get("oisRecording").and_then(Value::as_u64) {
        Some(crate::call::recording::RECORDING_VERSION) => {
            response.pointer("/response/body").cloned().unwrap_or(Value::Null)
        }
        _ => response,
    };
    let file = path.display();
    if duplicate_keys > 0 {
        warnings.push(Diagnostic::elsewhere(
            Code::ResponseLenient,
            format!("{file} repeats {duplicate_keys} key(s); the later value is used, as JSON.parse does"),
        ));
    }
    if infinities > 0 {
        warnings.push(Diagnostic::elsewhere(
            Code::ResponseLenient,
            format!("{file} has {infinities} number(s) beyond a double; they are Infinity, as JSON.parse reads them"),
        ));
    }
    Ok(response)
}

/// The value picker's answer: every leaf of the (post-processed) response with its `_path` and
/// what fits it.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PathsReport {
    /// The endpoint.
    pub endpoint: String,
    /// Each leaf, in the response's order.
    pub leaves: Vec<request::paths::Leaf>,
    /// Whether there were more than [`request::paths::MAX_LEAVES`].
    pub truncated: bool,
    /// The leaf a feed most likely wants ([`request::paths::suggested`]): its index in `leaves`.
    pub suggested: Option<usize>,
    /// The feed served by name whose answer this is: the leaves are of the vendor's answer as
    /// it came (a feed's value path is read from it by its parser), not of the post-processed one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feed: Option<String>,
    /// For a feed answered by one call with others (a batch): the element of the answer that is
    /// its own (`1`, `silver`), the one its value path enters; only its leaves are listed, so no
    /// other feed's value is proposed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub element: Option<String>,
    /// Its diagnostics, and the file read for showing them in its text.
    #[serde(flatten)]
    pub located: crate::source::Located,
}

impl PathsReport {
    /// The leaves of `response` (post-processed), for `endpoint`.
    pub(super) fn of(
        endpoint: &str,
        response: Option<&Value>,
        diagnostics: Vec<Diagnostic>,
        source: Source,
    ) -> PathsReport {
        let (leaves, truncated) = response.map(request::paths::leaves).unwrap_or_default();
        let suggested = request::paths::suggested(&leaves);
        PathsReport {
            endpoint: endpoint.to_owned(),
            leaves,
            truncated,
            suggested,
            feed: None,
            element: None,
            located: crate::source::Located::new(diagnostics, Some(source)),
        }
    }

    /// The picker for `feed` of `ois`: when one call answers it with others (a batch), only the
    /// leaves inside its own element — the one its value path enters — are listed and proposed.
    pub(super) fn for_feed(mut self, ois: &Value, feed: Option<String>) -> PathsReport {
        self.feed = feed;
        let element = self.feed.as_deref().and_then(|name| crate::ois::feeds::own_element(ois, name));
        let inside = element.as_deref().and_then(|element| request::paths::within_element(&self.leaves, element));
        if let Some((inside, suggested)) = inside {
            (self.leaves, self.suggested, self.element) = (inside, suggested, element);
        }
        self
    }
}

/// The value picker on a sample response: every leaf of `job.response`, post-processed as the
/// endpoint's snippets leave it.
pub fn paths(job: &RequestJob) -> Result<PathsReport, Stop> {
    let mut warnings: Vec<Diagnostic> = job.inputs.engine_warning().into_iter().collect();
    let source = match job.inputs.read() {
        Ok(source) => source,
        Err(error) => return Err(Stop { located: crate::source::Located::new(vec![error], None), logs: Vec::new() }),
    };
    let picked = (|| {
        let Some(path) = &job.response else {
            return Err(Stopped::from(
                Diagnostic::elsewhere(Code::BadArgument, "listing the leaves of a response needs a response")
                    .with_fix(Fix::GiveResponse),
            ));
        };
        let Setup { selected, options, notes, feed } = job.inputs.setup(&source, &job.endpoint, false)?;
        warnings.extend(notes);
        let response = read_response(path, &mut warnings)?;
        if let Some(feed) = feed {
            return Ok((Some(response), Some((feed, selected.ois))));
        }
        let prepared = request::prepare(&selected.ois, &options, &job.inputs.engine).map_err(|stopped| Stopped {
            diagnostic: stopped.diagnostic.within(&selected.pointer),
            logs: stopped.logs,
        })?;
        Ok((prepared.post_processed(&job.inputs.engine, Some(&response))?, None))
    })();
    match picked {
        Ok((response, feed)) => {
            let report = PathsReport::of(&job.endpoint, response.as_ref(), warnings, source);
            Ok(match feed {
                Some((feed, ois)) => report.for_feed(&ois, Some(feed)),
                None => report,
            })
        }
        Err(stopped) => Err(Stop::new(warnings, stopped, Some(source))),
    }
}

crate::diagnosed_by_located!(PathsReport);

#[cfg(test)]
mod tests {
    use super::*;

    /// The OIS of tests/codes/REQ007 (its title breaks OIS005), held as the studio holds a draft.
    fn held_breaking_a_rule(fixed: &str, breaks_no_rule: bool) -> RequestJob {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/codes/REQ007.in/api.ois.json");
        let text =
            std::fs::read_to_string(path).unwrap().replace("\"value\": \"x\"", &format!("\"value\": \"{fixed}\""));
        let mut inputs = CallInputs::new(PathBuf::from("api.ois.json"));
        inputs.held = Some(super::super::Held { name: "api.ois.json".to_owned(), text: text.into() });
        inputs.held_secrets = Some(Secrets::none());
        inputs.parameters = vec![("id".to_owned(), "1".to_owned(), false)];
        inputs.held_breaks_no_rule = breaks_no_rule;
        RequestJob::new(inputs, "item".to_owned())
    }

    fn refused_code(job: &RequestJob) -> Option<Code> {
        run(job, 0).err().and_then(|stop| stop.located.diagnostics.iter().find(|d| d.is_error()).map(|d| d.code))
    }

    #[test]
    fn a_held_text_said_to_break_no_rule_is_checked_again_only_when_a_template_changes_it() {
        // Not said: checked, and refused.
        assert_eq!(refused_code(&held_breaking_a_rule("x", false)), Some(Code::InvalidOis));
        // Said (the caller's own check of this very text): not checked again.
        assert_eq!(refused_code(&held_breaking_a_rule("x", true)), None);
        // Said, but an escaped `${` is made plain on the way: the OIS is not the text's own, and
        // it is checked.
        assert_eq!(refused_code(&held_breaking_a_rule("\\\\${x}", true)), Some(Code::InvalidOis));
    }
}
