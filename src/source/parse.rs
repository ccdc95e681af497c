//! Builds a `serde_json::Value` from JSON or YAML with the checks both formats need: duplicate keys
//! are errors (serde_json would silently keep the last one), YAML's non-string keys (`200:`) become
//! strings, and numbers JSON cannot hold are errors instead of turning into `null`.

use std::cell::{Cell, RefCell};
use std::fmt;

use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::prune::{Interest, PrunedSeed, Reading};
use super::split::Landmark;

/// Prefix of the error message for duplicate keys, recognised when the error is classified.
pub(crate) const DUPLICATE_KEY: &str = "duplicate key";
/// Prefix of the error message for NaN and infinities.
pub(crate) const NOT_A_NUMBER: &str = "number out of JSON range";
/// Only a piece of a split parse meets it, and the whole parse then runs instead.
pub(super) const TOO_DEEP_FOR_A_PIECE: &str = "nested too deep for a piece";

pub(crate) struct ValueSeed;

thread_local! {
    /// The local YAML tags (`!Sub`, `!Ref`) read on this thread since the last `take_tags`: how
    /// many, and the first.
    static TAGS: RefCell<(usize, Option<String>)> = const { RefCell::new((0, None)) };
}

thread_local! {
    /// Whether this thread's parse reads as JavaScript's `JSON.parse` does (a later duplicate key
    /// wins, in the first one's place), and how many duplicates it met so.
    static AS_JAVASCRIPT: RefCell<Option<usize>> = const { RefCell::new(None) };
}

thread_local! {
    /// What the `$ref` members read on this thread since the last [`take_references`] name
    /// besides the document itself. Noted as members are read, so finding out whether other
    /// files are worth looking for costs no pass of its own.
    static REFERENCES: Cell<References> = const { Cell::new(References { other_documents: false, files: false }) };
}

/// What a document's `$ref`s name besides the document itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct References {
    /// Another document: text before the `#` (`common.yaml#/Pet`, a URL).
    pub(crate) other_documents: bool,
    /// A file: another document named by a path, not a URL (which is never fetched).
    pub(crate) files: bool,
}

impl References {
    pub(super) fn with(self, other: References) -> References {
        References { other_documents: self.other_documents || other.other_documents, files: self.files || other.files }
    }
}

/// Notes the member `key` the parse just read, whose value is the string `text` (`None` for any
/// other value).
pub(super) fn note_member(key: &str, text: Option<&str>) {
    if key == "$ref"
        && let Some(reference) = text
        && !reference.is_empty()
    {
        if reference.starts_with('#') {
            super::prune::note_local_reference(reference);
        } else {
            let location = reference.split_once('#').map_or(reference, |(location, _)| location);
            note_references(References { other_documents: true, files: !is_url(location) });
        }
    }
}

/// Whether the file part of a `$ref` is a URL (`https://…`, `//host/…`), which is never fetched.
pub(crate) fn is_url(location: &str) -> bool {
    let lower = location.to_ascii_lowercase();
    lower.contains("://") || lower.starts_with("//")
}

/// What the `$ref`s read on this thread since the last [`take_references`] named.
fn references() -> References {
    REFERENCES.get()
}

/// What the `$ref`s read on this thread since the last call named, forgetting it.
pub(crate) fn take_references() -> References {
    REFERENCES.take()
}

/// Counts `found` (from other threads' parses of this text's pieces) as read on this thread.
pub(super) fn note_references(found: References) {
    REFERENCES.set(REFERENCES.get().with(found));
}

/// Runs `parse` reading duplicate keys as JavaScript does; how many it met comes back with it.
pub(crate) fn as_javascript<T>(parse: impl FnOnce() -> T) -> (T, usize) {
    AS_JAVASCRIPT.with(|state| *state.borrow_mut() = Some(0));
    let result = parse();
    let duplicates = AS_JAVASCRIPT.with(|state| state.borrow_mut().take()).unwrap_or_default();
    (result, duplicates)
}

/// Counts a duplicate key when the parse is JavaScript-style; `false` when it is strict.
fn duplicate_allowed() -> bool {
    AS_JAVASCRIPT.with(|state| state.borrow_mut().as_mut().map(|count| *count += 1).is_some())
}

/// JSON text below which a document is parsed in one go: the pieces' outline pass and starting
/// the other threads cost more than sharing out a parse this short saves.
pub(super) const SPLIT_MIN_BYTES: usize = 1024 * 1024;

/// JSON text as a `Value`, the whole text (nothing may follow the value). A big document is
/// parsed in pieces side by side (`super::split`) when this thread is not already one of the
/// pool's, sharing a batch's cores with other files, and the parse is strict; where its pieces
/// were comes with it.
pub(crate) fn json(text: &str) -> Result<Parsed<'_>, serde_json::Error> {
    if is_strict()
        && splits(text)
        && let Some(parsed) = super::split::json(text, None)
    {
        return Ok(parsed);
    }
    json_whole(text).map(Parsed::whole)
}

/// A JSON document parsed.
#[derive(Debug)]
pub(crate) struct Parsed<'text> {
    pub(crate) value: Value,
    /// Where the pieces of a document parsed in pieces were.
    pub(crate) landmarks: Vec<Landmark>,
    /// The members of values read by reference ([`Reading::Referenced`]), left out of `value`:
    /// their pointers and text.
    pub(crate) unparsed: Vec<(String, &'text str)>,
}

impl Parsed<'_> {
    fn whole(value: Value) -> Self {
        Parsed { value, landmarks: Vec::new(), unparsed: Vec::new() }
    }
}

/// Whether this thread's parse is strict (not as JavaScript reads).
fn is_strict() -> bool {
    AS_JAVASCRIPT.with(|state| state.borrow().is_none())
}

/// Whether `text` is parsed in pieces side by side: a big text, on a thread that is not already
/// one of the pool's (sharing a batch's cores with other files).
fn splits(text: &str) -> bool {
    text.len() >= SPLIT_MIN_BYTES && rayon::current_thread_index().is_none()
}

/// [`json`] for a reader that reads only what `interest` says ([`super::prune`]): what it leaves
/// unread is checked but absent from the value. When anything is wrong with the text, or a `$ref`
/// leads into what was left out, or names another file (whose `$ref`s might lead back into it),
/// the text is parsed again as [`json`] parses it, which has the last word.
pub(crate) fn json_for(text: &str, interest: Interest) -> Result<Parsed<'_>, serde_json::Error> {
    if is_strict() && interest(&[]) == Reading::Members {
        let pruned = super::prune::with_interest(Some(interest), || {
            if splits(text) {
                super::split::json(text, Some(interest))
            } else {
                json_pruned(text, interest).map(Parsed::whole)
            }
        });
        let unread_reached = super::prune::take_unread_reached();
        // Another file's `$ref`s might lead back into what was left out; so might a URL's, when it
        // is the document's own (`$self`).
        let references = references();
        if let Some(parsed) = pruned
            && !unread_reached
            && !references.files
            && !(references.other_documents && parsed.value.get("$self").is_some())
        {
            return Ok(parsed);
        }
    }
    json(text)
}

/// JSON text as a `Value` without what `interest` leaves unread, parsed in one go; `None` on any
/// error (the whole parse then says what).
fn json_pruned(text: &str, interest: Interest) -> Option<Value> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = PrunedSeed { interest, path: &[] }.deserialize(&mut deserializer).ok()?;
    deserializer.end().ok().map(|()| value)
}

/// JSON text as a `Value`, parsed in one go.
pub(super) fn json_whole(text: &str) -> Result<Value, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    ValueSeed.deserialize(&mut deserializer).and_then(|value| deserializer.end().map(|()| value))
}

/// The tags seen by the parse that just ended on this thread, forgetting them.
pub(crate) fn take_tags() -> (usize, Option<String>) {
    TAGS.with(|tags| std::mem::take(&mut *tags.borrow_mut()))
}

impl<'de> DeserializeSeed<'de> for ValueSeed {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

pub(super) struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        match i64::try_from(v) {
            Ok(small) => Ok(Value::Number(small.into())),
            // Beyond 64 bits JSON parsers keep the nearest double, and so does this one.
            Err(_) => self.visit_f64(v as f64),
        }
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        match u64::try_from(v) {
            Ok(small) => Ok(Value::Number(small.into())),
            Err(_) => self.visit_f64(v as f64),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v).map(Value::Number).ok_or_else(|| E::custom(format!("{NOT_A_NUMBER}: {v}")))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        ValueSeed.deserialize(deserializer)
    }

    /// A tagged YAML value (`!Sub "…"`, CloudFormation style) is read as the value it tags, as
    /// lenient YAML readers do; the tag is remembered for a note.
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (tag, variant): (String, _) = data.variant()?;
        TAGS.with(|tags| {
            let mut tags = tags.borrow_mut();
            tags.0 += 1;
            tags.1.get_or_insert(tag);
        });
        variant.newtype_variant_seed(ValueSeed)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        if !super::split::open_level() {
            return Err(de::Error::custom(TOO_DEEP_FOR_A_PIECE));
        }
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element_seed(ValueSeed)? {
            items.push(item);
        }
        super::split::close_level();
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        if !super::split::open_level() {
            return Err(de::Error::custom(TOO_DEEP_FOR_A_PIECE));
        }
        let mut object = Map::new();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let value = map.next_value_seed(ValueSeed)?;
            note_member(&key, value.as_str());
            insert_member(&mut object, key, value)?;
        }
        super::split::close_level();
        Ok(Value::Object(object))
    }
}

/// Adds the member `key` the parse just read to `object`: a key written twice is an error, unless
/// the parse reads as JavaScript does.
pub(super) fn insert_member<E: de::Error>(object: &mut Map<String, Value>, key: String, value: Value) -> Result<(), E> {
    // One hash lookup per member, as serde_json's own Value does.
    match object.entry(key) {
        serde_json::map::Entry::Vacant(slot) => {
            slot.insert(value);
        }
        serde_json::map::Entry::Occupied(mut existing) => {
            if !duplicate_allowed() {
                return Err(duplicate_key(existing.key()));
            }
            existing.insert(value);
        }
    }
    Ok(())
}

/// The error of a key written twice in one object.
pub(super) fn duplicate_key<E: de::Error>(key: &str) -> E {
    E::custom(format!("{DUPLICATE_KEY} \"{key}\""))
}

/// Map keys: strings as they are; YAML scalars of other types as their text.
pub(super) struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = String;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_any(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string, number or boolean key")
    }

    fn visit_str<E>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }

    fn visit_string<E>(self, v: String) -> Result<String, E> {
        Ok(v)
    }

    fn visit_bool<E>(self, v: bool) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_i64<E>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_u64<E>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_i128<E>(self, v: i128) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_u128<E>(self, v: u128) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_f64<E>(self, v: f64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_unit<E>(self) -> Result<String, E> {
        Ok("null".to_owned())
    }

    fn visit_none<E>(self) -> Result<String, E> {
        Ok("null".to_owned())
    }
}
