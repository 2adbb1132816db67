//! `lctx search`, `lctx glob`, `lctx tree`, `lctx index`: adapters over
//! [`capability::search`].

use std::io::{IsTerminal, Write};
use std::time::Duration;

use clap::Args;
use lean_ctx_common::limits::MAX_RESULTS;
use lean_ctx_proto::v1::{IndexPhase, IndexStatusRequest};

use super::{Exit, emit, failure};
use crate::capability;
use crate::options::ClientOptions;

#[derive(Args, Debug)]
pub struct SearchArgs {
    /// A regex, words (bm25) or a symbol name prefix.
    pattern: String,
    /// Limit to this file or directory.
    path: Option<String>,
    /// regex | bm25 | symbol
    #[arg(short, long, default_value = "regex")]
    action: String,
    /// Only paths matching this glob (repeatable).
    #[arg(long)]
    include: Vec<String>,
    /// Skip paths matching this glob (repeatable).
    #[arg(long)]
    exclude: Vec<String>,
    /// At most this many results: lines (regex), files (bm25, default 10) or
    /// definitions (symbol); default 50, at most 10,000.
    #[arg(short = 'n', long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_RESULTS)))]
    max_results: Option<u32>,
    /// Machine-readable output (docs/json.md).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    pub caller: super::SessionOpt,
}

#[derive(Args, Debug)]
pub struct GlobArgs {
    /// A glob such as `**/*.rs`.
    pattern: String,
    /// The directory to search (default: the project).
    path: Option<String>,
    /// At most this many paths (1 to 10,000; default 50).
    #[arg(short = 'n', long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_RESULTS)))]
    max_results: Option<u32>,
    /// Machine-readable output (docs/json.md).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    pub caller: super::SessionOpt,
}

#[derive(Args, Debug)]
pub struct TreeArgs {
    /// The directory to show (default: the current one).
    path: Option<String>,
    /// Levels shown, 1 or more (default 3).
    #[arg(long, default_value_t = 3)]
    depth: u32,
    /// Include hidden files and directories.
    #[arg(long)]
    hidden: bool,
    /// Ignore .gitignore and .ignore rules.
    #[arg(long)]
    no_ignore: bool,
    #[command(flatten)]
    pub caller: super::SessionOpt,
}

pub async fn search(args: SearchArgs, opts: &ClientOptions) -> Exit {
    let search = capability::search::SearchArgs {
        pattern: args.pattern,
        path: args.path.unwrap_or_default(),
        include: args.include,
        exclude: args.exclude,
        max_results: args.max_results,
        action: args.action,
    };
    let backend = super::connect(opts).await?;
    let answer =
        capability::search::search(&backend, opts.context(), search).await.map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, args.json))
}

pub async fn glob(args: GlobArgs, opts: &ClientOptions) -> Exit {
    let backend = super::connect(opts).await?;
    let path = args.path.unwrap_or_default();
    let answer = capability::search::glob(&backend, opts.context(), args.pattern, path, args.max_results)
        .await
        .map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, args.json))
}

pub async fn tree(args: TreeArgs, opts: &ClientOptions) -> Exit {
    let tree = capability::search::TreeArgs {
        path: args.path.unwrap_or_default(),
        depth: Some(args.depth),
        show_hidden: args.hidden,
        respect_gitignore: Some(!args.no_ignore),
    };
    let backend = super::connect(opts).await?;
    let answer = capability::search::tree(&backend, opts.context(), tree).await.map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, false))
}

/// Builds the index, drawing a progress bar on a terminal while it runs.
pub async fn index(path: Option<String>, opts: &ClientOptions) -> Exit {
    let backend = super::connect(opts).await?;
    let build = capability::search::index(&backend, opts.context(), path.unwrap_or_default());
    tokio::pin!(build);
    let tty = std::io::stderr().is_terminal();
    let result = loop {
        tokio::select! {
            result = &mut build => break result,
            () = tokio::time::sleep(Duration::from_millis(200)), if tty => {
                let status = backend.search().index_status(IndexStatusRequest { ctx: Some(opts.context()) }).await;
                if let Ok(status) = status
                    && let Some(ix) = status.into_inner().indexes.iter().find(|i| i.phase() == IndexPhase::Building)
                {
                    let width = 30;
                    let filled = (ix.done * width).checked_div(ix.total).unwrap_or(0).min(width) as usize;
                    eprint!("\rindexing [{}{}] {}/{}", "#".repeat(filled), " ".repeat(width as usize - filled), ix.done, ix.total);
                    let _ = std::io::stderr().flush();
                }
            }
        }
    };
    if tty {
        eprint!("\r\x1b[K");
    }
    let answer = result.map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, false))
}
