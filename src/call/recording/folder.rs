//! A folder of recordings, read once and indexed by route: what a replay, a drift check and a
//! mock answer each request from.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{RECORDING_VERSION, Recording, redacted};
use crate::diagnostic::{Code, Diagnostic};
use crate::request::Request;

/// The recordings of a folder, by file name (files that are not recordings are left out).
pub fn read_folder(folder: &Path) -> Result<Vec<(String, Recording)>, Diagnostic> {
    let entries = std::fs::read_dir(folder).map_err(|error| {
        Diagnostic::elsewhere(Code::NoRecording, format!("cannot read the recordings in {}: {error}", folder.display()))
    })?;
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let Ok(source) = crate::source::Source::read_regular(&path) else { continue };
        let Ok(recording) = serde_json::from_str::<Recording>(&source.text) else { continue };
        if recording.ois_recording == RECORDING_VERSION {
            found.push((entry.file_name().to_string_lossy().into_owned(), recording));
        }
    }
    found.sort_by(|(a, _), (b, _)| a.cmp(b));
    Ok(found)
}

/// A folder's recordings by file name, or why they could not be read.
type Read = Result<Indexed, Diagnostic>;

/// Recordings by file name, and where each operation's are: a request is compared only with the
/// recordings of its method whose path ends as its own does (a replay of N requests against N
/// recordings compared every pair).
#[derive(Debug)]
pub(super) struct Indexed {
    all: Vec<(String, Recording)>,
    /// Method and the path's last segment → the recordings', in file-name order.
    by_route: std::collections::HashMap<(String, String), Vec<usize>>,
}

impl Indexed {
    pub(super) fn of(all: Vec<(String, Recording)>) -> Indexed {
        let mut by_route: std::collections::HashMap<(String, String), Vec<usize>> = std::collections::HashMap::new();
        for (index, (_, recording)) in all.iter().enumerate() {
            if let Some(route) = route(&recording.request.method, &recording.request.url) {
                by_route.entry(route).or_default().push(index);
            }
        }
        Indexed { all, by_route }
    }

    /// The recordings that may answer `method` at `url` (`same_path` holds only between paths
    /// that end in the same segment), in file-name order.
    pub(super) fn candidates(&self, method: &str, url: &str) -> impl Iterator<Item = &(String, Recording)> {
        let listed = route(method, url).and_then(|route| self.by_route.get(&route));
        listed.into_iter().flatten().filter_map(|&index| self.all.get(index))
    }
}

/// The key a request is found under: its method, and its path's last segment.
fn route(method: &str, url: &str) -> Option<(String, String)> {
    let parsed = url::Url::parse(url).ok()?;
    let last = parsed.path().rsplit('/').next().unwrap_or_default().to_owned();
    Some((method.to_ascii_uppercase(), last))
}

/// The recordings of a folder, read once — the first time one is asked for — however many
/// requests a replay, a drift check or a mock answers from them.
#[derive(Clone, Debug)]
pub struct Recordings {
    folder: PathBuf,
    read: std::sync::Arc<std::sync::OnceLock<Read>>,
}

impl Recordings {
    /// The recordings in `folder` (read when first needed).
    pub fn at(folder: impl Into<PathBuf>) -> Recordings {
        Recordings { folder: folder.into(), read: std::sync::Arc::default() }
    }

    /// The folder they are in.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// Every recording, by file name.
    pub fn all(&self) -> Result<&[(String, Recording)], Diagnostic> {
        self.indexed().map(|indexed| indexed.all.as_slice())
    }

    fn indexed(&self) -> Result<&Indexed, Diagnostic> {
        self.read.get_or_init(|| read_folder(&self.folder).map(Indexed::of)).as_ref().map_err(Clone::clone)
    }

    /// The recording that answers `method` at `url` with `headers` and `body`: at the same path
    /// first, then at one whose server prefix differs ([`Recording::answers`]).
    pub fn answering(
        &self,
        method: &str,
        url: &str,
        headers: &[(String, String)],
        body: Option<&Value>,
    ) -> Result<Option<&(String, Recording)>, Diagnostic> {
        let indexed = self.indexed()?;
        Ok([true, false].into_iter().find_map(|exactly| {
            indexed.candidates(method, url).find(|(_, r)| r.answers(method, url, headers, body, exactly))
        }))
    }

    /// The recording of the same operation as `method` at `url`, whatever its query or body: the
    /// one to name when none answers.
    pub fn nearest(&self, method: &str, url: &str) -> Option<&(String, Recording)> {
        self.indexed().ok()?.candidates(method, url).find(|(_, r)| r.is_near(method, url))
    }

    /// The recording that answers `request`, with its file name; the error names what was asked
    /// and the nearest recording, when there is one.
    pub fn find(&self, request: &Request) -> Result<&(String, Recording), Diagnostic> {
        let headers: Vec<(String, String)> = request
            .headers
            .iter()
            .map(|(name, value)| (name.clone(), value.as_str().map_or_else(|| value.to_string(), str::to_owned)))
            .collect();
        if let Some(found) = self.answering(request.method, &request.url, &headers, request.body.as_ref())? {
            return Ok(found);
        }
        let asked = redacted(&request.url, &request.secrets);
        let missing = Diagnostic::elsewhere(
            Code::NoRecording,
            format!(
                "none of the recordings in {} answers {} {asked}; nothing was sent",
                self.folder.display(),
                request.method
            ),
        );
        Err(match self.nearest(request.method, &request.url) {
            Some((name, near)) => missing.with_help(format!(
                "the nearest, {name}, was recorded for {} {}: record this request too (a call that records reaches the API once)",
                near.request.method, near.request.url
            )),
            None => missing.with_fix(crate::diagnostic::Fix::RecordFirst),
        })
    }
}
