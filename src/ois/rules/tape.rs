//! A read-only JSON tree the checker walks: every node in one `Vec`, in document order, and every
//! key and string in one `String`. It is made by serializing anything `Serialize` (a parsed
//! `Value`, or the typed OIS a conversion made), so what is checked is exactly what is written,
//! without the two allocations per object, one per key and one per string that a `Value` costs.
//! Objects are looked up by walking their members: OIS objects have a dozen fields at most.

use std::fmt;

use serde::ser::{self, Serialize};
use serde_json::{Number, Value};

/// A serialized JSON value.
#[derive(Debug, Default)]
pub(crate) struct Tape {
    /// Nodes in document order (a container before its members).
    nodes: Vec<Entry>,
    /// Keys and strings, side by side.
    text: String,
}

#[derive(Debug)]
struct Entry {
    /// The member's key in `text` (empty for array elements and the root).
    key: Span,
    item: Item,
    /// The index after this node's last descendant: where its next sibling is.
    end: usize,
}

#[derive(Clone, Copy, Debug, Default)]
struct Span {
    start: usize,
    end: usize,
}

#[derive(Debug)]
enum Item {
    Null,
    Bool(bool),
    Number(Number),
    String(Span),
    Array,
    Object,
}

impl Tape {
    /// `value` as a tape. Fails as `serde_json::to_value` would: a map key that is not a string,
    /// a number or a boolean, or a type JSON has no form for.
    pub(crate) fn of<T: Serialize + ?Sized>(value: &T) -> Result<Tape, Error> {
        let mut tape = Tape::default();
        tape.write(value, None)?;
        Ok(tape)
    }

    /// [`Tape::of`], with the top-level field `field` written as an empty list (a part that is
    /// checked on its own, piece by piece).
    pub(crate) fn without<T: Serialize + ?Sized>(value: &T, field: &'static str) -> Result<Tape, Error> {
        let mut tape = Tape::default();
        tape.write(value, Some(field))?;
        Ok(tape)
    }

    /// Makes this tape `value`'s, keeping the memory it has: many small values in turn cost no
    /// more memory than the largest of them.
    pub(crate) fn rewrite<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<Node<'_>, Error> {
        self.nodes.clear();
        self.text.clear();
        self.write(value, None)?;
        Ok(self.root())
    }

    fn write<T: Serialize + ?Sized>(&mut self, value: &T, cut: Option<&'static str>) -> Result<(), Error> {
        value.serialize(&mut Writer { tape: self, open: Vec::new(), key: Span::default(), cut })
    }

    /// The value serialized (null when nothing was).
    pub(crate) fn root(&self) -> Node<'_> {
        Node { tape: self, index: 0 }
    }

    fn text(&self, span: Span) -> &str {
        self.text.get(span.start..span.end).unwrap_or_default()
    }
}

/// One value of a [`Tape`].
#[derive(Clone, Copy)]
pub(crate) struct Node<'t> {
    tape: &'t Tape,
    index: usize,
}

/// An object node: its members in order.
#[derive(Clone, Copy)]
pub(crate) struct Object<'t>(Node<'t>);

/// An array node: its elements in order.
#[derive(Clone, Copy)]
pub(crate) struct Array<'t>(Node<'t>);

impl<'t> Node<'t> {
    fn entry(self) -> Option<&'t Entry> {
        self.tape.nodes.get(self.index)
    }

    fn item(self) -> &'t Item {
        self.entry().map_or(&Item::Null, |entry| &entry.item)
    }

    /// The nodes right below this one.
    fn children(self) -> Children<'t> {
        let end = self.entry().map_or(self.index, |entry| entry.end);
        Children { tape: self.tape, next: self.index + 1, end }
    }

    /// The key this node has in its object ("" elsewhere).
    fn key(self) -> &'t str {
        self.entry().map_or("", |entry| self.tape.text(entry.key))
    }

    /// How error messages name the node's type ("a string", "an object", …).
    pub(crate) fn kind(self) -> &'static str {
        match self.item() {
            Item::Null => "null",
            Item::Bool(_) => "a boolean",
            Item::Number(_) => "a number",
            Item::String(_) => "a string",
            Item::Array => "an array",
            Item::Object => "an object",
        }
    }

    pub(crate) fn as_str(self) -> Option<&'t str> {
        match self.item() {
            Item::String(span) => Some(self.tape.text(*span)),
            _ => None,
        }
    }

    pub(crate) fn is_string(self) -> bool {
        matches!(self.item(), Item::String(_))
    }

    pub(crate) fn as_bool(self) -> Option<bool> {
        match self.item() {
            Item::Bool(value) => Some(*value),
            _ => None,
        }
    }

    pub(crate) fn as_f64(self) -> Option<f64> {
        match self.item() {
            Item::Number(number) => number.as_f64(),
            _ => None,
        }
    }

    pub(crate) fn as_object(self) -> Option<Object<'t>> {
        matches!(self.item(), Item::Object).then_some(Object(self))
    }

    pub(crate) fn as_array(self) -> Option<Array<'t>> {
        matches!(self.item(), Item::Array).then_some(Array(self))
    }

    /// The member `key` when this is an object that has it.
    pub(crate) fn get(self, key: &str) -> Option<Node<'t>> {
        self.as_object()?.get(key)
    }

    /// The node as a `Value` again (for messages that quote it).
    pub(crate) fn to_value(self) -> Value {
        match self.item() {
            Item::Null => Value::Null,
            Item::Bool(value) => Value::Bool(*value),
            Item::Number(number) => Value::Number(number.clone()),
            Item::String(span) => Value::String(self.tape.text(*span).to_owned()),
            Item::Array => Value::Array(self.children().map(Node::to_value).collect()),
            Item::Object => {
                Value::Object(self.children().map(|node| (node.key().to_owned(), node.to_value())).collect())
            }
        }
    }
}

/// Compact JSON, as `Value` displays it.
impl fmt::Display for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_value().fmt(f)
    }
}

impl<'t> Object<'t> {
    /// The value of `key` (the first, should a key repeat).
    pub(crate) fn get(self, key: &str) -> Option<Node<'t>> {
        self.0.children().find(|node| node.key() == key)
    }

    pub(crate) fn contains_key(self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Members as `(key, value)`, in order.
    pub(crate) fn iter(self) -> impl Iterator<Item = (&'t str, Node<'t>)> {
        self.into_iter()
    }

    pub(crate) fn keys(self) -> impl Iterator<Item = &'t str> {
        self.0.children().map(Node::key)
    }
}

impl<'t> Array<'t> {
    pub(crate) fn iter(self) -> impl Iterator<Item = Node<'t>> {
        self.0.children()
    }

    pub(crate) fn len(self) -> usize {
        self.iter().count()
    }

    pub(crate) fn is_empty(self) -> bool {
        self.iter().next().is_none()
    }
}

impl<'t> IntoIterator for Object<'t> {
    type Item = (&'t str, Node<'t>);
    type IntoIter = std::iter::Map<Children<'t>, fn(Node<'t>) -> (&'t str, Node<'t>)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.children().map(|node| (node.key(), node))
    }
}

impl<'t> IntoIterator for Array<'t> {
    type Item = Node<'t>;
    type IntoIter = Children<'t>;

    fn into_iter(self) -> Children<'t> {
        self.0.children()
    }
}

/// Siblings from `next` up to `end`, each found from the one before it.
pub(crate) struct Children<'t> {
    tape: &'t Tape,
    next: usize,
    end: usize,
}

impl<'t> Iterator for Children<'t> {
    type Item = Node<'t>;

    fn next(&mut self) -> Option<Node<'t>> {
        if self.next >= self.end {
            return None;
        }
        let node = Node { tape: self.tape, index: self.next };
        // `max` keeps the walk moving should an entry ever be unfinished.
        self.next = node.entry().map_or(self.end, |entry| entry.end.max(self.next + 1));
        Some(node)
    }
}

/// Why a value could not be made a tape.
#[derive(Debug)]
pub(crate) struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Error(message.to_string())
    }
}

/// Builds a tape as serde drives it: containers are opened and closed, members get the key
/// given just before them.
struct Writer<'t> {
    tape: &'t mut Tape,
    /// Open containers, innermost last.
    open: Vec<usize>,
    /// The key for the next node.
    key: Span,
    /// A top-level field written as `[]`, whatever its value.
    cut: Option<&'static str>,
}

impl Writer<'_> {
    fn push_text(&mut self, text: &str) -> Span {
        let start = self.tape.text.len();
        self.tape.text.push_str(text);
        Span { start, end: self.tape.text.len() }
    }

    fn leaf(&mut self, item: Item) {
        let key = std::mem::take(&mut self.key);
        let end = self.tape.nodes.len() + 1;
        self.tape.nodes.push(Entry { key, item, end });
    }

    fn open(&mut self, item: Item) {
        let index = self.tape.nodes.len();
        self.leaf(item);
        self.open.push(index);
    }

    fn close(&mut self) {
        let end = self.tape.nodes.len();
        if let Some(index) = self.open.pop()
            && let Some(entry) = self.tape.nodes.get_mut(index)
        {
            entry.end = end;
        }
    }

    /// An object of one member, `variant`, whose value comes next (serde's externally tagged enums).
    fn open_variant(&mut self, variant: &str) {
        self.open(Item::Object);
        self.key = self.push_text(variant);
    }

    /// Serializes a map key as the node it would be, then takes it back as a key: strings as they
    /// are, numbers and booleans as their text (as `serde_json` does).
    fn map_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        let before = self.tape.nodes.len();
        key.serialize(&mut *self)?;
        let written = self.tape.nodes.len() - before;
        let entry = self.tape.nodes.pop().filter(|_| written == 1).ok_or_else(not_a_key)?;
        self.key = match entry.item {
            Item::String(span) => span,
            Item::Number(number) => self.push_text(&number.to_string()),
            Item::Bool(value) => self.push_text(if value { "true" } else { "false" }),
            _ => return Err(not_a_key()),
        };
        Ok(())
    }
}

fn not_a_key() -> Error {
    Error("a map key must be a string".to_owned())
}

impl<'w, 't> ser::Serializer for &'w mut Writer<'t> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = &'w mut Writer<'t>;
    type SerializeTuple = &'w mut Writer<'t>;
    type SerializeTupleStruct = &'w mut Writer<'t>;
    type SerializeTupleVariant = &'w mut Writer<'t>;
    type SerializeMap = &'w mut Writer<'t>;
    type SerializeStruct = &'w mut Writer<'t>;
    type SerializeStructVariant = &'w mut Writer<'t>;

    fn serialize_bool(self, value: bool) -> Result<(), Error> {
        self.leaf(Item::Bool(value));
        Ok(())
    }

    fn serialize_i8(self, value: i8) -> Result<(), Error> {
        self.serialize_i64(value.into())
    }

    fn serialize_i16(self, value: i16) -> Result<(), Error> {
        self.serialize_i64(value.into())
    }

    fn serialize_i32(self, value: i32) -> Result<(), Error> {
        self.serialize_i64(value.into())
    }

    fn serialize_i64(self, value: i64) -> Result<(), Error> {
        self.leaf(Item::Number(value.into()));
        Ok(())
    }

    fn serialize_u8(self, value: u8) -> Result<(), Error> {
        self.serialize_u64(value.into())
    }

    fn serialize_u16(self, value: u16) -> Result<(), Error> {
        self.serialize_u64(value.into())
    }

    fn serialize_u32(self, value: u32) -> Result<(), Error> {
        self.serialize_u64(value.into())
    }

    fn serialize_u64(self, value: u64) -> Result<(), Error> {
        self.leaf(Item::Number(value.into()));
        Ok(())
    }

    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        self.serialize_f64(value.into())
    }

    /// Infinite and NaN become null, as in `serde_json::to_value`.
    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        self.leaf(Number::from_f64(value).map_or(Item::Null, Item::Number));
        Ok(())
    }

    fn serialize_char(self, value: char) -> Result<(), Error> {
        self.serialize_str(value.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, value: &str) -> Result<(), Error> {
        let span = self.push_text(value);
        self.leaf(Item::String(span));
        Ok(())
    }

    fn serialize_bytes(self, value: &[u8]) -> Result<(), Error> {
        self.open(Item::Array);
        for byte in value {
            self.leaf(Item::Number((*byte).into()));
        }
        self.close();
        Ok(())
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        self.leaf(Item::Null);
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.open_variant(variant);
        value.serialize(&mut *self)?;
        self.close();
        Ok(())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self, Error> {
        self.open(Item::Array);
        Ok(self)
    }

    fn serialize_tuple(self, len: usize) -> Result<Self, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Self, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self, Error> {
        self.open_variant(variant);
        self.open(Item::Array);
        Ok(self)
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self, Error> {
        self.open(Item::Object);
        Ok(self)
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self, Error> {
        self.open(Item::Object);
        Ok(self)
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self, Error> {
        self.open_variant(variant);
        self.open(Item::Object);
        Ok(self)
    }
}

/// The lists serde has three names for: each element in turn, then the list is closed.
macro_rules! list {
    ($kind:ident, $element:ident) => {
        impl ser::$kind for &mut Writer<'_> {
            type Ok = ();
            type Error = Error;

            fn $element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                value.serialize(&mut **self)
            }

            fn end(self) -> Result<(), Error> {
                self.close();
                Ok(())
            }
        }
    };
}

list!(SerializeSeq, serialize_element);
list!(SerializeTuple, serialize_element);
list!(SerializeTupleStruct, serialize_field);

impl ser::SerializeTupleVariant for &mut Writer<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut **self)
    }

    /// Closes the list, then the one-member object around it.
    fn end(self) -> Result<(), Error> {
        self.close();
        self.close();
        Ok(())
    }
}

impl ser::SerializeMap for &mut Writer<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.map_key(key)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut **self)
    }

    fn end(self) -> Result<(), Error> {
        self.close();
        Ok(())
    }
}

impl ser::SerializeStruct for &mut Writer<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        self.key = self.push_text(key);
        if self.open.len() == 1 && self.cut == Some(key) {
            self.open(Item::Array);
            self.close();
            return Ok(());
        }
        value.serialize(&mut **self)
    }

    fn end(self) -> Result<(), Error> {
        self.close();
        Ok(())
    }
}

impl ser::SerializeStructVariant for &mut Writer<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        self.key = self.push_text(key);
        value.serialize(&mut **self)
    }

    /// Closes the fields' object, then the one-member object around it.
    fn end(self) -> Result<(), Error> {
        self.close();
        self.close();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The tape of `value`, read back: what the checker sees is what was serialized.
    fn round_trip(value: &impl Serialize) -> Value {
        Tape::of(value).unwrap().root().to_value()
    }

    #[test]
    fn a_value_reads_back_as_itself() {
        let value = json!({
            "a": [1, -2, 2.5, "x", null, true, {"": []}],
            "b": {"c": {"d": "é\"{"}},
            "e": {},
            "f": 18446744073709551615u64,
        });
        assert_eq!(round_trip(&value), value);
        let tape = Tape::of(&value).unwrap();
        let root = tape.root();
        assert_eq!(
            root.get("b").and_then(|b| b.get("c")).and_then(|c| c.get("d")).and_then(Node::as_str),
            Some("é\"{")
        );
        assert_eq!(root.get("a").and_then(Node::as_array).map(Array::len), Some(7));
        assert!(root.get("e").and_then(Node::as_object).is_some_and(|e| e.iter().next().is_none()));
        assert_eq!(root.as_object().map(|o| o.keys().collect::<Vec<_>>()), Some(vec!["a", "b", "e", "f"]));
        assert!(root.get("zz").is_none());
        assert_eq!(root.get("a").map(|a| a.to_string()), Some("[1,-2,2.5,\"x\",null,true,{\"\":[]}]".to_owned()));
    }

    #[test]
    fn serde_shapes_read_back_as_serde_json_makes_them() {
        #[derive(serde::Serialize)]
        enum Shape {
            Unit,
            Newtype(u8),
            Tuple(u8, &'static str),
            Struct { inner: Option<bool> },
        }
        #[derive(serde::Serialize)]
        struct All {
            shapes: Vec<Shape>,
            numbers: std::collections::BTreeMap<u32, char>,
            flags: indexmap::IndexMap<bool, ()>,
            bytes: serde_bytes_like::Bytes,
            float: f64,
            pair: (i8, f32),
        }
        mod serde_bytes_like {
            pub struct Bytes(pub &'static [u8]);
            impl serde::Serialize for Bytes {
                fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    serializer.serialize_bytes(self.0)
                }
            }
        }
        let all = All {
            shapes: vec![Shape::Unit, Shape::Newtype(7), Shape::Tuple(1, "t"), Shape::Struct { inner: None }],
            numbers: [(2, 'x'), (10, 'y')].into_iter().collect(),
            flags: [(true, ())].into_iter().collect(),
            bytes: serde_bytes_like::Bytes(b"ab"),
            float: f64::NAN,
            pair: (-1, 0.5),
        };
        assert_eq!(round_trip(&all), serde_json::to_value(&all).unwrap());
    }

    #[test]
    fn a_key_that_is_not_text_is_refused_as_serde_json_refuses_it() {
        let map: std::collections::BTreeMap<Vec<u8>, u8> = [(vec![1], 1)].into_iter().collect();
        assert!(serde_json::to_value(&map).is_err());
        assert_eq!(Tape::of(&map).unwrap_err().to_string(), "a map key must be a string");
    }

    proptest::proptest! {
        /// Any JSON value, read back from its tape, is itself.
        #[test]
        fn any_value_reads_back_as_itself(value in crate::testing::json_value()) {
            proptest::prop_assert_eq!(round_trip(&value), value);
        }
    }
}
