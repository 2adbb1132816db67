//! Compiler and linter diagnostics: blocks that open with a header line (`warning: …`, `file:1:2: error …`)
//! followed by code frames, notes and help.
//!
//! Shared so every compiler and linter summarises warnings the same way (first few in full, then a count by
//! kind) and shortens findings the same way (header and location kept, code frame dropped).

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

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

/// Besides the first few, the first warning of each further kind is shown in full, up to this many kinds in
/// all: a kind that appears once late in a run is not hidden behind the count of another, and a run of many
/// kinds stays short.
pub(crate) const KINDS_IN_FULL: usize = 5;

/// What a warning that is not shown in full keeps.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shorten {
    /// The lines the shared protection keeps (after a failure, its locations), and with them its header; a
    /// warning with none of them goes. For linters and loggers, whose warnings are advice counted by kind.
    AsProtected,
    /// Its header and location lines, whatever the exit code: a compiler's warning is about the code the agent
    /// just wrote, and where it is cannot be rebuilt from a count by kind.
    ToLocation,
}

/// What summarising did to a warning that is not shown in full.
#[derive(Clone, PartialEq, Eq)]
enum Outcome {
    /// Shown whole anyway: every line of it is one the shared protection keeps.
    Whole,
    /// Cut to its header and the lines the shared protection keeps (its locations, after a failure): the
    /// lines left, in order.
    Shortened(Vec<usize>),
    /// Left out.
    Removed,
}

/// Shows the first [`WARNINGS_IN_FULL`] warning blocks, and the first of each further kind (see
/// [`KINDS_IN_FULL`]), in full (their header and location lines protected, so a later cut of a long run cannot
/// take them), and summarises the rest with a count by kind.
///
/// A summarised warning keeps what `shorten` says: the lines that the shared protection would show anyway
/// (after a failure, its locations; see [`rules::protected`]) or its location lines always, and with them its
/// header; the rest of it goes. The notes count only
/// what they say: warnings left out, and warnings shortened to message and location, each with their kinds;
/// a warning that keeps every line is shown, not counted. `header_of` gives the line of a block that names
/// it, `kind` maps that line to a short category for the count.
pub(crate) fn summarize_warnings(
    plan: &mut Plan,
    blocks: &[Block],
    failed: bool,
    shorten: Shorten,
    header_of: impl Fn(&Plan, &Block) -> usize,
    kind: impl Fn(&str) -> String,
) {
    let warnings: Vec<&Block> = blocks.iter().filter(|b| b.severity == Severity::Warning).collect();
    let kinds: Vec<String> = warnings.iter().map(|b| rules::shape(&kind(plan.line(header_of(plan, b))))).collect();
    let in_full = shown_in_full(&kinds);
    // After a failure the output's last lines are shown whole, so warnings that reach into them are not
    // shortened and the notes do not count them.
    let shortenable = if failed { plan.failure_tail_start() } else { plan.len() };
    let mut shortened = Summary::default();
    let mut removed = Summary::default();
    let mut left: Vec<(usize, Vec<usize>)> = Vec::new();
    for ((block, kind), full) in warnings.into_iter().zip(kinds).zip(in_full) {
        let header = header_of(plan, block);
        if full {
            for i in block.lines.clone() {
                if (i == header || rules::has_location(plan.line(i))) && plan.mark(i) == Mark::Keep {
                    plan.set(i, Mark::Must);
                }
            }
            continue;
        }
        if block.lines.end > shortenable {
            continue;
        }
        match summarize_block(plan, block.lines.clone(), header, failed, shorten) {
            Outcome::Whole => continue,
            Outcome::Shortened(lines) => {
                shortened.add(block.lines.start, kind);
                left.push((header, lines));
            }
            Outcome::Removed => removed.add(block.lines.start, kind),
        }
        if block.lines.end < plan.len() && plan.line(block.lines.end).trim().is_empty() {
            plan.set(block.lines.end, Mark::Drop);
        }
    }
    shortened.note(plan, "shortened to message and location");
    removed.note(plan, "not shown");
    if shorten == Shorten::ToLocation {
        group_by_message(plan, &left);
    }
}

/// `path:line:col: ` opening a compiler's one-line diagnostic (gcc, clang, rustc's short format).
static LOCATION_PREFIX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\S+?:\d+(?::\d+)?): ").expect("location prefix pattern compiles"));

/// rustc's location line under a diagnostic's header: `  --> src/lib.rs:28:5`.
static ARROW_LOCATION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*--> (\S+:\d+(?::\d+)?)$").expect("arrow location pattern compiles"));

/// Warnings shortened to message and location whose messages are identical, as one line with every location
/// in order: `warning: unneeded return statement ×3 (src/lib.rs:28:5, 32:9, src/b.rs:4:1)` — a location in
/// the file of the one before it gives only its line and column. Only warnings left as their message and one
/// location are grouped (one that kept more lines keeps them), and a group is shown only where it is shorter
/// than the lines it replaces. `shortened` holds each shortened warning's header and the lines left of it.
fn group_by_message(plan: &mut Plan, shortened: &[(usize, Vec<usize>)]) {
    let mut groups: Vec<Group> = Vec::new();
    for (header, lines) in shortened {
        let Some((message, location)) = message_and_location(plan, *header, lines) else { continue };
        let at = match groups.iter().position(|g| g.message == message) {
            Some(at) => at,
            None => {
                groups.push(Group { message, ..Group::default() });
                groups.len() - 1
            }
        };
        groups[at].locations.push(location);
        groups[at].lines.extend(lines);
    }
    for group in groups.into_iter().filter(|g| g.locations.len() > 1) {
        let mut locations = Vec::with_capacity(group.locations.len());
        let mut file = "";
        for location in &group.locations {
            let (path, position) = split_location(location);
            locations.push(if path == file { position } else { location.as_str() });
            file = path;
        }
        let text = format!("{} ×{} ({})", group.message, group.locations.len(), locations.join(", "));
        let replaced: usize = group.lines.iter().map(|&i| plan.line(i).len() + 1).sum();
        if text.len() + 1 < replaced {
            plan.fold_counted(&group.lines, text);
        }
    }
}

/// Shortened warnings with one message: their locations in order, and the lines left of them.
#[derive(Default)]
struct Group {
    message: String,
    locations: Vec<String>,
    lines: Vec<usize>,
}

/// A shortened warning's message and its one location, when `lines` (what is left of it) are its header with
/// the location in front, or its header and one `-->` line.
fn message_and_location(plan: &Plan, header: usize, lines: &[usize]) -> Option<(String, String)> {
    let text = plan.line(header);
    let prefix = LOCATION_PREFIX.captures(text);
    match (lines, prefix) {
        ([only], Some(caps)) if *only == header => Some((text[caps.get(0)?.end()..].to_string(), caps[1].to_string())),
        ([first, second], None) if *first == header => {
            let caps = ARROW_LOCATION.captures(plan.line(*second))?;
            Some((text.to_string(), caps[1].to_string()))
        }
        _ => None,
    }
}

/// `src/lib.rs:28:5` as its path and its `28:5`.
fn split_location(location: &str) -> (&str, &str) {
    let position_digits =
        |s: &str| s.split(':').all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()));
    // The path ends at the first colon after which only line and column follow.
    location
        .match_indices(':')
        .map(|(at, _)| (&location[..at], &location[at + 1..]))
        .find(|(_, position)| position_digits(position))
        .unwrap_or((location, ""))
}

/// For each warning, by its kind in order, whether it is shown in full: the first few, then the first of each
/// kind not yet shown while fewer than [`KINDS_IN_FULL`] kinds are.
fn shown_in_full(kinds: &[String]) -> Vec<bool> {
    let mut shown: Vec<&str> = Vec::new();
    kinds
        .iter()
        .enumerate()
        .map(|(n, kind)| {
            let new_kind = !shown.contains(&kind.as_str());
            let full = n < WARNINGS_IN_FULL || (new_kind && shown.len() < KINDS_IN_FULL);
            if full && new_kind {
                shown.push(kind);
            }
            full
        })
        .collect()
}

/// Keeps of the warning `lines` only what the shared protection will show, or its locations as `shorten` says
/// (and, with them, its `header`), and says what became of it.
fn summarize_block(plan: &mut Plan, lines: Range<usize>, header: usize, failed: bool, shorten: Shorten) -> Outcome {
    let keeps =
        |line: &str| rules::protected(line, failed) || (shorten == Shorten::ToLocation && rules::has_location(line));
    let kept: Vec<usize> = lines.clone().filter(|&i| keeps(plan.line(i))).collect();
    if kept.is_empty() {
        plan.set_range(lines, Mark::Drop);
        return Outcome::Removed;
    }
    let shown = |i: usize| i == header || kept.contains(&i) || plan.line(i).trim().is_empty();
    if lines.clone().all(shown) {
        return Outcome::Whole;
    }
    let mut left = Vec::new();
    for i in lines {
        let shown = i == header || kept.contains(&i);
        plan.set(i, if shown { Mark::Must } else { Mark::Drop });
        if shown {
            left.push(i);
        }
    }
    Outcome::Shortened(left)
}

/// Warnings summarised one way: where the first was, and a count by kind.
#[derive(Default)]
struct Summary {
    first: Option<usize>,
    total: usize,
    /// kind -> (order of first appearance, count); sorted by first appearance for the note, so output is
    /// deterministic.
    kinds: BTreeMap<String, (usize, usize)>,
}

impl Summary {
    fn add(&mut self, at: usize, kind: String) {
        self.first.get_or_insert(at);
        self.total += 1;
        let order = self.kinds.len();
        self.kinds.entry(kind).or_insert((order, 0)).1 += 1;
    }

    /// `… N more warnings {what}: kind ×n, …` where the first summarised warning was, if there was one.
    fn note(self, plan: &mut Plan, what: &str) {
        let Some(first) = self.first else { return };
        let mut kinds: Vec<(String, (usize, usize))> = self.kinds.into_iter().collect();
        kinds.sort_by_key(|(_, (order, _))| *order);
        let kinds: Vec<(String, usize)> = kinds.into_iter().map(|(k, (_, n))| (k, n)).collect();
        plan.note(first, format!("… {} more warnings {what}: {}", self.total, count_list(&kinds)));
    }
}

/// [`summarize_warnings`] for tools that print one line per warning: the first few stay, the rest are
/// counted by `kind`.
pub(crate) fn summarize_warning_lines(
    plan: &mut Plan,
    failed: bool,
    is_warning: impl Fn(&str) -> bool,
    kind: impl Fn(&str) -> String,
) {
    let blocks: Vec<Block> = (0..plan.len())
        .filter(|&i| is_warning(plan.line(i)))
        .map(|i| Block { lines: i..i + 1, severity: Severity::Warning })
        .collect();
    summarize_warnings(plan, &blocks, failed, Shorten::AsProtected, |_, b| b.lines.start, kind);
}

/// `a ×3, b ×1, …` for at most five kinds, in order of first appearance; past them `N other kinds`.
pub(crate) fn count_list(kinds: &[(String, usize)]) -> String {
    count_list_of(kinds, "other kinds")
}

/// [`count_list`], the kinds past the fifth counted as `N {others}`.
pub(crate) fn count_list_of(kinds: &[(String, usize)], others: &str) -> String {
    let mut parts: Vec<String> = kinds.iter().take(5).map(|(k, n)| format!("{k} ×{n}")).collect();
    if kinds.len() > 5 {
        parts.push(format!("{} {others}", kinds.len() - 5));
    }
    parts.join(", ")
}

/// A diagnostic message with identifiers in backticks or quotes blanked, so "unused variable: `a`" and
/// "unused variable: `b`" count as one kind. An apostrophe after a letter ("function's") is no quote.
pub(crate) fn message_kind(message: &str) -> String {
    let mut out = String::new();
    let mut quote: Option<char> = None;
    let mut previous = ' ';
    for c in message.chars() {
        let after_letter = std::mem::replace(&mut previous, c).is_alphanumeric();
        match quote {
            Some(q) if c == q => {
                out.push(c);
                quote = None;
            }
            Some(_) => {}
            None => {
                out.push(c);
                if matches!(c, '`' | '"' | '‘') || (c == '\'' && !after_letter) {
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
        assert_eq!(
            message_kind("unsafe function's docs are missing a `# Safety` section"),
            "unsafe function's docs are missing a `…` section"
        );
    }

    #[test]
    fn warnings_beyond_the_first_few_become_a_count() {
        let lines: Vec<String> = (0..6)
            .flat_map(|i| [format!("warning: unused `v{i}`"), format!("  --> a.rs:{i}:1"), String::new()])
            .collect();
        let mut plan = Plan::new(&lines);
        let found = blocks(&plan, header, |_| false, |_| false);
        assert_eq!(found.len(), 6);
        summarize_warnings(&mut plan, &found, false, Shorten::AsProtected, |_, b| b.lines.start, message_kind);
        let text = plan.render();
        assert!(text.contains("warning: unused `v2`"));
        assert!(!text.contains("v3"));
        assert!(text.contains("… 3 more warnings not shown: warning: unused `…` ×3"));
    }

    #[test]
    fn each_kind_keeps_an_example_and_the_note_counts_the_rest() {
        let mut lines: Vec<String> =
            (0..8).flat_map(|i| [format!("warning: unused `v{i}`"), format!("  --> a.rs:{i}:1")]).collect();
        lines.extend(["warning: deprecated `old`".into(), "  --> a.rs:9:1".into()]);
        let mut plan = Plan::new(&lines);
        let found = blocks(&plan, header, |_| false, |_| false);
        summarize_warnings(&mut plan, &found, false, Shorten::AsProtected, |_, b| b.lines.start, message_kind);
        let text = plan.render();
        assert!(text.contains("warning: deprecated `old`\n  --> a.rs:9:1\n"), "{text}");
        assert!(text.contains("… 5 more warnings not shown: warning: unused `…` ×5\n"), "{text}");
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
        summarize_warnings(&mut plan, &found, false, Shorten::AsProtected, |_, b| b.lines.start, message_kind);
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
        summarize_warnings(&mut plan, &found, true, Shorten::AsProtected, |_, b| b.lines.start, message_kind);
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
        summarize_warnings(&mut plan, &found, true, Shorten::AsProtected, |_, b| b.lines.start, message_kind);
        let text = plan.render();
        assert!(text.contains("warning: w4\n  --> a.rs:4:1\n"));
        assert_eq!(text.matches("|  code").count(), 3);
    }
}
