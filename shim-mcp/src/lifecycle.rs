//! The session's lifecycle as the transport sees it: before rmcp has begun a
//! session, and after.
//!
//! rmcp's start-up loop answers pings and refuses early requests, but ends
//! the whole server on anything else that comes before the session begins: a
//! notification (`notifications/initialized` after a refused `initialize`, a
//! `notifications/cancelled`) or a response. MCP has such messages ignored,
//! so the transport drops them, logged, and rmcp never sees them. Once the
//! session has begun, a second `initialize` is refused: the session's
//! protocol version and client are fixed by the first.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rmcp::model::{
    ClientCapabilities, ClientRequest, ErrorData, Implementation, JsonRpcMessage, ProtocolVersion, RequestId,
};
use rmcp::service::{RunningService, RxJsonRpcMessage, ServerInitializeError};
use rmcp::{RoleServer, ServiceExt as _};
use serde::Deserialize;
use serde_json::Value;
use tokio::io::AsyncRead;

use crate::server::Shim;
use crate::stdio::Stdio;

/// Serves `shim` on `transport` once a session begins. `None`: the input
/// ended before one did (a host that gave up before the handshake), which
/// is no failure: the server stops when its input ends.
pub async fn serve<R: AsyncRead + Unpin + Send + 'static>(
    shim: Shim,
    transport: Stdio<R>,
) -> Result<Option<RunningService<RoleServer, Shim>>, ServerInitializeError> {
    let begun = transport.begun();
    match shim.serve(transport).await {
        Ok(service) => {
            begun.mark();
            Ok(Some(service))
        }
        Err(ServerInitializeError::ConnectionClosed(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Whether the session has begun: rmcp answered `initialize`, or took a first
/// request of protocol 2026-07-28 (which has no handshake). Only the caller of
/// rmcp's `serve` learns that, when it returns ([`serve`]); it tells the
/// transport through a clone of this.
#[derive(Clone, Default)]
pub struct Begun(Arc<AtomicBool>);

impl Begun {
    /// Called as soon as rmcp's `serve` returns a running service, before
    /// anything else runs: on a current-thread runtime (lctx-mcp's, and the
    /// fuzz target's) the service's loop, which reads the next message,
    /// cannot run before this caller yields.
    fn mark(&self) {
        self.0.store(true, Ordering::Release);
    }

    pub(crate) fn get(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }

    /// What to do with a message read: hand it to rmcp, drop it, or refuse it.
    pub(crate) fn admit(&self, message: RxJsonRpcMessage<RoleServer>) -> Admit {
        let begun = self.get();
        match message {
            JsonRpcMessage::Notification(n) if !begun => {
                let method = serde_json::to_value(&n).ok().and_then(|v| v["method"].as_str().map(str::to_string));
                tracing::warn!(
                    "ignoring the {} notification: no session yet (no `initialize` has succeeded)",
                    method.as_deref().unwrap_or("unnamed")
                );
                Admit::Drop
            }
            JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_) if !begun => {
                tracing::warn!("ignoring a response: no session yet, so no request of this server awaits one");
                Admit::Drop
            }
            JsonRpcMessage::Request(r) if begun && matches!(r.request, ClientRequest::InitializeRequest(_)) => {
                Admit::Refuse(
                    r.id,
                    ErrorData::invalid_request(
                        "this connection's session has already begun: `initialize` is sent once per connection \
                         (start a new lctx-mcp for a new session)",
                        None,
                    ),
                )
            }
            message => Admit::Pass(Box::new(message)),
        }
    }
}

pub(crate) enum Admit {
    Pass(Box<RxJsonRpcMessage<RoleServer>>),
    Drop,
    Refuse(RequestId, ErrorData),
}

/// The most of one member's problem an answer quotes.
const MAX_PROBLEM: usize = 200;

/// What is wrong with an `initialize` request's params that rmcp could not
/// read: each required member that is missing or of the wrong type, named.
pub(crate) fn initialize_problems(params: &Value) -> Option<String> {
    fn member<T: for<'de> Deserialize<'de>>(params: &Value, name: &str) -> Option<String> {
        match params.get(name) {
            None | Some(Value::Null) => Some(format!("`{name}` is missing")),
            // serde's message may quote the value (`invalid type: string "…"`): cut, so an answer
            // never echoes a client's input of any size.
            Some(value) => T::deserialize(value).err().map(|e| {
                let said: String = e.to_string().chars().take(MAX_PROBLEM).collect();
                format!("`{name}`: {said}")
            }),
        }
    }
    // The kind, not the value: an answer never echoes a client's input of any size.
    let not_object = match params {
        Value::Object(_) => None,
        Value::Null => Some("null"),
        Value::Bool(_) => Some("a boolean"),
        Value::Number(_) => Some("a number"),
        Value::String(_) => Some("a string"),
        Value::Array(_) => Some("an array"),
    };
    if let Some(kind) = not_object {
        return Some(format!(
            "params must be an object holding protocolVersion, capabilities and clientInfo, not {kind}"
        ));
    }
    let problems: Vec<String> = [
        member::<ProtocolVersion>(params, "protocolVersion"),
        member::<ClientCapabilities>(params, "capabilities"),
        member::<Implementation>(params, "clientInfo"),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!problems.is_empty()).then(|| problems.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_missing_or_mistyped_initialize_member_is_named() {
        let client = json!({"name": "host", "version": "1"});
        let cases = [
            (json!({"capabilities": {}, "clientInfo": client}), "`protocolVersion` is missing"),
            (json!({"protocolVersion": "2025-06-18", "capabilities": {}}), "`clientInfo` is missing"),
            (json!({"protocolVersion": "2025-06-18", "clientInfo": client}), "`capabilities` is missing"),
            (
                json!({"protocolVersion": 5, "capabilities": {}, "clientInfo": client}),
                "`protocolVersion`: invalid type: integer `5`, expected a string",
            ),
            (
                json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "host"}}),
                "`clientInfo`: missing field `version`",
            ),
            (json!({}), "`protocolVersion` is missing; `capabilities` is missing; `clientInfo` is missing"),
            (json!([1]), "params must be an object holding protocolVersion, capabilities and clientInfo, not an array"),
            // An `initialize` without params reaches here as null.
            (json!(null), "params must be an object holding protocolVersion, capabilities and clientInfo, not null"),
        ];
        for (params, want) in cases {
            assert_eq!(initialize_problems(&params).as_deref(), Some(want), "{params}");
        }
        let fine = json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client});
        assert_eq!(initialize_problems(&fine), None);
        // A huge value is not echoed back.
        let huge = json!({"protocolVersion": "2025-06-18", "capabilities": "x".repeat(100_000), "clientInfo": client});
        let said = initialize_problems(&huge).unwrap();
        assert!(said.starts_with("`capabilities`: invalid type: string") && said.len() < 300, "{said}");
    }
}
