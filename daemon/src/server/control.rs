//! The Control service: handshake, status, shutdown, ping.

use std::sync::Arc;
use std::time::Duration;

use lean_ctx_proto::v1::control_server::Control;
use lean_ctx_proto::v1::{
    ComponentStatus, Figure, HelloRequest, HelloResponse, PingRequest, PingResponse, RequestContext, ServedBy,
    ShutdownRequest, ShutdownResponse, StatusRequest, StatusResponse,
};
use lean_ctx_proto::{PROTOCOL_MAX, PROTOCOL_MIN};
use tonic::{Request, Response, Status};

use super::host::{Host, RequestGuard, rss_bytes};
use crate::build_info;
use crate::engine::Engine;

/// Longest delay a Ping may ask for.
const MAX_PING_DELAY_MS: u32 = 30_000;

#[derive(Clone)]
pub struct ControlService {
    engine: Arc<Engine>,
    host: Arc<Host>,
}

impl ControlService {
    pub fn new(engine: Arc<Engine>, host: Arc<Host>) -> Self {
        ControlService { engine, host }
    }

    /// Counts the request and notes its session as active.
    fn begin(&self, ctx: Option<&RequestContext>) -> RequestGuard<'_> {
        if let Some(ctx) = ctx {
            self.engine.sessions.touch(&ctx.session_id);
        }
        self.host.begin_request()
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[tonic::async_trait]
impl Control for ControlService {
    async fn hello(&self, request: Request<HelloRequest>) -> Result<Response<HelloResponse>, Status> {
        let req = request.into_inner();
        let _guard = self.begin(req.ctx.as_ref());
        if req.protocol_min > PROTOCOL_MAX || req.protocol_max < PROTOCOL_MIN {
            return Err(Status::failed_precondition(format!(
                "client speaks protocol {}..={}, this lean-ctxd {} speaks {PROTOCOL_MIN}..={PROTOCOL_MAX}; \
                 install matching versions of lctx and lean-ctxd",
                req.protocol_min,
                req.protocol_max,
                build_info::VERSION
            )));
        }
        Ok(Response::new(HelloResponse {
            meta: Some(self.host.meta()),
            daemon_version: build_info::VERSION.to_string(),
            protocol: req.protocol_max.min(PROTOCOL_MAX),
            pid: std::process::id(),
            executable_id: self.host.executable_id.clone(),
            uptime_ms: millis(self.host.uptime()),
        }))
    }

    async fn status(&self, request: Request<StatusRequest>) -> Result<Response<StatusResponse>, Status> {
        let req = request.into_inner();
        let _guard = self.begin(req.ctx.as_ref());
        let config = self.engine.config.get();
        let idle = self.host.idle_timeout_override.map_or(config.idle_timeout_secs, |d| d.as_secs());
        let components = self
            .engine
            .components()
            .into_iter()
            .map(|c| ComponentStatus {
                name: c.name.to_string(),
                figures: c.figures.into_iter().map(|(n, v)| Figure { name: n.to_string(), value: v }).collect(),
            })
            .collect();
        Ok(Response::new(StatusResponse {
            meta: Some(self.host.meta()),
            pid: std::process::id(),
            version: build_info::VERSION.to_string(),
            executable_id: self.host.executable_id.clone(),
            uptime_ms: millis(self.host.uptime()),
            open_connections: self.host.connections(),
            sessions: u32::try_from(self.engine.sessions.active()).unwrap_or(u32::MAX),
            rss_bytes: rss_bytes(),
            socket_path: self.host.socket.as_ref().map(|s| s.display().to_string()).unwrap_or_default(),
            idle_timeout_secs: idle,
            requests_served: self.host.requests(),
            components,
        }))
    }

    async fn shutdown(&self, request: Request<ShutdownRequest>) -> Result<Response<ShutdownResponse>, Status> {
        let req = request.into_inner();
        let _guard = self.begin(req.ctx.as_ref());
        if self.host.served_by == ServedBy::Local {
            return Err(Status::failed_precondition("no daemon is running; there is nothing to shut down"));
        }
        let reason = if req.reason.is_empty() { "Shutdown request" } else { req.reason.as_str() };
        self.host.trigger_shutdown(reason);
        Ok(Response::new(ShutdownResponse { meta: Some(self.host.meta()), pid: std::process::id() }))
    }

    async fn ping(&self, request: Request<PingRequest>) -> Result<Response<PingResponse>, Status> {
        let req = request.into_inner();
        let _guard = self.begin(req.ctx.as_ref());
        if req.delay_ms > MAX_PING_DELAY_MS {
            return Err(Status::invalid_argument(format!(
                "delay_ms is {}; at most {MAX_PING_DELAY_MS} is allowed",
                req.delay_ms
            )));
        }
        if req.delay_ms > 0 {
            tokio::time::sleep(Duration::from_millis(u64::from(req.delay_ms))).await;
        }
        Ok(Response::new(PingResponse { meta: Some(self.host.meta()), payload: req.payload }))
    }
}
