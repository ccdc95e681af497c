//! `config.json`-level checks: credentials that really reach their OIS, titles that tell the OIS
//! objects apart, and relay schemes that an HTTP gateway would leave empty.

use std::collections::HashMap;

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::ois::model::RELAY_TYPES;
use crate::ois::rules::tables;

const CREDENTIAL_KEYS: &[&str] = tables::CREDENTIAL.allowed;

/// Checks a config.json's `apiCredentials` against its `ois` list, titles and gateways.
pub(super) fn check(config: &Value, oises: &[&Value]) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let titles = titles(oises, &mut diagnostics);
    let credentials = credentials(config, &titles, oises, &mut diagnostics);
    for (index, ois) in oises.iter().enumerate() {
        let Some(title) = ois.get("title").and_then(Value::as_str) else { continue };
        for (name, kind) in enabled_schemes(ois) {
            let needs_credential = kind == "apiKey" || kind == "http";
            if needs_credential && !credentials.iter().any(|(t, n)| t == title && n == name) {
                diagnostics.push(
                    Diagnostic::new(
                        Code::MissingCredential,
                        format!("/ois/{index}/apiSpecifications/security/{}", escape(name)),
                        format!("security scheme \"{name}\" of \"{title}\" is enabled but has no credential in apiCredentials"),
                    )
                    .with_help(format!(
                        "add {{\"oisTitle\": \"{title}\", \"securitySchemeName\": \"{name}\", \"securitySchemeValue\": \"${{SECRET_NAME}}\"}}"
                    )),
                );
            }
        }
    }
    relay_with_gateway(config, oises, &mut diagnostics);
    diagnostics.extend(crate::node::node_secrets_out_of_place(config, &[]));
    diagnostics
}

fn escape(token: &str) -> String {
    crate::pointer::join("", [token]).split_off(1)
}

fn titles<'v>(oises: &[&'v Value], diagnostics: &mut Vec<Diagnostic>) -> HashMap<&'v str, usize> {
    let mut titles = HashMap::new();
    for (index, ois) in oises.iter().enumerate() {
        let Some(title) = ois.get("title").and_then(Value::as_str) else { continue };
        if let Some(first) = titles.insert(title, index) {
            titles.insert(title, first);
            diagnostics.push(
                Diagnostic::new(
                    Code::DuplicateTitle,
                    format!("/ois/{index}/title"),
                    format!("OIS {index} has the title \"{title}\" of OIS {first}"),
                )
                .with_help("credentials and endpoint IDs are tied to titles: give each OIS its own"),
            );
        }
    }
    titles
}

/// The (title, scheme) pairs that have a credential, after checking each entry.
fn credentials(
    config: &Value,
    titles: &HashMap<&str, usize>,
    oises: &[&Value],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let Some(credentials) = config.get("apiCredentials") else {
        diagnostics.push(
            Diagnostic::new(Code::MissingField, "", "config.json has no `apiCredentials`")
                .with_help("add \"apiCredentials\": [] (with one entry per enabled apiKey/http scheme)"),
        );
        return pairs;
    };
    let Some(credentials) = credentials.as_array() else {
        diagnostics.push(Diagnostic::new(Code::WrongType, "/apiCredentials", "`apiCredentials` must be an array"));
        return pairs;
    };
    for (index, credential) in credentials.iter().enumerate() {
        let at = format!("/apiCredentials/{index}");
        let Some(object) = credential.as_object() else {
            diagnostics.push(Diagnostic::new(Code::WrongType, &at, "a credential must be an object"));
            continue;
        };
        for key in object.keys().filter(|k| !CREDENTIAL_KEYS.contains(&k.as_str())) {
            diagnostics.push(
                Diagnostic::new(
                    Code::UnknownField,
                    format!("{at}/{}", escape(key)),
                    format!("a credential does not allow the field \"{key}\""),
                )
                .with_help(format!("allowed fields: {}", CREDENTIAL_KEYS.join(", "))),
            );
        }
        let mut fields = CREDENTIAL_KEYS.iter().map(|key| match object.get(*key) {
            Some(Value::String(text)) => Some(text.as_str()),
            Some(_) => {
                diagnostics.push(Diagnostic::new(
                    Code::WrongType,
                    format!("{at}/{key}"),
                    format!("`{key}` must be a string"),
                ));
                None
            }
            None => {
                diagnostics.push(Diagnostic::new(
                    Code::MissingField,
                    &at,
                    format!("a credential is missing \"{key}\""),
                ));
                None
            }
        });
        let (Some(title), Some(scheme), value) =
            (fields.next().flatten(), fields.next().flatten(), fields.next().flatten())
        else {
            continue;
        };
        if let Some(value) = value {
            secret_reference(value, &format!("{at}/securitySchemeValue"), diagnostics);
        }
        let Some(&ois_index) = titles.get(title) else {
            let known: Vec<&str> = titles.keys().copied().collect();
            diagnostics.push(
                Diagnostic::new(
                    Code::UnknownCredentialTitle,
                    format!("{at}/oisTitle"),
                    format!("credential for \"{scheme}\" names OIS \"{title}\", which is not in this file; the node would silently send no key"),
                )
                .with_help(format!("the OIS titles here are: {}", known.join(", "))),
            );
            continue;
        };
        let defined = oises
            .get(ois_index)
            .and_then(|ois| ois.pointer("/apiSpecifications/components/securitySchemes"))
            .and_then(Value::as_object)
            .is_some_and(|schemes| schemes.contains_key(scheme));
        if !defined {
            diagnostics.push(Diagnostic::new(
                Code::UnknownCredentialScheme,
                format!("{at}/securitySchemeName"),
                format!("OIS \"{title}\" defines no security scheme \"{scheme}\""),
            ));
        }
        pairs.push((title.to_owned(), scheme.to_owned()));
    }
    pairs
}

/// A credential value should be `${NAME}`, filled from secrets.env, never the secret itself.
fn secret_reference(value: &str, at: &str, diagnostics: &mut Vec<Diagnostic>) {
    let name = value.strip_prefix("${").and_then(|v| v.strip_suffix('}'));
    match name {
        Some(name) if crate::node::is_secret_name(name) => {}
        Some(name) => diagnostics.push(
            Diagnostic::new(
                Code::LiteralSecret,
                at,
                format!("secret name \"{name}\" does not match ^[A-Z][A-Z0-9_]*$"),
            )
            .with_help("secrets.env names are upper case letters, digits and `_`, starting with a letter"),
        ),
        None => diagnostics.push(
            Diagnostic::new(Code::LiteralSecret, at, "the credential value is written out, not a ${VAR} reference")
                .with_help("keep secrets in secrets.env and write \"${MY_API_KEY}\" here"),
        ),
    }
}

/// Enabled schemes (listed in `security`) with their type.
fn enabled_schemes(ois: &Value) -> Vec<(&str, &str)> {
    let Some(security) = ois.pointer("/apiSpecifications/security").and_then(Value::as_object) else {
        return Vec::new();
    };
    let schemes = ois.pointer("/apiSpecifications/components/securitySchemes").and_then(Value::as_object);
    security
        .keys()
        .filter_map(|name| {
            let kind = schemes?.get(name)?.get("type")?.as_str()?;
            Some((name.as_str(), kind))
        })
        .collect()
}

fn relay_with_gateway(config: &Value, oises: &[&Value], diagnostics: &mut Vec<Diagnostic>) {
    let gateway = ["http", "httpSignedData"].iter().find(|key| {
        config.pointer(&format!("/triggers/{key}")).and_then(Value::as_array).is_some_and(|t| !t.is_empty())
    });
    let Some(gateway) = gateway else { return };
    for (index, ois) in oises.iter().enumerate() {
        for (name, kind) in enabled_schemes(ois) {
            if RELAY_TYPES.contains(&kind) {
                diagnostics.push(
                    Diagnostic::new(
                        Code::RelayWithGateway,
                        format!("/ois/{index}/apiSpecifications/security/{}", escape(name)),
                        format!("relay scheme \"{name}\" ({kind}) is enabled while triggers.{gateway} is set; requests through the gateway carry no chain metadata"),
                    )
                    .with_help("airnode-validator rejects this: remove the relay scheme or the gateway trigger"),
                );
            }
        }
    }
}
