//! ctx_shell (and its alias `shell`) and ctx_expand: lean-ctx's parameters →
//! [`lctx::capability::shell`].

use std::collections::HashMap;

use lctx::backend::Backend;
use lctx::capability::{Surface, shell};
use lean_ctx_proto::v1::JobsAction;
use serde::Deserialize;
use serde_json::Value;

use super::{Call, Failure, Reply};

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
        if let Some(action) = args.background_action {
            if !args.command.trim().is_empty() {
                return Err(Failure::Refused(
                    "give command (to run it) or background_action (to manage a job), not both: the command was not \
                     run"
                    .into(),
                ));
            }
            // The connection's own jobs only: one MCP connection is one
            // session, and another session's jobs are not its to see or stop.
            let action = shell::parse_job_action(&action)?;
            let id = if action == JobsAction::List { 0 } else { job_id(args.job_id.as_ref())? };
            let query = shell::JobsQuery { action, id, all_sessions: false };
            return Ok(shell::jobs(backend, call.ctx, query, Surface::Mcp).await?);
        }
        // A value the schema allows but the tool cannot use is a tool error
        // (docs/mcp.md), as is one the schema does not allow.
        if args.command.trim().is_empty() {
            return Err(Failure::Refused("give command (or background_action with job_id)".into()));
        }
        let run = shell::RunArgs {
            command: args.command,
            raw: args.raw,
            timeout_ms: args.timeout_ms,
            cwd: args.cwd,
            env: args.env,
            background: args.run_in_background,
        };
        Ok(shell::run(backend, call.ctx, run, Surface::Mcp).await?)
    })
}

fn job_id(value: Option<&Value>) -> Result<u64, Failure> {
    let id = match value {
        None | Some(Value::Null) => {
            return Err(Failure::Refused("background_action needs the job_id that run_in_background returned".into()));
        }
        Some(Value::Number(n)) => n.as_u64(),
        Some(Value::String(s)) => s.trim().parse().ok(),
        Some(_) => None,
    };
    id.ok_or_else(|| {
        Failure::Refused(format!(
            "job_id {} is not a job's id: give the number run_in_background returned (background_action=list \
             lists this session's jobs)",
            value.map(Value::to_string).unwrap_or_default()
        ))
    })
}

#[derive(Deserialize)]
struct ExpandArgs {
    #[serde(default)]
    id: String,
    start_line: Option<u32>,
    end_line: Option<u32>,
    #[serde(default)]
    search: String,
    #[serde(default)]
    limit: u32,
}

pub fn expand<'a>(backend: &'a Backend, call: Call<'a>) -> Reply<'a> {
    Box::pin(async move {
        let args: ExpandArgs = call.parse()?;
        let expand = shell::ExpandArgs {
            id: args.id,
            start_line: args.start_line,
            end_line: args.end_line,
            search: args.search,
            limit: args.limit,
        };
        Ok(shell::expand(backend, call.ctx, expand).await?)
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
        assert!(matches!(job_id(Some(&json!("x"))), Err(Failure::Refused(_))));
        assert!(matches!(job_id(None), Err(Failure::Refused(_))));
    }
}
