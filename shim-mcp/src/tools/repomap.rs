//! ctx_repomap: lean-ctx's parameters → [`lctx::capability::repomap`].

use lctx::backend::Backend;
use lctx::capability::repomap;
use serde::Deserialize;

use super::{Call, Reply};

#[derive(Deserialize)]
struct RepomapArgs {
    max_tokens: Option<u32>,
    #[serde(default)]
    path: String,
}

pub fn repomap<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: RepomapArgs = call.parse()?;
        let request = repomap::RepomapArgs { max_tokens: args.max_tokens, path: args.path };
        Ok(repomap::repomap(backend, call.ctx, request).await?)
    })
}
