//! Multi-file documents: every `$ref` to a local file (`common.yaml#/Pet`) is followed, each file
//! read and parsed once, and the files are bundled into the root under `x-ois-files` with their
//! `$ref`s rewritten to local pointers, so the single-document resolver serves them all. Files must
//! stay inside the root document's folder (or the allowed root); the network is never used. A `$ref`
//! that cannot be followed is rewritten to `#/x-ois-broken/N`, which names nothing in the document:
//! the resolver finds why in [`Files::broken`].
//!
//! The bundled view keeps one `Value` and one pointer space, so every stage resolves and reports
//! as in a single file; [`Files::place`] maps a pointer back to its [`Document`] when reporting.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Document, Fix};
use crate::source::Source;

/// Where bundled files live in the root.
pub(crate) const FILES_KEY: &str = "x-ois-files";
/// The prefix of the local pointer a broken `$ref` is rewritten to.
const BROKEN_KEY: &str = "x-ois-broken";
/// The original text of a rewritten `$ref`, for messages.
pub(crate) const ORIGINAL_KEY: &str = "x-ois-ref";

/// The files a bundle pulled in, in the order of their `x-ois-files` index, and why the `$ref`s
/// that could not be followed were not.
#[derive(Debug, Default)]
pub struct Files {
    sources: Vec<Source>,
    broken: Vec<Diagnostic>,
}

impl Files {
    /// For a pointer into a bundled file: the file's index and the pointer within it.
    fn split<'p>(&self, pointer: &'p str) -> Option<(usize, &'p str)> {
        let rest = pointer.strip_prefix("/")?.strip_prefix(FILES_KEY)?.strip_prefix('/')?;
        let (index, inner) = rest.split_once('/').map_or((rest, ""), |(i, inner)| (i, inner));
        let index = index.parse::<usize>().ok().filter(|&n| n < self.sources.len())?;
        let inner = pointer.get(pointer.len() - inner.len() - usize::from(!inner.is_empty())..)?;
        Some((index, inner))
    }

    /// The diagnostic recorded for a broken `$ref` rewritten to `target`, if it is one.
    pub(crate) fn broken(&self, target: &str) -> Option<Diagnostic> {
        let index: usize = target.strip_prefix("/")?.strip_prefix(BROKEN_KEY)?.strip_prefix('/')?.parse().ok()?;
        self.broken.get(index).cloned()
    }

    /// Moves `diagnostic` to the document its pointer is in and finds its line and column there:
    /// a bundled file, or `root`.
    pub fn place(&self, diagnostic: &mut Diagnostic, root: &Source) {
        // Placed already, or about no text (the output, an option).
        if diagnostic.location.document != Document::Input || diagnostic.location.file.is_some() {
            return;
        }
        match self.split(&diagnostic.location.pointer) {
            Some((index, inner)) => {
                diagnostic.location.pointer = inner.to_owned();
                diagnostic.location.document = Document::Referenced(index);
                if let Some(source) = self.sources.get(index) {
                    source.locate_diagnostic(diagnostic);
                }
            }
            None => root.locate_diagnostic(diagnostic),
        }
    }
}

/// Whether the text has a `$ref` to another file (cheap, so single-file documents skip bundling).
/// A `$ref` whose value is not a string (a schema property named `$ref`) does not count.
pub fn has_file_refs(text: &str) -> bool {
    memchr::memmem::find_iter(text.as_bytes(), b"$ref").any(|at| {
        let rest = text.get(at + 4..).unwrap_or_default();
        let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest).trim_start_matches([' ', '\t']);
        let Some(value) = rest.strip_prefix(':') else { return false };
        let mut value = value.trim_start_matches([' ', '\t']);
        // A YAML block scalar (`$ref: >-`) has its text on the next line.
        if value.starts_with(['>', '|']) {
            value = value.split_once('\n').map_or("", |(_, next)| next).trim_start_matches([' ', '\t']);
        }
        if value.starts_with(['{', '[', '\n', '\r']) || value.is_empty() {
            return false;
        }
        let value = value.strip_prefix(['"', '\'']).unwrap_or(value);
        !(value.starts_with('#') || value.starts_with("http://") || value.starts_with("https://"))
    })
}

/// Bundles the files `root` refers to. `allow_root` widens the sandbox beyond the root's folder.
pub fn bundle(source: &Source, root: &mut Value, allow_root: Option<&Path>) -> Files {
    let mut bundler =
        Bundler { files: Vec::new(), index: HashMap::new(), values: Vec::new(), broken: Vec::new(), sandbox: None };
    let base = source.dir().map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d });
    bundler.sandbox = allow_root.or(base).and_then(|d| d.canonicalize().ok());
    let base = base.and_then(|d| d.canonicalize().ok());
    bundler.rewrite(root, base.as_deref(), None);
    let mut next = 0;
    while let Some(mut value) = bundler.values.get_mut(next).map(std::mem::take) {
        let dir = bundler.files.get(next).and_then(|s| s.path.as_deref()).and_then(Path::parent).map(Path::to_path_buf);
        bundler.rewrite(&mut value, dir.as_deref(), Some(next));
        if let Some(slot) = bundler.values.get_mut(next) {
            *slot = value;
        }
        next += 1;
    }
    if let Some(object) = root.as_object_mut()
        && !bundler.values.is_empty()
    {
        object.insert(FILES_KEY.to_owned(), Value::Array(bundler.values));
    }
    Files { sources: bundler.files, broken: bundler.broken }
}

struct Bundler {
    files: Vec<Source>,
    index: HashMap<PathBuf, usize>,
    values: Vec<Value>,
    broken: Vec<Diagnostic>,
    sandbox: Option<PathBuf>,
}

impl Bundler {
    /// Rewrites the file refs in `value`, which lives in file `current` (None: the root) in `dir`.
    fn rewrite(&mut self, value: &mut Value, dir: Option<&Path>, current: Option<usize>) {
        let mut stack = vec![value];
        while let Some(value) = stack.pop() {
            match value {
                Value::Object(map) => {
                    if let Some(Value::String(reference)) = map.get("$ref").cloned()
                        && let Some(rewritten) = self.target(&reference, dir, current)
                    {
                        map.insert(ORIGINAL_KEY.to_owned(), Value::String(reference));
                        map.insert("$ref".to_owned(), Value::String(rewritten));
                    }
                    stack.extend(map.values_mut());
                }
                Value::Array(items) => stack.extend(items.iter_mut()),
                _ => {}
            }
        }
    }

    /// The local pointer a ref becomes, or `None` to leave it alone (URLs, and local refs of the root).
    fn target(&mut self, reference: &str, dir: Option<&Path>, current: Option<usize>) -> Option<String> {
        let (location, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let lower = location.to_ascii_lowercase();
        if lower.contains("://") || lower.starts_with("//") {
            return None;
        }
        if location.is_empty() {
            // A local ref inside a bundled file points into that file.
            return current.map(|n| format!("#/{FILES_KEY}/{n}{fragment}"));
        }
        match self.load(location, dir) {
            Ok(n) => Some(format!("#/{FILES_KEY}/{n}{fragment}")),
            Err(diagnostic) => {
                self.broken.push(diagnostic);
                Some(format!("#/{BROKEN_KEY}/{}", self.broken.len() - 1))
            }
        }
    }

    fn load(&mut self, location: &str, dir: Option<&Path>) -> Result<usize, Diagnostic> {
        let decoded = percent_encoding::percent_decode_str(location).decode_utf8_lossy();
        let Some(dir) = dir else {
            return Err(Diagnostic::new(
                Code::RefExternal,
                "",
                format!("`$ref: {location}` points into another file, but the document has no folder (stdin)"),
            )
            .with_help("pass the document as a file path so its references can be found"));
        };
        let path = dir.join(decoded.as_ref());
        let canonical = path.canonicalize().map_err(|err| {
            Diagnostic::new(
                Code::RefMissing,
                "",
                format!("`$ref: {location}` points at {}, which cannot be read ({err})", path.display()),
            )
        })?;
        if let Some(sandbox) = &self.sandbox
            && !canonical.starts_with(sandbox)
        {
            return Err(Diagnostic::new(
                Code::RefEscapes,
                "",
                format!("`$ref: {location}` leaves the document's folder ({}); it is not followed", sandbox.display()),
            )
            .with_fix(Fix::AllowRoot));
        }
        if let Some(&n) = self.index.get(&canonical) {
            return Ok(n);
        }
        let source = Source::read(&path)?;
        let value = source.parse().map_err(|mut error| {
            error.message = format!("in {}: {}", path.display(), error.message);
            error
        })?;
        let n = self.files.len();
        self.index.insert(canonical, n);
        self.files.push(source);
        self.values.push(value);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::has_file_refs;

    #[test]
    fn spots_file_refs_only() {
        assert!(has_file_refs(r#"{"$ref": "common.yaml#/P"}"#));
        assert!(has_file_refs("a:\n  $ref: ./paths/pets.yaml\n"));
        assert!(has_file_refs("a:\n  $ref: '../x.json'\n"));
        assert!(!has_file_refs(r##"{"$ref": "#/components/schemas/A"}"##));
        assert!(!has_file_refs(r#"{"$ref": "https://example.com/a.json"}"#));
        assert!(!has_file_refs(r#"{"properties": {"$ref": { "type": "string" }}}"#));
        assert!(!has_file_refs("description: mentions $ref in text\n"));
        assert!(!has_file_refs("a:\n  $ref: >-\n    #/components/schemas/A\n"));
        assert!(has_file_refs("a:\n  $ref: >-\n    other.yaml#/A\n"));
    }
}
