//! Secrets the caller may not see in what a search shows. The caller's redactor finds them in a
//! file's whole text (a private key spans lines), and the search reads the masked text instead:
//! a regex matches it, lines are cut around their matches in it, bm25 and symbol search show its
//! lines. So no cut leaves part of a secret showing, no line of a key's body is shown, and which
//! lines match cannot spell out a secret one character class at a time.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

/// Given a text, where its secrets are (byte ranges, sorted and disjoint) and what stands for
/// each. Called on the search's threads.
#[derive(Clone)]
pub struct Mask(Arc<SecretsOf>);

type SecretsOf = dyn Fn(&str) -> Vec<(Range<usize>, String)> + Send + Sync;

impl Mask {
    pub fn new(secrets_of: impl Fn(&str) -> Vec<(Range<usize>, String)> + Send + Sync + 'static) -> Self {
        Mask(Arc::new(secrets_of))
    }

    /// `text` with each secret replaced by its marker followed by the line breaks the secret
    /// spanned, so every line keeps its number (a key's body lines read empty), or `None` when
    /// it holds none.
    pub(crate) fn apply(&self, text: &str) -> Option<Masked> {
        let secrets = (self.0)(text);
        if secrets.is_empty() {
            return None;
        }
        let mut masked = String::with_capacity(text.len());
        let mut markers: BTreeMap<u64, Vec<Range<usize>>> = BTreeMap::new();
        let (mut last, mut line, mut line_start) = (0, 1u64, 0usize);
        // Appends `piece`, keeping count of the line it ends on and where that line starts.
        fn advance(piece: &str, masked: &mut String, line: &mut u64, line_start: &mut usize) {
            for (at, _) in piece.match_indices('\n') {
                *line += 1;
                *line_start = masked.len() + at + 1;
            }
            masked.push_str(piece);
        }
        for (range, marker) in secrets {
            advance(&text[last..range.start], &mut masked, &mut line, &mut line_start);
            let start = masked.len() - line_start;
            markers.entry(line).or_default().push(start..start + marker.len());
            masked.push_str(&marker);
            let inner = &text[range.clone()];
            for (at, _) in inner.match_indices('\n') {
                let breaks = if inner[..at].ends_with('\r') { "\r\n" } else { "\n" };
                advance(breaks, &mut masked, &mut line, &mut line_start);
            }
            last = range.end;
        }
        masked.push_str(&text[last..]);
        Some(Masked { text: masked, markers })
    }
}

impl fmt::Debug for Mask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Mask(..)")
    }
}

/// A file's text as the caller may see it: as written, or with its secrets masked.
pub(crate) enum Seen {
    Plain(String),
    Masked(Masked),
}

impl Seen {
    pub(crate) fn of(text: String, mask: Option<&Mask>) -> Seen {
        match mask.and_then(|mask| mask.apply(&text)) {
            Some(masked) => Seen::Masked(masked),
            None => Seen::Plain(text),
        }
    }

    pub(crate) fn text(&self) -> &str {
        match self {
            Seen::Plain(text) => text,
            Seen::Masked(masked) => &masked.text,
        }
    }

    pub(crate) fn masked(&self) -> Option<&Masked> {
        match self {
            Seen::Plain(_) => None,
            Seen::Masked(masked) => Some(masked),
        }
    }
}

/// A text with its secrets masked.
pub(crate) struct Masked {
    pub text: String,
    /// Each line's markers (1-based line numbers), as byte ranges of the line.
    markers: BTreeMap<u64, Vec<Range<usize>>>,
}

impl Masked {
    /// How many markers of line `line` lie within its bytes `shown` (a long line is shown in part).
    pub(crate) fn markers_within(&self, line: u64, shown: Range<usize>) -> u32 {
        let on_line = self.markers.get(&line).map_or(&[][..], Vec::as_slice);
        let within = on_line.iter().filter(|marker| shown.start <= marker.start && marker.end <= shown.end);
        u32::try_from(within.count()).unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask() -> Mask {
        Mask::new(|text: &str| {
            let mut found: Vec<(Range<usize>, String)> =
                text.match_indices("SECRET").map(|(at, s)| (at..at + s.len(), "[X]".to_string())).collect();
            // A block over lines, as a private key is.
            if let (Some(begin), Some(end)) = (text.find("BEGIN"), text.find("END")) {
                found.push((begin..end + 3, "[KEY]".to_string()));
            }
            found.sort_by_key(|(range, _)| range.start);
            found
        })
    }

    #[test]
    fn lines_keep_their_numbers_and_each_knows_its_markers() {
        let masked = mask().apply("a SECRET b SECRET c\nBEGIN\r\nbody\r\nEND\nlast SECRET\n").unwrap();
        assert_eq!(masked.text, "a [X] b [X] c\n[KEY]\r\n\r\n\nlast [X]\n");
        assert_eq!(masked.text.lines().count(), 5);
        assert_eq!(masked.markers_within(1, 0..13), 2);
        assert_eq!(masked.markers_within(1, 0..6), 1);
        assert_eq!(masked.markers_within(2, 0..5), 1);
        assert_eq!(masked.markers_within(3, 0..0), 0);
        assert_eq!(masked.markers_within(5, 0..8), 1);
        assert!(mask().apply("nothing here").is_none());
    }
}
