//! The engine a client talks to: the daemon, or — when no daemon can be had —
//! a `lean-ctxd --stdio` child of this client (see [`crate::child`]).
//!
//! Both speak the same gRPC services, so every command is written once
//! against the generated clients; only `served_by` differs.

use lean_ctx_proto::v1::ServedBy;
use lean_ctx_proto::v1::control_client::ControlClient;
use lean_ctx_proto::v1::file_context_client::FileContextClient;
use lean_ctx_proto::v1::graph_client::GraphClient;
use lean_ctx_proto::v1::ledger_client::LedgerClient;
use lean_ctx_proto::v1::memory_client::MemoryClient;
use lean_ctx_proto::v1::search_client::SearchClient;
use lean_ctx_proto::v1::shell_client::ShellClient;
use tonic::transport::Channel;

use crate::child::LocalChild;
use crate::daemon::{self, HANDSHAKE_TIMEOUT, MAX_MESSAGE};
use crate::options::ClientOptions;
use crate::transport;

pub struct Backend {
    channel: Channel,
    pub served_by: ServedBy,
    /// Why this client is served by its own child, when it is.
    pub fallback_reason: Option<String>,
    child: Option<LocalChild>,
    /// The daemon's process, when a daemon serves: whether it still runs
    /// tells a connection that died between calls from a live one.
    daemon_pid: Option<u32>,
}

/// Builds a generated client over the channel with the message limits every
/// client uses.
macro_rules! service_client {
    ($name:ident, $client:ident) => {
        pub fn $name(&self) -> $client<Channel> {
            $client::new(self.channel.clone())
                .max_decoding_message_size(MAX_MESSAGE)
                .max_encoding_message_size(MAX_MESSAGE)
        }
    };
}

impl Backend {
    /// The daemon (started or restarted as needed), else a fallback child.
    /// Fails only when neither can be had: no `lean-ctxd` to run, or a child
    /// that cannot start; the message says what is missing.
    pub async fn connect(opts: &ClientOptions) -> Result<Backend, String> {
        if opts.no_daemon {
            return Backend::local(opts, None).await;
        }
        match daemon::ensure(opts).await {
            Ok(d) => Ok(Backend::remote(&d)),
            Err(why) => Backend::local(opts, Some(why)).await,
        }
    }

    pub fn remote(daemon: &daemon::Daemon) -> Backend {
        Backend {
            channel: daemon.channel(),
            served_by: ServedBy::Daemon,
            fallback_reason: None,
            child: None,
            daemon_pid: Some(daemon.hello.pid).filter(|&pid| pid != 0),
        }
    }

    /// Whether the daemon serving this backend has exited (killed, crashed):
    /// a request sent on its connection would reach no one, yet the failure
    /// would look like one that cut a call off while it ran.
    pub fn daemon_exited(&self) -> bool {
        self.daemon_pid.is_some_and(daemon::exited)
    }

    /// A `lean-ctxd --stdio` child serving this client alone. Cross-process
    /// safety then rests on the OS file locks and SQLite's locking
    /// (LOCK_ORDERING.md).
    pub async fn local(opts: &ClientOptions, reason: Option<String>) -> Result<Backend, String> {
        let bin = opts.daemon_bin.as_deref().ok_or_else(|| {
            let missing = opts.missing_daemon_bin();
            // The daemon could not start for the same reason, most often: said once.
            match reason.as_deref().filter(|r| *r != missing) {
                Some(other) => format!("{missing}; and no daemon could be used: {other}"),
                None => missing,
            }
        })?;
        let failed = |child: &LocalChild, what: String| {
            let why = reason.as_deref().map(|r| format!("no daemon ({r}), and ")).unwrap_or_default();
            with_tail(child, &format!("{why}the fallback {} --stdio {what}", bin.display()))
        };
        let (child, stream) = LocalChild::start(bin)?;
        let channel = match tokio::time::timeout(HANDSHAKE_TIMEOUT, transport::channel_once(stream)).await {
            Ok(Ok(channel)) => channel,
            Ok(Err(e)) => return Err(failed(&child, format!("broke its connection: {e}"))),
            Err(_) => return Err(failed(&child, format!("did not answer the handshake within {HANDSHAKE_TIMEOUT:?}"))),
        };
        let backend = Backend {
            channel,
            served_by: ServedBy::Local,
            fallback_reason: reason.clone(),
            child: Some(child),
            daemon_pid: None,
        };
        if let Err(what) = daemon::handshake(&mut backend.control(), opts).await {
            return Err(failed(backend.child.as_ref().expect("just set"), what));
        }
        Ok(backend)
    }

    service_client!(control, ControlClient);
    service_client!(context, FileContextClient);
    service_client!(memory, MemoryClient);
    service_client!(ledger, LedgerClient);
    service_client!(shell, ShellClient);
    service_client!(search, SearchClient);
    service_client!(graph, GraphClient);

    /// The message to show for a failed call. A fallback child whose
    /// connection broke is ended, and the end of its standard error is
    /// appended so a crash or hang explains itself.
    pub fn explain(&self, status: &tonic::Status) -> String {
        let broken = matches!(status.code(), tonic::Code::Unavailable | tonic::Code::Unknown | tonic::Code::Cancelled);
        match &self.child {
            Some(child) if broken => with_tail(child, status.message()),
            // The transport's own errors ("http2 error", a keepalive that
            // timed out) say nothing to a user; a draining daemon's answer
            // says what happened and is passed on as it is.
            None if broken && is_transport_error(status) => format!(
                "lean-ctxd stopped answering during the call ({}); what it was doing may or may not have taken \
                 effect. `lctx daemon status` shows whether it answers again, and `lctx daemon stop` ends a \
                 daemon that hangs; if it died, a command it was running was normally ended with it (by the \
                 command's watchdog, once it had run 100 ms), so run it again",
                status.message()
            ),
            _ => status.message().to_string(),
        }
    }
}

/// Whether a failed call's status came from the connection rather than from
/// the daemon's answer.
fn is_transport_error(status: &tonic::Status) -> bool {
    use std::error::Error as _;
    status.source().is_some() || status.message().contains("transport error") || status.message().contains("http2")
}

/// `message`, then the end of a broken child's stderr (the child is killed).
fn with_tail(child: &LocalChild, message: &str) -> String {
    let tail = child.kill_and_tail();
    if tail.is_empty() {
        format!("{message} (the fallback lean-ctxd wrote nothing on stderr)")
    } else {
        format!("{message}\n--- end of the fallback lean-ctxd's stderr ---\n{tail}")
    }
}
