//! Repeated blocks: failure reports that open with a header (pytest's `____ test ____` banner, unittest's
//! `FAIL: test`, cargo's `---- test stdout ----`, jest's `● test`, mocha's `1) test`, a Python `Traceback`)
//! and then repeat the same frames. The first block of a kind is kept whole; a later block that shares most
//! of its lines with an earlier one keeps its header and only the lines that differ, after a note saying
//! which block it follows. Every dropped line is an exact copy of a line that stays, so no fact is lost.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::plan::{Mark, Plan};

static HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^_{3,} .+ _{3,}$|^(?:FAIL|ERROR): \S|^---- .+ stdout ----$|^\s*● \S|^\s+\d+\) \S",
        r"|^Traceback \(most recent call last\):$",
    ))
    .expect("block header pattern compiles")
});

/// Lines that end the last block without opening another: summary rules and runners' closing sections.
fn closes(line: &str) -> bool {
    line.starts_with("=====") || line == "failures:" || line.starts_with("Test Suites:")
}

/// A first block of its kind this long or shorter is protected whole, so no cut lands inside it.
const MAX_PROTECTED: usize = 120;

/// At most this many blocks are kept whole as references: past them, blocks are only compared, so a log
/// full of distinct tracebacks is still cut like any log (and comparing stays cheap).
const MAX_KEPT: usize = 5;

/// A later block is reduced when at least this many of its lines, and at least half, repeat a kept block.
const MIN_SHARED: usize = 3;

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
                for i in block.start + 1..block.end {
                    let line = plan.line(i);
                    if lines.contains(line) {
                        plan.drop_copy(i);
                    } else if line.trim().is_empty() {
                        plan.set(i, Mark::Drop);
                    }
                }
                let note = format!("  … {shared} lines as in {} above", title(plan.line(header)));
                plan.note(block.start + 1, note);
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
        if HEADER.is_match(line) {
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
    fn later_similar_blocks_keep_only_their_differing_lines() {
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
            "  … 5 lines as in test_row[a] above\nE   ValueError: bad value '2y'\n===== 2 failed =====\n"
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
}
