//! How the node names secrets: the rule a `${NAME}` of its config must follow, the name the
//! scaffolds give a scheme's credential, and the wallet mnemonic's.

use heck::ToShoutySnakeCase;
use serde_json::Value;

/// The secrets.env name of the node's wallet mnemonic.
pub const MNEMONIC_SECRET: &str = "AIRNODE_WALLET_MNEMONIC";

/// The secret a node config's `nodeSettings.airnodeWalletMnemonic` names (`${NAME}`), or the
/// scaffolds' name when it names none.
pub fn mnemonic_secret(config: &serde_json::Value) -> String {
    let written = config.pointer("/nodeSettings/airnodeWalletMnemonic").and_then(serde_json::Value::as_str);
    written.and_then(|w| w.strip_prefix("${")?.strip_suffix('}')).map_or(MNEMONIC_SECRET, str::trim).to_owned()
}

/// Whether `name` matches `^[A-Z][A-Z0-9_]*$`, the node's rule for secret names.
pub fn is_secret_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// The secrets.env name for a scheme of an OIS: SHOUTY_SNAKE_CASE of title and scheme, made to fit
/// `^[A-Z][A-Z0-9_]*$` (the node's rule for secret names).
pub fn secret_name(title: &str, scheme: &str) -> String {
    let raw = format!("{title} {scheme}").to_shouty_snake_case();
    let mut name = String::new();
    for c in raw.chars() {
        let c = if c.is_ascii_uppercase() || c.is_ascii_digit() { c } else { '_' };
        if !(c == '_' && (name.is_empty() || name.ends_with('_'))) {
            name.push(c);
        }
    }
    let name = name.trim_end_matches('_').to_owned();
    match name.chars().next() {
        Some(c) if c.is_ascii_uppercase() => name,
        _ => format!("API_{name}").trim_end_matches('_').to_owned(),
    }
}

/// The secrets.env name of the token a signed API named `name` expects:
/// `SIGNED_API_<NAME>_AUTH_TOKEN` (`SIGNED_API_AUTH_TOKEN` for one named `signed-api`).
pub fn signed_api_token_secret(name: &str) -> String {
    let shouty = secret_name(name, "");
    let named = shouty.strip_prefix("SIGNED_API").map(|rest| rest.trim_start_matches('_'));
    match named {
        Some("") => "SIGNED_API_AUTH_TOKEN".to_owned(),
        Some(rest) => format!("SIGNED_API_{rest}_AUTH_TOKEN"),
        None => format!("SIGNED_API_{}_AUTH_TOKEN", shouty.trim_start_matches("API_")),
    }
}

/// A credential an OIS needs from its node's secrets: one per scheme of
/// `apiSpecifications.security` that is an apiKey or http scheme (the relay schemes take their
/// values from the request, not from a secret).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CredentialSlot {
    /// The OIS's title.
    pub title: String,
    /// The security scheme's name.
    pub scheme: String,
    /// The secrets.env name the scaffolds give it ([`secret_name`]).
    pub variable: String,
    /// What the value is, for whoever fills it in: "the API key, sent as header \"x-key\"".
    pub explanation: String,
}

/// Every credential `ois` needs, in the order of its `security`.
pub fn credential_slots(ois: &Value) -> Vec<CredentialSlot> {
    let title = ois.get("title").and_then(Value::as_str).unwrap_or_default();
    let schemes = ois.pointer("/apiSpecifications/components/securitySchemes");
    let enabled = ois.pointer("/apiSpecifications/security").and_then(Value::as_object);
    let mut slots = Vec::new();
    for name in enabled.into_iter().flat_map(|security| security.keys()) {
        let Some(scheme) = schemes.and_then(|s| s.get(name)) else { continue };
        let field = |key: &str| scheme.get(key).and_then(Value::as_str);
        let explanation = match (field("type"), field("scheme")) {
            (Some("apiKey"), _) => {
                format!("the API key, sent as {} \"{}\"", field("in").unwrap_or("?"), field("name").unwrap_or("?"))
            }
            (Some("http"), Some("basic")) => {
                "base64 of user:password (e.g. `printf 'user:pass' | base64`); the node sends it as given after \"Basic \"".to_owned()
            }
            (Some("http"), _) => "the bearer token, sent as \"Authorization: Bearer <token>\"".to_owned(),
            _ => continue,
        };
        slots.push(CredentialSlot {
            title: title.to_owned(),
            scheme: name.clone(),
            variable: secret_name(title, name),
            explanation,
        });
    }
    slots
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_names_fit_the_node_rule() {
        assert_eq!(secret_name("CoinGecko Pro", "apiKeyHeader"), "COIN_GECKO_PRO_API_KEY_HEADER");
        assert_eq!(secret_name("1inch", "key"), "API_1INCH_KEY");
        assert_eq!(secret_name("Café API", "x-key"), "CAF_API_X_KEY");
        assert_eq!(signed_api_token_secret("signed-api"), "SIGNED_API_AUTH_TOKEN");
        assert_eq!(signed_api_token_secret("local"), "SIGNED_API_LOCAL_AUTH_TOKEN");
        assert_eq!(signed_api_token_secret("signed-api-eu"), "SIGNED_API_EU_AUTH_TOKEN");
        assert_eq!(signed_api_token_secret("2nd"), "SIGNED_API_2ND_AUTH_TOKEN");
        for name in ["A", "API_1INCH_KEY"] {
            assert!(is_secret_name(name), "{name}");
        }
        for name in ["", "1A", "a", "A-B", "_A", "É"] {
            assert!(!is_secret_name(name), "{name}");
        }
    }
}
