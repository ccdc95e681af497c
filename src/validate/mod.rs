//! `ois validate`: an OIS object, an array of them, or a whole `config.json`, checked against every
//! OIS rule (`ois::rules`), the run-time traps the real tools miss (`traps`), and the config-level
//! rules (`config`: credentials and titles; `node_config`: a whole node configuration as
//! airnode-validator checks it).

mod config;
mod feed_config;
pub(crate) mod feed_ids;
mod feeds;
mod node_config;
mod reading;
mod shape;
pub(crate) mod signed_api;
mod snippets;
pub mod templates;

pub use feed_config::{accepted_by, against_target};
pub use node_config::rrp_template_ids_with_secrets;
pub use reading::parse;
pub use signed_api::{configs_agree, tokens_agree};
mod traps;

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::ois::{DocumentKind, FormatFamily, OisDocument, rules};
use crate::source::Source;

/// The verdict on one file.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Validation {
    /// What the file is; `None` when it could not be read or parsed.
    pub kind: Option<DocumentKind>,
    /// Every problem found, errors, warnings and notes.
    pub diagnostics: Vec<Diagnostic>,
    /// The OIS format families of the file's OIS objects (each once, in order).
    pub families: Vec<FormatFamily>,
    /// A node config: the node release that accepts it (it names exactly one version).
    pub accepted_by: Vec<String>,
}

impl Validation {
    /// A verdict of a file that could not be read: only `error`.
    pub fn unreadable(error: Diagnostic) -> Self {
        Validation { kind: None, diagnostics: vec![error], families: Vec::new(), accepted_by: Vec::new() }
    }

    /// No errors (warnings and notes allowed).
    pub fn is_valid(&self) -> bool {
        !self.diagnostics.iter().any(|d| d.severity == Severity::Error)
    }
}

/// Validates a parsed document; `family` forces the OIS format family instead of `oisFormat`.
pub fn validate_value(root: &Value, family: Option<FormatFamily>) -> Validation {
    if crate::node::ConfigKind::of(root) == Some(crate::node::ConfigKind::SignedApi) {
        return Validation {
            kind: Some(DocumentKind::Node(crate::ois::ConfigKind::SignedApi)),
            diagnostics: signed_api::check(root),
            families: Vec::new(),
            accepted_by: accepted_by(root),
        };
    }
    let document = match OisDocument::read(root) {
        Ok(document) => document,
        Err((kind, error)) => {
            return Validation {
                kind: Some(kind),
                diagnostics: vec![error],
                families: Vec::new(),
                accepted_by: Vec::new(),
            };
        }
    };
    let mut diagnostics = Vec::new();
    let mut families = Vec::new();
    for (pointer, ois) in &document.oises {
        check_ois(ois, family, pointer, &mut diagnostics);
        let said = ois.get("oisFormat").and_then(Value::as_str).and_then(FormatFamily::of);
        if let Some(found) = family.or(said).filter(|found| !families.contains(found)) {
            families.push(found);
        }
    }
    let mut accepted = Vec::new();
    if document.kind.holds_ois_list() {
        let oises: Vec<&Value> = document.oises.iter().map(|(_, ois)| *ois).collect();
        diagnostics.extend(config::check(root, &oises));
        node_config::check(root, &oises, &mut diagnostics);
        accepted = accepted_by(root);
    }
    Validation { kind: Some(document.kind), diagnostics, families, accepted_by: accepted }
}

fn check_ois(ois: &Value, family: Option<FormatFamily>, prefix: &str, diagnostics: &mut Vec<Diagnostic>) {
    // The rules and the rest read the OIS apart: a big one's are checked side by side.
    let endpoints = ois.get("endpoints").and_then(Value::as_array).map_or(0, Vec::len);
    let (mut found, beyond) = crate::parallel::join(
        crate::parallel::worth_splitting(endpoints, ENDPOINTS_CHECKED_ALONE),
        || rules::check(ois, family),
        || {
            let mut beyond = Vec::new();
            beyond_rules(ois, &mut beyond);
            beyond
        },
    );
    found.extend(beyond);
    diagnostics.extend(found.into_iter().map(|diagnostic| diagnostic.within(prefix)));
}

/// How many endpoints an OIS may have for its rules and the rest to be checked on one thread.
const ENDPOINTS_CHECKED_ALONE: usize = 512;

/// What an OIS object breaks beyond the OIS rules: the run-time traps, its code, its feeds.
fn beyond_rules(ois: &Value, found: &mut Vec<Diagnostic>) {
    if ois.is_object() {
        found.extend(traps::check(ois));
        // One evaluation budget for all of the OIS's code: its snippets and its feeds' parsers.
        let mut budget = crate::processing::CHECK_BUDGET;
        found.extend(snippets::check(ois, &mut budget));
        found.extend(feeds::check(ois, &mut budget));
    }
}

/// The diagnostics [`validate_value`] gives a document that is one OIS object, `ois`, whose OIS
/// rules were already checked for the family its `oisFormat` names (`rules`: what a conversion's
/// own check found): the rest is checked here, not the rules again.
#[cfg(feature = "studio")]
pub(crate) fn validate_checked_ois(ois: &Value, rules: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut found = rules;
    beyond_rules(ois, &mut found);
    found
}

/// Every ID of a node configuration that is not derived from what it names, with what it should
/// be: an Airnode Feed config's endpoint and template keys and references
/// (`feed_ids::verify_feed`), or an Airnode config.json's trigger endpoint IDs
/// and template IDs (OIS067, OIS070).
pub fn verify_ids(config: &Value) -> Result<Vec<Diagnostic>, Diagnostic> {
    use crate::node::ConfigKind;
    use feed_ids::verify_feed;
    match ConfigKind::of(config) {
        Some(ConfigKind::AirnodeFeed) => {
            let mut found = verify_feed(config);
            templates::check_feed(config, &mut found);
            Ok(found)
        }
        Some(ConfigKind::Airnode) => {
            let ids = [
                Code::BadTrigger,
                Code::BadTemplateId,
                Code::UndecodableParameters,
                Code::TemplateParameterUnknown,
                Code::RrpTemplatesUnchecked,
                Code::BadMnemonic,
            ];
            Ok(validate_value(config, None).diagnostics.into_iter().filter(|d| ids.contains(&d.code)).collect())
        }
        Some(ConfigKind::SignedApi | ConfigKind::Fragment) | None => Err(Diagnostic::new(
            Code::WrongType,
            "",
            "neither an Airnode Feed config (templates keyed by ID) nor an Airnode config.json (chains, triggers.rrp)",
        )),
    }
}

/// Parses and validates `source` ([`parse`]); every diagnostic is located in its text.
pub fn validate(source: &Source, family: Option<FormatFamily>) -> Validation {
    match parse(source) {
        Ok(root) => validate_parsed(source, &root, family),
        Err(error) => Validation::unreadable(error),
    }
}

/// Validates `root`, already parsed from `source` (for a caller that reads it too); every
/// diagnostic is located in its text.
pub fn validate_parsed(source: &Source, root: &Value, family: Option<FormatFamily>) -> Validation {
    let mut validation = validate_value(root, family);
    for diagnostic in &mut validation.diagnostics {
        source.locate_diagnostic(diagnostic);
    }
    validation.diagnostics.splice(0..0, source.take_notes());
    validation
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn evaluating_v2_values_shares_one_budget_per_ois() {
        // Each `value` runs an endless loop when evaluated: four of them once took 250 ms each,
        // and 400 took 100 s. The budget lets the first two be evaluated (and time out); the
        // rest are only parsed.
        let mut value = ois("Loops");
        let endpoint = value["endpoints"][0].clone();
        let looping = json!({"environment": "Node", "timeoutMs": 1000, "value": "(() => { for (;;); })() || (p => p)"});
        value["endpoints"] = json!(
            (0..4)
                .map(|i| {
                    let mut endpoint = endpoint.clone();
                    endpoint["name"] = json!(format!("e{i}"));
                    endpoint["postProcessingSpecificationV2"] = looping.clone();
                    endpoint
                })
                .collect::<Vec<_>>()
        );
        let evaluated =
            validate_value(&value, None).diagnostics.iter().filter(|d| d.code == Code::SnippetUnrunnable).count();
        assert!((1..=2).contains(&evaluated), "{evaluated} of 4 values were run to their deadline");
    }

    fn ois(title: &str) -> Value {
        json!({
            "oisFormat": "3.0.0", "title": title, "version": "1.0.0",
            "apiSpecifications": {
                "servers": [{"url": "https://api.example.com"}],
                "paths": {"/a": {"get": {"parameters": []}}},
                "components": {"securitySchemes": {
                    "key": {"type": "apiKey", "in": "header", "name": "X-Key"},
                    "chain": {"type": "relayChainId", "in": "query", "name": "chain"}
                }},
                "security": {"key": [], "chain": []}
            },
            "endpoints": [{"name": "a", "operation": {"method": "get", "path": "/a"}, "fixedOperationParameters": [],
                "reservedParameters": [{"name": "_type", "fixed": "int256"}], "parameters": []}]
        })
    }

    use crate::diagnostic::Code;

    fn codes(document: Value) -> Vec<Code> {
        validate_value(&document, None).diagnostics.iter().map(|d| d.code).collect()
    }

    fn credential(title: &str, scheme: &str, value: &str) -> Value {
        json!({"oisTitle": title, "securitySchemeName": scheme, "securitySchemeValue": value})
    }

    #[test]
    fn kinds_and_pointers() {
        let validation = validate_value(&json!([ois("A"), {"title": 1}]), None);
        assert_eq!(validation.kind, Some(DocumentKind::List));
        assert!(validation.diagnostics.iter().all(|d| d.pointer().starts_with("/1")), "{:?}", validation.diagnostics);
        assert_eq!(validate_value(&ois("A"), None).kind, Some(DocumentKind::Ois));
        assert!(validate_value(&ois("A"), None).is_valid());
    }

    #[test]
    fn config_credentials() {
        let good = json!({"ois": [ois("A")], "apiCredentials": [credential("A", "key", "${A_KEY}")]});
        assert_eq!(codes(good), []);
        let wrong_title = json!({"ois": [ois("A")], "apiCredentials": [credential("B", "key", "${A_KEY}")]});
        assert_eq!(codes(wrong_title), [Code::UnknownCredentialTitle, Code::MissingCredential]);
        let wrong_scheme = json!({"ois": [ois("A")], "apiCredentials": [credential("A", "key", "${A_KEY}"), credential("A", "nope", "${X}")]});
        assert_eq!(codes(wrong_scheme), [Code::UnknownCredentialScheme]);
        let literal = json!({"ois": [ois("A")], "apiCredentials": [credential("A", "key", "sk-12345")]});
        assert_eq!(codes(literal), [Code::LiteralSecret]);
        let bad_name = json!({"ois": [ois("A")], "apiCredentials": [credential("A", "key", "${lower}")]});
        assert_eq!(codes(bad_name), [Code::LiteralSecret]);
        let duplicate = json!({"ois": [ois("A"), ois("A")], "apiCredentials": [credential("A", "key", "${K}")]});
        assert_eq!(codes(duplicate), [Code::DuplicateTitle]);
        let strict = json!({"ois": [ois("A")], "apiCredentials": [{"oisTitle": "A", "securitySchemeName": "key", "securitySchemeValue": "${K}", "x": 1}]});
        assert_eq!(codes(strict), [Code::UnknownField]);
        assert_eq!(codes(json!({"ois": [ois("A")]})), [Code::MissingField, Code::MissingCredential]);
    }

    #[test]
    fn relay_schemes_and_gateways() {
        let config = json!({"ois": [ois("A")], "apiCredentials": [credential("A", "key", "${K}")],
            "triggers": {"rrp": [], "http": [{"endpointId": "0x", "oisTitle": "A", "endpointName": "a"}]}});
        // Triggers make it a whole node config, whose other sections are missing here.
        assert!(codes(config).contains(&Code::RelayWithGateway));
    }
}
