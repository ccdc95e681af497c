//! The Signed API's config for an Airnode Feed config's signed API: the Airnode it accepts data
//! from (the address of the Feed's mnemonic) with the token the Feed sends, the endpoints it serves
//! (real-time and OEV, each behind a read token; a public delayed one when asked), and the exact
//! version the Signed API requires (released with the Feed, so the Feed config's `nodeVersion`).

use serde_json::{Value, json};

use super::node::NodeScaffold;
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::node::{Release, Target};

/// What the Signed API config is for.
#[derive(Clone, Debug, Default)]
pub struct SignedApiOptions {
    /// Which of the Feed config's signed APIs (`None`: its only one).
    pub name: Option<String>,
    /// The Airnode's address (checksummed).
    pub airnode: String,
    /// A public endpoint serving data this many seconds late.
    pub delayed: Option<u64>,
    /// The values of the Feed's push tokens, by variable name, when its secrets are at hand: the
    /// token is carried into the Signed API's secrets, so that it is typed once (a typo shows
    /// only as the Feed's 403 otherwise).
    pub push_tokens: std::collections::HashMap<String, String>,
}

/// The read tokens of the endpoints the scaffold writes.
pub const REAL_TIME_TOKEN: &str = "SIGNED_API_REAL_TIME_TOKEN";
/// The OEV endpoint's read token.
pub const OEV_TOKEN: &str = "SIGNED_API_OEV_TOKEN";

/// The Signed API config for `feed` (an Airnode Feed config) and its secrets template: the token
/// the Feed sends under the Feed's own variable name (one secrets value serves both), and a read
/// token per endpoint.
pub fn signed_api_config(feed: &Value, options: &SignedApiOptions) -> Result<NodeScaffold, Diagnostic> {
    let listed = feed.get("signedApis").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    fn named(entry: &Value) -> Option<&str> {
        entry.get("name").and_then(Value::as_str)
    }
    let names: Vec<&str> = listed.iter().filter_map(named).collect();
    let chosen = match &options.name {
        Some(name) => listed.iter().find(|entry| named(entry) == Some(name.as_str())),
        None if listed.len() == 1 => listed.first(),
        None => None,
    };
    let Some(chosen) = chosen else {
        let message = match (&options.name, names.as_slice()) {
            (_, []) => "the Airnode Feed config has no signed API to serve (`signedApis` is empty)".to_owned(),
            (Some(name), _) => {
                format!("the Airnode Feed config has no signed API \"{name}\" (it has: {})", names.join(", "))
            }
            (None, _) => format!(
                "the Airnode Feed config pushes to {} signed APIs: say which ({})",
                names.len(),
                names.join(", ")
            ),
        };
        return Err(Diagnostic::elsewhere(Code::BadArgument, message).with_fix(crate::diagnostic::Fix::ChooseSignedApi));
    };
    let name = named(chosen).unwrap_or_default();
    let token = chosen.get("authToken").and_then(Value::as_str).unwrap_or_default();
    let mut warnings = Vec::new();
    let node_version = feed.pointer("/nodeSettings/nodeVersion").and_then(Value::as_str).unwrap_or_default();
    let version = match Release::feed(node_version) {
        Some(release) => release.version.to_owned(),
        None => {
            let newest = Release::newest(Target::NEWEST_RELEASED).map_or("", |release| release.version);
            warnings.push(Diagnostic {
                severity: Severity::Warning,
                ..Diagnostic::new(
                    Code::BadArgument,
                    "/nodeSettings/nodeVersion",
                    format!("nodeVersion \"{node_version}\" is no released Airnode Feed: the Signed API's version is written {newest}, which must equal the Signed API you run"),
                )
            });
            newest.to_owned()
        }
    };
    let read = |variable: &str| json!([format!("${{{variable}}}")]);
    let mut endpoints = vec![
        json!({"urlPath": "/real-time", "authTokens": read(REAL_TIME_TOKEN), "delaySeconds": 0, "isOev": false}),
        json!({"urlPath": "/oev", "authTokens": read(OEV_TOKEN), "delaySeconds": 0, "isOev": true}),
    ];
    if let Some(delay) = options.delayed {
        endpoints.push(json!({"urlPath": "/delayed", "authTokens": null, "delaySeconds": delay, "isOev": false}));
    }
    let config = json!({
        "endpoints": endpoints,
        "allowedAirnodes": [{"address": options.airnode, "authTokens": [token], "isCertified": false}],
        "stage": feed.pointer("/nodeSettings/stage").and_then(Value::as_str).unwrap_or("local"),
        "version": version,
    });
    let pushed = crate::node::referenced_names(token).next().unwrap_or_default();
    let name = super::secrets::comment(name);
    let carried = options
        .push_tokens
        .get(pushed)
        .filter(|value| !value.is_empty())
        .map(|value| super::secrets::quoted(value))
        .unwrap_or_default();
    let secrets_env = format!(
        "\n# The token Airnode Feed sends when it pushes to \"{name}\" (the same value as in the Feed's secrets)\n{pushed}={carried}\n\
         \n# Who may read the real-time data (GET /real-time/AIRNODE with \"Authorization: Bearer <token>\")\n{REAL_TIME_TOKEN}=\n\
         \n# Who may read the OEV data (GET /oev/AIRNODE)\n{OEV_TOKEN}=\n"
    );
    Ok(NodeScaffold { config, secrets_env, warnings })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_feed_s_token_version_and_stage_carry_over() {
        let feed = json!({
            "nodeSettings": {"nodeVersion": "4.2.0", "stage": "staging"},
            "signedApis": [{"name": "local", "url": "http://127.0.0.1:8090", "authToken": "${SIGNED_API_LOCAL_AUTH_TOKEN}"}]
        });
        let options = SignedApiOptions { airnode: "0xA".into(), delayed: Some(60), ..SignedApiOptions::default() };
        let made = signed_api_config(&feed, &options).unwrap_or_else(|e| panic!("{}", e.message));
        assert_eq!(made.config["version"], "4.2.0");
        assert_eq!(made.config["stage"], "staging");
        assert_eq!(made.config["allowedAirnodes"][0]["authTokens"], json!(["${SIGNED_API_LOCAL_AUTH_TOKEN}"]));
        assert_eq!(made.config["endpoints"][2]["delaySeconds"], 60);
        assert!(made.secrets_env.contains("SIGNED_API_LOCAL_AUTH_TOKEN=\n"), "{}", made.secrets_env);
        assert!(made.warnings.is_empty());
        // A name holding a line break stays in its comment: it adds no line of its own.
        let mut hostile = feed.clone();
        hostile["signedApis"][0]["name"] = json!("local\nAIRNODE_WALLET_MNEMONIC=x\r\nB=y");
        let options_named =
            SignedApiOptions { name: Some("local\nAIRNODE_WALLET_MNEMONIC=x\r\nB=y".into()), ..options.clone() };
        let made_hostile = signed_api_config(&hostile, &options_named).unwrap_or_else(|e| panic!("{}", e.message));
        let lines: Vec<&str> =
            made_hostile.secrets_env.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).collect();
        assert_eq!(lines, ["SIGNED_API_LOCAL_AUTH_TOKEN=", "SIGNED_API_REAL_TIME_TOKEN=", "SIGNED_API_OEV_TOKEN="]);
        let two = json!({"signedApis": [{"name": "a"}, {"name": "b"}]});
        let refused = signed_api_config(&two, &options).err().map(|e| e.message).unwrap_or_default();
        assert!(refused.contains("say which (a, b)"), "{refused}");
    }
}
