//! Parameters that carry the API's credential though no security scheme declares them: a vendor's
//! document that lists its key as a plain query parameter (`key`, "Your registered API key."). As
//! a requester parameter its value would sit in every on-chain template and be hashed into its ID
//! for ever; as a security scheme the node sends it from its secrets.

/// Names that say "credential" on their own, compared without case and without `-`, `_`, `.`.
const CREDENTIAL_NAMES: &[&str] = &[
    "apikey",
    "apitoken",
    "apisecret",
    "accesstoken",
    "accesskey",
    "accesskeyid",
    "secretkey",
    "secret",
    "clientsecret",
    "password",
    "passwd",
    "appid",
    "appkey",
    "authtoken",
    "authkey",
    "subscriptionkey",
    "privatekey",
    "sessiontoken",
    "bearertoken",
    "licensekey",
];

/// Endings that say "credential" (`xApiKey`, `coinApiKey`, `vendorAccessToken`).
const CREDENTIAL_ENDINGS: &[&str] = &["apikey", "apitoken", "accesstoken", "secretkey", "password"];

/// What a description says of a credential, lowercased.
const CREDENTIAL_WORDS: &[&str] = &[
    "api key",
    "api-key",
    "apikey",
    "api token",
    "access token",
    "access key",
    "auth token",
    "authentication",
    "authorization",
    "credential",
    "secret",
    "password",
    "your key",
    "registered key",
    "subscription key",
    "license key",
    "private key",
];

/// Whether a parameter named `name` and described by `description` looks like it carries the
/// API's credential: its name says so (`api_key`, `X-API-Key`, `access_token`, `appid`), or its
/// description does ("Your registered API key."), which a bare `key` or `token` needs (a crypto
/// API's `token` is often a coin).
pub fn looks_like_credential(name: &str, description: Option<&str>) -> bool {
    let folded: String =
        name.chars().filter(|c| !matches!(c, '-' | '_' | '.' | ' ')).flat_map(char::to_lowercase).collect();
    if CREDENTIAL_NAMES.contains(&folded.as_str()) || CREDENTIAL_ENDINGS.iter().any(|end| folded.ends_with(end)) {
        return true;
    }
    let Some(description) = description else { return false };
    let described = description.to_lowercase();
    CREDENTIAL_WORDS.iter().any(|word| described.contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_descriptions_that_say_credential() {
        for name in ["api_key", "apiKey", "X-API-Key", "access_token", "appid", "x-rapidapi-key", "client_secret"] {
            assert!(looks_like_credential(name, None), "{name}");
        }
        assert!(looks_like_credential("key", Some("Your registered API key.")));
        assert!(looks_like_credential("token", Some("Authentication token")));
        for (name, description) in [
            ("key", None),
            ("token", Some("The token's contract address")),
            ("symbol", Some("A ticker, e.g. BTC")),
            ("ids", None),
            ("monkey", None),
        ] {
            assert!(!looks_like_credential(name, description), "{name}");
        }
    }
}
