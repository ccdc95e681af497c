//! A node config made of OIS objects with everything a deployment needs beside it: its text, its
//! secrets template, and every ID (`ois scaffold` then `ois ids` of what it made), the Airnode's
//! known when the secrets hold its mnemonic. What the studio's *Build* shows; one job, so the page
//! joins nothing itself.

use std::path::PathBuf;

use serde_json::Value;

use super::Held;
use super::ids::{Airnode, IdsJob, IdsReport};
use super::scaffold::{ScaffoldKind, build};
use crate::diagnostic::Diagnostic;
use crate::emit::OutputFormat;
use crate::request::Secrets;
use crate::scaffold::node::NodeScaffold;

/// What [`made`] made.
#[derive(Debug)]
#[non_exhaustive]
pub struct MadeConfig {
    /// The config, its secrets and what the scaffold noted.
    pub scaffold: NodeScaffold,
    /// The config as written (`config.json`'s text).
    pub text: String,
    /// Its secrets template's text.
    pub secrets_template: String,
    /// Every ID of the config (and the beacon set of its templates, with the Airnode known and
    /// two templates or more).
    pub ids: IdsReport,
    /// The secret the config reads its mnemonic from.
    pub mnemonic: String,
}

/// The config of `kind` for `oises`, its secrets template and its IDs; `secrets` (names and
/// values) give the Airnode when they hold the config's mnemonic.
pub fn made(oises: &[Value], kind: &ScaffoldKind, secrets: Secrets) -> Result<MadeConfig, Diagnostic> {
    let scaffold = build(oises, kind)?;
    let text = crate::emit::to_text(&scaffold.config, OutputFormat::Json)?;
    let mut job = IdsJob {
        file: PathBuf::from("config.json"),
        held: Some(Held { name: "config.json".to_owned(), text: text.as_str().into() }),
        ..IdsJob::default()
    };
    let mnemonic = crate::node::mnemonic_secret(&scaffold.config);
    if secrets.file_value(&mnemonic).is_some() {
        job.airnode = Airnode::Secrets(secrets);
    }
    let templates = scaffold.config.get("templates").and_then(Value::as_object).map_or(0, |t| t.len());
    job.set = !matches!(job.airnode, Airnode::None) && templates >= 2;
    let ids = super::ids::run(&job)?;
    let secrets_template = crate::scaffold::secrets::template(&scaffold.secrets_env, "config.json", None).text;
    Ok(MadeConfig { scaffold, text, secrets_template, ids, mnemonic })
}
