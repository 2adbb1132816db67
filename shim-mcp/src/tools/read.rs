//! ctx_read, ctx_edit and ctx_rules: lean-ctx's parameters →
//! [`lctx::capability::read`], [`lctx::capability::edit`] and
//! [`lctx::capability::rules`].

use lctx::backend::Backend;
use lctx::capability::{edit, read, rules as rules_cap};
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
    start_line: Option<u32>,
    end_line: Option<u32>,
}

pub fn edit<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: EditArgs = call.parse()?;
        if args.end_line.is_some() && args.start_line.is_none() {
            return Err(lctx::capability::Error::Usage("end_line needs start_line".into()).into());
        }
        let edit = edit::EditArgs {
            path: args.path,
            old: args.old_string,
            new: args.new_string,
            all: args.replace_all,
            create: args.create,
            lines: args.start_line.map(|start| (start, args.end_line.unwrap_or(start))),
        };
        Ok(edit::edit(backend, call.ctx, edit).await?)
    })
}

#[derive(Deserialize)]
struct RulesArgs {
    #[serde(default)]
    path: String,
}

pub fn rules<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: RulesArgs = call.parse()?;
        Ok(rules_cap::rules(backend, call.ctx, args.path).await?)
    })
}
