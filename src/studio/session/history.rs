//! What undo goes back through: each earlier text of the draft, held as what changed from it to
//! the text after it; and what redo goes forward through, each text undo left, held alike. An edit changes a few lines of an OIS that may be 20 MB; holding each
//! earlier text whole held 22 MB an edit for a Graph-sized document, and its last two edits at most.

use std::collections::VecDeque;

use super::TextKey;

/// The most changes undo goes back through.
pub(super) const UNDO_STEPS: usize = 20;
/// The most the texts undo puts back hold together, in bytes (converting again replaces all of a
/// big document's: the oldest steps are dropped).
const UNDO_BYTES: usize = 64 << 20;

/// The draft's earlier texts, newest last; and the texts undo left, the last undone last.
#[derive(Debug, Default)]
pub(super) struct History {
    steps: VecDeque<Step>,
    undone: Vec<Step>,
}

/// One text as the text after it with `removed` in place of its bytes `at..at + inserted`.
#[derive(Debug)]
struct Step {
    at: usize,
    inserted: usize,
    removed: Box<str>,
    /// The text after it, told apart from others: a step is taken back only from that text.
    after: TextKey,
}

impl History {
    /// Notes that the draft's text `before` became `after` (told apart by `after_key`): whether it
    /// is a step back, as it is unless they are the same.
    pub(super) fn replaced(&mut self, before: &str, after: &str, after_key: TextKey) -> bool {
        let prefix = common_prefix(before, after);
        if prefix == before.len() && prefix == after.len() {
            return false;
        }
        let suffix = common_suffix(before.get(prefix..).unwrap_or_default(), after.get(prefix..).unwrap_or_default());
        let removed = before.get(prefix..before.len() - suffix).unwrap_or_default();
        let inserted = after.len() - suffix - prefix;
        self.steps.push_back(Step { at: prefix, inserted, removed: removed.into(), after: after_key });
        // A change of its own leaves nothing to redo (as every editor does).
        self.undone.clear();
        let held = |steps: &VecDeque<Step>| steps.iter().map(|step| step.removed.len()).sum::<usize>();
        while self.steps.len() > UNDO_STEPS || (self.steps.len() > 1 && held(&self.steps) > UNDO_BYTES) {
            self.steps.pop_front();
        }
        true
    }

    /// The text before `now`, the step back taken (and kept for redo); `None` when there is none,
    /// or the newest step was not to `now` (the step is dropped then, with those before it).
    pub(super) fn back(&mut self, now: &str) -> Option<String> {
        let step = self.steps.pop_back()?;
        match step.taken_from(now) {
            Some((before, forward)) => {
                self.undone.push(forward);
                Some(before)
            }
            None => {
                self.steps.clear();
                None
            }
        }
    }

    /// The text the last step back left, from `now` (what that step gave); `None` when there is
    /// none, or `now` is not that text (everything to redo is dropped then).
    pub(super) fn forward(&mut self, now: &str) -> Option<String> {
        let step = self.undone.pop()?;
        match step.taken_from(now) {
            Some((after, back)) => {
                self.steps.push_back(back);
                Some(after)
            }
            None => {
                self.undone.clear();
                None
            }
        }
    }

    /// How many steps forward there are.
    pub(super) fn redo_len(&self) -> usize {
        self.undone.len()
    }

    /// How many steps back there are.
    pub(super) fn len(&self) -> usize {
        self.steps.len()
    }

    /// Forgets every step (another document).
    pub(super) fn clear(&mut self) {
        self.steps.clear();
        self.undone.clear();
    }
}

impl Step {
    /// The text this step leads back to from `now`, and the step that leads from it to `now`
    /// again; `None` when `now` is not the text the step is from.
    fn taken_from(self, now: &str) -> Option<(String, Step)> {
        if TextKey::of(now) != self.after {
            return None;
        }
        let head = now.get(..self.at)?;
        let replaced = now.get(self.at..self.at.checked_add(self.inserted)?)?;
        let tail = now.get(self.at + self.inserted..)?;
        let mut text = String::with_capacity(head.len() + self.removed.len() + tail.len());
        text.push_str(head);
        text.push_str(&self.removed);
        text.push_str(tail);
        let inverse =
            Step { at: self.at, inserted: self.removed.len(), removed: replaced.into(), after: TextKey::of(&text) };
        Some((text, inverse))
    }
}

/// The bytes compared at a time when two texts are compared from an end.
const COMPARED_BLOCK: usize = 256;

/// The bytes `a` and `b` start with alike, ending on a character boundary of both.
fn common_prefix(a: &str, b: &str) -> usize {
    // Whole blocks compared first (a memcmp each), then the bytes of the first block that differs:
    // a big draft's edit is one change in megabytes.
    let (a_bytes, b_bytes) = (a.as_bytes(), b.as_bytes());
    let blocks = a_bytes.chunks(COMPARED_BLOCK).zip(b_bytes.chunks(COMPARED_BLOCK));
    let start: usize = blocks.take_while(|(x, y)| x == y).map(|(x, _)| x.len()).sum();
    let rest = a_bytes.get(start..).unwrap_or_default().iter().zip(b_bytes.get(start..).unwrap_or_default());
    let mut same = start + rest.take_while(|(x, y)| x == y).count();
    while !(a.is_char_boundary(same) && b.is_char_boundary(same)) {
        same -= 1;
    }
    same
}

/// The bytes `a` and `b` end with alike, starting on a character boundary of both.
fn common_suffix(a: &str, b: &str) -> usize {
    let (a_bytes, b_bytes) = (a.as_bytes(), b.as_bytes());
    let blocks = a_bytes.rchunks(COMPARED_BLOCK).zip(b_bytes.rchunks(COMPARED_BLOCK));
    let end: usize = blocks.take_while(|(x, y)| x == y).map(|(x, _)| x.len()).sum();
    let a_before = a_bytes.get(..a_bytes.len().saturating_sub(end)).unwrap_or_default().iter().rev();
    let b_before = b_bytes.get(..b_bytes.len().saturating_sub(end)).unwrap_or_default().iter().rev();
    let mut same = end + a_before.zip(b_before).take_while(|(x, y)| x == y).count();
    while !(a.is_char_boundary(a.len() - same) && b.is_char_boundary(b.len() - same)) {
        same -= 1;
    }
    same
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn replaced(history: &mut History, before: &str, after: &str) -> bool {
        history.replaced(before, after, TextKey::of(after))
    }

    #[test]
    fn each_text_comes_back_newest_first() {
        let texts = ["{\"a\": 1}", "{\"a\": 12}", "{\"b\": 12, \"é\": \"ü\"}", "{\"b\": 12, \"é\": \"ö\"}", ""];
        let mut history = History::default();
        for pair in texts.windows(2) {
            assert!(replaced(&mut history, pair[0], pair[1]));
        }
        // The same text again is no step.
        assert!(!replaced(&mut history, "", ""));
        assert_eq!(history.len(), texts.len() - 1);
        let mut now = texts[texts.len() - 1].to_owned();
        for expected in texts.iter().rev().skip(1) {
            now = history.back(&now).unwrap();
            assert_eq!(now, *expected);
        }
        assert_eq!(history.back(&now), None);
    }

    #[test]
    fn a_step_is_taken_back_only_from_the_text_it_led_to() {
        let mut history = History::default();
        replaced(&mut history, "one", "two");
        replaced(&mut history, "two", "three");
        assert_eq!(history.back("four"), None);
        assert_eq!(history.len(), 0, "what led elsewhere is dropped");
    }

    #[test]
    fn a_big_text_replaced_whole_drops_the_oldest_steps() {
        let mut history = History::default();
        let big = "x".repeat(UNDO_BYTES / 2 + 1);
        replaced(&mut history, "a", "b");
        replaced(&mut history, &big, "c");
        replaced(&mut history, &big, "d");
        assert_eq!(history.len(), 1);
        for step in 0..UNDO_STEPS + 5 {
            replaced(&mut history, &step.to_string(), &(step + 1).to_string());
        }
        assert_eq!(history.len(), UNDO_STEPS);
    }

    proptest! {
        /// Texts compared a block at a time share what they would byte by byte.
        #[test]
        fn blocks_compared_find_what_bytes_compared_find(
            head in "[aé0-9]{0,700}",
            one in "[aéü{}]{0,3}",
            other in "[aéü{}]{0,3}",
            tail in "[aé0-9]{0,700}",
        ) {
            let (a, b) = (format!("{head}{one}{tail}"), format!("{head}{other}{tail}"));
            let byte_by_byte_prefix = |a: &str, b: &str| {
                let mut same = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
                while !(a.is_char_boundary(same) && b.is_char_boundary(same)) { same -= 1; }
                same
            };
            let byte_by_byte_suffix = |a: &str, b: &str| {
                let mut same = a.bytes().rev().zip(b.bytes().rev()).take_while(|(x, y)| x == y).count();
                while !(a.is_char_boundary(a.len() - same) && b.is_char_boundary(b.len() - same)) { same -= 1; }
                same
            };
            for (a, b) in [(&a, &b), (&b, &a), (&a, &a), (&head, &a), (&tail, &b)] {
                prop_assert_eq!(common_prefix(a, b), byte_by_byte_prefix(a, b));
                prop_assert_eq!(common_suffix(a, b), byte_by_byte_suffix(a, b));
            }
        }

        #[test]
        fn undone_text_comes_forward_again(before in "[aé{}\": 0-9\n]{0,40}", after in "[aé{}\": 0-9\n]{0,40}") {
            let mut history = History::default();
            if replaced(&mut history, &before, &after) {
                let back = history.back(&after).unwrap();
                prop_assert_eq!(&back, &before);
                prop_assert_eq!(history.redo_len(), 1);
                prop_assert_eq!(history.forward(&back), Some(after.clone()));
                prop_assert_eq!(history.back(&after), Some(before.clone()), "and back again");
            }
        }

        #[test]
        fn any_text_replaced_by_any_other_comes_back(before in "[aé{}\": 0-9\n]{0,40}", after in "[aé{}\": 0-9\n]{0,40}") {
            let mut history = History::default();
            replaced(&mut history, &before, &after);
            if before == after {
                prop_assert_eq!(history.len(), 0);
            } else {
                prop_assert_eq!(history.back(&after), Some(before));
            }
        }
    }
}
