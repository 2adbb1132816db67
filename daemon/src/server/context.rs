//! The FileContext service: Read and Edit, run on the blocking pool.

use std::sync::Arc;

use lean_ctx_proto::v1::file_context_server::FileContext;
use lean_ctx_proto::v1::{
    EditRequest, EditResponse, FileView, ReadRequest, ReadResponse, RuleInfo, RuleText, RulesRequest, RulesResponse,
};
use tonic::{Request, Response, Status};

use super::blocking::{CancelOnDrop, blocking, caller, surface};
use super::host::Host;
use super::status::{engine_status, missing_context};
use super::wire;
use crate::engine::Engine;
use crate::engine::cancel::Cancel;
use crate::engine::edit::EditParams;
use crate::engine::read::ReadParams;

#[derive(Clone)]
pub struct ContextService {
    engine: Arc<Engine>,
    host: Arc<Host>,
}

impl ContextService {
    pub fn new(engine: Arc<Engine>, host: Arc<Host>) -> Self {
        ContextService { engine, host }
    }
}

#[tonic::async_trait]
impl FileContext for ContextService {
    async fn read(&self, request: Request<ReadRequest>) -> Result<Response<ReadResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        self.engine.sessions.touch(&ctx.session_id);
        let params = ReadParams {
            paths: req.paths,
            mode: wire::mode_text(wire::known(req.mode, "mode")?, &req.ranges),
            fresh: req.fresh,
            start_line: req.start_line,
            limit: req.limit,
            cancel: Cancel::default(),
            surface: surface(&ctx),
        };
        let _cancel_on_drop = CancelOnDrop(params.cancel.clone());
        let engine = self.engine.clone();
        let views = blocking(move || engine.read(&caller(&ctx), &params)).await?.map_err(engine_status)?;
        let files = views
            .into_iter()
            .map(|v| match v {
                Ok(v) => {
                    let (mode, ranges) = wire::mode_of(&v.mode);
                    FileView {
                        path: v.path,
                        mode: mode as i32,
                        ranges,
                        content: v.content,
                        raw_tokens: v.raw_tokens,
                        sent_tokens: v.sent_tokens,
                        stub: v.stub,
                        language: v.language,
                        lines: v.lines,
                        content_hash: v.content_hash,
                        note: v.note,
                        error: String::new(),
                        rules: v
                            .rules
                            .into_iter()
                            .map(|r| RuleText { path: r.path, why: r.why, body: r.body })
                            .collect(),
                        redacted: v.redacted,
                    }
                }
                Err(e) => FileView { error: e.message, ..FileView::default() },
            })
            .collect();
        Ok(Response::new(ReadResponse { meta: Some(self.host.meta()), files }))
    }

    async fn edit(&self, request: Request<EditRequest>) -> Result<Response<EditResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        self.engine.sessions.touch(&ctx.session_id);
        let params = EditParams {
            path: req.path,
            old_string: req.old_string,
            new_string: req.new_string,
            replace_all: req.replace_all,
            create: req.create,
            lines: match (req.start_line, req.end_line) {
                (None, None) => None,
                (Some(start), end) => Some((start, end.unwrap_or(start))),
                (None, Some(_)) => return Err(Status::invalid_argument("end_line needs start_line")),
            },
            cancel: Cancel::default(),
            surface: surface(&ctx),
        };
        let _cancel_on_drop = CancelOnDrop(params.cancel.clone());
        let engine = self.engine.clone();
        let out = blocking(move || engine.edit(&caller(&ctx), &params)).await?.map_err(engine_status)?;
        Ok(Response::new(EditResponse {
            meta: Some(self.host.meta()),
            path: out.path,
            replacements: out.replacements,
            tokens_before: out.tokens_before,
            tokens_after: out.tokens_after,
            created: out.created,
            content_hash: out.content_hash,
        }))
    }

    async fn rules(&self, request: Request<RulesRequest>) -> Result<Response<RulesResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        self.engine.sessions.touch(&ctx.session_id);
        let engine = self.engine.clone();
        let listing = blocking(move || engine.list_rules(&caller(&ctx), &req.path)).await?.map_err(engine_status)?;
        Ok(Response::new(RulesResponse {
            meta: Some(self.host.meta()),
            host: listing.host,
            path: listing.path,
            rules: listing
                .rules
                .into_iter()
                .map(|r| RuleInfo {
                    path: r.path,
                    why: r.why,
                    delivered: r.delivered,
                    session_start: r.session_start,
                    tokens: r.tokens,
                })
                .collect(),
            notes: listing.notes,
        }))
    }
}
