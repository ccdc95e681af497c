//! The studio's files: only below the folder it was started on, named by plain relative paths
//! (the same rule as `$ref`s: the canonical path must stay inside the root), never through a link
//! that leaves it, and only regular files.

use std::path::{Component, Path, PathBuf};

use crate::diagnostic::{Code, Diagnostic};

/// How many files the picker lists, and how deep it looks.
const MAX_LISTED: usize = 500;
const MAX_DEPTH: usize = 4;

/// The folder the studio reads and writes in.
#[derive(Clone, Debug)]
pub struct Folder {
    root: PathBuf,
}

fn outside(path: &str, why: &str) -> Diagnostic {
    Diagnostic::elsewhere(
        Code::PathOutsideFolder,
        format!(
            "\"{}\" {why}: the studio reads and writes only below the folder it was started on",
            crate::emit::printable(path)
        ),
    )
    .with_help("name a file by its path relative to that folder, e.g. api.ois.json or specs/api.yaml")
}

impl Folder {
    /// The folder at `root` (it must exist).
    pub fn new(root: &Path) -> Result<Folder, Diagnostic> {
        let root = root
            .canonicalize()
            .map_err(|error| Diagnostic::elsewhere(Code::InputUnreadable, format!("{}: {error}", root.display())))?;
        Ok(Folder { root })
    }

    /// The folder itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `relative` as a path below the root, when it is written as one: no root, drive or `..`.
    fn joined(&self, relative: &str) -> Result<PathBuf, Diagnostic> {
        let path = Path::new(relative);
        if relative.is_empty() || relative.contains('\0') {
            return Err(outside(relative, "is not a file name"));
        }
        let mut joined = self.root.clone();
        for component in path.components() {
            match component {
                Component::Normal(part) => joined.push(part),
                Component::CurDir => {}
                Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                    return Err(outside(relative, "is not a path below the folder"));
                }
            }
        }
        Ok(joined)
    }

    /// The existing regular file `relative` names, links resolved and still inside.
    pub fn existing(&self, relative: &str) -> Result<PathBuf, Diagnostic> {
        let joined = self.joined(relative)?;
        let canonical = joined.canonicalize().map_err(|error| {
            Diagnostic::elsewhere(Code::InputUnreadable, format!("{}: {error}", crate::emit::printable(relative)))
        })?;
        if !canonical.starts_with(&self.root) {
            return Err(outside(relative, "leads outside the folder (through a link)"));
        }
        if !canonical.is_file() {
            return Err(Diagnostic::elsewhere(
                Code::InputNotRegular,
                format!("\"{}\" is not a regular file", crate::emit::printable(relative)),
            ));
        }
        Ok(canonical)
    }

    /// Where a file `relative` names is written: its folder must exist inside the root, and the
    /// file, when it exists, must not be a link (the write itself refuses special files).
    pub fn writable(&self, relative: &str) -> Result<PathBuf, Diagnostic> {
        let joined = self.joined(relative)?;
        let (Some(parent), Some(name)) = (joined.parent(), joined.file_name()) else {
            return Err(outside(relative, "is not a file name"));
        };
        let parent = parent.canonicalize().map_err(|error| {
            Diagnostic::elsewhere(Code::OutputWrite, format!("{}: {error}", crate::emit::printable(relative)))
        })?;
        if !parent.starts_with(&self.root) {
            return Err(outside(relative, "leads outside the folder (through a link)"));
        }
        let target = parent.join(name);
        if target.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(outside(relative, "is a link"));
        }
        Ok(target)
    }

    /// The path of `path` (below the root) relative to it, `/`-separated.
    pub fn relative(&self, path: &Path) -> String {
        let relative = path.strip_prefix(&self.root).unwrap_or(path);
        relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
    }

    /// The JSON and YAML files below the root (links not followed, hidden folders and
    /// `node_modules`/`target` skipped), for the picker: at most 500, sorted.
    pub fn documents(&self) -> Vec<String> {
        let mut found: Vec<String> = walkdir::WalkDir::new(&self.root)
            .max_depth(MAX_DEPTH)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|entry| {
                let name = entry.file_name().to_string_lossy();
                entry.depth() == 0 || !(name.starts_with('.') || name == "node_modules" || name == "target")
            })
            .filter_map(Result::ok)
            .filter(|entry| entry.file_type().is_file())
            .filter(|entry| {
                let name = entry.file_name().to_string_lossy().to_ascii_lowercase();
                [".json", ".yaml", ".yml"].iter().any(|ext| name.ends_with(ext)) && !name.ends_with(".convert.json")
            })
            .take(MAX_LISTED)
            .map(|entry| self.relative(entry.path()))
            .collect();
        found.sort();
        found
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn only_plain_relative_paths_inside_the_root() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.json"), "{}").unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/b.yaml"), "a: 1").unwrap();
        let folder = Folder::new(dir.path()).unwrap();
        assert!(folder.existing("a.json").is_ok());
        assert!(folder.existing("./sub/b.yaml").is_ok());
        for bad in ["../a.json", "/etc/passwd", "sub/../../x", "", "a\0b"] {
            let error = folder.existing(bad).unwrap_err();
            assert_eq!(error.code, Code::PathOutsideFolder, "{bad}");
            assert!(folder.writable(bad).is_err(), "{bad}");
        }
        assert_eq!(folder.writable("new.json").unwrap(), folder.root().join("new.json"));
        assert!(folder.writable("missing/new.json").is_err());
        assert_eq!(folder.documents(), ["a.json", "sub/b.yaml"]);
    }

    #[cfg(unix)]
    #[test]
    fn links_out_of_the_root_are_refused() {
        let outside_dir = tempfile::tempdir().unwrap();
        std::fs::write(outside_dir.path().join("secret.env"), "KEY=1").unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside_dir.path().join("secret.env"), dir.path().join("in.env")).unwrap();
        std::os::unix::fs::symlink(outside_dir.path(), dir.path().join("away")).unwrap();
        let folder = Folder::new(dir.path()).unwrap();
        assert_eq!(folder.existing("in.env").unwrap_err().code, Code::PathOutsideFolder);
        assert_eq!(folder.existing("away/secret.env").unwrap_err().code, Code::PathOutsideFolder);
        assert_eq!(folder.writable("away/new.json").unwrap_err().code, Code::PathOutsideFolder);
        assert_eq!(folder.writable("in.env").unwrap_err().code, Code::PathOutsideFolder);
    }
}
