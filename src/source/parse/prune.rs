//! A parse for a reader that reads only part of a document: a conversion never reads an
//! operation's `responses`, nor more than the name and tags of an operation it skips, and in a
//! big API that is most of the text. What the reader leaves unread is checked as strictly as the
//! rest (syntax, duplicate keys, nesting, numbers), but no value is built for it: it is absent
//! from the result. Its own `$ref`s are never followed, so where they lead does not matter; a
//! `$ref` in what is read that leads into what was left out makes the caller parse the whole text
//! again ([`take_unread_reached`]).
//!
//! Schemas are read only where a `$ref` leads ([`Reading::Referenced`]): a big document's parse
//! checks each one and keeps its text, for the resolver to parse when a `$ref` first leads there
//! (`Source::take_unparsed`).

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::seeds::{self, KeySeed, ValueSeed, ValueVisitor};
use super::state::{self, Interest, Reading, with_interest};

/// A value at `path` read by [`Reading::Members`]: its members each as `interest` says, the
/// ones it reads for nothing checked but left out. Anything else is read whole.
pub(super) struct PrunedSeed<'p> {
    pub(super) interest: Interest,
    pub(super) path: &'p [&'p str],
}

impl<'de> DeserializeSeed<'de> for PrunedSeed<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// The member or element `key` of the value at `path`, as a path of its own.
fn below<'p>(path: &[&'p str], key: &'p str) -> Vec<&'p str> {
    let mut below = Vec::with_capacity(path.len() + 1);
    below.extend_from_slice(path);
    below.push(key);
    below
}

impl<'de> Visitor<'de> for PrunedSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        ValueVisitor.visit_bool(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        ValueVisitor.visit_i64(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        ValueVisitor.visit_u64(v)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        ValueVisitor.visit_f64(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        ValueVisitor.visit_str(v)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        ValueVisitor.visit_unit()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        if !state::open_level() {
            return Err(de::Error::custom(seeds::TOO_DEEP_FOR_A_PIECE));
        }
        let mut items = seeds::Chunked::default();
        let mut index = 0_usize;
        loop {
            let index_text = index.to_string();
            let path = below(self.path, &index_text);
            let item = match (self.interest)(&path).of_element() {
                Reading::Members => seq.next_element_seed(PrunedSeed { interest: self.interest, path: &path })?,
                Reading::KeyOnly => seq.next_element_seed(KeyOnlySeed)?,
                Reading::Whole | Reading::Nothing | Reading::Referenced => seq.next_element_seed(ValueSeed)?,
            };
            let Some(item) = item else { break };
            items.push(item);
            index += 1;
        }
        state::close_level();
        Ok(Value::Array(items.into_vec()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        if !state::open_level() {
            return Err(de::Error::custom(seeds::TOO_DEEP_FOR_A_PIECE));
        }
        let mut object = Map::new();
        // Members left out still count as written: a key written twice is an error either way.
        let mut left_out = Keys::default();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let path = below(self.path, &key);
            let value = match (self.interest)(&path) {
                Reading::Whole | Reading::Referenced => map.next_value_seed(ValueSeed)?,
                Reading::Members => map.next_value_seed(PrunedSeed { interest: self.interest, path: &path })?,
                Reading::KeyOnly => map.next_value_seed(KeyOnlySeed)?,
                Reading::Nothing => {
                    with_interest(None, || map.next_value_seed(CheckSeed))?;
                    if object.contains_key(&key) {
                        return Err(seeds::duplicate_key(&key));
                    }
                    if let Some(again) = left_out.insert(Cow::Owned(key)) {
                        return Err(seeds::duplicate_key(&again));
                    }
                    continue;
                }
            };
            state::note_member(&key, value.as_str());
            if left_out.contains(&key) {
                return Err(seeds::duplicate_key(&key));
            }
            seeds::insert_member(&mut object, key, value)?;
        }
        state::close_level();
        Ok(Value::Object(object))
    }
}

/// A value read for its key (or index) only ([`Reading::KeyOnly`]): checked as [`CheckSeed`]
/// checks it, without following its `$ref`s, and kept as `null`, or as the texts in it that
/// matter ([`KeptTexts`]).
pub(super) struct KeyOnlySeed;

impl<'de> DeserializeSeed<'de> for KeyOnlySeed {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        let kept = with_interest(None, || KeptTexts.deserialize(deserializer))?;
        Ok(kept.unwrap_or(Value::Null))
    }
}

/// A value checked as [`CheckSeed`] checks it, giving back only the texts in it that matter
/// ([`state::text_matters`]), each in its place: `None` when there is none.
struct KeptTexts;

impl<'de> DeserializeSeed<'de> for KeptTexts {
    type Value = Option<Value>;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Option<Value>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for KeptTexts {
    type Value = Option<Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Option<Value>, E> {
        Ok(None)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Option<Value>, E> {
        Ok(None)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Option<Value>, E> {
        Ok(None)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Option<Value>, E> {
        ValueVisitor.visit_f64(v).map(|_| None)
    }

    fn visit_str<E>(self, v: &str) -> Result<Option<Value>, E> {
        Ok(state::text_matters(v).then(|| Value::String(v.to_owned())))
    }

    fn visit_unit<E>(self) -> Result<Option<Value>, E> {
        Ok(None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<Value>, A::Error> {
        if !state::open_level() {
            return Err(de::Error::custom(seeds::TOO_DEEP_FOR_A_PIECE));
        }
        let mut kept = Map::new();
        let mut index = 0_usize;
        while let Some(item) = seq.next_element_seed(KeptTexts)? {
            if let Some(item) = item {
                kept.insert(index.to_string(), item);
            }
            index += 1;
        }
        state::close_level();
        Ok((!kept.is_empty()).then_some(Value::Object(kept)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<Value>, A::Error> {
        if !state::open_level() {
            return Err(de::Error::custom(seeds::TOO_DEEP_FOR_A_PIECE));
        }
        let mut kept = Map::new();
        let mut keys = Keys::default();
        while let Some(key) = map.next_key_seed(BorrowedKey)? {
            let item = if key == "$ref" {
                let value = map.next_value_seed(ValueSeed)?;
                state::note_member(&key, value.as_str());
                value.as_str().is_some_and(state::text_matters).then_some(value)
            } else {
                map.next_value_seed(KeptTexts)?
            };
            if item.is_some() || state::text_matters(&key) {
                kept.insert(key.to_string(), item.unwrap_or(Value::Null));
            }
            if let Some(again) = keys.insert(key) {
                return Err(seeds::duplicate_key(&again));
            }
        }
        state::close_level();
        Ok((!kept.is_empty()).then_some(Value::Object(kept)))
    }
}

/// A value read for nothing: checked as [`ValueSeed`] would check it, building nothing.
pub(super) struct CheckSeed;

impl<'de> DeserializeSeed<'de> for CheckSeed {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for CheckSeed {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        ValueVisitor.visit_f64(v).map(drop)
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        if !state::open_level() {
            return Err(de::Error::custom(seeds::TOO_DEEP_FOR_A_PIECE));
        }
        while seq.next_element_seed(CheckSeed)?.is_some() {}
        state::close_level();
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        if !state::open_level() {
            return Err(de::Error::custom(seeds::TOO_DEEP_FOR_A_PIECE));
        }
        let mut keys = Keys::default();
        while let Some(key) = map.next_key_seed(BorrowedKey)? {
            if key == "$ref" {
                let value = map.next_value_seed(ValueSeed)?;
                state::note_member(&key, value.as_str());
            } else {
                map.next_value_seed(CheckSeed)?;
            }
            if let Some(again) = keys.insert(key) {
                return Err(seeds::duplicate_key(&again));
            }
        }
        state::close_level();
        Ok(())
    }
}

/// The keys of one object met so far: a short list is searched, a long one hashed, so an object
/// with thousands of members costs a lookup each.
#[derive(Default)]
pub(super) struct Keys<'de> {
    few: Vec<Cow<'de, str>>,
    many: foldhash::HashSet<Cow<'de, str>>,
}

/// Keys searched one by one, up to this many.
const FEW_KEYS: usize = 16;

impl<'de> Keys<'de> {
    /// Whether `key` is there.
    pub(super) fn contains(&self, key: &str) -> bool {
        if self.many.is_empty() { self.few.iter().any(|known| known == key) } else { self.many.contains(key) }
    }

    /// Adds `key`; gives it back when it was already there.
    pub(super) fn insert(&mut self, key: Cow<'de, str>) -> Option<Cow<'de, str>> {
        if self.many.is_empty() {
            if self.few.contains(&key) {
                return Some(key);
            }
            if self.few.len() < FEW_KEYS {
                self.few.push(key);
                return None;
            }
            self.many.extend(self.few.drain(..));
        }
        if self.many.contains(&key) {
            return Some(key);
        }
        self.many.insert(key);
        None
    }
}

/// A JSON key as the text has it, copied only when written with escapes.
struct BorrowedKey;

impl<'de> DeserializeSeed<'de> for BorrowedKey {
    type Value = Cow<'de, str>;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for BorrowedKey {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;
    use crate::source::Source;
    use crate::source::parse::state::{REF_LEVELS, reaches_unread};

    /// Reads the root and its `a` by members: `a/b` and the root's `c` are read for nothing.
    fn interest(path: &[&str]) -> Reading {
        match path {
            [] | ["a"] => Reading::Members,
            ["a", "b"] | ["c"] => Reading::Nothing,
            _ => Reading::Whole,
        }
    }

    fn parsed(text: &str) -> (Result<Value, crate::Diagnostic>, Result<Value, crate::Diagnostic>) {
        let source = |text: &str| Source::from_text("a.json", None, text.to_owned());
        (source(text).parse_for(interest), source(text).parse())
    }

    /// `value` without what [`interest`] leaves out.
    fn pruned(mut value: Value) -> Value {
        if let Some(root) = value.as_object_mut() {
            root.shift_remove("c");
            if let Some(Value::Object(a)) = root.get_mut("a") {
                a.shift_remove("b");
            }
        }
        value
    }

    #[test]
    fn what_is_read_for_nothing_is_left_out_and_the_rest_is_as_parsed_whole() {
        let text =
            r##"{"a": {"x": 1, "b": {"deep": [1, {"$ref": "#/a/x"}]}, "y": [{"b": 2}]}, "c": "gone", "d": {"b": 3}}"##;
        let (pruned_value, whole) = parsed(text);
        assert_eq!(pruned_value.unwrap(), json!({"a": {"x": 1, "y": [{"b": 2}]}, "d": {"b": 3}}));
        assert_eq!(pruned(whole.unwrap()), json!({"a": {"x": 1, "y": [{"b": 2}]}, "d": {"b": 3}}));
        // An array or a scalar where members are read is read whole.
        let (pruned_value, _) = parsed(r#"{"a": [{"b": 1}], "c": 2}"#);
        assert_eq!(pruned_value.unwrap(), json!({"a": [{"b": 1}]}));
    }

    #[test]
    fn what_is_wrong_in_what_is_left_out_is_the_error_the_whole_parse_reports() {
        for unread in [r#"{"k": 1, "k": 2}"#, r#"{"k": 1e400}"#, r#""\ud800""#, r#"[1,]"#, r#"{"k" 1}"#, r#"tru"#] {
            for text in [format!(r#"{{"a": {{"b": {unread}}}}}"#), format!(r#"{{"c": {unread}, "a": {{}}}}"#)] {
                let (pruned_value, whole) = parsed(&text);
                let (pruned_error, whole_error) = (pruned_value.unwrap_err(), whole.unwrap_err());
                assert_eq!(pruned_error, whole_error, "{text}");
            }
        }
        // A key left out counts as written.
        for text in [
            r#"{"c": 1, "c": 2}"#,
            r#"{"c": 1, "a": {}, "c": 2}"#,
            r#"{"a": {"b": 1, "b": 2}}"#,
            r#"{"a": {"x": 1, "b": 1, "x": 2}}"#,
        ] {
            let (pruned_value, whole) = parsed(text);
            assert_eq!(pruned_value.unwrap_err().code, crate::Code::DuplicateKey, "{text}");
            assert_eq!(whole.unwrap_err().code, crate::Code::DuplicateKey);
        }
        let deep = format!(r#"{{"c": {}{}}}"#, "[".repeat(200), "]".repeat(200));
        let (pruned_value, whole) = parsed(&deep);
        assert_eq!(pruned_value.unwrap_err(), whole.unwrap_err());
    }

    #[test]
    fn a_ref_into_what_would_be_left_out_keeps_everything() {
        for reference in ["#/c", "#/a/b/deep", "#/a", "#", "#/a/%62", "#/a/b/~0", "#/%ff", "x"] {
            let text = format!(r#"{{"a": {{"b": {{"deep": 1}}}}, "c": 2, "d": {{"$ref": "{reference}"}}}}"#);
            let (pruned_value, whole) = parsed(&text);
            assert_eq!(pruned_value.unwrap(), whole.unwrap(), "{reference}");
        }
        // Written inside what is left out, it is never followed; one that leads elsewhere changes
        // nothing either.
        let text = r##"{"a": {"b": {"$ref": "#/c/x"}}, "c": {"x": 1}, "d": {"$ref": "#/d"}}"##;
        assert_eq!(parsed(text).0.unwrap(), json!({"a": {}, "d": {"$ref": "#/d"}}));
        let text = r##"{"a": {"b": {"$ref": "#/d"}, "x": {"$ref": "#/a/x"}}, "c": {"$ref": "#/e~0f"}, "d": 1}"##;
        assert_eq!(parsed(text).0.unwrap(), json!({"a": {"x": {"$ref": "#/a/x"}}, "d": 1}));
    }

    #[test]
    fn only_a_plain_local_pointer_is_followed_and_only_a_few_levels() {
        let deep = |path: &[&str]| if path.len() < 20 { Reading::Members } else { Reading::Nothing };
        assert!(!reaches_unread(interest, "#/d/b"));
        assert!(!reaches_unread(interest, "#/a/x/b"));
        assert!(reaches_unread(interest, "#/a/b/x"));
        assert!(!reaches_unread(interest, "#/a/%78"));
        assert!(reaches_unread(interest, "#/a/%62"));
        assert!(reaches_unread(interest, "#/%ff"));
        assert!(reaches_unread(interest, "#/a/~2"));
        assert!(reaches_unread(deep, &format!("#{}", "/x".repeat(REF_LEVELS))));
        assert!(reaches_unread(deep, &format!("#{}", "/x".repeat(REF_LEVELS + 1))));
    }

    #[test]
    fn a_ref_into_a_member_of_what_is_read_by_reference_is_there_to_be_parsed() {
        let by_reference = |path: &[&str]| match path {
            [] | ["components"] => Reading::Members,
            ["components", "schemas"] => Reading::Referenced,
            _ => Reading::Whole,
        };
        assert!(!reaches_unread(by_reference, "#/components/schemas/Pet"));
        assert!(!reaches_unread(by_reference, "#/components/schemas/Pet/properties/a"));
        assert!(!reaches_unread(by_reference, "#/components/schemas/a~1b%20c"));
        assert!(reaches_unread(by_reference, "#/components/schemas"));
        assert!(!reaches_unread(by_reference, "#/components/parameters/P"));
    }

    #[test]
    fn a_ref_to_another_file_keeps_everything_and_one_to_a_url_only_when_it_is_the_document_s() {
        let read = |text: &str| {
            let source = Source::from_text("a.json", None, text.to_owned());
            let value = source.parse_for(interest).unwrap();
            assert_eq!(source.names_other_documents(), Some(true));
            (value, source.parse().unwrap())
        };
        let (pruned_value, whole) = read(r#"{"a": {"b": {"$ref": "other.json#/x"}}, "c": 1}"#);
        assert_eq!(pruned_value, whole);
        // A URL is never fetched: it cannot lead back here, unless it names this very document.
        let (pruned_value, whole) = read(r#"{"a": {"b": 1}, "d": {"$ref": "https://example.com/a.json#/c"}, "c": 1}"#);
        assert_eq!(pruned_value, pruned(whole));
        let (pruned_value, whole) = read(
            r#"{"$self": "https://example.com/a.json", "a": {"b": 1}, "d": {"$ref": "https://example.com/a.json#/c"}, "c": 1}"#,
        );
        assert_eq!(pruned_value, whole);
    }

    #[test]
    fn keys_are_told_apart_in_objects_of_any_size() {
        for size in [0, 1, FEW_KEYS - 1, FEW_KEYS, FEW_KEYS + 1, 100] {
            let mut keys = Keys::default();
            for n in 0..size {
                assert_eq!(keys.insert(Cow::Owned(n.to_string())), None);
            }
            for n in 0..size {
                assert_eq!(keys.insert(Cow::Owned(n.to_string())), Some(Cow::Owned(n.to_string())));
            }
        }
    }

    proptest! {
        #[test]
        fn a_pruned_parse_is_the_whole_parse_less_what_is_unread(
            members in prop::collection::vec(("[a-d]", crate::testing::json_value()), 0..6),
            pretty in any::<bool>(),
        ) {
            let root = Value::Object(members.into_iter().collect());
            let text = if pretty { serde_json::to_string_pretty(&root) } else { serde_json::to_string(&root) }.unwrap();
            let (pruned_value, whole) = parsed(&text);
            let (pruned_value, whole) = (pruned_value.unwrap(), whole.unwrap());
            if text.contains("$ref") {
                // Unless a `$ref` led into what would be left out.
                prop_assert!(pruned_value == pruned(whole.clone()) || pruned_value == whole);
            } else {
                prop_assert_eq!(pruned_value, pruned(whole));
            }
        }
    }
}
