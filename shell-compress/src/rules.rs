//! Line patterns shared by every family: what counts as an error and what counts as a source location.
//!
//! These decide what survives a failed command, so they are deliberately broad: a false positive only costs a
//! few tokens, a false negative hides the reason a command failed.

use std::sync::LazyLock;

use regex::Regex;

/// A line that opens with a cross is a test runner's or a task list's failure, whatever words follow: jest's
/// `✕`, vitest's `×`, mocha's and ava's `✖`/`✘`, and the `✗` and `❌` of many a script. The words after it are
/// the failing test's name, and nothing else on the line says it failed.
macro_rules! failure_mark {
    () => {
        r"|^\s*(?:[✗×✕✖✘]|❌)\x{FE0F}?\s"
    };
}

/// Words that mark a line as reporting a failure, in the spellings tools actually print (so `errors` in
/// "0 errors" or `error_handling` in a test name do not match, while `ValueError`, `FAILED` and `panicked` do).
static ERROR_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\b(?:error|Error|ERROR|ERR!?)\b",
        r"|[a-z0-9](?:Error|Exception|Failure)\b",
        r"|\b(?:fail|failed|failing|failure|Fail|Failed|Failure|FAIL|FAILED|FAILURE)\b",
        r"|\b(?:panic|panicked|panics|PANIC)\b",
        r"|\b(?:exception|Exception|EXCEPTION)\b",
        r"|\bTraceback\b",
        r"|^\s*not ok\b",
        r"|\b(?:fatal|Fatal|FATAL)\b",
        r"|\b(?:assert|Assert|ASSERT)\w*",
        r"|\b(?:Segmentation fault|core dumped|Aborted|aborting|Killed)\b",
        r"|\bCRITICAL\b",
        failure_mark!(),
    ))
    .expect("error pattern compiles")
});

/// The narrower set of [`ERROR_LINE`] that reads as a tool's report of a failure rather than a word in data (a
/// commit message's "fix error", a file named `error.rs`): verdicts in capitals (`FAIL: t`, `--- FAIL`, `...
/// ERROR`), TAP's `not ok`, message prefixes (`error:`, `error[E0308]:`, `fatal:`, `ValueError:`), panics,
/// tracebacks and crashes; and counts of failures that are not zero (`2 errors`, `1 failed`, `failed=1`,
/// `exit code 1`), which a summary line or a runner's per-step line prints with no other sign; and npm's
/// error prefix (`npm ERR!`, `npm error` since npm 9), which a step that exits 0 prints too (`npm ci || true`,
/// a lifecycle script that failed under `--if-present`).
static REPORT_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^\s*not ok\b",
        r"|\b(?:FAIL|FAILED|FAILURE|ERROR|PANIC|FATAL)\b",
        r"|(?:^|[\s:\]])(?:error|Error|fatal|Fatal)(?:\[[\w-]+\])?:(?:[^:]|$)",
        r"|[a-z0-9](?:Error|Exception|Failure):",
        r"|\bpanicked at\b|^Traceback \(most recent call last\)",
        r"|\b(?:Segmentation fault|core dumped)\b",
        r"|\b[1-9]\d* (?:errors?|failures?|failed)\b",
        r"|\b(?:errors|failures|failed)=[1-9]",
        r"|\bexit(?:ed)?(?: with)? (?:code|status) [1-9]",
        r"|\bCRITICAL\b",
        r"|^npm (?:ERR!|error) ",
        failure_mark!(),
    ))
    .expect("report pattern compiles")
});

/// `path.ext:12`, `path.ext(12,5)`, Python's `File "x.py", line 12` and Terraform's `on x.tf line 12`.
static LOCATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\w\.[A-Za-z]\w*:\d+",
        r"|\w\.[A-Za-z]\w*\(\d+,\d+\)",
        r#"|File "[^"]+", line \d+"#,
        r"|\w\.[A-Za-z]\w* line \d+",
    ))
    .expect("location pattern compiles")
});

/// A warning as compilers, linters and loggers print one: `warning: …`, `WARN …`, `[WARNING] …`.
static WARNING_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(?:warning|Warning|WARNING|WARN)\b").expect("warning pattern compiles"));

static DIGITS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\d+").expect("digit pattern compiles"));

/// Whether `line` reports an error, failure, panic, exception or failed assertion.
pub(crate) fn is_error(line: &str) -> bool {
    ERROR_LINE.is_match(line)
}

/// Whether `line` reads as a tool reporting an error or a failure, whatever the exit code (see [`REPORT_LINE`]).
pub(crate) fn is_report(line: &str) -> bool {
    REPORT_LINE.is_match(line)
}

/// Whether `line` names a `file:line` source location.
pub(crate) fn has_location(line: &str) -> bool {
    LOCATION.is_match(line)
}

/// Whether the shared protection shows `line` whatever a family marked it: after a failure every error and
/// location line, otherwise every report (see `Plan::protect_failure` and `Plan::protect_reports`).
pub(crate) fn protected(line: &str, failed: bool) -> bool {
    if failed { is_error(line) || has_location(line) } else { is_report(line) }
}

/// Whether `line` is a warning as compilers, linters and loggers print one.
pub(crate) fn is_warning(line: &str) -> bool {
    WARNING_LINE.is_match(line)
}

/// `line` with every digit run replaced by `#`, so lines that differ only in counters, ids or timings compare
/// equal.
pub(crate) fn shape(line: &str) -> String {
    DIGITS.replace_all(line, "#").into_owned()
}

/// The digit runs of `line`, in order: what [`shape`] masks.
pub(crate) fn numbers(line: &str) -> Vec<&str> {
    DIGITS.find_iter(line).map(|m| m.as_str()).collect()
}

/// Whether a cut may fall between `previous` and `line`: after a blank line, before a line that opens a block
/// (diff file or hunk header, commit, traceback or frame), or where indentation returns to the margin; never
/// between a file's `+++` header and its first hunk.
pub(crate) fn boundary_before(previous: &str, line: &str) -> bool {
    const OPENERS: &[&str] = &["@@ ", "diff --git ", "commit ", "Traceback ", "  File \"", "____", "---- ", "=== "];
    if line.starts_with("@@ ") && previous.starts_with("+++ ") {
        // A file's first hunk belongs with the file's header.
        return false;
    }
    previous.trim().is_empty()
        || starts_with_any(line, OPENERS)
        || (!line.is_empty() && !inside_block(line) && inside_block(previous))
}

/// Whether `line` continues a block rather than standing alone: indented (code and stack frames) or a diff
/// body line.
pub(crate) fn inside_block(line: &str) -> bool {
    line.starts_with(char::is_whitespace) || line.starts_with(['+', '-', '>']) || line.starts_with("E ")
}

/// Whether `lines` are the body of a diff hunk: context, added and removed lines with at least one change.
pub(crate) fn is_patch<'a>(mut lines: impl Iterator<Item = &'a str>) -> bool {
    let mut changed = false;
    lines.all(|line| {
        changed |= line.starts_with(['+', '-']);
        line.is_empty() || line.starts_with([' ', '+', '-', '\\'])
    }) && changed
}

/// For each line, whether it is in the body of a unified diff hunk: after an `@@ -a,b +c,d @@` header and
/// before the lines its counts announce are used up. The header itself is not in the body. rustfmt's
/// `--check` diff (`Diff in src/glob.rs:181:`) gives no counts: its body is the context, removed and added
/// lines that follow, up to the first line that is none of them.
pub(crate) fn hunk_bodies(lines: &[String]) -> Vec<bool> {
    let mut inside = vec![false; lines.len()];
    let (mut old, mut new) = (0usize, 0usize);
    let mut rustfmt = false;
    for (i, line) in lines.iter().enumerate() {
        if rustfmt {
            // A blank line is an unchanged empty line (" ", its trailing space trimmed by the time it is read).
            rustfmt = line.is_empty() || line.starts_with([' ', '+', '-']);
            inside[i] = rustfmt;
        }
        if !inside[i] && line.starts_with("Diff in ") && line.ends_with(':') {
            rustfmt = true;
            continue;
        }
        if old + new > 0 {
            inside[i] = true;
            match line.as_bytes().first() {
                Some(b'-') => old = old.saturating_sub(1),
                Some(b'+') => new = new.saturating_sub(1),
                Some(b'\\') => {}
                Some(b' ') | None => {
                    old = old.saturating_sub(1);
                    new = new.saturating_sub(1);
                }
                Some(_) => {
                    // Not a body line: the counts were wrong (or the output was cut); the hunk ends here.
                    inside[i] = false;
                    (old, new) = (0, 0);
                }
            }
        }
        if !inside[i]
            && let Some((o, n)) = hunk_counts(line)
        {
            (old, new) = (o, n);
        }
    }
    inside
}

/// The old and new line counts of a hunk header `@@ -a[,b] +c[,d] @@`.
pub(crate) fn hunk_counts(line: &str) -> Option<(usize, usize)> {
    let rest = line.strip_prefix("@@ -")?;
    let (ranges, _) = rest.split_once(" @@")?;
    let (old, new) = ranges.split_once(" +")?;
    let count = |range: &str| match range.split_once(',') {
        Some((_, n)) => n.parse().ok(),
        None => range.parse::<usize>().ok().map(|_| 1),
    };
    Some((count(old)?, count(new)?))
}

/// Whether `line` starts with one of `prefixes`.
pub(crate) fn starts_with_any(line: &str, prefixes: &[&str]) -> bool {
    prefixes.iter().any(|p| line.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunk_bodies_follow_the_header_counts() {
        let lines: Vec<String> = ["x", "@@ -1,3 +1,2 @@", " a", "", "-b", "after", "@@ -5 +5 @@", "-c", "+d", "z"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let inside = hunk_bodies(&lines);
        assert_eq!(inside, [false, false, true, true, true, false, false, true, true, false]);
    }

    #[test]
    fn a_rustfmt_diff_body_runs_to_the_next_line_that_is_no_diff_line() {
        // `cargo fmt --check` prints `Diff in PATH:LINE:` and the changed lines, without counts.
        let lines: Vec<String> = [
            "Diff in /p/src/a.rs:3:",
            "     x();",
            "",
            "-    y( );",
            "+    y();",
            "Diff in /p/src/b.rs:9:",
            "+z",
            "done",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let inside = hunk_bodies(&lines);
        assert_eq!(inside, [false, true, true, true, true, false, true, false]);
    }

    #[test]
    fn error_words_match_in_real_spellings_only() {
        for line in [
            "error[E0425]: cannot find value",
            "npm ERR! code E404",
            "E   ValueError: bad",
            "test foo ... FAILED",
            "thread 'main' panicked at src/main.rs:2:5:",
            "Traceback (most recent call last):",
            "fatal: not a git repository",
            "assertion `left == right` failed",
            "java.lang.IllegalStateException: boom",
            "not ok 3 - widget 3 renders",
            "  ✕ adds to the cart (3 ms)",
            "   × renders header",
            "❌ deploy step",
            "CRITICAL: disk full",
        ] {
            assert!(is_error(line), "{line}");
        }
        for line in ["test result: ok. 3 passed; 0 errors", "test error_handling::works ... ok", "terrorist"] {
            assert!(!is_error(line), "{line}");
        }
    }

    #[test]
    fn reports_are_verdicts_and_message_prefixes_not_words_in_data() {
        for line in [
            "FAIL: test_12",
            "test_parse (test_u.T.test_parse) ... FAIL",
            "--- FAIL: TestMean (0.00s)",
            "not ok 7 - widget 7 renders",
            "src/mod_7.c:251:5: error: use of undeclared identifier 'sym_7'",
            "error[E0308]: mismatched types",
            "fatal: not a git repository",
            "E   ValueError: bad input",
            "thread 'main' panicked at src/main.rs:2:5:",
            "Traceback (most recent call last):",
            "suite_101: 11 passed, 1 failed",
            "file_7.c: 2 errors, 0 warnings",
            "host101 : ok=5 changed=0 unreachable=0 failed=1 skipped=1",
            "[21/50] exit code 1",
            "make: *** [all] exited with status 2",
            "  ✗ rejects expired token",
            "    ✖ retries on 503",
            "✘ paginates results",
            "CRITICAL: disk full",
            "npm ERR! code E404",
            "npm error code ETARGET",
        ] {
            assert!(is_report(line), "{line}");
        }
        for line in [
            "a1b2c3d fix error when the cache is empty",
            "* bad4a62 Add src/error: import 4 files",
            "-use crate::error::Error as ClapError;",
            "src/error.rs",
            "Failed attempts are retried",
            "0 errors",
            "12 passed, 0 failed",
            "host1 : ok=5 changed=0 unreachable=0 failed=0 skipped=1",
            "[20/50] exit code 0",
            "10 errors_total metric",
            "  ✓ renders header",
            "3 × 4 = 12",
            "npm errors are printed on stderr",
        ] {
            assert!(!is_report(line), "{line}");
        }
    }

    #[test]
    fn locations_in_common_formats() {
        for line in [
            "  --> src/lib.rs:29:9",
            "src/cart.ts(8,61): error TS2345",
            r#"  File "/x/app.py", line 12, in main"#,
            "    at Object.toBe (test/cart.test.js:11:43)",
            "  on bad.tf line 1, in resource",
            "calc_test.go:23: Mean() = 3",
        ] {
            assert!(has_location(line), "{line}");
        }
        assert!(!has_location("Compiling 12 crates in 3.2s"));
    }

    #[test]
    fn shape_masks_numbers() {
        assert_eq!(shape("job 12 took 0.53s"), shape("job 7 took 1.2s"));
    }
}
