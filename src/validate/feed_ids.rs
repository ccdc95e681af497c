//! Re-deriving every ID of an Airnode Feed config: its `endpoints` and `templates` keys, each
//! template's `endpointId`, the triggers' `templateIds`. Each mismatch says what the ID should be.
//! (An Airnode config.json's IDs are checked by the validator: OIS067, OIS070.)

use alloy_primitives::B256;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::node::endpoint_id;
use crate::node::ids::{encode_parameters, feed_template_id, parameters_from_json};
use crate::pointer;

fn mismatch(at: String, message: String) -> Diagnostic {
    Diagnostic::new(Code::IdMismatch, at, message)
}

/// Every ID of an Airnode Feed config that is not derived from what it names, and every template
/// whose parameters the encoder refuses or reads surprisingly.
pub fn verify_feed(config: &Value) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let empty = serde_json::Map::new();
    let endpoints = config.get("endpoints").and_then(Value::as_object).unwrap_or(&empty);
    for (id, endpoint) in endpoints {
        let at = pointer::join("/endpoints", [id.as_str()]);
        let (Some(title), Some(name)) =
            (endpoint.get("oisTitle").and_then(Value::as_str), endpoint.get("endpointName").and_then(Value::as_str))
        else {
            found.push(mismatch(at, format!("endpoint {id} has no oisTitle and endpointName to derive it from")));
            continue;
        };
        let expected = endpoint_id(title, name);
        if *id != expected {
            found.push(mismatch(
                at,
                format!("endpoint ID {id} is not derived from (\"{title}\", \"{name}\"): it should be {expected}"),
            ));
        }
    }
    let templates = config.get("templates").and_then(Value::as_object).unwrap_or(&empty);
    for (id, template) in templates {
        let at = pointer::join("/templates", [id.as_str()]);
        let endpoint = template.get("endpointId").and_then(Value::as_str).unwrap_or_default();
        if !endpoints.contains_key(endpoint) {
            found.push(mismatch(
                format!("{at}/endpointId"),
                format!("template {id} names endpoint {endpoint}, which `endpoints` lacks"),
            ));
        }
        let encoded = parameters_from_json(template.get("parameters").unwrap_or(&Value::Null))
            .and_then(|p| encode_parameters(&p));
        let encoded = match encoded {
            Ok(encoded) => encoded,
            Err(error) => {
                found.push(Diagnostic::new(error.code, format!("{at}/parameters"), error.message));
                continue;
            }
        };
        found.extend(
            encoded.surprises.into_iter().map(|s| Diagnostic::new(s.code, format!("{at}/parameters"), s.message)),
        );
        let Ok(endpoint_id) = endpoint.parse::<B256>() else {
            found.push(mismatch(format!("{at}/endpointId"), format!("\"{endpoint}\" is not a 32-byte hex ID")));
            continue;
        };
        let expected = feed_template_id(endpoint_id, &encoded.bytes).to_string();
        if *id != expected {
            found.push(mismatch(
                at,
                format!(
                    "template ID {id} is not keccak256(abi.encodePacked(endpointId, encodedParameters)): it should be {expected}"
                ),
            ));
        }
    }
    let updates =
        config.pointer("/triggers/signedApiUpdates").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for (index, update) in updates.iter().enumerate() {
        for (position, template) in
            update.get("templateIds").and_then(Value::as_array).into_iter().flatten().enumerate()
        {
            let id = template.as_str().unwrap_or_default();
            if !templates.contains_key(id) {
                found.push(mismatch(
                    format!("/triggers/signedApiUpdates/{index}/templateIds/{position}"),
                    format!("the trigger names template {id}, which `templates` lacks"),
                ));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn feed() -> Value {
        let endpoint = endpoint_id("Nodary", "feed");
        let parameters = json!([{"type": "string32", "name": "name", "value": "BTC/USD"}]);
        let encoded = encode_parameters(&parameters_from_json(&parameters).unwrap()).unwrap();
        let template = feed_template_id(endpoint.parse().unwrap(), &encoded.bytes).to_string();
        json!({
            "endpoints": {endpoint.clone(): {"oisTitle": "Nodary", "endpointName": "feed"}},
            "templates": {template.clone(): {"endpointId": endpoint, "parameters": parameters}},
            "triggers": {"signedApiUpdates": [{"templateIds": [template]}]}
        })
    }

    #[test]
    fn a_derived_feed_config_verifies_and_each_broken_key_is_caught() {
        assert_eq!(verify_feed(&feed()), vec![]);
        let mut wrong_endpoint = feed();
        wrong_endpoint["endpoints"][endpoint_id("Nodary", "feed")]["endpointName"] = json!("other");
        let found = verify_feed(&wrong_endpoint);
        assert_eq!(found.len(), 1);
        assert!(found[0].message.contains(&format!("it should be {}", endpoint_id("Nodary", "other"))));
        let mut wrong_value = feed();
        let key = wrong_value["templates"].as_object().unwrap().keys().next().unwrap().clone();
        wrong_value["templates"][&key]["parameters"][0]["value"] = json!("ETH/USD");
        assert_eq!(verify_feed(&wrong_value)[0].code, Code::IdMismatch);
        let mut dangling = feed();
        dangling["triggers"]["signedApiUpdates"][0]["templateIds"] = json!(["0x01"]);
        assert!(verify_feed(&dangling)[0].message.contains("which `templates` lacks"));
    }
}
