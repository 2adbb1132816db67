//! The ledger's writer: one thread that appends the events the engine records, so that an
//! answer is returned without waiting for state.db's write lock. Another process holding it
//! (a fallback engine, a `sqlite3` shell in a transaction) made every read wait the full busy
//! timeout before it was answered.
//!
//! Events are queued in the order they were recorded and appended in that order, whatever is
//! queued at once in one transaction: the hash chain keeps the order of the calls, and a lock
//! held elsewhere costs one busy timeout for all the events waiting, not one each. The writer
//! waits the store's full busy timeout, so a lock held briefly loses nothing, but in short
//! attempts that leave the connection free in between. An event that
//! finds the queue full (the lock held so long that [`QUEUE`] events piled up), or whose batch
//! failed, is counted unrecorded, and gain says so.
//!
//! What reads the ledger flushes first ([`Writer::flush`]: a marker through the same queue,
//! answered once everything before it is settled), and so does the process before it exits.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use lean_ctx_store::{BUSY_TIMEOUT, Event, Shape};

use super::{Db, store_error};
use crate::engine::error::ErrorKind;

/// Events waiting for the writer at most; more are counted unrecorded rather than held in
/// memory without bound while state.db stays locked. Also the most appended in one transaction:
/// all that waited behind a held lock go in one, so a flush waits out at most two busy timeouts
/// (the batch being written, then the one holding everything queued before the flush).
const QUEUE: usize = 1024;
/// How long one attempt to append waits for another process's write lock.
const ATTEMPT: Duration = Duration::from_millis(100);
/// The pause between attempts, with the connection free for the engine's requests.
const PAUSE: Duration = Duration::from_millis(20);

pub(super) struct Writer {
    db: Arc<Db>,
    /// `None` once dropped, which ends the thread after what is queued.
    jobs: Option<SyncSender<Job>>,
    thread: Option<JoinHandle<()>>,
}

enum Job {
    Append(Queued),
    /// Answered once every job before it is done.
    Flush(SyncSender<()>),
}

impl Writer {
    pub(super) fn start(db: Arc<Db>) -> Writer {
        let (jobs, queue) = sync_channel(QUEUE);
        let thread = std::thread::Builder::new()
            .name("ledger-writer".into())
            .spawn({
                let db = db.clone();
                move || run(&db, &queue)
            })
            .expect("cannot start the ledger's writer thread: the system refused a new thread");
        Writer { db, jobs: Some(jobs), thread: Some(thread) }
    }

    /// Queues `event` without waiting; an event the store would refuse, or that finds the queue
    /// full, is counted unrecorded at once.
    pub(super) fn submit(&self, event: &Event<'_>) {
        if let Err(e) = event.validate() {
            return self.db.lost([event.tool], store_error(e).message);
        }
        let Some(jobs) = &self.jobs else { return };
        match jobs.try_send(Job::Append(Queued::from(event))) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => self.db.lost(
                [event.tool],
                format!(
                    "{QUEUE} earlier calls were still waiting to be written to state.db, which stayed locked by \
                     another process; look for a hung lean-ctxd or lctx process, or a sqlite3 shell left in a \
                     transaction"
                ),
            ),
            Err(TrySendError::Disconnected(_)) => {
                self.db.lost([event.tool], "the ledger's writer thread stopped (see the log)".into())
            }
        }
    }

    /// Waits until every event submitted before is appended or counted unrecorded.
    pub(super) fn flush(&self) {
        let Some(jobs) = &self.jobs else { return };
        let (done, settled) = sync_channel(1);
        if jobs.send(Job::Flush(done)).is_ok() {
            // An error means the thread is gone: nothing is left to wait for.
            let _ = settled.recv();
        }
    }
}

impl Drop for Writer {
    /// Settles what is queued: an engine dropped with events pending would lose them uncounted.
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The writer thread: takes what is queued, up to [`QUEUE`] events, appends it in one
/// transaction, then answers the flushes that were queued among them.
fn run(db: &Db, queue: &Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        let mut events = Vec::new();
        let mut flushes = Vec::new();
        let mut next = Some(first);
        while let Some(job) = next {
            match job {
                Job::Append(event) => events.push(event),
                Job::Flush(done) => flushes.push(done),
            }
            next = if events.len() < QUEUE { queue.try_recv().ok() } else { None };
        }
        append(db, &events);
        for done in flushes {
            let _ = done.send(());
        }
    }
}

/// Appends `events` in order, all or none; none are counted unrecorded with the reason. While
/// another process holds the write lock it tries again for up to the busy timeout, but waits at
/// most [`ATTEMPT`] each time with the connection held: the connection is the engine's too, and
/// a request that needs it (a session's record, an archived output) must not wait behind the
/// writer for the whole busy timeout.
fn append(db: &Db, events: &[Queued]) {
    if events.is_empty() {
        return;
    }
    let batch: Vec<Event<'_>> = events.iter().map(Queued::event).collect();
    let deadline = Instant::now() + BUSY_TIMEOUT;
    loop {
        match db.with(|s| s.append_batch_within(&batch, ATTEMPT)) {
            Ok(_) => return,
            Err(e) if e.kind == ErrorKind::Unavailable && Instant::now() < deadline => std::thread::sleep(PAUSE),
            Err(e) => return db.lost(events.iter().map(|event| event.tool.as_str()), e.message),
        }
    }
}

/// An [`Event`] that owns its text, to outlive the call that recorded it.
struct Queued {
    at_ms: i64,
    project: String,
    session: Option<String>,
    tool: String,
    /// Whether the shape is a read mode (or a command family), and its name.
    mode: bool,
    shape: String,
    raw_tokens: u64,
    sent_tokens: u64,
}

impl Queued {
    fn from(event: &Event<'_>) -> Queued {
        let (mode, shape) = match event.shape {
            Shape::Mode(name) => (true, name),
            Shape::Family(name) => (false, name),
        };
        Queued {
            at_ms: event.at_ms,
            project: event.project.to_string(),
            session: event.session.map(str::to_string),
            tool: event.tool.to_string(),
            mode,
            shape: shape.to_string(),
            raw_tokens: event.raw_tokens,
            sent_tokens: event.sent_tokens,
        }
    }

    fn event(&self) -> Event<'_> {
        Event {
            at_ms: self.at_ms,
            project: &self.project,
            session: self.session.as_deref(),
            tool: &self.tool,
            shape: if self.mode { Shape::Mode(&self.shape) } else { Shape::Family(&self.shape) },
            raw_tokens: self.raw_tokens,
            sent_tokens: self.sent_tokens,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use lean_ctx_store::{Check, GroupBy, Period};

    use super::super::{Memory, now_ms, read_event};

    /// Events are appended in batches, all or none: an event the store refuses is counted
    /// unrecorded on its own, and the valid events queued around it are all appended.
    #[test]
    fn a_refused_event_is_counted_alone_and_the_events_around_it_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let memory = Memory::new(dir.path().join("state.db"), Check::Everything);
        memory.record(&read_event("/p", "", "full", 10, 4));
        memory.record(&read_event("", "", "map", 10, 2));
        memory.record(&read_event("/p", "", "lines:1-2", 10, 1));

        let lost = memory.unrecorded().expect("the refused event is counted");
        assert_eq!(lost.events(), 1);
        assert_eq!(lost.error, "project must not be empty; nothing was written");
        let rows = memory.with_ledger(|s| s.gain(Period::All, GroupBy::Mode, now_ms(), 0)).unwrap();
        let mut modes: Vec<_> = rows.iter().map(|r| (r.key.clone().unwrap_or_default(), r.events)).collect();
        modes.sort();
        assert_eq!(modes, [("full".to_string(), 1), ("lines".to_string(), 1)]);
        assert_eq!(memory.with_ledger(|s| s.verify()).unwrap(), 2);
    }

    /// While another process holds the write lock, the writer waits in short attempts: a request
    /// reading through the same connection is answered meanwhile (it waited the writer's whole
    /// busy timeout), and the event is appended once the lock is released.
    #[test]
    fn the_connection_serves_requests_while_the_writer_waits_for_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        let memory = Memory::new(path.clone(), Check::Everything);
        memory.with(|_| Ok(())).unwrap();
        let holder = rusqlite::Connection::open(&path).unwrap();
        holder.execute_batch("BEGIN IMMEDIATE").unwrap();
        memory.record(&read_event("/p", "", "full", 10, 4));
        std::thread::sleep(Duration::from_millis(300));

        let started = Instant::now();
        assert!(memory.with(|s| s.sessions("/p", 10)).unwrap().is_empty());
        let waited = started.elapsed();
        holder.execute_batch("ROLLBACK").unwrap();
        assert!(waited < Duration::from_secs(2), "a session listing waited {waited:?} behind the writer");
        assert!(memory.unrecorded().is_none());
        assert_eq!(memory.with_ledger(|s| s.verify()).unwrap(), 1);
    }
}
