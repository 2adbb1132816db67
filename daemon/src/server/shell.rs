//! The Shell service: Exec (foreground or background), Compress, Expand, Jobs.

use std::sync::Arc;

use lean_ctx_common::framing;
use lean_ctx_guard::permissions::Verdict;
use lean_ctx_proto::v1::shell_server::Shell;
use lean_ctx_proto::v1::{
    ArchiveHit, CheckRequest, CheckResponse, CompressRequest, CompressResponse, ExecRequest, ExecResponse,
    ExpandRequest, ExpandResponse, FileStamp, Job, JobsAction, JobsRequest, JobsResponse, Permission, Shaped,
};
use tonic::{Request, Response, Status};

use super::blocking::{CancelOnDrop, blocking, caller, surface};
use super::heap;
use super::host::Host;
use super::status::{engine_status, missing_context};
use super::wire;
use crate::engine::Engine;
use crate::engine::cancel::Cancel;
use crate::engine::guard::permissions::shell_refusal;
use crate::engine::shell::expand::ExpandParams;
use crate::engine::shell::run::RunParams;
use crate::engine::shell::shape;

#[derive(Clone)]
pub struct ShellService {
    engine: Arc<Engine>,
    host: Arc<Host>,
}

impl ShellService {
    pub fn new(engine: Arc<Engine>, host: Arc<Host>) -> Self {
        ShellService { engine, host }
    }
}

fn shaped(s: shape::Shaped) -> Shaped {
    Shaped {
        text: s.text,
        family: s.family,
        shortened: s.shortened,
        archive_id: s.archive_id.unwrap_or_default(),
        raw_tokens: s.raw_tokens,
        sent_tokens: s.sent_tokens,
    }
}

fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[tonic::async_trait]
impl Shell for ShellService {
    async fn exec(&self, request: Request<ExecRequest>) -> Result<Response<ExecResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        let params = RunParams {
            command: req.command,
            env: req.env.into_iter().collect(),
            given: req.given_env.into_iter().collect(),
            // timeout_ms (protocol 10) to the millisecond; whole seconds from older clients.
            timeout_ms: if req.timeout_ms > 0 { req.timeout_ms } else { u64::from(req.timeout_secs) * 1000 },
            raw: req.raw,
            workdir: req.cwd,
        };
        let engine = self.engine.clone();
        if req.background {
            let id = blocking(move || {
                let id = engine.start_job(&caller(&ctx), &params)?;
                engine.account_job_answer(&caller(&ctx), &framing::job_started(id, surface(&ctx)), 0);
                Ok(id)
            })
            .await?
            .map_err(engine_status)?;
            return Ok(Response::new(ExecResponse { meta: Some(self.host.meta()), job_id: id, ..Default::default() }));
        }
        let cancel = Cancel::default();
        let _cancel_on_drop = CancelOnDrop(cancel.clone());
        let (outcome, out) =
            blocking(move || engine.run_command(&caller(&ctx), &params, &cancel)).await?.map_err(engine_status)?;
        let response = ExecResponse {
            meta: Some(self.host.meta()),
            output: Some(shaped(out)),
            exit_code: outcome.exit_code,
            timed_out: outcome.timed_out,
            duration_ms: millis(outcome.duration),
            job_id: 0,
        };
        let captured = outcome.output.len();
        drop(outcome);
        heap::trim_after(captured);
        Ok(Response::new(response))
    }

    async fn compress(&self, request: Request<CompressRequest>) -> Result<Response<CompressResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        let engine = self.engine.clone();
        let received = req.output.len();
        let out = blocking(move || {
            let caller = caller(&ctx);
            let scope = engine.scope_of(&caller)?;
            let project = scope.root.display().to_string();
            Ok(engine.shape_output(&caller, &project, &req.command, &req.output, req.exit_code, req.raw))
        })
        .await?
        .map_err(engine_status)?;
        heap::trim_after(received);
        Ok(Response::new(CompressResponse { meta: Some(self.host.meta()), output: Some(shaped(out)) }))
    }

    async fn expand(&self, request: Request<ExpandRequest>) -> Result<Response<ExpandResponse>, Status> {
        let req = request.into_inner();
        let _guard = self.host.begin_request();
        let engine = self.engine.clone();
        if !req.search.trim().is_empty() {
            let ctx = req.ctx.ok_or_else(missing_context)?;
            let (hits, total) = blocking(move || engine.archive_search(&caller(&ctx), &req.search, req.limit))
                .await?
                .map_err(engine_status)?;
            let mut text = hits
                .iter()
                .map(|h| format!("{} · {} · {}", h.id, h.label, h.snippet.replace('\n', " ")))
                .collect::<Vec<_>>()
                .join("\n");
            let shown = hits.len();
            let total = usize::try_from(total).unwrap_or(usize::MAX);
            text.push_str(&crate::engine::memory::render::left_out(total, shown, "archived output"));
            let hits = hits
                .into_iter()
                .map(|h| ArchiveHit { id: h.id, label: h.label, created_ms: h.created_ms, snippet: h.snippet })
                .collect();
            return Ok(Response::new(ExpandResponse { meta: Some(self.host.meta()), text, total_lines: 0, hits }));
        }
        if req.id.trim().is_empty() {
            return Err(Status::invalid_argument("give the id printed under the shortened output, or a search"));
        }
        let params = ExpandParams {
            id: req.id,
            start_line: req.start_line,
            end_line: req.end_line,
            grep: req.grep,
            limit: req.limit,
            surface: req.ctx.as_ref().map(surface).unwrap_or_default(),
        };
        let (text, total_lines) = blocking(move || engine.expand(&params)).await?.map_err(engine_status)?;
        Ok(Response::new(ExpandResponse { meta: Some(self.host.meta()), text, total_lines, hits: Vec::new() }))
    }

    async fn jobs(&self, request: Request<JobsRequest>) -> Result<Response<JobsResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        let engine = self.engine.clone();
        let asked: JobsAction = wire::known(req.action, "action")?;
        let (action, question) = (wire::jobs_action(asked), asked.question());
        let (id, all_sessions) = (req.id, req.all_sessions);
        let (views, ctx) =
            blocking(move || engine.job_action(&caller(&ctx), action, id, all_sessions).map(|v| (v, ctx)))
                .await?
                .map_err(engine_status)?;
        let mut jobs = Vec::new();
        for v in views {
            let (exit_code, timed_out, cancelled) = match &v.info.outcome {
                Some(Ok(o)) => (o.exit_code, o.timed_out, o.cancelled),
                _ => (0, false, false),
            };
            let output = match v.shaped {
                Some(Ok(s)) => Some(shaped(s)),
                Some(Err(e)) => return Err(engine_status(e)),
                None => None,
            };
            jobs.push(Job {
                id: v.info.id,
                command: v.info.command,
                running: v.info.outcome.is_none(),
                cancelling: v.info.outcome.is_none() && v.info.cancel_requested,
                session: v.info.origin.session,
                yours: v.yours,
                exit_code,
                elapsed_ms: millis(v.info.elapsed),
                timed_out,
                cancelled,
                output,
            });
        }
        // What the client shows beside the outputs, booked as the client builds it.
        let shown: Vec<_> = jobs.iter().map(Job::shown).collect();
        let answer = framing::jobs_answer(&shown, question, all_sessions, surface(&ctx));
        let outputs_sent = jobs.iter().filter_map(|j| j.output.as_ref()).map(|o| o.sent_tokens).sum();
        let engine = self.engine.clone();
        blocking(move || engine.account_job_answer(&caller(&ctx), &answer, outputs_sent)).await?;
        Ok(Response::new(JobsResponse { meta: Some(self.host.meta()), jobs }))
    }

    async fn check(&self, request: Request<CheckRequest>) -> Result<Response<CheckResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        let engine = self.engine.clone();
        let check =
            blocking(move || engine.check_command(&caller(&ctx), &req.command)).await?.map_err(engine_status)?;
        let permission = match check.verdict {
            Verdict::Allow => Permission::Allow,
            Verdict::Deny { .. } => Permission::Deny,
            Verdict::Ask { .. } => Permission::Ask,
        };
        let allowed_while_unchanged = check
            .allowed_while_unchanged
            .into_iter()
            .map(|(path, stamp)| FileStamp {
                path: path.display().to_string(),
                exists: stamp.exists,
                inode: stamp.inode,
                size: stamp.size,
                mtime_ns: stamp.mtime_ns,
            })
            .collect();
        Ok(Response::new(CheckResponse {
            meta: Some(self.host.meta()),
            permission: permission.into(),
            message: shell_refusal(&check.verdict).unwrap_or_default(),
            allowed_while_unchanged,
        }))
    }
}
