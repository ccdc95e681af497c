//! What the studio holds between requests — the document opened, the OIS being refined (its
//! text, in its file's style), the secrets typed in (memory only), the last answer of the API —
//! and each step the page asks for. Every step is a library job or an [`crate::edit`] operation
//! run on the draft in hand: the studio has no rule of its own.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::folder::Folder;
use super::generated::Generated;
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
    /// The last node config built, with its secrets template and IDs.
    built: Option<Built>,
    /// An update worked out and shown, not yet taken.
    pending: Option<crate::update::Update>,
    /// How many conversions were made: the page draws the operations again only when it changes.
    conversions: u64,
    /// The draft's texts before its last changes, newest last: what undo goes back to.
    undo: Vec<Arc<str>>,
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
}

/// The most changes undo goes back through.
const UNDO_STEPS: usize = 20;
/// The most the undo texts hold together, in bytes (a big document's edits drop the oldest).
const UNDO_BYTES: usize = 64 << 20;

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
    diagnostics: Vec<Placed>,
    operations: Vec<view::Operation>,
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
        Held { name: self.name.clone(), text: self.text.to_string() }
    }
}

#[derive(Debug)]
struct Built {
    scaffold: crate::scaffold::node::NodeScaffold,
    ids: String,
}

/// What the page failed at: the diagnostics, located and with their lines.
#[derive(Debug, Serialize)]
pub struct Refusal {
    /// Every diagnostic (the one that stopped it last).
    pub diagnostics: Vec<Placed>,
    /// More of what happened (an API's answer, what snippets logged), secrets masked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<Value>,
}

impl From<Diagnostic> for Refusal {
    fn from(diagnostic: Diagnostic) -> Self {
        Refusal { diagnostics: view::placed(vec![diagnostic], None), detail: None }
    }
}

/// What a step answers: its result, or why not.
pub type Answer = Result<Reply, Refusal>;

/// A step's result: the page's view (typed: written straight to the answer's text, never made a
/// `Value` first unless a secret held has to be masked in it), or anything else.
#[derive(Debug)]
pub enum Reply {
    /// The page's view.
    Page(Box<PageView>),
    /// The conversion's diagnostics.
    Report(Box<page::ReportView>),
    /// Any other result.
    Value(Value),
}

impl Reply {
    /// The result as a `Value`.
    pub fn into_value(self) -> Value {
        match self {
            Reply::Page(page) => serde_json::to_value(page).unwrap_or(Value::Null),
            Reply::Report(report) => serde_json::to_value(report).unwrap_or(Value::Null),
            Reply::Value(value) => value,
        }
    }
}

impl From<Value> for Reply {
    fn from(value: Value) -> Self {
        Reply::Value(value)
    }
}

impl From<PageView> for Reply {
    fn from(page: PageView) -> Self {
        Reply::Page(Box::new(page))
    }
}

impl Serialize for Reply {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Reply::Page(page) => page.serialize(serializer),
            Reply::Report(report) => report.serialize(serializer),
            Reply::Value(value) => value.serialize(serializer),
        }
    }
}

fn refuse(message: impl Into<String>) -> Refusal {
    Refusal::from(Diagnostic::elsewhere(Code::BadArgument, message))
}

/// Which endpoint's diagnostics the page asks for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemsRequest {
    /// Its index in the last view sent.
    pub endpoint: usize,
}

/// A document to open: a file of the folder, or text the page read (a file picked
/// in the browser, dropped or pasted).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct OpenRequest {
    /// A file below the folder.
    #[serde(default)]
    pub path: Option<String>,
    /// The name of text given.
    #[serde(default)]
    pub name: Option<String>,
    /// The text.
    #[serde(default)]
    pub text: Option<String>,
    /// How an OpenAPI document is converted (as `ois convert`'s flags say it).
    #[serde(default)]
    pub options: Option<GivenOptions>,
}

/// Settings of an endpoint edit, as the page's form gives them.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct SettingsRequest {
    /// Reserved parameters: name and fixed value (`None`: the requester's).
    pub reserved: Vec<(String, Option<String>)>,
    /// Reserved parameters taken away (a value cleared in the form).
    pub unreserved: Vec<String>,
    /// Operation parameters fixed: name and value.
    pub fixed: Vec<(String, String)>,
    /// Endpoint parameters changed: name and `required`, `optional`, `default=V`,
    /// `description=TEXT`, `rename=NEW` or `drop`.
    pub parameters: Vec<(String, String)>,
    /// Pre-processing (a V2 function).
    pub pre: Option<String>,
    /// Post-processing (a V2 function).
    pub post: Option<String>,
}

impl SettingsRequest {
    fn settings(self) -> Result<crate::edit::Settings, Refusal> {
        let mut settings = crate::edit::Settings {
            reserved: self.reserved,
            unreserved: self.unreserved,
            fixed: self.fixed,
            ..crate::edit::Settings::default()
        };
        for (name, change) in self.parameters {
            let parsed = crate::edit::ParameterChange::parse(&change).ok_or_else(|| {
                refuse(format!("parameter {name}: \"{change}\" is not required, optional, default=V, description=TEXT, rename=NEW or drop"))
            })?;
            settings.parameters.push((name, parsed));
        }
        settings.pre = self.pre.filter(|code| !code.trim().is_empty()).map(crate::edit::Snippet::v2);
        settings.post = self.post.filter(|code| !code.trim().is_empty()).map(crate::edit::Snippet::v2);
        Ok(settings)
    }
}

/// An endpoint edit, as `ois endpoint add|set|rm|keep` takes it.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum EditRequest {
    /// `ois endpoint add`.
    Add {
        /// Its name.
        name: String,
        /// `GET /path`.
        operation: String,
        /// What to set.
        #[serde(default)]
        settings: SettingsRequest,
    },
    /// `ois endpoint set`.
    Set {
        /// The endpoint.
        name: String,
        /// Its new name.
        #[serde(default)]
        rename: Option<String>,
        /// What to set.
        #[serde(default)]
        settings: SettingsRequest,
    },
    /// `ois endpoint rm`.
    Remove {
        /// The endpoints.
        names: Vec<String>,
    },
    /// `ois endpoint keep`.
    Keep {
        /// Names or `GET /path`s.
        filters: Vec<String>,
    },
    /// `ois feed add` (checked against the OpenAPI document open in the studio).
    AddFeed {
        /// The feed.
        #[serde(flatten)]
        feed: FeedRequestFields,
    },
    /// `ois feed set`.
    SetFeed {
        /// The feed and what changes.
        #[serde(flatten)]
        feed: FeedRequestFields,
        /// Its new name.
        #[serde(default)]
        rename: Option<String>,
        /// Parameters taken away.
        #[serde(default)]
        dropped: Vec<String>,
    },
    /// `ois feed rm`.
    RemoveFeeds {
        /// The feeds.
        names: Vec<String>,
    },
    /// `ois feed batch`.
    BatchFeeds {
        /// The feeds, two or more on one vendor path.
        names: Vec<String>,
    },
}

/// A feed by name as the page gives it.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FeedRequestFields {
    /// Its name.
    pub name: String,
    /// The vendor operation: an operation ID of the open document, or `GET /path`.
    #[serde(default)]
    pub operation: Option<String>,
    /// Its vendor parameters, name and value.
    #[serde(default)]
    pub parameters: Vec<(String, String)>,
    /// The value's path in the vendor's answer.
    #[serde(default)]
    pub value: Option<String>,
    /// A parser snippet instead.
    #[serde(default)]
    pub parser: Option<String>,
}

/// A request preview or a call.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CallRequest {
    /// The endpoint.
    pub endpoint: String,
    /// The requester's parameters, name and text.
    #[serde(default)]
    pub parameters: Vec<(String, String)>,
    /// A server to call instead of the OIS's.
    #[serde(default)]
    pub server: Option<String>,
    /// Preview the value from the API's last answer.
    #[serde(default)]
    pub use_response: bool,
    /// Airnode Feed's request instead of Airnode's.
    #[serde(default)]
    pub feed: bool,
    /// A folder (below the studio's) to keep the call's exchange in, as a recording.
    #[serde(default)]
    pub record: Option<String>,
}

/// Feeds for a node config.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BuildRequest {
    /// `feed` (Airnode Feed) or `airnode` (config.json).
    pub node: String,
    /// Feeds, `ENDPOINT:NAME=TYPE:VALUE,...` each.
    #[serde(default)]
    pub feeds: Vec<String>,
    /// Feeds as the form gives them: an endpoint and its parameters, (name, type, value) each.
    #[serde(default)]
    pub templates: Vec<TemplateRequest>,
    /// Signed APIs: name and URL.
    #[serde(default)]
    pub signed_apis: Vec<(String, String)>,
    /// One trigger per API call the feeds can share.
    #[serde(default)]
    pub batch: bool,
    /// A staging config: every OIS calls this server (a mock, a staging host) instead of its own.
    #[serde(default)]
    pub server: Option<String>,
    /// A template for every feed served by name.
    #[serde(default)]
    pub all_feeds: bool,
    /// Seconds between a trigger's API calls (the scaffold's default when none).
    #[serde(default)]
    pub fetch_interval: Option<u64>,
}

/// One feed of the form: an endpoint and its template parameters.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TemplateRequest {
    /// The endpoint.
    pub endpoint: String,
    /// Its parameters: name, type (string32, uint256, …) and value.
    #[serde(default)]
    pub parameters: Vec<(String, String, String)>,
}

/// A file written.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SaveRequest {
    /// `ois`, `config` (with its secrets template) or `ids`.
    pub what: String,
    /// Where, below the folder.
    pub path: String,
    /// The secrets template's path (with `config`).
    #[serde(default)]
    pub secrets_path: Option<String>,
    /// Replace a file that exists.
    #[serde(default)]
    pub force: bool,
}

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
    let _ = std::thread::Builder::new().name("ois studio drop".to_owned()).spawn(move || drop(value));
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
            built: None,
            pending: None,
            conversions: 0,
            undo: Vec::new(),
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

    /// [`Session::view`], the conversion's report and operations and the folder's files left out
    /// unless `conversion` (an edit leaves them as they were; the page keeps what it drew).
    fn view_of(&self, conversion: bool) -> Value {
        serde_json::to_value(self.page(conversion)).unwrap_or(Value::Null)
    }

    /// [`Session::view_of`], typed.
    fn page(&self, conversion: bool) -> PageView {
        self.page_since(conversion, None, None)
    }

    /// [`Session::page`] for a page that holds the draft view `seen`: only what changed of it;
    /// `parsed`: the draft's document, when the step has it (not to parse its text again).
    fn page_since(&self, conversion: bool, seen: Option<u64>, parsed: Option<Value>) -> PageView {
        let openapi = self.openapi.as_ref().map(|opened| OpenApiView {
            name: opened.name.clone(),
            revision: self.conversions,
            options: conversion.then(|| opened.options.clone()),
            report: conversion.then(|| page::summary(&opened.diagnostics)),
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
                let view = self.draft_view(draft, parsed);
                page::since(view, seen, &mut self.sent.borrow_mut())
            }),
            secrets: self.secrets.keys().cloned().collect(),
            has_response: self.response.is_some(),
            pending: self.pending.is_some(),
            undo: self.undo.len(),
            // The folder is walked for the file pickers when the page is drawn whole, not per edit.
            files: conversion.then(|| self.folder.documents()),
            notes: None,
        }
    }

    fn draft_view(&self, draft: &Draft, parsed: Option<Value>) -> DraftView {
        let source = draft.held().source();
        let parsed = match parsed {
            Some(document) => Ok(document),
            None => source.parse(),
        };
        let key = TextKey::of(&draft.text);
        let found = match &parsed {
            Ok(root) => {
                // The last check was of this very text (an edit's, or undo's): its findings are
                // located, not found again; otherwise the check made here is kept for the next.
                let mut checked = self.checked.borrow_mut();
                if checked.as_ref().is_none_or(|checked| checked.text != key) {
                    let found = crate::validate::validate_value(root, None).diagnostics;
                    *checked = Some(Checked { text: key, found });
                }
                let mut diagnostics = checked.as_ref().map(|checked| checked.found.clone()).unwrap_or_default();
                for diagnostic in &mut diagnostics {
                    source.locate_diagnostic(diagnostic);
                }
                diagnostics.splice(0..0, source.take_notes());
                diagnostics
            }
            Err(error) => crate::validate::Validation::unreadable(error.clone()).diagnostics,
        };
        let mut diagnostics = view::placed(found, Some(&source));
        self.revisions.set(self.revisions.get() + 1);
        let mut view = DraftView {
            revision: self.revisions.get(),
            changed: None,
            moved: None,
            name: draft.name.clone(),
            file: draft.file.clone(),
            suggested: draft.suggested.clone(),
            kind: None,
            titles: Vec::new(),
            title: draft.title.clone(),
            text_bytes: draft.text.len(),
            dirty: draft.on_disk.as_deref() != Some(&*draft.text),
            changed_on_disk: draft.file.as_deref().is_some_and(|file| {
                let on_disk = self.folder.existing(file).ok().and_then(|path| Source::read(&path).ok());
                on_disk.map(|s| s.text).as_deref() != draft.on_disk.as_deref()
            }),
            endpoints: Vec::new(),
            snippets: std::collections::BTreeMap::new(),
            feeds: page::FeedsView::None,
            diagnostics: Vec::new(),
            problems: Vec::new(),
            secrets_needed: Vec::new(),
        };
        if let Ok(root) = &parsed
            && let Ok(read) = crate::ois::OisDocument::read(root)
        {
            view.kind = Some(read.kind);
            view.titles = read.titles().into_iter().map(str::to_owned).collect();
            if let Ok(chosen) = read.choose(draft.title.as_deref()) {
                view.endpoints = crate::edit::list(chosen.ois);
                view.secrets_needed = view::secret_names(chosen.ois);
                view.feeds = page::feeds(chosen.ois);
                view.snippets = page::snippets(chosen.ois);
                page::place_in_endpoints(&mut diagnostics, &chosen.pointer);
            }
        }
        view.diagnostics = diagnostics;
        // The draft's tree is big and no longer needed.
        drop_aside(parsed);
        view
    }

    /// What the conversion of the OpenAPI document opened said, each diagnostic located: what
    /// the page draws when a group of its report or an operation's messages are opened.
    pub fn report(&self) -> Answer {
        let opened = self.openapi.as_ref().ok_or_else(|| refuse("open an OpenAPI document first"))?;
        let mut diagnostics = opened.diagnostics.clone();
        // Each with its line, from the text converted (read again: not when it changed since).
        let text = match (&opened.path, &opened.pasted) {
            (Some(path), _) => Source::read(path).ok().map(|source| source.text),
            (None, pasted) => pasted.clone(),
        };
        if let Some(text) = text.filter(|text| TextKey::of(text) == opened.converted) {
            view::excerpts(&mut diagnostics, &text);
        }
        let report = page::ReportView { revision: self.conversions, diagnostics };
        Ok(Reply::Report(Box::new(report)))
    }

    /// The diagnostics of the endpoint at `index` of the last view sent: what the page draws in
    /// its card when it opens.
    pub fn problems(&self, request: &ProblemsRequest) -> Answer {
        let sent = self.sent.borrow();
        let (revision, found) =
            sent.problems(request.endpoint).ok_or_else(|| refuse("no such endpoint: draw the page again"))?;
        Ok(json!({"revision": revision, "diagnostics": found}).into())
    }

    /// The draft's text: what the page's text editor shows and its download holds.
    pub fn draft_text(&self) -> Answer {
        Ok(json!({"text": &*self.draft()?.text}).into())
    }

    fn draft(&self) -> Result<&Draft, Refusal> {
        self.draft.as_ref().ok_or_else(|| refuse("open an OpenAPI document or an OIS first"))
    }

    /// Opens a document: an OpenAPI document is converted (its OIS becomes the draft), an OIS or
    /// a node config is the draft itself.
    pub fn open(&mut self, request: OpenRequest) -> Answer {
        let (source, file) = match (&request.path, request.text) {
            (Some(path), _) => {
                let absolute = self.folder.existing(path)?;
                let mut source = Source::read(&absolute)?;
                // Named as the user named it, relative to the folder.
                source.name = self.folder.relative(&absolute);
                let relative = source.name.clone();
                (source, Some((relative, absolute)))
            }
            (None, Some(text)) => {
                let name = request.name.clone().unwrap_or_else(|| "pasted.json".to_owned());
                let name =
                    Path::new(&name).file_name().map_or("pasted.json".into(), |n| n.to_string_lossy().into_owned());
                (Source::from_text(&name, None, text), None)
            }
            (None, None) => return Err(refuse("give a file (path) or its text")),
        };
        // Parsed once, as a conversion reads it: what is not an OpenAPI document keeps all it
        // has (only an OpenAPI document's operations and schemas are read in part).
        let root = source.parse_for(reading)?;
        let is_openapi = crate::ois::DocumentKind::of(&root) == Some(crate::ois::DocumentKind::OpenApi);
        self.response = None;
        self.built = None;
        self.pending = None;
        // Another document: the last one's changes are not this one's to undo.
        self.undo.clear();
        self.undo_checked = None;
        if is_openapi {
            let options = request.options.unwrap_or_default().with_default_target();
            let ois = self.convert(source, root, file.map(|(_, absolute)| absolute), options)?;
            return Ok(self.page_since(true, None, Some(ois)).into());
        } else {
            crate::ois::OisDocument::read(&root).map_err(|(_, mut error)| {
                source.locate_diagnostic(&mut error);
                error
            })?;
            let (relative, absolute) = file.unzip();
            self.record = absolute.as_deref().and_then(|path| {
                let (records, _) = record::read(&record::path_for(path));
                let title = root.get("title").and_then(Value::as_str).unwrap_or_default().to_owned();
                record::find(&records, &title).cloned().map(Generated::Read)
            });
            self.openapi = None;
            let text: Arc<str> = source.text.into();
            self.draft = Some(Draft {
                name: source.name.clone(),
                suggested: relative.clone().unwrap_or_else(|| source.name.clone()),
                file: relative,
                on_disk: absolute.is_some().then(|| Arc::clone(&text)),
                text,
                title: None,
            });
        }
        Ok(self.page(true).into())
    }

    /// Converts the OpenAPI document opened again, with `options`: a new draft.
    pub fn reconvert(&mut self, options: GivenOptions) -> Answer {
        let opened = self.openapi.as_ref().ok_or_else(|| refuse("open an OpenAPI document first"))?;
        let source = match (&opened.path, &opened.pasted) {
            (Some(path), _) => {
                let mut source = Source::read(path)?;
                source.name = opened.name.clone();
                source
            }
            (None, pasted) => Source::from_text(&opened.name, None, pasted.clone().unwrap_or_default()),
        };
        let path = opened.path.clone();
        let root = source.parse_for(reading)?;
        let before = self.draft.as_ref().map(|draft| Arc::clone(&draft.text));
        let ois = self.convert(source, root, path, options.with_default_target())?;
        // Converting again makes a new draft: the one replaced is one undo away.
        if let Some(before) = before {
            self.keep_for_undo(before);
        }
        Ok(self.page_since(true, None, Some(ois)).into())
    }

    /// Converts `source` (parsed as a conversion reads it: `root`) with `options`, as `ois convert`
    /// does: the draft, the record, the operations; the draft's OIS, for the view to read (made
    /// from the conversion's own tree: parsing its text again would take twice as long).
    fn convert(
        &mut self,
        source: Source,
        mut root: Value,
        path: Option<PathBuf>,
        options: GivenOptions,
    ) -> Result<Value, Refusal> {
        let convert_options = options.convert_options()?;
        let mut rendered =
            crate::convert::convert_rendered(&source, &mut root, &convert_options, OutputFormat::Json, Positions::All)
                .map_err(|failure| Refusal {
                    diagnostics: view::placed(failure.diagnostics, Some(&source)),
                    detail: None,
                })?;
        let made =
            rendered.model().endpoints.iter().map(|e| (e.operation.method.as_str(), &*e.operation.path, &*e.name));
        let operations = view::operations(&root, made, &rendered.diagnostics);
        // The document's tree is not the draft's: freed before the draft's is made.
        drop_aside(root);
        let title = rendered.title().to_owned();
        let stem = source.name.rsplit('/').next().unwrap_or("api").to_owned();
        let stem = stem.split('.').next().filter(|s| !s.is_empty()).unwrap_or("api").to_owned();
        let suggested = match &path {
            Some(path) => {
                let folder = path.parent().map(|p| self.folder.relative(p)).unwrap_or_default();
                if folder.is_empty() { format!("{stem}.ois.json") } else { format!("{folder}/{stem}.ois.json") }
            }
            None => format!("{stem}.ois.json"),
        };
        let ois = rendered.ois()?;
        // The conversion checked every OIS rule: the draft's check is that and the rest.
        let found = crate::validate::validate_checked_ois(&ois, std::mem::take(&mut rendered.checked));
        let diagnostics = view::located(std::mem::take(&mut rendered.diagnostics), Some(&source));
        let text = std::mem::take(&mut rendered.text).into_string();
        let text: Arc<str> = text.map_err(|error| refuse(format!("the OIS is not UTF-8: {error}")))?.into();
        // What the last document left is freed aside, as is the conversion's model.
        drop_aside((self.openapi.take(), self.draft.take(), self.record.take(), rendered));
        // The record is the draft's text as generated: the same text, not a copy.
        self.record = Some(Generated::Converted { title, options: options.clone(), text: Arc::clone(&text) });
        self.conversions += 1;
        *self.checked.get_mut() = Some(Checked { text: TextKey::of(&text), found });
        self.draft =
            Some(Draft { name: format!("{stem}.ois.json"), file: None, suggested, text, on_disk: None, title: None });
        let converted = TextKey::of(&source.text);
        let pasted = path.is_none().then_some(source.text);
        self.openapi = Some(Opened { name: source.name, path, pasted, converted, diagnostics, options, operations });
        Ok(ois)
    }

    /// Chooses the OIS of a draft holding several.
    pub fn choose(&mut self, title: Option<String>) -> Answer {
        let draft = self.draft.as_mut().ok_or_else(|| refuse("open an OIS first"))?;
        draft.title = title;
        Ok(self.page(true).into())
    }

    /// An endpoint edit on the draft, as `ois endpoint` makes it (refused when it breaks a rule).
    pub fn edit(&mut self, request: EditRequest) -> Answer {
        self.edit_seen(request, None)
    }

    /// [`Session::edit`] for a page holding the draft view `seen`: the answer carries only the
    /// endpoints the edit changed.
    pub fn edit_seen(&mut self, request: EditRequest, seen: Option<u64>) -> Answer {
        let edit = match request {
            EditRequest::Add { name, operation, settings } => {
                EndpointEdit::Add { name, operation, settings: settings.settings()? }
            }
            EditRequest::Set { name, rename, settings } => {
                EndpointEdit::Set { name, settings: settings.settings()?, rename: rename.filter(|r| !r.is_empty()) }
            }
            EditRequest::Remove { names } => EndpointEdit::Remove { names },
            EditRequest::Keep { filters } => EndpointEdit::Keep { filters },
            EditRequest::AddFeed { feed } => EndpointEdit::Feeds(crate::jobs::feed::add(&self.feed_input(feed))?),
            EditRequest::SetFeed { feed, rename, dropped } => {
                let mut input = self.feed_input(feed);
                input.rename = rename.filter(|r| !r.is_empty());
                input.dropped = dropped;
                EndpointEdit::Feeds(crate::jobs::feed::set(&input)?)
            }
            EditRequest::RemoveFeeds { names } => EndpointEdit::Feeds(crate::edit::feeds::FeedChange::Remove { names }),
            EditRequest::BatchFeeds { names } => EndpointEdit::Feeds(crate::edit::feeds::FeedChange::Batch { names }),
        };
        let draft = self.draft()?;
        let source = draft.held().source();
        let key = TextKey::of(&draft.text);
        let checked = self.checked.borrow();
        let known = checked.as_ref().filter(|checked| checked.text == key).map(|checked| checked.found.as_slice());
        let edited = crate::jobs::endpoint::edit_source_known(&source, draft.title.as_deref(), &edit, known)
            .map_err(|diagnostics| Refusal { diagnostics: view::placed(diagnostics, Some(&source)), detail: None });
        drop(checked);
        let Edited { text, notes, diagnostics, document } = edited?;
        self.remember();
        *self.checked.get_mut() = Some(Checked { text: TextKey::of(&text), found: diagnostics });
        if let Some(draft) = self.draft.as_mut() {
            draft.text = text.into();
        }
        let mut page = self.page_since(false, seen, Some(document));
        page.notes = Some(view::placed(notes, None));
        Ok(page.into())
    }

    /// Keeps the draft's text as it is now, for undo.
    fn remember(&mut self) {
        if let Some(text) = self.draft.as_ref().map(|draft| Arc::clone(&draft.text)) {
            self.keep_for_undo(text);
        }
    }

    /// Keeps `text` as the draft's last text for undo, within [`UNDO_STEPS`] and [`UNDO_BYTES`],
    /// with the check of it when the last one was (the draft's text being replaced).
    fn keep_for_undo(&mut self, text: Arc<str>) {
        if self.undo.last() == Some(&text) {
            return;
        }
        let key = TextKey::of(&text);
        let checked = self.checked.get_mut();
        self.undo_checked =
            if checked.as_ref().is_some_and(|checked| checked.text == key) { checked.take() } else { None };
        self.undo.push(text);
        while self.undo.len() > UNDO_STEPS || self.undo.iter().map(|text| text.len()).sum::<usize>() > UNDO_BYTES {
            self.undo.remove(0);
        }
    }

    /// Takes the draft back to its text before the last change (an edit, the text editor, a file
    /// taken from disk, an update taken).
    pub fn undo(&mut self) -> Answer {
        self.undo_seen(None)
    }

    /// [`Session::undo`] for a page holding the draft view `seen`: only what changed of it.
    pub fn undo_seen(&mut self, seen: Option<u64>) -> Answer {
        let previous = self.undo.pop().ok_or_else(|| refuse("nothing to undo"))?;
        let key = TextKey::of(&previous);
        let draft = self.draft.as_mut().ok_or_else(|| refuse("open an OIS first"))?;
        draft.text = previous;
        *self.checked.get_mut() = self.undo_checked.take().filter(|checked| checked.text == key);
        Ok(self.page_since(false, seen, None).into())
    }

    /// A feed as the job takes it, checked against the OpenAPI document open in the studio.
    fn feed_input(&self, fields: FeedRequestFields) -> crate::jobs::feed::FeedInput {
        let mut input = crate::jobs::feed::FeedInput {
            name: fields.name,
            operation: fields.operation.filter(|o| !o.trim().is_empty()),
            parameters: fields.parameters.into_iter().filter(|(name, _)| !name.trim().is_empty()).collect(),
            value: fields.value.filter(|v| !v.is_empty()),
            parser: fields.parser.filter(|p| !p.trim().is_empty()),
            ..Default::default()
        };
        if let Some(opened) = &self.openapi {
            match (&opened.path, &opened.pasted) {
                (Some(path), _) => input.document = Some(path.clone()),
                (None, pasted) => {
                    let text = pasted.clone().unwrap_or_default();
                    input.held_document = Some(Held { name: opened.name.clone(), text });
                }
            }
        }
        input
    }

    /// Replaces the draft's text (the page's text editor), when it still reads as OIS.
    pub fn set_text(&mut self, text: String) -> Answer {
        let name = self.draft()?.name.clone();
        let source = Source::from_text(&name, None, text);
        let root = source.parse()?;
        crate::ois::OisDocument::read(&root).map_err(|(_, mut error)| {
            source.locate_diagnostic(&mut error);
            error
        })?;
        self.remember();
        let draft = self.draft.as_mut().ok_or_else(|| refuse("open an OIS first"))?;
        draft.text = source.text.into();
        Ok(self.page(true).into())
    }

    fn inputs(&self, request: &CallRequest) -> Result<CallInputs, Refusal> {
        let draft = self.draft()?;
        let mut inputs = CallInputs::new(PathBuf::from(&draft.name));
        inputs.held = Some(draft.held());
        // Only what was typed into the page, never the environment the studio runs in, and never
        // the node's own secrets (the mnemonic held for beacon IDs): no API may receive them.
        let held = Secrets::from_values(self.secrets.clone());
        inputs.held_secrets = Some(held.only(|name| !crate::node::is_node_secret(name)));
        inputs.parameters = request.parameters.iter().map(|(n, v)| (n.clone(), v.clone(), false)).collect();
        inputs.ois_title = draft.title.clone();
        inputs.server = request.server.clone().filter(|s| !s.trim().is_empty());
        if request.feed {
            inputs.mode = crate::request::Mode::Feed;
        }
        Ok(inputs)
    }

    /// The values of every secret held (to mask them in every answer).
    pub(crate) fn secret_values(&self) -> Vec<String> {
        self.secrets.values().cloned().collect()
    }

    /// The node's request for `request` (as `ois request`), with the value from the API's last
    /// answer when asked.
    pub fn request(&self, request: &CallRequest) -> Answer {
        let mut job = RequestJob::new(self.inputs(request)?, request.endpoint.clone());
        if request.use_response {
            job.held_response = self.response.clone();
        }
        match crate::jobs::request::run(&job, now()) {
            Ok(report) => Ok(json!({
                "exchange": crate::request::render::json(&report.exchange, false),
                "curl": report.curl(false).ok(),
                "diagnostics": view::placed(report.located.diagnostics, report.located.source.as_ref()),
            })
            .into()),
            Err(stop) => Err(Refusal {
                diagnostics: view::placed(stop.located.diagnostics, stop.located.source.as_ref()),
                detail: Some(json!({"logs": stop.logs})),
            }),
        }
    }

    /// What a real call needs, taken from the session so that the call itself runs without it
    /// (a slow API must not hold every other step of the page).
    pub fn prepare_call(&self, request: &CallRequest) -> Result<PreparedCall, Refusal> {
        // A recording goes below the studio's folder, never through a link.
        let record =
            request.record.as_deref().filter(|r| !r.is_empty()).map(|r| self.folder.writable(r)).transpose()?;
        let options = crate::call::CallOptions { record, ..crate::call::CallOptions::default() };
        let job = crate::jobs::call::CallJob::new(self.inputs(request)?, options);
        Ok(PreparedCall { job, endpoint: request.endpoint.clone(), secrets: self.secret_values() })
    }

    /// Holds the answer of a call made with [`Session::prepare_call`] for previews.
    pub fn hold_response(&mut self, response: Option<Value>) {
        self.response = response;
    }

    /// Holds secrets typed into the page (an empty value forgets one); answers with the names.
    pub fn set_secrets(&mut self, values: BTreeMap<String, String>) -> Answer {
        for (name, value) in values {
            if !crate::node::is_secret_name(&name) {
                return Err(refuse(format!(
                    "secret name \"{}\": the node accepts only names matching ^[A-Z][A-Z0-9_]*$",
                    crate::emit::printable(&name)
                )));
            }
            if value.is_empty() {
                self.secrets.remove(&name);
            } else {
                self.secrets.insert(name, value);
            }
        }
        Ok(json!({"secrets": self.secrets.keys().collect::<Vec<_>>()}).into())
    }

    /// A node config of the draft (as `ois scaffold feed|airnode`), checked as the node would
    /// serve it, with its secrets template and every ID.
    pub fn build(&mut self, request: BuildRequest) -> Answer {
        let draft = self.draft()?;
        let oises = crate::ois::oises_in(&draft.held().source())?;
        let kind = match request.node.as_str() {
            "feed" => ScaffoldKind::Feed(FeedRequest {
                feeds: request.feeds,
                templates: request
                    .templates
                    .into_iter()
                    .map(|template| crate::scaffold::node::Feed {
                        endpoint: template.endpoint,
                        parameters: template
                            .parameters
                            .into_iter()
                            .map(|(name, kind, value)| crate::node::ids::TemplateParameter {
                                kind,
                                name,
                                value: Value::String(value),
                            })
                            .collect(),
                    })
                    .collect(),
                signed_apis: request.signed_apis,
                batch: request.batch,
                all_feeds: request.all_feeds,
                fetch_interval: request.fetch_interval.unwrap_or(crate::jobs::scaffold::DEFAULT_FETCH_INTERVAL),
                server: request.server.filter(|s| !s.trim().is_empty()),
                ..FeedRequest::default()
            }),
            "airnode" => ScaffoldKind::Airnode { http: false, signed_http: false },
            other => return Err(refuse(format!("node \"{other}\": feed or airnode"))),
        };
        let scaffold = crate::jobs::scaffold::build(&oises, &kind)?;
        let config = crate::emit::to_text(&scaffold.config, OutputFormat::Json)?;
        let mut job = crate::jobs::ids::IdsJob {
            file: PathBuf::from("config.json"),
            held: Some(Held { name: "config.json".to_owned(), text: config.clone() }),
            ..crate::jobs::ids::IdsJob::default()
        };
        let secrets = Secrets::from_values(self.secrets.clone());
        let mnemonic = crate::node::mnemonic_secret(&scaffold.config);
        if secrets.file_value(&mnemonic).is_some() {
            job.airnode = crate::jobs::ids::Airnode::Secrets(secrets);
        }
        // With the Airnode known, the beacon set of the config's templates too (a set needs two).
        let templates = scaffold.config.get("templates").and_then(Value::as_object).map_or(0, |t| t.len());
        job.set = !matches!(job.airnode, crate::jobs::ids::Airnode::None) && templates >= 2;
        let ids = crate::jobs::ids::run(&job)?;
        let ids_text = crate::js::stringify_pretty(&serde_json::to_value(&ids).unwrap_or(Value::Null)) + "\n";
        let secrets_template = crate::scaffold::secrets::template(&scaffold.secrets_env, "config.json", None).text;
        let answer = json!({
            "config": config,
            "secrets": secrets_template,
            "ids": ids,
            "mnemonic": mnemonic,
            "diagnostics": view::placed(scaffold.warnings.clone(), None),
        });
        self.built = Some(Built { scaffold, ids: ids_text });
        Ok(answer.into())
    }

    /// Writes a file below the folder: the draft (its record next to it, style kept), the config
    /// with its secrets template (all or nothing; a filled secrets file keeps its values), or the
    /// IDs.
    pub fn save(&mut self, request: SaveRequest) -> Answer {
        // The page names files by their place in the folder: its absolute path is noise there.
        let root = format!("{}{}", self.folder.root().display(), std::path::MAIN_SEPARATOR);
        self.save_in_folder(request).map_err(|mut refusal| {
            for placed in &mut refusal.diagnostics {
                let diagnostic = &mut placed.diagnostic;
                diagnostic.message = diagnostic.message.replace(&root, "");
                if let Some(file) = diagnostic.location.file.as_mut() {
                    *file = file.replace(&root, "");
                }
            }
            refusal
        })
    }

    fn save_in_folder(&mut self, request: SaveRequest) -> Answer {
        let target = self.folder.writable(&request.path)?;
        match request.what.as_str() {
            "ois" => {
                let draft = self.draft()?;
                let mut plan = Plan::new();
                if draft.file.as_deref() == Some(request.path.as_str()) {
                    // The draft's own file: replacing it is what saving means (a regular file only).
                    plan.companion(&target, &*draft.text, false);
                } else {
                    plan.file(&target, &*draft.text, request.force);
                }
                if let Some(record) = &self.record {
                    let (path, text) = record.file_next_to(&target)?;
                    // The record goes through the folder's check like every file the studio
                    // writes: below the folder, never through a link.
                    let path = self.folder.writable(&self.folder.relative(&path))?;
                    plan.companion(&path, text, false);
                }
                plan.write()?;
                let text = Arc::clone(&draft.text);
                if let Some(draft) = self.draft.as_mut() {
                    draft.file = Some(self.folder.relative(&target));
                    draft.name = target.file_name().map_or(draft.name.clone(), |n| n.to_string_lossy().into_owned());
                    draft.on_disk = Some(text);
                }
                Ok(json!({"written": [self.folder.relative(&target)], "view": self.view()}).into())
            }
            "config" => {
                let built = self.built.as_ref().ok_or_else(|| refuse("build a node config first"))?;
                let secrets_out = request.secrets_path.as_deref().map(|p| self.folder.writable(p)).transpose()?;
                let outputs = ScaffoldOutputs {
                    output: Some(target.clone()),
                    secrets_out: secrets_out.clone(),
                    force: request.force,
                    ..ScaffoldOutputs::default()
                };
                let report = crate::jobs::scaffold::write(built.scaffold.clone(), &outputs)?;
                let written: Vec<String> =
                    [Some(target), secrets_out].iter().flatten().map(|p| self.folder.relative(p)).collect();
                Ok(json!({"written": written, "diagnostics": view::placed(report.diagnostics, None)}).into())
            }
            "ids" => {
                let built = self.built.as_ref().ok_or_else(|| refuse("build a node config first"))?;
                let mut plan = Plan::new();
                plan.file(&target, built.ids.as_str(), request.force);
                plan.write()?;
                Ok(json!({"written": [self.folder.relative(&target)]}).into())
            }
            other => Err(refuse(format!("save \"{other}\": ois, config or ids"))),
        }
    }

    /// The draft's file as it is on disk now, and the difference from the draft.
    pub fn disk(&self) -> Answer {
        let draft = self.draft()?;
        let file = draft.file.as_deref().ok_or_else(|| refuse("the draft has no file yet: save it first"))?;
        let text = Source::read(&self.folder.existing(file)?)?.text;
        Ok(json!({"file": file, "diff": crate::emit::unified_diff(file, file, &draft.text, &text)}).into())
    }

    /// Takes the draft's file as it is on disk now (what another program, the CLI, wrote).
    pub fn reload(&mut self) -> Answer {
        let draft = self.draft()?;
        let file = draft.file.clone().ok_or_else(|| refuse("the draft has no file yet: save it first"))?;
        let text: Arc<str> = Source::read(&self.folder.existing(&file)?)?.text.into();
        self.remember();
        if let Some(draft) = self.draft.as_mut() {
            draft.text = Arc::clone(&text);
            draft.on_disk = Some(text);
        }
        Ok(self.page(true).into())
    }

    /// The three-way update of the draft from a new version of the API's document (as
    /// `ois convert NEW --update OIS`): shown, not taken until [`Session::take_update`].
    pub fn update(&mut self, request: OpenRequest) -> Answer {
        let new = match (&request.path, request.text) {
            (Some(path), _) => {
                let absolute = self.folder.existing(path)?;
                let mut source = Source::read(&absolute)?;
                source.name = self.folder.relative(&absolute);
                source
            }
            (None, Some(text)) => Source::from_text(request.name.as_deref().unwrap_or("new.yaml"), None, text),
            (None, None) => return Err(refuse("give the new document (path) or its text")),
        };
        let draft = self.draft()?;
        let source = draft.held().source();
        let mut options = crate::update::UpdateOptions::default();
        options.given = request.options.unwrap_or_default();
        options.title = draft.title.clone();
        options.records = self.record.as_ref().map(Generated::record).transpose()?.into_iter().collect();
        let update = crate::update::update(&new, None, &source, &options)
            .map_err(|failure| Refusal { diagnostics: view::placed(failure.diagnostics, Some(&new)), detail: None })?;
        let conflicts = update.diagnostics.iter().filter(|d| d.code == Code::UpdateConflict).count();
        let answer = json!({
            "diff": crate::emit::unified_diff(&draft.name, &draft.name, &draft.text, &update.text),
            "endpoints": update.merged.endpoints,
            "conflicts": conflicts,
            "diagnostics": view::placed(update.diagnostics.clone(), Some(&new)),
        });
        self.pending = Some(update);
        Ok(answer.into())
    }

    /// Takes the update shown last: the draft becomes it, and its record the new one.
    pub fn take_update(&mut self) -> Answer {
        let update = self.pending.take().ok_or_else(|| refuse("no update to take: show one first"))?;
        self.remember();
        let draft = self.draft.as_mut().ok_or_else(|| refuse("open an OIS first"))?;
        draft.text = update.text.into();
        self.record = Some(Generated::Read(update.record));
        Ok(self.page(true).into())
    }
}

/// A real call taken out of the session: run it with no lock held, then hand the answer back
/// with [`Session::hold_response`].
#[derive(Debug)]
pub struct PreparedCall {
    job: crate::jobs::call::CallJob,
    endpoint: String,
    secrets: Vec<String>,
}

impl PreparedCall {
    /// Calls the API: the answer to hold, and what the page is told.
    pub fn run(self) -> (Option<Value>, Answer) {
        let secrets = self.secrets;
        let leaves = |value: Option<&Value>| {
            let masked = value.map(|v| crate::request::render::masked_json(&secrets, false, v));
            let (leaves, truncated) = masked.as_ref().map(crate::request::paths::leaves).unwrap_or_default();
            let suggested = crate::request::paths::suggested(&leaves);
            json!({"leaves": leaves, "truncated": truncated, "suggested": suggested})
        };
        match crate::jobs::call::one(&self.job, &self.endpoint, now()) {
            Ok(report) => {
                let response = report.called.reply.as_ref().and_then(|r| r.json.clone());
                let mut picker = leaves(report.answer_to_pick());
                if let (Some(name), Some(object)) = (&report.feed, picker.as_object_mut()) {
                    object.insert("feed".to_owned(), json!(name));
                }
                let answer = json!({
                    "call": report.called.json(false),
                    "picker": picker,
                    "diagnostics": view::placed(report.located.diagnostics, report.located.source.as_ref()),
                });
                (response, Ok(answer.into()))
            }
            Err(stopped) => {
                let response = stopped.reply.as_ref().and_then(|r| r.json.clone());
                let detail = json!({
                    "call": stopped.json(false).get("call").cloned(),
                    "picker": leaves(response.as_ref()),
                    "logs": stopped.stop.logs,
                });
                let refusal = Refusal {
                    diagnostics: view::placed(stopped.stop.located.diagnostics, stopped.stop.located.source.as_ref()),
                    detail: Some(detail),
                };
                (response, Err(refusal))
            }
        }
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
