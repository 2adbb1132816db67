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

/// How far past the first line with a word of the query a snippet looks for a line with more of
/// its words: a large output is not decoded to its end for each hit of a list.
pub(super) const SNIPPET_SCAN_BYTES: usize = 1 << 20;

/// The line with the most distinct words of `terms` (of two with as many, the first), cut around
/// its first matching word: a search for two words shows a line with both where there is one,
/// not the first line with either. Else the first non-empty line. The look for a better line
/// ends at a line with every word, or [`SNIPPET_SCAN_BYTES`] past the first line with one.
pub(super) fn find_snippet(mut reader: impl BufRead, terms: &[String]) -> io::Result<String> {
    let mut first = None;
    // The best line so far: how many terms it holds, and its snippet.
    let mut best: Option<(usize, String)> = None;
    let mut scanned = 0;
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = reader.read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(best.map(|(_, snippet)| snippet).or(first).unwrap_or_default());
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\n', '\r']);
        if let Some((at, held)) = first_match(text, terms)
            && best.as_ref().is_none_or(|(most, _)| held > *most)
        {
            best = Some((held, clip(text, at)));
            if held == terms.len() {
                return Ok(best.map(|(_, snippet)| snippet).unwrap_or_default());
            }
        }
        if best.is_some() {
            scanned += read;
            if scanned > SNIPPET_SCAN_BYTES {
                return Ok(best.map(|(_, snippet)| snippet).unwrap_or_default());
            }
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
/// that one of `terms` (lowercase, each once) matches as the search does, and how many of
/// `terms` the line's words match.
pub(super) fn first_match(text: &str, terms: &[String]) -> Option<(usize, usize)> {
    let mut first = None;
    let mut held = vec![false; terms.len()];
    let mut start = None;
    for (at, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(at),
            (false, Some(from)) => {
                let word = text[from..at].to_lowercase();
                for (term, held) in terms.iter().zip(held.iter_mut()) {
                    if crate::terms::matches(&word, term) {
                        *held = true;
                        first.get_or_insert(from);
                    }
                }
                start = None;
            }
            _ => {}
        }
    }
    first.map(|at| (at, held.iter().filter(|held| **held).count()))
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
