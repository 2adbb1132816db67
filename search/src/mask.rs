//! Secrets the caller may not see in what a search shows. The caller's redactor masks a file's
//! whole text (a private key spans lines), and the search reads the masked text instead:
//! a regex matches it, lines are cut around their matches in it, bm25 and symbol search show its
//! lines. So no cut leaves part of a secret showing, no line of a key's body is shown, and which
//! lines match cannot spell out a secret one character class at a time.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

/// Given a file's text, that text with its secrets masked (see [`Masked::new`]), or `None` when
/// it holds none. Called on the search's threads.
#[derive(Clone)]
pub struct Mask(Arc<MaskOf>);

type MaskOf = dyn Fn(&str) -> Option<Masked> + Send + Sync;

impl Mask {
    pub fn new(mask_of: impl Fn(&str) -> Option<Masked> + Send + Sync + 'static) -> Self {
        Mask(Arc::new(mask_of))
    }

    pub(crate) fn apply(&self, text: &str) -> Option<Masked> {
        (self.0)(text)
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

/// `text` as a word search ranks it: with its secrets (as `mask` finds them) and their markers left
/// out, so a secret's own word finds no file. A ranked hit, even on a masked line, would tell that
/// the value is written in that file, and a query could confirm a guessed key word by word.
pub(crate) fn searchable<'t>(text: &'t str, mask: Option<&Mask>) -> Cow<'t, str> {
    match mask.and_then(|mask| mask.apply(text)) {
        Some(masked) => Cow::Owned(masked.unmarked()),
        None => Cow::Borrowed(text),
    }
}

/// A text with its secrets masked, each replaced by a marker followed by the line breaks the
/// secret spanned, so every line keeps its number (the caller's redactor writes it).
pub struct Masked {
    pub(crate) text: String,
    /// Each line's markers (1-based line numbers), as byte ranges of the line.
    markers: BTreeMap<u64, Vec<Range<usize>>>,
}

impl Masked {
    /// `text` masked, and each marker's line (1-based) with its bytes on that line.
    pub fn new(text: String, markers: impl IntoIterator<Item = (u64, Range<usize>)>) -> Masked {
        let mut by_line: BTreeMap<u64, Vec<Range<usize>>> = BTreeMap::new();
        for (line, column) in markers {
            by_line.entry(line).or_default().push(column);
        }
        Masked { text, markers: by_line }
    }

    /// The masked text with each marker blanked: what a word search may rank by. A marker's own
    /// words (`[REDACTED:api_key]`) would rank every file holding a secret for `api`.
    fn unmarked(&self) -> String {
        let mut out = String::with_capacity(self.text.len());
        for (line, text) in (1..).zip(self.text.split_inclusive('\n')) {
            let mut last = 0;
            for marker in self.markers.get(&line).map_or(&[][..], Vec::as_slice) {
                // A marker is ASCII, so blanking its bytes keeps the text valid UTF-8.
                out.push_str(&text[last..marker.start]);
                out.extend(std::iter::repeat_n(' ', marker.len()));
                last = marker.end;
            }
            out.push_str(&text[last..]);
        }
        out
    }

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

    #[test]
    fn each_line_knows_the_markers_it_shows() {
        let masked =
            Masked::new("a [X] b [X] c\n[KEY]\n\nlast [X]\n".into(), [(1, 2..5), (1, 8..11), (2, 0..5), (4, 5..8)]);
        assert_eq!(masked.markers_within(1, 0..13), 2);
        assert_eq!(masked.markers_within(1, 0..6), 1);
        assert_eq!(masked.markers_within(2, 0..5), 1);
        assert_eq!(masked.markers_within(3, 0..0), 0);
        assert_eq!(masked.markers_within(4, 0..8), 1);
    }

    #[test]
    fn a_searchable_text_has_neither_the_secrets_nor_their_markers() {
        let mask = Mask::new(|text: &str| {
            let at = text.find("s3cr3t")?;
            let masked = text.replacen("s3cr3t", "[X]", 1);
            let line = text[..at].matches('\n').count() as u64 + 1;
            let column = at - text[..at].rfind('\n').map_or(0, |n| n + 1);
            Some(Masked::new(masked, [(line, column..column + 3)]))
        });
        assert_eq!(searchable("é\nkey = s3cr3t; x\r\nz\n", Some(&mask)), "é\nkey =    ; x\r\nz\n");
        assert!(matches!(searchable("plain words\n", Some(&mask)), Cow::Borrowed("plain words\n")));
        assert_eq!(searchable("key = s3cr3t", None), "key = s3cr3t");
    }
}
