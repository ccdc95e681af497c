//! Byte offsets ↔ lines in time independent of the document's size and of a line's length, from
//! an index a few hundred times smaller than the text. A list of every line's start costs as much
//! to build as it saves when only a handful of diagnostics are shown: Slack's 1.2 MB document has
//! 40,000 lines, and collecting them was a twentieth of its conversion's CPU.

use std::ops::Range;

/// Bytes per block: a lookup reads at most this many.
const BLOCK: usize = 4096;

/// Where lines stand at each [`BLOCK`]-byte block of a text.
#[derive(Debug)]
pub(super) struct LineIndex {
    blocks: Vec<Block>,
}

#[derive(Clone, Copy, Debug)]
struct Block {
    /// Line breaks before the block.
    breaks_before: usize,
    /// Where the line holding the block's first byte starts.
    line_start: usize,
    /// The first line break at or after the block's start (the text's length when there is none).
    next_break: usize,
}

impl LineIndex {
    pub(super) fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut blocks = Vec::with_capacity(bytes.len() / BLOCK + 1);
        let (mut breaks_before, mut line_start) = (0, 0);
        for (number, chunk) in bytes.chunks(BLOCK).enumerate() {
            let start = number * BLOCK;
            let next_break = memchr::memchr(b'\n', chunk).map_or(usize::MAX, |at| start + at);
            blocks.push(Block { breaks_before, line_start, next_break });
            breaks_before += breaks_in(chunk);
            if let Some(last) = memchr::memrchr(b'\n', chunk) {
                line_start = start + last + 1;
            }
        }
        // A block without a break shares the next one's.
        let mut next = bytes.len();
        for block in blocks.iter_mut().rev() {
            if block.next_break == usize::MAX {
                block.next_break = next;
            }
            next = block.next_break;
        }
        LineIndex { blocks }
    }

    /// The 1-based line of byte `offset` (clamped to the text), and the offset that line starts at.
    pub(super) fn line_of(&self, text: &str, offset: usize) -> (usize, usize) {
        let bytes = text.as_bytes();
        let offset = offset.min(bytes.len());
        let Some((first, block)) = self.block_at(offset) else { return (1, 0) };
        let before = bytes.get(first..offset).unwrap_or_default();
        let breaks = block.breaks_before + breaks_in(before);
        let start = memchr::memrchr(b'\n', before).map_or(block.line_start, |at| first + at + 1);
        (breaks + 1, start)
    }

    /// The byte range of 1-based line `line`, without its line break; `None` past the last line.
    pub(super) fn line(&self, text: &str, line: usize) -> Option<Range<usize>> {
        let bytes = text.as_bytes();
        // The line starts after break number `breaks` (none for the first), found in the last
        // block that has fewer breaks before it.
        let breaks = line.checked_sub(1)?;
        let start = if breaks == 0 {
            0
        } else {
            let number = self.blocks.partition_point(|block| block.breaks_before < breaks).checked_sub(1)?;
            let block = self.blocks.get(number)?;
            let first = number * BLOCK;
            let chunk = bytes.get(first..bytes.len().min(first.saturating_add(BLOCK)))?;
            first + memchr::memchr_iter(b'\n', chunk).nth(breaks - block.breaks_before - 1)? + 1
        };
        Some(start..self.break_from(bytes, start))
    }

    /// The offset of the first line break at or after `offset`, or the text's length.
    fn break_from(&self, bytes: &[u8], offset: usize) -> usize {
        let Some((first, _)) = self.block_at(offset) else { return bytes.len() };
        let end = bytes.len().min(first.saturating_add(BLOCK));
        let within = bytes.get(offset..end).and_then(|rest| memchr::memchr(b'\n', rest));
        match within {
            Some(at) => offset + at,
            None => self.blocks.get(first / BLOCK + 1).map_or(bytes.len(), |next| next.next_break),
        }
    }

    /// The block holding `offset` (the last one for the text's end), and where it starts.
    fn block_at(&self, offset: usize) -> Option<(usize, Block)> {
        let number = (offset / BLOCK).min(self.blocks.len().checked_sub(1)?);
        self.blocks.get(number).map(|block| (number * BLOCK, *block))
    }
}

/// The line breaks in `bytes`, counted in runs short enough for one byte to hold each run's count:
/// the compiler then compares and adds a vector's width of bytes at a time, where counting into a
/// `usize` widened every byte to eight.
fn breaks_in(bytes: &[u8]) -> usize {
    bytes
        .chunks(u8::MAX as usize)
        .map(|run| usize::from(run.iter().fold(0u8, |count, &byte| count + u8::from(byte == b'\n'))))
        .sum()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Every line's start, as the index stands in for.
    fn starts(text: &str) -> Vec<usize> {
        std::iter::once(0).chain(text.match_indices('\n').map(|(at, _)| at + 1)).collect()
    }

    fn agrees(text: &str) {
        let index = LineIndex::new(text);
        let starts = starts(text);
        for offset in (0..=text.len()).step_by(7).chain([text.len()]) {
            let line = starts.partition_point(|&start| start <= offset);
            assert_eq!(index.line_of(text, offset), (line, starts[line - 1]), "offset {offset}");
        }
        for (number, &start) in starts.iter().enumerate() {
            let end = starts.get(number + 1).map_or(text.len(), |next| next - 1);
            assert_eq!(index.line(text, number + 1), Some(start..end), "line {}", number + 1);
        }
        assert_eq!(index.line(text, 0), None);
        assert_eq!(index.line(text, starts.len() + 1), None);
    }

    #[test]
    fn lines_longer_than_blocks_and_blocks_without_breaks() {
        agrees("");
        agrees("\n");
        agrees(&"x".repeat(3 * BLOCK + 5));
        agrees(&format!("{}\n{}\n\n", "a".repeat(BLOCK - 1), "b".repeat(2 * BLOCK)));
        agrees(&format!("{}\n", "c".repeat(BLOCK)));
        agrees(&"ab\n".repeat(BLOCK));
        // Past the end is the end.
        let index = LineIndex::new("a\nb");
        assert_eq!(index.line_of("a\nb", 99), (2, 2));
    }

    proptest! {
        #[test]
        fn agrees_with_every_line_start(lines in prop::collection::vec(0usize..6000, 0..8), sparse in any::<bool>()) {
            let text: String = lines.iter().map(|&len| {
                let line = if sparse { "é".repeat(len / 2) } else { "y".repeat(len % 40) };
                format!("{line}\n")
            }).collect();
            agrees(&text);
            agrees(text.trim_end());
        }
    }
}
