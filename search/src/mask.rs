//! Secrets the caller may not see in the lines a search shows. The caller's redactor finds them
//! in a whole line before the line is cut around its match, so no cut leaves part of a secret
//! showing; and a regex must match the line as shown, so which lines match cannot spell out a
//! secret one character class at a time.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

/// Given a line, where its secrets are (byte ranges, sorted and disjoint) and what stands for
/// each. Called on the search's threads.
#[derive(Clone)]
pub struct Mask(Arc<SecretsOf>);

type SecretsOf = dyn Fn(&str) -> Vec<(Range<usize>, String)> + Send + Sync;

impl Mask {
    pub fn new(secrets_of: impl Fn(&str) -> Vec<(Range<usize>, String)> + Send + Sync + 'static) -> Self {
        Mask(Arc::new(secrets_of))
    }

    /// `line` with its secrets replaced, or `None` when it holds none.
    pub(crate) fn apply(&self, line: &str) -> Option<Masked> {
        let secrets = (self.0)(line);
        if secrets.is_empty() {
            return None;
        }
        let mut text = String::with_capacity(line.len());
        let mut spans = Vec::with_capacity(secrets.len());
        let mut last = 0;
        for (range, marker) in secrets {
            text.push_str(&line[last..range.start]);
            spans.push((range.clone(), text.len()..text.len() + marker.len()));
            text.push_str(&marker);
            last = range.end;
        }
        text.push_str(&line[last..]);
        Some(Masked { text, spans })
    }
}

impl fmt::Debug for Mask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Mask(..)")
    }
}

/// A line with its secrets replaced.
pub(crate) struct Masked {
    pub text: String,
    /// Each secret's bytes in the line and its marker's in `text`.
    spans: Vec<(Range<usize>, Range<usize>)>,
}

impl Masked {
    /// How many markers lie within the bytes `shown` of `text` (a long line is shown in part).
    pub(crate) fn markers_within(&self, shown: Range<usize>) -> u32 {
        let within = self.spans.iter().filter(|(_, marker)| shown.start <= marker.start && marker.end <= shown.end);
        u32::try_from(within.count()).unwrap_or(u32::MAX)
    }

    /// Where the line's bytes `at` are in `text`; a bound inside a secret moves to its marker's.
    pub(crate) fn position(&self, at: Range<usize>) -> Range<usize> {
        self.moved(at.start, false)..self.moved(at.end, true)
    }

    fn moved(&self, byte: usize, end: bool) -> usize {
        let mut shift = 0isize;
        for (secret, marker) in &self.spans {
            if byte < secret.start || (!end && byte == secret.start) {
                break;
            }
            if byte < secret.end || (end && byte == secret.end) {
                return if end { marker.end } else { marker.start };
            }
            shift = marker.end as isize - secret.end as isize;
        }
        byte.saturating_add_signed(shift)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask() -> Mask {
        Mask::new(|line: &str| {
            line.match_indices("SECRET").map(|(at, s)| (at..at + s.len(), "[X]".to_string())).collect()
        })
    }

    #[test]
    fn positions_move_with_the_markers_and_into_them_from_inside_a_secret() {
        let masked = mask().apply("a SECRET b SECRET c").unwrap();
        assert_eq!(masked.text, "a [X] b [X] c");
        assert_eq!(masked.markers_within(0..masked.text.len()), 2);
        assert_eq!(masked.markers_within(0..6), 1);
        // Before, between and after the secrets.
        assert_eq!(masked.position(0..1), 0..1);
        assert_eq!(&masked.text[masked.position(9..10)], "b");
        assert_eq!(&masked.text[masked.position(18..19)], "c");
        // A match inside or over a secret is its marker.
        assert_eq!(&masked.text[masked.position(4..6)], "[X]");
        assert_eq!(&masked.text[masked.position(0..8)], "a [X]");
        assert!(mask().apply("nothing here").is_none());
    }
}
