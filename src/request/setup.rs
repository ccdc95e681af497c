//! Getting from a file to a request: which OIS of a config.json and its credentials, once the
//! secrets are filled in, and masking those secrets in what is shown.

use serde_json::Value;

use super::{Credential, Secrets};
use crate::diagnostic::{Code, Diagnostic};
use crate::node::{CredentialSlot, credential_slots};
use crate::ois::OisDocument;

/// The OIS chosen for a request, where it is in its file, and its credentials.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Selected {
    /// The OIS object.
    pub ois: Value,
    /// Its pointer in the file (`""` for a bare OIS, `/ois/1` in a config.json): diagnostics about
    /// the OIS are moved there with [`Diagnostic::within`].
    pub pointer: String,
    /// The config's credentials with their `${VAR}`s filled; for a bare OIS (or a list), those
    /// of its schemes the secrets file holds under the names the scaffolds give them.
    pub credentials: Vec<Credential>,
    /// A bare OIS's credentials the secrets file does not hold (a config names its own).
    pub missing: Vec<CredentialSlot>,
    /// The secrets its server URL was filled with (`https://host/v3/${KEY}`): sent in the URL,
    /// masked wherever it is shown.
    pub server_secrets: Vec<String>,
    /// Whether a text of the document held a `${` (filled with a secret, or an escaped one made
    /// plain): the OIS is then not exactly the text's own.
    pub templated: bool,
}

/// The OIS to use and its credentials. A config.json (root `ois` array) or a list of OIS objects
/// needs `title` when it holds several. The document is taken, not copied (a big OIS is a big
/// tree): the OIS chosen is moved out of it.
pub fn select(document: Value, title: Option<&str>, secrets: &Secrets) -> Result<Selected, Diagnostic> {
    let (mut document, server_secrets, templated) = interpolated(document, secrets)?;
    let read = OisDocument::read(&document).map_err(|(_, error)| error)?;
    let chosen = read.choose(title)?;
    let mut credentials = config_credentials(&read);
    let mut missing = Vec::new();
    if !read.kind.holds_ois_list() {
        // A bare OIS's credentials are named as `ois config` names them, never as one of the
        // node's own secrets (`secret_name`), and read from the secrets given (the environment
        // only for names the user allowed): an OIS from someone else names them, and must not
        // pick the mnemonic or a variable of the environment to have it sent.
        for slot in credential_slots(chosen.ois) {
            match secrets.value(&slot.variable) {
                Some(value) => {
                    credentials.push(Credential { ois_title: slot.title.clone(), scheme: slot.scheme.clone(), value })
                }
                None => missing.push(slot),
            }
        }
    }
    let pointer = chosen.pointer;
    let ois = document.pointer_mut(&pointer).map(Value::take).unwrap_or_default();
    Ok(Selected { ois, pointer, credentials, missing, server_secrets, templated })
}

/// Every OIS of a config with the config's credentials (their `${VAR}`s filled), in order: a run
/// over the config's templates.
pub fn select_all(document: &Value, secrets: &Secrets) -> Result<Vec<Selected>, Diagnostic> {
    let (document, server_secrets, templated) = interpolated(document.clone(), secrets)?;
    let read = OisDocument::read(&document).map_err(|(_, error)| error)?;
    let credentials = config_credentials(&read);
    let selected = |(pointer, ois): &(String, &Value)| Selected {
        ois: (*ois).clone(),
        pointer: pointer.clone(),
        credentials: credentials.clone(),
        missing: Vec::new(),
        server_secrets: server_secrets.clone(),
        templated,
    };
    Ok(read.oises.iter().map(selected).collect())
}

/// A config's `apiCredentials`, every one: Airnode Feed may use another OIS's credential of the
/// same scheme name. A bare OIS or a list has none.
fn config_credentials(read: &OisDocument<'_>) -> Vec<Credential> {
    let listed = read.root.get("apiCredentials").and_then(Value::as_array).filter(|_| read.kind.holds_ois_list());
    let field = |entry: &Value, key: &str| entry.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    listed
        .into_iter()
        .flatten()
        .map(|entry| Credential {
            ois_title: field(entry, "oisTitle"),
            scheme: field(entry, "securitySchemeName"),
            value: field(entry, "securitySchemeValue"),
        })
        .collect()
}

/// Where a node's config keeps secrets, each a `${NAME}` the node fills when it loads the config:
/// the credentials, the node's own settings, its chains' providers, the signed APIs' tokens.
const SECRET_PLACES: &[&str] = &["/apiCredentials/", "/nodeSettings/", "/chains/", "/signedApis/"];

/// The document as the node reads it once it has filled its secrets, for a request, and the
/// secrets its server URLs were filled with: `\${` is `${`, and only the credentials' and the
/// server URLs' `${NAME}`s are filled (the only secrets a request uses, and the only names taken
/// from the secrets file or the environment). An unescaped `${` anywhere else is refused before
/// anything is sent: an OIS or config from someone else could otherwise put `${GITHUB_TOKEN}` in
/// a parameter and have it sent to its own server. A server URL's secret comes after its host
/// (it never chooses where the request goes) and is never one of the node's own.
fn interpolated(mut document: Value, secrets: &Secrets) -> Result<(Value, Vec<String>, bool), Diagnostic> {
    let is_config = document.get("ois").is_some();
    let in_secret_place = |at: &str| is_config && SECRET_PLACES.iter().any(|place| at.starts_with(place));
    // The node's own secrets first: the sharper word for the worst case.
    if is_config
        && let Some(first) = crate::node::node_secrets_out_of_place(&document, secrets.withheld()).into_iter().next()
    {
        return Err(first);
    }
    let mut found = Vec::new();
    crate::ois::templates::find_unescaped(&document, "", &mut found);
    let node_secret = |name: &str| crate::node::is_node_secret(name) || secrets.withheld().iter().any(|w| w == name);
    let mut server_secrets = Vec::new();
    for at in found.iter().filter(|at| crate::ois::templates::is_server_url(at)) {
        let url = document.pointer(at).and_then(Value::as_str).unwrap_or_default();
        if let Some(why) = crate::node::server_url_secret_problem(url, node_secret) {
            return Err(Diagnostic::new(
                Code::UnescapedTemplate,
                at.clone(),
                format!("the server URL's secret cannot be filled there: {why}; nothing was sent"),
            ));
        }
        for name in crate::node::template_expressions(url) {
            server_secrets.extend(secrets.value(name).filter(|value| !value.is_empty()));
        }
    }
    if let Some(at) = found.into_iter().find(|at| !in_secret_place(at) && !crate::ois::templates::is_server_url(at)) {
        return Err(Diagnostic::new(
            Code::UnescapedTemplate,
            at,
            "an unescaped `${` outside the config's secrets: the node would fill it with the secret of that name, and an OIS from someone else could so send your secrets to its API; nothing was sent",
        )
        .with_help("write `\\${` for a literal `${` (`\\\\${` inside a JSON string); keep secrets in apiCredentials"));
    }
    let no_secrets = Secrets::none();
    let mut templated = false;
    crate::pointer::try_for_each_template_mut(&mut document, &mut String::new(), &mut |text, at| {
        templated = true;
        if at.starts_with("/apiCredentials/") || crate::ois::templates::is_server_url(at) {
            *text = secrets.interpolate(text, at)?;
        } else if !in_secret_place(at) {
            // Only `\${` is left here: it becomes `${`, as the node reads it.
            *text = no_secrets.interpolate(text, at)?;
        }
        Ok(())
    })?;
    Ok((document, server_secrets, templated))
}

/// The node would not load an OIS that breaks OIS rules; say so before building anything. The
/// diagnostic points at the first broken rule.
pub fn check_ois(ois: &Value) -> Result<(), Diagnostic> {
    let errors: Vec<Diagnostic> =
        crate::ois::rules::check(ois, None).into_iter().filter(Diagnostic::is_error).collect();
    match errors.first() {
        None => Ok(()),
        Some(first) => Err(Diagnostic::new(
            Code::InvalidOis,
            first.pointer(),
            format!("the OIS breaks {} rule(s), e.g. {}: {}", errors.len(), first.code, first.message),
        )
        .with_help("validate it for every problem")),
    }
}

/// `text` with every secret replaced by `****`, in every form an API might echo it in: as it is,
/// URL-encoded (as a path, as a query), JSON-escaped (with and without `\/`), base64-encoded, and,
/// for a secret that is base64 (HTTP basic credentials), decoded; and in every form the node
/// encodes a value picked from such an echo in: the hex of its bytes (`bytes`, `string`), of its
/// first 31 characters (`string32`).
pub fn mask(text: &str, secrets: &[String]) -> String {
    mask_as(text, secrets, "****")
}

/// [`mask`] with every form of a secret replaced by `placeholder` (a recording writes
/// `<credential>`, which it can match again).
pub fn mask_as(text: &str, secrets: &[String], placeholder: &str) -> String {
    Forms::of(secrets).mask(text, placeholder)
}

/// Every form of some secrets, found once for masking many texts.
struct Forms(Vec<String>);

impl Forms {
    fn of(secrets: &[String]) -> Forms {
        let mut forms: Vec<String> = secrets.iter().filter(|s| !s.is_empty()).flat_map(|s| forms_of(s)).collect();
        // Longer first, so a secret containing another is masked whole.
        forms.sort_by_key(|form| std::cmp::Reverse(form.len()));
        forms.dedup();
        // A secret as it is is masked however short; only its other forms need a length to be told apart.
        forms.retain(|form| form.len() >= MIN_MASKED_LEN || secrets.contains(form));
        Forms(forms)
    }

    fn mask(&self, text: &str, placeholder: &str) -> String {
        let mut masked = text.to_owned();
        for form in &self.0 {
            if masked.contains(form.as_str()) {
                masked = masked.replace(form.as_str(), placeholder);
            }
        }
        masked
    }
}

/// Every string of `value` as [`mask_as`] leaves it, and every key (an API may echo the key as a
/// key of its answer) that holds a secret of at least 8 characters (`MIN_KEY_MASKED_LEN`): a short
/// one would mask the report's own keys (`"ok"` of a secret `k`).
pub fn mask_json_as(value: &Value, secrets: &[String], placeholder: &str) -> Value {
    let (all, long) = json_forms(secrets);
    super::body::map_texts(value, &|text, key| masked_json_text(&all, &long, text, key, placeholder))
}

/// An API's JSON body written out in `style` with every string and key masked as
/// [`mask_json_as`] masks them, from its text where it lies unless its value is built.
pub fn mask_body_as(body: &super::JsonBody, secrets: &[String], placeholder: &str, style: super::Style) -> String {
    let (all, long) = json_forms(secrets);
    body.shown(style, &|text, key| masked_json_text(&all, &long, text, key, placeholder))
}

/// The forms to mask in a JSON value's strings, and in its keys.
fn json_forms(secrets: &[String]) -> (Forms, Forms) {
    let long: Vec<String> = secrets.iter().filter(|s| s.chars().count() >= MIN_KEY_MASKED_LEN).cloned().collect();
    (Forms::of(secrets), Forms::of(&long))
}

/// A string of a JSON value masked: a value's by every secret, a key's by the long ones.
fn masked_json_text(all: &Forms, long: &Forms, text: &str, key: bool, placeholder: &str) -> String {
    if key { long.mask(text, placeholder) } else { all.mask(text, placeholder) }
}

/// Secrets shorter than this are not sought in the keys of a JSON answer.
const MIN_KEY_MASKED_LEN: usize = 8;

/// Forms shorter than this are not masked on their own (a decoded `a:b` would mask every `a:b`).
const MIN_MASKED_LEN: usize = 4;

/// The forms of `secret` an answer may carry.
fn forms_of(secret: &str) -> Vec<String> {
    use base64::Engine as _;
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
    let json = Value::String(secret.to_owned()).to_string();
    let json = json.get(1..json.len().saturating_sub(1)).unwrap_or_default().to_owned();
    let mut forms = vec![
        secret.to_owned(),
        crate::js::encode_uri_component(secret),
        super::query::encode_for_query(secret),
        json.replace('/', "\\/"),
        json,
        STANDARD.encode(secret),
        STANDARD_NO_PAD.encode(secret),
    ];
    // Inside the base64 of a longer text (a whole echoed header, `Basic …` of `user:KEY`), the
    // secret's base64 depends on where it starts modulo 3: at each of the three offsets, the
    // characters its own bytes alone decide.
    for offset in 0..3 {
        let shifted: Vec<u8> = std::iter::repeat_n(0u8, offset).chain(secret.bytes()).collect();
        let whole_groups = shifted.len() / 3;
        let encoded = STANDARD_NO_PAD.encode(&shifted);
        let first = if offset == 0 { 0 } else { 4 };
        if let Some(core) = encoded.get(first..4 * whole_groups).filter(|core| !core.is_empty()) {
            forms.push(core.to_owned());
        }
    }
    if let Some(decoded) = STANDARD.decode(secret).ok().and_then(|bytes| String::from_utf8(bytes).ok()) {
        forms.push(decoded);
    }
    forms.push(alloy_primitives::hex::encode(secret));
    let string32: String = secret.chars().take(31).collect();
    forms.push(alloy_primitives::hex::encode(string32));
    forms
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_server_url_secret_is_filled_after_the_host_and_kept_to_be_masked() {
        let ois = |url: &str| json!({"title": "A", "apiSpecifications": {"servers": [{"url": url}]}});
        let secrets = Secrets::parse("RPC_KEY=k3y\nAIRNODE_WALLET_MNEMONIC=m").unwrap();
        let selected = select(ois("https://rpc.example.com/v3/${RPC_KEY}#"), None, &secrets).unwrap();
        assert_eq!(selected.ois["apiSpecifications"]["servers"][0]["url"], "https://rpc.example.com/v3/k3y#");
        assert_eq!(selected.server_secrets, ["k3y"]);
        // Never where the request goes, never the node's own secret, and only from what was given.
        for url in ["https://${RPC_KEY}/v3", "https://rpc.example.com/${AIRNODE_WALLET_MNEMONIC}"] {
            assert_eq!(select(ois(url), None, &secrets).unwrap_err().code, Code::UnescapedTemplate, "{url}");
        }
        let missing = select(ois("https://rpc.example.com/v3/${OTHER}"), None, &secrets).unwrap_err();
        assert_eq!((missing.code, missing.pointer()), (Code::MissingSecret, "/apiSpecifications/servers/0/url"));
        // In a config too, and a name the config keeps for the node is refused there.
        let config = json!({"ois": [ois("https://rpc.example.com/v3/${SEED}")],
            "nodeSettings": {"airnodeWalletMnemonic": "${SEED}"}});
        let refused = select(config, None, &Secrets::parse("SEED=s").unwrap()).unwrap_err();
        assert_eq!(refused.code, Code::NodeSecretOutOfPlace);
    }

    #[test]
    fn selects_the_ois_and_its_credentials() {
        let config = json!({"ois": [{"title": "A"}, {"title": "B"}],
            "apiCredentials": [{"oisTitle": "A", "securitySchemeName": "k", "securitySchemeValue": "${K}"},
                               {"oisTitle": "B", "securitySchemeName": "k", "securitySchemeValue": "${UNSET_FOR_B}"}]});
        let secrets = Secrets::parse("K=v\nUNSET_FOR_B=w").unwrap();
        assert_eq!(select(config.clone(), None, &secrets).unwrap_err().code, Code::OisChoice);
        let selected = select(config.clone(), Some("A"), &secrets).unwrap();
        assert_eq!((selected.ois["title"].as_str(), selected.pointer.as_str()), (Some("A"), "/ois/0"));
        // Every credential is filled, another OIS's too: Airnode Feed may use it.
        let values: Vec<&str> = selected.credentials.iter().map(|c| c.value.as_str()).collect();
        assert_eq!(values, ["v", "w"]);
        let list = json!([{"title": "A"}, {"title": "B"}]);
        assert_eq!(select(list.clone(), Some("B"), &secrets).unwrap().pointer, "/1");
        // A secret missing anywhere stops the node from starting, whichever OIS is asked for.
        let only_k = Secrets::parse("K=v").unwrap();
        let missing = select(config.clone(), Some("A"), &only_k).unwrap_err();
        assert_eq!((missing.code, missing.pointer()), (Code::MissingSecret, "/apiCredentials/1/securitySchemeValue"));
    }

    #[test]
    fn masks_every_form_an_api_may_echo() {
        let key = "AbCd/EfGh+ij\"kl".to_owned();
        let basic = "dXNlcjpwYXNzd29yZA==".to_owned(); // user:password
        let echoed = r#"{"error": "key AbCd\/EfGh+ij\"kl or AbCd/EfGh+ij\"kl, QWJDZC9FZkdoK2lqImts, user:password"}"#;
        let masked = mask(echoed, &[key, basic]);
        assert!(!masked.contains("EfGh") && !masked.contains("QWJDZC9") && !masked.contains("password"), "{masked}");
    }

    #[test]
    fn masks_a_key_echoed_as_a_key_or_inside_a_longer_base64() {
        use base64::Engine as _;
        let key = "k-2b7f9e31c4d8a6".to_owned();
        let echoed = json!({"k-2b7f9e31c4d8a6": {"valid": true}, "list": ["x k-2b7f9e31c4d8a6"]});
        assert_eq!(
            mask_json_as(&echoed, std::slice::from_ref(&key), "****"),
            json!({"****": {"valid": true}, "list": ["x ****"]})
        );
        for prefix in ["", "a", "ab", "x-api-key: ", "Authorization: Bearer "] {
            for suffix in ["", "!", "; q"] {
                let header = base64::engine::general_purpose::STANDARD.encode(format!("{prefix}{key}{suffix}"));
                let masked = mask(&header, std::slice::from_ref(&key));
                let leftover = masked.replace("****", "");
                assert!(leftover.len() + 14 <= header.len(), "{prefix:?}{suffix:?}: {header} → {masked}");
            }
        }
    }

    #[test]
    fn masks_plain_and_encoded_secrets() {
        let secrets = vec!["s3 cr;t".to_owned()];
        assert_eq!(mask("a=s3 cr;t b=s3%20cr%3Bt c=s3+cr%3Bt", &secrets), "a=**** b=**** c=****");
    }

    #[test]
    fn a_short_secret_is_masked_as_it_is() {
        // Its base64 (`YWI=`) is long enough, its decoded forms would not be told apart.
        assert_eq!(mask("key: abc, YWJj", &["abc".to_owned()]), "key: ****, ****");
    }
}
