//! Helpers shared by the services that run engine work.

use lean_ctx_proto::v1::RequestContext;
use tonic::Status;

use crate::engine::Caller;

pub fn caller(ctx: &RequestContext) -> Caller<'_> {
    Caller {
        cwd: &ctx.cwd,
        project_root: ctx.project_root.as_deref(),
        session: &ctx.session_id,
        agent: ctx.client.as_ref().map_or("", |c| c.name.as_str()),
    }
}

/// Runs engine work on the blocking pool: it reads files, parses, and
/// talks to SQLite, none of which may stall the async workers.
pub async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, Status> {
    tokio::task::spawn_blocking(work).await.map_err(|e| Status::internal(format!("the request's worker failed: {e}")))
}
