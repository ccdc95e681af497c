//! Feeds in and out of files: data-feed blueprints (a folder of them, an array, or a production
//! OIS serving them) imported and exported, and the batches files API3 keeps
//! (`supportedFeedsInBatches`) read and written. An import and its batches are one change.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::{VendorDocument, list_title, refuse};
use crate::diagnostic::{Code, Diagnostic};
use crate::edit::feeds::{FeedChange, ParameterPlace};
use crate::emit::Plan;
use crate::ois::OisDocument;
use crate::ois::feeds::{self, Feed};
use crate::ois::model::Method;
use crate::source::Source;

/// One data-feed blueprint, as API3's repository keeps them (`data-feed-blueprints/*.json`).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Blueprint {
    name: String,
    #[serde(default)]
    parameters: Map<String, Value>,
    path: String,
    #[serde(default)]
    parser: Option<String>,
    /// `post` for a feed whose vendor operation is a POST (API3's blueprints, all GET, have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    method: Option<String>,
}

/// The feeds of `from`: a folder of blueprint files, a JSON array of blueprints (or one), or an
/// OIS (a list, a config) whose `feed` endpoint serves them, with where their parameters go.
/// With `document`, every feed is checked against the vendor's document (its path an operation
/// there, its parameters that operation's), which also says where each parameter goes.
pub fn import(from: &Path, title: Option<&str>, document: Option<&Path>) -> Result<FeedChange, Diagnostic> {
    let (feeds, mut places, method) = if from.is_dir() { blueprints_in_folder(from)? } else { from_file(from, title)? };
    if feeds.is_empty() {
        return Err(refuse(format!("{} has no feeds", from.display())));
    }
    if let Some(document) = document {
        places = VendorDocument::read(document)?.check(&feeds, method)?;
    }
    Ok(FeedChange::Put { feeds, places, replace: true, method })
}

/// Feeds, where their parameters go, and the method of their vendor operation.
type ImportedFeeds = (Vec<Feed>, Vec<ParameterPlace>, Method);

/// The one method of blueprints read together (a feed endpoint has one).
fn one_method(read: &[(Feed, Method)], from: &Path) -> Result<Method, Diagnostic> {
    let method = read.first().map_or(Method::Get, |(_, method)| *method);
    match read.iter().find(|(_, other)| *other != method) {
        Some((feed, _)) => Err(refuse(format!(
            "{}: feed \"{}\" is {} and others {}: one feed endpoint has one method",
            from.display(),
            crate::emit::printable(&feed.name),
            if method == Method::Get { "POST" } else { "GET" },
            method.as_str().to_uppercase()
        ))),
        None => Ok(method),
    }
}

fn blueprints_in_folder(folder: &Path) -> Result<ImportedFeeds, Diagnostic> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .map_err(|error| Diagnostic::elsewhere(Code::InputUnreadable, format!("{}: {error}", folder.display())))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut read = Vec::with_capacity(files.len());
    for file in files {
        let source = Source::read_regular(&file)?;
        let value = source.parse()?;
        read.push(blueprint(value, &source)?);
    }
    let method = one_method(&read, folder)?;
    Ok((read.into_iter().map(|(feed, _)| feed).collect(), Vec::new(), method))
}

fn blueprint(value: Value, source: &Source) -> Result<(Feed, Method), Diagnostic> {
    let read: Blueprint = serde_json::from_value(value).map_err(|error| {
        let mut error = Diagnostic::new(Code::BadFeed, String::new(), format!("not a data-feed blueprint: {error}"));
        source.locate_diagnostic(&mut error);
        error
    })?;
    let method = match read.method.as_deref().map(str::to_ascii_lowercase) {
        None => Method::Get,
        Some(other) => Method::named(&other).ok_or_else(|| {
            refuse(format!(
                "blueprint \"{}\": method \"{}\" is neither get nor post",
                crate::emit::printable(&read.name),
                crate::emit::printable(&other)
            ))
        })?,
    };
    let mut feed = Feed::new(read.name, read.path.trim_start_matches('/'));
    feed.parameters = read.parameters;
    feed.parser = read.parser;
    Ok((feed, method))
}

fn from_file(file: &Path, title: Option<&str>) -> Result<ImportedFeeds, Diagnostic> {
    let source = Source::read(file)?;
    let value = source.parse()?;
    if super::rpc::is_catalog(&value) {
        let chain = value.pointer("/0/chainAlias").or_else(|| value.pointer("/rpcFeedsCatalog/0/chainAlias"));
        let chain = chain.and_then(Value::as_str).unwrap_or("ethereum").to_owned();
        return Err(refuse(format!(
            "{} is an RPC feeds catalog: its feeds are read from contracts on chains, each chain's JSON-RPC URL needed",
            file.display()
        ))
        .with_fix(crate::diagnostic::Fix::GiveChainUrl(chain)));
    }
    let is_blueprint = |item: &Value| item.get("apiSpecifications").is_none() && item.get("path").is_some();
    if let Value::Array(items) = &value
        && items.iter().all(is_blueprint)
    {
        let read: Vec<(Feed, Method)> =
            items.iter().cloned().map(|item| blueprint(item, &source)).collect::<Result<_, _>>()?;
        let method = one_method(&read, file)?;
        return Ok((read.into_iter().map(|(feed, _)| feed).collect(), Vec::new(), method));
    }
    if is_blueprint(&value) {
        let (feed, method) = blueprint(value, &source)?;
        return Ok((vec![feed], Vec::new(), method));
    }
    let read = OisDocument::read(&value).map_err(|(_, error)| error)?;
    let chosen = read.choose(title)?;
    let tables = feeds::read(chosen.ois)?.ok_or_else(|| refuse(format!("{} has no feed endpoint", file.display())))?;
    let method = feeds::method_of(chosen.ois);
    let places = chosen
        .ois
        .pointer(&format!("/apiSpecifications/paths/~1{{path}}/{}/parameters", method.as_str()))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let location = p.get("in").and_then(Value::as_str)?;
            (location != "path").then(|| ParameterPlace {
                name: p.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
                location: location.to_owned(),
            })
        })
        .collect();
    Ok((tables.feeds, places, method))
}

/// What `feed export` wrote.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ExportReport {
    /// The files written.
    pub written: Vec<String>,
    /// The feeds exported.
    pub feeds: usize,
    /// The batches (feeds answered by one call), when a batches file was asked for.
    pub batches: usize,
}

/// Writes the feeds of `file` as blueprints: one file each into the folder `to`, or one array
/// when `to` ends in `.json`; and, with `batches`, the groups of feeds one call answers, in the
/// shape API3 keeps (`{"supportedFeedsInBatches": {TITLE: [[NAME, …], …]}}`).
pub fn export(
    file: &Path,
    title: Option<&str>,
    to: &Path,
    batches: Option<&Path>,
    replace: bool,
) -> Result<ExportReport, Diagnostic> {
    let (tables, ois_title, method) = crate::jobs::with_chosen_ois(file, title, |ois, _| {
        let tables = feeds::read(ois)?.ok_or_else(|| refuse(format!("{} has no feed endpoint", file.display())))?;
        let title = ois.get("title").and_then(Value::as_str).unwrap_or_default().to_owned();
        Ok((tables, title, feeds::method_of(ois)))
    })?;
    let blueprint_of = |feed: &Feed| {
        let post = (method == Method::Post).then_some("post");
        serde_json::to_value(Blueprint {
            name: feed.name.clone(),
            parameters: feed.parameters.clone(),
            path: feed.path.clone(),
            parser: feed.parser.clone(),
            method: post.map(str::to_owned),
        })
        .unwrap_or_default()
    };
    let mut plan = Plan::new();
    let mut written = Vec::new();
    let pretty = |value: &Value| format!("{}\n", serde_json::to_string_pretty(value).unwrap_or_default());
    if to.extension().is_some_and(|e| e == "json") {
        let all: Vec<Value> = tables.feeds.iter().map(blueprint_of).collect();
        plan.file(to, pretty(&Value::Array(all)), replace);
        written.push(to.display().to_string());
    } else {
        let mut names: Vec<String> = Vec::new();
        for feed in &tables.feeds {
            let file_name = format!("{}.json", file_name_of(&feed.name));
            if names.contains(&file_name) {
                return Err(refuse(format!(
                    "two feeds would be written to {file_name}: export them to one .json file"
                )));
            }
            let path = to.join(&file_name);
            plan.file_in_new_folder(&path, pretty(&blueprint_of(feed)), replace);
            written.push(path.display().to_string());
            names.push(file_name);
        }
    }
    let groups = batch_groups(&tables.feeds);
    if let Some(batches) = batches {
        let document = json!({"supportedFeedsInBatches": {ois_title: groups}});
        plan.file(batches, pretty(&document), replace);
        written.push(batches.display().to_string());
    }
    plan.write()?;
    Ok(ExportReport { written, feeds: tables.feeds.len(), batches: groups.len() })
}

/// Feeds whose requests are the same (one call answers them all), two or more, in order.
pub fn batch_groups(feeds: &[Feed]) -> Vec<Vec<String>> {
    let mut groups: Vec<(&str, &Map<String, Value>, Vec<String>)> = Vec::new();
    for feed in feeds {
        match groups.iter_mut().find(|(path, parameters, _)| *path == feed.path && **parameters == feed.parameters) {
            Some((_, _, names)) => names.push(feed.name.clone()),
            None => groups.push((&feed.path, &feed.parameters, vec![feed.name.clone()])),
        }
    }
    groups.into_iter().map(|(_, _, names)| names).filter(|names| names.len() > 1).collect()
}

/// The change that makes the feeds `names` one call; with `answer` (a sample of that call's
/// answer, read as the node reads one), each finds its own element by a field naming it where the
/// answer has one.
pub fn batch(names: Vec<String>, answer: Option<&Path>) -> Result<FeedChange, Diagnostic> {
    let answer = match answer {
        Some(path) => Some(crate::source::Source::read_regular(path)?.parse_as_javascript()?.0),
        None => None,
    };
    Ok(FeedChange::Batch { names, answer })
}

/// The change that makes each batch of `file` (a batches file: [`read_batches`]) one call, for
/// the OIS of `target` that `title` names (or its only one), in one edit.
pub fn batches(target: &Path, title: Option<&str>, file: &Path) -> Result<FeedChange, Diagnostic> {
    let title = list_title(target, title)?;
    let groups = read_batches(file, &title)?;
    Ok(FeedChange::All(
        groups
            .into_iter()
            .filter(|names| names.len() > 1)
            .map(|names| FeedChange::Batch { names, answer: None })
            .collect(),
    ))
}

/// [`import`], then the batches of `file` when one is given, as one change: an import is written
/// whole or not at all.
pub fn import_with_batches(
    target: &Path,
    from: &Path,
    title: Option<&str>,
    document: Option<&Path>,
    file: Option<&Path>,
) -> Result<FeedChange, Diagnostic> {
    let imported = import(from, title, document)?;
    match file {
        // The batches are read before anything is written: a bad batches file leaves the OIS as it was.
        Some(file) => Ok(FeedChange::All(vec![imported, batches(target, title, file)?])),
        None => Ok(imported),
    }
}

/// The batches of a batches file: `supportedFeedsInBatches` (of API3's `api-data.json` or on its
/// own), the lists of the OIS `title` (or of its only entry).
pub fn read_batches(file: &Path, title: &str) -> Result<Vec<Vec<String>>, Diagnostic> {
    // A regular file only: a FIFO nobody writes to would block forever.
    let source = Source::read_regular(file)?;
    let value = source.parse()?;
    let table = value.get("supportedFeedsInBatches").unwrap_or(&value);
    let lists = table
        .get(title)
        .or_else(|| table.as_object().filter(|m| m.len() == 1).and_then(|m| m.values().next()))
        .ok_or_else(|| refuse(format!("{}: no `supportedFeedsInBatches` entry for \"{title}\"", file.display())))?;
    serde_json::from_value(lists.clone())
        .map_err(|error| refuse(format!("{}: the batches are not lists of feed names: {error}", file.display())))
}

/// A file name for a feed's blueprint: `BTC/USD` → `BTC-USD`, as API3's are named.
fn file_name_of(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c == '/' {
                '-'
            } else if c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ' ') {
                c
            } else {
                '_'
            }
        })
        .collect::<String>()
        // A leading dot would hide the file, or make `.` or `..` of it: written as `_`.
        .chars()
        .enumerate()
        .map(|(at, c)| if c == '.' && at == 0 { '_' } else { c })
        .collect::<String>()
}

crate::diagnosed_by_field!(ExportReport, crate::ois::feeds::FeedTables);
