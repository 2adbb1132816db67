//! `lean-ctxd --stdio`: the engine for exactly one client, over a socket the
//! client hands it as standard input.
//!
//! A client that cannot reach or start the daemon runs this instead of
//! linking the engine itself. It serves the very same services as the daemon
//! (so answers are byte-identical but for `served_by: LOCAL`), takes neither
//! the socket nor the daemon lock, and exits as soon as its client closes the
//! connection — also when the client was killed, since the kernel closes the
//! client's end then. Cross-process safety rests on the OS file locks and
//! SQLite's locking, as for the daemon beside another fallback
//! (LOCK_ORDERING.md).
//!
//! Standard input must be one end of a Unix stream socket pair: one
//! descriptor carries both directions. Standard output is not used, so a
//! stray print can never corrupt the protocol.

use std::os::fd::{FromRawFd as _, OwnedFd};
use std::sync::Arc;
use std::time::Duration;

use tokio::net::UnixStream;

use super::drain::DrainLayer;
use super::host::Host;
use super::lifecycle::routes;
use super::transport::Conn;
use crate::engine::Engine;
use crate::engine::paths::Dirs;

/// Serves the client on standard input until it closes the connection.
pub fn run() -> Result<(), String> {
    let dirs = Dirs::from_env()?;
    let stream = stdin_socket()?;
    // Logging is best effort here: a client with an unwritable state
    // directory still deserves its answer.
    if let Err(e) = crate::logging::init(&dirs.log_dir()) {
        eprintln!("lean-ctxd: {e}; serving without a log");
    }
    repair_once_per_build(&dirs);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .max_blocking_threads(16)
        .thread_name("lean-ctxd-pipe")
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let result = runtime.block_on(serve(dirs, stream));
    // A request still running when the client left is abandoned; its command
    // (if any) was killed when its future was dropped.
    runtime.shutdown_timeout(Duration::from_millis(200));
    result
}

/// Marker in the state dir: the build whose fallback child last walked the
/// stored files to make them private.
const PERMISSIONS_CHECKED: &str = "permissions-checked";

/// With LEAN_CTX_NO_DAEMON no daemon ever starts to repair shared files left
/// by older builds, so a child does it — once per build, not on every call:
/// the walk grows with the archive and the indexes, and everything this
/// build creates is private already (umask 077).
fn repair_once_per_build(dirs: &Dirs) {
    let marker = dirs.state.join(PERMISSIONS_CHECKED);
    if std::fs::read_to_string(&marker).is_ok_and(|build| build == crate::build_info::VERSION) {
        return;
    }
    super::lifecycle::repair_permissions(dirs);
    let _ = lean_ctx_common::privacy::create_private_dir_all(&dirs.state).and_then(|()| {
        use std::io::Write as _;
        let mut file =
            lean_ctx_common::privacy::private_file().write(true).create(true).truncate(true).open(&marker)?;
        file.write_all(crate::build_info::VERSION.as_bytes())
    });
}

/// Standard input as a Unix stream socket, or a message saying how this mode
/// is meant to be started.
fn stdin_socket() -> Result<std::os::unix::net::UnixStream, String> {
    use std::os::unix::fs::FileTypeExt;
    // SAFETY: descriptor 0 is this process's standard input; it is taken over
    // once, here, and nothing else in this mode reads it.
    let fd = unsafe { OwnedFd::from_raw_fd(0) };
    let file = std::fs::File::from(fd);
    let is_socket = file.metadata().is_ok_and(|m| m.file_type().is_socket());
    if !is_socket {
        // Leave descriptor 0 open for the rest of the process.
        std::mem::forget(file);
        return Err("--stdio serves one client over a socket given as standard input; it is started by lctx, \
                    lctx-mcp and lctx-shell when no daemon can be used, not by hand"
            .to_string());
    }
    Ok(std::os::unix::net::UnixStream::from(OwnedFd::from(file)))
}

async fn serve(dirs: Dirs, stream: std::os::unix::net::UnixStream) -> Result<(), String> {
    stream.set_nonblocking(true).map_err(|e| format!("cannot use standard input: {e}"))?;
    let stream = UnixStream::from_std(stream).map_err(|e| format!("cannot use standard input: {e}"))?;
    let engine = Arc::new(Engine::new(dirs));
    let max_message = usize::try_from(engine.config.get().max_message_bytes).unwrap_or(usize::MAX);
    let host = Arc::new(Host::one_client());
    let conn = Conn::new(stream, host.connection_opened());
    // One connection, then nothing: the server stops when the host's
    // shutdown fires, which the connection's end triggers (Host).
    let incoming =
        tokio_stream::StreamExt::chain(tokio_stream::once(Ok::<_, std::io::Error>(conn)), tokio_stream::pending());
    let served = tonic::transport::Server::builder()
        .layer(DrainLayer::new(host.clone()))
        .add_routes(routes(&engine, &host, max_message))
        .serve_with_incoming_shutdown(incoming, host.shutdown_signal())
        .await
        .map_err(|e| format!("server failed: {e}"));
    // A precise question's language server ends with the one client it served.
    engine.lsp.stop_all();
    // The process exits next: the ledger events of its one client must reach state.db first.
    engine.memory.flush();
    served
}
