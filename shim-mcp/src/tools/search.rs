//! ctx_search, ctx_glob and ctx_tree: lean-ctx's parameters →
//! [`lctx::capability::search`].

use lctx::backend::Backend;
use lctx::capability::search;
use serde::Deserialize;

use super::{Call, Reply};

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

pub fn search<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: SearchArgs = call.parse()?;
        let search = search::SearchArgs {
            pattern: args.pattern,
            path: args.path,
            include: args.include.into_vec(),
            exclude: args.exclude.into_vec(),
            max_results: args.max_results,
            action: args.action,
        };
        Ok(search::search(backend, call.ctx, search).await?)
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
        Ok(search::glob(backend, call.ctx, args.pattern, args.path, args.max_results).await?)
    })
}

#[derive(Deserialize)]
struct TreeArgs {
    #[serde(default)]
    path: String,
    depth: Option<u32>,
    #[serde(default)]
    show_hidden: bool,
    respect_gitignore: Option<bool>,
}

pub fn tree<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: TreeArgs = call.parse()?;
        let tree = search::TreeArgs {
            path: args.path,
            depth: args.depth,
            show_hidden: args.show_hidden,
            respect_gitignore: args.respect_gitignore,
        };
        Ok(search::tree(backend, call.ctx, tree).await?)
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
}
