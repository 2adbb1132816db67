//! `lctx callgraph`: an adapter over [`capability::graph`].

use clap::Args;

use super::{Exit, emit, failure};
use crate::capability::{self, Surface};
use crate::options::ClientOptions;

#[derive(Args, Debug)]
pub struct CallgraphArgs {
    /// A function, method or type: `name`, `Type::name` or `Type.name` (callers, callees).
    symbol: Option<String>,
    /// callers | callees | trace
    #[arg(short, long, default_value = "callers")]
    action: String,
    /// Only the definitions in this file (for trace: of --from).
    #[arg(long, value_name = "PATH")]
    file: Option<String>,
    /// Levels of callers or callees to follow, 1 to 5 (default 1); for a trace, the longest path it
    /// looks for (default 5).
    #[arg(short, long)]
    depth: Option<u32>,
    /// trace: where the call path starts.
    #[arg(long, value_name = "SYMBOL")]
    from: Option<String>,
    /// trace: where the call path ends.
    #[arg(long, value_name = "SYMBOL")]
    to: Option<String>,
    /// Ask the project's language server (callers, callees); falls back to the code graph and says why.
    #[arg(long)]
    precise: bool,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

pub async fn callgraph(args: CallgraphArgs, opts: &ClientOptions) -> Exit {
    let request = capability::graph::CallgraphArgs {
        action: args.action,
        symbol: args.symbol.unwrap_or_default(),
        file: args.file.unwrap_or_default(),
        depth: args.depth,
        from: args.from.unwrap_or_default(),
        to: args.to.unwrap_or_default(),
        precise: args.precise,
    };
    let backend = super::connect(opts).await?;
    let answer = capability::graph::callgraph(&backend, opts.context(), request, Surface::Cli)
        .await
        .map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, args.json))
}
