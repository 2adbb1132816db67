//! The connection's backend, and how a call survives the daemon going away.
//!
//! A daemon restart or upgrade between two calls must be invisible to the
//! host. When a call fails at the transport, the backend is replaced
//! (`Backend::connect` again, which starts a daemon or falls back to a
//! `lean-ctxd --stdio` child) and the call is repeated once, if that is
//! safe: the request never reached a daemon, or the tool is idempotent. A
//! command or an edit cut off mid-call is not repeated, since it may have
//! taken effect. A connection served by a fallback child keeps that one
//! child for the session and tries the daemon again now and then; the child
//! is replaced only when the daemon answers, or when the child breaks.
//!
//! When no engine can be had at all (no `lean-ctxd` installed), every call
//! answers a tool error saying what is missing, and the next call tries again.

use std::error::Error as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use lctx::backend::Backend;
use lctx::capability::Answer;
use lctx::options::ClientOptions;
use lean_ctx_proto::v1::{RequestContext, ServedBy};
use serde_json::Value;
use tokio::sync::watch;

use crate::tools::{Call, Failure, ToolSpec};

/// How long answers come from a fallback child before the daemon is tried
/// again: it may have been restarting, or its binary replaced.
const RETRY_FALLBACK: Duration = Duration::from_secs(10);

/// A backend, or why none could be had.
type Slot = Result<Arc<Backend>, Arc<str>>;

pub struct Backends {
    opts: ClientOptions,
    /// `None` until the first connect finishes. A watch channel rather than a
    /// lock: readers clone the `Arc` and never wait on a writer.
    current: watch::Sender<Option<Slot>>,
    /// While a fallback serves: when to try the daemon again, in ms since
    /// `epoch`; `u64::MAX` while that attempt runs or when none is due.
    retry_at: AtomicU64,
    epoch: Instant,
}

impl Backends {
    /// Starts connecting now, in the background, so `initialize` is answered
    /// at once and the first call finds the daemon ready.
    pub fn start(opts: ClientOptions) -> Arc<Backends> {
        let backends = Arc::new(Backends {
            opts,
            current: watch::Sender::new(None),
            retry_at: AtomicU64::new(u64::MAX),
            epoch: Instant::now(),
        });
        backends.clone().connect_in_background();
        backends
    }

    fn connect_in_background(self: Arc<Self>) {
        tokio::spawn(async move {
            let backend = connect(&self.opts).await;
            self.install(backend);
        });
    }

    /// Replaces a fallback child by the daemon if the daemon can be had now;
    /// otherwise the child goes on serving and the next try is scheduled.
    fn retry_daemon_in_background(self: Arc<Self>) {
        tokio::spawn(async move {
            match lctx::daemon::ensure(&self.opts).await {
                Ok(daemon) => {
                    tracing::info!("the daemon is back; leaving the fallback child");
                    self.install(Ok(Arc::new(Backend::remote(&daemon))));
                }
                Err(why) => {
                    tracing::debug!("the daemon is still unavailable: {why}");
                    self.schedule_retry();
                }
            }
        });
    }

    fn schedule_retry(&self) {
        let at = self.now_ms().saturating_add(RETRY_FALLBACK.as_millis() as u64);
        self.retry_at.store(at, Ordering::Release);
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn install(&self, slot: Slot) {
        // While no engine can be had every call looks again: each reason is logged once, not per call.
        if let Err(why) = &slot
            && !matches!(&*self.current.borrow(), Some(Err(before)) if before == why)
        {
            tracing::error!("{why}");
        }
        match &slot {
            Ok(backend) if backend.fallback_reason.is_none() => self.retry_at.store(u64::MAX, Ordering::Release),
            _ => self.schedule_retry(),
        }
        self.current.send_replace(Some(slot));
    }

    /// The backend to call. A fallback that has served long enough starts
    /// an attempt to reach the daemon again, without making this call wait;
    /// after a failure to find any engine, the call itself tries again.
    async fn current(self: &Arc<Self>) -> Result<Arc<Backend>, Failure> {
        let mut rx = self.current.subscribe();
        let ready = rx.wait_for(Option::is_some).await;
        // The sender lives in `self`, so the channel cannot close while we wait.
        let slot = ready
            .ok()
            .and_then(|b| b.clone())
            .unwrap_or_else(|| unreachable!("the backend sender outlives its readers"));
        let backend = match slot {
            Ok(backend) => backend,
            Err(_) => {
                let fresh = connect(&self.opts).await;
                self.install(fresh.clone());
                fresh.map_err(|why| Failure::Refused(why.to_string()))?
            }
        };
        let due = self.retry_at.load(Ordering::Acquire);
        if self.now_ms() >= due
            && self.retry_at.compare_exchange(due, u64::MAX, Ordering::AcqRel, Ordering::Relaxed).is_ok()
        {
            self.clone().retry_daemon_in_background();
        }
        Ok(backend)
    }

    /// A backend to replace `failed`; calls failing together reconnect once.
    async fn reconnect(self: &Arc<Self>, failed: &Arc<Backend>) -> Result<Arc<Backend>, Failure> {
        let current = self.current().await?;
        if !Arc::ptr_eq(&current, failed) {
            return Ok(current);
        }
        let fresh = connect(&self.opts).await;
        self.install(fresh.clone());
        fresh.map_err(|why| Failure::Refused(why.to_string()))
    }

    /// Runs `spec`'s handler, reconnecting and repeating it once after a
    /// transport failure when that is safe.
    pub async fn call(self: &Arc<Self>, spec: &ToolSpec, ctx: RequestContext, args: &Value) -> Result<Answer, Failure> {
        let mut backend = self.current().await?;
        // A daemon killed since the last call leaves a connection whose failure cannot be told
        // from one that cut a call off while it ran; a call not safe to repeat goes to a live
        // daemon instead. (A daemon dying at the moment of the call still ends it as below.)
        if !spec.idempotent.holds(args) && backend.daemon_exited() {
            tracing::info!(tool = spec.name, "the daemon exited since the last call; reconnecting before this one");
            backend = self.reconnect(&backend).await?;
        }
        let first = (spec.run)(&backend, Call { ctx: ctx.clone(), args }).await;
        let Err(Failure::Status(status)) = &first else { return first };
        let Some(broken) = transport_failure(status) else { return first };
        if backend.served_by == ServedBy::Local {
            tracing::warn!(tool = spec.name, "the fallback lean-ctxd broke: {}", backend.explain(status));
        } else {
            tracing::info!(tool = spec.name, "the daemon connection failed ({status:?}); reconnecting");
        }
        let fresh = self.reconnect(&backend).await?;
        let safe = spec.idempotent.holds(args);
        if broken == Broken::BeforeSending || safe {
            let second = (spec.run)(&fresh, Call { ctx, args }).await;
            // QA: a read whose repeat was cut off too answered a bare "transport error".
            return match &second {
                Err(Failure::Status(again)) if lost_mid_call(again) => Err(cut_off(spec.name, again, safe)),
                _ => second,
            };
        }
        if broken == Broken::DaemonUnavailable {
            return first;
        }
        Err(cut_off(spec.name, status, false))
    }
}

/// Whether the connection broke under a call (not an answer the daemon sent).
fn lost_mid_call(status: &tonic::Status) -> bool {
    matches!(transport_failure(status), Some(Broken::BeforeSending | Broken::ConnectionLost))
}

/// The answer to a call the daemon went away under, when repeating it did not or could not
/// answer it: whether it may have taken effect, and what to do.
fn cut_off(tool: &str, status: &tonic::Status, safe: bool) -> Failure {
    let text = match safe {
        true => format!(
            "lean-ctxd went away while answering this {tool} call, twice ({}); the call changes nothing, so ask again: \
             the next call starts a new daemon, or a lean-ctxd child serves it",
            status.message()
        ),
        false => format!(
            "lean-ctxd went away while running this {tool} call ({}); a new daemon serves the next call. The call may \
             or may not have taken effect: check before repeating it.",
            status.message()
        ),
    };
    Failure::Status(tonic::Status::unavailable(text))
}

async fn connect(opts: &ClientOptions) -> Slot {
    // Every connect looks for lean-ctxd again: installing it must not take a restart of the host.
    match Backend::connect(&opts.with_daemon_bin_found_again()).await {
        Ok(backend) => {
            if let Some(reason) = &backend.fallback_reason {
                tracing::warn!("no daemon available, served by a lean-ctxd child of this session: {reason}");
            }
            Ok(Arc::new(backend))
        }
        Err(why) => Err(why.into()),
    }
}

#[derive(Debug, PartialEq, Eq)]
enum Broken {
    /// The socket refused the connection: no daemon saw the request.
    BeforeSending,
    /// The connection broke; the daemon may have acted on the request.
    ConnectionLost,
    /// The daemon answered Unavailable (stopping, or its store busy): it is
    /// reachable, and its message says what happened.
    DaemonUnavailable,
}

/// Whether `status` reports a broken connection rather than an answer.
/// Statuses the daemon itself sends never carry a source error; those made
/// by the client's transport do.
fn transport_failure(status: &tonic::Status) -> Option<Broken> {
    let from_transport = status.source().is_some();
    match status.code() {
        tonic::Code::Unavailable | tonic::Code::Unknown | tonic::Code::Cancelled if from_transport => {
            Some(if refused(status) { Broken::BeforeSending } else { Broken::ConnectionLost })
        }
        tonic::Code::Unavailable => Some(Broken::DaemonUnavailable),
        _ => None,
    }
}

/// A dial that found no listener: the socket file is gone or nothing
/// accepts on it.
fn refused(status: &tonic::Status) -> bool {
    let mut cause = status.source();
    while let Some(e) = cause {
        if let Some(io) = e.downcast_ref::<std::io::Error>()
            && matches!(io.kind(), std::io::ErrorKind::ConnectionRefused | std::io::ErrorKind::NotFound)
        {
            return true;
        }
        cause = e.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use std::io::{Error, ErrorKind};

    use super::*;

    fn from_transport(kind: ErrorKind) -> tonic::Status {
        tonic::Status::from_error(Box::new(Error::from(kind)))
    }

    #[test]
    fn a_refused_dial_is_safe_to_repeat_and_a_reset_is_not() {
        assert_eq!(transport_failure(&from_transport(ErrorKind::ConnectionRefused)), Some(Broken::BeforeSending));
        assert_eq!(transport_failure(&from_transport(ErrorKind::NotFound)), Some(Broken::BeforeSending));
        assert_eq!(transport_failure(&from_transport(ErrorKind::ConnectionReset)), Some(Broken::ConnectionLost));
    }

    /// QA: a read cut off, then cut off again when repeated, answered "transport error".
    #[test]
    fn a_call_cut_off_says_whether_it_is_safe_to_repeat() {
        let reset = from_transport(ErrorKind::ConnectionReset);
        assert!(lost_mid_call(&reset) && lost_mid_call(&from_transport(ErrorKind::ConnectionRefused)));
        assert!(!lost_mid_call(&tonic::Status::unavailable("the daemon is stopping")));
        let Failure::Status(read) = cut_off("ctx_read", &reset, true) else { panic!("a status") };
        assert!(read.message().contains("this ctx_read call, twice"), "{}", read.message());
        assert!(read.message().contains("the call changes nothing, so ask again"), "{}", read.message());
        let Failure::Status(shell) = cut_off("ctx_shell", &reset, false) else { panic!("a status") };
        assert!(shell.message().contains("may or may not have taken effect"), "{}", shell.message());
    }

    #[test]
    fn the_daemons_own_answers_are_not_transport_failures() {
        let drained = tonic::Status::unavailable("the daemon stopped before the call finished; retry");
        assert_eq!(transport_failure(&drained), Some(Broken::DaemonUnavailable));
        assert_eq!(transport_failure(&tonic::Status::not_found("no such file: a.rs")), None);
        assert_eq!(transport_failure(&tonic::Status::unknown("odd")), None);
    }
}
