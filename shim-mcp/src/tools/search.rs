//! ctx_search, ctx_glob and ctx_tree → the Search service, which renders
//! the compact text and refuses empty patterns itself; these only forward.

use lctx::backend::Backend;
use lean_ctx_proto::v1::{GlobRequest, SearchRequest, TreeRequest};
use serde::Deserialize;
use tonic::Request;

use super::{Call, Output, Reply};

/// lean-ctx accepts one glob as a string; a list is accepted too.
#[derive(Deserialize, Default)]
#[serde(untagged)]
enum Globs {
    #[default]
    None,
    One(String),
    Many(Vec<String>),
}

impl Globs {
    fn into_vec(self) -> Vec<String> {
        match self {
            Globs::None => Vec::new(),
            Globs::One(glob) => vec![glob],
            Globs::Many(globs) => globs,
        }
    }
}

#[derive(Deserialize)]
struct SearchArgs {
    #[serde(default)]
    pattern: String,
    #[serde(default)]
    path: String,
    #[serde(default)]
    include: Globs,
    #[serde(default)]
    exclude: Globs,
    max_results: Option<u32>,
    #[serde(default)]
    action: String,
}

/// lean-ctx calls its ranked search `semantic`; here it is bm25.
fn action(name: String) -> String {
    if name.trim() == "semantic" { "bm25".into() } else { name }
}

pub fn search<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: SearchArgs = call.parse()?;
        let request = SearchRequest {
            ctx: Some(call.ctx),
            pattern: args.pattern,
            path: args.path,
            include: args.include.into_vec(),
            exclude: args.exclude.into_vec(),
            max_results: args.max_results,
            action: action(args.action),
        };
        Ok(Output::ok(backend.search().search(Request::new(request)).await?.into_inner().text))
    })
}

#[derive(Deserialize)]
struct GlobArgs {
    #[serde(default)]
    pattern: String,
    #[serde(default)]
    path: String,
    max_results: Option<u32>,
}

pub fn glob<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: GlobArgs = call.parse()?;
        let request =
            GlobRequest { ctx: Some(call.ctx), pattern: args.pattern, path: args.path, max_results: args.max_results };
        Ok(Output::ok(backend.search().glob(Request::new(request)).await?.into_inner().text))
    })
}

#[derive(Deserialize)]
struct TreeArgs {
    #[serde(default)]
    path: String,
    #[serde(default)]
    depth: u32,
    #[serde(default)]
    show_hidden: bool,
    respect_gitignore: Option<bool>,
}

pub fn tree<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: TreeArgs = call.parse()?;
        let request = TreeRequest {
            ctx: Some(call.ctx),
            path: args.path,
            depth: args.depth,
            show_hidden: args.show_hidden,
            respect_gitignore: args.respect_gitignore,
        };
        Ok(Output::ok(backend.search().tree(Request::new(request)).await?.into_inner().text))
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn include_takes_one_glob_or_several() {
        let one: SearchArgs = serde_json::from_value(json!({"pattern": "x", "include": "*.rs"})).unwrap();
        assert_eq!(one.include.into_vec(), vec!["*.rs"]);
        let many: SearchArgs = serde_json::from_value(json!({"pattern": "x", "include": ["*.rs", "*.py"]})).unwrap();
        assert_eq!(many.include.into_vec(), vec!["*.rs", "*.py"]);
        let none: SearchArgs = serde_json::from_value(json!({"pattern": "x"})).unwrap();
        assert!(none.include.into_vec().is_empty());
    }

    #[test]
    fn lean_ctx_semantic_action_is_bm25() {
        assert_eq!(action("semantic".into()), "bm25");
        assert_eq!(action("symbol".into()), "symbol");
    }
}
