//! The RRP templates of an Airnode config.json given to `scaffold airnode`, carried into the
//! config made again from it: a template whose endpoint is still served is kept as it was (its ID
//! derives from the Airnode, the endpoint ID and the parameters, none of which a scaffold
//! changes); one whose endpoint is gone is dropped, and said.

use std::collections::HashSet;
use std::path::PathBuf;

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::ois::ConfigKind;
use crate::source::Source;

/// Carries the templates of the Airnode configs among `files` into `config` (made of their OIS).
pub(super) fn carry(files: &[PathBuf], config: &mut Value) -> Result<Vec<Diagnostic>, Diagnostic> {
    let served: HashSet<String> = config
        .get("ois")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .flat_map(|ois| {
            let title = ois.get("title").and_then(Value::as_str).unwrap_or_default().to_owned();
            let endpoints = ois.get("endpoints").and_then(Value::as_array).cloned().unwrap_or_default();
            endpoints.into_iter().filter_map(move |endpoint| {
                endpoint.get("name").and_then(Value::as_str).map(|name| crate::node::endpoint_id(&title, name))
            })
        })
        .collect();
    let mut kept: Vec<Value> = Vec::new();
    let mut diagnostics = Vec::new();
    for path in files {
        let source = Source::read(path)?;
        let given = source.parse()?;
        if ConfigKind::of(&given) != Some(ConfigKind::Airnode) {
            continue;
        }
        let file = path.display().to_string();
        let templates = given.get("templates").and_then(Value::as_array).cloned().unwrap_or_default();
        let before = kept.len();
        for (index, template) in templates.into_iter().enumerate() {
            let endpoint = template.get("endpointId").and_then(Value::as_str).unwrap_or_default().to_lowercase();
            let id = template.get("templateId").and_then(Value::as_str).unwrap_or_default();
            if !served.contains(&endpoint) {
                let mut dropped = Diagnostic::new(
                    Code::RrpTemplateDropped,
                    format!("/templates/{index}"),
                    format!("template {id} is dropped: its endpoint {endpoint} is not an endpoint of the config made"),
                )
                .with_help("a renamed endpoint has another ID: derive the template for it again");
                source.locate_diagnostic(&mut dropped);
                diagnostics.push(dropped.in_file(file.clone()));
            } else if !kept.iter().any(|t| t.get("templateId").and_then(Value::as_str) == Some(id)) {
                kept.push(template);
            }
        }
        if kept.len() > before {
            diagnostics.push(Diagnostic::elsewhere(
                Code::RrpTemplatesKept,
                format!("{} RRP template(s) of {file} kept as they were", kept.len() - before),
            ));
        }
    }
    if let Some(object) = config.as_object_mut()
        && !kept.is_empty()
    {
        object.insert("templates".to_owned(), Value::Array(kept));
    }
    Ok(diagnostics)
}
