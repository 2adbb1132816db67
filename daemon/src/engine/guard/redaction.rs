//! The one place texts for an agent pass through the secret redactor.
//!
//! Every component calls [`Redaction::apply`] on what it is about to send
//! (read views, shell output before it is archived, search lines, expand,
//! knowledge, session handoffs), so the agent — and the archive, which keeps
//! only what the agent could see — never receives a secret. The redaction
//! setting is read per request: turning it off takes effect at once.

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
         replace the line by its number ({}) instead",
        surface.old_text(),
        surface.edit_lines()
    )
}
