//! What changed, from git: `git diff -U0` read into each file's changed line ranges (on the
//! new side), plus the untracked files of the working tree. The base is checked first, so a bad
//! ref is named in the error instead of surfacing as git's usage text.

use std::path::Path;

use super::git::{self, GitError};
use crate::engine::error::{EngineError, EngineResult};

/// One changed file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// Relative to the project root (the new name of a renamed file).
    pub file: String,
    pub status: Status,
    /// Changed lines on the new side, inclusive; a pure deletion is the lines around the gap.
    pub ranges: Vec<(u32, u32)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Added,
    Modified,
    Deleted,
    Untracked,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Added => "added",
            Status::Modified => "modified",
            Status::Deleted => "deleted",
            Status::Untracked => "untracked",
        }
    }
}

/// The changes for `base`: empty → the working tree (staged, unstaged and untracked) against
/// HEAD; `A..B` / `A...B` → that range; one ref → the working tree against it. `cut` says the
/// diff was longer than git's output limit and only its start was read.
pub fn changes(root: &Path, base: &str) -> EngineResult<(Vec<FileChange>, bool)> {
    let base = base.trim();
    let (sides, working_tree): (Vec<&str>, bool) = match base.split_once("...").or_else(|| base.split_once("..")) {
        _ if base.is_empty() => (vec!["HEAD"], true),
        Some((from, to)) => (vec![from, to], false),
        None => (vec![base], true),
    };
    for side in &sides {
        verify_ref(root, side, base)?;
    }
    let revision = if base.is_empty() { "HEAD" } else { base };
    let diff =
        git::run(root, &["diff", "-U0", "--no-color", "--no-ext-diff", "--relative", "--no-renames", revision, "--"])
            .map_err(|e| git_error(e, base))?;
    let mut changes = parse(&diff.text);
    if working_tree {
        let untracked =
            git::run(root, &["ls-files", "--others", "--exclude-standard"]).map_err(|e| git_error(e, base))?;
        changes.extend(untracked.text.lines().filter(|l| !l.is_empty()).map(|file| FileChange {
            file: file.to_string(),
            status: Status::Untracked,
            ranges: vec![(1, u32::MAX)],
        }));
        changes.sort_by(|a, b| a.file.cmp(&b.file));
    }
    Ok((changes, diff.cut))
}

/// Checks that `side` of `base` names a commit; an empty side of a range (`main..`) means HEAD.
fn verify_ref(root: &Path, side: &str, base: &str) -> EngineResult<()> {
    if side.is_empty() {
        return Ok(());
    }
    if side.starts_with('-') {
        return Err(EngineError::invalid(format!("`{side}` is not a git ref (base names a commit, a branch or A..B)")));
    }
    let commit = format!("{side}^{{commit}}");
    match git::run(root, &["rev-parse", "--verify", "--quiet", "--end-of-options", &commit]) {
        Ok(_) => Ok(()),
        Err(GitError::Failed(_)) if side == "HEAD" => Err(EngineError::precondition(
            "the repository has no commit yet: there is no HEAD to compare the working tree with",
        )),
        Err(GitError::Failed(_)) => Err(EngineError::not_found(format!(
            "unknown git ref `{side}` in base `{base}`: name a commit, a branch or a tag (e.g. main..HEAD)"
        ))),
        Err(e) => Err(git_error(e, base)),
    }
}

fn git_error(e: GitError, base: &str) -> EngineError {
    match e {
        GitError::NotARepository => EngineError::precondition(
            "the project is not a git repository: impact diff compares git versions; analyze a file or symbol instead",
        ),
        GitError::Failed(why) if !base.is_empty() => EngineError::invalid(format!("git diff {base}: {why}")),
        other => EngineError::internal(other.to_string()),
    }
}

/// Reads `git diff -U0 --no-renames` output. Each file is named by its `diff --git` header (so a
/// binary file, which has no hunks, is listed too); a hunk's lines all start with `+`, `-`, ` ` or
/// `\`, so a line starting otherwise is a header line.
pub fn parse(diff: &str) -> Vec<FileChange> {
    let mut out: Vec<FileChange> = Vec::new();
    for line in diff.lines() {
        if let Some(paths) = line.strip_prefix("diff --git a/") {
            // Without renames both sides name the same file.
            let file = paths.rsplit_once(" b/").map_or(paths, |(_, new)| new);
            out.push(FileChange { file: file.to_string(), status: Status::Modified, ranges: Vec::new() });
        } else if let Some(change) = out.last_mut() {
            if line.starts_with("new file mode") {
                change.status = Status::Added;
            } else if line.starts_with("deleted file mode") {
                change.status = Status::Deleted;
            } else if let Some(hunk) = line.strip_prefix("@@ ")
                && let Some(range) = new_side(hunk)
            {
                change.ranges.push(range);
            }
        }
    }
    out
}

/// The new side of `-a,b +c,d @@`: lines `c..c+d-1`; `d = 0` (lines removed after line `c`) is
/// the lines on either side of the gap.
fn new_side(hunk: &str) -> Option<(u32, u32)> {
    let new = hunk.split_whitespace().find_map(|part| part.strip_prefix('+'))?;
    let (start, count) = match new.split_once(',') {
        Some((start, count)) => (start.parse::<u32>().ok()?, count.parse::<u32>().ok()?),
        None => (new.parse::<u32>().ok()?, 1),
    };
    Some(match count {
        0 => (start.max(1), start + 1),
        n => (start, start + n - 1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_give_new_side_ranges_per_file() {
        let diff = "diff --git a/src/a.py b/src/a.py\nindex 1..2 100644\n--- a/src/a.py\n+++ b/src/a.py\n@@ -3 +3 @@ def f():\n-    return 1\n+    return 2\n--- a removed SQL comment\n@@ -10,2 +9,0 @@\n-x\n-y\ndiff --git a/new.py b/new.py\nnew file mode 100644\n--- /dev/null\n+++ b/new.py\n@@ -0,0 +1,4 @@\n+a\ndiff --git a/gone.py b/gone.py\ndeleted file mode 100644\n--- a/gone.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\ndiff --git a/logo.png b/logo.png\nindex 1..2 100644\nBinary files a/logo.png and b/logo.png differ\n";
        let changes = parse(diff);
        assert_eq!(
            changes,
            [
                FileChange { file: "src/a.py".into(), status: Status::Modified, ranges: vec![(3, 3), (9, 10)] },
                FileChange { file: "new.py".into(), status: Status::Added, ranges: vec![(1, 4)] },
                FileChange { file: "gone.py".into(), status: Status::Deleted, ranges: vec![(1, 1)] },
                FileChange { file: "logo.png".into(), status: Status::Modified, ranges: vec![] },
            ]
        );
    }
}
