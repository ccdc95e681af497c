//! The layering ARCHITECTURE.md draws holds, read from whole files (every item but `#[cfg(test)]`
//! ones) with `syn`, every `use` tree expanded and every path in the code followed:
//!
//! - a library module imports only modules below it in [`LAYERS`];
//! - no two modules depend on each other, directly or through others (a module may use its own
//!   parent's items; that is not a dependency that can loop);
//! - the conversion stages import `shared`/`options`, not each other;
//! - the command line builds no JSON of its own: reports are the library's typed ones.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// Top-level library modules, top first. A module may import those after it, never those before.
const LAYERS: &[&str] = &[
    "studio",
    "jobs",
    "report",
    "update",
    "edit",
    "convert",
    "validate",
    "call",
    "request",
    "processing",
    "scaffold",
    "node",
    "ois",
    "js",
    "openapi",
    "source",
    "emit",
    "diagnostic",
    "pointer",
    "parallel",
    "testing",
];

/// Conversion stages and the sibling modules each may import.
const STAGES: &[(&str, &[&str])] = &[
    ("body", &["shared"]),
    ("endpoints", &["shared"]),
    ("meta", &[]),
    ("operations", &["shared", "options", "body", "filter"]),
    ("security", &["shared"]),
    ("servers", &["shared", "options"]),
    ("shared", &[]),
    ("templates", &[]),
    ("options", &["filter"]),
    ("reading", &[]),
    ("filter", &["shared"]),
    ("given", &["options", "filter"]),
    ("pipeline", &["shared", "options"]),
];

type Module = Vec<String>;

/// Which crate a file belongs to: the library (`src/lib.rs` and its modules) or the program
/// (`src/main.rs` and `src/cli/`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Crate {
    Library,
    Program,
}

struct File {
    krate: Crate,
    module: Module,
    syntax: syn::File,
}

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg") && attr.parse_args::<syn::Meta>().is_ok_and(|meta| meta.path().is_ident("test"))
    })
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Mod(m) => &m.attrs,
        syn::Item::Fn(f) => &f.attrs,
        syn::Item::Use(u) => &u.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Struct(s) => &s.attrs,
        syn::Item::Enum(e) => &e.attrs,
        syn::Item::Const(c) => &c.attrs,
        syn::Item::Static(s) => &s.attrs,
        syn::Item::Trait(t) => &t.attrs,
        syn::Item::Type(t) => &t.attrs,
        syn::Item::Macro(m) => &m.attrs,
        _ => &[],
    }
}

/// Every file of `src/`, parsed, with what `#[cfg(test)]` keeps out removed (tests may reach
/// anywhere).
fn files() -> Vec<File> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let relative = path.strip_prefix(&src).unwrap();
            let mut module: Module = relative
                .with_extension("")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if module.last().is_some_and(|last| last == "mod") {
                module.pop();
            }
            let krate = if module.first().is_some_and(|first| first == "main" || first == "cli") {
                Crate::Program
            } else {
                Crate::Library
            };
            if module == ["lib"] || module == ["main"] {
                module.clear();
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let mut syntax = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            syntax.items.retain(|item| !is_test_only(item_attrs(item)));
            File { krate, module, syntax }
        })
        .collect()
}

/// Every path a file's code names: `use` trees expanded (`use crate::{a, b::c}` names both), and
/// every path in its types and expressions.
#[derive(Default)]
struct Paths {
    found: Vec<Vec<String>>,
    json_macros: usize,
}

impl Paths {
    fn use_tree(&mut self, prefix: &[String], tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(path) => {
                let mut longer = prefix.to_vec();
                longer.push(path.ident.to_string());
                self.use_tree(&longer, &path.tree);
            }
            syn::UseTree::Name(name) => self.found.push([prefix, &[name.ident.to_string()]].concat()),
            syn::UseTree::Rename(rename) => self.found.push([prefix, &[rename.ident.to_string()]].concat()),
            syn::UseTree::Glob(_) => self.found.push(prefix.to_vec()),
            syn::UseTree::Group(group) => group.items.iter().for_each(|item| self.use_tree(prefix, item)),
        }
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&[], &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.found.push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if mac.path.segments.last().is_some_and(|s| s.ident == "json") {
            self.json_macros += 1;
        }
        syn::visit::visit_macro(self, mac);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }
}

/// The module of `krate` a path names from `module`, when it names one of its modules: the
/// longest known prefix of its absolute form.
fn resolve(path: &[String], module: &Module, known: &BTreeSet<Module>) -> Option<Module> {
    let mut absolute: Module = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        Some("self") => module.clone(),
        Some("super") => {
            let mut base = module.clone();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            return longest_known(&[base, rest.to_vec()].concat(), known);
        }
        Some(first) => {
            // A child module named without `self::` (`use convert::run` in a folder's mod.rs).
            let child: Module = [module.as_slice(), &[first.to_owned()]].concat();
            if !known.contains(&child) {
                return None;
            }
            module.clone()
        }
        None => return None,
    };
    let skip = usize::from(matches!(path.first().map(String::as_str), Some("crate" | "self")));
    absolute.extend(path.iter().skip(skip).cloned());
    longest_known(&absolute, known)
}

fn longest_known(absolute: &[String], known: &BTreeSet<Module>) -> Option<Module> {
    (1..=absolute.len()).rev().map(|n| absolute[..n].to_vec()).find(|prefix| known.contains(prefix))
}

/// Each module's dependencies on other modules of its crate, leaving out its own ancestors
/// (a child may use what its parent declares).
fn graph(files: &[File]) -> BTreeMap<(Crate, Module), BTreeSet<Module>> {
    let mut graph = BTreeMap::new();
    for krate in [Crate::Library, Crate::Program] {
        let known: BTreeSet<Module> = files.iter().filter(|f| f.krate == krate).map(|f| f.module.clone()).collect();
        for file in files.iter().filter(|f| f.krate == krate) {
            let mut paths = Paths::default();
            paths.visit_file(&file.syntax);
            let targets: BTreeSet<Module> = paths
                .found
                .iter()
                .filter_map(|path| resolve(path, &file.module, &known))
                .filter(|target| *target != file.module && !file.module.starts_with(target))
                .collect();
            graph.insert((krate, file.module.clone()), targets);
        }
    }
    graph
}

fn name(module: &Module) -> String {
    if module.is_empty() { "(root)".to_owned() } else { module.join("/") }
}

#[test]
fn library_modules_import_only_modules_below_them() {
    let files = files();
    let mut wrong = Vec::new();
    for ((krate, module), targets) in graph(&files) {
        let Some(top) = module.first().filter(|_| krate == Crate::Library) else { continue };
        let rank = LAYERS.iter().position(|l| l == top).unwrap_or_else(|| panic!("{top} is not in LAYERS"));
        for target in targets {
            let Some(other) = target.first().and_then(|t| LAYERS.iter().position(|l| l == t)) else { continue };
            if other < rank {
                wrong.push(format!("{} imports {}, which is above it", name(&module), name(&target)));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// `ois convert`'s walk goes down once: the jobs that run a conversion import its options and its
/// pipeline from `convert/`, never from `update/` (which only writes the record) or `report/`.
#[test]
fn a_conversion_walks_down_once() {
    let graph = graph(&files());
    let mut wrong = Vec::new();
    for job in ["convert", "batch", "outputs"] {
        let module: Module = vec!["jobs".to_owned(), job.to_owned()];
        for target in graph.get(&(Crate::Library, module.clone())).into_iter().flatten() {
            let allowed = *target == ["update".to_owned(), "record".to_owned()] && job == "outputs";
            if matches!(target.first().map(String::as_str), Some("update" | "report")) && !allowed {
                wrong.push(format!("{} imports {}", name(&module), name(target)));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn no_modules_depend_on_each_other() {
    let graph = graph(&files());
    let mut cycles = BTreeSet::new();
    for (krate, start) in graph.keys() {
        let krate = *krate;
        // Depth-first from each module: a path back to it is a cycle.
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((module, trail)) = stack.pop() {
            for next in graph.get(&(krate, module.clone())).into_iter().flatten() {
                if next == start {
                    let mut cycle: Vec<String> = trail.iter().map(name).collect();
                    // One spelling per cycle: from its least module.
                    let least = (0..cycle.len()).min_by_key(|i| cycle[*i].clone()).unwrap();
                    cycle.rotate_left(least);
                    cycles.insert(cycle.join(" → "));
                } else if seen.insert(next.clone()) {
                    stack.push((next.clone(), [trail.clone(), vec![next.clone()]].concat()));
                }
            }
        }
    }
    assert!(cycles.is_empty(), "modules that depend on each other: {cycles:#?}");
}

#[test]
fn the_guard_sees_grouped_imports_and_code_after_the_imports() {
    let known: BTreeSet<Module> =
        [vec!["a".to_owned()], vec!["b".to_owned()], vec!["b".to_owned(), "c".to_owned()]].into_iter().collect();
    let syntax: syn::File = syn::parse_str(
        "use crate::{a::f, b::c::g};\nfn h() { super::a::x(); }\n#[cfg(test)]\nmod tests { use crate::z; }",
    )
    .unwrap();
    let mut paths = Paths::default();
    paths.visit_file(&syntax);
    let resolved: BTreeSet<Module> = paths.found.iter().filter_map(|p| resolve(p, &vec!["b".into()], &known)).collect();
    let names: Vec<String> = resolved.iter().map(name).collect();
    assert_eq!(names, ["a", "b/c"]);
}

#[test]
fn conversion_stages_import_what_they_share_not_each_other() {
    let files = files();
    let graph = graph(&files);
    let mut wrong = Vec::new();
    for (stage, allowed) in STAGES {
        let module: Module = vec!["convert".into(), (*stage).into()];
        let targets = graph.get(&(Crate::Library, module)).unwrap_or_else(|| panic!("no stage {stage}"));
        for target in targets {
            if let [convert, sibling] = target.as_slice()
                && convert == "convert"
                && STAGES.iter().any(|(s, _)| s == sibling)
                && !allowed.contains(&sibling.as_str())
            {
                wrong.push(format!("convert/{stage}.rs imports {sibling}"));
            }
        }
    }
    let stages = files.iter().filter(|f| f.module.len() == 2 && f.module[0] == "convert").count();
    assert_eq!(stages, STAGES.len(), "a new stage belongs in STAGES");
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn the_command_line_builds_no_json_of_its_own() {
    let mut wrong = Vec::new();
    for file in files().iter().filter(|f| f.krate == Crate::Program) {
        let mut paths = Paths::default();
        paths.visit_file(&file.syntax);
        if paths.json_macros > 0 {
            wrong.push(format!("{}: {} json! literal(s)", name(&file.module), paths.json_macros));
        }
    }
    assert!(wrong.is_empty(), "reports are the library's typed ones: {wrong:#?}");
}

/// The string literals of a file's code (macro arguments included).
#[derive(Default)]
struct Strings {
    found: Vec<String>,
}

impl<'ast> Visit<'ast> for Strings {
    fn visit_lit_str(&mut self, literal: &'ast syn::LitStr) {
        self.found.push(literal.value());
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // format!, write! and the like: their arguments are tokens, parsed here as expressions.
        let parsed = mac.parse_body_with(syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated);
        for expr in parsed.into_iter().flatten() {
            self.visit_expr(&expr);
        }
        syn::visit::visit_macro(self, mac);
    }

    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {
        // Doc comments are documentation, not messages.
    }
}

/// Whether `text` names a command-line flag (`--server`, `--update`).
fn names_a_flag(text: &str) -> bool {
    text.match_indices("--").any(|(at, _)| {
        let before = text.get(..at).and_then(|b| b.chars().last());
        let after = text.get(at + 2..).and_then(|a| a.chars().next());
        before.is_none_or(|c| !c.is_alphanumeric() && c != '-') && after.is_some_and(|c| c.is_ascii_lowercase())
    })
}

/// Library text that names a flag on purpose: what a curl command or a node process is given,
/// and what is written into a file for whoever reads the file.
const FLAGS_ALLOWED: &[(&str, &str)] = &[
    ("request::render", "--data-raw"),
    ("update::record", "ois convert --update"),
    ("ois::schema", "ois call --all"),
    // The deployment folder's README and compose file: commands for whoever runs the folder.
    ("scaffold::deploy", "docker compose --profile"),
    ("scaffold::deploy", "ois status {FEED_CONFIG} --secrets"),
];

/// Every string literal of the library's code, with its module (`request::render`).
fn library_strings() -> Vec<(String, String)> {
    let mut found = Vec::new();
    for file in files().iter().filter(|f| f.krate == Crate::Library) {
        let mut strings = Strings::default();
        strings.visit_file(&file.syntax);
        let module = file.module.join("::");
        found.extend(strings.found.into_iter().map(|text| (module.clone(), text)));
    }
    found
}

/// Library messages never name a command-line flag (ripgrep's rule): a `Fix` says which setting
/// would help, and each front end names it its own way — the studio's page has no flags.
#[test]
fn library_text_names_no_flag() {
    let mut wrong = Vec::new();
    for (module, text) in library_strings() {
        let allowed = FLAGS_ALLOWED.iter().any(|(m, t)| *m == module && text.contains(t));
        if names_a_flag(&text) && !allowed {
            wrong.push(format!("{module}: {text:?}"));
        }
    }
    assert!(wrong.is_empty(), "library text naming a flag ({}):\n{}", wrong.len(), wrong.join("\n"));
    assert!(names_a_flag("choose another port with --port") && !names_a_flag("a -- b") && !names_a_flag("x--y"));
}

/// The subcommands of `ois`, as its definition lists them (`ois --help`).
fn subcommands() -> Vec<String> {
    let help = crate::common::ois().arg("--help").output().unwrap();
    let text = String::from_utf8(help.stdout).unwrap();
    let listed = text.split("Commands:").nth(1).and_then(|rest| rest.split("Options:").next()).unwrap();
    let names: Vec<String> = listed
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect();
    assert!(names.len() > 10 && names.iter().any(|n| n == "feed"), "{names:?}");
    names
}

/// Library text that names a command on purpose: what is written into a file for whoever reads
/// it, the studio's own start, the terminal renderer's pointer to `ois explain`, thread names.
const COMMANDS_ALLOWED: &[(&str, &str)] = &[
    ("update::record", "ois convert"),
    ("ois::schema", "ois call --all"),
    ("scaffold::deploy", "ois scaffold deploy"),
    ("scaffold::deploy", "ois status"),
    ("studio::gate", "ois studio"),
    ("studio::session", "ois studio drop"),
    ("studio::memory", "ois studio memory"),
    ("report::group", "ois explain"),
    ("report::render", "ois explain"),
    ("diagnostic::codes", "ois explain CODE"),
];

/// Library messages never name a command either: the studio's page has none. A `Fix` says what
/// would help (`Fix::ChangeFeed`), and the command line names its command.
#[test]
fn library_text_names_no_command() {
    let commands = subcommands();
    let mut wrong = Vec::new();
    for (module, text) in library_strings() {
        let named = commands.iter().find(|command| {
            text.match_indices(&format!("ois {command}")).any(|(at, found)| {
                let after = text.get(at + found.len()..).and_then(|a| a.chars().next());
                after.is_none_or(|c| !c.is_alphanumeric() && c != '-')
            })
        });
        let allowed = COMMANDS_ALLOWED.iter().any(|(m, t)| module.starts_with(m) && text.contains(t));
        if let (Some(command), false) = (named, allowed) {
            wrong.push(format!("{module}: ois {command}: {text:?}"));
        }
    }
    let summaries =
        ois::Code::ALL.iter().filter(|code| commands.iter().any(|c| code.summary().contains(&format!("ois {c}"))));
    wrong.extend(summaries.map(|code| format!("{code}: {}", code.summary())));
    assert!(wrong.is_empty(), "library text naming a command ({}):\n{}", wrong.len(), wrong.join("\n"));
}

/// The code table's summaries (shown by `ois explain`, the studio, SARIF rules) name no flag either.
#[test]
fn code_summaries_name_no_flag() {
    let wrong: Vec<String> = ois::Code::ALL
        .iter()
        .filter(|code| names_a_flag(code.summary()))
        .map(|code| format!("{code}: {}", code.summary()))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The crates only the `ois` command needs: behind the `cli` feature, named by no library file, so a
/// library user (`default-features = false`) builds none of them.
const COMMAND_LINE_CRATES: &[&str] =
    &["clap", "clap_complete", "clap_mangen", "indicatif", "mimalloc", "libmimalloc-sys", "libc"];

#[test]
fn the_library_builds_no_command_line_crate() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let feature = manifest.lines().find(|line| line.starts_with("cli = [")).expect("a cli feature");
    for krate in COMMAND_LINE_CRATES {
        let declared = manifest.lines().find(|line| line.starts_with(&format!("{krate} = "))).unwrap();
        assert!(declared.contains("optional = true"), "{declared}");
        assert!(feature.contains(&format!("\"dep:{krate}\"")), "{krate} is not in {feature}");
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    let mut wrong = Vec::new();
    for path in paths {
        let relative = path.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
        if relative == "main.rs" || relative.starts_with("cli") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for krate in COMMAND_LINE_CRATES {
            let named = krate.replace('-', "_");
            let uses = text
                .match_indices(&format!("{named}::"))
                .any(|(at, _)| text[..at].chars().last().is_none_or(|c| !c.is_alphanumeric() && c != '_'));
            if uses {
                wrong.push(format!("{relative}: {krate}"));
            }
        }
    }
    assert!(wrong.is_empty(), "library files naming a command-line crate: {wrong:?}");
}

/// The files of `src/` still over [`LONG_FILE_LINES`], each to be split by concern when next
/// changed; a file not named here that grows past it fails, and so does a ninth long file.
const LONG_FILES_ALLOWED: &[&str] = &[
    "ois/rules/tape.rs",
    "source/mod.rs",
    "convert/security.rs",
    "source/locate/mod.rs",
    "convert/operations.rs",
    "processing/embedded.rs",
    "convert/mod.rs",
];

/// Lines past which a file is long.
const LONG_FILE_LINES: usize = 600;

#[test]
fn no_new_file_passes_six_hundred_lines() {
    assert!(LONG_FILES_ALLOWED.len() <= 8, "at most eight long files");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    let mut long = Vec::new();
    for path in paths {
        let lines = std::fs::read_to_string(&path).unwrap().lines().count();
        let relative = path.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
        if lines > LONG_FILE_LINES && !LONG_FILES_ALLOWED.contains(&relative.as_str()) {
            long.push(format!("{relative}: {lines} lines"));
        }
    }
    // The studio page's script too: its parts, joined when built, each short.
    for entry in std::fs::read_dir(src.join("studio/assets/js")).unwrap() {
        let path = entry.unwrap().path();
        let lines = std::fs::read_to_string(&path).unwrap().lines().count();
        if lines > LONG_FILE_LINES {
            long.push(format!("{}: {lines} lines", path.display()));
        }
    }
    assert!(long.is_empty(), "split these by concern (the test's list names the few allowed): {long:?}");
}

/// The command line has one output object: only `src/cli/shell.rs` writes to the terminal's
/// streams (and clap's completion script, which writes itself), so every diagnostic and report is
/// settled, filtered and rendered one way.
#[test]
fn only_the_shell_writes_to_the_terminal() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut writers = Vec::new();
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n == "shell.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (number, line) in text.lines().enumerate() {
            let writes = ["std::io::stdout()", "std::io::stderr()", "println!", "eprintln!", "print!(", "eprint!("]
                .iter()
                .any(|w| line.contains(w));
            if writes {
                writers.push(format!("{}:{}: {}", path.display(), number + 1, line.trim()));
            }
        }
    }
    assert!(writers.is_empty(), "write through the Shell instead: {writers:#?}");
}
