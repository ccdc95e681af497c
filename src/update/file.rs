//! One update of an OIS file: find the OIS in it, convert the new document (and the base) with the
//! recorded options, merge, check the result, and write the file again as it was written (JSON
//! indent or YAML, key order, trailing newline), everything else in it untouched.

use serde_json::Value;

use super::record::{self, Record};
use super::{Merged, merge};
use crate::convert::GivenOptions;
use crate::convert::{Failure, convert};
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::ois::OisDocument;
use crate::ois::model::FormatFamily;
use crate::source::{Format, Source};

/// What an update needs besides the documents.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct UpdateOptions {
    /// The convert options given now; they override the recorded ones.
    pub given: GivenOptions,
    /// The OIS to update, by title, when the file holds several (a config.json).
    pub title: Option<String>,
    /// The records kept next to the OIS file ([`record::read`]).
    pub records: Vec<Record>,
}

/// An update worked out, not yet written.
#[derive(Clone, Debug)]
pub struct Update {
    /// The OIS file's new text.
    pub text: String,
    /// Whether the text is the file's text as it was.
    pub unchanged: bool,
    /// The merge: the OIS, each endpoint's fate, and what the merge says.
    pub merged: Merged,
    /// What the conversions of the new (and base) document said, then what the merge said.
    pub diagnostics: Vec<Diagnostic>,
    /// The record to keep for the next update.
    pub record: Record,
    /// What the new document says of each security scheme (a prefix the value needs, where to get
    /// a key), for a secrets template.
    pub scheme_descriptions: indexmap::IndexMap<String, String>,
}

/// Updates the OIS in `ois_file` from the API document `new` (and `base`, the document it was
/// generated from, when given; else the record). Fails, writing nothing, when a document does not
/// convert, the OIS cannot be found, or the merge would break an OIS rule.
pub fn update(
    new: &Source,
    base: Option<&Source>,
    ois_file: &Source,
    options: &UpdateOptions,
) -> Result<Update, Failure> {
    let mut diagnostics = Vec::new();
    let located = |mut error: Diagnostic| {
        ois_file.locate_diagnostic(&mut error);
        Failure::from(error)
    };
    let mut document = ois_file.parse().map_err(located)?;
    let pointer = find_ois(&document, options.title.as_deref()).map_err(located)?;
    // Taken out of the document, and the update put in its place.
    let ours = document.pointer_mut(&pointer).map(std::mem::take).unwrap_or_default();
    let title = ours.get("title").and_then(Value::as_str).unwrap_or_default().to_owned();
    let recorded = match record::find(&options.records, &title) {
        Some(record) if !belongs_to(record, &ours) => {
            let mut warning = Diagnostic::new(
                Code::RecordUnreadable,
                "",
                format!(
                    "the conversion record of \"{}\" is not the record of this OIS (what it says was generated is not an OIS of the same oisFormat family); it is ignored: a two-way merge",
                    record.title
                ),
            )
            .with_help("delete the record, or update with the OpenAPI document the OIS was generated from as the base");
            ois_file.locate_diagnostic(&mut warning);
            diagnostics.push(warning);
            None
        }
        found => found,
    };
    let effective = recorded.map_or_else(|| options.given.clone(), |r| r.options.overridden_by(&options.given));
    let effective = keep_format(effective, &ours);
    let convert_options = effective.convert_options().map_err(Failure::from)?;

    let theirs = convert(new, &convert_options)?;
    // What the filters (the record's, or given) leave out of the new document is said again:
    // an operation the API added there is not added to the OIS.
    let filters = [Code::OperationsFiltered, Code::FilterUnmatched];
    diagnostics.extend(
        theirs.diagnostics.iter().filter(|d| d.severity == Severity::Error || filters.contains(&d.code)).cloned(),
    );
    let base_ois = match (base, recorded) {
        (Some(base), _) => Some(convert(base, &convert_options)?.ois),
        (None, Some(recorded)) => Some(recorded.generated.clone()),
        (None, None) => None,
    };
    let mut merged = merge(base_ois.as_ref(), &ours, &theirs.ois);
    if options.given.says_format() {
        move_format(&mut merged, &theirs.ois, &effective);
    }
    if let Some(recorded) = recorded
        && let Some(mut warning) = record_changes_calls(&recorded.options, &options.given, &ours, &merged.ois, &pointer)
    {
        ois_file.locate_diagnostic(&mut warning);
        diagnostics.push(warning);
    }
    for diagnostic in &mut merged.diagnostics {
        // Pointers into the OIS, which may be one of a config's.
        diagnostic.location.pointer = format!("{pointer}{}", diagnostic.location.pointer);
        ois_file.locate_diagnostic(diagnostic);
        // The command that carries a refinement over names this file.
        if let Some(crate::diagnostic::Fix::CarryFixed { file, .. }) = diagnostic.fix.as_mut() {
            file.clone_from(&ois_file.name);
        }
    }
    diagnostics.extend(merged.diagnostics.iter().cloned());

    let gone = crate::ois::feeds::callers_gone(&ours, &merged.ois);
    if !gone.is_empty() {
        let at = crate::ois::feeds::feed_endpoint_index(&ours)
            .map(|index| format!("{pointer}/endpoints/{index}/preProcessingSpecificationV2/value"))
            .unwrap_or_else(|| pointer.clone());
        let method = crate::ois::feeds::method_of(&ours).as_str().to_uppercase();
        for (feed, operation) in gone {
            let mut error = Diagnostic::new(
                Code::FeedOperationGone,
                at.clone(),
                format!(
                    "feed \"{}\" calls {method} {operation}, which the API no longer has: nothing was written",
                    crate::emit::printable(&feed)
                ),
            )
            .with_help("move the feed to an operation the API has, or remove it, then update again");
            ois_file.locate_diagnostic(&mut error);
            diagnostics.push(error);
        }
        return Err(Failure { diagnostics });
    }

    let errors: Vec<Diagnostic> =
        crate::ois::rules::check(&merged.ois, None).into_iter().filter(Diagnostic::is_error).collect();
    if !errors.is_empty() {
        diagnostics.push(
            Diagnostic::elsewhere(
                Code::UpdateBreaksOis,
                format!(
                    "the updated OIS would break {} OIS rule(s), so nothing was written: a refinement of the OIS and a change of the API collide (each is below, located in the updated OIS)",
                    errors.len()
                ),
            )
            .with_help("change the refinement in the OIS so that it fits the API as it is now, then update again"),
        );
        diagnostics.extend(errors.into_iter().map(|error| {
            let at = if error.pointer().is_empty() { "/" } else { error.pointer() };
            let mut told = Diagnostic::elsewhere(error.code, format!("in the updated OIS at {at}: {}", error.message));
            told.help = error.help;
            told
        }));
        return Err(Failure { diagnostics });
    }

    if let Some(slot) = document.pointer_mut(&pointer) {
        *slot = merged.ois.clone();
    }
    // A YAML file keeps its style where the update only changed scalars and keys in place.
    let restyled = (ois_file.format == Format::Yaml)
        .then(|| ois_file.parse().ok())
        .flatten()
        .and_then(|before| crate::edit::restyle::yaml_like(ois_file, &before, &document));
    let text = match restyled {
        Some(text) => text,
        None => render_like(&document, &ois_file.text, ois_file.format).map_err(Failure::from)?,
    };
    let unchanged = text == ois_file.text;
    let record_title = merged.ois.get("title").and_then(Value::as_str).unwrap_or_default();
    let record = Record::new(record_title, effective, theirs.ois);
    let scheme_descriptions = theirs.scheme_descriptions;
    Ok(Update { text, unchanged, merged, diagnostics, record, scheme_descriptions })
}

/// `options`, naming the format `ours` is written in when neither the command line nor the record
/// names one: an update keeps an OIS in its format unless asked to move it (a record from before
/// records kept the target names none, and the default target may have changed since).
fn keep_format(options: GivenOptions, ours: &Value) -> GivenOptions {
    if options.says_format() {
        return options;
    }
    match ours.get("oisFormat").and_then(Value::as_str).filter(|f| FormatFamily::of_version(f).is_some()) {
        Some(format) => GivenOptions { ois_format: Some(format.to_owned()), ..options },
        None => options.with_default_target(),
    }
}

/// The merged OIS in the format the converter wrote now: a target or format asked for is the
/// converter's to change, like everything it generates (the merge keeps `oisFormat` the user's).
fn move_format(merged: &mut Merged, theirs: &Value, options: &GivenOptions) {
    let (Some(now), Some(ois)) = (theirs.get("oisFormat"), merged.ois.as_object_mut()) else { return };
    let before = ois.insert("oisFormat".to_owned(), now.clone());
    if before.as_ref() == Some(now) {
        return;
    }
    let was = before.as_ref().and_then(Value::as_str).unwrap_or("none");
    let to = now.as_str().unwrap_or_default();
    let node = options.target.as_deref().map(|t| format!(" ({t})")).unwrap_or_default();
    merged.diagnostics.push(Diagnostic::new(
        Code::FormatMoved,
        "/oisFormat",
        format!("the OIS moves from oisFormat {was} to {to}{node}, as asked; its refinements are kept"),
    ));
}

/// Whether `record` can be the record of `ours`: what it says was generated is an OIS object (a
/// title, endpoints, API specifications) of the oisFormat family `ours` has. A record from an older
/// document passes (the merge pairs what both sides have); `generated: "oops"` does not.
fn belongs_to(record: &record::Record, ours: &Value) -> bool {
    let generated = &record.generated;
    let family =
        |ois: &Value| ois.get("oisFormat").and_then(Value::as_str).and_then(crate::ois::model::FormatFamily::of);
    generated.get("title").is_some_and(Value::is_string)
        && generated.get("endpoints").is_some_and(Value::is_array)
        && generated.get("apiSpecifications").is_some_and(Value::is_object)
        && (family(ours).is_none() || family(generated) == family(ours))
}

/// A warning when an option taken from the record, not given now, changes what the OIS calls (its
/// server, its security): a record is a file anyone with the repository can edit, and a tampered
/// one would otherwise move an OIS's calls to another host in silence.
fn record_changes_calls(
    recorded: &GivenOptions,
    given: &GivenOptions,
    ours: &Value,
    merged: &Value,
    at: &str,
) -> Option<Diagnostic> {
    let mut taken = Vec::new();
    if given.server.is_none() && recorded.server.is_some() {
        taken.push(format!("server {}", recorded.server.as_deref().unwrap_or_default()));
    }
    if given.server_vars.is_empty() && !recorded.server_vars.is_empty() {
        taken.push("server variables".to_owned());
    }
    if given.base_url.is_none() && recorded.base_url.is_some() {
        taken.push(format!("base URL {}", recorded.base_url.as_deref().unwrap_or_default()));
    }
    if given.security.is_empty() && !recorded.security.is_empty() {
        taken.push(format!("security {}", recorded.security.join(", ")));
    }
    let calls = |ois: &Value| {
        let specification = ois.get("apiSpecifications");
        let field = |key: &str| specification.and_then(|s| s.get(key)).cloned();
        (
            field("servers"),
            field("security"),
            specification.and_then(|s| s.pointer("/components/securitySchemes")).cloned(),
        )
    };
    if taken.is_empty() || calls(ours) == calls(merged) {
        return None;
    }
    let pointer = format!("{at}/apiSpecifications");
    Some(
        Diagnostic::new(
            Code::RecordChangesCalls,
            pointer,
            format!(
                "the update changes what the OIS calls with options taken from its .convert.json record, not from this command: {}",
                taken.join("; ")
            ),
        )
        .with_help("check the record; give the options you mean on the command line (they override the record)"),
    )
}

/// The pointer of the OIS to update in a file's document: the file's only OIS, or the one of
/// `title`.
fn find_ois(document: &Value, title: Option<&str>) -> Result<String, Diagnostic> {
    let read = OisDocument::read(document).map_err(|(_, error)| error)?;
    Ok(read.choose(title)?.pointer)
}

/// `value` written as `like` is: YAML, or JSON with its indent, and its final newline or none.
pub fn render_like(value: &Value, like: &str, format: Format) -> Result<String, Diagnostic> {
    let mut text = match format {
        Format::Yaml => crate::emit::to_text(value, crate::emit::OutputFormat::Yaml)?,
        Format::Json => {
            let indent = json_indent(like);
            let mut out = Vec::new();
            let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
            let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
            serde::Serialize::serialize(value, &mut serializer).map_err(|error| {
                Diagnostic::elsewhere(Code::OutputWrite, format!("cannot serialize the OIS: {error}"))
            })?;
            String::from_utf8_lossy(&out).into_owned()
        }
    };
    let ends_with_newline = like.ends_with('\n');
    while text.ends_with('\n') {
        text.pop();
    }
    if ends_with_newline {
        text.push('\n');
    }
    Ok(text)
}

/// The indent of a JSON text: the whitespace before the first member (two spaces by default).
fn json_indent(text: &str) -> String {
    text.lines()
        .skip(1)
        .find(|line| !line.trim().is_empty())
        .map(|line| line.chars().take_while(|c| *c == ' ' || *c == '\t').collect::<String>())
        .filter(|indent| !indent.is_empty())
        .unwrap_or_else(|| "  ".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn renders_as_the_file_was_written() {
        let value = json!({"a": [1], "b": {"c": true}});
        assert_eq!(
            render_like(&value, "{\n    \"x\": 1\n}", Format::Json).unwrap(),
            "{\n    \"a\": [\n        1\n    ],\n    \"b\": {\n        \"c\": true\n    }\n}"
        );
        assert_eq!(
            render_like(&value, "{\n\t\"x\": 1\n}\n", Format::Json).unwrap(),
            "{\n\t\"a\": [\n\t\t1\n\t],\n\t\"b\": {\n\t\t\"c\": true\n\t}\n}\n"
        );
        assert!(render_like(&value, "a: 1\n", Format::Yaml).unwrap().starts_with("a:\n"));
    }

    #[test]
    fn several_ois_need_a_title() {
        let config = json!({"ois": [{"title": "A"}, {"title": "B"}], "apiCredentials": []});
        assert_eq!(find_ois(&config, Some("B")).unwrap(), "/ois/1");
        assert_eq!(find_ois(&config, None).unwrap_err().fix, Some(crate::diagnostic::Fix::ChooseOis));
        assert_eq!(find_ois(&config, Some("C")).unwrap_err().code, Code::OisChoice);
        assert_eq!(find_ois(&json!({"title": "A", "endpoints": []}), None).unwrap(), "");
    }
}
