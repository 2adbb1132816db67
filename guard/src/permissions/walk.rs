//! Listing what is under a directory, within a budget of entries shared by
//! every glob, brace word and directory one command line makes the checker
//! look at, so
//! a check never walks a huge tree: past the budget the caller judges from
//! the rules' patterns alone.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

/// Directory entries one command line's check may read, globs and
/// directories together.
pub(crate) const MAX_ENTRIES: usize = 100_000;

/// Entries left to read.
pub(crate) struct Budget {
    left: usize,
}

impl Budget {
    pub(crate) fn new(entries: usize) -> Budget {
        Budget { left: entries }
    }

    /// Entries left.
    pub(crate) fn left(&self) -> usize {
        self.left
    }

    /// Spends `count` entries (at most what is left) on paths looked at one
    /// by one: the words of a brace expansion.
    pub(crate) fn spend(&mut self, count: usize) {
        self.left = self.left.saturating_sub(count);
    }

    /// The names in `dir`, sorted; `None` once the budget is spent. A
    /// directory that cannot be read has none.
    pub(crate) fn list(&mut self, dir: &Path) -> Option<Vec<OsString>> {
        let Ok(entries) = fs::read_dir(dir) else { return Some(Vec::new()) };
        let mut names = Vec::new();
        for entry in entries.flatten() {
            self.left = self.left.checked_sub(1)?;
            names.push(entry.file_name());
        }
        names.sort();
        Some(names)
    }
}

/// Which entries under a directory a program reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Filter {
    /// All of them (`grep -r`, tar…), but what is inside `.git`: a
    /// repository's objects would spend the budget of any walk of a
    /// project, and `.git` itself is still listed.
    Everything,
    /// Those not hidden and not ignored by `.gitignore`, `.ignore` and
    /// git's excludes, as rg and ag read by default (the `ignore` crate's
    /// walker, the one rg is built on).
    Ignores,
}

/// What is under a directory.
pub(crate) struct Tree {
    /// Every entry below it (not itself), files and directories, in order.
    /// A symbolic link is listed where it is and, when it resolves, as what
    /// it points to: a reader that follows it (`grep -R`) reads that.
    pub(crate) entries: Vec<PathBuf>,
    /// Directories links point to, not walked: they may hold anything.
    pub(crate) linked_dirs: Vec<PathBuf>,
}

/// What `filter` lets a program read under `dir` (canonical), or `None`
/// when that is more than the budget allows.
pub(crate) fn tree(dir: &Path, budget: &mut Budget, filter: Filter) -> Option<Tree> {
    let mut tree = Tree { entries: Vec::new(), linked_dirs: Vec::new() };
    if filter == Filter::Ignores {
        let walk = ignore::WalkBuilder::new(dir).sort_by_file_name(|a, b| a.cmp(b)).build();
        for entry in walk.flatten().filter(|entry| entry.depth() > 0) {
            budget.left = budget.left.checked_sub(1)?;
            let link = entry.path_is_symlink();
            tree.add(entry.into_path(), link);
        }
        return Some(tree);
    }
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let names = budget.list(&dir)?;
        // Reversed onto the stack, so directories are walked in name order.
        for name in names.iter().rev() {
            let path = dir.join(name);
            let kind = fs::symlink_metadata(&path).ok().map(|meta| meta.file_type());
            if name != ".git" && kind.is_some_and(|kind| kind.is_dir()) {
                pending.push(path.clone());
            }
            tree.add(path, kind.is_some_and(|kind| kind.is_symlink()));
        }
    }
    Some(tree)
}

impl Tree {
    /// An entry, and what it points to when it is a symbolic link (`link`,
    /// known from the walk's own look at it).
    fn add(&mut self, path: PathBuf, link: bool) {
        if link && let Ok(target) = path.canonicalize() {
            if target.is_dir() {
                self.linked_dirs.push(target.clone());
            }
            self.entries.push(target);
        }
        self.entries.push(path);
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::ffi::OsStrExt;

    use super::*;

    #[test]
    fn lists_everything_below_within_the_budget() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for file in ["a/x", "a/b/y", "c"] {
            let path = root.join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "").unwrap();
        }
        let outside = tempfile::tempdir().unwrap();
        let outside = outside.path().canonicalize().unwrap();
        std::os::unix::fs::symlink(&outside, root.join("link")).unwrap();
        let tree = tree(&root, &mut Budget::new(100), Filter::Everything).unwrap();
        let mut rel: Vec<_> =
            tree.entries.iter().filter_map(|p| p.strip_prefix(&root).ok()).map(|p| p.display().to_string()).collect();
        rel.sort();
        assert_eq!(rel, ["a", "a/b", "a/b/y", "a/x", "c", "link"]);
        assert!(tree.entries.contains(&outside) && tree.linked_dirs == [outside], "the link's target is listed too");
        // Six entries in four directories: a budget of five runs out.
        assert!(super::tree(&root, &mut Budget::new(5), Filter::Everything).is_none());
        assert!(super::tree(&root, &mut Budget::new(6), Filter::Everything).is_some());
        // A name that is not UTF-8 is walked into like any other.
        let odd = root.join(std::ffi::OsStr::from_bytes(b"\xff"));
        fs::create_dir(&odd).unwrap();
        fs::write(odd.join("secret"), "").unwrap();
        assert!(
            super::tree(&root, &mut Budget::new(100), Filter::Everything)
                .unwrap()
                .entries
                .contains(&odd.join("secret"))
        );
    }

    #[test]
    fn git_is_never_walked_and_ignores_skip_what_rg_skips() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for (file, text) in [
            (".git/objects/x", ""),
            (".gitignore", "target/\n.env\n"),
            (".env", ""),
            (".hidden/a", ""),
            ("target/big", ""),
            ("src/a.rs", ""),
        ] {
            let path = root.join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        let listed = |filter: Filter| {
            let tree = tree(&root, &mut Budget::new(100), filter).unwrap();
            tree.entries.iter().map(|p| p.strip_prefix(&root).unwrap().display().to_string()).collect::<Vec<_>>()
        };
        let mut everything = listed(Filter::Everything);
        everything.sort();
        assert_eq!(
            everything,
            [".env", ".git", ".gitignore", ".hidden", ".hidden/a", "src", "src/a.rs", "target", "target/big"]
        );
        assert_eq!(listed(Filter::Ignores), ["src", "src/a.rs"]);
    }
}
