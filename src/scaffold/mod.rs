//! What goes next to an OIS in a node's files: the `config.json` fragment with one `apiCredentials`
//! entry per enabled apiKey/http scheme, the secrets.env template those entries refer to, and the
//! endpoint IDs Airnode and Airnode Feed derive from (title, endpoint name), and what a config.json's
//! templates are derived from (the Airnode address of its mnemonic).

pub mod ids;
pub mod node;
pub mod verify;

use alloy_dyn_abi::DynSolValue;
use heck::ToShoutySnakeCase;
use serde_json::{Value, json};

/// A config.json fragment `{"ois": [...], "apiCredentials": [...]}` and the matching secrets.env.
#[derive(Clone, Debug)]
pub struct Scaffold {
    /// `{"ois": [...], "apiCredentials": [...]}`.
    pub config: Value,
    /// A secrets.env template with one empty line per credential.
    pub secrets_env: String,
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

/// The scaffold for `oises` (each an OIS object).
pub fn config(oises: &[Value]) -> Scaffold {
    config_described(oises, |_, _| None)
}

/// [`config`], with what `describe(title, scheme)` says of a scheme (its OpenAPI `description`,
/// say) in the secrets.env comment, where whoever fills in the value reads it.
pub fn config_described(oises: &[Value], describe: impl Fn(&str, &str) -> Option<String>) -> Scaffold {
    let mut credentials = Vec::new();
    let mut secrets_env =
        String::from("# Secrets for config.json: fill in each value; keep this file out of version control.\n");
    for ois in oises {
        let title = ois.get("title").and_then(Value::as_str).unwrap_or_default();
        let schemes = ois.pointer("/apiSpecifications/components/securitySchemes");
        for name in
            ois.pointer("/apiSpecifications/security").and_then(Value::as_object).into_iter().flat_map(|s| s.keys())
        {
            let Some(scheme) = schemes.and_then(|s| s.get(name)) else { continue };
            let explanation = match (scheme.get("type").and_then(Value::as_str), scheme.get("scheme").and_then(Value::as_str)) {
                (Some("apiKey"), _) => format!(
                    "the API key, sent as {} \"{}\"",
                    scheme.get("in").and_then(Value::as_str).unwrap_or("?"),
                    scheme.get("name").and_then(Value::as_str).unwrap_or("?")
                ),
                (Some("http"), Some("basic")) => {
                    "base64 of user:password (e.g. `printf 'user:pass' | base64`); the node sends it as given after \"Basic \"".to_owned()
                }
                (Some("http"), _) => "the bearer token, sent as \"Authorization: Bearer <token>\"".to_owned(),
                _ => continue,
            };
            let variable = secret_name(title, name);
            credentials.push(json!({"oisTitle": title, "securitySchemeName": name, "securitySchemeValue": format!("${{{variable}}}")}));
            secrets_env.push_str(&format!("\n# {title} / {name}: {explanation}\n"));
            if let Some(description) = describe(title, name) {
                secrets_env.push_str(&format!("# The API documentation says: {description}\n"));
            }
            secrets_env.push_str(&format!("{variable}=\n"));
        }
    }
    Scaffold { config: json!({"ois": oises, "apiCredentials": credentials}), secrets_env }
}

/// `keccak256(abi.encode(string title, string endpointName))`, as `0x…`.
pub fn endpoint_id(title: &str, endpoint: &str) -> String {
    let encoded =
        DynSolValue::Tuple(vec![DynSolValue::String(title.to_owned()), DynSolValue::String(endpoint.to_owned())])
            .abi_encode_params();
    format!("{}", alloy_primitives::keccak256(encoded))
}

/// The Airnode address of a wallet mnemonic, as ethers' `Wallet.fromMnemonic` derives it (BIP-39,
/// no password, BIP-44 path m/44'/60'/0'/0/0); `None` when ethers would refuse the phrase. Its
/// words are separated by spaces only, in any case.
pub fn airnode_address(mnemonic: &str) -> Option<alloy_primitives::Address> {
    use alloy_signer_local::{MnemonicBuilder, coins_bip39::English};
    let lower = mnemonic.to_lowercase();
    let words: Vec<&str> = lower.split(' ').filter(|word| !word.is_empty()).collect();
    // ethers splits on runs of spaces: a leading or trailing space, or a tab, makes a word no
    // wordlist has.
    if lower.starts_with(' ') || lower.ends_with(' ') || words.iter().any(|w| w.chars().any(char::is_whitespace)) {
        return None;
    }
    let signer = MnemonicBuilder::<English>::default().phrase(words.join(" ")).index(0).ok()?.build().ok()?;
    Some(signer.address())
}

/// An Airnode (RRP, config.json) template ID: `keccak256(abi.encodePacked(address airnode, bytes32
/// endpointId, bytes encodedParameters))`, as `0x…` in lowercase.
pub fn rrp_template_id(
    airnode: alloy_primitives::Address,
    endpoint_id: alloy_primitives::B256,
    encoded_parameters: &[u8],
) -> String {
    let mut packed = Vec::with_capacity(20 + 32 + encoded_parameters.len());
    packed.extend_from_slice(airnode.as_slice());
    packed.extend_from_slice(endpoint_id.as_slice());
    packed.extend_from_slice(encoded_parameters);
    format!("{}", alloy_primitives::keccak256(packed))
}

/// Every endpoint of an OIS with its ID.
pub fn endpoint_ids(ois: &Value) -> Vec<(String, String)> {
    let title = ois.get("title").and_then(Value::as_str).unwrap_or_default();
    ois.get("endpoints")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|e| e.get("name").and_then(Value::as_str))
        .map(|name| (name.to_owned(), endpoint_id(title, name)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn airnode_address_as_ethers_derives_it() {
        let hardhat = "test test test test test test test test test test test junk";
        let address = airnode_address(hardhat).map(|a| a.to_checksum(None));
        assert_eq!(address.as_deref(), Some("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"));
        assert_eq!(airnode_address(&hardhat.to_uppercase().replace(' ', "  ")), airnode_address(hardhat));
        for refused in
            [" test test test test test test test test test test test junk", "test test", "not a mnemonic at all"]
        {
            assert_eq!(airnode_address(refused), None, "{refused}");
        }
    }

    #[test]
    fn endpoint_ids_match_the_airnode_test_vectors() {
        assert_eq!(
            endpoint_id("CoinGecko basic request", "coinMarketData"),
            "0xfb87102cdabadf905321521ba0b3cbf74ad09c5d400ac2eccdbef8d6143e78c4"
        );
        assert_eq!(endpoint_id("Nodary", "feed"), "0x3528e42b017a5fbf9d2993a2df04efc3ed474357575065a111b054ddf9de2acc");
    }

    #[test]
    fn secret_names_fit_the_node_rule() {
        assert_eq!(secret_name("CoinGecko Pro", "apiKeyHeader"), "COIN_GECKO_PRO_API_KEY_HEADER");
        assert_eq!(secret_name("1inch", "key"), "API_1INCH_KEY");
        assert_eq!(secret_name("Café API", "x-key"), "CAF_API_X_KEY");
        for name in ["A", "API_1INCH_KEY"] {
            assert!(is_secret_name(name), "{name}");
        }
        for name in ["", "1A", "a", "A-B", "_A", "É"] {
            assert!(!is_secret_name(name), "{name}");
        }
    }

    #[test]
    fn scaffold_has_a_credential_per_enabled_key_or_http_scheme() {
        let ois = json!({"title": "Demo", "apiSpecifications": {
            "components": {"securitySchemes": {
                "key": {"type": "apiKey", "in": "header", "name": "X-Key"},
                "basic": {"type": "http", "scheme": "basic"},
                "chain": {"type": "relayChainId", "in": "query", "name": "c"},
                "unused": {"type": "apiKey", "in": "query", "name": "u"}
            }},
            "security": {"key": [], "basic": [], "chain": []}
        }});
        let scaffold = config(&[ois]);
        let names: Vec<&str> = scaffold.config["apiCredentials"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["securitySchemeValue"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["${DEMO_KEY}", "${DEMO_BASIC}"]);
        assert!(
            scaffold.secrets_env.contains("DEMO_BASIC=\n") && scaffold.secrets_env.contains("base64 of user:password")
        );
    }
}
