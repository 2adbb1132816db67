//! Search snippets: the line of an archived output that shows why a search found it.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read as _};
use std::path::Path;

/// Characters of context a search snippet shows around its match.
pub(super) const SNIPPET_CHARS: usize = 160;
/// Of those, how many come before the first matching word.
pub(super) const SNIPPET_LEAD: usize = 40;

/// The snippet of a search hit, read from its blob; empty when the blob cannot be read.
pub(super) fn snippet(path: &Path, raw_bytes: u64, terms: &[String]) -> String {
    let Ok(file) = File::open(path) else { return String::new() };
    let Ok(decoder) = zstd::stream::read::Decoder::new(file) else { return String::new() };
    // The recorded size bounds what a damaged blob can make this read.
    find_snippet(BufReader::new(decoder.take(raw_bytes)), terms).unwrap_or_default()
}

/// The line with the first word one of `terms` matches, cut around that word; else the first
/// non-empty line.
pub(super) fn find_snippet(mut reader: impl BufRead, terms: &[String]) -> io::Result<String> {
    let mut first = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Ok(first.unwrap_or_default());
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\n', '\r']);
        if let Some(at) = first_match(text, terms) {
            return Ok(clip(text, at));
        }
        if first.is_none() && !text.trim().is_empty() {
            first = Some(clip(text, 0));
            if terms.is_empty() {
                return Ok(first.unwrap_or_default());
            }
        }
    }
}

/// The byte offset of the first word of `text` (a run of letters and digits, as FTS5 indexes it)
/// that one of `terms` (lowercase) matches as the search does.
pub(super) fn first_match(text: &str, terms: &[String]) -> Option<usize> {
    let mut start = None;
    for (at, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(at),
            (false, Some(from)) => {
                let word = text[from..at].to_lowercase();
                if terms.iter().any(|term| crate::terms::matches(&word, term)) {
                    return Some(from);
                }
                start = None;
            }
            _ => {}
        }
    }
    None
}

/// About [`SNIPPET_CHARS`] characters of `line` around byte offset `at`, trimmed, control
/// characters as spaces, `…` where it was cut.
fn clip(line: &str, at: usize) -> String {
    let chars: Vec<char> = line.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let at = line[..at].chars().count();
    let start = at.saturating_sub(SNIPPET_LEAD).min(chars.len().saturating_sub(SNIPPET_CHARS));
    let end = (start + SNIPPET_CHARS).min(chars.len());
    let inner: String = chars[start..end].iter().collect();
    let mut clipped = String::new();
    if start > 0 {
        clipped.push('…');
    }
    clipped.push_str(inner.trim());
    if end < chars.len() {
        clipped.push('…');
    }
    clipped
}
