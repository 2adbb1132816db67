//! Listing what is under a directory, within a budget of entries shared by
//! every glob and directory one command line makes the checker look at, so
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

/// What is under a directory.
pub(crate) struct Tree {
    /// Every entry below it (not itself), files and directories, in order.
    /// A symbolic link is listed where it is and, when it resolves, as what
    /// it points to: a reader that follows it (`grep -R`) reads that.
    pub(crate) entries: Vec<PathBuf>,
    /// Directories links point to, not walked: they may hold anything.
    pub(crate) linked_dirs: Vec<PathBuf>,
}

/// Everything under `dir` (canonical), or `None` when that is more than the
/// budget allows.
pub(crate) fn tree(dir: &Path, budget: &mut Budget) -> Option<Tree> {
    let mut tree = Tree { entries: Vec::new(), linked_dirs: Vec::new() };
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let names = budget.list(&dir)?;
        // Reversed onto the stack, so directories are walked in name order.
        for name in names.iter().rev() {
            let path = dir.join(name);
            let Ok(meta) = fs::symlink_metadata(&path) else { continue };
            if meta.is_dir() {
                pending.push(path.clone());
            } else if meta.file_type().is_symlink()
                && let Ok(target) = path.canonicalize()
            {
                if target.is_dir() {
                    tree.linked_dirs.push(target.clone());
                }
                tree.entries.push(target);
            }
            tree.entries.push(path);
        }
    }
    Some(tree)
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
        let tree = tree(&root, &mut Budget::new(100)).unwrap();
        let mut rel: Vec<_> =
            tree.entries.iter().filter_map(|p| p.strip_prefix(&root).ok()).map(|p| p.display().to_string()).collect();
        rel.sort();
        assert_eq!(rel, ["a", "a/b", "a/b/y", "a/x", "c", "link"]);
        assert!(tree.entries.contains(&outside) && tree.linked_dirs == [outside], "the link's target is listed too");
        // Six entries in four directories: a budget of five runs out.
        assert!(super::tree(&root, &mut Budget::new(5)).is_none());
        assert!(super::tree(&root, &mut Budget::new(6)).is_some());
        // A name that is not UTF-8 is walked into like any other.
        let odd = root.join(std::ffi::OsStr::from_bytes(b"\xff"));
        fs::create_dir(&odd).unwrap();
        fs::write(odd.join("secret"), "").unwrap();
        assert!(super::tree(&root, &mut Budget::new(100)).unwrap().entries.contains(&odd.join("secret")));
    }
}
