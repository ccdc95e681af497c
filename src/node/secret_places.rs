//! Where a node config may name each of the node's own secrets. The node sends what its config
//! says where its config says: a mnemonic written as a signed API's token is pushed as a bearer
//! token to whoever runs that URL. So each of the node's secrets has one kind of place — the
//! mnemonic its setting, a signed API's token the token slots, a chain's settings the chains,
//! the rest of the node's settings their section — and anywhere else (a URL, a template's value,
//! an OIS, an API credential, another kind of slot) is an error.

use indexmap::IndexMap;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};

/// The kinds of place a config's text can be in, as far as the node's secrets go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// `nodeSettings.airnodeWalletMnemonic`: the wallet the node signs with.
    Mnemonic,
    /// `signedApis[].authToken`: what the Feed sends the signed API it pushes to.
    SignedApiToken,
    /// `chains[]`: an Airnode's chains, their providers and contracts.
    Chain,
    /// The rest of `nodeSettings`: the heartbeat, the gateways, the cloud.
    NodeSetting,
    /// `apiCredentials[]`: sent to an API.
    ApiCredential,
    /// Anything else: URLs, templates, triggers, endpoints, an OIS.
    Elsewhere,
}

impl Place {
    fn of(pointer: &str) -> Place {
        let mut tokens = pointer.split('/').skip(1);
        match (tokens.next(), tokens.next(), tokens.next()) {
            (Some("nodeSettings"), Some("airnodeWalletMnemonic"), None) => Place::Mnemonic,
            (Some("signedApis"), Some(_), Some("authToken")) if tokens.next().is_none() => Place::SignedApiToken,
            (Some("chains"), ..) => Place::Chain,
            (Some("nodeSettings"), ..) => Place::NodeSetting,
            (Some("apiCredentials"), ..) => Place::ApiCredential,
            _ => Place::Elsewhere,
        }
    }

    /// The place a secret named `name` belongs in by its name alone, as the scaffolds name the
    /// node's secrets ([`super::is_node_secret`]).
    fn by_name(name: &str) -> Option<Place> {
        if name.contains("MNEMONIC") {
            Some(Place::Mnemonic)
        } else if name.starts_with("SIGNED_API") && name.ends_with("TOKEN") {
            Some(Place::SignedApiToken)
        } else if name.ends_with("_PROVIDER_URL") || name.ends_with("AIRNODE_RRP_ADDRESS") || name == "CHAIN_ID" {
            Some(Place::Chain)
        } else if super::is_node_secret(name) {
            Some(Place::NodeSetting)
        } else {
            None
        }
    }

    /// What the node does with a secret of this place, for a message.
    fn secret(self) -> &'static str {
        match self {
            Place::Mnemonic => "the node's wallet mnemonic",
            Place::SignedApiToken => "a signed API's token",
            Place::Chain => "a chain setting of the node's",
            Place::NodeSetting | Place::ApiCredential | Place::Elsewhere => "one of the node's own settings",
        }
    }

    /// What happens to a secret written here, for a message.
    fn fate(self) -> &'static str {
        match self {
            Place::SignedApiToken => "the Feed would send it as its bearer token to that signed API",
            Place::ApiCredential => "the node would send it to the API",
            Place::Mnemonic | Place::Chain | Place::NodeSetting => {
                "the node would use it for another of its settings, where it is not kept as this secret is"
            }
            Place::Elsewhere => "the node would fill it in here, and send or publish it with the rest",
        }
    }
}

/// Where each node secret of `config` belongs: by its name, or where the config first writes it
/// in a place of the node's own (the mnemonic's place first, then a token's, a chain's, a
/// setting's). Also the literal secrets written in the mnemonic's or a token's place.
fn homes(config: &Value) -> (IndexMap<String, Place>, IndexMap<String, Place>) {
    let mut named = IndexMap::new();
    let mut literals = IndexMap::new();
    for place in [Place::Mnemonic, Place::SignedApiToken, Place::Chain, Place::NodeSetting] {
        each_text(config, &mut |text, at| {
            if Place::of(at) != place {
                return;
            }
            let mut names = super::referenced_names(text).peekable();
            if names.peek().is_none() && matches!(place, Place::Mnemonic | Place::SignedApiToken) {
                let literal = text.trim();
                if literal.len() >= SHORTEST_LITERAL_SECRET {
                    literals.entry(literal.to_owned()).or_insert(place);
                }
                return;
            }
            for name in names {
                named.entry(name.to_owned()).or_insert(place);
            }
        });
    }
    (named, literals)
}

/// A literal token shorter than this is too likely to be a word of some other text (`"local"`).
/// Validating keeps of a field no document allows only the texts this long or longer (and any
/// `${`): the one length serves both.
const SHORTEST_LITERAL_SECRET: usize = crate::source::KEY_ONLY_TEXT;

/// Every text of `config`, keys included, with its pointer.
fn each_text(config: &Value, visit: &mut impl FnMut(&str, &str)) {
    crate::pointer::for_each_text(config, "", &mut |text, place| visit(text, &place.pointer()));
}

/// Every place `config` names one of the node's own secrets where the node does not keep it:
/// an API credential naming one (OIS081), or any other text outside its place (OIS091) — the
/// mnemonic as a signed API's token or in its URL, a token in a template's value, a provider URL
/// in an OIS. `also` names more secrets the node keeps for itself (another config's, run beside
/// this one), which this config may name nowhere.
pub fn node_secrets_out_of_place(config: &Value, also: &[String]) -> Vec<Diagnostic> {
    if !config.is_object() {
        return Vec::new();
    }
    let (named, literals) = homes(config);
    let home = |name: &str| Place::by_name(name).or_else(|| named.get(name).copied());
    // Every literal secret sought in each text at once: linear in the config, however many.
    let finder = aho_corasick::AhoCorasick::new(literals.keys()).ok();
    let mut found = Vec::new();
    each_text(config, &mut |text, at| {
        let here = Place::of(at);
        for name in super::referenced_names(text) {
            // Another config's node secret may be this one's too (a staging copy names the same
            // variables): only where it would reach an API is it refused.
            let foreign = also.iter().any(|other| other == name);
            let owner = if foreign {
                matches!(here, Place::ApiCredential | Place::Elsewhere).then_some(Place::NodeSetting)
            } else {
                home(name).filter(|&owner| owner != here)
            };
            if let Some(owner) = owner {
                found.push(out_of_place(at, here, &format!("${{{name}}}"), owner, foreign));
            }
        }
        let Some(finder) = &finder else { return };
        let owner = finder
            .find_iter(text)
            .filter_map(|hit| literals.get_index(hit.pattern().as_usize()).map(|(_, owner)| *owner))
            .find(|&owner| owner != here);
        if let Some(owner) = owner {
            found.push(out_of_place(at, here, "a secret written out here", owner, false));
        }
    });
    found
}

fn out_of_place(at: &str, here: Place, what: &str, owner: Place, other_config: bool) -> Diagnostic {
    let whose = if other_config { "a secret the other config keeps for its node" } else { owner.secret() };
    let (code, help) = if here == Place::ApiCredential {
        (
            Code::NodeSecretAsCredential,
            "give the API credential a secret of its own (the scaffolds name it after the OIS title and scheme)",
        )
    } else {
        (
            Code::NodeSecretOutOfPlace,
            "name here a secret of its own; the node's own secrets belong only where the node uses them for itself",
        )
    };
    Diagnostic::new(code, at, format!("{what} is {whose}: {}", here.fate())).with_help(help)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn found(config: &Value, also: &[&str]) -> Vec<String> {
        let also: Vec<String> = also.iter().map(|name| (*name).to_owned()).collect();
        node_secrets_out_of_place(config, &also).iter().map(|d| format!("{} {}", d.code, d.pointer())).collect()
    }

    fn feed() -> Value {
        json!({
            "nodeSettings": {"airnodeWalletMnemonic": "${SEED_WORDS}", "nodeVersion": "4.6.0", "stage": "local"},
            "signedApis": [{"name": "a", "url": "https://a.example", "authToken": "${PUSH_TOKEN}"}],
            "templates": {"0x1": {"parameters": [{"name": "p", "type": "string32", "value": "x"}]}},
            "apiCredentials": [{"securitySchemeValue": "${API_KEY}"}],
            "ois": [{"title": "T"}]
        })
    }

    #[test]
    fn a_config_s_own_secrets_in_their_places_pass() {
        assert!(found(&feed(), &[]).is_empty());
        let airnode = json!({
            "chains": [{"providers": {"p": {"url": "${CHAIN_PROVIDER_URL}"}}, "id": "${CHAIN_ID}"}],
            "nodeSettings": {"airnodeWalletMnemonic": "${AIRNODE_WALLET_MNEMONIC}",
                "heartbeat": {"apiKey": "${HEARTBEAT_API_KEY}", "url": "${HEARTBEAT_URL}"}},
            "apiCredentials": [{"securitySchemeValue": "${API_KEY}"}]
        });
        assert!(found(&airnode, &[]).is_empty());
    }

    #[test]
    fn the_mnemonic_anywhere_else_is_refused() {
        for at in ["/signedApis/0/authToken", "/signedApis/0/url", "/templates/0x1/parameters/0/value", "/ois/0/title"]
        {
            let mut config = feed();
            *config.pointer_mut(at).unwrap() = json!("https://x/${SEED_WORDS}");
            assert_eq!(found(&config, &[]), [format!("OIS091 {at}")], "{at}");
        }
        let mut config = feed();
        config["apiCredentials"][0]["securitySchemeValue"] = json!("${SEED_WORDS}");
        assert_eq!(found(&config, &[]), ["OIS081 /apiCredentials/0/securitySchemeValue"]);
        // By its name alone, the mnemonic's even where the config names another.
        config["apiCredentials"][0]["securitySchemeValue"] = json!("${AIRNODE_WALLET_MNEMONIC}");
        config["signedApis"][0]["authToken"] = json!("${AIRNODE_WALLET_MNEMONIC}");
        assert_eq!(
            found(&config, &[]),
            ["OIS091 /signedApis/0/authToken", "OIS081 /apiCredentials/0/securitySchemeValue"]
        );
    }

    #[test]
    fn a_token_stays_in_the_token_slots() {
        let mut config = feed();
        config["signedApis"][0]["url"] = json!("https://a.example/${PUSH_TOKEN}");
        config["nodeSettings"]["stage"] = json!("${PUSH_TOKEN}");
        assert_eq!(found(&config, &[]), ["OIS091 /nodeSettings/stage", "OIS091 /signedApis/0/url"]);
        // Two signed APIs sharing a token is the node's own use.
        let mut shared = feed();
        let second = json!({"name": "b", "url": "https://b.example", "authToken": "${PUSH_TOKEN}"});
        shared["signedApis"].as_array_mut().unwrap().push(second);
        assert!(found(&shared, &[]).is_empty());
    }

    #[test]
    fn a_literal_mnemonic_or_token_is_found_too() {
        let mut config = feed();
        config["nodeSettings"]["airnodeWalletMnemonic"] =
            json!("test test test test test test test test test test test junk");
        config["signedApis"][0]["authToken"] = json!("test test test test test test test test test test test junk");
        assert_eq!(found(&config, &[]), ["OIS091 /signedApis/0/authToken"]);
        let mut config = feed();
        config["signedApis"][0]["authToken"] = json!("a-long-push-token");
        config["templates"]["0x1"]["parameters"][0]["value"] = json!("a-long-push-token");
        assert_eq!(found(&config, &[]), ["OIS091 /templates/0x1/parameters/0/value"]);
    }

    #[test]
    fn another_config_s_node_secrets_reach_no_api() {
        let mut config = feed();
        config["apiCredentials"][0]["securitySchemeValue"] = json!("${THEIR_SEED}");
        config["templates"]["0x1"]["parameters"][0]["value"] = json!("${THEIR_TOKEN}");
        assert_eq!(
            found(&config, &["THEIR_SEED", "THEIR_TOKEN"]),
            ["OIS091 /templates/0x1/parameters/0/value", "OIS081 /apiCredentials/0/securitySchemeValue"]
        );
        // A staging copy keeps its node secrets under the same names: its own places.
        assert!(found(&feed(), &["SEED_WORDS", "PUSH_TOKEN"]).is_empty());
    }

    #[test]
    fn an_escaped_reference_names_no_secret() {
        let mut config = feed();
        config["apiCredentials"][0]["securitySchemeValue"] = json!("\\${SEED_WORDS}");
        config["signedApis"][0]["url"] = json!("https://a.example/\\${PUSH_TOKEN}");
        assert!(found(&config, &[]).is_empty());
    }
}
