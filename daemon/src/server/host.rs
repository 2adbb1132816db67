//! Facts and counters of the process serving requests: the daemon, or a
//! client running the engine in-process.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use lean_ctx_proto::v1::{ResponseMeta, ServedBy};
use tokio::sync::watch;

use crate::build_info;

/// Who is serving, and the live counters Status and the idle timer read.
pub struct Host {
    pub served_by: ServedBy,
    pub executable_id: String,
    /// The socket a daemon listens on; `None` for a fallback child.
    pub socket: Option<PathBuf>,
    /// A fallback child serves one client over one connection: its end is
    /// the end of the process's work.
    ends_with_its_client: bool,
    /// Idle timeout given on the command line; overrides the config.
    pub idle_timeout_override: Option<Duration>,
    started: Instant,
    connections: AtomicU32,
    in_flight: AtomicU32,
    requests: AtomicU64,
    /// Milliseconds since `started` of the last connection or request end.
    last_activity_ms: AtomicU64,
    shutdown: watch::Sender<bool>,
    /// Set when the drain deadline has passed.
    drain_expired: watch::Sender<bool>,
}

impl Host {
    /// The daemon's host: serves every client on `socket` until stopped.
    pub fn daemon(socket: PathBuf, idle_timeout_override: Option<Duration>) -> Host {
        Host::new(ServedBy::Daemon, Some(socket), idle_timeout_override, false)
    }

    /// A fallback child's host (`lean-ctxd --stdio`): shuts down when its one
    /// connection ends.
    pub fn one_client() -> Host {
        Host::new(ServedBy::Local, None, None, true)
    }

    fn new(
        served_by: ServedBy,
        socket: Option<PathBuf>,
        idle_timeout_override: Option<Duration>,
        ends_with_its_client: bool,
    ) -> Host {
        Host {
            served_by,
            executable_id: build_info::own_executable_id(),
            socket,
            ends_with_its_client,
            idle_timeout_override,
            started: Instant::now(),
            connections: AtomicU32::new(0),
            in_flight: AtomicU32::new(0),
            requests: AtomicU64::new(0),
            last_activity_ms: AtomicU64::new(0),
            shutdown: watch::channel(false).0,
            drain_expired: watch::channel(false).0,
        }
    }

    pub fn meta(&self) -> ResponseMeta {
        ResponseMeta {
            daemon_version: build_info::VERSION.to_string(),
            protocol: lean_ctx_proto::PROTOCOL_MAX,
            served_by: self.served_by as i32,
        }
    }

    pub fn uptime(&self) -> Duration {
        self.started.elapsed()
    }

    pub fn connections(&self) -> u32 {
        self.connections.load(Ordering::Relaxed)
    }

    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }

    /// Counts as activity now (the idle timer starts over).
    pub fn mark_activity(&self) {
        let now = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_activity_ms.fetch_max(now, Ordering::Relaxed);
    }

    /// How long nothing has happened: zero while a connection is open or a
    /// request is running.
    pub fn idle_for(&self) -> Duration {
        if self.connections.load(Ordering::SeqCst) > 0 || self.in_flight.load(Ordering::SeqCst) > 0 {
            return Duration::ZERO;
        }
        let last = Duration::from_millis(self.last_activity_ms.load(Ordering::Relaxed));
        self.started.elapsed().saturating_sub(last)
    }

    /// Counts one request for its whole duration.
    pub fn begin_request(&self) -> RequestGuard<'_> {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        self.requests.fetch_add(1, Ordering::Relaxed);
        RequestGuard { host: self }
    }

    /// Counts one open connection until the guard drops.
    pub fn connection_opened(self: &std::sync::Arc<Self>) -> ConnectionGuard {
        self.connections.fetch_add(1, Ordering::SeqCst);
        ConnectionGuard { host: self.clone() }
    }

    /// Asks the process to stop; idempotent.
    pub fn trigger_shutdown(&self, why: &str) {
        if !*self.shutdown.borrow() {
            tracing::info!(reason = why, "shutdown requested");
        }
        self.shutdown.send_replace(true);
    }

    pub fn shutdown_requested(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// Resolves once a shutdown has been requested.
    pub async fn shutdown_signal(&self) {
        wait_set(&self.shutdown).await;
    }

    /// Tells requests still running that the drain deadline has passed.
    pub fn expire_drain(&self) {
        self.drain_expired.send_replace(true);
    }

    /// Resolves once the drain deadline has passed.
    pub async fn drain_expired(&self) {
        wait_set(&self.drain_expired).await;
    }
}

async fn wait_set(flag: &watch::Sender<bool>) {
    let mut rx = flag.subscribe();
    // Only fails if the sender is gone, and it lives as long as the Host.
    let _ = rx.wait_for(|set| *set).await;
}

pub struct RequestGuard<'a> {
    host: &'a Host,
}

impl Drop for RequestGuard<'_> {
    fn drop(&mut self) {
        self.host.mark_activity();
        self.host.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

pub struct ConnectionGuard {
    host: std::sync::Arc<Host>,
}

impl Drop for ConnectionGuard {
    fn drop(&mut self) {
        self.host.mark_activity();
        self.host.connections.fetch_sub(1, Ordering::SeqCst);
        if self.host.ends_with_its_client {
            self.host.trigger_shutdown("the client closed the pipe");
        }
    }
}

/// Resident set size of this process in bytes (0 where unknown).
pub fn rss_bytes() -> u64 {
    let Ok(statm) = std::fs::read_to_string("/proc/self/statm") else { return 0 };
    let pages: u64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0);
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    pages * u64::try_from(page).unwrap_or(4096)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn idle_is_zero_while_busy() {
        let host = Arc::new(Host::one_client());
        let conn = host.connection_opened();
        assert_eq!(host.idle_for(), Duration::ZERO);
        drop(conn);
        let req = host.begin_request();
        assert_eq!(host.idle_for(), Duration::ZERO);
        drop(req);
        std::thread::sleep(Duration::from_millis(20));
        assert!(host.idle_for() >= Duration::from_millis(10));
        assert_eq!(host.requests(), 1);
    }
}
