//! Whether each value of a run is its own: two templates of one API call that got the same value
//! fail (one likely reads the other's element), and each row shows what of the answer it read.

use std::collections::HashMap;

use serde_json::Value;

use super::BeaconCall;
use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::jobs::call::Outcome;
use crate::request::RequestOptions;

/// Fails every pair of rows of one API call that got the same value from different templates:
/// one of them is likely reading the other's element of the answer (two feeds of a batch given
/// the same value path), and each beacon would carry the one value.
pub(super) fn fail_equal_values(rows: &mut [BeaconCall]) {
    let mut first_with: HashMap<&str, usize> = HashMap::new();
    let mut pairs = Vec::new();
    for (at, row) in rows.iter().enumerate() {
        let Some(encoded) = row.encoded_value.as_deref().filter(|_| row.outcome.is_ok()) else { continue };
        match first_with.get(encoded) {
            Some(&first) if rows.get(first).is_some_and(|f| f.template_id != row.template_id) => {
                pairs.push((first, at))
            }
            Some(_) => {}
            None => {
                first_with.insert(encoded, at);
            }
        }
    }
    let named = |row: &BeaconCall| match &row.feed {
        Some(feed) => format!("feed \"{}\"", crate::emit::printable(feed)),
        None => format!("template {}", crate::node::ids::short(&row.template_id)),
    };
    let problems: Vec<(usize, usize, Diagnostic)> = pairs
        .into_iter()
        .filter_map(|(first, at)| {
            let (one, other) = (rows.get(first)?, rows.get(at)?);
            let value = one.values.as_ref().and_then(|v| v.first()).map(Value::to_string).unwrap_or_default();
            let problem = Diagnostic::elsewhere(
                Code::ValuesEqual,
                format!(
                    "{} and {} got the same value ({value}) from one API call: is one of them reading the other's element of the answer?",
                    named(one),
                    named(other)
                ),
            )
            .with_help("give each the value of its own element: through its own key, at its position in the answer's array, or by a field naming it")
            .with_fix(Fix::AllowEqualValues);
            Some((first, at, problem))
        })
        .collect();
    for (first, at, problem) in problems {
        for index in [first, at] {
            if let Some(row) = rows.get_mut(index) {
                row.outcome = Outcome::failed(problem.clone());
            }
        }
    }
}

/// What of the answer a call of `options` reads its value from: a feed's parser's reading, or the
/// `_path` the node resolved (the whole answer when empty).
pub(super) fn reading(
    ois: &Value,
    options: &RequestOptions,
    reserved: &serde_json::Map<String, Value>,
) -> Option<String> {
    let name = options.parameters.get(crate::ois::feeds::NAME_PARAMETER);
    if let Ok(Some(name)) = crate::ois::feeds::asked(ois, &options.endpoint, name) {
        let tables = crate::ois::feeds::read(ois).ok()??;
        let feed = tables.feeds.into_iter().find(|feed| feed.name == name)?;
        return Some(feed.reading().unwrap_or_else(|| "its parser".to_owned()));
    }
    let path = reserved.get("_path").map(crate::js::string).unwrap_or_default();
    let endpoint = ois
        .get("endpoints")?
        .as_array()?
        .iter()
        .find(|e| e.get("name").and_then(Value::as_str) == Some(&options.endpoint))?;
    let processed = ["postProcessingSpecificationV2", "postProcessingSpecifications"].iter().any(|key| {
        endpoint.get(key).is_some_and(|spec| !spec.is_null() && spec.as_array().is_none_or(|list| !list.is_empty()))
    });
    Some(match (processed, path.is_empty()) {
        (false, true) => "the whole answer".to_owned(),
        (false, false) => path,
        (true, true) => "the post-processed answer".to_owned(),
        (true, false) => format!("{path} of the post-processed answer"),
    })
}
