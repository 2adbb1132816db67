//! How a client frames what a read sends beside a file's content: its note, and an instruction
//! file delivered with it. The daemon counts the framed text (the ledger's "sent" is what the
//! agent receives, docs/accounting.md), so both sides build it here.

/// A read's note as shown after the content: `[note]`.
pub fn note(note: &str) -> String {
    format!("[{note}]")
}

/// An instruction file delivered with a read, fenced so the agent can tell it from the file's
/// content.
pub fn rules(path: &str, why: &str, body: &str) -> String {
    format!("[rules from {path} ({why}) — follow them for this file]\n{body}\n[end of {path}]\n")
}
