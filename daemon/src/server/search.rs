//! The Search service: Search, Glob, Tree, Index, IndexStatus.

use std::sync::Arc;

use lean_ctx_proto::v1::search_server::Search;
use lean_ctx_proto::v1::{
    GlobRequest, GlobResponse, IndexRequest, IndexResponse, IndexStatusRequest, ProjectIndex, SearchMatch,
    SearchRequest, SearchResponse, TreeRequest, TreeResponse,
};
use lean_ctx_search::IndexStatus;
use tonic::{Request, Response, Status};

use super::blocking::{CancelOnDrop, blocking, caller};
use super::host::Host;
use super::status::{engine_status, missing_context};
use super::wire;
use crate::engine::Engine;
use crate::engine::cancel::Cancel;
use crate::engine::search::SearchParams;

#[derive(Clone)]
pub struct SearchService {
    engine: Arc<Engine>,
    host: Arc<Host>,
}

impl SearchService {
    pub fn new(engine: Arc<Engine>, host: Arc<Host>) -> Self {
        SearchService { engine, host }
    }
}

/// The wire form of one index; `note` says what a user should know: a
/// rebuild after corruption (running or done, and where the damaged copy
/// is), why it is unavailable, or the last error.
fn project_index(ix: IndexStatus) -> ProjectIndex {
    let notes: Vec<String> = ix.note().into_iter().chain(ix.last_error.map(|e| format!("last error: {e}"))).collect();
    let (phase, done, total) = wire::index_phase(ix.phase, ix.files);
    ProjectIndex {
        root: ix.root.display().to_string(),
        phase: phase as i32,
        done,
        total,
        files: ix.files,
        size_on_disk: ix.size_on_disk,
        approx_memory: ix.approx_memory,
        note: notes.join("; "),
    }
}

#[tonic::async_trait]
impl Search for SearchService {
    async fn search(&self, request: Request<SearchRequest>) -> Result<Response<SearchResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        let params = SearchParams {
            pattern: req.pattern,
            path: req.path,
            include: req.include,
            exclude: req.exclude,
            max_results: req.max_results,
            action: wire::search_action(wire::known(req.action, "action")?).to_string(),
        };
        let engine = self.engine.clone();
        let cancel = Cancel::default();
        let _cancel_on_drop = CancelOnDrop(cancel.clone());
        let r = blocking(move || engine.search(&caller(&ctx), &params, &cancel)).await?.map_err(engine_status)?;
        let matches = r
            .matches
            .into_iter()
            .map(|m| SearchMatch {
                path: m.path,
                line: m.line,
                text: m.text,
                kind: m.symbol.map(|s| s.kind).unwrap_or_default(),
            })
            .collect();
        Ok(Response::new(SearchResponse {
            meta: Some(self.host.meta()),
            text: r.text,
            matches,
            total: r.total,
            shown: r.shown,
            truncated: r.truncated,
            source: wire::search_source(r.source) as i32,
            note: r.note.unwrap_or_default(),
        }))
    }

    async fn glob(&self, request: Request<GlobRequest>) -> Result<Response<GlobResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        let engine = self.engine.clone();
        let r = blocking(move || engine.glob(&caller(&ctx), &req.pattern, &req.path, req.max_results))
            .await?
            .map_err(engine_status)?;
        Ok(Response::new(GlobResponse {
            meta: Some(self.host.meta()),
            text: r.text,
            paths: r.paths,
            total: r.total,
            truncated: r.truncated,
            note: r.note,
        }))
    }

    async fn tree(&self, request: Request<TreeRequest>) -> Result<Response<TreeResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        let engine = self.engine.clone();
        let respect = req.respect_gitignore.unwrap_or(true);
        let r = blocking(move || engine.tree(&caller(&ctx), &req.path, req.depth, req.show_hidden, respect))
            .await?
            .map_err(engine_status)?;
        Ok(Response::new(TreeResponse { meta: Some(self.host.meta()), text: r.text, files: r.files, dirs: r.dirs }))
    }

    async fn index(&self, request: Request<IndexRequest>) -> Result<Response<IndexResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        let engine = self.engine.clone();
        let cancel = Cancel::default();
        let _cancel_on_drop = CancelOnDrop(cancel.clone());
        let (status, note) =
            blocking(move || engine.build_index(&caller(&ctx), &req.path, &cancel)).await?.map_err(engine_status)?;
        let mut index = project_index(status);
        if let Some(note) = note {
            index.note = if index.note.is_empty() { note } else { format!("{note}; {}", index.note) };
        }
        Ok(Response::new(IndexResponse { meta: Some(self.host.meta()), indexes: vec![index] }))
    }

    async fn index_status(&self, request: Request<IndexStatusRequest>) -> Result<Response<IndexResponse>, Status> {
        drop(request);
        let _guard = self.host.begin_request();
        let indexes = self.engine.search.status().into_iter().map(project_index).collect();
        Ok(Response::new(IndexResponse { meta: Some(self.host.meta()), indexes }))
    }
}
