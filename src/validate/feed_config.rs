//! An Airnode Feed config, checked as the Feed checks it when it starts (its `configSchema`,
//! 3.3.0 and 4.x alike but for the version it requires): strict objects, IDs as the Feed writes
//! them, the signed APIs, the triggers, the node settings with the exact `nodeVersion`, the OIS
//! every endpoint names, and the `${…}` its secrets interpolation must fill. (Template IDs and
//! the templates' requests: `validate::feed_ids` and `templates`.)

use serde_json::Value;

use super::shape::{ANY, NUMBER, STRING, Shape, required, shape};
use crate::diagnostic::{Code, Diagnostic};
use crate::node::Release;

/// `^[\da-z-]{1,256}$`: a stage, in the Feed's and the Signed API's settings.
pub(super) static STAGE: Shape = Shape::Text(is_stage, "1 to 256 of a-z, 0-9 and -");
static EVM_ID: Shape = Shape::Text(is_evm_id, "0x and 64 hex digits");
static PARAMETER: Shape =
    Shape::Object(&[required("name", &STRING), required("type", &STRING), required("value", &STRING)]);
static TEMPLATE: Shape =
    Shape::Object(&[required("endpointId", &EVM_ID), required("parameters", &Shape::Array(&PARAMETER))]);
static ENDPOINT: Shape = Shape::Object(&[required("oisTitle", &STRING), required("endpointName", &STRING)]);
static SIGNED_API_UPDATE: Shape =
    Shape::Object(&[required("templateIds", &Shape::Array(&EVM_ID)), required("fetchInterval", &NUMBER)]);
static TRIGGERS: Shape =
    Shape::Object(&[required("signedApiUpdates", &Shape::NonEmpty(&Shape::Array(&SIGNED_API_UPDATE)))]);
static SIGNED_API: Shape = Shape::Object(&[
    required("name", &STRING),
    required("url", &Shape::Text(super::shape::is_url, "an absolute URL")),
    required("authToken", &Shape::Nullable(&STRING)),
]);
static CREDENTIAL: Shape = Shape::Object(&[
    required("securitySchemeName", &STRING),
    required("securitySchemeValue", &STRING),
    required("oisTitle", &STRING),
]);
static NODE_SETTINGS: Shape = Shape::Object(&[
    required("nodeVersion", &STRING),
    required("airnodeWalletMnemonic", &STRING),
    required("stage", &STAGE),
]);
pub(super) static CONFIG: Shape = Shape::Object(&[
    required("apiCredentials", &Shape::Array(&CREDENTIAL)),
    required("endpoints", &Shape::Record(&ENDPOINT)),
    required("nodeSettings", &NODE_SETTINGS),
    required("ois", &ANY),
    required("signedApis", &Shape::NonEmpty(&Shape::Array(&SIGNED_API))),
    required("templates", &Shape::Record(&TEMPLATE)),
    required("triggers", &TRIGGERS),
]);

/// Every rule of Airnode Feed's config schema `config` breaks (beyond the IDs and templates),
/// each located.
pub(super) fn check(config: &Value, oises: &[&Value], diagnostics: &mut Vec<Diagnostic>) {
    shape(config, &CONFIG, &mut String::new(), diagnostics);
    keys_are_ids(config, "templates", diagnostics);
    if let Some(version) = config.pointer("/nodeSettings/nodeVersion").and_then(Value::as_str) {
        diagnostics.extend(unreleased(version, "/nodeSettings/nodeVersion", "Airnode Feed"));
        reads_the_ois(version, oises, diagnostics);
    }
    mnemonic(config, diagnostics);
    signed_api_names(config, diagnostics);
    endpoints_name_their_ois(config, oises, diagnostics);
    fetch_intervals(config, diagnostics);
    secret_references(config, diagnostics);
}

/// The releases of `node` ("Airnode Feed", "Signed API": released together) that accept a config
/// naming `version`: exactly one, or none (an error at `at`).
pub(super) fn unreleased(version: &str, at: &str, node: &str) -> Option<Diagnostic> {
    if Release::feed(version).is_some() || super::shape::is_placeholder(version) {
        return None;
    }
    let listed: Vec<&str> = Release::feeds().map(|release| release.version).collect();
    Some(
        Diagnostic::new(
            Code::UnreleasedNodeVersion,
            at,
            format!("\"{version}\" is no released {node} version: the {node} refuses a config that does not name exactly its own"),
        )
        .with_help(format!("write the version you run: one of {}", listed.join(", "))),
    )
}

/// Each Airnode Feed generation reads one OIS format: 3.x reads 2.3.x, 4.x reads 3.0.x.
fn reads_the_ois(version: &str, oises: &[&Value], diagnostics: &mut Vec<Diagnostic>) {
    let Some(release) = Release::feed(version) else { return };
    let family = release.target.family();
    for (index, ois) in oises.iter().enumerate() {
        let Some(format) = ois.get("oisFormat").and_then(Value::as_str) else { continue };
        if crate::ois::model::FormatFamily::of(format).is_some_and(|found| found != family) {
            diagnostics.push(
                Diagnostic::new(
                    Code::BadOisFormat,
                    format!("/ois/{index}/oisFormat"),
                    format!("OIS format {format}: {} reads only {}, and refuses the config", release.title(), family.name()),
                )
                .with_help(format!("convert the OIS again for {} (an update keeps your refinements), or write the nodeVersion of a Feed that reads {format}", release.target.name())),
            );
        }
    }
}

/// The node releases that accept `config` (an Airnode Feed or a Signed API config) as far as its
/// version goes: the one it names.
pub fn accepted_by(config: &Value) -> Vec<String> {
    let version = config
        .pointer("/nodeSettings/nodeVersion")
        .or_else(|| config.get("allowedAirnodes").and(config.get("version")))
        .and_then(Value::as_str);
    let signed_api = config.get("allowedAirnodes").is_some();
    version
        .and_then(Release::feed)
        .map(|release| if signed_api { format!("Signed API {}", release.version) } else { release.title() })
        .into_iter()
        .collect()
}

/// An Airnode Feed (or Signed API) config naming another release than `target`'s: the target's
/// node refuses it at start (`Invalid node version`), however valid it is for the release it
/// names.
pub fn against_target(config: &Value, target: &crate::node::TargetSpec) -> Option<Diagnostic> {
    let wanted = target.release.filter(|release| release.target.is_feed())?;
    let (at, node) = match config.get("allowedAirnodes") {
        Some(_) => ("/version", "Signed API"),
        None => ("/nodeSettings/nodeVersion", "Airnode Feed"),
    };
    let version = config.pointer(at).and_then(Value::as_str)?;
    let named = Release::feed(version)?;
    (named.version != wanted.version).then(|| {
        Diagnostic::new(
            Code::NodeVersionNotTarget,
            at,
            format!(
                "the config is for {node} {}; the target, {node} {}, refuses it at start (\"Invalid node version\")",
                named.version, wanted.version
            ),
        )
        .with_help(format!(
            "write \"{}\" if you run {}, or check it against {}, the release it names",
            wanted.version,
            wanted.name(),
            named.name()
        ))
    })
}

/// `templates` keyed by `^0x[a-fA-F0-9]{64}$` (the record's key schema).
fn keys_are_ids(config: &Value, section: &str, diagnostics: &mut Vec<Diagnostic>) {
    for key in config.get(section).and_then(Value::as_object).into_iter().flat_map(|map| map.keys()) {
        if !is_evm_id(key) {
            diagnostics.push(Diagnostic::new(
                Code::WrongType,
                crate::pointer::join(&format!("/{section}"), [key.as_str()]),
                format!("the key \"{key}\" is not an ID (0x and 64 hex digits)"),
            ));
        }
    }
}

/// A mnemonic written out must be a BIP-39 phrase (`ethers.utils.isValidMnemonic`).
fn mnemonic(config: &Value, diagnostics: &mut Vec<Diagnostic>) {
    let Some(mnemonic) = config.pointer("/nodeSettings/airnodeWalletMnemonic").and_then(Value::as_str) else { return };
    if crate::ois::templates::has_unescaped(mnemonic) || crate::node::airnode_address(mnemonic).is_some() {
        return;
    }
    diagnostics.push(
        Diagnostic::new(
            Code::BadMnemonic,
            "/nodeSettings/airnodeWalletMnemonic",
            "the Airnode wallet mnemonic is not a valid BIP-39 phrase (\"Invalid mnemonic\")",
        )
        .with_help("keep the mnemonic in secrets.env and write \"${AIRNODE_WALLET_MNEMONIC}\" here"),
    );
}

fn signed_api_names(config: &Value, diagnostics: &mut Vec<Diagnostic>) {
    let message = |name: &str| {
        format!("the signed API name \"{name}\" is taken by one before it (\"Signed API names must be unique\")")
    };
    super::shape::unique_by(config, "/signedApis", "name", message, diagnostics);
}

/// `validateOisReferences`: each endpoint names an OIS of the config and one of its endpoints.
fn endpoints_name_their_ois(config: &Value, oises: &[&Value], diagnostics: &mut Vec<Diagnostic>) {
    let endpoints = config.get("endpoints").and_then(Value::as_object);
    for (id, endpoint) in endpoints.into_iter().flatten() {
        let at = crate::pointer::join("/endpoints", [id.as_str()]);
        let text = |key: &str| endpoint.get(key).and_then(Value::as_str);
        let (Some(title), Some(name)) = (text("oisTitle"), text("endpointName")) else { continue };
        let Some(ois) = oises.iter().find(|ois| ois.get("title").and_then(Value::as_str) == Some(title)) else {
            diagnostics.push(Diagnostic::new(
                Code::BadTrigger,
                format!("{at}/oisTitle"),
                format!("OIS \"{title}\" is not defined in the config's `ois`: the Feed refuses the config"),
            ));
            continue;
        };
        let named = ois.get("endpoints").and_then(Value::as_array).into_iter().flatten();
        if !named.into_iter().any(|e| e.get("name").and_then(Value::as_str) == Some(name)) {
            diagnostics.push(Diagnostic::new(
                Code::BadTrigger,
                format!("{at}/endpointName"),
                format!("OIS \"{title}\" has no endpoint \"{name}\": the Feed refuses the config"),
            ));
        }
    }
}

/// The Feed calls each trigger's API every `fetchInterval` seconds; 0, a negative or a fraction
/// under one is accepted and calls the API back to back.
fn fetch_intervals(config: &Value, diagnostics: &mut Vec<Diagnostic>) {
    let updates = config.pointer("/triggers/signedApiUpdates").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    for (index, update) in updates.iter().enumerate() {
        let Some(interval) = update.get("fetchInterval").and_then(Value::as_f64) else { continue };
        if interval < 1.0 {
            diagnostics.push(
                Diagnostic::new(
                    Code::FetchIntervalTooShort,
                    format!("/triggers/signedApiUpdates/{index}/fetchInterval"),
                    format!("a fetchInterval of {interval} s: the Feed calls the API back to back, which hammers it (and may get the key blocked)"),
                )
                .with_help("give the seconds between calls, within the API's rate limit (scaffolds write 5)"),
            );
        }
    }
}

/// Every unescaped `${…}` outside the OIS objects must be a secret's name: the Feed's secrets
/// interpolation fails to load the config otherwise.
fn secret_references(config: &Value, diagnostics: &mut Vec<Diagnostic>) {
    let Some(root) = config.as_object() else { return };
    let no_secrets = crate::request::Secrets::none();
    for (key, value) in root.iter().filter(|(key, _)| key.as_str() != "ois") {
        let at = crate::pointer::join("", [key.as_str()]);
        crate::pointer::for_each_text(value, &at, &mut |text, place| {
            if !crate::ois::templates::has_unescaped(text) {
                return;
            }
            let pointer = &place.pointer();
            // Only the form matters here: a name's value comes from the secrets file, where only
            // names matching ^[A-Z][A-Z0-9_]*$ are accepted.
            match no_secrets.interpolate(text, pointer) {
                Err(problem) if problem.code == Code::SecretExpression => diagnostics.push(problem),
                Err(problem) if problem.code == Code::MissingSecret => {
                    let unfillable =
                        crate::node::template_expressions(text).find(|name| !crate::node::is_secret_name(name));
                    if let Some(name) = unfillable {
                        diagnostics.push(Diagnostic::new(
                            Code::SecretExpression,
                            pointer,
                            format!("`${{{name}}}`: no secret can have this name (secrets.env names match ^[A-Z][A-Z0-9_]*$), so the Feed fails to load the config (\"{name} is not defined\")"),
                        ));
                    }
                }
                _ => {}
            }
        });
    }
}

fn is_stage(text: &str) -> bool {
    (1..=256).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn is_evm_id(text: &str) -> bool {
    text.len() == 66 && text.starts_with("0x") && text.bytes().skip(2).all(|b| b.is_ascii_hexdigit())
}
