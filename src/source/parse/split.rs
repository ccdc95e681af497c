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

use serde::Deserialize;
use serde::de::DeserializeSeed;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::Parsed;
use super::prune::{CheckSeed, Keys, PrunedSeed};
use super::seeds::ValueSeed;
use super::state::{self, Interest, Reading};

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
        let (reading, path) = root.below(Some(&key));
        let (member, end) = match scan.byte(start)? {
            // Outlined as it is read: its text is not scanned first.
            b'{' if reading != Reading::Nothing => Outliner { path: &path, reading, ..root }.container(&scan, start)?,
            b'{' | b'[' => {
                let end = scan.value_end(start, indent)?;
                (root.member(scan.slice(start..end)?, Some(&key))?, end)
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

    /// What the member `key` of this value is read for (an element, `None`, is read whole), and
    /// its path when what is read of it is asked in turn.
    fn below(&self, key: Option<&str>) -> (Reading, Vec<String>) {
        match (self.reading, self.interest, key) {
            (Reading::Members, Some(interest), Some(key)) => {
                let mut path = self.path.to_vec();
                path.push(key.to_owned());
                let keys: Vec<&str> = path.iter().map(String::as_str).collect();
                (interest(&keys), path)
            }
            _ => (Reading::Whole, Vec::new()),
        }
    }

    /// The outline of the object or array opening at `start` (its members or elements each a
    /// piece, or outlined in turn), and where it closes.
    fn container(self, scan: &Scan<'text>, start: usize) -> Option<(Outline<'text>, usize)> {
        let mut members = Vec::new();
        let mut items = Vec::new();
        let object = scan.byte(start) == Some(b'{');
        let closed = scan.members(start, |key, start, indent| {
            let end = scan.value_end(start, indent)?;
            let member = self.member(scan.slice(start..end)?, key.as_deref())?;
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

    fn member(self, text: &'text str, key: Option<&str>) -> Option<Outline<'text>> {
        if self.reading == Reading::Referenced && key.is_some() {
            // Checked now, parsed when a `$ref` first leads into it.
            self.pieces.push(text, Part::Deferred);
            return Some(Outline::Deferred(text));
        }
        let (reading, path) = self.below(key);
        if reading == Reading::Nothing {
            self.pieces.push(text, Part::Unread);
            return Some(Outline::Unread(text));
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

/// Whether a big value's members are worth a piece each: an object's are, and an array's when they
/// are big (a million prices as a million pieces cost more memory than the values they become).
fn worth_outlining(text: &str) -> bool {
    text.starts_with('{')
        || (text.starts_with('[')
            && crate::source::density::values_in(text, crate::source::Format::Json) <= text.len() / MIN_ELEMENT_BYTES)
}

/// JSON text read at the outline's levels: members, keys and separators are read here, a
/// member's value only as far as where it ends. Where a value ends is found from the lines of an
/// indented text (as formatters write it, the bracket that closes a value starts a line indented
/// as much as the line that opened it) when the text is so written, else by serde_json's scan of
/// the value. A value found so is parsed later, by itself, which would fail if it did not end
/// there: then the whole text is parsed instead.
struct Scan<'text> {
    text: &'text str,
    /// Whether values are still found by their lines: once the text turns out not to be written
    /// so, they are scanned, so no line is read twice.
    by_lines: Cell<bool>,
}

impl<'text> Scan<'text> {
    fn byte(&self, at: usize) -> Option<u8> {
        self.text.as_bytes().get(at).copied()
    }

    fn slice(&self, range: std::ops::Range<usize>) -> Option<&'text str> {
        self.text.get(range)
    }

    /// Past the JSON whitespace at `at`.
    fn space(&self, mut at: usize) -> usize {
        while matches!(self.byte(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            at += 1;
        }
        at
    }

    /// Reads the members (or elements) of the object (or array) opening at `open`, giving each
    /// one's key (`None` for an element), where its value starts and how its line is indented
    /// to `member`, which says where the value ends; where the object closes.
    fn members(
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
    fn indent(&self, at: usize) -> Option<usize> {
        let before = self.text.as_bytes().get(..at)?;
        let spaces = before.iter().rev().take_while(|&&byte| byte == b' ').count();
        let line_start = at - spaces;
        (line_start == 0 || before.get(line_start - 1) == Some(&b'\n')).then_some(spaces)
    }

    /// After the closing quote of the string opening at `at`.
    fn string_end(&self, at: usize) -> Option<usize> {
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
    fn value_end(&self, start: usize, indent: Option<usize>) -> Option<usize> {
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
    fn opens_a_block(&self, at: usize) -> bool {
        let rest = self.text.as_bytes().get(at + 1..).unwrap_or_default();
        let after = rest.iter().position(|byte| !matches!(byte, b' ' | b'\t' | b'\r'));
        after.is_none_or(|after| rest.get(after) == Some(&b'\n'))
    }

    /// Where the value opened at `at` ends, when the first later line indented by `indent` spaces
    /// and starting with a bracket starts with its closing bracket `close` (found as that text,
    /// not line by line: most lines are indented deeper). `None` when there is no such line.
    fn closing_line(&self, at: usize, indent: usize, close: u8) -> Option<usize> {
        let mut needle = Vec::with_capacity(indent + 2);
        needle.push(b'\n');
        needle.resize(indent + 1, b' ');
        needle.push(close);
        let found = memchr::memmem::find(self.text.as_bytes().get(at..)?, &needle)?;
        Some(at + found + needle.len())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    use super::super::json_whole;
    use crate::source::locate::{JsonCache, json as locate};

    fn whole(text: &str) -> Option<Value> {
        json_whole(text).ok()
    }

    fn split(text: &str) -> Option<Value> {
        json(text, None).map(|parsed| parsed.value)
    }

    #[test]
    fn landmarks_never_hold_more_pointer_bytes_than_the_text_has() {
        // 16,000 parameters under one 100,000-character path: a landmark per parameter, each with
        // the path in its pointer, once took 2 GB.
        let path = format!("/{}", "a".repeat(100_000));
        let parameters: Vec<String> = (0..16_000).map(|i| format!(r#"{{"name": "p{i}", "in": "query"}}"#)).collect();
        let text = format!(
            r#"{{"openapi": "3.0.3", "paths": {{"{path}": {{"get": {{"parameters": [{}]}}}}}}}}"#,
            parameters.join(", ")
        );
        let parsed = json(&text, None).expect("splits");
        let bytes: usize = parsed.landmarks.iter().map(|l| l.pointer.len()).sum();
        assert!(bytes <= text.len(), "{bytes} bytes of landmark pointers for {} of text", text.len());
        assert_eq!(parsed.value, json_whole(&text).unwrap());
    }

    #[test]
    fn a_document_in_pieces_is_the_document_parsed_whole() {
        let text = r#"{"openapi": "3.0.0", "n": -1.5e3, "big": 18446744073709551615, "t": true, "z": null,
            "paths": {"/a": {"get": {"x": [1, {"y": "\u00e9\"\\"}]}}, "/b": {}},
            "tags": [{"name": "a"}, "b", 3, []], "empty": {}, "none": []}"#;
        let parsed = split(text).unwrap();
        assert_eq!(Some(&parsed), whole(text).as_ref());
        let keys: Vec<&String> = parsed.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["openapi", "n", "big", "t", "z", "paths", "tags", "empty", "none"]);
    }

    #[test]
    fn anything_the_whole_parse_refuses_or_that_is_not_an_object_is_left_to_it() {
        for text in [
            r#"{"a": {"b": 1, "b": 2}}"#,
            r#"{"a": 1, "a": 2}"#,
            r#"{"a": {"b": 1e400}}"#,
            r#"{"a": {"b": [1,]}}"#,
            r#"{"a": 1} {"b": 2}"#,
            r#"{"a": {"b": "\ud800"}}"#,
            r#"[{"a": 1}]"#,
            r#""text""#,
        ] {
            assert_eq!(split(text), None, "{text}");
        }
    }

    #[test]
    fn a_piece_nested_near_serde_json_limit_is_left_to_the_whole_parse() {
        let nested = |levels: usize| format!("{{\"a\": {{\"b\": {}{}}}}}", "[".repeat(levels), "]".repeat(levels));
        assert!(split(&nested(PIECE_DEPTH)).is_some());
        assert_eq!(split(&nested(PIECE_DEPTH + 1)), None);
        // The whole parse decides, as it would have without pieces.
        assert!(whole(&nested(PIECE_DEPTH + 1)).is_some());
        assert!(whole(&nested(200)).is_none());
        assert!(matches!(whole(&nested(2)), Some(value) if value == json!({"a": {"b": [[]]}})));
    }

    /// The pieces the outline of `text` hands out, in order.
    fn pieces_of(text: &str) -> Vec<&str> {
        struct Collected<'t>(RefCell<Vec<&'t str>>);
        impl<'t> Pieces<'t> for Collected<'t> {
            fn push(&self, piece: &'t str, _: Part) {
                self.0.borrow_mut().push(piece);
            }
        }
        let collected = Collected(RefCell::default());
        outline_root(text, Outliner::root(&collected, None)).unwrap();
        collected.0.into_inner()
    }

    #[test]
    fn a_big_member_is_outlined_in_turn_and_comes_back_whole() {
        let schema =
            |n: usize| json!({"type": "object", "description": "x".repeat(2000), "n": n, "items": [n, {"a": n}]});
        let schemas: Map<String, Value> = (0..200).map(|n| (format!("S{n}"), schema(n))).collect();
        let big_array: Vec<Value> = (0..100).map(schema).collect();
        let root =
            json!({"openapi": "3.0.0", "components": {"schemas": schemas, "list": big_array, "small": {"a": 1}}});
        let text = serde_json::to_string(&root).unwrap();
        let pieces = pieces_of(&text);
        // Each schema and each element on its own; `small` was not worth outlining again.
        assert_eq!(pieces.len(), 200 + 100 + 1);
        assert!(pieces.iter().all(|piece| piece.len() < BIG_PIECE));
        assert_eq!(pieces.last(), Some(&r#"{"a":1}"#));
        assert_eq!(split(&text), Some(root.clone()));
        // Not past `SPLITS` levels: a big piece that deep is parsed as it is.
        let mut deep = root;
        for level in 0..SPLITS + 2 {
            deep = json!({ format!("l{level}"): deep });
        }
        let text = serde_json::to_string(&deep).unwrap();
        assert_eq!(pieces_of(&text).len(), 1);
        assert_eq!(split(&text), Some(deep));
    }

    #[test]
    fn a_big_array_of_small_values_is_one_piece() {
        let prices: Vec<Value> = (0..40_000).map(|n| json!(n as f64 + 0.5)).collect();
        let root =
            json!({"openapi": "3.0.0", "x-prices": prices, "components": {"schemas": {"a": {"type": "string"}}}});
        let text = serde_json::to_string(&root).unwrap();
        assert!(text.len() > BIG_PIECE);
        assert_eq!(pieces_of(&text).len(), 2);
        assert_eq!(split(&text), Some(root));
    }

    #[test]
    fn a_problem_in_a_member_outlined_in_turn_is_left_to_the_whole_parse() {
        let filler = "x".repeat(BIG_PIECE);
        for inner in [r#"{"a": 1, "a": 2}"#, r#"{"a": 1e400}"#, r#"{"a": [1,]}"#, r#"{"a" 1}"#] {
            let text = format!(r#"{{"components": {{"schemas": {{"filler": "{filler}", "bad": {inner}}}}}}}"#);
            assert_eq!(split(&text), None, "{inner}");
            assert!(whole(&text).is_none(), "{inner}");
        }
    }

    #[test]
    fn a_big_document_is_parsed_in_pieces_and_its_errors_are_the_whole_parse_s() {
        use super::super::{SPLIT_MIN_BYTES, json as entry};
        let paths: Map<String, Value> =
            (0..2000).map(|n| (format!("/p{n}"), json!({"get": {"description": "d".repeat(600), "n": n}}))).collect();
        let root = json!({"openapi": "3.0.0", "paths": paths});
        let text = serde_json::to_string_pretty(&root).unwrap();
        assert!(text.len() > SPLIT_MIN_BYTES);
        assert!(split(&text).is_some());
        assert_eq!(entry(&text).unwrap().value, root);
        let duplicated = text.replacen("\"n\": 1999", "\"n\": 1999, \"n\": 0", 1);
        let broken = text.replacen("\"n\": 1500", "\"n\": 1500,", 1);
        for text in [duplicated, broken] {
            assert_eq!(split(&text), None);
            let (pieces, whole) = (entry(&text).unwrap_err(), json_whole(&text).unwrap_err());
            assert_eq!(
                (pieces.to_string(), pieces.line(), pieces.column()),
                (whole.to_string(), whole.line(), whole.column())
            );
            assert!(pieces.line() > 1000, "{pieces}");
        }
    }

    #[test]
    fn a_ref_to_another_document_is_noted_wherever_the_split_read_it() {
        let filler = "f".repeat(BIG_PIECE);
        let document = |inside_a_piece: &str, outlined: &str| {
            format!(
                r#"{{"paths": {{"filler": "{filler}", "/a": {{"get": {{"$ref": "{inside_a_piece}"}}}}, "$ref": "{outlined}"}}}}"#
            )
        };
        for (inside_a_piece, outlined, expected) in
            [("other.yaml#/A", "#/b", true), ("#/a", "other.yaml", true), ("#/a", "#/b", false)]
        {
            let text = document(inside_a_piece, outlined);
            state::take_references();
            let Parsed { value, landmarks, .. } = json(&text, None).unwrap();
            assert!(!landmarks.is_empty(), "the document was split");
            assert_eq!(state::take_references().other_documents, expected, "{inside_a_piece} {outlined}");
            // As the whole parse notes it.
            assert_eq!(whole(&text), Some(value));
            assert_eq!(state::take_references().other_documents, expected);
        }
        // One of the root's own members.
        let text = format!(r#"{{"$ref": "root.yaml", "paths": {{"filler": "{filler}"}}}}"#);
        assert!(json(&text, None).is_some());
        assert!(state::take_references().other_documents);
    }

    /// Reads path items by members, their responses for nothing, and `defs` by reference.
    fn interest(path: &[&str]) -> Reading {
        match path {
            [] | ["paths"] | ["paths", _] => Reading::Members,
            ["paths", _, "responses"] => Reading::Nothing,
            ["defs"] => Reading::Referenced,
            _ => Reading::Whole,
        }
    }

    /// `text` parsed in pieces for [`interest`].
    fn read(text: &str) -> Option<Parsed<'_>> {
        state::with_interest(Some(interest), || json(text, Some(interest)))
    }

    #[test]
    fn a_big_document_read_for_an_interest_is_the_whole_parse_less_what_is_unread() {
        let item = |n: usize, size: usize| json!({"get": {"n": n}, "responses": {"200": "r".repeat(size)}, "x": n});
        let mut paths: Map<String, Value> = (0..20).map(|n| (format!("/p{n}"), item(n, 600))).collect();
        // Outlined in turn, its responses a piece of their own.
        paths.insert("/big".to_owned(), item(0, BIG_PIECE));
        let root = json!({"openapi": "3.0.0", "paths": paths});
        let text = serde_json::to_string_pretty(&root).unwrap();
        let Parsed { value, landmarks, unparsed } = read(&text).unwrap();
        assert!(unparsed.is_empty());
        let mut expected = root;
        for item in expected["paths"].as_object_mut().unwrap().values_mut() {
            item.as_object_mut().unwrap().shift_remove("responses");
        }
        assert_eq!(value, expected);
        assert!(!state::take_unread_reached());
        assert_eq!(misled(&text, &value, landmarks), []);
        // What is wrong in what is left out is still wrong; a `$ref` into it is noted.
        let duplicated = text.replacen(r#""200": "r"#, r#""201": 1, "201": "r"#, 1);
        assert!(read(&duplicated).is_none());
        let big_duplicated = text.replacen(r#""/big": {"#, r#""/big": {"responses": 1,"#, 1);
        assert!(read(&big_duplicated).is_none());
        let referring = text.replacen(r#""n": 7"#, r##""$ref": "#/paths/~1p9/responses""##, 1);
        assert!(read(&referring).is_some());
        assert!(state::take_unread_reached());
        // Read by the outline itself: a member of the path item outlined in turn.
        let outlined = text.replacen(r#""/big": {"#, r##""/big": {"$ref": "#/paths/~1p9/responses","##, 1);
        assert!(read(&outlined).is_some());
        assert!(state::take_unread_reached());
    }

    #[test]
    fn members_read_by_reference_come_back_unparsed_and_checked() {
        let root = json!({
            "paths": {"/a": {"get": {"$ref": "#/defs/A"}, "responses": {"200": 1}}},
            "defs": {"A": {"x": [1, {"$ref": "#/defs/B"}]}, "B": "b", "C~/": {"c": null}}
        });
        let text = serde_json::to_string_pretty(&root).unwrap();
        let Parsed { value, unparsed, .. } = read(&text).unwrap();
        assert!(!state::take_unread_reached());
        assert_eq!(value, json!({"paths": {"/a": {"get": {"$ref": "#/defs/A"}}}, "defs": {}}));
        let pointers: Vec<&str> = unparsed.iter().map(|(pointer, _)| pointer.as_str()).collect();
        assert_eq!(pointers, ["/defs/A", "/defs/B", "/defs/C~0~1"]);
        for (pointer, member) in &unparsed {
            assert_eq!(parse_unparsed(member).as_ref(), root.pointer(pointer), "{pointer}");
        }
        // Checked as the whole parse checks it, its `$ref`s with it.
        let duplicated = text.replacen(r#""c": null"#, r#""c": null, "c": 1"#, 1);
        assert!(read(&duplicated).is_none());
        let into_responses = text.replacen(r##""#/defs/B""##, r##""#/paths/~1a/responses""##, 1);
        assert!(read(&into_responses).is_some());
        assert!(state::take_unread_reached());
    }

    #[test]
    fn an_indented_document_is_outlined_by_its_lines_and_an_odd_one_still_parses_right() {
        let schema = |n: usize| json!({"type": "object", "description": "x".repeat(2000), "n": n, "items": [n, {"a": n}], "empty": {}, "none": []});
        let schemas: Map<String, Value> = (0..200).map(|n| (format!("S{n}"), schema(n))).collect();
        let root = json!({"openapi": "3.0.0", "components": {"schemas": schemas}, "tags": [{"name": "a"}, []], "n": 1});
        let pretty = serde_json::to_string_pretty(&root).unwrap();
        let four = pretty.lines().map(|line| {
            let indent = line.len() - line.trim_start().len();
            format!("{}{}", " ".repeat(indent * 2), line.trim_start())
        });
        let four: String = four.collect::<Vec<_>>().join("\r\n");
        let tabs = pretty.replace("  ", "\t");
        // A member closed on its own line, and one closed at the end of another line.
        let inline =
            pretty.replacen("\n      \"S1\": {", "\n      \"S1\": {\"inline\": {\n\"a\": 1}},\n      \"S1b\": {", 1);
        let inline_root = root_with(&root, |schemas| {
            schemas.insert("S1".to_owned(), json!({"inline": {"a": 1}}));
        });
        for (name, text) in [("pretty", &pretty), ("four", &four), ("tabs", &tabs)] {
            assert!(pieces_of(text).len() > 200, "{name}");
            assert!(split(text).is_some_and(|value| value == root), "{name}");
        }
        // Inconsistently written: the pieces found are checked, and the result is the whole parse's.
        let whole_inline = whole(&inline).unwrap();
        assert_eq!(whole_inline.pointer("/components/schemas/S1"), inline_root.pointer("/components/schemas/S1"));
        assert!(split(&inline).is_none_or(|value| value == whole_inline));
        let shifted = pretty.replacen("\n      }", "\n    }", 3);
        assert_eq!(whole(&shifted).as_ref(), Some(&root));
        assert!(split(&shifted).is_none_or(|value| value == root));
    }

    fn root_with(root: &Value, change: impl FnOnce(&mut Map<String, Value>)) -> Value {
        let mut root = root.clone();
        if let Some(Value::Object(schemas)) = root.pointer_mut("/components/schemas") {
            change(schemas);
        }
        root
    }

    /// Every pointer in `value`, and one below each that leads nowhere.
    fn pointers(value: &Value, pointer: String, all: &mut Vec<String>) {
        all.push(format!("{pointer}/missing"));
        let children: Vec<(String, &Value)> = match value {
            Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), v)).collect(),
            Value::Array(items) => items.iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect(),
            _ => Vec::new(),
        };
        all.push(pointer.clone());
        for (key, child) in children {
            let mut below = pointer.clone();
            crate::pointer::push(&mut below, &key);
            pointers(child, below, all);
        }
    }

    /// The pointers of `value`, and one missing below each, that `landmarks` lead elsewhere than
    /// walking `text` from its start does: (pointer, with landmarks, walked).
    fn misled(text: &str, value: &Value, landmarks: Vec<Landmark>) -> Vec<(String, Option<usize>, Option<usize>)> {
        let mut all = Vec::new();
        pointers(value, String::new(), &mut all);
        let mut seeded = JsonCache::default();
        seeded.landmarks = landmarks;
        all.into_iter()
            .filter_map(|pointer| {
                let tokens = crate::pointer::tokens(&pointer).unwrap();
                let found = locate(text, &tokens, &mut seeded);
                let walked = locate(text, &tokens, &mut JsonCache::default());
                (found != walked).then_some((pointer, found, walked))
            })
            .collect()
    }

    #[test]
    fn landmarks_lead_where_walking_from_the_start_leads() {
        let filler = "f".repeat(BIG_PIECE);
        let text = format!(
            r#"{{ "openapi" : "3.0.0", "paths": {{ "/a/b": {{"get": {{"x": 1}}}},
              "q\"uote": [1, 2], "x\\y": {{"z": [true]}}, "\u00e9t\u00e9": 0, "~t": {{}}, "ét": "s" }},
              "tags" : [ {{"name": "a"}} , "b",[[]]],
              "components": {{"schemas": {{"big": "{filler}", "S": {{"type": "object"}}, "T": [ {{"u": null}} ]}}}} }}"#
        );
        let Parsed { value, landmarks, .. } = json(&text, None).unwrap();
        assert!(landmarks.len() >= 8, "{landmarks:?}");
        // Keys written with escapes are left to the walk.
        assert!(landmarks.iter().all(|l| !l.pointer.contains("uote") && !l.pointer.contains("y")));
        // Outlined members are found from their first piece: `paths` itself, not only its paths.
        for outlined in ["/paths", "/tags", "/components", "/components/schemas"] {
            assert!(landmarks.iter().any(|l| l.pointer == outlined), "{outlined}: {landmarks:?}");
        }
        assert_eq!(misled(&text, &value, landmarks), []);
    }

    fn arbitrary_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            (-1e300f64..1e300).prop_map(Value::from),
            ".{0,8}".prop_map(Value::String),
        ];
        leaf.prop_recursive(5, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec(("[a-c]{0,2}|\\$ref", inner), 0..6)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn pieces_and_whole_agree_on_any_object(members in prop::collection::vec(("[a-d]{0,2}|\\$ref", arbitrary_json()), 0..8), pretty in any::<bool>()) {
            let root = Value::Object(members.into_iter().collect());
            let text = if pretty { serde_json::to_string_pretty(&root) } else { serde_json::to_string(&root) }.unwrap();
            state::take_references();
            let split_value = split(&text);
            let split_references = state::take_references();
            prop_assert_eq!(split_value, whole(&text));
            // Both note the same `$ref`s to other documents.
            prop_assert_eq!(split_references, state::take_references());
            // And its landmarks lead where walking does.
            let Parsed { value, landmarks, .. } = json(&text, None).unwrap();
            prop_assert_eq!(misled(&text, &value, landmarks), []);
        }

        #[test]
        fn pieces_and_whole_agree_however_the_lines_are_indented(
            members in prop::collection::vec(("[a-d]{0,2}", arbitrary_json()), 0..6),
            shifts in prop::collection::vec(0usize..4, 0..64),
        ) {
            let root = Value::Object(members.into_iter().collect());
            let text = serde_json::to_string_pretty(&root).unwrap();
            // Some lines indented more or less than a formatter would.
            let text: String = text
                .lines()
                .enumerate()
                .map(|(at, line)| match shifts.get(at) {
                    Some(0) | None => line.to_owned(),
                    Some(1) => format!(" {line}"),
                    Some(2) => line.trim_start().to_owned(),
                    Some(_) => format!("  {line}"),
                })
                .collect::<Vec<_>>()
                .join("\n");
            prop_assert_eq!(whole(&text), Some(root.clone()));
            prop_assert!(split(&text).is_none_or(|value| value == root));
        }

        #[test]
        fn pieces_and_whole_agree_on_any_text(text in r#"\{("[ab]":( ?[\[\]{}0-9",:ab]){0,12}){0,3}\}"#) {
            match whole(&text) {
                Some(value) => prop_assert!(split(&text).is_none_or(|pieces| pieces == value)),
                None => prop_assert_eq!(split(&text), None),
            }
        }
    }
}
