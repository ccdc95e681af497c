//! Where `ois convert FILE`'s time goes, phase by phase, on the path the command line takes:
//! read, parse, convert (prepare, build, then check, render and locate side by side), and the
//! text report. With `--studio`, the studio's *Open* of the file instead: the session's open
//! (converted, the draft checked, the view made) and the answer's text, as the server sends it. For finding what to optimise; `bench/run.sh` is the benchmark. With `--all`, every
//! diagnostic is located, as for `--report json`. Beside each phase's time it prints the heap
//! in use after it and the highest it reached during it: on these machines every fresh 2 MB of
//! heap is a huge page the kernel zeroes first, so memory touched is time spent.

use std::alloc::{GlobalAlloc, Layout};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use ois::convert::{Positions, convert_rendered};
use ois::report::{RenderStyle, Show, text_report};
use ois::{ConvertOptions, OutputFormat, Severity, Source};

/// The same allocator as the `ois` binary, or the figures would not be its figures, counting the
/// bytes in use and the most there were since the last phase ended.
#[global_allocator]
static ALLOCATOR: Counting = Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static TOTAL: AtomicUsize = AtomicUsize::new(0);
static COUNT: AtomicUsize = AtomicUsize::new(0);

struct Counting;

impl Counting {
    fn grew(size: usize) {
        TOTAL.fetch_add(size, Ordering::Relaxed);
        COUNT.fetch_add(1, Ordering::Relaxed);
        let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
        PEAK.fetch_max(live, Ordering::Relaxed);
    }
}

// SAFETY: every call is passed to mimalloc unchanged; the counters only watch.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Counting::grew(layout.size());
        // SAFETY: as the caller promised for `layout`.
        unsafe { mimalloc::MiMalloc.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: as the caller promised for `ptr` and `layout`.
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Counting::grew(layout.size());
        // SAFETY: as the caller promised for `layout`.
        unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        Counting::grew(new_size);
        // SAFETY: as the caller promised for `ptr`, `layout` and `new_size`.
        unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
    }
}

/// "12.3 ms (heap 40.1 MB, peak 52.0 MB)", and the peak starts again from what is in use now.
fn phase(ms: f64) -> String {
    let live = LIVE.load(Ordering::Relaxed);
    let peak = PEAK.swap(live, Ordering::Relaxed);
    let rss = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmRSS"))
                .map(|l| l.split_whitespace().nth(1).unwrap_or("?").to_owned())
        })
        .unwrap_or_default();
    let total = TOTAL.swap(0, Ordering::Relaxed);
    let count = COUNT.swap(0, Ordering::Relaxed);
    format!(
        "{ms:.1} ms (heap {:.1} MB, peak {:.1} MB, rss {rss} kB; {count} allocations, {:.1} MB)",
        live as f64 / 1e6,
        peak as f64 / 1e6,
        total as f64 / 1e6
    )
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: phases FILE [--all | --studio]");
        return ExitCode::from(2);
    };
    let mode = args.next();
    if mode.as_deref() == Some("--studio") {
        return studio_open(Path::new(&path));
    }
    let show = Show::new(Severity::Note, false);
    let positions = if mode.as_deref() == Some("--all") { Positions::All } else { Positions::Shown(show) };
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
    let read = phase(lap());
    let Ok(mut root) = source.parse() else { return ExitCode::FAILURE };
    let parse = phase(lap());
    let options = ConvertOptions::default().with_base_url("https://api.example.com");
    let rendered = convert_rendered(&source, &mut root, &options, OutputFormat::Json, positions);
    let convert = phase(lap());
    let (diagnostics, summary, bytes) = match &rendered {
        Ok(rendered) => (&rendered.diagnostics, Some(&rendered.summary), rendered.text.len()),
        Err(failure) => (&failure.diagnostics, None, 0),
    };
    let report = text_report(&source.name, diagnostics, summary, show, RenderStyle::default(), Some(&source));
    let reported = phase(lap());
    println!(
        "read {read}\nparse {parse}\nconvert {convert}: {bytes} bytes of OIS\n\
         report {reported}: {} diagnostics, {} bytes of report",
        diagnostics.len(),
        report.len()
    );
    // The process ends here; freeing the parsed document piece by piece would only cost time.
    std::mem::forget(root);
    ExitCode::SUCCESS
}

/// The studio's steps on `path`, as `bench/studio.js` clicks them: *Open* twice (the second as a
/// user opening it again: the first document's state is dropped on the way), then three edits of
/// the first endpoint (a reserved value set, another each time) answered to the page holding the
/// view, *Undo*, and *Preview the request* of that endpoint; each as the server answers it, on a session of the file's folder, with what
/// the studio holds until the next step.
#[cfg(feature = "studio")]
fn studio_open(path: &Path) -> ExitCode {
    use ois::studio::{Folder, Incoming, Studio};
    let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else { return ExitCode::from(2) };
    let folder = if folder.as_os_str().is_empty() { Path::new(".") } else { folder };
    let Ok(folder) = Folder::new(folder) else { return ExitCode::FAILURE };
    let studio = Studio::new(folder, 8000, "token".to_owned());
    let request = |url: &str, body: serde_json::Value| Incoming {
        method: "POST".to_owned(),
        url: url.to_owned(),
        host: Some("127.0.0.1:8000".to_owned()),
        token: Some("token".to_owned()),
        origin: None,
        body: body.to_string().into_bytes(),
    };
    let mut seen = serde_json::Value::Null;
    let mut first = String::new();
    // Three edits, each another value: what undo holds for them shows in what is held after.
    for step in ["open (first)", "open (again)", "edit", "edit (another value)", "edit (a third)", "undo", "preview"] {
        let incoming = match step {
            "preview" => request("/api/request", serde_json::json!({"endpoint": first})),
            edit if edit.starts_with("edit") => {
                let times = format!("{}000", edit.len());
                let settings = serde_json::json!({"reserved": [["_times", times]]});
                request(
                    "/api/edit",
                    serde_json::json!({"kind": "set", "name": first, "settings": settings, "seen": seen}),
                )
            }
            "undo" => request("/api/undo", serde_json::json!({"seen": seen})),
            _ => request("/api/open", serde_json::json!({"path": name.to_string_lossy()})),
        };
        let started = Instant::now();
        let _ = phase(0.0);
        let answer = studio.handle(&incoming);
        let took = phase((Instant::now() - started).as_secs_f64() * 1000.0);
        println!("{step} {took}: {} bytes answered, status {}", answer.body.len(), answer.status);
        let view: serde_json::Value = serde_json::from_slice(&answer.body).unwrap_or_default();
        if let Some(revision) = view.pointer("/answer/draft/revision") {
            seen = revision.clone();
        }
        if let Some(name) = view.pointer("/answer/draft/endpoints/0/name").and_then(|n| n.as_str()) {
            first = name.to_owned();
        }
        // The trees a step frees aside are gone a moment later: what the studio holds until the
        // next step.
        drop((answer, view));
        std::thread::sleep(std::time::Duration::from_millis(500));
        println!("  held until the next step: {:.1} MB", LIVE.load(Ordering::Relaxed) as f64 / 1e6);
        let _ = phase(0.0);
    }
    ExitCode::SUCCESS
}

#[cfg(not(feature = "studio"))]
fn studio_open(_: &Path) -> ExitCode {
    eprintln!("the studio is not built in (the `studio` feature)");
    ExitCode::from(2)
}
