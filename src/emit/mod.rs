//! Emitting results: a document as JSON or YAML text, and atomic file writes that never clobber
//! by accident. The bottom of the pipeline: it knows nothing of what it writes.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Fix};

mod yaml;

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

/// Anything serializable as the same text `to_text` gives for its `Value` (the typed OIS model
/// serializes its fields in the same order, so the bytes are identical).
pub fn model_text<T: Serialize>(value: &T, format: OutputFormat) -> Result<String, Diagnostic> {
    let text = match format {
        OutputFormat::Json => serde_json::to_string_pretty(value).map(|mut s| {
            s.push('\n');
            s
        }),
        // Through a `Value`, so every string is quoted as YAML 1.1 readers need (see `yaml`).
        OutputFormat::Yaml => serde_json::to_value(value).map(|value| to_yaml(&value)),
    };
    text.map_err(|err| Diagnostic::elsewhere(Code::OutputWrite, format!("cannot serialize the output: {err}")))
}

/// Temporary files being written now, so that an interrupted run can remove them.
static IN_FLIGHT: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());
/// Set once the run is being stopped: no new temporary file is started.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// A temporary file listed in `IN_FLIGHT` for as long as it lives.
struct InFlight(PathBuf);

impl InFlight {
    fn register(path: &Path) -> InFlight {
        if let Ok(mut files) = IN_FLIGHT.lock() {
            files.insert(path.to_path_buf());
        }
        InFlight(path.to_path_buf())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Ok(mut files) = IN_FLIGHT.lock() {
            files.remove(&self.0);
        }
    }
}

/// Removes every temporary file [`write_atomically`] is writing and lets it start no other: for
/// a signal handler (SIGINT, SIGTERM) that then ends the process, so an interrupted batch leaves
/// no hidden `.ois-*.tmp` files behind. Files already renamed into place stay.
pub fn remove_temporary_files() {
    STOPPING.store(true, Ordering::SeqCst);
    if let Ok(files) = IN_FLIGHT.lock() {
        for file in files.iter() {
            let _ = std::fs::remove_file(file);
        }
    }
}

/// Writes `text` to `path` through a temporary file in the same folder and a rename, so a failed
/// or interrupted run leaves either the old file or the new one, never a partial one. Without
/// `force` an existing file is an error, checked atomically at the rename. The file is not
/// fsynced: atomic is what other readers need, and a sync per file (10–20 ms each) would cost more
/// than converting most documents; like rustfmt and prettier, durability is left to the system.
pub fn write_atomically(path: &Path, text: &str, force: bool) -> Result<(), Diagnostic> {
    let name = path.display();
    let exists_error = || {
        Diagnostic::elsewhere(Code::OutputExists, format!("{name} already exists; nothing was written"))
            .in_file(name.to_string())
            .with_fix(Fix::Replace)
    };
    if !force && path.exists() {
        return Err(exists_error());
    }
    let write_error = |err: std::io::Error| {
        // tempfile names its own temporary file in the error; the user asked for `path`.
        let text = err.to_string();
        let reason = text.split(" at path ").next().unwrap_or(&text);
        Diagnostic::elsewhere(Code::OutputWrite, format!("cannot write {name}: {reason}"))
    };
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if STOPPING.load(Ordering::SeqCst) {
        return Err(write_error(std::io::Error::from(std::io::ErrorKind::Interrupted)));
    }
    let mut temp = tempfile::Builder::new().prefix(".ois-").suffix(".tmp").tempfile_in(dir).map_err(write_error)?;
    let _in_flight = InFlight::register(temp.path());
    temp.write_all(text.as_bytes()).map_err(write_error)?;
    if force {
        temp.persist(path).map_err(|e| write_error(e.error))?;
    } else {
        temp.persist_noclobber(path).map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists { exists_error() } else { write_error(e.error) }
        })?;
    }
    Ok(())
}
