//! The record of a conversion, kept in a small file next to the OIS: the options it was made with
//! and the OIS it generated, before anyone refined it. `ois convert --update` merges from it.
//!
//! The OIS format is strict (no extension keys), so the record cannot live inside the OIS. For
//! `api.ois.json` it is `api.ois.convert.json` (the last extension replaced by `.convert.json`):
//! JSON, deterministic, safe to commit (an OIS holds no secret, and neither does the record).
//! One record file can hold the records of several OIS objects (a config.json's), by title.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::convert::GivenOptions;
use crate::diagnostic::{Code, Diagnostic};
use crate::emit::{Text, write_pretty_at, write_pretty_items, write_written_at};

/// The version of the record format; a record of another version is not read.
pub const RECORD_VERSION: u64 = 1;

/// What one conversion left behind for the next update.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    /// The title of the OIS this is the record of (as written in the OIS file).
    pub title: String,
    /// The tool and version that generated it.
    pub generated_by: String,
    /// The options it was generated with.
    pub options: GivenOptions,
    /// The OIS as generated, before any refinement.
    pub generated: Value,
}

impl Record {
    /// A record made now, by this version of the tool.
    pub fn new(title: &str, options: GivenOptions, generated: Value) -> Record {
        Record { title: title.to_owned(), generated_by: generated_by(), options, generated }
    }
}

/// The tool and version a record names as its maker: this one.
fn generated_by() -> String {
    format!("ois {}", env!("CARGO_PKG_VERSION"))
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RecordFile {
    ois_convert_record: u64,
    #[serde(default)]
    about: String,
    records: Vec<Record>,
}

const ABOUT: &str = "Written by `ois convert`: what it generated last time, before any refinement, so that `ois convert --update` can tell your refinements from the API's changes. Commit it next to the OIS; it holds no secret.";

/// The record file of an OIS file: `api.ois.json` → `api.ois.convert.json`.
pub fn path_for(ois_file: &Path) -> PathBuf {
    let stem = ois_file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    ois_file.with_file_name(format!("{stem}.convert.json"))
}

/// The records in `path`: none when there is no file; a warning (and none) when it cannot be read.
pub fn read(path: &Path) -> (Vec<Record>, Option<Diagnostic>) {
    let text = match existing_text(path) {
        Ok(Some(text)) => text,
        Ok(None) => return (Vec::new(), None),
        Err(why) => return (Vec::new(), Some(unreadable(path, &why))),
    };
    match serde_json::from_str::<RecordFile>(&text) {
        Ok(file) if file.ois_convert_record == RECORD_VERSION => (file.records, None),
        Ok(file) => {
            (Vec::new(), Some(unreadable(path, &format!("it is of record version {}", file.ois_convert_record))))
        }
        Err(error) => (Vec::new(), Some(unreadable(path, &error.to_string()))),
    }
}

/// The text of the record file at `path`; `None` when there is none. Only a regular file within
/// the input size limit is read: a record that is a FIFO, a device (`/dev/zero`) or a folder
/// would otherwise hang the run or exhaust its memory.
fn existing_text(path: &Path) -> Result<Option<String>, String> {
    match std::fs::metadata(path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error.to_string()),
        Ok(_) => crate::source::Source::read_regular(path).map(|source| Some(source.text)).map_err(|d| d.message),
    }
}

fn unreadable(path: &Path, why: &str) -> Diagnostic {
    Diagnostic::elsewhere(
        Code::RecordUnreadable,
        format!("cannot read the conversion record {}: {why}", path.display()),
    )
    .with_help("delete it to start afresh: the next update is then a two-way merge")
}

/// The record for `title` among `records`; a lone record serves whatever the title (the user may
/// have renamed the OIS).
pub fn find<'r>(records: &'r [Record], title: &str) -> Option<&'r Record> {
    records.iter().find(|r| r.title == title).or(match records {
        [only] => Some(only),
        _ => None,
    })
}

/// The text of a record file: the `kept` records, with the record of `title` (generated from
/// `options`, the OIS `written` as pretty JSON) at index `at` among them; the text serde_json
/// writes for the whole file, the OIS's lines moved three levels in instead of serialized again.
fn text_with_written(
    kept: &[Record],
    at: usize,
    title: &str,
    options: &GivenOptions,
    written: &Text,
) -> Result<String, Diagnostic> {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Head<'a> {
        title: &'a str,
        generated_by: String,
        options: &'a GivenOptions,
    }
    let (before, after) = kept.split_at(at.min(kept.len()));
    let lines = written.blocks().map(|block| memchr::memchr_iter(b'\n', block).count()).sum::<usize>();
    let mut out: Vec<u8> = Vec::with_capacity(written.len() + 6 * lines + 1024);
    // The file's head, as serde_json writes `{"oisConvertRecord", "about", "records"}`.
    out.extend_from_slice(format!("{{\n  \"oisConvertRecord\": {RECORD_VERSION},\n  \"about\": ").as_bytes());
    serde_json::to_writer(&mut out, ABOUT).map_err(unwritable)?;
    out.extend_from_slice(b",\n  \"records\": [");
    write_pretty_items(&mut out, before, 1, true).map_err(unwritable)?;
    // The fresh record: its head's members, then `generated` as its last, before its `}`.
    out.extend_from_slice(if before.is_empty() { b"\n    " } else { b",\n    " });
    let head = Head { title, generated_by: generated_by(), options };
    write_pretty_at(&mut out, &head, 2).map_err(unwritable)?;
    let closing: &[u8] = b"\n    }";
    if !out.ends_with(closing) {
        return Err(unwritable("the record's head did not end with its `}`"));
    }
    out.truncate(out.len() - closing.len());
    out.extend_from_slice(b",\n      \"generated\": ");
    write_written_at(&mut out, written, 3).map_err(unwritable)?;
    out.extend_from_slice(closing);
    write_pretty_items(&mut out, after, 1, false).map_err(unwritable)?;
    out.extend_from_slice(b"\n  ]\n}\n");
    String::from_utf8(out).map_err(unwritable)
}

/// Why a record file could not be written.
fn unwritable(error: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::elsewhere(Code::OutputWrite, format!("cannot write the conversion record: {error}"))
}

/// The path and text of the record file next to the OIS file `output` once the record of `title`
/// (generated from `options` as `generated`) is in it, in place of the record of its OIS (by
/// title, or the file's only one: the OIS may have been renamed since).
pub fn file_next_to<G: Serialize>(
    output: &Path,
    title: &str,
    options: &GivenOptions,
    generated: &G,
) -> Result<(PathBuf, String), Diagnostic> {
    let mut written = Text::new();
    write_pretty_at(&mut written, generated, 0).map_err(unwritable)?;
    next_to(output, title, |kept, at| text_with_written(kept, at, title, options, &written))
}

/// [`file_next_to`] of an OIS already written as pretty JSON (`ois convert`'s text of it, which
/// is the text serde_json writes): that text is moved into the record, not serialized again (in a
/// batch of small documents the second serialization was a tenth of the time).
pub fn file_next_to_written(
    output: &Path,
    title: &str,
    options: &GivenOptions,
    written: &Text,
) -> Result<(PathBuf, String), Diagnostic> {
    next_to(output, title, |kept, at| text_with_written(kept, at, title, options, written))
}

/// The path and text of the record file next to `output` once the record of `title`, made by
/// `text` from the records kept and its place among them, is in it.
fn next_to(
    output: &Path,
    title: &str,
    text: impl FnOnce(&[Record], usize) -> Result<String, Diagnostic>,
) -> Result<(PathBuf, String), Diagnostic> {
    let path = path_for(output);
    // A record that cannot be read is replaced whole (the write refuses what is not a file).
    let existing = existing_text(&path).ok().flatten().unwrap_or_default();
    let titled = titled_records(&existing);
    let previous = match titled.as_slice() {
        [(only, _)] => Some(only.as_str()),
        _ => titled.iter().map(|(t, _)| t.as_str()).find(|t| *t == title),
    };
    // Only the records kept are read in full: the one replaced is usually all there is, and as
    // big as the OIS (Kubernetes': 5 MB, which took longer to read than the document converted).
    // The new record takes the place of the first it replaces, or comes last.
    let mut kept: Vec<Record> = Vec::new();
    let mut at = None;
    for (record_title, raw) in &titled {
        if record_title == title || Some(record_title.as_str()) == previous {
            at.get_or_insert(kept.len());
        } else if let Ok(record) = serde_json::from_str(raw.get()) {
            kept.push(record);
        }
    }
    let at = at.unwrap_or(kept.len());
    Ok((path, text(&kept, at)?))
}

/// The title of each record in a record file's `text`, beside its unread text; none when the
/// file is not a record file of this version.
fn titled_records(text: &str) -> Vec<(String, &serde_json::value::RawValue)> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Shallow<'a> {
        ois_convert_record: u64,
        #[serde(borrow)]
        records: Vec<&'a serde_json::value::RawValue>,
    }
    #[derive(Deserialize)]
    struct Titled {
        title: String,
    }
    match serde_json::from_str::<Shallow<'_>>(text) {
        Ok(file) if file.ois_convert_record == RECORD_VERSION => file
            .records
            .into_iter()
            .filter_map(|raw| Some((serde_json::from_str::<Titled>(raw.get()).ok()?.title, raw)))
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `record` next to the OIS file `output` ([`file_next_to`]).
    fn write_next_to(output: &Path, record: Record) -> Result<(), Diagnostic> {
        let (path, text) = file_next_to(output, &record.title, &record.options, &record.generated)?;
        crate::emit::write_atomically(&path, &text, true)
    }

    #[test]
    fn the_record_sits_next_to_the_ois() {
        assert_eq!(path_for(Path::new("out/api.ois.json")), PathBuf::from("out/api.ois.convert.json"));
        assert_eq!(path_for(Path::new("config.json")), PathBuf::from("config.convert.json"));
        assert_eq!(path_for(Path::new("api.yaml")), PathBuf::from("api.convert.json"));
    }

    #[test]
    fn given_options_override_recorded_ones() {
        let recorded = GivenOptions {
            server: Some("1".into()),
            include: vec!["tag:a".into()],
            ois_format: Some("2.3.2".into()),
            ..Default::default()
        };
        let given = GivenOptions { include: vec!["tag:b".into()], ..Default::default() };
        let merged = recorded.overridden_by(&given);
        assert_eq!(merged.server.as_deref(), Some("1"));
        assert_eq!(merged.include, ["tag:b"]);
        assert_eq!(merged.ois_format.as_deref(), Some("2.3.2"));
    }

    #[test]
    fn records_round_trip_and_replace_by_title() {
        let first = Record::new("A", GivenOptions::default(), serde_json::json!({"title": "A"}));
        let dir = tempfile::tempdir().unwrap();
        let ois = dir.path().join("x.json");
        let path = path_for(&ois);
        write_next_to(&ois, first.clone()).unwrap();
        let (records, problem) = read(&path);
        assert!(problem.is_none());
        assert_eq!(records, [first]);
        // The OIS was renamed: its lone record is replaced, not joined by a second.
        let renamed = Record::new("B", GivenOptions::default(), serde_json::json!({"title": "B"}));
        write_next_to(&ois, renamed.clone()).unwrap();
        assert_eq!(read(&path).0, [renamed]);
        std::fs::write(&path, "{").unwrap();
        assert_eq!(read(&path).1.map(|d| d.code), Some(Code::RecordUnreadable));
    }

    #[test]
    fn a_record_among_others_is_replaced_in_place_and_the_others_kept_whole() {
        let record = |title: &str, marker: u64| {
            Record::new(title, GivenOptions::default(), serde_json::json!({"title": title, "marker": marker}))
        };
        let dir = tempfile::tempdir().unwrap();
        let ois = dir.path().join("config.json");
        let path = path_for(&ois);
        let three = serde_json::json!({
            "oisConvertRecord": RECORD_VERSION,
            "records": [record("A", 1), record("B", 1), record("C", 1)],
        });
        std::fs::write(&path, three.to_string()).unwrap();
        write_next_to(&ois, record("B", 2)).unwrap();
        assert_eq!(read(&path).0, [record("A", 1), record("B", 2), record("C", 1)]);
        // A new title joins at the end.
        write_next_to(&ois, record("D", 1)).unwrap();
        assert_eq!(read(&path).0, [record("A", 1), record("B", 2), record("C", 1), record("D", 1)]);
        // A record file of another version, or not one at all, is started afresh.
        std::fs::write(&path, r#"{"oisConvertRecord": 99, "records": [{"title": "A"}]}"#).unwrap();
        write_next_to(&ois, record("B", 3)).unwrap();
        assert_eq!(read(&path).0, [record("B", 3)]);
    }

    /// The record file as serde_json writes it whole: what [`text_with_written`] must equal.
    fn serialized(kept: &[Record], at: usize, title: &str, options: &GivenOptions, generated: &Value) -> String {
        let fresh = Record {
            title: title.to_owned(),
            generated_by: generated_by(),
            options: options.clone(),
            generated: generated.clone(),
        };
        let mut records = kept.to_vec();
        records.insert(at, fresh);
        let file = serde_json::json!({"oisConvertRecord": RECORD_VERSION, "about": ABOUT, "records": records});
        serde_json::to_string_pretty(&file).unwrap() + "\n"
    }

    #[test]
    fn a_record_around_the_written_ois_is_the_record_serialized() {
        let record = |title: &str| {
            Record::new(title, GivenOptions::default(), serde_json::json!({"title": title, "list": [1, {"a": "x\ny"}]}))
        };
        let generated =
            serde_json::json!({"oisFormat": "2.3.2", "title": "B", "endpoints": [], "nested": {"a": [{"b": {}}]}});
        let options = GivenOptions { server: Some("1".into()), include: vec!["tag:a".into()], ..Default::default() };
        let mut written = Text::new();
        write_pretty_at(&mut written, &generated, 0).unwrap();
        written.push(b"\n");
        let kept = [record("A"), record("C"), record("D")];
        for at in 0..=kept.len() {
            let moved = text_with_written(&kept, at, "B", &options, &written).unwrap();
            assert_eq!(moved, serialized(&kept, at, "B", &options, &generated), "the fresh record at {at}");
        }
        let none = text_with_written(&[], 0, "B", &GivenOptions::default(), &written).unwrap();
        assert_eq!(none, serialized(&[], 0, "B", &GivenOptions::default(), &generated));
        // Written from the model, without its text at hand: the same file.
        let dir = tempfile::tempdir().unwrap();
        let (_, text) = file_next_to(&dir.path().join("x.json"), "B", &options, &generated).unwrap();
        assert_eq!(text, serialized(&[], 0, "B", &options, &generated));
    }
}
