//! git: status, log/show, diff, branch, the transfer commands (push, pull, fetch, clone) and the commands that
//! merge (merge, rebase, cherry-pick, revert).
//!
//! git's own output is already terse; what costs tokens are advice lines, transfer progress, the four header
//! lines of every file in a diff, three header lines per commit and whole lockfiles in diffs.

use crate::conflicts;
use crate::detect::{has_flag, has_short, skip_options};
use crate::family::{Families, Family};
use crate::files::GREP;
use crate::generic::GENERIC;
use crate::passthrough::PASSTHROUGH;
use crate::plan::{Cut, Mark, NoteAt, Plan};
use crate::rules;

pub(crate) static STATUS: Family = Family::new("git-status", "git status", status);
pub(crate) static LOG: Family = Family::new("git-log", "git log --oneline -n 5", history);
pub(crate) static SHOW: Family = Family::new("git-show", "git show HEAD~1", history);
pub(crate) static DIFF: Family = Family::new("git-diff", "git diff --cached", diff);
/// No line of `git branch` is noise: even the remote-HEAD alias says which branch is the remote's default.
pub(crate) static BRANCH: Family = Family::new("git-branch", "git branch -a", |_, _| {}).listing();
pub(crate) static SYNC: Family = Family::new("git-sync", "git push origin main", transfer);
pub(crate) static CLONE: Family = Family::new("git-clone", "git clone /srv/repo.git x", transfer);
/// A merge's report is generic text but for its conflicts, which are budgeted (`conflicts`).
pub(crate) static MERGE: Family =
    Family::new("git-merge", "git merge topic", conflicts::budget_reports).folding_similar();

/// git's families, by subcommand.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, args| (program == "git").then(|| subcommand(args)),
    members: &[&STATUS, &LOG, &SHOW, &DIFF, &BRANCH, &SYNC, &CLONE, &MERGE],
};

/// git's subcommand and its arguments, git's own options (`-C dir`) skipped.
fn split(args: &[String]) -> Option<(&str, &[String])> {
    let rest = skip_options(args, &["-C", "-c", "--git-dir", "--work-tree", "--namespace"]);
    rest.split_first().map(|(sub, sub_args)| (sub.as_str(), sub_args))
}

/// `git show REV:PATH` (`HEAD:README.md`, `:staged.rs`) prints a file as stored, not a commit, and `git blame`
/// (or `annotate`) prints one with who last changed each line: their lines are content, as `cat`'s are.
pub(crate) fn shows_a_file(args: &[String]) -> bool {
    split(args).is_some_and(|(sub, sub_args)| {
        let mut words = sub_args.iter();
        match sub {
            "blame" | "annotate" => true,
            "show" => std::iter::from_fn(|| {
                let word = words.next()?;
                if SHOW_OPTIONS_WITH_VALUE.contains(&word.as_str()) {
                    words.next();
                }
                Some(word)
            })
            .any(|arg| !arg.starts_with('-') && arg.contains(':')),
            _ => false,
        }
    })
}

/// `git show`'s options whose value may come as the next word (`--date format:%Y-%m-%d`), which names no
/// file. `--format` and `--pretty` are not among them: git takes their value only after `=`, and reads a
/// next word as a revision (`git show --format %H:%s` fails on the object `%H:%s`).
const SHOW_OPTIONS_WITH_VALUE: &[&str] = &[
    "--date",
    "--grep",
    "--author",
    "--committer",
    "--since",
    "--until",
    "--before",
    "--after",
    "-n",
    "--max-count",
    "--skip",
    "-L",
    "-O",
];

fn subcommand(args: &[String]) -> &'static Family {
    let Some((sub, sub_args)) = split(args) else { return &GENERIC };
    match sub {
        // Applying a stash prints what it merged and then the status it left, conflicts among it.
        "status" => &STATUS,
        "stash" if matches!(sub_args.first().map(String::as_str), Some("pop" | "apply")) => &STATUS,
        "log" | "reflog" | "shortlog" | "whatchanged" => &LOG,
        "diff" => &DIFF,
        "show" if shows_a_file(args) => &GENERIC,
        "show" => &SHOW,
        "branch" => &BRANCH,
        "push" | "pull" | "fetch" => &SYNC,
        "clone" => &CLONE,
        "grep" => &GREP,
        "add" if has_flag(sub_args, &["--patch", "--interactive", "--edit"]) || has_short(sub_args, 'p') => {
            &PASSTHROUGH
        }
        "rebase" if has_flag(sub_args, &["--interactive"]) || has_short(sub_args, 'i') => &PASSTHROUGH,
        "merge" | "rebase" | "cherry-pick" | "revert" => &MERGE,
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

/// Entries of one kind in one section of `git status` shown as git prints them before the rest are listed
/// by name only.
const STATUS_SHOWN: usize = 10;

/// About how many characters the names of one kind's further entries may take; past it the rest are counted.
const STATUS_NAMES_CHARS: usize = 4_000;

/// Drops `(use "git add <file>..." to …)` advice, counted, and past [`STATUS_SHOWN`] entries of one kind in one
/// section (`modified:` among the changes not staged, the untracked files) lists the rest by name, grouped by
/// directory (`deleted: migrations/{0013_old.py, 0014_old.py}, victim9.txt`): a file's name is what a status
/// is read for, so a count alone would not do. Only past [`STATUS_NAMES_CHARS`] are the last counted. So
/// every section header stays, and so does every entry of a kind there are few of (a `deleted:` among sixty
/// `modified:`), which a cut of the long list would hide. Conflicts (unmerged paths, and the `CONFLICT (…)`
/// lines a stash pop prints first) each need resolving: they are shown as printed, but past a few dozen
/// counted with their total (`conflicts`), since a list of thousands is not read.
fn status(plan: &mut Plan, failed: bool) {
    conflicts::budget_reports(plan, failed);
    plan.drop_counted("lines of advice (use \"git …\") not shown", NoteAt::First, failed, |line| {
        let trimmed = line.trim();
        line.starts_with(char::is_whitespace) && trimmed.starts_with('(') && trimmed.ends_with(')')
    });
    // (section, kind) in order of first appearance, with the entries of each.
    let mut groups: Vec<((usize, String), Vec<usize>)> = Vec::new();
    let mut section = 0;
    for i in 0..plan.len() {
        let line = plan.line(i);
        // A short-format entry's path may end in `:` too.
        if !line.starts_with(char::is_whitespace) && line.ends_with(':') && short_code(line).is_none() {
            section = i;
            continue;
        }
        let Some(kind) = status_kind(line, plan.line(section)) else { continue };
        if plan.mark(i) == Mark::Drop {
            continue;
        }
        match groups.iter_mut().find(|(key, _)| key.0 == section && key.1 == kind) {
            Some((_, entries)) => entries.push(i),
            None => groups.push(((section, kind), vec![i])),
        }
    }
    for ((_, kind), entries) in groups {
        if is_conflict(&kind) {
            conflicts::budget_unmerged(plan, &entries, &kind, failed);
            continue;
        }
        if entries.len() > STATUS_SHOWN + 2 {
            let rest = &entries[STATUS_SHOWN..];
            // An entry protection shows anyway (a path naming an error) stays as it is.
            let lines = plan.lines();
            let indent = if lines[rest[0]].starts_with('\t') { "\t" } else { "" };
            // Names that would read ambiguously in a listing (renames, quoted names) are counted.
            let counted = |hidden: &[usize]| {
                format!("{indent}… {} more {kind} entries not shown; ctx_expand has them", hidden.len())
            };
            plan.replace_hidden(rest, failed, |hidden| {
                names_listing(lines, hidden, &kind).or_else(|| Some(counted(hidden)))
            });
        }
        // The entries left as git printed them (the listing not being the shorter, say) are names too: no
        // later cut of a long run may take them.
        for i in entries {
            if plan.mark(i) == Mark::Keep {
                plan.set(i, Mark::Must);
            }
        }
    }
}

/// The status entries `entries` of `kind`, by name only: `\tdeleted: dir/{a, b}, c` (long format) or
/// `?? dir/{a, b}, c` (short), the names of consecutive entries in one directory grouped; past
/// [`STATUS_NAMES_CHARS`], a last line counts the rest. `None` when a name would read ambiguously so (a rename's
/// `a -> b`, a quoted name, a comma or brace in it).
fn names_listing(lines: &[String], entries: &[usize], kind: &str) -> Option<String> {
    let first = lines[entries[0]].as_str();
    let (indent, label) = match first.strip_prefix('\t') {
        Some(_) => ("\t", format!("{kind}:")),
        None => ("", first[..2].to_string()),
    };
    let mut paths = Vec::new();
    let mut chars = 0;
    for &i in entries {
        let path = entry_path(&lines[i], kind)?;
        if [", ", "{", "}", " -> ", "\""].iter().any(|bad| path.contains(bad)) {
            return None;
        }
        chars += path.len() + 2;
        if chars > STATUS_NAMES_CHARS {
            break;
        }
        paths.push(path);
    }
    // Consecutive names in one directory: (directory, names).
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for path in &paths {
        // An untracked directory ends in `/`: it is named in its parent.
        let (dir, name) = match path.trim_end_matches('/').rsplit_once('/') {
            Some((dir, _)) => (dir, &path[dir.len() + 1..]),
            None => ("", *path),
        };
        match groups.last_mut() {
            Some((last, names)) if *last == dir => names.push(name),
            _ => groups.push((dir, vec![name])),
        }
    }
    let items: Vec<String> = groups
        .iter()
        .map(|(dir, names)| match (dir.is_empty(), names.as_slice()) {
            (true, _) => names.join(", "),
            (false, [name]) => format!("{dir}/{name}"),
            (false, _) => format!("{dir}/{{{}}}", names.join(", ")),
        })
        .collect();
    let mut text = format!("{indent}{label} {}", items.join(", "));
    let left = entries.len() - paths.len();
    if left > 0 {
        text += &format!("\n{indent}… {left} more {kind} entries not shown; ctx_expand has them");
    }
    Some(text)
}

/// The path a status entry of `kind` names: after `kind:` and its padding (long format), the line itself under
/// the untracked and ignored headers, after the two-letter code (short).
fn entry_path<'a>(line: &'a str, kind: &str) -> Option<&'a str> {
    match line.strip_prefix('\t') {
        Some(entry) if matches!(kind, "untracked" | "ignored") => Some(entry),
        Some(entry) => Some(entry.strip_prefix(kind)?.strip_prefix(':')?.trim_start()),
        None => line.get(3..),
    }
}

/// The kind of a `git status` entry: `modified`, `deleted`, `new file`, `both modified`, … in the long format
/// (`untracked` or `ignored` for the bare paths under those headers), the two-letter code (`" M"`, `"??"`) in
/// the short one. `None` for any other line.
fn status_kind(line: &str, section: &str) -> Option<String> {
    if let Some(entry) = line.strip_prefix('\t') {
        let labelled =
            entry.split_once(":  ").filter(|(kind, _)| kind.chars().all(|c| c.is_ascii_lowercase() || c == ' '));
        return Some(match labelled {
            Some((kind, _)) => kind.to_string(),
            None if section.starts_with("Ignored") => "ignored".into(),
            None => "untracked".into(),
        });
    }
    short_code(line).map(|code| format!("`{code}`"))
}

/// The two-letter code of a short-format `git status` entry (`" M"`, `"??"`).
fn short_code(line: &str) -> Option<&str> {
    let code = line.get(..2)?;
    let short = code.chars().all(|c| " MTADRCU?!".contains(c)) && line[2..].starts_with(' ') && code != "  ";
    short.then_some(code)
}

/// Whether entries of `kind` are unmerged paths (`both modified:`, `deleted by them:`, short `UU`, `AA`, `DD`).
fn is_conflict(kind: &str) -> bool {
    kind.starts_with("both ")
        || kind.ends_with(" by us")
        || kind.ends_with(" by them")
        || kind.contains('U')
        || kind == "`AA`"
        || kind == "`DD`"
}

/// `git log` and `git show`: each commit header becomes one line, embedded patches follow the diff rules.
/// The line names the author without the e-mail address, and one note at the first header says so.
fn history(plan: &mut Plan, failed: bool) {
    let mut first_without_address = None;
    for i in 0..plan.len() {
        let Some(rest) = plan.line(i).strip_prefix("commit ") else { continue };
        // Only a hex object name is a commit header (and only ASCII can be cut at byte 12).
        let Some(sha) =
            rest.split_whitespace().next().filter(|s| s.len() >= 40 && s.bytes().all(|b| b.is_ascii_hexdigit()))
        else {
            continue;
        };
        let refs = &rest[sha.len()..];
        let mut author = String::new();
        let mut date = String::new();
        let mut j = i + 1;
        while j < plan.len() {
            let Some((field, value)) = plan.line(j).split_once(": ") else { break };
            if field.is_empty() || !field.chars().all(|c| c.is_ascii_alphabetic()) {
                break;
            }
            // The rewritten commit line carries these two (the author's name, not the address); any other
            // field (`Merge:`, fuller's `Commit:` and `CommitDate:`) stays. fuller pads its values to line up
            // under `AuthorDate:`, which is its `Date:`.
            let value = value.trim();
            match field {
                "Author" => {
                    if let Some((name, _address)) = value.split_once(" <") {
                        first_without_address.get_or_insert(i);
                        author = name.to_string();
                    } else {
                        author = value.to_string();
                    }
                }
                "Date" | "AuthorDate" => date = value.to_string(),
                _ => {
                    j += 1;
                    continue;
                }
            }
            plan.set(j, Mark::Drop);
            j += 1;
        }
        plan.rewrite(i, format!("commit {}{refs} · {author} · {date}", &sha[..12]));
    }
    if let Some(first) = first_without_address {
        plan.note(first, "… authors' e-mail addresses not shown".to_string());
    }
    diff(plan, failed);
    // git indents a commit's message (by four spaces) and its `--stat` lines (by one) after a blank line, which
    // would read as a new paragraph: a cut there would show a commit's header and hide what it says.
    plan.boundary = |previous, line| rules::boundary_before(previous, line) && !line.starts_with(' ');
}

/// Whether `git log` (or `whatchanged`) was asked for a number of commits: `-n 25`, `-n25`, `-25`,
/// `--max-count=25`, `--max-count 25`.
pub(crate) fn asks_for_commits(args: &[String]) -> bool {
    let Some(("log" | "whatchanged", sub_args)) = split(args) else { return false };
    let mut words = sub_args.iter().take_while(|w| *w != "--");
    while let Some(word) = words.next() {
        let count = match word.as_str() {
            "-n" | "--max-count" => words.next().map(String::as_str),
            _ => word
                .strip_prefix("--max-count=")
                .or_else(|| word.strip_prefix("-n"))
                .or_else(|| word.strip_prefix('-').filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))),
        };
        if count.is_some_and(|n| n.parse::<usize>().is_ok()) {
            return true;
        }
    }
    false
}

/// Lines of a commit's message and `--stat` shown under its subject in a long log asked for a number of
/// commits; the rest of them are cut, counted.
const COMMIT_LINES_SHOWN: usize = 3;

/// Protects the subject (the first line of the message) of every commit of a log asked for a number of
/// commits, so no cut of a long run takes one: the agent asked for each commit. The commit's header line
/// stays with it. Protected subjects split the log into runs too short for the cut, so in a log longer than
/// a cut's limit each commit shows its first [`COMMIT_LINES_SHOWN`] lines of message and stat and cuts the
/// rest (a patch's hunks are budgeted apart, `hunk_budget`).
pub(crate) fn keep_subjects(plan: &mut Plan) {
    let headers: Vec<usize> = (0..plan.len()).filter(|&i| is_commit_header(plan.line(i))).collect();
    let long = plan.len() > Cut::DEFAULT.max;
    for (k, &header) in headers.iter().enumerate() {
        let next = headers.get(k + 1).copied().unwrap_or(plan.len());
        let Some(subject) =
            (header + 1..next).find(|&j| plan.line(j).starts_with("    ") && !plan.line(j).trim().is_empty())
        else {
            continue;
        };
        plan.must(subject);
        if !long {
            continue;
        }
        // The message's further lines and the stat's, outside any hunk.
        let told: Vec<usize> = (subject + 1..next)
            .filter(|&j| !plan.in_hunk(j) && plan.mark(j) == Mark::Keep && !plan.line(j).trim().is_empty())
            .filter(|&j| plan.line(j).starts_with("    ") || is_stat_line(plan.line(j)))
            .collect();
        if told.len() > COMMIT_LINES_SHOWN + 1 {
            let (first, last) = (told[COMMIT_LINES_SHOWN], told[told.len() - 1]);
            for j in first..=last {
                if plan.mark(j) == Mark::Keep && !plan.in_hunk(j) {
                    plan.set(j, Mark::Omit);
                }
            }
        }
    }
}

/// A `--stat` line: ` path | 3 ++-` or the ` 2 files changed, …` total.
fn is_stat_line(line: &str) -> bool {
    line.starts_with(' ') && (line.contains(" | ") || line.contains(" changed, ") || line.ends_with(" changed"))
}

/// `commit <40 hex digits>` and, after it, refs: a `git log` commit's header.
fn is_commit_header(line: &str) -> bool {
    line.strip_prefix("commit ")
        .and_then(|rest| rest.split_whitespace().next())
        .is_some_and(|sha| sha.len() >= 40 && sha.bytes().all(|b| b.is_ascii_hexdigit()))
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

/// Drops per-file `index` (counted) and `---`/`+++` headers and replaces lockfile and deleted-file bodies by
/// their line counts; the hunks left are budgeted as any diff's are (`hunk_budget`).
fn diff(plan: &mut Plan, failed: bool) {
    plan.cut = Cut { max: 60, head: 30, tail: 10 };
    let mut index_lines = Vec::new();
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
            if line.starts_with("index ") {
                index_lines.push((j, ""));
            } else if line.starts_with("--- ") || line.starts_with("+++ ") {
                // They repeat the paths of the `diff --git` line; a new or deleted file's `/dev/null` is said by
                // its `new file mode` or `deleted file mode` line, which stays.
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
        }
        i = j;
    }
    // After the last hunk, not between a file's header and its hunks, where a patch has no room for it.
    plan.drop_kinds_counted(&index_lines, "index lines (blob ids) not shown", Some(plan.len()), failed);
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
/// explains what to do next; both are counted by kind, and refs that did not change are counted. A pull's
/// merge conflicts are budgeted (`conflicts`).
fn transfer(plan: &mut Plan, failed: bool) {
    conflicts::budget_reports(plan, failed);
    // A bare `remote:` line is the remote's empty line.
    plan.set_where(Mark::Drop, |line| line.trim() == "remote:");
    plan.drop_counted_by_kind("transfer lines not shown", NoteAt::First, failed, |line| {
        let message = line.strip_prefix("remote: ").unwrap_or(line);
        if rules::starts_with_any(message, TRANSFER_PROGRESS) {
            Some("progress")
        } else if line.starts_with("hint: ") && !failed {
            Some("hint")
        } else {
            None
        }
    });
    plan.drop_counted("refs up to date", NoteAt::First, failed, |line| line.starts_with(" = [up to date]"));
}

#[cfg(test)]
mod tests {
    use crate::compress;

    #[test]
    fn a_long_status_keeps_every_section_and_every_rare_entry_and_lists_the_rest_by_name() {
        let mut raw = String::from("On branch main\nChanges to be committed:\n");
        raw +=
            "  (use \"git restore --staged <file>...\" to unstage)\n\tdeleted:    f150.txt\n\tmodified:   f151.txt\n\n";
        raw += "Changes not staged for commit:\n  (use \"git add <file>...\" to update what will be committed)\n";
        let mut files: Vec<String> = (1..=60).map(|i| format!("f{i}.txt")).collect();
        files.sort();
        for file in &files {
            let kind = if file == "f40.txt" { "deleted: " } else { "modified:" };
            raw += &format!("\t{kind}   {file}\n");
        }
        raw += "\nUntracked files:\n  (use \"git add <file>...\" to include in what will be committed)\n";
        raw += &(1..=30).map(|i| format!("\tnew_{i}.txt\n")).collect::<String>();
        raw += "\nUnmerged paths:\n";
        raw += &(1..=14).map(|i| format!("\tboth modified:   c{i}.txt\n")).collect::<String>();
        let text = compress("git status", &raw, 0).text;
        let modified: Vec<&str> = files.iter().map(String::as_str).filter(|f| *f != "f40.txt").skip(10).collect();
        for line in [
            "Changes to be committed:",
            "\tdeleted:    f150.txt",
            "Changes not staged for commit:",
            "\tdeleted:    f40.txt",
            &format!("\tmodified: {}", modified.join(", ")),
            "Untracked files:",
            "\tnew_30.txt",
            "Unmerged paths:",
            "\tboth modified:   c14.txt",
        ] {
            assert!(text.lines().any(|shown| shown == line), "{line:?} lost:\n{text}");
        }
        assert!(!text.contains("lines omitted") && !text.contains("not shown;"), "{text}");
        // The short format lists by code.
        let short: String =
            (1..=100).map(|i| format!(" M f{i}.txt\n")).collect::<String>() + " D gone.txt\n?? new.txt\n";
        let text = compress("git status -s", &short, 0).text;
        let rest: Vec<String> = (11..=100).map(|i| format!("f{i}.txt")).collect();
        assert!(text.contains(&format!("\n M {}\n D gone.txt\n?? new.txt\n", rest.join(", "))), "{text}");
        // A path ending in `:` is no section header: the 41 untracked entries are one group.
        let colon: String = (1..=80).map(|i| format!("?? new{i}.txt\n")).collect::<String>()
            + "?? odd:\n"
            + &(81..=90).map(|i| format!("?? new{i}.txt\n")).collect::<String>();
        let text = compress("git status -s", &colon, 0).text;
        assert!(text.contains(", new80.txt, odd:, new81.txt,"), "{text}");
        // An entry protection shows anyway stays as it is; consecutive names in one directory are grouped.
        let mut flagged: String = (10..=40).map(|i| format!("\tmodified:   src/f{i}.rs\n")).collect();
        flagged += "\tmodified:   docs/CRITICAL.md\n";
        let text =
            compress("git status", &format!("On branch main\nChanges not staged for commit:\n{flagged}"), 0).text;
        let grouped: Vec<String> = (20..=40).map(|i| format!("f{i}.rs")).collect();
        assert!(text.contains(&format!("\tmodified: src/{{{}}}\n", grouped.join(", "))), "{text}");
        assert!(text.contains("\tmodified:   docs/CRITICAL.md\n"), "{text}");
    }

    #[test]
    fn a_stash_pop_lists_its_status_by_name_and_keeps_every_conflict() {
        // As git 2.43 prints a `git stash pop` that conflicted (exit 1).
        let mut files: Vec<String> = (1..=30).map(|i| format!("f{i}.txt")).collect();
        files.sort();
        let mut raw = String::from("Auto-merging a.txt\nCONFLICT (content): Merge conflict in a.txt\n");
        raw += "On branch master\nChanges to be committed:\n  (use \"git restore --staged <file>...\" to unstage)\n";
        raw += &files.iter().map(|f| format!("\tmodified:   {f}\n")).collect::<String>();
        raw += "\tnew file:   new.txt\n\nUnmerged paths:\n  (use \"git restore --staged <file>...\" to unstage)\n";
        raw += "  (use \"git add <file>...\" to mark resolution)\n\tboth modified:   a.txt\n\n";
        raw += "The stash entry is kept in case you need it again.\n";
        for command in ["git stash pop", "git -C repo stash apply stash@{1}"] {
            let compressed = compress(command, &raw, 1);
            assert_eq!(compressed.family, "git-status", "{command}");
            let text = compressed.text;
            // Past ten entries the rest are listed by name (those among a failure's last lines stay whole).
            assert!(text.contains("\tmodified: f19.txt, f2.txt, f20.txt, "), "{command}: {text}");
            for file in &files {
                assert!(text.contains(&format!("{file}\n")) || text.contains(&format!("{file}, ")), "{file}: {text}");
            }
            for line in [
                "CONFLICT (content): Merge conflict in a.txt",
                "\tnew file:   new.txt",
                "\tboth modified:   a.txt",
                "The stash entry is kept in case you need it again.",
            ] {
                assert!(text.lines().any(|shown| shown == line), "{command}: {line:?} lost:\n{text}");
            }
        }
        let dropped = "On branch main\nChanges not staged for commit:\n\tmodified:   a.txt\n\n\
                       Dropped refs/stash@{0} (5d3c0b5d1e0a0f8e0c8b9d0e7f6a5b4c3d2e1f00)\n";
        assert!(compress("git stash pop", dropped, 0).text.contains("Dropped refs/stash@{0} (5d3c0b5d"));
        // The other stash subcommands are not a status.
        assert_ne!(compress("git stash list", "stash@{0}: WIP on main: 1a2b3c4 x\n", 0).family, "git-status");
    }

    #[test]
    fn names_a_listing_cannot_hold_are_counted_not_all_kept() {
        // Renames read ambiguously in a `{a, b}` listing: 500 of them were all kept, the view unbounded.
        let mut raw = String::from("On branch main\nChanges to be committed:\n");
        raw += &(1..=500).map(|i| format!("\trenamed:    src/m{i}.rs -> lib/m{i}.rs\n")).collect::<String>();
        let text = compress("git status", &raw, 0).text;
        assert!(text.lines().count() < 20, "{text}");
        assert!(text.contains("\t… 490 more renamed entries not shown; ctx_expand has them"), "{text}");
        assert!(text.contains("\trenamed:    src/m10.rs -> lib/m10.rs"), "{text}");
    }

    #[test]
    fn status_names_past_their_budget_are_counted_and_a_rename_is_never_cut() {
        // QA: `… 4 more deleted entries not shown` named none of the four.
        let mut raw = String::from("On branch main\nChanges not staged for commit:\n");
        raw += &(13..=26).map(|i| format!("\tdeleted:    migrations/00{i}_old.py\n")).collect::<String>();
        raw += &(1..=12).map(|i| format!("\tdeleted:    victim{i}.txt\n")).collect::<String>();
        let text = compress("git status", &raw, 0).text;
        assert!(
            text.contains("\tdeleted: migrations/{0023_old.py, 0024_old.py, 0025_old.py, 0026_old.py}, victim1.txt, "),
            "{text}"
        );
        let long: String = (0..900).map(|i| format!("\tmodified:   src/module_{i:04}/file.rs\n")).collect();
        let text = compress("git status", &format!("Changes not staged for commit:\n{long}"), 0).text;
        let count = text.lines().find(|l| l.contains("more modified entries not shown")).expect("counted");
        let listed = text.matches("/file.rs").count();
        assert_eq!(
            count,
            format!("\t… {} more modified entries not shown; ctx_expand has them", 900 - listed),
            "{text}"
        );
        let renames: String = (0..20).map(|i| format!("\trenamed:    a{i}.rs -> b{i}.rs\n")).collect();
        let text = compress("git status", &format!("Changes to be committed:\n{renames}"), 0).text;
        // A rename is shown whole or counted, never cut into a listing.
        assert!(text.contains("\trenamed:    a9.rs -> b9.rs\n\t… 10 more renamed entries not shown"), "{text}");
    }

    #[test]
    fn a_log_asked_for_n_commits_shows_each_ones_header_and_subject() {
        // QA: `git log --stat -n 25` showed five commits, `… 133 lines omitted`, then the last one.
        let words = |line: &str| line.split(' ').map(str::to_string).collect::<Vec<_>>();
        for asked in ["log --stat -n 25", "log -n25", "log -25 --stat", "log --max-count=3", "-C x log --max-count 3"] {
            assert!(super::asks_for_commits(&words(asked)), "{asked}");
        }
        for not in ["log --stat", "log --no-merges", "show -n 3", "log -- -3"] {
            assert!(!super::asks_for_commits(&words(not)), "{not}");
        }
        let mut raw = String::new();
        for c in 0..25 {
            raw += &format!(
                "commit {c:02x}{}\nAuthor: qa <a@b>\nDate:   Mon Dec 7 00:21:{c:02} 2026 +0000\n\n",
                "a".repeat(38)
            );
            raw += &format!("    commit number {c} fixes bug #{}\n\n", c * 7);
            let files = if c % 5 == 0 { 60 } else { 1 };
            raw += &(0..files).map(|f| format!(" src/file_{c}_{f}.py | 1 +\n")).collect::<String>();
            raw += &format!(" {files} files changed, {files} insertions(+)\n\n");
        }
        let text = crate::compress("git log --stat -n 25", &raw, 0).text;
        for c in 0..25 {
            assert!(
                text.contains(&format!("commit {c:02x}aaaaaaaaaa · qa · Mon Dec 7 00:21:{c:02} 2026 +0000\n")),
                "{c}: {text}"
            );
            assert!(text.contains(&format!("    commit number {c} fixes bug #{}\n", c * 7)), "{c}: {text}");
        }
        assert!(text.contains(" lines omitted\n"), "a commit's long stat is still cut: {text}");
        // Without a count the log is cut as any long output.
        let text = crate::compress("git log --stat", &raw, 0).text;
        assert!(!text.contains("    commit number 12 fixes"), "{text}");
    }

    #[test]
    fn what_git_drops_is_counted_or_said_by_another_line() {
        let raw = concat!(
            "On branch main\nYour branch is ahead of 'origin/main' by 24 commits.\n",
            "  (use \"git push\" to publish your local commits)\n\nChanges not staged for commit:\n",
            "  (use \"git add <file>...\" to update what will be committed)\n",
            "  (use \"git restore <file>...\" to discard changes in working directory)\n",
            "\tmodified:   daemon/src/engine/notes_1.rs\n\tmodified:   daemon/src/lib.rs\n\nUntracked files:\n",
            "  (use \"git add <file>...\" to include in what will be committed)\n\tnotes.md\n",
        );
        let text = compress("git status", raw, 0).text;
        assert!(text.contains("by 24 commits.\n… 4 lines of advice (use \"git …\") not shown\n\n"), "{text}");

        // fuller's author and author date make the commit line as `Author:` and `Date:` do; its committer and
        // commit date are no part of it: they stay.
        let commit = |n: usize| {
            format!(
                "commit {n:040x}\nAuthor:     Ada <ada@example.com>\nAuthorDate: Mon Dec 1 10:0{n} 2026 +0100\n\
                 Commit:     Bob <bob@example.com>\nCommitDate: Tue Dec 2 11:0{n} 2026 +0100\n\n    change {n}\n\n"
            )
        };
        let text = compress("git log --format=fuller", &(1..=3).map(commit).collect::<String>(), 0).text;
        assert!(
            text.contains(
                "commit 000000000000 · Ada · Mon Dec 1 10:02 2026 +0100\nCommit:     Bob <bob@example.com>\n"
            ),
            "{text}"
        );
        assert!(!text.contains("AuthorDate:"), "{text}");

        // The remote-HEAD alias says which branch is the remote's default.
        let branches: String = (0..12).map(|i| format!("  remotes/origin/feature-{i}\n")).collect();
        let raw = format!("* main\n  remotes/origin/HEAD -> origin/main\n{branches}");
        assert!(compress("git branch -a", &raw, 0).text.contains("  remotes/origin/HEAD -> origin/main\n"));

        let mut raw = String::from("Enumerating objects: 223, done.\nCounting objects: 100% (223/223), done.\n");
        raw += "Delta compression using up to 2 threads\nCompressing objects: 100% (214/214), done.\n";
        raw += "Writing objects: 100% (223/223), 66.32 KiB | 2.21 MiB/s, done.\n";
        raw += "Total 223 (delta 113), reused 0 (delta 0), pack-reused 0 (from 0)\n";
        raw += "remote: Resolving deltas: 100% (113/113), done.\nremote:\nTo /tmp/fx/git/big.git\n";
        raw += " * [new branch]      main -> main\n";
        raw += &(0..4).map(|i| format!(" = [up to date]      release/0.{i} -> release/0.{i}\n")).collect::<String>();
        let text = compress("git push --all", &raw, 0).text;
        assert_eq!(
            text,
            "… 7 transfer lines not shown: progress\nTo /tmp/fx/git/big.git\n * [new branch]      main -> main\n\
             … 4 refs up to date\n"
        );
    }

    #[test]
    fn a_long_log_is_cut_between_commits() {
        let raw: String = (0..70)
            .map(|i| {
                format!(
                    "commit {:040x}\nAuthor: qa <qa@x>\nDate:   Sun Dec 6 02:35:10 2026 +0000\n\n    commit number {i}: tweak f{i}\n\n",
                    i * 7919 + 1
                )
            })
            .collect();
        let text = compress("git log", &raw, 0).text;
        let lines: Vec<&str> = text.lines().collect();
        let cut = lines.iter().position(|line| line.ends_with(" lines omitted")).expect(&text);
        assert!(lines[cut + 1].starts_with("commit "), "{text}");
        for (k, line) in lines.iter().enumerate().filter(|(_, line)| line.starts_with("commit ")) {
            assert!(
                lines.get(k + 2).is_some_and(|message| message.starts_with("    commit number")),
                "{line}:\n{text}"
            );
        }
    }

    #[test]
    fn a_commit_header_says_once_that_addresses_are_not_shown() {
        let raw: String = (0..12)
            .map(|i| {
                format!(
                    "commit {:040x}\nAuthor: Dana Dev <dana@example.org>\nDate:   Tue Dec 1 07:11:22 2026 +0000\n\n    \
                     Annotate file_{i}.rs after review\n\n",
                    i * 7919 + 1
                )
            })
            .collect();
        let text = compress("git log", &raw, 0).text;
        assert!(text.starts_with("… authors' e-mail addresses not shown\ncommit 000000000000 · Dana Dev · "), "{text}");
        assert_eq!(text.matches("not shown").count(), 1, "{text}");
        assert!(!text.contains("dana@example.org"), "{text}");
    }

    /// `git diff` of two Python files edited in five places: runs of blank context lines (`" "`), an added
    /// empty line (`"+"`) and an added line with trailing spaces.
    const BLANK_CONTEXT_DIFF: &str = concat!(
        "diff --git a/m.py b/m.py\n",
        "index 263773f..5fc857c 100644\n",
        "--- a/m.py\n",
        "+++ b/m.py\n",
        "@@ -7,7 +7,7 @@ def f2():\n",
        " \n",
        " \n",
        " def f3():\n",
        "-    return 3\n",
        "+    return 30\n",
        " \n",
        " \n",
        " def f4():\n",
        "@@ -35,7 +35,7 @@ def f9():\n",
        " \n",
        " \n",
        " def f10():\n",
        "-    return 10\n",
        "+    return 100\n",
        " \n",
        " \n",
        " def f11():\n",
        "@@ -63,7 +63,7 @@ def f16():\n",
        " \n",
        " \n",
        " def f17():\n",
        "-    return 17\n",
        "+    return 170\n",
        " \n",
        " \n",
        " def f18():\n",
        "diff --git a/util.py b/util.py\n",
        "index b047c44..31d2545 100644\n",
        "--- a/util.py\n",
        "+++ b/util.py\n",
        "@@ -3,7 +3,7 @@\n",
        " \n",
        " def load(path):\n",
        "     with open(path) as f:\n",
        "-        return f.read()\n",
        "+        return f.read()  \n",
        " \n",
        " \n",
        " def save(path, text):\n",
        "@@ -12,4 +12,5 @@ def save(path, text):\n",
        " \n",
        " \n",
        " def size(path):\n",
        "-    return len(load(path))\n",
        "+\n",
        "+    return len(load(path)) + 0\n",
    );

    #[test]
    fn hunk_bodies_are_shown_byte_for_byte() {
        let out = compress("git diff", BLANK_CONTEXT_DIFF, 0);
        assert!(out.shortened);
        // Only the per-file header lines go, the `index` lines counted at the end; the `diff --git` line still
        // names the file.
        let headers = ["index ", "--- ", "+++ "];
        let expected: String = BLANK_CONTEXT_DIFF
            .split_inclusive('\n')
            .filter(|line| !headers.iter().any(|h| line.starts_with(h)))
            .collect();
        assert_eq!(out.text, expected + "… 2 index lines (blob ids) not shown\n");
        assert_eq!(out.text.matches("\n \n \n").count(), 8, "blank context lines stay, each on its own");
        assert!(out.text.contains("\n+        return f.read()  \n"), "trailing spaces of a changed line stay");
    }

    #[test]
    fn a_crlf_to_lf_change_keeps_the_carriage_return_it_removes() {
        let mut out = crate::hunk_budget::tests::long_diff(4, 4);
        out += "diff --git a/crlf.txt b/crlf.txt\nindex 8c3ce9b..42e8fb5 100644\n--- a/crlf.txt\n+++ b/crlf.txt\n";
        out += "@@ -18,3 +18,3 @@ line 16\n line 17\r\n-line 20\r\n+line 20\n line 21\r\n";
        let result = compress("git diff", &out, 0);
        assert!(result.shortened);
        assert!(result.text.contains(" line 17\r\n-line 20\r\n+line 20\n line 21\r\n"), "{}", result.text);
    }
}
