//! The lean_ctx.v1 gRPC protocol: generated messages, client stubs and server
//! traits. See docs/protocol.md for the contract these types carry.

/// Generated code of package `lean_ctx.v1`.
pub mod v1 {
    #![allow(clippy::all)]
    tonic::include_proto!("lean_ctx.v1");
}

/// Protocol versions this build speaks, inclusive. Bump `PROTOCOL_MAX` when a
/// message or call is added; bump `PROTOCOL_MIN` only when an old client can
/// no longer be served.
///
/// 3: closed sets (actions, modes, periods, group-by, phases, sources,
/// states) became enums at new field numbers; 1 and 2 sent them as strings.
/// 4: guardrails — RequestContext.host, FileView.rules and .redacted, and
/// FileContext/Rules.
/// 5: Shell/Check, so lctx-shell applies the user's rules to the commands it
/// runs itself.
/// 6: the Graph service (Graph/Callgraph, ctx_callgraph).
/// 7: Graph/Repomap (ctx_repomap).
/// 8: Graph/Related (ctx_graph) and Graph/Impact (ctx_impact).
/// 9: precise mode of Graph/Callgraph (CallgraphRequest.precise, RESOLUTION_PRECISE and the
/// answer's source).
/// 10: ExecRequest.timeout_ms (timeouts to the millisecond) and ExpandRequest.limit with an id
/// (at most that many lines).
/// 11: jobs are per session — JobsRequest.all_sessions, Job.session and Job.cancelling; CANCEL
/// answers once the job has stopped (or says it is still stopping).
/// 12: a session is its id within its project, for jobs too — Job.yours; ExecRequest.given_env,
/// the variables the caller set for the command, apart from its own environment.
pub const PROTOCOL_MIN: u32 = 3;
pub const PROTOCOL_MAX: u32 = 12;
