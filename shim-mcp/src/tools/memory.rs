//! ctx_session, ctx_knowledge and ctx_gain: lean-ctx's parameters →
//! [`lctx::capability::memory`] and [`lctx::capability::gain`].

use lctx::backend::Backend;
use lctx::capability::{gain, memory};
use serde::Deserialize;

use super::{Call, Reply};

#[derive(Deserialize)]
struct SessionArgs {
    action: String,
    #[serde(default)]
    value: String,
    #[serde(default)]
    session_id: String,
    #[serde(default)]
    limit: u32,
}

pub fn session<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: SessionArgs = call.parse()?;
        let session = memory::SessionArgs {
            action: memory::parse_session_action(&args.action)?,
            value: args.value,
            session_id: args.session_id,
            limit: args.limit,
        };
        Ok(memory::session(backend, call.ctx, session).await?)
    })
}

#[derive(Deserialize)]
struct KnowledgeArgs {
    action: String,
    #[serde(default)]
    category: String,
    #[serde(default)]
    key: String,
    #[serde(default)]
    value: String,
    #[serde(default)]
    query: String,
    confidence: Option<f64>,
    #[serde(default)]
    limit: u32,
}

pub fn knowledge<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let a: KnowledgeArgs = call.parse()?;
        let knowledge = memory::KnowledgeArgs {
            action: memory::parse_knowledge_action(&a.action)?,
            category: a.category,
            key: a.key,
            value: a.value,
            query: a.query,
            confidence: a.confidence,
            limit: a.limit,
        };
        Ok(memory::knowledge(backend, call.ctx, knowledge).await?)
    })
}

#[derive(Deserialize)]
struct GainArgs {
    #[serde(default)]
    period: String,
    #[serde(default)]
    group_by: String,
}

pub fn gain<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: GainArgs = call.parse()?;
        let (period, group_by) = (gain::parse_period(&args.period)?, gain::parse_group_by("group_by", &args.group_by)?);
        Ok(gain::gain(backend, call.ctx, gain::Report::Period(period, group_by)).await?)
    })
}
