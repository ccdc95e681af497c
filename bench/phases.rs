//! Where `ois convert`'s time goes, phase by phase, for one document: read, parse, convert (with
//! its self-check), locate diagnostics, render. For finding what to optimise; `bench/run.sh`
//! is the benchmark.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use ois::Source;
use ois::{ConvertOptions, convert_value};
use ois::{OutputFormat, to_text};

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: phases FILE");
        return ExitCode::from(2);
    };
    let start = Instant::now();
    let lap = || {
        let elapsed = start.elapsed();
        move |later: std::time::Duration| (later - elapsed).as_secs_f64() * 1000.0
    };
    let since_start = lap();
    let source = match Source::read(Path::new(&path)) {
        Ok(source) => source,
        Err(err) => {
            eprintln!("{}", err.message);
            return ExitCode::FAILURE;
        }
    };
    let read = since_start(start.elapsed());
    let since = lap();
    let Ok(root) = source.parse() else { return ExitCode::FAILURE };
    let parse = since(start.elapsed());
    let options = ConvertOptions::default().with_base_url("https://api.example.com");
    let since = lap();
    let Ok(mut conversion) = convert_value(&root, &options) else { return ExitCode::FAILURE };
    let convert = since(start.elapsed());
    let since = lap();
    let _ = ois::check_ois(&conversion.ois, None);
    let check = since(start.elapsed());
    let since = lap();
    for diagnostic in &mut conversion.diagnostics {
        source.locate_diagnostic(diagnostic);
    }
    let located = since(start.elapsed());
    let since = lap();
    let text = to_text(&conversion.ois, OutputFormat::Json).map(|t| t.len()).unwrap_or(0);
    let render = since(start.elapsed());
    println!(
        "read {read:.1} ms, parse {parse:.1} ms, convert {convert:.1} ms (of which the self-check ~{check:.1} ms), \
         locate {located:.1} ms ({} diagnostics), render {render:.1} ms ({text} bytes)",
        conversion.diagnostics.len()
    );
    ExitCode::SUCCESS
}
