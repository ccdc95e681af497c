//! Each call of a run: a trigger's one API call and its templates answered from it, an RRP
//! template called as airnode-node calls it, and the row each makes.

use alloy_primitives::B256;
use serde_json::Value;

use super::evidence::{fail_equal_values, reading};
use super::{BeaconCall, Run};
use crate::call::{CallFailure, Reply};
use crate::diagnostic::{Code, Diagnostic};
use crate::jobs::call::Outcome;
use crate::node::ids::{beacon_id, parameters_from_json};
use crate::request::{self, HeldOis, Mode, RequestOptions, Selected, Stopped};
use crate::validate::templates::trigger_template_ids;

impl Run<'_> {
    /// The trigger's API call and every template answered from it; whether the API was called.
    pub(super) fn trigger(&self, index: usize, trigger: &Value) -> (bool, Vec<BeaconCall>) {
        let ids = trigger_template_ids(trigger);
        let rows = |ids: &[&str]| -> Vec<BeaconCall> { ids.iter().map(|id| self.row(Some(index), id)).collect() };
        let Some(first) = ids.first() else { return (false, Vec::new()) };
        // As the Feed: the first template's endpoint and OIS make the call for all.
        let (held, selected, options) = match self.template(first) {
            Ok(found) => found,
            Err(problem) => {
                return (false, rows(&ids).into_iter().map(|row| row.failed(problem.clone(), None)).collect());
            }
        };
        let engine = &self.job.inputs.engine;
        let fetched = request::prepare_held(held, &options, engine).map_err(CallFailure::from).and_then(|prepared| {
            let reply = crate::call::fetch(&prepared, &self.job.options)?;
            let response = match &reply {
                Some(reply) => reply.json.clone(),
                None => prepared.standing_in().cloned().map(request::JsonBody::of_value),
            };
            Ok((reply, response))
        });
        let (reply, response) = match fetched {
            Ok(fetched) => fetched,
            Err(CallFailure { stopped, reply }) => {
                let problem = self.placed(first, &options.endpoint, stopped, selected);
                let called = reply.is_some();
                let rows = rows(&ids).into_iter().map(|row| row.failed(problem.clone(), reply.as_ref()));
                return (called, rows.collect());
            }
        };
        let response = response.unwrap_or_else(|| request::JsonBody::of_value(Value::Null));
        let answered = ids.iter().map(|id| {
            let row = self.row(Some(index), id).with_reply(reply.as_ref());
            match self.answer(id, &response) {
                Ok((answer, reading)) => {
                    let row = row.answered(answer.shown(&self.secrets, self.job.inputs.show_secrets));
                    BeaconCall { read_from: reading, ..row }
                }
                Err(problem) => row.failed(problem, reply.as_ref()),
            }
        });
        let mut rows: Vec<BeaconCall> = answered.collect();
        if !self.job.options.allow_equal_values {
            fail_equal_values(&mut rows);
        }
        (reply.is_some(), rows)
    }

    /// An Airnode config.json's RRP template called as airnode-node calls it for a request that
    /// adds nothing: its parameters decoded from `encodedParameters`, the endpoint its trigger
    /// names, node mode (defaults applied), that OIS's credentials.
    pub(super) fn rrp(&self, index: usize, template: &Value) -> BeaconCall {
        let text = |key: &str| template.get(key).and_then(Value::as_str).unwrap_or_default();
        let at = format!("/templates/{index}");
        let mut row = self.row(None, text("templateId"));
        let trigger = self.config.pointer("/triggers/rrp").and_then(Value::as_array).and_then(|triggers| {
            triggers.iter().find(|t| t.get("endpointId").and_then(Value::as_str) == Some(text("endpointId")))
        });
        let named = |key: &str| trigger.and_then(|t| t.get(key)).and_then(Value::as_str).unwrap_or_default().to_owned();
        (row.ois_title, row.endpoint) = (named("oisTitle"), named("endpointName"));
        let Some((held, selected)) = trigger.and_then(|_| self.oises.get(row.ois_title.as_str())) else {
            let problem = Diagnostic::new(
                Code::TemplateUnservable,
                format!("{at}/endpointId"),
                format!(
                    "template {}: no RRP trigger serves its endpointId {}",
                    crate::node::ids::short(text("templateId")),
                    text("endpointId")
                ),
            );
            return row.failed(problem, None);
        };
        let parameters = match crate::node::abi_decode::decode_parameters(text("encodedParameters")) {
            Ok(parameters) => parameters,
            Err(error) => {
                return row.failed(Diagnostic::new(error.code, format!("{at}/encodedParameters"), error.message), None);
            }
        };
        let mut options = self.base.clone();
        options.mode = Mode::Node;
        options.metadata = self.job.inputs.base_options("").ok().and_then(|o| o.metadata);
        options.endpoint = row.endpoint.clone();
        let given = std::mem::take(&mut options.parameters);
        options.parameters = parameters.into_iter().collect();
        options.parameters.extend(given);
        match crate::call::call_held(held, &options, &self.job.inputs.engine, &self.job.options, self.now) {
            Ok(called) => {
                let row = row.with_reply(called.reply.as_ref());
                let read_from = reading(held.value(), &options, &called.exchange.reserved);
                match called.exchange.answer {
                    Some(answer) => BeaconCall {
                        read_from,
                        ..row.answered(answer.shown(&self.secrets, self.job.inputs.show_secrets))
                    },
                    None => row,
                }
            }
            Err(CallFailure { stopped, reply }) => {
                let problem = self.placed(text("templateId"), &options.endpoint, stopped, selected);
                row.failed(problem, reply.as_ref())
            }
        }
    }

    /// The template's OIS as held, its OIS's selection, and the options of its call.
    fn template(&self, id: &str) -> Result<(&HeldOis<'_>, &Selected, RequestOptions), Diagnostic> {
        let at = crate::pointer::join("/templates", [id]);
        let missing =
            |what: &str| Diagnostic::new(Code::TemplateUnservable, at.clone(), format!("template {id}: {what}"));
        let template =
            self.config.get("templates").and_then(|t| t.get(id)).ok_or_else(|| missing("not in `templates`"))?;
        let endpoint_id = template.get("endpointId").and_then(Value::as_str).unwrap_or_default();
        let named = self
            .config
            .get("endpoints")
            .and_then(|e| e.get(endpoint_id))
            .ok_or_else(|| missing(&format!("its endpointId {endpoint_id} is not in `endpoints`")))?;
        let text = |key: &str| named.get(key).and_then(Value::as_str).unwrap_or_default();
        let (title, name) = (text("oisTitle"), text("endpointName"));
        let (held, selected) = self.oises.get(title).ok_or_else(|| missing(&format!("no OIS titled \"{title}\"")))?;
        let parameters = parameters_from_json(template.get("parameters").unwrap_or(&Value::Null))
            .map_err(|error| error.within(&at))?;
        let mut options = self.base.clone();
        options.endpoint = name.to_owned();
        // The Feed calls with the template's parameters alone; the requester's are added for a run.
        let given = std::mem::take(&mut options.parameters);
        options.parameters = parameters.into_iter().map(|p| (p.name, p.value)).collect();
        options.parameters.extend(given);
        Ok((held, selected, options))
    }

    /// The template's value from the trigger's response: its own post-processing and reserved
    /// parameters, with the first template's OIS (as the Feed looks its endpoint up there).
    fn answer(&self, id: &str, response: &request::JsonBody) -> Result<(request::Answer, Option<String>), Diagnostic> {
        let (held, selected, options) = self.template(id)?;
        let engine = &self.job.inputs.engine;
        let exchange = request::prepare_answer_held(held, &options)
            .and_then(|prepared| prepared.answer_body(engine, Some(response), self.now))
            .map_err(|stopped| self.placed(id, &options.endpoint, stopped, selected))?;
        let reading = reading(held.value(), &options, &exchange.reserved);
        let answer = exchange.answer.ok_or_else(|| {
            Diagnostic::new(Code::ValueNotFound, crate::pointer::join("/templates", [id]), "no value was made")
        })?;
        Ok((answer, reading))
    }

    /// What stopped a template, placed in the config and naming the template.
    fn placed(&self, id: &str, endpoint: &str, stopped: Stopped, selected: &Selected) -> Diagnostic {
        let mut problem = stopped.diagnostic.within(&selected.pointer);
        problem.message =
            format!("template {} (endpoint \"{endpoint}\"): {}", crate::node::ids::short(id), problem.message);
        problem
    }

    /// A row for template `id` of trigger `index`, before its call.
    fn row(&self, trigger: Option<usize>, id: &str) -> BeaconCall {
        let named = self
            .config
            .get("templates")
            .and_then(|t| t.get(id))
            .and_then(|t| t.get("endpointId"))
            .and_then(Value::as_str)
            .and_then(|e| self.config.get("endpoints")?.get(e));
        let text = |key: &str| named.and_then(|n| n.get(key)).and_then(Value::as_str).unwrap_or_default().to_owned();
        let endpoint = text("endpointName");
        let feed = (endpoint == crate::ois::feeds::FEED_ENDPOINT)
            .then(|| {
                let parameters = self.config.get("templates")?.get(id)?.get("parameters")?.as_array()?;
                let name = parameters
                    .iter()
                    .find(|p| p.get("name").and_then(Value::as_str) == Some(crate::ois::feeds::NAME_PARAMETER))?;
                name.get("value")?.as_str().map(str::to_owned)
            })
            .flatten();
        let airnode = self.airnode.filter(|_| trigger.is_some());
        let beacon = airnode.zip(id.parse::<B256>().ok()).map(|(airnode, template)| beacon_id(airnode, template));
        BeaconCall {
            trigger,
            template_id: id.to_owned(),
            beacon_id: beacon.map(|b| b.to_string()),
            ois_title: text("oisTitle"),
            endpoint,
            feed,
            status: None,
            latency_ms: None,
            values: None,
            encoded_value: None,
            read_from: None,
            outcome: Outcome::ok(),
        }
    }
}

impl BeaconCall {
    fn with_reply(mut self, reply: Option<&Reply>) -> BeaconCall {
        self.status = reply.map(|r| r.status);
        self.latency_ms = reply.map(Reply::latency_ms);
        self
    }

    fn answered(mut self, answer: request::Answer) -> BeaconCall {
        self.values = Some(answer.preview.values);
        self.encoded_value = Some(answer.preview.encoded);
        self
    }

    fn failed(self, problem: Diagnostic, reply: Option<&Reply>) -> BeaconCall {
        let mut row = self.with_reply(reply);
        row.outcome = Outcome::failed(problem);
        row
    }
}
