//! Dialing the daemon's socket and running gRPC over the connection.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hyper_util::rt::TokioIo;
use interprocess::local_socket::tokio::Stream;
use interprocess::local_socket::traits::tokio::Stream as _;
use interprocess::local_socket::{GenericFilePath, ToFsName as _};
use tonic::transport::{Channel, Endpoint, Uri};

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

/// A gRPC channel over an already connected stream. Should the channel need
/// to reconnect, it dials the socket again.
pub async fn channel(stream: Stream, socket: PathBuf, timeout: Duration) -> Result<Channel, tonic::transport::Error> {
    let mut first = Some(stream);
    // The URI is required by the HTTP/2 layer but never resolved.
    Endpoint::from_static("http://lean-ctxd.local")
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
