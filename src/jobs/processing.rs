//! `ois processing extract|embed`: an endpoint's snippets as `.js` files to edit, and back into
//! the OIS, escaped for the node; code the node cannot run is refused before anything is written.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::emit::{OutputFormat, Plan};
use crate::ois::OisDocument;
use crate::request::snippet_files::{self, SnippetFile};
use crate::source::{Format as SourceFormat, Source};

/// One file written, and where in the OIS its code is.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Moved {
    /// The file.
    pub file: PathBuf,
    /// The pointer of its code in the file the OIS is in.
    pub pointer: String,
}

/// The pointer of the OIS to use in `root`, or why there is none (located in `source`).
fn chosen(root: &Value, title: Option<&str>, source: &Source) -> Result<String, Diagnostic> {
    let choose = || Ok(OisDocument::read(root).map_err(|(_, error)| error)?.choose(title)?.pointer);
    choose().map_err(|mut error: Diagnostic| {
        source.locate_diagnostic(&mut error);
        error
    })
}

/// Writes each snippet of `endpoint` of the OIS in `file` into `dir` (created when missing), all
/// or nothing: an existing file is refused unless `force`.
pub fn extract(
    file: &Path,
    title: Option<&str>,
    endpoint: &str,
    dir: &Path,
    force: bool,
) -> Result<Vec<Moved>, Diagnostic> {
    let source = Source::read(file)?;
    let root = source.parse()?;
    let at = chosen(&root, title, &source)?;
    let ois = root.pointer(&at).unwrap_or(&root);
    let files = snippet_files::extract(ois, endpoint).map_err(|mut error| {
        error = error.within(&at);
        source.locate_diagnostic(&mut error);
        error
    })?;
    if files.is_empty() {
        return Err(Diagnostic::elsewhere(
            Code::BadArgument,
            format!("endpoint \"{endpoint}\" has no processing snippets"),
        ));
    }
    let mut plan = Plan::new();
    let mut moved = Vec::new();
    for SnippetFile { name, code, pointer } in files {
        let path = dir.join(&name);
        // A file ends with a newline; `embed` takes exactly that one off again.
        plan.file_in_new_folder(&path, format!("{code}\n"), force);
        moved.push(Moved { file: path, pointer: format!("{at}{pointer}") });
    }
    plan.write()?;
    Ok(moved)
}

/// The `.js` files of `dir`, in name order, each without its final newline.
fn read_folder(dir: &Path) -> Result<Vec<(String, String)>, Diagnostic> {
    let unreadable = |err: std::io::Error| {
        Diagnostic::elsewhere(Code::InputUnreadable, format!("cannot read {}: {err}", dir.display()))
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let path = entry.map_err(unreadable)?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()).map(str::to_owned) else { continue };
        if !name.ends_with(".js") {
            continue;
        }
        let code = Source::read_regular(&path)?.text;
        files.push((name, code.strip_suffix('\n').map(str::to_owned).unwrap_or(code)));
    }
    files.sort();
    if files.is_empty() {
        return Err(Diagnostic::elsewhere(Code::BadArgument, format!("{} holds no .js files", dir.display())));
    }
    Ok(files)
}

/// Puts the `.js` files of `dir` into `endpoint` of the OIS in `file`, and writes the result to
/// `output` (default: `file` itself, in its format; a file already at `output`, or a link at
/// `file`, is replaced only when `force`). Code the node cannot run is refused: the first problem
/// is the error, and every one is in the list.
pub fn embed(
    file: &Path,
    title: Option<&str>,
    endpoint: &str,
    dir: &Path,
    output: Option<&Path>,
    force: bool,
) -> Result<Vec<Moved>, Vec<Diagnostic>> {
    let source = Source::read(file).map_err(|e| vec![e])?;
    let mut root = source.parse().map_err(|e| vec![e])?;
    let at = chosen(&root, title, &source).map_err(|e| vec![e])?;
    let files = read_folder(dir).map_err(|e| vec![e])?;
    let ois = root.pointer_mut(&at).ok_or_else(|| vec![Diagnostic::elsewhere(Code::OisChoice, "the OIS is gone")])?;
    let written = snippet_files::embed(ois, endpoint, &files).map_err(|e| vec![e])?;
    let validation = crate::validate::validate_value(&root, None);
    let broken: Vec<Diagnostic> = validation
        .diagnostics
        .into_iter()
        .filter(|d| {
            d.severity == Severity::Error
                && matches!(d.code, Code::SnippetUnrunnable | Code::NoSnippetResult | Code::UnescapedTemplate)
                && written.iter().any(|w| d.location.pointer == format!("{at}{w}"))
        })
        .collect();
    if !broken.is_empty() {
        return Err(broken);
    }
    let target = output.unwrap_or(file);
    let format = match (output, source.format) {
        (Some(path), _) => OutputFormat::for_path(path),
        (None, SourceFormat::Yaml) => OutputFormat::Yaml,
        (None, _) => OutputFormat::Json,
    };
    let text = crate::emit::to_text(&root, format).map_err(|e| vec![e])?;
    let mut plan = Plan::new();
    match output {
        Some(output) => plan.file(output, text, force),
        // The file embedded into is replaced: that is what was asked (a link only when forced).
        None => plan.companion(file, text, force),
    };
    plan.write().map_err(|e| vec![e])?;
    Ok(written
        .into_iter()
        .map(|pointer| Moved { file: target.to_path_buf(), pointer: format!("{at}{pointer}") })
        .collect())
}
