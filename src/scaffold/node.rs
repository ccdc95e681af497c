//! Whole node configurations next to OIS objects: an Airnode Feed config (endpoints and templates
//! keyed by their derived IDs, a signed API update per template) and an Airnode 0.15 config.json
//! (a placeholder chain, node settings, triggers for every endpoint), each with its secrets.env
//! template. Secrets are `${NAME}` placeholders, never values.

use serde_json::{Map, Value, json};

use super::config_described;
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::node::ids::{TemplateParameter, encode_parameters, feed_template_id, parameters_from_json, parse_template};
use crate::node::{MNEMONIC_SECRET, Target, endpoint_id, signed_api_token_secret};
use crate::ois::model::FormatFamily;

/// One data feed: an endpoint and its template parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feed {
    /// The title of the OIS whose endpoint it is; `None`: the one OIS with an endpoint of that
    /// name.
    pub ois_title: Option<String>,
    /// The endpoint's name (of one of the OIS objects).
    pub endpoint: String,
    /// Its template parameters.
    pub parameters: Vec<TemplateParameter>,
}

impl Feed {
    /// A feed written on one line, `ENDPOINT:NAME=TYPE:VALUE,...` (see [`parse_template`]);
    /// `noun` (`feed`, `template`) starts the message of a refusal.
    pub fn parse(text: &str, noun: &str) -> Result<Feed, Diagnostic> {
        let (endpoint, parameters) = parse_template(text).map_err(|mut refused| {
            refused.message = format!("{noun} {}", refused.message);
            refused
        })?;
        Ok(Feed { ois_title: None, endpoint, parameters })
    }

    /// Feeds (or templates) from a file's JSON, `[{"endpoint": …, "parameters": [{type, name,
    /// value}]}]`; `file` names it in messages.
    pub fn list_from_json(list: &Value, file: &str) -> Result<Vec<Feed>, Diagnostic> {
        list.as_array()
            .into_iter()
            .flatten()
            .map(|item| {
                let endpoint = item.get("endpoint").and_then(Value::as_str).ok_or_else(|| {
                    Diagnostic::elsewhere(
                        Code::BadArgument,
                        format!("{file}: each template needs \"endpoint\" and \"parameters\""),
                    )
                })?;
                let parameters = parameters_from_json(item.get("parameters").unwrap_or(&Value::Null))?;
                Ok(Feed { ois_title: None, endpoint: endpoint.to_owned(), parameters })
            })
            .collect()
    }
}

/// How an Airnode Feed config is written.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct FeedOptions {
    /// `nodeSettings.nodeVersion`.
    pub node_version: String,
    /// The signed APIs to push to: (name, URL). None: one placeholder.
    pub signed_apis: Vec<(String, String)>,
    /// Seconds between API calls of each trigger.
    pub fetch_interval: u64,
    /// Groups of template indexes that one trigger serves (templates of one endpoint whose
    /// pre-processed parameters are equal, found by the caller); `None`: a trigger per template.
    pub batches: Option<Vec<Vec<usize>>>,
    /// Refuse an OIS whose `oisFormat` the node does not read, rather than note it (a target was
    /// asked for).
    pub require_format: bool,
}

impl Default for FeedOptions {
    fn default() -> Self {
        FeedOptions {
            node_version: Target::NEWEST_RELEASED.node_version().to_owned(),
            signed_apis: Vec::new(),
            fetch_interval: 5,
            batches: None,
            require_format: false,
        }
    }
}

/// A generated configuration and its secrets.env template.
#[derive(Clone, Debug)]
pub struct NodeScaffold {
    /// The configuration.
    pub config: Value,
    /// One line per secret it refers to.
    pub secrets_env: String,
    /// Warnings (template values the encoder reads otherwise than they read).
    pub warnings: Vec<Diagnostic>,
}

/// The OIS objects as they go into a config the node interpolates: every `${` not already
/// escaped gets its `\`, so the node runs snippets (and sends values) as the OIS wrote them; each
/// is noted. And a warning for an OIS whose `oisFormat` the node does not read.
fn embeddable(oises: &[Value], family: FormatFamily, node: &str) -> (Vec<Value>, Vec<Diagnostic>) {
    let mut notes = Vec::new();
    let mut out = Vec::new();
    for (index, ois) in oises.iter().enumerate() {
        let mut ois = ois.clone();
        let mut at = format!("/ois/{index}");
        let _ = crate::pointer::try_for_each_template_mut(&mut ois, &mut at, &mut |text, at| {
            // A server URL's secret is the node's to fill (checked by validation before this).
            let server_secret = crate::ois::templates::is_server_url(at)
                && crate::node::server_url_secret_problem(text, crate::node::is_node_secret).is_none();
            if crate::ois::templates::has_unescaped(text) && !server_secret {
                *text = escape_unescaped(text);
                notes.push(with_severity(
                    Code::UnescapedTemplate,
                    Severity::Note,
                    format!("{at}: each unescaped `${{` is written `\\${{` in the config, so that the node's secrets interpolation gives back the text as the OIS has it"),
                ));
            }
            Ok::<(), ()>(())
        });
        if let Err(mismatch) = require_family(std::slice::from_ref(&ois), family, node) {
            notes.push(Diagnostic { severity: Severity::Warning, ..mismatch });
        }
        out.push(ois);
    }
    (out, notes)
}

/// A diagnostic about the scaffold, told with less weight than its code has elsewhere: the
/// scaffold is written all the same.
fn with_severity(code: Code, severity: Severity, message: String) -> Diagnostic {
    let mut diagnostic = Diagnostic::elsewhere(code, message);
    diagnostic.severity = severity;
    diagnostic
}

/// `\` before every `${` that has none.
fn escape_unescaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut previous = '\0';
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek() == Some(&'{') && previous != '\\' {
            out.push('\\');
        }
        out.push(c);
        previous = c;
    }
    out
}

fn find_endpoint<'o>(oises: &'o [Value], title: Option<&str>, name: &str) -> Result<&'o str, Diagnostic> {
    let owners: Vec<&str> = oises
        .iter()
        .filter(|ois| title.is_none_or(|title| ois.get("title").and_then(Value::as_str) == Some(title)))
        .filter(|ois| {
            ois.get("endpoints")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .any(|e| e.get("name").and_then(Value::as_str) == Some(name))
        })
        .filter_map(|ois| ois.get("title").and_then(Value::as_str))
        .collect();
    match owners.as_slice() {
        [title] => Ok(title),
        [] => Err(Diagnostic::elsewhere(Code::UnknownEndpoint, format!("no OIS has an endpoint \"{name}\""))),
        _ => Err(Diagnostic::elsewhere(
            Code::UnknownEndpoint,
            format!("several OIS objects have an endpoint \"{name}\" ({})", owners.join(", ")),
        )),
    }
}

/// An Airnode Feed configuration for `oises` serving `feeds`.
pub fn feed_config(oises: &[Value], feeds: &[Feed], options: &FeedOptions) -> Result<NodeScaffold, Diagnostic> {
    let family = if options.node_version.starts_with("4.") { FormatFamily::V3_0 } else { FormatFamily::V2_3 };
    let node = format!("Airnode Feed {}", options.node_version);
    if options.require_format {
        require_family(oises, family, &node)?;
    }
    let (embedded, mut warnings) = embeddable(oises, family, &node);
    let base = config_described(oises, |_, _| None);
    warnings.extend(base.notes.iter().cloned());
    let mut endpoints = Map::new();
    let mut templates = Map::new();
    let mut template_ids = Vec::new();
    for feed in feeds {
        let title = find_endpoint(oises, feed.ois_title.as_deref(), &feed.endpoint)?;
        let endpoint = endpoint_id(title, &feed.endpoint);
        endpoints.insert(endpoint.clone(), json!({"oisTitle": title, "endpointName": feed.endpoint}));
        let encoded = encode_parameters(&feed.parameters)?;
        warnings.extend(encoded.surprises);
        let id = endpoint.parse().map(|e| feed_template_id(e, &encoded.bytes).to_string()).unwrap_or_default();
        let parameters: Vec<Value> = feed
            .parameters
            .iter()
            .map(|p| json!({"name": p.name, "type": p.kind, "value": crate::js::string(&p.value)}))
            .collect();
        templates.insert(id.clone(), json!({"endpointId": endpoint, "parameters": parameters}));
        template_ids.push(id);
    }
    let groups: Vec<Vec<usize>> =
        options.batches.clone().unwrap_or_else(|| (0..template_ids.len()).map(|i| vec![i]).collect());
    let mut updates = Vec::new();
    // A feed given twice is one template, served once.
    let mut served = std::collections::HashSet::new();
    for group in groups {
        let ids: Vec<&String> =
            group.iter().filter_map(|i| template_ids.get(*i)).filter(|id| served.insert(id.as_str())).collect();
        if !ids.is_empty() {
            updates.push(json!({"templateIds": ids, "fetchInterval": options.fetch_interval}));
        }
    }
    let placeholder = [("signed-api".to_owned(), "https://signed-api.example.com".to_owned())];
    let pushed_to = if options.signed_apis.is_empty() { &placeholder[..] } else { &options.signed_apis[..] };
    // Each signed API has its own token: one leaked or rotated does not touch the others.
    let tokens: Vec<String> = pushed_to.iter().map(|(name, _)| signed_api_token_secret(name)).collect();
    let signed_apis: Vec<Value> = pushed_to
        .iter()
        .zip(&tokens)
        .map(|((name, url), token)| json!({"name": name, "url": url, "authToken": format!("${{{token}}}")}))
        .collect();
    let config = json!({
        "apiCredentials": base.config.get("apiCredentials").cloned().unwrap_or_else(|| json!([])),
        "endpoints": endpoints,
        "nodeSettings": {"nodeVersion": options.node_version, "airnodeWalletMnemonic": format!("${{{MNEMONIC_SECRET}}}"), "stage": "local"},
        "ois": embedded,
        "signedApis": signed_apis,
        "templates": templates,
        "triggers": {"signedApiUpdates": updates},
    });
    let mut secrets_env = base.secrets_env;
    secrets_env.push_str(&format!(
        "\n# The node's wallet: a BIP-39 mnemonic (its address is the Airnode address the IDs derive from)\n{MNEMONIC_SECRET}=\n"
    ));
    let mut written = std::collections::HashSet::new();
    for ((name, _), token) in pushed_to.iter().zip(&tokens).filter(|(_, token)| written.insert(token.as_str())) {
        secrets_env.push_str(&format!(
            "\n# The token signed API \"{}\" expects (Authorization: Bearer <token>)\n{token}=\n",
            super::secrets::comment(name)
        ));
    }
    Ok(NodeScaffold { config, secrets_env, warnings })
}

/// How an Airnode config.json is written.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct AirnodeOptions {
    /// Add an HTTP gateway trigger for every endpoint.
    pub http_gateway: bool,
    /// Add an HTTP signed-data gateway trigger for every endpoint.
    pub signed_http_gateway: bool,
    /// The port the gateways listen on (`None`: the node's default, 3000).
    pub gateway_port: Option<u16>,
    /// How many gateway requests each gateway serves at once (`None`: 20).
    pub gateway_max_concurrency: Option<u64>,
    /// The chains served, by ID (none: one whose ID is a secret, `CHAIN_ID`).
    pub chains: Vec<String>,
    /// The gas price, in gwei, when the provider recommends none (the last of the gas price
    /// strategies; `None`: 10).
    pub gas_price_gwei: Option<u64>,
    /// Blocks a request waits for before it is served (`None`: the node's default, 0).
    pub min_confirmations: Option<u64>,
    /// RequesterAuthorizerWithAirnode contracts on every chain: only the requesters they allow are
    /// served (none: every requester whose sponsor funds a wallet).
    pub requester_authorizers: Vec<String>,
    /// Refuse an OIS whose `oisFormat` Airnode 0.15 does not read, rather than note it.
    pub require_format: bool,
}

/// An Airnode 0.15 config.json for `oises`: an RRP trigger per endpoint, one placeholder chain.
pub fn airnode_config(oises: &[Value], options: &AirnodeOptions) -> Result<NodeScaffold, Diagnostic> {
    let node = Target::Airnode015.node().title;
    if options.require_format {
        require_family(oises, FormatFamily::V2_3, node)?;
    }
    let (embedded, mut warnings) = embeddable(oises, FormatFamily::V2_3, node);
    let base = config_described(oises, |_, _| None);
    warnings.extend(base.notes.iter().cloned());
    let mut rrp = Vec::new();
    for ois in oises {
        let title = ois.get("title").and_then(Value::as_str).unwrap_or_default();
        for name in ois
            .get("endpoints")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|e| e.get("name").and_then(Value::as_str))
        {
            rrp.push(json!({"endpointId": endpoint_id(title, name), "oisTitle": title, "endpointName": name, "cacheResponses": false}));
        }
    }
    let gateway = |enabled: bool| -> Vec<Value> {
        if !enabled {
            return Vec::new();
        }
        rrp.iter().map(|t| json!({"endpointId": t["endpointId"], "oisTitle": t["oisTitle"], "endpointName": t["endpointName"]})).collect()
    };
    let http = gateway(options.http_gateway);
    let signed = gateway(options.signed_http_gateway);
    let gateway_settings = |enabled: bool| {
        if enabled {
            json!({"enabled": true, "maxConcurrency": options.gateway_max_concurrency.unwrap_or(20), "corsOrigins": []})
        } else {
            json!({"enabled": false})
        }
    };
    let config = json!({
        "chains": chains(options),
        "nodeSettings": {
            "cloudProvider": match options.gateway_port {
                Some(port) => json!({"type": "local", "gatewayServerPort": port}),
                None => json!({"type": "local"}),
            },
            "airnodeWalletMnemonic": format!("${{{MNEMONIC_SECRET}}}"),
            "heartbeat": {"enabled": false},
            "httpGateway": gateway_settings(options.http_gateway),
            "httpSignedDataGateway": gateway_settings(options.signed_http_gateway),
            "oevGateway": {"enabled": false},
            "logFormat": "plain",
            "logLevel": "INFO",
            "nodeVersion": Target::Airnode015.node_version(),
            "stage": "local"
        },
        "triggers": {"rrp": rrp, "http": http, "httpSignedData": signed},
        "templates": [],
        "ois": embedded,
        "apiCredentials": base.config.get("apiCredentials").cloned().unwrap_or_else(|| json!([])),
    });
    let mut secrets_env = base.secrets_env;
    secrets_env.push_str(&format!("\n# The node's wallet: a BIP-39 mnemonic\n{MNEMONIC_SECRET}=\n"));
    if options.chains.is_empty() {
        secrets_env.push_str("\n# The chain: its ID, an RPC provider URL, and the AirnodeRrpV0 contract address on it\nCHAIN_ID=\nCHAIN_PROVIDER_URL=\nAIRNODE_RRP_ADDRESS=\n");
    }
    for id in &options.chains {
        let (url, rrp) = chain_secrets(id);
        secrets_env.push_str(&format!(
            "\n# Chain {id}: an RPC provider URL, and the AirnodeRrpV0 contract address on it\n{url}=\n{rrp}=\n"
        ));
    }
    Ok(NodeScaffold { config, secrets_env, warnings })
}

/// The secrets of chain `id`: its provider's URL and its AirnodeRrpV0's address.
fn chain_secrets(id: &str) -> (String, String) {
    let id: String = id.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' }).collect();
    (format!("CHAIN_{id}_PROVIDER_URL"), format!("CHAIN_{id}_AIRNODE_RRP_ADDRESS"))
}

/// The chains of an Airnode config: each with its provider and AirnodeRrpV0 as secrets, empty
/// authorizers (the node serves every requester whose sponsor funds a wallet), the provider's
/// recommended gas price (×1.2) with a constant one after it (the node's rule: last, and used when
/// the provider recommends none), and the node's defaults otherwise.
fn chains(options: &AirnodeOptions) -> Vec<Value> {
    let one = |id: Value, url: String, rrp: String| {
        let mut chain = json!({
            "authorizers": {"requesterEndpointAuthorizers": options.requester_authorizers, "crossChainRequesterAuthorizers": [],
                "requesterAuthorizersWithErc721": [], "crossChainRequesterAuthorizersWithErc721": []},
            "authorizations": {"requesterEndpointAuthorizations": {}},
            "contracts": {"AirnodeRrp": format!("${{{rrp}}}")},
            "id": id,
            "providers": {"provider": {"url": format!("${{{url}}}")}},
            "type": "evm",
            "options": {"fulfillmentGasLimit": 500000, "gasPriceOracle": [
                {"gasPriceStrategy": "providerRecommendedGasPrice", "recommendedGasPriceMultiplier": 1.2},
                {"gasPriceStrategy": "constantGasPrice", "gasPrice": {"value": options.gas_price_gwei.unwrap_or(10), "unit": "gwei"}}
            ]},
            "maxConcurrency": 100
        });
        if let (Some(blocks), Some(object)) = (options.min_confirmations, chain.as_object_mut()) {
            object.insert("minConfirmations".to_owned(), json!(blocks));
        }
        chain
    };
    if options.chains.is_empty() {
        return vec![one(json!("${CHAIN_ID}"), "CHAIN_PROVIDER_URL".to_owned(), "AIRNODE_RRP_ADDRESS".to_owned())];
    }
    options
        .chains
        .iter()
        .map(|id| {
            let (url, rrp) = chain_secrets(id);
            one(json!(id), url, rrp)
        })
        .collect()
}

/// The first OIS whose `oisFormat` is not of `family`, which `node` (named in the message) reads:
/// the node would refuse a config holding it.
pub fn require_family(oises: &[Value], family: FormatFamily, node: &str) -> Result<(), Diagnostic> {
    for ois in oises {
        let format = ois.get("oisFormat").and_then(Value::as_str).unwrap_or_default();
        if FormatFamily::of(format) != Some(family) {
            let title = ois.get("title").and_then(Value::as_str).unwrap_or_default();
            let wanted = family.default_version();
            return Err(Diagnostic::elsewhere(
                Code::BadOisFormat,
                format!("OIS \"{title}\" has oisFormat \"{format}\", and {node} reads only {}: it would refuse the config", family.name()),
            )
            .with_help(format!("convert the API again for this node (oisFormat \"{wanted}\"), or scaffold for a node that reads {format}")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_unescaped_templates_are_escaped() {
        assert_eq!(escape_unescaped("`${a}` and \\${b} and $x {c}"), "`\\${a}` and \\${b} and $x {c}");
        let (oises, notes) =
            embeddable(&[json!({"oisFormat": "2.3.2", "title": "T", "v": "${x}"})], FormatFamily::V2_3, "Airnode");
        assert_eq!(oises[0]["v"], "\\${x}");
        assert_eq!(notes.len(), 1);
        let (_, notes) =
            embeddable(&[json!({"oisFormat": "3.0.0", "title": "T"})], FormatFamily::V2_3, "Airnode 0.15.0");
        assert!(notes[0].message.contains("reads only 2.3.x"), "{}", notes[0].message);
    }
}
