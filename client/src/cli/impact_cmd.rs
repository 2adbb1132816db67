//! `lctx impact`: an adapter over [`capability::impact`].

use clap::Args;

use super::{Exit, emit, failure};
use crate::capability::{self, Surface};
use crate::options::ClientOptions;

#[derive(Args, Debug)]
pub struct ImpactArgs {
    /// analyze: a file or FILE::SYMBOL.
    path: Option<String>,
    /// analyze | diff
    #[arg(short, long, default_value = "analyze")]
    action: String,
    /// Levels of dependents or callers to follow, 1 to 5.
    #[arg(short, long, default_value_t = 2)]
    depth: u32,
    /// diff: a git ref or range (main..HEAD); default: the working tree (staged, unstaged and
    /// untracked files) against HEAD.
    #[arg(long, value_name = "REF")]
    base: Option<String>,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

pub async fn impact(args: ImpactArgs, opts: &ClientOptions) -> Exit {
    let request = capability::impact::ImpactArgs {
        action: args.action,
        path: args.path.unwrap_or_default(),
        depth: Some(args.depth),
        base: args.base.unwrap_or_default(),
    };
    let backend = super::connect(opts).await?;
    let answer = capability::impact::impact(&backend, opts.context(), request, Surface::Cli)
        .await
        .map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, args.json))
}
