//! Running `git` for the graph's history questions (co-change, diffs): read-only commands in the
//! project root, under a deadline, their output bounded. A repository that is not there, a
//! missing `git` and a bad ref are answers to give, not crashes.

use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one git command may take before it is killed.
pub const GIT_TIMEOUT: Duration = Duration::from_secs(10);
/// Output kept at most; a larger output is cut and the caller told.
const MAX_OUTPUT: usize = 32 << 20;

#[derive(Debug)]
pub enum GitError {
    /// The project is not inside a git work tree.
    NotARepository,
    /// `git` could not be started.
    Unavailable(String),
    /// It exited non-zero: its first stderr line.
    Failed(String),
    TimedOut,
}

impl std::fmt::Display for GitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GitError::NotARepository => write!(f, "the project is not a git repository"),
            GitError::Unavailable(why) => write!(f, "git could not be run: {why}"),
            GitError::Failed(why) => write!(f, "git failed: {why}"),
            GitError::TimedOut => write!(f, "git took longer than {} s and was stopped", GIT_TIMEOUT.as_secs()),
        }
    }
}

/// What a git command printed, and whether it was cut at [`MAX_OUTPUT`].
pub struct Output {
    pub text: String,
    pub cut: bool,
}

/// Runs `git args…` in `root` (no pager, no prompts, no optional locks, paths unquoted).
pub fn run(root: &Path, args: &[&str]) -> Result<Output, GitError> {
    run_bounded(root, args, MAX_OUTPUT)
}

/// [`run`], keeping at most `max` bytes of its output.
fn run_bounded(root: &Path, args: &[&str], max: usize) -> Result<Output, GitError> {
    let mut child = Command::new("git")
        .args(["-c", "core.quotepath=off", "--no-pager"])
        .args(args)
        .current_dir(root)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("LC_ALL", "C")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| GitError::Unavailable(e.to_string()))?;
    let stdout = child.stdout.take().map(|mut out| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let read = (&mut out).take(max as u64 + 1).read_to_end(&mut bytes);
            // The rest is drained, not left in the pipe: closing it early would kill git with
            // SIGPIPE and turn a long answer into a failure.
            let _ = std::io::copy(&mut out, &mut std::io::sink());
            (bytes, read.is_ok())
        })
    });
    let stderr = child.stderr.take().map(|err| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = err.take(64 << 10).read_to_end(&mut bytes);
            bytes
        })
    });
    let deadline = Instant::now() + GIT_TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(GitError::TimedOut);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(GitError::Unavailable(e.to_string())),
        }
    };
    let (mut bytes, _) = stdout.and_then(|t| t.join().ok()).unwrap_or_default();
    let err = stderr.and_then(|t| t.join().ok()).unwrap_or_default();
    if !status.success() {
        let err = String::from_utf8_lossy(&err);
        if err.contains("not a git repository") {
            return Err(GitError::NotARepository);
        }
        let first = err.lines().find(|l| !l.trim().is_empty()).unwrap_or("no message").trim();
        return Err(GitError::Failed(first.to_string()));
    }
    let cut = bytes.len() > max;
    bytes.truncate(max);
    Ok(Output { text: String::from_utf8_lossy(&bytes).into_owned(), cut })
}

/// The commit HEAD names; `NotARepository` outside a work tree, `Failed` in a repository
/// without commits.
pub fn head(root: &Path) -> Result<String, GitError> {
    Ok(run(root, &["rev-parse", "--verify", "HEAD"])?.text.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_over_the_cap_is_cut_not_failed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let git = |args: &[&str]| {
            let status = Command::new("git")
                .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
                .args(args)
                .current_dir(root)
                .stdout(Stdio::null())
                .status()
                .unwrap();
            assert!(status.success(), "git {args:?}");
        };
        git(&["init", "-q"]);
        // Far more than a pipe holds, so git is still writing when the cap is reached.
        std::fs::write(root.join("big.txt"), "a line of the file\n".repeat(20_000)).unwrap();
        git(&["add", "big.txt"]);
        git(&["commit", "-q", "-m", "big"]);
        let out = run_bounded(root, &["show", "HEAD"], 100).unwrap();
        assert!(out.cut);
        assert_eq!(out.text.len(), 100);
        assert!(matches!(run(&root.join("missing"), &["log"]), Err(GitError::Unavailable(_))));
    }
}
