//! The Memory and Ledger services: sessions, knowledge, gain, verify.

use std::sync::Arc;

use lean_ctx_proto::v1::ledger_server::Ledger;
use lean_ctx_proto::v1::memory_server::Memory;
use lean_ctx_proto::v1::{
    Fact, GainRequest, GainResponse, GainRow, KnowledgeRequest, KnowledgeResponse, SessionRequest, SessionResponse,
    Unrecorded, VerifyRequest, VerifyResponse,
};
use tonic::{Request, Response, Status};

use super::blocking::{blocking, caller, surface};
use super::host::Host;
use super::status::{engine_status, missing_context};
use super::wire;
use crate::engine::Engine;
use crate::engine::memory::actions::KnowledgeParams;
use crate::engine::memory::render;

#[derive(Clone)]
pub struct MemoryService {
    engine: Arc<Engine>,
    host: Arc<Host>,
}

impl MemoryService {
    pub fn new(engine: Arc<Engine>, host: Arc<Host>) -> Self {
        MemoryService { engine, host }
    }
}

fn fact(f: lean_ctx_store::Fact) -> Fact {
    Fact {
        category: f.category,
        key: f.key,
        value: f.value,
        confidence: f.confidence,
        source_session: f.source_session.unwrap_or_default(),
        created_ms: f.created_ms,
        confirmed_ms: f.confirmed_ms,
        state: wire::fact_state(f.state) as i32,
    }
}

fn wire_unrecorded(lost: &crate::engine::memory::Unrecorded) -> Unrecorded {
    Unrecorded { events: lost.events(), since_ms: lost.since_ms, error: lost.error.clone(), note: lost.note() }
}

#[tonic::async_trait]
impl Memory for MemoryService {
    async fn session(&self, request: Request<SessionRequest>) -> Result<Response<SessionResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        let action = wire::session_action(wire::known(req.action, "action")?);
        let engine = self.engine.clone();
        let answer = blocking(move || {
            let mut answer = engine.session_action(&caller(&ctx), action, &req.value, &req.session_id, req.limit)?;
            // Findings and handoffs may quote what an agent pasted.
            engine.guard.redaction.apply_in_place(&engine.config.get(), &mut answer.text);
            Ok(answer)
        })
        .await?
        .map_err(engine_status)?;
        Ok(Response::new(SessionResponse {
            meta: Some(self.host.meta()),
            text: answer.text,
            session_id: answer.session_id,
        }))
    }

    async fn knowledge(&self, request: Request<KnowledgeRequest>) -> Result<Response<KnowledgeResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        let params = KnowledgeParams {
            action: wire::knowledge_action(wire::known(req.action, "action")?).to_string(),
            category: req.category,
            key: req.key,
            value: req.value,
            query: req.query,
            confidence: req.confidence,
            limit: req.limit,
            surface: surface(&ctx),
        };
        let engine = self.engine.clone();
        let (text, facts) = blocking(move || {
            let (mut text, mut facts) = engine.knowledge_action(&caller(&ctx), &params)?;
            let config = engine.config.get();
            engine.guard.redaction.apply_in_place(&config, &mut text);
            for fact in &mut facts {
                engine.guard.redaction.apply_in_place(&config, &mut fact.value);
            }
            Ok((text, facts))
        })
        .await?
        .map_err(engine_status)?;
        Ok(Response::new(KnowledgeResponse {
            meta: Some(self.host.meta()),
            text,
            facts: facts.into_iter().map(fact).collect(),
        }))
    }
}

#[tonic::async_trait]
impl Ledger for MemoryService {
    async fn gain(&self, request: Request<GainRequest>) -> Result<Response<GainResponse>, Status> {
        let req = request.into_inner();
        let _guard = self.host.begin_request();
        let period = wire::gain_period(wire::known(req.period, "period")?);
        let group_by = wire::gain_group_by(wire::known(req.group_by, "group_by")?);
        let engine = self.engine.clone();
        let (rows, text, unrecorded) = blocking(move || engine.gain(period, group_by, req.days, req.utc_offset_secs))
            .await?
            .map_err(engine_status)?;
        let rows = rows
            .into_iter()
            .map(|r| GainRow {
                key: render::row_key(r.key.as_deref(), group_by),
                events: r.events,
                raw_tokens: r.raw_tokens,
                sent_tokens: r.sent_tokens,
                saved_tokens: r.saved_tokens,
                saved_pct: r.saved_pct,
            })
            .collect();
        Ok(Response::new(GainResponse {
            meta: Some(self.host.meta()),
            rows,
            text,
            unrecorded: unrecorded.as_ref().map(wire_unrecorded),
        }))
    }

    async fn verify(&self, request: Request<VerifyRequest>) -> Result<Response<VerifyResponse>, Status> {
        drop(request);
        let _guard = self.host.begin_request();
        let engine = self.engine.clone();
        let (records, broken, reset, unrecorded) = blocking(move || {
            let (records, broken) = engine.verify_ledger()?;
            Ok((records, broken, engine.memory_reset(), engine.ledger_unrecorded()))
        })
        .await?
        .map_err(engine_status)?;
        let (broken_id, reason) = broken.clone().unwrap_or_default();
        Ok(Response::new(VerifyResponse {
            meta: Some(self.host.meta()),
            ok: broken.is_none(),
            records,
            broken_id,
            reason,
            reset: reset.as_ref().map(|reset| reset.ledger_note()).unwrap_or_default(),
            reset_note: reset.as_ref().map(crate::engine::memory::Reset::notice).unwrap_or_default(),
            unrecorded: unrecorded.as_ref().map(wire_unrecorded),
        }))
    }
}
