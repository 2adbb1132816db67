//! Renders a grouped list (paths per directory, matches per file, names of a table) within a budget.
//!
//! A listing is what the agent asked for, so it is compacted, never elided, while it fits. Past the budget
//! every group still gets its header and its first items, and one closing line says how many entries were
//! left out, so the agent knows to look in the archive.

use std::fmt::Write as _;

/// Inline groups are wrapped at about this many characters so no line becomes a wall.
const WRAP: usize = 200;

/// Items sharing a header: a directory and its entries, a file and its matches. An empty header means the
/// items stand alone (a flat list, or a single match shown whole).
pub(crate) struct Group {
    pub(crate) header: String,
    pub(crate) items: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Layout {
    /// `header items…` on one wrapped line: names.
    Inline,
    /// `header` then one indented item per line: matches, rows.
    Lines,
}

/// Renders `groups`, each `\n`-terminated, within `budget` characters when it can: whole if it fits, else
/// the most entries that fit, half from the start and half from the end (the end of a listing is often
/// what it was run for), the gap marked where it is and counted on a closing line. `what` names the
/// entries ("entries", "matches").
pub(crate) fn render(groups: &[Group], layout: Layout, budget: usize, what: &str) -> String {
    let total: usize = groups.iter().map(|g| g.items.len()).sum();
    let whole = render_kept(groups, layout, total, 0);
    if whole.chars().count() <= budget {
        return whole;
    }
    let fits = |kept: usize| render_kept(groups, layout, kept - kept / 2, kept / 2).chars().count() <= budget;
    let (mut low, mut high) = (1, total);
    while low < high {
        let mid = (low + high).div_ceil(2);
        if fits(mid) {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    let mut out = render_kept(groups, layout, low - low / 2, low / 2);
    let _ = writeln!(out, "… {} of {total} {what} not shown", total - low);
    out
}

/// The groups with only their first `head` and last `tail` entries (counted across groups); a group that
/// loses entries shows `…` where they were, a group that loses all is left out.
fn render_kept(groups: &[Group], layout: Layout, head: usize, tail: usize) -> String {
    let total: usize = groups.iter().map(|g| g.items.len()).sum();
    let kept = |n: usize| n < head || n >= total.saturating_sub(tail);
    let mut out = String::new();
    let mut n = 0;
    for group in groups {
        let mut items: Vec<&str> = Vec::new();
        for item in &group.items {
            if kept(n) {
                items.push(item);
            } else if items.last() != Some(&"…") {
                items.push("…");
            }
            n += 1;
        }
        if items == ["…"] {
            continue;
        }
        match layout {
            Layout::Inline => push_wrapped(&mut out, &group.header, &items),
            Layout::Lines => {
                let indent = if group.header.is_empty() { "" } else { "  " };
                if !group.header.is_empty() {
                    let _ = writeln!(out, "{}", group.header);
                }
                for item in &items {
                    let _ = writeln!(out, "{indent}{item}");
                }
            }
        }
    }
    out
}

/// `header a b c …`, continued on indented lines past [`WRAP`] characters.
fn push_wrapped(out: &mut String, header: &str, items: &[&str]) {
    let mut line = header.to_string();
    let indent = if header.is_empty() { "" } else { "  " };
    for item in items {
        let fresh = line.is_empty() || line == header;
        if !fresh && line.chars().count() + 1 + item.chars().count() > WRAP {
            let _ = writeln!(out, "{line}");
            line = indent.to_string();
        } else if !fresh && !line.ends_with(' ') {
            line.push(' ');
        }
        line.push_str(item);
    }
    let _ = writeln!(out, "{line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(header: &str, n: usize) -> Group {
        Group { header: header.into(), items: (0..n).map(|i| format!("item{i:03}")).collect() }
    }

    #[test]
    fn fits_whole_within_budget() {
        let text = render(&[group("a/: ", 3), group("b/: ", 2)], Layout::Inline, 1000, "entries");
        assert_eq!(text, "a/: item000 item001 item002\nb/: item000 item001\n");
    }

    #[test]
    fn over_budget_keeps_both_ends_and_counts_the_gap() {
        let groups = [group("a/: ", 100), group("b/: ", 100)];
        let text = render(&groups, Layout::Inline, 400, "entries");
        assert!(text.len() <= 400 + 40, "{text}");
        assert!(text.starts_with("a/: item000 item001") && text.contains("\nb/: … "), "{text}");
        assert!(text.contains("item099\n… "), "{text}");
        let shown = text.matches("item").count();
        assert!(text.ends_with(&format!("… {} of 200 entries not shown\n", 200 - shown)), "{text}");
    }

    #[test]
    fn lines_layout_indents_items_under_their_header() {
        let groups = [
            Group { header: "src/a.rs:".into(), items: vec!["3: fn a()".into(), "9: fn b()".into()] },
            Group { header: String::new(), items: vec!["b.rs:1: fn c()".into()] },
        ];
        assert_eq!(
            render(&groups, Layout::Lines, 1000, "matches"),
            "src/a.rs:\n  3: fn a()\n  9: fn b()\nb.rs:1: fn c()\n"
        );
    }

    #[test]
    fn long_inline_groups_wrap() {
        let text = render(&[group("", 60)], Layout::Inline, 10_000, "entries");
        assert!(text.lines().count() > 1 && text.lines().all(|l| l.chars().count() <= WRAP), "{text}");
    }
}
