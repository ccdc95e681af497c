//! `ois convert --update`: bring an OIS that was generated and then refined by hand up to date
//! with a changed API, keeping the refinements.
//!
//! A three-way merge of OIS objects: *base* is what the converter generated last time (kept in
//! the sidecar [`record`], or generated again from `--base`), *ours* is the OIS as the user refined
//! it, *theirs* is what the converter generates from the new document with the same options. An
//! API operation is known by (method, path), an endpoint by its operation and then its name, a
//! parameter by (in, name). The title, the `oisFormat` and every endpoint's name are always the
//! user's: endpoint IDs are derived from them, and must not change because the API did.

mod file;
mod keys;
mod merge;
pub mod record;
mod renames;
mod tidy;

pub use file::{Update, UpdateOptions, render_like, update};

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::diagnostic::{Code, Diagnostic};
use keys::{
    Operation, endpoint_parameter_key, endpoints, fixed_key, index_by, located_key, name_of, operation_of, operations,
    reserved_key, unique_name,
};
use merge::{Mode, Notes, Place};
use renames::{find_moves, move_parameters};
use tidy::tidy_mappings;

/// An endpoint's fate in an update.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Fate {
    /// It was in the OIS and still is.
    Kept,
    /// The API has a new operation, and this is its endpoint.
    Added,
    /// Its operation is gone from the API, and so is it (and its endpoint ID).
    Removed,
}

/// One endpoint of the update, with the ID the node derives from (title, name).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct EndpointChange {
    /// The endpoint's name.
    pub name: String,
    /// The ID the node derives from the OIS title and the name.
    #[serde(rename = "endpointId")]
    pub endpoint_id: String,
    /// What the update did to it.
    pub fate: Fate,
}

/// The merged OIS, what happened to each endpoint, and what the merge says (conflicts, removals,
/// additions).
#[derive(Clone, Debug)]
pub struct Merged {
    /// The updated OIS.
    pub ois: Value,
    /// Every endpoint: kept, added or removed.
    pub endpoints: Vec<EndpointChange>,
    /// Conflicts, removals, additions, moves.
    pub diagnostics: Vec<Diagnostic>,
}

/// Merges `ours` with what the converter makes of the API now (`theirs`), given what it made of
/// the API last time (`base`; `None` for a two-way merge that keeps everything `ours` has).
pub fn merge(base: Option<&Value>, ours: &Value, theirs: &Value) -> Merged {
    let mode = if base.is_some() { Mode::ThreeWay } else { Mode::TwoWay };
    let mut notes = Notes::default();
    // Each side's operations, worked out once: moves, removed operations and mappings use them.
    let now = operations(theirs);
    let before = base.map(operations);
    // Moved parameters are moved in base and ours first (copies made only when one moved).
    let moves = before.as_ref().map(|before| find_moves(before, &now, &mut notes)).unwrap_or_default();
    let (base, ours, before): (Option<Cow<'_, Value>>, Cow<'_, Value>, _) = if moves.is_empty() {
        (base.map(Cow::Borrowed), Cow::Borrowed(ours), before)
    } else {
        let moved = |value: &Value| {
            let mut value = value.clone();
            move_parameters(&mut value, &moves);
            Cow::Owned(value)
        };
        let base = base.map(moved);
        let before = base.as_deref().map(operations);
        (base, moved(ours), before)
    };
    let base = base.as_deref();
    let ours = ours.as_ref();
    let title = ours.get("title").and_then(Value::as_str).unwrap_or_default().to_owned();

    // Moving parameters changes no operation's (method, path).
    let removed_operations: HashSet<Operation> =
        before.iter().flat_map(HashMap::keys).filter(|operation| !now.contains_key(*operation)).cloned().collect();

    let (Some(ours_map), Some(theirs_map)) = (ours.as_object(), theirs.as_object()) else {
        return Merged { ois: ours.clone(), endpoints: Vec::new(), diagnostics: notes.diagnostics };
    };
    let base_map = base.and_then(Value::as_object);
    let (merged_endpoints, changes) = merge_endpoints(base, ours, theirs, &removed_operations, mode, &mut notes);
    let merged_endpoints = std::cell::RefCell::new(Some(merged_endpoints));
    let special =
        |key: &str, b: Option<&Value>, o: Option<&Value>, t: Option<&Value>, at: &Place, notes: &mut Notes| {
            match key {
                // Endpoint IDs are derived from the title: it is the user's, whatever the API says.
                "title" | "oisFormat" => Some(o.or(b).cloned()),
                "endpoints" => Some(merged_endpoints.borrow_mut().take().map(Value::Array)),
                "apiSpecifications" => Some(Some(api_specifications(b, o, t, mode, at, &removed_operations, notes))),
                _ => None,
            }
        };
    let mut merged =
        Value::Object(merge::object(base_map, ours_map, theirs_map, mode, &Place::root(), &mut notes, &special));
    tidy_mappings(&mut merged, &before.unwrap_or_default(), &now, ours, theirs, &mut notes);
    let endpoints = changes
        .into_iter()
        .map(|(name, fate)| EndpointChange { endpoint_id: crate::node::endpoint_id(&title, &name), name, fate })
        .collect::<Vec<_>>();
    for change in &endpoints {
        match change.fate {
            Fate::Added => notes.diagnostics.push(Diagnostic::new(
                Code::EndpointAdded,
                "/endpoints",
                format!("endpoint \"{}\" ({}) was added for a new API operation", change.name, change.endpoint_id),
            )),
            Fate::Removed => notes.diagnostics.push(
                Diagnostic::new(
                    Code::EndpointRemoved,
                    "/endpoints",
                    format!(
                        "endpoint \"{}\" was removed: the API no longer has its operation. Its endpoint ID {} is gone; Airnode Feed templates and triggers that name it break",
                        change.name, change.endpoint_id
                    ),
                )
                .with_help("remove the templates, beacons and triggers that use it from the node's config"),
            ),
            Fate::Kept => {}
        }
    }
    if mode == Mode::TwoWay {
        notes.diagnostics.insert(
            0,
            Diagnostic::new(
                Code::UpdateNoBase,
                "",
                "no record of what the converter generated last time: a two-way merge, which keeps everything in the OIS and adds what only the API has (nothing is removed, and no API change to what the OIS has is taken)",
            )
            .with_fix(crate::diagnostic::Fix::GiveBase),
        );
    }
    Merged { ois: merged, endpoints, diagnostics: notes.diagnostics }
}

/// `apiSpecifications`: servers and security as values, schemes by name, operations by (path,
/// method) with their parameters by (in, name); an operation the API removed goes.
fn api_specifications(
    base: Option<&Value>,
    ours: Option<&Value>,
    theirs: Option<&Value>,
    mode: Mode,
    place: &Place,
    removed: &HashSet<Operation>,
    notes: &mut Notes,
) -> Value {
    let (Some(Value::Object(o)), Some(Value::Object(t))) = (ours, theirs) else {
        return ours.cloned().unwrap_or(Value::Null);
    };
    let b = base.and_then(Value::as_object);
    let special = |key: &str,
                   b: Option<&Value>,
                   o: Option<&Value>,
                   t: Option<&Value>,
                   at: &Place,
                   notes: &mut Notes|
     -> Option<Option<Value>> {
        if key != "paths" {
            return None;
        }
        let (Some(Value::Object(o)), Some(Value::Object(t))) = (o, t) else { return Some(o.cloned()) };
        let mut paths = Map::new();
        let keys = merge::ordered_keys(o.keys().map(String::as_str), t.keys().map(String::as_str));
        let base_paths = b.and_then(Value::as_object);
        for path in keys {
            let (bp, op, tp) = (base_paths.and_then(|m| m.get(path)), o.get(path), t.get(path));
            let path_at = at.key(path);
            let mut methods = Map::new();
            let empty = Map::new();
            let om = op.and_then(Value::as_object).unwrap_or(&empty);
            let tm = tp.and_then(Value::as_object).unwrap_or(&empty);
            for method in merge::ordered_keys(om.keys().map(String::as_str), tm.keys().map(String::as_str)) {
                let (bo, oo, to) = (bp.and_then(|m| m.get(method)), om.get(method), tm.get(method));
                if removed.contains(&(method.to_owned(), path.to_owned())) {
                    continue;
                }
                let merged = match (oo, to) {
                    (Some(oo), Some(to)) => Some(operation(bo, oo, to, mode, &path_at.key(method), notes)),
                    (Some(oo), None) => Some(oo.clone()),
                    // New in the API, unless the user deleted it.
                    (None, Some(to)) if mode == Mode::TwoWay || bo.is_none() => Some(to.clone()),
                    _ => None,
                };
                if let Some(merged) = merged {
                    methods.insert(method.to_owned(), merged);
                }
            }
            if !methods.is_empty() || (op.is_some() && tp.is_none() && bp.is_none()) {
                paths.insert(path.to_owned(), Value::Object(methods));
            }
        }
        Some(Some(Value::Object(paths)))
    };
    let merged = merge::object(b, o, t, mode, place, notes, &special);
    Value::Object(merged)
}

/// An API operation: its parameters by (in, name).
fn operation(
    base: Option<&Value>,
    ours: &Value,
    theirs: &Value,
    mode: Mode,
    place: &Place,
    notes: &mut Notes,
) -> Value {
    let special =
        |key: &str, b: Option<&Value>, o: Option<&Value>, t: Option<&Value>, at: &Place, notes: &mut Notes| {
            if key != "parameters" {
                return None;
            }
            let (Some(Value::Array(o)), Some(Value::Array(t))) = (o, t) else { return Some(o.cloned()) };
            Some(Some(Value::Array(merge::list(b, o, t, &located_key, mode, at, notes))))
        };
    match (base.and_then(Value::as_object), ours.as_object(), theirs.as_object()) {
        (b, Some(o), Some(t)) => Value::Object(merge::object(b, o, t, mode, place, notes, &special)),
        _ => ours.clone(),
    }
}

/// The endpoints, matched across the three sides and merged, in ours' order with new ones where
/// theirs has them; and each endpoint's name and fate.
fn merge_endpoints(
    base: Option<&Value>,
    ours: &Value,
    theirs: &Value,
    removed: &HashSet<Operation>,
    mode: Mode,
    notes: &mut Notes,
) -> (Vec<Value>, Vec<(String, Fate)>) {
    let (base_list, our_list, their_list) = (base.map_or(&[][..], endpoints), endpoints(ours), endpoints(theirs));
    // base ↔ ours: by name with the same operation, else a renamed one of the same operation.
    let base_names: HashSet<&str> = base_list.iter().filter_map(name_of).collect();
    let by_name = index_by(our_list, |e| name_of(e).map(str::to_owned));
    let by_operation = index_by(our_list, operation_of);
    let mut ours_of_base: HashMap<usize, usize> = HashMap::new();
    let mut taken: HashSet<usize> = HashSet::new();
    for (bi, b) in base_list.iter().enumerate() {
        let candidates = name_of(b).and_then(|name| by_name.get(name)).map_or(&[][..], Vec::as_slice);
        let found = candidates.iter().copied().find(|oi| {
            let o = our_list.get(*oi);
            !taken.contains(oi) && o.is_some_and(|o| operation_of(o) == operation_of(b) || operation_of(o).is_none())
        });
        if let Some(oi) = found {
            taken.insert(oi);
            ours_of_base.insert(bi, oi);
        }
    }
    for (bi, b) in base_list.iter().enumerate() {
        let Some(operation) = operation_of(b).filter(|_| !ours_of_base.contains_key(&bi)) else { continue };
        let candidates = by_operation.get(&operation).map_or(&[][..], Vec::as_slice);
        let found = candidates.iter().copied().find(|oi| {
            !taken.contains(oi) && our_list.get(*oi).and_then(name_of).is_none_or(|n| !base_names.contains(n))
        });
        if let Some(oi) = found {
            taken.insert(oi);
            ours_of_base.insert(bi, oi);
        }
    }
    // base ↔ theirs (and, without a base, ours ↔ theirs): by operation, then by name.
    let pair = |left: &[Value], right: &[Value]| -> HashMap<usize, usize> {
        let (by_operation, by_name) =
            (index_by(right, operation_of), index_by(right, |e| name_of(e).map(str::to_owned)));
        let mut used = HashSet::new();
        let mut pairs = HashMap::new();
        for (li, l) in left.iter().enumerate() {
            let candidates = match operation_of(l) {
                Some(operation) => by_operation.get(&operation),
                None => name_of(l).and_then(|name| by_name.get(name)),
            };
            let found = candidates.into_iter().flatten().copied().find(|ri| {
                !used.contains(ri)
                    && (operation_of(l).is_some() || right.get(*ri).is_some_and(|r| operation_of(r).is_none()))
            });
            if let Some(ri) = found {
                used.insert(ri);
                pairs.insert(li, ri);
            }
        }
        pairs
    };
    let theirs_of_base = pair(base_list, their_list);
    let mut theirs_of_ours: HashMap<usize, usize> = match mode {
        Mode::ThreeWay => {
            ours_of_base.iter().filter_map(|(bi, oi)| theirs_of_base.get(bi).map(|ti| (*oi, *ti))).collect()
        }
        Mode::TwoWay => pair(our_list, their_list),
    };
    let base_of_ours: HashMap<usize, usize> = ours_of_base.iter().map(|(bi, oi)| (*oi, *bi)).collect();
    if mode == Mode::ThreeWay {
        // An endpoint the base does not know, on an operation the API has an endpoint for that the
        // base does not know either: added on both sides (a record older than the OIS, or from
        // another document), so one endpoint, not a second one beside it.
        let claimed: HashSet<usize> = theirs_of_base.values().copied().collect();
        let unknown_ours: Vec<Value> = our_list
            .iter()
            .enumerate()
            .map(|(oi, o)| if base_of_ours.contains_key(&oi) { Value::Null } else { o.clone() })
            .collect();
        let unknown_theirs: Vec<Value> = their_list
            .iter()
            .enumerate()
            .map(|(ti, t)| if claimed.contains(&ti) { Value::Null } else { t.clone() })
            .collect();
        for (oi, ti) in pair(&unknown_ours, &unknown_theirs) {
            if !unknown_ours.get(oi).is_some_and(Value::is_null) && !unknown_theirs.get(ti).is_some_and(Value::is_null)
            {
                theirs_of_ours.insert(oi, ti);
            }
        }
    }

    let mut merged: Vec<(Option<usize>, Value)> = Vec::new();
    let mut fates = Vec::new();
    let mut names: HashSet<String> = our_list.iter().filter_map(name_of).map(str::to_owned).collect();
    for (oi, o) in our_list.iter().enumerate() {
        let name = name_of(o).unwrap_or_default().to_owned();
        if operation_of(o).is_some_and(|op| removed.contains(&op)) {
            fates.push((name, Fate::Removed));
            continue;
        }
        let their_index = theirs_of_ours.get(&oi).copied();
        let t = their_index.and_then(|ti| their_list.get(ti));
        let b = base_of_ours.get(&oi).and_then(|&bi| base_list.get(bi));
        let place = Place::root().key("endpoints").indexes(oi, their_index);
        let value = match t {
            Some(t) => endpoint(b, o, t, mode, &place, notes),
            None => o.clone(),
        };
        merged.push((their_index, value));
        fates.push((name, Fate::Kept));
    }
    // New operations' endpoints, where theirs has them.
    let claimed: HashSet<usize> = theirs_of_base.values().chain(theirs_of_ours.values()).copied().collect();
    let mut present: HashSet<usize> = merged.iter().filter_map(|(ti, _)| *ti).collect();
    let mut additions = Vec::new();
    let mut previous: Option<usize> = None;
    for (ti, t) in their_list.iter().enumerate() {
        if !claimed.contains(&ti) {
            let mut endpoint = t.clone();
            let name = unique_name(name_of(t).unwrap_or("endpoint"), &names);
            names.insert(name.clone());
            if let Some(map) = endpoint.as_object_mut() {
                map.insert("name".to_owned(), Value::String(name.clone()));
            }
            present.insert(ti);
            additions.push((previous, ti, endpoint));
            fates.push((name, Fate::Added));
        }
        if present.contains(&ti) {
            previous = Some(ti);
        }
    }
    (merge::interleave(merged, additions), fates)
}

/// One endpoint three ways: its name and operation are ours; its lists by identity.
fn endpoint(base: Option<&Value>, ours: &Value, theirs: &Value, mode: Mode, place: &Place, notes: &mut Notes) -> Value {
    let (Some(o), Some(t)) = (ours.as_object(), theirs.as_object()) else { return ours.clone() };
    let b = base.and_then(Value::as_object);
    // The API parameters this endpoint fixes: a new one is not also made a requester parameter.
    let fixed: HashSet<String> = ours
        .get("fixedOperationParameters")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(fixed_key)
        .collect();
    let special = |key: &str,
                   b: Option<&Value>,
                   o: Option<&Value>,
                   t: Option<&Value>,
                   at: &Place,
                   notes: &mut Notes|
     -> Option<Option<Value>> {
        let identify: &dyn Fn(&Value) -> Option<String> = match key {
            "name" | "operation" => return Some(o.cloned()),
            "parameters" => &endpoint_parameter_key,
            "fixedOperationParameters" => &fixed_key,
            "reservedParameters" => &reserved_key,
            _ => return None,
        };
        let (Some(Value::Array(o)), Some(Value::Array(t))) = (o, t) else { return Some(o.cloned()) };
        let t: Cow<'_, [Value]> = if key == "parameters" {
            t.iter().filter(|p| endpoint_parameter_key(p).is_none_or(|k| !fixed.contains(&k))).cloned().collect()
        } else {
            Cow::Borrowed(t)
        };
        Some(Some(Value::Array(merge::list(b, o, &t, identify, mode, at, notes))))
    };
    Value::Object(merge::object(b, o, t, mode, place, notes, &special))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// What the converter would generate: one GET endpoint per (path, parameters).
    fn generated(title: &str, operations: &[(&str, &[(&str, &str)])]) -> Value {
        let mut paths = Map::new();
        let mut endpoints = Vec::new();
        for (path, parameters) in operations {
            let listed: Vec<Value> =
                parameters.iter().map(|(place, name)| json!({"in": place, "name": name})).collect();
            paths.insert((*path).to_owned(), json!({"get": {"parameters": listed}}));
            let name = path.trim_start_matches('/').replace('/', "_");
            let mapped: Vec<Value> = parameters
                .iter()
                .map(|(place, name)| json!({"name": name, "operationParameter": {"in": place, "name": name}}))
                .collect();
            endpoints.push(json!({
                "name": name, "operation": {"method": "get", "path": path},
                "fixedOperationParameters": [], "reservedParameters": [{"name": "_type"}, {"name": "_path"}],
                "parameters": mapped
            }));
        }
        json!({"oisFormat": "3.0.0", "title": title, "version": "1.0.0",
            "apiSpecifications": {"servers": [{"url": "https://a.example"}], "paths": paths,
                "components": {"securitySchemes": {}}, "security": {}},
            "endpoints": endpoints})
    }

    fn fates(merged: &Merged) -> Vec<(&str, Fate)> {
        merged.endpoints.iter().map(|e| (e.name.as_str(), e.fate)).collect()
    }

    fn codes(merged: &Merged) -> Vec<Code> {
        merged.diagnostics.iter().map(|d| d.code).collect()
    }

    #[test]
    fn nothing_changed_on_any_side_is_the_same_ois_and_says_nothing() {
        let ois = generated("A", &[("/rates", &[("query", "base")])]);
        let merged = merge(Some(&ois), &ois, &ois);
        assert_eq!(merged.ois, ois);
        assert!(merged.diagnostics.is_empty(), "{:?}", merged.diagnostics);
        assert_eq!(fates(&merged), [("rates", Fate::Kept)]);
        assert_eq!(merged.endpoints[0].endpoint_id, crate::node::endpoint_id("A", "rates"));
    }

    #[test]
    fn a_refinement_survives_an_api_change_beside_it() {
        let base = generated("A", &[("/rates", &[("query", "base")])]);
        let mut ours = base.clone();
        ours["endpoints"][0]["name"] = json!("feed");
        ours["endpoints"][0]["reservedParameters"][0]["fixed"] = json!("int256");
        let theirs = generated("A", &[("/rates", &[("query", "base"), ("query", "target")])]);
        let merged = merge(Some(&base), &ours, &theirs);
        let endpoint = &merged.ois["endpoints"][0];
        assert_eq!(
            (endpoint["name"].as_str(), &endpoint["reservedParameters"][0]["fixed"]),
            (Some("feed"), &json!("int256"))
        );
        let names: Vec<&str> =
            endpoint["parameters"].as_array().unwrap().iter().filter_map(|p| p["name"].as_str()).collect();
        assert_eq!(names, ["base", "target"]);
        assert_eq!(merged.ois["apiSpecifications"]["paths"]["/rates"], theirs["apiSpecifications"]["paths"]["/rates"]);
    }

    #[test]
    fn an_operation_the_api_removed_takes_its_endpoint_and_one_it_added_brings_one() {
        let base = generated("A", &[("/old", &[]), ("/kept", &[])]);
        let theirs = generated("A", &[("/kept", &[]), ("/new", &[])]);
        let merged = merge(Some(&base), &base, &theirs);
        assert_eq!(fates(&merged), [("old", Fate::Removed), ("kept", Fate::Kept), ("new", Fate::Added)]);
        assert!(codes(&merged).contains(&Code::EndpointRemoved) && codes(&merged).contains(&Code::EndpointAdded));
        assert!(merged.ois["apiSpecifications"]["paths"].get("/old").is_none());
    }

    #[test]
    fn without_a_base_nothing_is_removed_and_the_merge_says_so_first() {
        let ours = generated("A", &[("/old", &[])]);
        let theirs = generated("A", &[("/new", &[])]);
        let merged = merge(None, &ours, &theirs);
        assert_eq!(codes(&merged).first(), Some(&Code::UpdateNoBase));
        assert_eq!(fates(&merged), [("old", Fate::Kept), ("new", Fate::Added)]);
    }

    #[test]
    fn the_title_and_format_are_the_user_s_whatever_the_api_says() {
        let base = generated("A", &[("/rates", &[])]);
        let mut ours = base.clone();
        ours["title"] = json!("Mine");
        let mut theirs = generated("Renamed upstream", &[("/rates", &[])]);
        theirs["oisFormat"] = json!("2.3.2");
        let merged = merge(Some(&base), &ours, &theirs);
        assert_eq!((merged.ois["title"].as_str(), merged.ois["oisFormat"].as_str()), (Some("Mine"), Some("3.0.0")));
        assert_eq!(merged.endpoints[0].endpoint_id, crate::node::endpoint_id("Mine", "rates"));
    }

    #[test]
    fn a_parameter_the_api_moved_keeps_what_the_user_fixed_of_it() {
        let base = generated("A", &[("/rates", &[("query", "key")])]);
        let mut ours = base.clone();
        let endpoint = &mut ours["endpoints"][0];
        endpoint["parameters"] = json!([]);
        endpoint["fixedOperationParameters"] =
            json!([{"operationParameter": {"in": "query", "name": "key"}, "value": "v"}]);
        let theirs = generated("A", &[("/rates", &[("header", "key")])]);
        let merged = merge(Some(&base), &ours, &theirs);
        let fixed = &merged.ois["endpoints"][0]["fixedOperationParameters"][0];
        assert_eq!((&fixed["operationParameter"]["in"], &fixed["value"]), (&json!("header"), &json!("v")));
        assert!(merged.ois["endpoints"][0]["parameters"].as_array().unwrap().is_empty());
    }

    #[test]
    fn an_operation_a_stale_base_lacks_but_both_sides_have_is_one_endpoint() {
        // A record from an older document (or another one) knows nothing of /rates.
        let stale = generated("A", &[("/other", &[])]);
        let mut ours = generated("A", &[("/rates", &[("query", "base")])]);
        ours["endpoints"][0]["name"] = json!("feed");
        let theirs = generated("A", &[("/rates", &[("query", "base"), ("query", "symbols")])]);
        let merged = merge(Some(&stale), &ours, &theirs);
        assert_eq!(fates(&merged), [("feed", Fate::Kept)], "{:?}", merged.diagnostics);
        let names: Vec<&str> = merged.ois["endpoints"][0]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p["name"].as_str())
            .collect();
        assert_eq!(names, ["base", "symbols"]);
    }

    #[test]
    fn a_name_taken_gets_the_converter_s_suffix() {
        let names: HashSet<String> = ["rates", "rates2"].map(str::to_owned).into_iter().collect();
        assert_eq!(unique_name("rates", &names), "rates3");
        assert_eq!(unique_name("other", &names), "other");
    }

    #[test]
    fn what_is_not_an_object_is_kept_as_the_user_has_it() {
        let merged = merge(None, &json!([1]), &generated("A", &[]));
        assert_eq!(merged.ois, json!([1]));
        assert!(merged.endpoints.is_empty());
    }
}
