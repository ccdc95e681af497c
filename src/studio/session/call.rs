//! The node's request, the real call, secrets held, and a node config built.

use super::*;

impl Session {
    fn inputs(&self, request: &CallRequest) -> Result<CallInputs, Refusal> {
        let draft = self.draft()?;
        let mut inputs = CallInputs::new(PathBuf::from(&draft.name));
        inputs.held = Some(draft.held());
        // The draft's last check, when it was of this text and found no error, stands for the
        // request's check of its OIS.
        inputs.held_breaks_no_rule = self
            .found_for(TextKey::of(&draft.text))
            .is_some_and(|found| !found.iter().any(crate::diagnostic::Diagnostic::is_error));
        // Only what was typed into the page, never the environment the studio runs in, and never
        // the node's own secrets (the mnemonic held for beacon IDs): no API may receive them.
        let held = Secrets::from_values(self.secrets.clone());
        inputs.held_secrets = Some(held.only(|name| !crate::node::is_node_secret(name)));
        inputs.parameters = request.parameters.iter().map(|(n, v)| (n.clone(), v.clone(), false)).collect();
        inputs.ois_title = draft.title.clone();
        inputs.server = request.server.clone().filter(|s| !s.trim().is_empty());
        if request.feed {
            inputs.mode = crate::request::Mode::Feed;
        }
        Ok(inputs)
    }

    /// The values of every secret held (to mask them in every answer).
    pub(crate) fn secret_values(&self) -> Vec<String> {
        self.secrets.values().cloned().collect()
    }

    /// The node's request for `request` (as `ois request`), with the value from the API's last
    /// answer when asked.
    pub fn request(&self, request: &CallRequest) -> Answer {
        let mut job = RequestJob::new(self.inputs(request)?, request.endpoint.clone());
        if request.use_response {
            job.held_response = self.response.clone();
        }
        match crate::jobs::request::run(&job, now()) {
            Ok(report) => Ok(Reply::typed(&answers::RequestAnswer {
                exchange: crate::request::render::json(&report.exchange, false),
                curl: report.curl(false).ok(),
                diagnostics: view::placed(report.located.diagnostics, report.located.source.as_ref()),
            })),
            Err(stop) => Err(Refusal {
                diagnostics: view::placed(stop.located.diagnostics, stop.located.source.as_ref()),
                detail: serde_json::to_value(answers::Logged { logs: stop.logs }).ok(),
            }),
        }
    }

    /// What a real call needs, taken from the session so that the call itself runs without it
    /// (a slow API must not hold every other step of the page).
    pub fn prepare_call(&self, request: &CallRequest) -> Result<PreparedCall, Refusal> {
        // A recording goes below the studio's folder, never through a link.
        let record =
            request.record.as_deref().filter(|r| !r.is_empty()).map(|r| self.folder.writable(r)).transpose()?;
        let options = crate::call::CallOptions { record, ..crate::call::CallOptions::default() };
        let job = crate::jobs::call::CallJob::new(self.inputs(request)?, options);
        Ok(PreparedCall { job, request: request.clone(), secrets: self.secret_values() })
    }

    /// What a check of the deployment needs, taken from the session so that the check (a Signed
    /// API read, the API called) runs without it: the config built last, the secrets held (its
    /// mnemonic says which beacons are the deployment's; its API keys call the API; the Signed
    /// API's read token, held as `SIGNED_API_REAL_TIME_TOKEN`).
    pub fn prepare_status(&self, request: &StatusRequest) -> Result<crate::jobs::status::StatusJob, Refusal> {
        let built = self.built.as_ref().ok_or_else(|| refuse("build the config first: what is live is of a config"))?;
        let text = crate::js::stringify_pretty(&built.scaffold.config) + "\n";
        let mut inputs = CallInputs::new(PathBuf::from("airnode-feed.json"));
        inputs.held = Some(Held { name: "airnode-feed.json".to_owned(), text: text.into() });
        inputs.held_secrets = Some(Secrets::from_values(self.secrets.clone()));
        inputs.mode = crate::request::Mode::Feed;
        inputs.server = request.server.clone().filter(|s| !s.trim().is_empty());
        let job = crate::jobs::call::CallJob::new(inputs, crate::call::CallOptions::default());
        let mut status = crate::jobs::status::StatusJob::new(job, now());
        status.signed_api_url = request.signed_api_url.clone().filter(|s| !s.trim().is_empty());
        status.signed_api_token = self.secrets.get(crate::scaffold::signed_api::REAL_TIME_TOKEN).cloned();
        Ok(status)
    }

    /// Keeps a call the page made (the last [`PAST_CALLS`]).
    pub fn remember_call(&mut self, call: answers::PastCall) {
        self.calls.push_front(call);
        self.calls.truncate(PAST_CALLS);
    }

    /// The page's last calls, newest first.
    pub fn past_calls(&self) -> Answer {
        Ok(Reply::typed(&answers::PastCalls { calls: &self.calls }))
    }

    /// Holds the answer of a call made with [`Session::prepare_call`] for previews.
    pub fn hold_response(&mut self, response: Option<Value>) {
        self.response = response;
    }

    /// Holds secrets typed into the page (an empty value forgets one); answers with the names.
    pub fn set_secrets(&mut self, values: BTreeMap<String, String>) -> Answer {
        for (name, value) in values {
            if !crate::node::is_secret_name(&name) {
                return Err(refuse(format!(
                    "secret name \"{}\": the node accepts only names matching ^[A-Z][A-Z0-9_]*$",
                    crate::emit::printable(&name)
                )));
            }
            if value.is_empty() {
                self.secrets.remove(&name);
            } else {
                self.secrets.insert(name, value);
            }
        }
        Ok(Reply::typed(&answers::SecretNames { secrets: self.secrets.keys().collect() }))
    }

    /// A node config of the draft (as `ois scaffold feed|airnode`), checked as the node would
    /// serve it, with its secrets template and every ID.
    pub fn build(&mut self, request: BuildRequest) -> Answer {
        let draft = self.draft()?;
        let oises = crate::ois::oises_in(&draft.held().source())?;
        let kind = match request.node {
            BuildNode::Feed => ScaffoldKind::Feed(FeedRequest {
                feeds: request.feeds,
                templates: request
                    .templates
                    .into_iter()
                    .map(|template| crate::scaffold::node::Feed {
                        ois_title: None,
                        endpoint: template.endpoint,
                        parameters: template
                            .parameters
                            .into_iter()
                            .map(|(name, kind, value)| crate::node::ids::TemplateParameter {
                                kind,
                                name,
                                value: Value::String(value),
                            })
                            .collect(),
                    })
                    .collect(),
                signed_apis: request.signed_apis,
                batch: request.batch,
                all_feeds: request.all_feeds,
                fetch_interval: request.fetch_interval.unwrap_or(crate::jobs::scaffold::DEFAULT_FETCH_INTERVAL),
                server: request.server.filter(|s| !s.trim().is_empty()),
                ..FeedRequest::default()
            }),
            BuildNode::Airnode => ScaffoldKind::Airnode(crate::jobs::scaffold::AirnodeRequest::default()),
        };
        let made = crate::jobs::node_config::made(&oises, &kind, Secrets::from_values(self.secrets.clone()))?;
        let ids_text = crate::js::stringify_pretty(&serde_json::to_value(&made.ids).unwrap_or(Value::Null)) + "\n";
        let answer = Reply::typed(&answers::Built {
            config: made.text,
            secrets: made.secrets_template,
            ids: made.ids,
            mnemonic: made.mnemonic,
            diagnostics: view::placed(made.scaffold.warnings.clone(), None),
        });
        let scaffold = made.scaffold;
        self.built = Some(Built { scaffold, ids: ids_text });
        Ok(answer)
    }
}

/// A real call taken out of the session: run it with no lock held, then hand the answer back
/// with [`Session::hold_response`].
#[derive(Debug)]
pub struct PreparedCall {
    job: crate::jobs::call::CallJob,
    request: CallRequest,
    secrets: Vec<String>,
}

/// How many calls the studio keeps for the page to see and make again.
pub const PAST_CALLS: usize = 20;

/// The largest answer body a past call keeps, as JSON text: a bigger one is seen in the call.
const PAST_ANSWER_BYTES: usize = 64 * 1024;

/// A body kept with a past call when it is small enough (a bigger one is seen in the call).
fn kept_body(body: &serde_json::value::RawValue) -> Option<Value> {
    (body.get().len() <= PAST_ANSWER_BYTES).then(|| serde_json::from_str(body.get()).ok()).flatten()
}

impl PreparedCall {
    /// Calls the API: the answer to hold, what the page is told, and the call to remember.
    pub fn run(self) -> (Option<Value>, Answer, answers::PastCall) {
        let secrets = self.secrets;
        let mut past = answers::PastCall {
            request: self.request.clone(),
            at: now(),
            status: None,
            latency_ms: None,
            values: None,
            refused: None,
            answer: None,
        };
        let mut remember = |reply: Option<&crate::call::ReplyView>| {
            if let Some(reply) = reply {
                (past.status, past.latency_ms) = (Some(reply.status), Some(reply.latency_ms));
                past.answer = kept_body(&reply.body);
            }
        };
        let leaves = |value: Option<&Value>| {
            let masked = value.map(|v| crate::request::render::masked_json(&secrets, false, v));
            let (leaves, truncated) = masked.as_ref().map(crate::request::paths::leaves).unwrap_or_default();
            let suggested = crate::request::paths::suggested(&leaves);
            answers::Picker { leaves, truncated, suggested, feed: None, element: None }
        };
        match crate::jobs::call::one(&self.job, &self.request.endpoint, now()) {
            Ok(report) => {
                let response =
                    report.called.reply.as_ref().and_then(|r| r.json.as_ref()).and_then(|b| b.value().ok().cloned());
                let mut picker = answers::Picker { feed: report.feed.clone(), ..leaves(report.answer_to_pick()) };
                let inside =
                    report.element.as_deref().and_then(|e| crate::request::paths::within_element(&picker.leaves, e));
                if let Some((inside, suggested)) = inside {
                    (picker.leaves, picker.suggested, picker.element) = (inside, suggested, report.element.clone());
                }
                let call = report.called.view(false);
                remember(call.call.as_ref());
                let values = call.request.response.as_ref().map(|answer| answer.preview.values.clone());
                let answer = Reply::typed(&answers::Called {
                    call,
                    picker,
                    diagnostics: view::placed(report.located.diagnostics, report.located.source.as_ref()),
                });
                past.values = values.and_then(|v| serde_json::to_value(v).ok());
                (response, Ok(answer), past)
            }
            Err(stopped) => {
                let response =
                    stopped.reply.as_ref().and_then(|r| r.json.as_ref()).and_then(|b| b.value().ok().cloned());
                let detail = answers::CallFailed {
                    call: stopped.view(false).call,
                    picker: leaves(response.as_ref()),
                    logs: stopped.stop.logs,
                };
                remember(detail.call.as_ref());
                let first = stopped.stop.located.diagnostics.iter().find(|d| d.is_error());
                past.refused = first.map(|d| format!("{}: {}", d.code, d.message));
                let refusal = Refusal {
                    diagnostics: view::placed(stopped.stop.located.diagnostics, stopped.stop.located.source.as_ref()),
                    detail: serde_json::to_value(detail).ok(),
                };
                (response, Err(refusal), past)
            }
        }
    }
}

/// Checks a deployment prepared by [`Session::prepare_status`].
pub fn run_status(job: &crate::jobs::status::StatusJob) -> Answer {
    match crate::jobs::status::run(job) {
        Ok(report) => Ok(Reply::typed(&answers::Live {
            signed_api: report.signed_api,
            airnode: report.airnode,
            beacons: report.beacons,
            live: report.live,
            failing: report.failing,
            diagnostics: view::placed(report.located.diagnostics, report.located.source.as_ref()),
        })),
        Err(stop) => Err(Refusal {
            diagnostics: view::placed(stop.located.diagnostics, stop.located.source.as_ref()),
            detail: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_past_call_keeps_an_answer_up_to_its_bound() {
        let raw = |value: &Value| serde_json::value::to_raw_value(value).unwrap();
        let small = serde_json::json!({"price": 1.5});
        assert_eq!(kept_body(&raw(&small)), Some(small));
        let text = "x".repeat(PAST_ANSWER_BYTES);
        assert_eq!(kept_body(&raw(&Value::String(text))), None, "its quotes take it past the bound");
        let just = Value::String("x".repeat(PAST_ANSWER_BYTES - 2));
        assert_eq!(kept_body(&raw(&just)), Some(just.clone()));
    }
}
