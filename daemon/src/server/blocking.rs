//! Helpers shared by the services that run engine work.

use lean_ctx_proto::v1::{ClientKind, RequestContext};
use tonic::Status;

use crate::engine::Caller;
use crate::engine::cancel::Cancel;
use crate::engine::surface::Surface;

/// Whose wording advice takes: an MCP client's agent gets the tools' parameters, the CLI (and
/// anything else) the flags.
pub fn surface(ctx: &RequestContext) -> Surface {
    match ctx.client.as_ref().map(|c| c.kind()) {
        Some(ClientKind::Mcp) => Surface::Mcp,
        _ => Surface::Cli,
    }
}

pub fn caller(ctx: &RequestContext) -> Caller<'_> {
    Caller {
        cwd: &ctx.cwd,
        project_root: ctx.project_root.as_deref(),
        session: &ctx.session_id,
        // The agent behind the client when the client names one.
        agent: if ctx.agent_id.is_empty() {
            ctx.client.as_ref().map_or("", |c| c.name.as_str())
        } else {
            &ctx.agent_id
        },
        host: &ctx.host,
    }
}

/// Cancels engine work when the call is dropped: a client that disconnects
/// or cancels does not leave its command running or its scan reading files
/// in the daemon.
pub struct CancelOnDrop(pub Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Runs engine work on the blocking pool: it reads files, parses, and
/// talks to SQLite, none of which may stall the async workers.
pub async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, Status> {
    tokio::task::spawn_blocking(work).await.map_err(|e| Status::internal(format!("the request's worker failed: {e}")))
}

#[cfg(test)]
mod tests {
    use lean_ctx_proto::v1::ClientInfo;

    use super::*;

    #[test]
    fn the_agent_is_the_one_named_else_the_client() {
        let client = ClientInfo { name: "lctx-shell".into(), ..ClientInfo::default() };
        let mut ctx = RequestContext { client: Some(client), ..RequestContext::default() };
        assert_eq!(caller(&ctx).agent, "lctx-shell");
        ctx.agent_id = "claude-code".into();
        assert_eq!(caller(&ctx).agent, "claude-code");
    }
}
