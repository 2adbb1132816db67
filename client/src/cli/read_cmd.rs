//! `lctx read` and `lctx edit`: ctx_read and ctx_edit from the shell.

use std::path::PathBuf;

use clap::Args;
use lean_ctx_proto::v1::{EditRequest, ReadRequest};
use serde_json::json;

use super::CmdResult;
use super::render::print_text;
use crate::options::ClientOptions;

#[derive(Args, Debug)]
pub struct ReadArgs {
    /// Files to read (relative to the current directory).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// full | lines:N-M[,A-B] | signatures | map | diff | aggressive | reference | auto
    #[arg(short, long, default_value = "auto")]
    mode: String,
    /// Send content even when this session already has it.
    #[arg(long)]
    fresh: bool,
    /// First line of a window (with --limit).
    #[arg(long, value_name = "N")]
    start_line: Option<u32>,
    /// Number of lines of the window.
    #[arg(long, value_name = "N")]
    limit: Option<u32>,
    /// Machine-readable output with token figures.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct EditArgs {
    path: PathBuf,
    /// The exact text to replace (empty with --create).
    #[arg(long, default_value = "")]
    old: String,
    /// The replacement text.
    #[arg(long)]
    new: String,
    /// Replace every occurrence instead of requiring exactly one.
    #[arg(long)]
    all: bool,
    /// Create the file if it does not exist.
    #[arg(long)]
    create: bool,
    #[arg(long)]
    json: bool,
}

pub async fn read(args: ReadArgs, opts: &ClientOptions) -> CmdResult {
    let backend = super::connect(opts).await?;
    let request = ReadRequest {
        ctx: Some(opts.context()),
        paths: args.paths.iter().map(|p| p.display().to_string()).collect(),
        mode: args.mode,
        fresh: args.fresh,
        start_line: args.start_line,
        limit: args.limit,
    };
    let response =
        backend.context().read(tonic::Request::new(request)).await.map_err(|s| backend.explain(&s))?.into_inner();
    let failed = response.files.iter().filter(|f| !f.error.is_empty()).count();
    if args.json {
        let files: Vec<_> = response
            .files
            .iter()
            .map(|f| {
                json!({
                    "path": f.path, "mode": f.mode, "content": f.content, "raw_tokens": f.raw_tokens,
                    "sent_tokens": f.sent_tokens, "stub": f.stub, "language": f.language, "lines": f.lines,
                    "content_hash": f.content_hash, "note": f.note, "error": f.error,
                })
            })
            .collect();
        let served = response.meta.map_or("UNSPECIFIED", |m| if m.served_by == 2 { "LOCAL" } else { "DAEMON" });
        println!("{}", json!({"served_by": served, "files": files}));
    } else {
        let several = response.files.len() > 1;
        for (i, f) in response.files.iter().enumerate() {
            if !f.error.is_empty() {
                eprintln!("lctx: {}: {}", args.paths[i].display(), f.error);
                continue;
            }
            if several {
                println!("==> {} ({}) <==", f.path, f.mode);
            }
            print_text(&f.content);
            if !f.note.is_empty() {
                eprintln!("lctx: {}: {}", f.path, f.note);
            }
        }
    }
    if failed > 0 { Err(format!("{failed} of {} files could not be read", response.files.len())) } else { Ok(()) }
}

pub async fn edit(args: EditArgs, opts: &ClientOptions) -> CmdResult {
    let backend = super::connect(opts).await?;
    let request = EditRequest {
        ctx: Some(opts.context()),
        path: args.path.display().to_string(),
        old_string: args.old,
        new_string: args.new,
        replace_all: args.all,
        create: args.create,
    };
    let out = backend.context().edit(tonic::Request::new(request)).await.map_err(|s| backend.explain(&s))?.into_inner();
    if args.json {
        println!(
            "{}",
            json!({"path": out.path, "replacements": out.replacements, "created": out.created,
                   "tokens_before": out.tokens_before, "tokens_after": out.tokens_after,
                   "content_hash": out.content_hash})
        );
    } else {
        println!("{}", crate::summary::edit_line(&out));
    }
    Ok(())
}
