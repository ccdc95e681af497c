//! A node config follows its OIS: when an endpoint is renamed, everything that names it by name or
//! by ID is renamed with it and its IDs re-derived — an Airnode Feed config's `endpoints` and
//! `templates` keys and its triggers' `templateIds`; a config.json's triggers and its RRP
//! templates (their IDs need the Airnode, so its mnemonic must be in the config). An endpoint
//! still named by a template or trigger cannot be removed.

use serde_json::{Map, Value};

use crate::diagnostic::{Code, Diagnostic, Fix, Severity};
use crate::node::ids::{encode_parameters, feed_template_id, parameters_from_json};
use crate::node::{endpoint_id, rrp_template_id};

fn refuse(message: String) -> Diagnostic {
    Diagnostic::elsewhere(Code::BadEdit, message)
}

fn text<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

/// Whether a config entry names endpoint `name` of `title`.
fn names(entry: &Value, title: &str, name: &str) -> bool {
    text(entry, "oisTitle") == Some(title) && text(entry, "endpointName") == Some(name)
}

/// `map` with the key `old` renamed to `new` (and its value changed by `change`), in its place.
fn rekeyed(
    map: &Map<String, Value>,
    renames: &[(String, String)],
    change: impl Fn(&str, &mut Value),
) -> Map<String, Value> {
    map.iter()
        .map(|(key, value)| {
            let key = renames.iter().find(|(old, _)| old == key).map_or_else(|| key.clone(), |(_, new)| new.clone());
            let mut value = value.clone();
            change(&key, &mut value);
            (key, value)
        })
        .collect()
}

/// Renames endpoint `old` of the OIS titled `title` to `new` everywhere `config` names it; the
/// notes say which IDs changed.
pub fn follow_rename(config: &mut Value, title: &str, old: &str, new: &str) -> Result<Vec<Diagnostic>, Diagnostic> {
    let (old_id, new_id) = (endpoint_id(title, old), endpoint_id(title, new));
    let mut notes = Vec::new();
    let mut changed = |what: &str, from: &str, to: &str| {
        let mut note = Diagnostic::elsewhere(Code::EditNote, format!("{what} {from} is now {to}"));
        note.severity = Severity::Note;
        notes.push(note);
    };
    if config.get("templates").is_some_and(Value::is_object) {
        // Airnode Feed: endpoints and templates keyed by ID.
        if let Some(endpoints) = config.get("endpoints").and_then(Value::as_object) {
            let renames: Vec<(String, String)> = endpoints
                .iter()
                .filter(|(_, e)| names(e, title, old))
                .map(|(key, _)| (key.clone(), new_id.clone()))
                .collect();
            let rekeyed = rekeyed(endpoints, &renames, |_, entry| {
                if names(entry, title, old) {
                    entry["endpointName"] = Value::String(new.to_owned());
                }
            });
            config["endpoints"] = Value::Object(rekeyed);
            for (from, to) in &renames {
                changed("endpoint ID", from, to);
            }
        }
        let templates = config.get("templates").and_then(Value::as_object).cloned().unwrap_or_default();
        let mut renames = Vec::new();
        for (id, template) in &templates {
            if text(template, "endpointId") != Some(old_id.as_str()) {
                continue;
            }
            let parameters = parameters_from_json(template.get("parameters").unwrap_or(&Value::Null))?;
            let encoded = encode_parameters(&parameters)?;
            let endpoint: alloy_primitives::B256 =
                new_id.parse().map_err(|_| refuse("an endpoint ID that is not 32 bytes".to_owned()))?;
            renames.push((id.clone(), feed_template_id(endpoint, &encoded.bytes).to_string()));
        }
        config["templates"] = Value::Object(rekeyed(&templates, &renames, |_, template| {
            if text(template, "endpointId") == Some(old_id.as_str()) {
                template["endpointId"] = Value::String(new_id.clone());
            }
        }));
        for update in
            config.pointer_mut("/triggers/signedApiUpdates").and_then(Value::as_array_mut).into_iter().flatten()
        {
            for id in update.get_mut("templateIds").and_then(Value::as_array_mut).into_iter().flatten() {
                if let Some((_, to)) = renames.iter().find(|(from, _)| Some(from.as_str()) == id.as_str()) {
                    *id = Value::String(to.clone());
                }
            }
        }
        for (from, to) in &renames {
            changed("template ID", from, to);
        }
        return Ok(notes);
    }
    // Airnode config.json: triggers name the endpoint; RRP templates carry its ID.
    for kind in ["rrp", "http", "httpSignedData"] {
        let pointer = format!("/triggers/{kind}");
        for trigger in config.pointer_mut(&pointer).and_then(Value::as_array_mut).into_iter().flatten() {
            if names(trigger, title, old) {
                trigger["endpointName"] = Value::String(new.to_owned());
                trigger["endpointId"] = Value::String(new_id.clone());
            }
        }
    }
    let uses = |t: &&mut Value| text(t, "endpointId") == Some(old_id.as_str());
    let mnemonic = text(config.get("nodeSettings").unwrap_or(&Value::Null), "airnodeWalletMnemonic").map(str::to_owned);
    let templates: Vec<&mut Value> =
        config.get_mut("templates").and_then(Value::as_array_mut).into_iter().flatten().filter(|t| uses(t)).collect();
    if templates.is_empty() {
        changed("endpoint ID", &old_id, &new_id);
        return Ok(notes);
    }
    let airnode = mnemonic.as_deref().and_then(crate::node::airnode_address).ok_or_else(|| {
        refuse(format!(
            "{} RRP template(s) use endpoint \"{old}\": their IDs need the Airnode address, and the config's mnemonic is not here (a ${{SECRET}})",
            templates.len()
        ))
        .with_fix(Fix::DeriveTemplates)
    })?;
    let endpoint: alloy_primitives::B256 =
        new_id.parse().map_err(|_| refuse("an endpoint ID that is not 32 bytes".to_owned()))?;
    for template in templates {
        let encoded = text(template, "encodedParameters").unwrap_or("0x");
        let bytes = alloy_primitives::hex::decode(encoded.trim_start_matches("0x"))
            .map_err(|_| refuse(format!("a template's encodedParameters {encoded} is not hex")))?;
        let from = text(template, "templateId").unwrap_or_default().to_owned();
        let to = rrp_template_id(airnode, endpoint, &bytes);
        template["endpointId"] = Value::String(new_id.clone());
        template["templateId"] = Value::String(to.clone());
        changed("template ID", &from, &to);
    }
    changed("endpoint ID", &old_id, &new_id);
    Ok(notes)
}

/// What in `config` still names endpoint `name` of `title` (a trigger, a template), for refusing
/// to remove it.
pub fn references(config: &Value, title: &str, name: &str) -> usize {
    let id = endpoint_id(title, name);
    let in_list = |pointer: &str, check: &dyn Fn(&Value) -> bool| {
        config.pointer(pointer).and_then(Value::as_array).map_or(0, |list| list.iter().filter(|e| check(e)).count())
    };
    let templates = match config.get("templates") {
        Some(Value::Object(map)) => map.values().filter(|t| text(t, "endpointId") == Some(id.as_str())).count(),
        Some(Value::Array(list)) => list.iter().filter(|t| text(t, "endpointId") == Some(id.as_str())).count(),
        _ => 0,
    };
    let triggers: usize = ["/triggers/rrp", "/triggers/http", "/triggers/httpSignedData"]
        .iter()
        .map(|p| in_list(p, &|t| names(t, title, name)))
        .sum();
    templates + triggers
}

/// Removes the Airnode Feed config's `endpoints` entry of endpoint `name` of `title` (once nothing
/// names it).
pub fn forget_endpoint(config: &mut Value, title: &str, name: &str) {
    if let Some(endpoints) = config.get_mut("endpoints").and_then(Value::as_object_mut) {
        endpoints.retain(|_, entry| !names(entry, title, name));
    }
}
