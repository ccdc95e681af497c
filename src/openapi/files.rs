//! Multi-file documents: every `$ref` to a local file (`common.yaml#/Pet`) is followed, each file
//! read and parsed once, and linked to the document it is referenced from; the files stay as they
//! are, each its own [`Document`], so diagnostics name the file where a problem is. Files must stay
//! inside the root document's folder (or the allowed root); the network is never used. A `$ref` that
//! cannot be followed keeps its reason, which the resolver reports where the `$ref` is.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Document, Fix};
use crate::source::Source;

/// One file a `$ref` pulled in.
#[derive(Debug)]
struct File {
    source: Source,
    value: Value,
}

/// The files the root document's `$ref`s pulled in (`Document::Referenced(n)` is the `n`th), and
/// where each `$ref` to a file leads; for a Swagger 2.0 root, where the parts of its OpenAPI 3
/// view that moved are written.
#[derive(Debug, Default)]
pub struct Files {
    files: Vec<File>,
    /// For a Swagger 2.0 root read as OpenAPI 3 (`swagger2::normalize`), where what moved is
    /// written; `None` for any other document.
    pub(crate) origins: Option<Origins>,
    /// (the document holding a `$ref`, the file part of the `$ref` as written) → the file it names,
    /// or why it cannot be followed.
    links: HashMap<(Document, String), Result<usize, Diagnostic>>,
    /// The root's schemas its parse left unparsed (`Reading::Referenced`), by pointer: each is
    /// parsed when a `$ref` first leads into it.
    unparsed: foldhash::HashMap<String, Unparsed>,
}

/// A member of the root left unparsed, and its value once a `$ref` has led there.
#[derive(Debug)]
struct Unparsed {
    text: Box<str>,
    value: OnceLock<Option<Value>>,
}

impl Files {
    /// The files the document `root` (parsed from `source`) refers to, read with the files they
    /// refer to; none are read when the text has no `$ref` to a file. `allow_root` widens the
    /// sandbox beyond the root's folder.
    pub fn read(source: &Source, root: &Value, allow_root: Option<&Path>) -> Files {
        // The parse noted every `$ref` as it read it; text from elsewhere is searched.
        let names_files = source.names_other_documents().unwrap_or_else(|| has_file_refs(&source.text));
        let mut files = if names_files { read_all(source, root, allow_root) } else { Files::default() };
        files.unparsed = source
            .take_unparsed()
            .into_iter()
            .map(|(pointer, text)| (pointer, Unparsed { text: text.into(), value: OnceLock::new() }))
            .collect();
        files
    }

    /// The value at `pointer` in a member of the root its parse left unparsed, parsed now if no
    /// `$ref` has led there before.
    pub(crate) fn in_unparsed(&self, pointer: &str) -> Option<&Value> {
        if self.unparsed.is_empty() {
            return None;
        }
        // The member is the pointer itself or what it names is in it.
        let ends = pointer.match_indices('/').map(|(at, _)| at).skip(1).chain([pointer.len()]);
        for end in ends {
            if let Some(member) = pointer.get(..end).and_then(|prefix| self.unparsed.get(prefix)) {
                let value = member.value.get_or_init(|| Source::parse_unparsed(&member.text)).as_ref()?;
                return crate::pointer::lookup(value, pointer.get(end..)?);
            }
        }
        None
    }

    /// Whether the document's non-body parameters are in their Swagger 2.0 shape, their value
    /// keys (`default`, `x-example`, …) beside their name rather than in a `schema`: a Swagger 2.0
    /// document read as OpenAPI 3 leaves them so (see `swagger2`).
    pub fn parameters_in_2_0_shape(&self) -> bool {
        self.origins.is_some()
    }

    /// The parsed value of a referenced file.
    pub(crate) fn value(&self, index: usize) -> Option<&Value> {
        self.files.get(index).map(|file| &file.value)
    }

    /// Where the file part `location` of a `$ref` in `from` leads; `None` when it was never seen.
    pub(crate) fn link(&self, from: &Document, location: &str) -> Option<&Result<usize, Diagnostic>> {
        self.links.get(&(from.clone(), location.to_owned()))
    }

    /// Finds the line and column of `diagnostic` in the text of the document it is about: a
    /// referenced file, or `root`.
    pub fn place(&self, diagnostic: &mut Diagnostic, root: &Source) {
        match diagnostic.location.document {
            Document::Referenced(index) => {
                if let Some(file) = self.files.get(index) {
                    file.source.locate_diagnostic(diagnostic);
                }
            }
            _ => root.locate_diagnostic(diagnostic),
        }
    }
}

/// Whether the text has a `$ref` to another file (cheap, so single-file documents skip bundling).
/// A `$ref` whose value is not a string (a schema property named `$ref`) does not count.
fn has_file_refs(text: &str) -> bool {
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

fn read_all(source: &Source, root: &Value, allow_root: Option<&Path>) -> Files {
    let mut reader = Reader { files: Vec::new(), index: HashMap::new(), links: HashMap::new(), sandbox: None };
    let base = source.dir().map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d });
    reader.sandbox = allow_root.or(base).and_then(|d| d.canonicalize().ok());
    let base = base.and_then(|d| d.canonicalize().ok());
    reader.link(root, base.as_deref(), &Document::Input);
    let mut next = 0;
    while let Some(file) = reader.files.get_mut(next) {
        // Taken out while its refs are followed, since following them may read more files.
        let value = std::mem::take(&mut file.value);
        let dir = file.source.path.as_deref().and_then(Path::parent).map(Path::to_path_buf);
        reader.link(&value, dir.as_deref(), &Document::Referenced(next));
        if let Some(file) = reader.files.get_mut(next) {
            file.value = value;
        }
        next += 1;
    }
    Files { files: reader.files, links: reader.links, ..Files::default() }
}

struct Reader {
    files: Vec<File>,
    index: HashMap<PathBuf, usize>,
    links: HashMap<(Document, String), Result<usize, Diagnostic>>,
    sandbox: Option<PathBuf>,
}

impl Reader {
    /// Follows the file `$ref`s in `value`, which is document `from` in folder `dir`.
    fn link(&mut self, value: &Value, dir: Option<&Path>, from: &Document) {
        let mut stack = vec![value];
        while let Some(value) = stack.pop() {
            match value {
                Value::Object(map) => {
                    if let Some(Value::String(reference)) = map.get("$ref") {
                        let location = reference.split_once('#').map_or(reference.as_str(), |(file, _)| file);
                        let key = (from.clone(), location.to_owned());
                        if !location.is_empty() && !crate::source::is_url(location) && !self.links.contains_key(&key) {
                            let target = self.load(location, dir);
                            self.links.insert(key, target);
                        }
                    }
                    stack.extend(map.values());
                }
                Value::Array(items) => stack.extend(items.iter()),
                _ => {}
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
        let source = Source::read_regular(&path)?;
        let value = source.parse().map_err(|mut error| {
            error.message = format!("in {}: {}", path.display(), error.message);
            error
        })?;
        let n = self.files.len();
        self.index.insert(canonical, n);
        self.files.push(File { source, value });
        Ok(n)
    }
}

/// Where the parts of a Swagger 2.0 document's OpenAPI 3 view that moved are in the document:
/// its security schemes, server and version, each request body (a `body` parameter, or the
/// `formData` ones), and the parameters after a body in a list (the body left, they moved up).
#[derive(Debug, Default)]
pub struct Origins(pub(super) foldhash::HashMap<String, String>);

impl Origins {
    /// `pointer` (into the view) as a pointer into the document: its longest prefix that moved,
    /// moved. `None` when it did not move.
    pub fn original(&self, pointer: &str) -> Option<String> {
        if self.0.is_empty() {
            return None;
        }
        let mut end = pointer.len();
        loop {
            let (prefix, rest) = pointer.split_at_checked(end)?;
            if let Some(original) = self.0.get(prefix) {
                return Some(format!("{original}{rest}"));
            }
            end = prefix.rfind('/').filter(|&slash| slash > 0)?;
        }
    }

    /// Points `diagnostics` about the document into it as written.
    pub fn restore(&self, diagnostics: &mut [Diagnostic]) {
        for diagnostic in diagnostics.iter_mut().filter(|d| d.location.document == Document::Input) {
            if let Some(original) = self.original(&diagnostic.location.pointer) {
                diagnostic.location.pointer = original;
            }
        }
    }

    pub(super) fn moved(&mut self, view: String, original: String) {
        if view != original {
            self.0.insert(view, original);
        }
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
