//! ctx_shell (and its alias `shell`) and ctx_expand → the Shell service.
//!
//! Commands run with this process's environment and working directory, as
//! if the host had run them itself.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use lctx::backend::Backend;
use lctx::summary::job_line;
use lean_ctx_proto::v1::{ExecRequest, ExpandRequest, Job, JobsRequest};
use serde::Deserialize;
use serde_json::Value;
use tonic::Request;

use super::{Call, Failure, Output, Reply};

#[derive(Deserialize)]
struct ShellArgs {
    #[serde(default)]
    command: String,
    #[serde(default)]
    raw: bool,
    timeout_ms: Option<u64>,
    cwd: Option<String>,
    #[serde(default)]
    env: HashMap<String, String>,
    #[serde(default)]
    run_in_background: bool,
    background_action: Option<String>,
    /// A string in lean-ctx's schema; a number is accepted too.
    job_id: Option<Value>,
}

pub fn shell<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: ShellArgs = call.parse()?;
        let mut ctx = call.ctx;
        if let Some(action) = args.background_action {
            let id = job_id(args.job_id.as_ref())?;
            let request = JobsRequest { ctx: Some(ctx), action, id };
            let jobs = backend.shell().jobs(Request::new(request)).await?.into_inner().jobs;
            return Ok(Output::ok(jobs.iter().map(render_job).collect::<String>()));
        }
        if args.command.trim().is_empty() {
            return Err(Failure::Params("give command (or background_action with job_id)".into()));
        }
        if let Some(dir) = args.cwd {
            ctx.cwd = Path::new(&ctx.cwd).join(dir).display().to_string();
        }
        let mut env: HashMap<String, String> =
            std::env::vars_os().filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?))).collect();
        env.extend(args.env);
        let timeout_secs = args.timeout_ms.map_or(0, |ms| u32::try_from(ms.div_ceil(1000)).unwrap_or(u32::MAX));
        let request = ExecRequest {
            ctx: Some(ctx),
            command: args.command,
            env,
            timeout_secs,
            raw: args.raw,
            background: args.run_in_background,
        };
        let out = backend.shell().exec(Request::new(request)).await?.into_inner();
        if args.run_in_background {
            return Ok(Output::ok(format!(
                "job {0} started; ctx_shell background_action=status job_id={0} shows it",
                out.job_id
            )));
        }
        let mut text = out.output.map(|o| o.text).unwrap_or_default();
        if out.timed_out {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            let _ = write!(
                text,
                "[timed out after {:.1} s: the command and everything it started were killed]",
                out.duration_ms as f64 / 1000.0
            );
        }
        Ok(Output::ok(text))
    })
}

fn job_id(value: Option<&Value>) -> Result<u64, Failure> {
    let id = match value {
        Some(Value::Number(n)) => n.as_u64(),
        Some(Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    };
    id.ok_or_else(|| Failure::Params("background_action needs the job_id that run_in_background returned".into()))
}

fn render_job(job: &Job) -> String {
    let mut text = job_line(job);
    text.push('\n');
    if let Some(output) = &job.output {
        text.push_str(&output.text);
        if !output.text.ends_with('\n') {
            text.push('\n');
        }
    }
    text
}

#[derive(Deserialize)]
struct ExpandArgs {
    #[serde(default)]
    id: String,
    start_line: Option<u32>,
    end_line: Option<u32>,
    #[serde(default)]
    search: String,
}

pub fn expand<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: ExpandArgs = call.parse()?;
        let (id, search) = (args.id.trim().to_string(), args.search);
        // lean-ctx's `search` filters the lines of one output; without an id
        // it can only mean a search of the whole archive.
        let request = if !id.is_empty() {
            ExpandRequest {
                ctx: Some(call.ctx),
                id,
                start_line: args.start_line,
                end_line: args.end_line,
                grep: search,
                search: String::new(),
            }
        } else if !search.trim().is_empty() {
            ExpandRequest { ctx: Some(call.ctx), search, ..ExpandRequest::default() }
        } else {
            return Err(Failure::Params("give the id printed under shortened output, or search".into()));
        };
        let searching = !request.search.is_empty();
        let out = backend.shell().expand(Request::new(request)).await?.into_inner();
        if searching && out.hits.is_empty() {
            return Ok(Output::ok("no archived output matches"));
        }
        Ok(Output::ok(out.text))
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn job_ids_come_as_strings_or_numbers() {
        assert_eq!(job_id(Some(&json!("7"))).unwrap(), 7);
        assert_eq!(job_id(Some(&json!(7))).unwrap(), 7);
        assert!(matches!(job_id(Some(&json!("x"))), Err(Failure::Params(_))));
        assert!(matches!(job_id(None), Err(Failure::Params(_))));
    }
}
