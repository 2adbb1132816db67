//! Compiler and linter diagnostics: blocks that open with a header line (`warning: …`, `file:1:2: error …`)
//! followed by code frames, notes and help.
//!
//! Shared so every compiler and linter summarises warnings the same way (first few in full, then a count by
//! kind) and shortens findings the same way (header and location kept, code frame dropped).

use std::collections::BTreeMap;
use std::ops::Range;

use crate::plan::{Mark, Plan};
use crate::rules;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Severity {
    Error,
    Warning,
}

pub(crate) struct Block {
    pub(crate) lines: Range<usize>,
    pub(crate) severity: Severity,
}

/// How many warnings are shown in full before the rest are summarised.
pub(crate) const WARNINGS_IN_FULL: usize = 3;

/// Finds diagnostic blocks. A block starts at a line for which `header` returns a severity (pulling in directly
/// preceding lines for which `preamble` holds, such as gcc's `In function 'f':`) and ends before the next
/// header, blank line, or line for which `ends` holds.
pub(crate) fn blocks(
    plan: &Plan,
    header: impl Fn(&str) -> Option<Severity>,
    preamble: impl Fn(&str) -> bool,
    ends: impl Fn(&str) -> bool,
) -> Vec<Block> {
    let mut found: Vec<Block> = Vec::new();
    let mut i = 0;
    while i < plan.len() {
        let Some(severity) = header(plan.line(i)) else {
            i += 1;
            continue;
        };
        let mut start = i;
        let floor = found.last().map_or(0, |b| b.lines.end);
        while start > floor && preamble(plan.line(start - 1)) {
            start -= 1;
        }
        let mut end = i + 1;
        while end < plan.len() {
            let line = plan.line(end);
            if line.trim().is_empty() || header(line).is_some() || ends(line) || preamble(line) {
                break;
            }
            end += 1;
        }
        found.push(Block { lines: start..end, severity });
        i = end;
    }
    found
}

/// Keeps only the header and location lines of a block: the message and where it is survive, the code frame
/// (already in the file) does not.
pub(crate) fn condense(plan: &mut Plan, lines: Range<usize>, header: usize) {
    for i in lines {
        if i != header && !rules::has_location(plan.line(i)) {
            plan.set(i, Mark::Drop);
        }
    }
}

/// Shows the first [`WARNINGS_IN_FULL`] warning blocks in full (their header and location lines protected, so
/// a later cut of a long run cannot take them) and summarises the rest with a count by kind.
///
/// After a failure the summarised warnings are condensed rather than removed, because their locations must
/// survive; after success they are removed. `header_of` gives the line of a block that names it, `kind` maps
/// that line to a short category for the count.
pub(crate) fn summarize_warnings(
    plan: &mut Plan,
    blocks: &[Block],
    failed: bool,
    header_of: impl Fn(&Plan, &Block) -> usize,
    kind: impl Fn(&str) -> String,
) {
    // The warnings shown in full keep their message and location even where a long run is cut later.
    for block in blocks.iter().filter(|b| b.severity == Severity::Warning).take(WARNINGS_IN_FULL) {
        let header = header_of(plan, block);
        for i in block.lines.clone() {
            if (i == header || rules::has_location(plan.line(i))) && plan.mark(i) == Mark::Keep {
                plan.set(i, Mark::Must);
            }
        }
    }
    // After a failure the output's last lines are shown whole, so warnings that reach into them are not
    // shortened and the note does not count them.
    let shortenable = if failed { plan.failure_tail_start() } else { plan.len() };
    let rest: Vec<&Block> = blocks
        .iter()
        .filter(|b| b.severity == Severity::Warning)
        .skip(WARNINGS_IN_FULL)
        .filter(|b| b.lines.end <= shortenable)
        .collect();
    let Some(first) = rest.first() else { return };
    // kind -> (order of first appearance, count); sorted by first appearance below, so output is deterministic.
    let mut kinds: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for block in &rest {
        let header = header_of(plan, block);
        let order = kinds.len();
        kinds.entry(rules::shape(&kind(plan.line(header)))).or_insert((order, 0)).1 += 1;
        if failed {
            condense(plan, block.lines.clone(), header);
        } else {
            plan.set_range(block.lines.clone(), Mark::Drop);
        }
        if block.lines.end < plan.len() && plan.line(block.lines.end).trim().is_empty() {
            plan.set(block.lines.end, Mark::Drop);
        }
    }
    let mut kinds: Vec<(String, (usize, usize))> = kinds.into_iter().collect();
    kinds.sort_by_key(|(_, (order, _))| *order);
    let kinds: Vec<(String, usize)> = kinds.into_iter().map(|(k, (_, n))| (k, n)).collect();
    let what = if failed { "shortened to message and location" } else { "not shown" };
    plan.note(first.lines.start, format!("… {} more warnings {what}: {}", rest.len(), count_list(&kinds)));
}

/// [`summarize_warnings`] for tools that print one line per warning: the first few stay, the rest are
/// counted by `kind`.
pub(crate) fn summarize_warning_lines(
    plan: &mut Plan,
    is_warning: impl Fn(&str) -> bool,
    kind: impl Fn(&str) -> String,
) {
    let blocks: Vec<Block> = (0..plan.len())
        .filter(|&i| is_warning(plan.line(i)))
        .map(|i| Block { lines: i..i + 1, severity: Severity::Warning })
        .collect();
    summarize_warnings(plan, &blocks, false, |_, b| b.lines.start, kind);
}

/// `a ×3, b ×1, …` for at most five kinds, in order of first appearance.
fn count_list(kinds: &[(String, usize)]) -> String {
    let mut parts: Vec<String> = kinds.iter().take(5).map(|(k, n)| format!("{k} ×{n}")).collect();
    if kinds.len() > 5 {
        parts.push(format!("{} other kinds", kinds.len() - 5));
    }
    parts.join(", ")
}

/// A diagnostic message with identifiers in backticks or quotes blanked, so "unused variable: `a`" and
/// "unused variable: `b`" count as one kind.
pub(crate) fn message_kind(message: &str) -> String {
    let mut out = String::new();
    let mut quote: Option<char> = None;
    for c in message.chars() {
        match quote {
            Some(q) if c == q => {
                out.push(c);
                quote = None;
            }
            Some(_) => {}
            None => {
                out.push(c);
                if matches!(c, '`' | '\'' | '"' | '‘') {
                    quote = Some(if c == '‘' { '’' } else { c });
                    out.push('…');
                }
            }
        }
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::FAILURE_TAIL;

    fn header(line: &str) -> Option<Severity> {
        line.strip_prefix("warning: ").map(|_| Severity::Warning)
    }

    #[test]
    fn kinds_blank_identifiers() {
        assert_eq!(message_kind("unused variable: `tmp`"), "unused variable: `…`");
        assert_eq!(message_kind("unused variable ‘x’ [-Wunused]"), "unused variable ‘…’ [-Wunused]");
    }

    #[test]
    fn warnings_beyond_the_first_few_become_a_count() {
        let lines: Vec<String> = (0..6)
            .flat_map(|i| [format!("warning: unused `v{i}`"), format!("  --> a.rs:{i}:1"), String::new()])
            .collect();
        let mut plan = Plan::new(&lines);
        let found = blocks(&plan, header, |_| false, |_| false);
        assert_eq!(found.len(), 6);
        summarize_warnings(&mut plan, &found, false, |_, b| b.lines.start, message_kind);
        let text = plan.render();
        assert!(text.contains("warning: unused `v2`"));
        assert!(!text.contains("v3"));
        assert!(text.contains("… 3 more warnings not shown: warning: unused `…` ×3"));
    }

    #[test]
    fn warnings_shown_in_full_keep_header_and_location_through_a_cut() {
        // Three long warnings: their code frames make one run far past the cut limit.
        let lines: Vec<String> = (0..3)
            .flat_map(|i| {
                let mut block = vec![format!("warning: w{i}"), format!("  --> src/lib.rs:{i}:5")];
                block.extend((0..30).map(|k| format!("   | frame {i}.{k}")));
                block.push("help: try this".into());
                block
            })
            .collect();
        let mut plan = Plan::new(&lines);
        let found = blocks(&plan, header, |_| false, |_| false);
        assert_eq!(found.len(), 3);
        summarize_warnings(&mut plan, &found, false, |_, b| b.lines.start, message_kind);
        plan.cut = crate::plan::Cut { max: 20, head: 5, tail: 5 };
        plan.cut_runs();
        let text = plan.render();
        for i in 0..3 {
            assert!(text.contains(&format!("warning: w{i}\n  --> src/lib.rs:{i}:5\n")), "{text}");
        }
        assert!(text.contains("lines omitted"), "{text}");
    }

    #[test]
    fn after_failure_warnings_among_the_last_lines_are_not_counted_as_shortened() {
        let lines: Vec<String> =
            (0..5).flat_map(|i| [format!("warning: w{i}"), format!("  --> a.rs:{i}:1"), "   |  code".into()]).collect();
        let mut plan = Plan::new(&lines);
        let found = blocks(&plan, header, |_| false, |_| false);
        summarize_warnings(&mut plan, &found, true, |_, b| b.lines.start, message_kind);
        plan.protect_failure();
        assert_eq!(plan.render(), lines.join("\n") + "\n");
    }

    #[test]
    fn after_failure_summarised_warnings_keep_message_and_location() {
        let mut lines: Vec<String> =
            (0..5).flat_map(|i| [format!("warning: w{i}"), format!("  --> a.rs:{i}:1"), "   |  code".into()]).collect();
        // The closing lines a failure shows whole, past the warnings.
        lines.push(String::new());
        lines.extend((0..FAILURE_TAIL).map(|k| format!("closing {k}")));
        let mut plan = Plan::new(&lines);
        let found = blocks(&plan, header, |_| false, |_| false);
        summarize_warnings(&mut plan, &found, true, |_, b| b.lines.start, message_kind);
        let text = plan.render();
        assert!(text.contains("warning: w4\n  --> a.rs:4:1\n"));
        assert_eq!(text.matches("|  code").count(), 3);
    }
}
