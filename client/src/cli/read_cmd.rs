//! `lctx read`, `lctx edit` and `lctx rules`: adapters over
//! [`capability::read`], [`capability::edit`] and [`capability::rules`].

use std::path::PathBuf;

use clap::Args;

use super::{Exit, emit, failure};
use crate::capability::{self, edit::EditArgs as Edit, read::ReadArgs as Read};
use crate::options::ClientOptions;

#[derive(Args, Debug)]
pub struct ReadArgs {
    /// Files to read (relative to the current directory).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// auto | full | signatures | map | diff | aggressive | reference | lines:N-M[,A-B]
    #[arg(short, long, default_value = "auto")]
    mode: String,
    /// Send content even when this session already has it.
    #[arg(long)]
    fresh: bool,
    /// First line of a window (with --limit), from 1. A window is a view of its own: not with -m.
    #[arg(long, value_name = "N", value_parser = from_one, conflicts_with = "mode")]
    start_line: Option<u32>,
    /// Number of lines of the window, 1 or more.
    #[arg(long, value_name = "N", value_parser = from_one, conflicts_with = "mode")]
    limit: Option<u32>,
    /// Machine-readable output with token figures.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    pub caller: super::SessionOpt,
    #[command(flatten)]
    pub rules_host: super::HostOpt,
}

#[derive(Args, Debug)]
pub struct EditArgs {
    /// The file to change (relative to the current directory).
    path: PathBuf,
    /// The exact text to replace (empty with --create or --lines).
    #[arg(long, default_value = "")]
    old: String,
    /// Replace these whole lines instead of --old: N or N-M (1-based).
    #[arg(long, value_name = "N-M")]
    lines: Option<String>,
    /// The replacement text.
    #[arg(long)]
    new: String,
    /// Replace every occurrence instead of requiring exactly one.
    #[arg(long)]
    all: bool,
    /// Create the file if it does not exist.
    #[arg(long)]
    create: bool,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    pub caller: super::SessionOpt,
}

#[derive(Args, Debug)]
pub struct RulesArgs {
    /// The file or directory (default: the current directory).
    path: Option<PathBuf>,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    pub caller: super::SessionOpt,
    #[command(flatten)]
    pub rules_host: super::HostOpt,
}

/// `--start-line` and `--limit`: lines count from 1.
fn from_one(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("`{text}`: give 1 or more (lines count from 1)")),
    }
}

pub async fn read(args: ReadArgs, opts: &ClientOptions) -> Exit {
    // The reference and ctx_read take the mode as a parameter of its own; `lctx read FILE
    // lines:3-9` would otherwise ask for a file named `lines:3-9`. (`symlink_metadata`: a
    // dangling link named like a mode is still a path.)
    let is_mode = |p: &PathBuf| {
        let word = p.to_string_lossy();
        (word.starts_with("lines:") || capability::read::MODES.iter().any(|(name, _)| *name == word))
            && std::fs::symlink_metadata(p).is_err()
    };
    if let Some(mode) = args.paths.iter().find(|p| is_mode(p)) {
        let files: Vec<String> = args.paths.iter().filter(|p| !is_mode(p)).map(|p| p.display().to_string()).collect();
        let word = mode.to_string_lossy();
        // A bare `lines` is no mode by itself: it takes its ranges.
        let written = if word == "lines" { "lines:N-M".into() } else { word.clone() };
        return Err(super::Failure::Usage(format!(
            "`{word}` is a mode, not a file: write `lctx read {} -m {written}`",
            if files.is_empty() { "FILE".to_string() } else { files.join(" ") },
        )));
    }
    let read = Read {
        paths: args.paths.iter().map(|p| p.display().to_string()).collect(),
        mode: args.mode,
        fresh: args.fresh,
        start_line: args.start_line,
        limit: args.limit,
    };
    let backend = super::connect(opts).await?;
    let answer = capability::read::read(&backend, opts.context(), read).await.map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, args.json))
}

pub async fn edit(args: EditArgs, opts: &ClientOptions) -> Exit {
    let lines = args.lines.as_deref().map(capability::edit::parse_lines).transpose().map_err(super::usage)?;
    let edit = Edit {
        path: args.path.display().to_string(),
        old: args.old,
        new: args.new,
        all: args.all,
        create: args.create,
        lines,
    };
    let backend = super::connect(opts).await?;
    let answer = capability::edit::edit(&backend, opts.context(), edit).await.map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, args.json))
}

pub async fn rules(args: RulesArgs, opts: &ClientOptions) -> Exit {
    let path = args.path.map(|p| p.display().to_string()).unwrap_or_default();
    let backend = super::connect(opts).await?;
    let answer = capability::rules::rules(&backend, opts.context(), path).await.map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, args.json))
}
