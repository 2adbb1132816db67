//! git: status, log/show, diff, branch and the transfer commands (push, pull, fetch, clone).
//!
//! git's own output is already terse; what costs tokens are advice lines, transfer progress, the four header
//! lines of every file in a diff, three header lines per commit and whole lockfiles in diffs.

use crate::detect::{has_flag, has_short, skip_options};
use crate::family::{Families, Family};
use crate::files::GREP;
use crate::generic::GENERIC;
use crate::passthrough::PASSTHROUGH;
use crate::plan::{Cut, Mark, Plan};
use crate::rules;

pub(crate) static STATUS: Family = Family::new("git-status", "git status", |plan, _| status(plan));
pub(crate) static LOG: Family = Family::new("git-log", "git log --oneline -n 5", |plan, _| history(plan));
pub(crate) static SHOW: Family = Family::new("git-show", "git show HEAD~1", |plan, _| history(plan));
pub(crate) static DIFF: Family = Family::new("git-diff", "git diff --cached", |plan, _| diff(plan));
pub(crate) static BRANCH: Family = Family::new("git-branch", "git branch -a", |plan, _| branch(plan)).listing();
pub(crate) static SYNC: Family = Family::new("git-sync", "git push origin main", transfer);
pub(crate) static CLONE: Family = Family::new("git-clone", "git clone /srv/repo.git x", transfer);

/// git's families, by subcommand.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, args| (program == "git").then(|| subcommand(args)),
    members: &[&STATUS, &LOG, &SHOW, &DIFF, &BRANCH, &SYNC, &CLONE],
};

fn subcommand(args: &[String]) -> &'static Family {
    let rest = skip_options(args, &["-C", "-c", "--git-dir", "--work-tree", "--namespace"]);
    let Some(sub) = rest.first() else { return &GENERIC };
    let sub_args = &rest[1..];
    match sub.as_str() {
        "status" => &STATUS,
        "log" | "reflog" | "shortlog" | "whatchanged" => &LOG,
        "diff" => &DIFF,
        "show" => &SHOW,
        "branch" => &BRANCH,
        "push" | "pull" | "fetch" => &SYNC,
        "clone" => &CLONE,
        "grep" => &GREP,
        "add" if has_flag(sub_args, &["--patch", "--interactive", "--edit"]) || has_short(sub_args, 'p') => {
            &PASSTHROUGH
        }
        "rebase" if has_flag(sub_args, &["--interactive"]) || has_short(sub_args, 'i') => &PASSTHROUGH,
        "commit" if !commit_has_message(sub_args) => &PASSTHROUGH,
        "mergetool" | "difftool" => &PASSTHROUGH,
        _ => &GENERIC,
    }
}

/// `git commit` without a message source opens an editor.
fn commit_has_message(args: &[String]) -> bool {
    has_flag(args, &["--message", "--file", "--no-edit", "--reuse-message", "--fixup"])
        || has_short(args, 'm')
        || has_short(args, 'F')
        || has_short(args, 'C')
}

/// Drops `(use "git add <file>..." to …)` advice; long untracked lists are path lists (structural).
fn status(plan: &mut Plan) {
    plan.set_where(Mark::Drop, |line| {
        let trimmed = line.trim();
        line.starts_with(char::is_whitespace) && trimmed.starts_with('(') && trimmed.ends_with(')')
    });
}

/// `git log` and `git show`: each commit header becomes one line, embedded patches follow the diff rules.
fn history(plan: &mut Plan) {
    for i in 0..plan.len() {
        let Some(rest) = plan.line(i).strip_prefix("commit ") else { continue };
        let Some(sha) = rest.split_whitespace().next().filter(|s| s.len() >= 40) else { continue };
        let refs = &rest[sha.len()..];
        let mut author = String::new();
        let mut date = String::new();
        let mut j = i + 1;
        while j < plan.len() {
            let Some((field, value)) = plan.line(j).split_once(": ") else { break };
            if field.is_empty() || !field.chars().all(|c| c.is_ascii_alphabetic()) {
                break;
            }
            match field {
                "Author" => author = value.split(" <").next().unwrap_or(value).to_string(),
                "Date" => date = value.trim().to_string(),
                _ => {}
            }
            if field != "Merge" {
                plan.set(j, Mark::Drop);
            }
            j += 1;
        }
        plan.rewrite(i, format!("commit {}{refs} · {author} · {date}", &sha[..12]));
    }
    diff(plan);
}

/// Files whose diffs are machine-written and unreadable: only their size is worth showing.
const LOCKFILES: &[&str] = &[
    "Cargo.lock",
    "package-lock.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lockb",
    "poetry.lock",
    "uv.lock",
    "Pipfile.lock",
    "go.sum",
    "Gemfile.lock",
    "composer.lock",
];

/// Drops per-file `index`/`---`/`+++` headers, replaces lockfile and deleted-file bodies by their line counts
/// and keeps hunk headers so every kept change stays locatable.
fn diff(plan: &mut Plan) {
    plan.cut = Cut { max: 60, head: 30, tail: 10 };
    let mut i = 0;
    while i < plan.len() {
        let Some(paths) = plan.line(i).strip_prefix("diff --git ") else {
            i += 1;
            continue;
        };
        let path = paths.rsplit(" b/").next().unwrap_or(paths);
        let summarize_body = LOCKFILES.iter().any(|l| path.rsplit('/').next() == Some(l));
        let mut deleted = false;
        let mut j = i + 1;
        while j < plan.len() && is_file_header(plan.line(j)) {
            let line = plan.line(j);
            deleted |= line.starts_with("deleted file mode");
            if line.starts_with("index ") || line.starts_with("--- ") || line.starts_with("+++ ") {
                plan.set(j, Mark::Drop);
            }
            j += 1;
        }
        let body_start = j;
        while j < plan.len() && is_body(plan.line(j)) {
            j += 1;
        }
        let body = &plan.lines()[body_start..j];
        if (summarize_body || deleted) && !body.is_empty() {
            let count = |sign: char| body.iter().filter(|l| l.starts_with(sign) && !l.starts_with("@@")).count();
            let what = if deleted { "deleted file" } else { "lockfile" };
            plan.note(body_start, format!("… {what}: +{} -{} lines not shown", count('+'), count('-')));
            plan.set_range(body_start..j, Mark::Drop);
        } else {
            for k in body_start..j {
                if plan.line(k).starts_with("@@") {
                    plan.set(k, Mark::Must);
                }
            }
        }
        i = j;
    }
}

/// Extended header lines between `diff --git` and the first hunk.
fn is_file_header(line: &str) -> bool {
    const HEADERS: &[&str] = &[
        "index ",
        "--- ",
        "+++ ",
        "new file mode",
        "deleted file mode",
        "old mode",
        "new mode",
        "similarity index",
        "dissimilarity index",
        "rename from",
        "rename to",
        "copy from",
        "copy to",
        "Binary files",
    ];
    rules::starts_with_any(line, HEADERS)
}

/// Lines of a file's patch: hunk headers, context, additions, removals and "\\ No newline".
fn is_body(line: &str) -> bool {
    line.is_empty() || line.starts_with(['@', ' ', '+', '-', '\\'])
}

/// Drops the remote-HEAD alias, which repeats the default branch.
fn branch(plan: &mut Plan) {
    plan.set_where(Mark::Drop, |line| line.trim_start().starts_with("remotes/") && line.contains("/HEAD -> "));
}

/// Object-transfer progress, in the order git prints it.
const TRANSFER_PROGRESS: &[&str] = &[
    "Enumerating objects",
    "Counting objects",
    "Compressing objects",
    "Writing objects",
    "Receiving objects",
    "Resolving deltas",
    "Delta compression",
    "Total ",
    "Unpacking objects",
    "Checking connectivity",
    "Updating files",
    "Filtering content",
];

/// push, pull, fetch, clone: transfer progress goes; advice (`hint:`) goes unless the command failed, when it
/// explains what to do next; refs that did not change are counted.
fn transfer(plan: &mut Plan, failed: bool) {
    let mut unchanged = Vec::new();
    for i in 0..plan.len() {
        let line = plan.line(i);
        let message = line.strip_prefix("remote: ").unwrap_or(line);
        let progress = rules::starts_with_any(message, TRANSFER_PROGRESS) || line.trim() == "remote:";
        if progress || (line.starts_with("hint: ") && !failed) {
            plan.set(i, Mark::Drop);
        } else if line.starts_with(" = [up to date]") {
            unchanged.push(i);
            plan.set(i, Mark::Drop);
        }
    }
    if let Some(&first) = unchanged.first() {
        plan.note(first, format!("… {} refs up to date", unchanged.len()));
    }
}
