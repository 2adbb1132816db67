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

impl v1::Job {
    /// The job as an answer about it shows it (the client renders it, the daemon books it).
    pub fn shown(&self) -> lean_ctx_common::framing::JobShown<'_> {
        lean_ctx_common::framing::JobShown {
            id: self.id,
            command: &self.command,
            running: self.running,
            cancelling: self.cancelling,
            cancelled: self.cancelled,
            timed_out: self.timed_out,
            exit_code: self.exit_code,
            elapsed_ms: self.elapsed_ms,
            session: &self.session,
            yours: self.yours,
            output: self.output.as_ref().map(|o| o.text.as_str()),
        }
    }
}

impl v1::JobsAction {
    /// What the action asks, as its answer reads (an unspecified action lists, as the daemon
    /// answers it).
    pub fn question(self) -> lean_ctx_common::framing::JobQuestion {
        use lean_ctx_common::framing::JobQuestion;
        match self {
            v1::JobsAction::Unspecified | v1::JobsAction::List => JobQuestion::List,
            v1::JobsAction::Status => JobQuestion::Status,
            v1::JobsAction::Cancel => JobQuestion::Cancel,
        }
    }
}
