//! A kill switch for engine work that can run long: a command (background
//! jobs, calls whose client left), a scan of a project's files, a read of
//! many files, an edit, an index build. The gRPC handler holds the switch
//! (`server::blocking::CancelOnDrop`) and flips it when its call is dropped.

use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::engine::error::{EngineError, EngineResult, ErrorKind};

#[derive(Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// The switch as the search crate takes it.
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

impl std::fmt::Debug for Cancel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cancel({})", self.is_cancelled())
    }
}

/// How long one read or edit may work: as long as a regex search's scan
/// (`SearchConfig::regex_budget`). Far past any single file's cost; only a
/// request of many large files or a pathological configuration reaches it.
pub const WORK_DEADLINE: Duration = Duration::from_secs(60);

/// Where one request's work must stop: its caller left, or its deadline
/// passed. Checked between steps (files of a read, phases of an edit), so
/// a step that has begun finishes but no further one starts.
pub struct Stop<'a> {
    cancel: &'a Cancel,
    deadline: Instant,
    budget: Duration,
    stopped: &'a Stopped,
    /// Whether this request was counted in `stopped` already.
    counted: Cell<bool>,
}

impl<'a> Stop<'a> {
    pub fn new(cancel: &'a Cancel, budget: Duration, stopped: &'a Stopped) -> Self {
        Stop { cancel, deadline: Instant::now() + budget, budget, stopped, counted: Cell::new(false) }
    }

    /// Fails once the caller left or the deadline passed, saying which and
    /// naming what did not happen; counted for Status once per request.
    pub fn check(&self, what: &str) -> EngineResult<()> {
        let count = |counter: &AtomicU64| {
            if !self.counted.replace(true) {
                counter.fetch_add(1, Ordering::Relaxed);
            }
        };
        if self.cancel.is_cancelled() {
            count(&self.stopped.cancelled);
            return Err(EngineError::new(ErrorKind::Cancelled, format!("cancelled by the client: {what}")));
        }
        if Instant::now() >= self.deadline {
            count(&self.stopped.past_deadline);
            return Err(EngineError::new(
                ErrorKind::DeadlineExceeded,
                format!("the request reached its {}-second deadline: {what}", self.budget.as_secs()),
            ));
        }
        Ok(())
    }
}

/// How often work was stopped early, for Status: a client that leaves must
/// not leave the daemon working for nobody.
#[derive(Default)]
pub struct Stopped {
    pub cancelled: AtomicU64,
    pub past_deadline: AtomicU64,
}

impl Stopped {
    /// Counts a search that returned early because its caller left (a
    /// search answers with what it found rather than failing).
    pub fn count_cancelled(&self) {
        self.cancelled.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts `result` when it is the error of work stopped because its caller left (a graph
    /// question, which stops without a `Stop`), and hands it on.
    pub fn count_if_cancelled<T>(&self, result: EngineResult<T>) -> EngineResult<T> {
        if result.as_ref().is_err_and(|e| e.kind == ErrorKind::Cancelled) {
            self.count_cancelled();
        }
        result
    }

    pub fn figures(&self) -> Vec<(&'static str, String)> {
        vec![
            ("cancelled", self.cancelled.load(Ordering::Relaxed).to_string()),
            ("past_deadline", self.past_deadline.load(Ordering::Relaxed).to_string()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_says_why_and_counts_it() {
        let (cancel, stopped) = (Cancel::default(), Stopped::default());
        let stop = Stop::new(&cancel, Duration::from_secs(60), &stopped);
        assert!(stop.check("x").is_ok());
        cancel.cancel();
        let e = stop.check("the file was not written").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Cancelled);
        assert!(e.message.contains("the file was not written"), "{e}");
        assert!(stop.check("again").is_err());
        let staying = Cancel::default();
        let past = Stop::new(&staying, Duration::ZERO, &stopped);
        let e = past.check("y").unwrap_err();
        assert!(past.check("z").is_err());
        assert_eq!(e.kind, ErrorKind::DeadlineExceeded);
        assert!(e.message.contains("0-second deadline"), "{e}");
        assert_eq!(stopped.figures(), [("cancelled", "1".to_string()), ("past_deadline", "1".to_string())]);
    }
}
