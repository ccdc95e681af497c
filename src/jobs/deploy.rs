//! `ois scaffold deploy`: the folder an Airnode Feed config and its Signed API run from, written
//! all or nothing. The push token is one value in both secrets files (taken from the Feed's
//! secrets, or made once), the read tokens are made when none is given, and a folder whose node
//! would start without a secret it needs (the mnemonic, an API key) is refused, naming it.
//! Written again, the folder keeps every value its secrets files hold.

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::emit::{OutputFormat, Plan};
use crate::node::ConfigKind;
use crate::request::Secrets;
use crate::scaffold::deploy::{self as layout, Layout, Wiring};
use crate::source::Source;

/// What `ois scaffold deploy` is asked to write.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct DeployJob {
    /// The Airnode Feed config.
    pub config: PathBuf,
    /// Its secrets file (the mnemonic, the API keys, the push token when chosen).
    pub secrets: Option<PathBuf>,
    /// The Signed API config to run beside it (`None`: made from the Feed config).
    pub signed_api_config: Option<PathBuf>,
    /// The Signed API's secrets (its read tokens, when chosen).
    pub signed_api_secrets: Option<PathBuf>,
    /// Which signed API of the Feed config the folder runs (`None`: its only one).
    pub signed_api: Option<String>,
    /// The folder.
    pub folder: PathBuf,
    /// Replace the files of a folder written before whose text changed (secrets keep their values
    /// whatever this says).
    pub force: bool,
}

/// What was written.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DeployReport {
    /// The folder.
    pub folder: String,
    /// Each file of it, relative to it.
    pub files: Vec<String>,
    /// The Feed's release and the Signed API's.
    pub releases: [String; 2],
    /// Where the Feed pushes, and whether that is the folder's Signed API.
    pub signed_api_url: String,
    /// Whether the Feed pushes to this folder's Signed API (on this machine).
    pub wired: bool,
    /// The secrets made here (tokens), by name: never their values.
    pub made_secrets: Vec<String>,
    /// Notes on the way.
    pub diagnostics: Vec<Diagnostic>,
}

/// Writes the folder `job` asks for; an error writes nothing.
pub fn run(job: &DeployJob) -> Result<DeployReport, Diagnostic> {
    let source = Source::read(&job.config)?;
    let feed = source.parse()?;
    if ConfigKind::of(&feed) != Some(ConfigKind::AirnodeFeed) {
        return Err(Diagnostic::elsewhere(
            Code::BadArgument,
            format!("{} is not an Airnode Feed config: a deployment runs one", source.name),
        ));
    }
    let mut refused = crate::validate::validate(&source, None).diagnostics;
    refused.retain(|d| d.severity == crate::Severity::Error);
    if let Some(first) = refused.into_iter().next() {
        return Err(first);
    }
    let folder = &job.folder;
    let feed_names = names_in(&feed);
    let mut feed_values = values(&[folder.join(layout::FEED_SECRETS).as_path()], job.secrets.as_deref(), &feed_names)?;
    let url = layout::pushes_to(&feed, job.signed_api.as_deref()).unwrap_or_default().to_owned();
    let push_tokens: Vec<String> = chosen_api(&feed, job.signed_api.as_deref())
        .and_then(|api| api.get("authToken")?.as_str())
        .map(|token| crate::node::referenced_names(token).map(str::to_owned).collect())
        .unwrap_or_default();

    // Refused before anything is made of them: the secrets only the user can give.
    let empty: Vec<&String> =
        feed_values.iter().filter(|(k, v)| v.is_empty() && !push_tokens.contains(k)).map(|(k, _)| k).collect();
    if !empty.is_empty() {
        let names: Vec<&str> = empty.iter().map(|n| n.as_str()).collect();
        let from = job.secrets.as_ref().map_or_else(
            || "no secrets file was given".to_owned(),
            |p| format!("{} leaves {} empty", p.display(), if names.len() == 1 { "it" } else { "them" }),
        );
        return Err(Diagnostic::elsewhere(
            Code::DeploySecretEmpty,
            format!("the Feed would start without {}: {from}, and nothing was written", names.join(", ")),
        )
        .with_fix(crate::diagnostic::Fix::FillSecret {
            name: names.first().map(|n| (*n).to_owned()).unwrap_or_default(),
            file: job.secrets.as_ref().map(|p| p.display().to_string()),
        }));
    }

    // The Signed API: given, or made for the Feed's Airnode from its mnemonic.
    let (signed_api, scaffold_secrets) = match &job.signed_api_config {
        Some(path) => (Source::read(path)?.parse()?, None),
        None => {
            let request = super::scaffold::SignedApiRequest {
                signed_api: job.signed_api.clone(),
                airnode: super::ids::Airnode::Secrets(Secrets::from_values(
                    feed_values.iter().map(|(k, v)| (k.clone(), v.clone())),
                )),
                delayed: None,
            };
            let made = super::scaffold::signed_api_of(&source, &request)?;
            (made.config, Some(made.secrets_env))
        }
    };
    let signed_names = names_in(&signed_api);
    let existing = folder.join(layout::SIGNED_API_SECRETS);
    let mut signed_values = values(&[existing.as_path()], job.signed_api_secrets.as_deref(), &signed_names)?;

    // One push token for both; tokens nobody chose are made once, here.
    let mut made = Vec::new();
    for name in &push_tokens {
        let value = [feed_values.get(name), signed_values.get(name)]
            .into_iter()
            .flatten()
            .find(|v| !v.is_empty())
            .cloned()
            .map_or_else(|| fresh_token(name, &mut made), Ok)?;
        feed_values.insert(name.clone(), value.clone());
        signed_values.insert(name.clone(), value);
    }
    for name in &signed_names {
        if signed_values.get(name).is_none_or(String::is_empty) {
            let value = fresh_token(name, &mut made)?;
            signed_values.insert(name.clone(), value);
        }
    }
    let versions = [
        feed.pointer("/nodeSettings/nodeVersion").and_then(Value::as_str).unwrap_or_default().to_owned(),
        signed_api.get("version").and_then(Value::as_str).unwrap_or_default().to_owned(),
    ];
    let wiring = Wiring::of(&url);
    let shape = Layout {
        feed_version: versions[0].clone(),
        signed_api_version: versions[1].clone(),
        wiring: wiring.clone(),
        feed_secrets: feed_names.clone(),
        signed_api_secrets: signed_names.clone(),
        read_token: signed_names.iter().find(|n| n.as_str() == crate::scaffold::signed_api::REAL_TIME_TOKEN).cloned(),
    };
    let mut diagnostics = Vec::new();
    if let Wiring::Remote { url } = &wiring {
        diagnostics.push(Diagnostic::elsewhere(
            Code::DeployElsewhere,
            format!("the Feed pushes to {url}, not to the Signed API of this folder: run that one there (its folder is here too), or give the Feed a signed API on this machine (http://127.0.0.1:8090) to run both here"),
        ));
    }
    let files: Vec<(&str, String, bool)> = vec![
        (layout::FEED_CONFIG, crate::emit::to_text(&feed, OutputFormat::Json)?, false),
        (layout::FEED_SECRETS, secrets_text(&feed_names, &feed_values, "the Airnode Feed"), true),
        (layout::SIGNED_API_CONFIG, crate::emit::to_text(&signed_api, OutputFormat::Json)?, false),
        (
            layout::SIGNED_API_SECRETS,
            signed_api_secrets_text(scaffold_secrets.as_deref(), &signed_names, &signed_values),
            true,
        ),
        ("docker-compose.yml", layout::compose(&shape), false),
        ("airnode-feed/package.json", layout::package_json("airnode-feed", &versions[0], ""), false),
        (
            "signed-api/package.json",
            layout::package_json("signed-api", &versions[1], &signed_api_environment(&wiring)),
            false,
        ),
        (".gitignore", layout::GITIGNORE.to_owned(), false),
        ("README.md", layout::readme(&shape), false),
    ];
    let mut plan = Plan::new();
    for (path, text, secret) in &files {
        // Files `ois` names inside the folder the user named: a link placed there is never
        // written through, forced or not (it could lead anywhere).
        let target = folder.join(path);
        if *secret {
            plan.secret_companion(&target, text.clone(), false);
            continue;
        }
        // Written again as it was: nothing to replace (the plan leaves an equal file alone).
        let unchanged = std::fs::symlink_metadata(&target).is_ok_and(|m| m.is_file())
            && std::fs::read(&target).is_ok_and(|old| old == text.as_bytes());
        if job.force || unchanged {
            plan.companion_in_new_folder(&target, text.clone());
        } else {
            plan.file_in_new_folder(&target, text.clone(), false);
        }
    }
    plan.write()?;
    Ok(DeployReport {
        folder: folder.display().to_string(),
        files: files.iter().map(|(path, _, _)| (*path).to_owned()).collect(),
        releases: versions,
        wired: matches!(wiring, Wiring::Local { .. }),
        signed_api_url: url,
        made_secrets: made,
        diagnostics,
    })
}

/// The Signed API's environment under `npm start`: the port the Feed pushes to.
fn signed_api_environment(wiring: &Wiring) -> String {
    match wiring {
        Wiring::Local { port } => format!("SERVER_PORT={port} "),
        Wiring::Remote { .. } => String::new(),
    }
}

/// The signed API entry `name` of the Feed config (its only one when `None`).
fn chosen_api<'a>(feed: &'a Value, name: Option<&str>) -> Option<&'a Value> {
    let listed = feed.get("signedApis")?.as_array()?;
    match name {
        Some(name) => listed.iter().find(|api| api.get("name").and_then(Value::as_str) == Some(name)),
        None if listed.len() == 1 => listed.first(),
        None => None,
    }
}

/// Every `${NAME}` a config refers to, in order, once each.
fn names_in(config: &Value) -> Vec<String> {
    let mut names: indexmap::IndexSet<String> = indexmap::IndexSet::new();
    crate::pointer::for_each_text(config, "", &mut |text, _| {
        names.extend(crate::node::referenced_names(text).map(str::to_owned));
    });
    names.into_iter().collect()
}

/// The value of each of `names`: from `given` (a secrets file the user named) first, else from the
/// folder's own file (written before, maybe filled in since); empty when neither has one. Read as
/// dotenv reads them, an empty value as none (the folder refuses those itself, naming them).
fn values(existing: &[&Path], given: Option<&Path>, names: &[String]) -> Result<IndexMap<String, String>, Diagnostic> {
    let read = |path: &Path| -> Result<Vec<(String, String)>, Diagnostic> {
        let source = Source::read_regular(path)?;
        let entries = crate::node::dotenv::parse(&source.text).map_err(|too_complex| {
            Diagnostic::elsewhere(
                Code::BadSecretsEntry,
                format!("{} line {}: not read as a secrets file", path.display(), too_complex.line),
            )
        })?;
        Ok(entries.into_iter().map(|entry| (entry.name, entry.value)).collect())
    };
    let mut files = Vec::new();
    if let Some(path) = given {
        files.push(read(path)?);
    }
    files.extend(existing.iter().filter(|path| path.is_file()).filter_map(|path| read(path).ok()));
    Ok(names
        .iter()
        .map(|name| {
            // A later entry of a name wins within a file, as in dotenv's object.
            let value = files
                .iter()
                .filter_map(|entries| entries.iter().rev().find(|(known, _)| known == name).map(|(_, v)| v))
                .find(|value| !value.is_empty())
                .cloned()
                .unwrap_or_default();
            (name.clone(), value)
        })
        .collect())
}

/// A new token for `name`: 32 bytes from the system's random source, as hex.
fn fresh_token(name: &str, made: &mut Vec<String>) -> Result<String, Diagnostic> {
    let mut bytes = [0u8; 32];
    getrandom::getrandom(&mut bytes).map_err(|error| {
        Diagnostic::elsewhere(
            Code::OutputWrite,
            format!("no token could be made for {name}: the system's random source failed ({error})"),
        )
    })?;
    made.push(name.to_owned());
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The Signed API's secrets: the scaffold's template (each name said what it is for) filled with
/// `values`, or the names and values alone for a Signed API config given.
fn signed_api_secrets_text(template: Option<&str>, names: &[String], values: &IndexMap<String, String>) -> String {
    let node = "the Signed API";
    let Some(template) = template else { return secrets_text(names, values, node) };
    let filled: String =
        values.iter().map(|(name, value)| format!("{name}={}\n", crate::scaffold::secrets::quoted(value))).collect();
    let header = crate::scaffold::secrets::header(&format!("{node} of this folder"));
    crate::scaffold::secrets::keep_values(&(header + template), &filled).text
}

/// A secrets file of `names` with their `values`, headed for `node`.
fn secrets_text(names: &[String], values: &IndexMap<String, String>, node: &str) -> String {
    let mut text = crate::scaffold::secrets::header(&format!("{node} of this folder"));
    for name in names {
        let value = values.get(name).map(String::as_str).unwrap_or_default();
        text.push_str(&format!("{name}={}\n", crate::scaffold::secrets::quoted(value)));
    }
    text
}

crate::diagnosed_by_field!(DeployReport => diagnostics);
