//! The MCP server: advertises the profile's tools and forwards each call.
//!
//! rmcp handles both protocol eras: the `initialize` handshake (2024-11-05
//! to 2025-11-25) and `server/discover` with per-request metadata
//! (2026-07-28). The host's identity comes from whichever the request used.

use std::sync::Arc;

use lctx::options::ClientOptions;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::Value;

use crate::profile::Selection;
use crate::retry::Backends;
use crate::session;
use crate::tools::{self, Failure, arguments};

pub struct Shim {
    opts: ClientOptions,
    backends: Arc<Backends>,
    selection: Selection,
    /// Fixed for the connection: hosts load the list once per session.
    tools: ListToolsResult,
    instructions: String,
}

impl Shim {
    pub fn new(opts: ClientOptions, selection: Selection) -> Shim {
        for name in &selection.disabled {
            if tools::find(name).is_none() {
                tracing::warn!("disabled tool {name:?} does not exist");
            }
        }
        let tools = ListToolsResult::with_all_items(tools::listed(&selection).map(tools::ToolSpec::tool).collect());
        let instructions = tools::instructions(&selection);
        Shim { backends: Backends::start(opts.clone()), opts, selection, tools, instructions }
    }
}

impl ServerHandler for Shim {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("lctx-mcp", env!("CARGO_PKG_VERSION")))
            .with_instructions(self.instructions.clone())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(self.tools.clone())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.as_ref();
        let spec =
            tools::find(name).ok_or_else(|| McpError::invalid_params(format!("tool not found: {name}"), None))?;
        if self.selection.is_disabled(spec.name) {
            return Err(McpError::invalid_params(format!("tool {name} is disabled (mcp_disabled_tools)"), None));
        }
        let mut args = request.arguments.unwrap_or_default();
        let fits = arguments::check(spec, &mut args);
        let args = Value::Object(args);
        let outcome = match fits {
            Ok(()) => {
                let ctx = session::request_context(&self.opts, context.client_info().as_ref());
                // Dropping the call on cancellation drops its gRPC future, which
                // makes the daemon stop the work (and kill a running command).
                tokio::select! {
                    outcome = self.backends.call(spec, ctx, &args) => outcome,
                    () = context.ct.cancelled() => return Err(McpError::internal_error("cancelled", None)),
                }
            }
            Err(misfits) => Err(Failure::Refused(misfits)),
        };
        let (mut text, is_error, structured) = match outcome {
            Ok(answer) => (answer.text, answer.is_error, structured(&answer.json)),
            Err(Failure::Status(status)) => (status.message().to_string(), true, None),
            Err(Failure::Refused(why)) => (why, true, None),
        };
        let unknown = spec.unknown_params(&args);
        if !unknown.is_empty() {
            let named: Vec<String> = unknown.iter().map(|u| spec.unknown_with_hint(u)).collect();
            text.push_str(&format!("\n[{name} ignored unknown parameters: {}]", named.join(", ")));
        }
        // Only an answer can have ignored them; a refusal already says what was wrong.
        let unused = if is_error { Vec::new() } else { spec.unused_params(&args) };
        if !unused.is_empty() {
            let action = spec.action(&args);
            text.push_str(&format!("\n[{name} ignored parameters {action} does not use: {}]", unused.join(", ")));
        }
        let content = vec![ContentBlock::text(text)];
        let mut result = if is_error { CallToolResult::error(content) } else { CallToolResult::success(content) };
        result.structured_content = structured;
        Ok(result.into())
    }
}

/// A command's exit status, or the id of the background job it started, as structured content,
/// so a host or agent reads it without parsing `[exit:N]` or the text; other answers carry none.
fn structured(json: &Value) -> Option<Value> {
    if let Some(job_id) = json.get("job_id").filter(|_| json.get("exit_code").is_none()) {
        return Some(serde_json::json!({"job_id": job_id}));
    }
    let exit_code = json.get("exit_code")?;
    Some(serde_json::json!({"exit_code": exit_code, "timed_out": json.get("timed_out").cloned().unwrap_or_default()}))
}
