//! Renderers of the text views that need no parser: line ranges, the
//! reference line, diffs and the "[unchanged]" stub.

use super::deliveries::Held;
use crate::engine::char_boundary;
use crate::engine::error::{EngineError, EngineResult};
use crate::engine::surface::Surface;
use crate::engine::tokens::count_uncached;

/// Most tokens a stub worded for an agent may cost.
pub const STUB_MAX_TOKENS: usize = 24;

/// The stub sent instead of content the session already has. It says when
/// it is given (the file is as the session last had it whole) and what
/// sends the content again. A long file name is shortened from the front
/// (the end names the file best) so the stub stays within
/// [`STUB_MAX_TOKENS`], plus what the CLI's flags cost beyond the agent's
/// parameters: the name has the same room in either wording.
pub fn stub(name: &str, lines: u32, surface: Surface) -> String {
    let advice = |surface: Surface| format!("{} or {} resend", surface.fresh(), surface.lines());
    let render = |n: &str| format!("[unchanged {n} {lines}L since you had it whole · {}]", advice(surface));
    let budget =
        (STUB_MAX_TOKENS + count_uncached(&advice(surface))).saturating_sub(count_uncached(&advice(Surface::Mcp)));
    let full = render(name);
    if count_uncached(&full) <= budget {
        return full;
    }
    let chars: Vec<char> = name.chars().collect();
    (1..chars.len())
        .map(|skip| render(&format!("…{}", chars[skip..].iter().collect::<String>())))
        .find(|s| count_uncached(s) <= budget)
        .unwrap_or_else(|| render("…"))
}

/// The start of an outline too long for `auto` to send whole.
#[derive(Debug, PartialEq, Eq)]
pub struct OutlineHead {
    /// Its first lines within the budget; a first line alone past it, cut at a character.
    pub text: String,
    /// Lines shown whole, of `total`.
    pub shown: usize,
    pub total: usize,
    /// The file line the first definition left out starts at, when the outline says (not when
    /// its first line is cut: the rest of that line's run has no line of its own).
    pub resumes_at: Option<u32>,
}

/// The outline's first lines within `max_tokens`, or `None` when it fits whole. A definition's
/// line starts with its line range (`120-127 impl …`, indented under its owner): the first line
/// left out names where the rest of the file's definitions begin.
pub fn outline_head(outline: &str, max_tokens: usize) -> Option<OutlineHead> {
    // No outline line is shorter than a token a byte: one this short fits.
    if outline.len() <= max_tokens {
        return None;
    }
    let lines: Vec<&str> = outline.split_inclusive('\n').collect();
    let mut tokens = 0;
    let shown = lines
        .iter()
        .take_while(|line| {
            tokens += count_uncached(line);
            tokens <= max_tokens
        })
        .count();
    if shown == lines.len() {
        return None;
    }
    let text = match shown {
        0 => {
            // The one line past the budget: cut smaller until it fits.
            let mut cut = char_boundary::floor(outline, 4 * max_tokens);
            while count_uncached(&outline[..cut]) > max_tokens {
                cut = char_boundary::floor(outline, cut * 3 / 4);
            }
            format!("{}…\n", &outline[..cut])
        }
        _ => lines[..shown].concat(),
    };
    // A first line cut names no line the rest starts at: its range is the whole run it lists.
    let starts = |line: &&str| {
        let digits = line.trim_start();
        let end = digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len());
        digits[..end].parse().ok()
    };
    let resumes_at = if shown == 0 { None } else { lines[shown..].iter().find_map(starts) };
    Some(OutlineHead { text, shown, total: lines.len(), resumes_at })
}

/// Line ranges of a file as sent and as they stand in the file.
#[derive(Debug, PartialEq, Eq)]
pub struct Selection {
    /// Each range under a `[lines a-b of N]` header.
    pub text: String,
    /// The same lines without headers: what reading just those lines costs.
    pub plain: String,
    /// The ranges together cover every line of the file.
    pub complete: bool,
}

/// The selected line ranges. A range starting past the end (of an empty
/// file, any range) is an error naming the file's length; an end past the
/// end stops at the last line. `window` numbers the lines `text` holds when it
/// is a window of the file (see `load_window`), which the ranges asked for.
pub fn lines(
    text: &str,
    window: Option<&[u32]>,
    total: u32,
    ranges: &[(u32, u32)],
    shown: &str,
) -> EngineResult<Selection> {
    let all: Vec<&str> = text.lines().collect();
    let index = |n: u32| match window {
        None => Some((n - 1) as usize),
        Some(numbers) => numbers.binary_search(&n).ok(),
    };
    let mut covered = vec![false; all.len()];
    let mut selection = Selection { text: String::new(), plain: String::new(), complete: false };
    if let Some(&(start, _)) = ranges.iter().find(|(start, _)| *start > total) {
        let length = lean_ctx_common::plural::count(total.into(), "line");
        return Err(EngineError::invalid(format!("{shown} has {length}; line {start} is past the end")));
    }
    for (start, end) in joined(ranges, total) {
        selection.text.push_str(&format!("[lines {start}-{end} of {total}]\n"));
        for n in start..=end {
            let Some(i) = index(n).filter(|&i| i < all.len()) else { continue };
            covered[i] = true;
            for out in [&mut selection.text, &mut selection.plain] {
                out.push_str(all[i]);
                out.push('\n');
            }
        }
    }
    // A window of a file too large to load is never the whole of it.
    selection.complete = window.is_none() && covered.iter().all(|c| *c);
    Ok(selection)
}

/// `ranges` (each starting within the file) in the order asked, each clamped to the end, those
/// that overlap or touch joined where the first of them was asked: a line asked for twice is
/// sent once, and `398-400,2-3` keeps its order.
fn joined(ranges: &[(u32, u32)], total: u32) -> Vec<(u32, u32)> {
    // In file order, each with the order it was asked in; joined in one pass, then put back in
    // the order the first of each group was asked (a request may name thousands of ranges).
    let mut in_file: Vec<(u32, u32, usize)> =
        ranges.iter().enumerate().map(|(asked, &(start, end))| (start, end.min(total), asked)).collect();
    in_file.sort_unstable();
    let mut groups: Vec<(usize, u32, u32)> = Vec::with_capacity(in_file.len());
    for (start, end, asked) in in_file {
        match groups.last_mut() {
            Some(group) if start <= group.2.saturating_add(1) => {
                group.2 = group.2.max(end);
                group.0 = group.0.min(asked);
            }
            _ => groups.push((asked, start, end)),
        }
    }
    groups.sort_unstable_by_key(|&(asked, _, _)| asked);
    groups.into_iter().map(|(_, start, end)| (start, end)).collect()
}

/// One line: size, cost and language of the file.
pub fn reference(shown: &str, lines: u32, tokens: usize, language: &str) -> String {
    format!("{shown}: {lines} lines, {tokens} tokens, {language}\n")
}

/// A unified diff (2 lines of context) from what the session had to now;
/// one line saying so when nothing changed. The base is said as it is: the
/// version the session has, one it read whole but no longer counts as
/// holding (an edit of it failed since, or someone changed the file under
/// its own edit), only what its own edit wrote over a file it had seen in
/// part, or what a diff last brought that base to, rather than claim the
/// session has the file.
pub fn diff(shown: &str, old: &str, new: &str, base: Held) -> String {
    let (unchanged, since) = match (base.whole, base.received, base.diffed) {
        (true, _, _) => ("since the version you have", "the version you have"),
        (false, true, false) => ("since you last read it", "as you last read it"),
        (false, true, true) => ("since the last diff you were sent", "as of your last diff"),
        (false, false, false) => ("since your edit of it; a full read sends the rest", "as your edit left it"),
        (false, false, true) => {
            ("since the last diff you were sent; a full read sends the rest", "as of your last diff")
        }
    };
    if old == new {
        return format!("[no change in {shown} {unchanged}]\n");
    }
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(2)
        .header(&format!("a/{shown} ({since})"), &format!("b/{shown} (now)"))
        .to_string()
}

/// The one-line answer to `diff` when the session has no version to diff
/// against: said first and alone, not after a whole file.
pub fn no_diff_base(shown: &str, evicted: bool, surface: Surface) -> String {
    let why = if evicted {
        "the version you had is no longer cached"
    } else {
        "this session has not read it in full or edited it"
    };
    format!("[no diff of {shown}: {why} · {} or {} sends the content]\n", surface.mode("full"), surface.lines())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ranges_report_coverage_and_their_plain_text() {
        let text = "a\nb\nc\nd\n";
        let part = lines(text, None, 4, &[(2, 3)], "f").unwrap();
        assert_eq!(part.text, "[lines 2-3 of 4]\nb\nc\n");
        assert_eq!(part.plain, "b\nc\n");
        assert!(!part.complete);
        let all = lines(text, None, 4, &[(1, 2), (3, 99)], "f").unwrap();
        assert!(all.complete, "ranges clamped to the end cover the file");
        assert_eq!(all.plain, text);
        assert!(lines(text, None, 4, &[(1, 1), (5, 6)], "f").unwrap_err().message.contains("f has 4 lines; line 5"));
        // A line asked for twice is sent once; ranges apart keep the order asked.
        let twice = lines(text, None, 4, &[(3, 4), (1, 2), (1, 2), (2, 3)], "f").unwrap();
        assert_eq!(twice.text, "[lines 1-4 of 4]\na\nb\nc\nd\n");
        let apart = lines(text, None, 4, &[(4, 4), (1, 1)], "f").unwrap();
        assert_eq!(apart.text, "[lines 4-4 of 4]\nd\n[lines 1-1 of 4]\na\n");
        let folded = lines("1\n2\n3\n4\n5\n6\n7\n", None, 7, &[(1, 1), (6, 7), (3, 3), (2, 5)], "f").unwrap();
        assert_eq!(folded.text, "[lines 1-7 of 7]\n1\n2\n3\n4\n5\n6\n7\n", "2-5 joins all three");
        assert!(lines(text, None, 4, &[(1, 4), (5, 6)], "f").unwrap_err().message.contains("line 5 is past the end"));
        let empty = lines("", None, 0, &[(1, 3)], "f").unwrap_err();
        assert!(empty.message.contains("f has 0 lines; line 1 is past the end"), "{empty}");
    }

    #[test]
    fn diff_shows_only_the_change_with_context() {
        let old = "1\n2\n3\n4\n5\n6\n7\n";
        let new = "1\n2\n3\nfour\n5\n6\n7\n";
        let hash = blake3::hash(old.as_bytes());
        let whole = Held::whole(hash);
        let d = diff("x.rs", old, new, whole);
        assert!(d.contains("-4\n+four\n"), "{d}");
        assert!(!d.contains(" 1\n"), "only 2 lines of context: {d}");
        assert!(d.starts_with("--- a/x.rs (the version you have)"), "{d}");
        assert_eq!(diff("x.rs", old, old, whole), "[no change in x.rs since the version you have]\n");
        // Read whole, then an edit of it failed: the session still read that version (QA: the answer said
        // it had edited the file and read only part of it).
        let read = whole.no_longer_whole();
        assert!(diff("x.rs", old, new, read).starts_with("--- a/x.rs (as you last read it)"));
        assert_eq!(diff("x.rs", old, old, read), "[no change in x.rs since you last read it]\n");
        // A base the session's own edit made of a file it had not read whole.
        let edited = Held::diff_base(hash);
        assert!(diff("x.rs", old, new, edited).starts_with("--- a/x.rs (as your edit left it)"));
        assert_eq!(
            diff("x.rs", old, old, edited),
            "[no change in x.rs since your edit of it; a full read sends the rest]\n"
        );
        // QA: once a diff moved that base on, the next one still said it started from the edit.
        let diffed = Held { diffed: true, ..edited };
        assert!(diff("x.rs", old, new, diffed).starts_with("--- a/x.rs (as of your last diff)"));
        assert_eq!(
            diff("x.rs", old, old, diffed),
            "[no change in x.rs since the last diff you were sent; a full read sends the rest]\n"
        );
        let read_then_diffed = Held { diffed: true, ..read };
        assert_eq!(diff("x.rs", old, old, read_then_diffed), "[no change in x.rs since the last diff you were sent]\n");
    }

    #[test]
    fn stub_is_tiny_even_for_long_names() {
        assert_eq!(
            stub("lib.rs", 120, Surface::Mcp),
            "[unchanged lib.rs 120L since you had it whole · fresh=true or lines:N-M resend]"
        );
        let s = stub("a_rather_long_file_name_for_testing_the_token_budget.rs", 12345, Surface::Mcp);
        assert!(count_uncached(&s) <= STUB_MAX_TOKENS, "{s}");
        assert!(s.starts_with("[unchanged …") && s.contains(".rs 12345L"), "{s}");
        // The CLI's longer flags do not take the name's room.
        let cli = stub("a_rather_long_file_name_for_testing_the_token_budget.rs", 12345, Surface::Cli);
        assert_eq!(cli.split(" 12345L").next(), s.split(" 12345L").next(), "{cli}");
    }

    #[test]
    fn the_cli_is_told_its_flags() {
        assert_eq!(
            stub("lib.rs", 120, Surface::Cli),
            "[unchanged lib.rs 120L since you had it whole · --fresh or -m lines:N-M resend]"
        );
        assert!(no_diff_base("a.rs", false, Surface::Cli).ends_with("· -m full or -m lines:N-M sends the content]\n"));
    }
}
