//! Answers requests still running when the drain deadline passes with a
//! proper `Unavailable` status, instead of cutting the connection under
//! them: the client then knows the call did not complete and may retry it
//! against the next daemon.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use tonic::codegen::http;
use tower::{Layer, Service};

use super::host::Host;

#[derive(Clone)]
pub struct DrainLayer {
    host: Arc<Host>,
}

impl DrainLayer {
    pub fn new(host: Arc<Host>) -> Self {
        DrainLayer { host }
    }
}

impl<S> Layer<S> for DrainLayer {
    type Service = Drain<S>;
    fn layer(&self, inner: S) -> Drain<S> {
        Drain { inner, host: self.host.clone() }
    }
}

#[derive(Clone)]
pub struct Drain<S> {
    inner: S,
    host: Arc<Host>,
}

impl<S, B, RB> Service<http::Request<B>> for Drain<S>
where
    S: Service<http::Request<B>, Response = http::Response<RB>>,
    S::Future: Send + 'static,
    RB: Default,
{
    type Response = http::Response<RB>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let call = self.inner.call(request);
        let host = self.host.clone();
        Box::pin(async move {
            tokio::select! {
                response = call => response,
                // A command cut off here ran until then, and may have done part of its work.
                () = host.drain_expired() => Ok(tonic::Status::unavailable(
                    "lean-ctxd stopped before this request finished, so what it was doing may have taken effect in \
                     part (a command ran until it was stopped): check before repeating a command or an edit; \
                     anything else can be retried (a new daemon starts on demand)",
                )
                .into_http()),
            }
        })
    }
}
