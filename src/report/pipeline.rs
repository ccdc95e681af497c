//! One conversion as the CLI runs it: converted, then checked, rendered and located side by side
//! (they only read), using the other cores where there are some.

use serde_json::Value;

use crate::convert::{self, Built, Conversion, ConvertOptions, Failure};
use crate::diagnostic::{Code, Diagnostic, Document};
use crate::emit::{OutputFormat, model_text};
use crate::source::Source;

use super::group::Show;

/// Which diagnostics get a line and column (finding them costs time in big documents).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Positions {
    /// Every diagnostic (a JSON report has them all).
    All,
    /// Those a text report shows in full.
    Shown(Show),
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
) -> Result<(Conversion, String), Failure> {
    let files = convert::prepare(source, root, options);
    let mut built = match convert::build(root, options, &files) {
        Ok(built) => built,
        Err(mut failure) => {
            convert::place(&mut failure.diagnostics, source, &files);
            return Err(failure);
        }
    };
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
    let check = |model| {
        convert::to_value(model)
            .map_err(|error| vec![error])
            .and_then(|ois| convert::self_check(&ois, *family).map(|()| ois))
    };
    // In a batch every core already converts a file of its own: more threads would only contend.
    let (checked, text) = if rayon::current_thread_index().is_some() {
        locate(diagnostics);
        (check(model), model_text(model, format))
    } else {
        std::thread::scope(|scope| {
            // The big allocations (the checked Value) stay on this thread, so its arena is reused.
            let renderer = scope.spawn(|| model_text(model, format));
            let locator = scope.spawn(|| locate(diagnostics));
            let checked = check(model);
            let stopped = || {
                Diagnostic::new(Code::SelfCheckFailed, "", "rendering stopped unexpectedly")
                    .in_document(Document::Output)
            };
            let text = renderer.join().unwrap_or_else(|_| Err(stopped()));
            let _ = locator.join();
            (checked, text)
        })
    };
    let ois = match checked {
        Ok(ois) => ois,
        Err(failures) => {
            let mut failure = convert::failed(built.diagnostics, failures);
            convert::place(&mut failure.diagnostics, source, &files);
            return Err(failure);
        }
    };
    match text {
        Ok(text) => Ok((built.into_conversion(ois), text)),
        Err(error) => Err(convert::failed(built.diagnostics, vec![error])),
    }
}
