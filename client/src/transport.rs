//! Dialing the daemon's socket and running gRPC over a connection.
//!
//! Every channel pings its peer while a call is open: a daemon or fallback
//! child that stops answering (frozen, hung) fails the call within
//! [`KEEPALIVE`] + [`KEEPALIVE_TIMEOUT`] instead of hanging the client.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hyper_util::rt::TokioIo;
use interprocess::local_socket::tokio::Stream;
use interprocess::local_socket::traits::tokio::Stream as _;
use interprocess::local_socket::{GenericFilePath, ToFsName as _};
use tokio::io::{AsyncRead, AsyncWrite};
use tonic::transport::{Channel, Endpoint, Uri};

/// Interval of HTTP/2 pings during a call.
pub const KEEPALIVE: Duration = Duration::from_secs(5);
/// How long a ping's answer may take: a daemon starved of CPU for a moment
/// on a busy machine is not a frozen one.
pub const KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(10);

/// Connects to the socket; NotFound and ConnectionRefused mean no daemon.
pub async fn dial(socket: &Path, timeout: Duration) -> io::Result<Stream> {
    let name = socket.to_fs_name::<GenericFilePath>()?;
    match tokio::time::timeout(timeout, Stream::connect(name)).await {
        Ok(result) => result,
        Err(_) => Err(io::Error::new(
            io::ErrorKind::TimedOut,
            format!("{} accepted no connection within {timeout:?}", socket.display()),
        )),
    }
}

fn endpoint() -> Endpoint {
    // The URI is required by the HTTP/2 layer but never resolved.
    Endpoint::from_static("http://lean-ctxd.local")
        .http2_keep_alive_interval(KEEPALIVE)
        .keep_alive_timeout(KEEPALIVE_TIMEOUT)
        .keep_alive_while_idle(false)
}

/// A gRPC channel over an already connected stream. Should the channel need
/// to reconnect, it dials the socket again.
pub async fn channel(stream: Stream, socket: PathBuf, timeout: Duration) -> Result<Channel, tonic::transport::Error> {
    let mut first = Some(stream);
    endpoint()
        .connect_with_connector(tower::service_fn(move |_: Uri| {
            let ready = first.take();
            let socket = socket.clone();
            async move {
                let stream = match ready {
                    Some(stream) => stream,
                    None => dial(&socket, timeout).await?,
                };
                Ok::<_, io::Error>(TokioIo::new(stream))
            }
        }))
        .await
}

/// A gRPC channel over a connection that cannot be made again (the socket
/// pair to a fallback child): a second connect fails with BrokenPipe.
pub async fn channel_once<S>(stream: S) -> Result<Channel, tonic::transport::Error>
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    let mut only = Some(stream);
    endpoint()
        .connect_with_connector(tower::service_fn(move |_: Uri| {
            let stream = only.take();
            async move {
                stream.map(TokioIo::new).ok_or_else(|| {
                    io::Error::new(io::ErrorKind::BrokenPipe, "the fallback lean-ctxd has closed its connection")
                })
            }
        }))
        .await
}
