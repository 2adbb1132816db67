//! `lctx map`: an adapter over [`capability::repomap`].

use clap::Args;

use super::{Exit, emit, failure};
use crate::capability;
use crate::options::ClientOptions;

#[derive(Args, Debug)]
pub struct MapArgs {
    /// Only the definitions in this directory or file (default: the whole project).
    path: Option<String>,
    /// The answer's budget in o200k tokens, 64 to 16384 (default 1024).
    #[arg(long, value_name = "N")]
    max_tokens: Option<u32>,
    #[command(flatten)]
    pub caller: super::SessionOpt,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

pub async fn map(args: MapArgs, opts: &ClientOptions) -> Exit {
    let request = capability::repomap::RepomapArgs { max_tokens: args.max_tokens, path: args.path.unwrap_or_default() };
    let backend = super::connect(opts).await?;
    let answer = capability::repomap::repomap(&backend, opts.context(), request)
        .await
        .map_err(|e| failure(&backend, e.spelled(&[("max_tokens", "--max-tokens")])))?;
    Ok(emit(&answer, args.json))
}
