//! `file:line:` match lists (`grep -rn`, `rg -n`, `git grep -n`, `ag`): matches grouped per file with the
//! file named once and long lines (minified code) trimmed around the match.

use std::sync::LazyLock;

use regex::Regex;

use super::Context;
use super::listing::{self, Group, Layout};
use crate::plan::Plan;

/// Fewer matches than this are left alone.
const MIN_MATCHES: usize = 4;

/// Matched text longer than this many characters is trimmed to a window around the match.
const MAX_TEXT: usize = 160;

/// `path:12:text`, `path:12:3:text` (vimgrep) and grep's context lines `path-12-text`. The path has no spaces
/// and either a directory or an extension, so `Author: x` or `12:30:00` are not matches.
static MATCH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^((?:[^\s:]*/)?[^\s:/]*[./][^\s:]*?)(?::(\d+)(?::\d+)?:|-(\d+)-)(.*)$")
        .expect("match pattern compiles")
});

struct Match<'a> {
    file: &'a str,
    line: &'a str,
    /// `:` for a match, `-` for a context line.
    sep: char,
    text: &'a str,
}

fn parse(line: &str) -> Option<Match<'_>> {
    let caps = MATCH.captures(line)?;
    let file = caps.get(1)?.as_str();
    let (number, sep) = match (caps.get(2), caps.get(3)) {
        (Some(n), _) => (n.as_str(), ':'),
        (None, Some(n)) => (n.as_str(), '-'),
        (None, None) => return None,
    };
    Some(Match { file, line: number, sep, text: caps.get(4).map_or("", |m| m.as_str()) })
}

/// Groups every run of match lines.
pub(crate) fn group(plan: &mut Plan, context: &Context) {
    let is_match_line = |line: &str| line == "--" || parse(line).is_some();
    for region in super::regions(plan, false, is_match_line) {
        let matches: Vec<Match> = region.iter().filter_map(|&i| parse(plan.line(i))).collect();
        if matches.iter().filter(|m| m.sep == ':').count() < MIN_MATCHES {
            continue;
        }
        let mut groups: Vec<Group> = Vec::new();
        let mut current: Option<&str> = None;
        for m in &matches {
            let item = format!("{}{}{}", m.line, m.sep, trim_around(m.text, context.pattern));
            if current == Some(m.file) {
                groups.last_mut().expect("a current file has a group").items.push(item);
            } else {
                current = Some(m.file);
                groups.push(Group { header: format!("{}:", m.file), items: vec![item] });
            }
        }
        // A file with a single match reads best as the original one-line form.
        for g in &mut groups {
            if g.items.len() == 1 {
                let only = g.items.pop().expect("one item");
                g.items.push(format!("{}{only}", g.header));
                g.header.clear();
            }
        }
        let text = listing::render(&groups, Layout::Lines, context.budget_chars, "matches");
        if text.chars().count() < super::size(plan, &region) {
            plan.replace(&region, text);
        }
    }
}

/// `text` shortened to [`MAX_TEXT`] characters: around the first occurrence of `pattern` when it is found
/// literally (case-insensitively) or, failing that, as the text its escaped punctuation stands for (`a\.b`
/// as `a.b`), from the start otherwise.
fn trim_around(text: &str, pattern: Option<&str>) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= MAX_TEXT {
        return text.to_string();
    }
    let found = pattern.filter(|p| !p.is_empty()).and_then(|p| {
        let (lower, p) = (text.to_lowercase(), p.to_lowercase());
        let at = lower.find(&p).or_else(|| lower.find(&unescaped(&p)))?;
        // Lowercasing may change byte lengths; fall back to the start when it does.
        (lower.len() == text.len()).then(|| text[..at].chars().count())
    });
    let start = found.map_or(0, |at| at.saturating_sub(MAX_TEXT / 3)).min(chars.len() - MAX_TEXT);
    let end = start + MAX_TEXT;
    let mut out = String::new();
    if start > 0 {
        out.push_str(&format!("[…{start} chars]"));
    }
    out.extend(&chars[start..end]);
    if end < chars.len() {
        out.push_str(&format!("[…{} chars]", chars.len() - end));
    }
    out
}

/// `pattern` with the backslash before each punctuation character removed: the text a regular expression
/// such as `a\.b` or `f\(x\)` matches. Searches are often written so, and the shell passes the backslashes
/// on inside double quotes as inside single ones.
fn unescaped(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.peek() {
            Some(&next) if c == '\\' && next.is_ascii_punctuation() => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grouped(lines: &[&str], pattern: Option<&str>) -> String {
        let lines: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        let mut plan = Plan::new(&lines);
        group(&mut plan, &Context { budget_chars: 10_000, listing: false, pattern, prints_files: false });
        plan.render()
    }

    #[test]
    fn matches_group_under_their_file_named_once() {
        let text = grouped(
            &[
                "src/a.rs:3:    fn a() {}",
                "src/a.rs:9:fn b()",
                "src/a.rs:12:fn c()",
                "src/b.rs:1:fn d()",
                "x.py:7:def e():",
            ],
            None,
        );
        assert_eq!(text, "src/a.rs:\n  3:    fn a() {}\n  9:fn b()\n  12:fn c()\nsrc/b.rs:1:fn d()\nx.py:7:def e():\n");
    }

    #[test]
    fn long_lines_are_trimmed_around_the_pattern() {
        let long = format!("{}needle{}", "a".repeat(500), "b".repeat(500));
        let trimmed = trim_around(&long, Some("NEEDLE"));
        assert!(trimmed.contains("needle") && trimmed.starts_with("[…") && trimmed.ends_with("chars]"), "{trimmed}");
        assert!(trimmed.chars().count() < 200);
    }

    #[test]
    fn escaped_punctuation_of_a_pattern_is_found_as_the_text_it_matches() {
        let long = format!("{}needle.call(){}", "a".repeat(500), "b".repeat(500));
        let trimmed = trim_around(&long, Some(r"NEEDLE\.call\(\)"));
        assert!(trimmed.contains("needle.call()") && trimmed.starts_with("[…"), "{trimmed}");
        // A backslash before a letter is a class (`\d`, `\b`), no escape.
        assert_eq!(unescaped(r"a\.b\(\\\d"), r"a.b(\\d");
    }

    #[test]
    fn key_value_and_clock_lines_are_not_matches() {
        assert!(parse("Author: Dana").is_none());
        assert!(parse("12:30:00 started").is_none());
        assert!(parse("src/lib.rs:12:fn x()").is_some());
    }
}
