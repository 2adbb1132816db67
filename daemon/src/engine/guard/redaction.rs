//! The one place texts for an agent pass through the secret redactor.
//!
//! Every component calls [`Redaction::apply`] on what it is about to send
//! (read views, shell output before it is archived, search lines, expand,
//! knowledge, session handoffs), so the agent — and the archive, which keeps
//! only what the agent could see — never receives a secret. The redaction
//! setting is read per request: turning it off takes effect at once.

use std::borrow::Cow;

use lean_ctx_redact::Redactor;

use crate::engine::config::Config;
use crate::engine::surface::Surface;

#[derive(Default)]
pub struct Redaction {
    redactor: Redactor,
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
    /// moved, deleted or swapped keep their own secrets; lines that read the same pair in order.
    /// A marker that stands for no secret is the text it is (a test, a doc), unless a secret of its
    /// kind in `replaced` was given back nowhere: then the edit likely moved it onto a changed
    /// line, and writing the mask would lose it; `Err` names that marker.
    pub fn restore<'n>(&self, config: &Config, replaced: &str, new: &'n str) -> Result<Cow<'n, str>, String> {
        if !config.redaction || !lean_ctx_redact::contains_marker(new) {
            return Ok(Cow::Borrowed(new));
        }
        // Each secret with its marker and the masked text before the marker on its line.
        let secrets: Vec<(lean_ctx_redact::Secret, String)> = {
            let mut masked = String::with_capacity(replaced.len());
            let mut last = 0;
            self.redactor
                .secrets(replaced)
                .into_iter()
                .map(|secret| {
                    masked.push_str(&replaced[last..secret.range.start]);
                    last = secret.range.end;
                    let context = line_before(&masked, masked.len()).to_string();
                    masked.push_str(&secret.marker);
                    (secret, context)
                })
                .collect()
        };
        let mut given = vec![false; secrets.len()];
        let mut literal = Vec::new();
        let mut out = String::with_capacity(new.len());
        let mut last = 0;
        for marker in lean_ctx_redact::markers(new) {
            let wanted = &new[marker.clone()];
            let context = line_before(new, marker.start);
            let found =
                (0..secrets.len()).find(|&i| !given[i] && secrets[i].0.marker == wanted && secrets[i].1 == context);
            out.push_str(&new[last..marker.start]);
            match found {
                Some(i) => {
                    given[i] = true;
                    out.push_str(&replaced[secrets[i].0.range.clone()]);
                }
                None => {
                    literal.push(wanted);
                    out.push_str(wanted);
                }
            }
            last = marker.end;
        }
        out.push_str(&new[last..]);
        let lost =
            |wanted: &str| secrets.iter().zip(&given).any(|((secret, _), given)| !given && secret.marker == wanted);
        match literal.into_iter().find(|wanted| lost(wanted)) {
            Some(marker) => Err(marker.to_string()),
            None => Ok(Cow::Owned(out)),
        }
    }

    /// [`Redaction::apply`] for a text kept in place.
    pub fn apply_in_place(&self, config: &Config, text: &mut String) -> u32 {
        let (masked, count) = self.apply(config, std::mem::take(text));
        *text = masked;
        count
    }
}

/// The text on `text`'s line before byte `at`, indentation left out.
fn line_before(text: &str, at: usize) -> &str {
    text[..at].rsplit('\n').next().unwrap_or_default().trim_start()
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
        // A marker for no secret at all (a test's expectation, a doc) is text.
        let doc = "assert out == \"KEY=[REDACTED:api_key]\"\n";
        assert_eq!(redaction.restore(&config, "", doc).unwrap(), doc);
        assert_eq!(redaction.restore(&config, "DEBUG = False\n", doc).unwrap(), doc);
        // Text without markers, or with redaction off, is written as given.
        assert_eq!(restore("plain").unwrap(), "plain");
        let off = Config { redaction: false, ..Config::default() };
        assert_eq!(redaction.restore(&off, &replaced, &masked).unwrap(), masked);
    }
}
