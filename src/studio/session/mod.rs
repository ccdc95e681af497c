//! What the studio holds between requests — the document opened, the OIS being refined (its
//! text, in its file's style), the secrets typed in (memory only), the last answer of the API —
//! and each step the page asks for. Every step is a library job or an [`crate::edit`] operation
//! run on the draft in hand: the studio has no rule of its own.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::folder::Folder;
use super::generated::{Generated, KeptText};
use super::held::HeldReport;
use super::page::{self, DraftView, OpenApiView, PageView};
use super::view::{self, Placed};
use crate::convert::{GivenOptions, Positions};
use crate::diagnostic::{Code, Diagnostic};
use crate::emit::{OutputFormat, Plan};
use crate::jobs::Held;
use crate::jobs::endpoint::{Edited, EndpointEdit};
use crate::jobs::request::{CallInputs, RequestJob};
use crate::jobs::scaffold::{FeedRequest, ScaffoldKind, ScaffoldOutputs};
use crate::request::Secrets;
use crate::source::Source;
use crate::update::record;
use history::History;

/// The studio's state.
#[derive(Debug)]
pub struct Session {
    folder: Folder,
    /// The OpenAPI document opened, when it was one.
    openapi: Option<Opened>,
    /// The OIS being refined.
    draft: Option<Draft>,
    /// What the draft was generated as, before any refinement: the record `ois convert` keeps,
    /// written next to the OIS when it is saved, read by the three-way update.
    record: Option<Generated>,
    /// Secrets typed into the page: held here only, never written, never sent back.
    secrets: BTreeMap<String, String>,
    /// The API's last answer, to preview the value from without calling again.
    response: Option<Value>,
    /// The page's last calls, newest first: seen again and made again.
    calls: std::collections::VecDeque<answers::PastCall>,
    /// The last node config built, with its secrets template and IDs.
    built: Option<Built>,
    /// An update worked out and shown, not yet taken.
    pending: Option<crate::update::Update>,
    /// How many conversions were made: the page draws the operations again only when it changes.
    conversions: u64,
    /// The draft's texts before its last changes: what undo goes back to.
    history: History,
    /// The check of the newest of them, when it was made: undo shows it again, not checks again.
    undo_checked: Option<Checked>,
    /// Every rule the draft breaks, as its last check found: an edit checks the document once,
    /// and the view reuses that check (and the next edit, the errors it already had).
    checked: std::cell::RefCell<Option<Checked>>,
    /// What the page holds of the draft's view (to send it only what an edit changed), and the
    /// last view's revision.
    sent: std::cell::RefCell<page::Sent>,
    revisions: std::cell::Cell<u64>,
}

/// Which text a check was of, and every rule that text breaks (not located).
#[derive(Debug)]
struct Checked {
    text: TextKey,
    found: Vec<Diagnostic>,
}

/// A text told from others by its length and hash, not kept (a big OIS is megabytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TextKey(usize, u64);

impl TextKey {
    fn of(text: &str) -> TextKey {
        use std::hash::BuildHasher;
        TextKey(text.len(), foldhash::quality::FixedState::with_seed(0).hash_one(text))
    }

    /// The key as the page holds it.
    fn version(&self) -> String {
        format!("{}-{:016x}", self.0, self.1)
    }
}

/// What a step has of the draft's document for its view.
enum DraftTree {
    /// Nothing: the text is parsed.
    Unparsed,
    /// The document, as its text reads.
    Parsed(Value),
    /// What the view reads of it, read beside the step's check of the draft's text.
    Read(DraftReading),
}

/// What the draft's view reads of its document: which kind it is, its OIS titles, and the chosen
/// OIS's endpoints, secrets, feeds and code.
#[derive(Debug, Default)]
struct DraftReading {
    kind: Option<crate::ois::DocumentKind>,
    titles: Vec<String>,
    /// Where the chosen OIS is in the document.
    pointer: Option<String>,
    endpoints: Vec<crate::edit::EndpointSummary>,
    secrets_needed: Vec<String>,
    feeds: page::FeedsView,
    snippets: BTreeMap<String, page::Snippets>,
}

impl DraftReading {
    /// `root` read, with the OIS titled `title` (the first, when `None`) chosen.
    fn of(root: &Value, title: Option<&str>) -> DraftReading {
        let Ok(read) = crate::ois::OisDocument::read(root) else { return DraftReading::default() };
        let mut reading = DraftReading {
            kind: Some(read.kind),
            titles: read.titles().into_iter().map(str::to_owned).collect(),
            ..DraftReading::default()
        };
        if let Ok(chosen) = read.choose(title) {
            reading.endpoints = crate::edit::list(chosen.ois);
            reading.secrets_needed = view::secret_names(chosen.ois);
            reading.feeds = page::feeds(chosen.ois);
            reading.snippets = page::snippets(chosen.ois);
            reading.pointer = Some(chosen.pointer);
        }
        reading
    }
}

#[derive(Debug)]
struct Opened {
    name: String,
    /// Its file: converting again reads it again.
    path: Option<PathBuf>,
    /// Its text, when it has no file.
    pasted: Option<String>,
    /// Which text was converted: the report's lines are read from it again when the page asks
    /// for them (a one-line document's 47,000 diagnostics once held 22 MB of copies of it).
    converted: TextKey,
    options: GivenOptions,
    /// The conversion's report, located in the text converted.
    diagnostics: HeldReport,
    operations: Vec<view::Operation>,
}

impl Opened {
    /// The document as it is now: its file read again, or the text pasted.
    fn source(&self) -> Result<Source, Diagnostic> {
        match (&self.path, &self.pasted) {
            (Some(path), _) => {
                let mut source = Source::read(path)?;
                source.name = self.name.clone();
                Ok(source)
            }
            (None, pasted) => Ok(Source::from_text(&self.name, None, pasted.clone().unwrap_or_default())),
        }
    }
}

#[derive(Debug)]
struct Draft {
    /// The name diagnostics give it (its extension tells JSON from YAML).
    name: String,
    /// Its file, relative to the folder, once it has one.
    file: Option<String>,
    /// Where it would be saved first.
    suggested: String,
    /// Its text: shared with what holds the same (undo, the conversion's record, the file's text
    /// as read), not copied.
    text: Arc<str>,
    /// The file's text when it was read or last saved.
    on_disk: Option<Arc<str>>,
    /// The OIS of a file holding several.
    title: Option<String>,
}

impl Draft {
    fn held(&self) -> Held {
        Held { name: self.name.clone(), text: std::sync::Arc::clone(&self.text) }
    }
}

#[derive(Debug)]
struct Built {
    scaffold: crate::scaffold::node::NodeScaffold,
    ids: String,
}

mod answer;
mod answers;
mod call;
mod edit;
mod files;
mod history;
mod open;
mod requests;

use answer::refuse;
pub use answer::{Answer, Refusal, Reply};
pub(crate) use call::run_status;
pub use requests::*;

/// What the studio reads of a document it opens: what a conversion reads, and the summary of each
/// operation (the operations table shows it, for the skipped ones too).
fn reading(path: &[&str]) -> crate::source::Reading {
    match path {
        ["paths", _, _, "summary"] => crate::source::Reading::Whole,
        _ => crate::convert::reading(path),
    }
}

/// Drops `value` on a thread of its own: a big document's trees take milliseconds to free (tens
/// of them for a 20 MB one), which the answer need not wait for.
fn drop_aside<T: Send + 'static>(value: T) {
    let _ = std::thread::Builder::new().name("ois studio drop".to_owned()).spawn(move || {
        drop(value);
        crate::studio::memory::freed();
    });
}

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

impl Session {
    /// A session on `folder`, nothing open.
    pub fn new(folder: Folder) -> Session {
        Session {
            folder,
            openapi: None,
            draft: None,
            record: None,
            secrets: BTreeMap::new(),
            response: None,
            calls: std::collections::VecDeque::new(),
            built: None,
            pending: None,
            conversions: 0,
            history: History::default(),
            checked: std::cell::RefCell::new(None),
            undo_checked: None,
            sent: std::cell::RefCell::default(),
            revisions: std::cell::Cell::new(0),
        }
    }

    /// Everything the page shows: the document, the conversion's report and operations, the
    /// draft's endpoints and every rule it breaks, which secrets are held (names only).
    pub fn view(&self) -> Value {
        self.view_of(true)
    }

    /// Which draft and which conversion the session holds, cheaply: a page compares them with
    /// what it drew to see whether another tab changed them.
    pub fn versions(&self) -> page::Versions {
        page::Versions {
            draft: self.draft.as_ref().map(|draft| TextKey::of(&draft.text).version()),
            conversion: self.openapi.as_ref().map(|_| self.conversions),
        }
    }

    /// [`Session::view`], the conversion's report and operations and the folder's files left out
    /// unless `conversion` (an edit leaves them as they were; the page keeps what it drew).
    fn view_of(&self, conversion: bool) -> Value {
        serde_json::to_value(self.page(conversion)).unwrap_or(Value::Null)
    }

    /// [`Session::view_of`], typed.
    fn page(&self, conversion: bool) -> PageView {
        self.page_since(conversion, None, DraftTree::Unparsed)
    }

    /// [`Session::page`] for a page that holds the draft view `seen`: only what changed of it;
    /// `tree`: what the step has of the draft's document (not to parse its text again).
    fn page_since(&self, conversion: bool, seen: Option<u64>, tree: DraftTree) -> PageView {
        // Every step that changes the draft shows it after: the record's text, no longer the
        // draft's, is deflated then.
        if let (Some(Generated::Converted { text, .. }), Some(draft)) = (&self.record, &self.draft) {
            text.settle(&draft.text);
        }
        let openapi = self.openapi.as_ref().map(|opened| OpenApiView {
            name: opened.name.clone(),
            revision: self.conversions,
            options: conversion.then(|| opened.options.clone()),
            report: conversion.then(|| page::summary(opened.diagnostics.each())),
            operations: conversion.then(|| opened.operations.clone()),
        });
        PageView {
            folder: self.folder.root().display().to_string(),
            targets: crate::node::Target::all().map(|t| t.name()).collect(),
            reserved_names: &crate::RESERVED_NAMES,
            parameter_types: {
                let mut types: Vec<&'static str> =
                    crate::node::ids::PARAMETER_TYPES.iter().map(|(name, _)| *name).collect();
                types.sort_by_key(|name| *name != "string32");
                types
            },
            mnemonic_secret: crate::node::MNEMONIC_SECRET,
            openapi,
            draft: self.draft.as_ref().map(|draft| {
                let view = self.draft_view(draft, tree);
                page::since(view, seen, &mut self.sent.borrow_mut())
            }),
            secrets: self.secrets.keys().cloned().collect(),
            has_response: self.response.is_some(),
            pending: self.pending.is_some(),
            undo: self.history.len(),
            redo: self.history.redo_len(),
            // The folder is walked for the file pickers when the page is drawn whole, not per edit.
            files: conversion.then(|| self.folder.documents()),
            notes: None,
        }
    }

    fn draft_view(&self, draft: &Draft, tree: DraftTree) -> DraftView {
        let source = draft.held().source();
        let key = TextKey::of(&draft.text);
        let is_checked = || self.found_for(key).is_some();
        // A reading made beside the check of this very text needs no tree; anything else is read
        // from the step's tree, or the text parsed.
        let (parsed, reading) = match tree {
            DraftTree::Read(reading) if is_checked() => (None, Some(reading)),
            DraftTree::Parsed(root) => (Some(Ok(root)), None),
            DraftTree::Read(_) | DraftTree::Unparsed => (Some(source.parse()), None),
        };
        let found = match &parsed {
            Some(Err(error)) => crate::validate::Validation::unreadable(error.clone()).diagnostics,
            Some(Ok(root)) => {
                // The last check was of this very text (an edit's, or undo's): its findings are
                // shown, not found again; otherwise the check made here is kept for the next.
                if !is_checked() {
                    let found = crate::validate::validate_value(root, None).diagnostics;
                    *self.checked.borrow_mut() = Some(Checked { text: key, found });
                }
                self.checked_found(source.take_notes())
            }
            None => self.checked_found(source.take_notes()),
        };
        let reading = match (reading, &parsed) {
            (Some(reading), _) => reading,
            (None, Some(Ok(root))) => DraftReading::of(root, draft.title.as_deref()),
            (None, _) => DraftReading::default(),
        };
        // The draft's tree is big and no longer needed.
        if let Some(Ok(root)) = parsed {
            drop_aside(root);
        }
        // Placed in the text now only when not about one endpoint: an endpoint's are placed when
        // its card asks for them (a big draft has tens of thousands, found again on each edit).
        let mut diagnostics = view::unplaced(found);
        if let Some(pointer) = &reading.pointer {
            page::place_in_endpoints(&mut diagnostics, pointer);
        }
        view::place(diagnostics.iter_mut().filter(|placed| placed.endpoint.is_none()), &source);
        self.revisions.set(self.revisions.get() + 1);
        DraftView {
            revision: self.revisions.get(),
            version: key.version(),
            changed: None,
            moved: None,
            name: draft.name.clone(),
            file: draft.file.clone(),
            suggested: draft.suggested.clone(),
            kind: reading.kind,
            titles: reading.titles,
            title: draft.title.clone(),
            text_bytes: draft.text.len(),
            dirty: draft.on_disk.as_deref() != Some(&*draft.text),
            changed_on_disk: draft.file.as_deref().is_some_and(|file| {
                let on_disk = self.folder.existing(file).ok().and_then(|path| Source::read(&path).ok());
                on_disk.map(|s| s.text).as_deref() != draft.on_disk.as_deref()
            }),
            endpoints: reading.endpoints,
            snippets: reading.snippets,
            feeds: reading.feeds,
            diagnostics,
            problems: Vec::new(),
            secrets_needed: reading.secrets_needed,
            layout: (memchr::memchr_iter(b'\n', draft.text.as_bytes()).count(), draft.text.len()),
        }
    }

    /// Every rule the text `key` names breaks, when the last check was of that text.
    fn found_for(&self, key: TextKey) -> Option<std::cell::Ref<'_, [Diagnostic]>> {
        std::cell::Ref::filter_map(self.checked.borrow(), |checked| {
            checked.as_ref().filter(|checked| checked.text == key).map(|checked| checked.found.as_slice())
        })
        .ok()
    }

    /// The last check's findings after `notes` (what the parse noted).
    fn checked_found(&self, notes: Vec<Diagnostic>) -> Vec<Diagnostic> {
        let checked = self.checked.borrow();
        let mut diagnostics = checked.as_ref().map(|checked| checked.found.clone()).unwrap_or_default();
        diagnostics.splice(0..0, notes);
        diagnostics
    }

    fn draft(&self) -> Result<&Draft, Refusal> {
        self.draft.as_ref().ok_or_else(|| refuse("open an OpenAPI document or an OIS first"))
    }

    /// Chooses the OIS of a draft holding several.
    pub fn choose(&mut self, title: Option<String>) -> Answer {
        let draft = self.draft.as_mut().ok_or_else(|| refuse("open an OIS first"))?;
        draft.title = title;
        Ok(self.page(true).into())
    }
}

#[cfg(test)]
mod tests;
