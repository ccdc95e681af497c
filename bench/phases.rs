//! Where `ois convert FILE`'s time goes, phase by phase, on the path the command line takes:
//! read, parse, convert (prepare, build, then check, render and locate side by side), and the
//! text report. For finding what to optimise; `bench/run.sh` is the benchmark. With `--all`, every
//! diagnostic is located, as for `--report json`.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use ois::report::{Positions, RenderStyle, Show, convert_rendered, text_report};
use ois::{ConvertOptions, OutputFormat, Severity, Source};

/// The same allocator as the `ois` binary, or the figures would not be its figures.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: phases FILE [--all]");
        return ExitCode::from(2);
    };
    let show = Show::new(Severity::Note, false);
    let positions = if args.next().as_deref() == Some("--all") { Positions::All } else { Positions::Shown(show) };
    let mut clock = Instant::now();
    let mut lap = || {
        let now = Instant::now();
        let elapsed = (now - clock).as_secs_f64() * 1000.0;
        clock = now;
        elapsed
    };
    let source = match Source::read(Path::new(&path)) {
        Ok(source) => source,
        Err(err) => {
            eprintln!("{}", err.message);
            return ExitCode::FAILURE;
        }
    };
    let read = lap();
    let Ok(mut root) = source.parse() else { return ExitCode::FAILURE };
    let parse = lap();
    let options = ConvertOptions::default().with_base_url("https://api.example.com");
    let rendered = convert_rendered(&source, &mut root, &options, OutputFormat::Json, positions);
    let convert = lap();
    let (diagnostics, summary, bytes) = match &rendered {
        Ok(rendered) => (&rendered.diagnostics, Some(&rendered.summary), rendered.text.len()),
        Err(failure) => (&failure.diagnostics, None, 0),
    };
    let report = text_report(&source.name, diagnostics, summary, show, RenderStyle::default(), Some(&source));
    let reported = lap();
    println!(
        "read {read:.1} ms, parse {parse:.1} ms, convert {convert:.1} ms ({bytes} bytes of OIS), \
         report {reported:.1} ms ({} diagnostics, {} bytes of report)",
        diagnostics.len(),
        report.len()
    );
    // The process ends here; freeing the parsed document piece by piece would only cost time.
    std::mem::forget(root);
    ExitCode::SUCCESS
}
