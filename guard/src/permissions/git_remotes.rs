//! Where `git push` sends the repository's content when a remote's name
//! says where (`git push backup main` after `git remote add backup
//! /tmp/x`), or none does (`git push`: the branch's `pushRemote`, else
//! `remote.pushDefault`, else its upstream's remote, else `origin`): the
//! URL git pushes to, read as git reads it, `pushurl` and
//! `pushInsteadOf` applied (`git remote get-url --push --all`), run as
//! [`git_alias`] runs git to read an alias.

use std::path::Path;

use super::git::is_local;
use super::git_alias::{self, Alias, Ran, Reads};

/// Where a push to a remote goes.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum PushUrl {
    /// The URL it pushes to: the first local one of several (`pushurl`
    /// may be given more than once; git pushes to each), else the first.
    Url(String),
    /// No remote is so named: git takes a name given as a path; a push
    /// to its default remote fails.
    NoRemote,
    /// Git could not say (it failed, took too long, or the line's reads
    /// are spent).
    Unknown,
}

/// The URL `git push` run in `cwd` with the global `options` and the
/// variables `env` (see [`git_alias::run`]) pushes to for the remote
/// `name`, or its default remote when `None`.
pub(crate) fn push_url(
    name: Option<&str>,
    options: &[&str],
    env: &[(&str, &str)],
    cwd: &Path,
    reads: &mut Reads,
) -> PushUrl {
    let name = match name {
        Some(name) => name.to_string(),
        None => match default_remote(options, env, cwd, reads) {
            Some(name) => name,
            None => return PushUrl::Unknown,
        },
    };
    // A branch whose remote is `.` pushes to the repository itself.
    if name == "." {
        return PushUrl::Url(name);
    }
    match git_alias::run(&["remote", "get-url", "--push", "--all", &name], options, env, cwd, reads) {
        Ran::Exited(0, urls) => {
            let mut urls = urls.lines();
            let first = urls.clone().next().unwrap_or_default();
            PushUrl::Url(urls.find(|url| is_local(url)).unwrap_or(first).to_string())
        }
        // `error: No such remote`.
        Ran::Exited(2, _) | Ran::NoGit => PushUrl::NoRemote,
        Ran::Exited(..) | Ran::Unknown => PushUrl::Unknown,
    }
}

/// The remote `git push` naming none pushes to, as git picks it: the
/// current branch's `pushRemote`, `remote.pushDefault`, the branch's
/// `remote`, else `origin`; `None` when unknown.
fn default_remote(options: &[&str], env: &[(&str, &str)], cwd: &Path, reads: &mut Reads) -> Option<String> {
    let branch = match git_alias::run(&["symbolic-ref", "-q", "--short", "HEAD"], options, env, cwd, reads) {
        Ran::Exited(0, branch) => Some(branch.trim_end().to_string()),
        // A detached HEAD is on no branch.
        Ran::Exited(1, _) => None,
        Ran::NoGit => return Some("origin".to_string()),
        Ran::Exited(..) | Ran::Unknown => return None,
    };
    let keys = [
        branch.as_ref().map(|branch| format!("branch.{branch}.pushRemote")),
        Some("remote.pushDefault".to_string()),
        branch.as_ref().map(|branch| format!("branch.{branch}.remote")),
    ];
    for key in keys.into_iter().flatten() {
        match git_alias::read_key(&key, options, env, cwd, reads) {
            Alias::Value(name) => return Some(name),
            Alias::None => {}
            Alias::Unknown => return None,
        }
    }
    Some("origin".to_string())
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    #[test]
    fn the_url_a_push_to_a_remote_goes_to_is_read_as_git_reads_it() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let git = |args: &[&str]| {
            let status = Command::new("git").args(args).current_dir(dir.path()).status().expect("git runs");
            assert!(status.success(), "git {args:?}");
        };
        git(&["init", "-q", "-b", "main"]);
        git(&["remote", "add", "backup", "/tmp/x"]);
        git(&["remote", "add", "hub", "https://example.com/r.git"]);
        let home = [("HOME", dir.path().to_str().expect("utf-8")), ("GIT_CONFIG_NOSYSTEM", "1")];
        let url = |name: Option<&str>| push_url(name, &[], &home, dir.path(), &mut Reads::default());
        assert_eq!(url(Some("backup")), PushUrl::Url("/tmp/x".into()));
        assert_eq!(url(Some("hub")), PushUrl::Url("https://example.com/r.git".into()));
        assert_eq!(url(Some("nothing")), PushUrl::NoRemote);
        // No `origin`: git push alone pushes nowhere.
        assert_eq!(url(None), PushUrl::NoRemote);
        // The branch's upstream remote, then remote.pushDefault over it, then its pushRemote.
        git(&["config", "branch.main.remote", "hub"]);
        assert_eq!(url(None), PushUrl::Url("https://example.com/r.git".into()));
        git(&["config", "remote.pushDefault", "backup"]);
        assert_eq!(url(None), PushUrl::Url("/tmp/x".into()));
        git(&["config", "branch.main.pushRemote", "hub"]);
        assert_eq!(url(None), PushUrl::Url("https://example.com/r.git".into()));
        // A push URL, and a local one among several.
        git(&["config", "--add", "remote.hub.pushurl", "https://example.com/other.git"]);
        git(&["config", "--add", "remote.hub.pushurl", "../copy"]);
        assert_eq!(url(Some("hub")), PushUrl::Url("../copy".into()));
        // Past the line's reads, unknown.
        let mut reads = Reads::default();
        while !matches!(push_url(Some("backup"), &[], &home, dir.path(), &mut reads), PushUrl::Unknown) {}
        assert_eq!(push_url(Some("backup"), &[], &home, dir.path(), &mut reads), PushUrl::Unknown);
    }
}
