//! Whether a view shows the definitions [`crate::definitions`] expects, judged the same way for
//! every tool: a definition counts as shown when the innermost view line whose line span covers
//! the definition's line names it as a whole word (or, for definitions sharing a line, another
//! view line starting there does). Both span notations are read — ours (`12-30
//! fn name(…)` at the start of a line) and the reference's (`fn name(…) @L12-30` at the end).

use std::collections::BTreeMap;

use crate::definitions::Expected;

/// One view line with a span: (first line, last line, text).
type Span<'a> = (u32, u32, &'a str);

/// A view's lines that carry a line span, in view order.
pub fn view_lines(view: &str) -> Vec<Span<'_>> {
    view.lines()
        .filter_map(|line| {
            let trimmed = line.trim_start();
            // The reference's notation first: its lines may start with a number of their own
            // (`2024 roadmap @L3-9`), and ours never end with ` @L` and a span.
            if let Some((text, span)) = trimmed.rsplit_once(" @L")
                && let Some((start, end)) = parse_span(span.trim_end())
            {
                return Some((start, end, text));
            }
            let (span, text) = trimmed.split_once(' ')?;
            let (start, end) = parse_span(span)?;
            Some((start, end, text))
        })
        .collect()
}

/// `12-30` or `12`.
fn parse_span(span: &str) -> Option<(u32, u32)> {
    let (start, end) = span.split_once('-').unwrap_or((span, span));
    Some((start.parse().ok()?, end.parse().ok()?))
}

/// Whether the innermost view line covering the definition's line names it, or another view
/// line starting on that line does before its parameters: a minified file's definitions share
/// one line, each listed on a view line of its own (`13 function p(a)`, `13 function fa(a,b)`;
/// `fa`'s line does not show a `b`).
pub fn shows(lines: &[Span<'_>], expected: &Expected) -> bool {
    let covers = |(start, end, _): &&Span<'_>| (*start..=*end).contains(&expected.line);
    let innermost = lines.iter().rev().find(covers).is_some_and(|(_, _, text)| names(text, &expected.name));
    let mut same_line = lines.iter().filter(|(start, _, _)| *start == expected.line);
    innermost || same_line.any(|(_, _, text)| names(text.split('(').next().unwrap_or(text), &expected.name))
}

/// `name` as a whole word of `text`.
fn names(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name).any(|(at, _)| !text[..at].ends_with(word) && !text[at + name.len()..].starts_with(word))
}

/// Tokens and coverage of one tool's views over a set of files.
#[derive(Default)]
pub struct Tally {
    pub files: usize,
    /// Files whose map starts with `[outline incomplete: …]`.
    pub incomplete: usize,
    pub raw: usize,
    pub tokens: BTreeMap<&'static str, usize>,
    pub expected: usize,
    /// Definitions each view shows.
    pub shown: BTreeMap<&'static str, usize>,
    pub in_macro: usize,
    pub fields: usize,
    /// Of those, shown in signatures and map both.
    pub in_macro_shown: usize,
    pub fields_shown: usize,
}

/// What one file gave: its raw text and token count, the expected definitions, and the views by
/// mode (a view equal to the raw text is the file itself, sent whole, and shows everything).
pub struct FileViews<'a> {
    pub path: &'a std::path::Path,
    pub raw: &'a str,
    pub raw_tokens: usize,
    pub expected: &'a [Expected],
    pub views: &'a BTreeMap<&'static str, String>,
}

impl Tally {
    pub fn add(&mut self, file: &FileViews<'_>, count: impl Fn(&str) -> usize) {
        self.files += 1;
        self.raw += file.raw_tokens;
        self.expected += file.expected.len();
        if file.views.get("map").is_some_and(|map| map.starts_with("[outline incomplete")) {
            self.incomplete += 1;
        }
        let mut shown_in_all = vec![true; file.expected.len()];
        for (mode, view) in file.views {
            *self.tokens.entry(mode).or_default() += count(view);
            if !matches!(*mode, "signatures" | "map") {
                continue;
            }
            let whole = view.trim_end() == file.raw.trim_end();
            let lines = view_lines(view);
            let shown = self.shown.entry(mode).or_default();
            for (definition, all) in file.expected.iter().zip(&mut shown_in_all) {
                let seen = whole || shows(&lines, definition);
                *shown += usize::from(seen);
                *all &= seen;
                if !seen && std::env::var_os("COVERAGE_MISSES").is_some() {
                    eprintln!("miss in {mode}: {}:{} {}", file.path.display(), definition.line, definition.name);
                }
            }
        }
        for (definition, all) in file.expected.iter().zip(shown_in_all) {
            self.in_macro += usize::from(definition.in_macro);
            self.fields += usize::from(definition.field);
            self.in_macro_shown += usize::from(definition.in_macro && all);
            self.fields_shown += usize::from(definition.field && all);
        }
    }

    pub fn merge(&mut self, other: &Tally) {
        self.files += other.files;
        self.incomplete += other.incomplete;
        self.raw += other.raw;
        self.expected += other.expected;
        for (mode, n) in &other.tokens {
            *self.tokens.entry(mode).or_default() += n;
        }
        for (mode, n) in &other.shown {
            *self.shown.entry(mode).or_default() += n;
        }
        self.in_macro += other.in_macro;
        self.fields += other.fields;
        self.in_macro_shown += other.in_macro_shown;
        self.fields_shown += other.fields_shown;
    }

    /// `12345 (14.8 %)`: a mode's tokens and their share of raw.
    pub fn tokens_cell(&self, mode: &str) -> String {
        let n = self.tokens.get(mode).copied().unwrap_or(0);
        format!("{n} ({:.1} %)", percent(n, self.raw))
    }

    /// The share of expected definitions a mode shows.
    pub fn coverage_cell(&self, mode: &str) -> String {
        format!("{:.1} %", percent(self.shown.get(mode).copied().unwrap_or(0), self.expected))
    }
}

pub fn percent(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// `769 (100.0 %)`, or `0` when there is nothing to show.
pub fn shown_cell(part: usize, whole: usize) -> String {
    if whole == 0 { "0".to_string() } else { format!("{whole} ({:.1} %)", percent(part, whole)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expected(name: &str, line: u32) -> Expected {
        Expected { name: name.into(), line, in_macro: false, field: false }
    }

    #[test]
    fn both_span_notations_are_read() {
        let ours = "[outline incomplete: lines 9 not parsed]\n3-20 impl Conn\n 5-8 pub fn read(&self)\n";
        let theirs = "conn.rs 20L\nimpl Conn @L3-20\n  fn pub read(&self) @L5-8\n";
        for view in [ours, theirs] {
            let lines = view_lines(view);
            assert_eq!(lines.len(), 2, "{view}");
            assert!(shows(&lines, &expected("read", 6)));
            assert!(shows(&lines, &expected("Conn", 3)));
            // Line 12 is covered by `impl Conn` only, which does not name `write`.
            assert!(!shows(&lines, &expected("write", 12)));
            assert!(!shows(&lines, &expected("read", 25)));
        }
        // A reference line that starts with a number is read by its own span.
        assert_eq!(
            view_lines("## 2024 roadmap @L3-9\n2024 plans @L10\n"),
            [(3, 9, "## 2024 roadmap"), (10, 10, "2024 plans")]
        );
    }

    #[test]
    fn definitions_sharing_a_line_are_each_found_on_theirs() {
        let lines = view_lines("13 function p(a)\n13 function fa(a,b)\n14-20 class C\n 15 m()\n");
        assert!(shows(&lines, &expected("p", 13)));
        assert!(shows(&lines, &expected("fa", 13)));
        // Inside a span, the innermost line still decides: `class C` does not show `n`.
        assert!(!shows(&lines, &expected("n", 16)));
        assert!(!shows(&lines, &expected("q", 13)));
        // Named only as a parameter of another definition on the line: not shown.
        let lines = view_lines("13 function fa(p,b)\n13 function q()\n");
        assert!(!shows(&lines, &expected("p", 13)));
    }

    #[test]
    fn a_name_counts_only_as_a_whole_word() {
        let lines = view_lines("1-4 fn reader()");
        assert!(!shows(&lines, &expected("read", 2)));
        assert!(shows(&view_lines("1-4 fn read_all(), read()"), &expected("read", 2)));
    }
}
