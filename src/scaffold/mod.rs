//! What goes next to an OIS in a node's files: the `config.json` fragment with one `apiCredentials`
//! entry per enabled apiKey/http scheme, the secrets.env template those entries refer to, and the
//! endpoint IDs Airnode and Airnode Feed derive from (title, endpoint name), and what a config.json's
//! templates are derived from (the Airnode address of its mnemonic).

pub mod deploy;
pub mod node;
pub mod secrets;
pub mod signed_api;

use serde_json::{Value, json};

use crate::diagnostic::{Code, Diagnostic, Document, Location};
use crate::node::{CredentialSlot, credential_slots};

/// A config.json fragment `{"ois": [...], "apiCredentials": [...]}` and the matching secrets.env.
#[derive(Clone, Debug)]
pub struct Scaffold {
    /// `{"ois": [...], "apiCredentials": [...]}`.
    pub config: Value,
    /// A secrets.env template with one empty line per credential (without the header naming the
    /// file it is for: [`secrets::header`]).
    pub secrets_env: String,
    /// What was noted on the way: a credential named otherwise than its title and scheme say,
    /// because that name is one of the node's own secrets.
    pub notes: Vec<Diagnostic>,
}

/// The scaffold for `oises` (each an OIS object).
pub fn config(oises: &[Value]) -> Scaffold {
    config_described(oises, |_, _| None)
}

/// [`config`], with what `describe(title, scheme)` says of a scheme (its OpenAPI `description`,
/// say) in the secrets.env comment, where whoever fills in the value reads it.
pub fn config_described(oises: &[Value], describe: impl Fn(&str, &str) -> Option<String>) -> Scaffold {
    let mut credentials = Vec::new();
    // Its header, naming the file it is for, is the writer's (`secrets::header`).
    let mut secrets_env = String::new();
    let mut notes = Vec::new();
    for (index, ois) in oises.iter().enumerate() {
        let at = format!("/ois/{index}");
        for slot in credential_slots(ois) {
            add_credential(&slot, &describe, &mut credentials, &mut secrets_env);
            notes.extend(suffixed_note(&slot, &at));
        }
        for name in server_url_secrets(ois) {
            if !secrets_env.contains(&format!("\n{name}=\n")) {
                let title = secrets::comment(ois.get("title").and_then(Value::as_str).unwrap_or_default());
                secrets_env.push_str(&format!(
                    "\n# {title}: the secret its server URL holds (the node fills it in)\n{name}=\n"
                ));
            }
        }
    }
    Scaffold { config: json!({"ois": oises, "apiCredentials": credentials}), secrets_env, notes }
}

/// The secrets an OIS's server URLs name (`https://host/v3/${KEY}`), in order, once each: the node
/// fills them from its secrets, as it fills the credentials.
pub fn server_url_secrets(ois: &Value) -> Vec<String> {
    let servers = ois.pointer("/apiSpecifications/servers").and_then(Value::as_array);
    let mut names: Vec<String> = Vec::new();
    for url in servers.into_iter().flatten().filter_map(|server| server.get("url")?.as_str()) {
        for name in crate::node::referenced_names(url) {
            if !names.iter().any(|known| known == name) {
                names.push(name.to_owned());
            }
        }
    }
    names
}

/// A note for each credential of `ois` (at `at` in what is written) named otherwise than its title
/// and scheme say, because that name is one of the node's own secrets.
pub fn suffixed_secret_notes(ois: &Value, at: &str) -> Vec<Diagnostic> {
    credential_slots(ois).iter().filter_map(|slot| suffixed_note(slot, at)).collect()
}

/// The note of one credential named otherwise than its title and scheme say (none for the others).
fn suffixed_note(slot: &CredentialSlot, at: &str) -> Option<Diagnostic> {
    let instead_of = slot.instead_of.as_ref()?;
    let pointer =
        crate::pointer::join(&format!("{at}/apiSpecifications/components/securitySchemes"), [slot.scheme.as_str()]);
    Some(Diagnostic::new(
        Code::SecretNameSuffixed,
        Location::new(Document::Output, pointer),
        format!(
            "the credential of \"{}\" is {}, not {instead_of}: that name is one of the node's own secrets, which no API may receive",
            slot.scheme, slot.variable
        ),
    ))
}

/// Gives the credentials of the schemes `names` lists (scheme, secret name) the names chosen: in
/// the config's `apiCredentials` and in the secrets template. Refused, changing nothing, for a
/// scheme with no credential, a name the node's rule refuses, or one of the node's own secrets.
pub fn name_secrets(
    config: &mut Value,
    secrets_env: &mut String,
    names: &[(String, String)],
) -> Result<(), Diagnostic> {
    if names.is_empty() {
        return Ok(());
    }
    let bad = |message: String| Diagnostic::elsewhere(Code::BadArgument, message);
    let credentials = config.get("apiCredentials").and_then(Value::as_array).cloned().unwrap_or_default();
    let scheme_of = |c: &Value| c.get("securitySchemeName").and_then(Value::as_str).map(str::to_owned);
    let mut renamed = credentials.clone();
    let mut text = secrets_env.clone();
    for (scheme, name) in names {
        if !crate::node::is_secret_name(name) {
            return Err(bad(format!(
                "secret name \"{name}\" for scheme \"{scheme}\" breaks the node's rule ^[A-Z][A-Z0-9_]*$"
            )));
        }
        if crate::node::is_node_secret(name) {
            return Err(bad(format!(
                "secret name \"{name}\" is one the node keeps for itself (its mnemonic, a signed API's token, a provider): the API would receive it"
            )));
        }
        let mut found = false;
        for credential in renamed.iter_mut().filter(|c| scheme_of(c).as_deref() == Some(scheme)) {
            found = true;
            let old = credential.get("securitySchemeValue").and_then(Value::as_str).unwrap_or_default().to_owned();
            if let Some(object) = credential.as_object_mut() {
                object.insert("securitySchemeValue".to_owned(), Value::from(format!("${{{name}}}")));
            }
            if let Some(old) = old.strip_prefix("${").and_then(|o| o.strip_suffix('}')) {
                text = text
                    .lines()
                    .map(|line| if line == format!("{old}=") { format!("{name}=") } else { line.to_owned() })
                    .collect::<Vec<_>>()
                    .join("\n")
                    + if text.ends_with('\n') { "\n" } else { "" };
            }
        }
        if !found {
            let known: Vec<String> = credentials.iter().filter_map(scheme_of).collect();
            let known = if known.is_empty() { "none".to_owned() } else { known.join(", ") };
            return Err(bad(format!(
                "a secret name was given for scheme \"{scheme}\", which has no credential here (schemes with one: {known})"
            )));
        }
    }
    if let Some(object) = config.as_object_mut() {
        object.insert("apiCredentials".to_owned(), Value::Array(renamed));
    }
    *secrets_env = text;
    Ok(())
}

fn add_credential(
    slot: &CredentialSlot,
    describe: &impl Fn(&str, &str) -> Option<String>,
    credentials: &mut Vec<Value>,
    secrets_env: &mut String,
) {
    let CredentialSlot { title, scheme, variable, explanation, .. } = slot;
    credentials.push(
        json!({"oisTitle": title, "securitySchemeName": scheme, "securitySchemeValue": format!("${{{variable}}}")}),
    );
    let [title_, scheme_, explanation_] = [title, scheme, explanation].map(|text| secrets::comment(text));
    secrets_env.push_str(&format!("\n# {title_} / {scheme_}: {explanation_}\n"));
    if let Some(description) = describe(title, scheme) {
        secrets_env.push_str(&format!("# The API documentation says: {}\n", secrets::comment(&description)));
    }
    secrets_env.push_str(&format!("{variable}=\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

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
