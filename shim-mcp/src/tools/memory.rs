//! ctx_session and ctx_knowledge → the Memory service; ctx_gain → Ledger.
//! The daemon checks actions and renders the text; these only forward.

use lctx::backend::Backend;
use lean_ctx_proto::v1::{GainRequest, KnowledgeRequest, SessionRequest};
use serde::Deserialize;
use tonic::Request;

use super::{Call, Output, Reply};

#[derive(Deserialize)]
struct SessionArgs {
    action: String,
    #[serde(default)]
    value: String,
    #[serde(default)]
    session_id: String,
}

pub fn session<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: SessionArgs = call.parse()?;
        let request =
            SessionRequest { ctx: Some(call.ctx), action: args.action, value: args.value, session_id: args.session_id };
        Ok(Output::ok(backend.memory().session(Request::new(request)).await?.into_inner().text))
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
        let request = KnowledgeRequest {
            ctx: Some(call.ctx),
            action: a.action,
            category: a.category,
            key: a.key,
            value: a.value,
            query: a.query,
            confidence: a.confidence,
            limit: a.limit,
        };
        Ok(Output::ok(backend.memory().knowledge(Request::new(request)).await?.into_inner().text))
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
        let request = GainRequest {
            ctx: Some(call.ctx),
            period: args.period,
            group_by: args.group_by,
            utc_offset_secs: lctx::options::utc_offset_secs(),
        };
        Ok(Output::ok(backend.ledger().gain(Request::new(request)).await?.into_inner().text))
    })
}
