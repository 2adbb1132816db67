//! A fact's key is what `list` shows and `forget` and `history` are given back: one line of text.

mod common;

use common::Project;
use lean_ctxd::engine::error::ErrorKind;
use lean_ctxd::engine::memory::actions::KnowledgeParams;

fn knowledge(
    p: &Project,
    action: &str,
    key: &str,
    value: &str,
) -> Result<String, lean_ctxd::engine::error::EngineError> {
    let params = KnowledgeParams { action: action.into(), key: key.into(), value: value.into(), ..Default::default() };
    p.engine.knowledge_action(&p.caller("s"), &params).map(|(text, _)| text)
}

/// QA: `multi\nline` was stored as given and listed as `multi line`, a key that then found no
/// fact (`forget`, `history`); a NUL inside was listed as a space and forgotten as nothing.
#[test]
fn a_key_holding_a_control_character_is_refused_with_what_to_write() {
    let p = Project::new();
    for key in ["multi\nline", "nul\u{0}key", "tab\there"] {
        let e = knowledge(&p, "remember", key, "v").unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument, "{key:?}: {e}");
        assert!(e.message.starts_with("a key is one line of text: this one holds the control character U+00"), "{e}");
        assert!(knowledge(&p, "forget", key, "").unwrap_err().message.starts_with("a key is one line"), "{key:?}");
    }
    let listed = knowledge(&p, "list", "", "").unwrap();
    assert!(!listed.contains("multi") && !listed.contains("nul"), "nothing was stored: {listed}");
    // Spaces around a key are trimmed, as before; one inside is kept.
    knowledge(&p, "remember", "  build command ", "cargo build").unwrap();
    assert!(knowledge(&p, "history", "build command", "").unwrap().contains("cargo build"));
}
