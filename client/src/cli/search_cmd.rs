//! `lctx search`, `lctx glob`, `lctx tree`, `lctx index`.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use clap::Args;
use lean_ctx_proto::v1::{GlobRequest, IndexRequest, IndexStatusRequest, SearchRequest, TreeRequest};

use super::CmdResult;
use super::render::print_text;
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
    /// At most this many results (default 50).
    #[arg(short = 'n', long)]
    max_results: Option<u32>,
}

#[derive(Args, Debug)]
pub struct GlobArgs {
    pattern: String,
    path: Option<String>,
    #[arg(short = 'n', long)]
    max_results: Option<u32>,
}

#[derive(Args, Debug)]
pub struct TreeArgs {
    path: Option<String>,
    /// Levels shown (default 3).
    #[arg(long, default_value_t = 3)]
    depth: u32,
    /// Include hidden files and directories.
    #[arg(long)]
    hidden: bool,
    /// Ignore .gitignore and .ignore rules.
    #[arg(long)]
    no_ignore: bool,
}

pub async fn search(args: SearchArgs, opts: &ClientOptions) -> CmdResult {
    let backend = super::connect(opts).await?;
    let request = SearchRequest {
        ctx: Some(opts.context()),
        pattern: args.pattern,
        path: args.path.unwrap_or_default(),
        include: args.include,
        exclude: args.exclude,
        max_results: args.max_results,
        action: args.action,
    };
    let out = backend.search().search(tonic::Request::new(request)).await.map_err(|s| backend.explain(&s))?;
    print_text(&out.into_inner().text);
    Ok(())
}

pub async fn glob(args: GlobArgs, opts: &ClientOptions) -> CmdResult {
    let backend = super::connect(opts).await?;
    let request = GlobRequest {
        ctx: Some(opts.context()),
        pattern: args.pattern,
        path: args.path.unwrap_or_default(),
        max_results: args.max_results,
    };
    let out = backend.search().glob(tonic::Request::new(request)).await.map_err(|s| backend.explain(&s))?;
    print_text(&out.into_inner().text);
    Ok(())
}

pub async fn tree(args: TreeArgs, opts: &ClientOptions) -> CmdResult {
    let backend = super::connect(opts).await?;
    let request = TreeRequest {
        ctx: Some(opts.context()),
        path: args.path.unwrap_or_default(),
        depth: args.depth,
        show_hidden: args.hidden,
        respect_gitignore: Some(!args.no_ignore),
    };
    let out = backend.search().tree(tonic::Request::new(request)).await.map_err(|s| backend.explain(&s))?;
    print_text(&out.into_inner().text);
    Ok(())
}

/// Builds the index, drawing a progress bar on a terminal while it runs.
pub async fn index(path: Option<String>, opts: &ClientOptions) -> CmdResult {
    let backend = super::connect(opts).await?;
    let request = IndexRequest { ctx: Some(opts.context()), path: path.unwrap_or_default() };
    let mut search = backend.search();
    let build = search.index(tonic::Request::new(request));
    tokio::pin!(build);
    let tty = std::io::stderr().is_terminal();
    let result = loop {
        tokio::select! {
            result = &mut build => break result,
            () = tokio::time::sleep(Duration::from_millis(200)), if tty => {
                let status = backend
                    .search()
                    .index_status(tonic::Request::new(IndexStatusRequest { ctx: Some(opts.context()) }))
                    .await;
                if let Ok(status) = status
                    && let Some(ix) = status.into_inner().indexes.iter().find(|i| i.phase == "building")
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
    let out = result.map_err(|s| backend.explain(&s))?.into_inner();
    for ix in out.indexes {
        println!(
            "{}: {} · {} files · {:.1} MiB on disk{}",
            ix.root,
            ix.phase,
            ix.files,
            ix.size_on_disk as f64 / (1 << 20) as f64,
            if ix.note.is_empty() { String::new() } else { format!(" · {}", ix.note) }
        );
    }
    Ok(())
}
