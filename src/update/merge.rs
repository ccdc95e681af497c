//! The three-way merge of JSON values: a change on one side only is taken from that side; where
//! both changed the same thing differently, ours (the user's) is kept and the conflict reported.
//! Lists of identified items (parameters) merge item by item, new items going where the side that
//! added them has them.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use serde_json::{Map, Value};

use crate::diagnostic::{Code, Diagnostic};

/// Whether a base is known. Without one (`TwoWay`), what both sides have is ours, what one side
/// has is kept, and nothing is a conflict.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Mode {
    ThreeWay,
    TwoWay,
}

/// Where a value is in ours (the OIS file) and in theirs (what the converter now generates).
#[derive(Clone)]
pub(super) struct Place {
    pub ours: String,
    pub theirs: String,
}

impl Place {
    pub fn root() -> Place {
        Place { ours: String::new(), theirs: String::new() }
    }

    pub fn key(&self, key: &str) -> Place {
        Place { ours: crate::pointer::join(&self.ours, [key]), theirs: crate::pointer::join(&self.theirs, [key]) }
    }

    pub fn indexes(&self, ours: usize, theirs: Option<usize>) -> Place {
        Place {
            ours: crate::pointer::join(&self.ours, [ours.to_string().as_str()]),
            theirs: theirs
                .map_or_else(|| self.theirs.clone(), |i| crate::pointer::join(&self.theirs, [i.to_string().as_str()])),
        }
    }
}

/// What the merge says as it goes.
#[derive(Default)]
pub(super) struct Notes {
    pub diagnostics: Vec<Diagnostic>,
}

impl Notes {
    pub fn conflict(&mut self, place: &Place, ours: Option<&Value>, theirs: Option<&Value>) {
        let show = |value: Option<&Value>| value.map_or_else(|| "nothing".to_owned(), short);
        self.diagnostics.push(
            Diagnostic::new(
                Code::UpdateConflict,
                place.ours.clone(),
                format!(
                    "the OIS and the API both changed this: the OIS has {}, the API now gives {} (at {} of the generated OIS); the OIS's is kept",
                    show(ours),
                    show(theirs),
                    if place.theirs.is_empty() { "/" } else { &place.theirs }
                ),
            )
            .with_help("take the API's by editing the OIS after the update, or keep yours"),
        );
    }
}

/// A value in a message: short, on one line.
pub(super) fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 60 { format!("{}…", text.chars().take(60).collect::<String>()) } else { text }
}

/// One value three ways. `None` is "absent".
pub(super) fn value(
    base: Option<&Value>,
    ours: Option<&Value>,
    theirs: Option<&Value>,
    mode: Mode,
    place: &Place,
    notes: &mut Notes,
) -> Option<Value> {
    if ours == theirs {
        return ours.cloned();
    }
    if mode == Mode::TwoWay {
        return ours.or(theirs).cloned();
    }
    if base == ours {
        return theirs.cloned();
    }
    if base == theirs {
        return ours.cloned();
    }
    if let (Some(Value::Object(b)), Some(Value::Object(o)), Some(Value::Object(t))) = (base, ours, theirs) {
        return Some(Value::Object(object(Some(b), o, t, mode, place, notes, &|_, _, _, _, _, _| None)));
    }
    notes.conflict(place, ours, theirs);
    ours.cloned()
}

/// A field merger for a key that needs more than [`value`] (a list of identified items, say):
/// `(key, base, ours, theirs, place, notes)`; `None` lets [`value`] do it.
pub(super) type Special<'a> =
    dyn Fn(&str, Option<&Value>, Option<&Value>, Option<&Value>, &Place, &mut Notes) -> Option<Option<Value>> + 'a;

/// An object, key by key: ours' keys in ours' order, keys only theirs has where theirs has them.
pub(super) fn object(
    base: Option<&Map<String, Value>>,
    ours: &Map<String, Value>,
    theirs: &Map<String, Value>,
    mode: Mode,
    place: &Place,
    notes: &mut Notes,
    special: &Special<'_>,
) -> Map<String, Value> {
    let keys = ordered_keys(ours.keys().map(String::as_str), theirs.keys().map(String::as_str));
    let mut merged = Map::new();
    for key in keys {
        let (b, o, t) = (base.and_then(|m| m.get(key)), ours.get(key), theirs.get(key));
        let at = place.key(key);
        let result = match special(key, b, o, t, &at, notes) {
            Some(result) => result,
            None => value(b, o, t, mode, &at, notes),
        };
        if let Some(result) = result {
            merged.insert(key.to_owned(), result);
        }
    }
    merged
}

/// Ours' keys in order, each key only theirs has right after the key theirs has before it (at
/// the start when there is none).
pub(super) fn ordered_keys<'k>(
    ours: impl Iterator<Item = &'k str>,
    theirs: impl Iterator<Item = &'k str>,
) -> Vec<&'k str> {
    let existing: Vec<(Option<&str>, &str)> = ours.map(|key| (Some(key), key)).collect();
    let mut present: HashSet<&str> = existing.iter().map(|(_, key)| *key).collect();
    let mut additions = Vec::new();
    let mut previous: Option<&str> = None;
    for key in theirs {
        if present.insert(key) {
            additions.push((previous, key, key));
        }
        previous = Some(key);
    }
    interleave(existing, additions)
}

/// `existing` (each entry with its key, if it has one) with `additions` (anchor, key, value) put
/// in: each right after the entry or earlier addition its anchor names, or first when it has no
/// anchor; additions with one anchor keep their order. An addition whose anchor never comes goes
/// last. Linear in the number of entries.
pub(super) fn interleave<K: Hash + Eq + Clone, T>(
    existing: Vec<(Option<K>, T)>,
    additions: Vec<(Option<K>, K, T)>,
) -> Vec<T> {
    let mut followers: HashMap<K, Vec<usize>> = HashMap::new();
    let mut first = Vec::new();
    let mut slots: Vec<Option<(K, T)>> = Vec::with_capacity(additions.len());
    for (index, (anchor, key, value)) in additions.into_iter().enumerate() {
        match anchor {
            Some(anchor) => followers.entry(anchor).or_default().push(index),
            None => first.push(index),
        }
        slots.push(Some((key, value)));
    }
    let mut out = Vec::new();
    // Each addition, then (depth first) what follows it.
    let emit = |start: &[usize], out: &mut Vec<T>, slots: &mut Vec<Option<(K, T)>>| {
        let mut stack: Vec<usize> = start.iter().rev().copied().collect();
        while let Some(index) = stack.pop() {
            let Some((key, value)) = slots.get_mut(index).and_then(Option::take) else { continue };
            out.push(value);
            if let Some(next) = followers.get(&key) {
                stack.extend(next.iter().rev());
            }
        }
    };
    emit(&first, &mut out, &mut slots);
    for (key, value) in existing {
        out.push(value);
        if let Some(next) = key.and_then(|key| followers.get(&key).cloned()) {
            emit(&next, &mut out, &mut slots);
        }
    }
    out.extend(slots.into_iter().flatten().map(|(_, value)| value));
    out
}

/// A list of items each identified by `identify` (items without an identity are ours alone).
/// Items are merged by [`value`]; an item the API removed goes, one the user removed stays gone,
/// one either side added is kept, a new one from theirs right after the item theirs has before it.
pub(super) fn list(
    base: Option<&Value>,
    ours: &[Value],
    theirs: &[Value],
    identify: &dyn Fn(&Value) -> Option<String>,
    mode: Mode,
    place: &Place,
    notes: &mut Notes,
) -> Vec<Value> {
    let index = |items: &[Value]| -> HashMap<String, usize> {
        let mut map = HashMap::new();
        for (i, item) in items.iter().enumerate() {
            if let Some(id) = identify(item) {
                map.entry(id).or_insert(i);
            }
        }
        map
    };
    let base_items: &[Value] = base.and_then(Value::as_array).map_or(&[], Vec::as_slice);
    let (base_ids, our_ids, their_ids) = (index(base_items), index(ours), index(theirs));
    let mut merged: Vec<(Option<String>, Value)> = Vec::new();
    for (i, item) in ours.iter().enumerate() {
        let Some(id) = identify(item) else {
            merged.push((None, item.clone()));
            continue;
        };
        if our_ids.get(&id) != Some(&i) {
            merged.push((None, item.clone()));
            continue;
        }
        let b = base_ids.get(&id).and_then(|&j| base_items.get(j));
        let t = their_ids.get(&id).and_then(|&j| theirs.get(j));
        let at = place.indexes(i, their_ids.get(&id).copied());
        let b = if mode == Mode::TwoWay { t } else { b };
        match (b, t) {
            // Gone from the API: removed (whoever changed it).
            (Some(_), None) => continue,
            _ => {
                // Not in theirs (and so not in base either): only ours has it.
                if let Some(value) = value(b, Some(item), t.or(Some(item)), mode, &at, notes) {
                    merged.push((Some(id), value));
                }
            }
        }
    }
    let mut present: HashSet<String> = merged.iter().filter_map(|(id, _)| id.clone()).collect();
    let mut additions = Vec::new();
    let mut previous: Option<String> = None;
    for item in theirs {
        let Some(id) = identify(item) else { continue };
        let removed_by_user = mode == Mode::ThreeWay && base_ids.contains_key(&id);
        if !present.contains(&id) && !removed_by_user {
            present.insert(id.clone());
            additions.push((previous.clone(), id.clone(), item.clone()));
        }
        if present.contains(&id) {
            previous = Some(id);
        }
    }
    interleave(merged, additions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn merge3(base: Value, ours: Value, theirs: Value) -> (Option<Value>, usize) {
        let mut notes = Notes::default();
        let merged = value(Some(&base), Some(&ours), Some(&theirs), Mode::ThreeWay, &Place::root(), &mut notes);
        (merged, notes.diagnostics.len())
    }

    #[test]
    fn one_side_changes_are_taken_and_both_side_changes_keep_ours() {
        assert_eq!(merge3(json!("a"), json!("a"), json!("b")), (Some(json!("b")), 0));
        assert_eq!(merge3(json!("a"), json!("c"), json!("a")), (Some(json!("c")), 0));
        assert_eq!(merge3(json!("a"), json!("c"), json!("b")), (Some(json!("c")), 1));
        assert_eq!(merge3(json!("a"), json!("b"), json!("b")), (Some(json!("b")), 0));
        let (merged, conflicts) =
            merge3(json!({"x": 1, "y": 1}), json!({"x": 2, "y": 1}), json!({"x": 1, "y": 3, "z": 4}));
        assert_eq!(merged, Some(json!({"x": 2, "y": 3, "z": 4})));
        assert_eq!(conflicts, 0);
    }

    #[test]
    fn new_keys_go_where_theirs_has_them() {
        assert_eq!(ordered_keys(["a", "c"].into_iter(), ["a", "b", "c", "d"].into_iter()), ["a", "b", "c", "d"]);
        assert_eq!(ordered_keys(["c", "a"].into_iter(), ["z", "a"].into_iter()), ["z", "c", "a"]);
    }

    #[test]
    fn additions_follow_their_anchors_in_order() {
        let existing = vec![(Some("a"), "a"), (None, "x"), (Some("b"), "b")];
        let additions = vec![
            (Some("a"), "a1", "a1"),
            (Some("a1"), "a2", "a2"),
            (None, "z", "z"),
            (Some("a"), "a3", "a3"),
            (Some("gone"), "q", "q"),
        ];
        assert_eq!(interleave(existing, additions), ["z", "a", "a1", "a2", "a3", "x", "b", "q"]);
    }

    #[test]
    fn lists_merge_by_identity() {
        let id = |v: &Value| v.get("id").and_then(Value::as_str).map(str::to_owned);
        let base = json!([{"id": "a"}, {"id": "b"}, {"id": "c"}]);
        // The user deleted b and changed c; the API removed a, added d after c and e first.
        let ours = [json!({"id": "c", "note": "mine"}), json!({"id": "u"})];
        let theirs = [json!({"id": "e"}), json!({"id": "b"}), json!({"id": "c"}), json!({"id": "d"})];
        let mut notes = Notes::default();
        let merged = list(Some(&base), &ours, &theirs, &id, Mode::ThreeWay, &Place::root(), &mut notes);
        assert_eq!(
            merged,
            [json!({"id": "e"}), json!({"id": "c", "note": "mine"}), json!({"id": "d"}), json!({"id": "u"})]
        );
        assert!(notes.diagnostics.is_empty());
    }
}
