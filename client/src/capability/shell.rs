//! ctx_shell (run, background jobs) and ctx_expand.
//!
//! Commands run with the caller's environment and working directory, as if
//! the caller had run them itself.

use std::collections::HashMap;

use lean_ctx_common::framing::{self, CommandEnd, JobShown, TIMED_OUT};
use lean_ctx_common::limits::MAX_COMMAND_TIMEOUT_MS;
use lean_ctx_proto::v1::{ExecRequest, ExpandRequest, Job, JobsAction, JobsRequest, RequestContext};
use lean_ctx_shell_syntax::quote;
use serde_json::json;

use super::{Answer, Error, Result, Surface};
use crate::backend::Backend;

#[derive(Debug, Clone, Default)]
pub struct RunArgs {
    /// Run by `sh -c`.
    pub command: String,
    /// Uncompressed output.
    pub raw: bool,
    /// Milliseconds, honoured as given; None means the daemon's default
    /// (120 s). 1 to [`MAX_COMMAND_TIMEOUT_MS`].
    pub timeout_ms: Option<u64>,
    /// Working directory, relative to the context's cwd.
    pub cwd: Option<String>,
    /// Added to (and overriding) this process's environment.
    pub env: HashMap<String, String>,
    /// Start as a background job and answer with its id at once.
    pub background: bool,
}

pub async fn run(backend: &Backend, ctx: RequestContext, args: RunArgs, surface: Surface) -> Result<Answer> {
    if args.command.trim().is_empty() {
        return Err(Error::Usage("give the command to run".into()));
    }
    if let Some(ms) = args.timeout_ms
        && !(1..=MAX_COMMAND_TIMEOUT_MS).contains(&ms)
    {
        return Err(Error::Usage(format!(
            "timeout_ms must be between 1 and {MAX_COMMAND_TIMEOUT_MS} (an hour), got {ms}; leave it out for the default of \
             120000"
        )));
    }
    // Variables that are not UTF-8 cannot travel in the protocol; skip them
    // rather than fail (std::env::vars would panic). What the caller set for
    // the command travels apart: the user's rules judge it as part of the line.
    let env: HashMap<String, String> =
        std::env::vars_os().filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?))).collect();
    let request = ExecRequest {
        ctx: Some(ctx),
        command: args.command,
        env,
        given_env: args.env,
        timeout_ms: args.timeout_ms.unwrap_or(0),
        // For a daemon of protocol 9 or older, which knows only whole seconds.
        timeout_secs: args.timeout_ms.map_or(0, |ms| u32::try_from(ms.div_ceil(1000)).unwrap_or(u32::MAX)),
        raw: args.raw,
        background: args.background,
        // The project stays the one of ctx.cwd: the daemon checks that the
        // directory lies inside it.
        cwd: args.cwd.unwrap_or_default(),
    };
    let out = backend.shell().exec(request).await?.into_inner();
    if args.background {
        return Ok(Answer::ok(framing::job_started(out.job_id, surface), json!({"job_id": out.job_id})));
    }
    let shaped = out.output.unwrap_or_default();
    // Built as the daemon built what it booked as sent.
    let end =
        CommandEnd { exit_code: out.exit_code, timed_out: out.timed_out, duration_ms: out.duration_ms, raw: args.raw };
    let text = framing::command_answer(&shaped.text, &end);
    // The call's exit code, in the JSON too (an MCP host's structured content): a timed-out
    // command ended as the timeout made it (the text's `[exit:137]`, which the note explains).
    let exit_code = if out.timed_out { TIMED_OUT } else { out.exit_code };
    let json = json!({
        "exit_code": exit_code, "timed_out": out.timed_out, "duration_ms": out.duration_ms,
        "family": shaped.family, "shortened": shaped.shortened, "archive_id": shaped.archive_id,
        "raw_tokens": shaped.raw_tokens, "sent_tokens": shaped.sent_tokens, "output": shaped.text,
    });
    // A command that ran and failed is an answer, not a failed call: its exit
    // code travels in the text (`[exit:N]`) and in the JSON.
    Ok(Answer { text, is_error: false, exit_code, json })
}

/// Job actions by name.
pub const JOB_ACTIONS: [(&str, JobsAction); 3] =
    [("list", JobsAction::List), ("status", JobsAction::Status), ("cancel", JobsAction::Cancel)];

/// The actions ctx_shell's `background_action` takes.
pub const BACKGROUND_ACTION_NAMES: [&str; 3] = super::names(&JOB_ACTIONS);

pub fn parse_job_action(name: &str) -> Result<JobsAction> {
    super::parse_name("background_action", name, &JOB_ACTIONS)
}

/// One question about background jobs. Jobs are the session's own (the
/// context's session id): status and cancel of another session's job are
/// refused; `all_sessions` lists every session's, read-only.
#[derive(Debug, Clone, Copy)]
pub struct JobsQuery {
    pub action: JobsAction,
    /// The job, for status and cancel.
    pub id: u64,
    pub all_sessions: bool,
}

pub async fn jobs(backend: &Backend, ctx: RequestContext, q: JobsQuery, surface: Surface) -> Result<Answer> {
    let request = JobsRequest { ctx: Some(ctx), action: q.action as i32, id: q.id, all_sessions: q.all_sessions };
    let jobs = backend.shell().jobs(request).await?.into_inner().jobs;
    // Built as the daemon built what it booked as sent.
    let shown: Vec<JobShown<'_>> = jobs.iter().map(Job::shown).collect();
    let text = framing::jobs_answer(&shown, q.action.question(), q.all_sessions, surface);
    let json = json!({"jobs": jobs.iter().map(|j| json!({
        "id": j.id, "command": j.command, "running": j.running, "cancelling": j.cancelling,
        "exit_code": j.exit_code, "elapsed_ms": j.elapsed_ms, "timed_out": j.timed_out, "cancelled": j.cancelled,
        "session": j.session, "yours": j.yours, "output": j.output.as_ref().map_or_else(String::new, |o| o.text.clone()),
    })).collect::<Vec<_>>()});
    Ok(Answer::ok(text, json))
}

#[derive(Debug, Clone, Default)]
pub struct ExpandArgs {
    /// The handle printed under shortened output.
    pub id: String,
    /// Inclusive 1-based window of the output.
    pub start_line: Option<u32>,
    pub end_line: Option<u32>,
    /// With an id: only lines matching this regex. Without: find archived
    /// outputs mentioning it (lean-ctx's `search`).
    pub search: String,
    /// Searching: at most this many outputs; with an id: at most this many
    /// lines (matching lines with `search`). 0 means the daemon's default.
    pub limit: u32,
}

pub async fn expand(backend: &Backend, ctx: RequestContext, args: ExpandArgs) -> Result<Answer> {
    let id = args.id.trim().to_string();
    let request = if !id.is_empty() {
        ExpandRequest {
            ctx: Some(ctx),
            id,
            start_line: args.start_line,
            end_line: args.end_line,
            grep: args.search,
            search: String::new(),
            limit: args.limit,
        }
    } else if !args.search.trim().is_empty() {
        ExpandRequest { ctx: Some(ctx), search: args.search, limit: args.limit, ..ExpandRequest::default() }
    } else {
        return Err(Error::Usage("give the id printed under shortened output, or search".into()));
    };
    let searching = !request.search.is_empty();
    let out = backend.shell().expand(request).await?.into_inner();
    let json = json!({
        "text": out.text, "total_lines": out.total_lines,
        "hits": out.hits.iter().map(|h| json!({"id": h.id, "label": h.label, "created_ms": h.created_ms,
                                               "snippet": h.snippet})).collect::<Vec<_>>(),
    });
    if searching && out.hits.is_empty() {
        return Ok(Answer::ok("no archived output matches".into(), json));
    }
    Ok(Answer::ok(out.text, json))
}

/// Words sh reads as its own syntax when they come first.
const RESERVED: [&str; 13] =
    ["if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until", "for", "in"];

/// `words` (a program and its arguments) as one line `sh -c` reads back as
/// exactly these words: each bare when nothing in it is special to sh, else
/// single-quoted (a `'` inside as `'\''`); the first also where sh would
/// take it for an assignment or a reserved word. `lctx run` and
/// `lctx-shell run` send commands this way, and permission rules and output
/// compression read them.
pub fn sh_words(words: &[impl AsRef<str>]) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-+=.,:/@%".contains(c);
    let word = |(i, word): (usize, &str)| {
        let syntax = i == 0 && (word.contains('=') || RESERVED.contains(&word));
        if !word.is_empty() && word.chars().all(plain) && !syntax { word.to_string() } else { quote(word) }
    };
    words.iter().map(AsRef::as_ref).enumerate().map(word).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_actions_are_a_closed_set() {
        assert_eq!(parse_job_action("cancel").unwrap(), JobsAction::Cancel);
        assert!(matches!(parse_job_action("kill"), Err(Error::Usage(m)) if m.contains("status, cancel")));
        for name in BACKGROUND_ACTION_NAMES {
            parse_job_action(name).unwrap();
        }
    }
}
