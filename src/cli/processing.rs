//! `ois processing extract|embed`: an endpoint's snippets as `.js` files and back.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ois::request::snippet_files::{self, SnippetFile};
use ois::{Code, Diagnostic, Fix, OisDocument, OutputFormat, Severity, Source};

use super::fail_with;

#[derive(clap::Subcommand)]
pub(crate) enum ProcessingCommand {
    /// Write each processing snippet of an endpoint to a .js file (pre.v2.js, post.v1.0.js, …),
    /// as the code the node runs: `\${` in the OIS is `${` in the file.
    Extract(ExtractArgs),
    /// Put the .js files of a folder back into the endpoint, escaped for the node (JSON and
    /// `\${`); code that does not parse is refused.
    Embed(EmbedArgs),
}

#[derive(clap::Args)]
pub(crate) struct ExtractArgs {
    /// An OIS (JSON or YAML) or a config.json.
    file: PathBuf,
    /// The endpoint whose snippets to write.
    #[arg(long)]
    endpoint: String,
    /// The folder to write them to (created when missing).
    #[arg(short, long, value_name = "DIR")]
    output: PathBuf,
    /// With a config.json of several OIS objects: the title of the one to use.
    #[arg(long = "ois", value_name = "TITLE")]
    ois_title: Option<String>,
    /// Replace files that exist.
    #[arg(long)]
    force: bool,
}

#[derive(clap::Args)]
pub(crate) struct EmbedArgs {
    /// An OIS (JSON or YAML) or a config.json; replaced unless --output is given.
    file: PathBuf,
    /// The endpoint to put the snippets into.
    #[arg(long)]
    endpoint: String,
    /// The folder of .js files (as `extract` names them).
    dir: PathBuf,
    /// Write the result here instead of replacing FILE.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// With a config.json of several OIS objects: the title of the one to use.
    #[arg(long = "ois", value_name = "TITLE")]
    ois_title: Option<String>,
}

pub(crate) fn run_processing(command: ProcessingCommand) -> ExitCode {
    let done = match command {
        ProcessingCommand::Extract(args) => extract(&args),
        ProcessingCommand::Embed(args) => embed(&args),
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail_with(&error),
    }
}

/// The pointer of the OIS to use in `root`, or why there is none (located in `source`).
fn chosen(root: &serde_json::Value, title: Option<&str>, source: &Source) -> Result<String, Diagnostic> {
    let choose = || Ok(OisDocument::read(root).map_err(|(_, error)| error)?.choose(title)?.pointer);
    choose().map_err(|mut error: Diagnostic| {
        source.locate_diagnostic(&mut error);
        error
    })
}

fn extract(args: &ExtractArgs) -> Result<(), Diagnostic> {
    let source = Source::read(&args.file)?;
    let root = source.parse()?;
    let at = chosen(&root, args.ois_title.as_deref(), &source)?;
    let ois = root.pointer(&at).unwrap_or(&root);
    let files = snippet_files::extract(ois, &args.endpoint).map_err(|mut error| {
        error = error.within(&at);
        source.locate_diagnostic(&mut error);
        error
    })?;
    if files.is_empty() {
        return Err(Diagnostic::elsewhere(
            Code::BadArgument,
            format!("endpoint \"{}\" has no processing snippets", args.endpoint),
        ));
    }
    std::fs::create_dir_all(&args.output).map_err(|err| {
        Diagnostic::elsewhere(Code::OutputWrite, format!("cannot create {}: {err}", args.output.display()))
    })?;
    // Every target is checked before any is written.
    if !args.force
        && let Some(existing) = files.iter().map(|f| args.output.join(&f.name)).find(|p| p.exists())
    {
        return Err(
            Diagnostic::elsewhere(Code::OutputExists, format!("{} exists", existing.display())).with_fix(Fix::Replace)
        );
    }
    for SnippetFile { name, code, pointer } in &files {
        // A file ends with a newline; `embed` takes exactly that one off again.
        let text = format!("{code}\n");
        ois::write_atomically(&args.output.join(name), &text, true)?;
        eprintln!("{} <- {}{pointer}", args.output.join(name).display(), at);
    }
    Ok(())
}

fn read_folder(dir: &Path) -> Result<Vec<(String, String)>, Diagnostic> {
    let unreadable = |err: std::io::Error| {
        Diagnostic::elsewhere(Code::InputUnreadable, format!("cannot read {}: {err}", dir.display()))
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let path = entry.map_err(unreadable)?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()).map(str::to_owned) else { continue };
        if !name.ends_with(".js") {
            continue;
        }
        let code = Source::read_regular(&path)?.text;
        files.push((name, code.strip_suffix('\n').map(str::to_owned).unwrap_or(code)));
    }
    files.sort();
    if files.is_empty() {
        return Err(Diagnostic::elsewhere(Code::BadArgument, format!("{} holds no .js files", dir.display())));
    }
    Ok(files)
}

fn embed(args: &EmbedArgs) -> Result<(), Diagnostic> {
    let source = Source::read(&args.file)?;
    let mut root = source.parse()?;
    let at = chosen(&root, args.ois_title.as_deref(), &source)?;
    let files = read_folder(&args.dir)?;
    let ois = root.pointer_mut(&at).ok_or_else(|| Diagnostic::elsewhere(Code::OisChoice, "the OIS is gone"))?;
    let written = snippet_files::embed(ois, &args.endpoint, &files)?;
    // Code the node cannot run is refused before anything is written.
    let validation = ois::validate_value(&root, None);
    let broken: Vec<&Diagnostic> = validation
        .diagnostics
        .iter()
        .filter(|d| {
            d.severity == Severity::Error
                && matches!(d.code, Code::SnippetUnrunnable | Code::NoSnippetResult | Code::UnescapedTemplate)
                && written.iter().any(|w| d.location.pointer == format!("{at}{w}"))
        })
        .collect();
    if let Some(first) = broken.first() {
        for other in broken.iter().skip(1) {
            let _ = fail_with(other);
        }
        return Err((*first).clone());
    }
    let target = args.output.as_deref().unwrap_or(&args.file);
    let format = match (args.output.as_ref(), source.format) {
        (Some(path), _) => OutputFormat::for_path(path),
        (None, ois::SourceFormat::Yaml) => OutputFormat::Yaml,
        (None, _) => OutputFormat::Json,
    };
    let text = ois::to_text(&root, format)?;
    ois::write_atomically(target, &text, true)?;
    for pointer in &written {
        eprintln!("{}{pointer} <- {}", target.display(), args.dir.display());
    }
    Ok(())
}
