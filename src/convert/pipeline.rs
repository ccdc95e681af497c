//! One conversion as the CLI runs it: converted, then checked, rendered and located side by side
//! (they only read), using the other cores where there are some.

use indexmap::IndexMap;
use serde_json::Value;

use super::{Built, ConvertOptions, Failure, Summary};
use crate::convert;
use crate::diagnostic::Code;
use crate::diagnostic::Diagnostic;
use crate::emit::{OutputFormat, Text, model_text, write_pretty_at, write_pretty_items};
use crate::ois::model::{ApiSpecifications, Ois};
use crate::parallel;
use crate::source::Source;

use crate::diagnostic::Show;

/// Endpoints to check or diagnostics to locate below which the three tasks of the last stage run
/// one after the other: together they take less than starting threads would.
const ITEMS_PER_TASK: usize = 32;

/// Which diagnostics get a line and column (finding them costs time in big documents).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Positions {
    /// Every diagnostic (a JSON report has them all).
    All,
    /// Those a text report shows in full.
    Shown(Show),
}

/// A conversion rendered as text: what the CLI writes and reports. Its OIS was checked in pieces
/// and is never one `Value` unless [`Rendered::ois`] is asked for it (for a big API that would
/// take as much memory as the parsed document).
#[derive(Debug)]
#[non_exhaustive]
pub struct Rendered {
    /// The OIS object in the format asked for.
    pub text: Text,
    /// What was dropped, changed or decided, in document order.
    pub diagnostics: Vec<Diagnostic>,
    /// Counts for reports.
    pub summary: Summary,
    /// What the document says about each security scheme the OIS uses.
    pub scheme_descriptions: IndexMap<String, String>,
    /// Every OIS rule the OIS breaks (warnings and notes: it breaks none that is an error),
    /// pointing into it: its check, for a caller that shows it (the studio's draft).
    #[cfg_attr(not(feature = "studio"), allow(dead_code))]
    pub(crate) checked: Vec<Diagnostic>,
    model: Ois,
    /// The format of `text`.
    format: OutputFormat,
}

impl Rendered {
    /// The OIS object as a `Value`.
    pub fn ois(&self) -> Result<Value, Diagnostic> {
        convert::to_value(&self.model)
    }

    /// The OIS's title.
    pub fn title(&self) -> &str {
        &self.model.title
    }

    /// The OIS as the typed model (what a YAML record is written from).
    pub(crate) fn model(&self) -> &Ois {
        &self.model
    }

    /// The format of [`Rendered::text`].
    pub fn format(&self) -> OutputFormat {
        self.format
    }
}

/// Converts `root` (parsed from `source`) and renders the OIS as `format` text. The text is
/// returned only when the self-check passed; diagnostics are located as `positions` asks. A
/// Swagger 2.0 `root` is turned into the OpenAPI 3 view of itself on the way (in place: copying a
/// big document would cost more than reading it).
pub fn convert_rendered(
    source: &Source,
    root: &mut Value,
    options: &ConvertOptions,
    format: OutputFormat,
    positions: Positions,
) -> Result<Rendered, Failure> {
    let files = convert::prepare(source, root, options);
    let mut built = match convert::build(root, options, &files) {
        Ok(built) => built,
        Err(mut failure) => {
            convert::place(&mut failure.diagnostics, source, &files);
            failure.diagnostics.splice(0..0, source.take_notes());
            return Err(failure);
        }
    };
    // What parsing noticed comes first, as it came first.
    built.diagnostics.splice(0..0, source.take_notes());
    let Built { model, diagnostics, family, .. } = &mut built;
    let locate = |diagnostics: &mut Vec<Diagnostic>| match positions {
        Positions::All => convert::place(diagnostics, source, &files),
        Positions::Shown(show) => {
            let mask = show.mask(diagnostics);
            for (diagnostic, _) in diagnostics.iter_mut().zip(mask).filter(|(_, shown)| *shown) {
                files.place(diagnostic, source);
            }
        }
    };
    // Rayon's tasks, not threads of our own: in a batch every core already converts a file, and
    // the check and the serialization split their work over whichever cores are free.
    let check = || convert::self_check_model(model, *family);
    let text = || match format {
        OutputFormat::Json => ois_json(model),
        OutputFormat::Yaml => model_text(model, format).map(Text::from),
    };
    let split = parallel::worth_splitting(model.endpoints.len().max(diagnostics.len()), ITEMS_PER_TASK);
    let ((checked, text), ()) = parallel::join(split, || parallel::join(split, check, text), || locate(diagnostics));
    let checked = match checked {
        Ok(checked) => checked,
        Err(failures) => {
            let mut failure = convert::failed(built.diagnostics, failures);
            convert::place(&mut failure.diagnostics, source, &files);
            return Err(failure);
        }
    };
    match text {
        Ok(text) => Ok(Rendered {
            text,
            checked,
            diagnostics: built.diagnostics,
            summary: built.summary,
            scheme_descriptions: built.scheme_descriptions,
            model: built.model,
            format,
        }),
        Err(error) => Err(convert::failed(built.diagnostics, vec![error])),
    }
}

/// The OIS as pretty JSON, the same text serde_json writes for it, with its endpoints written in
/// chunks side by side with the rest (a big API's endpoints are most of its text: writing them
/// one after the other was the longest task of the last stage). The chunks' blocks are moved
/// into the text, not copied.
fn ois_json(model: &Ois) -> Result<Text, Diagnostic> {
    // `Ois` with an empty list of endpoints, in its field order (a test holds the two together).
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Head<'a> {
        ois_format: &'a str,
        title: &'a str,
        version: &'a str,
        api_specifications: &'a ApiSpecifications,
        endpoints: [(); 0],
    }
    let head = Head {
        ois_format: &model.ois_format,
        title: &model.title,
        version: &model.version,
        api_specifications: &model.api_specifications,
        endpoints: [],
    };
    let failed = |error: serde_json::Error| {
        Diagnostic::elsewhere(Code::OutputWrite, format!("cannot serialize the output: {error}"))
    };
    let split = parallel::worth_splitting(model.endpoints.len(), ITEMS_PER_TASK);
    let (head, endpoints) = parallel::join(
        split,
        || {
            let mut text = Text::new();
            write_pretty_at(&mut text, &head, 0).map(|()| text)
        },
        || {
            parallel::map_indexed_chunks(&model.endpoints, ITEMS_PER_TASK, |first, chunk| {
                let mut text = Text::new();
                write_pretty_items(&mut text, chunk, 1, first == 0).map(|()| text)
            })
        },
    );
    let mut text = head.map_err(failed)?;
    if !model.endpoints.is_empty() {
        // The head ends `"endpoints": []` and the root's `}`: the list is opened there.
        let closing = b"[]\n}";
        if !text.ends_with(closing) {
            return Err(failed(serde::ser::Error::custom("the OIS did not end with its endpoints")));
        }
        text.truncate(text.len() - closing.len() + 1);
        for part in endpoints {
            text.append(part.map_err(failed)?);
        }
        text.push(b"\n  ]\n}");
    }
    text.push(b"\n");
    Ok(text)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::openapi::files::Files;

    fn model(operations: usize) -> Ois {
        let paths: serde_json::Map<String, Value> = (0..operations)
            .map(|i| {
                let operation = json!({"get": {"operationId": format!("op{i}"), "parameters": [
                    {"name": "q", "in": "query", "description": "a \"quoted\"\nline", "schema": {"type": "string"}}
                ]}});
                (format!("/items/{i}"), operation)
            })
            .collect();
        let root = json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
            "servers": [{"url": "https://api.example.com"}], "paths": paths});
        convert::build(&root, &ConvertOptions::default(), &Files::default()).unwrap().model
    }

    #[test]
    fn the_ois_written_in_parts_is_the_text_serde_json_writes() {
        for operations in [0, 1, ITEMS_PER_TASK, ITEMS_PER_TASK * 3 + 5] {
            // A document with no operation is not converted; its OIS would be this one.
            let mut model = model(operations.max(1));
            model.endpoints.truncate(operations);
            let whole = serde_json::to_string_pretty(&model).unwrap() + "\n";
            assert_eq!(ois_json(&model).unwrap(), whole, "{operations} operations");
        }
    }
}
