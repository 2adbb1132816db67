//! Hunks a view leaves out of a diff (`git diff`, a formatter's check, `diff -u`), counted per file by notes
//! such as `… 3 hunks of src/a.rs not shown (+12 -5 lines)`: read from the raw output and the view on their
//! own, so a note's count is checked against the hunks the view does not show.

use std::collections::{BTreeMap, HashSet};
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

static NOTE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^… (\d+) hunks? of (.+) not shown \(\+\d+ -\d+ lines\)$").unwrap());

/// `@@ -a[,b] +c[,d] @@`, with the old and new counts.
static HEADER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@").unwrap());

/// A hunk of a diff: the file its header or the `+++ ` / `diff --git` line above names (`this file` when none
/// does) and its lines, header included.
struct Hunk {
    file: String,
    lines: Range<usize>,
}

/// rustfmt's `Diff in PATH:LINE:` header: its path.
fn rustfmt_file(line: &str) -> Option<&str> {
    let located = line.strip_prefix("Diff in ")?.strip_suffix(':')?;
    located.rsplit_once(':').filter(|(_, n)| n.parse::<usize>().is_ok()).map(|(path, _)| path)
}

/// The file a line of a patch's file header names: `diff --git a/x b/x`, or `+++ x` (its tab and timestamp
/// left out, git's `b/` too, the `--- ` line's path for a deleted file's `/dev/null`).
fn header_file(line: &str, previous: &str) -> Option<String> {
    if let Some(paths) = line.strip_prefix("diff --git ") {
        return Some(paths.rsplit(" b/").next().unwrap_or(paths).to_string());
    }
    let path = |p: &str| p.split('\t').next().unwrap_or(p).to_string();
    let new = path(line.strip_prefix("+++ ")?);
    let old = previous.strip_prefix("--- ").map(path);
    Some(match old {
        Some(old) if new == "/dev/null" => old.strip_prefix("a/").unwrap_or(&old).to_string(),
        Some(old) if old.starts_with("a/") || old == "/dev/null" => new.strip_prefix("b/").unwrap_or(&new).to_string(),
        _ => new,
    })
}

/// The hunks of `lines` (displayed, escapes and trailing blanks gone): a unified header's body runs as far as
/// its counts say, rustfmt's to the first line that is no diff line.
fn hunks(lines: &[String]) -> Vec<Hunk> {
    let mut found = Vec::new();
    let mut file = "this file".to_string();
    let mut i = 0;
    while i < lines.len() {
        let previous = if i == 0 { "" } else { lines[i - 1].as_str() };
        if let Some(named) = header_file(&lines[i], previous) {
            file = named;
        }
        let body_end = if let Some(path) = rustfmt_file(&lines[i]) {
            file = path.to_string();
            (i + 1..lines.len()).find(|&k| !(lines[k].is_empty() || lines[k].starts_with([' ', '+', '-'])))
        } else if let Some(c) = HEADER.captures(&lines[i]) {
            let count = |n: Option<regex::Match>| n.map_or(1, |n| n.as_str().parse::<usize>().unwrap());
            let (mut old, mut new) = (count(c.get(1)), count(c.get(2)));
            let mut k = i + 1;
            while k < lines.len() && old + new > 0 {
                match lines[k].as_bytes().first() {
                    Some(b'-') => old = old.saturating_sub(1),
                    Some(b'+') => new = new.saturating_sub(1),
                    Some(b'\\') => {}
                    Some(b' ') | None => (old, new) = (old.saturating_sub(1), new.saturating_sub(1)),
                    Some(_) => break,
                }
                k += 1;
            }
            Some(k)
        } else {
            i += 1;
            continue;
        };
        let end = body_end.unwrap_or(lines.len());
        found.push(Hunk { file: file.clone(), lines: i..end });
        i = end.max(i + 1);
    }
    found
}

/// How many hunk headers of each file `view` shows: `@@` and `Diff in` lines under the file a header line
/// names (a view may cut a hunk's body, so only headers are counted).
fn shown_per_file(view: &[&str]) -> BTreeMap<String, usize> {
    let mut shown = BTreeMap::new();
    let mut file = "this file".to_string();
    for (i, line) in view.iter().enumerate() {
        let previous = if i == 0 { "" } else { view[i - 1] };
        if let Some(named) = header_file(line, previous) {
            file = named;
        }
        if let Some(path) = rustfmt_file(line) {
            file = path.to_string();
        }
        if rustfmt_file(line).is_some() || HEADER.is_match(line) {
            *shown.entry(file.clone()).or_default() += 1;
        }
    }
    shown
}

/// What the hunk notes of `view` leave out of `displayed` (the raw output's lines): the indexes of the lines
/// of every hunk of a file a note names, or, when a note's count is not the number of that file's hunks the
/// view does not show, the note.
pub(crate) fn left_out(displayed: &[String], view: &[&str]) -> Result<HashSet<usize>, String> {
    let mut noted: BTreeMap<String, usize> = BTreeMap::new();
    for c in view.iter().filter_map(|l| NOTE.captures(l)) {
        *noted.entry(c[2].to_string()).or_default() += c[1].parse::<usize>().unwrap();
    }
    if noted.is_empty() {
        return Ok(HashSet::new());
    }
    let raw = hunks(displayed);
    let shown = shown_per_file(view);
    let mut lines = HashSet::new();
    for (file, n) in &noted {
        let total = raw.iter().filter(|h| &h.file == file).count();
        let visible = shown.get(file).copied().unwrap_or(0);
        if visible + n != total {
            return Err(format!("{n} hunks of {file} noted as not shown, {visible} shown, of {total}"));
        }
        lines.extend(raw.iter().filter(|h| &h.file == file).flat_map(|h| h.lines.clone()));
    }
    Ok(lines)
}
