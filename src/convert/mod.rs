//! OpenAPI → OIS. Each stage lives in its own module: `servers` picks the one base URL,
//! `security` picks the schemes, `operations` reads paths and parameters, `body` flattens JSON
//! request bodies, `endpoints` names things, `meta` makes title and version fit, `templates`
//! escapes the `${` the node would take for secrets. What they share
//! is in `shared`; they do not import each other (but `operations` → `body`).

mod body;
mod endpoints;
mod filter;
mod given;
mod meta;
mod operations;
mod options;
mod pipeline;
mod reading;
mod security;
mod servers;
mod shared;
mod templates;

use indexmap::IndexMap;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Document as Place};
use crate::ois::model::{ApiSpecifications, Components, Method, Ois, Operation, Server};
use crate::ois::{FormatFamily, rules};
use crate::openapi::Document;
use crate::openapi::files::Files;
use crate::parallel;
use crate::source::Source;

pub use filter::Filter;
pub use given::{GivenOptions, security_choice};
pub use options::ConvertOptions;
pub use pipeline::{Positions, Rendered, convert_rendered};
pub use reading::{parse, reading};
pub use shared::Summary;
use shared::reason;

/// A finished conversion: the OIS and everything worth telling about it.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Conversion {
    /// The OIS object, checked against every OIS rule.
    pub ois: Value,
    /// What was dropped, changed or decided, in document order.
    pub diagnostics: Vec<Diagnostic>,
    /// Counts for reports.
    pub summary: Summary,
    /// The format family the OIS was written and checked for.
    pub family: FormatFamily,
    /// What the document says about each security scheme the OIS uses (its `description`, first
    /// paragraph): a prefix the value needs, where to get a key. OIS has no place for it.
    pub scheme_descriptions: IndexMap<String, String>,
}

/// A conversion that produced nothing to write; `diagnostics` has at least one error.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Failure {
    /// Every diagnostic, the errors that stopped it among them.
    pub diagnostics: Vec<Diagnostic>,
}

impl From<Diagnostic> for Failure {
    fn from(diagnostic: Diagnostic) -> Self {
        Failure { diagnostics: vec![diagnostic] }
    }
}

/// Converts the document in `source`, following its `$ref`s into other files. Diagnostics are
/// placed in the file they are about and located in its text.
pub fn convert(source: &Source, options: &ConvertOptions) -> Result<Conversion, Failure> {
    let mut root = parse(source)?;
    let files = prepare(source, &mut root, options);
    let mut result = convert_with_files(&root, options, &files);
    let notes = source.take_notes();
    match &mut result {
        Ok(conversion) => conversion.diagnostics.splice(0..0, notes),
        Err(failure) => failure.diagnostics.splice(0..0, notes),
    };
    match &mut result {
        Ok(conversion) => place(&mut conversion.diagnostics, source, &files),
        Err(failure) => place(&mut failure.diagnostics, source, &files),
    }
    result
}

/// Finds every diagnostic's line and column in the text of the document it is about.
pub(crate) fn place(diagnostics: &mut [Diagnostic], source: &Source, files: &Files) {
    for diagnostic in diagnostics {
        files.place(diagnostic, source);
    }
}

/// Converts an already parsed OpenAPI document (diagnostics carry pointers, no positions).
pub fn convert_value(root: &Value, options: &ConvertOptions) -> Result<Conversion, Failure> {
    let mut files = Files::default();
    if crate::openapi::is_swagger2(root) {
        let mut normalized = root.clone();
        as_openapi3(&mut normalized, &mut files);
        return convert_with_files(&normalized, options, &files);
    }
    convert_with_files(root, options, &files)
}

fn convert_with_files(root: &Value, options: &ConvertOptions, files: &Files) -> Result<Conversion, Failure> {
    let built = build(root, options, files)?;
    let ois = match to_value(&built.model) {
        Ok(ois) => ois,
        Err(error) => return Err(failed(built.diagnostics, vec![error])),
    };
    if let Err(failures) = self_check(&ois, built.family) {
        return Err(failed(built.diagnostics, failures));
    }
    Ok(built.into_conversion(ois))
}

pub(crate) fn failed(mut diagnostics: Vec<Diagnostic>, more: Vec<Diagnostic>) -> Failure {
    diagnostics.extend(more);
    Failure { diagnostics }
}

/// The conversion proper, before the self-check: the typed OIS and what was said about it.
pub(crate) struct Built {
    pub(crate) model: Ois,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) summary: Summary,
    pub(crate) family: FormatFamily,
    pub(crate) scheme_descriptions: IndexMap<String, String>,
}

impl Built {
    pub(crate) fn into_conversion(self, ois: Value) -> Conversion {
        Conversion {
            ois,
            diagnostics: self.diagnostics,
            summary: self.summary,
            family: self.family,
            scheme_descriptions: self.scheme_descriptions,
        }
    }
}

/// The OIS as a `Value`, the same as `serde_json::to_value(model)`; groups of endpoints are
/// serialized side by side, as thousands of endpoints take a while.
pub(crate) fn to_value(model: &Ois) -> Result<Value, Diagnostic> {
    let split = parallel::worth_splitting(model.endpoints.len(), ENDPOINTS_PER_TASK);
    let (head, endpoints) = parallel::join(
        split,
        || head(model),
        || {
            let groups = parallel::map_chunks(&model.endpoints, ENDPOINTS_PER_TASK, |group| {
                group.iter().map(serde_json::to_value).collect::<Result<Vec<Value>, _>>()
            });
            groups
                .into_iter()
                .collect::<Result<Vec<_>, _>>()
                .map(|groups| groups.into_iter().flatten().collect::<Vec<_>>())
        },
    );
    let mut ois = head?;
    ois.insert("endpoints".to_owned(), Value::Array(endpoints.map_err(unserializable)?));
    Ok(Value::Object(ois))
}

/// The OIS object with an empty `endpoints` list: the keys and order `Ois`'s `Serialize` gives (a
/// test holds the two together).
fn head(model: &Ois) -> Result<serde_json::Map<String, Value>, Diagnostic> {
    let mut head = serde_json::Map::new();
    head.insert("oisFormat".to_owned(), Value::from(model.ois_format.as_str()));
    head.insert("title".to_owned(), Value::from(model.title.as_str()));
    head.insert("version".to_owned(), Value::from(model.version.as_str()));
    head.insert("apiSpecifications".to_owned(), api_specifications(&model.api_specifications)?);
    head.insert("endpoints".to_owned(), Value::Array(Vec::new()));
    Ok(head)
}

/// `apiSpecifications` as a `Value`, its paths serialized side by side (thousands of operations).
fn api_specifications(api: &ApiSpecifications) -> Result<Value, Diagnostic> {
    let without_paths = ApiSpecifications {
        servers: api.servers.clone(),
        paths: IndexMap::new(),
        components: api.components.clone(),
        security: api.security.clone(),
    };
    let mut value = serde_json::to_value(&without_paths).map_err(unserializable)?;
    let items: Vec<_> = api.paths.iter().collect();
    let groups = parallel::map_chunks(&items, PATHS_PER_TASK, |items| {
        let values = items.iter().map(|(path, operations)| Ok(((*path).clone(), serde_json::to_value(operations)?)));
        values.collect::<Result<Vec<_>, serde_json::Error>>()
    });
    let mut paths = serde_json::Map::new();
    for group in groups {
        paths.extend(group.map_err(unserializable)?);
    }
    // In its place among the keys: `paths` was serialized (empty) where the struct has it.
    if let Some(slot) = value.get_mut("paths") {
        *slot = Value::Object(paths);
    }
    Ok(value)
}

/// Path items serialized by one task.
const PATHS_PER_TASK: usize = 64;

fn unserializable(err: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::new(Code::SelfCheckFailed, "", format!("the OIS could not be serialized: {err}"))
        .in_document(Place::Output)
}

/// Endpoints serialized by one task.
const ENDPOINTS_PER_TASK: usize = 256;

/// Reads the files `root` (parsed from `source`) refers to, and makes `root` the OpenAPI 3 view of
/// itself: what [`build`] takes.
pub(crate) fn prepare(source: &Source, root: &mut Value, options: &ConvertOptions) -> Files {
    let mut files = Files::read(source, root, options.allow_root.as_deref());
    as_openapi3(root, &mut files);
    files
}

/// Swagger 2.0 becomes the OpenAPI 3 view of itself, in place; other documents stay as they are.
fn as_openapi3(root: &mut Value, files: &mut Files) {
    // Operations of other methods are skipped unread, so they keep their 2.0 shape.
    const CONVERTED: [&str; Method::ALL.len()] = [Method::ALL[0].as_str(), Method::ALL[1].as_str()];
    if crate::openapi::is_swagger2(root) {
        files.origins = Some(crate::openapi::swagger2::normalize(root, files, &CONVERTED));
    }
}

/// The conversion of a document already in its OpenAPI 3 view ([`prepare`]), its diagnostics
/// pointing into the document as written.
pub(crate) fn build(root: &Value, options: &ConvertOptions, files: &Files) -> Result<Built, Failure> {
    let mut result = build_view(root, options, files);
    let diagnostics = match &mut result {
        Ok(built) => &mut built.diagnostics,
        Err(failure) => &mut failure.diagnostics,
    };
    if let Some(origins) = &files.origins {
        origins.restore(diagnostics);
    }
    result
}

fn build_view(root: &Value, options: &ConvertOptions, files: &Files) -> Result<Built, Failure> {
    let document = Document::new(root)?.with_files(files);
    let mut diagnostics = Vec::new();
    let mut summary = Summary::default();

    // The newest released node reads it: what every command targets unless told otherwise.
    let family_text = options.ois_format.as_deref().unwrap_or(crate::node::Target::NEWEST_RELEASED.ois_format());
    let family = FormatFamily::of_version(family_text).ok_or_else(|| {
        Diagnostic::elsewhere(Code::BadOisFormat, format!("OIS format \"{family_text}\" is not supported"))
            .with_help("use 2.3.2 (Airnode 0.15, Airnode Feed ≤ 3.3) or 3.0.0 (Airnode Feed 4.x)")
    })?;
    summary.ois_format = family_text.to_owned();
    let mut readers: Vec<crate::node::Target> =
        crate::node::Target::all().filter(|target| target.family() == family).collect();
    // The newest first.
    readers.reverse();
    summary.read_by = readers
        .into_iter()
        .filter(|target| target.released())
        .map(|target| match crate::node::Release::newest(target) {
            Some(release) => format!("{} = {}", target.name(), release.title()),
            None => target.name().to_owned(),
        })
        .collect();
    let title = meta::title(root, options.title.as_deref(), &mut diagnostics)?;
    let version = meta::version(root, options.ois_version.as_deref(), family, &mut diagnostics)?;
    let server = servers::choose(root, options, &mut diagnostics);

    let operations::Collected { kept: mut operations, names, unmatched, filtered: left_out } =
        operations::collect(&document, options, &mut diagnostics, &mut summary);
    for filter in &unmatched {
        diagnostics.push(
            Diagnostic::elsewhere(Code::FilterUnmatched, format!("the {filter} matched no operation"))
                .with_help("filters match a method and a path as written ('GET /coins/{id}', '/coins/**'), a tag ('tag:market'), or an operationId or endpoint name ('id:coinsMarkets')"),
        );
    }
    let filtered = summary.operations_skipped.get(reason::FILTERED).copied().unwrap_or(0);
    if filtered > 0 {
        diagnostics.push(Diagnostic::new(
            Code::OperationsFiltered,
            "/paths",
            format!("{filtered} operation(s) left out by the include/exclude filters: {}", listed(&left_out)),
        ));
    }
    // Operation and server problems are reported together, so one run shows both.
    if operations.is_empty() {
        let skipped = summary.skipped_total();
        let message = if skipped == 0 {
            "the document has no get or post operation to convert".to_owned()
        } else if filtered > 0 || !unmatched.is_empty() {
            format!("the include/exclude filters left none of the document's {skipped} operations to convert")
        } else {
            format!("none of the document's {skipped} operations could be converted (see above)")
        };
        let help = if unmatched.is_empty() {
            "OIS describes get and post operations; nothing is left to write".to_owned()
        } else {
            format!("these matched nothing: {}", unmatched.join(", "))
        };
        diagnostics.push(Diagnostic::new(Code::NoOperations, "/paths", message).with_help(help));
    }
    let server = match server {
        Ok(server) if !operations.is_empty() => server,
        Ok(_) => return Err(Failure { diagnostics }),
        Err(error) => {
            diagnostics.push(error);
            return Err(Failure { diagnostics });
        }
    };
    servers::check_operation_servers(&server, &operations, &mut diagnostics);

    let plan = security::plan(&document, &operations, options.security.as_deref(), &mut diagnostics);
    let plan = plan.and_then(|mut plan| {
        security::parameter_schemes(&options.api_key_parameters, &operations, &mut plan, &mut diagnostics)?;
        Ok(plan)
    });
    let security::Plan { schemes: mut security, descriptions } = match plan {
        Ok(plan) => plan,
        Err(error) => {
            diagnostics.push(error);
            return Err(Failure { diagnostics });
        }
    };
    security::drop_clashes(&mut security, &mut diagnostics);
    security::drop_credential_parameters(&security, &mut operations, &mut diagnostics);
    security::credential_looking_parameters(&security, &operations, &mut diagnostics);
    // The API's paths are made while the endpoints are: neither reads the other.
    let paths = || {
        let mut paths: IndexMap<String, IndexMap<String, Operation>> = IndexMap::new();
        for operation in &operations {
            let parameters = operation.parameters.iter().map(|p| p.operation_parameter()).collect();
            paths
                .entry(operation.path.clone())
                .or_default()
                .insert(operation.method.as_str().to_owned(), Operation { parameters });
        }
        paths
    };
    let split = parallel::worth_splitting(operations.len(), endpoints::OPERATIONS_PER_TASK);
    let (endpoints, paths) =
        parallel::join(split, || endpoints::build(&operations, &names, options.defaults, &mut diagnostics), paths);
    summary.operations_kept = operations.len();
    summary.parameters = endpoints.iter().map(|e| e.parameters.len()).sum();
    summary.security_schemes = security.keys().cloned().collect();

    let mut ois = Ois {
        ois_format: family_text.to_owned(),
        title,
        version,
        api_specifications: ApiSpecifications {
            servers: vec![Server { url: server }],
            paths,
            security: security.keys().map(|name| (name.clone(), [])).collect(),
            components: Components { security_schemes: security },
        },
        endpoints,
    };
    templates::escape_all(&mut ois, &mut diagnostics);
    Ok(Built { model: ois, diagnostics, summary, family, scheme_descriptions: descriptions })
}

/// The check every generated OIS passes before it is returned: output that fails its own rules is
/// a bug in this tool, reported (as [`Code::SelfCheckFailed`] and the rules it breaks) and never
/// written.
pub fn self_check(ois: &Value, family: FormatFamily) -> Result<(), Vec<Diagnostic>> {
    failures(&rules::check(ois, Some(family)))
}

/// [`self_check`] of the typed OIS, checked as it serializes and never made one `Value` (for a
/// big API that would take as much memory and time as the parsed document): every rule it breaks
/// when none is an error (its warnings and notes, pointing into the OIS).
pub(crate) fn self_check_model(model: &Ois, family: FormatFamily) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
    let found = rules::check_model(model, family).map_err(|error| vec![unserializable(error)])?;
    failures(&found)?;
    Ok(found)
}

fn failures(found: &[Diagnostic]) -> Result<(), Vec<Diagnostic>> {
    let failures: Vec<Diagnostic> = found
        .iter()
        .filter(|found| found.is_error())
        .map(|failure| failure.clone().in_document(Place::Output))
        .collect();
    if failures.is_empty() {
        return Ok(());
    }
    let mut diagnostics = vec![
        Diagnostic::new(
            Code::SelfCheckFailed,
            "",
            format!("the generated OIS breaks {} OIS rule(s); nothing was written", failures.len()),
        )
        .with_help("this is a bug in ois: please report it with the input document")
        .in_document(Place::Output),
    ];
    diagnostics.extend(failures);
    Err(diagnostics)
}

/// The first few of `items`, and how many more.
fn listed(items: &[String]) -> String {
    const SHOWN: usize = 8;
    let more = items.len().saturating_sub(SHOWN);
    let shown = items.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
    if more > 0 { format!("{shown} and {more} more") } else { shown }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A document of `paths` with one server.
    fn items_document(paths: serde_json::Map<String, Value>) -> Value {
        json!({
            "openapi": "3.0.3",
            "info": {"title": "Items", "version": "1.0.0"},
            "servers": [{"url": "https://api.example.com"}],
            "paths": paths,
        })
    }

    #[test]
    fn path_items_read_in_groups_come_out_in_document_order() {
        // Several groups of path items; what each finds is joined as if read one by one.
        let count = 200;
        let paths: serde_json::Map<String, Value> = (0..count)
            .map(|i| {
                let operations = match i % 3 {
                    0 => json!({"delete": {}, "get": {"operationId": "same"}}),
                    1 => json!({"get": {"operationId": format!("op{i}"), "tags": [if i == 190 { "late" } else { "early" }]}}),
                    _ => json!({"post": {}, "patch": {}}),
                };
                (format!("/items{i}"), operations)
            })
            .collect();
        let root = items_document(paths);
        // A delete is named too when a filter could match it: `deleteItems3` is filtered out, not skipped.
        let exclude = ["tag:late", "GET /nowhere", "id:deleteItems3"].map(|f| Filter::parse(f).unwrap()).to_vec();
        let options = ConvertOptions { exclude, ..ConvertOptions::default() };
        let built = build(&root, &options, &Files::default()).map_err(|f| f.diagnostics).unwrap();
        let names: Vec<&str> = built.model.endpoints.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names.len(), count - 1, "every get and post but the excluded one");
        assert_eq!(&names[..4], ["same", "op1", "postItems2", "same2"]);
        assert!(!names.contains(&"op190"));
        let paths: Vec<&String> = built.model.api_specifications.paths.keys().collect();
        let expected: Vec<String> = (0..count).filter(|&i| i != 190).map(|i| format!("/items{i}")).collect();
        assert_eq!(paths, expected.iter().collect::<Vec<_>>());
        let skipped: Vec<(&str, usize)> = built.summary.operations_skipped.iter().map(|(why, n)| (*why, *n)).collect();
        assert_eq!(skipped, [(reason::METHOD, 67 + 66 - 1), (reason::FILTERED, 2)]);
        let unmatched: Vec<&str> =
            built.diagnostics.iter().filter(|d| d.code == Code::FilterUnmatched).map(|d| d.message.as_str()).collect();
        assert_eq!(unmatched, ["the exclude filter \"GET /nowhere\" matched no operation"]);
        let skipped_methods: Vec<&str> = built
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::MethodSkipped)
            .map(|d| d.location.pointer.as_str())
            .collect();
        assert_eq!(&skipped_methods[..3], ["/paths/~1items0/delete", "/paths/~1items2/patch", "/paths/~1items5/patch"]);
        assert_eq!(skipped_methods.len(), 67 + 66 - 1);
    }

    /// `count` paths `/items{i}{suffix}`, each a GET with one query parameter.
    fn items_with_a_query(count: usize, suffix: &str) -> serde_json::Map<String, Value> {
        let operation = json!({"get": {"parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}}]}});
        (0..count).map(|i| (format!("/items{i}{suffix}"), operation.clone())).collect()
    }

    /// The endpoint parameters of a converted document's first endpoint: (name, default, example).
    fn first_endpoint_values(root: &Value, options: &ConvertOptions) -> Vec<(String, Option<String>, Option<String>)> {
        let conversion = convert_value(root, options).map_err(|f| f.diagnostics).unwrap();
        let parameters = conversion.ois["endpoints"][0]["parameters"].as_array().unwrap().clone();
        let text = |p: &Value, key: &str| p.get(key).and_then(Value::as_str).map(str::to_owned);
        parameters.iter().map(|p| (text(p, "name").unwrap(), text(p, "default"), text(p, "example"))).collect()
    }

    #[test]
    fn a_parameter_diagnostic_points_where_the_parameter_is_written() {
        // Places are made only for diagnostics: each must still be the entry's own, or where its
        // `$ref` led, or (for a `$ref` that fails) the `$ref` itself.
        let root = json!({
            "openapi": "3.0.3", "info": {"title": "T", "version": "1.0.0"},
            "servers": [{"url": "https://api.example.com"}],
            "components": {"parameters": {"Reserved": {"name": "_type", "in": "query", "schema": {"type": "string"}}}},
            "paths": {"/x": {"get": {"parameters": [
                {"$ref": "#/components/parameters/Nope"},
                {"$ref": "#/paths/~1x/get/parameters/1"},
                {"name": "_path", "in": "query", "schema": {"type": "string"}},
                {"$ref": "#/components/parameters/Reserved"},
                {"name": "q", "in": "body"},
                {"name": "d", "in": "query", "schema": {"$ref": "#/paths/~1x/get/parameters/5"}},
                {"name": "d", "in": "query"},
                "not an object"
            ]}}}
        });
        let conversion = convert_value(&root, &ConvertOptions::default()).map_err(|f| f.diagnostics).unwrap();
        let found: Vec<(Code, &str)> =
            conversion.diagnostics.iter().map(|d| (d.code, d.location.pointer.as_str())).collect();
        let at = "/paths/~1x/get/parameters";
        assert_eq!(
            found,
            [
                (Code::RefMissing, format!("{at}/0/$ref").as_str()),
                (Code::RefCycle, &format!("{at}/1/$ref")),
                (Code::ReservedName, &format!("{at}/2/name")),
                (Code::ReservedName, "/components/parameters/Reserved/name"),
                (Code::ParamLocation, &format!("{at}/4/in")),
                (Code::DuplicateParameter, &format!("{at}/6")),
                (Code::InvalidItem, &format!("{at}/7")),
            ]
        );
    }

    #[test]
    fn swagger_2_parameters_are_read_in_their_own_shape() {
        // Value keys beside the name: inline, shared, on the path item; one written 3.x-style
        // with a `schema` is read as 3.x writes it (its own `default` and `x-example` unread).
        let root = json!({
            "swagger": "2.0", "host": "api.example.com", "info": {"title": "T", "version": "1.0.0"},
            "parameters": {"Limit": {"name": "limit", "in": "query", "type": "integer", "default": 10, "x-example": 5}},
            "paths": {"/pets": {
                "parameters": [{"name": "lang", "in": "query", "type": "string", "default": "en"}],
                "get": {"parameters": [
                    {"$ref": "#/parameters/Limit"},
                    {"name": "tag", "in": "query", "type": "string", "x-example": "dog", "example": "cat"},
                    {"name": "kind", "in": "query", "type": "string", "example": "cat"},
                    {"name": "odd", "in": "query", "schema": {"type": "string", "default": "s"}, "default": "top", "x-example": "x"}
                ]}
            }}
        });
        let opt_in = ConvertOptions::default().with_defaults();
        let some = |s: &str| Some(s.to_owned());
        assert_eq!(
            first_endpoint_values(&root, &opt_in),
            [
                ("lang".to_owned(), some("en"), None),
                ("limit".to_owned(), some("10"), some("5")),
                ("tag".to_owned(), None, some("dog")),
                ("kind".to_owned(), None, some("cat")),
                ("odd".to_owned(), some("s"), None),
            ]
        );
        // Without --defaults a default becomes the example when there is none.
        let kept = first_endpoint_values(&root, &ConvertOptions::default());
        assert_eq!(kept[0], ("lang".to_owned(), None, some("en")));
        assert_eq!(kept[1], ("limit".to_owned(), None, some("5")));

        // OpenAPI 3 has no value keys beside the name: the same keys there are not read.
        let openapi3 = json!({
            "openapi": "3.0.3", "info": {"title": "T", "version": "1.0.0"},
            "servers": [{"url": "https://api.example.com"}],
            "paths": {"/pets": {"get": {"parameters": [
                {"name": "lang", "in": "query", "schema": {"type": "string"}, "default": "en", "x-example": "de"}
            ]}}}
        });
        assert_eq!(first_endpoint_values(&openapi3, &opt_in), [("lang".to_owned(), None, None)]);
    }

    #[test]
    fn the_model_checked_in_pieces_gets_what_its_value_gets() {
        let root = items_document(items_with_a_query(100, ""));
        let mut model =
            build(&root, &ConvertOptions::default(), &Files::default()).map_err(|f| f.diagnostics).unwrap().model;
        // Broken in ways only the endpoints' check finds, in different groups of endpoints.
        let name = model.endpoints[3].name.clone();
        model.endpoints[70].name = name;
        model.endpoints[40].operation.path = "/nowhere".to_owned();
        model.endpoints[99].parameters[0].name = "_q".to_owned();
        let family = crate::node::Target::NEWEST_RELEASED.family();
        let pieces = rules::check_model(&model, family).unwrap();
        let whole = rules::check(&serde_json::to_value(&model).unwrap(), Some(family));
        assert_eq!(pieces, whole);
        let found: Vec<(Code, &str)> = pieces.iter().map(|d| (d.code, d.location.pointer.as_str())).collect();
        assert_eq!(
            found,
            [
                (Code::UnknownOperation, "/endpoints/40/operation"),
                (Code::DuplicateEndpointName, "/endpoints/70/name"),
                (Code::UnderscoreParameterName, "/endpoints/99/parameters/0/name"),
            ]
        );
    }

    #[test]
    fn to_value_is_what_serde_gives_for_the_model() {
        // More endpoints than one serialization task takes, so groups are joined.
        let root = items_document(items_with_a_query(ENDPOINTS_PER_TASK * 2 + 7, "/{id}"));
        let built = build(&root, &ConvertOptions::default(), &Files::default()).map_err(|f| f.diagnostics).unwrap();
        let parallel = to_value(&built.model).unwrap();
        assert_eq!(parallel, serde_json::to_value(&built.model).unwrap());
        // What the self-check reads is what is written.
        assert_eq!(rules::Tape::of(&built.model).unwrap().root().to_value(), parallel);
        let keys: Vec<&String> = parallel.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["oisFormat", "title", "version", "apiSpecifications", "endpoints"]);
        assert_eq!(parallel["endpoints"].as_array().unwrap().len(), ENDPOINTS_PER_TASK * 2 + 7);
    }
}
