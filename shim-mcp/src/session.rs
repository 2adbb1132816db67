//! One MCP connection is one session: the id it is born with, and the
//! `RequestContext` every call carries.

use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

use lctx::options::ClientOptions;
use lean_ctx_proto::v1::{ClientInfo, ClientKind, RequestContext};
use rmcp::model::Implementation;

/// `mcp-<pid>-<16 hex digits>`. The digits hash the clock and pid with
/// std's randomly keyed hasher: unique across connections without a
/// random-number dependency.
pub fn new_session_id() -> String {
    let pid = std::process::id();
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(nanos);
    hasher.write_u32(pid);
    format!("mcp-{pid}-{:016x}", hasher.finish())
}

/// The context of one tool call: this process's cwd, the connection's
/// session, and the MCP host (from `initialize`, or from the request's own
/// metadata since 2026-07-28) as the agent's identity.
pub fn request_context(opts: &ClientOptions, host: Option<&Implementation>) -> RequestContext {
    let mut ctx = opts.context();
    if let Some(host) = host {
        ctx.client =
            Some(ClientInfo { kind: ClientKind::Mcp as i32, name: host.name.clone(), version: host.version.clone() });
        ctx.agent_id =
            if host.version.is_empty() { host.name.clone() } else { format!("{} {}", host.name, host.version) };
    }
    ctx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_name_the_process_and_differ() {
        let (a, b) = (new_session_id(), new_session_id());
        assert!(a.starts_with(&format!("mcp-{}-", std::process::id())), "{a}");
        assert_eq!(a.len(), b.len());
        assert_ne!(a, b);
    }
}
