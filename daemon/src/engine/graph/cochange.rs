//! Files changed together: pairs counted over the project's recent git history, computed on the
//! first question and kept per project until HEAD moves.
//!
//! Bounded: the last [`MAX_COMMITS`] commits, skipping commits that touch more than
//! [`MAX_FILES_PER_COMMIT`] files (a rename sweep, a formatting pass: they say nothing about
//! which files belong together), each git call under [`git::GIT_TIMEOUT`].

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::git::{self, GitError};
use crate::locks::{Mutex, ids};

pub const MAX_COMMITS: usize = 500;
/// More files than one change a reviewer reads as a unit: an initial import, a vendored drop or a
/// release of built files (immer's first commit touched 33) pairs every file with every other.
pub const MAX_FILES_PER_COMMIT: usize = 30;

/// Co-change counts of one project at one HEAD.
#[derive(Debug, Default)]
pub struct CoChanges {
    /// File → the files changed in the same commits, with how many commits.
    pairs: HashMap<String, BTreeMap<String, u32>>,
    /// Commits read, and of those skipped as too large.
    pub commits: usize,
    pub skipped: usize,
}

impl CoChanges {
    /// The files changed together with `file`, most often first (then by path).
    pub fn with(&self, file: &str) -> Vec<(String, u32)> {
        let mut found: Vec<(String, u32)> =
            self.pairs.get(file).into_iter().flatten().map(|(f, n)| (f.clone(), *n)).collect();
        found.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        found
    }

    /// Counts the pairs of `git log --name-only --format=%x1e` output (a record separator before
    /// each commit's file list).
    pub fn from_log(log: &str) -> CoChanges {
        let mut out = CoChanges::default();
        for commit in log.split('\u{1e}').skip(1) {
            let mut files: Vec<&str> = commit.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
            files.sort_unstable();
            files.dedup();
            out.commits += 1;
            if files.len() > MAX_FILES_PER_COMMIT {
                out.skipped += 1;
                continue;
            }
            for (i, a) in files.iter().enumerate() {
                for b in &files[i + 1..] {
                    *out.pairs.entry(a.to_string()).or_default().entry(b.to_string()).or_default() += 1;
                    *out.pairs.entry(b.to_string()).or_default().entry(a.to_string()).or_default() += 1;
                }
            }
        }
        out
    }
}

/// The co-change counts of each project, by the HEAD they were computed at.
pub struct CoChangeCache {
    by_root: Mutex<HashMap<PathBuf, (String, Arc<CoChanges>)>>,
}

impl Default for CoChangeCache {
    fn default() -> Self {
        CoChangeCache { by_root: Mutex::new(ids::GRAPH_COCHANGE, HashMap::new()) }
    }
}

impl CoChangeCache {
    /// The project's counts at its current HEAD: from the cache, or read from git now (the
    /// lock is not held while git runs).
    pub fn get(&self, root: &Path) -> Result<Arc<CoChanges>, GitError> {
        let head = git::head(root)?;
        if let Some((at, counts)) = self.by_root.lock().get(root)
            && *at == head
        {
            return Ok(counts.clone());
        }
        let count = format!("--max-count={MAX_COMMITS}");
        let log = git::run(
            root,
            &["log", &count, "--no-merges", "--no-renames", "--name-only", "--relative", "--format=%x1e"],
        )?;
        let counts = Arc::new(CoChanges::from_log(&log.text));
        self.by_root.lock().insert(root.to_path_buf(), (head, counts.clone()));
        Ok(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_counted_per_commit_and_large_commits_skipped() {
        let sweep: String = (0..=MAX_FILES_PER_COMMIT).map(|i| format!("f{i}.rs\n")).collect();
        let log = format!("\u{1e}\n\na.rs\nb.rs\n\u{1e}\n\na.rs\nb.rs\nc.rs\n\u{1e}\n\n{sweep}\u{1e}\n\nc.rs\n");
        let counts = CoChanges::from_log(&log);
        assert_eq!(counts.with("a.rs"), [("b.rs".to_string(), 2), ("c.rs".to_string(), 1)]);
        assert_eq!(counts.with("c.rs"), [("a.rs".to_string(), 1), ("b.rs".to_string(), 1)]);
        assert!(counts.with("f1.rs").is_empty(), "a sweep over every file says nothing");
        assert_eq!((counts.commits, counts.skipped), (4, 1));
    }

    #[test]
    fn a_bulk_import_pairs_nothing() {
        // immer's first commit: sources, LICENSE and every dist/*.map in one go.
        let import: String = (0..33).map(|i| format!("dist/f{i}.js.map\n")).collect();
        let log = format!("\u{1e}\n\nsrc/a.ts\nsrc/a.test.ts\n\u{1e}\n\nsrc/a.ts\nLICENSE\n{import}");
        let counts = CoChanges::from_log(&log);
        assert_eq!(counts.with("src/a.ts"), [("src/a.test.ts".to_string(), 1)]);
        assert!(counts.with("LICENSE").is_empty());
        assert_eq!((counts.commits, counts.skipped), (2, 1));
    }
}
