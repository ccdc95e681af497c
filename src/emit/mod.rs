//! Emitting results: a document as JSON or YAML text, and atomic file writes that never clobber
//! by accident. The bottom of the pipeline: it knows nothing of what it writes.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once, OnceLock};

use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Fix};

mod plan;
mod pretty;
mod text;
mod yaml;

pub use plan::Plan;
use plan::Replace;

pub(crate) use pretty::{write_pretty_at, write_pretty_items, write_written_at};
pub use text::{Contents, Text};
pub(crate) use yaml::inline as yaml_scalar;
pub use yaml::to_yaml;

/// The text format a document is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// Pretty JSON, two spaces.
    Json,
    /// YAML that YAML 1.1 and 1.2 readers both read back as the same data.
    Yaml,
}

impl OutputFormat {
    /// YAML for `.yaml`/`.yml` paths, JSON otherwise.
    pub fn for_path(path: &Path) -> OutputFormat {
        match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("yaml" | "yml") => OutputFormat::Yaml,
            _ => OutputFormat::Json,
        }
    }
}

/// The document as text: pretty JSON (2 spaces) or YAML, always ending in a newline.
pub fn to_text(value: &Value, format: OutputFormat) -> Result<String, Diagnostic> {
    model_text(value, format)
}

/// The document as text in the style of `original`, the text it was read from: YAML stays YAML;
/// JSON keeps its indent (spaces or tabs, as the first indented line has it), its line endings
/// and whether it ends in a newline. Key order is the document's own.
pub fn to_text_like(value: &Value, original: &str, format: OutputFormat) -> Result<String, Diagnostic> {
    if format == OutputFormat::Yaml {
        return to_text(value, format);
    }
    let indent: String = original
        .lines()
        .map(|line| line.trim_end_matches('\r'))
        .find(|line| line.starts_with([' ', '\t']) && !line.trim().is_empty())
        .map(|line| line.chars().take_while(|c| *c == ' ' || *c == '\t').collect())
        .unwrap_or_else(|| "  ".to_owned());
    // About the original's size: written into one buffer, not one grown by doubling (a 47 MB
    // OIS's copies and fresh pages were a fifth of writing it).
    let mut bytes = Vec::with_capacity(original.len() + original.len() / 8);
    let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
    let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, formatter);
    value
        .serialize(&mut serializer)
        .map_err(|err| Diagnostic::elsewhere(Code::OutputWrite, format!("cannot serialize the output: {err}")))?;
    let mut text =
        String::from_utf8(bytes).unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned());
    let newline = if original.contains("\r\n") { "\r\n" } else { "\n" };
    if newline != "\n" {
        text = text.replace('\n', newline);
    }
    if original.ends_with('\n') {
        text.push_str(newline);
    }
    Ok(text)
}

/// The change from `old` to `new` as a unified diff (three lines of context), its headers naming
/// them.
pub fn unified_diff(old_name: &str, new_name: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new).unified_diff().context_radius(3).header(old_name, new_name).to_string()
}

/// Anything serializable as the same text `to_text` gives for its `Value` (the typed OIS model
/// serializes its fields in the same order, so the bytes are identical).
pub fn model_text<T: Serialize>(value: &T, format: OutputFormat) -> Result<String, Diagnostic> {
    let failed = |err: &dyn std::fmt::Display| {
        Diagnostic::elsewhere(Code::OutputWrite, format!("cannot serialize the output: {err}"))
    };
    match format {
        OutputFormat::Json => {
            let mut bytes = Vec::new();
            serde_json::to_writer_pretty(&mut bytes, value).map_err(|err| failed(&err))?;
            bytes.push(b'\n');
            String::from_utf8(bytes).map_err(|err| failed(&err))
        }
        // Through a `Value`, so every string is quoted as YAML 1.1 readers need (see `yaml`).
        OutputFormat::Yaml => serde_json::to_value(value).map(|value| to_yaml(&value)).map_err(|err| failed(&err)),
    }
}

/// Temporary files being written now, so that an interrupted run can remove them.
static IN_FLIGHT: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());
/// Set once the run is being stopped: no new temporary file is started.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// What runs once, just before the first temporary file is made (see [`before_first_write`]).
static BEFORE_FIRST_WRITE: OnceLock<fn()> = OnceLock::new();
static FIRST_WRITE: Once = Once::new();

/// Sets what runs once, just before [`write_atomically`] makes its first temporary file: where a
/// program installs the interrupt handler that calls [`remove_temporary_files`], so that a run
/// which writes no file starts no signal-handling thread. Only the first call counts.
pub fn before_first_write(hook: fn()) {
    let _ = BEFORE_FIRST_WRITE.set(hook);
}

/// A temporary file listed in `IN_FLIGHT` for as long as it lives.
struct InFlight(PathBuf);

impl InFlight {
    /// Makes a temporary file with `create` and lists it, under the list's lock and only while
    /// the run is not stopping: an interrupt's sweep, which takes the same lock after it has said
    /// the run is stopping, either removes the file or keeps it from being made (a worker that
    /// made its file between the check and the listing once left it behind).
    fn create(
        create: impl FnOnce() -> std::io::Result<tempfile::NamedTempFile>,
    ) -> std::io::Result<(tempfile::NamedTempFile, InFlight)> {
        let stopped = || std::io::Error::from(std::io::ErrorKind::Interrupted);
        let mut files = IN_FLIGHT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if STOPPING.load(Ordering::SeqCst) {
            return Err(stopped());
        }
        let temp = create()?;
        files.insert(temp.path().to_path_buf());
        let listed = InFlight(temp.path().to_path_buf());
        Ok((temp, listed))
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        IN_FLIGHT.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&self.0);
    }
}

/// Removes every temporary file [`write_atomically`] is writing and lets it start no other: for
/// a signal handler (SIGINT, SIGTERM) that then ends the process, so an interrupted batch leaves
/// no hidden `.ois-*.tmp` files behind. Files already renamed into place stay.
pub fn remove_temporary_files() {
    STOPPING.store(true, Ordering::SeqCst);
    let files = IN_FLIGHT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    for file in files.iter() {
        let _ = std::fs::remove_file(file);
    }
}

/// Writes `text` to `path` through a temporary file in the same folder and a rename, so a failed
/// or interrupted run leaves either the old file or the new one, never a partial one. Only regular
/// files are written: a symlink is written through to its target, a device, FIFO or socket is
/// refused, and `-` or `/dev/stdout` is standard output. A new file gets the usual mode (0666
/// less the umask); a replaced one keeps its mode. Without
/// `force` an existing file is an error, checked atomically at the rename. The file is not
/// fsynced: atomic is what other readers need, and a sync per file (10–20 ms each) would cost more
/// than converting most documents; like rustfmt and prettier, durability is left to the system.
/// Several files that belong together are written with a [`Plan`].
pub fn write_atomically(path: &Path, text: &(impl Contents + ?Sized), force: bool) -> Result<(), Diagnostic> {
    if is_standard_output(path) {
        return write_stdout(text);
    }
    let checked = check_target(path, if force { Replace::Anything } else { Replace::Nothing })?;
    if checked.holds(text) {
        return Ok(());
    }
    Staged::write(path, checked, text, force, false)?.persist()
}

/// Writes to standard output. A closed pipe (`ois convert big.json | head`) ends the output
/// quietly; any other failure (`> /dev/full`, a closed stdout) is an error: the output is lost.
pub fn write_stdout(text: &(impl Contents + ?Sized)) -> Result<(), Diagnostic> {
    let mut stdout = std::io::stdout().lock();
    match text.write_to(&mut stdout).and_then(|()| stdout.flush()) {
        Err(err) if err.kind() != std::io::ErrorKind::BrokenPipe => Err(Diagnostic::elsewhere(
            Code::OutputWrite,
            format!("cannot write to standard output: {err}; the output is lost"),
        )),
        _ => Ok(()),
    }
}

fn write_error(path: &Path, err: &std::io::Error) -> Diagnostic {
    // tempfile names its own temporary file in the error; the user asked for `path`.
    let text = err.to_string();
    let reason = text.split(" at path ").next().unwrap_or(&text);
    Diagnostic::elsewhere(Code::OutputWrite, format!("cannot write {}: {reason}", path.display()))
}

fn exists_error(path: &Path) -> Diagnostic {
    let name = path.display().to_string();
    Diagnostic::elsewhere(Code::OutputExists, format!("{name} already exists; nothing was written"))
        .in_file(name)
        .with_fix(Fix::Replace)
}

/// Whether `path` can be written: without `force` nothing may be there (not even a dangling
/// link); with it, what is there must be a regular file (as root, `-o /dev/null --force` would
/// otherwise replace /dev/null with a file).
fn check_target(path: &Path, replace: Replace) -> Result<Checked, Diagnostic> {
    // A symlink is written through: its target gets the new text and the link stays a link.
    let target = resolve_links(path);
    if target != path && replace == Replace::RegularFile {
        return Err(Diagnostic::elsewhere(
            Code::OutputExists,
            format!(
                "{} is a symbolic link (to {}); it is not written through unless forced; nothing was written",
                path.display(),
                target.display()
            ),
        )
        .in_file(path.display().to_string())
        .with_fix(Fix::Replace));
    }
    let force = replace != Replace::Nothing;
    match std::fs::metadata(&target) {
        Ok(_) if !force => Err(exists_error(path)),
        Ok(existing) if !existing.is_file() => Err(Diagnostic::elsewhere(
            Code::OutputWrite,
            format!("{} is not a regular file (a device, FIFO, socket or folder); nothing was written", path.display()),
        )
        .with_help("write to a file path, or to - for standard output")),
        Ok(existing) => Ok(Checked { target, existing: Some(existing) }),
        Err(_) if !force && target != path && std::fs::symlink_metadata(path).is_ok() => Err(exists_error(path)),
        Err(_) => Ok(Checked { target, existing: None }),
    }
}

/// Where a checked output goes (the end of its links), and what is there now.
struct Checked {
    target: PathBuf,
    existing: Option<std::fs::Metadata>,
}

impl Checked {
    /// Whether the file there now holds exactly `contents` (read only when its size is theirs).
    fn holds(&self, contents: &(impl Contents + ?Sized)) -> bool {
        self.existing
            .as_ref()
            .is_some_and(|existing| existing.is_file() && existing.len() == contents.byte_len() as u64)
            && std::fs::read(&self.target).is_ok_and(|text| contents.is(&text))
    }
}

/// A file's new text written to a temporary file beside it, not yet renamed into place.
struct Staged {
    temp: tempfile::NamedTempFile,
    _in_flight: InFlight,
    path: PathBuf,
    target: PathBuf,
    force: bool,
}

impl Staged {
    fn write(
        path: &Path,
        checked: Checked,
        text: &(impl Contents + ?Sized),
        force: bool,
        private: bool,
    ) -> Result<Staged, Diagnostic> {
        let fail = |err: std::io::Error| write_error(path, &err);
        let Checked { target, existing } = checked;
        let dir = match target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if let Some(hook) = BEFORE_FIRST_WRITE.get() {
            FIRST_WRITE.call_once(hook);
        }
        let mut builder = tempfile::Builder::new();
        builder.prefix(".ois-").suffix(".tmp");
        // A new file gets the mode any new file gets (0666 less the umask), not a temporary file's
        // 0600; one of secrets is its owner's alone.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(if private { 0o600 } else { 0o666 }));
        }
        let (mut temp, in_flight) = InFlight::create(|| builder.tempfile_in(&dir)).map_err(fail)?;
        // A replaced file keeps its own mode.
        if let Some(existing) = &existing {
            temp.as_file().set_permissions(existing.permissions()).map_err(fail)?;
        }
        text.write_to(&mut temp).map_err(fail)?;
        Ok(Staged { temp, _in_flight: in_flight, path: path.to_path_buf(), target, force })
    }

    /// Renames the file into place; without `force`, atomically refusing a file that appeared.
    fn persist(self) -> Result<(), Diagnostic> {
        let Staged { temp, _in_flight, path, target, force } = self;
        if force {
            temp.persist(&target).map_err(|e| write_error(&path, &e.error))?;
        } else {
            temp.persist_noclobber(&target).map_err(|e| {
                if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                    exists_error(&path)
                } else {
                    write_error(&path, &e.error)
                }
            })?;
        }
        Ok(())
    }
}

/// Whether `c` is a format character that is invisible or reorders the text around it: the
/// bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C), zero-width characters
/// (U+200B–U+200D, U+2060–U+2064, U+FEFF, U+180E) and the soft hyphen. A name holding one can
/// look like another name (`price` and `pri\u{200b}ce`), or make a line read otherwise than it is.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00ad}' | '\u{061c}' | '\u{180e}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// `text` safe to show on a terminal: every control character but line breaks and tabs (ESC,
/// BEL, the C1 controls, DEL) written as a visible escape (`\x1b`), so that text taken from an API
/// or a document cannot clear the screen, retitle the window or write to the clipboard; and every
/// invisible or reordering format character ([`is_invisible`]) as `\u{202e}`, so what is shown is
/// what is there.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    escaped(
        text,
        |c| c != '\n' && c != '\t',
        |out, c| {
            if u32::from(c) > 0xff {
                write!(out, "\\u{{{:04x}}}", u32::from(c))
            } else {
                write!(out, "\\x{:02x}", u32::from(c))
            }
        },
    )
}

/// A JSON string no other text of a report holds (a random nonce), to stand in for a big part of
/// it while the rest is written ([`splice_json`]): as a raw value and as its text. `None` when
/// the system gives no randomness.
pub fn stand_in() -> Option<(Box<serde_json::value::RawValue>, String)> {
    let mut nonce = [0_u8; 16];
    getrandom::getrandom(&mut nonce).ok()?;
    let text = format!("\"ois-stand-in-{}\"", nonce.iter().map(|byte| format!("{byte:02x}")).collect::<String>());
    Some((serde_json::value::RawValue::from_string(text.clone()).ok()?, text))
}

/// `text`, a pretty JSON document, with the JSON string `stand_in` (quotes included) replaced by
/// what `value` writes for the depth it is at (2 spaces a level), as parts to write in turn: a big
/// part of a report written from its own text (writing the report whole would build it), and not
/// copied again to be joined. `text` alone when the stand-in is not in it.
pub fn splice_json(text: String, stand_in: &str, value: impl FnOnce(usize) -> String) -> Vec<String> {
    let Some(at) = text.find(stand_in) else { return vec![text] };
    let line_start = text.get(..at).and_then(|before| before.rfind('\n')).map_or(0, |newline| newline + 1);
    let indent = text.get(line_start..at).map_or(0, |line| line.len() - line.trim_start_matches(' ').len());
    let after = text.get(at + stand_in.len()..).unwrap_or_default().to_owned();
    let mut before = text;
    before.truncate(at);
    vec![before, value(indent / 2), after]
}

/// JSON text safe to show on a terminal: the control characters JSON leaves raw in strings (DEL,
/// the C1 controls) written as `\u` escapes, which read back as the same string.
pub fn printable_json(text: &str) -> std::borrow::Cow<'_, str> {
    escaped(text, |c| !matches!(c, '\n' | '\t' | '\r'), |out, c| write!(out, "\\u{:04x}", u32::from(c)))
}

/// `text` with each control character `unsafe_control` picks written by `escape`.
fn escaped(
    text: &str,
    unsafe_control: impl Fn(char) -> bool,
    escape: impl Fn(&mut String, char) -> std::fmt::Result,
) -> std::borrow::Cow<'_, str> {
    let is_unsafe = |c: char| (c.is_control() && unsafe_control(c)) || is_invisible(c);
    if !text.chars().any(is_unsafe) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            let _ = escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `text` with each control character a terminal acts on replaced by one of the same length in
/// bytes (`?`, or `¿` for a two-byte one), for text whose byte offsets must not move (a source
/// line with a span marked in it).
pub fn printable_in_place(text: &str) -> std::borrow::Cow<'_, str> {
    let is_unsafe = |c: char| (c.is_control() && c != '\n' && c != '\t') || is_invisible(c);
    if !text.chars().any(is_unsafe) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.chars()
            .map(|c| match c {
                c if is_unsafe(c) && c.len_utf8() == 1 => '?',
                c if is_unsafe(c) && c.len_utf8() == 3 => '\u{2026}',
                c if is_unsafe(c) => '\u{bf}',
                c => c,
            })
            .collect(),
    )
}

/// Whether writing to `path` writes to standard output: `-`, `/dev/stdout` and the process's own
/// descriptor 1. Nothing is ever written next to such a path (no record, no temporary file).
pub fn is_standard_output(path: &Path) -> bool {
    ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"].iter().any(|name| path == Path::new(name))
}

/// Where a chain of symlinks at `path` ends (the path itself when it is not a link), followed a
/// bounded number of times; a dangling link ends at the file it names.
fn resolve_links(path: &Path) -> PathBuf {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        let Ok(target) = std::fs::read_link(&current) else { break };
        current = match current.parent() {
            Some(parent) if target.is_relative() => parent.join(target),
            _ => target,
        };
    }
    current
}

#[cfg(test)]
mod printable_tests {
    use super::*;

    #[test]
    fn a_spliced_value_takes_the_depth_of_its_stand_in() {
        let report = "{\n  \"call\": {\n    \"body\": \"S\",\n    \"status\": 200\n  }\n}".to_owned();
        let mut depth = None;
        let parts = splice_json(report, "\"S\"", |at| {
            depth = Some(at);
            "[\n      1\n    ]".to_owned()
        });
        assert_eq!(depth, Some(2));
        assert_eq!(parts.concat(), "{\n  \"call\": {\n    \"body\": [\n      1\n    ],\n    \"status\": 200\n  }\n}");
        assert_eq!(splice_json("{}".to_owned(), "\"S\"", |_| String::new()), ["{}"]);
    }

    #[test]
    fn what_a_terminal_would_act_on_or_hide_is_escaped() {
        assert_eq!(printable("a\u{1b}[2Jb\u{9b}\tc\n"), "a\\x1b[2Jb\\x9b\tc\n");
        assert_eq!(printable("price\u{202e}gnp\u{200b}"), "price\\u{202e}gnp\\u{200b}");
        assert_eq!(printable_json("\"\u{202e}\u{7f}\""), "\"\\u202e\\u007f\"");
        let json: String = serde_json::from_str(&printable_json("\"x\u{2066}\u{9b}\"")).unwrap_or_default();
        assert_eq!(json, "x\u{2066}\u{9b}");
        for text in ["a\u{202e}b\u{1b}c\u{ad}", "plain", "é\u{200b}"] {
            assert_eq!(printable_in_place(text).len(), text.len(), "{text:?}");
            assert!(!printable_in_place(text).chars().any(|c| c.is_control() || is_invisible(c)), "{text:?}");
        }
        assert!(matches!(printable("plain – text"), std::borrow::Cow::Borrowed(_)));
    }
}
