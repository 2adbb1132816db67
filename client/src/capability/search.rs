//! ctx_search, ctx_glob, ctx_tree and the project index. The daemon renders
//! the compact text and refuses empty patterns itself.

use lean_ctx_proto::v1::{
    GlobRequest, IndexPhase, IndexRequest, ProjectIndex, RequestContext, SearchAction, SearchRequest, SearchSource,
    TreeRequest,
};
use serde_json::json;

use lean_ctx_common::limits::check_results;

use super::{Answer, Error, Result};
use crate::backend::Backend;

/// Search actions by name; lean-ctx's `semantic` is accepted as bm25.
pub const ACTIONS: [(&str, SearchAction); 3] =
    [("regex", SearchAction::Regex), ("bm25", SearchAction::Bm25), ("symbol", SearchAction::Symbol)];

pub const ACTION_NAMES: [&str; 3] = super::names(&ACTIONS);

pub fn parse_action(name: &str) -> Result<SearchAction> {
    match name.trim() {
        "" => Ok(SearchAction::Regex),
        "semantic" => Ok(SearchAction::Bm25),
        other => super::parse_name("action", other, &ACTIONS),
    }
}

/// Refuses a `max_results` the daemon would refuse, before sending it.
fn results_in_range(max_results: Option<u32>, default: &str) -> Result<()> {
    check_results("max_results", max_results, default).map_err(Error::Usage)
}

#[derive(Debug, Clone, Default)]
pub struct SearchArgs {
    pub pattern: String,
    /// A file or directory to search in.
    pub path: String,
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    pub max_results: Option<u32>,
    /// A name of [`ACTIONS`] (or `semantic`); empty means regex.
    pub action: String,
}

pub async fn search(backend: &Backend, ctx: RequestContext, args: SearchArgs) -> Result<Answer> {
    let action = parse_action(&args.action)?;
    results_in_range(args.max_results, "50; bm25: 10 files")?;
    let request = SearchRequest {
        ctx: Some(ctx),
        pattern: args.pattern,
        path: args.path,
        include: args.include,
        exclude: args.exclude,
        max_results: args.max_results,
        action: action as i32,
    };
    let out = backend.search().search(request).await?.into_inner();
    let source = match out.source() {
        SearchSource::Index => "index",
        SearchSource::Scan => "scan",
        SearchSource::Unspecified => "",
    };
    let json = json!({
        "matches": out.matches.iter().map(|m| json!({"path": m.path, "line": m.line, "text": m.text,
                                                     "kind": m.kind})).collect::<Vec<_>>(),
        "total": out.total, "shown": out.shown, "truncated": out.truncated, "source": source, "note": out.note,
    });
    Ok(Answer::ok(out.text, json))
}

pub async fn glob(
    backend: &Backend,
    ctx: RequestContext,
    pattern: String,
    path: String,
    max_results: Option<u32>,
) -> Result<Answer> {
    results_in_range(max_results, "50")?;
    let request = GlobRequest { ctx: Some(ctx), pattern, path, max_results };
    let out = backend.search().glob(request).await?.into_inner();
    // What the answer says it left out, and where else to look (QA: the JSON dropped it, so a
    // script saw a bare empty answer).
    let json = json!({"paths": out.paths, "total": out.total, "truncated": out.truncated, "note": out.note});
    Ok(Answer::ok(out.text, json))
}

#[derive(Debug, Clone, Default)]
pub struct TreeArgs {
    pub path: String,
    /// Levels shown, 1 or more; `None` is the daemon's default (3).
    pub depth: Option<u32>,
    pub show_hidden: bool,
    /// Default true.
    pub respect_gitignore: Option<bool>,
}

pub async fn tree(backend: &Backend, ctx: RequestContext, args: TreeArgs) -> Result<Answer> {
    super::at_least_one("depth", args.depth, "3")?;
    let request = TreeRequest {
        ctx: Some(ctx),
        path: args.path,
        depth: args.depth.unwrap_or(0),
        show_hidden: args.show_hidden,
        respect_gitignore: args.respect_gitignore,
    };
    let out = backend.search().tree(request).await?.into_inner();
    let json = json!({"files": out.files, "dirs": out.dirs});
    Ok(Answer::ok(out.text, json))
}

/// Builds the index of the project at `path` (or the context's) now.
pub async fn index(backend: &Backend, ctx: RequestContext, path: String) -> Result<Answer> {
    let out = backend.search().index(IndexRequest { ctx: Some(ctx), path }).await?.into_inner();
    let text = out.indexes.iter().map(index_line).collect::<Vec<_>>().join("\n");
    let json = json!({"indexes": out.indexes.iter().map(index_json).collect::<Vec<_>>()});
    Ok(Answer::ok(text, json))
}

pub fn phase_name(phase: IndexPhase) -> &'static str {
    match phase {
        IndexPhase::Opening => "opening",
        IndexPhase::Building => "building",
        IndexPhase::Ready => "ready",
        IndexPhase::Unavailable => "unavailable",
        IndexPhase::Closed => "closed",
        IndexPhase::Unspecified => "unknown",
    }
}

/// `/src/app: ready · 120 files · 1.5 MiB on disk`.
pub fn index_line(ix: &ProjectIndex) -> String {
    format!(
        "{}: {} · {} files · {:.1} MiB on disk{}",
        ix.root,
        phase_name(ix.phase()),
        ix.files,
        ix.size_on_disk as f64 / (1 << 20) as f64,
        if ix.note.is_empty() { String::new() } else { format!(" · {}", ix.note) }
    )
}

fn index_json(ix: &ProjectIndex) -> serde_json::Value {
    json!({"root": ix.root, "phase": phase_name(ix.phase()), "done": ix.done, "total": ix.total,
           "files": ix.files, "size_on_disk": ix.size_on_disk, "approx_memory": ix.approx_memory, "note": ix.note})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lean_ctx_semantic_is_bm25_and_empty_is_regex() {
        assert_eq!(parse_action("semantic").unwrap(), SearchAction::Bm25);
        assert_eq!(parse_action("").unwrap(), SearchAction::Regex);
        assert_eq!(parse_action("symbol").unwrap(), SearchAction::Symbol);
        assert!(parse_action("fuzzy").is_err());
    }
}
