//! Byte offsets ↔ character counts in time independent of the line length: a minified document
//! is one line of megabytes, and counting a column from the start of that line for each of
//! thousands of diagnostics would cost size × diagnostics.

/// Bytes between checkpoints (each lookup counts at most this many bytes).
const SPAN: usize = 4096;

/// Checkpoints on character boundaries, about every [`SPAN`] bytes: (byte offset, characters
/// before it). For ASCII text (the common case) none are needed: bytes are characters.
#[derive(Debug)]
pub(super) struct CharIndex {
    ascii: bool,
    checkpoints: Vec<(usize, usize)>,
}

impl CharIndex {
    pub(super) fn new(text: &str) -> CharIndex {
        if text.is_ascii() {
            return CharIndex { ascii: true, checkpoints: Vec::new() };
        }
        let mut checkpoints = vec![(0, 0)];
        let (mut byte, mut chars) = (0, 0);
        while byte < text.len() {
            let end = text.ceil_char_boundary(byte.saturating_add(SPAN).min(text.len()));
            chars += text.get(byte..end).map_or(0, |chunk| chunk.chars().count());
            byte = end;
            checkpoints.push((byte, chars));
        }
        CharIndex { ascii: false, checkpoints }
    }

    /// Characters in `text` before byte `offset` (a character boundary).
    pub(super) fn chars_before(&self, text: &str, offset: usize) -> usize {
        if self.ascii {
            return offset;
        }
        let at = self.checkpoints.partition_point(|&(byte, _)| byte <= offset).saturating_sub(1);
        let (byte, chars) = self.checkpoints.get(at).copied().unwrap_or((0, 0));
        chars + text.get(byte..offset).map_or(0, |rest| rest.chars().count())
    }

    /// The byte offset of character number `count` (0-based) of `text`; its length when shorter.
    pub(super) fn byte_of(&self, text: &str, count: usize) -> usize {
        if self.ascii {
            return count.min(text.len());
        }
        let at = self.checkpoints.partition_point(|&(_, chars)| chars <= count).saturating_sub(1);
        let (byte, chars) = self.checkpoints.get(at).copied().unwrap_or((0, 0));
        let rest = text.get(byte..).unwrap_or_default();
        byte + rest.char_indices().nth(count - chars).map_or(rest.len(), |(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn agrees_with_counting_from_the_start(text in "[a-zé€😀 \n]{0,12000}", n in 0usize..13000) {
            let index = CharIndex::new(&text);
            let offset = text.floor_char_boundary(n.min(text.len()));
            prop_assert_eq!(index.chars_before(&text, offset), text[..offset].chars().count());
            let expected = text.char_indices().nth(n).map_or(text.len(), |(i, _)| i);
            prop_assert_eq!(index.byte_of(&text, n), expected);
        }
    }

    #[test]
    fn ascii_needs_no_checkpoints() {
        let index = CharIndex::new("abc");
        assert!(index.checkpoints.is_empty());
        assert_eq!((index.chars_before("abc", 2), index.byte_of("abc", 9)), (2, 3));
    }
}
