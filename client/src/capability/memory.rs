//! ctx_session and ctx_knowledge. The daemon checks the values and renders
//! the text.

use lean_ctx_proto::v1::{KnowledgeAction, KnowledgeRequest, RequestContext, SessionAction, SessionRequest};
use serde_json::json;

use super::{Answer, Result};
use crate::backend::Backend;

pub const SESSION_ACTIONS: [(&str, SessionAction); 8] = [
    ("status", SessionAction::Status),
    ("task", SessionAction::Task),
    ("finding", SessionAction::Finding),
    ("decision", SessionAction::Decision),
    ("next", SessionAction::Next),
    ("list", SessionAction::List),
    ("load", SessionAction::Load),
    ("handoff", SessionAction::Handoff),
];

pub const SESSION_ACTION_NAMES: [&str; 8] = super::names(&SESSION_ACTIONS);

pub fn parse_session_action(name: &str) -> Result<SessionAction> {
    super::parse_name("session action", name, &SESSION_ACTIONS)
}

#[derive(Debug, Clone)]
pub struct SessionArgs {
    pub action: SessionAction,
    /// The text of task, finding, decision and next.
    pub value: String,
    /// The session to act on; empty means the context's.
    pub session_id: String,
    /// list: at most this many sessions; 0 means the daemon's default.
    pub limit: u32,
}

pub async fn session(backend: &Backend, ctx: RequestContext, args: SessionArgs) -> Result<Answer> {
    let request = SessionRequest {
        ctx: Some(ctx),
        action: args.action as i32,
        value: args.value,
        session_id: args.session_id,
        limit: args.limit,
    };
    let out = backend.memory().session(request).await?.into_inner();
    let json = json!({"session_id": out.session_id, "text": out.text});
    Ok(Answer::ok(out.text, json))
}

pub const KNOWLEDGE_ACTIONS: [(&str, KnowledgeAction); 5] = [
    ("remember", KnowledgeAction::Remember),
    ("recall", KnowledgeAction::Recall),
    ("forget", KnowledgeAction::Forget),
    ("list", KnowledgeAction::List),
    ("history", KnowledgeAction::History),
];

pub const KNOWLEDGE_ACTION_NAMES: [&str; 5] = super::names(&KNOWLEDGE_ACTIONS);

pub fn parse_knowledge_action(name: &str) -> Result<KnowledgeAction> {
    super::parse_name("knowledge action", name, &KNOWLEDGE_ACTIONS)
}

#[derive(Debug, Clone)]
pub struct KnowledgeArgs {
    pub action: KnowledgeAction,
    pub category: String,
    pub key: String,
    pub value: String,
    /// recall: free text, ranked by full-text search.
    pub query: String,
    pub confidence: Option<f64>,
    /// 0 means the daemon's default.
    pub limit: u32,
}

pub async fn knowledge(backend: &Backend, ctx: RequestContext, args: KnowledgeArgs) -> Result<Answer> {
    let request = KnowledgeRequest {
        ctx: Some(ctx),
        action: args.action as i32,
        category: args.category,
        key: args.key,
        value: args.value,
        query: args.query,
        confidence: args.confidence,
        limit: args.limit,
    };
    let out = backend.memory().knowledge(request).await?.into_inner();
    let facts: Vec<_> = out
        .facts
        .iter()
        .map(|f| {
            json!({"category": f.category, "key": f.key, "value": f.value, "confidence": f.confidence,
                   "source_session": f.source_session, "created_ms": f.created_ms, "confirmed_ms": f.confirmed_ms,
                   "state": f.state().as_str_name().trim_start_matches("FACT_STATE_").to_ascii_lowercase()})
        })
        .collect();
    Ok(Answer::ok(out.text, json!({"facts": facts})))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_parse_by_their_reference_names() {
        assert_eq!(parse_session_action("handoff").unwrap(), SessionAction::Handoff);
        assert_eq!(parse_knowledge_action("recall").unwrap(), KnowledgeAction::Recall);
        assert!(parse_session_action("save").is_err());
        assert!(parse_knowledge_action("").is_err());
    }
}
