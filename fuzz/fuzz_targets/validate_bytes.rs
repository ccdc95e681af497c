//! Raw bytes → validate (an OIS, a list, or a config.json), rendering every diagnostic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ois::Source;
use ois::report::{RenderStyle, render};
use ois::validate;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else { return };
    let name = if selector & 1 == 0 { "fuzz.json" } else { "fuzz.yaml" };
    let Ok(source) = Source::from_bytes(name, None, bytes.to_vec()) else { return };
    let validation = validate(&source, None);
    for diagnostic in &validation.diagnostics {
        let _ = render(diagnostic, RenderStyle::default(), Some(&source));
    }
});
