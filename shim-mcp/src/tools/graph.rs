//! ctx_callgraph: lean-ctx's parameters → [`lctx::capability::graph`].

use lctx::backend::Backend;
use lctx::capability::{Surface, graph};
use serde::Deserialize;

use super::{Call, Reply};

#[derive(Deserialize)]
struct CallgraphArgs {
    #[serde(default)]
    action: String,
    #[serde(default)]
    symbol: String,
    #[serde(default)]
    file: String,
    depth: Option<u32>,
    #[serde(default)]
    from: String,
    #[serde(default)]
    to: String,
    #[serde(default)]
    precise: bool,
}

pub fn callgraph<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: CallgraphArgs = call.parse()?;
        let request = graph::CallgraphArgs {
            action: args.action,
            symbol: args.symbol,
            file: args.file,
            depth: args.depth,
            from: args.from,
            to: args.to,
            precise: args.precise,
        };
        Ok(graph::callgraph(backend, call.ctx, request, Surface::Mcp).await?)
    })
}
