//! The secrets.env templates the scaffolds write: a header naming the file they belong to, and,
//! when one replaces a filled secrets file, every value already there kept.

use crate::node::dotenv;

/// The first line of a secrets template for `for_what` ("config.json", "api.ois.json").
pub fn header(for_what: &str) -> String {
    format!("# Secrets for {}: fill in each value; keep this file out of version control.\n", comment(for_what))
}

/// `text` fit to stay inside one comment line of a secrets file: a name a document or a config
/// chose (a title, a header, a signed API's name) may hold a line break, which would otherwise
/// start a `NAME=value` line of its own. Line breaks and other control or invisible characters
/// are written as escapes.
pub fn comment(text: &str) -> String {
    crate::emit::printable(text).replace('\n', "\\x0a").replace('\t', " ")
}

/// What the template `body` becomes at `path` (`None`: standard output) for `for_what`: with its
/// header, and, when `path` is a regular file being replaced, the values it holds (`existing`).
pub fn template(body: &str, for_what: &str, existing: Option<&str>) -> Filled {
    let text = header(for_what) + body;
    match existing {
        Some(existing) => keep_values(&text, existing),
        None => Filled { text, ..Filled::default() },
    }
}

/// A secrets template with the values of the file it replaces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filled {
    /// The template, each name the old file gave a value written with it.
    pub text: String,
    /// The names whose values were kept.
    pub kept: Vec<String>,
    /// Names of the old file the template does not have, kept at its end.
    pub unknown: Vec<String>,
}

/// `template` (lines `NAME=` under comments) with the values `existing` (a secrets file, read as
/// dotenv reads it) gives: a name the template has gets its value; a name it lacks is kept at the
/// end under a comment (unless empty), so that replacing a filled file never loses a secret.
pub fn keep_values(template: &str, existing: &str) -> Filled {
    let mut values: Vec<(String, String)> = Vec::new();
    for entry in dotenv::parse(existing).unwrap_or_default() {
        // A later entry of a name wins, as in dotenv's object.
        match values.iter_mut().find(|(name, _)| *name == entry.name) {
            Some(slot) => slot.1 = entry.value,
            None => values.push((entry.name, entry.value)),
        }
    }
    let mut filled = Filled::default();
    let mut used = Vec::new();
    for line in template.split_inclusive('\n') {
        let name = line.trim_end().strip_suffix('=').filter(|name| crate::node::is_secret_name(name));
        let value = name.and_then(|name| values.iter().find(|(known, _)| known == name));
        match (name, value) {
            (Some(name), Some((_, value))) if !value.is_empty() => {
                filled.text.push_str(&format!("{name}={}\n", quoted(value)));
                filled.kept.push(name.to_owned());
            }
            _ => filled.text.push_str(line),
        }
        used.extend(name.map(str::to_owned));
    }
    // An empty one held no secret: nothing is lost leaving it out.
    let unknown: Vec<&(String, String)> =
        values.iter().filter(|(name, value)| !used.contains(name) && !value.is_empty()).collect();
    if !unknown.is_empty() {
        filled.text.push_str("\n# Kept from the file this replaced (this configuration does not refer to them):\n");
        for (name, value) in unknown {
            filled.text.push_str(&format!("{name}={}\n", quoted(value)));
            filled.unknown.push(name.clone());
        }
    }
    filled
}

/// `value` written so that dotenv reads it back exactly: bare when it can be, else in the first
/// quotes that keep it (single quotes are literal; double quotes expand `\n`).
pub(crate) fn quoted(value: &str) -> String {
    let forms = [value.to_owned(), format!("'{value}'"), format!("`{value}`"), format!("\"{value}\"")];
    forms
        .into_iter()
        .find(|form| reads_back(form, value))
        .unwrap_or_else(|| format!("\"{}\"", value.replace('\n', "\\n")))
}

fn reads_back(form: &str, value: &str) -> bool {
    matches!(dotenv::parse(&format!("N={form}\n")).as_deref(), Ok([entry]) if entry.value == value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_kept_and_unknown_names_too() {
        let template = "# head\n\n# the key\nAPI_KEY=\n\n# wallet\nAIRNODE_WALLET_MNEMONIC=\nNEW_ONE=\n";
        let existing = "API_KEY=abc#def\nAIRNODE_WALLET_MNEMONIC=\"test test junk\"\nOLD_TOKEN='x y'\nNEW_ONE=\n";
        let filled = keep_values(template, existing);
        assert_eq!(filled.kept, ["API_KEY", "AIRNODE_WALLET_MNEMONIC"]);
        assert_eq!(filled.unknown, ["OLD_TOKEN"]);
        let read: Vec<(String, String)> =
            dotenv::parse(&filled.text).unwrap().into_iter().map(|e| (e.name, e.value)).collect();
        let expected = dotenv::parse(existing).unwrap();
        for entry in expected.iter().filter(|e| !e.value.is_empty()) {
            assert!(read.contains(&(entry.name.clone(), entry.value.clone())), "{entry:?} in {}", filled.text);
        }
        assert!(filled.text.starts_with("# head\n\n# the key\n"), "{}", filled.text);
    }

    #[test]
    fn every_value_reads_back() {
        for value in ["plain", " spaced ", "a#b", "it's", "say \"hi\"", "back`tick", "multi\nline", "a\\nb", "'\"`"] {
            let filled = keep_values("K=\n", &format!("K={}\n", quoted(value)));
            let read = dotenv::parse(&filled.text).unwrap();
            assert_eq!(read.first().map(|e| e.value.as_str()), Some(value), "{value:?}: {}", filled.text);
        }
    }
}
