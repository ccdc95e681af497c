//! Raw bytes → a secrets.env read as dotenv reads it, and a config.json interpolated with those
//! secrets: neither may panic, what the converter escapes always loads, and a text with one `${`
//! comes back unchanged (a `${` inside another `${…}` keeps its `\`: the node's unescaping cannot
//! reach it).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ois::request::Secrets;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // The first line is the secrets file's; the rest is a string of the config.
    let (secrets_text, config_text) = text.split_once('\n').unwrap_or((&text, ""));
    let secrets_text = secrets_text.replace('\u{1}', "\n");
    let Ok(secrets) = Secrets::parse(&secrets_text) else { return };
    let _ = secrets.interpolate(config_text, "");
    let _ = secrets.interpolate_document(&serde_json::json!({ config_text: [config_text] }));
    let escaped = ois::escape_templates(config_text).unwrap_or_else(|| config_text.to_owned());
    let loaded = Secrets::default().interpolate(&escaped, "");
    assert!(loaded.is_ok(), "{escaped:?}: {loaded:?}");
    if config_text.matches("${").count() <= 1 {
        assert_eq!(loaded.ok().as_deref(), Some(config_text));
    }
    // An untrusted config: the text in an OIS (a fixed parameter), a `${…}` only in the
    // credentials. A request is never built from an OIS whose text has an unescaped `${` (it could
    // carry a secret or the environment to the API).
    let config = serde_json::json!({
        "ois": [{"title": "T", "endpoints": [{"fixedOperationParameters": [{"value": config_text}]}]}],
        "apiCredentials": [{"oisTitle": "T", "securitySchemeName": "k", "securitySchemeValue": "${API_KEY}"}]
    });
    let unescaped = config_text.match_indices("${").any(|(at, _)| !config_text[..at].ends_with('\\'));
    if unescaped {
        assert!(ois::request::select(config, None, &secrets).is_err(), "{config_text:?} was filled in");
    }
});
