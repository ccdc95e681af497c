//! The RRP templates of an Airnode config.json given to `scaffold airnode`, carried into the
//! config made again from it: a template whose endpoint is still served is kept as it was (its ID
//! derives from the Airnode, the endpoint ID and the parameters, none of which a scaffold
//! changes); one whose endpoint is gone is dropped, and said. And the templates asked for by
//! command, each with its ID derived from the Airnode.

use std::collections::HashSet;
use std::path::PathBuf;

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::ois::ConfigKind;
use crate::source::Source;

/// Carries the templates of the Airnode configs among `files` into `config` (made of their OIS).
pub(super) fn carry(files: &[PathBuf], config: &mut Value) -> Result<Vec<Diagnostic>, Diagnostic> {
    let served: HashSet<String> = config
        .get("ois")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .flat_map(|ois| crate::node::endpoint_ids(ois).into_iter().map(|(_, id)| id))
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

/// Adds the templates `specs` asks for (`ENDPOINT:NAME=TYPE:VALUE,...`) to `config`: each of an
/// endpoint of its OIS, its parameters in Airnode ABI, its ID derived from `airnode` as
/// AirnodeRrpV0 derives it. One already there (the same ID) is not added twice.
pub(super) fn add(config: &mut Value, specs: &[String], airnode: &super::ids::Airnode) -> Result<(), Diagnostic> {
    if specs.is_empty() {
        return Ok(());
    }
    let address = airnode_address(airnode)?.ok_or_else(|| {
        Diagnostic::elsewhere(Code::BadArgument, "an RRP template's ID derives from the Airnode's address")
            .with_fix(Fix::GiveAirnode)
    })?;
    let mut made = Vec::new();
    for spec in specs {
        let (endpoint, parameters) = crate::node::ids::parse_template(spec)?;
        let titles: Vec<&str> = config
            .get("ois")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|ois| {
                ois.get("endpoints")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .any(|e| e.get("name").and_then(Value::as_str) == Some(endpoint.as_str()))
            })
            .filter_map(|ois| ois.get("title").and_then(Value::as_str))
            .collect();
        let title = match titles.as_slice() {
            [title] => *title,
            [] => {
                return Err(Diagnostic::elsewhere(
                    Code::BadArgument,
                    format!("{spec}: no OIS of the config has an endpoint \"{endpoint}\""),
                ));
            }
            _ => {
                return Err(Diagnostic::elsewhere(
                    Code::BadArgument,
                    format!("{spec}: endpoint \"{endpoint}\" is in several OIS ({})", titles.join(", ")),
                ));
            }
        };
        let encoded = crate::node::ids::encode_parameters(&parameters)?;
        let endpoint_id: alloy_primitives::B256 = crate::node::endpoint_id(title, &endpoint)
            .parse()
            .map_err(|_| Diagnostic::elsewhere(Code::BadArgument, "an endpoint ID that is not 32 bytes"))?;
        made.push(serde_json::json!({
            "templateId": crate::node::rrp_template_id(address, endpoint_id, &encoded.bytes),
            "endpointId": endpoint_id.to_string(),
            "encodedParameters": format!("0x{}", alloy_primitives::hex::encode(&encoded.bytes)),
        }));
    }
    let Some(Value::Array(templates)) = config.get_mut("templates") else { return Ok(()) };
    for template in made {
        if !templates.iter().any(|t| t.get("templateId") == template.get("templateId")) {
            templates.push(template);
        }
    }
    Ok(())
}

/// The Airnode's address: given, or from its mnemonic (in a secrets file under the name the
/// scaffold writes, or in an environment variable).
fn airnode_address(airnode: &super::ids::Airnode) -> Result<Option<alloy_primitives::Address>, Diagnostic> {
    super::ids::airnode_named(airnode, || Ok(crate::node::MNEMONIC_SECRET.to_owned()))
}
