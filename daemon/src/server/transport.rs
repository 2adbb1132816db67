//! The local-socket listener: binding, peer check, connection accounting.
//!
//! Connections are accepted here rather than inside tonic so that every one
//! is checked before a single byte is read from it: a peer running as
//! another user is dropped and logged. A connection of the socket counts as
//! open (keeping the daemon from its idle exit) only once it has sent
//! something, and one that sends nothing within [`SILENT_DEADLINE`] is
//! dropped: a client sends its HTTP/2 preface at once.

use std::future::Future as _;
use std::io;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use interprocess::local_socket::tokio::{Listener, Stream};
use interprocess::local_socket::traits::StreamCommon as _;
use interprocess::local_socket::traits::tokio::Listener as _;
use interprocess::local_socket::{GenericFilePath, ListenerOptions, ToFsName as _};
use interprocess::os::unix::local_socket::ListenerOptionsExt as _;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::mpsc;
use tonic::transport::server::Connected;

use super::host::{ConnectionGuard, Host};

/// The socket file this daemon created, by device and inode: what it may
/// unlink, and how it notices that its socket was removed or replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SocketFile {
    dev: u64,
    ino: u64,
}

impl SocketFile {
    fn at(path: &Path) -> io::Result<SocketFile> {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::symlink_metadata(path)?;
        Ok(SocketFile { dev: meta.dev(), ino: meta.ino() })
    }

    /// Whether `path` is still this socket.
    pub fn is_at(&self, path: &Path) -> bool {
        SocketFile::at(path).is_ok_and(|now| now == *self)
    }
}

/// Unlinks the socket when dropped — also when the accept loop's task is
/// dropped with the runtime — if it is still this daemon's: a daemon never
/// deletes a socket another daemon bound after its own was removed.
pub struct Unlink(pub std::path::PathBuf, pub SocketFile);

impl Drop for Unlink {
    fn drop(&mut self) {
        if self.1.is_at(&self.0) {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

/// Binds the socket with mode 0600. The caller holds the daemon lock, so any
/// socket already at `path` belongs to a dead daemon and is replaced.
pub fn bind(path: &Path) -> io::Result<(Listener, SocketFile)> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) => {
            use std::os::unix::fs::FileTypeExt;
            if !meta.file_type().is_socket() {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("{} exists and is not a socket; move it away", path.display()),
                ));
            }
            std::fs::remove_file(path)?;
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let name = path.to_fs_name::<GenericFilePath>()?;
    // Unlinked by `Unlink`, which checks that it is still ours.
    let listener = ListenerOptions::new().name(name).mode(0o600).reclaim_name(false).create_tokio()?;
    // Belt and braces: the directory is private already, and some platforms
    // ignore the creation mode of sockets.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    let file = SocketFile::at(path)?;
    Ok((listener, file))
}

/// How long an accepted connection may stay silent before it is dropped.
pub const SILENT_DEADLINE: Duration = Duration::from_secs(10);
/// How often a silent connection looks whether the daemon is stopping (it
/// would hold up the drain) or its deadline has passed.
const SILENT_CHECK: Duration = Duration::from_millis(250);

/// One accepted, verified connection (the socket's, or the pipe server's
/// single one); counted as open until dropped.
pub struct Conn<S = Stream> {
    stream: S,
    open: Option<ConnectionGuard>,
    /// Until the first byte: whom to count the connection with then, when it
    /// was accepted, and the timer of its next check.
    silent: Option<(Arc<Host>, Instant, Pin<Box<tokio::time::Sleep>>)>,
}

impl<S> Conn<S> {
    /// Counted as open from the start (the pipe's one connection).
    pub fn new(stream: S, open: ConnectionGuard) -> Conn<S> {
        Conn { stream, open: Some(open), silent: None }
    }

    /// Counted as open from its first byte; dropped if that does not come
    /// within [`SILENT_DEADLINE`].
    fn awaiting_first_byte(stream: S, host: Arc<Host>) -> Conn<S> {
        // A client connecting just as the idle timer runs out is not dropped
        // by the idle exit before its first byte arrives.
        host.mark_activity();
        Conn { stream, open: None, silent: Some((host, Instant::now(), Box::pin(tokio::time::sleep(SILENT_CHECK)))) }
    }
}

impl<S> Connected for Conn<S> {
    type ConnectInfo = ();
    fn connect_info(&self) -> Self::ConnectInfo {}
}

impl<S: AsyncRead + Unpin> AsyncRead for Conn<S> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let read = Pin::new(&mut this.stream).poll_read(cx, buf);
        let Some((host, accepted, check)) = &mut this.silent else { return read };
        if matches!(read, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            this.open = Some(host.connection_opened());
            this.silent = None;
            return read;
        }
        while read.is_pending() && check.as_mut().poll(cx).is_ready() {
            if host.shutdown_requested() || accepted.elapsed() >= SILENT_DEADLINE {
                tracing::warn!("dropped a connection that sent nothing within {:?}", accepted.elapsed());
                return Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, "the client sent nothing")));
            }
            check.as_mut().reset(tokio::time::Instant::now() + SILENT_CHECK);
        }
        read
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Conn<S> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// Accepts until shutdown, forwarding connections of this user to `tx`.
/// At the end the socket is unlinked (if still ours), so no new client can
/// reach a daemon that is draining.
pub async fn accept_loop(listener: Listener, socket: Unlink, host: Arc<Host>, tx: mpsc::Sender<io::Result<Conn>>) {
    // SAFETY: geteuid has no preconditions and cannot fail.
    let own_uid = unsafe { libc::geteuid() };
    loop {
        let accepted = tokio::select! {
            () = host.shutdown_signal() => break,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok(stream) => stream,
            Err(e) => {
                // Typically EMFILE; back off instead of spinning.
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        match stream.peer_creds() {
            Ok(creds) if creds.euid() == Some(own_uid) => {}
            Ok(creds) => {
                tracing::warn!(
                    peer_uid = ?creds.euid(),
                    peer_pid = ?creds.pid(),
                    "refused a connection from another user"
                );
                continue;
            }
            Err(e) => {
                tracing::warn!("refused a connection whose peer cannot be identified: {e}");
                continue;
            }
        }
        let conn = Conn::awaiting_first_byte(stream, host.clone());
        if tx.send(Ok(conn)).await.is_err() {
            break;
        }
    }
    drop(listener);
    drop(socket);
}
