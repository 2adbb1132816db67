//! ctx_graph and ctx_impact: lean-ctx's parameters → [`lctx::capability::related`] and
//! [`lctx::capability::impact`].

use lctx::backend::Backend;
use lctx::capability::{Surface, impact as impact_cap, related};
use serde::Deserialize;

use super::{Call, Reply};

#[derive(Deserialize)]
struct GraphArgs {
    #[serde(default)]
    action: String,
    #[serde(default)]
    path: String,
    /// Accepted for `path`, as ctx_callgraph names a file.
    #[serde(default)]
    file: String,
    #[serde(default)]
    to: String,
    depth: Option<u32>,
}

pub fn graph<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: GraphArgs = call.parse()?;
        let path = if args.path.trim().is_empty() { args.file } else { args.path };
        let request = related::GraphArgs { action: args.action, path, to: args.to, depth: args.depth };
        Ok(related::graph(backend, call.ctx, request, Surface::Mcp).await?)
    })
}

#[derive(Deserialize)]
struct ImpactArgs {
    #[serde(default)]
    action: String,
    #[serde(default)]
    path: String,
    depth: Option<u32>,
    #[serde(default)]
    base: String,
}

pub fn impact<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: ImpactArgs = call.parse()?;
        let request =
            impact_cap::ImpactArgs { action: args.action, path: args.path, depth: args.depth, base: args.base };
        Ok(impact_cap::impact(backend, call.ctx, request, Surface::Mcp).await?)
    })
}
