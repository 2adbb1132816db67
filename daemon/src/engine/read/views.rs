//! Renderers of the text views that need no parser: line ranges, the
//! reference line, diffs and the "[unchanged]" stub.

use crate::engine::error::{EngineError, EngineResult};
use crate::engine::tokens::count_uncached;

/// Most tokens a stub may cost.
pub const STUB_MAX_TOKENS: usize = 20;

/// The stub sent instead of content the session already has. A long file
/// name is shortened from the front (the end names the file best) so the
/// stub stays within [`STUB_MAX_TOKENS`].
pub fn stub(name: &str, lines: u32) -> String {
    let render = |n: &str| format!("[unchanged {n} {lines}L · fresh=true to re-read]");
    let full = render(name);
    if count_uncached(&full) <= STUB_MAX_TOKENS {
        return full;
    }
    let chars: Vec<char> = name.chars().collect();
    (1..chars.len())
        .map(|skip| render(&format!("…{}", chars[skip..].iter().collect::<String>())))
        .find(|s| count_uncached(s) <= STUB_MAX_TOKENS)
        .unwrap_or_else(|| render("…"))
}

/// The selected line ranges, each under a `[lines a-b of N]` header, and
/// whether together they cover every line of the file.
pub fn lines(text: &str, total: u32, ranges: &[(u32, u32)], shown: &str) -> EngineResult<(String, bool)> {
    if total == 0 {
        return Ok((String::new(), true));
    }
    let all: Vec<&str> = text.lines().collect();
    let mut covered = vec![false; all.len()];
    let mut out = String::new();
    for &(start, end) in ranges {
        if start > total {
            return Err(EngineError::invalid(format!("{shown} has {total} lines; line {start} is past the end")));
        }
        let end = end.min(total);
        out.push_str(&format!("[lines {start}-{end} of {total}]\n"));
        for n in start..=end {
            let i = (n - 1) as usize;
            covered[i] = true;
            out.push_str(all[i]);
            out.push('\n');
        }
    }
    Ok((out, covered.iter().all(|c| *c)))
}

/// One line: size, cost and language of the file.
pub fn reference(shown: &str, lines: u32, tokens: usize, language: &str) -> String {
    format!("{shown}: {lines} lines, {tokens} tokens, {language}\n")
}

/// A unified diff (2 lines of context) from what the session had to now.
pub fn diff(shown: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(2)
        .header(&format!("a/{shown} (your last read)"), &format!("b/{shown} (now)"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ranges_report_coverage() {
        let text = "a\nb\nc\nd\n";
        let (out, complete) = lines(text, 4, &[(2, 3)], "f").unwrap();
        assert_eq!(out, "[lines 2-3 of 4]\nb\nc\n");
        assert!(!complete);
        let (_, complete) = lines(text, 4, &[(1, 2), (3, 99)], "f").unwrap();
        assert!(complete, "ranges clamped to the end cover the file");
        assert!(lines(text, 4, &[(5, 6)], "f").unwrap_err().message.contains("has 4 lines"));
        assert_eq!(lines("", 0, &[(1, 3)], "f").unwrap(), (String::new(), true));
    }

    #[test]
    fn diff_shows_only_the_change_with_context() {
        let old = "1\n2\n3\n4\n5\n6\n7\n";
        let new = "1\n2\n3\nfour\n5\n6\n7\n";
        let d = diff("x.rs", old, new);
        assert!(d.contains("-4\n+four\n"), "{d}");
        assert!(!d.contains(" 1\n"), "only 2 lines of context: {d}");
        assert!(d.starts_with("--- a/x.rs (your last read)"), "{d}");
    }

    #[test]
    fn stub_is_tiny_even_for_long_names() {
        assert_eq!(stub("lib.rs", 120), "[unchanged lib.rs 120L · fresh=true to re-read]");
        let s = stub("a_rather_long_file_name_for_testing_the_token_budget.rs", 12345);
        assert!(count_uncached(&s) <= STUB_MAX_TOKENS, "{s}");
        assert!(s.starts_with("[unchanged …") && s.contains(".rs 12345L"), "{s}");
    }
}
