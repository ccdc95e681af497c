//! `ois feed import FILE catalog.json --chain-url CHAIN=URL…`: the feeds of an RPC feeds catalog
//! (API3's `rpcFeedsCatalog`, or a file in its shape) as feeds by name, one OIS a chain, its server
//! the chain's JSON-RPC URL, each feed one `eth_call`.
//!
//! One call a feed, not one a chain: the node sends one JSON object a request, so a JSON-RPC batch
//! (an array) cannot pass; and Airnode Feed requires the templates of one trigger to make one
//! request, so feeds of one call would all read one contract. Each feed's value depends on its own
//! contract only; the price is a call a feed a fetch interval.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::refuse;
use crate::diagnostic::{Diagnostic, Severity};
use crate::edit::feeds::FeedChange;
use crate::emit::Plan;
use crate::jobs::endpoint::EditReport;
use crate::ois::feeds::rpc::{self, RpcFeed};
use crate::ois::model::Method;
use crate::source::Source;

/// An import of an RPC feeds catalog.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RpcImport {
    /// The OIS file written: one OIS for one chain, a list of them for several. An existing file's
    /// OIS of each chain (by title) keeps what it has, its feeds replaced by name.
    pub file: PathBuf,
    /// The catalog: a JSON array of entries, or an object holding one as `rpcFeedsCatalog`.
    pub catalog: PathBuf,
    /// Each chain's JSON-RPC URL, by the catalog's alias (`ethereum`); a `${NAME}` after its host
    /// is a secret the node fills (`https://mainnet.infura.io/v3/${RPC_KEY}`). Only the feeds of
    /// these chains are imported, in this order.
    pub chains: Vec<(String, String)>,
    /// The provider's name: each OIS is titled `NAME CHAIN`.
    pub title: String,
    /// Show the change and write nothing.
    pub dry_run: bool,
}

impl RpcImport {
    /// An import of `catalog` into `file` for `chains`, titled `RPC CHAIN`.
    pub fn new(file: PathBuf, catalog: PathBuf, chains: Vec<(String, String)>) -> RpcImport {
        RpcImport { file, catalog, chains, title: "RPC".to_owned(), dry_run: false }
    }
}

/// Whether `value` reads as an RPC feeds catalog (rather than blueprints or an OIS).
pub fn is_catalog(value: &Value) -> bool {
    let entries = value.get("rpcFeedsCatalog").unwrap_or(value);
    entries.as_array().is_some_and(|items| {
        !items.is_empty() && items.iter().all(|item| item.get("callData").is_some() && item.get("chainAlias").is_some())
    })
}

/// Imports the catalog: every feed of a chain given, each chain's OIS made or brought up to date.
pub fn import(job: &RpcImport) -> Result<EditReport, Vec<Diagnostic>> {
    let one = |error: Diagnostic| vec![error];
    let entries = read_catalog(&job.catalog).map_err(one)?;
    let before = match Source::read(&job.file) {
        Ok(source) => Some(source),
        Err(_) if !job.file.exists() => None,
        Err(error) => return Err(vec![error]),
    };
    let mut oises: Vec<Value> = match before.as_ref().map(Source::parse).transpose().map_err(one)? {
        None => Vec::new(),
        Some(Value::Array(items)) => items,
        Some(ois @ Value::Object(_)) => vec![ois],
        Some(_) => return Err(one(refuse(format!("{} is not an OIS or a list of them", job.file.display())))),
    };
    let mut notes = Vec::new();
    check_chains(job, &entries)?;
    for (chain, url) in &job.chains {
        let mut feeds = Vec::new();
        for entry in entries.iter().filter(|e| &e.chain_alias == chain) {
            match rpc::feed_of(entry) {
                Ok(feed) => feeds.push(feed),
                Err(skipped) => notes.push(Diagnostic { severity: Severity::Warning, ..skipped }),
            }
        }
        let title = format!("{} {chain}", job.title);
        let at = match oises.iter().position(|o| o.get("title").and_then(Value::as_str) == Some(title.as_str())) {
            Some(at) => at,
            None => {
                oises.push(skeleton(&title));
                oises.len() - 1
            }
        };
        let Some(ois) = oises.get_mut(at) else { continue };
        let specification = ois.get_mut("apiSpecifications").and_then(Value::as_object_mut).ok_or_else(|| {
            one(refuse(format!("\"{title}\" of {} has no apiSpecifications object", job.file.display())))
        })?;
        specification.insert("servers".to_owned(), json!([{"url": server_url(url)}]));
        let count = feeds.len();
        if count > 0 {
            let change = FeedChange::Put { feeds, places: Vec::new(), replace: true, method: Method::Post };
            notes.extend(crate::edit::feeds::apply(ois, &change).map_err(one)?);
        }
        notes.push(crate::edit::note(
            format!("/{at}"),
            format!("\"{title}\": {count} feed(s) on {chain}, each one eth_call to {url}"),
        ));
    }
    let document = if oises.len() == 1 { oises.pop().unwrap_or_default() } else { Value::Array(oises) };
    let errors: Vec<Diagnostic> = crate::validate::validate_value(&document, None)
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    let text = match before.as_ref() {
        Some(source) => crate::emit::to_text_like(&document, &source.text, crate::emit::OutputFormat::Json),
        None => crate::emit::to_text(&document, crate::emit::OutputFormat::Json),
    }
    .map_err(one)?;
    let old = before.as_ref().map_or("", |source| source.text.as_str());
    let name = job.file.display().to_string();
    let diff = crate::emit::unified_diff(&name, &name, old, &text);
    let changed = text != old;
    let written = changed && !job.dry_run;
    if written {
        let mut plan = Plan::new();
        // The file named is made, or replaced with what it held brought up to date.
        plan.companion(&job.file, text, false);
        plan.write().map_err(one)?;
    }
    Ok(EditReport { file: name, changed, written, diff, notes })
}

/// The catalog's entries; refused when it is not one.
fn read_catalog(file: &Path) -> Result<Vec<RpcFeed>, Diagnostic> {
    let source = Source::read_regular(file)?;
    let value = source.parse()?;
    if !is_catalog(&value) {
        return Err(refuse(format!(
            "{}: not an RPC feeds catalog (a JSON array of entries with `chainAlias` and `callData`)",
            file.display()
        )));
    }
    let entries = value.get("rpcFeedsCatalog").cloned().unwrap_or(value);
    serde_json::from_value(entries)
        .map_err(|error| refuse(format!("{}: an entry is not readable: {error}", file.display())))
}

/// Each chain given once, with a URL the node can call and the catalog has feeds of; a chain of
/// the catalog without a URL is named (its feeds are not imported).
fn check_chains(job: &RpcImport, entries: &[RpcFeed]) -> Result<(), Vec<Diagnostic>> {
    let mut problems = Vec::new();
    let known: Vec<&str> =
        entries.iter().map(|e| e.chain_alias.as_str()).collect::<indexmap::IndexSet<_>>().into_iter().collect();
    for (index, (chain, url)) in job.chains.iter().enumerate() {
        if job.chains.iter().take(index).any(|(other, _)| other == chain) {
            problems.push(refuse(format!("chain \"{chain}\" is given twice")));
        }
        if !known.contains(&chain.as_str()) {
            problems.push(refuse(format!("the catalog has no feeds on \"{chain}\" (it has: {})", known.join(", "))));
        }
        if url.contains('#') {
            problems.push(refuse(format!("{chain}: a URL with `#` (everything after it is never sent)")));
        }
        let placeholder = crate::node::template_expressions(url)
            .fold(url.clone(), |text, name| text.replace(&format!("${{{name}}}"), "key"));
        let parsed =
            url::Url::parse(&placeholder).ok().filter(|u| matches!(u.scheme(), "http" | "https") && u.has_host());
        if parsed.is_none() {
            problems.push(refuse(format!("{chain}: \"{url}\" is not an absolute http(s) URL")));
        } else if let Some(why) = crate::node::server_url_secret_problem(url, crate::node::is_node_secret) {
            problems.push(refuse(format!("{chain}: {why}")));
        }
    }
    if job.chains.is_empty() {
        problems.push(
            refuse(format!("give each chain's JSON-RPC URL (the catalog's chains: {})", known.join(", "))).with_fix(
                crate::diagnostic::Fix::GiveChainUrl(known.first().copied().unwrap_or("ethereum").to_owned()),
            ),
        );
    }
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}

/// The server URL of a chain: its JSON-RPC URL as given, then `#`. The node appends the
/// operation's path (`/eth_call`) to the server URL; after `#` it is never sent, so the provider
/// receives exactly the URL it gave, a key at its end or in its query included.
fn server_url(url: &str) -> String {
    format!("{url}#")
}

/// An OIS with no operation yet, for the newest Airnode Feed.
fn skeleton(title: &str) -> Value {
    json!({
        "oisFormat": crate::node::Target::NEWEST_RELEASED.ois_format(),
        "title": title,
        "version": "1.0.0",
        "apiSpecifications": {
            "servers": [],
            "paths": {},
            "components": {"securitySchemes": {}},
            "security": {}
        },
        "endpoints": []
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_catalog_is_told_from_blueprints_and_an_ois() {
        let entry = json!({"name": "a", "chainAlias": "ethereum", "callData": ["0x01"]});
        assert!(is_catalog(&json!([entry])) && is_catalog(&json!({"rpcFeedsCatalog": [entry]})));
        assert!(!is_catalog(&json!([{"name": "BTC/USD", "path": "simple/price"}])) && !is_catalog(&json!([])));
        assert_eq!(server_url("https://rpc.example/v3/${K}"), "https://rpc.example/v3/${K}#");
    }
}
