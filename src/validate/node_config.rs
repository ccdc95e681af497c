//! A whole Airnode config.json (one with `chains`, `nodeSettings`, `triggers` or `templates`, not
//! only the `ois` + `apiCredentials` fragment `ois config` writes), checked as airnode-validator
//! 0.15 checks it: its sections' shapes, and triggers that name an OIS and endpoint of the file
//! with the endpoint ID derived from them, a mnemonic that is a BIP-39 phrase, and templates whose
//! IDs are derived from its Airnode address. Deep chain settings (`authorizers`, `authorizations`,
//! `options`, `contracts`) are checked for presence only.

use serde_json::Value;

use super::shape::{
    ANY, BOOL, INTEGER, NUMBER, POSITIVE, STRING, STRINGS, Shape, Tag, is_url, optional, required, shape,
};
use crate::diagnostic::{Code, Diagnostic, Fix};

static TRIGGER: Shape =
    Shape::Object(&[required("endpointId", &STRING), required("endpointName", &STRING), required("oisTitle", &STRING)]);
static RRP_TRIGGER: Shape = Shape::Object(&[
    required("endpointId", &STRING),
    required("endpointName", &STRING),
    required("oisTitle", &STRING),
    required("cacheResponses", &BOOL),
]);
static TRIGGERS: Shape = Shape::Object(&[
    required("rrp", &Shape::Array(&RRP_TRIGGER)),
    required("http", &Shape::Array(&TRIGGER)),
    required("httpSignedData", &Shape::Array(&TRIGGER)),
]);

static EVM_ID: Shape = Shape::Text(is_evm_id, "0x and 64 hex digits");
static TEMPLATE: Shape = Shape::Object(&[
    required("templateId", &EVM_ID),
    required("endpointId", &STRING),
    required("encodedParameters", &STRING),
]);

static ENABLED: Shape = Shape::Bool;
static GATEWAY: Shape = Shape::Tagged(
    "enabled",
    &[
        (
            Tag::Bool(true),
            &[required("enabled", &ENABLED), required("maxConcurrency", &POSITIVE), required("corsOrigins", &STRINGS)],
        ),
        (Tag::Bool(false), &[required("enabled", &ENABLED)]),
    ],
);
static API_KEY: Shape = Shape::Text(|key| (30..=120).contains(&key.encode_utf16().count()), "30 to 120 characters");
static HEARTBEAT: Shape = Shape::Tagged(
    "enabled",
    &[
        (Tag::Bool(true), &[required("enabled", &ENABLED), required("apiKey", &API_KEY), required("url", &STRING)]),
        (Tag::Bool(false), &[required("enabled", &ENABLED)]),
    ],
);
static CLOUD_TYPE: Shape = Shape::OneOf(&["local", "aws", "gcp"]);
static CLOUD_PROVIDER: Shape = Shape::Tagged(
    "type",
    &[
        (Tag::Text("local"), &[required("type", &CLOUD_TYPE), optional("gatewayServerPort", &NUMBER)]),
        (
            Tag::Text("aws"),
            &[
                required("type", &CLOUD_TYPE),
                required("region", &STRING),
                required("disableConcurrencyReservations", &BOOL),
            ],
        ),
        (
            Tag::Text("gcp"),
            &[
                required("type", &CLOUD_TYPE),
                required("region", &STRING),
                required("projectId", &STRING),
                required("disableConcurrencyReservations", &BOOL),
            ],
        ),
    ],
);
/// The airnode-validator release whose `nodeVersion` a config must name (the target table's).
const NODE_VERSION: &str = crate::node::Target::Airnode015.node_version();
static NODE_SETTINGS: Shape = Shape::Object(&[
    required("airnodeWalletMnemonic", &STRING),
    required("heartbeat", &HEARTBEAT),
    required("httpGateway", &GATEWAY),
    required("httpSignedDataGateway", &GATEWAY),
    required("oevGateway", &GATEWAY),
    required("stage", &Shape::Text(is_stage, "1 to 16 of a-z, 0-9 and -")),
    required("cloudProvider", &CLOUD_PROVIDER),
    required("logFormat", &Shape::OneOf(&["json", "plain"])),
    required("logLevel", &Shape::OneOf(&["DEBUG", "INFO", "WARN", "ERROR"])),
    required("nodeVersion", &Shape::OneOf(&[NODE_VERSION])),
]);

static PROVIDER: Shape = Shape::Object(&[required("url", &Shape::Text(is_url, "an absolute URL"))]);
static CHAIN: Shape = Shape::Object(&[
    required("authorizers", &ANY),
    required("authorizations", &ANY),
    optional("blockHistoryLimit", &INTEGER),
    optional("contracts", &ANY),
    required("id", &Shape::Text(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()), "digits")),
    optional("minConfirmations", &INTEGER),
    required("type", &Shape::OneOf(&["evm"])),
    required("options", &ANY),
    required("providers", &Shape::Record(&PROVIDER)),
    required("maxConcurrency", &POSITIVE),
]);

pub(super) static CONFIG: Shape = Shape::Object(&[
    required("chains", &Shape::Array(&CHAIN)),
    required("nodeSettings", &NODE_SETTINGS),
    required("ois", &ANY),
    required("triggers", &TRIGGERS),
    required("templates", &Shape::Array(&TEMPLATE)),
    required("apiCredentials", &ANY),
]);

/// The sections that make a config.json a whole node configuration.
const NODE_SECTIONS: [&str; 4] = ["chains", "nodeSettings", "triggers", "templates"];

/// Whether `config` is a whole node configuration rather than an `ois` + `apiCredentials` fragment.
pub(super) fn is_whole(config: &Value) -> bool {
    NODE_SECTIONS.iter().any(|section| config.get(section).is_some())
}

/// The shape of every section and the triggers' references, for a whole configuration: an
/// Airnode config.json, or — its IDs re-derived — an Airnode Feed config.
pub(super) fn check(config: &Value, oises: &[&Value], diagnostics: &mut Vec<Diagnostic>) {
    if !is_whole(config) {
        return;
    }
    if crate::node::ConfigKind::of(config) == Some(crate::node::ConfigKind::AirnodeFeed) {
        super::feed_config::check(config, oises, diagnostics);
        diagnostics.extend(crate::validate::feed_ids::verify_feed(config));
        super::templates::check_feed(config, diagnostics);
        return;
    }
    shape(config, &CONFIG, &mut String::new(), diagnostics);
    chain_concurrency(config, diagnostics);
    triggers(config, oises, diagnostics);
    mnemonic_and_templates(config, diagnostics);
    super::templates::check_rrp(config, diagnostics);
}

/// The mnemonic is a BIP-39 phrase, and each template's ID is derived from its Airnode address,
/// endpoint ID and parameters. A mnemonic given as a `${SECRET}` is filled only when the node
/// loads the config: the template IDs are then not checked, and a warning says so (the secrets
/// file, given, checks them: [`rrp_template_ids_with_secrets`]).
fn mnemonic_and_templates(config: &Value, diagnostics: &mut Vec<Diagnostic>) {
    let Some(mnemonic) = config.pointer("/nodeSettings/airnodeWalletMnemonic").and_then(Value::as_str) else {
        return;
    };
    if crate::ois::templates::has_unescaped(mnemonic) {
        let count = rrp_templates(config).len();
        if count > 0 {
            let secret = crate::node::mnemonic_secret(config);
            diagnostics.push(
                Diagnostic::new(
                    Code::RrpTemplatesUnchecked,
                    "/templates",
                    format!(
                        "{count} RRP template ID(s) not checked: each derives from the Airnode address, and the mnemonic is ${{{secret}}}, filled when the node starts"
                    ),
                )
                .with_fix(Fix::GiveMnemonic(secret)),
            );
        }
        return;
    }
    match crate::node::airnode_address(mnemonic) {
        Some(airnode) => diagnostics.extend(rrp_template_ids(config, airnode)),
        None => diagnostics.push(bad_mnemonic()),
    }
}

fn bad_mnemonic() -> Diagnostic {
    Diagnostic::new(
        Code::BadMnemonic,
        "/nodeSettings/airnodeWalletMnemonic",
        "the Airnode wallet mnemonic is not a valid BIP-39 phrase (words of the English list, one space apart, with a valid checksum)",
    )
    .with_help("keep the mnemonic in secrets.env and write \"${AIRNODE_WALLET_MNEMONIC}\" here")
}

fn rrp_templates(config: &Value) -> &[Value] {
    config.get("templates").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
}

/// Each RRP template's ID against the one derived from `airnode`, its endpoint ID and parameters.
fn rrp_template_ids(config: &Value, airnode: alloy_primitives::Address) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for (index, template) in rrp_templates(config).iter().enumerate() {
        let text = |key: &str| template.get(key).and_then(Value::as_str);
        let (Some(template_id), Some(endpoint_id), Some(parameters)) =
            (text("templateId"), text("endpointId"), text("encodedParameters"))
        else {
            continue;
        };
        let at = format!("/templates/{index}");
        let endpoint = hex_bytes(endpoint_id).filter(|bytes| bytes.len() == 32);
        let (Some(endpoint), Some(parameters)) = (endpoint, hex_bytes(parameters)) else {
            diagnostics.push(Diagnostic::new(
                Code::BadTemplateId,
                at,
                "endpointId must be 32 bytes and encodedParameters bytes, in 0x-prefixed hex: the validator fails on anything else",
            ));
            continue;
        };
        let derived = crate::node::rrp_template_id(airnode, alloy_primitives::B256::from_slice(&endpoint), &parameters);
        if template_id != derived {
            diagnostics.push(
                Diagnostic::new(
                    Code::BadTemplateId,
                    format!("{at}/templateId"),
                    "the templateId is not the one derived from the Airnode address, endpointId and encodedParameters",
                )
                .with_help(format!("use {derived} (lowercase hex, as the node compares it)")),
            );
        }
    }
    diagnostics
}

/// `diagnostics` of `config` with its RRP template IDs checked after all, when `secrets` hold the
/// mnemonic its `${SECRET}` names: the warning that they were not ([`Code::RrpTemplatesUnchecked`])
/// replaced by what deriving them finds. Whether it was replaced.
pub fn rrp_template_ids_with_secrets(
    config: &Value,
    secrets: &crate::request::Secrets,
    diagnostics: &mut Vec<Diagnostic>,
) -> bool {
    if !diagnostics.iter().any(|d| d.code == Code::RrpTemplatesUnchecked) {
        return false;
    }
    let Some(mnemonic) = secrets.file_value(&crate::node::mnemonic_secret(config)) else { return false };
    diagnostics.retain(|d| d.code != Code::RrpTemplatesUnchecked);
    match crate::node::airnode_address(mnemonic) {
        Some(airnode) => diagnostics.extend(rrp_template_ids(config, airnode)),
        None => diagnostics.push(bad_mnemonic()),
    }
    true
}

/// `0x`-prefixed hex with an even number of digits, as ethers' `arrayify` takes it.
fn hex_bytes(text: &str) -> Option<Vec<u8>> {
    let digits = text.strip_prefix("0x")?;
    if digits.len() % 2 != 0 {
        return None;
    }
    alloy_primitives::hex::decode(digits).ok()
}

fn is_evm_id(text: &str) -> bool {
    text.len() == 66 && text.starts_with("0x") && text.bytes().skip(2).all(|b| b.is_ascii_hexdigit())
}

fn is_stage(text: &str) -> bool {
    (1..=16).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A chain's `maxConcurrency` may not be below its number of providers.
fn chain_concurrency(config: &Value, diagnostics: &mut Vec<Diagnostic>) {
    let chains = config.get("chains").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for (index, chain) in chains.iter().enumerate() {
        let providers = chain.get("providers").and_then(Value::as_object).map_or(0, |p| p.len());
        let limit = chain.get("maxConcurrency").and_then(Value::as_f64);
        if limit.is_some_and(|limit| limit < providers as f64) {
            diagnostics.push(Diagnostic::new(
                Code::ConcurrencyTooLow,
                format!("/chains/{index}/maxConcurrency"),
                format!("maxConcurrency is below the chain's {providers} providers: the node refuses that"),
            ));
        }
    }
}

/// Each trigger names an OIS of the file and one of its endpoints, with the endpoint ID
/// `keccak256(abi.encode(oisTitle, endpointName))` written as the node derives it.
fn triggers(config: &Value, oises: &[&Value], diagnostics: &mut Vec<Diagnostic>) {
    for section in ["rrp", "http", "httpSignedData"] {
        let list = config.pointer(&format!("/triggers/{section}")).and_then(Value::as_array);
        for (index, trigger) in list.into_iter().flatten().enumerate() {
            let at = format!("/triggers/{section}/{index}");
            let text = |key: &str| trigger.get(key).and_then(Value::as_str);
            let (Some(title), Some(name), Some(id)) = (text("oisTitle"), text("endpointName"), text("endpointId"))
            else {
                continue;
            };
            let Some(ois) = oises.iter().find(|ois| ois.get("title").and_then(Value::as_str) == Some(title)) else {
                diagnostics.push(Diagnostic::new(
                    Code::BadTrigger,
                    format!("{at}/oisTitle"),
                    format!("no OIS of the file has the title \"{title}\""),
                ));
                continue;
            };
            let endpoints = ois.get("endpoints").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            if !endpoints.iter().any(|e| e.get("name").and_then(Value::as_str) == Some(name)) {
                diagnostics.push(Diagnostic::new(
                    Code::BadTrigger,
                    format!("{at}/endpointName"),
                    format!("OIS \"{title}\" has no endpoint named \"{name}\""),
                ));
                continue;
            }
            let derived = crate::node::endpoint_id(title, name);
            if id != derived {
                diagnostics.push(
                    Diagnostic::new(
                        Code::BadTrigger,
                        format!("{at}/endpointId"),
                        format!("the endpointId is not the one derived from \"{title}\" and \"{name}\""),
                    )
                    .with_help(format!("use {derived} (lowercase hex, as the node compares it)")),
                );
            }
        }
    }
}
