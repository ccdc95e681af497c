//! Where a JSON value ends, read by its lines when the text is indented, else scanned.

use std::cell::Cell;

use serde::Deserialize;
use serde_json::value::RawValue;

/// JSON text read at the outline's levels: members, keys and separators are read here, a
/// member's value only as far as where it ends. Where a value ends is found from the lines of an
/// indented text (as formatters write it, the bracket that closes a value starts a line indented
/// as much as the line that opened it) when the text is so written, else by serde_json's scan of
/// the value. A value found so is parsed later, by itself, which would fail if it did not end
/// there: then the whole text is parsed instead.
pub(super) struct Scan<'text> {
    pub(super) text: &'text str,
    /// Whether values are still found by their lines: once the text turns out not to be written
    /// so, they are scanned, so no line is read twice.
    pub(super) by_lines: Cell<bool>,
}

impl<'text> Scan<'text> {
    pub(super) fn byte(&self, at: usize) -> Option<u8> {
        self.text.as_bytes().get(at).copied()
    }

    pub(super) fn slice(&self, range: std::ops::Range<usize>) -> Option<&'text str> {
        self.text.get(range)
    }

    /// Past the JSON whitespace at `at`.
    pub(super) fn space(&self, mut at: usize) -> usize {
        while matches!(self.byte(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            at += 1;
        }
        at
    }

    /// Reads the members (or elements) of the object (or array) opening at `open`, giving each
    /// one's key (`None` for an element), where its value starts and how its line is indented
    /// to `member`, which says where the value ends; where the object closes.
    pub(super) fn members(
        &self,
        open: usize,
        mut member: impl FnMut(Option<String>, usize, Option<usize>) -> Option<usize>,
    ) -> Option<usize> {
        let close = match self.byte(open)? {
            b'{' => b'}',
            b'[' => b']',
            _ => return None,
        };
        let mut at = self.space(open + 1);
        if self.byte(at) == Some(close) {
            return Some(at + 1);
        }
        loop {
            let (key, value_start) = if close == b'}' {
                let key_end = self.string_end(at)?;
                let key: String = serde_json::from_str(self.slice(at..key_end)?).ok()?;
                let colon = self.space(key_end);
                (self.byte(colon) == Some(b':')).then_some(())?;
                (Some(key), self.space(colon + 1))
            } else {
                (None, at)
            };
            // The line the member starts on, when only indentation comes before it.
            let value_end = member(key, value_start, self.indent(at))?;
            at = self.space(value_end);
            match self.byte(at)? {
                b',' => at = self.space(at + 1),
                byte if byte == close => return Some(at + 1),
                _ => return None,
            }
        }
    }

    /// How many spaces indent the line `at` is on, when nothing else comes before `at` on it
    /// (looked at backwards from `at`, so a line of any length costs only its indent).
    pub(super) fn indent(&self, at: usize) -> Option<usize> {
        let before = self.text.as_bytes().get(..at)?;
        let spaces = before.iter().rev().take_while(|&&byte| byte == b' ').count();
        let line_start = at - spaces;
        (line_start == 0 || before.get(line_start - 1) == Some(&b'\n')).then_some(spaces)
    }

    /// After the closing quote of the string opening at `at`.
    pub(super) fn string_end(&self, at: usize) -> Option<usize> {
        (self.byte(at)? == b'"').then_some(())?;
        let bytes = self.text.as_bytes();
        let mut at = at + 1;
        loop {
            at += memchr::memchr2(b'"', b'\\', bytes.get(at..)?)?;
            match self.byte(at)? {
                b'\\' => at += 2,
                _ => return Some(at + 1),
            }
        }
    }

    /// Where the value starting at `start` ends, its member's line indented by `indent` spaces.
    pub(super) fn value_end(&self, start: usize, indent: Option<usize>) -> Option<usize> {
        match self.byte(start)? {
            b'"' => self.string_end(start),
            b'{' | b'[' => {
                if let Some(indent) = indent
                    && self.by_lines.get()
                    && self.opens_a_block(start)
                {
                    let close = if self.byte(start) == Some(b'{') { b'}' } else { b']' };
                    match self.closing_line(start, indent, close) {
                        Some(end) => return Some(end),
                        None => self.by_lines.set(false),
                    }
                }
                let mut deserializer = serde_json::Deserializer::from_str(self.text.get(start..)?);
                let raw = <&RawValue>::deserialize(&mut deserializer).ok()?;
                Some(start + raw.get().len())
            }
            // A number, `true`, `false` or `null`: up to what may follow a value.
            _ => {
                let rest = self.text.as_bytes().get(start..)?;
                let length =
                    rest.iter().position(|byte| matches!(byte, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'));
                Some(start + length.unwrap_or(rest.len()))
            }
        }
    }

    /// Whether the bracket at `at` ends its line: a value written over lines of its own.
    pub(super) fn opens_a_block(&self, at: usize) -> bool {
        let rest = self.text.as_bytes().get(at + 1..).unwrap_or_default();
        let after = rest.iter().position(|byte| !matches!(byte, b' ' | b'\t' | b'\r'));
        after.is_none_or(|after| rest.get(after) == Some(&b'\n'))
    }

    /// Where the value opened at `at` ends, when the first later line indented by `indent` spaces
    /// and starting with a bracket starts with its closing bracket `close` (found as that text,
    /// not line by line: most lines are indented deeper). `None` when there is no such line.
    pub(super) fn closing_line(&self, at: usize, indent: usize, close: u8) -> Option<usize> {
        let mut needle = Vec::with_capacity(indent + 2);
        needle.push(b'\n');
        needle.resize(indent + 1, b' ');
        needle.push(close);
        let found = memchr::memmem::find(self.text.as_bytes().get(at..)?, &needle)?;
        Some(at + found + needle.len())
    }
}
