//! ctx_rules: the host's instruction files that apply to a path, and
//! whether this session has them.

use lean_ctx_proto::v1::{RequestContext, RulesRequest, RulesResponse};
use serde_json::json;

use super::{Answer, Result};
use crate::backend::Backend;

pub async fn rules(backend: &Backend, ctx: RequestContext, path: String) -> Result<Answer> {
    let out = backend.context().rules(RulesRequest { ctx: Some(ctx), path }).await?.into_inner();
    let rules: Vec<_> = out
        .rules
        .iter()
        .map(|r| {
            json!({"path": r.path, "why": r.why, "delivered": r.delivered, "session_start": r.session_start,
                   "tokens": r.tokens})
        })
        .collect();
    let json = json!({"host": out.host, "path": out.path, "rules": rules, "notes": out.notes});
    Ok(Answer::ok(render(&out), json))
}

/// One line per rule file: where it is, why it applies, whether this
/// session has it; then the notes.
fn render(out: &RulesResponse) -> String {
    // The engine shows the project root as an empty path.
    let path = if out.path.is_empty() { "the project root" } else { &out.path };
    let mut text = match (out.host.as_str(), out.rules.is_empty()) {
        ("none", _) => format!(
            "no instruction files apply to {path}: the host is `none` (name one with --host, or set rules_host in \
             the config)\n"
        ),
        (host, true) => format!("no {host} instruction files apply to {path}\n"),
        (host, false) => format!("{host} instruction files for {path}:\n"),
    };
    for r in &out.rules {
        let state = if r.session_start {
            "loaded by the host at session start"
        } else if r.delivered {
            "delivered to this session"
        } else {
            "not yet delivered (comes with the next read of a file it covers)"
        };
        text.push_str(&format!("  {} ({}, {} tokens): {state}\n", r.path, r.why, r.tokens));
    }
    for note in &out.notes {
        text.push_str(&format!("note: {note}\n"));
    }
    text
}

#[cfg(test)]
mod tests {
    use lean_ctx_proto::v1::RuleInfo;

    use super::*;

    #[test]
    fn each_rule_says_whether_the_session_has_it() {
        let rule = |path: &str, delivered, session_start| RuleInfo {
            path: path.into(),
            why: "nested CLAUDE.md".into(),
            delivered,
            session_start,
            tokens: 12,
        };
        let out = RulesResponse {
            host: "claude-code".into(),
            path: "src/a.rs".into(),
            rules: vec![rule("CLAUDE.md", false, true), rule("src/CLAUDE.md", true, false)],
            notes: vec!["src/.claude/rules/x.md: front matter not closed".into()],
            ..Default::default()
        };
        assert_eq!(
            render(&out),
            "claude-code instruction files for src/a.rs:\n\
             \x20 CLAUDE.md (nested CLAUDE.md, 12 tokens): loaded by the host at session start\n\
             \x20 src/CLAUDE.md (nested CLAUDE.md, 12 tokens): delivered to this session\n\
             note: src/.claude/rules/x.md: front matter not closed\n"
        );
        let none = RulesResponse { host: "codex".into(), path: "a.rs".into(), ..Default::default() };
        assert_eq!(render(&none), "no codex instruction files apply to a.rs\n");
        let root = RulesResponse { host: "codex".into(), ..Default::default() };
        assert_eq!(render(&root), "no codex instruction files apply to the project root\n");
        let off = RulesResponse { host: "none".into(), path: "a.rs".into(), ..Default::default() };
        assert!(render(&off).starts_with("no instruction files apply to a.rs: the host is `none`"), "{}", render(&off));
    }
}
