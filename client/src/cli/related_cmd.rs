//! `lctx graph`: an adapter over [`capability::related`].

use clap::Args;

use super::{Exit, emit, failure};
use crate::capability::{self, Surface};
use crate::options::ClientOptions;

#[derive(Args, Debug)]
pub struct GraphArgs {
    /// A file; for --action symbol, FILE::SYMBOL or a symbol name.
    path: String,
    /// related | neighbors | path | symbol
    #[arg(short, long, default_value = "related")]
    action: String,
    /// path: the file the import path ends at.
    #[arg(long, value_name = "FILE")]
    to: Option<String>,
    /// neighbors: import steps to follow, 1 to 3 (default 1); path: the longest path tried, 1 to 12 (default 12).
    #[arg(short, long)]
    depth: Option<u32>,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

pub async fn graph(args: GraphArgs, opts: &ClientOptions) -> Exit {
    let request = capability::related::GraphArgs {
        action: args.action,
        path: args.path,
        to: args.to.unwrap_or_default(),
        depth: args.depth,
    };
    let backend = super::connect(opts).await?;
    let answer = capability::related::graph(&backend, opts.context(), request, Surface::Cli)
        .await
        .map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, args.json))
}
