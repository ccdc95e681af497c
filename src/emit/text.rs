//! Text kept in blocks that never move once written. A big OIS (Kubernetes': 4.7 MB) written
//! into one `Vec` grows by copying everything into a buffer twice as big, each time into fresh
//! memory the kernel must first zero; its parts written side by side were then copied once more
//! into one string. Blocks cost neither: a full block is kept and a new one started, and parts
//! are joined by moving their blocks.

use std::io::{self, Write};

/// How much a block holds: big enough that a write rarely spans two, small enough that a short
/// text leaves little unused.
const BLOCK: usize = 64 * 1024;

/// Bytes written in order, held as blocks. What `ois` writes is UTF-8 as a whole, but a block
/// may end inside a character: read it as bytes, or whole with [`Text::into_string`].
#[derive(Clone, Default)]
pub struct Text {
    /// Blocks written before `current`, in order.
    full: Vec<Vec<u8>>,
    /// The block being written; its spare capacity is where the next bytes go.
    current: Vec<u8>,
    /// The bytes in `full`.
    full_len: usize,
}

impl Text {
    /// No text.
    pub fn new() -> Text {
        Text::default()
    }

    /// How many bytes there are.
    pub fn len(&self) -> usize {
        self.full_len + self.current.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes, block by block, in order.
    pub fn blocks(&self) -> impl Iterator<Item = &[u8]> {
        self.full.iter().chain(std::iter::once(&self.current)).map(Vec::as_slice).filter(|block| !block.is_empty())
    }

    /// `bytes` after these.
    #[inline]
    pub fn push(&mut self, bytes: &[u8]) {
        // Most writes are a few bytes (a quote, a comma, an indent): kept short enough to inline.
        if bytes.len() <= self.current.capacity() - self.current.len() {
            self.current.extend_from_slice(bytes);
        } else {
            self.push_across(bytes);
        }
    }

    /// `bytes` that fill the block being written, then as many new ones as they need.
    #[cold]
    fn push_across(&mut self, mut bytes: &[u8]) {
        loop {
            let room = self.current.capacity() - self.current.len();
            if bytes.len() <= room {
                self.current.extend_from_slice(bytes);
                return;
            }
            let (now, later) = bytes.split_at(room);
            self.current.extend_from_slice(now);
            bytes = later;
            let full = std::mem::replace(&mut self.current, Vec::with_capacity(BLOCK));
            self.seal(full);
        }
    }

    /// `other`'s bytes after these, moved rather than copied.
    pub fn append(&mut self, other: Text) {
        if other.is_empty() {
            return;
        }
        let current = std::mem::replace(&mut self.current, other.current);
        self.seal(current);
        for block in other.full {
            self.seal(block);
        }
    }

    /// Whether the bytes end with `suffix`.
    pub fn ends_with(&self, suffix: &[u8]) -> bool {
        let mut rest = suffix;
        for block in self.blocks_from_end() {
            let take = rest.len().min(block.len());
            let (before, tail) = rest.split_at(rest.len() - take);
            if block.get(block.len() - take..) != Some(tail) {
                return false;
            }
            rest = before;
            if rest.is_empty() {
                return true;
            }
        }
        rest.is_empty()
    }

    /// Keeps the first `len` bytes (all of them when there are fewer).
    pub fn truncate(&mut self, len: usize) {
        while len < self.full_len {
            // The bytes to keep end before `current`: the last full block becomes `current`.
            let Some(last) = self.full.pop() else { break };
            self.full_len -= last.len();
            self.current = last;
        }
        self.current.truncate(len.saturating_sub(self.full_len));
    }

    /// Every byte in one string; an error when they are not UTF-8.
    pub fn into_string(self) -> Result<String, std::string::FromUtf8Error> {
        String::from_utf8(self.joined())
    }

    /// Every byte, copied into one buffer.
    fn joined(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(self.len());
        for block in self.blocks() {
            bytes.extend_from_slice(block);
        }
        bytes
    }

    fn blocks_from_end(&self) -> impl Iterator<Item = &[u8]> {
        std::iter::once(&self.current).chain(self.full.iter().rev()).map(Vec::as_slice)
    }

    fn seal(&mut self, block: Vec<u8>) {
        if !block.is_empty() {
            self.full_len += block.len();
            self.full.push(block);
        }
    }
}

impl Write for Text {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.write_all(bytes).map(|()| bytes.len())
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.push(bytes);
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        Text { current: text.into_bytes(), ..Text::default() }
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        let mut rest = other.as_bytes();
        self.len() == rest.len()
            && self.blocks().all(|block| match rest.split_at_checked(block.len()) {
                Some((head, tail)) if head == block => {
                    rest = tail;
                    true
                }
                _ => false,
            })
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        other == self.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        other == *self
    }
}

/// As the string it holds (a character cut by a block's end is whole here), so a failed
/// comparison in a test shows text.
impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&String::from_utf8_lossy(&self.joined()), f)
    }
}

/// What [`super::write_atomically`], a [`super::Plan`] and standard output take: text whole or in blocks.
pub trait Contents {
    /// Writes every byte to `out`.
    fn write_to(&self, out: &mut dyn Write) -> io::Result<()>;

    /// How many bytes there are.
    fn byte_len(&self) -> usize;

    /// Whether these are exactly `bytes` (a file's text, say), compared as they are written.
    fn is(&self, bytes: &[u8]) -> bool {
        /// Takes what matches the rest of the bytes; refuses the first write that does not.
        struct Compared<'a> {
            rest: &'a [u8],
        }
        impl Write for Compared<'_> {
            fn write(&mut self, written: &[u8]) -> io::Result<usize> {
                match self.rest.strip_prefix(written) {
                    Some(rest) => {
                        self.rest = rest;
                        Ok(written.len())
                    }
                    None => Err(io::Error::other("the contents differ")),
                }
            }

            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut compared = Compared { rest: bytes };
        self.write_to(&mut compared).is_ok() && compared.rest.is_empty()
    }
}

impl Contents for str {
    fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(self.as_bytes())
    }

    fn byte_len(&self) -> usize {
        self.len()
    }
}

impl Contents for String {
    fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        self.as_str().write_to(out)
    }

    fn byte_len(&self) -> usize {
        self.len()
    }
}

impl Contents for Text {
    /// All the blocks in one vectored write where the writer takes them so (a file does): a
    /// small OIS is two or three blocks, and a batch writes thousands of them.
    fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut slices: Vec<io::IoSlice<'_>> = self.blocks().map(io::IoSlice::new).collect();
        let mut rest = slices.as_mut_slice();
        while !rest.is_empty() {
            match out.write_vectored(rest) {
                Ok(0) => return Err(io::Error::from(io::ErrorKind::WriteZero)),
                Ok(written) => io::IoSlice::advance_slices(&mut rest, written),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }

    fn byte_len(&self) -> usize {
        self.len()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Writes of these lengths, cut from one long text, in order.
    fn written(cuts: &[usize]) -> (Text, Vec<u8>) {
        let whole: Vec<u8> = (0..cuts.iter().sum::<usize>()).map(|i| (i % 251) as u8).collect();
        let mut text = Text::new();
        let mut rest = whole.as_slice();
        for &cut in cuts {
            let (now, later) = rest.split_at(cut);
            text.write_all(now).unwrap();
            rest = later;
        }
        (text, whole)
    }

    fn cuts() -> impl Strategy<Value = Vec<usize>> {
        prop::collection::vec(prop_oneof![0..64usize, 0..2 * BLOCK + 3], 0..12)
    }

    /// A writer that takes at most `at_most` bytes a call, across slices when written vectored.
    struct Trickle {
        taken: Vec<u8>,
        at_most: usize,
    }

    impl Write for Trickle {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            let n = bytes.len().min(self.at_most);
            self.taken.extend_from_slice(&bytes[..n]);
            Ok(n)
        }

        fn write_vectored(&mut self, slices: &[io::IoSlice<'_>]) -> io::Result<usize> {
            let mut n = 0;
            for slice in slices {
                let take = slice.len().min(self.at_most - n);
                self.taken.extend_from_slice(&slice[..take]);
                n += take;
            }
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    proptest! {
        #[test]
        fn written_out_whole_however_little_a_write_takes(cuts in cuts(), at_most in 1..3 * BLOCK) {
            let (text, whole) = written(&cuts);
            let mut out = Trickle { taken: Vec::new(), at_most };
            text.write_to(&mut out).unwrap();
            prop_assert_eq!(out.taken, whole);
        }

        #[test]
        fn contents_are_their_bytes_and_nothing_else(cuts in cuts(), at in 0usize..1 << 20, cut in any::<bool>()) {
            let (text, whole) = written(&cuts);
            prop_assert!(text.is(&whole));
            let mut other = whole.clone();
            if whole.is_empty() {
                other.push(0);
            } else if cut {
                other.truncate(at % whole.len());
            } else {
                let at = at % whole.len();
                other[at] = other[at].wrapping_add(1);
            }
            prop_assert!(!text.is(&other));
        }

        #[test]
        fn blocks_hold_what_was_written_in_order(cuts in cuts()) {
            let (text, whole) = written(&cuts);
            prop_assert_eq!(text.len(), whole.len());
            prop_assert_eq!(text.joined(), whole);
            prop_assert!(text.blocks().all(|block| block.len() <= BLOCK));
        }

        #[test]
        fn appended_text_follows_what_was_there(first in cuts(), second in cuts(), more in 0..100usize) {
            let (mut text, mut whole) = written(&first);
            let (other, rest) = written(&second);
            text.append(other);
            whole.extend_from_slice(&rest);
            // Writing goes on after the appended blocks.
            let tail = vec![7u8; more];
            text.write_all(&tail).unwrap();
            whole.extend_from_slice(&tail);
            prop_assert_eq!(text.len(), whole.len());
            prop_assert_eq!(text.joined(), whole);
        }

        #[test]
        fn a_suffix_is_found_and_cut_across_blocks(cuts in cuts(), cut in 0..4 * BLOCK, more in 0..100usize) {
            let (mut text, mut whole) = written(&cuts);
            let keep = cut.min(whole.len());
            prop_assert!(text.ends_with(&whole[keep..]));
            let mut other = whole[keep..].to_vec();
            if let Some(byte) = other.first_mut() {
                *byte = byte.wrapping_add(1);
                prop_assert!(!text.ends_with(&other));
            }
            text.truncate(keep);
            whole.truncate(keep);
            prop_assert_eq!(text.joined(), whole.clone());
            let tail = vec![9u8; more];
            text.write_all(&tail).unwrap();
            whole.extend_from_slice(&tail);
            prop_assert_eq!(text.joined(), whole);
        }

        #[test]
        fn text_equals_the_string_of_its_bytes(cuts in cuts()) {
            let (_, whole) = written(&cuts);
            let string: String = whole.iter().map(|&b| char::from(b % 128)).collect();
            let mut same = Text::new();
            same.write_all(string.as_bytes()).unwrap();
            prop_assert!(same == string);
            let mut longer = string.clone();
            longer.push('x');
            prop_assert!(same != longer);
            prop_assert_eq!(same.into_string().unwrap(), string);
        }
    }

    #[test]
    fn a_suffix_longer_than_the_text_is_not_its_end() {
        let text = Text::from("ab".to_owned());
        assert!(text.ends_with(b"ab"));
        assert!(text.ends_with(b""));
        assert!(!text.ends_with(b"xab"));
        assert!(!Text::new().ends_with(b"a"));
    }

    #[test]
    fn a_character_cut_by_a_block_end_is_whole_in_the_string() {
        let mut text = Text::new();
        let before = "a".repeat(BLOCK - 1);
        text.write_all(before.as_bytes()).unwrap();
        text.write_all("é".as_bytes()).unwrap();
        assert_eq!(text.blocks().count(), 2);
        assert_eq!(text.into_string().unwrap(), before + "é");
        let mut broken = Text::new();
        broken.write_all(&[0xc3]).unwrap();
        assert!(broken.into_string().is_err());
    }

    #[test]
    fn contents_write_the_same_bytes_whole_or_in_blocks() {
        let long = "z".repeat(BLOCK * 2 + 5);
        let mut text = Text::new();
        text.write_all(long.as_bytes()).unwrap();
        let (mut from_text, mut from_str) = (Vec::new(), Vec::new());
        Contents::write_to(&text, &mut from_text).unwrap();
        Contents::write_to(long.as_str(), &mut from_str).unwrap();
        assert_eq!(from_text, from_str);
        assert_eq!(text.blocks().count(), 3);
    }
}
