//! Listing what is under a directory, within a budget of entries shared by
//! every glob, brace word and directory one command line makes the checker
//! look at, so
//! a check never walks a huge tree: past the budget the caller judges from
//! the rules' patterns alone.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

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
    /// project.
    Everything,
    /// Those not hidden and not ignored by `.gitignore`, `.ignore` and
    /// git's excludes, as rg and ag read by default (the `ignore` crate's
    /// walker, the one rg is built on).
    Ignores,
}

/// How a program walks a directory it reads whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reading {
    pub(crate) filter: Filter,
    /// It reads what the symbolic links it meets lead to, and walks a
    /// directory one leads to as its own (`grep -R`, `cp -rL`, `tar -h`,
    /// `zip -r`); else it reads or copies each link as a link, or skips it.
    pub(crate) follows_links: bool,
    /// Names it leaves out (for [`Filter::Everything`]).
    pub(crate) skips: Skips,
}

impl Reading {
    /// Every entry, links not followed.
    pub(crate) const EVERYTHING: Reading =
        Reading { filter: Filter::Everything, follows_links: false, skips: Skips::NONE };
}

/// The globs grep matches an entry's own name against as it walks:
/// `--exclude-dir` (a directory not walked), `--exclude` and `--include`
/// (a file not read), as fnmatch reads them (a brace is itself). Only
/// what grep certainly leaves out is: a file matching both an exclude and
/// an include is read (grep takes the last option matching), one matching
/// neither only unless the first of them is an include; a link's name,
/// and a glob the matcher does not read as fnmatch would, leave nothing out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Skips {
    pub(crate) dirs: Vec<String>,
    pub(crate) files: Vec<String>,
    pub(crate) include: Vec<String>,
    pub(crate) include_first: bool,
}

impl Skips {
    pub(crate) const NONE: Skips =
        Skips { dirs: Vec::new(), files: Vec::new(), include: Vec::new(), include_first: false };
}

/// [`Skips`] ready to match names.
struct Skipping {
    dirs: GlobSet,
    files: GlobSet,
    include: GlobSet,
    include_first: bool,
}

impl Skipping {
    fn new(skips: &Skips) -> Skipping {
        Skipping {
            dirs: fnmatch_set(&skips.dirs),
            files: fnmatch_set(&skips.files),
            include: fnmatch_set(&skips.include),
            include_first: skips.include_first,
        }
    }

    /// Whether the walk leaves out the entry `name` (not a link), a
    /// directory or (`dir` false) a file.
    fn skips(&self, name: &OsStr, dir: bool) -> bool {
        if dir {
            return self.dirs.is_match(name);
        }
        match (self.files.is_match(name), self.include.is_match(name)) {
            (true, included) => !included,
            (false, true) => false,
            (false, false) => self.include_first,
        }
    }
}

/// The globs as fnmatch matches a name: a brace stands for itself; one the
/// matcher may read otherwise (a backslash, a `[:class:]`) or cannot read
/// is left out (it matches nothing here).
fn fnmatch_set(globs: &[String]) -> GlobSet {
    let mut set = GlobSetBuilder::new();
    for glob in globs.iter().filter(|glob| !glob.contains('\\') && !glob.contains("[:")) {
        let literal_braces = glob.replace('{', "[{]").replace('}', "[}]");
        if let Ok(glob) = GlobBuilder::new(&literal_braces).backslash_escape(true).build() {
            set.add(glob);
        }
    }
    set.build().unwrap_or_else(|_| GlobSet::empty())
}

/// What is under a directory.
#[derive(Default)]
pub(crate) struct Tree {
    /// Every file below it that the program reads, in order: a directory
    /// is walked, its names read, not listed (a Read rule guards what a
    /// file holds, and one covering a directory covers what is in it). A
    /// symbolic link is listed where it is and,
    /// for a reading that follows links, as what it leads to, and what is
    /// under a directory it leads to as that directory's own entries.
    pub(crate) entries: Vec<PathBuf>,
    /// Every directory below it, not through a link, in the order met:
    /// what removing it whole takes besides its files (an empty one too).
    pub(crate) dirs: Vec<PathBuf>,
}

/// What `reading` has a program read under `dir` (canonical), or `None`
/// when that is more than the budget allows. A directory is walked once,
/// however many links lead to it.
pub(crate) fn tree(dir: &Path, budget: &mut Budget, reading: &Reading) -> Option<Tree> {
    let mut tree = Tree::default();
    let follow = reading.follows_links;
    if reading.filter == Filter::Ignores {
        let walk = ignore::WalkBuilder::new(dir).sort_by_file_name(|a, b| a.cmp(b)).follow_links(follow).build();
        for entry in walk.flatten().filter(|entry| entry.depth() > 0) {
            budget.left = budget.left.checked_sub(1)?;
            if entry.file_type().is_some_and(|kind| kind.is_dir()) {
                tree.dirs.push(entry.into_path());
                continue;
            }
            // Below a link followed, a path names what it reads by the link's name.
            if follow && let Ok(real) = entry.path().canonicalize() {
                tree.entries.push(real);
            }
            tree.entries.push(entry.into_path());
        }
        return Some(tree);
    }
    let skipping = Skipping::new(&reading.skips);
    let mut walked = HashSet::from([dir.to_path_buf()]);
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let names = budget.list(&dir)?;
        // Reversed onto the stack, so directories are walked in name order.
        for name in names.iter().rev() {
            let path = dir.join(name);
            let kind = fs::symlink_metadata(&path).ok().map(|meta| meta.file_type());
            if kind.is_some_and(|kind| !kind.is_symlink() && skipping.skips(name, kind.is_dir())) {
                continue;
            }
            let target = match kind {
                Some(kind) if kind.is_symlink() && follow => path.canonicalize().ok(),
                Some(kind) if kind.is_dir() => {
                    tree.dirs.push(path.clone());
                    Some(path.clone())
                }
                _ => None,
            };
            if let Some(target) = target {
                if !target.is_dir() {
                    if target != path {
                        tree.entries.push(target);
                    }
                } else if name != ".git" && walked.insert(target.clone()) {
                    pending.push(target);
                }
            }
            if !kind.is_some_and(|kind| kind.is_dir()) {
                tree.entries.push(path);
            }
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
        fs::write(outside.join("z"), "").unwrap();
        std::os::unix::fs::symlink(&outside, root.join("link")).unwrap();
        let tree = tree(&root, &mut Budget::new(100), &Reading::EVERYTHING).unwrap();
        let mut rel: Vec<_> =
            tree.entries.iter().filter_map(|p| p.strip_prefix(&root).ok()).map(|p| p.display().to_string()).collect();
        rel.sort();
        assert_eq!(rel, ["a/b/y", "a/x", "c", "link"], "files only: a directory is walked, not read");
        assert_eq!(tree.entries.len(), rel.len(), "a link not followed is only itself");
        // Six entries in four directories: a budget of five runs out.
        assert!(super::tree(&root, &mut Budget::new(5), &Reading::EVERYTHING).is_none());
        assert!(super::tree(&root, &mut Budget::new(6), &Reading::EVERYTHING).is_some());
        // A name that is not UTF-8 is walked into like any other.
        let odd = root.join(std::ffi::OsStr::from_bytes(b"\xff"));
        fs::create_dir(&odd).unwrap();
        fs::write(odd.join("secret"), "").unwrap();
        assert!(
            super::tree(&root, &mut Budget::new(100), &Reading::EVERYTHING)
                .unwrap()
                .entries
                .contains(&odd.join("secret"))
        );
    }

    #[test]
    fn a_reading_following_links_walks_where_they_lead_once() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for file in ["tree/plain", "secret/x", "secret/sub/y"] {
            let path = root.join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "").unwrap();
        }
        std::os::unix::fs::symlink("../secret/x", root.join("tree/file_link")).unwrap();
        std::os::unix::fs::symlink("../secret", root.join("tree/dir_link")).unwrap();
        // A loop back to the walk's own top, and a second way to a directory already walked.
        std::os::unix::fs::symlink("..", root.join("tree/up")).unwrap();
        std::os::unix::fs::symlink("../secret", root.join("tree/again")).unwrap();
        for filter in [Filter::Everything, Filter::Ignores] {
            let reading = Reading { filter, follows_links: true, skips: Skips::NONE };
            let tree = tree(&root.join("tree"), &mut Budget::new(100), &reading).unwrap();
            for file in ["secret/x", "secret/sub/y", "tree/plain"] {
                assert!(tree.entries.contains(&root.join(file)), "{filter:?}: {file} in {:?}", tree.entries);
            }
        }
        // Each directory is walked once, however many links lead to it.
        let following = Reading { filter: Filter::Everything, follows_links: true, skips: Skips::NONE };
        let tree = tree(&root.join("tree"), &mut Budget::new(100), &following).unwrap();
        assert_eq!(tree.entries.iter().filter(|path| **path == root.join("secret/sub/y")).count(), 1);
        let not_following = Reading::EVERYTHING;
        let tree = super::tree(&root.join("tree"), &mut Budget::new(100), &not_following).unwrap();
        assert!(!tree.entries.iter().any(|path| path.starts_with(root.join("secret"))), "{:?}", tree.entries);
    }

    #[test]
    fn grep_leaves_out_only_what_its_globs_certainly_match() {
        let skips = |dirs: &[&str], files: &[&str], include: &[&str], include_first: bool| {
            let strings = |list: &[&str]| list.iter().map(|glob| glob.to_string()).collect();
            Skipping::new(&Skips {
                dirs: strings(dirs),
                files: strings(files),
                include: strings(include),
                include_first,
            })
        };
        let name = |name: &str| OsStr::new(name).to_os_string();
        let dirs = skips(&["secr*", "{a,b}", "x\\y", "[[:alpha:]]*"], &[], &[], false);
        assert!(dirs.skips(&name("secret"), true) && !dirs.skips(&name("secret"), false));
        // A brace is itself to fnmatch; an escape or a class is not read here, so leaves nothing out.
        assert!(dirs.skips(&name("{a,b}"), true) && !dirs.skips(&name("a"), true));
        assert!(!dirs.skips(&name("xy"), true) && !dirs.skips(&name("other"), true));
        // The last matching of an exclude and an include wins: both matching, the file is read.
        let files = skips(&[], &["*.key"], &["a.*"], false);
        assert!(files.skips(&name("b.key"), false) && !files.skips(&name("a.key"), false));
        assert!(!files.skips(&name("c.rs"), false));
        // Matching neither, a file is left out when the first of them is an include.
        assert!(skips(&[], &["*.key"], &["*.rs"], true).skips(&name("notes"), false));
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
            let tree =
                tree(&root, &mut Budget::new(100), &Reading { filter, follows_links: false, skips: Skips::NONE })
                    .unwrap();
            tree.entries.iter().map(|p| p.strip_prefix(&root).unwrap().display().to_string()).collect::<Vec<_>>()
        };
        let mut everything = listed(Filter::Everything);
        everything.sort();
        assert_eq!(everything, [".env", ".gitignore", ".hidden/a", "src/a.rs", "target/big"]);
        assert_eq!(listed(Filter::Ignores), ["src/a.rs"]);
    }
}
