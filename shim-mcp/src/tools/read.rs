//! ctx_read and ctx_edit: lean-ctx's parameters → [`lctx::capability::read`]
//! and [`lctx::capability::edit`].

use lctx::backend::Backend;
use lctx::capability::{edit, read};
use serde::Deserialize;

use super::{Call, Reply};

#[derive(Deserialize)]
struct ReadArgs {
    path: Option<String>,
    #[serde(default)]
    paths: Vec<String>,
    #[serde(default)]
    mode: String,
    #[serde(default)]
    fresh: bool,
    start_line: Option<u32>,
    limit: Option<u32>,
}

pub fn read<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: ReadArgs = call.parse()?;
        let read = read::ReadArgs {
            paths: args.path.into_iter().chain(args.paths).collect(),
            mode: args.mode,
            fresh: args.fresh,
            start_line: args.start_line,
            limit: args.limit,
        };
        Ok(read::read(backend, call.ctx, read).await?)
    })
}

#[derive(Deserialize)]
struct EditArgs {
    path: String,
    #[serde(default)]
    old_string: String,
    new_string: String,
    #[serde(default)]
    replace_all: bool,
    #[serde(default)]
    create: bool,
}

pub fn edit<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: EditArgs = call.parse()?;
        let edit = edit::EditArgs {
            path: args.path,
            old: args.old_string,
            new: args.new_string,
            all: args.replace_all,
            create: args.create,
        };
        Ok(edit::edit(backend, call.ctx, edit).await?)
    })
}
