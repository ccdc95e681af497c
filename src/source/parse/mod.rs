//! Builds a `serde_json::Value` from JSON or YAML with the checks both formats need ([`seeds`]);
//! a big JSON document is parsed in pieces side by side ([`split`]), and a reader that reads only
//! part of a document gets only that part built ([`prune`]). The state a parse keeps on its thread
//! is one leaf ([`state`]) that all of them share, so none of them imports another's internals.

mod prune;
mod seeds;
mod split;
mod state;

use serde::de::DeserializeSeed;
use serde_json::Value;

pub(crate) use seeds::{DUPLICATE_KEY, NOT_A_NUMBER, ValueSeed};
pub(crate) use split::{Landmark, parse_unparsed};
pub(crate) use state::KEY_ONLY_TEXT;
pub use state::{Interest, Reading};
pub(crate) use state::{as_javascript, is_url, take_references, take_tags};

use prune::PrunedSeed;
use state::{is_strict, references};

/// JSON text below which a document is parsed in one go: the pieces' outline pass and starting
/// the other threads cost more than sharing out a parse this short saves.
pub(super) const SPLIT_MIN_BYTES: usize = 1024 * 1024;

/// JSON text as a `Value`, the whole text (nothing may follow the value). A big document is
/// parsed in pieces side by side ([`split`]) when this thread is not already one of the
/// pool's, sharing a batch's cores with other files, and the parse is strict; where its pieces
/// were comes with it.
pub(crate) fn json(text: &str) -> Result<Parsed<'_>, serde_json::Error> {
    if is_strict()
        && splits(text)
        && let Some(parsed) = split::json(text, None)
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

/// Whether `text` is parsed in pieces side by side: a big text, on a thread that is not already
/// one of the pool's (sharing a batch's cores with other files).
fn splits(text: &str) -> bool {
    text.len() >= SPLIT_MIN_BYTES && rayon::current_thread_index().is_none()
}

/// [`json`] for a reader that reads only what `interest` says ([`prune`]): what it leaves
/// unread is checked but absent from the value. When anything is wrong with the text, or — for a
/// reader that `follows_references` — a `$ref` leads into what was left out, or names another file
/// (whose `$ref`s might lead back into it), the text is parsed again as [`json`] parses it, which
/// has the last word.
pub(crate) fn json_for(
    text: &str,
    interest: Interest,
    follows_references: bool,
) -> Result<Parsed<'_>, serde_json::Error> {
    if is_strict() && interest(&[]) == Reading::Members {
        let pruned = state::with_interest(Some(interest), || {
            // The split parse reads an object; an array's elements are read by the pruned one.
            if splits(text) && text.trim_start_matches(JSON_SPACE).starts_with('{') {
                split::json(text, Some(interest))
            } else {
                json_pruned(text, interest).map(Parsed::whole)
            }
        });
        let unread_reached = state::take_unread_reached();
        // Another file's `$ref`s might lead back into what was left out; so might a URL's, when it
        // is the document's own (`$self`).
        let references = references();
        if let Some(parsed) = pruned {
            let leads_out = unread_reached
                || references.files
                || (references.other_documents && parsed.value.get("$self").is_some());
            if !(follows_references && leads_out) {
                return Ok(parsed);
            }
        }
    }
    json(text)
}

/// The white space JSON allows between tokens.
const JSON_SPACE: [char; 4] = [' ', '\t', '\n', '\r'];

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
