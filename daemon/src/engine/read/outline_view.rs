//! The parser-backed views (signatures, map, aggressive) through the
//! `lean-ctx-outline` crate. A grammar that panics is contained there; the
//! fallback outline it returns is used, and logged once per language.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use lean_ctx_outline::{Language, aggressive, outline, render_map, render_signatures};

use super::cache::Slot;

/// The language of the file at `path` holding `text`: by its path, or a script's by its `#!` line.
pub fn language_of(path: &Path, text: &str) -> Option<Language> {
    Language::detect(path, text)
}

/// Languages whose degraded outline has been logged (one bit each).
pub struct DegradedLog(AtomicU64);

impl Default for DegradedLog {
    fn default() -> Self {
        DegradedLog(AtomicU64::new(0))
    }
}

impl DegradedLog {
    fn first_time(&self, language: Language) -> bool {
        let bit = 1u64 << (language as u32 % 64);
        self.0.fetch_or(bit, Ordering::Relaxed) & bit == 0
    }
}

/// Renders one parser-backed view; `Slot::Content` is not one of them.
pub fn render(slot: Slot, language: Language, text: &str, log: &DegradedLog) -> String {
    if slot == Slot::Aggressive {
        return aggressive(language, text);
    }
    let tree = outline(language, text);
    if let Some(why) = &tree.degraded
        && log.first_time(language)
    {
        tracing::warn!(language = language.name(), "outline fell back to a simpler parser: {why}");
    }
    match slot {
        Slot::Signatures => render_signatures(&tree),
        _ => render_map(&tree),
    }
}
