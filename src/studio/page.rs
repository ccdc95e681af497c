//! What the page is sent: typed, so that its shape is one place (snapshot-tested in
//! `session/tests.rs`), and so that the page receives the lists it needs (the reserved names,
//! which endpoint and which part of its form each diagnostic is about) instead of knowing them.
//!
//! The draft's text is not in it: a big OIS's text is megabytes the page needs only to show or
//! download it (`/api/draft`); the processing code of the endpoints that have some comes instead.

use crate::pointer::Member as _;
use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::held::HeldReport;
use super::view::{Operation, Placed};
use crate::convert::GivenOptions;
use crate::edit::EndpointSummary;
use crate::ois::DocumentKind;

/// Everything the page draws.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageView {
    /// The studio's folder.
    pub folder: String,
    /// The nodes a conversion can target.
    pub targets: Vec<&'static str>,
    /// The reserved parameters an endpoint's form offers.
    pub reserved_names: &'static [&'static str],
    /// The types a template parameter can have (string32 first: what feeds use).
    pub parameter_types: Vec<&'static str>,
    /// The secret name the node reads its mnemonic from.
    pub mnemonic_secret: &'static str,
    /// The OpenAPI document opened, when it was one.
    pub openapi: Option<OpenApiView>,
    /// The OIS being refined.
    pub draft: Option<DraftView>,
    /// The names of the secrets held (never their values).
    pub secrets: Vec<String>,
    /// Whether an API's answer is held for previews.
    pub has_response: bool,
    /// Whether an update is shown and not taken.
    pub pending: bool,
    /// How many changes undo can take back.
    pub undo: usize,
    /// How many undone changes redo can make again.
    pub redo: usize,
    /// The folder's documents, for the file pickers (only when the page is drawn whole).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<String>>,
    /// What an edit changed or kept beside what was asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<Vec<Placed>>,
}

/// The OpenAPI document opened: the conversion's report and operations only when it changed
/// (`revision` says which conversion the page drew). The report is its counts and groups: its
/// diagnostics come when the page opens one of them (`/api/report`; GitHub's are 400 KB).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenApiView {
    /// Its name.
    pub name: String,
    /// Which conversion of it this is.
    pub revision: u64,
    /// The options it was converted with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<GivenOptions>,
    /// What the conversion said, counted and grouped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<ReportSummary>,
    /// Each operation and what became of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operations: Option<Vec<Operation>>,
}

/// A conversion's diagnostics counted by severity and grouped by code.
#[derive(Debug, Default, Serialize)]
pub struct ReportSummary {
    /// How many are errors.
    pub errors: usize,
    /// How many are warnings.
    pub warnings: usize,
    /// How many are notes.
    pub notes: usize,
    /// Each code said, in the order first said.
    pub groups: Vec<Group>,
}

/// The diagnostics of one code.
#[derive(Debug, Serialize)]
pub struct Group {
    /// The code.
    pub code: crate::Code,
    /// How many.
    pub count: usize,
    /// The first one's message.
    pub message: String,
}

/// `diagnostics` counted and grouped.
pub fn summary<'d>(diagnostics: impl Iterator<Item = (crate::Code, crate::Severity, &'d str)>) -> ReportSummary {
    use crate::Severity;
    let mut summary = ReportSummary::default();
    let mut groups: indexmap::IndexMap<crate::Code, Group> = indexmap::IndexMap::new();
    for (code, severity, message) in diagnostics {
        match severity {
            Severity::Error => summary.errors += 1,
            Severity::Warning => summary.warnings += 1,
            Severity::Note => summary.notes += 1,
        }
        groups.entry(code).or_insert_with(|| Group { code, count: 0, message: message.to_owned() }).count += 1;
    }
    summary.groups = groups.into_values().collect();
    summary
}

/// Which draft and conversion a session holds (`GET /api/versions`).
#[derive(Debug, Serialize)]
pub struct Versions {
    /// The draft's [`DraftView::version`], when there is one.
    pub draft: Option<String>,
    /// The conversion's [`OpenApiView::revision`], when a document is opened.
    pub conversion: Option<u64>,
}

/// A conversion's diagnostics, for the page that opened a group or an operation's messages.
#[derive(Debug, Serialize)]
pub struct ReportView {
    /// Which conversion they are of.
    pub revision: u64,
    /// Each, in the order the operations index them.
    pub diagnostics: Vec<Placed>,
}

/// The OIS being refined. After an edit, when the page holds the view before it (`revision`),
/// only the endpoints that changed are sent (`changed`: their indexes; `endpoints` and `problems`
/// are theirs alone, the rest the page keeps). An endpoint's diagnostics are counted here and sent
/// when the page opens its card (`/api/problems`): a big OIS has thousands.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DraftView {
    /// Which view of the draft this is: the page sends it back with an edit.
    pub revision: u64,
    /// Which text the draft is (its length and hash): another page holding another has an old
    /// draft (one tab's edit seen by the other).
    pub version: String,
    /// When only some endpoints are sent: their indexes, in the order of `endpoints`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changed: Option<Vec<usize>>,
    /// With `changed`: the endpoints not sent whose diagnostics moved in the text (an edit above
    /// them added or took lines): an open card asks for them again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved: Option<Vec<usize>>,
    /// The name diagnostics give it.
    pub name: String,
    /// Its file in the folder, once it has one.
    pub file: Option<String>,
    /// Where it would be saved first.
    pub suggested: String,
    /// An OIS, a list or a config.
    pub kind: Option<DocumentKind>,
    /// The titles of the OIS objects it holds.
    pub titles: Vec<String>,
    /// The OIS chosen among them.
    pub title: Option<String>,
    /// How long its text is, in bytes (the text itself: `/api/draft`).
    pub text_bytes: usize,
    /// Whether it differs from its file.
    pub dirty: bool,
    /// Whether its file changed on disk since it was read or saved.
    pub changed_on_disk: bool,
    /// The chosen OIS's endpoints.
    pub endpoints: Vec<EndpointSummary>,
    /// The V2 processing code of the endpoints that have some, by endpoint name.
    pub snippets: BTreeMap<String, Snippets>,
    /// The feeds served by name.
    pub feeds: FeedsView,
    /// Every rule it breaks that is not about one endpoint.
    pub diagnostics: Vec<Placed>,
    /// Each endpoint's (in the order of `endpoints`): how many diagnostics, how many errors.
    pub problems: Vec<[usize; 2]>,
    /// The secrets its credentials need.
    pub secrets_needed: Vec<String>,
    /// How its text is laid out, lines and bytes: when it changes, the endpoints' diagnostics
    /// have moved in the text (they are placed when asked for, a card at a time).
    #[serde(skip)]
    pub layout: (usize, usize),
}

/// An endpoint's processing code, as the form shows it.
#[derive(Debug, Default, Serialize)]
pub struct Snippets {
    /// Its pre-processing (V2 `value`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pre: Option<String>,
    /// Its post-processing (V2 `value`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub post: Option<String>,
}

/// The feeds served by name: none (no `feed` endpoint), the list, or why the tables cannot be read.
#[derive(Debug, Default, Serialize)]
#[serde(untagged)]
pub enum FeedsView {
    /// No feed endpoint.
    #[default]
    None,
    /// Each feed.
    Listed(Vec<FeedRow>),
    /// The feed endpoint's processing is not the tables.
    Unreadable {
        /// Why.
        error: String,
    },
}

/// One feed of the feeds table.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FeedRow {
    /// Its name.
    pub name: String,
    /// The vendor path.
    pub path: String,
    /// The vendor parameters.
    pub parameters: Map<String, Value>,
    /// The value path its parser reads, when it only reads one.
    pub value: Option<String>,
    /// How many lines its parser has.
    pub parser_lines: Option<usize>,
}

/// The feeds of `ois`, for the page.
pub fn feeds(ois: &Value) -> FeedsView {
    match crate::ois::feeds::read(ois) {
        Ok(None) => FeedsView::None,
        Ok(Some(tables)) => FeedsView::Listed(
            tables
                .feeds
                .into_iter()
                .map(|feed| FeedRow {
                    value: feed.value_path(),
                    parser_lines: feed.parser.as_ref().map(|p| p.lines().count()),
                    name: feed.name,
                    path: feed.path,
                    parameters: feed.parameters,
                })
                .collect(),
        ),
        Err(error) => FeedsView::Unreadable { error: error.message },
    }
}

/// The V2 processing code of each endpoint of `ois` that has some.
pub fn snippets(ois: &Value) -> BTreeMap<String, Snippets> {
    let code = |endpoint: &Value, key: &str| {
        endpoint.member(key).and_then(|s| s.member("value")).and_then(Value::as_str).map(str::to_owned)
    };
    ois.member("endpoints")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|endpoint| {
            let name = endpoint.member("name")?.as_str()?.to_owned();
            let snippets = Snippets {
                pre: code(endpoint, "preProcessingSpecificationV2"),
                post: code(endpoint, "postProcessingSpecificationV2"),
            };
            (snippets.pre.is_some() || snippets.post.is_some()).then_some((name, snippets))
        })
        .collect()
}

/// The part of an endpoint's form each key of an endpoint is edited in.
fn form_part(key: &str) -> &'static str {
    match key {
        "reservedParameters" => "reserved",
        "parameters" => "parameters",
        "fixedOperationParameters" => "fixed",
        "preProcessingSpecificationV2" | "preProcessingSpecifications" => "pre",
        "postProcessingSpecificationV2" | "postProcessingSpecifications" => "post",
        _ => "endpoint",
    }
}

/// Says of each diagnostic pointing into an endpoint of the OIS at `ois_pointer` which endpoint
/// (its index) and which part of its form it is about.
pub fn place_in_endpoints(placed: &mut [Placed], ois_pointer: &str) {
    let prefix = format!("{ois_pointer}/endpoints/");
    for one in placed {
        let Some(rest) = one.diagnostic.location.pointer.strip_prefix(&prefix) else { continue };
        let mut tokens = rest.split('/');
        let Some(index) = tokens.next().and_then(|t| t.parse::<usize>().ok()) else { continue };
        one.endpoint = Some(index);
        one.part = Some(tokens.next().map_or("endpoint", form_part));
    }
}

/// What the page holds of a draft view: the endpoints' names, and a print of each endpoint's
/// summary and diagnostics, to send only those that change; and each endpoint's diagnostics, for
/// the page to ask for when it opens its card.
#[derive(Debug, Default)]
pub struct Sent {
    revision: u64,
    names: Vec<String>,
    prints: Vec<u64>,
    layout: (usize, usize),
    /// Every endpoint's diagnostics, the first endpoint's first (not yet placed in the text: a
    /// card's are placed when it asks); where each endpoint's end.
    problems: HeldReport,
    ends: Vec<usize>,
}

impl Sent {
    /// The diagnostics of the endpoint at `index` in the last view sent, and its revision.
    pub fn problems(&self, index: usize) -> Option<(u64, Vec<Placed>)> {
        let end = *self.ends.get(index)?;
        let start = index.checked_sub(1).and_then(|before| self.ends.get(before)).copied().unwrap_or(0);
        Some((self.revision, self.problems.placed_in(start..end)))
    }
}

/// A hasher written to as JSON is serialized into it, with no text made.
struct Writing<H>(H);

impl<H: std::hash::Hasher> std::io::Write for Writing<H> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.write(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A print of each endpoint of `view`: its summary and its diagnostics, not where they are in
/// the text (an edit above an endpoint moves its diagnostics without changing them).
fn prints(view: &DraftView) -> Vec<u64> {
    use std::hash::{BuildHasher, Hasher};
    let state = foldhash::fast::FixedState::with_seed(0);
    let mut hashers: Vec<_> = view
        .endpoints
        .iter()
        .map(|summary| {
            let mut writing = Writing(state.build_hasher());
            let _ = serde_json::to_writer(&mut writing, summary);
            writing
        })
        .collect();
    for placed in &view.diagnostics {
        if let Some(writing) = placed.endpoint.and_then(|index| hashers.get_mut(index)) {
            let diagnostic = &placed.diagnostic;
            // Everything of it but its line and column.
            let _ = serde_json::to_writer(
                &mut *writing,
                &(
                    diagnostic.code,
                    &diagnostic.message,
                    &diagnostic.help,
                    &diagnostic.location.pointer,
                    &placed.excerpt,
                ),
            );
        }
    }
    hashers.into_iter().map(|writing| writing.0.finish()).collect()
}

/// The items of `list` whose place `is_changed` says.
fn changed_only<T>(list: Vec<T>, is_changed: &[bool]) -> Vec<T> {
    list.into_iter().zip(is_changed).filter(|(_, changed)| **changed).map(|(item, _)| item).collect()
}

/// Makes `view` (whole, its `revision` set, every diagnostic in it) what the page needs after
/// holding `seen`: only the endpoints that changed when `seen` is what was sent last and no
/// endpoint came or went or was renamed; each endpoint's diagnostics counted, kept in `sent` for
/// the page to ask for; `sent` becomes what the page will hold.
pub fn since(mut view: DraftView, seen: Option<u64>, sent: &mut Sent) -> DraftView {
    let now = prints(&view);
    let names: Vec<String> = view.endpoints.iter().map(|e| e.name.clone()).collect();
    let same_list = seen == Some(sent.revision) && sent.revision != 0 && names == sent.names;
    let previous = std::mem::take(&mut sent.prints);
    // Lines added or taken move what follows; in a text of a line or two, any change of its length.
    let (lines, bytes) = view.layout;
    let shifted = sent.layout.0 != lines || (lines < 2 && sent.layout.1 != bytes);
    let mut problems = vec![Vec::new(); view.endpoints.len()];
    let mut own = Vec::new();
    for placed in std::mem::take(&mut view.diagnostics) {
        match placed.endpoint.and_then(|index| problems.get_mut(index)) {
            Some(list) => list.push(placed),
            None => own.push(placed),
        }
    }
    view.diagnostics = own;
    view.problems =
        problems.iter().map(|list| [list.len(), list.iter().filter(|p| p.diagnostic.is_error()).count()]).collect();
    let ends = problems
        .iter()
        .scan(0, |end, list| {
            *end += list.len();
            Some(*end)
        })
        .collect();
    let problems = HeldReport::new(problems.into_iter().flatten().collect());
    *sent = Sent { revision: view.revision, names, prints: now.clone(), layout: view.layout, problems, ends };
    if !same_list {
        return view;
    }
    let changed: Vec<usize> =
        now.iter().zip(&previous).enumerate().filter(|(_, (a, b))| a != b).map(|(i, _)| i).collect();
    let is_changed: Vec<bool> = now.iter().zip(&previous).map(|(a, b)| a != b).collect();
    // A shifted text moved every endpoint's diagnostics that did not change: an open card asks for
    // its own again.
    let moved: Vec<usize> = match shifted {
        true => is_changed
            .iter()
            .zip(&view.problems)
            .enumerate()
            .filter(|(_, (changed, [count, _]))| !**changed && *count > 0)
            .map(|(index, _)| index)
            .collect(),
        false => Vec::new(),
    };
    view.moved = Some(moved);
    view.endpoints = changed_only(std::mem::take(&mut view.endpoints), &is_changed);
    view.problems = changed_only(std::mem::take(&mut view.problems), &is_changed);
    view.changed = Some(changed);
    view
}
