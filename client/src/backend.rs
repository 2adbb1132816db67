//! One interface over both ways of being served: the daemon, or the engine
//! running in this process when no daemon can be had.
//!
//! Both sides implement the same generated service trait, so a command
//! written against [`Backend::control`] behaves identically either way.

use std::sync::Arc;

use lean_ctx_proto::v1::control_client::ControlClient;
use lean_ctx_proto::v1::control_server::Control;
use lean_ctx_proto::v1::{
    HelloRequest, HelloResponse, PingRequest, PingResponse, ServedBy, ShutdownRequest, ShutdownResponse, StatusRequest,
    StatusResponse,
};
use lean_ctxd::engine::Engine;
use lean_ctxd::server::control::ControlService;
use lean_ctxd::server::host::Host;
use tonic::transport::Channel;
use tonic::{Request, Response, Status};

use crate::daemon;
use crate::options::ClientOptions;

pub struct Backend {
    control: Arc<dyn Control>,
    pub served_by: ServedBy,
    /// Why this client serves itself, when it does.
    pub fallback_reason: Option<String>,
}

impl Backend {
    /// The daemon (started or restarted as needed), else the in-process
    /// engine. Never fails: the reason for a fallback travels along.
    pub async fn connect(opts: &ClientOptions) -> Backend {
        if opts.no_daemon {
            return Backend::local(opts, None);
        }
        match daemon::ensure(opts).await {
            Ok(d) => Backend::remote(d.control),
            Err(why) => Backend::local(opts, Some(why)),
        }
    }

    pub fn remote(control: ControlClient<Channel>) -> Backend {
        Backend { control: Arc::new(Remote(control)), served_by: ServedBy::Daemon, fallback_reason: None }
    }

    /// The engine in this process. Cross-process safety then rests on the
    /// OS file locks and SQLite's locking (LOCK_ORDERING.md).
    pub fn local(opts: &ClientOptions, reason: Option<String>) -> Backend {
        let engine = Arc::new(Engine::new(opts.dirs.clone()));
        let host = Arc::new(Host::new(ServedBy::Local, None, None));
        Backend {
            control: Arc::new(ControlService::new(engine, host)),
            served_by: ServedBy::Local,
            fallback_reason: reason,
        }
    }

    pub fn control(&self) -> &dyn Control {
        self.control.as_ref()
    }
}

/// The daemon's Control service seen through the server trait.
struct Remote(ControlClient<Channel>);

#[tonic::async_trait]
impl Control for Remote {
    async fn hello(&self, request: Request<HelloRequest>) -> Result<Response<HelloResponse>, Status> {
        self.0.clone().hello(request).await
    }

    async fn status(&self, request: Request<StatusRequest>) -> Result<Response<StatusResponse>, Status> {
        self.0.clone().status(request).await
    }

    async fn shutdown(&self, request: Request<ShutdownRequest>) -> Result<Response<ShutdownResponse>, Status> {
        self.0.clone().shutdown(request).await
    }

    async fn ping(&self, request: Request<PingRequest>) -> Result<Response<PingResponse>, Status> {
        self.0.clone().ping(request).await
    }
}
