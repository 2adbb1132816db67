//! `lctx map`: an adapter over [`capability::repomap`].

use clap::Args;

use super::{Exit, emit, failure};
use crate::capability;
use crate::options::ClientOptions;

#[derive(Args, Debug)]
pub struct MapArgs {
    /// Only the definitions in this directory or file (default: the whole project).
    path: Option<String>,
    /// The answer's budget in o200k tokens, 64 to 16384 (default 1024); a smaller or larger value is
    /// clamped with a note, 0 is refused.
    #[arg(long, value_name = "N", value_parser = max_tokens)]
    max_tokens: Option<u32>,
    #[command(flatten)]
    pub caller: super::SessionOpt,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

/// `--max-tokens N`: any count but 0, which leaves no room for a map (the daemon clamps the rest
/// to 64–16384 and says so).
fn max_tokens(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(0) => Err("0 leaves no room for a map: give 64 to 16384 (default 1024)".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{text}` is not a token count; give 64 to 16384 (default 1024)")),
    }
}

pub async fn map(args: MapArgs, opts: &ClientOptions) -> Exit {
    let request = capability::repomap::RepomapArgs { max_tokens: args.max_tokens, path: args.path.unwrap_or_default() };
    let backend = super::connect(opts).await?;
    let answer =
        capability::repomap::repomap(&backend, opts.context(), request).await.map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, args.json))
}
