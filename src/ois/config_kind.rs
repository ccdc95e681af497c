//! What kind of node configuration a document is: one answer for every command and the studio.

use serde_json::Value;

/// The node configurations `ois` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ConfigKind {
    /// An Airnode Feed config: `templates` and `endpoints` keyed by ID, signed API triggers.
    AirnodeFeed,
    /// An Airnode config.json: `chains`, RRP triggers, `templates` a list.
    Airnode,
    /// A Signed API config: `endpoints` a list, `allowedAirnodes`.
    SignedApi,
    /// The part of a config.json `ois config` writes: `ois` and `apiCredentials` alone.
    Fragment,
}

impl ConfigKind {
    /// The kind of `config`, `None` for a document that is no node configuration (an OIS, a
    /// list of them, an OpenAPI document).
    pub fn of(config: &Value) -> Option<ConfigKind> {
        let has = |pointer: &str| config.pointer(pointer).is_some();
        let bare_ois = has("/oisFormat") || has("/apiSpecifications");
        let signed_api_shape = config.get("endpoints").is_some_and(Value::is_array) && has("/version") && !has("/ois");
        if has("/allowedAirnodes") || (signed_api_shape && !bare_ois) {
            return Some(ConfigKind::SignedApi);
        }
        if config.get("templates").is_some_and(Value::is_object)
            || has("/triggers/signedApiUpdates")
            || has("/signedApis")
        {
            return Some(ConfigKind::AirnodeFeed);
        }
        if has("/chains") || has("/triggers/rrp") {
            return Some(ConfigKind::Airnode);
        }
        config.get("ois").is_some_and(Value::is_array).then_some(ConfigKind::Fragment)
    }

    /// What people call it.
    pub fn title(self) -> &'static str {
        match self {
            ConfigKind::AirnodeFeed => "an Airnode Feed config",
            ConfigKind::Airnode => "an Airnode config.json",
            ConfigKind::SignedApi => "a Signed API config",
            ConfigKind::Fragment => "a config.json fragment",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_kind_is_told_by_what_only_it_has() {
        let cases = [
            (json!({"ois": [], "templates": {}, "triggers": {"signedApiUpdates": []}}), Some(ConfigKind::AirnodeFeed)),
            (json!({"ois": [], "signedApis": []}), Some(ConfigKind::AirnodeFeed)),
            (json!({"ois": [], "chains": [], "templates": []}), Some(ConfigKind::Airnode)),
            (json!({"ois": [], "triggers": {"rrp": []}}), Some(ConfigKind::Airnode)),
            (json!({"endpoints": [], "allowedAirnodes": "*", "version": "4.6.0"}), Some(ConfigKind::SignedApi)),
            (json!({"ois": [], "apiCredentials": []}), Some(ConfigKind::Fragment)),
            (json!({"oisFormat": "3.0.0", "version": "1.0.0", "endpoints": []}), None),
            (json!({"endpoints": [], "stage": "local", "version": "4.6.0"}), Some(ConfigKind::SignedApi)),
            (json!({"openapi": "3.0.0"}), None),
        ];
        for (config, kind) in cases {
            assert_eq!(ConfigKind::of(&config), kind, "{config}");
        }
    }
}
