//! `ois scaffold feed|airnode|config` (and `ois config`): a node's configuration next to OIS
//! files, checked before it is written, written with its secrets template all or nothing.

use std::path::PathBuf;

mod request;

pub use request::{
    AirnodeRequest, DEFAULT_FETCH_INTERVAL, FeedRequest, ScaffoldJob, ScaffoldKind, ScaffoldOutputs, SignedApiRequest,
};

use serde::Serialize;
use serde_json::Value;

use super::ids::EndpointId;
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::emit::{OutputFormat, Plan};
use crate::node::Target;
use crate::ois::model::FormatFamily;
use crate::scaffold::node::{
    AirnodeOptions, Feed, FeedOptions, NodeScaffold, airnode_config, feed_config, require_family,
};
use crate::source::Source;

/// A template of a scaffolded config and its ID.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ScaffoldedTemplate {
    /// The template ID.
    pub template_id: String,
    /// Its parameters, `NAME=TYPE:VALUE` each.
    pub parameters: Vec<String>,
}

/// What a scaffold wrote (`None` paths: standard output) and the IDs in it.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ScaffoldReport {
    /// Where the configuration went.
    pub output: Option<String>,
    /// Where the secrets template went.
    pub secrets_out: Option<String>,
    /// The config's endpoints (an Airnode Feed config's).
    pub endpoints: Vec<EndpointId>,
    /// The config's templates (an Airnode Feed config's).
    pub templates: Vec<ScaffoldedTemplate>,
    /// The node release the config is for (it names exactly that version), when it names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// Warnings and notes about the config.
    pub diagnostics: Vec<Diagnostic>,
}

/// Scaffolds, checks and writes what `job` asks for. An error stops it with nothing written.
pub fn run(job: &ScaffoldJob) -> Result<ScaffoldReport, Diagnostic> {
    if let ScaffoldKind::SignedApi(request) = &job.kind {
        return write(signed_api(job, request)?, &job.outputs);
    }
    if let Some(staging) = staging_copy(job)? {
        return write(staging, &job.outputs);
    }
    let oises = crate::ois::oises_in_files(&job.files)?;
    let mut scaffold = build(&oises, &job.kind)?;
    if let ScaffoldKind::Airnode(request) = &job.kind {
        let carried = super::rrp_templates::carry(&job.files, &mut scaffold.config)?;
        scaffold.warnings.extend(carried);
        super::rrp_templates::add(&mut scaffold.config, &request.templates, &request.airnode)?;
        // The endpoint and template IDs name no server: a staging config's are production's.
        if let Some(server) = &request.server {
            scaffold.warnings.extend(staging(&mut scaffold.config, server)?);
        }
    }
    write(scaffold, &job.outputs)
}

/// A staging copy of an Airnode Feed config: one Feed config, a server, and no feeds asked for
/// make the same config — its templates, triggers and IDs, which name no server — with every OIS
/// calling that server. `None` for any other scaffold.
fn staging_copy(job: &ScaffoldJob) -> Result<Option<NodeScaffold>, Diagnostic> {
    let ScaffoldKind::Feed(request) = &job.kind else { return Ok(None) };
    let asked = !request.feeds.is_empty() || request.feeds_file.is_some() || !request.templates.is_empty();
    let (Some(server), [file], false, false) = (&request.server, job.files.as_slice(), asked, request.all_feeds) else {
        return Ok(None);
    };
    let source = Source::read(file)?;
    let mut config = source.parse()?;
    if crate::node::ConfigKind::of(&config) != Some(crate::node::ConfigKind::AirnodeFeed) {
        return Ok(None);
    }
    let warnings = staging(&mut config, server)?;
    let mut names: indexmap::IndexSet<String> = indexmap::IndexSet::new();
    crate::pointer::for_each_text(&config, "", &mut |text, _| {
        names.extend(crate::node::referenced_names(text).map(str::to_owned));
    });
    let secrets_env: String = names.iter().map(|name| format!("\n{name}=\n")).collect();
    Ok(Some(NodeScaffold { config, secrets_env, warnings }))
}

/// The Signed API's config for the Airnode Feed config that is `job`'s one file.
fn signed_api(job: &ScaffoldJob, request: &SignedApiRequest) -> Result<NodeScaffold, Diagnostic> {
    let [file] = job.files.as_slice() else {
        return Err(Diagnostic::elsewhere(
            Code::BadArgument,
            "a Signed API config is made from one Airnode Feed config",
        ));
    };
    signed_api_of(&Source::read(file)?, request)
}

/// The Signed API's config for the Airnode Feed config read from `source`.
pub(crate) fn signed_api_of(source: &Source, request: &SignedApiRequest) -> Result<NodeScaffold, Diagnostic> {
    let feed = source.parse()?;
    if crate::node::ConfigKind::of(&feed) != Some(crate::node::ConfigKind::AirnodeFeed) {
        return Err(Diagnostic::elsewhere(
            Code::BadArgument,
            format!("{} is not an Airnode Feed config (no `signedApis` and `nodeSettings`)", source.name),
        ));
    }
    // The Signed API would accept, and its secrets template ask for, whatever the Feed sends: a
    // Feed config that sends the node's own secrets out is refused before anything is made of it.
    if let Some(mut first) = crate::node::node_secrets_out_of_place(&feed, &[]).into_iter().next() {
        source.locate_diagnostic(&mut first);
        return Err(first);
    }
    let airnode = super::ids::airnode_of(&request.airnode, source)?.ok_or_else(|| {
        Diagnostic::elsewhere(
            Code::BadArgument,
            "the Signed API needs the Airnode's address: give the mnemonic or the address",
        )
        .with_fix(crate::diagnostic::Fix::GiveAirnode)
    })?;
    let feed_secrets = match &request.airnode {
        super::ids::Airnode::SecretsFile(path) => {
            Some(crate::request::Secrets::parse(&Source::read_regular(path)?.text)?)
        }
        super::ids::Airnode::Secrets(secrets) => Some(secrets.clone()),
        _ => None,
    };
    // The push tokens the Feed sends, with their values where its secrets hold them.
    let tokens = feed.get("signedApis").and_then(Value::as_array).into_iter().flatten();
    let push_tokens = tokens
        .filter_map(|api| api.get("authToken").and_then(Value::as_str))
        .flat_map(crate::node::referenced_names)
        .filter_map(|name| Some((name.to_owned(), feed_secrets.as_ref()?.file_value(name)?.to_owned())))
        .collect();
    let options = crate::scaffold::signed_api::SignedApiOptions {
        name: request.signed_api.clone(),
        airnode: airnode.to_checksum(None),
        delayed: request.delayed,
        push_tokens,
    };
    crate::scaffold::signed_api::signed_api_config(&feed, &options)
}

/// Writes `scaffold` where `outputs` say, the config and its secrets template all or nothing (a
/// filled secrets file replaced keeps its values), and reports the IDs in it.
pub fn write(mut scaffold: NodeScaffold, outputs: &ScaffoldOutputs) -> Result<ScaffoldReport, Diagnostic> {
    crate::scaffold::name_secrets(&mut scaffold.config, &mut scaffold.secrets_env, &outputs.secret_names)?;
    let text = crate::emit::to_text(&scaffold.config, OutputFormat::Json)?;
    let mut plan = Plan::new();
    match &outputs.output {
        Some(path) => plan.file(path, text, outputs.force),
        None => plan.stdout(text),
    };
    let mut diagnostics = scaffold.warnings;
    if let Some(path) = &outputs.secrets_out {
        let for_what = outputs
            .output
            .as_deref()
            .filter(|p| !crate::emit::is_standard_output(p))
            .map_or_else(|| "the config".to_owned(), super::outputs::file_name);
        let kept = super::outputs::plan_secrets(
            &mut plan,
            path,
            &scaffold.secrets_env,
            &for_what,
            super::outputs::SecretsReplace::WhenForced(outputs.force),
        );
        plan.write()?;
        diagnostics.extend(kept);
    } else {
        plan.write()?;
    }
    let (endpoints, templates) = ids_of(&scaffold.config);
    let shown = |path: &Option<PathBuf>| {
        path.as_ref().filter(|p| !crate::emit::is_standard_output(p)).map(|p| p.display().to_string())
    };
    Ok(ScaffoldReport {
        node: crate::validate::accepted_by(&scaffold.config).into_iter().next(),
        output: shown(&outputs.output),
        secrets_out: shown(&outputs.secrets_out),
        endpoints,
        templates,
        diagnostics,
    })
}

/// The configuration `kind` asks for, of `oises`, checked: an error when the node could not
/// serve it (nothing is written then); its warnings beside it.
pub fn build(oises: &[Value], kind: &ScaffoldKind) -> Result<NodeScaffold, Diagnostic> {
    let scaffold = match kind {
        ScaffoldKind::Fragment { target } => fragment(oises, *target)?,
        ScaffoldKind::Feed(request) => {
            let mut scaffold = feed(oises, request)?;
            if let Some(server) = &request.server {
                scaffold.warnings.extend(staging(&mut scaffold.config, server)?);
            }
            // Feeds by name are batched as production batches them: by the request each makes.
            let found = servable(&mut scaffold.config, request.batch || request.all_feeds)?;
            scaffold.warnings.extend(found);
            scaffold.warnings.extend(unused_endpoints(&scaffold.config));
            scaffold
        }
        ScaffoldKind::SignedApi(_) => {
            return Err(Diagnostic::elsewhere(
                Code::BadArgument,
                "a Signed API config is made from an Airnode Feed config",
            ));
        }
        ScaffoldKind::Airnode(request) => {
            if let Some(bad) =
                request.options.requester_authorizers.iter().find(|a| a.parse::<alloy_primitives::Address>().is_err())
            {
                return Err(Diagnostic::elsewhere(
                    Code::BadArgument,
                    format!("requester authorizer \"{}\" is not an address", crate::emit::printable(bad)),
                ));
            }
            // Airnode 0.15 is the only Airnode with a config.json to write: it reads OIS 2.3.x.
            let options = AirnodeOptions { require_format: true, ..request.options.clone() };
            airnode_config(oises, &options)?
        }
    };
    Ok(scaffold)
}

/// A note when the OIS objects of the Feed config `config` carry endpoints no template uses: each
/// is read and checked by the node at every start, and a vendor's whole document makes a config
/// of hundreds of kilobytes for a few feeds.
fn unused_endpoints(config: &Value) -> Option<Diagnostic> {
    let used: std::collections::HashSet<(&str, &str)> = config
        .get("endpoints")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|endpoints| endpoints.values())
        .filter_map(|e| Some((e.get("oisTitle")?.as_str()?, e.get("endpointName")?.as_str()?)))
        .collect();
    let mut unused = 0usize;
    let mut first = None;
    for (index, ois) in config.get("ois").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let title = ois.get("title").and_then(Value::as_str).unwrap_or_default();
        for endpoint in ois.get("endpoints").and_then(Value::as_array).into_iter().flatten() {
            let name = endpoint.get("name").and_then(Value::as_str).unwrap_or_default();
            if !used.contains(&(title, name)) {
                unused += 1;
                first.get_or_insert((index, title.to_owned()));
            }
        }
    }
    let (index, title) = first?;
    let size = serde_json::to_string(config).map_or(0, |text| text.len());
    Some(Diagnostic::new(
        Code::UnusedEndpoints,
        format!("/ois/{index}/endpoints"),
        format!(
            "the config carries {unused} endpoint(s) of \"{}\" that no template uses ({} KB in all): the Feed reads and checks each at every start; an OIS kept to the feeds' endpoints makes a smaller config",
            crate::emit::printable(&title),
            size / 1024
        ),
    ))
}

/// Points every OIS of `config` at `server` (a mock, a staging host), each with a note that the
/// config does not call the vendor's production server.
fn staging(config: &mut Value, server: &str) -> Result<Vec<Diagnostic>, Diagnostic> {
    let mut notes = Vec::new();
    let oises = config.get_mut("ois").and_then(Value::as_array_mut).into_iter().flatten();
    for (index, ois) in oises.enumerate() {
        // Checked as a call's server is (an absolute http(s) URL); its note is the call's own.
        super::request::replace_server(ois, server)?;
        let own = ois.get("title").and_then(Value::as_str).unwrap_or_default().to_owned();
        let mut note = Diagnostic::new(
            Code::ServerReplaced,
            format!("/ois/{index}/apiSpecifications/servers/0/url"),
            format!(
                "a staging config: \"{own}\" calls {} here, not its own server; deploy the config made without it to reach the vendor",
                crate::emit::printable(server)
            ),
        );
        note.location.document = crate::diagnostic::Document::Output;
        notes.push(note);
    }
    Ok(notes)
}

/// What the Feed would say of serving `config`'s templates: an error stops the scaffold (a config
/// the node cannot serve is never written), each problem named with its template and endpoint.
/// With `batch`, the triggers (one per template) are regrouped so that each serves the templates
/// one API call can: found by the same pre-processing run that checks them.
fn servable(config: &mut Value, batch: bool) -> Result<Vec<Diagnostic>, Diagnostic> {
    let mut found = Vec::new();
    if batch {
        let groups = crate::validate::templates::feed_batches(config, &mut found);
        regroup(config, &groups);
    } else {
        crate::validate::templates::check_feed(config, &mut found);
    }
    let (errors, rest): (Vec<Diagnostic>, Vec<Diagnostic>) = found.into_iter().partition(Diagnostic::is_error);
    let Some(first) = errors.first() else { return Ok(rest) };
    let listed: String = errors.iter().map(|e| format!("\n  - {} ({})", e.message, e.code)).collect();
    let mut refusal = Diagnostic::elsewhere(
        first.code,
        format!(
            "Airnode Feed could not serve these templates ({} problem(s)), so nothing was written:{listed}",
            errors.len()
        ),
    );
    refusal.help = first.help.clone();
    refusal.fix = first.fix.clone();
    Err(refusal)
}

/// The config.json fragment, refused when it would not pass the OIS rules.
fn fragment(oises: &[Value], target: Option<Target>) -> Result<NodeScaffold, Diagnostic> {
    if let Some(target) = target {
        require_family(oises, target.family(), target.name())?;
    }
    let scaffold = crate::scaffold::config(oises);
    refuse_invalid(&crate::validate::validate_value(&scaffold.config, None).diagnostics)?;
    Ok(NodeScaffold { config: scaffold.config, secrets_env: scaffold.secrets_env, warnings: scaffold.notes })
}

/// A refusal naming the first of the errors among `found`, when there is one: a config is never
/// written from OIS objects a node would refuse.
fn refuse_invalid(found: &[Diagnostic]) -> Result<(), Diagnostic> {
    let errors: Vec<&Diagnostic> = found.iter().filter(|d| d.severity == Severity::Error).collect();
    let Some(first) = errors.first() else { return Ok(()) };
    Err(Diagnostic::elsewhere(
        Code::InvalidOis,
        format!(
            "the config would break {} OIS rule(s), so nothing was written; the first, at {}: {} ({})",
            errors.len(),
            first.pointer(),
            first.message,
            first.code
        ),
    )
    .with_help("validate the OIS files for every problem"))
}

fn feed(oises: &[Value], request: &FeedRequest) -> Result<NodeScaffold, Diagnostic> {
    for ois in oises {
        // An unescaped `${` is no reason to refuse: the scaffold writes it escaped, with a note.
        let mut found = crate::validate::validate_value(ois, None).diagnostics;
        found.retain(|diagnostic| diagnostic.code != Code::UnescapedTemplate);
        refuse_invalid(&found)?;
    }
    let mut feeds = Vec::new();
    for text in &request.feeds {
        feeds.push(Feed::parse(text, "feed")?);
    }
    if let Some(path) = &request.feeds_file {
        feeds.extend(Feed::list_from_json(&Source::read_regular(path)?.parse()?, &path.display().to_string())?);
    }
    feeds.extend(request.templates.iter().cloned());
    if request.all_feeds {
        feeds.extend(super::feed::templates(oises)?);
    }
    if feeds.is_empty() {
        return Err(Diagnostic::elsewhere(
            Code::BadArgument,
            "no feeds: give at least one, ENDPOINT:NAME=TYPE:VALUE (or a JSON file of them)",
        ));
    }
    if let Some(target) = request.target.filter(|target| !target.is_feed()) {
        return Err(Diagnostic::elsewhere(
            Code::BadArgument,
            format!("{target} is not an Airnode Feed: an Airnode Feed config is for airnode-feed@3 or airnode-feed@4"),
        ));
    }
    let node_version = match (request.target, &request.node_version) {
        (_, Some(version)) => version.clone(),
        (Some(target), None) => target.node_version().to_owned(),
        (None, None) => feed_reading(oises)?.node_version().to_owned(),
    };
    // One trigger per template here; with --batch, `servable` regroups them by the API call the
    // Feed's own check finds them to make, from the same pre-processing run.
    let options = FeedOptions {
        node_version,
        // A config the node would refuse is never written.
        require_format: true,
        signed_apis: request.signed_apis.clone(),
        fetch_interval: request.fetch_interval,
        ..FeedOptions::default()
    };
    feed_config(oises, &feeds, &options)
}

/// The Airnode Feed that reads the OIS files as they are: Feed 3 for OIS 2.3.x, Feed 4 for 3.0.x
/// (the newest released node when no file says its format). Files of both formats no Feed reads.
fn feed_reading(oises: &[Value]) -> Result<Target, Diagnostic> {
    let formats: Vec<(&str, Option<FormatFamily>)> = oises
        .iter()
        .filter_map(|ois| ois.get("oisFormat").and_then(Value::as_str))
        .map(|format| (format, FormatFamily::of(format)))
        .collect();
    let mut families = formats.iter().filter_map(|(_, family)| *family);
    let Some(first) = families.next() else { return Ok(Target::NEWEST_RELEASED) };
    if let Some(other) = families.find(|family| *family != first) {
        return Err(Diagnostic::elsewhere(
            Code::BadOisFormat,
            format!(
                "the OIS files are of two formats, {} and {}: no Airnode Feed reads both",
                first.name(),
                other.name()
            ),
        )
        .with_fix(crate::diagnostic::Fix::ConvertFor(Target::NEWEST_RELEASED.name().to_owned())));
    }
    Ok(Target::feed_for(first))
}

/// The config's triggers (one per template, in order) regrouped as `groups` says, each group's
/// trigger where its first template's was. A template no group holds (one the Feed cannot serve,
/// reported) keeps its own trigger.
fn regroup(config: &mut Value, groups: &[Vec<String>]) {
    let Some(updates) = config.pointer_mut("/triggers/signedApiUpdates").and_then(Value::as_array_mut) else {
        return;
    };
    let first_id = |update: &Value| {
        update.pointer("/templateIds/0").and_then(Value::as_str).map(str::to_owned).unwrap_or_default()
    };
    let mut regrouped = Vec::new();
    for update in updates.iter() {
        let id = first_id(update);
        match groups.iter().find(|group| group.contains(&id)) {
            // The group's trigger goes where its first member's was; the others' go with it.
            Some(group) if group.first() == Some(&id) => {
                let mut trigger = update.clone();
                if let Some(object) = trigger.as_object_mut() {
                    object.insert("templateIds".to_owned(), Value::from(group.clone()));
                }
                regrouped.push(trigger);
            }
            Some(_) => {}
            None => regrouped.push(update.clone()),
        }
    }
    *updates = regrouped;
}

/// The endpoints and templates of an Airnode Feed config, with their IDs.
pub fn ids_of(config: &Value) -> (Vec<EndpointId>, Vec<ScaffoldedTemplate>) {
    let text = |value: &Value, key: &str| value.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    let endpoints = config
        .get("endpoints")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(id, endpoint)| EndpointId {
            ois_title: text(endpoint, "oisTitle"),
            endpoint_name: text(endpoint, "endpointName"),
            endpoint_id: id.clone(),
        })
        .collect();
    let templates = config
        .get("templates")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(id, template)| ScaffoldedTemplate {
            template_id: id.clone(),
            parameters: template
                .get("parameters")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|p| format!("{}={}:{}", text(p, "name"), text(p, "type"), text(p, "value")))
                .collect(),
        })
        .collect();
    (endpoints, templates)
}

crate::diagnosed_by_field!(ScaffoldReport => diagnostics);
