//! Repeated blocks: failure reports that open with a header (pytest's `____ test ____` banner, unittest's
//! `FAIL: test`, cargo's `---- test stdout ----`, jest's `● test`, mocha's `1) test`, a Python `Traceback`)
//! and then repeat the same frames. The first block of a kind is kept whole; a later block that shares most
//! of its lines with an earlier one loses runs of the shared lines, each replaced in place by a note saying
//! which block has them. Every dropped line is an exact copy of a line that stays, and a block's own facts
//! (its error lines, assertion values and last location) stay even when repeated: each failure is read alone.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::js;
use crate::plan::{Mark, Plan};
use crate::rules;

static HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^_{3,} .+ _{3,}$|^(?:FAIL|ERROR): \S|^---- .+ stdout ----$|^\s*● \S|^\s+\d+\) \S",
        r"|^Traceback \(most recent call last\):$",
    ))
    .expect("block header pattern compiles")
});

/// Lines that end the last block without opening another: summary rules, runners' closing sections, and
/// jest's next test file (`PASS file`, `FAIL file`) or the `● Console` header over a file's console output,
/// which is the tests' own output, not a failure report.
fn closes(line: &str) -> bool {
    line.starts_with("=====")
        || line == "failures:"
        || line.starts_with("Test Suites:")
        || line.starts_with("PASS ")
        || line.starts_with("FAIL ")
        || js::is_console_header(line)
}

/// A first block of its kind this long or shorter is protected whole, so no cut lands inside it.
const MAX_PROTECTED: usize = 120;

/// At most this many blocks are kept whole as references: past them, blocks are only compared, so a log
/// full of distinct tracebacks is still cut like any log (and comparing stays cheap).
const MAX_KEPT: usize = 5;

/// A later block is reduced when at least this many of its lines, and at least half, repeat a kept block.
const MIN_SHARED: usize = 3;

/// A stack frame: Rust's `  4: crate::f`, its `at path:line` continuation and JS's `at f (file:1:2)`.
static FRAME: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*(?:\d+: |at )").expect("frame pattern compiles"));

/// A source line quoted in a traceback that names an error because it raises or checks one.
static CODE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(?:>\s+)?(?:raise|throw|assert|return)\b").expect("code pattern compiles"));

/// An assertion's value: Rust's `left:`/`right:`, jest's `Expected:`/`Received:`, and their kin.
static ASSERTION_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?i:left|right|expected|received|actual|got|want)\b[^:]{0,20}:").expect("value pattern compiles")
});

/// A caret or tilde underline, alone or after a code frame's gutter (`   |     ^`).
static CARET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(?:\|\s*)?[\^~]+\s*$").expect("caret pattern compiles"));

pub(crate) fn fold_repeated(plan: &mut Plan) {
    let blocks = find_blocks(plan);
    if blocks.len() < 2 {
        return;
    }
    // Blocks kept whole so far, with the set of their protected lines.
    let mut kept: Vec<(usize, HashSet<String>)> = Vec::new();
    for block in blocks {
        let body: Vec<usize> =
            (block.start + 1..block.end).filter(|&i| plan.visible(i) && !plan.line(i).trim().is_empty()).collect();
        let best = kept
            .iter()
            .map(|(header, lines)| (*header, body.iter().filter(|&&i| lines.contains(plan.line(i))).count()))
            .max_by_key(|&(header, shared)| (shared, std::cmp::Reverse(header)));
        match best {
            Some((header, shared)) if shared >= MIN_SHARED && shared * 2 >= body.len() => {
                let lines = &kept.iter().find(|(h, _)| *h == header).expect("kept block").1;
                let title = title(plan.line(header)).to_string();
                reduce(plan, &body, lines, &title);
                for i in block.start + 1..block.end {
                    if plan.visible(i) && plan.line(i).trim().is_empty() {
                        plan.set(i, Mark::Drop);
                    }
                }
            }
            _ if block.len() <= MAX_PROTECTED && kept.len() < MAX_KEPT => {
                for i in block.clone() {
                    if plan.visible(i) {
                        plan.set(i, Mark::Must);
                    }
                }
                let lines = block.clone().filter(|&i| plan.visible(i)).map(|i| plan.line(i).to_string()).collect();
                kept.push((block.start, lines));
            }
            _ => {}
        }
    }
}

/// Removes from a later block's `body` (its visible non-blank lines) each run of lines that the kept block
/// `lines` also has, and puts a marker where the run was, when the marker is the shorter. A block's own facts
/// stay even when an earlier block printed the same line (see [`is_fact`]): each failure states its own error.
fn reduce(plan: &mut Plan, body: &[usize], lines: &HashSet<String>, title: &str) {
    let mut shared: Vec<bool> = body.iter().map(|&i| lines.contains(plan.line(i))).collect();
    // The block's final location: where the failure was reported (pytest's `x.py:2: KeyError`, the line of a
    // panic) rather than the innermost frame of a runtime's own code, unless frames are all there is.
    let location = |k: &usize| rules::has_location(plan.line(body[*k]));
    let last_location = (0..body.len())
        .rev()
        .filter(location)
        .find(|&k| !FRAME.is_match(plan.line(body[k])))
        .or_else(|| (0..body.len()).rev().find(location));
    let message = panic_message(plan, body);
    for (k, &i) in body.iter().enumerate() {
        if Some(k) == last_location || is_fact(plan.line(i)) || message.contains(&k) {
            shared[k] = false;
        }
    }
    // An underline shown without the line it underlines points at nothing: the pair stays or goes together.
    for k in 1..body.len() {
        if CARET.is_match(plan.line(body[k])) && shared[k] != shared[k - 1] {
            (shared[k], shared[k - 1]) = (false, false);
        }
    }
    let mut k = 0;
    while k < body.len() {
        let run = &body[k..k + shared[k..].iter().take_while(|&&s| s).count()];
        let note = format!("  … {} {} as in {title} above", run.len(), if run.len() == 1 { "line" } else { "lines" });
        // A marker no shorter than the lines it stands for saves nothing.
        if note.len() < run.iter().map(|&i| plan.line(i).len() + 1).sum() {
            for &i in run {
                plan.drop_copy(i);
            }
            plan.note(run[0], note);
        }
        k += run.len().max(1);
    }
}

/// Lines that state what went wrong in this block: error and report lines (not stack frames, which only say
/// where, nor source lines that raise or assert, which are the code), pytest's `E ` lines and assertion
/// values (`right: 1000`, `Expected: 5`).
fn is_fact(line: &str) -> bool {
    let t = line.trim_start();
    if FRAME.is_match(line) || CODE.is_match(line) {
        return false;
    }
    rules::is_error(line) || rules::is_report(line) || t.starts_with("E ") || ASSERTION_VALUE.is_match(line)
}

/// Positions in `body` of a Rust panic's message: the lines after `thread 't' panicked at src/x.rs:1:2:` up to
/// its backtrace or note. The message is free text (`did not match 1.0.0`), so no error word marks it, yet it
/// is what this failure says: two tests failing with the same message each show it rather than a back-reference.
fn panic_message(plan: &Plan, body: &[usize]) -> HashSet<usize> {
    let mut message = HashSet::new();
    let mut inside = false;
    for (k, &i) in body.iter().enumerate() {
        let line = plan.line(i);
        if PANIC_HEAD.is_match(line) {
            inside = true;
        } else if inside && (line.starts_with("stack backtrace:") || line.starts_with("note: ") || FRAME.is_match(line))
        {
            inside = false;
        } else if inside {
            message.insert(k);
        }
    }
    message
}

/// The line a Rust panic opens with when its message follows on the next lines (Rust 1.73 and later).
static PANIC_HEAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^thread '.*' (?:\(\d+\) )?panicked at \S+:\d+:\d+:$").expect("panic pattern compiles")
});

/// Ranges of lines from each header to the next header, closing line or end of output.
fn find_blocks(plan: &Plan) -> Vec<Range<usize>> {
    let mut blocks: Vec<Range<usize>> = Vec::new();
    for i in 0..plan.len() {
        let line = plan.line(i);
        let open = blocks.last().is_some_and(|b| b.end == i);
        if plan.in_hunk(i) {
            // A diff's body is file content: `  1) step` there heads no report, and no line of it is dropped.
            continue;
        }
        if HEADER.is_match(line) && !closes(line) {
            blocks.push(i..i + 1);
        } else if open && !closes(line) {
            blocks.last_mut().expect("an open block").end = i + 1;
        }
    }
    blocks
}

/// The name a header gives its block: `test_x[1]` for `____ test_x[1] ____`.
fn title(header: &str) -> &str {
    let t = header.trim().trim_matches(|c: char| c == '_' || c == '●' || c == '-' || c.is_whitespace());
    let t = t.strip_suffix(" stdout").unwrap_or(t);
    t.strip_prefix("FAIL: ").or_else(|| t.strip_prefix("ERROR: ")).unwrap_or(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(name: &str, value: &str) -> Vec<String> {
        [
            format!("____ test_row[{name}] ____"),
            "    def test_row(row):".into(),
            ">       out = import_row(row)".into(),
            String::new(),
            "tests/test_rows.py:12: in import_row".into(),
            "    return parse(row)".into(),
            format!("E   ValueError: bad value '{value}'"),
            "shop/parse.py:4: ValueError".into(),
        ]
        .into()
    }

    #[test]
    fn later_similar_blocks_keep_their_differing_lines_and_their_error() {
        let mut lines = failure("a", "1x");
        lines.extend(failure("b", "2y"));
        lines.push("===== 2 failed =====".into());
        let mut plan = Plan::new(&lines);
        fold_repeated(&mut plan);
        plan.tidy_blanks();
        let text = plan.render();
        let second = text.split("____ test_row[b] ____\n").nth(1).expect("second header kept");
        assert_eq!(
            second,
            "  … 4 lines as in test_row[a] above\nE   ValueError: bad value '2y'\nshop/parse.py:4: ValueError\n===== 2 failed =====\n"
        );
        assert!(text.starts_with(&failure("a", "1x").join("\n")), "{text}");
    }

    #[test]
    fn different_blocks_are_all_kept_whole() {
        let mut lines = failure("a", "1x");
        lines.extend(["____ test_other ____", "E   KeyError: 'ca'", "tests/test_o.py:3: KeyError"].map(String::from));
        let mut plan = Plan::new(&lines);
        fold_repeated(&mut plan);
        assert_eq!(plan.render(), lines.join("\n") + "\n");
    }

    #[test]
    fn a_repeated_block_keeps_its_own_error_values_and_underlined_line() {
        let block = |name: &str| -> Vec<String> {
            [
                format!("---- tests::{name} stdout ----"),
                format!("thread 'tests::{name}' panicked at src/lib.rs:9:5:"),
                "assertion `left == right` failed".into(),
                "  left: 0".into(),
                " right: 1000".into(),
                "stack backtrace:".into(),
                "   0: core::panicking::panic_fmt".into(),
                "             at /rustc/library/core/src/panicking.rs:80:14".into(),
                "   1: core::ops::function::FnOnce::call_once".into(),
                "    > 9 | assert_eq!(x, 1000);".into(),
                format!("        | {}^", " ".repeat(name.len())),
                "E       KeyError: 'missing'".into(),
                "helpers.py:2: KeyError".into(),
            ]
            .into()
        };
        let mut lines = block("a");
        lines.extend(block("bb"));
        let mut plan = Plan::new(&lines);
        fold_repeated(&mut plan);
        let text = plan.render();
        let second = text.split("---- tests::bb stdout ----\n").nth(1).expect("second header kept");
        assert_eq!(
            second,
            concat!(
                "thread 'tests::bb' panicked at src/lib.rs:9:5:\n",
                "assertion `left == right` failed\n",
                "  left: 0\n",
                " right: 1000\n",
                "  … 4 lines as in tests::a above\n",
                "    > 9 | assert_eq!(x, 1000);\n",
                "        |   ^\n",
                "E       KeyError: 'missing'\n",
                "helpers.py:2: KeyError\n",
            )
        );
    }

    #[test]
    fn each_panic_shows_its_own_message_even_when_an_earlier_test_had_the_same() {
        let block = |name: &str, line: u32| -> Vec<String> {
            [
                format!("---- {name} stdout ----"),
                format!("thread '{name}' (57{line}) panicked at tests/req.rs:{line}:5:"),
                "did not match 1.0.0".into(),
                "stack backtrace:".into(),
                "   0: __rustc::rust_begin_unwind".into(),
                "             at /rustc/library/std/src/panicking.rs:689:5".into(),
                "   1: core::panicking::panic_fmt".into(),
                "             at /rustc/library/core/src/panicking.rs:80:14".into(),
                format!("   2: req::{name}"),
                format!("             at ./tests/req.rs:{line}:5"),
            ]
            .into()
        };
        let mut lines = block("test_exact", 55);
        lines.extend(block("test_greater_than", 82));
        let mut plan = Plan::new(&lines);
        fold_repeated(&mut plan);
        let text = plan.render();
        let second = text.split("---- test_greater_than stdout ----\n").nth(1).expect("second header kept");
        assert_eq!(
            second,
            concat!(
                "thread 'test_greater_than' (5782) panicked at tests/req.rs:82:5:\n",
                "did not match 1.0.0\n",
                "  … 5 lines as in test_exact above\n",
                "   2: req::test_greater_than\n",
                "             at ./tests/req.rs:82:5\n",
            )
        );
    }
}
