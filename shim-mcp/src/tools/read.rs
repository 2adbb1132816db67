//! ctx_read and ctx_edit → the FileContext service.

use std::fmt::Write as _;

use lctx::backend::Backend;
use lctx::summary::edit_line;
use lean_ctx_proto::v1::{EditRequest, FileView, ReadRequest};
use serde::Deserialize;
use tonic::Request;

use super::{Call, Failure, Output, Reply};

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
        let paths: Vec<String> = args.path.into_iter().chain(args.paths).collect();
        if paths.is_empty() {
            return Err(Failure::Params("give path or paths".into()));
        }
        let request = ReadRequest {
            ctx: Some(call.ctx),
            paths: paths.clone(),
            mode: args.mode,
            fresh: args.fresh,
            start_line: args.start_line,
            limit: args.limit,
        };
        let files = backend.context().read(Request::new(request)).await?.into_inner().files;
        Ok(render_files(&paths, &files))
    })
}

/// One file: its content. Several: each under a `==> path (mode) <==`
/// header. A failed file shows its error; the call is an error only when
/// every file failed. Views come in the order of the requested paths.
fn render_files(paths: &[String], files: &[FileView]) -> Output {
    let several = files.len() > 1;
    let mut text = String::new();
    for (i, f) in files.iter().enumerate() {
        if several {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            let path = if f.path.is_empty() { paths.get(i).map_or("", String::as_str) } else { &f.path };
            let _ = writeln!(text, "==> {path} ({}) <==", if f.error.is_empty() { &f.mode } else { "error" });
        }
        if !f.error.is_empty() {
            text.push_str(&f.error);
            continue;
        }
        text.push_str(&f.content);
        if !f.note.is_empty() {
            let _ = write!(text, "{}[{}]", if f.content.ends_with('\n') { "" } else { "\n" }, f.note);
        }
    }
    Output { text, is_error: !files.is_empty() && files.iter().all(|f| !f.error.is_empty()) }
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
        let request = EditRequest {
            ctx: Some(call.ctx),
            path: args.path,
            old_string: args.old_string,
            new_string: args.new_string,
            replace_all: args.replace_all,
            create: args.create,
        };
        let out = backend.context().edit(Request::new(request)).await?.into_inner();
        Ok(Output::ok(edit_line(&out)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(path: &str, content: &str, error: &str) -> FileView {
        FileView {
            path: path.into(),
            mode: "full".into(),
            content: content.into(),
            error: error.into(),
            ..FileView::default()
        }
    }

    #[test]
    fn one_file_is_its_content() {
        let out = render_files(&["a.rs".into()], &[view("a.rs", "fn a() {}\n", "")]);
        assert_eq!(out.text, "fn a() {}\n");
        assert!(!out.is_error);
    }

    #[test]
    fn several_files_get_headers_and_a_failure_does_not_fail_the_call() {
        let paths = ["a.rs".to_string(), "b.rs".to_string()];
        let out = render_files(&paths, &[view("a.rs", "x", ""), view("", "", "b.rs: no such file")]);
        assert_eq!(out.text, "==> a.rs (full) <==\nx\n==> b.rs (error) <==\nb.rs: no such file");
        assert!(!out.is_error);
        assert!(render_files(&paths[1..], &[view("", "", "gone")]).is_error);
    }
}
