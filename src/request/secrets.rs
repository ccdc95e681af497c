//! Secrets as the node loads them: a secrets.env file read as `dotenv.parse` reads it, and the
//! whole config interpolated as `@api3/commons` `interpolateSecretsIntoConfig` does it (a
//! lodash template over the config's JSON text, `${NAME}` filled with the JSON-escaped value,
//! `\${…}` left alone and then unescaped).

use std::collections::HashMap;

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::node::dotenv;
use crate::pointer;

/// Values for `${NAME}` references: a secrets.env file's, or values held in memory, and the
/// environment's only for the names allowed one by one ([`Secrets::with_environment`]). A config
/// from someone else names its own `${NAME}`s: by default it can reach no variable of the
/// environment.
#[derive(Clone, Debug, Default)]
pub struct Secrets {
    values: HashMap<String, String>,
    from_environment: Vec<String>,
    withheld: Vec<String>,
}

const LITERAL: &str = "to keep a literal `${`, write `\\${` (`\\\\${` inside a JSON string)";

impl Secrets {
    /// No secret at all.
    pub fn none() -> Self {
        Secrets::default()
    }

    /// A secrets.env text read as dotenv 16 reads it. An entry the node's config validation refuses
    /// (a name not matching `^[A-Z][A-Z0-9_]*$`, an empty value) is an error naming its line.
    pub fn parse(text: &str) -> Result<Self, Diagnostic> {
        let entries = dotenv::parse(text).map_err(|stop| {
            Diagnostic::elsewhere(
                Code::BadSecretsEntry,
                format!("secrets file line {}: too complex to read the way dotenv does", stop.line),
            )
        })?;
        let mut values = HashMap::new();
        for entry in entries {
            let problem = if !crate::node::is_secret_name(&entry.name) {
                Some("the node accepts only names matching ^[A-Z][A-Z0-9_]*$")
            } else if entry.value.is_empty() {
                Some("the node refuses an empty secret (\"Secret cannot be empty\")")
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(Diagnostic::elsewhere(
                    Code::BadSecretsEntry,
                    format!("secrets file line {}: {}: {problem}", entry.line, entry.name),
                ));
            }
            values.insert(entry.name, entry.value);
        }
        Ok(Secrets { values, ..Secrets::default() })
    }

    /// Only these values.
    pub fn from_values(values: impl IntoIterator<Item = (String, String)>) -> Self {
        Secrets { values: values.into_iter().collect(), ..Secrets::default() }
    }

    /// These secrets, and for each of `names` that they lack the environment variable of that name
    /// (an explicit choice of the user's: no other variable of the environment is ever read).
    pub fn with_environment(mut self, names: impl IntoIterator<Item = String>) -> Self {
        self.from_environment.extend(names);
        self
    }

    /// These secrets, but never the values of `names`: the node's own secrets of another config
    /// run beside this one (two configs compared read one secrets file, and what one keeps for its
    /// node the other must not send to its API under the same name).
    pub fn withholding(mut self, names: impl IntoIterator<Item = String>) -> Self {
        self.withheld.extend(names);
        self
    }

    /// The names [`Secrets::withholding`] withholds.
    pub fn withheld(&self) -> &[String] {
        &self.withheld
    }

    /// The value given for `name`: held, read from the file, or from the environment when that
    /// name was allowed; never one withheld.
    pub fn value(&self, name: &str) -> Option<String> {
        if self.withheld.iter().any(|withheld| withheld == name) {
            return None;
        }
        self.values.get(name).cloned().or_else(|| {
            if self.from_environment.iter().any(|allowed| allowed == name) { std::env::var(name).ok() } else { None }
        })
    }

    /// The value held or read from the file for `name` (never the environment's).
    pub fn file_value(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// Only the secrets named by `keep` (an API's own credentials out of everything held).
    pub fn only(&self, keep: impl Fn(&str) -> bool) -> Secrets {
        let values = self.values.iter().filter(|(name, _)| keep(name)).map(|(n, v)| (n.clone(), v.clone())).collect();
        let from_environment = self.from_environment.iter().filter(|name| keep(name)).cloned().collect();
        Secrets { values, from_environment, withheld: self.withheld.clone() }
    }

    /// `document` as the node sees it after interpolation: every string and key with its
    /// `${NAME}`s filled and its `\${`s unescaped.
    pub fn interpolate_document(&self, document: &Value) -> Result<Value, Diagnostic> {
        let mut document = document.clone();
        pointer::try_for_each_template_mut(&mut document, &mut String::new(), &mut |text, at| {
            *text = self.interpolate(text, at)?;
            Ok(())
        })?;
        Ok(document)
    }

    /// One string of the config, interpolated as the node does it in the config's JSON text.
    pub fn interpolate(&self, text: &str, at: &str) -> Result<String, Diagnostic> {
        if !text.contains("${") {
            return Ok(text.to_owned());
        }
        let encoded = json_escaped(text);
        let mut filled = String::with_capacity(encoded.len());
        let mut rest = encoded.as_str();
        while let Some(start) = rest.find("${") {
            let (before, from) = rest.split_at(start);
            // The lookbehind sees the text as written (before the string, its opening quote).
            let written_before = encoded.get(..encoded.len() - from.len()).unwrap_or_default();
            let escaped = written_before.ends_with('\\');
            match (escaped, template_end(from)) {
                (false, Template::Closed(end)) => {
                    filled.push_str(before);
                    let expression = from.get(2..end - 1).unwrap_or_default();
                    filled.push_str(&json_escaped(&self.evaluate(expression, at)?));
                    rest = from.get(end..).unwrap_or_default();
                }
                (false, _) => {
                    return Err(Diagnostic::new(
                        Code::SecretExpression,
                        at,
                        "`${` without a closing `}`: the node's interpolation reads on into the rest of the config and fails to load it",
                    )
                    .with_help(LITERAL));
                }
                (true, _) => {
                    filled.push_str(before);
                    filled.push('$');
                    rest = from.get(1..).unwrap_or_default();
                }
            }
        }
        filled.push_str(rest);
        let unescaped = unescape_templates(&filled);
        serde_json::from_str(&format!("\"{unescaped}\"")).map_err(|_| {
            Diagnostic::new(
                Code::SecretExpression,
                at,
                "after interpolation the config is no longer JSON: the node fails to load it",
            )
        })
    }

    fn evaluate(&self, expression: &str, at: &str) -> Result<String, Diagnostic> {
        let name = expression.trim_matches(crate::js::is_whitespace);
        let is_identifier = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        if !is_identifier {
            return Err(Diagnostic::new(
                Code::SecretExpression,
                at,
                format!("`${{{expression}}}`: the node runs what is inside `${{…}}` as JavaScript; only a secret's name belongs there"),
            )
            .with_help(LITERAL));
        }
        self.value(name).ok_or_else(|| {
            let message =
                format!("Secrets interpolation failed: {name} is not defined (a literal `${{` is written `\\${{`)");
            Diagnostic::new(Code::MissingSecret, at, message).with_fix(Fix::GiveSecret(name.to_owned()))
        })
    }
}

/// `text` as `JSON.stringify` writes it, without the quotes.
fn json_escaped(text: &str) -> String {
    let quoted = Value::String(text.to_owned()).to_string();
    quoted.get(1..quoted.len().saturating_sub(1)).unwrap_or_default().to_owned()
}

/// How the `${…}` template at the start of `from` ends (lodash's
/// `\${([^\\}]*(?:\\.[^\\}]*)*)}`).
enum Template {
    /// Closed by a `}`: the template's length.
    Closed(usize),
    /// Still open at the end of the string: in the node's JSON text the match goes on to the next
    /// `}` of the config (there always is one, the enclosing object's).
    Open,
    /// A `\` before a line break, which the expression cannot cross: no match.
    Broken,
}

fn template_end(from: &str) -> Template {
    let mut chars = from.char_indices().skip(2);
    while let Some((index, c)) = chars.next() {
        match c {
            '}' => return Template::Closed(index + 1),
            '\\' => match chars.next() {
                Some((_, next)) if !matches!(next, '\n' | '\r' | '\u{2028}' | '\u{2029}') => {}
                Some(_) => return Template::Broken,
                None => return Template::Open,
            },
            _ => {}
        }
    }
    Template::Open
}

/// `\\${…}` → `${…}` in the JSON text, as commons does once the templates are filled.
fn unescape_templates(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("\\\\${") {
        let (before, from) = rest.split_at(start);
        out.push_str(before);
        let template = from.get(2..).unwrap_or_default();
        match template_end(template) {
            Template::Closed(end) => {
                out.push_str(template.get(..end).unwrap_or_default());
                rest = template.get(end..).unwrap_or_default();
            }
            Template::Open => {
                out.push_str(template);
                rest = "";
            }
            Template::Broken => {
                out.push_str(from.get(..1).unwrap_or_default());
                rest = from.get(1..).unwrap_or_default();
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ois::templates::opens_inside_another;
    use serde_json::json;

    #[test]
    fn fills_names_and_unescapes_escaped_templates() {
        let secrets = Secrets::parse("API_KEY=abc\nQUOTED=\"x \\\"y\\\"\"\n").unwrap();
        assert_eq!(secrets.interpolate("${API_KEY}", "").unwrap(), "abc");
        assert_eq!(secrets.interpolate("pre-${ API_KEY }-post", "").unwrap(), "pre-abc-post");
        assert_eq!(secrets.interpolate("\\${API_KEY}", "").unwrap(), "${API_KEY}");
        assert_eq!(secrets.interpolate("\\\\${API_KEY}", "").unwrap(), "\\${API_KEY}");
        assert_eq!(secrets.interpolate("$API_KEY {x}", "").unwrap(), "$API_KEY {x}");
    }

    #[test]
    fn refuses_what_the_node_cannot_load() {
        let secrets = Secrets::parse("").unwrap();
        assert_eq!(secrets.interpolate("${OIS_TEST_SURELY_UNSET_42}", "").unwrap_err().code, Code::MissingSecret);
        assert_eq!(secrets.interpolate("${a + b}", "").unwrap_err().code, Code::SecretExpression);
        assert_eq!(secrets.interpolate("${open", "").unwrap_err().code, Code::SecretExpression);
        for bad in ["lower=x", "K=", "1K=x", "K-Y=x"] {
            assert_eq!(Secrets::parse(bad).unwrap_err().code, Code::BadSecretsEntry, "{bad}");
        }
        assert!(Secrets::parse("K=x\nnot a line\n").is_ok());
        assert!(Secrets::parse("A=1\nb=2").unwrap_err().message.starts_with("secrets file line 2: b:"));
    }

    #[test]
    fn a_template_inside_another_keeps_its_backslash() {
        for text in ["${${", "${a${b}", "x ${a ${b} c}"] {
            assert!(opens_inside_another(text), "{text}");
            let escaped = crate::ois::templates::escape(text).unwrap();
            assert_ne!(Secrets::default().interpolate(&escaped, "").ok().as_deref(), Some(text), "{text}");
        }
        for text in ["${a}${b}", "${x", "$${a}", "} ${a} }${b"] {
            assert!(!opens_inside_another(text), "{text}");
        }
    }

    proptest::proptest! {
        /// What the converter escapes always loads, and the node's interpolation gives it back as
        /// it was exactly when no `${` opens inside another (the limit the README states).
        #[test]
        fn escaped_text_survives_interpolation(text in "[-a-z$\\\\{}\"\n\u{2028} ]{0,16}|\\PC{0,16}") {
            let escaped = crate::ois::templates::escape(&text).unwrap_or_else(|| text.clone());
            proptest::prop_assert!(!crate::ois::templates::has_unescaped(&escaped));
            let read = Secrets::default().interpolate(&escaped, "");
            proptest::prop_assert!(read.is_ok(), "{:?}", read);
            proptest::prop_assert_eq!(read.ok() == Some(text.clone()), !opens_inside_another(&text), "{:?}", text);
        }
    }

    #[test]
    fn interpolates_the_whole_document_with_pointers() {
        let secrets = Secrets::parse("K=v").unwrap();
        let document = json!({"a": ["${K}", {"b\\${c}": "\\${c}"}], "n": 1});
        assert_eq!(secrets.interpolate_document(&document).unwrap(), json!({"a": ["v", {"b${c}": "${c}"}], "n": 1}));
        let missing = secrets.interpolate_document(&json!({"x": [0, "${NOPE_OIS_TEST}"]})).unwrap_err();
        assert_eq!(missing.pointer(), "/x/1");
    }
}
