//! One conversion as the CLI runs it: converted, then checked, rendered and located side by side
//! (they only read), using the other cores where there are some.

use indexmap::IndexMap;
use serde_json::Value;

use crate::convert::{self, Built, ConvertOptions, Failure, Summary};
use crate::diagnostic::Diagnostic;
use crate::emit::{OutputFormat, model_text};
use crate::ois::model::Ois;
use crate::parallel;
use crate::source::Source;

use super::group::Show;

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
    pub text: String,
    /// What was dropped, changed or decided, in document order.
    pub diagnostics: Vec<Diagnostic>,
    /// Counts for reports.
    pub summary: Summary,
    /// What the document says about each security scheme the OIS uses.
    pub scheme_descriptions: IndexMap<String, String>,
    model: Ois,
}

impl Rendered {
    /// The OIS object as a `Value`.
    pub fn ois(&self) -> Result<Value, Diagnostic> {
        convert::to_value(&self.model)
    }

    /// The path and text of the conversion record next to the OIS file `output`, with `options`
    /// as given (`crate::update::record`); the OIS is written straight from the model.
    pub fn record_file(
        &self,
        output: &std::path::Path,
        options: &crate::update::record::RecordedOptions,
    ) -> Result<(std::path::PathBuf, String), Diagnostic> {
        crate::update::record::file_next_to(output, &self.model.title, options, &self.model)
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
    // An OIS is rarely much longer than its document (Kubernetes': 1.14×; most are a third).
    let expected = source.text.len().saturating_add(source.text.len() / 4);
    let text = || model_text(model, format, expected);
    let split = parallel::worth_splitting(model.endpoints.len().max(diagnostics.len()), ITEMS_PER_TASK);
    let ((checked, text), ()) = parallel::join(split, || parallel::join(split, check, text), || locate(diagnostics));
    if let Err(failures) = checked {
        let mut failure = convert::failed(built.diagnostics, failures);
        convert::place(&mut failure.diagnostics, source, &files);
        return Err(failure);
    }
    match text {
        Ok(text) => Ok(Rendered {
            text,
            diagnostics: built.diagnostics,
            summary: built.summary,
            scheme_descriptions: built.scheme_descriptions,
            model: built.model,
        }),
        Err(error) => Err(convert::failed(built.diagnostics, vec![error])),
    }
}
