//! What git runs for a subcommand that is none of its builtins: an alias
//! the configuration it reads gives (`.git/config`, `~/.gitconfig`, their
//! includes…), which the line does not show (`git x`, after an earlier
//! call ran `git config alias.x '!rm -rf qa'` or wrote the file). It is
//! read now, as git would read it there, by `git config --get alias.X`
//! run with the command's global options and environment, and checked as
//! the line giving it by `-c` would be.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use lean_ctx_shell_syntax::quote;

use super::bash::{Arg, Invocation, subcommand_starts};
use super::{canonical_prefix, env_files, git_config};

/// How long reading git's configuration may take for one line, all its
/// reads together: past it, what git runs is unknown. Well under the 3 s
/// lctx-shell waits for a verdict before it runs the line unchecked.
const LINE_TIME: Duration = Duration::from_millis(1500);

/// Gits run to read the configuration for one line at most (an alias,
/// then `help.autocorrect` when there is none): past them, what git runs
/// is unknown.
const MAX_SPAWNS: u32 = 16;

/// Aliases followed for one line at most: one may stand for another, or
/// for itself, which git refuses.
pub(crate) const MAX_READ: u32 = 8;

/// What reading git's configuration has spent for one line (see
/// [`LINE_TIME`], [`MAX_SPAWNS`]).
#[derive(Default)]
pub(crate) struct Reads {
    spawned: u32,
    deadline: Option<Instant>,
}

impl Reads {
    /// Counts one more git about to run and returns how long it may take;
    /// `None` when the line's reads are spent.
    fn spawn(&mut self) -> Option<Duration> {
        if self.spawned >= MAX_SPAWNS {
            return None;
        }
        self.spawned += 1;
        let deadline = *self.deadline.get_or_insert_with(|| Instant::now() + LINE_TIME);
        deadline.checked_duration_since(Instant::now()).filter(|left| !left.is_zero())
    }
}

/// Git's builtins (`git --list-cmds=builtins`, git 2.47): an alias never
/// stands for one, as git runs the builtin.
const BUILTINS: [&str; 142] = [
    "add",
    "am",
    "annotate",
    "apply",
    "archive",
    "bisect",
    "blame",
    "branch",
    "bugreport",
    "bundle",
    "cat-file",
    "check-attr",
    "check-ignore",
    "check-mailmap",
    "check-ref-format",
    "checkout",
    "checkout--worker",
    "checkout-index",
    "cherry",
    "cherry-pick",
    "clean",
    "clone",
    "column",
    "commit",
    "commit-graph",
    "commit-tree",
    "config",
    "count-objects",
    "credential",
    "credential-cache",
    "credential-cache--daemon",
    "credential-store",
    "describe",
    "diagnose",
    "diff",
    "diff-files",
    "diff-index",
    "diff-tree",
    "difftool",
    "fast-export",
    "fast-import",
    "fetch",
    "fetch-pack",
    "fmt-merge-msg",
    "for-each-ref",
    "for-each-repo",
    "format-patch",
    "fsck",
    "fsck-objects",
    "fsmonitor--daemon",
    "gc",
    "get-tar-commit-id",
    "grep",
    "hash-object",
    "help",
    "hook",
    "index-pack",
    "init",
    "init-db",
    "interpret-trailers",
    "log",
    "ls-files",
    "ls-remote",
    "ls-tree",
    "mailinfo",
    "mailsplit",
    "maintenance",
    "merge",
    "merge-base",
    "merge-file",
    "merge-index",
    "merge-ours",
    "merge-recursive",
    "merge-recursive-ours",
    "merge-recursive-theirs",
    "merge-subtree",
    "merge-tree",
    "mktag",
    "mktree",
    "multi-pack-index",
    "mv",
    "name-rev",
    "notes",
    "pack-objects",
    "pack-redundant",
    "pack-refs",
    "patch-id",
    "pickaxe",
    "prune",
    "prune-packed",
    "pull",
    "push",
    "range-diff",
    "read-tree",
    "rebase",
    "receive-pack",
    "reflog",
    "refs",
    "remote",
    "remote-ext",
    "remote-fd",
    "repack",
    "replace",
    "replay",
    "rerere",
    "reset",
    "restore",
    "rev-list",
    "rev-parse",
    "revert",
    "rm",
    "send-pack",
    "shortlog",
    "show",
    "show-branch",
    "show-index",
    "show-ref",
    "sparse-checkout",
    "stage",
    "stash",
    "status",
    "stripspace",
    "submodule--helper",
    "switch",
    "symbolic-ref",
    "tag",
    "unpack-file",
    "unpack-objects",
    "update-index",
    "update-ref",
    "update-server-info",
    "upload-archive",
    "upload-archive--writer",
    "upload-pack",
    "var",
    "verify-commit",
    "verify-pack",
    "verify-tag",
    "version",
    "whatchanged",
    "worktree",
    "write-tree",
];

/// Global options that decide which configuration git reads, with those
/// taking the next word as their value.
const CONFIG_OPTIONS: [&str; 5] = ["-C", "-c", "--git-dir", "--work-tree", "--config-env"];

/// What the configuration says of an alias.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Alias {
    /// It gives none: git runs the builtin, a `git-X` program, or fails.
    None,
    /// Its value, as `git -c alias.X=VALUE` would give it.
    Value(String),
    /// It could not be read (git failed or took too long).
    Unknown,
}

/// The command line git runs in place of `invocation` (a git command)
/// when its configuration in `cwd` (`None`: a directory known only when it
/// runs) gives an alias for its subcommand: `git GLOBALS… -c
/// alias.X=VALUE X ARGS…`, checked as one giving it so is. `Err` says
/// what git may run that cannot be read.
pub(crate) fn expand(invocation: &Invocation, cwd: Option<&Path>, reads: &mut Reads) -> Result<Option<String>, String> {
    let args = &invocation.args;
    let texts: Vec<&str> = std::iter::once("git").chain(args.iter().map(|arg| arg.text.as_str())).collect();
    let mut candidates: Vec<usize> = subcommand_starts(&texts, 0).into_iter().map(|at| at - 1).collect();
    if candidates.is_empty() && !args.is_empty() {
        candidates.push(0);
    }
    for at in candidates {
        let subcommand = args[at].text.as_str();
        let globals = &texts[1..=at];
        let shown = git_config::shows_alias(&texts[1..], at);
        if !may_be_alias(subcommand) || gives_alias(globals, subcommand) || shown {
            continue;
        }
        let unknown = || format!("git {subcommand} (an alias its configuration may give, not read)");
        let env: Option<Vec<(&str, &str)>> = invocation
            .assignments
            .iter()
            .map(|(name, value)| value.literal.then_some((name.as_str(), value.text.as_str())))
            .collect();
        let (Some(cwd), Some(env)) = (cwd, env) else { return Err(unknown()) };
        if !args[..at].iter().all(|arg| arg.literal) || !args[at].literal {
            return Err(unknown());
        }
        match read(subcommand, &config_options(globals), &env, cwd, reads) {
            Alias::None if autocorrects(&config_options(globals), &env, cwd, reads) => {
                return Err(format!("git {subcommand} (help.autocorrect may run another command in its place)"));
            }
            Alias::None => continue,
            Alias::Unknown => return Err(unknown()),
            Alias::Value(value) => {
                let word = |arg: &Arg| match arg.literal {
                    true if arg.text.bytes().all(|b| b.is_ascii_alphanumeric() || b"_./:=@%+,-".contains(&b)) => {
                        arg.text.clone()
                    }
                    true => quote(&arg.text),
                    false => format!("\"{}\"", arg.text),
                };
                let globals: Vec<String> = args[..at].iter().map(word).collect();
                let rest: Vec<String> = args[at + 1..].iter().map(word).collect();
                let setting = quote(&format!("alias.{subcommand}={value}"));
                let line = format!("git {} -c {setting} {} {}", globals.join(" "), quote(subcommand), rest.join(" "));
                return Ok(Some(line));
            }
        }
    }
    Ok(None)
}

/// Whether the global options `globals` give an alias for `subcommand`
/// themselves (`-c alias.x=…`), which git runs rather than the files'.
fn gives_alias(globals: &[&str], subcommand: &str) -> bool {
    let key = format!("alias.{subcommand}");
    globals.windows(2).any(|pair| {
        let given = pair[1].split_once('=').map_or(pair[1], |(key, _)| key);
        pair[0] == "-c" && given.eq_ignore_ascii_case(&key)
    })
}

/// Whether `path` (canonical) is a file git reads its configuration from,
/// or a hook it runs: a repository's `config` or `config.worktree` (in
/// `.git` or a directory holding `HEAD`), a file in its `hooks`, `~/.gitconfig`,
/// `$XDG_CONFIG_HOME/git/config` (`~/.config/git/config`), `/etc/gitconfig`,
/// or the file `GIT_CONFIG_GLOBAL` or `GIT_CONFIG_SYSTEM` names in
/// lean-ctxd's environment.
pub(crate) fn configures_git(path: &Path, home: &Path) -> bool {
    let git_dir = |dir: &Path| dir.file_name().is_some_and(|name| name == ".git") || dir.join("HEAD").is_file();
    let name = path.file_name().and_then(|name| name.to_str()).unwrap_or_default();
    let parent = path.parent();
    let in_repository = matches!(name, "config" | "config.worktree") && parent.is_some_and(git_dir);
    let hook = parent
        .filter(|dir| dir.file_name().is_some_and(|name| name == "hooks"))
        .and_then(Path::parent)
        .is_some_and(git_dir);
    let variable = |name: &str| std::env::var_os(name).map(PathBuf::from).filter(|path| path.is_absolute());
    let xdg = variable("XDG_CONFIG_HOME").unwrap_or_else(|| home.join(".config"));
    let files = [Some(home.join(".gitconfig")), Some(xdg.join("git/config")), Some(PathBuf::from("/etc/gitconfig"))];
    let named = [variable("GIT_CONFIG_GLOBAL"), variable("GIT_CONFIG_SYSTEM")];
    in_repository || hook || files.into_iter().chain(named).flatten().any(|file| canonical_prefix(&file) == path)
}

/// Whether git may run an alias for `subcommand`: it is no builtin.
pub(crate) fn may_be_alias(subcommand: &str) -> bool {
    !subcommand.is_empty() && !subcommand.starts_with('-') && !BUILTINS.contains(&subcommand)
}

/// The global options of `globals` (the words between git and its
/// subcommand) that decide which configuration git reads.
pub(crate) fn config_options<'a>(globals: &[&'a str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut words = globals.iter();
    while let Some(&word) = words.next() {
        if CONFIG_OPTIONS.contains(&word) {
            out.push(word);
            out.extend(words.next());
        } else if CONFIG_OPTIONS
            .iter()
            .any(|option| option.starts_with("--") && word.starts_with(&format!("{option}=")))
        {
            out.push(word);
        }
    }
    out
}

/// Whether the variable `name` decides which configuration git reads (its
/// files, the repository found, settings given as `-c`'s): the only ones
/// of the line git is run with here. Others would have this git do what
/// the line asks of its own (`GIT_TRACE=FILE` writes FILE, `PATH` picks
/// another git).
fn decides_configuration(name: &str) -> bool {
    const NAMES: [&str; 7] = [
        "HOME",
        "XDG_CONFIG_HOME",
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_COMMON_DIR",
        "GIT_CEILING_DIRECTORIES",
        "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    ];
    name.starts_with("GIT_CONFIG") || NAMES.contains(&name)
}

/// The alias `subcommand` names, read by git in `cwd` given `options`
/// (see [`config_options`]) and the variables `env` sets (those deciding
/// which configuration it reads, see [`decides_configuration`]).
pub(crate) fn read(subcommand: &str, options: &[&str], env: &[(&str, &str)], cwd: &Path, reads: &mut Reads) -> Alias {
    read_key(&format!("alias.{subcommand}"), options, env, cwd, reads)
}

/// Whether git, given a subcommand it has neither as a builtin nor as an
/// alias, may run another it guesses (`help.autocorrect` set to run one:
/// `git wipf` runs the alias `wipe`, `git psuh` runs push), as its
/// configuration read as [`read`] reads it says; unknown counts as may.
fn autocorrects(options: &[&str], env: &[(&str, &str)], cwd: &Path, reads: &mut Reads) -> bool {
    match read_key("help.autocorrect", options, env, cwd, reads) {
        Alias::None => false,
        Alias::Value(value) => !git_config::autocorrect_runs_nothing(&value),
        Alias::Unknown => true,
    }
}

/// The value of the configuration's `key`, read as [`read`] reads an
/// alias; unknown when the line's `reads` are spent.
fn read_key(key: &str, options: &[&str], env: &[(&str, &str)], cwd: &Path, reads: &mut Reads) -> Alias {
    let Some(timeout) = reads.spawn() else { return Alias::Unknown };
    let mut git = Command::new("git");
    git.args(options)
        .args(["config", "--get", key])
        .envs(env.iter().copied().filter(|(name, _)| decides_configuration(name)))
        // Nor a trace, which the configuration the line picks may also ask for (a HOME whose
        // .gitconfig sets trace2.eventTarget), nor lean-ctxd's own environment.
        .envs(env_files::TRACES.map(|name| (name, "0")))
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // Without git, nothing runs it either.
    let Ok(mut child) = git.spawn() else { return Alias::None };
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < timeout => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Alias::Unknown;
            }
        }
    };
    let mut value = String::new();
    let read = child.stdout.take().map(|mut out| out.read_to_string(&mut value));
    match status.code() {
        Some(0) if matches!(read, Some(Ok(_))) => Alias::Value(value.strip_suffix('\n').unwrap_or(&value).to_string()),
        Some(1) => Alias::None,
        _ => Alias::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_are_no_aliases_and_config_options_are_kept() {
        assert!(!may_be_alias("status") && !may_be_alias("-p") && may_be_alias("x") && may_be_alias("lfs"));
        let options = config_options(&["-C", "a", "--no-pager", "-c", "k=v", "--git-dir=g", "-p", "--work-tree", "w"]);
        assert_eq!(options, ["-C", "a", "-c", "k=v", "--git-dir=g", "--work-tree", "w"]);
    }

    #[test]
    fn an_alias_is_read_as_git_reads_it() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let git = |args: &[&str]| {
            let status = Command::new("git").args(args).current_dir(dir.path()).status().expect("git runs");
            assert!(status.success(), "git {args:?}");
        };
        git(&["init", "-q"]);
        git(&["config", "alias.x", "!rm -rf qa"]);
        let home = [("HOME", dir.path().to_str().expect("utf-8")), ("GIT_CONFIG_NOSYSTEM", "1")];
        assert_eq!(read("x", &[], &home, dir.path(), &mut Reads::default()), Alias::Value("!rm -rf qa".into()));
        assert_eq!(read("y", &[], &home, dir.path(), &mut Reads::default()), Alias::None);
        // The line's own `-c` is what git would run.
        assert_eq!(
            read("x", &["-c", "alias.x=status"], &home, dir.path(), &mut Reads::default()),
            Alias::Value("status".into())
        );
        // Variables that have git write a file or run another git are not given to this one.
        let trace = dir.path().join("trace");
        let trace = trace.to_str().expect("utf-8");
        let env = [home[0], home[1], ("GIT_TRACE", trace), ("GIT_TRACE_SETUP", trace), ("PATH", "/nonexistent")];
        assert_eq!(read("x", &[], &env, dir.path(), &mut Reads::default()), Alias::Value("!rm -rf qa".into()));
        assert!(!dir.path().join("trace").exists());
        // Nor does the trace a global configuration the line's HOME picks asks for.
        git(&["config", "--file", ".gitconfig", "trace2.eventTarget", trace]);
        git(&["config", "--file", ".gitconfig", "trace2.normalTarget", trace]);
        assert_eq!(read("x", &[], &home, dir.path(), &mut Reads::default()), Alias::Value("!rm -rf qa".into()));
        assert!(!dir.path().join("trace").exists());
        // Each git run counts, found or not: past the line's, what git runs is unknown.
        let mut reads = Reads::default();
        for _ in 0..MAX_SPAWNS {
            assert_eq!(read("y", &[], &home, dir.path(), &mut reads), Alias::None);
        }
        assert_eq!(read("x", &[], &home, dir.path(), &mut reads), Alias::Unknown);
    }
}
