//! `lctx map`: an adapter over [`capability::repomap`].

use clap::Args;
use lean_ctx_common::limits;

use super::{Exit, emit, failure};
use crate::capability;
use crate::options::ClientOptions;

#[derive(Args, Debug)]
pub struct MapArgs {
    /// Only the definitions in this directory or file (default: the whole project).
    path: Option<String>,
    /// The answer's budget in o200k tokens, 64 to 16384 (default 1024); any other value is refused.
    #[arg(long, value_name = "N", value_parser = max_tokens)]
    max_tokens: Option<u32>,
    #[command(flatten)]
    pub caller: super::SessionOpt,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

/// `--max-tokens N`: refused here, before any daemon is reached, as the daemon would refuse it.
fn max_tokens(text: &str) -> Result<u32, String> {
    let text = text.trim();
    // Digits too many for any integer type are a whole number all the same, out of range.
    let digits = text.strip_prefix('-').unwrap_or(text);
    let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<i128>() {
        Ok(n) => u32::try_from(n)
            .ok()
            .filter(|n| (limits::MIN_MAP_TOKENS..=limits::MAX_MAP_TOKENS).contains(n))
            .ok_or_else(|| limits::map_tokens_out_of_range("--max-tokens", n)),
        Err(_) if whole => Err(limits::map_tokens_out_of_range("--max-tokens", text)),
        Err(_) => Err(format!(
            "`{text}` is not a whole number: use {} to {} (default {})",
            limits::MIN_MAP_TOKENS,
            limits::MAX_MAP_TOKENS,
            limits::DEFAULT_MAP_TOKENS
        )),
    }
}

pub async fn map(args: MapArgs, opts: &ClientOptions) -> Exit {
    let request = capability::repomap::RepomapArgs { max_tokens: args.max_tokens, path: args.path.unwrap_or_default() };
    let backend = super::connect(opts).await?;
    let answer =
        capability::repomap::repomap(&backend, opts.context(), request).await.map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, args.json))
}
