//! `ois convert --update`: the merge law as a property over generated APIs and edits, scenarios
//! (a refinement × an API change) with golden files under `samples/update/`, the real
//! hand-written OIS files updated with their API's document, and the command line (`--check`,
//! `--diff`, `-o`, a config.json, idempotence, the record).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use assert_cmd::Command;
use proptest::prelude::*;
use serde_json::{Value, json};

use ois::update::{Fate, Merged, merge};
use ois::{ConvertOptions, convert_value};

fn generate(document: &Value) -> Value {
    convert_value(document, &ConvertOptions::default()).expect("converts").ois
}

fn pointer_escape(text: &str) -> String {
    text.replace('~', "~0").replace('/', "~1")
}

/// The endpoint of the operation at `path` (get or post).
fn endpoint_of<'v>(ois: &'v mut Value, path: &str) -> Option<&'v mut Value> {
    ois["endpoints"].as_array_mut().unwrap().iter_mut().find(|e| e["operation"]["path"] == path)
}

// ---------------------------------------------------------------------------------------------
// Refinements and API changes, by operation path, so that the same edit applies to any version.

#[derive(Clone, Debug)]
enum Refinement {
    Rename(String),
    Fix(String),
    ReservedType,
    Processing,
    DeleteEndpoint,
    Describe,
    RequireNot(String),
    DeleteParameter(String),
    RenameParameter(String),
}

impl Refinement {
    fn apply(&self, ois: &mut Value, path: &str) {
        if let Refinement::DeleteParameter(name) = self {
            let pointer = format!("/apiSpecifications/paths/{}", pointer_escape(path));
            for (_, operation) in ois.pointer_mut(&pointer).unwrap().as_object_mut().unwrap() {
                operation["parameters"].as_array_mut().unwrap().retain(|p| p["name"] != name.as_str());
            }
        }
        if let Refinement::DeleteEndpoint = self {
            ois["endpoints"].as_array_mut().unwrap().retain(|e| e["operation"]["path"] != path);
            return;
        }
        let endpoint = endpoint_of(ois, path).unwrap();
        match self {
            Refinement::Rename(name) => endpoint["name"] = json!(name),
            Refinement::Fix(name) => {
                let parameters = endpoint["parameters"].as_array_mut().unwrap();
                let at = parameters.iter().position(|p| p["operationParameter"]["name"] == name.as_str()).unwrap();
                let parameter = parameters.remove(at);
                endpoint["fixedOperationParameters"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"operationParameter": parameter["operationParameter"], "value": "pinned"}));
            }
            Refinement::ReservedType => {
                endpoint["reservedParameters"][0] = json!({"name": "_type", "fixed": "int256"});
                endpoint["reservedParameters"][1] = json!({"name": "_path", "fixed": "data.price"});
                endpoint["reservedParameters"][2] = json!({"name": "_times", "fixed": "1000000"});
            }
            Refinement::Processing => {
                endpoint["postProcessingSpecificationV2"] = json!({
                    "environment": "Node", "timeoutMs": 5000,
                    "value": "async ({response}) => ({response: response.data})"
                });
            }
            Refinement::Describe => endpoint["description"] = json!("What the user wrote"),
            Refinement::RequireNot(name) => {
                let parameter = endpoint["parameters"]
                    .as_array_mut()
                    .unwrap()
                    .iter_mut()
                    .find(|p| p["operationParameter"]["name"] == name.as_str())
                    .unwrap();
                parameter["required"] = json!(false);
                parameter["default"] = json!("usd");
            }
            Refinement::DeleteParameter(name) => endpoint["parameters"]
                .as_array_mut()
                .unwrap()
                .retain(|p| p["operationParameter"]["name"] != name.as_str()),
            Refinement::RenameParameter(name) => {
                let parameter = endpoint["parameters"]
                    .as_array_mut()
                    .unwrap()
                    .iter_mut()
                    .find(|p| p["operationParameter"]["name"] == name.as_str())
                    .unwrap();
                parameter["name"] = json!(format!("{name}Renamed"));
            }
            Refinement::DeleteEndpoint => unreachable!(),
        }
    }
}

#[derive(Clone, Debug)]
enum Change {
    AddOperation(String),
    RemoveOperation,
    AddParameter(String),
    RemoveParameter(String),
    MoveParameter(String),
    Summary,
}

impl Change {
    fn apply(&self, document: &mut Value, path: &str) {
        let paths = document["paths"].as_object_mut().unwrap();
        match self {
            Change::AddOperation(new) => {
                paths.insert(
                    new.clone(),
                    json!({"get": {"operationId": new.trim_start_matches('/').replace('/', "_"), "responses": {"200": {"description": "ok"}}}}),
                );
            }
            Change::RemoveOperation => {
                paths.shift_remove(path);
            }
            other => {
                let operation = paths[path].as_object_mut().unwrap().values_mut().next().unwrap();
                let parameters = operation["parameters"].as_array_mut();
                match (other, parameters) {
                    (Change::AddParameter(name), Some(list)) => {
                        list.push(json!({"name": name, "in": "query", "schema": {"type": "string"}}))
                    }
                    (Change::RemoveParameter(name), Some(list)) => list.retain(|p| p["name"] != name.as_str()),
                    (Change::MoveParameter(name), Some(list)) => {
                        for parameter in list.iter_mut().filter(|p| p["name"] == name.as_str()) {
                            parameter["in"] = json!("header");
                        }
                    }
                    (Change::Summary, _) => operation["summary"] = json!("A new summary from the API"),
                    _ => {}
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The law, over generated APIs.

/// An API of `operations`: each a path `/opN` with query parameters `pN_0`… (GET), or a POST.
fn api(operations: &[(usize, bool)]) -> Value {
    let mut paths = serde_json::Map::new();
    for (index, (count, post)) in operations.iter().enumerate() {
        let parameters: Vec<Value> = (0..*count)
            .map(|p| json!({"name": format!("p{index}_{p}"), "in": "query", "schema": {"type": "string"}}))
            .collect();
        let method = if *post { "post" } else { "get" };
        paths.insert(
            format!("/op{index}"),
            json!({method: {"operationId": format!("op{index}"), "summary": format!("Operation {index}"), "parameters": parameters, "responses": {"200": {"description": "ok"}}}}),
        );
    }
    // One operation no edit touches, so that something is always left to convert.
    paths.insert(
        "/status".to_owned(),
        json!({"get": {"operationId": "status", "responses": {"200": {"description": "ok"}}}}),
    );
    json!({"openapi": "3.0.3", "info": {"title": "Law", "version": "1.0.0"}, "servers": [{"url": "https://api.example.com"}], "paths": paths})
}

fn refinement_strategy(parameters: usize) -> BoxedStrategy<Refinement> {
    let mut options: Vec<BoxedStrategy<Refinement>> = vec![
        Just(Refinement::ReservedType).boxed(),
        Just(Refinement::Processing).boxed(),
        Just(Refinement::DeleteEndpoint).boxed(),
        Just(Refinement::Describe).boxed(),
        "[a-z]{3,8}".prop_map(|n| Refinement::Rename(format!("mine{n}"))).boxed(),
    ];
    if parameters > 0 {
        options.push((0..parameters).prop_map(|p| Refinement::Fix(p.to_string())).boxed());
        options.push((0..parameters).prop_map(|p| Refinement::DeleteParameter(p.to_string())).boxed());
        options.push((0..parameters).prop_map(|p| Refinement::RenameParameter(p.to_string())).boxed());
    }
    proptest::strategy::Union::new(options).boxed()
}

fn change_strategy(parameters: usize) -> BoxedStrategy<Change> {
    let mut options: Vec<BoxedStrategy<Change>> = vec![
        Just(Change::RemoveOperation).boxed(),
        Just(Change::Summary).boxed(),
        Just(Change::AddOperation("/added".into())).boxed(),
        Just(Change::AddParameter("extra".into())).boxed(),
    ];
    if parameters > 0 {
        options.push((0..parameters).prop_map(|p| Change::RemoveParameter(p.to_string())).boxed());
        options.push((0..parameters).prop_map(|p| Change::MoveParameter(p.to_string())).boxed());
    }
    proptest::strategy::Union::new(options).boxed()
}

/// A parameter index in an edit becomes that operation's parameter name.
fn named(index: usize, text: &str) -> String {
    format!("p{index}_{text}")
}

fn refine_named(refinement: &Refinement, index: usize) -> Refinement {
    match refinement {
        Refinement::Fix(p) => Refinement::Fix(named(index, p)),
        Refinement::DeleteParameter(p) => Refinement::DeleteParameter(named(index, p)),
        Refinement::RenameParameter(p) => Refinement::RenameParameter(named(index, p)),
        Refinement::RequireNot(p) => Refinement::RequireNot(named(index, p)),
        other => other.clone(),
    }
}

fn change_named(change: &Change, index: usize) -> Change {
    match change {
        Change::RemoveParameter(p) => Change::RemoveParameter(named(index, p)),
        Change::MoveParameter(p) => Change::MoveParameter(named(index, p)),
        other => other.clone(),
    }
}

/// Operations (parameter count, post?), refinements of some (by operation index), API changes of
/// others.
type LawCase = (Vec<(usize, bool)>, Vec<(usize, Refinement)>, Vec<(usize, Change)>);

fn law_case() -> impl Strategy<Value = LawCase> {
    prop::collection::vec((0usize..4, any::<bool>()), 2..6).prop_flat_map(|operations| {
        let count = operations.len();
        let per_operation: Vec<BoxedStrategy<(Option<Refinement>, Option<Change>)>> = operations
            .iter()
            .map(|(parameters, _)| {
                prop_oneof![
                    Just((None, None)),
                    refinement_strategy(*parameters).prop_map(|r| (Some(r), None)),
                    change_strategy(*parameters).prop_map(|c| (None, Some(c))),
                ]
                .boxed()
            })
            .collect();
        (Just(operations), per_operation).prop_map(move |(operations, edits)| {
            let mut refinements = Vec::new();
            let mut changes = Vec::new();
            for (index, (refinement, change)) in edits.into_iter().enumerate().take(count) {
                if let Some(r) = refinement {
                    refinements.push((index, refine_named(&r, index)));
                }
                if let Some(c) = change {
                    changes.push((index, change_named(&c, index)));
                }
            }
            (operations, refinements, changes)
        })
    })
}

fn refine(ois: &mut Value, refinements: &[(usize, Refinement)]) {
    for (index, refinement) in refinements {
        refinement.apply(ois, &format!("/op{index}"));
    }
}

fn change(document: &mut Value, changes: &[(usize, Change)]) {
    for (index, change) in changes {
        change.apply(document, &format!("/op{index}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// update(R(convert(A)), A → C(A)) == R(convert(C(A))) when R and C touch different operations,
    /// and updating again with the same document changes nothing.
    #[test]
    fn refinements_and_api_changes_on_different_things_commute((operations, refinements, changes) in law_case()) {
        let old = api(&operations);
        let mut new = old.clone();
        change(&mut new, &changes);
        let mut ours = generate(&old);
        refine(&mut ours, &refinements);
        let theirs = generate(&new);
        let Merged { ois: merged, .. } = merge(Some(&generate(&old)), &ours, &theirs);
        let mut expected = theirs.clone();
        refine(&mut expected, &refinements);
        prop_assert_eq!(&merged, &expected);
        let again = merge(Some(&theirs), &merged, &theirs);
        prop_assert_eq!(&again.ois, &merged);
        prop_assert!(again.diagnostics.is_empty(), "{:?}", again.diagnostics);
    }
}

/// The same refinements made by `ois endpoint` (the library's `ois::edit`) instead of by hand;
/// `None` for one no command makes (a description, a parameter renamed).
fn by_commands(ois: &mut Value, refinements: &[(usize, Refinement)]) -> Option<()> {
    use ois::edit::{ParameterChange, Settings, Snippet};
    for (index, refinement) in refinements {
        let path = format!("/op{index}");
        let name = ois["endpoints"].as_array()?.iter().find(|e| e["operation"]["path"] == path.as_str())?["name"]
            .as_str()?
            .to_owned();
        let mut settings = Settings::default();
        let mut rename = None;
        match refinement {
            Refinement::Rename(new) => rename = Some(new.as_str()),
            Refinement::Fix(parameter) => settings.fixed.push((parameter.clone(), "pinned".to_owned())),
            Refinement::ReservedType => {
                for (reserved, value) in [("_type", "int256"), ("_path", "data.price"), ("_times", "1000000")] {
                    settings.reserved.push((reserved.to_owned(), Some(value.to_owned())));
                }
            }
            Refinement::Processing => {
                settings.post = Some(Snippet::v2("async ({response}) => ({response: response.data})"));
            }
            Refinement::RequireNot(parameter) => {
                settings.parameters.push((parameter.clone(), ParameterChange::Optional));
                settings.parameters.push((parameter.clone(), ParameterChange::Default("usd".to_owned())));
            }
            Refinement::DeleteParameter(parameter) => {
                settings.parameters.push((parameter.clone(), ParameterChange::Drop))
            }
            Refinement::DeleteEndpoint => {
                ois::edit::remove(ois, &[name]).ok()?;
                continue;
            }
            Refinement::Describe | Refinement::RenameParameter(_) => return None,
        }
        ois::edit::set(ois, &name, &settings, rename).ok()?;
    }
    Some(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// The update law with the refinements made by `ois endpoint`: they survive `--update` as hand
    /// edits do.
    #[test]
    fn refinements_made_by_the_endpoint_commands_survive_updates((operations, refinements, changes) in law_case()) {
        let old = api(&operations);
        let mut new = old.clone();
        change(&mut new, &changes);
        let mut ours = generate(&old);
        prop_assume!(by_commands(&mut ours, &refinements).is_some());
        let theirs = generate(&new);
        let Merged { ois: merged, .. } = merge(Some(&generate(&old)), &ours, &theirs);
        let mut expected = theirs.clone();
        prop_assert!(by_commands(&mut expected, &refinements).is_some());
        prop_assert_eq!(&merged, &expected);
    }
}

// ---------------------------------------------------------------------------------------------
// Scenarios, with golden files.

/// The API the scenarios start from: five operations, path, query, header and body parameters,
/// an API key.
fn scenario_api() -> Value {
    json!({
        "openapi": "3.0.3",
        "info": {"title": "Market Data", "version": "1.2.0"},
        "servers": [{"url": "https://api.market.example/v1"}],
        "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Api-Key"}}},
        "security": [{"key": []}],
        "paths": {
            "/simple/price": {"get": {
                "operationId": "simplePrice", "summary": "Prices of coins",
                "parameters": [
                    {"name": "ids", "in": "query", "required": true, "schema": {"type": "string"}, "example": "bitcoin"},
                    {"name": "vs_currencies", "in": "query", "required": true, "schema": {"type": "string"}, "example": "usd"},
                    {"name": "precision", "in": "query", "schema": {"type": "integer"}}
                ],
                "responses": {"200": {"description": "ok"}}
            }},
            "/coins/{id}": {"get": {
                "operationId": "coin", "summary": "A coin",
                "parameters": [
                    {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "localization", "in": "query", "schema": {"type": "boolean"}},
                    {"name": "X-Trace", "in": "header", "schema": {"type": "string"}}
                ],
                "responses": {"200": {"description": "ok"}}
            }},
            "/coins/{id}/history": {"get": {
                "operationId": "coinHistory", "summary": "A coin's history",
                "parameters": [
                    {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "date", "in": "query", "required": true, "schema": {"type": "string"}}
                ],
                "responses": {"200": {"description": "ok"}}
            }},
            "/orders": {"post": {
                "operationId": "createOrder", "summary": "Place an order",
                "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {
                    "symbol": {"type": "string"}, "amount": {"type": "number"}}}}}},
                "responses": {"200": {"description": "ok"}}
            }},
            "/ping": {"get": {"operationId": "ping", "summary": "Is it up", "responses": {"200": {"description": "ok"}}}}
        }
    })
}

/// One side of a scenario: a refinement of the OIS or a change of the API at a path, another
/// edit, or none.
enum Edit {
    None,
    Refine(Refinement, &'static str),
    Change(Change, &'static str),
    Other(fn(&mut Value)),
}

impl Edit {
    fn apply(&self, value: &mut Value) {
        match self {
            Edit::None => {}
            Edit::Refine(refinement, path) => refinement.apply(value, path),
            Edit::Change(change, path) => change.apply(value, path),
            Edit::Other(edit) => edit(value),
        }
    }
}

/// (name, refinement of the generated OIS, change of the API document).
fn scenarios() -> Vec<(&'static str, Edit, Edit)> {
    use Edit::{Change as C, None as Nothing, Other, Refine as R};
    let price = "/simple/price";
    let coin = "/coins/{id}";
    let rename = || R(Refinement::Rename("price".into()), price);
    let fix_currency = || R(Refinement::Fix("vs_currencies".into()), price);
    let delete_ping = || R(Refinement::DeleteEndpoint, "/ping");
    let describe = || R(Refinement::Describe, coin);
    let default_currency = || R(Refinement::RequireNot("vs_currencies".into()), price);
    let drop_precision = || R(Refinement::DeleteParameter("precision".into()), price);
    let second_endpoint = || {
        Other(|ois| {
            let mut copy = endpoint_of(ois, "/coins/{id}").unwrap().clone();
            copy["name"] = json!("bitcoin");
            copy["parameters"].as_array_mut().unwrap().retain(|p| p["operationParameter"]["name"] != "id");
            copy["fixedOperationParameters"] =
                json!([{"operationParameter": {"in": "path", "name": "id"}, "value": "bitcoin"}]);
            ois["endpoints"].as_array_mut().unwrap().push(copy);
        })
    };
    let add_parameter = || C(Change::AddParameter("include_24hr_vol".into()), price);
    let add_coin_parameter = || C(Change::AddParameter("sparkline".into()), coin);
    let remove_currency = || C(Change::RemoveParameter("vs_currencies".into()), price);
    let remove_precision = || C(Change::RemoveParameter("precision".into()), price);
    let move_localization = || C(Change::MoveParameter("localization".into()), coin);
    let move_currency = || C(Change::MoveParameter("vs_currencies".into()), price);
    let remove_ping = || C(Change::RemoveOperation, "/ping");
    let new_server = || Other(|api| api["servers"] = json!([{"url": "https://api.market.example/v2"}]));
    let new_summary = || C(Change::Summary, coin);
    vec![
        ("no-change", Nothing, Nothing),
        ("rename-x-add-operation", rename(), C(Change::AddOperation("/exchanges".into()), "")),
        ("rename-x-remove-other-operation", rename(), remove_ping()),
        ("rename-x-add-parameter", rename(), add_parameter()),
        (
            "rename-x-rename-operation-id",
            rename(),
            Other(|api| api["paths"]["/simple/price"]["get"]["operationId"] = json!("getSimplePrice")),
        ),
        ("fix-x-add-parameter", fix_currency(), add_parameter()),
        ("fix-x-remove-fixed-parameter", fix_currency(), remove_currency()),
        ("fix-x-move-fixed-parameter", fix_currency(), move_currency()),
        ("reserved-x-remove-other-parameter", R(Refinement::ReservedType, price), remove_precision()),
        ("reserved-x-new-server", R(Refinement::ReservedType, price), new_server()),
        ("processing-x-add-parameter", R(Refinement::Processing, coin), add_coin_parameter()),
        ("processing-x-move-parameter", R(Refinement::Processing, coin), move_localization()),
        ("delete-endpoint-x-remove-its-operation", delete_ping(), remove_ping()),
        ("delete-endpoint-x-change-its-summary", delete_ping(), new_summary()),
        (
            "describe-x-api-describes-too",
            describe(),
            Other(|api| api["paths"]["/coins/{id}"]["get"]["description"] = json!("What the API says now")),
        ),
        ("describe-x-new-summary", describe(), new_summary()),
        ("default-x-add-parameter", default_currency(), add_parameter()),
        ("default-x-remove-parameter", default_currency(), remove_currency()),
        ("drop-parameter-x-remove-it-too", drop_precision(), remove_precision()),
        ("drop-parameter-x-add-another", drop_precision(), add_parameter()),
        ("rename-parameter-x-move-other", R(Refinement::RenameParameter("ids".into()), price), move_currency()),
        ("second-endpoint-x-add-parameter", second_endpoint(), add_coin_parameter()),
        ("second-endpoint-x-move-parameter", second_endpoint(), move_localization()),
        ("second-endpoint-x-remove-operation", second_endpoint(), C(Change::RemoveOperation, "/coins/{id}/history")),
        (
            "own-server-x-new-server",
            Other(|ois| ois["apiSpecifications"]["servers"] = json!([{"url": "https://pro-api.market.example/v1"}])),
            new_server(),
        ),
        (
            "title-version-x-new-title",
            Other(|ois| {
                ois["title"] = json!("Market Data Pro");
                ois["version"] = json!("7.0.0");
            }),
            Other(|api| {
                api["info"]["title"] = json!("Market Data Cloud");
                api["info"]["version"] = json!("2.0.0");
            }),
        ),
        (
            "none-x-new-scheme",
            Nothing,
            Other(|api| {
                api["components"]["securitySchemes"]["key"] =
                    json!({"type": "apiKey", "in": "query", "name": "api_key"})
            }),
        ),
        ("rename-x-remove-its-operation", rename(), C(Change::RemoveOperation, price)),
    ]
}

/// What the update says, as a person reads it: each diagnostic (code, pointer, message) and each
/// endpoint's fate and ID.
fn report(merged: &Merged) -> String {
    let mut text = String::new();
    for diagnostic in &merged.diagnostics {
        text.push_str(&format!("{} {} {}\n", diagnostic.code, diagnostic.pointer(), diagnostic.message));
    }
    for endpoint in &merged.endpoints {
        let fate = match endpoint.fate {
            Fate::Kept => "kept",
            Fate::Added => "added",
            Fate::Removed => "removed",
        };
        text.push_str(&format!("{fate} {} {}\n", endpoint.endpoint_id, endpoint.name));
    }
    text
}

#[test]
fn scenarios_match_their_golden_files() {
    let list = scenarios();
    assert!(list.len() >= 25, "{} scenarios", list.len());
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/update");
    for (name, refinement, api_change) in list {
        let old = scenario_api();
        let mut new = old.clone();
        api_change.apply(&mut new);
        let base = generate(&old);
        let mut ours = base.clone();
        refinement.apply(&mut ours);
        let merged = merge(Some(&base), &ours, &generate(&new));
        let errors: Vec<_> =
            ois::check_ois(&merged.ois, None).into_iter().filter(|d| d.severity == ois::Severity::Error).collect();
        assert!(errors.is_empty(), "{name}: the merge is not a valid OIS: {errors:#?}");
        let text = serde_json::to_string_pretty(&merged.ois).unwrap() + "\n";
        expectorate::assert_contents(format!("{dir}/{name}.ois.json"), &text);
        expectorate::assert_contents(format!("{dir}/{name}.txt"), &report(&merged));
        // Endpoint IDs never change because the API did: every endpoint of ours that is kept has
        // the name it had.
        for endpoint in merged.endpoints.iter().filter(|e| e.fate == Fate::Kept) {
            assert!(
                ours["endpoints"].as_array().unwrap().iter().any(|e| e["name"] == endpoint.name.as_str()),
                "{name}: kept endpoint {} was not in the OIS",
                endpoint.name
            );
        }
        // Updating the result again with the same document changes nothing.
        let again = merge(Some(&generate(&new)), &merged.ois, &generate(&new));
        assert_eq!(again.ois, merged.ois, "{name}: not idempotent");
    }
}

// ---------------------------------------------------------------------------------------------
// The real hand-written OIS files, updated with their API's document (no base: two-way).

#[test]
fn real_examples_keep_their_names_and_refinements() {
    let shared = common::shared_dir();
    // (example, corpus document, convert options the example was evidently made with)
    let pairs: [(&str, &str, Option<&str>); 6] = [
        ("coingecko-public.json", "coingecko/demo-api.json", None),
        ("coingecko-history-preprocessing.json", "coingecko/demo-api.json", None),
        ("coingecko-pro.json", "coingecko/demo-api.json", None),
        ("coinpaprika.json", "coinpaprika/openapi.yml", None),
        ("finnhub.json", "finnhub/openapi.yaml", None),
        ("twelvedata.json", "twelvedata/openapi.yaml", None),
    ];
    let mut compared = 0;
    for (example, document, base_url) in pairs {
        let example_path = shared.join("examples/ois").join(example);
        let document_path = shared.join("corpus").join(document);
        let ours: Value = serde_json::from_str(&std::fs::read_to_string(&example_path).unwrap()).unwrap();
        let source = ois::Source::read(&document_path).unwrap();
        let mut options = ConvertOptions::default();
        options.base_url = base_url.map(str::to_owned);
        let theirs = ois::convert(&source, &options).unwrap_or_else(|f| panic!("{document}: {:?}", f.diagnostics));
        let merged = merge(None, &ours, &theirs.ois);
        for endpoint in ours["endpoints"].as_array().unwrap() {
            let name = endpoint["name"].as_str().unwrap();
            let kept = merged.ois["endpoints"].as_array().unwrap().iter().find(|e| e["name"] == name);
            let kept = kept.unwrap_or_else(|| panic!("{example}: endpoint {name} is gone"));
            for key in [
                "fixedOperationParameters",
                "reservedParameters",
                "preProcessingSpecifications",
                "postProcessingSpecifications",
                "preProcessingSpecificationV2",
                "postProcessingSpecificationV2",
            ] {
                assert_eq!(kept.get(key), endpoint.get(key), "{example}: {name}.{key} changed");
            }
        }
        assert_eq!(merged.ois["title"], ours["title"]);
        compared += 1;
    }
    assert_eq!(compared, 6);
}

// ---------------------------------------------------------------------------------------------
// The command line.

struct Files {
    dir: tempfile::TempDir,
}

impl Files {
    fn new() -> Files {
        Files { dir: tempfile::tempdir().unwrap() }
    }

    fn path(&self, name: &str) -> std::path::PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, value: &Value) -> std::path::PathBuf {
        let path = self.path(name);
        std::fs::write(&path, serde_json::to_string_pretty(value).unwrap()).unwrap();
        path
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).unwrap()
    }
}

fn ois_cmd(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::cargo_bin("ois").unwrap().env("NO_COLOR", "1").args(args).output().unwrap()
}

fn os(text: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(text)
}

#[test]
fn convert_records_and_update_keeps_refinements_then_checks_in_sync() {
    let files = Files::new();
    let old = files.write("old.json", &scenario_api());
    let out = files.path("api.ois.json");
    let converted =
        ois_cmd(&[os("convert"), old.as_os_str(), os("-o"), out.as_os_str(), os("--exclude"), os("GET /ping")]);
    assert!(converted.status.success(), "{}", String::from_utf8_lossy(&converted.stderr));
    let record: Value = serde_json::from_str(&files.read("api.ois.convert.json")).unwrap();
    assert_eq!(record["records"][0]["title"], "Market Data");
    assert_eq!(record["records"][0]["options"]["exclude"], json!(["GET /ping"]));

    // Refine by hand (4-space indent, no final newline), then the API changes.
    let mut ours: Value = serde_json::from_str(&files.read("api.ois.json")).unwrap();
    endpoint_of(&mut ours, "/simple/price").unwrap()["name"] = json!("price");
    let mut text = Vec::new();
    let mut serializer =
        serde_json::Serializer::with_formatter(&mut text, serde_json::ser::PrettyFormatter::with_indent(b"    "));
    serde::Serialize::serialize(&ours, &mut serializer).unwrap();
    std::fs::write(&out, &text).unwrap();
    let mut api = scenario_api();
    Change::AddOperation("/exchanges".into()).apply(&mut api, "");
    let new = files.write("new.json", &api);

    let check = ois_cmd(&[os("convert"), new.as_os_str(), os("--update"), out.as_os_str(), os("--check")]);
    assert_eq!(check.status.code(), Some(1), "{}", String::from_utf8_lossy(&check.stderr));
    assert!(String::from_utf8_lossy(&check.stderr).contains("CNV088"));
    let diff = ois_cmd(&[os("convert"), new.as_os_str(), os("--update"), out.as_os_str(), os("--diff")]);
    assert!(diff.status.success());
    let diff_text = String::from_utf8_lossy(&diff.stdout);
    assert!(diff_text.lines().any(|l| l.starts_with('+') && l.contains("\"name\": \"exchanges\"")), "{diff_text}");
    assert!(diff_text.starts_with("--- a/"), "{diff_text}");
    assert_eq!(files.read("api.ois.json").as_bytes(), text.as_slice(), "--check and --diff write nothing");

    let updated = ois_cmd(&[os("convert"), new.as_os_str(), os("--update"), out.as_os_str()]);
    assert!(updated.status.success(), "{}", String::from_utf8_lossy(&updated.stderr));
    let stderr = String::from_utf8_lossy(&updated.stderr);
    assert!(stderr.contains("added") && stderr.contains("exchanges") && stderr.contains("updated"), "{stderr}");
    let written = files.read("api.ois.json");
    assert!(written.starts_with("{\n    \"oisFormat\"") && !written.ends_with('\n'), "the file keeps its style");
    let result: Value = serde_json::from_str(&written).unwrap();
    assert!(result["endpoints"].as_array().unwrap().iter().any(|e| e["name"] == "price"));
    // The recorded options were used: the excluded operation did not come back as "new".
    assert!(!result["endpoints"].as_array().unwrap().iter().any(|e| e["name"] == "ping"));

    // In sync now: --check passes, and an update changes no byte.
    let check = ois_cmd(&[os("convert"), new.as_os_str(), os("--update"), out.as_os_str(), os("--check")]);
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    let again = ois_cmd(&[os("convert"), new.as_os_str(), os("--update"), out.as_os_str()]);
    assert!(again.status.success());
    assert_eq!(files.read("api.ois.json"), written);
}

#[test]
fn without_a_record_base_gives_the_three_way_merge_and_o_leaves_the_file_alone() {
    let files = Files::new();
    let old = files.write("old.json", &scenario_api());
    let mut ours = generate(&scenario_api());
    Refinement::DeleteEndpoint.apply(&mut ours, "/ping");
    let ois_file = files.write("api.ois.json", &ours);
    let before = files.read("api.ois.json");
    let mut api = scenario_api();
    Change::RemoveOperation.apply(&mut api, "/coins/{id}/history");
    let new = files.write("new.json", &api);
    let out = files.path("out.ois.json");

    // Two-way: the endpoint the user deleted comes back, nothing is removed.
    let two_way = ois_cmd(&[
        os("convert"),
        new.as_os_str(),
        os("--update"),
        ois_file.as_os_str(),
        os("-o"),
        out.as_os_str(),
        os("--force"),
        os("--report"),
        os("json"),
    ]);
    assert!(two_way.status.success(), "{}", String::from_utf8_lossy(&two_way.stderr));
    let report: Value = serde_json::from_slice(&two_way.stderr).unwrap();
    assert!(report["diagnostics"].as_array().unwrap().iter().any(|d| d["code"] == "CNV080"));
    assert_eq!(files.read("api.ois.json"), before, "-o leaves the OIS file alone");

    let three_way = ois_cmd(&[
        os("convert"),
        new.as_os_str(),
        os("--update"),
        ois_file.as_os_str(),
        os("--base"),
        old.as_os_str(),
        os("-o"),
        out.as_os_str(),
        os("--force"),
        os("--report"),
        os("json"),
    ]);
    assert!(three_way.status.success(), "{}", String::from_utf8_lossy(&three_way.stderr));
    let report: Value = serde_json::from_slice(&three_way.stderr).unwrap();
    let fates: Vec<(String, String)> = report["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap().to_owned(), e["fate"].as_str().unwrap().to_owned()))
        .collect();
    assert!(fates.contains(&("coinHistory".to_owned(), "removed".to_owned())), "{fates:?}");
    assert!(!fates.iter().any(|(name, _)| name == "ping"), "the deleted endpoint stays deleted: {fates:?}");
    let result: Value = serde_json::from_str(&files.read("out.ois.json")).unwrap();
    assert!(result["apiSpecifications"]["paths"].get("/coins/{id}/history").is_none());
}

#[test]
fn a_config_json_is_updated_in_place_of_its_titled_ois() {
    let files = Files::new();
    let old = files.write("old.json", &scenario_api());
    let mut other = generate(&scenario_api());
    other["title"] = json!("Other API");
    let config = json!({"chains": [], "ois": [other, generate(&scenario_api())], "apiCredentials": [{"oisTitle": "Market Data", "securitySchemeName": "key", "securitySchemeValue": "${KEY}"}]});
    let config_path = files.write("config.json", &config);
    let mut api = scenario_api();
    Change::AddParameter("include_24hr_vol".into()).apply(&mut api, "/simple/price");
    let new = files.write("new.json", &api);

    let ambiguous = ois_cmd(&[
        os("convert"),
        new.as_os_str(),
        os("--update"),
        config_path.as_os_str(),
        os("--base"),
        old.as_os_str(),
    ]);
    assert_eq!(ambiguous.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&ambiguous.stderr).contains("--ois TITLE"),
        "{}",
        String::from_utf8_lossy(&ambiguous.stderr)
    );

    let updated = ois_cmd(&[
        os("convert"),
        new.as_os_str(),
        os("--update"),
        config_path.as_os_str(),
        os("--base"),
        old.as_os_str(),
        os("--ois"),
        os("Market Data"),
    ]);
    assert!(updated.status.success(), "{}", String::from_utf8_lossy(&updated.stderr));
    let result: Value = serde_json::from_str(&files.read("config.json")).unwrap();
    assert_eq!(result["ois"][0], config["ois"][0], "the other OIS is untouched");
    assert_eq!(result["apiCredentials"], config["apiCredentials"]);
    assert_eq!(result["chains"], json!([]));
    let price = result["ois"][1]["endpoints"].as_array().unwrap().iter().find(|e| e["name"] == "simplePrice").unwrap();
    assert!(price["parameters"].as_array().unwrap().iter().any(|p| p["name"] == "include_24hr_vol"));
    let record: Value = serde_json::from_str(&files.read("config.convert.json")).unwrap();
    assert_eq!(record["records"][0]["title"], "Market Data");
}

#[test]
fn a_merge_that_breaks_the_ois_writes_nothing() {
    let files = Files::new();
    let old = files.write("old.json", &scenario_api());
    let mut ours = generate(&scenario_api());
    // The user maps `vs_currencies` twice (as itself and fixed under another name) …
    let endpoint = endpoint_of(&mut ours, "/simple/price").unwrap();
    endpoint["parameters"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "currency", "operationParameter": {"in": "header", "name": "vs_currencies"}}));
    let ois_file = files.write("api.ois.json", &ours);
    let before = files.read("api.ois.json");
    // … and the API moves it to the header, where the user's extra mapping now collides.
    let mut api = scenario_api();
    Change::MoveParameter("vs_currencies".into()).apply(&mut api, "/simple/price");
    let new = files.write("new.json", &api);
    let output =
        ois_cmd(&[os("convert"), new.as_os_str(), os("--update"), ois_file.as_os_str(), os("--base"), old.as_os_str()]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("CNV086") && stderr.contains("OIS023"), "{stderr}");
    assert_eq!(files.read("api.ois.json"), before);
}

#[test]
fn a_batch_writes_a_record_next_to_each_output_unless_told_not_to() {
    let files = Files::new();
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let (coins, orders) = (samples.join("coins.yaml"), samples.join("orders.json"));
    for (out, extra) in [("with", None), ("without", Some("--no-record"))] {
        let dir = files.path(out);
        let mut args = vec![os("convert"), coins.as_os_str(), orders.as_os_str(), os("-o"), dir.as_os_str()];
        args.extend(extra.map(os));
        let output = ois_cmd(&args);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let mut names: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        let expected: &[&str] = if extra.is_none() {
            &["coins.ois.convert.json", "coins.ois.json", "orders.ois.convert.json", "orders.ois.json"]
        } else {
            &["coins.ois.json", "orders.ois.json"]
        };
        assert_eq!(names, expected);
    }
    // The record is what the converter generated: updating with the same document changes nothing.
    let ois_file = files.path("with").join("coins.ois.json");
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(files.path("with").join("coins.ois.convert.json")).unwrap())
            .unwrap();
    assert_eq!(
        record["records"][0]["generated"],
        serde_json::from_str::<Value>(&std::fs::read_to_string(&ois_file).unwrap()).unwrap()
    );
    let check = ois_cmd(&[os("convert"), coins.as_os_str(), os("--update"), ois_file.as_os_str(), os("--check")]);
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
}

#[test]
fn o_dash_writes_the_ois_to_stdout_and_no_record_anywhere() {
    let files = Files::new();
    let coins = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/coins.yaml");
    let work = files.path("work");
    std::fs::create_dir(&work).unwrap();
    for dash in ["-", "/dev/stdout"] {
        let output = Command::cargo_bin("ois")
            .unwrap()
            .current_dir(&work)
            .args([os("convert"), coins.as_os_str(), os("-o"), os(dash), os("-q")])
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let ois: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(ois["title"], "Coin Prices API demo");
        let left: Vec<_> = std::fs::read_dir(&work).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(left.is_empty(), "-o {dash} left {left:?} in the working folder");
    }
}
