//! serde_json's pretty JSON (two spaces), starting some levels in: a big document's parts can then
//! be written side by side and joined into the very text written in one go would be.

use std::io;

use serde::Serialize;
use serde_json::ser::Formatter;

use super::Text;

/// serde_json's `PrettyFormatter`, whose nesting starts at `level` instead of 0.
struct Nested {
    level: usize,
    has_value: bool,
}

const INDENT: &[u8] = b"  ";

/// Enough spaces for the indent of most lines in one write (an OIS nests about ten levels).
const SPACES: &[u8; 64] = &[b' '; 64];

fn indent<W: ?Sized + io::Write>(writer: &mut W, level: usize) -> io::Result<()> {
    let mut width = level.saturating_mul(INDENT.len());
    while width > 0 {
        let spaces = SPACES.get(..width).unwrap_or(SPACES);
        writer.write_all(spaces)?;
        width -= spaces.len();
    }
    Ok(())
}

impl Nested {
    fn open<W: ?Sized + io::Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn close<W: ?Sized + io::Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level = self.level.saturating_sub(1);
        if self.has_value {
            writer.write_all(b"\n")?;
            indent(writer, self.level)?;
        }
        writer.write_all(bracket)
    }

    fn item<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        writer.write_all(if first { b"\n" } else { b",\n" })?;
        indent(writer, self.level)
    }
}

impl Formatter for Nested {
    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.item(writer, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.item(writer, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// Appends `value` to `out` as pretty JSON that sits `level` levels deep: its inner lines are
/// indented as they would be there, its first line is not (the caller writes what comes before).
pub fn write_pretty_at<T: Serialize + ?Sized>(out: impl io::Write, value: &T, level: usize) -> serde_json::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(out, Nested { level, has_value: false });
    value.serialize(&mut serializer)
}

/// Pretty JSON of `items` as the members of a list `level` levels deep, without the brackets:
/// each on its own line after a line break, separated by commas (`",\n"`), as serde_json writes
/// them. `first` says whether the list's first item is among them.
pub fn write_pretty_items<T: Serialize>(
    mut out: impl io::Write,
    items: &[T],
    level: usize,
    first: bool,
) -> serde_json::Result<()> {
    for (index, item) in items.iter().enumerate() {
        out.write_all(if first && index == 0 { b"\n" } else { b",\n" }).map_err(serde_json::Error::io)?;
        // An item's lines sit one level inside the list's brackets.
        indent(&mut out, level + 1).map_err(serde_json::Error::io)?;
        write_pretty_at(&mut out, item, level + 1)?;
    }
    Ok(())
}

/// Appends `written`, pretty JSON as [`write_pretty_at`] writes it at level 0, as it would be
/// written `level` levels deep: every line after its first indented `level` more. Its last line
/// break is left out (the caller writes what follows). No line break of pretty JSON is inside a
/// string (JSON escapes them there), so the result is the very text serde_json would write at
/// that depth, got without serializing again.
pub fn write_written_at(out: &mut impl io::Write, written: &Text, level: usize) -> io::Result<()> {
    let mut pending_break = false;
    for block in written.blocks() {
        let mut rest = block;
        while !rest.is_empty() {
            if pending_break {
                out.write_all(b"\n")?;
                indent(out, level)?;
                pending_break = false;
            }
            match memchr::memchr(b'\n', rest) {
                Some(at) => {
                    out.write_all(rest.get(..at).unwrap_or_default())?;
                    pending_break = true;
                    rest = rest.get(at + 1..).unwrap_or_default();
                }
                None => {
                    out.write_all(rest)?;
                    rest = &[];
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;

    fn at(value: &Value, level: usize) -> String {
        let mut out = Vec::new();
        write_pretty_at(&mut out, value, level).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            "[a-z\"\\\\\n ]{0,6}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec(("[a-z]{1,3}", inner), 0..5)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn level_zero_is_serde_jsons_own_pretty_text(value in value()) {
            prop_assert_eq!(at(&value, 0), serde_json::to_string_pretty(&value).unwrap());
        }

        #[test]
        fn a_part_written_apart_joins_into_the_whole(items in prop::collection::vec(value(), 0..6), split in 0usize..6) {
            // The whole: {"a": {"list": [items]}}; the parts: the head with an empty list, and
            // the items written in two runs, at the list's level (2).
            let whole = serde_json::to_string_pretty(&json!({"a": {"list": items}})).unwrap();
            let split = split.min(items.len());
            let mut list = Vec::new();
            write_pretty_items(&mut list, &items[..split], 2, true).unwrap();
            write_pretty_items(&mut list, &items[split..], 2, split == 0).unwrap();
            let list = String::from_utf8(list).unwrap();
            let joined = if items.is_empty() {
                "{\n  \"a\": {\n    \"list\": []\n  }\n}".to_owned()
            } else {
                format!("{{\n  \"a\": {{\n    \"list\": [{list}\n    ]\n  }}\n}}")
            };
            prop_assert_eq!(joined, whole);
        }
    }

    #[test]
    fn an_indent_wider_than_one_write_is_written_whole() {
        // 82 levels: 164 spaces before the innermost `1`, more than one write of `SPACES` holds.
        let mut deep = json!({"x": [1]});
        for _ in 0..40 {
            deep = json!({"a": [deep]});
        }
        assert_eq!(at(&deep, 0), serde_json::to_string_pretty(&deep).unwrap());
        assert!(at(&deep, 0).contains(&format!("\n{}1\n", " ".repeat(2 * 82))));
    }

    #[test]
    fn inner_lines_are_indented_for_their_level() {
        assert_eq!(at(&json!({"a": [1]}), 2), "{\n      \"a\": [\n        1\n      ]\n    }");
        assert_eq!(at(&json!([]), 3), "[]");
        assert_eq!(at(&json!("x"), 3), "\"x\"");
    }

    proptest! {
        #[test]
        fn written_text_moved_deeper_is_what_serde_json_writes_there(value in value(), level in 0usize..5) {
            let mut written = Text::new();
            write_pretty_at(&mut written, &value, 0).unwrap();
            written.push(b"\n");
            let mut moved = Vec::new();
            write_written_at(&mut moved, &written, level).unwrap();
            prop_assert_eq!(String::from_utf8(moved).unwrap(), at(&value, level));
        }
    }

    #[test]
    fn written_text_across_blocks_is_moved_whole() {
        let value = json!((0..20_000).map(|i| json!({"n": i, "s": "a\nb"})).collect::<Vec<_>>());
        let mut written = Text::new();
        write_pretty_at(&mut written, &value, 0).unwrap();
        assert!(written.blocks().count() > 2, "the text spans blocks");
        let mut moved = Vec::new();
        write_written_at(&mut moved, &written, 3).unwrap();
        assert_eq!(String::from_utf8(moved).unwrap(), at(&value, 3));
    }
}
