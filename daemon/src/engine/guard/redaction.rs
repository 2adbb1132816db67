//! The one place texts for an agent pass through the secret redactor.
//!
//! Every component calls [`Redaction::apply`] on what it is about to send
//! (read views, shell output before it is archived, search lines, expand,
//! knowledge, session handoffs), so the agent — and the archive, which keeps
//! only what the agent could see — never receives a secret. The redaction
//! setting is read per request: turning it off takes effect at once.

use std::borrow::Cow;
use std::sync::Arc;

use lean_ctx_redact::{MaskedLines, Redactor};

use crate::engine::config::Config;
use crate::engine::surface::Surface;

#[derive(Default)]
pub struct Redaction {
    redactor: Arc<Redactor>,
}

impl Redaction {
    /// `text` with its secrets masked (when redaction is on), and how many
    /// were masked.
    pub fn apply(&self, config: &Config, text: String) -> (String, u32) {
        if !config.redaction {
            return (text, 0);
        }
        let redacted = self.redactor.redact(&text);
        let count = u32::try_from(redacted.total()).unwrap_or(u32::MAX);
        if redacted.is_clean() {
            return (text, 0);
        }
        (redacted.text.into_owned(), count)
    }

    /// `new` with each redaction marker in it given back the secret it stands for in `replaced`,
    /// the text it replaces: the agent saw those lines masked, and a marker kept where its secret
    /// was means the secret stays. A marker stands for the secret of its kind whose line, up to the
    /// marker, reads the same in the masked view (`DEV_TOKEN = "` — indentation aside), so lines
    /// moved, deleted or swapped keep their own secrets. Where several such secrets read the same
    /// (`TOKEN=` under `[prod]` and under `[dev]`), the line before tells them apart; a marker that
    /// still could be either is refused (a QA pass's sections swapped their tokens, and a section
    /// deleted kept the other's token in the one left). A marker that stands for no secret is the
    /// text it is (a test, a doc), unless a secret in `replaced` was given back nowhere: then the
    /// edit likely moved it onto a changed line or wrote another marker over it (another kind's,
    /// or one spelled otherwise: `[redacted:github_token]`, `[REDACTED]`), and writing the mask
    /// would lose it; `Err` names that marker.
    pub fn restore<'n>(&self, config: &Config, replaced: &str, new: &'n str) -> Result<Cow<'n, str>, String> {
        if !config.redaction {
            return Ok(Cow::Borrowed(new));
        }
        // ASCII case only: the byte offsets are `new`'s, for the misspelt markers below.
        let upper = new.to_ascii_uppercase();
        if !upper.contains("[REDACTED") {
            return Ok(Cow::Borrowed(new));
        }
        // Each secret with its marker, the masked text before the marker on its line, and the line before.
        let secrets: Vec<(lean_ctx_redact::Secret, String, String)> = {
            let mut masked = String::with_capacity(replaced.len());
            let mut last = 0;
            self.redactor
                .secrets(replaced)
                .into_iter()
                .map(|secret| {
                    masked.push_str(&replaced[last..secret.range.start]);
                    last = secret.range.end;
                    let context = line_before(&masked, masked.len()).to_string();
                    let above = line_above(&masked, masked.len()).to_string();
                    masked.push_str(&secret.marker);
                    (secret, context, above)
                })
                .collect()
        };
        let markers: Vec<std::ops::Range<usize>> = lean_ctx_redact::markers(new).collect();
        let reads_as = |i: usize, marker: &std::ops::Range<usize>| {
            secrets[i].0.marker == new[marker.clone()] && secrets[i].1 == line_before(new, marker.start)
        };
        // First the markers whose line before reads the same too, then those that can be one secret only.
        let mut given = vec![false; secrets.len()];
        let mut stands_for: Vec<Option<usize>> = vec![None; markers.len()];
        for (m, marker) in markers.iter().enumerate() {
            let above = line_above(new, marker.start);
            let found = (0..secrets.len()).find(|&i| !given[i] && reads_as(i, marker) && secrets[i].2 == above);
            if let Some(i) = found {
                given[i] = true;
                stands_for[m] = Some(i);
            }
        }
        for (m, marker) in markers.iter().enumerate() {
            if stands_for[m].is_some() {
                continue;
            }
            let candidates: Vec<usize> = (0..secrets.len()).filter(|&i| !given[i] && reads_as(i, marker)).collect();
            match candidates[..] {
                [] => {}
                [i] => {
                    given[i] = true;
                    stands_for[m] = Some(i);
                }
                _ => return Err(new[marker.clone()].to_string()),
            }
        }
        let mut out = String::with_capacity(new.len());
        let mut last = 0;
        let mut literal: Vec<String> = Vec::new();
        for (marker, found) in markers.iter().zip(&stands_for) {
            out.push_str(&new[last..marker.start]);
            last = marker.end;
            match found {
                Some(i) => {
                    let secret = &replaced[secrets[*i].0.range.clone()];
                    out.push_str(secret);
                    // A view shows a secret over lines as its marker and the line breaks it spanned
                    // (see `mask_lines`); those kept after the marker are the secret's own.
                    let breaks = secret.matches('\n').count();
                    last = marker.end + kept_breaks(&new[marker.end..], breaks);
                }
                None => {
                    literal.push(new[marker.clone()].to_string());
                    out.push_str(&new[marker.clone()]);
                }
            }
        }
        out.push_str(&new[last..]);
        let lost = given.iter().any(|given| !given);
        // A marker spelled otherwise than a view writes one is no marker to the redactor, but it was meant as one.
        let misspelt = || {
            let exact: Vec<usize> = markers.iter().map(|m| m.start).collect();
            upper.match_indices("[REDACTED").map(|(at, _)| at).find(|at| !exact.contains(at)).map(|at| {
                let end = new[at..].find(']').map_or(new.len(), |end| at + end + 1);
                new[at..end].to_string()
            })
        };
        // A marker for no secret, of a kind the replaced text holds, is a copy of one it cannot make
        // (a QA pass's `BACKUP_TOKEN=[REDACTED:github_token]` beside the token's own line was written
        // as that text); of another kind, with every secret given back, it is text (a test, a doc).
        let copy = literal.iter().find(|marker| secrets.iter().any(|(secret, ..)| secret.marker == **marker));
        match (lost, literal.first(), copy) {
            (true, Some(marker), _) => Err(marker.clone()),
            (true, None, _) => misspelt().map_or(Ok(Cow::Owned(out)), Err),
            (false, _, Some(marker)) => Err(marker.clone()),
            (false, _, None) => Ok(Cow::Owned(out)),
        }
    }

    /// `text` with each secret replaced by its marker followed by the line breaks the secret
    /// spanned, so every line keeps its number (a view's `lines:N-M`, an edit by line number):
    /// a private key's body lines read empty under the marker on its first line. `None` when
    /// redaction is off or `text` holds no secret.
    pub fn mask_lines(&self, config: &Config, text: &str) -> Option<MaskedLines> {
        config.redaction.then(|| self.redactor.mask_lines(text)).flatten()
    }

    /// The lines each secret of `text` spans, in order: where [`Redaction::mask_lines`] puts its
    /// marker and blank lines. Empty when redaction is off.
    pub fn secret_lines(&self, config: &Config, text: &str) -> Vec<std::ops::RangeInclusive<u32>> {
        if !config.redaction {
            return Vec::new();
        }
        self.redactor.secret_lines(text)
    }

    /// The bytes of each secret of `text`, in order: what a view shows as its marker. Empty when
    /// redaction is off (the agent sees the secrets then).
    pub fn secret_spans(&self, config: &Config, text: &str) -> Vec<std::ops::Range<usize>> {
        if !config.redaction {
            return Vec::new();
        }
        self.redactor.secrets(text).into_iter().map(|secret| secret.range).collect()
    }

    /// What masks the secrets of the lines a search shows, when redaction is on.
    pub fn search_mask(&self, config: &Config) -> Option<lean_ctx_search::Mask> {
        config.redaction.then(|| self.mask())
    }

    /// What masks a file's secrets for the search, whatever the redaction setting: the search
    /// index, which serves every request, leaves out what it masks.
    pub fn mask(&self) -> lean_ctx_search::Mask {
        let redactor = self.redactor.clone();
        lean_ctx_search::Mask::new(move |text: &str| {
            let masked = redactor.mask_lines(text)?;
            let markers = masked.markers.into_iter().map(|at| (u64::from(*at.lines.start()), at.column));
            Some(lean_ctx_search::Masked::new(masked.text, markers))
        })
    }

    /// [`Redaction::apply`] for a text kept in place.
    pub fn apply_in_place(&self, config: &Config, text: &mut String) -> u32 {
        let (masked, count) = self.apply(config, std::mem::take(text));
        *text = masked;
        count
    }
}

/// How many bytes of the line breaks at the start of `rest`, at most `breaks` of them, to skip.
fn kept_breaks(rest: &str, breaks: usize) -> usize {
    let mut skipped = 0;
    for _ in 0..breaks {
        let tail = &rest[skipped..];
        skipped += match () {
            _ if tail.starts_with("\r\n") => 2,
            _ if tail.starts_with('\n') => 1,
            _ => break,
        };
    }
    skipped
}

/// The text on `text`'s line before byte `at`, indentation left out.
fn line_before(text: &str, at: usize) -> &str {
    text[..at].rsplit('\n').next().unwrap_or_default().trim_start()
}

/// The whole line above the one holding byte `at` (empty on the first line), trimmed.
fn line_above(text: &str, at: usize) -> &str {
    text[..at].rsplit('\n').nth(1).unwrap_or_default().trim()
}

/// The note a view carries when secrets were masked in it, naming the edit's parameters as the
/// reader writes them.
pub fn note(count: u32, surface: Surface) -> String {
    let s = if count == 1 { "" } else { "s" };
    format!(
        "{count} secret{s} shown as [REDACTED:kind]; an edit whose {} holds a marker is refused: \
         replace the line by its number ({}) instead, keeping the marker where the secret stays",
        surface.old_text(),
        surface.edit_lines()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_kept_where_their_secrets_were_write_the_secrets_back() {
        let redaction = Redaction::default();
        let config = Config::default();
        let (prod, dev) = ("ghp_R8xK2mQ9vL4nT7wZ3pY6sB1cF5hJ0dG8aE2u", "ghp_t3Vq9LmZ2xW7kP4sN8bY1cR6hF0jD5gA2eUo");
        let replaced = format!("PROD_TOKEN = \"{prod}\"\nDEV_TOKEN = \"{dev}\"\nDEBUG = False\n");
        let (masked, count) = redaction.apply(&config, replaced.clone());
        assert_eq!(count, 2, "{masked}");
        let restore = |new: &str| redaction.restore(&config, &replaced, new).map(|text| text.into_owned());
        // One value changed around them: both secrets back where they were.
        assert_eq!(restore(&masked.replace("False", "True")).unwrap(), replaced.replace("False", "True"));
        // A line deleted, lines swapped, re-indented: each marker keeps its own line's secret.
        let dev_line = masked.lines().nth(1).unwrap();
        assert_eq!(restore(&format!("{dev_line}\n")).unwrap(), format!("DEV_TOKEN = \"{dev}\"\n"));
        let prod_line = masked.lines().next().unwrap();
        assert_eq!(
            restore(&format!("  {dev_line}\n{prod_line}\n")).unwrap(),
            format!("  DEV_TOKEN = \"{dev}\"\nPROD_TOKEN = \"{prod}\"\n")
        );
        // A marker moved onto a changed line while its secret is given back nowhere: refused, the
        // secret would be lost.
        assert_eq!(restore("print(\"[REDACTED:github_token]\")\n").unwrap_err(), "[REDACTED:github_token]");
        // QA: another kind's marker where a secret was, that secret given back nowhere: refused too
        // (it was written, and the token lost).
        let other_kind = dev_line.replace("github_token", "openai_key");
        assert_eq!(restore(&format!("{prod_line}\n{other_kind}\n")).unwrap_err(), "[REDACTED:openai_key]");
        // A marker for no secret at all (a test's expectation, a doc) is text.
        let doc = "assert out == \"KEY=[REDACTED:api_key]\"\n";
        assert_eq!(redaction.restore(&config, "", doc).unwrap(), doc);
        assert_eq!(redaction.restore(&config, "DEBUG = False\n", doc).unwrap(), doc);
        // Text without markers, or with redaction off, is written as given.
        assert_eq!(restore("plain").unwrap(), "plain");
        let off = Config { redaction: false, ..Config::default() };
        assert_eq!(redaction.restore(&off, &replaced, &masked).unwrap(), masked);
    }

    /// A second QA pass: markers whose lines read the same (`TOKEN=` in two sections) were paired
    /// in order, so swapping the sections swapped their tokens and deleting one section kept the
    /// other's token; markers spelled otherwise were written as text and the secret lost.
    #[test]
    fn markers_reading_alike_are_told_apart_by_the_line_above_and_misspelt_ones_refused() {
        let redaction = Redaction::default();
        let config = Config::default();
        let (prod, dev) = ("ghp_R8xK2mQ9vL4nT7wZ3pY6sB1cF5hJ0dG8aE2u", "ghp_t3Vq9LmZ2xW7kP4sN8bY1cR6hF0jD5gA2eUo");
        let replaced = format!("[prod]\nTOKEN={prod}\n[dev]\nTOKEN={dev}\n");
        let restore = |new: &str| redaction.restore(&config, &replaced, new).map(|text| text.into_owned());
        let marker = "[REDACTED:github_token]";
        assert_eq!(
            restore(&format!("[dev]\nTOKEN={marker}\n[prod]\nTOKEN={marker}\n")).unwrap(),
            format!("[dev]\nTOKEN={dev}\n[prod]\nTOKEN={prod}\n"),
            "swapped sections keep their own tokens"
        );
        assert_eq!(restore(&format!("[dev]\nTOKEN={marker}\n")).unwrap(), format!("[dev]\nTOKEN={dev}\n"));
        // The lines above changed too: either token could be meant.
        assert_eq!(restore(&format!("[a]\nTOKEN={marker}\n")).unwrap_err(), marker);
        // One secret reading so: no doubt which.
        let one = format!("[prod]\nTOKEN={prod}\n");
        let new = format!("[production]\nTOKEN={marker}\n");
        let renamed = redaction.restore(&config, &one, &new).unwrap();
        assert_eq!(renamed, format!("[production]\nTOKEN={prod}\n"));
        // A second marker of the kind of a secret given back is a copy the edit cannot make.
        let copied = format!("[prod]\nTOKEN={marker}\nBACKUP={marker}\n[dev]\nTOKEN={marker}\n");
        assert_eq!(restore(&copied).unwrap_err(), marker);
        for misspelt in ["[REDACTED:GITHUB_TOKEN]", "[redacted:github_token]", "[REDACTED: github_token]", "[REDACTED]"]
        {
            let new = format!("[prod]\nTOKEN={marker}\n[dev]\nTOKEN={misspelt}\n");
            assert_eq!(restore(&new).unwrap_err(), misspelt, "{misspelt}");
        }
    }

    #[test]
    fn a_key_over_lines_keeps_every_line_in_place_and_an_edit_keeping_it_writes_it_back_once() {
        let redaction = Redaction::default();
        let config = Config::default();
        let body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDM";
        let key = format!("-----BEGIN PRIVATE KEY-----\r\n{body}\r\n{body}\r\n-----END PRIVATE KEY-----");
        let text = format!("a = 1\r\nKEY = \"\"\"{key}\"\"\"\r\nb = 2\r\n");
        let masked = redaction.mask_lines(&config, &text).unwrap();
        assert_eq!(masked.text, "a = 1\r\nKEY = \"\"\"[REDACTED:private_key]\r\n\r\n\r\n\"\"\"\r\nb = 2\r\n");
        assert_eq!(masked.markers.iter().map(|m| m.lines.clone()).collect::<Vec<_>>(), vec![2..=5]);
        assert_eq!(masked.text.lines().count(), text.lines().count());
        // The masked text given back (one value changed): the key once, no blank lines added.
        let edited = masked.text.replace("b = 2", "b = 3");
        assert_eq!(redaction.restore(&config, &text, &edited).unwrap(), text.replace("b = 2", "b = 3"));
        // The marker alone (its blank lines dropped) gives the key back too.
        let joined = masked.text.replace("]\r\n\r\n\r\n", "]");
        assert_eq!(redaction.restore(&config, &text, &joined).unwrap(), text);
        assert!(redaction.mask_lines(&config, "plain\n").is_none());
        assert!(redaction.mask_lines(&Config { redaction: false, ..Config::default() }, &text).is_none());
    }
}
