//! The files a git repository tracks, read from its index (`.git/index`,
//! versions 2 to 4) without running git, for the commands that print
//! what git holds of them (`git diff`, `git grep`, `git archive`…).

use std::fs;
use std::path::{Path, PathBuf};

use super::index_cache;
use super::walk::{self, Budget, Tree};

/// Index entries one line's git reads may list together, each listing its
/// index whole (one of more than [`walk::MAX_ENTRIES`] is not read): a line
/// of several git reads has each judged as the first is, and past this the
/// rules' patterns judge, so the work stays bounded.
pub(crate) const LINE_ENTRIES: usize = 10 * walk::MAX_ENTRIES;

/// A repository: its work tree's top and its git directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Repository {
    pub(crate) top: PathBuf,
    pub(crate) git_dir: PathBuf,
}

/// The repository a git command given its git directory (`--git-dir`,
/// `GIT_DIR`) uses: a `.git` file there names the real one. Its files are
/// taken to be, for a git directory named `.git`, beside it (what it holds
/// are copies of them, whatever work tree git is given), else in the work
/// tree given (`--work-tree`, `GIT_WORK_TREE`), else in `cwd`, as git
/// takes it. `None` when there is no such directory (git fails).
pub(crate) fn given(git_dir: &Path, work_tree: Option<&Path>, cwd: &Path) -> Option<Repository> {
    let meta = fs::metadata(git_dir).ok()?;
    let parent = git_dir.parent().filter(|_| git_dir.file_name().is_some_and(|name| name == ".git"));
    let top = parent.or(work_tree).unwrap_or(cwd).to_path_buf();
    if meta.is_dir() {
        return Some(Repository { top, git_dir: git_dir.to_path_buf() });
    }
    let text = fs::read_to_string(git_dir).ok()?;
    let named = git_dir.parent()?.join(text.strip_prefix("gitdir:")?.trim());
    Some(Repository { top, git_dir: named })
}

/// The repository `dir` (canonical) is in, as git finds it: the nearest
/// `.git` directory, or `.git` file naming one (a linked worktree, a
/// submodule), at or above it.
pub(crate) fn repository(dir: &Path) -> Option<Repository> {
    dir.ancestors().find_map(|top| {
        let dot_git = top.join(".git");
        let meta = fs::metadata(&dot_git).ok()?;
        let git_dir = if meta.is_dir() {
            dot_git
        } else {
            let text = fs::read_to_string(&dot_git).ok()?;
            top.join(text.strip_prefix("gitdir:")?.trim())
        };
        Some(Repository { top: top.to_path_buf(), git_dir })
    })
}

/// The files `repository` tracks under `dir`, each entry of its index
/// costing one of the budget; no repository or no index: none (git has
/// nothing to print). `None` past the budget or for an index this reader
/// does not know (a split or sparse index, another version): the caller
/// judges from the rules' patterns. The index is parsed once per version
/// ([`index_cache`]).
pub(crate) fn tracked(repository: Option<&Repository>, dir: &Path, budget: &mut Budget) -> Option<Tree> {
    let mut tree = Tree::default();
    let Some(repository) = repository else { return Some(tree) };
    let Some(names) = index_cache::names(&repository.git_dir.join("index"), entries) else { return Some(tree) };
    let names = names.as_ref().as_ref().filter(|names| names.len() <= budget.left())?;
    budget.spend(names.len());
    for name in names {
        let path = repository.top.join(name);
        if path.starts_with(dir) {
            tree.entries.push(path);
        }
    }
    Some(tree)
}

/// The path of each entry of an index file, in its order; `None` for one
/// of more entries than any line's budget holds.
fn entries(bytes: &[u8]) -> Option<Vec<String>> {
    let word = |at: usize| Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
    if bytes.get(..4)? != b"DIRC" {
        return None;
    }
    let version = word(4)?;
    let count = usize::try_from(word(8)?).ok()?;
    if !(2..=4).contains(&version) || count > walk::MAX_ENTRIES {
        return None;
    }
    let hash = hash_len(bytes, version)?;
    let mut names: Vec<Vec<u8>> = Vec::with_capacity(count);
    let mut at = 12;
    for _ in 0..count {
        let mode = word(at + 24)?;
        let flags = u16::from_be_bytes(bytes.get(at + 40 + hash..at + 42 + hash)?.try_into().ok()?);
        let mut name_at = at + 42 + hash;
        if version >= 3 && flags & 0x4000 != 0 {
            name_at += 2;
        }
        let name = if version == 4 {
            let (strip, suffix_at) = varint(bytes, name_at)?;
            let previous = names.last().map_or(&[][..], Vec::as_slice);
            let mut name = previous.get(..previous.len().checked_sub(strip)?)?.to_vec();
            let suffix = nul_terminated(bytes, suffix_at)?;
            name.extend_from_slice(suffix);
            at = suffix_at + suffix.len() + 1;
            name
        } else {
            let name = nul_terminated(bytes, name_at)?.to_vec();
            // Padded with one to eight NULs to a multiple of eight bytes.
            at += (name_at - at + name.len() + 8) & !7;
            name
        };
        // A sparse index's directory entry stands for all below it.
        if mode & 0o170000 == 0o040000 {
            return None;
        }
        names.push(name);
    }
    // A split index keeps most entries in another file.
    let mut extension = at;
    while let (Some(signature), Some(size)) = (bytes.get(extension..extension + 4), word(extension + 4)) {
        if signature == b"link" {
            return None;
        }
        extension += 8 + usize::try_from(size).ok()?;
    }
    Some(names.iter().map(|name| String::from_utf8_lossy(name).into_owned()).collect())
}

/// The length of object names in the index: SHA-1's 20 bytes, or
/// SHA-256's 32 where the first entry's name length says so.
fn hash_len(bytes: &[u8], version: u32) -> Option<usize> {
    if u32::from_be_bytes(bytes.get(8..12)?.try_into().ok()?) == 0 {
        return Some(20);
    }
    [20, 32].into_iter().find(|&hash| {
        let flags = bytes.get(12 + 40 + hash..12 + 42 + hash).map(|f| u16::from_be_bytes([f[0], f[1]]));
        let Some(flags) = flags else { return false };
        let mut name_at = 12 + 42 + hash + if version >= 3 && flags & 0x4000 != 0 { 2 } else { 0 };
        if version == 4 {
            // The first name strips nothing from the empty one before it.
            name_at += 1;
        }
        let length = usize::from(flags & 0x0fff);
        nul_terminated(bytes, name_at).is_some_and(|name| length == 0x0fff || name.len() == length)
    })
}

fn nul_terminated(bytes: &[u8], at: usize) -> Option<&[u8]> {
    let rest = bytes.get(at..)?;
    Some(&rest[..rest.iter().position(|&b| b == 0)?])
}

/// Git's offset varint: the value and where what follows it starts.
fn varint(bytes: &[u8], mut at: usize) -> Option<(usize, usize)> {
    let mut byte = *bytes.get(at)?;
    let mut value = usize::from(byte & 0x7f);
    while byte & 0x80 != 0 {
        at += 1;
        byte = *bytes.get(at)?;
        value = value.checked_add(1)?.checked_mul(128)? | usize::from(byte & 0x7f);
    }
    Some((value, at + 1))
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    /// What the repository `dir` is in tracks under it.
    fn tracked_in(dir: &Path, budget: &mut Budget) -> Option<Tree> {
        tracked(repository(dir).as_ref(), dir, budget)
    }

    fn git(dir: &Path, args: &[&str]) {
        let status = Command::new("git").args(args).current_dir(dir).status().unwrap();
        assert!(status.success(), "git {args:?}");
    }

    #[test]
    fn reads_what_git_tracks_in_every_index_version() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        git(&root, &["init", "-q"]);
        let long = format!("deep/{}/{}/file", "d".repeat(200), "e".repeat(200));
        for file in ["qa/secret/plan.txt", "qa/notes.md", ".env", "README", long.as_str(), "untracked"] {
            let path = root.join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "x").unwrap();
        }
        git(&root, &["add", "qa", ".env", "README", "deep"]);
        git(&root, &["add", "--intent-to-add", "untracked"]);
        let rel = |tree: Tree| -> Vec<String> {
            tree.entries.iter().map(|p| p.strip_prefix(&root).unwrap().display().to_string()).collect()
        };
        for version in ["2", "3", "4"] {
            git(&root, &["update-index", "--index-version", version]);
            let all = tracked_in(&root, &mut Budget::new(100)).unwrap();
            assert_eq!(
                rel(all),
                [".env", "README", &long, "qa/notes.md", "qa/secret/plan.txt", "untracked"],
                "v{version}"
            );
            let qa = tracked_in(&root.join("qa"), &mut Budget::new(100)).unwrap();
            assert_eq!(rel(qa), ["qa/notes.md", "qa/secret/plan.txt"], "v{version}");
            assert!(tracked_in(&root, &mut Budget::new(5)).is_none(), "six entries are past a budget of five");
        }
        // A directory in no repository, or a repository with no index: nothing tracked.
        let bare = tempfile::tempdir().unwrap();
        assert!(tracked_in(bare.path(), &mut Budget::new(10)).unwrap().entries.is_empty());
        git(bare.path(), &["init", "-q"]);
        assert!(tracked_in(bare.path(), &mut Budget::new(10)).unwrap().entries.is_empty());
        // Not an index: judged from the rules instead.
        fs::write(root.join(".git/index"), b"DIRC\0\0\0\x02\0\0\0\x01garbage").unwrap();
        assert!(tracked_in(&root, &mut Budget::new(10)).is_none());
    }

    #[test]
    fn a_linked_worktree_has_its_own_index() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let main = root.join("main");
        fs::create_dir_all(&main).unwrap();
        git(&main, &["init", "-q"]);
        fs::write(main.join("a"), "x").unwrap();
        git(&main, &["add", "a"]);
        git(&main, &["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "a"]);
        git(&main, &["worktree", "add", "-q", "../linked"]);
        let linked = root.join("linked");
        let tree = tracked_in(&linked, &mut Budget::new(10)).unwrap();
        assert_eq!(tree.entries, [linked.join("a")]);
    }
}
