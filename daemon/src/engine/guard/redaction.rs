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
    /// was means the secret stays. Markers and secrets pair up in order, kind by kind. `Err`
    /// names a marker with no secret of its kind left in `replaced`: writing it would put the
    /// mask in the file, where a real secret was or was never.
    pub fn restore<'n>(&self, config: &Config, replaced: &str, new: &'n str) -> Result<Cow<'n, str>, String> {
        if !config.redaction || !lean_ctx_redact::contains_marker(new) {
            return Ok(Cow::Borrowed(new));
        }
        let secrets = self.redactor.secrets(replaced);
        let mut given = vec![false; secrets.len()];
        let mut out = String::with_capacity(new.len());
        let mut last = 0;
        for marker in lean_ctx_redact::markers(new) {
            let wanted = &new[marker.clone()];
            // The first secret of this kind not yet given back, in the order both were written.
            let Some(at) = (0..secrets.len()).find(|&i| !given[i] && secrets[i].marker == wanted) else {
                return Err(wanted.to_string());
            };
            given[at] = true;
            let secret = &secrets[at];
            out.push_str(&new[last..marker.start]);
            out.push_str(&replaced[secret.range.clone()]);
            last = marker.end;
        }
        out.push_str(&new[last..]);
        Ok(Cow::Owned(out))
    }

    /// [`Redaction::apply`] for a text kept in place.
    pub fn apply_in_place(&self, config: &Config, text: &mut String) -> u32 {
        let (masked, count) = self.apply(config, std::mem::take(text));
        *text = masked;
        count
    }
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
        let github = format!("ghp_{}", "R8xK2mQ9vL4nT7wZ3pY6sB1cF5hJ0dG8aE2u");
        let replaced = format!("TOKEN = \"{github}\"\nDEBUG = False\n");
        let (masked, count) = redaction.apply(&config, replaced.clone());
        assert_eq!(count, 1, "{masked}");
        let new = masked.replace("False", "True");
        assert_eq!(redaction.restore(&config, &replaced, &new).unwrap(), replaced.replace("False", "True"));
        // A marker with no secret of its kind behind it, or one more than there are: refused.
        assert_eq!(redaction.restore(&config, "DEBUG = False\n", &new).unwrap_err(), "[REDACTED:github_token]");
        let twice = format!("{new}{new}");
        assert!(redaction.restore(&config, &replaced, &twice).is_err());
        // Text without markers, or with redaction off, is written as given.
        assert_eq!(redaction.restore(&config, &replaced, "plain"), Ok(Cow::Borrowed("plain")));
        let off = Config { redaction: false, ..Config::default() };
        assert_eq!(redaction.restore(&off, "", &new).unwrap(), new);
    }
}
