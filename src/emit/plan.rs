//! Files that belong together (an OIS and its record, a config and its secrets template, a folder
//! of snippets) are written all or nothing: every target is checked before any is touched, every
//! text is written to a temporary file beside its target, and only then is each renamed into place.
//! A file that already holds what it would be given is not touched.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::{Checked, Contents, Staged, check_target, is_standard_output, write_stdout};
use crate::diagnostic::{Code, Diagnostic};

/// What one command writes, in the order given; standard output last, once every file is in place.
#[derive(Default)]
pub struct Plan<'a> {
    writes: Vec<Planned<'a>>,
}

struct Planned<'a> {
    /// `None`: standard output.
    path: Option<PathBuf>,
    contents: Box<dyn Contents + 'a>,
    replace: Replace,
    create_folder: bool,
    /// Readable by its owner only (a secrets file).
    private: bool,
}

/// What may be where a planned file goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Replace {
    /// Nothing: a file (or a link, even a dangling one) there is an error.
    Nothing,
    /// A regular file; a link is followed and its target replaced (the user named it and forced).
    Anything,
    /// A regular file, not a link (a file that goes with another, such as its record): a link is
    /// replaced only when forced.
    RegularFile,
}

impl<'a> Plan<'a> {
    /// An empty plan.
    pub fn new() -> Plan<'a> {
        Plan::default()
    }

    /// Writes `contents` to `path` (`-` or `/dev/stdout`: standard output); an existing file is
    /// an error unless `replace`.
    pub fn file(&mut self, path: &Path, contents: impl Contents + 'a, replace: bool) -> &mut Plan<'a> {
        let replace = if replace { Replace::Anything } else { Replace::Nothing };
        self.push(path, contents, replace, false)
    }

    /// Writes `contents` to `path`, a file that goes with another (its record, the file being
    /// updated in place): a regular file there is replaced; a link (which could lead anywhere)
    /// only when `force`.
    pub fn companion(&mut self, path: &Path, contents: impl Contents + 'a, force: bool) -> &mut Plan<'a> {
        let replace = if force { Replace::Anything } else { Replace::RegularFile };
        self.push(path, contents, replace, false)
    }

    /// As [`Plan::file`], for a file of secrets: a new one is readable by its owner only (0600).
    pub fn secret_file(&mut self, path: &Path, contents: impl Contents + 'a, replace: bool) -> &mut Plan<'a> {
        let replace = if replace { Replace::Anything } else { Replace::Nothing };
        self.push(path, contents, replace, true)
    }

    /// As [`Plan::companion`], for a file of secrets: a new one is readable by its owner only.
    pub fn secret_companion(&mut self, path: &Path, contents: impl Contents + 'a, force: bool) -> &mut Plan<'a> {
        let replace = if force { Replace::Anything } else { Replace::RegularFile };
        self.push(path, contents, replace, true)
    }

    fn push(&mut self, path: &Path, contents: impl Contents + 'a, replace: Replace, private: bool) -> &mut Plan<'a> {
        let path = (!is_standard_output(path)).then(|| path.to_path_buf());
        self.writes.push(Planned { path, contents: Box::new(contents), replace, create_folder: false, private });
        self
    }

    /// As [`Plan::file`], creating the folders the file is in when they are missing.
    pub fn file_in_new_folder(&mut self, path: &Path, contents: impl Contents + 'a, replace: bool) -> &mut Plan<'a> {
        self.file(path, contents, replace);
        if let Some(last) = self.writes.last_mut() {
            last.create_folder = true;
        }
        self
    }

    /// As [`Plan::companion`] (never through a link) without force, creating the folders the file
    /// is in when they are missing: a file `ois` names itself in a folder the user named (a
    /// recording), where a link placed beforehand must not lead the write outside.
    pub fn companion_in_new_folder(&mut self, path: &Path, contents: impl Contents + 'a) -> &mut Plan<'a> {
        self.companion(path, contents, false);
        if let Some(last) = self.writes.last_mut() {
            last.create_folder = true;
        }
        self
    }

    /// Writes `contents` to standard output.
    pub fn stdout(&mut self, contents: impl Contents + 'a) -> &mut Plan<'a> {
        self.writes.push(Planned {
            path: None,
            contents: Box::new(contents),
            replace: Replace::Anything,
            create_folder: false,
            private: false,
        });
        self
    }

    /// The files it writes, in order (standard output is not one).
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.writes.iter().filter_map(|w| w.path.as_deref())
    }

    /// Every problem that would stop a write, found without writing anything: a file that exists
    /// (without replace), one that is not a regular file, a missing folder, two writes to one file.
    pub fn check(&self) -> Vec<Diagnostic> {
        self.checked().err().unwrap_or_default()
    }

    /// Each file's target as checked, in order, or every problem found.
    fn checked(&self) -> Result<Vec<Option<Checked>>, Vec<Diagnostic>> {
        let mut problems = Vec::new();
        let mut checked = Vec::new();
        let mut seen = HashSet::new();
        let folder_of = |path: &'_ PathBuf| path.parent().filter(|p| !p.as_os_str().is_empty()).map(Path::to_path_buf);
        let created: HashSet<PathBuf> = self
            .writes
            .iter()
            .filter(|w| w.create_folder)
            .filter_map(|w| w.path.as_ref().and_then(folder_of))
            .collect();
        for write in &self.writes {
            let Some(path) = &write.path else {
                checked.push(None);
                continue;
            };
            if !seen.insert(path) {
                problems.push(
                    Diagnostic::elsewhere(
                        Code::OutputWrite,
                        format!("{} is named for two outputs; nothing was written", path.display()),
                    )
                    .with_help("give each output its own file"),
                );
                continue;
            }
            match check_target(path, write.replace) {
                Ok(target) => checked.push(Some(target)),
                Err(problem) => problems.push(problem),
            }
            if folder_of(path).is_some_and(|folder| !folder.is_dir() && !created.contains(&folder)) {
                problems.push(Diagnostic::elsewhere(
                    Code::OutputWrite,
                    format!("cannot write {}: its folder does not exist; nothing was written", path.display()),
                ));
            }
        }
        if problems.is_empty() { Ok(checked) } else { Err(problems) }
    }

    /// Checks every target, then writes them all: each to a temporary file first, then each
    /// renamed into place. The first problem is returned and nothing is written when any target
    /// fails its check or its temporary file cannot be written.
    pub fn write(self) -> Result<(), Diagnostic> {
        let checked = match self.checked() {
            Ok(checked) => checked,
            Err(problems) => {
                return Err(problems
                    .into_iter()
                    .next()
                    .unwrap_or_else(|| Diagnostic::elsewhere(Code::OutputWrite, "nothing was written")));
            }
        };
        let mut staged = Vec::new();
        let mut out = Vec::new();
        for (write, checked) in self.writes.iter().zip(checked) {
            match (&write.path, checked) {
                // A file that already holds these very contents is left as it is: rewriting it
                // would change nothing but its time, and cost a new file and a rename (re-running
                // a batch over its own outputs rewrote thousands of unchanged files).
                (Some(_), Some(checked)) if checked.holds(write.contents.as_ref()) => {}
                (Some(path), Some(checked)) => {
                    if write.create_folder
                        && let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty())
                    {
                        std::fs::create_dir_all(folder).map_err(|err| {
                            Diagnostic::elsewhere(
                                Code::OutputWrite,
                                format!("cannot create {}: {err}", folder.display()),
                            )
                        })?;
                    }
                    let force = write.replace != Replace::Nothing;
                    staged.push(Staged::write(path, checked, write.contents.as_ref(), force, write.private)?);
                }
                _ => out.push(write.contents.as_ref()),
            }
        }
        for file in staged {
            file.persist()?;
        }
        for contents in out {
            write_stdout(contents)?;
        }
        Ok(())
    }
}

impl<T: Contents + ?Sized> Contents for Box<T> {
    fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.as_ref().write_to(out)
    }

    fn byte_len(&self) -> usize {
        self.as_ref().byte_len()
    }
}

impl<T: Contents + ?Sized> Contents for &T {
    fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        (**self).write_to(out)
    }

    fn byte_len(&self) -> usize {
        (**self).byte_len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_written_when_one_target_exists() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.env"), dir.path().join("b.json"));
        std::fs::write(&b, "old").unwrap();
        let mut plan = Plan::new();
        plan.file(&a, "secrets", false).file(&b, "new", false);
        let error = plan.write().unwrap_err();
        assert_eq!(error.code, Code::OutputExists);
        assert!(!a.exists(), "the first target was written before the second was checked");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "old");
    }

    #[test]
    fn a_file_that_holds_its_contents_already_is_not_touched() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let (same, longer, other) = (dir.path().join("same"), dir.path().join("longer"), dir.path().join("other"));
        for path in [&same, &longer, &other] {
            std::fs::write(path, "text").unwrap();
        }
        let inode = |path: &Path| std::fs::metadata(path).unwrap().ino();
        let before = [inode(&same), inode(&longer), inode(&other)];
        let mut text = super::super::Text::new();
        text.push(b"te");
        text.push(b"xt");
        let mut plan = Plan::new();
        plan.file(&same, text, true).file(&longer, "text!", true).file(&other, "tent", true);
        plan.write().unwrap();
        // The same contents: the very file it was. Other contents, even of the same size: a new one.
        assert_eq!(inode(&same), before[0]);
        assert_ne!(inode(&longer), before[1]);
        assert_ne!(inode(&other), before[2]);
        assert_eq!(std::fs::read_to_string(&longer).unwrap(), "text!");
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "tent");
        let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(leftovers, 3, "no temporary file is left");
    }

    #[test]
    fn every_file_is_written_with_replace() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("sub/b"));
        std::fs::write(&a, "old").unwrap();
        let mut plan = Plan::new();
        plan.file(&a, String::from("new"), true).file_in_new_folder(&b, "b", false);
        plan.write().unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "b");
    }

    #[test]
    fn two_outputs_to_one_file_and_a_missing_folder_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        let mut plan = Plan::new();
        plan.file(&a, "1", true).file(&a, "2", true).file(&dir.path().join("no/such"), "3", true);
        let problems = plan.check();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(plan.write().is_err());
        assert!(!a.exists());
    }
}
