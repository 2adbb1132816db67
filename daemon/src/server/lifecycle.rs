//! The daemon's life: start-up checks, serving, idle exit, graceful stop.
//!
//! Start: private runtime dir → exclusive `lean-ctxd.lock` → stored data made
//! private → bind the socket (0600) → serve. Stop (SIGTERM, SIGINT, SIGHUP, Shutdown
//! RPC or idleness): stop accepting and unlink the socket, let in-flight
//! requests finish within the drain deadline, flush, release the lock. A
//! watchdog thread ends the process if that sequence itself hangs.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use lean_ctx_common::privacy;
use lean_ctx_proto::v1::control_server::ControlServer;
use lean_ctx_proto::v1::file_context_server::FileContextServer;
use lean_ctx_proto::v1::graph_server::GraphServer;
use lean_ctx_proto::v1::ledger_server::LedgerServer;
use lean_ctx_proto::v1::memory_server::MemoryServer;
use lean_ctx_proto::v1::search_server::SearchServer;
use lean_ctx_proto::v1::shell_server::ShellServer;
use tokio_stream::wrappers::ReceiverStream;
use tonic::service::Routes;

use super::context::ContextService;
use super::control::ControlService;
use super::drain::DrainLayer;
use super::graph::GraphService;
use super::host::Host;
use super::memory::MemoryService;
use super::search::SearchService;
use super::shell::ShellService;
use super::{runtime_dir, singleton, transport};
use crate::engine::Engine;
use crate::engine::paths::{self, Dirs};

/// Extra time the watchdog allows beyond the drain deadline for flushing.
const WATCHDOG_GRACE: Duration = Duration::from_secs(5);
/// How often the daemon checks that its socket is still there.
const SOCKET_CHECK: Duration = Duration::from_secs(1);
/// Time given to Unavailable answers to reach clients after the deadline.
const FLUSH_ANSWERS: Duration = Duration::from_millis(500);

#[derive(Debug, Default, Clone)]
pub struct DaemonOptions {
    /// Listen here instead of the runtime directory's socket.
    pub socket: Option<PathBuf>,
    /// Overrides `idle_timeout_secs` of the config; zero disables.
    pub idle_timeout: Option<Duration>,
}

/// Runs the daemon in this process until it is stopped.
pub fn run(opts: DaemonOptions) -> Result<(), String> {
    let dirs = Dirs::from_env()?;
    let socket = opts.socket.clone().unwrap_or_else(|| dirs.socket());
    paths::check_socket_path(&socket)?;
    runtime_dir::ensure_private_dir(&dirs.runtime)?;
    if let Some(parent) = socket.parent() {
        runtime_dir::ensure_private_dir(parent)?;
    }
    crate::logging::init(&dirs.log_dir())?;
    let lock = singleton::acquire(&dirs.daemon_lock())?;
    repair_permissions(&dirs);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(16)
        .thread_name("lean-ctxd")
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let result = runtime.block_on(serve(dirs, socket.clone(), opts.idle_timeout));
    // Requests still running past the drain deadline are dropped here; the
    // accept loop has unlinked the socket if it was still this daemon's.
    runtime.shutdown_timeout(Duration::from_millis(200));
    drop(lock);
    tracing::info!("lean-ctxd stopped");
    result
}

/// Makes what an earlier version or a lax umask left readable to others
/// private again (the process umask keeps what is created from now on so).
pub(super) fn repair_permissions(dirs: &Dirs) {
    for repair in privacy::repair_permissions(dirs) {
        tracing::warn!("{repair}");
    }
}

async fn serve(dirs: Dirs, socket: PathBuf, idle_override: Option<Duration>) -> Result<(), String> {
    let engine = Arc::new(Engine::daemon(dirs));
    let config = engine.config.get();
    let max_message = usize::try_from(config.max_message_bytes).unwrap_or(usize::MAX);
    let host = Arc::new(Host::daemon(socket.clone(), idle_override));
    // Handlers before the socket: a signal sent once the socket shows (a test's, a service
    // manager's) must drain, not meet the default action that ends the process where it stands.
    let signals = stop_signals();
    let (listener, socket_file) =
        transport::bind(&socket).map_err(|e| format!("cannot listen on {}: {e}", socket.display()))?;
    tracing::info!(
        pid = std::process::id(),
        version = crate::build_info::VERSION,
        socket = %socket.display(),
        "lean-ctxd listening"
    );

    let (tx, rx) = tokio::sync::mpsc::channel(64);
    tokio::spawn(transport::accept_loop(listener, transport::Unlink(socket.clone(), socket_file), host.clone(), tx));
    tokio::spawn(watch_socket(host.clone(), socket.clone(), socket_file));
    tokio::spawn(watch_signals(host.clone(), signals));
    tokio::spawn(watch_idle(host.clone(), engine.clone()));

    let server = tonic::transport::Server::builder()
        .layer(DrainLayer::new(host.clone()))
        .add_routes(routes(&engine, &host, max_message))
        .serve_with_incoming_shutdown(ReceiverStream::new(rx), host.shutdown_signal());

    let drain = async {
        host.shutdown_signal().await;
        let deadline = Duration::from_secs(engine.config.get().drain_timeout_secs);
        start_watchdog(deadline + WATCHDOG_GRACE);
        tokio::time::sleep(deadline).await;
        deadline
    };
    tokio::pin!(server);
    let stopped = tokio::select! {
        served = &mut server => served.map_err(|e| format!("server failed: {e}")),
        deadline = drain => {
            tracing::warn!("requests still running after the {deadline:?} drain deadline; answering them Unavailable");
            host.expire_drain();
            // Let those answers reach their clients before the runtime stops.
            let _ = tokio::time::timeout(FLUSH_ANSWERS, server).await;
            Ok(())
        }
    };
    // Language servers stop with the daemon, however it stops.
    engine.lsp.stop_all();
    // Ledger events still queued for state.db are appended (or counted) before the process ends.
    engine.memory.flush();
    stopped
}

/// Every service, as the daemon and the one-connection pipe server both
/// serve them, each bounded by the configured `max_message_bytes`.
pub(super) fn routes(engine: &Arc<Engine>, host: &Arc<Host>, max_message: usize) -> Routes {
    let memory = MemoryService::new(engine.clone(), host.clone());
    let mut routes = Routes::builder();
    routes
        .add_service(
            ControlServer::new(ControlService::new(engine.clone(), host.clone()))
                .max_decoding_message_size(max_message)
                .max_encoding_message_size(max_message),
        )
        .add_service(
            FileContextServer::new(ContextService::new(engine.clone(), host.clone()))
                .max_decoding_message_size(max_message)
                .max_encoding_message_size(max_message),
        )
        .add_service(
            MemoryServer::new(memory.clone())
                .max_decoding_message_size(max_message)
                .max_encoding_message_size(max_message),
        )
        .add_service(
            LedgerServer::new(memory).max_decoding_message_size(max_message).max_encoding_message_size(max_message),
        )
        .add_service(
            SearchServer::new(SearchService::new(engine.clone(), host.clone()))
                .max_decoding_message_size(max_message)
                .max_encoding_message_size(max_message),
        )
        .add_service(
            GraphServer::new(GraphService::new(engine.clone(), host.clone()))
                .max_decoding_message_size(max_message)
                .max_encoding_message_size(max_message),
        )
        .add_service(
            ShellServer::new(ShellService::new(engine.clone(), host.clone()))
                .max_decoding_message_size(max_message)
                .max_encoding_message_size(max_message),
        );
    routes.routes()
}

/// Ends the process if the orderly stop takes longer than `after`.
fn start_watchdog(after: Duration) {
    std::thread::spawn(move || {
        std::thread::sleep(after);
        tracing::error!("shutdown did not finish within {after:?}; exiting hard");
        std::process::exit(70);
    });
}

/// SIGTERM, SIGINT and SIGHUP, each caught from here on. SIGHUP too: its default action ended the
/// daemon at once, undrained, its socket left behind (a QA pass); a daemon has no terminal to
/// reload for.
type StopSignals = [tokio::signal::unix::Signal; 3];

fn stop_signals() -> Option<StopSignals> {
    use tokio::signal::unix::{SignalKind, signal};
    let installed = (signal(SignalKind::terminate()), signal(SignalKind::interrupt()), signal(SignalKind::hangup()));
    match installed {
        (Ok(term), Ok(int), Ok(hup)) => Some([term, int, hup]),
        _ => {
            tracing::error!("cannot install signal handlers; stop the daemon with `lctx daemon stop`");
            None
        }
    }
}

async fn watch_signals(host: Arc<Host>, signals: Option<StopSignals>) {
    let Some([mut term, mut int, mut hup]) = signals else { return };
    tokio::select! {
        _ = term.recv() => host.trigger_shutdown("SIGTERM"),
        _ = int.recv() => host.trigger_shutdown("SIGINT"),
        _ = hup.recv() => host.trigger_shutdown("SIGHUP"),
    }
}

/// Stops the daemon when its socket is removed or replaced (its runtime dir
/// deleted, another daemon bound in its place): no client can reach it any
/// more, and it must not go on beside a successor on the same home.
async fn watch_socket(host: Arc<Host>, path: PathBuf, file: transport::SocketFile) {
    loop {
        tokio::select! {
            () = host.shutdown_signal() => return,
            () = tokio::time::sleep(SOCKET_CHECK) => {}
        }
        if !file.is_at(&path) {
            tracing::warn!(socket = %path.display(), "the socket was removed or replaced; stopping");
            host.trigger_shutdown("socket gone");
            return;
        }
    }
}

/// Stops the daemon after the idle timeout with no connection and no
/// request. The timeout is re-read from the config on every tick, so
/// `lctx config set idle_timeout_secs` applies without a restart.
async fn watch_idle(host: Arc<Host>, engine: Arc<Engine>) {
    loop {
        let timeout =
            host.idle_timeout_override.unwrap_or_else(|| Duration::from_secs(engine.config.get().idle_timeout_secs));
        let tick = if timeout.is_zero() {
            Duration::from_secs(5)
        } else {
            (timeout / 4).clamp(Duration::from_millis(100), Duration::from_secs(5))
        };
        tokio::select! {
            () = host.shutdown_signal() => return,
            () = tokio::time::sleep(tick) => {}
        }
        if !timeout.is_zero() && host.idle_for() >= timeout {
            host.trigger_shutdown("idle timeout");
            return;
        }
    }
}
