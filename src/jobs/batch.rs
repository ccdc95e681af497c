//! Batch conversion: every OpenAPI/Swagger document under some folders (or a list of files),
//! converted on every core, each output written atomically next to its siblings under one output
//! folder that mirrors the inputs' layout. One bad file never stops the batch.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use super::outputs::{Outputs, Writes, write_conversion};
use crate::convert::GivenOptions;
use crate::convert::{ConvertOptions, Summary};
use crate::convert::{Positions, convert_rendered};
use crate::diagnostic::{Code, Counts, Diagnostic};
use crate::emit::OutputFormat;
use crate::source::Source;

/// One input file and where its OIS goes, relative to the output folder.
#[derive(Clone, Debug)]
pub struct Item {
    /// The OpenAPI document.
    pub input: PathBuf,
    /// Its OIS, relative to the output folder.
    pub output: PathBuf,
    /// Named on the command line (read even when it is a FIFO, like `-`), not found in a folder
    /// (read only when it is a regular file).
    pub named: bool,
    /// Why it cannot be converted, found while looking for it (an unreadable folder).
    pub problem: Option<Diagnostic>,
}

/// How one file of a batch ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "BatchStatus")]
pub enum Status {
    /// Converted and written.
    Converted,
    /// Not an OpenAPI document (a fragment of a multi-file document, say).
    Skipped,
    /// An OpenAPI document with no get or post operation: nothing to convert, not a failure.
    Empty,
    /// Could not be converted or written.
    Failed,
}

/// What happened to one file of a batch.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[non_exhaustive]
pub struct FileResult {
    /// The input's display name.
    pub file: String,
    /// Where its OIS was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// How it ended.
    pub status: Status,
    /// What the conversion kept and skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<Summary>,
    /// Diagnostics by severity.
    pub counts: Counts,
    /// Every diagnostic.
    pub diagnostics: Vec<Diagnostic>,
}

/// The name of the OIS converted from the document named `input`: its last extension replaced
/// (`api.v2.yaml` → `api.v2.ois.json`), the one rule for a batch, one document and the studio.
pub fn ois_file_name(input: &Path, format: OutputFormat) -> PathBuf {
    let name = input.file_name().map_or_else(|| PathBuf::from("api"), PathBuf::from);
    name.with_extension(ois_extension(format))
}

fn ois_extension(format: OutputFormat) -> &'static str {
    match format {
        OutputFormat::Json => "ois.json",
        OutputFormat::Yaml => "ois.yaml",
    }
}

/// The documents to convert: files as given, and every `*.json`/`*.yaml`/`*.yml` below folders,
/// in a stable order. Outputs mirror each input's path below its folder. A folder that cannot be
/// read becomes an item that fails with the reason, so the rest of the batch still converts.
pub fn discover(inputs: &[PathBuf], format: OutputFormat) -> Vec<Item> {
    let extension = ois_extension(format);
    let mut items = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut files = Vec::new();
            let mut problems = Vec::new();
            walk(input, &mut files, &mut problems);
            files.sort();
            for file in files {
                let relative = file.strip_prefix(input).unwrap_or(&file).to_path_buf();
                items.push(Item {
                    output: relative.with_extension(extension),
                    input: file,
                    named: false,
                    problem: None,
                });
            }
            // A folder that cannot be read fails alone, under its own name; the rest converts.
            problems.sort_by(|a, b| a.0.cmp(&b.0));
            for (folder, error) in problems {
                let message =
                    format!("cannot read {}: {error}; the documents in it are not converted", folder.display());
                let problem =
                    Diagnostic::elsewhere(Code::InputUnreadable, message).in_file(folder.display().to_string());
                items.push(Item { output: PathBuf::new(), input: folder, named: false, problem: Some(problem) });
            }
        } else {
            let output = if input.file_name().is_some() {
                ois_file_name(input, format)
            } else {
                PathBuf::from("stdin").with_extension(extension)
            };
            items.push(Item { output, input: input.clone(), named: true, problem: None });
        }
    }
    // Two documents with the same stem in one folder (petstore.json, petstore.yaml) keep their
    // extension in the output name, so neither overwrites the other.
    let mut counts = std::collections::HashMap::new();
    for item in &items {
        *counts.entry(item.output.clone()).or_insert(0) += 1;
    }
    for item in &mut items {
        if counts.get(&item.output).copied().unwrap_or(0) > 1
            && let Some(name) = item.input.file_name()
        {
            let mut with_extension = name.to_os_string();
            with_extension.push(".");
            with_extension.push(extension);
            item.output.set_file_name(with_extension);
        }
    }
    items
}

/// Every JSON/YAML regular file below `dir`, each once. Links are followed (a folder of links to
/// specs is common), but a folder already walked is not walked again (a link back to an
/// ancestor, or two folders linking to each other, would otherwise convert the same files over
/// and over or never end), and a file reached through several links is converted once. A folder
/// that cannot be read is recorded in `problems` and the walk goes on.
fn walk(dir: &Path, files: &mut Vec<PathBuf>, problems: &mut Vec<(PathBuf, String)>) {
    let mut folders = std::collections::HashSet::new();
    let mut seen = std::collections::HashSet::new();
    let entries = walkdir::WalkDir::new(dir).follow_links(true).into_iter().filter_entry(|entry| {
        !entry.file_type().is_dir() || entry.path().canonicalize().map_or(true, |folder| folders.insert(folder))
    });
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) if error.loop_ancestor().is_some() => continue,
            Err(error) => {
                let place = error.path().unwrap_or(dir).to_path_buf();
                let reason = error.io_error().map_or_else(|| error.to_string(), ToString::to_string);
                problems.push((place, reason));
                continue;
            }
        };
        let path = entry.path();
        // FIFOs, sockets and devices are not files: reading one could block the batch forever.
        if entry.file_type().is_file()
            && path.extension().and_then(|e| e.to_str()).is_some_and(|e| matches!(e, "json" | "yaml" | "yml"))
            && file_identity(&entry).is_none_or(|file| seen.insert(file))
        {
            files.push(path.to_path_buf());
        }
    }
}

/// What tells one file from another however it is reached: its device and inode (one `stat`,
/// where a canonical path took a `readlink` and a `stat` per component of the path, one file after
/// another before any was converted), or elsewhere its canonical path.
#[cfg(unix)]
type FileIdentity = (u64, u64);
#[cfg(not(unix))]
type FileIdentity = PathBuf;

#[cfg(unix)]
fn file_identity(entry: &walkdir::DirEntry) -> Option<FileIdentity> {
    use std::os::unix::fs::MetadataExt;
    entry.metadata().ok().map(|metadata| (metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn file_identity(entry: &walkdir::DirEntry) -> Option<FileIdentity> {
    entry.path().canonicalize().ok()
}

/// How a batch writes: the output format, how each document's files are written (the same
/// rules as one document's), and which diagnostics need positions.
#[derive(Clone, Copy, Debug)]
pub struct Settings<'a> {
    /// The output format of every OIS.
    pub format: OutputFormat,
    /// Replace, strict, records: as for one document.
    pub writes: Writes,
    /// Which diagnostics get a line and column.
    pub positions: Positions,
    /// The options as given, kept in each record.
    pub given: &'a GivenOptions,
}

/// Converts every item into `out_dir`, in parallel; `done` is called after each file.
pub fn run(
    items: &[Item],
    out_dir: &Path,
    options: &ConvertOptions,
    settings: Settings<'_>,
    done: &(dyn Fn() + Sync),
) -> Vec<FileResult> {
    items
        .par_iter()
        .map(|item| {
            let result = convert_one(item, out_dir, options, settings);
            done();
            result
        })
        .collect()
}

fn convert_one(item: &Item, out_dir: &Path, options: &ConvertOptions, settings: Settings<'_>) -> FileResult {
    let file = item.input.display().to_string();
    let finish = |status, output: Option<String>, summary, diagnostics: Vec<Diagnostic>| FileResult {
        file: file.clone(),
        output,
        status,
        summary,
        counts: Counts::of(&diagnostics),
        diagnostics,
    };
    if let Some(problem) = &item.problem {
        return finish(Status::Failed, None, None, vec![problem.clone()]);
    }
    let read = if item.named { Source::read(&item.input) } else { Source::read_regular(&item.input) };
    let source = match read {
        Ok(source) => source,
        Err(error) => return finish(Status::Failed, None, None, vec![error]),
    };
    // A file that does not even mention `openapi` or `swagger` (a fragment of a multi-file
    // document, most often) cannot be one: skipped without being parsed, since its document
    // parses it again.
    let text = source.text.as_bytes();
    let mentions = |word: &[u8]| memchr::memmem::find(text, word).is_some();
    if !mentions(b"openapi") && !mentions(b"swagger") {
        return finish(Status::Skipped, None, None, vec![not_openapi(&file)]);
    }
    let mut root = match crate::convert::parse(&source) {
        Ok(root) => root,
        Err(error) => return finish(Status::Failed, None, None, vec![error]),
    };
    let is_openapi = root.as_object().is_some_and(|o| o.contains_key("openapi") || o.contains_key("swagger"));
    if !is_openapi {
        return finish(Status::Skipped, None, None, vec![not_openapi(&file)]);
    }
    match convert_rendered(&source, &mut root, options, settings.format, settings.positions) {
        Ok(mut conversion) => {
            let target = out_dir.join(&item.output);
            let outputs = Outputs { ois: Some(&target), secrets: None, config: false, create_folder: true };
            let (written, diagnostics, summary) =
                write_conversion(&mut conversion, &outputs, settings.writes, settings.given, settings.format);
            if written {
                finish(Status::Converted, Some(target.display().to_string()), summary, diagnostics)
            } else {
                finish(Status::Failed, None, summary, diagnostics)
            }
        }
        Err(failure) => {
            let nothing_to_convert =
                failure.diagnostics.iter().filter(|d| d.is_error()).all(|d| d.code == Code::NoOperations);
            let status = if nothing_to_convert { Status::Empty } else { Status::Failed };
            finish(status, None, None, failure.diagnostics)
        }
    }
}

fn not_openapi(file: &str) -> Diagnostic {
    Diagnostic::new(
        Code::NotOpenApiFile,
        "",
        format!("{file} is not an OpenAPI document (no `openapi` or `swagger` field); skipped"),
    )
    .in_file(file.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn an_ois_is_named_after_its_document_but_its_last_extension() {
        let name = |input: &str, format| ois_file_name(Path::new(input), format).display().to_string();
        assert_eq!(name("specs/api.v2.yaml", OutputFormat::Json), "api.v2.ois.json");
        assert_eq!(name("coins.json", OutputFormat::Yaml), "coins.ois.yaml");
        assert_eq!(name("api", OutputFormat::Json), "api.ois.json");
        let items = discover(&[PathBuf::from("api.v2.yaml")], OutputFormat::Json);
        assert_eq!(items.first().map(|item| item.output.display().to_string()), Some("api.v2.ois.json".to_owned()));
    }

    #[test]
    fn a_symlink_loop_is_walked_once() {
        let dir = tempfile::tempdir().unwrap();
        let specs = dir.path().join("specs");
        std::fs::create_dir(&specs).unwrap();
        std::fs::write(specs.join("a.json"), "{}").unwrap();
        // specs/loop -> specs: without loop detection a.json is found again under every loop/loop/…
        std::os::unix::fs::symlink(&specs, specs.join("loop")).unwrap();
        let items = discover(std::slice::from_ref(&specs), OutputFormat::Json);
        let inputs: Vec<&Path> = items.iter().map(|i| i.input.as_path()).collect();
        assert_eq!(inputs, [specs.join("a.json").as_path()]);
    }
}
