//! Line patterns shared by every family: what counts as an error and what counts as a source location.
//!
//! These decide what survives a failed command, so they are deliberately broad: a false positive only costs a
//! few tokens, a false negative hides the reason a command failed.

use std::sync::LazyLock;

use regex::Regex;

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
        r"|\b(?:fatal|Fatal|FATAL)\b",
        r"|\b(?:assert|Assert|ASSERT)\w*",
        r"|\b(?:Segmentation fault|core dumped|Aborted|aborting|Killed)\b",
    ))
    .expect("error pattern compiles")
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

static DIGITS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\d+").expect("digit pattern compiles"));

/// Whether `line` reports an error, failure, panic, exception or failed assertion.
pub(crate) fn is_error(line: &str) -> bool {
    ERROR_LINE.is_match(line)
}

/// Whether `line` names a `file:line` source location.
pub(crate) fn has_location(line: &str) -> bool {
    LOCATION.is_match(line)
}

/// `line` with every digit run replaced by `#`, so lines that differ only in counters, ids or timings compare
/// equal.
pub(crate) fn shape(line: &str) -> String {
    DIGITS.replace_all(line, "#").into_owned()
}

/// Whether a cut may fall between `previous` and `line`: after a blank line, before a line that opens a block
/// (diff file or hunk header, commit, traceback or frame), or where indentation returns to the margin.
pub(crate) fn boundary_before(previous: &str, line: &str) -> bool {
    const OPENERS: &[&str] = &["@@ ", "diff --git ", "commit ", "Traceback ", "  File \"", "____", "---- ", "=== "];
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

/// Whether `line` starts with one of `prefixes`.
pub(crate) fn starts_with_any(line: &str, prefixes: &[&str]) -> bool {
    prefixes.iter().any(|p| line.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        ] {
            assert!(is_error(line), "{line}");
        }
        for line in ["test result: ok. 3 passed; 0 errors", "test error_handling::works ... ok", "terrorist"] {
            assert!(!is_error(line), "{line}");
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
