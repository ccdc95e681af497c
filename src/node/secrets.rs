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

/// Whether `name` is one of the secrets a node reads for itself, which no API may ever receive:
/// a wallet mnemonic (any name holding `MNEMONIC`), a signed API's auth token
/// (`SIGNED_API…_TOKEN`), a chain's provider URL (`…_PROVIDER_URL`), the chain settings the
/// Airnode scaffold names, and the cloud credentials a node loads its config with (`AWS_…`).
/// A config names more of its own: [`node_secrets_of`].
pub fn is_node_secret(name: &str) -> bool {
    const EXACT: &[&str] = &["CHAIN_ID", "AIRNODE_RRP_ADDRESS", "HEARTBEAT_API_KEY", "HTTP_GATEWAY_API_KEY"];
    name.contains("MNEMONIC")
        || (name.starts_with("SIGNED_API") && name.ends_with("TOKEN"))
        || name.ends_with("_PROVIDER_URL")
        || name.ends_with("AIRNODE_RRP_ADDRESS")
        || name.starts_with("AWS_")
        || EXACT.contains(&name)
}

/// The secrets a node config names for the node itself: every `${NAME}` outside its
/// `apiCredentials` and its OIS objects (the mnemonic, the signed APIs' tokens, the chains'
/// providers, …), in the order they appear. An API credential naming one of them would send it.
pub fn node_secrets_of(config: &Value) -> indexmap::IndexSet<String> {
    let mut names = indexmap::IndexSet::new();
    let Some(root) = config.as_object() else { return names };
    for (_, value) in root.iter().filter(|(key, _)| !matches!(key.as_str(), "ois" | "apiCredentials")) {
        crate::pointer::for_each_text(value, "", &mut |text, _| {
            for name in referenced_names(text) {
                if !names.contains(name) {
                    names.insert(name.to_owned());
                }
            }
        });
    }
    names
}

/// The secret names `text` refers to with `${NAME}` (an escaped `\${` refers to none).
pub fn referenced_names(text: &str) -> impl Iterator<Item = &str> {
    template_expressions(text).filter(|name| is_secret_name(name))
}

/// What each unescaped, closed `${…}` of `text` holds, trimmed as the node trims it: a name, or
/// whatever else was written there.
pub fn template_expressions(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices("${").filter_map(move |(start, _)| {
        if text.get(..start).is_some_and(|before| before.ends_with('\\')) {
            return None;
        }
        let rest = text.get(start + 2..)?;
        Some(rest.get(..rest.find('}')?)?.trim_matches(crate::js::is_whitespace))
    })
}

/// Why the `${…}` of a server URL cannot be filled there, or `None` when it can: each names a
/// secret (`^[A-Z][A-Z0-9_]*$`) that is not one of the node's own (`node_secret` says which
/// are), and comes after the host, so a secret never chooses where the request goes.
pub fn server_url_secret_problem(url: &str, node_secret: impl Fn(&str) -> bool) -> Option<String> {
    if crate::ois::templates::opens_inside_another(url) {
        return Some("a `${` opens inside another".to_owned());
    }
    for expression in template_expressions(url) {
        if !is_secret_name(expression) {
            return Some(format!(
                "`${{{}}}` is not a secret's name (capital letters, digits and `_`, a letter first)",
                crate::emit::printable(expression)
            ));
        }
        if node_secret(expression) {
            return Some(format!("`${{{expression}}}` is one of the node's own secrets, which no API may receive"));
        }
    }
    let before = url.get(..url.find("${").unwrap_or(url.len())).unwrap_or_default();
    let authority_ends = before.split_once("://").is_some_and(|(_, rest)| rest.contains(['/', '?']));
    let host = url::Url::parse(before).ok().filter(|_| authority_ends).and_then(|u| u.host_str().map(str::to_owned));
    if host.is_none_or(|host| host.is_empty()) {
        return Some("a secret may come only after the URL's host (`https://host/path/${KEY}`)".to_owned());
    }
    None
}

/// The suffix a scheme's secret name takes when it would otherwise be one of the node's own.
pub const NODE_SECRET_SUFFIX: &str = "_API_CREDENTIAL";

/// The secrets.env name for a scheme of an OIS: SHOUTY_SNAKE_CASE of title and scheme, made to fit
/// `^[A-Z][A-Z0-9_]*$` (the node's rule for secret names). A name that would be one of the node's
/// own secrets ([`is_node_secret`]: an OIS titled `Airnode` with a scheme `wallet_mnemonic`)
/// takes the suffix [`NODE_SECRET_SUFFIX`]: a secrets file holding the mnemonic must never hand it
/// to an API.
pub fn secret_name(title: &str, scheme: &str) -> String {
    not_the_node_s(plain_secret_name(title, scheme))
}

/// `name`, with [`NODE_SECRET_SUFFIX`] when it is one of the node's own secrets.
fn not_the_node_s(name: String) -> String {
    if is_node_secret(&name) { format!("{name}{NODE_SECRET_SUFFIX}") } else { name }
}

fn plain_secret_name(title: &str, scheme: &str) -> String {
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

/// Secret names longer than this are made from the API's host instead of the OIS title.
const LONGEST_TITLED_NAME: usize = 40;

/// The secrets.env name of `scheme` of `ois` (titled `title`): [`plain_secret_name`] of the title,
/// or, when that is longer than [`LONGEST_TITLED_NAME`] (`ACME_INTERACTIVE_SWAGGER_UI_DOCUMENTATION_API_KEY`),
/// of the name its server's host is registered under (`api.acme.com` → `ACME_API_KEY`), when that is
/// shorter. Derived from the OIS alone, so every command names it the same.
fn short_secret_name(title: &str, scheme: &str, ois: &Value) -> String {
    let titled = plain_secret_name(title, scheme);
    if titled.len() <= LONGEST_TITLED_NAME {
        return titled;
    }
    let server = ois.pointer("/apiSpecifications/servers/0/url").and_then(Value::as_str);
    let hosted = server.and_then(registered_name).map(|name| plain_secret_name(&name, scheme));
    match hosted {
        Some(hosted) if hosted.len() < titled.len() => hosted,
        _ => titled,
    }
}

/// The name a server's host is registered under: `pro-api.coingecko.com` → `coingecko`,
/// `api.example.co.uk` → `example`; `None` for an IP address or a URL without a host.
fn registered_name(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    let url::Host::Domain(host) = parsed.host()? else { return None };
    let labels: Vec<&str> = host.split('.').filter(|l| !l.is_empty()).collect();
    let name = match labels.as_slice() {
        [.., name, second, country]
            if country.len() == 2 && ["co", "com", "org", "net", "ac", "gov"].contains(second) =>
        {
            name
        }
        [.., name, _top] => name,
        [only] => only,
        [] => return None,
    };
    Some((*name).to_owned())
}

/// The secrets.env name of the token a signed API named `name` expects:
/// `SIGNED_API_<NAME>_AUTH_TOKEN` (`SIGNED_API_AUTH_TOKEN` for one named `signed-api`).
pub fn signed_api_token_secret(name: &str) -> String {
    let shouty = plain_secret_name(name, "");
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
    /// The name it would have had, had that not been one of the node's own secrets (then
    /// `variable` is that name with [`NODE_SECRET_SUFFIX`]).
    pub instead_of: Option<String>,
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
        let plain = short_secret_name(title, name, ois);
        let variable = not_the_node_s(plain.clone());
        slots.push(CredentialSlot {
            title: title.to_owned(),
            scheme: name.clone(),
            instead_of: (plain != variable).then_some(plain),
            variable,
            explanation,
        });
    }
    slots
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_url_may_hold_a_secret_after_its_host() {
        let node = |name: &str| is_node_secret(name);
        assert_eq!(server_url_secret_problem("https://mainnet.infura.io/v3/${RPC_KEY}", node), None);
        assert_eq!(
            server_url_secret_problem("https://lb.drpc.org/ogrpc?network=ethereum&dkey=${DRPC_KEY}", node),
            None
        );
        for bad in [
            "https://${HOST}/v3",
            "https://x.io${PATH}",
            "${URL}",
            "https://x.io/${AIRNODE_WALLET_MNEMONIC}",
            "https://x.io/${lower}",
            "https://x.io/${A${B}}",
        ] {
            assert!(server_url_secret_problem(bad, node).is_some(), "{bad}");
        }
    }

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

    #[test]
    fn a_long_title_gives_way_to_the_host() {
        let ois = |title: &str, url: &str| {
            serde_json::json!({"title": title, "apiSpecifications": {"servers": [{"url": url}],
                "components": {"securitySchemes": {"ApiKeyAuth": {"type": "apiKey", "in": "header", "name": "x"}}},
                "security": {"ApiKeyAuth": []}}})
        };
        let name = |title: &str, url: &str| credential_slots(&ois(title, url))[0].variable.clone();
        assert_eq!(name("Acme Interactive Swagger UI Documentation", "https://api.acme.com/v2"), "ACME_API_KEY_AUTH");
        assert_eq!(name("Acme Interactive Swagger UI Documentation", "https://api.acme.co.uk"), "ACME_API_KEY_AUTH");
        assert_eq!(name("Acme", "https://api.other.com"), "ACME_API_KEY_AUTH");
        // No host to name it after: the title's, long as it is.
        let long = name("Acme Interactive Swagger UI Documentation", "http://127.0.0.1:8080");
        assert_eq!(long, "ACME_INTERACTIVE_SWAGGER_UI_DOCUMENTATION_API_KEY_AUTH");
    }

    #[test]
    fn no_scheme_is_named_like_a_node_secret() {
        assert_eq!(secret_name("Airnode", "wallet_mnemonic"), "AIRNODE_WALLET_MNEMONIC_API_CREDENTIAL");
        assert_eq!(secret_name("Signed API", "auth token"), "SIGNED_API_AUTH_TOKEN_API_CREDENTIAL");
        assert_eq!(secret_name("Signed", "API local auth token"), "SIGNED_API_LOCAL_AUTH_TOKEN_API_CREDENTIAL");
        assert_eq!(secret_name("Chain", "provider url"), "CHAIN_PROVIDER_URL_API_CREDENTIAL");
        assert_eq!(secret_name("CoinGecko", "key"), "COIN_GECKO_KEY");
        for node in [MNEMONIC_SECRET, "SIGNED_API_AUTH_TOKEN", "SIGNED_API_LOCAL_AUTH_TOKEN", "CHAIN_PROVIDER_URL"] {
            assert!(is_node_secret(node), "{node}");
        }
        for api in ["COIN_GECKO_KEY", "API_TOKEN", "SIGNED_KEY", "AIRNODE_KEY"] {
            assert!(!is_node_secret(api), "{api}");
        }
        let slot = credential_slots(&serde_json::json!({"title": "Airnode", "apiSpecifications": {
            "components": {"securitySchemes": {"wallet_mnemonic": {"type": "apiKey", "in": "header", "name": "x"}}},
            "security": {"wallet_mnemonic": []}}}));
        assert_eq!(slot[0].variable, "AIRNODE_WALLET_MNEMONIC_API_CREDENTIAL");
        assert_eq!(slot[0].instead_of.as_deref(), Some(MNEMONIC_SECRET));
    }

    #[test]
    fn a_config_names_its_node_secrets() {
        let config = serde_json::json!({
            "nodeSettings": {"airnodeWalletMnemonic": "${MY_WALLET}", "stage": "\\${NOT_ONE}"},
            "signedApis": [{"authToken": "${TOKEN_A}"}, {"authToken": "${ TOKEN_B }"}, {"authToken": "${TOKEN_A}"}],
            "apiCredentials": [{"securitySchemeValue": "${API_KEY}"}],
            "ois": [{"title": "${IN_OIS}"}]
        });
        assert_eq!(node_secrets_of(&config).into_iter().collect::<Vec<_>>(), ["MY_WALLET", "TOKEN_A", "TOKEN_B"]);
    }
}
