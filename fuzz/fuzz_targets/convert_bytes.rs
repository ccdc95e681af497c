//! Raw bytes → convert (as JSON or YAML, by the first byte), then everything the CLI does with the
//! result: render every diagnostic with its source line, and the output text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ois::Source;
use ois::report::{RenderStyle, render};
use ois::{Code, ConvertOptions, convert};
use ois::{OutputFormat, to_text};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else { return };
    let name = if selector & 1 == 0 { "fuzz.json" } else { "fuzz.yaml" };
    let Ok(source) = Source::from_bytes(name, None, bytes.to_vec()) else { return };
    let options = ConvertOptions::default().with_base_url("https://api.example.com");
    let diagnostics = match convert(&source, &options) {
        Ok(conversion) => {
            let _ = to_text(&conversion.ois, OutputFormat::Json);
            conversion.diagnostics
        }
        Err(failure) => failure.diagnostics,
    };
    // The self-check is never where an input problem is found first: each has its own code.
    if let Some(bug) = diagnostics.iter().find(|d| d.code == Code::SelfCheckFailed) {
        panic!("the self-check found what the conversion missed: {diagnostics:#?}\n{bug}");
    }
    for diagnostic in &diagnostics {
        let _ = render(diagnostic, RenderStyle::default(), Some(&source));
    }
});
