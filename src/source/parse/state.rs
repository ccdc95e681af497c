//! What a parse running on this thread knows besides the text: whether it reads as JavaScript
//! does, the YAML tags and `$ref`s it met, the interest of a reader that reads only part of the
//! document, and how many levels a piece of a split parse may still open. The leaf the seeds, the
//! pruned parse and the split parse all share.

use std::cell::{Cell, RefCell};

thread_local! {
    /// The local YAML tags (`!Sub`, `!Ref`) read on this thread since the last `take_tags`: how
    /// many, and the first.
    static TAGS: RefCell<(usize, Option<String>)> = const { RefCell::new((0, None)) };
}

thread_local! {
    /// Whether this thread's parse reads as JavaScript's `JSON.parse` does (a later duplicate key
    /// wins, in the first one's place), and how many duplicates it met so.
    static AS_JAVASCRIPT: RefCell<Option<usize>> = const { RefCell::new(None) };
}

thread_local! {
    /// What the `$ref` members read on this thread since the last [`take_references`] name
    /// besides the document itself. Noted as members are read, so finding out whether other
    /// files are worth looking for costs no pass of its own.
    static REFERENCES: Cell<References> = const { Cell::new(References { other_documents: false, files: false }) };
}

/// What a document's `$ref`s name besides the document itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct References {
    /// Another document: text before the `#` (`common.yaml#/Pet`, a URL).
    pub(crate) other_documents: bool,
    /// A file: another document named by a path, not a URL (which is never fetched).
    pub(crate) files: bool,
}

impl References {
    pub(crate) fn with(self, other: References) -> References {
        References { other_documents: self.other_documents || other.other_documents, files: self.files || other.files }
    }
}

/// Notes the member `key` the parse just read, whose value is the string `text` (`None` for any
/// other value).
pub(crate) fn note_member(key: &str, text: Option<&str>) {
    if key == "$ref"
        && let Some(reference) = text
        && !reference.is_empty()
    {
        if reference.starts_with('#') {
            note_local_reference(reference);
        } else {
            let location = reference.split_once('#').map_or(reference, |(location, _)| location);
            note_references(References { other_documents: true, files: !is_url(location) });
        }
    }
}

/// Whether the file part of a `$ref` is a URL (`https://…`, `//host/…`), which is never fetched.
pub(crate) fn is_url(location: &str) -> bool {
    let lower = location.to_ascii_lowercase();
    lower.contains("://") || lower.starts_with("//")
}

/// What the `$ref`s read on this thread since the last [`take_references`] named.
pub(crate) fn references() -> References {
    REFERENCES.get()
}

/// What the `$ref`s read on this thread since the last call named, forgetting it.
pub(crate) fn take_references() -> References {
    REFERENCES.take()
}

/// Counts `found` (from other threads' parses of this text's pieces) as read on this thread.
pub(crate) fn note_references(found: References) {
    REFERENCES.set(REFERENCES.get().with(found));
}

/// Runs `parse` reading duplicate keys as JavaScript does; how many it met comes back with it.
pub(crate) fn as_javascript<T>(parse: impl FnOnce() -> T) -> (T, usize) {
    AS_JAVASCRIPT.with(|state| *state.borrow_mut() = Some(0));
    let result = parse();
    let duplicates = AS_JAVASCRIPT.with(|state| state.borrow_mut().take()).unwrap_or_default();
    (result, duplicates)
}

/// Counts a duplicate key when the parse is JavaScript-style; `false` when it is strict.
pub(crate) fn duplicate_allowed() -> bool {
    AS_JAVASCRIPT.with(|state| state.borrow_mut().as_mut().map(|count| *count += 1).is_some())
}

/// Whether this thread's parse is strict (not as JavaScript reads).
pub(crate) fn is_strict() -> bool {
    AS_JAVASCRIPT.with(|state| state.borrow().is_none())
}

/// Notes a YAML tag the parse on this thread just read.
pub(crate) fn note_tag(tag: String) {
    TAGS.with(|tags| {
        let mut tags = tags.borrow_mut();
        tags.0 += 1;
        tags.1.get_or_insert(tag);
    });
}

/// The tags seen by the parse that just ended on this thread, forgetting them.
pub(crate) fn take_tags() -> (usize, Option<String>) {
    TAGS.with(|tags| std::mem::take(&mut *tags.borrow_mut()))
}

/// How much of the value at a path a reader reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// All of it.
    Whole,
    /// Some of its members: what each is read for is asked in turn, an array's elements by their
    /// index (an element is never left out: one read for nothing, or by reference, is read
    /// whole). Any other value is read whole.
    Members,
    /// None of it: the member is left out.
    Nothing,
    /// Only that it is there: it is checked and kept as `null`, however big; or, when texts a
    /// reader of every text looks for are inside it (a `${`, or one of 8 bytes or more: a secret's
    /// name or its value), as those texts alone, each in its place: an object keeps the members
    /// that hold one, an array becomes an object of the elements that do, keyed by index (so their
    /// pointers are their own). Such a reader finds every text that could concern it where the
    /// whole parse has it.
    KeyOnly,
    /// Its members only where a `$ref` leads (`#/definitions/Pet`): the parse of a big document
    /// checks each and keeps its text aside, unparsed (`Source::take_unparsed`); a small one
    /// reads them all.
    Referenced,
}

/// What a reader reads of a document: how much of the value at `path` (its keys from the root,
/// an array index as its decimal text). It is asked only about the members of a value it reads
/// by [`Reading::Members`], and about the root (`[]`).
pub type Interest = fn(path: &[&str]) -> Reading;

impl Reading {
    /// How an element of an array is read when `self` is what is asked for it: never left out
    /// (its index would move the elements after it), so read whole when read for nothing or by
    /// reference.
    pub(crate) fn of_element(self) -> Reading {
        match self {
            Reading::Nothing | Reading::Referenced => Reading::Whole,
            reading => reading,
        }
    }
}

/// The length from which a text inside a value read by [`Reading::KeyOnly`] is kept: the node's
/// checks look for no literal secret shorter than this.
pub const KEY_ONLY_TEXT: usize = 8;

/// Whether `text`, a string or key inside a value read by [`Reading::KeyOnly`], is kept.
pub(crate) fn text_matters(text: &str) -> bool {
    text.len() >= KEY_ONLY_TEXT || crate::pointer::holds_template(text)
}

thread_local! {
    /// The interest of the parse running on this thread, if it leaves anything out.
    static INTEREST: Cell<Option<Interest>> = const { Cell::new(None) };
    /// Whether a `$ref` read on this thread since the last [`take_unread_reached`] leads into
    /// something the interest leaves out (or might: one that cannot be read as a pointer).
    static UNREAD_REACHED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `parse` with `interest` as this thread's, for the `$ref`s it reads to be checked against
/// (`None`: they are not). What is left out is checked with none: its `$ref`s are never
/// followed, so where they lead does not matter (only whether one names another document, as the
/// whole parse notes it).
pub(crate) fn with_interest<T>(interest: Option<Interest>, parse: impl FnOnce() -> T) -> T {
    let outer = INTEREST.replace(interest);
    let result = parse();
    INTEREST.set(outer);
    result
}

/// Whether a `$ref` read on this thread since the last call led into what was left out,
/// forgetting it.
pub(crate) fn take_unread_reached() -> bool {
    UNREAD_REACHED.replace(false)
}

/// Counts `reached` (from another thread's parse of this text) as read on this thread.
pub(crate) fn note_unread_reached(reached: bool) {
    if reached {
        UNREAD_REACHED.set(true);
    }
}

/// Notes the local `$ref` `reference` (`#/…`) the parse on this thread just read.
pub(crate) fn note_local_reference(reference: &str) {
    if let Some(interest) = INTEREST.get()
        && reaches_unread(interest, reference)
    {
        UNREAD_REACHED.set(true);
    }
}

/// Whether the target of the local `$ref` `reference` is, or is in, or holds, something
/// `interest` leaves out; `true` when that cannot be told (the resolver will say what is wrong
/// with the `$ref`, from the whole document). A member of a value read by reference is there, to
/// be parsed when the resolver first reaches it.
pub(crate) fn reaches_unread(interest: Interest, reference: &str) -> bool {
    let fragment = reference.strip_prefix('#').unwrap_or(reference);
    // Most `$ref`s are written plainly (tens of thousands in a big API): their tokens are
    // slices of the text.
    if !fragment.contains(['%', '~']) {
        return fragment.strip_prefix('/').is_none_or(|tokens| leads_to_unread(interest, tokens.split('/')));
    }
    let Ok(decoded) = percent_encoding::percent_decode_str(fragment).decode_utf8() else { return true };
    let Some(tokens) = crate::pointer::tokens(&decoded) else { return true };
    leads_to_unread(interest, tokens.iter().map(String::as_str))
}

/// Levels of a `$ref`'s target followed at most: one deeper counts as leading into what was left
/// out (an interest reads by members only a few levels down).
pub(crate) const REF_LEVELS: usize = 8;

/// Whether the pointer of `tokens` leads into, or to something holding, what `interest` leaves
/// out.
fn leads_to_unread<'t>(interest: Interest, tokens: impl Iterator<Item = &'t str>) -> bool {
    let mut path = [""; REF_LEVELS];
    let mut tokens = tokens.enumerate();
    while let Some((depth, token)) = tokens.next() {
        let Some(slot) = path.get_mut(depth) else { return true };
        *slot = token;
        match interest(path.get(..=depth).unwrap_or_default()) {
            Reading::Whole => return false,
            Reading::Nothing | Reading::KeyOnly => return true,
            Reading::Members => {}
            // Into one of its members: there, unparsed. The whole of it: not all there.
            Reading::Referenced => return tokens.next().is_none(),
        }
    }
    // The target is read by members (the root, at least): some of what is in it may be missing.
    true
}

thread_local! {
    /// Levels the piece being parsed on this thread may still open; `None` outside pieces.
    static LEVELS_LEFT: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Opens one level of the piece being parsed on this thread, if one is: `false` when that is
/// one level too many.
pub(crate) fn open_level() -> bool {
    LEVELS_LEFT.with(|left| match left.get() {
        None => true,
        Some(0) => false,
        Some(levels) => {
            left.set(Some(levels - 1));
            true
        }
    })
}

/// Closes a level [`open_level`] opened.
pub(crate) fn close_level() {
    LEVELS_LEFT.with(|left| left.set(left.get().map(|levels| levels + 1)));
}

/// Starts a piece of a split parse on this thread: it may open `levels` levels.
pub(crate) fn enter_piece(levels: usize) {
    LEVELS_LEFT.with(|left| left.set(Some(levels)));
}

/// Ends the piece [`enter_piece`] started.
pub(crate) fn leave_piece() {
    LEVELS_LEFT.with(|left| left.set(None));
}
