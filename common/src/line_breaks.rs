//! Keeping a file's line breaks and byte order mark through an edit made by
//! a library that writes `\n` and drops the mark (toml_edit, which edits
//! Codex's config for `lctx setup` and lean-ctx's own `config.toml` for
//! `lctx config set`).
//!
//! The edit runs on the plain text: no mark, every `\r\n` made `\n`. After
//! it, each line the edit kept or changed gets its own break back (lines
//! are matched by a line diff of the plain texts, so a file mixing `\r\n`
//! and `\n` keeps each line's), and each line the edit added gets `\r\n`
//! when the file had any, else `\n` — as the JSON and YAML editors write
//! new lines.

use std::borrow::Cow;

const BOM: char = '\u{feff}';

/// How a text spells what the plain text leaves out.
#[derive(Debug)]
pub struct Breaks<'t> {
    plain: Cow<'t, str>,
    bom: bool,
    /// For each line of the plain text: its break was `\r\n`.
    crlf: Vec<bool>,
}

impl<'t> Breaks<'t> {
    pub fn of(text: &'t str) -> Breaks<'t> {
        let bom = text.starts_with(BOM);
        let body = if bom { &text[BOM.len_utf8()..] } else { text };
        let crlf: Vec<bool> = body.split_inclusive('\n').map(|line| line.ends_with("\r\n")).collect();
        let plain = if crlf.contains(&true) { Cow::Owned(body.replace("\r\n", "\n")) } else { Cow::Borrowed(body) };
        Breaks { plain, bom, crlf }
    }

    /// The text as the library should see it: no byte order mark, `\n` breaks.
    pub fn plain(&self) -> &str {
        &self.plain
    }

    /// `edited`, an edit of [`Self::plain`], spelt as the original text was.
    pub fn put_back(&self, edited: &str) -> String {
        let mut out = String::with_capacity(edited.len() + self.crlf.len() + BOM.len_utf8());
        if self.bom {
            out.push(BOM);
        }
        if !self.crlf.contains(&true) {
            out.push_str(edited);
            return out;
        }
        let new: Vec<&str> = edited.split_inclusive('\n').collect();
        let old: Vec<&str> = self.plain.split_inclusive('\n').collect();
        for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new) {
            // The old lines each new line stands for, in order: a changed line keeps its break too.
            let (old_lines, new_range) = match op {
                similar::DiffOp::Equal { old_index, new_index, len } => {
                    (old_index..old_index + len, new_index..new_index + len)
                }
                similar::DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                    (old_index..old_index + old_len, new_index..new_index + new_len)
                }
                similar::DiffOp::Insert { new_index, new_len, .. } => (0..0, new_index..new_index + new_len),
                similar::DiffOp::Delete { .. } => continue,
            };
            for (k, line) in new[new_range].iter().enumerate() {
                let crlf = k >= old_lines.len() || self.crlf[old_lines.start + k];
                match line.strip_suffix('\n') {
                    Some(content) if crlf => {
                        out.push_str(content);
                        out.push_str("\r\n");
                    }
                    _ => out.push_str(line),
                }
            }
        }
        out
    }

    /// The byte offset in the original text of byte `at` of the plain text.
    pub fn original_offset(&self, at: usize) -> usize {
        let at = at.min(self.plain.len());
        let lines_before = self.plain.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        let crs = self.crlf[..lines_before.min(self.crlf.len())].iter().filter(|&&c| c).count();
        at + crs + if self.bom { BOM.len_utf8() } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An edit as toml_edit makes one: a line changed, a line added, all with `\n`.
    fn edit(plain: &str) -> String {
        plain.replace("b = 2\n", "b = 3\n") + "c = 4\n"
    }

    #[test]
    fn plain_texts_are_borrowed_and_given_back_as_edited() {
        let breaks = Breaks::of("a = 1\nb = 2\n");
        assert!(matches!(breaks.plain, Cow::Borrowed(_)));
        assert_eq!(breaks.put_back(&edit(breaks.plain())), "a = 1\nb = 3\nc = 4\n");
    }

    #[test]
    fn crlf_files_stay_crlf_and_a_byte_order_mark_stays() {
        let breaks = Breaks::of("\u{feff}a = 1\r\nb = 2\r\n");
        assert_eq!(breaks.plain(), "a = 1\nb = 2\n");
        assert_eq!(breaks.put_back(&edit(breaks.plain())), "\u{feff}a = 1\r\nb = 3\r\nc = 4\r\n");
    }

    #[test]
    fn mixed_lines_keep_their_own_breaks_and_new_lines_take_crlf() {
        let text = "# top\r\na = 1\nb = 2\n\r\nz = 9\r\nlast = 0";
        let breaks = Breaks::of(text);
        assert_eq!(breaks.put_back(breaks.plain()), text, "an edit that changes nothing gives the bytes back");
        let edited = breaks.plain().replace("b = 2\n", "b = 3\nnew = 1\n");
        assert_eq!(breaks.put_back(&edited), "# top\r\na = 1\nb = 3\nnew = 1\r\n\r\nz = 9\r\nlast = 0");
    }

    #[test]
    fn offsets_in_the_plain_text_point_at_the_same_place_in_the_original() {
        let text = "\u{feff}a\r\nb\nc\r\nd";
        let breaks = Breaks::of(text);
        for (plain_at, ch) in breaks.plain().char_indices().filter(|(_, ch)| *ch != '\n') {
            assert_eq!(text[breaks.original_offset(plain_at)..].chars().next(), Some(ch), "{plain_at}");
        }
    }
}
