//! The seeds every parse builds values with: duplicate keys are errors (serde_json would silently
//! keep the last one), YAML's non-string keys (`200:`) become strings, and numbers JSON cannot hold
//! are errors instead of turning into `null`.

use std::fmt;

use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::state;

/// Prefix of the error message for duplicate keys, recognised when the error is classified.
pub(crate) const DUPLICATE_KEY: &str = "duplicate key";
/// Prefix of the error message for NaN and infinities.
pub(crate) const NOT_A_NUMBER: &str = "number out of JSON range";
/// Only a piece of a split parse meets it, and the whole parse then runs instead.
pub(super) const TOO_DEEP_FOR_A_PIECE: &str = "nested too deep for a piece";

pub(crate) struct ValueSeed;

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
        state::note_tag(tag);
        variant.newtype_variant_seed(ValueSeed)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        if !state::open_level() {
            return Err(de::Error::custom(TOO_DEEP_FOR_A_PIECE));
        }
        let mut items = Chunked::default();
        while let Some(item) = seq.next_element_seed(ValueSeed)? {
            items.push(item);
        }
        state::close_level();
        Ok(Value::Array(items.into_vec()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        if !state::open_level() {
            return Err(de::Error::custom(TOO_DEEP_FOR_A_PIECE));
        }
        let mut object = Map::new();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let value = map.next_value_seed(ValueSeed)?;
            state::note_member(&key, value.as_str());
            insert_member(&mut object, key, value)?;
        }
        state::close_level();
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
            if !state::duplicate_allowed() {
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

/// An array's items gathered in chunks, then moved into one list of exactly their number: a list
/// grown by doubling holds up to twice its items, and three times while it moves (a million prices
/// once took 250 MB of values that fill 96).
#[derive(Default)]
pub(super) struct Chunked {
    full: Vec<Vec<Value>>,
    last: Vec<Value>,
}

impl Chunked {
    /// Items a chunk holds: a few MB of values.
    const CHUNK: usize = 1 << 16;

    pub(super) fn push(&mut self, item: Value) {
        if self.last.len() == Self::CHUNK {
            self.full.push(std::mem::replace(&mut self.last, Vec::with_capacity(Self::CHUNK)));
        }
        self.last.push(item);
    }

    pub(super) fn into_vec(self) -> Vec<Value> {
        if self.full.is_empty() {
            return self.last;
        }
        let mut items = Vec::with_capacity(self.full.len() * Self::CHUNK + self.last.len());
        for chunk in self.full {
            items.extend(chunk);
        }
        items.extend(self.last);
        items
    }
}
