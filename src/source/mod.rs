//! Reading input: a file or stdin, JSON or YAML told apart by content, parsed into
//! `serde_json::Value`, and JSON pointers mapped back to line:column for diagnostics.

mod chars;
pub mod density;
mod depth;
mod lines;
mod locate;
mod located;
mod parse;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use serde::de::DeserializeSeed;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};

pub use located::Located;
pub use parse::{Interest, Reading};
pub(crate) use parse::{KEY_ONLY_TEXT, is_url};

/// Nesting limit for both formats; serde_json and yaml_serde stop at the same depth.
pub const MAX_DEPTH: usize = 128;

/// The largest input read, in bytes, unless `OIS_MAX_INPUT_BYTES` says otherwise: parsing takes
/// about ten times a document's size in memory, and a runaway file must fail alone, not abort the
/// process (and with it every other document of a batch).
pub const MAX_INPUT_BYTES: u64 = 256 * 1024 * 1024;

/// The input limit in force: `OIS_MAX_INPUT_BYTES` when set to a number, else [`MAX_INPUT_BYTES`].
pub fn max_input_bytes() -> u64 {
    std::env::var("OIS_MAX_INPUT_BYTES").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(MAX_INPUT_BYTES)
}

/// Reads at most the input limit; one byte more is an error, before anything is parsed.
fn read_limited(reader: impl Read, name: &str, expected: u64, limit: u64) -> Result<Vec<u8>, Diagnostic> {
    let mut bytes = Vec::with_capacity(usize::try_from(expected.min(limit)).unwrap_or(0).saturating_add(1));
    reader.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(|err| {
        Diagnostic::new(Code::InputUnreadable, "", format!("cannot read {name}: {err}")).in_file(name.to_owned())
    })?;
    if bytes.len() as u64 > limit {
        return Err(too_large(name, limit));
    }
    Ok(bytes)
}

/// A file that cannot be opened or looked at.
fn unreadable(name: &str, err: &std::io::Error) -> Diagnostic {
    Diagnostic::new(Code::InputUnreadable, "", format!("cannot read {name}: {err}"))
        .with_help("check the path and that the file is readable")
        .in_file(name.to_owned())
}

fn too_large(name: &str, limit: u64) -> Diagnostic {
    Diagnostic::new(
        Code::InputTooLarge,
        "",
        format!("{name} is larger than the input limit of {limit} bytes; it is not read"),
    )
    .with_help("raise the limit with the environment variable OIS_MAX_INPUT_BYTES (a number of bytes)")
    .in_file(name.to_owned())
}

/// The display name used for standard input.
pub const STDIN_NAME: &str = "<stdin>";

/// The text format of a source, told apart by its first meaningful character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Starts with `{` or `[`.
    Json,
    /// Anything else.
    Yaml,
}

/// One input document's text, kept so diagnostics can point into it.
pub struct Source {
    /// How the file is named in diagnostics (the path as given, or `<stdin>`).
    pub name: String,
    /// The file's path, `None` for stdin and in-memory text.
    pub path: Option<PathBuf>,
    /// The whole text (a byte order mark removed).
    pub text: String,
    /// JSON or YAML.
    pub format: Format,
    json_cache: Mutex<locate::JsonCache>,
    yaml_lines: OnceLock<locate::YamlLines>,
    yaml_cache: Mutex<locate::YamlCache>,
    /// Set when text that looked like JSON parsed only as YAML (flow style), so it is located as YAML.
    read_as_yaml: AtomicBool,
    /// What parsing noticed without failing (tags read as plain values).
    notes: Mutex<Vec<Diagnostic>>,
    lines: OnceLock<lines::LineIndex>,
    chars: OnceLock<chars::CharIndex>,
    /// What [`Source::names_other_documents`] says, once the text is parsed.
    references: OnceLock<bool>,
    /// What [`Source::parse_for`] left unparsed ([`Reading::Referenced`]): pointers and spans.
    unparsed: Mutex<Vec<(String, std::ops::Range<usize>)>>,
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source").field("name", &self.name).field("format", &self.format).finish_non_exhaustive()
    }
}

impl Source {
    /// Reads `path`, or standard input when it is `-`.
    pub fn read(path: &Path) -> Result<Source, Diagnostic> {
        Source::read_within(path, max_input_bytes())
    }

    /// [`Source::read`] with an input limit of `limit` bytes.
    pub fn read_within(path: &Path, limit: u64) -> Result<Source, Diagnostic> {
        if path == Path::new("-") {
            let bytes = read_limited(std::io::stdin().lock(), STDIN_NAME, 0, limit)?;
            return Source::from_bytes(STDIN_NAME, None, bytes);
        }
        let name = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|err| unreadable(&name, &err))?;
        // A regular file's size is known up front: refused without reading, read in one allocation.
        let size = file.metadata().ok().filter(std::fs::Metadata::is_file).map(|m| m.len());
        if let Some(size) = size
            && size > limit
        {
            return Err(too_large(&name, limit));
        }
        let bytes = read_limited(file, &name, size.unwrap_or(0), limit)?;
        Source::from_bytes(&name, Some(path.to_path_buf()), bytes)
    }

    /// [`Source::read`] for a file nobody named on the command line (one a `$ref` names, one
    /// found in a folder): only a regular file is read, so a FIFO or a device never blocks or
    /// floods the run.
    pub fn read_regular(path: &Path) -> Result<Source, Diagnostic> {
        let name = path.display().to_string();
        let metadata = std::fs::metadata(path).map_err(|err| unreadable(&name, &err))?;
        if !metadata.is_file() {
            return Err(Diagnostic::new(
                Code::InputNotRegular,
                "",
                format!("{name} is not a regular file (a FIFO, socket, device or folder); it is not read"),
            )
            .with_help("only regular files are read here (a FIFO could block the run forever); documents given as inputs, or - for standard input, may be streams")
            .in_file(name));
        }
        Source::read(path)
    }

    /// Wraps bytes already in memory; `name` is used in diagnostics and its extension as a format hint.
    pub fn from_bytes(name: &str, path: Option<PathBuf>, bytes: Vec<u8>) -> Result<Source, Diagnostic> {
        let mut text = String::from_utf8(bytes).map_err(|err| {
            let valid = err.utf8_error().valid_up_to();
            let prefix = err.as_bytes().get(..valid).unwrap_or_default();
            let (line, column) = line_column(&String::from_utf8_lossy(prefix), valid);
            Diagnostic::new(
                Code::InputNotUtf8,
                "",
                format!("{name} is not UTF-8 text (invalid byte at offset {valid})"),
            )
            .with_help("OpenAPI and OIS documents are JSON or YAML text; convert the file to UTF-8")
            .at(line, column)
        })?;
        if text.starts_with('\u{feff}') {
            text.drain(..'\u{feff}'.len_utf8());
        }
        Ok(Source::from_text(name, path, text))
    }

    /// Wraps text already in memory; `name` is used in diagnostics.
    pub fn from_text(name: &str, path: Option<PathBuf>, text: String) -> Source {
        let format = detect_format(&text, name);
        Source {
            name: name.to_owned(),
            path,
            text,
            format,
            json_cache: Mutex::default(),
            notes: Mutex::default(),
            yaml_lines: OnceLock::new(),
            yaml_cache: Mutex::default(),
            read_as_yaml: AtomicBool::new(false),
            lines: OnceLock::new(),
            chars: OnceLock::new(),
            references: OnceLock::new(),
            unparsed: Mutex::default(),
        }
    }

    /// Parses the text. Errors carry the parser's own line and column.
    pub fn parse(&self) -> Result<Value, Diagnostic> {
        self.parse_reading(None, true)
    }

    /// Parses the text for a reader that reads only what `interest` says: a JSON value it reads
    /// for nothing is left out of the value (unparsed, it costs a fraction of the time), but it
    /// is checked as [`Source::parse`] checks it, and anything wrong with it is the same error.
    /// In a big document, the members of a value read by reference ([`Reading::Referenced`]) are
    /// left out too, their text kept for the resolver to parse where a `$ref` first leads. When a
    /// `$ref` in what is read leads into what was left out, or names another file (or a URL that
    /// is the document's own `$self`), nothing is left out. YAML is read whole.
    pub fn parse_for(&self, interest: Interest) -> Result<Value, Diagnostic> {
        self.parse_reading(Some(interest), true)
    }

    /// [`Source::parse_for`] for a reader that follows no `$ref` (an OIS or a node config holds
    /// them as plain text): what `interest` leaves out stays out wherever a `$ref` leads.
    pub fn parse_for_unreferenced(&self, interest: Interest) -> Result<Value, Diagnostic> {
        self.parse_reading(Some(interest), false)
    }

    fn parse_reading(&self, interest: Option<Interest>, follows_references: bool) -> Result<Value, Diagnostic> {
        if self.text.trim().is_empty() {
            return Err(self.named(
                Diagnostic::new(Code::InputEmpty, "", format!("{} is empty", self.name))
                    .with_help("pass an OpenAPI document in JSON or YAML"),
            ));
        }
        self.within_values_allowed()?;
        parse::take_references();
        let parsed = match self.format {
            Format::Json => self.parse_json(interest, follows_references),
            Format::Yaml => self.parse_yaml(),
        };
        let references = parse::take_references().other_documents;
        if parsed.is_ok() {
            let _ = self.references.set(references);
        }
        parsed.map_err(|diagnostic| self.named(diagnostic))
    }

    /// Refuses a text that would become more values than its size allows ([`density`]), before
    /// one is built.
    fn within_values_allowed(&self) -> Result<(), Diagnostic> {
        within_values_allowed(&self.name, &self.text, self.format)
    }

    /// The members of values read by reference ([`Reading::Referenced`]) that the last
    /// [`Source::parse_for`] left out of its value, taken: each one's pointer and text, to parse
    /// with [`Source::parse_unparsed`] when a `$ref` first leads there.
    pub(crate) fn take_unparsed(&self) -> Vec<(String, &str)> {
        let spans = std::mem::take(&mut *self.unparsed.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
        spans.into_iter().filter_map(|(pointer, span)| Some((pointer, self.text.get(span)?))).collect()
    }

    /// A member [`Source::take_unparsed`] gave, parsed as it would have been in its place.
    pub(crate) fn parse_unparsed(text: &str) -> Option<Value> {
        parse::parse_unparsed(text)
    }

    /// Where `part`, a slice of the text, is in it.
    fn span_of(&self, part: &str) -> Option<std::ops::Range<usize>> {
        let start = part.as_ptr().addr().checked_sub(self.text.as_ptr().addr())?;
        let end = start.checked_add(part.len())?;
        (end <= self.text.len()).then_some(start..end)
    }

    /// Whether a `$ref` in the text names another document (`common.yaml#/Pet`, or a URL), as
    /// [`Source::parse`] found while reading it; `None` until it has parsed the text.
    pub fn names_other_documents(&self) -> Option<bool> {
        self.references.get().copied()
    }

    fn parse_json(&self, interest: Option<Interest>, follows_references: bool) -> Result<Value, Diagnostic> {
        let parsed = match interest {
            Some(interest) => parse::json_for(&self.text, interest, follows_references),
            None => parse::json(&self.text),
        };
        let parsed = parsed.map(|parsed| {
            if !parsed.landmarks.is_empty() {
                self.json_cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).landmarks = parsed.landmarks;
            }
            let unparsed =
                parsed.unparsed.into_iter().filter_map(|(pointer, text)| Some((pointer, self.span_of(text)?)));
            *self.unparsed.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = unparsed.collect();
            parsed.value
        });
        parsed.or_else(|err| {
            let message = err.to_string();
            let code = classify(&message);
            // Text that only looks like JSON (`{a: 1}` is YAML's flow style) gets a second chance.
            if code.is_none()
                && err.is_syntax()
                && !self.name.ends_with(".json")
                && let Ok(value) = self.parse_yaml()
            {
                self.read_as_yaml.store(true, Ordering::Relaxed);
                return Ok(value);
            }
            let code = code.unwrap_or(Code::JsonSyntax);
            let detail = message.split(" at line ").next().unwrap_or(&message);
            Err(Diagnostic::new(code, "", format!("invalid JSON: {detail}")).at(err.line(), err.column()))
        })
    }

    fn parse_yaml(&self) -> Result<Value, Diagnostic> {
        // libyaml's scanner is quadratic in flow nesting, so depth is checked before it runs.
        if let Some(offset) = depth::yaml_exceeds(&self.text, MAX_DEPTH) {
            let (line, column) = line_column(&self.text, offset);
            return Err(Diagnostic::new(
                Code::TooDeep,
                "",
                format!("invalid YAML: nesting deeper than {MAX_DEPTH} levels"),
            )
            .at(line, column));
        }
        let deserializer = yaml_serde::Deserializer::from_str(&self.text);
        parse::take_tags();
        let parsed = parse::ValueSeed.deserialize(deserializer);
        if let (count @ 1.., Some(tag)) = parse::take_tags()
            && let Ok(mut notes) = self.notes.lock()
        {
            let tag = if tag.starts_with('!') { tag } else { format!("!{tag}") };
            let mut note = Diagnostic::new(
                Code::TagIgnored,
                "",
                format!("{count} YAML tag(s) such as {tag} were read as the plain value they tag"),
            )
            .with_help("local tags (CloudFormation's !Sub, !Ref) mean nothing here; the tagged text is used as it is")
            .in_file(self.name.clone());
            if let Some(offset) = self.text.find(&tag) {
                let (line, column) = line_column(&self.text, offset);
                note = note.at(line, column);
            }
            notes.push(note);
        }
        parsed.map_err(|err| {
            let message = err.to_string();
            let code = classify(&message).unwrap_or(Code::YamlSyntax);
            let detail = message.split(" at line ").next().unwrap_or(&message);
            let mut diagnostic = Diagnostic::new(code, "", format!("invalid YAML: {detail}"));
            if code == Code::AliasLimit {
                diagnostic = diagnostic.with_help("the document's anchors and aliases expand too far (an alias bomb?)");
            }
            match err.location() {
                Some(location) => diagnostic.at(location.line(), location.column()),
                None => diagnostic,
            }
        })
    }

    /// Parses as JavaScript's `JSON.parse` does (what the node does with an API's response): a
    /// later duplicate key wins, and a number beyond a double (`1e400`) is Infinity, kept as the
    /// text `"Infinity"` (which casts exactly as the number would). Returns what it read that
    /// strict JSON refuses, for warnings.
    pub fn parse_as_javascript(&self) -> Result<(Value, usize, usize), Diagnostic> {
        // serde_json refuses a number beyond a double before any visitor sees it: each such
        // literal is replaced by the text "Infinity" (or "-Infinity") and the text parsed again,
        // a bounded number of times.
        const MAX_INFINITIES: usize = 1000;
        self.within_values_allowed()?;
        let mut text = std::borrow::Cow::Borrowed(self.text.as_str());
        let mut infinities = 0;
        loop {
            let (parsed, duplicate_keys) = parse::as_javascript(|| parse::json(&text).map(|parsed| parsed.value));
            let error = match parsed {
                Ok(value) => return Ok((value, duplicate_keys, infinities)),
                Err(error) => error,
            };
            let spot = (error.to_string().contains("number out of range") && infinities < MAX_INFINITIES)
                .then(|| number_at(&text, error.line(), error.column()))
                .flatten();
            let Some((start, end)) = spot else {
                // Not a JavaScript leniency: the strict reading says what is wrong, and where.
                return self.parse().map(|value| (value, 0, 0));
            };
            let sign = if text.get(start..end).is_some_and(|n| n.starts_with('-')) { "-" } else { "" };
            let mut replaced = String::with_capacity(text.len());
            replaced.push_str(text.get(..start).unwrap_or_default());
            replaced.push_str(&format!("\"{sign}Infinity\""));
            replaced.push_str(text.get(end..).unwrap_or_default());
            text = std::borrow::Cow::Owned(replaced);
            infinities += 1;
        }
    }

    /// What the last parse noticed without failing, taken (so each is reported once).
    pub fn take_notes(&self) -> Vec<Diagnostic> {
        self.notes.lock().map(|mut notes| std::mem::take(&mut *notes)).unwrap_or_default()
    }

    fn named(&self, diagnostic: Diagnostic) -> Diagnostic {
        diagnostic.in_file(self.name.clone())
    }

    /// Names this file in `diagnostic` and, when it points into a text and has no position yet,
    /// finds the pointer's line and column here.
    pub fn locate_diagnostic(&self, diagnostic: &mut Diagnostic) {
        let location = &mut diagnostic.location;
        // A diagnostic of another file (a secrets file that is a folder, say) has no place here.
        if !location.is_in_text() || location.file.as_ref().is_some_and(|file| *file != self.name) {
            return;
        }
        if location.file.is_none() {
            location.file = Some(self.name.clone());
        }
        if location.line.is_none()
            && let Some((line, column)) = self.locate(&location.pointer)
        {
            location.line = Some(line);
            location.column = Some(column);
        }
    }

    /// Line and column (1-based) of the value or key at `pointer`, or of its nearest ancestor found.
    pub fn locate(&self, pointer: &str) -> Option<(usize, usize)> {
        let tokens = crate::pointer::tokens(pointer)?;
        let format = if self.read_as_yaml.load(Ordering::Relaxed) { Format::Yaml } else { self.format };
        let offset = match format {
            Format::Json => {
                let mut cache = self.json_cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                locate::json(&self.text, &tokens, &mut cache)
            }
            Format::Yaml => {
                let lines = self.yaml_lines.get_or_init(|| locate::YamlLines::new(&self.text));
                let mut cache = self.yaml_cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                locate::yaml(&self.text, &tokens, lines, &mut cache)
            }
        }?;
        let (line, start) = self.lines().line_of(&self.text, offset);
        let chars = self.chars();
        let column = chars.chars_before(&self.text, offset) - chars.chars_before(&self.text, start) + 1;
        Some((line, column))
    }

    /// The byte offset in the text of the key or item at `pointer`, or of its nearest ancestor
    /// found (what [`Source::locate`] gives as line and column).
    pub(crate) fn locate_offset(&self, pointer: &str) -> Option<usize> {
        let (line, column) = self.locate(pointer)?;
        let start = self.lines().line(&self.text, line)?.start;
        Some(start + self.column_byte(line, column)?)
    }

    /// The text of 1-based line `line`, without its line break.
    pub fn line_text(&self, line: usize) -> Option<&str> {
        let range = self.lines().line(&self.text, line)?;
        self.text.get(range).map(|l| l.strip_suffix('\r').unwrap_or(l))
    }

    /// The byte offset, within the text of 1-based line `line`, of its 1-based character `column`
    /// (the line's length when it is shorter).
    pub fn column_byte(&self, line: usize, column: usize) -> Option<usize> {
        let start = self.lines().line(&self.text, line)?.start;
        let chars = self.chars();
        let target = chars.chars_before(&self.text, start) + column.saturating_sub(1);
        let end = self.line_text(line)?.len();
        Some((chars.byte_of(&self.text, target) - start).min(end))
    }

    fn chars(&self) -> &chars::CharIndex {
        self.chars.get_or_init(|| chars::CharIndex::new(&self.text))
    }

    fn lines(&self) -> &lines::LineIndex {
        self.lines.get_or_init(|| lines::LineIndex::new(&self.text))
    }

    /// The folder relative file references are resolved against.
    pub fn dir(&self) -> Option<&Path> {
        self.path.as_deref().and_then(Path::parent)
    }
}

fn classify(message: &str) -> Option<Code> {
    if message.contains(parse::DUPLICATE_KEY) {
        Some(Code::DuplicateKey)
    } else if message.contains("recursion limit exceeded") {
        Some(Code::TooDeep)
    } else if message.contains("repetition limit exceeded") {
        Some(Code::AliasLimit)
    } else if message.contains(parse::NOT_A_NUMBER) {
        Some(Code::NotANumber)
    } else {
        None
    }
}

/// The byte range of the number literal serde_json stopped in (its 1-based line and column).
fn number_at(text: &str, line: usize, column: usize) -> Option<(usize, usize)> {
    let line_start = if line <= 1 { 0 } else { text.match_indices('\n').nth(line - 2).map(|(at, _)| at + 1)? };
    let spot = (line_start + column.saturating_sub(1)).min(text.len());
    let bytes = text.as_bytes();
    let in_number = |b: u8| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E');
    let mut start = spot;
    while start > 0 && bytes.get(start - 1).copied().is_some_and(in_number) {
        start -= 1;
    }
    let mut end = spot;
    while bytes.get(end).copied().is_some_and(in_number) {
        end += 1;
    }
    (end > start).then_some((start, end))
}

/// Refuses `text` (named `name`) when it would become more values than its size allows
/// ([`density`]), before one is built.
fn within_values_allowed(name: &str, text: &str, format: Format) -> Result<(), Diagnostic> {
    let limit = max_input_bytes();
    let allowed = density::values_allowed(text.len(), limit);
    let values = density::values_in(text, format);
    // Text nested past the limit is dense too; the parse says where it is too deep.
    if values <= allowed || nests_too_deep(text, format) {
        return Ok(());
    }
    let message = format!(
        "{name} would become {values} values in memory, more than the {allowed} its {} bytes may (one per {} bytes, \
         and {} under the input limit of {limit} bytes); it is not read",
        text.len(),
        density::BYTES_PER_VALUE,
        limit / density::LIMIT_BYTES_PER_FREE_VALUE,
    );
    Err(Diagnostic::new(Code::TooManyValues, "", message)
        .with_help("raise the limit with the environment variable OIS_MAX_INPUT_BYTES (a number of bytes)")
        .in_file(name.to_owned()))
}

fn nests_too_deep(text: &str, format: Format) -> bool {
    match format {
        Format::Json => depth::json_exceeds(text, MAX_DEPTH).is_some(),
        Format::Yaml => depth::yaml_exceeds(text, MAX_DEPTH).is_some(),
    }
}

/// Whether `text` (named `name`) is JSON that [`Source::parse_as_javascript`] reads, told without
/// building its value or holding a copy of it (an error when it would become more values than its
/// size allows): its syntax and nesting checked, its numbers scanned but not read (one beyond a
/// double is Infinity there).
pub fn is_json_unbuilt(name: &str, text: &str) -> Result<bool, Diagnostic> {
    use serde::Deserialize as _;
    if Format::of_text(text) != Format::Json {
        return Ok(false);
    }
    within_values_allowed(name, text, Format::Json)?;
    if nests_too_deep(text, Format::Json) {
        return Ok(false);
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    Ok(serde::de::IgnoredAny::deserialize(&mut deserializer).and_then(|_| deserializer.end()).is_ok())
}

impl Format {
    /// The format `text` is read as.
    pub fn of_text(text: &str) -> Format {
        detect_format(text, "")
    }
}

/// JSON when the first meaningful character opens an object or array, YAML otherwise. The
/// extension decides only whether a failed JSON parse may be retried as YAML.
fn detect_format(text: &str, _name: &str) -> Format {
    match text.trim_start().as_bytes().first() {
        Some(b'{' | b'[') => Format::Json,
        _ => Format::Yaml,
    }
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(name: &str, text: &str) -> Source {
        Source::from_text(name, None, text.to_owned())
    }

    #[test]
    fn the_parse_notes_a_ref_to_another_document() {
        let names = |name: &str, text: &str| {
            let source = source(name, text);
            assert_eq!(source.names_other_documents(), None, "{text}");
            source.parse().unwrap();
            source.names_other_documents().unwrap()
        };
        assert!(names("a.json", r#"{"a": {"b": [{"$ref": "common.yaml#/Pet"}]}}"#));
        assert!(names("a.json", r#"{"a": {"\u0024ref": "common.yaml"}}"#));
        assert!(names("a.json", r#"{"$ref": "https://example.com/a.json"}"#));
        assert!(names("a.yaml", "a:\n  $ref: ./paths/pets.yaml\n"));
        assert!(!names("a.json", r##"{"a": {"$ref": "#/components/schemas/A"}, "b": {"$ref": ""}}"##));
        assert!(!names("a.json", r#"{"properties": {"$ref": {"type": "string"}}, "d": "$ref: x.yaml"}"#));
        assert!(!names("a.yaml", "a:\n  $ref: '#/a'\n"));
        // A text that does not parse says nothing, and what an earlier parse saw is not carried over.
        let broken = source("b.json", r#"{"$ref": "x.yaml", "#);
        assert!(broken.parse().is_err());
        assert_eq!(broken.names_other_documents(), None);
        assert!(!names("c.json", r#"{"a": 1}"#));
    }

    #[test]
    fn detects_format_by_content() {
        assert_eq!(source("a.yaml", "  {\"a\": 1}").format, Format::Json);
        assert_eq!(source("a.json", "a: 1").format, Format::Yaml);
    }

    #[test]
    fn yaml_integer_keys_become_strings() {
        let value = source("a.yaml", "responses:\n  200:\n    description: ok\n").parse().unwrap();
        assert_eq!(value["responses"]["200"]["description"], "ok");
    }

    #[test]
    fn flow_yaml_that_looks_like_json_is_accepted() {
        let text = source("a.yaml", "{a: 1,\n b: {c: [x, y]}}");
        let value = text.parse().unwrap();
        assert_eq!(value["a"], 1);
        // And diagnostics find their place in it as YAML.
        assert_eq!(text.locate("/b/c/1"), Some((2, 13)));
    }

    #[test]
    fn a_response_is_read_as_json_parse_reads_it() {
        let source = Source::from_text("r.json", None, r#"{"a": 1, "b": [1e400, -2E+999], "a": 2}"#.to_owned());
        let (value, duplicates, infinities) = source.parse_as_javascript().unwrap();
        assert_eq!(value, serde_json::json!({"a": 2, "b": ["Infinity", "-Infinity"]}));
        assert_eq!((duplicates, infinities), (1, 2));
        // The key keeps its first place, as in a JavaScript object.
        assert_eq!(value.as_object().unwrap().keys().collect::<Vec<_>>(), ["a", "b"]);
        // Anything else is still an error, reported as the strict reading reports it.
        let broken = Source::from_text("r.json", None, r#"{"a": 1e400,"#.to_owned());
        assert_eq!(broken.parse_as_javascript().unwrap_err().code, Code::JsonSyntax);
        // And the ordinary parse stays strict.
        let duplicated = Source::from_text("r.json", None, r#"{"a": 1, "a": 2}"#.to_owned());
        assert!(duplicated.parse_as_javascript().is_ok());
        assert_eq!(duplicated.parse().unwrap_err().code, Code::DuplicateKey);
    }

    #[test]
    fn duplicate_keys_are_errors_in_both_formats() {
        let err = source("a.json", "{\"a\": 1,\n \"a\": 2}").parse().unwrap_err();
        assert_eq!(err.code, Code::DuplicateKey);
        assert_eq!(err.location.line, Some(2));
        let err = source("a.yaml", "a: 1\na: 2\n").parse().unwrap_err();
        assert_eq!(err.code, Code::DuplicateKey);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000);
        assert_eq!(source("a.json", &deep).parse().unwrap_err().code, Code::TooDeep);
        let deep_yaml = format!("a: {}", "[".repeat(100_000));
        assert_eq!(source("a.yaml", &deep_yaml).parse().unwrap_err().code, Code::TooDeep);
    }

    #[test]
    fn big_yaml_integers_are_numbers() {
        let value = source("a.yaml", "min: -9223372036854775809\nmax: 18446744073709551616\n").parse().unwrap();
        assert!(value["min"].as_f64().unwrap() < -9.2e18);
        assert!(value["max"].as_f64().unwrap() > 1.8e19);
    }

    #[test]
    fn decimals_parse_to_the_nearest_double() {
        // serde_json's default float parser can be one unit off in the last place; re-rendering
        // would then change numbers the author wrote (`float_roundtrip` makes it exact).
        for text in ["4.805878740494918e-9", "1.0715660391465826e-75", "3943013383563367.5", "0.1"] {
            let exact: f64 = text.parse().unwrap();
            for (name, document) in [("a.json", format!("{{\"n\": {text}}}")), ("a.yaml", format!("n: {text}\n"))] {
                let value = source(name, &document).parse().unwrap();
                assert_eq!(value["n"].as_f64(), Some(exact), "{name}: {text}");
                assert_eq!(value["n"].to_string(), serde_json::Number::from_f64(exact).unwrap().to_string());
            }
        }
    }

    #[test]
    fn yaml_nan_is_rejected() {
        assert_eq!(source("a.yaml", "a: .nan").parse().unwrap_err().code, Code::NotANumber);
    }

    #[test]
    fn bom_is_skipped_and_non_utf8_reported() {
        let s = Source::from_bytes("a.json", None, b"\xef\xbb\xbf{}".to_vec()).unwrap();
        assert_eq!(s.parse().unwrap(), serde_json::json!({}));
        let err = Source::from_bytes("a.json", None, b"{\n \xff}".to_vec()).unwrap_err();
        assert_eq!((err.code, err.location.line, err.location.column), (Code::InputNotUtf8, Some(2), Some(2)));
    }

    #[test]
    fn line_column_counts_characters() {
        assert_eq!(line_column("ab\nçd", 5), (2, 2));
        assert_eq!(line_column("", 0), (1, 1));
    }
}
