//! What undo goes back through: each earlier text of the draft, held as what changed from it to
//! the text after it. An edit changes a few lines of an OIS that may be 20 MB; holding each
//! earlier text whole held 22 MB an edit for a Graph-sized document, and its last two edits at most.

use std::collections::VecDeque;

use super::TextKey;

/// The most changes undo goes back through.
pub(super) const UNDO_STEPS: usize = 20;
/// The most the texts undo puts back hold together, in bytes (converting again replaces all of a
/// big document's: the oldest steps are dropped).
const UNDO_BYTES: usize = 64 << 20;

/// The draft's earlier texts, newest last.
#[derive(Debug, Default)]
pub(super) struct History {
    steps: VecDeque<Step>,
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
        let held = |steps: &VecDeque<Step>| steps.iter().map(|step| step.removed.len()).sum::<usize>();
        while self.steps.len() > UNDO_STEPS || (self.steps.len() > 1 && held(&self.steps) > UNDO_BYTES) {
            self.steps.pop_front();
        }
        true
    }

    /// The text before `now`, the step back taken; `None` when there is none, or the newest step
    /// was not to `now` (the step is dropped then, with those before it).
    pub(super) fn back(&mut self, now: &str) -> Option<String> {
        let step = self.steps.pop_back()?;
        let kept = (TextKey::of(now) == step.after)
            .then(|| Some((now.get(..step.at)?, now.get(step.at.checked_add(step.inserted)?..)?)))
            .flatten();
        let Some((head, tail)) = kept else {
            self.steps.clear();
            return None;
        };
        let mut before = String::with_capacity(head.len() + step.removed.len() + tail.len());
        before.push_str(head);
        before.push_str(&step.removed);
        before.push_str(tail);
        Some(before)
    }

    /// How many steps back there are.
    pub(super) fn len(&self) -> usize {
        self.steps.len()
    }

    /// Forgets every step (another document).
    pub(super) fn clear(&mut self) {
        self.steps.clear();
    }
}

/// The bytes `a` and `b` start with alike, ending on a character boundary of both.
fn common_prefix(a: &str, b: &str) -> usize {
    let mut same = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    while !(a.is_char_boundary(same) && b.is_char_boundary(same)) {
        same -= 1;
    }
    same
}

/// The bytes `a` and `b` end with alike, starting on a character boundary of both.
fn common_suffix(a: &str, b: &str) -> usize {
    let mut same = a.bytes().rev().zip(b.bytes().rev()).take_while(|(x, y)| x == y).count();
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
