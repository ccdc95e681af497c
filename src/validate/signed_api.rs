//! A Signed API config, checked as the Signed API checks it when it starts (its `configSchema`,
//! the same in 3.3.0 and 4.6.0): strict objects, endpoint paths and tokens, the Airnodes it
//! accepts, the stage, and the exact `version` it requires.

use serde_json::Value;

use super::shape::{BOOL, STRING, STRINGS, Shape, optional, required, shape};
use crate::diagnostic::{Code, Diagnostic};

static TOKENS: Shape = Shape::Nullable(&Shape::NonEmpty(&STRINGS));
static NON_NEGATIVE: Shape = Shape::NonNegativeInteger;
static ENDPOINT: Shape = Shape::Object(&[
    required("urlPath", &Shape::Text(is_url_path, "`/` then letters, digits and `-`")),
    required("authTokens", &TOKENS),
    required("delaySeconds", &NON_NEGATIVE),
    optional("hideSignatures", &BOOL),
    required("isOev", &BOOL),
]);
static ALLOWED_AIRNODE: Shape = Shape::Object(&[
    required(
        "address",
        &Shape::Text(is_evm_address, "an EVM address (0x and 40 hex digits, checksummed if mixed case)"),
    ),
    required("authTokens", &TOKENS),
    required("isCertified", &BOOL),
]);
static CACHE: Shape =
    Shape::Object(&[required("type", &Shape::OneOf(&["browser", "cdn"])), required("maxAgeSeconds", &NON_NEGATIVE)]);
pub(super) static CONFIG: Shape = Shape::Object(&[
    required("endpoints", &Shape::Array(&ENDPOINT)),
    optional("cache", &CACHE),
    required("allowedAirnodes", &Shape::LiteralOr("*", &Shape::NonEmpty(&Shape::Array(&ALLOWED_AIRNODE)))),
    required("stage", &super::feed_config::STAGE),
    required("version", &STRING),
]);

/// Every rule of the Signed API's config schema `config` breaks, each located.
pub(super) fn check(config: &Value) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    shape(config, &CONFIG, &mut String::new(), &mut found);
    let message = |path: &str| {
        format!(
            "the endpoint path \"{path}\" is taken by an endpoint before it: the Signed API requires each to be unique"
        )
    };
    super::shape::unique_by(config, "/endpoints", "urlPath", message, &mut found);
    if let Some(version) = config.get("version").and_then(Value::as_str) {
        found.extend(super::feed_config::unreleased(version, "/version", "Signed API"));
    }
    found
}

/// Where an Airnode Feed config `feed` and the Signed API config `signed_api` (checked together)
/// disagree, each located in the Signed API config: the Airnode it accepts (when the Feed's
/// mnemonic is written out, its address), the token the Feed sends each signed API it pushes
/// to, and the Feed's URL for it, which the Signed API serves at its root (`POST /:airnode`).
pub fn configs_agree(feed: &Value, signed_api: &Value) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let allowed = signed_api.get("allowedAirnodes");
    if allowed.and_then(Value::as_str) == Some("*") {
        return found;
    }
    let allowed = allowed.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let airnode = feed
        .pointer("/nodeSettings/airnodeWalletMnemonic")
        .and_then(Value::as_str)
        .and_then(crate::node::airnode_address)
        .map(|address| address.to_checksum(None));
    let accepts = |entry: &&Value| {
        let address = entry.get("address").and_then(Value::as_str).unwrap_or_default();
        airnode.as_deref().is_none_or(|airnode| address.eq_ignore_ascii_case(airnode))
    };
    let Some((index, entry)) = allowed.iter().enumerate().find(|(_, entry)| accepts(entry)) else {
        if let Some(airnode) = &airnode {
            found.push(Diagnostic::new(
                Code::ConfigsDisagree,
                "/allowedAirnodes",
                format!(
                    "the Feed's Airnode {airnode} is not among the allowed Airnodes: the Signed API refuses its data"
                ),
            ));
        }
        return found;
    };
    let tokens = entry.get("authTokens");
    for (position, api) in feed.get("signedApis").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let name = api.get("name").and_then(Value::as_str).unwrap_or_default();
        let sent = api.get("authToken").and_then(Value::as_str);
        let taken = match tokens.and_then(Value::as_array) {
            None => true,
            Some(list) => sent.is_some_and(|sent| list.iter().any(|token| token.as_str() == Some(sent))),
        };
        if !taken
            && allowed.len() == 1
            && feed.get("signedApis").and_then(Value::as_array).is_some_and(|l| l.len() == 1)
        {
            found.push(Diagnostic::new(
                Code::ConfigsDisagree,
                format!("/allowedAirnodes/{index}/authTokens"),
                format!(
                    "the Feed pushes to \"{name}\" with {}, which the Airnode's authTokens do not hold: the Signed API refuses its data",
                    sent.unwrap_or("no token")
                ),
            ));
        }
        let url = api.get("url").and_then(Value::as_str).and_then(|url| url::Url::parse(url).ok());
        if let Some(url) = url.filter(|url| !matches!(url.path(), "" | "/")) {
            found.push(
                Diagnostic::new(
                    Code::ConfigsDisagree,
                    "",
                    format!(
                        "the Feed pushes to \"{name}\" at {url} (signedApis/{position}), a path the Signed API does not serve: it takes data at its root, POST /AIRNODE"
                    ),
                )
                .with_help("give the Signed API's base URL, without a path"),
            );
        }
    }
    found
}

/// Where the push tokens of an Airnode Feed config `feed` and a Signed API config `signed_api`
/// disagree once their `${NAME}`s are filled from `secrets` (each file by its name): a name two
/// files give different values (the Feed reads one, the Signed API the other), or a token the
/// Feed sends that no token the Signed API accepts equals. Either is the Feed's `403 Unauthorized
/// Airnode address` at its first push. No value is ever shown.
pub fn tokens_agree(
    feed: &Value,
    signed_api: &Value,
    secrets: &[(String, crate::request::Secrets)],
) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let names = feed
        .get("signedApis")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|api| api.get("authToken").and_then(Value::as_str))
        .chain(signed_api.get("allowedAirnodes").and_then(Value::as_array).into_iter().flatten().flat_map(|entry| {
            entry.get("authTokens").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str)
        }))
        .flat_map(crate::node::referenced_names)
        .collect::<indexmap::IndexSet<&str>>();
    for name in &names {
        let mut held = secrets.iter().filter_map(|(file, s)| Some((file.as_str(), s.file_value(name)?)));
        if let Some((first, value)) = held.next()
            && let Some((second, _)) = held.find(|(_, other)| *other != value)
        {
            found.push(Diagnostic::new(
                Code::ConfigsDisagree,
                "/allowedAirnodes",
                format!("{name} has one value in {first} and another in {second}: the Feed pushes with one, the Signed API takes the other (the Feed's \"403 Unauthorized Airnode address\")"),
            ).with_help("write the same value in both (the push token is typed once: a Signed API scaffold made with the Feed's secrets carries it)"));
        }
    }
    if !found.is_empty() {
        return found;
    }
    // Every name filled from the first file that holds it.
    let fill = |text: &str| -> Option<String> {
        let mut filled = text.to_owned();
        for name in crate::node::referenced_names(text) {
            let value = secrets.iter().find_map(|(_, s)| s.file_value(name))?;
            filled = filled.replace(&format!("${{{name}}}"), value);
        }
        Some(filled)
    };
    let accepted: Vec<String> = signed_api
        .get("allowedAirnodes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .flat_map(|entry| {
            entry.get("authTokens").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str)
        })
        .filter_map(fill)
        .collect();
    if accepted.is_empty() {
        return found;
    }
    for api in feed.get("signedApis").and_then(Value::as_array).into_iter().flatten() {
        let name = api.get("name").and_then(Value::as_str).unwrap_or_default();
        let Some(sent) = api.get("authToken").and_then(Value::as_str).and_then(fill) else { continue };
        if !accepted.contains(&sent) {
            found.push(
                Diagnostic::new(
                    Code::ConfigsDisagree,
                    "/allowedAirnodes",
                    format!("the token the Feed pushes to \"{}\" with, filled from the secrets, is none the Signed API accepts: the Feed's pushes are refused (\"403 Unauthorized Airnode address\")", crate::emit::printable(name)),
                )
                .with_help("write the same push token in the Feed's secrets and the Signed API's"),
            );
        }
    }
    found
}

fn is_url_path(text: &str) -> bool {
    text.strip_prefix('/')
        .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
}

/// What ethers' `getAddress` takes: 0x and 40 hex digits, all one case or checksummed.
pub(super) fn is_evm_address(text: &str) -> bool {
    let Some(digits) = text.strip_prefix("0x") else { return false };
    if digits.len() != 40 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return false;
    }
    let mixed = digits.bytes().any(|b| b.is_ascii_uppercase()) && digits.bytes().any(|b| b.is_ascii_lowercase());
    !mixed || text.parse::<alloy_primitives::Address>().is_ok_and(|address| address.to_checksum(None) == text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn codes(config: &Value) -> Vec<String> {
        check(config).iter().map(|d| format!("{} {}", d.code, d.pointer())).collect()
    }

    #[test]
    fn the_signed_api_s_schema() {
        let good = json!({
            "endpoints": [{"urlPath": "/real-time", "authTokens": ["${T}"], "delaySeconds": 0, "isOev": false},
                          {"urlPath": "/delayed", "authTokens": null, "delaySeconds": 15, "hideSignatures": true, "isOev": false}],
            "allowedAirnodes": [{"address": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "authTokens": ["${A}"], "isCertified": false}],
            "stage": "local",
            "version": "4.6.0"
        });
        assert_eq!(codes(&good), Vec::<String>::new());
        let mut bad = good.clone();
        bad["endpoints"][1]["urlPath"] = json!("/real-time");
        bad["endpoints"][0]["authTokens"] = json!([]);
        bad["endpoints"][0]["delaySeconds"] = json!(-1);
        bad["allowedAirnodes"][0]["address"] = json!("0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266");
        bad["stage"] = json!("Local");
        bad["version"] = json!("4.9.0");
        bad["extra"] = json!(1);
        assert_eq!(
            codes(&bad),
            [
                "OIS003 /extra",
                "OIS001 /endpoints/0/authTokens",
                "OIS001 /endpoints/0/delaySeconds",
                "OIS001 /allowedAirnodes/0/address",
                "OIS001 /stage",
                "OIS084 /endpoints/1/urlPath",
                "OIS082 /version"
            ]
        );
        assert_eq!(
            codes(&json!({"endpoints": [], "allowedAirnodes": "*", "stage": "x", "version": "3.3.0"})),
            Vec::<String>::new()
        );
        assert_eq!(
            codes(&json!({"endpoints": [], "allowedAirnodes": [], "stage": "x", "version": "3.3.0"})),
            ["OIS001 /allowedAirnodes"]
        );
    }
}

#[cfg(test)]
mod token_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tokens_agree_by_value_whatever_their_names() {
        let feed = json!({"signedApis": [{"name": "api", "url": "https://s.example", "authToken": "${PUSH}"}]});
        let signed_api = json!({"allowedAirnodes": [{"address": "0x1", "authTokens": ["${AIRNODE_TOKEN}"]}]});
        let secrets = |text: &str| crate::request::Secrets::parse(text).unwrap();
        let same =
            [("feed.env".to_owned(), secrets("PUSH=t-1\n")), ("sa.env".to_owned(), secrets("AIRNODE_TOKEN=t-1\n"))];
        assert!(tokens_agree(&feed, &signed_api, &same).is_empty());
        let other =
            [("feed.env".to_owned(), secrets("PUSH=t-1\n")), ("sa.env".to_owned(), secrets("AIRNODE_TOKEN=t-2\n"))];
        let found = tokens_agree(&feed, &signed_api, &other);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].message.contains("none the Signed API accepts") && !found[0].message.contains("t-"),
            "{}",
            found[0].message
        );
        // A name neither file fills is not judged here.
        assert!(tokens_agree(&feed, &signed_api, &[("x.env".to_owned(), secrets("OTHER=1\n"))]).is_empty());
    }
}
