//! Before lctx-shell runs a command itself, lean-ctxd's permission rules get
//! their say: Claude Code's `Bash(…)` deny rules, lean-ctx's `shell_deny`,
//! Read/Edit rules on the files the command names, and ask rules that no one
//! in this shell could be asked about (see `Engine::check_command`).
//!
//! Only commands the hook wraps reach lctx-shell, so only they are checked.
//! Like the rest of lctx-shell this fails open: when lean-ctxd cannot be
//! asked in time the command runs, with a note saying it was not checked.
//!
//! Most users have no rule at all. For a directory without any, lean-ctxd's
//! answer comes with the stamps of every file it depends on (settings,
//! config, the `.git` entries that decide the project); lctx-shell keeps them
//! in the private runtime directory and, while every one is unchanged, runs
//! commands there without asking — a few `stat`s instead of a round trip.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use lean_ctx_common::build_info;
use lean_ctx_common::paths::Dirs;
use lean_ctx_common::privacy;
use lean_ctx_common::stamp::Stamp;
use lean_ctx_proto::v1::{CheckRequest, CheckResponse, FileStamp, Permission};

use crate::engine::{self, Failure};

/// The whole check, daemon start-up or fallback child included.
const DEADLINE: Duration = Duration::from_secs(3);

/// What to do with a command before running it.
#[derive(Debug, PartialEq, Eq)]
pub enum Decision {
    Run,
    /// Do not run it; tell the agent why (the rule and its file).
    Refuse(String),
}

/// `unasked`: the host's shell tool did not put this command to its user,
/// so its ask rules count as for any other shell.
pub fn decide(command: &[OsString], unasked: bool) -> Decision {
    match check(&command_line(command), unasked) {
        None => Decision::Run,
        Some(Ok(answer)) => match answer.permission() {
            Permission::Deny | Permission::Ask => Decision::Refuse(answer.message),
            Permission::Allow | Permission::Unspecified => Decision::Run,
        },
        Some(Err(Failure::NoEngine)) => Decision::Run,
        Some(Err(Failure::Failed(why))) => {
            eprintln!("lctx-shell: the permission rules were not checked ({why}); running the command anyway");
            Decision::Run
        }
    }
}

/// Whether the user's rules ask about `line` where nobody has asked. Claude Code's hook leaves
/// such a command as it is, so that Claude Code puts it to its user: rewritten, it would match
/// none of Claude Code's rules, and lctx-shell, which cannot ask, would refuse it even after the
/// user approved (a QA pass's `git commit` under an ask rule could never run).
pub fn asks(line: &str) -> bool {
    matches!(check(line, true), Some(Ok(answer)) if answer.permission() == Permission::Ask)
}

/// lean-ctxd's answer for `line` in the current directory; `None` when a kept "no rule here"
/// answer still holds there (an allowing answer with stamps is kept for the next command).
fn check(line: &str, unasked: bool) -> Option<Result<CheckResponse, Failure>> {
    let cwd = std::env::current_dir().ok();
    let cache = cwd.as_deref().and_then(|cwd| Dirs::from_env().ok().map(|dirs| cache_file(&dirs, cwd)));
    if let (Some(cwd), Some(cache)) = (&cwd, &cache)
        && still_allowed(cache, cwd)
    {
        return None;
    }
    let answer = engine::exchange(DEADLINE, async |backend, mut ctx| {
        if unasked {
            ctx.agent_id.clear();
        }
        let request = CheckRequest { ctx: Some(ctx), command: line.to_string() };
        let response = backend.shell().check(tonic::Request::new(request)).await.map_err(|s| backend.explain(&s))?;
        Ok(response.into_inner())
    });
    if let (Ok(answer), Some(cwd), Some(cache)) = (&answer, &cwd, &cache)
        && matches!(answer.permission(), Permission::Allow | Permission::Unspecified)
        && !answer.allowed_while_unchanged.is_empty()
    {
        remember(cache, cwd, &answer.allowed_while_unchanged);
    }
    Some(answer)
}

/// Where lean-ctxd's "no rule here" answer for `cwd` is kept.
fn cache_file(dirs: &Dirs, cwd: &Path) -> PathBuf {
    let mut hasher = std::hash::DefaultHasher::new();
    cwd.hash(&mut hasher);
    dirs.runtime.join("shell-allowed").join(format!("{:016x}", hasher.finish()))
}

/// The first line of a cache file: which build wrote it (a new build may
/// read rules from more places) and for which directory.
fn header(cwd: &Path) -> String {
    format!("lctx-shell {} {}\n", build_info::VERSION, cwd.display())
}

/// Whether `cache` holds a "no rule here" answer for `cwd` whose files all
/// still have their stamps. Anything unreadable or odd is a no.
fn still_allowed(cache: &Path, cwd: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(cache) else { return false };
    let Some(stamps) = text.strip_prefix(&header(cwd)) else { return false };
    let mut lines = 0;
    for line in stamps.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [exists, inode, size, mtime_ns, path] = fields[..] else { return false };
        let (Ok(inode), Ok(size), Ok(mtime_ns)) = (inode.parse(), size.parse(), mtime_ns.parse()) else { return false };
        if Stamp::of(Path::new(path)) != (Stamp { exists: exists == "1", inode, size, mtime_ns }) {
            return false;
        }
        lines += 1;
    }
    lines > 0
}

/// Keeps the answer for `cwd` (tmp + rename, private). Best effort: a
/// cache that cannot be written only means asking again next time.
fn remember(cache: &Path, cwd: &Path, stamps: &[FileStamp]) {
    if stamps.iter().any(|s| s.path.contains(['\t', '\n'])) {
        return;
    }
    let mut text = header(cwd);
    for s in stamps {
        let _ = writeln!(text, "{}\t{}\t{}\t{}\t{}", u8::from(s.exists), s.inode, s.size, s.mtime_ns, s.path);
    }
    let Some(dir) = cache.parent() else { return };
    let tmp = cache.with_extension(format!("tmp{}", std::process::id()));
    let written = privacy::create_private_dir_all(dir)
        .and_then(|()| privacy::private_file().write(true).create(true).truncate(true).open(&tmp))
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .and_then(|()| std::fs::rename(&tmp, cache));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// The command as a shell would read it back: words that hold anything
/// special are single-quoted, so a `;` inside an argument is not taken for
/// a second command.
fn command_line(command: &[OsString]) -> String {
    let words: Vec<String> = command.iter().map(|word| word.to_string_lossy().into_owned()).collect();
    lctx::capability::shell::sh_words(&words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(words: &[&str]) -> String {
        command_line(&words.iter().map(OsString::from).collect::<Vec<_>>())
    }

    #[test]
    fn plain_words_stay_bare_and_the_rest_is_quoted() {
        assert_eq!(line(&["git", "push", "origin", "main"]), "git push origin main");
        assert_eq!(line(&["git", "commit", "-m", "a; rm -rf x"]), "git commit -m 'a; rm -rf x'");
        assert_eq!(line(&["echo", "", "it's"]), r"echo '' 'it'\''s'");
        assert_eq!(line(&["ls", "--color=auto", "src/a.rs"]), "ls --color=auto src/a.rs");
    }
}
