//! Compact text for agents: `path:line: text` lines grouped by file, then
//! one summary line and any notes. Every count an agent needs to decide
//! whether to narrow the search is in the summary.

use std::fmt::Write;
use std::ops::Range;

use crate::mask::Masked;
use crate::model::{Action, Match, SearchResult};
use crate::walk::Skipped;
pub(crate) use lean_ctx_common::plural::count;

/// What an empty search adds when hidden paths were not walked (ripgrep's rule, which would
/// otherwise read as "this does not exist" for CI configs and dotfiles), naming `example`, a
/// hidden path that holds a file it left out, when one is known (QA: the note's `.github/**`
/// searched nothing in a project whose hidden files were in `.circleci/`).
pub(crate) fn hidden_note(example: Option<&str>) -> String {
    let glob = match example {
        Some(dir) if dir.ends_with('/') => format!("{dir}**"),
        Some(file) => file.to_string(),
        None => ".github/**".to_string(),
    };
    let holds = example.map_or(String::new(), |path| format!(" (`{path}` holds such files)"));
    format!(
        "hidden paths (a name starting with `.`) are left out unless the path or a glob names one, as `{glob}`{holds}"
    )
}

/// How many paths a note names before it counts the rest.
const PATHS_NAMED: usize = 5;

/// `a.rs, b/c.rs, 3 more`: the first [`PATHS_NAMED`] of `paths` (root-relative), the rest counted.
pub(crate) fn some_paths(paths: &[std::path::PathBuf]) -> String {
    let mut named: Vec<String> = paths.iter().take(PATHS_NAMED).map(|path| crate::paths::display(path)).collect();
    if paths.len() > PATHS_NAMED {
        named.push(format!("{} more", paths.len() - PATHS_NAMED));
    }
    named.join(", ")
}

/// Longer lines are cut, `…` on the cut sides (minified code would flood the context).
pub(crate) const MAX_LINE_CHARS: usize = 200;
/// Characters kept before a match that a long line is cut around.
const CONTEXT_BEFORE: usize = 60;

/// The bytes `shown` of `line` (without its line end), `…` on the cut sides.
fn shown_window(line: &str, shown: Range<usize>) -> String {
    let before = if shown.start > 0 { "…" } else { "" };
    let after = if shown.end < line.len() { "…" } else { "" };
    format!("{before}{}{after}", &line[shown])
}

/// `line` without its line end, and when longer than [`MAX_LINE_CHARS`] the bytes of the part of
/// that size holding the match at byte range `at`: its head when the match ends in it, else a
/// window from [`CONTEXT_BEFORE`] characters before the match (a match in a minified file's one
/// line is shown, not the line's unrelated start).
fn window_around(line: &str, at: Range<usize>) -> (&str, Range<usize>) {
    let line = line.trim_end_matches(['\n', '\r']);
    let chars = line.chars().count();
    if chars <= MAX_LINE_CHARS {
        return (line, 0..line.len());
    }
    let chars_before = |byte: usize| line.get(..byte).map_or(0, |head| head.chars().count());
    let (start, end) = (chars_before(at.start), chars_before(at.end.max(at.start)));
    let first = match end <= MAX_LINE_CHARS {
        true => 0,
        false => start.saturating_sub(CONTEXT_BEFORE).min(chars - MAX_LINE_CHARS),
    };
    let last = first + MAX_LINE_CHARS;
    let byte_of = |char_index: usize| line.char_indices().nth(char_index).map_or(line.len(), |(byte, _)| byte);
    (line, byte_of(first)..byte_of(last))
}

/// Line `number` as a search shows it: cut around its match at `at` (see [`window_around`]).
/// With `masked`, the file's text the line is from had its secrets masked (see [`Masked`]), and
/// the markers it shows are counted.
pub(crate) fn shown_line(line: &str, number: u64, at: Range<usize>, masked: Option<&Masked>) -> Shown {
    let (line, window) = window_around(line, at);
    let secrets = masked.map_or(0, |masked| masked.markers_within(number, window.clone()));
    Shown { text: shown_window(line, window), secrets }
}

/// A line's text as shown and the secrets masked in it.
#[derive(Debug, PartialEq)]
pub(crate) struct Shown {
    pub text: String,
    pub secrets: u32,
}

/// `skipped 3 files: 1 binary, 2 special (fifo/socket/device)`, or nothing.
pub(crate) fn skipped_note(skipped: &Skipped) -> Option<String> {
    if skipped.total() == 0 {
        return None;
    }
    let parts: Vec<String> = [
        (skipped.binary, "binary"),
        (skipped.too_large, "too large"),
        (skipped.special, "special (fifo/socket/device)"),
        (skipped.unreadable, "unreadable"),
        (skipped.walk_errors, "walk errors (symlink loops, unreadable directories)"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    Some(format!("skipped {}: {}", count(skipped.total(), "file"), parts.join(", ")))
}

/// The truncation hint shared by every listing.
pub(crate) fn more_note(total: u64, shown: u64, max_results: usize, unit: &str) -> String {
    format!(
        // The limit by value, not by name: the CLI calls it `-n`, MCP `max_results`.
        "… {} not shown (limit {max_results}); narrow the pattern, path or globs to see the rest",
        count(total - shown, unit)
    )
}

/// What `action` counts: lines (regex), files (bm25) or definitions (symbol).
pub(crate) fn unit(action: Action) -> &'static str {
    match action {
        Action::Regex => "match",
        Action::Bm25 => "file",
        Action::Symbol => "definition",
    }
}

/// The text of `result`; callers that change its matches (the daemon
/// withholding denied files, masking secrets) render it again with this.
pub fn search_text(result: &SearchResult, max_results: usize) -> String {
    let mut out = String::new();
    let mut previous: Option<&str> = None;
    for m in &result.matches {
        let same_file = previous == Some(m.path.as_str());
        if m.line == 0 {
            if !same_file {
                let _ = writeln!(out, "{}: {}", m.path, m.text);
            }
        } else {
            let _ = writeln!(out, "{}:{}: {}", m.path, m.line, m.text);
        }
        previous = Some(&m.path);
    }
    let unit = unit(result.action);
    if result.total == 0 {
        out.push_str("no matches");
    } else {
        out.push_str(&count(result.total, unit));
        if result.action != Action::Bm25 {
            let _ = write!(out, " in {}", count(result.files_with_matches, "file"));
        }
        if result.action == Action::Bm25 {
            out.push_str(" ranked by bm25");
        }
    }
    let _ = write!(out, " (searched {})", count(result.files_searched, "file"));
    out.push('\n');
    if result.truncated {
        let _ = writeln!(out, "{}", more_note(result.total, result.shown, max_results, unit));
    }
    if let Some(note) = &result.note {
        let _ = writeln!(out, "{note}");
    }
    if let Some(note) = skipped_note(&result.skipped) {
        let _ = writeln!(out, "{note}");
    }
    out
}

/// Keeps the first `cap` lines in (path, line) order of a stream of files
/// arriving in any order, without holding more than `cap` lines plus one file.
pub(crate) struct FirstLines {
    cap: usize,
    kept: usize,
    files: std::collections::BTreeMap<std::path::PathBuf, Vec<(u64, Shown)>>,
}

impl FirstLines {
    pub(crate) fn new(cap: usize) -> Self {
        FirstLines { cap, kept: 0, files: Default::default() }
    }

    pub(crate) fn insert(&mut self, path: std::path::PathBuf, lines: Vec<(u64, Shown)>) {
        if lines.is_empty() {
            return;
        }
        self.kept += lines.len();
        self.files.insert(path, lines);
        while let Some((_, last)) = self.files.last_key_value() {
            if self.kept - last.len() < self.cap {
                break;
            }
            self.kept -= last.len();
            self.files.pop_last();
        }
    }

    pub(crate) fn into_matches(self) -> Vec<Match> {
        self.files
            .into_iter()
            .flat_map(|(path, lines)| {
                let path = crate::paths::display(&path);
                lines.into_iter().map(move |(line, shown)| Match {
                    path: path.clone(),
                    line,
                    text: shown.text,
                    secrets: shown.secrets,
                    score: None,
                    symbol: None,
                })
            })
            .take(self.cap)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_on_a_char_boundary() {
        let line = "é".repeat(MAX_LINE_CHARS + 5);
        let cut = shown_line(&line, 1, 0..2, None).text;
        assert_eq!(cut.chars().count(), MAX_LINE_CHARS + 1);
        assert!(cut.ends_with('…'));
        assert_eq!(shown_line("short\r\n", 1, 0..5, None).text, "short");
    }

    #[test]
    fn a_long_line_is_cut_around_its_match() {
        let head = "é,".repeat(5000);
        let line = format!("{head}function needle(){{return 1}};{}", "x".repeat(300));
        let at = line.find("needle").unwrap();
        let cut = shown_line(&line, 1, at..at + "needle".len(), None).text;
        assert!(cut.starts_with('…') && cut.ends_with('…'), "{cut}");
        assert!(cut.contains("function needle(){return 1};"), "{cut}");
        assert_eq!(cut.chars().count(), MAX_LINE_CHARS + 2);
        assert_eq!(cut.find("function").map(|byte| cut[..byte].chars().count()), Some(1 + CONTEXT_BEFORE - 9));
        // Near the end, the window ends with the line rather than running past it.
        let line = format!("{head}needle");
        let at = line.len() - "needle".len();
        let cut = shown_line(&line, 1, at..line.len(), None).text;
        assert!(cut.starts_with('…') && cut.ends_with("needle"), "{cut}");
        // A match inside the head keeps the head.
        let cut = shown_line(&line, 1, 2..4, None).text;
        assert!(cut.starts_with("é,é,") && cut.ends_with('…'), "{cut}");
    }

    #[test]
    fn first_lines_keeps_the_smallest_paths() {
        let mut kept = FirstLines::new(3);
        let lines = |n: u64| (1..=n).map(|i| (i, Shown { text: format!("l{i}"), secrets: 0 })).collect::<Vec<_>>();
        kept.insert("c".into(), lines(2));
        kept.insert("a".into(), lines(2));
        kept.insert("b".into(), lines(5));
        let got: Vec<(String, u64)> = kept.into_matches().into_iter().map(|m| (m.path, m.line)).collect();
        assert_eq!(got, [("a".to_string(), 1), ("a".to_string(), 2), ("b".to_string(), 1)]);
    }

    #[test]
    fn skipped_note_lists_only_nonzero_reasons() {
        let skipped = Skipped { binary: 1, special: 2, ..Skipped::default() };
        assert_eq!(skipped_note(&skipped).unwrap(), "skipped 3 files: 1 binary, 2 special (fifo/socket/device)");
        assert_eq!(skipped_note(&Skipped::default()), None);
    }
}
