//! Whether Airnode Feed can serve each template of its config, as it will on every cycle: the
//! config schema accepts a template whose parameters the endpoint does not have, that leaves a
//! required one out, or whose `_type` is nowhere — and the Feed then fails (or sends half a
//! request) at run time. Each template is run up to its request, as the Feed runs it: pre-processing
//! in the embedded engine, the request built in Feed mode. A batch's templates must make one call.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Fix, Severity};
use crate::node::ids::parameters_from_json;
use crate::ois::model::RESERVED_NAMES;
use crate::pointer;
use crate::processing::Engine;
use crate::request::{HeldOis, Mode, RequestOptions, Secrets};

/// The time one validation may spend pre-processing templates together: a config from someone
/// else may hold thousands, each with a snippet that runs to its timeout.
const PROCESSING_BUDGET: Duration = Duration::from_secs(2);

/// A template the node can serve, and the parameters its API call is made with.
struct Served {
    endpoint_id: String,
    /// The parameters after pre-processing (`None`: the endpoint makes no API call).
    processed: Option<Value>,
    /// The parameters after pre-processing, or as given when there is none (what the Feed hands
    /// post-processing for an endpoint without an API call).
    parameters: Value,
}

/// Every template of an Airnode Feed config the Feed cannot serve, and every batch whose
/// templates do not make one API call. A template whose endpoint or OIS is missing is left to the
/// ID checks, which say so.
pub fn check_feed(config: &Value, diagnostics: &mut Vec<Diagnostic>) {
    serve_feed(config, diagnostics);
}

/// [`check_feed`], and the templates the Feed can serve grouped by the API call they make (the
/// same endpoint and the same pre-processed parameters), in the config's order: what one
/// trigger can batch. Each template's pre-processing runs once for both.
pub fn feed_batches(config: &Value, diagnostics: &mut Vec<Diagnostic>) -> Vec<Vec<String>> {
    let served = serve_feed(config, diagnostics);
    let mut groups: Vec<(&str, &Value, Vec<String>)> = Vec::new();
    for (id, template) in &served {
        match groups.iter_mut().find(|(e, p, _)| *e == template.endpoint_id && **p == template.parameters) {
            Some((_, _, members)) => members.push((*id).clone()),
            None => groups.push((&template.endpoint_id, &template.parameters, vec![(*id).clone()])),
        }
    }
    diagnostics.extend(split_batches(config, &groups));
    groups.into_iter().map(|(_, _, members)| members).collect()
}

/// A note for each endpoint whose templates could not share one trigger: what differs in the
/// parameters the Feed compares (those after pre-processing), and what would make them one call.
fn split_batches(config: &Value, groups: &[(&str, &Value, Vec<String>)]) -> Vec<Diagnostic> {
    let mut endpoints: Vec<&str> = groups.iter().map(|(endpoint, _, _)| *endpoint).collect();
    endpoints.dedup();
    let mut notes = Vec::new();
    for endpoint in endpoints.iter().filter(|e| groups.iter().filter(|(g, _, _)| g == *e).count() > 1) {
        let split: Vec<&(&str, &Value, Vec<String>)> = groups.iter().filter(|(g, _, _)| g == endpoint).collect();
        let templates: usize = split.iter().map(|(_, _, members)| members.len()).sum();
        // The names whose values differ between the calls, in the first call's order.
        let mut differing: Vec<&str> = Vec::new();
        let leaders: Vec<&serde_json::Map<String, Value>> =
            split.iter().filter_map(|(_, p, _)| p.as_object()).collect();
        for leader in &leaders {
            for name in leader.keys() {
                if !differing.contains(&name.as_str())
                    && leaders.iter().any(|other| other.get(name) != leader.get(name))
                {
                    differing.push(name);
                }
            }
        }
        let named = config.pointer(&pointer::join("/endpoints", [*endpoint]));
        let name = named.and_then(|n| n.get("endpointName")).and_then(Value::as_str).unwrap_or(endpoint);
        let message = format!(
            "the {templates} templates of endpoint \"{name}\" need {} API calls, one per trigger: the Feed makes one call per trigger, with its first template's parameters, so a trigger's templates must agree on every parameter after pre-processing, and these differ in {}",
            split.len(),
            differing.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
        );
        let reserved: Vec<&str> = differing.iter().copied().filter(|n| RESERVED_NAMES.contains(n)).collect();
        let first = if reserved.is_empty() {
            "they ask the API different things".to_owned()
        } else {
            // @api3/commons takes reserved parameters out before pre-processing and puts them back
            // after it, so no snippet can make them agree.
            format!(
                "reserved parameters ({}) go into the comparison as given (pre-processing never sees them), so templates that differ there never share a call",
                reserved.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
            )
        };
        // A feed endpoint by name already is the way to one call: what differs is its feeds' requests.
        let by_name = name == crate::ois::feeds::FEED_ENDPOINT;
        let help = if by_name {
            format!(
                "{first}; feeds by name share a call when their tables ask the same (the same vendor path and parameters): make them one call with a batch of the feeds"
            )
        } else {
            format!(
                "{first}; to answer them from one call, choose each value in post-processing by a parameter that pre-processing leaves out of the call: a `feed` endpoint by name, as API3's own OIS are (one parameter `name`; pre-processing maps every name of a batch to the same call, `ids=bitcoin,ethereum`; post-processing picks each name's value)"
            )
        };
        notes
            .push(Diagnostic::new(Code::BatchSplit, pointer::join("/endpoints", [*endpoint]), message).with_help(help));
    }
    notes
}

fn serve_feed<'c>(config: &'c Value, diagnostics: &mut Vec<Diagnostic>) -> Vec<(&'c String, Served)> {
    let templates = config.get("templates").and_then(Value::as_object).into_iter().flatten();
    let mut budget = Budget { left: PROCESSING_BUDGET, skipped: 0 };
    let mut served: Vec<(&String, Served)> = Vec::new();
    // Each OIS as the Feed holds it, made once for all its templates (a big OIS's copy per
    // template made the check as slow as templates times the OIS).
    let mut held = HashMap::new();
    for (id, template) in templates {
        if let Some(result) = check_template(config, id, template, &mut budget, &mut held, diagnostics) {
            served.push((id, result));
        }
    }
    if budget.skipped > 0 {
        let mut note = Diagnostic::new(
            Code::TemplateUnservable,
            "/templates",
            format!(
                "{} template(s) were not run up to their request: the check's {} s for pre-processing are spent",
                budget.skipped,
                PROCESSING_BUDGET.as_secs()
            ),
        );
        note.severity = Severity::Note;
        diagnostics.push(note);
    }
    batches(config, &served, diagnostics);
    served
}

struct Budget {
    left: Duration,
    skipped: usize,
}

fn check_template(
    config: &Value,
    id: &str,
    template: &Value,
    budget: &mut Budget,
    held: &mut HashMap<String, Option<HeldOis<'static>>>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Served> {
    let at = pointer::join("/templates", [id]);
    let endpoint_id = template.get("endpointId").and_then(Value::as_str)?;
    let named = config.get("endpoints").and_then(|e| e.get(endpoint_id))?;
    let (title, name) = (named.get("oisTitle")?.as_str()?, named.get("endpointName")?.as_str()?);
    let ois = held.entry(title.to_owned()).or_insert_with(|| {
        let written = config
            .get("ois")
            .and_then(Value::as_array)?
            .iter()
            .find(|ois| ois.get("title").and_then(Value::as_str) == Some(title))?;
        // As the Feed holds it once it has interpolated its config: `\${` is `${` (an unescaped
        // one, OIS060, stops the Feed loading the config at all).
        Secrets::from_values([]).interpolate_document(written).ok().map(HeldOis::owned)
    });
    let held_ois = ois.as_ref()?;
    let endpoint = held_ois
        .value()
        .get("endpoints")
        .and_then(Value::as_array)?
        .iter()
        .find(|endpoint| endpoint.get("name").and_then(Value::as_str) == Some(name))?;
    let parameters = parameters_from_json(template.get("parameters").unwrap_or(&Value::Null)).ok()?;
    let whose = format!("template {id} (endpoint \"{name}\" of \"{title}\")");
    let declared: Vec<&Value> = endpoint.get("parameters").and_then(Value::as_array).into_iter().flatten().collect();
    let declared_name = |p: &&Value| p.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
    let known: Vec<String> = declared.iter().map(declared_name).collect();

    let mut fine = true;
    for (index, parameter) in parameters.iter().enumerate() {
        if let Some(unknown) =
            unknown_parameter(format!("{at}/parameters/{index}/name"), &whose, &parameter.name, "the Feed", &known)
        {
            fine = false;
            diagnostics.push(unknown);
        }
        let declared = declared.iter().find(|p| declared_name(p) == parameter.name);
        if let Some(key) = declared.and_then(|declared| credential_looking(declared)) {
            diagnostics.push(credential_in_template(
                format!("{at}/parameters/{index}/value"),
                &whose,
                &parameter.name,
                key,
            ));
        }
    }
    if !fine {
        return None;
    }

    let runs_snippet = ["preProcessingSpecificationV2", "preProcessingSpecifications"]
        .iter()
        .any(|key| endpoint.get(*key).is_some_and(|v| !v.is_null()));
    if runs_snippet && budget.left.is_zero() {
        budget.skipped += 1;
        return None;
    }
    let mut options = RequestOptions::new(name);
    options.mode = Mode::Feed;
    options.parameters = parameters.iter().map(|p| (p.name.clone(), p.value.clone())).collect();
    let started = Instant::now();
    let prepared = crate::request::prepare_held(held_ois, &options, &Engine::Embedded);
    if runs_snippet {
        budget.left = budget.left.saturating_sub(started.elapsed());
    }
    let unservable = |message: String| Diagnostic::new(Code::TemplateUnservable, at.clone(), message);
    let prepared = match prepared {
        Ok(prepared) => prepared,
        Err(stopped) => {
            let cause = stopped.diagnostic;
            let mut told =
                unservable(format!("{whose}: the Feed fails to make its request: {} ({})", cause.message, cause.code));
            told.help = cause.help;
            diagnostics.push(told);
            return None;
        }
    };
    // A required parameter the template leaves out is what the Feed never sends. With
    // pre-processing, the snippet decides what the call needs (a `feed` endpoint fills `path` and
    // `symbol` from `name`, and production OIS mark parameters required that only some names
    // use), so it is an error only for an endpoint without one.
    let mut fine = true;
    for parameter in &declared {
        let required = parameter.get("required").and_then(Value::as_bool).unwrap_or(false);
        let name = declared_name(parameter);
        if required && !runs_snippet && !prepared.given.contains_key(&name) {
            fine = false;
            let missing = Diagnostic::new(
                Code::TemplateParameterMissing,
                format!("{at}/parameters"),
                format!("{whose}: the required parameter \"{name}\" is not given (Airnode Feed applies no defaults)"),
            );
            // A key is never a template's to carry: it would be on chain, in the template's ID.
            diagnostics.push(match credential_looking(parameter) {
                Some(key) => missing.with_fix(Fix::MakeCredential(key)),
                None => missing.with_help(format!("add {{\"type\": \"string32\", \"name\": \"{name}\", \"value\": …}} to the template (its ID changes with it)")),
            });
        }
    }
    if !fine {
        return None;
    }
    match prepared.reserved.get("_type").and_then(Value::as_str) {
        None => {
            diagnostics.push(
                unservable(format!("{whose}: no `_type` — neither the endpoint (fixed or default) nor the template gives one, so the Feed cannot encode any value"))
                    .with_help("fix it on the endpoint's reservedParameters ({\"name\": \"_type\", \"fixed\": \"int256\"}), or give `_type` in the template"),
            );
            return None;
        }
        Some(kind) if crate::ois::reserved::parse_type(kind).is_none() => {
            diagnostics.push(unservable(format!("{whose}: `_type` \"{kind}\" is not a type the Feed can encode")));
            return None;
        }
        Some(_) => {}
    }
    let parameters = Value::Object(prepared.processed.clone().unwrap_or_else(|| prepared.given.clone()));
    let processed = prepared.request.is_some().then(|| parameters.clone());
    Some(Served { endpoint_id: endpoint_id.to_owned(), processed, parameters })
}

/// How to name an endpoint parameter that looks like the API's credential
/// ([`looks_like_credential`](crate::ois::credential::looks_like_credential), by its name, the API
/// parameter it maps to, or its description) when asking for it to be made one: the API
/// parameter's `NAME` (`LOCATION:NAME` outside the query); `None` when it does not look like one.
fn credential_looking(parameter: &Value) -> Option<String> {
    let name = parameter.get("name").and_then(Value::as_str).unwrap_or_default();
    let target = parameter.get("operationParameter");
    let api_name = target.and_then(|t| t.get("name")).and_then(Value::as_str).unwrap_or(name);
    let location = target.and_then(|t| t.get("in")).and_then(Value::as_str).unwrap_or("query");
    let description = parameter.get("description").and_then(Value::as_str);
    let looks = [name, api_name].iter().any(|n| crate::ois::credential::looks_like_credential(n, description));
    looks.then(|| if location == "query" { api_name.to_owned() } else { format!("{location}:{api_name}") })
}

fn credential_in_template(at: String, whose: &str, name: &str, key: String) -> Diagnostic {
    Diagnostic::new(
        Code::TemplateCredential,
        at,
        format!("{whose}: parameter \"{name}\" looks like the API's key, and its value is in the template: on chain, and hashed into the template's ID, for ever"),
    )
    .with_fix(Fix::MakeCredential(key))
}

/// The template IDs of an Airnode Feed trigger (`triggers.signedApiUpdates[i]`), in order.
pub fn trigger_template_ids(trigger: &Value) -> Vec<&str> {
    trigger.get("templateIds").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect()
}

/// A trigger's templates make one API call: the same endpoint, and pre-processed parameters that
/// are equal (what Airnode Feed checks of a batch; an endpoint without an API call is exempt).
fn batches(config: &Value, served: &[(&String, Served)], diagnostics: &mut Vec<Diagnostic>) {
    let updates = config.pointer("/triggers/signedApiUpdates").and_then(Value::as_array);
    for (index, update) in updates.into_iter().flatten().enumerate() {
        let ids = trigger_template_ids(update);
        let members: Vec<&Served> = ids
            .iter()
            .filter_map(|id| served.iter().find(|(known, _)| known.as_str() == *id))
            .map(|(_, s)| s)
            .collect();
        let Some((first, rest)) = members.split_first() else { continue };
        let at = format!("/triggers/signedApiUpdates/{index}/templateIds");
        if rest.iter().any(|m| m.endpoint_id != first.endpoint_id) {
            diagnostics.push(Diagnostic::new(
                Code::BatchNotOneCall,
                at,
                "the templates of this trigger use different endpoints: the Feed makes one API call per trigger, and refuses the config",
            ).with_help("give each endpoint's templates a trigger of their own"));
            continue;
        }
        if first.processed.is_some() && rest.iter().any(|m| m.processed != first.processed) {
            diagnostics.push(Diagnostic::new(
                Code::BatchNotOneCall,
                at,
                "the templates of this trigger make different API calls (their pre-processed parameters differ): the Feed calls the API once, with the first template's, and refuses the config",
            ).with_help("give each template whose call differs a trigger of its own (a scaffold that batches groups them)"));
        }
    }
}

/// Every template of an Airnode config.json whose parameters the node cannot read
/// (`encodedParameters` airnode-abi refuses: OIS080) or does not send (a name that is not a
/// parameter of the endpoint its RRP trigger names: OIS076). A request may add parameters of its
/// own, so nothing is required of a template alone.
pub fn check_rrp(config: &Value, diagnostics: &mut Vec<Diagnostic>) {
    let templates = config.get("templates").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for (index, template) in templates.iter().enumerate() {
        let at = format!("/templates/{index}");
        let text = |key: &str| template.get(key).and_then(Value::as_str).unwrap_or_default();
        let Some(encoded) = template.get("encodedParameters").and_then(Value::as_str) else { continue };
        let whose = format!("template {}", crate::node::ids::short(text("templateId")));
        let parameters = match crate::node::abi_decode::decode_parameters(encoded) {
            Ok(parameters) => parameters,
            Err(error) => {
                let message = format!("{whose}: {}; the node fails every request of it", error.message);
                diagnostics.push(
                    Diagnostic::new(error.code, format!("{at}/encodedParameters"), message)
                        .with_fix(crate::diagnostic::Fix::EncodeTemplate),
                );
                continue;
            }
        };
        let Some(endpoint) = rrp_endpoint(config, text("endpointId")) else { continue };
        let known: Vec<&str> = endpoint
            .get("parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|p| p.get("name").and_then(Value::as_str))
            .collect();
        let name = endpoint.get("name").and_then(Value::as_str).unwrap_or_default();
        let whose = format!("{whose} (endpoint \"{name}\")");
        for (parameter, _) in &parameters {
            diagnostics.extend(unknown_parameter(
                format!("{at}/encodedParameters"),
                &whose,
                parameter,
                "the node",
                &known,
            ));
        }
    }
}

/// OIS076 for a template parameter `name` that is neither one of the endpoint's (`known`) nor
/// reserved: `node` does not send it.
fn unknown_parameter(at: String, whose: &str, name: &str, node: &str, known: &[impl AsRef<str>]) -> Option<Diagnostic> {
    if known.iter().any(|k| k.as_ref() == name) || RESERVED_NAMES.contains(&name) {
        return None;
    }
    let known: Vec<&str> = known.iter().map(AsRef::as_ref).collect();
    let message = format!("{whose}: \"{name}\" is not a parameter of the endpoint, so {node} does not send it");
    Some(Diagnostic::new(Code::TemplateParameterUnknown, at, message).with_help(if known.is_empty() {
        "the endpoint takes no parameters: remove it (or give it to the endpoint)".to_owned()
    } else {
        format!("its parameters: {} (and the reserved _type, _path, _times)", known.join(", "))
    }))
}

/// The OIS endpoint an RRP trigger serves under `endpoint_id`.
fn rrp_endpoint<'c>(config: &'c Value, endpoint_id: &str) -> Option<&'c Value> {
    let trigger = config
        .pointer("/triggers/rrp")
        .and_then(Value::as_array)?
        .iter()
        .find(|t| t.get("endpointId").and_then(Value::as_str) == Some(endpoint_id))?;
    let text = |key: &str| trigger.get(key).and_then(Value::as_str);
    let ois =
        config.get("ois")?.as_array()?.iter().find(|o| o.get("title").and_then(Value::as_str) == text("oisTitle"))?;
    ois.get("endpoints")?.as_array()?.iter().find(|e| e.get("name").and_then(Value::as_str) == text("endpointName"))
}
