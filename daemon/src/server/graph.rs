//! The Graph service: Callgraph, Repomap (Related and Impact in `graph_files.rs`).

use std::sync::Arc;

use lean_ctx_graph::{DefSummary, Edge, Label};
use lean_ctx_proto::v1::graph_server::Graph;
use lean_ctx_proto::v1::{
    CallEdge, CallgraphAction, CallgraphRequest, CallgraphResponse, CodeDefinition, ImpactRequest, ImpactResponse,
    MapDefinition, MapFile, RelatedRequest, RelatedResponse, RepomapRequest, RepomapResponse, RequestContext,
    Resolution,
};
use tonic::{Request, Response, Status};

use super::blocking::{CancelOnDrop, blocking, caller, surface};
use super::host::Host;
use super::status::{engine_status, missing_context};
use super::wire;
use crate::engine::cancel::Cancel;
use crate::engine::error::EngineResult;
use crate::engine::graph::callgraph::{Action, CallgraphParams};
use crate::engine::graph::repomap::{self, RepomapParams};
use crate::engine::{Caller, Engine};

#[derive(Clone)]
pub struct GraphService {
    pub(super) engine: Arc<Engine>,
    pub(super) host: Arc<Host>,
}

impl GraphService {
    pub fn new(engine: Arc<Engine>, host: Arc<Host>) -> Self {
        GraphService { engine, host }
    }

    /// Runs `query` for the request's caller on the blocking pool, with the root of the
    /// project it answers for.
    pub(super) async fn in_project<T: Send + 'static>(
        &self,
        ctx: RequestContext,
        query: impl FnOnce(&Engine, &Caller<'_>) -> EngineResult<T> + Send + 'static,
    ) -> Result<(String, T), Status> {
        let engine = self.engine.clone();
        blocking(move || {
            let caller = caller(&ctx);
            let root = engine.scope_of(&caller).map(|scope| scope.root.display().to_string());
            root.and_then(|root| Ok((root, query(&engine, &caller)?)))
        })
        .await?
        .map_err(engine_status)
    }
}

pub(super) fn definition(d: DefSummary) -> CodeDefinition {
    CodeDefinition { file: d.file, line: d.line, name: d.name, kind: d.kind }
}

pub(super) fn resolution(label: Label) -> Resolution {
    match label {
        Label::Exact => Resolution::Exact,
        Label::Likely => Resolution::Likely,
        Label::Ambiguous => Resolution::Ambiguous,
    }
}

/// A precise answer's edges are the language server's, whatever their graph label.
fn edge(e: Edge, precise: bool) -> CallEdge {
    let resolution = if precise { Resolution::Precise } else { resolution(e.label) };
    CallEdge {
        depth: e.depth,
        file: e.file,
        line: e.line,
        column: e.column,
        shares_line: e.shares_line,
        caller: e.caller.map(definition),
        callee: Some(definition(e.callee)),
        resolution: resolution as i32,
        candidates: e.candidates.into_iter().map(definition).collect(),
    }
}

#[tonic::async_trait]
impl Graph for GraphService {
    async fn callgraph(&self, request: Request<CallgraphRequest>) -> Result<Response<CallgraphResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        let action = match wire::known(req.action, "action")? {
            CallgraphAction::Unspecified | CallgraphAction::Callers => Action::Callers,
            CallgraphAction::Callees => Action::Callees,
            CallgraphAction::Trace => Action::Trace,
        };
        let params = CallgraphParams {
            action,
            symbol: req.symbol,
            file: req.file,
            depth: req.depth,
            from: req.from,
            to: req.to,
            precise: req.precise,
            cancel: Cancel::default(),
        };
        let _cancel_on_drop = CancelOnDrop(params.cancel.clone());
        let (root, answer) = self.in_project(ctx, move |engine, caller| engine.callgraph(caller, &params)).await?;
        let source = answer.source.unwrap_or_default();
        let precise = req.precise && source.fallback.is_none();
        Ok(Response::new(CallgraphResponse {
            meta: Some(self.host.meta()),
            targets: answer.targets.into_iter().map(definition).collect(),
            to_targets: answer.to_targets.into_iter().map(definition).collect(),
            ambiguous: answer.ambiguous.into_iter().map(definition).collect(),
            edges: answer.edges.into_iter().map(|e| edge(e, precise)).collect(),
            truncated: answer.truncated,
            external_calls: answer.external_calls,
            complete: answer.complete,
            note: answer.note.unwrap_or_default(),
            root,
            precise,
            language_server: source.server,
            fallback: source.fallback.unwrap_or_default(),
        }))
    }

    async fn repomap(&self, request: Request<RepomapRequest>) -> Result<Response<RepomapResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        // Only the closing line's advice and a refused budget's message depend on who asks.
        let surface = surface(&ctx);
        let params = RepomapParams { max_tokens: req.max_tokens, path: req.path, surface, cancel: Cancel::default() };
        let _cancel_on_drop = CancelOnDrop(params.cancel.clone());
        let (root, answer) = self.in_project(ctx, move |engine, caller| engine.repomap(caller, &params)).await?;
        let file = |f: repomap::MapFile| MapFile {
            path: f.path,
            rank: f.rank,
            definitions: f
                .defs
                .into_iter()
                .map(|d| MapDefinition { definition: Some(definition(d.def)), rank: d.rank })
                .collect(),
            outline: f.outline,
            twins: f.twins,
        };
        Ok(Response::new(RepomapResponse {
            meta: Some(self.host.meta()),
            root,
            text: answer.text,
            tokens: answer.tokens,
            max_tokens: answer.max_tokens,
            files: answer.files.into_iter().map(file).collect(),
            total_definitions: answer.total_definitions,
            omitted_definitions: answer.omitted_definitions,
            omitted_files: answer.omitted_files,
            personalised_by: answer.personalised_by,
            unpersonalised: answer.unpersonalised.unwrap_or_default(),
            exact: answer.exact,
            likely: answer.likely,
            ambiguous: answer.ambiguous,
            complete: answer.complete,
            note: answer.note.unwrap_or_default(),
        }))
    }

    async fn related(&self, request: Request<RelatedRequest>) -> Result<Response<RelatedResponse>, Status> {
        self.serve_related(request).await
    }

    async fn impact(&self, request: Request<ImpactRequest>) -> Result<Response<ImpactResponse>, Status> {
        self.serve_impact(request).await
    }
}
