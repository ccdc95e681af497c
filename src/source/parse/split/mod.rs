//! A big JSON document parsed in pieces side by side. One thread reads the root object's members
//! and, inside each, the members or elements one level down as unparsed text (serde_json checks
//! their syntax as it skips them), handing the pieces out in batches as it goes; every other core
//! parses them meanwhile, and then so does it. The pieces are put back in place at the end.
//! Kubernetes' 4 MB parse, a third of its conversion on one core, is shared between two.
//!
//! The result is the `Value` the whole parse makes (less what a reader's interest leaves out,
//! [`prune`]), or nothing: on any error, a duplicate key, a piece nested so deep that the whole
//! parse might refuse it, the caller parses the whole text, which finds the same problem and
//! reports it where it is.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::de::DeserializeSeed;
use serde_json::{Map, Value};

use super::Parsed;
use super::prune::{CheckSeed, KeyOnlySeed, Keys, PrunedSeed};
use super::seeds::ValueSeed;
use super::state::{self, Interest, Reading};
use scan::Scan;

mod scan;

/// How many times a big piece is outlined in turn (a level each time).
const SPLITS: usize = 3;

/// A piece longer than this is outlined in turn, when it is an object or array.
const BIG_PIECE: usize = 128 * 1024;

/// The bytes of text per value below which a big array is parsed as one piece, not outlined.
const MIN_ELEMENT_BYTES: usize = 64;

/// The levels of nesting a piece may have. serde_json refuses the 128th level of a document;
/// pieces start on the third level, or [`SPLITS`] further down, and a margin keeps the count
/// simple: a deeper piece only means the whole text is parsed in one go, which decides.
const PIECE_DEPTH: usize = 127 - 3 - SPLITS - 1;

/// Text handed out to be parsed at a time: enough to be worth a task, little enough that the
/// other cores start soon after the outline does and finish together.
const BATCH_BYTES: usize = 32 * 1024;

/// `text`, a JSON object, parsed in pieces side by side; `None` when it is not an object or
/// anything is wrong with it (the whole parse then says what). With an `interest`, what it leaves
/// unread is checked but left out ([`prune`]), and the members of values it reads by reference
/// come back unparsed.
pub(super) fn json(text: &str, interest: Option<Interest>) -> Option<Parsed<'_>> {
    let parsed = Mutex::new(Vec::new());
    let noted = Noted::default();
    let outline = rayon::scope(|scope| {
        let batches = Batches {
            scope,
            parsed: &parsed,
            noted: &noted,
            interest,
            pending: RefCell::default(),
            handed_out: Cell::new(0),
        };
        // This runs on one of the pool's threads: the `$ref`s the outline reads are checked
        // against the interest there too.
        let outline = state::with_interest(interest, || outline_root(text, Outliner::root(&batches, interest)));
        batches.hand_out();
        // The outline read the members it did not hand out on this thread.
        noted.share();
        outline
    })?;
    let mut batches = parsed.into_inner().ok()?;
    batches.sort_unstable_by_key(|(index, _)| *index);
    let values = batches.into_iter().map(|(_, values)| values).collect::<Option<Vec<_>>>()?;
    let values = values.into_iter().flatten();
    let mut assembly = Assembly {
        text,
        values,
        pointer: String::new(),
        landmarks: Vec::new(),
        landmark_bytes: 0,
        unparsed: Vec::new(),
    };
    let root = assembly.value(Outline::Object(outline))?;
    if assembly.values.next().is_some() {
        return None;
    }
    noted.on_this_thread();
    Some(Parsed { value: root, landmarks: assembly.landmarks, unparsed: assembly.unparsed })
}

/// A member of a value read by reference, parsed as it would have been in its place.
pub(crate) fn parse_unparsed(text: &str) -> Option<Value> {
    parse_piece(text, &Part::Whole)?
}

/// What the `$ref`s read on any thread noted: whether one named another document
/// (`state::take_references`), and whether one led into what was left out
/// (`state::take_unread_reached`).
#[derive(Default)]
struct Noted {
    references: Mutex<state::References>,
    unread_reached: AtomicBool,
}

impl Noted {
    /// Passes what this thread's parse noted to `self`.
    fn share(&self) {
        let references = state::take_references();
        if references != state::References::default()
            && let Ok(mut shared) = self.references.lock()
        {
            *shared = shared.with(references);
        }
        if state::take_unread_reached() {
            self.unread_reached.store(true, Ordering::Relaxed);
        }
    }

    /// Counts everything noted as read on this thread.
    fn on_this_thread(self) {
        state::note_references(self.references.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()));
        state::note_unread_reached(self.unread_reached.into_inner());
    }
}

/// Where a piece is in the text: what finding a pointer there would find, without the walk from
/// the start (a diagnostic deep in a big document is then found in its piece alone).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Landmark {
    /// The piece's JSON pointer.
    pub(crate) pointer: String,
    /// The offset of its key's opening quote (of the value, for an element).
    pub(crate) report: usize,
    /// The offset of its value.
    pub(crate) value: usize,
}

/// The parsed pieces going back into place, and where each was.
struct Assembly<'text, I> {
    text: &'text str,
    values: I,
    pointer: String,
    landmarks: Vec<Landmark>,
    /// The bytes of the landmarks' pointers, kept below the text's length: each holds its whole
    /// pointer, and 16,000 parameters under a 100,000-character path took 2 GB of them.
    landmark_bytes: usize,
    /// The members of values read by reference: their pointers and text.
    unparsed: Vec<(String, &'text str)>,
}

impl<'text, I: Iterator<Item = Option<Value>>> Assembly<'text, I> {
    /// The value `outline` stands for, taking the values of its pieces in order.
    fn value(&mut self, outline: Outline<'text>) -> Option<Value> {
        Some(match outline {
            Outline::Scalar(value) => value,
            Outline::Piece(_) => self.values.next()??,
            // Only an object's member is left out.
            Outline::Unread(_) | Outline::Deferred(_) => return None,
            Outline::Object(members) => {
                let mut object = Map::with_capacity(members.len());
                // Members left out still count as written: a key written twice is an error either way.
                let mut unread = Keys::default();
                for (key, member) in members {
                    if let Outline::Unread(text) | Outline::Deferred(text) = member {
                        if !matches!(self.values.next(), Some(None)) || object.contains_key(&key) {
                            return None;
                        }
                        if let Outline::Deferred(_) = member {
                            self.unparsed.push((crate::pointer::join(&self.pointer, [key.as_str()]), text));
                        }
                        unread.insert(Cow::Owned(key)).is_none().then_some(())?;
                        continue;
                    }
                    let value = self.member(&key, member, false)?;
                    if unread.contains(&key) {
                        return None;
                    }
                    // A duplicate key is an error of the whole parse's to report.
                    match object.entry(key) {
                        serde_json::map::Entry::Vacant(slot) => slot.insert(value),
                        serde_json::map::Entry::Occupied(_) => return None,
                    };
                }
                Value::Object(object)
            }
            Outline::Array(items) => {
                let mut elements = Vec::with_capacity(items.len());
                for (index, item) in items.into_iter().enumerate() {
                    elements.push(self.member(&index.to_string(), item, true)?);
                }
                Value::Array(elements)
            }
        })
    }

    /// [`Assembly::value`] of the member `key` (an index, for an element), noting where a
    /// piece was, and where an outlined object or array was when its first member is a piece
    /// found (`paths` and `info` themselves, not only what is in them).
    fn member(&mut self, key: &str, outline: Outline<'text>, element: bool) -> Option<Value> {
        let length = self.pointer.len();
        crate::pointer::push(&mut self.pointer, key);
        let first = match &outline {
            Outline::Piece(piece) => {
                let value = piece.as_ptr().addr().checked_sub(self.text.as_ptr().addr());
                self.landmark(value, key, element);
                None
            }
            Outline::Object(members) => members.first().map(|(first, _)| (first.clone(), false)),
            Outline::Array(items) => (!items.is_empty()).then(|| ("0".to_owned(), true)),
            Outline::Scalar(_) | Outline::Unread(_) | Outline::Deferred(_) => None,
        };
        let before = self.landmarks.len();
        let value = self.value(outline);
        if let Some((first, first_is_element)) = first {
            // The first member's landmark, if it has one, follows the bracket that opens this value.
            let inner = crate::pointer::join(&self.pointer, [first.as_str()]);
            let opening = self.landmarks.get(before..).unwrap_or_default().iter().find(|l| l.pointer == inner);
            let bracket = opening.and_then(|landmark| {
                let before_first = self.text.get(..landmark.report)?.trim_end_matches(JSON_SPACE);
                let opener = if first_is_element { '[' } else { '{' };
                before_first.strip_suffix(opener).map(str::len)
            });
            self.landmark(bracket, key, element);
        }
        self.pointer.truncate(length);
        value
    }

    /// Notes that the value of the member `key` at the current pointer starts at `value`.
    fn landmark(&mut self, value: Option<usize>, key: &str, element: bool) {
        // Landmarks only spare locating a walk: past the budget, none is kept.
        if self.landmark_bytes + self.pointer.len() > self.text.len() {
            return;
        }
        if let Some(value) = value
            && let Some(report) = if element { Some(value) } else { key_start(self.text, value, key) }
        {
            self.landmark_bytes += self.pointer.len();
            self.landmarks.push(Landmark { pointer: self.pointer.clone(), report, value });
        }
    }
}

/// The offset of the opening quote of the key of the member whose value starts at `value`, when
/// the key is written as it reads (no escapes: then it is known for certain).
fn key_start(text: &str, value: usize, key: &str) -> Option<usize> {
    if key.contains(['"', '\\']) || key.chars().any(char::is_control) {
        return None;
    }
    let before = text.get(..value)?.trim_end_matches(JSON_SPACE).strip_suffix(':')?;
    let before = before.trim_end_matches(JSON_SPACE).strip_suffix('"')?.strip_suffix(key)?.strip_suffix('"')?;
    // A quote inside a string is escaped; the key's own opening quote follows `{`, `,` or space.
    let opened = before.trim_end_matches(JSON_SPACE).ends_with(['{', ',']);
    opened.then_some(before.len())
}

const JSON_SPACE: [char; 4] = [' ', '\t', '\n', '\r'];

/// A batch's number and its pieces' values (`None`: one would not parse; `Some(None)`, a piece
/// read for nothing).
type Batch = (usize, Option<Vec<Option<Value>>>);

/// What is read of a piece.
enum Part {
    Whole,
    /// The members `interest` reads of the value at `path`.
    Members {
        interest: Interest,
        path: Vec<String>,
    },
    /// Nothing: it is only checked (where its `$ref`s lead does not matter).
    Unread,
    /// A member of a value read by reference: checked, and its `$ref`s with it.
    Deferred,
    /// Only that it is there ([`Reading::KeyOnly`]): checked, and `null` in its place, or the
    /// texts in it that matter.
    KeyOnly,
}

/// Where the outline puts the pieces it finds, in order.
trait Pieces<'text> {
    fn push(&self, piece: &'text str, part: Part);
}

/// Pieces found by the outline, handed out in batches to be parsed on the pool's threads.
struct Batches<'r, 'scope, 'text> {
    scope: &'r rayon::Scope<'scope>,
    /// Each batch's values as they are done.
    parsed: &'scope Mutex<Vec<Batch>>,
    noted: &'scope Noted,
    interest: Option<Interest>,
    pending: RefCell<(Vec<(&'text str, Part)>, usize)>,
    handed_out: Cell<usize>,
}

impl<'text: 'scope, 'scope> Pieces<'text> for Batches<'_, 'scope, 'text> {
    fn push(&self, piece: &'text str, part: Part) {
        let full = {
            let mut pending = self.pending.borrow_mut();
            pending.0.push((piece, part));
            pending.1 += piece.len();
            pending.1 >= BATCH_BYTES
        };
        if full {
            self.hand_out();
        }
    }
}

impl<'text: 'scope, 'scope> Batches<'_, 'scope, 'text> {
    fn hand_out(&self) {
        let (pieces, _) = self.pending.take();
        if pieces.is_empty() {
            return;
        }
        let number = self.handed_out.replace(self.handed_out.get() + 1);
        let (parsed, noted, interest) = (self.parsed, self.noted, self.interest);
        self.scope.spawn(move |_| {
            let values = state::with_interest(interest, || {
                pieces.into_iter().map(|(text, part)| parse_piece(text, &part)).collect::<Option<Vec<_>>>()
            });
            noted.share();
            if let Ok(mut parsed) = parsed.lock() {
                parsed.push((number, values));
            }
        });
    }
}

/// One piece parsed as the whole parse would parse it in its place; `Some(None)` for one read
/// for nothing, which is only checked.
fn parse_piece(text: &str, part: &Part) -> Option<Option<Value>> {
    state::enter_piece(PIECE_DEPTH);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = match part {
        Part::Whole => ValueSeed.deserialize(&mut deserializer).map(Some),
        Part::Members { interest, path } => {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            PrunedSeed { interest: *interest, path: &path }.deserialize(&mut deserializer).map(Some)
        }
        Part::Unread => state::with_interest(None, || CheckSeed.deserialize(&mut deserializer)).map(|()| None),
        Part::Deferred => CheckSeed.deserialize(&mut deserializer).map(|()| None),
        Part::KeyOnly => KeyOnlySeed.deserialize(&mut deserializer).map(Some),
    };
    state::leave_piece();
    value.ok().filter(|_| deserializer.end().is_ok())
}

/// What the outline read of a value: a scalar, a piece handed out to be parsed (or only checked,
/// when it is read for nothing, or read only by reference), or an object or array whose members
/// are outlines in turn.
enum Outline<'text> {
    Scalar(Value),
    Piece(&'text str),
    Unread(&'text str),
    Deferred(&'text str),
    Object(Vec<(String, Outline<'text>)>),
    Array(Vec<Outline<'text>>),
}

impl Outline<'_> {
    /// Notes the member `key` of this outline as the whole parse would. What is in a piece is
    /// noted where it is parsed, but a piece's own key is read here: a string piece under
    /// `$ref` is read here too.
    fn note(&self, key: &str) {
        match self {
            Outline::Scalar(value) => state::note_member(key, value.as_str()),
            Outline::Piece(text) | Outline::Unread(text) | Outline::Deferred(text)
                if key == "$ref" && text.starts_with('"') =>
            {
                state::note_member(key, serde_json::from_str::<String>(text).ok().as_deref());
            }
            _ => {}
        }
    }
}

/// The root object's outline: its members outlined as they are read (`paths` is most of an
/// OpenAPI document; reading it as one piece first would mean reading it twice). `None` when the
/// text is not one object, or anything about its structure is wrong (the whole parse then says
/// what).
fn outline_root<'text>(text: &'text str, root: Outliner<'_, '_, 'text>) -> Option<Vec<(String, Outline<'text>)>> {
    let scan = Scan { text, by_lines: Cell::new(true) };
    let start = scan.space(0);
    if scan.byte(start) != Some(b'{') {
        return None;
    }
    let mut members = Vec::new();
    let end = scan.members(start, |key, start, indent| {
        let key = key?;
        let (reading, path) = root.below(Name::Key(&key));
        let (member, end) = match scan.byte(start)? {
            // Outlined as it is read: its text is not scanned first.
            b'{' if !matches!(reading, Reading::Nothing | Reading::KeyOnly) => {
                Outliner { path: &path, reading, ..root }.container(&scan, start)?
            }
            b'{' | b'[' => {
                let end = scan.value_end(start, indent)?;
                (root.member(scan.slice(start..end)?, Name::Key(&key))?, end)
            }
            // A scalar is made into a value as the whole parse makes it.
            _ => {
                let end = scan.value_end(start, indent)?;
                (Outline::Scalar(parse_scalar(scan.slice(start..end)?)?), end)
            }
        };
        member.note(&key);
        members.push((key, member));
        Some(end)
    })?;
    (scan.space(end) == text.len()).then_some(members)
}

/// A scalar's text parsed as the whole parse parses it.
fn parse_scalar(text: &str) -> Option<Value> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = ValueSeed.deserialize(&mut deserializer).ok()?;
    deserializer.end().ok().map(|()| value)
}

/// A value outlined: its members or elements become pieces, but for one longer than
/// [`BIG_PIECE`], which is outlined in turn (`splits` more times at most): OpenAPI 3 keeps most
/// of a document in `components/schemas`, which as one piece would be parsed by one thread alone.
/// With an `interest`, a member it reads for nothing is only checked.
#[derive(Clone, Copy)]
struct Outliner<'b, 'p, 'text> {
    pieces: &'b dyn Pieces<'text>,
    splits: usize,
    interest: Option<Interest>,
    /// The value's path from the root, when `interest` is asked about its members.
    path: &'p [String],
    reading: Reading,
}

impl<'b, 'text> Outliner<'b, '_, 'text> {
    /// The root's outline: read by members when there is an `interest`.
    fn root(pieces: &'b dyn Pieces<'text>, interest: Option<Interest>) -> Self {
        let reading = if interest.is_some() { Reading::Members } else { Reading::Whole };
        Outliner { pieces, splits: SPLITS, interest, path: &[], reading }
    }

    /// What the member or element `name` of this value is read for, and its path when what is
    /// read of it is asked in turn. An element is never left out.
    fn below(&self, name: Name<'_>) -> (Reading, Vec<String>) {
        let (Reading::Members, Some(interest)) = (self.reading, self.interest) else {
            return (Reading::Whole, Vec::new());
        };
        let mut path = self.path.to_vec();
        path.push(match name {
            Name::Key(key) => key.to_owned(),
            Name::Index(index) => index.to_string(),
        });
        let keys: Vec<&str> = path.iter().map(String::as_str).collect();
        let reading = match name {
            Name::Key(_) => interest(&keys),
            Name::Index(_) => interest(&keys).of_element(),
        };
        (reading, path)
    }

    /// The outline of the object or array opening at `start` (its members or elements each a
    /// piece, or outlined in turn), and where it closes.
    fn container(self, scan: &Scan<'text>, start: usize) -> Option<(Outline<'text>, usize)> {
        let mut members = Vec::new();
        let mut items = Vec::new();
        let object = scan.byte(start) == Some(b'{');
        let closed = scan.members(start, |key, start, indent| {
            let end = scan.value_end(start, indent)?;
            let name = key.as_deref().map_or(Name::Index(items.len()), Name::Key);
            let member = self.member(scan.slice(start..end)?, name)?;
            match key {
                Some(key) => {
                    member.note(&key);
                    members.push((key, member));
                }
                None => items.push(member),
            }
            Some(end)
        })?;
        Some((if object { Outline::Object(members) } else { Outline::Array(items) }, closed))
    }

    fn member(self, text: &'text str, name: Name<'_>) -> Option<Outline<'text>> {
        if self.reading == Reading::Referenced && matches!(name, Name::Key(_)) {
            // Checked now, parsed when a `$ref` first leads into it.
            self.pieces.push(text, Part::Deferred);
            return Some(Outline::Deferred(text));
        }
        let (reading, path) = self.below(name);
        match reading {
            Reading::Nothing => {
                self.pieces.push(text, Part::Unread);
                return Some(Outline::Unread(text));
            }
            Reading::KeyOnly => {
                self.pieces.push(text, Part::KeyOnly);
                return Some(Outline::Piece(text));
            }
            Reading::Whole | Reading::Members | Reading::Referenced => {}
        }
        // A value read by reference is outlined however small: its members are each a piece.
        let by_reference = reading == Reading::Referenced && text.starts_with('{');
        if by_reference || (self.splits > 0 && text.len() >= BIG_PIECE && worth_outlining(text)) {
            let inner = Outliner { splits: self.splits.saturating_sub(1), path: &path, reading, ..self };
            let scan = Scan { text, by_lines: Cell::new(true) };
            // Where the scan found it to end, as its own reading of the text does.
            return inner.container(&scan, 0).and_then(|(outline, end)| (end == text.len()).then_some(outline));
        }
        let part = match (reading, self.interest) {
            (Reading::Members, Some(interest)) => Part::Members { interest, path },
            _ => Part::Whole,
        };
        self.pieces.push(text, part);
        Some(Outline::Piece(text))
    }
}

/// A member of an object by its key, or an element of an array by its index.
#[derive(Clone, Copy)]
enum Name<'k> {
    Key(&'k str),
    Index(usize),
}

/// Whether a big value's members are worth a piece each: an object's are, and an array's when they
/// are big (a million prices as a million pieces cost more memory than the values they become).
fn worth_outlining(text: &str) -> bool {
    text.starts_with('{')
        || (text.starts_with('[')
            && crate::source::density::values_in(text, crate::source::Format::Json) <= text.len() / MIN_ELEMENT_BYTES)
}

#[cfg(test)]
mod tests;
