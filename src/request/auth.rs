//! Credentials and relay values as the adapter adds them for each security scheme, and the
//! headers as the node's HTTP client (axios) sends them.

use serde_json::{Map, Value};

use super::{Buckets, Mode, RequestOptions, axios, mask};
use crate::diagnostic::{Code, Diagnostic, Fix};

/// Credentials and relay values for every scheme listed in `security`, in its key order.
pub(super) fn auth_parameters(ois: &Value, options: &RequestOptions) -> (Buckets, Vec<String>, Vec<Diagnostic>) {
    let mut buckets = Buckets::default();
    let mut secrets = Vec::new();
    let mut warnings = Vec::new();
    let title = ois.get("title").and_then(Value::as_str).unwrap_or_default();
    let schemes = ois.pointer("/apiSpecifications/components/securitySchemes");
    let security = ois.pointer("/apiSpecifications/security").and_then(Value::as_object);
    for name in security.into_iter().flat_map(|s| s.keys()) {
        let Some(scheme) = schemes.and_then(|s| s.get(name)) else { continue };
        // airnode-node passes only its OIS's credentials; Airnode Feed passes them all.
        let credential = options
            .credentials
            .iter()
            .filter(|c| options.mode == Mode::Feed || c.ois_title == title)
            .find(|c| &c.scheme == name);
        let kind = scheme.get("type").and_then(Value::as_str).unwrap_or_default();
        let location = scheme.get("in").and_then(Value::as_str).unwrap_or_default();
        let key = scheme.get("name").and_then(Value::as_str).unwrap_or_default();
        match kind {
            "apiKey" => {
                if let Some(credential) = credential
                    && !key.is_empty()
                {
                    secrets.push(credential.value.clone());
                    buckets.put(location, key, Value::String(credential.value.clone()));
                }
            }
            "http" => {
                let Some(credential) = credential else { continue };
                let prefix = match scheme.get("scheme").and_then(Value::as_str) {
                    Some("basic") => {
                        if !looks_like_base64(&credential.value) {
                            warnings.push(
                                Diagnostic::new(
                                    Code::BasicNotBase64,
                                    format!("/apiSpecifications/components/securitySchemes/{name}"),
                                    format!(
                                        "the basic credential for \"{name}\" is not base64; the node sends it as given"
                                    ),
                                )
                                .with_help("the credential must already be base64(user:password)"),
                            );
                        }
                        "Basic"
                    }
                    Some("bearer") => "Bearer",
                    _ => continue,
                };
                secrets.push(credential.value.clone());
                buckets.put("header", "Authorization", Value::String(format!("{prefix} {}", credential.value)));
            }
            relay => {
                let Some(metadata) = &options.metadata else { continue };
                match metadata.get(relay) {
                    Some(value) => buckets.put(location, key, Value::String(value.to_owned())),
                    // The adapter writes a cookie as `${name}=${value};`, so a missing field is the
                    // text of JavaScript's undefined; axios leaves an undefined query or header out.
                    None if crate::ois::model::RELAY_TYPES.contains(&relay) => {
                        let sent = if location == "cookie" {
                            buckets.put(location, key, Value::String("undefined".to_owned()));
                            "the node sends the text \"undefined\" in its cookie"
                        } else {
                            "the node sends nothing for it"
                        };
                        warnings.push(
                            Diagnostic::new(
                                Code::RelayValueMissing,
                                format!("/apiSpecifications/components/securitySchemes/{name}"),
                                format!("the request metadata has no value for \"{name}\" ({relay}): {sent}"),
                            )
                            .with_fix(Fix::GiveMetadata),
                        );
                    }
                    None => {}
                }
            }
        }
    }
    (buckets, secrets, warnings)
}

/// The headers axios sends, and the built ones when they differ, with a warning for each change.
pub(super) fn as_sent(
    built: Map<String, Value>,
    at: &str,
    secrets: &[String],
    warnings: &mut Vec<Diagnostic>,
) -> (Map<String, Value>, Option<Map<String, Value>>) {
    let sent = axios::sent_headers(&built);
    for header in &sent {
        if let Some(original) = &header.changed_from {
            warnings.push(
                Diagnostic::new(
                    Code::InvalidHeaderValue,
                    at,
                    format!(
                        "header \"{}\" is sent as {:?}, not as built ({:?}): the node's HTTP client removes control characters and line breaks, characters beyond Latin-1, and surrounding spaces",
                        header.name,
                        mask(&header.value, secrets),
                        mask(original, secrets)
                    ),
                )
                .with_help("give the value as it should be sent"),
            );
        }
    }
    let kept: std::collections::HashSet<&str> = sent.iter().map(|header| header.name.as_str()).collect();
    for name in built.keys().filter(|name| !kept.contains(name.as_str())) {
        warnings.push(Diagnostic::new(
            Code::InvalidHeaderValue,
            at,
            format!("header \"{name}\" is not sent as built: the node's HTTP client drops a null or false value and the names __proto__, constructor and prototype, and merges names that differ only in case (the last value wins)"),
        ));
    }
    let changed = sent.len() != built.len() || sent.iter().any(|header| header.changed_from.is_some());
    let headers = sent.into_iter().map(|header| (header.name, Value::String(header.value))).collect();
    (headers, changed.then_some(built))
}

fn looks_like_base64(value: &str) -> bool {
    !value.is_empty()
        && value.len().is_multiple_of(4)
        && value.trim_end_matches('=').bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}
