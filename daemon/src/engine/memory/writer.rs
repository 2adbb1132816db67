//! The writer of state.db: one thread that makes the writes a call leaves behind (its ledger
//! event, its record in its session, the output it archived), so that an answer is returned
//! without waiting for state.db's write lock. Another process holding it (a fallback engine, a
//! `sqlite3` shell in a transaction) made every such call wait the full busy timeout before it
//! was answered.
//!
//! Writes are queued in the order they were made and made in that order; the ledger events
//! queued together are appended in one transaction: the hash chain keeps the order of the calls,
//! and a lock held elsewhere costs one busy timeout for all the writes waiting, not one each. The
//! writer waits the store's full busy timeout, so a lock held briefly loses nothing, but in short
//! attempts that leave the connection free in between. A write that finds the queue full (the
//! lock held so long that [`QUEUE`] writes piled up), or that failed, is counted unrecorded, and
//! gain and doctor say so.
//!
//! What reads state.db flushes first ([`Writer::flush`]: a marker through the same queue,
//! answered once everything before it is settled), so it sees every write queued before, and so
//! does the process before it exits.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use lean_ctx_store::{BUSY_TIMEOUT, Event, Shape, Store};
use serde::{Deserialize, Serialize};

use super::writes::Write;
use super::{Db, store_error};
use crate::engine::error::ErrorKind;

/// Writes waiting for the writer at most; more are counted unrecorded rather than held in
/// memory without bound while state.db stays locked. Also the most settled at once: all that
/// waited behind a held lock share one busy timeout, so a flush waits out at most two (the
/// writes being made, then those queued before the flush).
const QUEUE: usize = 1024;
/// How long one attempt to write waits for another process's write lock.
const ATTEMPT: Duration = Duration::from_millis(100);
/// The pause between attempts, with the connection free for the engine's requests.
const PAUSE: Duration = Duration::from_millis(20);

pub(super) struct Writer {
    db: Arc<Db>,
    /// `None` once dropped, which ends the thread after what is queued.
    jobs: Option<SyncSender<Job>>,
    thread: Option<JoinHandle<()>>,
}

/// What the writer makes: a ledger event, or another write.
#[derive(Serialize, Deserialize)]
pub(super) enum Work {
    Event(Queued),
    Write(Write),
}

pub(super) enum Job {
    /// A work and its number in the journal (`None`: not journaled, as a sweep is not).
    Work(Option<u64>, Work),
    /// Answered once every job before it is done.
    Flush(SyncSender<()>),
}

impl Writer {
    pub(super) fn start(db: Arc<Db>) -> Writer {
        let (jobs, queue) = sync_channel(QUEUE);
        let thread = std::thread::Builder::new()
            .name("state-writer".into())
            .spawn({
                let db = db.clone();
                move || run(&db, &queue)
            })
            .expect("cannot start state.db's writer thread: the system refused a new thread");
        Writer { db, jobs: Some(jobs), thread: Some(thread) }
    }

    /// Queues `event` without waiting; an event the store would refuse, or that finds the queue
    /// full, is counted unrecorded at once.
    pub(super) fn submit(&self, event: &Event<'_>) {
        if let Err(e) = event.validate() {
            return self.db.lost([event.tool], store_error(e).message);
        }
        let tool = event.tool;
        self.queue(Work::Event(Queued::from(event)), |why| self.db.lost([tool], why));
    }

    /// Queues `write` without waiting; one that finds the queue full is counted unrecorded.
    pub(super) fn submit_write(&self, write: Write) {
        let lost_as = write.lost_as();
        self.queue(Work::Write(write), |why| self.db.lost_write(lost_as, why));
    }

    /// Journals `work` and queues it, or tells `lost` why it could not. A sweep is not
    /// journaled: it loses nothing, the next one does its work.
    fn queue(&self, work: Work, lost: impl FnOnce(String)) {
        let Some(jobs) = &self.jobs else { return };
        let seq = match &work {
            Work::Write(Write::Sweep { .. }) => None,
            _ => self.db.journal.append(&work),
        };
        let why = match jobs.try_send(Job::Work(seq, work)) {
            Ok(()) => return,
            Err(TrySendError::Full(_)) => format!(
                "{QUEUE} earlier writes were still waiting for state.db, which stayed locked by another process; \
                 look for a hung lean-ctxd or lctx process, or a sqlite3 shell left in a transaction"
            ),
            Err(TrySendError::Disconnected(_)) => "state.db's writer thread stopped (see the log)".into(),
        };
        // Counted now: not to be made again by a process adopting the journal.
        self.db.journal.settled(&Vec::from_iter(seq));
        lost(why);
    }

    /// Waits until every write submitted before is made or counted unrecorded.
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
    /// Settles what is queued: an engine dropped with writes pending would lose them uncounted.
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The writer thread: first makes the writes of processes that died before making theirs (see
/// [`super::journal`]), then takes what is queued, up to [`QUEUE`] jobs at a time.
fn run(db: &Db, queue: &Receiver<Job>) {
    let mut adopted = Batch::new();
    adopted.adopt(db);
    adopted.finish(db);
    while let Ok(first) = queue.recv() {
        let mut batch = Batch::new();
        batch.take(db, first);
        for job in queue.try_iter().take(QUEUE - 1) {
            batch.take(db, job);
        }
        batch.finish(db);
    }
}

/// The jobs settled at once: their writes made in order (consecutive ledger events in one
/// transaction), the journal told of each as soon as it is made (a kill while a later write of
/// the batch waits for the lock must not make it again), then the flushes queued among them
/// answered.
struct Batch {
    patience: Patience,
    events: Vec<Queued>,
    /// The journal's numbers of `events`.
    event_seqs: Vec<u64>,
    flushes: Vec<SyncSender<()>>,
}

impl Batch {
    fn new() -> Batch {
        Batch { patience: Patience::new(), events: Vec::new(), event_seqs: Vec::new(), flushes: Vec::new() }
    }

    fn take(&mut self, db: &Db, job: Job) {
        match job {
            Job::Work(seq, Work::Event(event)) => {
                self.events.push(event);
                self.event_seqs.extend(seq);
            }
            Job::Work(seq, Work::Write(write)) => {
                // A sweep deletes staged blobs nobody holds: those of dead processes' journals
                // are adopted first.
                if matches!(write, Write::Sweep { .. }) {
                    self.adopt(db);
                }
                self.append(db);
                if let Err(why) = self.patience.attempt(db, |s| write.apply(s)) {
                    db.lost_write(write.lost_as(), why);
                }
                db.journal.settled(&Vec::from_iter(seq));
            }
            Job::Flush(done) => self.flushes.push(done),
        }
    }

    /// Takes the works of journals their processes left unsettled (never a sweep).
    fn adopt(&mut self, db: &Db) {
        for job in db.journal.adopt(db) {
            self.take(db, job);
        }
    }

    /// Appends the events taken so far in order, all or none; none are counted unrecorded with
    /// the reason.
    fn append(&mut self, db: &Db) {
        if self.events.is_empty() {
            return;
        }
        let events = std::mem::take(&mut self.events);
        let batch: Vec<Event<'_>> = events.iter().map(Queued::event).collect();
        if let Err(why) = self.patience.attempt(db, |s| s.append_batch(&batch).map(drop)) {
            db.lost(events.iter().map(|event| event.tool.as_str()), why);
        }
        db.journal.settled(&std::mem::take(&mut self.event_seqs));
    }

    fn finish(mut self, db: &Db) {
        self.append(db);
        for done in self.flushes {
            let _ = done.send(());
        }
    }
}

/// How long the writes settled at once wait for another process's write lock: together, the
/// busy timeout. Once that has run out, the rest fail at once with the same reason: a lock held
/// that long is not about to be released, and waiting again for each would hold a flush (and
/// gain, and the process's exit) for a busy timeout per write.
struct Patience {
    deadline: Instant,
    gave_up: Option<String>,
}

impl Patience {
    fn new() -> Patience {
        Patience { deadline: Instant::now() + BUSY_TIMEOUT, gave_up: None }
    }

    /// Runs `write` until it succeeds, fails otherwise than on the lock, or the deadline passes;
    /// returns why it failed. Each attempt waits at most [`ATTEMPT`] with the connection held:
    /// the connection is the engine's too, and a request that needs it (status asking whether
    /// it is open, a read coming in between two flushes) must not wait behind the writer for the
    /// whole busy timeout.
    fn attempt(
        &mut self,
        db: &Db,
        mut write: impl FnMut(&mut Store) -> lean_ctx_store::Result<()>,
    ) -> Result<(), String> {
        if let Some(why) = &self.gave_up {
            return Err(why.clone());
        }
        loop {
            match db.with(|s| s.within(ATTEMPT, &mut write)) {
                Ok(()) => return Ok(()),
                Err(e) if e.kind == ErrorKind::Unavailable && Instant::now() < self.deadline => {
                    std::thread::sleep(PAUSE)
                }
                Err(e) if e.kind == ErrorKind::Unavailable => {
                    self.gave_up = Some(e.message.clone());
                    return Err(e.message);
                }
                Err(e) => return Err(e.message),
            }
        }
    }
}

/// An [`Event`] that owns its text, to outlive the call that recorded it.
#[derive(Serialize, Deserialize)]
pub(super) struct Queued {
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
    pub(super) fn from(event: &Event<'_>) -> Queued {
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

    use lean_ctx_store::{BUSY_TIMEOUT, Check, CommandKind, GroupBy, Period};

    use super::super::{Memory, now_ms, read_event};
    use super::{Batch, Job, Queued, Work};
    use crate::engine::Caller;

    /// Events are appended in batches, all or none: an event the store refuses is counted
    /// unrecorded on its own, and the valid events queued around it are all appended.
    #[test]
    fn a_refused_event_is_counted_alone_and_the_events_around_it_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let memory = Memory::new(dir.path().join("state.db"), Check::Everything);
        memory.record(&read_event("/p", "", "full", 10, 4));
        memory.record(&read_event("", "", "map", 10, 2));
        memory.record(&read_event("/p", "", "lines:1-2", 10, 1));
        memory.flush();

        let lost = memory.unrecorded().expect("the refused event is counted");
        assert_eq!(lost.events(), 1);
        assert_eq!(lost.error, "project must not be empty; nothing was written");
        let rows = memory.with(|s| s.gain(Period::All, GroupBy::Mode, now_ms(), 0)).unwrap();
        let mut modes: Vec<_> = rows.iter().map(|r| (r.key.clone().unwrap_or_default(), r.events)).collect();
        modes.sort();
        assert_eq!(modes, [("full".to_string(), 1), ("lines".to_string(), 1)]);
        assert_eq!(memory.with(|s| s.verify()).unwrap(), 2);
    }

    /// A write is marked settled in the journal as soon as it is made, not when its batch ends: a
    /// later write of the batch may wait the busy timeout for another process's lock, and a kill
    /// then made the earlier ones twice on replay (the ledger's events among them).
    #[test]
    fn a_write_is_marked_settled_as_soon_as_it_is_made() {
        let dir = tempfile::tempdir().unwrap();
        let memory = Memory::new(dir.path().join("state.db"), Check::Everything);
        memory.with(|_| Ok(())).unwrap();
        let work = Work::Event(Queued::from(&read_event("/p", "s1", "full", 10, 4)));
        let seq = memory.db.journal.append(&work);
        let mut batch = Batch::new();
        batch.take(&memory.db, Job::Work(seq, work));
        batch.append(&memory.db);
        let journal = std::fs::read_dir(dir.path().join("journal")).unwrap().next().unwrap().unwrap().path();
        let left = std::fs::read_to_string(&journal).unwrap();
        assert!(left.is_empty(), "the made event is still to replay: {left}");
        batch.finish(&memory.db);
        assert_eq!(memory.with(|s| s.verify()).unwrap(), 1);
    }

    /// A memory whose state.db exists and whose write lock another connection holds, as another
    /// process would (the directory must outlive the test).
    fn locked_by_another_process() -> (tempfile::TempDir, Memory, rusqlite::Connection) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        let memory = Memory::new(path.clone(), Check::Everything);
        memory.with(|_| Ok(())).unwrap();
        let holder = rusqlite::Connection::open(&path).unwrap();
        holder.execute_batch("BEGIN IMMEDIATE").unwrap();
        (dir, memory, holder)
    }

    /// While another process holds the write lock, the writer waits in short attempts: a request
    /// using the same connection without a flush (status asking whether it is open, a read that
    /// came in between a flush and the next batch) is answered meanwhile (it waited the writer's
    /// whole busy timeout), and the event is appended once the lock is released.
    #[test]
    fn the_connection_serves_requests_while_the_writer_waits_for_the_lock() {
        let (_dir, memory, holder) = locked_by_another_process();
        memory.record(&read_event("/p", "", "full", 10, 4));
        std::thread::sleep(Duration::from_millis(300));

        let started = Instant::now();
        assert!(memory.db.with(|s| s.sessions("/p", 10)).unwrap().is_empty());
        let waited = started.elapsed();
        holder.execute_batch("ROLLBACK").unwrap();
        assert!(waited < Duration::from_secs(2), "a session listing waited {waited:?} behind the writer");
        assert_eq!(memory.with(|s| s.verify()).unwrap(), 1);
        assert!(memory.unrecorded().is_none());
    }

    /// A session record queued behind another process's write lock carried the time the writer
    /// made it, up to the busy timeout after the call: the session's times, its file's latest
    /// touch and its command are the call's, and the records keep the calls' order.
    #[test]
    fn a_queued_session_record_carries_the_time_of_its_call() {
        let (_dir, memory, holder) = locked_by_another_process();
        let caller = Caller { cwd: "/p", project_root: None, session: "s1", agent: "test", host: "" };
        let called = now_ms();
        memory.touched(&caller, "/p", "a.rs", "full", 4);
        memory.ran(&caller, "/p", ("cargo build", Some(0), CommandKind::Other), now_ms());
        memory.ran(&caller, "/p", ("cargo test", Some(1), CommandKind::Test), now_ms());
        std::thread::sleep(Duration::from_millis(500));
        holder.execute_batch("ROLLBACK").unwrap();

        let session = memory
            .with(|s| s.session(lean_ctx_store::SessionKey { project: "/p", id: "s1" }))
            .unwrap()
            .expect("the session is written");
        let late = called + 400;
        let times = [session.info.created_ms, session.info.updated_ms, session.files[0].last_ms];
        let commands: Vec<_> = session.commands.iter().map(|c| (c.command.as_str(), c.at_ms < late)).collect();
        assert!(times.iter().all(|&at| at < late), "{times:?} stamped after {called} + 400 ms");
        assert_eq!(commands, [("cargo build", true), ("cargo test", true)]);
    }

    /// A lock held past the busy timeout costs the writes queued together one wait, not one
    /// each, and each lost write is counted: the ledger's events per tool, the session record
    /// apart. The writer takes the first event alone (one wait), then the three queued while it
    /// waited (a second wait, where one each would hold the flush, and so gain or the process's
    /// exit, for 40 s).
    #[test]
    fn writes_queued_together_share_one_busy_timeout_and_each_lost_one_is_counted() {
        let (_dir, memory, holder) = locked_by_another_process();
        let caller = Caller { cwd: "/p", project_root: None, session: "s1", agent: "test", host: "" };
        let started = Instant::now();
        memory.record(&read_event("/p", "s1", "full", 10, 4));
        std::thread::sleep(Duration::from_millis(300));
        memory.touched(&caller, "/p", "a.rs", "full", 4);
        memory.record(&read_event("/p", "s1", "map", 10, 2));
        memory.touched(&caller, "/p", "b.rs", "map", 2);

        memory.flush();
        let waited = started.elapsed();
        holder.execute_batch("ROLLBACK").unwrap();
        assert!(waited < 2 * BUSY_TIMEOUT + BUSY_TIMEOUT / 2, "the flush waited {waited:?}");
        let lost = memory.unrecorded().expect("the writes are counted");
        assert_eq!(lost.events(), 2);
        assert_eq!(lost.writes.get("session record"), Some(&2));
        assert!(lost.error.starts_with("state.db stayed locked by another process"), "{}", lost.error);
        assert!(memory.with(|s| s.session(lean_ctx_store::SessionKey { project: "/p", id: "s1" })).unwrap().is_none());
    }
}
