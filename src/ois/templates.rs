//! `${…}` in an OIS. The node and Airnode Feed interpolate secrets over the whole config.json
//! when they start: an unescaped `${NAME}` anywhere is replaced by the secret NAME (loading fails
//! when there is none), and `\${` is how a literal `${` is written.

use serde_json::Value;

/// Whether `text` has a `${` the node would interpolate (one not preceded by `\`).
pub fn has_unescaped(text: &str) -> bool {
    text.match_indices("${").any(|(at, _)| !text.get(..at).is_some_and(|before| before.ends_with('\\')))
}

/// `text` with a `\` before every `${`, so the node's interpolation gives back `text` as it is
/// (a `\${` already there becomes `\\${`, which the node reads as `\${`). `None` when `text` has
/// no `${`.
pub fn escape(text: &str) -> Option<String> {
    text.contains("${").then(|| text.replace("${", "\\${"))
}

/// The pointers (below `at`) of every string and key of `value` with an unescaped `${`, in
/// document order; a key's pointer is the pointer of its value.
pub fn find_unescaped(value: &Value, at: &mut String, found: &mut Vec<String>) {
    match value {
        Value::String(text) if has_unescaped(text) => found.push(at.clone()),
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                let length = at.len();
                crate::pointer::push(at, &index.to_string());
                find_unescaped(item, at, found);
                at.truncate(length);
            }
        }
        Value::Object(entries) => {
            for (key, item) in entries {
                let length = at.len();
                crate::pointer::push(at, key);
                if has_unescaped(key) {
                    found.push(at.clone());
                }
                find_unescaped(item, at, found);
                at.truncate(length);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn escapes_and_finds_templates() {
        assert!(has_unescaped("in ${Region}") && !has_unescaped("in \\${Region}") && !has_unescaped("$ {x}"));
        assert!(has_unescaped("\\${a} ${b}"));
        assert_eq!(escape("a ${x} \\${y}").as_deref(), Some("a \\${x} \\\\${y}"));
        assert_eq!(escape("no template {x} $"), None);
        let mut found = Vec::new();
        find_unescaped(&json!({"a": ["\\${ok}", "${no}"], "k${": 1}), &mut String::new(), &mut found);
        assert_eq!(found, ["/a/1", "/k${"]);
    }
}
