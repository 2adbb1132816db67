//! The Graph service's file-level calls: Related (ctx_graph) and Impact (ctx_impact). The trait
//! implementation in `graph.rs` hands them here.

use lean_ctx_graph::{Direction, Use};
use lean_ctx_proto::v1::{
    ChangedFile, ImpactAction, ImpactRequest, ImpactResponse, ImportStep, RelatedAction, RelatedFile, RelatedGroup,
    RelatedRequest, RelatedResponse, SymbolUse,
};
use tonic::{Request, Response, Status};

use super::blocking::CancelOnDrop;
use super::graph::{GraphService, definition, resolution};
use super::status::missing_context;
use super::wire;
use crate::engine::cancel::Cancel;
use crate::engine::graph::impact::{ImpactAction as EngineImpact, ImpactParams};
use crate::engine::graph::related::{GraphAction, GraphParams};
use crate::engine::graph::subject::Group;

fn group(g: Group) -> RelatedGroup {
    RelatedGroup {
        name: g.name,
        files: g.files.into_iter().map(|l| RelatedFile { file: l.file, depth: l.depth, why: l.why }).collect(),
        omitted: g.omitted as u32,
        withheld: g.withheld as u32,
    }
}

fn symbol_use(u: Use) -> SymbolUse {
    SymbolUse {
        file: u.file,
        line: u.line,
        kind: u.kind.name().to_string(),
        caller: u.caller.map(definition),
        resolution: resolution(u.label) as i32,
        candidates: u.candidates.into_iter().map(definition).collect(),
    }
}

impl GraphService {
    pub(super) async fn serve_related(
        &self,
        request: Request<RelatedRequest>,
    ) -> Result<Response<RelatedResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        let action = match wire::known(req.action, "action")? {
            RelatedAction::Unspecified | RelatedAction::Related => GraphAction::Related,
            RelatedAction::Neighbors => GraphAction::Neighbors,
            RelatedAction::Path => GraphAction::Path,
            RelatedAction::Symbol => GraphAction::Symbol,
        };
        let params = GraphParams { action, path: req.path, to: req.to, depth: req.depth, cancel: Cancel::default() };
        let _cancel_on_drop = CancelOnDrop(params.cancel.clone());
        let (root, answer) = self.in_project(ctx, move |engine, caller| engine.graph_query(caller, &params)).await?;
        Ok(Response::new(RelatedResponse {
            meta: Some(self.host.meta()),
            root,
            file: answer.file,
            groups: answer.groups.into_iter().map(group).collect(),
            path: answer
                .path
                .into_iter()
                .map(|s| ImportStep { from: s.from, to: s.to, imports: s.direction == Direction::Imports })
                .collect(),
            targets: answer.targets.into_iter().map(definition).collect(),
            ambiguous: answer.ambiguous.into_iter().map(definition).collect(),
            uses: answer.uses.into_iter().map(symbol_use).collect(),
            uses_omitted: answer.uses_omitted as u32,
            uses_withheld: answer.uses_withheld as u32,
            namesakes: answer.namesakes.into_iter().map(definition).collect(),
            complete: answer.complete,
            note: answer.note.unwrap_or_default(),
        }))
    }

    pub(super) async fn serve_impact(
        &self,
        request: Request<ImpactRequest>,
    ) -> Result<Response<ImpactResponse>, Status> {
        let req = request.into_inner();
        let ctx = req.ctx.ok_or_else(missing_context)?;
        let _guard = self.host.begin_request();
        let action = match wire::known(req.action, "action")? {
            ImpactAction::Unspecified | ImpactAction::Analyze => EngineImpact::Analyze,
            ImpactAction::Diff => EngineImpact::Diff,
        };
        let params =
            ImpactParams { action, path: req.path, depth: req.depth, base: req.base, cancel: Cancel::default() };
        let _cancel_on_drop = CancelOnDrop(params.cancel.clone());
        let (root, answer) = self.in_project(ctx, move |engine, caller| engine.impact(caller, &params)).await?;
        Ok(Response::new(ImpactResponse {
            meta: Some(self.host.meta()),
            root,
            file: answer.file,
            symbol: answer.symbol,
            targets: answer.targets.into_iter().map(definition).collect(),
            ambiguous: answer.ambiguous.into_iter().map(definition).collect(),
            changed: answer
                .changed
                .into_iter()
                .map(|c| ChangedFile {
                    hunks: if c.status == crate::engine::graph::diff::Status::Untracked {
                        0
                    } else {
                        c.ranges.len() as u32
                    },
                    status: c.status.name().to_string(),
                    file: c.file,
                })
                .collect(),
            changed_symbols: answer.changed_symbols.into_iter().map(definition).collect(),
            groups: answer.groups.into_iter().map(group).collect(),
            complete: answer.complete,
            note: answer.note.unwrap_or_default(),
        }))
    }
}
