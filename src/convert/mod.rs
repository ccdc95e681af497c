//! OpenAPI → OIS. Each stage lives in its own module: `servers` picks the one base URL,
//! `security` picks the schemes, `operations` reads paths and parameters, `body` flattens JSON
//! request bodies, `endpoints` names things, `meta` makes title and version fit.

mod body;
mod endpoints;
pub mod filter;
mod meta;
mod operations;
mod security;
mod servers;

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::ois::model::{ApiSpecifications, Components, Ois, Operation, Server};
use crate::ois::{FormatFamily, rules};
use crate::openapi::{Document, bundle};
use crate::output::{OutputFormat, model_text};
use crate::source::Source;

/// What the user can choose; everything else follows from the document.
#[derive(Clone, Debug, Default)]
pub struct ConvertOptions {
    /// `--server`: an index into `servers` or one of their URLs.
    pub server: Option<String>,
    /// `--server-var NAME=VALUE`, applied over the variables' defaults.
    pub server_vars: Vec<(String, String)>,
    /// `--base-url`: resolves a relative server URL, or is the server when there is none.
    pub base_url: Option<String>,
    /// `--ois-format`: the `oisFormat` written (default 3.0.0).
    pub ois_format: Option<String>,
    /// `--title`, instead of `info.title`.
    pub title: Option<String>,
    /// `--ois-version`, instead of `info.version`.
    pub ois_version: Option<String>,
    /// `--allow-root`: files referenced by `$ref` may be anywhere below this folder (default: the
    /// document's own folder).
    pub allow_root: Option<std::path::PathBuf>,
    /// `--include`: only operations matching one of these (all when empty).
    pub include: Vec<filter::Filter>,
    /// `--exclude`: no operation matching one of these.
    pub exclude: Vec<filter::Filter>,
}

/// A finished conversion: the OIS and everything worth telling about it.
#[derive(Clone, Debug)]
pub struct Conversion {
    pub ois: Value,
    pub diagnostics: Vec<Diagnostic>,
    pub summary: Summary,
    /// The format family the OIS was written and checked for.
    pub family: FormatFamily,
}

/// A conversion that produced nothing to write; `diagnostics` has at least one error.
#[derive(Clone, Debug)]
pub struct Failure {
    pub diagnostics: Vec<Diagnostic>,
}

impl From<Diagnostic> for Failure {
    fn from(diagnostic: Diagnostic) -> Self {
        Failure { diagnostics: vec![diagnostic] }
    }
}

/// Counts for the report.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub operations_kept: usize,
    /// reason → number of operations skipped for it
    pub operations_skipped: IndexMap<&'static str, usize>,
    pub parameters: usize,
    pub security_schemes: Vec<String>,
}

impl Summary {
    fn skip(&mut self, reason: &'static str) {
        *self.operations_skipped.entry(reason).or_default() += 1;
    }

    pub fn skipped_total(&self) -> usize {
        self.operations_skipped.values().sum()
    }
}

/// Skip reasons, as they appear in summaries.
pub(crate) mod reason {
    pub const FILTERED: &str = "filtered out";
    pub const METHOD: &str = "method not get/post";
    pub const PATH: &str = "path OIS cannot express";
    pub const REF: &str = "unresolvable $ref";
    pub const INVALID: &str = "invalid operation";
}

/// Converts the document in `source`. Diagnostics are located in the source text.
pub fn convert(source: &Source, options: &ConvertOptions) -> Result<Conversion, Failure> {
    let mut root = source.parse()?;
    let files = bundle_files(source, &mut root, options);
    let mut result = convert_value(&root, options);
    match &mut result {
        Ok(conversion) => locate_in_files(&mut conversion.diagnostics, source, &files),
        Err(failure) => locate_in_files(&mut failure.diagnostics, source, &files),
    }
    result
}

/// Pulls the files `$ref`s point at into `root` (only when the text refers to other files).
fn bundle_files(source: &Source, root: &mut Value, options: &ConvertOptions) -> bundle::Files {
    if bundle::has_file_refs(&source.text) {
        bundle::bundle(source, root, options.allow_root.as_deref())
    } else {
        bundle::Files::default()
    }
}

/// Names the file of every diagnostic about the input and finds its line and column.
pub fn locate(diagnostics: &mut [Diagnostic], source: &Source) {
    locate_in_files(diagnostics, source, &bundle::Files::default());
}

/// `locate`, with pointers into bundled files moved to those files.
pub fn locate_in_files(diagnostics: &mut [Diagnostic], source: &Source, files: &bundle::Files) {
    for diagnostic in diagnostics {
        // Self-check failures point into the output, which has no text to locate in.
        if diagnostic.code.as_str().starts_with("OIS") {
            continue;
        }
        match files.split(&diagnostic.pointer) {
            Some((file, inner)) => {
                diagnostic.pointer = inner.to_owned();
                diagnostic.locate_in(file);
            }
            None => diagnostic.locate_in(source),
        }
    }
}

/// Converts an already parsed OpenAPI document.
pub fn convert_value(root: &Value, options: &ConvertOptions) -> Result<Conversion, Failure> {
    let built = build(root, options)?;
    let ois = match to_value(&built.model) {
        Ok(ois) => ois,
        Err(error) => return Err(failed(built.diagnostics, vec![error])),
    };
    if let Err(failures) = self_check(&ois, built.family) {
        return Err(failed(built.diagnostics, failures));
    }
    Ok(built.into_conversion(ois))
}

/// Converts, then checks, renders and locates diagnostics side by side (they only read), using the
/// other cores where there are some. The text is returned only when the self-check passed.
pub fn convert_rendered(
    source: &Source,
    root: &Value,
    options: &ConvertOptions,
    format: OutputFormat,
) -> Result<(Conversion, String), Failure> {
    convert_rendered_with(source, root, options, format, Positions::All)
}

/// Which diagnostics get a line and column (finding them costs time in big documents).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Positions {
    All,
    /// Only errors: for reports that show nothing else (a batch's text summary).
    ErrorsOnly,
}

/// `convert_rendered`, locating only the diagnostics `positions` asks for.
pub fn convert_rendered_with(
    source: &Source,
    root: &Value,
    options: &ConvertOptions,
    format: OutputFormat,
    positions: Positions,
) -> Result<(Conversion, String), Failure> {
    let bundled;
    let (root, files) = if bundle::has_file_refs(&source.text) {
        let mut copy = root.clone();
        let files = bundle::bundle(source, &mut copy, options.allow_root.as_deref());
        bundled = copy;
        (&bundled, files)
    } else {
        (root, bundle::Files::default())
    };
    let mut built = match build(root, options) {
        Ok(built) => built,
        Err(mut failure) => {
            locate_in_files(&mut failure.diagnostics, source, &files);
            return Err(failure);
        }
    };
    let Built { model, diagnostics, family, .. } = &mut built;
    let (checked, text) = std::thread::scope(|scope| {
        // The big allocations (the checked Value) stay on this thread, so its arena is reused.
        let renderer = scope.spawn(|| model_text(model, format));
        let locator = scope.spawn(|| match positions {
            Positions::All => locate_in_files(diagnostics, source, &files),
            Positions::ErrorsOnly => {
                let mut errors: Vec<Diagnostic> = diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
                locate_in_files(&mut errors, source, &files);
                let mut located = errors.into_iter();
                for diagnostic in diagnostics.iter_mut().filter(|d| d.is_error()) {
                    if let Some(error) = located.next() {
                        *diagnostic = error;
                    }
                }
            }
        });
        let checked =
            to_value(model).map_err(|error| vec![error]).and_then(|ois| self_check(&ois, *family).map(|()| ois));
        let stopped = || Diagnostic::new(Code::SelfCheckFailed, "", "rendering stopped unexpectedly");
        let text = renderer.join().unwrap_or_else(|_| Err(stopped()));
        let _ = locator.join();
        (checked, text)
    });
    let ois = match checked {
        Ok(ois) => ois,
        Err(failures) => return Err(failed(built.diagnostics, failures)),
    };
    match text {
        Ok(text) => Ok((built.into_conversion(ois), text)),
        Err(error) => Err(failed(built.diagnostics, vec![error])),
    }
}

fn failed(mut diagnostics: Vec<Diagnostic>, more: Vec<Diagnostic>) -> Failure {
    diagnostics.extend(more);
    Failure { diagnostics }
}

/// The conversion proper, before the self-check: the typed OIS and what was said about it.
struct Built {
    model: Ois,
    diagnostics: Vec<Diagnostic>,
    summary: Summary,
    family: FormatFamily,
}

impl Built {
    fn into_conversion(self, ois: Value) -> Conversion {
        Conversion { ois, diagnostics: self.diagnostics, summary: self.summary, family: self.family }
    }
}

fn to_value(model: &Ois) -> Result<Value, Diagnostic> {
    serde_json::to_value(model)
        .map_err(|err| Diagnostic::new(Code::SelfCheckFailed, "", format!("the OIS could not be serialized: {err}")))
}

fn build(original: &Value, options: &ConvertOptions) -> Result<Built, Failure> {
    let normalized;
    let root = if crate::openapi::is_swagger2(original) {
        normalized = crate::openapi::swagger2::normalize(original);
        &normalized
    } else {
        original
    };
    let document = Document::new(root)?;
    let mut diagnostics = Vec::new();
    let mut summary = Summary::default();

    let family_text = options.ois_format.as_deref().unwrap_or(FormatFamily::V3_0.default_version());
    let family = FormatFamily::of(family_text).ok_or_else(|| {
        Diagnostic::new(Code::BadOisFormat, "", format!("--ois-format \"{family_text}\" is not supported"))
            .with_help("use 2.3.2 (Airnode 0.15, Airnode Feed ≤ 3.3) or 3.0.0 (Airnode Feed 4.x)")
    })?;
    let title = meta::title(root, options.title.as_deref(), &mut diagnostics)?;
    let version = meta::version(root, options.ois_version.as_deref(), family, &mut diagnostics)?;
    let server = servers::choose(root, options, &mut diagnostics);

    let operations::Collected { kept: operations, names } =
        operations::collect(&document, options, &mut diagnostics, &mut summary);
    if let Some(&filtered) = summary.operations_skipped.get(reason::FILTERED) {
        diagnostics.push(Diagnostic::new(
            Code::OperationsFiltered,
            "/paths",
            format!("{filtered} operation(s) left out by --include/--exclude"),
        ));
    }
    // Operation and server problems are reported together, so one run shows both.
    if operations.is_empty() {
        let skipped = summary.skipped_total();
        let message = if skipped == 0 {
            "the document has no get or post operation to convert".to_owned()
        } else {
            format!("none of the document's {skipped} operations could be converted (see above)")
        };
        diagnostics.push(
            Diagnostic::new(Code::NoOperations, "/paths", message)
                .with_help("OIS describes get and post operations; nothing is left to write"),
        );
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

    let security = security::plan(&document, &operations, &mut diagnostics);
    let endpoints = endpoints::build(&operations, &names, &mut diagnostics);

    let mut paths: IndexMap<String, IndexMap<String, Operation>> = IndexMap::new();
    for operation in &operations {
        let parameters = operation.parameters.iter().map(|p| p.operation_parameter()).collect();
        paths
            .entry(operation.path.clone())
            .or_default()
            .insert(operation.method.as_str().to_owned(), Operation { parameters });
    }
    summary.operations_kept = operations.len();
    summary.parameters = endpoints.iter().map(|e| e.parameters.len()).sum();
    summary.security_schemes = security.keys().cloned().collect();

    let ois = Ois {
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
    Ok(Built { model: ois, diagnostics, summary, family })
}

/// Output that fails its own rules is a bug in this tool; it is reported and never written.
pub fn self_check(ois: &Value, family: FormatFamily) -> Result<(), Vec<Diagnostic>> {
    let failures: Vec<Diagnostic> = rules::check(ois, Some(family)).into_iter().filter(Diagnostic::is_error).collect();
    if failures.is_empty() {
        return Ok(());
    }
    let mut diagnostics = vec![
        Diagnostic::new(
            Code::SelfCheckFailed,
            "",
            format!("the generated OIS breaks {} OIS rule(s); nothing was written", failures.len()),
        )
        .with_help("this is a bug in ois: please report it with the input document"),
    ];
    diagnostics.extend(failures);
    Err(diagnostics)
}
