//! An edited YAML file in its own style: only the scalars and keys an edit changed are rewritten,
//! in place, each in the quoting it had; every other line (indentation, sequence style, quotes,
//! comments, key order) stays as the author wrote it. The result is parsed again and must be the
//! edited document exactly; an edit this cannot express (an entry added or removed, a value that
//! spans lines) is written whole instead, which is always correct.

use serde_json::Value;

use crate::source::{Format, Source};

/// What changed at one place of the document, where the original text has it.
enum Change {
    /// A scalar at `pointer` (a key's value or a sequence item) became `value`.
    Scalar { pointer: String, value: Value },
    /// The key at `pointer` was renamed to `key` (its value is compared on its own).
    Key { pointer: String, key: String },
}

/// The text of `after` written as `original` (the YAML text `before` was read from) is, changing
/// only what differs; `None` when the differences are not all scalars and keys in place.
pub fn yaml_like(original: &Source, before: &Value, after: &Value) -> Option<String> {
    if original.format != Format::Yaml {
        return None;
    }
    let mut changes = Vec::new();
    differences(before, after, &mut String::new(), &mut changes)?;
    // Each change as (start, end, replacement) in the original text, applied from the last.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for change in changes {
        edits.push(match change {
            Change::Scalar { pointer, value } => scalar_edit(original, &pointer, &value)?,
            Change::Key { pointer, key } => key_edit(original, &pointer, &key)?,
        });
    }
    edits.sort_by_key(|(start, _, _)| *start);
    if edits.windows(2).any(|pair| matches!(pair, [(_, end, _), (start, _, _)] if start < end)) {
        return None;
    }
    let mut text = original.text.clone();
    for (start, end, replacement) in edits.into_iter().rev() {
        text.replace_range(start..end, &replacement);
    }
    // Only a text that reads back as the edited document is written this way.
    let reread = Source::from_text(&original.name, None, text.clone()).parse().ok()?;
    (reread == *after).then_some(text)
}

/// Collects what differs between `before` and `after` below `pointer`; `None` when something
/// differs in shape (an entry added, removed or moved, a scalar become a collection).
fn differences(before: &Value, after: &Value, pointer: &mut String, changes: &mut Vec<Change>) -> Option<()> {
    if before == after {
        return Some(());
    }
    match (before, after) {
        (Value::Object(old), Value::Object(new)) if old.len() == new.len() => {
            for ((old_key, old_value), (new_key, new_value)) in old.iter().zip(new) {
                let length = pointer.len();
                crate::pointer::push(pointer, old_key);
                if old_key != new_key {
                    // A renamed key keeps its place; the original text knows it by its old name.
                    if new.contains_key(old_key) || old.contains_key(new_key) {
                        return None;
                    }
                    changes.push(Change::Key { pointer: pointer.clone(), key: new_key.clone() });
                }
                differences(old_value, new_value, pointer, changes)?;
                pointer.truncate(length);
            }
            Some(())
        }
        (Value::Array(old), Value::Array(new)) if old.len() == new.len() => {
            for (index, (old_item, new_item)) in old.iter().zip(new).enumerate() {
                let length = pointer.len();
                crate::pointer::push(pointer, &index.to_string());
                differences(old_item, new_item, pointer, changes)?;
                pointer.truncate(length);
            }
            Some(())
        }
        (old, new) if is_scalar(old) && is_scalar(new) => {
            changes.push(Change::Scalar { pointer: pointer.clone(), value: new.clone() });
            Some(())
        }
        _ => None,
    }
}

fn is_scalar(value: &Value) -> bool {
    !matches!(value, Value::Object(_) | Value::Array(_))
}

/// The replacement of the scalar at `pointer`: its token on the line the key or item is on.
fn scalar_edit(original: &Source, pointer: &str, value: &Value) -> Option<(usize, usize, String)> {
    let text = original.text.as_str();
    let at = original.locate_offset(pointer)?;
    let is_item = pointer.rsplit('/').next().is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()));
    let start = if is_item {
        // The item's dash (when the offset is at it), then the value.
        let rest = text.get(at..)?;
        match rest.strip_prefix('-') {
            Some(after_dash) if after_dash.starts_with(' ') => at + 1 + spaces(after_dash),
            _ => at,
        }
    } else {
        // The key, then `:` and the spaces before the value.
        let key_end = token_end(text, at)?;
        let after_key = key_end + spaces(text.get(key_end..)?);
        let after_colon = after_key + text.get(after_key..)?.strip_prefix(':').map(|_| 1)?;
        after_colon + spaces(text.get(after_colon..)?)
    };
    let end = token_end(text, start)?;
    let old = text.get(start..end)?;
    Some((start, end, styled_like(old, value)?))
}

/// The replacement of the key at `pointer`, in the quoting it had.
fn key_edit(original: &Source, pointer: &str, key: &str) -> Option<(usize, usize, String)> {
    let text = original.text.as_str();
    let start = original.locate_offset(pointer)?;
    let end = token_end(text, start)?;
    let old = text.get(start..end)?;
    Some((start, end, styled_like(old, &Value::String(key.to_owned()))?))
}

/// Spaces at the start of `text`.
fn spaces(text: &str) -> usize {
    text.len() - text.trim_start_matches(' ').len()
}

/// The end of the one-line scalar (or key) token starting at `start`: its closing quote, or, for a
/// plain one, before `: `, ` #` or the line's end. `None` for what this does not rewrite: a block
/// scalar, a flow collection, an alias or tag, a quoted scalar that goes on to the next line.
fn token_end(text: &str, start: usize) -> Option<usize> {
    let rest = text.get(start..)?;
    let line = rest.split(['\n', '\r']).next()?;
    match line.chars().next()? {
        '\'' => {
            let mut index = 1;
            loop {
                let found = line.get(index..)?.find('\'')? + index;
                if line.get(found + 1..)?.starts_with('\'') {
                    index = found + 2;
                } else {
                    return Some(start + found + 1);
                }
            }
        }
        '"' => {
            let mut escaped = false;
            for (index, c) in line.char_indices().skip(1) {
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => return Some(start + index + 1),
                    _ => escaped = false,
                }
            }
            None
        }
        '|' | '>' | '[' | '{' | '&' | '*' | '!' => None,
        _ => {
            let mut end = line.len();
            for (index, _) in line.match_indices(": ").chain(line.match_indices(" #")) {
                end = end.min(index);
            }
            if line.ends_with(':') {
                end = end.min(line.len() - 1);
            }
            let token = line.get(..end)?.trim_end();
            (!token.is_empty()).then_some(start + token.len())
        }
    }
}

/// `value` written as a YAML scalar in the quoting `old` had, when that quoting can hold it (else
/// as the emitter writes it: plain only when no reader could take it for anything else).
fn styled_like(old: &str, value: &Value) -> Option<String> {
    let Value::String(text) = value else { return Some(crate::emit::yaml_scalar(value)) };
    let single_ok = !text.chars().any(|c| c.is_control());
    Some(if old.starts_with('\'') && single_ok {
        format!("'{}'", text.replace('\'', "''"))
    } else if old.starts_with('"') {
        serde_json::to_string(text).ok()?
    } else {
        crate::emit::yaml_scalar(value)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn restyled(text: &str, edit: impl Fn(&mut Value)) -> Option<String> {
        let source = Source::from_text("ois.yaml", None, text.to_owned());
        let before = source.parse().ok()?;
        let mut after = before.clone();
        edit(&mut after);
        yaml_like(&source, &before, &after)
    }

    #[test]
    fn only_the_changed_scalars_and_keys_change() {
        let text = "# refined by hand\ntitle: 'Coins'\nendpoints:\n    -   name: price   # the spot price\n        operation: {method: get, path: /price}\n    -   name: \"feed\"\nids:\n  old-key: 1\n";
        let done = restyled(text, |v| {
            v["endpoints"][0]["name"] = json!("spot");
            v["endpoints"][1]["name"] = json!("it's");
            v["title"] = json!("Coin's");
        })
        .unwrap();
        assert_eq!(
            done,
            "# refined by hand\ntitle: 'Coin''s'\nendpoints:\n    -   name: spot   # the spot price\n        operation: {method: get, path: /price}\n    -   name: \"it's\"\nids:\n  old-key: 1\n"
        );
        let renamed = restyled(text, |v| {
            let ids = v["ids"].as_object_mut().unwrap();
            ids.remove("old-key");
            ids.insert("new-key".into(), json!(1));
        })
        .unwrap();
        assert!(renamed.ends_with("ids:\n  new-key: 1\n"), "{renamed}");
    }

    #[test]
    fn what_cannot_be_rewritten_in_place_is_not() {
        let text = "a: |\n  block\nb:\n  - 1\nc: x\n";
        assert!(restyled(text, |v| v["a"] = json!("other")).is_none());
        assert!(restyled(text, |v| v["b"].as_array_mut().unwrap().push(json!(2))).is_none());
        assert!(restyled(text, |v| v["c"] = json!({"d": 1})).is_none());
        // A value that would read as something else is quoted.
        assert_eq!(restyled(text, |v| v["c"] = json!("yes")).unwrap(), "a: |\n  block\nb:\n  - 1\nc: 'yes'\n");
        assert_eq!(restyled(text, |v| v["b"][0] = json!(7)).unwrap(), "a: |\n  block\nb:\n  - 7\nc: x\n");
    }
}
