//! Security: OIS applies its schemes to the whole API, so the converter picks, for the whole
//! document, the smallest set of expressible schemes that satisfies every kept operation.

use std::collections::hash_map::Entry;

use indexmap::IndexMap;
use openapiv3::{APIKeyLocation, SecurityScheme as OpenApiScheme};
use serde_json::Value;

use super::shared::KeptOperation;
use crate::diagnostic::{Code, Diagnostic, Fix, Location as Place};
use crate::ois::model::{HttpScheme, Location, SecurityScheme};
use crate::openapi::Document;
use crate::pointer;

/// Above this many candidate schemes the exact search gives way to a greedy one.
const EXACT_SEARCH_LIMIT: usize = 16;

/// The schemes to emit, in the order the document defines them, and what the document says about
/// each (its `description`: a prefix the value needs, where to get a key).
pub(super) struct Plan {
    pub schemes: IndexMap<String, SecurityScheme>,
    pub descriptions: IndexMap<String, String>,
}

/// Where a scheme's credential goes: its location and name (header names compared without case,
/// as HTTP and axios's headers do).
fn slot(scheme: &SecurityScheme) -> (Location, String) {
    match scheme {
        SecurityScheme::ApiKey { location: Location::Header, name } => (Location::Header, name.to_ascii_lowercase()),
        SecurityScheme::ApiKey { location, name } => (*location, name.clone()),
        SecurityScheme::Http { .. } => (Location::Header, "authorization".to_owned()),
    }
}

/// Keeps the first of schemes that would write the same header, query or cookie name (basic and
/// bearer both write `Authorization`): the node's adapter would send only the last one's value,
/// so an operation meant for the first would get the second's credential.
pub(super) fn drop_clashes(schemes: &mut IndexMap<String, SecurityScheme>, diagnostics: &mut Vec<Diagnostic>) {
    let mut taken: std::collections::HashMap<(Location, String), String> = std::collections::HashMap::new();
    schemes.retain(|name, scheme| match taken.entry(slot(scheme)) {
        Entry::Occupied(first) => {
            let (location, key) = first.key();
            diagnostics.push(
                Diagnostic::new(
                    Code::SecurityClash,
                    pointer::join("/components/securitySchemes", [name.as_str()]),
                    format!(
                        "security scheme \"{name}\" is dropped: it writes the same {} {key:?} as \"{}\", and the node would send only one of them",
                        location.as_str(),
                        first.get()
                    ),
                )
                .with_fix(Fix::ChooseSecurity),
            );
            false
        }
        Entry::Vacant(slot) => {
            slot.insert(name.clone());
            true
        }
    });
}

/// Drops every operation parameter a kept scheme sends (an API key the document also lists as a
/// query or header parameter): the scheme sends it from the node's secrets, while a requester
/// parameter would invite putting the key into on-chain templates, and two values would clash.
/// One note per scheme, with how many operations listed it.
pub(super) fn drop_credential_parameters(
    schemes: &IndexMap<String, SecurityScheme>,
    operations: &mut [KeptOperation<'_>],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let slots: Vec<((Location, String), &String)> = schemes.iter().map(|(name, scheme)| (slot(scheme), name)).collect();
    let mut dropped: IndexMap<&String, (String, Location, usize)> = IndexMap::new();
    for operation in operations.iter_mut() {
        operation.parameters.retain(|parameter| {
            let key = match parameter.location {
                Location::Header => parameter.name.to_ascii_lowercase(),
                _ => parameter.name.clone(),
            };
            let Some((_, scheme)) =
                slots.iter().find(|((location, name), _)| *location == parameter.location && *name == key)
            else {
                return true;
            };
            dropped.entry(scheme).or_insert_with(|| (parameter.name.clone(), parameter.location, 0)).2 += 1;
            false
        });
    }
    for (scheme, (parameter, location, count)) in dropped {
        diagnostics.push(Diagnostic::new(
            Code::CredentialParameter,
            pointer::join("/components/securitySchemes", [scheme.as_str()]),
            format!(
                "{} parameter \"{parameter}\" of {count} operation(s) is the credential of security scheme \"{scheme}\": it is left to the scheme, which sends it from the node's secrets, so that no requester parameter (or on-chain template) ever carries the key",
                location.as_str()
            ),
        ));
    }
}

/// The apiKey schemes made from parameters the caller names as the API's credential (`NAME`, or
/// `LOCATION:NAME` when the name is used in more than one place), each with the parameter's
/// description: a vendor's document may list its key as a plain parameter and declare no scheme.
/// Each scheme is named after its parameter (`keyParameter` when the document has a scheme of
/// that name); [`drop_credential_parameters`] then leaves the parameter to it.
pub(super) fn parameter_schemes(
    named: &[String],
    operations: &[KeptOperation<'_>],
    plan: &mut Plan,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(), Diagnostic> {
    for asked in named {
        let (location, name) = match asked.split_once(':') {
            Some((location, name)) => match Location::parse(location) {
                Some(location) => (Some(location), name),
                None => {
                    return Err(Diagnostic::elsewhere(
                        Code::SecurityNotAvailable,
                        format!(
                            "\"{asked}\" names no parameter location: write query:NAME, header:NAME or cookie:NAME"
                        ),
                    ));
                }
            },
            None => (None, asked.as_str()),
        };
        let same_name = |parameter: &&super::shared::ApiParameter<'_>| match parameter.location {
            Location::Header => parameter.name.eq_ignore_ascii_case(name),
            _ => parameter.name == name,
        };
        let mut found: IndexMap<Location, (&super::shared::ApiParameter<'_>, usize)> = IndexMap::new();
        for parameter in operations.iter().flat_map(|o| o.parameters.iter()).filter(same_name) {
            if location.is_none_or(|l| l == parameter.location) {
                found.entry(parameter.location).or_insert((parameter, 0)).1 += 1;
            }
        }
        let (parameter, count) = match found.len() {
            1 => found.swap_remove_index(0).map(|(_, found)| found).ok_or_else(|| not_found(asked))?,
            0 => return Err(not_found(asked)),
            _ => {
                let places: Vec<String> = found.keys().map(|l| format!("{}:{name}", l.as_str())).collect();
                return Err(Diagnostic::elsewhere(
                    Code::SecurityNotAvailable,
                    format!(
                        "parameter \"{name}\" is in more than one place: say which carries the key ({})",
                        places.join(" or ")
                    ),
                ));
            }
        };
        if parameter.location == Location::Path {
            return Err(Diagnostic::elsewhere(
                Code::SecurityNotAvailable,
                format!(
                    "path parameter \"{name}\" cannot carry the API's key: OIS sends a key in the query, a header or a cookie"
                ),
            ));
        }
        let scheme = SecurityScheme::ApiKey { location: parameter.location, name: parameter.name.clone() };
        if let Some((already, _)) = plan.schemes.iter().find(|(_, s)| slot(s) == slot(&scheme)) {
            diagnostics.push(Diagnostic::elsewhere(
                Code::SecurityChoice,
                format!(
                    "{} parameter \"{name}\" is already sent by the document's security scheme \"{already}\"",
                    parameter.location.as_str()
                ),
            ));
            continue;
        }
        let scheme_name =
            if plan.schemes.contains_key(name) { format!("{name}Parameter") } else { parameter.name.clone() };
        if let Some(text) = parameter.description.map(str::trim).filter(|t| !t.is_empty()) {
            plan.descriptions.insert(scheme_name.clone(), text.to_owned());
        }
        diagnostics.push(Diagnostic::elsewhere(
            Code::SecurityChoice,
            format!(
                "security scheme \"{scheme_name}\" sends the API's key as {} parameter \"{}\" (used by {count} operation(s)), as asked",
                parameter.location.as_str(),
                parameter.name
            ),
        ));
        plan.schemes.insert(scheme_name, scheme);
    }
    Ok(())
}

fn not_found(asked: &str) -> Diagnostic {
    Diagnostic::elsewhere(
        Code::SecurityNotAvailable,
        format!(
            "\"{asked}\" was named as the API's key, but no operation converted has such a query, header or cookie parameter"
        ),
    )
}

/// A warning for each parameter left to the requester that looks like the API's credential
/// ([`looks_like_credential`](crate::ois::credential::looks_like_credential)): its value would
/// sit in every on-chain template. Never rewritten without being asked: the caller names it.
pub(super) fn credential_looking_parameters(
    schemes: &IndexMap<String, SecurityScheme>,
    operations: &[KeptOperation<'_>],
    diagnostics: &mut Vec<Diagnostic>,
) {
    // Where each parameter is, how many operations have it, and whether all of them are POSTs
    // (which send a `query` parameter as a property of the JSON body).
    let mut seen: IndexMap<(Location, &str), (Place, usize, bool)> = IndexMap::new();
    for operation in operations {
        for parameter in &operation.parameters {
            if crate::ois::credential::looks_like_credential(&parameter.name, parameter.description) {
                let entry = seen
                    .entry((parameter.location, parameter.name.as_str()))
                    .or_insert_with(|| (operation.place.clone(), 0, true));
                entry.1 += 1;
                entry.2 &= operation.method == crate::ois::model::Method::Post;
            }
        }
    }
    let sending: Vec<String> = schemes
        .iter()
        .map(|(name, scheme)| {
            let (location, slot) = slot(scheme);
            format!("\"{name}\" ({} {slot})", location.as_str())
        })
        .collect();
    for ((location, name), (at, count, posts)) in seen {
        let asked = if location == Location::Query { name.to_owned() } else { format!("{}:{name}", location.as_str()) };
        let what = if posts && location == Location::Query {
            format!("body property \"{name}\" of {count} POST operation(s)")
        } else {
            format!("{} parameter \"{name}\" of {count} operation(s)", location.as_str())
        };
        let warning = Diagnostic::new(
            Code::CredentialLookingParameter,
            &at,
            format!(
                "{what} looks like the API's key, but no security scheme sends it: as a requester parameter its value would sit in every template, on chain"
            ),
        );
        // Where a scheme already sends a key, this one is most likely that key asked again, not
        // a second credential.
        diagnostics.push(match sending.is_empty() {
            true => warning.with_fix(Fix::MakeCredential(asked)),
            false => warning.with_help(format!(
                "the key already goes by {}: if this is the same key, leave the parameter out (fix it to a harmless value, or drop it); only a second key the API asks for is a credential of its own",
                sending.join(", ")
            )),
        });
    }
}

/// The schemes to emit, in the order the document defines them. `choice`: the alternatives the
/// caller allows, in order of preference (`Some(&[])`: none, a public API); `None` chooses the
/// smallest set that serves every operation.
pub(super) fn plan(
    document: &Document<'_>,
    operations: &[KeptOperation<'_>],
    choice: Option<&[Vec<String>]>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Plan, Diagnostic> {
    let (defined, described) = defined_schemes(document, diagnostics);
    let root_security = document.root.get("security");
    // Each operation's alternatives, as indices into `defined`; `None` marks an alternative that
    // needs a scheme OIS cannot express.
    let mut needs: Vec<(usize, Vec<Vec<usize>>)> = Vec::new();
    for (index, operation) in operations.iter().enumerate() {
        let (requirement, at) = match operation.security {
            Some(own) => (own, operation.place.join(["security"])),
            None => match root_security {
                Some(root) => (root, Place::input("/security")),
                None => continue,
            },
        };
        let Some(alternatives) = requirement.as_array() else {
            continue;
        };
        if alternatives.is_empty() {
            continue;
        }
        let label = format!("{} {}", operation.method.as_str().to_uppercase(), operation.path);
        let mut usable = Vec::new();
        let mut missing = Vec::new();
        for alternative in alternatives {
            let Some(names) = alternative.as_object() else {
                continue;
            };
            let mut set = Vec::new();
            let mut ok = true;
            for name in names.keys() {
                match defined.get_full(name) {
                    Some((position, _, Some(_))) => set.push(position),
                    Some((_, _, None)) => {
                        ok = false;
                        missing.push(name.clone());
                    }
                    None => {
                        ok = false;
                        diagnostics.push(Diagnostic::new(
                            Code::SchemeUndefined,
                            &at,
                            format!("{label} requires security scheme \"{name}\", which components.securitySchemes does not define"),
                        ));
                    }
                }
            }
            if ok {
                set.sort_unstable();
                usable.push(set);
            }
        }
        if usable.is_empty() {
            missing.dedup();
            diagnostics.push(
                Diagnostic::new(
                    Code::SecurityUnmet,
                    &at,
                    format!(
                        "{label} needs {} which OIS cannot express; it is kept without authentication",
                        if missing.is_empty() {
                            "a scheme".to_owned()
                        } else {
                            format!("\"{}\"", missing.join("\", \""))
                        }
                    ),
                )
                .with_help("the API may refuse the node's requests to this operation"),
            );
            continue;
        }
        needs.push((index, usable));
    }

    let chosen = match choice {
        None => choose(&needs, defined.len()),
        Some([]) => {
            diagnostics.push(Diagnostic::elsewhere(
                Code::SecurityChoice,
                format!("no security for the whole API, as asked ({} operations declare some)", needs.len()),
            ));
            return Ok(Plan { schemes: IndexMap::new(), descriptions: IndexMap::new() });
        }
        Some(alternatives) => chosen_from(alternatives, &defined, &needs, operations, diagnostics)?,
    };
    let descriptions: IndexMap<String, String> = chosen
        .iter()
        .filter_map(|&i| defined.get_index(i))
        .filter_map(|(name, _)| Some((name.clone(), described.get(name)?.clone())))
        .collect();
    if !chosen.is_empty() {
        let names: Vec<&str> = chosen.iter().filter_map(|&i| defined.get_index(i)).map(|(n, _)| n.as_str()).collect();
        let alternatives = needs.iter().filter(|(_, alternatives)| alternatives.len() > 1).count();
        let served = needs.iter().filter(|(_, alternatives)| served_by(&chosen, alternatives).is_some()).count();
        let mut note = Diagnostic::new(
            Code::SecurityChoice,
            "/components/securitySchemes",
            format!(
                "security for the whole API: {}{} (satisfies {} operations that need authentication{})",
                names.join(" + "),
                if choice.is_some() { ", as asked" } else { "" },
                if served == needs.len() {
                    format!("all {served}")
                } else {
                    format!("{served} of the {}", needs.len())
                },
                if alternatives > 0 { format!("; {alternatives} of them offer alternatives") } else { String::new() }
            ),
        );
        if !descriptions.is_empty() {
            let said: Vec<String> = descriptions.iter().map(|(name, text)| format!("{name}: {text}")).collect();
            note = note.with_help(format!("the document says: {}", said.join("; ")));
        }
        diagnostics.push(note);
        for (operation_index, alternatives) in &needs {
            let first_satisfied = served_by(&chosen, alternatives);
            if let (Some(position), Some(operation)) = (first_satisfied, operations.get(*operation_index))
                && position > 0
            {
                diagnostics.push(Diagnostic::new(
                    Code::SecurityChoice,
                    operation.place.join(["security"]),
                    format!(
                        "{} {} uses its alternative {} (not its first) so that one set of schemes serves the whole API",
                        operation.method.as_str().to_uppercase(),
                        operation.path,
                        position + 1
                    ),
                ));
            }
        }
    }
    let schemes = defined
        .into_iter()
        .enumerate()
        .filter(|(index, _)| chosen.contains(index))
        .filter_map(|(_, (name, scheme))| Some((name, scheme?)))
        .collect();
    Ok(Plan { schemes, descriptions })
}

/// The first of the caller's `alternatives` that serves the most operations (all, ideally); the
/// operations it does not serve are reported.
fn chosen_from(
    alternatives: &[Vec<String>],
    defined: &IndexMap<String, Option<SecurityScheme>>,
    needs: &[(usize, Vec<Vec<usize>>)],
    operations: &[KeptOperation<'_>],
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Vec<usize>, Diagnostic> {
    let mut sets = Vec::new();
    for alternative in alternatives {
        let mut set = Vec::new();
        for name in alternative {
            match defined.get_full(name.as_str()) {
                Some((index, _, Some(_))) => set.push(index),
                Some((_, _, None)) => {
                    return Err(Diagnostic::elsewhere(
                        Code::SecurityNotAvailable,
                        format!("security scheme \"{name}\" was asked for, but OIS cannot express it"),
                    ));
                }
                None => {
                    let known: Vec<&str> = defined.keys().map(String::as_str).collect();
                    let known = if known.is_empty() { "none".to_owned() } else { known.join(", ") };
                    return Err(Diagnostic::elsewhere(
                        Code::SecurityNotAvailable,
                        format!("security scheme \"{name}\" was asked for, but the document defines no such scheme"),
                    )
                    .with_help(format!("the document's schemes are: {known}")));
                }
            }
        }
        set.sort_unstable();
        set.dedup();
        sets.push(set);
    }
    let count = |set: &[usize]| needs.iter().filter(|(_, alternatives)| served_by(set, alternatives).is_some()).count();
    // The first of those serving the most.
    let mut best: Option<(usize, &Vec<usize>)> = None;
    for set in &sets {
        let served = count(set);
        if best.is_none_or(|(most, _)| served > most) {
            best = Some((served, set));
        }
    }
    let chosen = best.map(|(_, set)| set.clone()).unwrap_or_default();
    for (operation_index, alternatives) in needs {
        if served_by(&chosen, alternatives).is_none()
            && let Some(operation) = operations.get(*operation_index)
        {
            diagnostics.push(
                Diagnostic::new(
                    Code::SecurityUnmet,
                    operation.place.join(["security"]),
                    format!(
                        "{} {} accepts none of the chosen schemes; it is kept without authentication",
                        operation.method.as_str().to_uppercase(),
                        operation.path
                    ),
                )
                .with_help("the API may refuse the node's requests to this operation"),
            );
        }
    }
    Ok(chosen)
}

/// Which of an operation's `alternatives` (scheme sets) the schemes in `set` serve: the first,
/// if any.
fn served_by(set: &[usize], alternatives: &[Vec<usize>]) -> Option<usize> {
    alternatives.iter().position(|alternative| alternative.iter().all(|scheme| set.contains(scheme)))
}

/// The first paragraph of a scheme's `description`, on one line and at most 300 characters.
fn description(scheme: &Value) -> Option<String> {
    let text = scheme.get("description")?.as_str()?.trim();
    let paragraph = text.split("\n\n").next().unwrap_or_default();
    let line: String = paragraph.split_whitespace().collect::<Vec<_>>().join(" ");
    let short: String = line.chars().take(300).collect();
    let short = if short.len() < line.len() { format!("{short}…") } else { short };
    (!short.is_empty()).then_some(short)
}

/// Every scheme of `components.securitySchemes`, mapped to OIS (`None`: cannot be expressed), and
/// the descriptions of those that have one.
fn defined_schemes(
    document: &Document<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (IndexMap<String, Option<SecurityScheme>>, IndexMap<String, String>) {
    let resolver = document.resolver();
    let (mut defined, mut described) = (IndexMap::new(), IndexMap::new());
    let Some(schemes) = document.root.pointer("/components/securitySchemes").and_then(Value::as_object) else {
        return (defined, described);
    };
    for (name, value) in schemes {
        let at = Place::input(pointer::join("/components/securitySchemes", [name.as_str()]));
        let scheme = match resolver.resolve(value, &at) {
            Ok(resolved) => {
                if let Some(text) = description(resolved.value) {
                    described.insert(name.clone(), text);
                }
                map_scheme(name, resolved.value, &resolved.location, diagnostics)
            }
            Err(error) => {
                diagnostics.push(error);
                None
            }
        };
        defined.insert(name.clone(), scheme);
    }
    (defined, described)
}

fn map_scheme(name: &str, value: &Value, at: &Place, diagnostics: &mut Vec<Diagnostic>) -> Option<SecurityScheme> {
    let kind = value.get("type").and_then(Value::as_str).unwrap_or("(none)");
    let dropped = |why: String| {
        Diagnostic::new(Code::SchemeDropped, at, format!("security scheme \"{name}\" is dropped: {why}"))
            .with_help("OIS can send an API key (query, header, cookie) or an http basic/bearer Authorization header")
    };
    let parsed = match serde_json::from_value::<OpenApiScheme>(value.clone()) {
        Ok(parsed) => parsed,
        Err(err) => {
            let why = match kind {
                "mutualTLS" => "mutual TLS is not something the node can do".to_owned(),
                "apiKey" => {
                    format!("it is not a valid apiKey scheme ({err}); OIS sends keys in query, header or cookie")
                }
                other => format!("type \"{other}\" is not supported ({err})"),
            };
            diagnostics.push(dropped(why));
            return None;
        }
    };
    let scheme = match parsed {
        OpenApiScheme::APIKey { location: APIKeyLocation::Header, name: key, .. }
            if !crate::ois::rules::is_http_token(&key) =>
        {
            diagnostics.push(dropped(format!(
                "its header name {key:?} is not an HTTP token, which the node's HTTP client cannot send"
            )));
            return None;
        }
        OpenApiScheme::APIKey { location, name: key, .. } => SecurityScheme::ApiKey {
            location: match location {
                APIKeyLocation::Query => Location::Query,
                APIKeyLocation::Header => Location::Header,
                APIKeyLocation::Cookie => Location::Cookie,
            },
            name: key,
        },
        OpenApiScheme::HTTP { scheme, .. } => match scheme.to_ascii_lowercase().as_str() {
            "basic" => SecurityScheme::Http { scheme: HttpScheme::Basic },
            "bearer" => SecurityScheme::Http { scheme: HttpScheme::Bearer },
            other => {
                diagnostics.push(dropped(format!("http scheme \"{other}\" is not basic or bearer")));
                return None;
            }
        },
        OpenApiScheme::OAuth2 { .. } | OpenApiScheme::OpenIDConnect { .. } => {
            diagnostics.push(
                Diagnostic::new(
                    Code::SchemeAsBearer,
                    at,
                    format!(
                        "security scheme \"{name}\" ({kind}) becomes http bearer: the node sends a token it is given"
                    ),
                )
                .with_help("obtain the access token yourself and give it to the node as this scheme's credential"),
            );
            SecurityScheme::Http { scheme: HttpScheme::Bearer }
        }
    };
    Some(scheme)
}

/// The smallest set of scheme indices that contains one alternative of every operation. Ties go to
/// the set that uses earlier-listed alternatives, then to earlier-defined schemes.
fn choose(needs: &[(usize, Vec<Vec<usize>>)], scheme_count: usize) -> Vec<usize> {
    let mut candidates: Vec<usize> = needs.iter().flat_map(|(_, alts)| alts.iter().flatten().copied()).collect();
    candidates.sort_unstable();
    candidates.dedup();
    let satisfied_by = |set: &[usize]| -> Option<Vec<usize>> {
        needs.iter().map(|(_, alternatives)| served_by(set, alternatives)).collect()
    };
    if candidates.len() <= EXACT_SEARCH_LIMIT {
        for size in 0..=candidates.len() {
            let mut best: Option<(Vec<usize>, Vec<usize>)> = None;
            for combination in combinations(&candidates, size) {
                if let Some(choice) = satisfied_by(&combination)
                    && best.as_ref().is_none_or(|(b, _)| choice < *b)
                {
                    best = Some((choice, combination));
                }
            }
            if let Some((_, set)) = best {
                return set;
            }
        }
    }
    // Greedy: every operation's first alternative.
    let mut set: Vec<usize> = needs.iter().filter_map(|(_, alts)| alts.first()).flatten().copied().collect();
    set.sort_unstable();
    set.dedup();
    set.retain(|&s| s < scheme_count);
    set
}

/// All `size`-element subsets of `items`, in lexicographic order.
fn combinations(items: &[usize], size: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(size);
    fn walk(items: &[usize], size: usize, start: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == size {
            out.push(current.clone());
            return;
        }
        for i in start..items.len() {
            if let Some(&item) = items.get(i) {
                current.push(item);
                walk(items, size, i + 1, current, out);
                current.pop();
            }
        }
    }
    walk(items, size, 0, &mut current, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openapi_3_2_scheme_fields_do_not_break_mapping() {
        let scheme =
            serde_json::json!({"type": "apiKey", "in": "header", "name": "k", "deprecated": true, "description": "d"});
        let mapped = map_scheme("k", &scheme, &"/x".into(), &mut Vec::new());
        assert_eq!(mapped, Some(SecurityScheme::ApiKey { location: Location::Header, name: "k".into() }));
        let oauth = serde_json::json!({"type": "oauth2", "flows": {"deviceAuthorization": {"deviceAuthorizationUrl": "https://x", "tokenUrl": "https://x", "scopes": {}}}, "oauth2MetadataUrl": "https://x"});
        assert_eq!(
            map_scheme("o", &oauth, &"/x".into(), &mut Vec::new()),
            Some(SecurityScheme::Http { scheme: HttpScheme::Bearer })
        );
    }

    #[test]
    fn smallest_cover_prefers_first_alternatives() {
        // op0: A or B; op1: B; → {B} (one scheme) even though op0 lists A first.
        assert_eq!(choose(&[(0, vec![vec![0], vec![1]]), (1, vec![vec![1]])], 2), vec![1]);
        // op0: A or B; op1: A or B → {A}: same size, earlier alternative.
        assert_eq!(choose(&[(0, vec![vec![0], vec![1]]), (1, vec![vec![0], vec![1]])], 2), vec![0]);
        // AND sets are kept together.
        assert_eq!(choose(&[(0, vec![vec![0, 2]]), (1, vec![vec![1], vec![2]])], 3), vec![0, 2]);
        // An optional alternative ({}) needs nothing.
        assert_eq!(choose(&[(0, vec![vec![0], vec![]])], 1), Vec::<usize>::new());
    }
}
