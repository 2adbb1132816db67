//! What git commands print of the files a repository holds, which no
//! operand names as a path: an object named by path (`git show HEAD:.env`,
//! `git cat-file -p :qa/x`), and the tracked files a patch, a search or an
//! archive takes in (`git diff`, `git log -p`, `git grep`, `git archive`).
//!
//! | subcommand | reads |
//! |---|---|
//! | any below | each `REV:PATH` or `:PATH` argument's path (from the top, or the directory for `./`, `../`) |
//! | `show`, `diff`, `format-patch` | the tracked files under its pathspecs, or all (a patch), unless `-s`, `--stat`, `--name-only`…, or every object `show` or `diff` is given is a `REV:PATH`; `diff --no-index`: its operands, as any command's |
//! | `log`, `whatchanged`, `diff-tree`, `diff-index`, `diff-files` | as `diff`, with a patch option (`-p`, `-U3`, `--cc`…, see [`PATCH`]) only |
//!
//! Of the options turning patches on and off (`-s`, `--no-patch`) the last
//! decides, as git reads them in order. `grep`'s and `cat-file`'s long
//! options may be cut short ([`super::git_options`]); the patch options are
//! matched whole, as `diff`, `show` and `log` take them.
//! | `cat-file` | with `-p`, a type or `--batch…` on an object not named by path: every tracked file (an object id may be any of them); `-t`, `-s`, `-e`: nothing |
//! | `grep` | the tracked files under its pathspecs (or a `REV:PATH`'s), or under its directory; with `--untracked` or `--no-index`, everything there |
//! | `archive` | the tracked files under its pathspecs (or a `REV:PATH`'s), or all |
//! | `reflog` | as `log` |
//! | `status -v`, `commit -v`; `add`, `checkout`, `restore`, `reset`, `stash`, `commit` with `-p`/`--patch`/`--interactive` (`add` also `-i`, `-e`) | the tracked files under the pathspecs after `--`, or all: the changes they print or offer as hunks |
//! | `merge-tree`, `checkout-index`, `unpack-file`, `range-diff`, `difftool`, `mergetool`; `am`/`rebase --show-current-patch`; `request-pull -p` | all the tracked files: contents printed whole, copied out or handed to a tool |
//! | `worktree add`, `bundle create`, `fast-export` | all the tracked files: a copy of the repository's content, read from there |
//! | `clone`, `fetch`, `pull` | all the files the repository its operand names tracks, when that is a local path (`git clone . /tmp/x`, `file://…`) |
//! | `push` | all the tracked files, when where it pushes (its operand, or `--repo`) is a local path (`git push /tmp/x main`, `../copy`, `file://…`), not the repository itself: a copy of its content, as `clone` of it makes |
//!
//! The repository is the one `--git-dir` (else a `GIT_DIR` given to the
//! command) names, its files beside a git directory named `.git`, else
//! where `--work-tree` (`GIT_WORK_TREE`) says, else in the directory;
//! without one, the repository the directory (after `-C`) is in.
//!
//! Pathspecs are the words after `--`, and before it the operands naming
//! an existing path (as git takes them); a pathspec with magic (`:(…)`,
//! `:!`) or a glob counts as its literal leading directory. Tracked files
//! are those of the index: what a commit in the history held and the
//! index no longer does is not seen.

use std::path::{Path, PathBuf};

use super::getopt::Name;
use super::git_index::{self, Repository};
use super::git_options::{CAT_FILE, GREP};
use super::paths::{command_path, lexical};
use super::{bash, braces};

/// What one git command reads of what its repository holds.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct GitReads {
    /// "`git show`", to name the command in a verdict.
    pub(crate) command: String,
    /// Paths named as objects (`HEAD:.env`), with the word naming each.
    pub(crate) objects: Vec<(String, PathBuf)>,
    /// Directories whose tracked files it prints; the work tree's top
    /// when it takes in everything.
    pub(crate) tracked: Vec<PathBuf>,
    /// Directories it reads every file under, tracked or not.
    pub(crate) everything: Vec<PathBuf>,
    /// Its reads of `tracked` can be narrowed by naming paths after `--` (not `cat-file`,
    /// `bundle` or a copy), which a refusal says. An exclude pathspec (`:!x`) is not taken to
    /// leave anything out: `GIT_LITERAL_PATHSPECS`, set where no check sees it (exported by an
    /// earlier command of a lasting shell), makes git read it as a plain path.
    pub(crate) takes_pathspecs: bool,
    /// The repository whose index says what is tracked.
    pub(crate) repository: Option<Repository>,
    /// What a clone, fetch or push copies where a variable or substitution
    /// names the other repository, as a clause ("the repository `$d`
    /// names"): known only when it runs.
    pub(crate) unknown_source: Option<String>,
}

impl GitReads {
    /// `command` copying every file `repository` tracks (a clone, a push).
    fn every_tracked_file(command: String, repository: Repository) -> GitReads {
        GitReads { command, tracked: vec![repository.top.clone()], repository: Some(repository), ..GitReads::default() }
    }
}

/// Options that turn patches off, and what turns them back on after.
const NO_PATCH: [&str; 2] = ["-s", "--no-patch"];
/// Output formats that take the place of the patch `show` and `diff` print
/// by default, and leave it out unless a patch is asked for too.
const OTHER_FORMATS: [&str; 8] =
    ["--stat", "--shortstat", "--numstat", "--name-only", "--name-status", "--summary", "--dirstat", "--raw"];
/// Options that print patches (`-U3`, `--unified=3` included).
/// `--binary` implies a patch, `--dd` is `--diff-merges=first-parent --patch`, `--remerge-diff`
/// and `--diff-merges=…` print a merge's.
const PATCH: [&str; 14] = [
    "-p",
    "-u",
    "--patch",
    "-U",
    "--unified",
    "--patch-with-stat",
    "--patch-with-raw",
    "-c",
    "--cc",
    "-L",
    "--binary",
    "--dd",
    "--remerge-diff",
    "--diff-merges",
];
/// Options of `archive` taking the next word as their value.
const ARCHIVE_VALUES: [&str; 6] = ["-o", "--output", "--prefix", "--format", "--remote", "--exec"];
const OBJECT_TYPES: [&str; 4] = ["blob", "tree", "commit", "tag"];
/// Options of `clone`, `fetch` and `pull` taking the next word as their value.
const COPY_VALUES: [&str; 25] = [
    "-o",
    "--origin",
    "-b",
    "--branch",
    "-u",
    "--upload-pack",
    "--reference",
    "--reference-if-able",
    "--separate-git-dir",
    "--depth",
    "--deepen",
    "--shallow-since",
    "--shallow-exclude",
    "-c",
    "--config",
    "--template",
    "-j",
    "--jobs",
    "--filter",
    "--server-option",
    "--bundle-uri",
    "--ref-format",
    "--revision",
    "--negotiation-tip",
    "--refmap",
];

/// Options of `push` taking the next word as their value.
const PUSH_VALUES: [&str; 6] = ["-o", "--push-option", "--receive-pack", "--exec", "--repo", "--recurse-submodules"];

/// What `git ARGS…` run in `cwd` (canonical) reads of its repository,
/// with `git_dir` and `work_tree` what `GIT_DIR` and `GIT_WORK_TREE` it is
/// given hold, `opaque` the words among `args` a variable or substitution
/// decides; `None` for a subcommand that prints no file's contents, or
/// outside a repository (where git fails), `git grep --no-index` aside.
pub(crate) fn reads(
    args: &[&str],
    opaque: &[&str],
    cwd: &Path,
    git_dir: Option<&str>,
    work_tree: Option<&str>,
) -> Option<GitReads> {
    let mut readings =
        subcommand_starts(args).into_iter().filter_map(|at| reads_from(args, at, opaque, cwd, git_dir, work_tree));
    let mut out = readings.next()?;
    for other in readings {
        out.objects.extend(other.objects);
        out.tracked.extend(other.tracked);
        out.everything.extend(other.everything);
    }
    Some(out)
}

/// [`reads`] with the subcommand at `at`.
fn reads_from(
    args: &[&str],
    at: usize,
    opaque: &[&str],
    cwd: &Path,
    git_dir: Option<&str>,
    work_tree: Option<&str>,
) -> Option<GitReads> {
    let (cwd, repository) = repository(&args[..at], cwd, git_dir, work_tree);
    let subcommand = *args.get(at)?;
    let args = &args[at + 1..];
    if let Some(other) = copied_from(subcommand, args, opaque) {
        return match subcommand {
            "push" => pushed(other, opaque, repository),
            _ => copied(subcommand, other, opaque, &cwd),
        };
    }
    let no_index = no_index(subcommand, args);
    let top = match &repository {
        Some(repository) => repository.top.clone(),
        None if subcommand == "grep" && no_index => cwd.clone(),
        None => return None,
    };
    let out = GitReads { command: format!("`git {subcommand}`"), repository, ..GitReads::default() };
    prints(subcommand, args, opaque, &top, &cwd, out)
}

/// What `git SUBCOMMAND ARGS…` run in `cwd` prints of what the repository
/// whose work tree's top is `top` holds, added to `out`. A word in
/// `opaque` is known only when the command runs (`$(git rev-parse
/// HEAD:.env)`): never an object named by path, so an object of unknown
/// content, and as a pathspec the whole repository.
fn prints(
    subcommand: &str,
    args: &[&str],
    opaque: &[&str],
    top: &Path,
    cwd: &Path,
    mut out: GitReads,
) -> Option<GitReads> {
    let no_index = no_index(subcommand, args);
    let has = |options: &[&str]| args.iter().any(|arg| options.iter().any(|option| option_is(arg, option)));
    // As git's option parser reads them: short ones bundled (`-vp`), long ones cut to a prefix
    // (`--patc`, `--verb`); an ambiguous prefix git refuses is taken too.
    let given = |short: &str, long: &[&str]| {
        args.iter().take_while(|arg| **arg != "--").any(|arg| match arg.strip_prefix("--") {
            Some(name) => {
                let name = name.split('=').next().unwrap_or_default();
                !name.is_empty() && long.iter().any(|option| option.starts_with(name))
            }
            None => arg.strip_prefix('-').is_some_and(|letters| letters.chars().any(|c| short.contains(c))),
        })
    };
    let words = match subcommand {
        "grep" => Words::of(args, |arg| GREP.takes_next(arg)),
        "archive" => Words::of(args, |arg| ARCHIVE_VALUES.contains(&arg)),
        _ => Words::of(args, |_| false),
    };
    // A word with pathspec magic names an index path only where one of that name exists.
    let object = |word: &str| {
        object_path(word, top, cwd).filter(|path| !opaque.contains(&word) && (!pathspec_magic(word) || path.exists()))
    };
    for word in words.before.iter().chain(&words.after) {
        if let Some(path) = object(word) {
            out.objects.push((word.to_string(), path));
        }
    }
    // Nor does one narrow what the command prints to itself: git takes it as a pathspec, and
    // `git diff -- ':!a.txt'` printed every other tracked file unchecked.
    let tree = |word: &str| object(word).is_some() && !pathspec_magic(word);
    // Words before `--` that are no object named by path: revisions, and
    // for grep its pattern first.
    let others: Vec<&str> = words.before.iter().copied().filter(|word| !tree(word)).collect();
    let trees: Vec<PathBuf> =
        words.before.iter().chain(&words.after).filter(|word| tree(word)).filter_map(|word| object(word)).collect();
    let within = |before: &[&str], default: &Path| {
        let named = pathspecs(before, &words.after, opaque, top, cwd);
        if named.is_empty() { vec![default.to_path_buf()] } else { named }
    };
    // Blobs named by path alone are all `show` and `diff` print of them.
    let commits = trees.is_empty() || others.iter().any(|word| !exists(word, cwd));
    match subcommand {
        "show" | "diff" if prints_patch(args, true) && !no_index && commits => out.tracked = within(&others, top),
        "format-patch" if prints_patch(args, true) => out.tracked = within(&others, top),
        "log" | "whatchanged" | "diff-tree" | "diff-index" | "diff-files" if prints_patch(args, false) => {
            out.tracked = within(&others, top)
        }
        "cat-file" if !has(&["-t", "-s", "-e"]) => {
            let by_id = others.iter().any(|word| !OBJECT_TYPES.contains(word));
            let batch = CAT_FILE.parse(args);
            if by_id || batch.has(Name::Long("batch")) || batch.has(Name::Long("batch-command")) {
                out.tracked = vec![top.to_path_buf()];
            }
        }
        "grep" => {
            let grep = GREP.parse(args);
            // The first word is the pattern, unless an option gave it.
            let given = grep.has(Name::Short('e')) || grep.has(Name::Short('f'));
            let searched = if given { &others[..] } else { others.get(1..).unwrap_or_default() };
            let dirs = if trees.is_empty() { within(searched, cwd) } else { trees };
            if no_index || grep.has(Name::Long("untracked")) {
                out.everything = dirs;
            } else {
                out.tracked = dirs;
            }
        }
        // The first word is the tree archived, the rest paths in it.
        "archive" => {
            out.tracked = if trees.is_empty() { within(others.get(1..).unwrap_or_default(), top) } else { trees }
        }
        // A reflog is a log of the reflog's commits.
        "reflog" if prints_patch(args, false) => out.tracked = within(&others, top),
        // The staged (`-vv`: and unstaged) changes `status -v` prints and `commit -v` puts in the
        // message it opens, and the hunks an interactive mode offers before it reads an answer
        // (from stdin, which may be empty). Their other words are no pathspecs to narrow by
        // (`commit -m MSG`), so only those after `--` do.
        "status" | "commit" if given("v", &["verbose"]) => out.tracked = within(&[], top),
        "add" | "checkout" | "restore" | "reset" | "stash" | "commit"
            if given("p", &["patch", "interactive"]) || (subcommand == "add" && given("ie", &["edit"])) =>
        {
            out.tracked = within(&[], top)
        }
        // A merge's result printed whole, the index's files checked out under another prefix, a
        // blob written to a temporary file, two ranges' patches, each version handed to a tool.
        "merge-tree" | "checkout-index" | "unpack-file" | "range-diff" | "difftool" | "mergetool" => {
            out.tracked = vec![top.to_path_buf()]
        }
        "am" | "rebase" if given("", &["show-current-patch"]) => out.tracked = vec![top.to_path_buf()],
        "request-pull" if given("p", &[]) => out.tracked = vec![top.to_path_buf()],
        // A copy of the repository's content, which a later command reads from there.
        "worktree" if args.first() == Some(&"add") => out.tracked = vec![top.to_path_buf()],
        "bundle" if args.first() == Some(&"create") => out.tracked = vec![top.to_path_buf()],
        "fast-export" => out.tracked = vec![top.to_path_buf()],
        "show" | "diff" | "cat-file" => {}
        _ => return None,
    }
    out.takes_pathspecs = !matches!(
        subcommand,
        "cat-file"
            | "worktree"
            | "bundle"
            | "fast-export"
            | "merge-tree"
            | "checkout-index"
            | "unpack-file"
            | "range-diff"
            | "difftool"
            | "mergetool"
            | "am"
            | "rebase"
            | "request-pull"
    );
    Some(out)
}

/// The repository `git clone`, `fetch` or `pull` given `args` copies, or
/// `git push` copies to (its first operand, else its `--repo`), as
/// written, when that is a local path (or a `file://` URL, or a word in
/// `opaque`, which a variable decides and may be either), not another
/// host's. A push's word with no `/` (but `.`, `..`) is a remote's name:
/// the URL its configuration gives is not followed.
fn copied_from<'a>(subcommand: &str, args: &[&'a str], opaque: &[&str]) -> Option<&'a str> {
    let push = subcommand == "push";
    if !push && !matches!(subcommand, "clone" | "fetch" | "pull") {
        return None;
    }
    let values: &[&str] = if push { &PUSH_VALUES } else { &COPY_VALUES };
    let words = Words::of(args, |arg| values.contains(&arg));
    let repo = args.iter().enumerate().rev().find_map(|(at, arg)| match arg.strip_prefix("--repo")? {
        "" => args.get(at + 1).copied(),
        value => value.strip_prefix('='),
    });
    let operand = words.before.first().or(words.after.first()).copied();
    // git takes a push's operand over its `--repo` (`git push --repo=origin /tmp/x` pushes to /tmp/x).
    let source = if push { operand.or(repo) } else { operand }?;
    let path = source.strip_prefix("file://").unwrap_or(source);
    // `host:path` is ssh's, `scheme://…` another transport's; a `:` after a `/` is in a local path.
    let remote = path.contains("://") || path.split('/').next().is_some_and(|first| first.contains(':'));
    let named = push && !opaque.contains(&source) && !path.contains('/') && !matches!(path, "." | "..");
    (!remote && !named).then_some(source)
}

/// What `git push` to `destination` (see [`copied_from`]) reads of
/// `repository`, the one it pushes from: every tracked file, copied out as
/// a clone of it would be; nothing pushing to that repository itself
/// (`git push . HEAD:main`); known only when it runs where a variable
/// names the destination (it may be another host's). A relative
/// destination is taken from the repository's top, where git runs a push
/// from (`git -C src push ..` pushes to the top's parent).
fn pushed(destination: &str, opaque: &[&str], repository: Option<Repository>) -> Option<GitReads> {
    let repository = repository?;
    let command = "`git push`".to_string();
    if opaque.contains(&destination) {
        let unknown = format!("the files git tracks, to copy them to `{destination}`");
        return Some(GitReads { command, unknown_source: Some(unknown), ..GitReads::default() });
    }
    let top = &repository.top;
    let path = command_path(&top.join(destination.strip_prefix("file://").unwrap_or(destination)), top);
    // git opens the destination itself as a repository (its top, its git directory), never one
    // above it: a bare repository inside the work tree is another repository.
    let real = |path: &Path| path.canonicalize().ok();
    let itself = real(&path)
        .is_some_and(|to| [&repository.top, &repository.git_dir].iter().any(|own| real(own) == Some(to.clone())));
    if itself {
        return None;
    }
    Some(GitReads::every_tracked_file(command, repository))
}

/// What `git SUBCOMMAND` reads copying the repository at `source` (see
/// [`copied_from`]) from `cwd`: all its tracked files, where `source` is a
/// repository's top or git directory; known only when it runs where a
/// variable names it.
fn copied(subcommand: &str, source: &str, opaque: &[&str], cwd: &Path) -> Option<GitReads> {
    let command = format!("`git {subcommand}`");
    if opaque.contains(&source) {
        let unknown = format!("the repository `{source}` names");
        return Some(GitReads { command, unknown_source: Some(unknown), ..GitReads::default() });
    }
    let path = command_path(&cwd.join(source.strip_prefix("file://").unwrap_or(source)), cwd);
    let is_repository = path.join(".git").exists() || path.join("HEAD").is_file();
    let repository = is_repository.then(|| git_index::repository(&path)).flatten()?;
    // Fetching or pulling from the repository one is in (`git fetch . topic:main`) copies nothing out.
    let here = || git_index::repository(cwd).is_some_and(|current| current.top == repository.top);
    if subcommand != "clone" && here() {
        return None;
    }
    Some(GitReads::every_tracked_file(command, repository))
}

/// Whether a command printing patches `by_default` (`show`, `diff`) or
/// not (`log`) prints them given `args`: the last option turning them on
/// (`-p`) or off (`-s`) decides, as git reads them in order
/// (`--stat -p` prints both); with neither, another format (`--stat`)
/// takes the default's place.
fn prints_patch(args: &[&str], by_default: bool) -> bool {
    let is = |arg: &str, options: &[&str]| options.iter().any(|option| option_is(arg, option));
    let mut asked = None;
    let mut other_format = false;
    for &arg in args.iter().take_while(|&&arg| arg != "--") {
        if is(arg, &PATCH) {
            asked = Some(true);
        } else if is(arg, &NO_PATCH) {
            asked = Some(false);
        } else if is(arg, &OTHER_FORMATS) {
            other_format = true;
        }
    }
    asked.unwrap_or(by_default && !other_format)
}

/// `git ARGS…`'s subcommand when it prints what a repository holds of its
/// files, for a repository known only when it runs: those of the table,
/// and the readers it does not follow in a known one, `blame`, `annotate`
/// and `stash show` with a patch.
pub(crate) fn may_print_files<'a>(args: &[&'a str], opaque: &[&str]) -> Option<&'a str> {
    subcommand_starts(args).into_iter().find_map(|at| {
        let subcommand = *args.get(at)?;
        let rest = &args[at + 1..];
        let anywhere = Path::new("/");
        let unfollowed = match subcommand {
            "blame" | "annotate" => true,
            "stash" => rest.first() == Some(&"show") && prints_patch(&rest[1..], false),
            _ => false,
        };
        let out = prints(subcommand, rest, opaque, anywhere, anywhere, GitReads::default());
        let prints_any =
            out.is_some_and(|out| !(out.objects.is_empty() && out.tracked.is_empty() && out.everything.is_empty()));
        let copies = copied_from(subcommand, rest, opaque).is_some();
        (prints_any || unfollowed || copies).then_some(subcommand)
    })
}

/// Subcommands that leave the index, the refs' contents and the objects as
/// they are, or only name what is there (`branch`, `tag`); `stash` only as
/// `stash list` or `stash show`, `config` only reading.
const KEEPS_REPOSITORY: [&str; 40] = [
    "status",
    "log",
    "show",
    "diff",
    "grep",
    "blame",
    "annotate",
    "cat-file",
    "ls-files",
    "ls-tree",
    "rev-parse",
    "rev-list",
    "describe",
    "shortlog",
    "whatchanged",
    "diff-tree",
    "diff-index",
    "diff-files",
    "archive",
    "format-patch",
    "for-each-ref",
    "show-ref",
    "show-branch",
    "name-rev",
    "help",
    "version",
    "count-objects",
    "check-ignore",
    "check-attr",
    "check-ref-format",
    "var",
    "cherry",
    "range-diff",
    "merge-base",
    "ls-remote",
    "branch",
    "tag",
    "reflog",
    "fsck",
    "remote",
];

/// `git ARGS…`'s subcommand when it may write the index or create or change
/// a repository (`add`, `commit`, `stash`, `clone`, `checkout`, `reset`,
/// `apply --cached`…: any not known to keep it), so what a later git
/// command of the line prints of it is not what the repository holds now.
pub(crate) fn may_change_repository<'a>(args: &[&'a str]) -> Option<&'a str> {
    subcommand_starts(args).into_iter().find_map(|at| {
        let subcommand = *args.get(at)?;
        let rest = &args[at + 1..];
        let keeps = match subcommand {
            "stash" => matches!(rest.first(), Some(&"list" | &"show")),
            "config" => rest.iter().any(|arg| arg.starts_with("--get") || matches!(*arg, "-l" | "--list")),
            _ => KEEPS_REPOSITORY.contains(&subcommand) || subcommand.starts_with('-'),
        };
        (!keeps).then_some(subcommand)
    })
}

/// The top of the work tree git given `args` (the words after `git`) run
/// in `cwd` uses, else the directory it runs in (after `-C`): where it
/// runs the scripts of its configuration.
pub(crate) fn top(args: &[&str], cwd: &Path, git_dir: Option<&str>, work_tree: Option<&str>) -> PathBuf {
    let (cwd, repository) = repository(&args[..subcommand_starts(args)[0]], cwd, git_dir, work_tree);
    repository.map_or(cwd, |repository| repository.top)
}

/// The directory git runs in, moved by `-C` options among `globals`, and
/// the repository it uses there: the one `--git-dir` (else `git_dir`)
/// names, with the work tree `--work-tree` (else `work_tree`) names, or the
/// one it is in.
fn repository(
    globals: &[&str],
    cwd: &Path,
    git_dir: Option<&str>,
    work_tree: Option<&str>,
) -> (PathBuf, Option<Repository>) {
    let (mut cwd, mut git_dir, mut work_tree) = (cwd.to_path_buf(), git_dir, work_tree);
    for (at, option) in globals.iter().enumerate() {
        let value = |name: &str| match option.strip_prefix(name)?.strip_prefix('=') {
            Some(value) => Some(value),
            None if *option == name => globals.get(at + 1).copied(),
            None => None,
        };
        if *option == "-C"
            && let Some(dir) = globals.get(at + 1)
        {
            cwd = command_path(&cwd.join(dir), &cwd);
        }
        git_dir = value("--git-dir").or(git_dir);
        work_tree = value("--work-tree").or(work_tree);
    }
    let work_tree = work_tree.map(|tree| command_path(&cwd.join(tree), &cwd));
    let repository = match git_dir {
        Some(dir) => git_index::given(&command_path(&cwd.join(dir), &cwd), work_tree.as_deref(), &cwd),
        None => git_index::repository(&cwd).map(|found| match work_tree {
            Some(top) => Repository { top, ..found },
            None => found,
        }),
    };
    (cwd, repository)
}

/// Where git's subcommand may start in `args` (the words after `git`):
/// past its global options as Bash rules read them, both readings of an
/// option the table does not know included (`--attr-source HEAD show`:
/// `HEAD` is its value, or the subcommand), so what either reading prints
/// is read.
pub(crate) fn subcommand_starts(args: &[&str]) -> Vec<usize> {
    let texts: Vec<&str> = std::iter::once("git").chain(args.iter().copied()).collect();
    let mut starts: Vec<usize> = bash::subcommand_starts(&texts, 0).into_iter().map(|start| start - 1).collect();
    starts.dedup();
    if starts.is_empty() {
        starts.push(0);
    }
    starts
}

/// Whether `git SUBCOMMAND ARGS…` reads files outside any repository:
/// `grep --no-index` (cut short too, `--no-ind`), `diff --no-index`.
fn no_index(subcommand: &str, args: &[&str]) -> bool {
    match subcommand {
        "grep" => GREP.parse(args).has(Name::Long("no-index")),
        _ => args.contains(&"--no-index"),
    }
}

fn exists(word: &str, cwd: &Path) -> bool {
    cwd.join(word).symlink_metadata().is_ok()
}

/// Whether `arg` is `option`, or `option=…`, or (a short one) `option…`.
fn option_is(arg: &str, option: &str) -> bool {
    match arg.strip_prefix(option) {
        Some(rest) => rest.is_empty() || rest.starts_with('=') || (!option.starts_with("--") && option != "-s"),
        None => false,
    }
}

/// A subcommand's words that are not options or their values, before and
/// after `--`.
struct Words<'a> {
    before: Vec<&'a str>,
    after: Vec<&'a str>,
}

impl<'a> Words<'a> {
    /// `takes_value`: whether an option word takes the next word as its value.
    fn of(args: &[&'a str], takes_value: impl Fn(&str) -> bool) -> Words<'a> {
        let mut words = Words { before: Vec::new(), after: Vec::new() };
        let mut at = 0;
        while let Some(&arg) = args.get(at) {
            if arg == "--" {
                words.after = args[at + 1..].to_vec();
                break;
            }
            if !arg.starts_with('-') {
                words.before.push(arg);
            } else if takes_value(arg) {
                at += 1;
            }
            at += 1;
        }
        words
    }
}

/// The path of an object named by path: `REV:PATH`, `:PATH` or
/// `:N:PATH`, from the top (`./` and `../` from `cwd`). Not `:/text`, a
/// search of commit messages.
fn object_path(word: &str, top: &Path, cwd: &Path) -> Option<PathBuf> {
    let (rev, path) = word.split_once(':')?;
    if rev.starts_with('-') || path.starts_with('/') || (rev.is_empty() && path.is_empty()) {
        return None;
    }
    let path = match path.split_once(':') {
        Some((stage, rest)) if rev.is_empty() && stage.len() == 1 && stage.as_bytes()[0].is_ascii_digit() => rest,
        _ => path,
    };
    let base = if path.starts_with("./") || path.starts_with("../") { cwd } else { top };
    Some(lexical(&base.join(path)))
}

/// The directories of a command's pathspecs: `after` (past `--`) all, and
/// of `before` those naming an existing path; one in `opaque` may name
/// any, so it is the top.
fn pathspecs(before: &[&str], after: &[&str], opaque: &[&str], top: &Path, cwd: &Path) -> Vec<PathBuf> {
    let existing = before.iter().filter(|word| exists(word, cwd));
    let dir = |spec: &&str| if opaque.contains(spec) { top.to_path_buf() } else { pathspec_dir(spec, top, cwd) };
    existing.chain(after).map(dir).collect()
}

/// Whether `word` is a pathspec with magic: `:` then a short magic (`!`, `^`, `/`), a long one
/// (`:(exclude)`), or the `:` ending none.
fn pathspec_magic(word: &str) -> bool {
    word.strip_prefix(':').is_some_and(|rest| rest.starts_with(['!', '^', '/', '(', ':']))
}

/// What a pathspec can reach: its path, or for one with magic the top,
/// for a glob its literal leading directory.
fn pathspec_dir(spec: &str, top: &Path, cwd: &Path) -> PathBuf {
    if spec.starts_with(':') {
        return top.to_path_buf();
    }
    let literal = if spec.contains(['*', '?', '[']) { braces::literal_dir(spec) } else { spec.to_string() };
    lexical(&cwd.join(literal))
}
