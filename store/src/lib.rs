//! `state.db`: the persistent memory of lean-ctxd in one SQLite file.
//!
//! It holds sessions (what an agent was doing in a project), project knowledge (facts with
//! history), a hash-chained token ledger with its gain reports, and the index of the output
//! archive.
//!
//! # Output archive
//! When lean-ctxd shortens an output for an agent, it archives the whole original so that the
//! agent can expand it later by the short id the shortened output names
//! ([`Store::archive_put`], [`Store::archive_get`]). The bytes go to content-addressed files in a
//! directory the caller passes (the daemon uses `<data>/archive`): `<id[0..2]>/<id>.zst`, zstd
//! compressed, where the id is the first 16 hex characters of the BLAKE3 hash of the bytes, so the
//! same output archived twice is stored once. `state.db` holds a row describing each output
//! (kind, label such as the command line, family, exit code, sizes, session, project) and a
//! full-text index over label and text ([`Store::archive_search`]). Retention
//! ([`Store::archive_sweep`]) removes the oldest outputs by age and by total stored size; an
//! expired output keeps its row, so expanding it reports when it expired instead of "unknown".
//!
//! # Who writes
//! The daemon owns one [`Store`] (one writer connection) and wraps it in its own ranked lock; this
//! crate builds no lock of its own. When no daemon runs, every client process opens its own
//! [`Store`] on the same file and SQLite serializes them: WAL journal, a 10 s busy timeout, and
//! every read-modify-write in a `BEGIN IMMEDIATE` transaction, so concurrent writers wait for each
//! other instead of losing each other's update.
//!
//! # Durability
//! `synchronous=NORMAL` in WAL mode: a commit is in the WAL file (the OS page cache) before the
//! call returns, so killing any process at any moment loses no acknowledged write. Only a power
//! loss or kernel crash can drop the last commits (never corrupt the file); that trade buys
//! commits without an fsync each.
//!
//! # Corruption
//! A file that SQLite cannot read, or that fails `PRAGMA quick_check`, is moved aside to
//! `state.db.corrupt-<unix-seconds>` and a fresh one is created; [`Opened::warning`] names the
//! moved file, and [`quarantined`] lists the moved files still there, for as long as the user keeps
//! them. State is never reset silently.

mod archive;
mod db;
mod error;
mod file_size;
mod gain;
mod handoff;
mod knowledge;
mod ledger;
mod quarantine;
mod session;
mod terms;

use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, Transaction, TransactionBehavior};

pub use archive::{
    ARCHIVE_ID_LEN, ArchiveEntry, ArchiveHit, ArchiveMeta, ArchiveReader, ArchiveWriter, Archived, SweepReport,
    WrittenBlob, archive_id,
};
pub use db::{BUSY_TIMEOUT, Check, Opened};
pub use error::{Error, Result, utc};
pub use gain::{GainRow, GroupBy, Period};
pub use handoff::HandoffBudget;
pub use knowledge::{DEFAULT_CATEGORY, DEFAULT_CONFIDENCE, Fact, FactState, NewFact, Remembered};
pub use ledger::{Event, Shape};
pub use quarantine::{Quarantined, quarantined};
pub use session::{
    CommandKind, CommandRun, EditResult, EditRun, FileTouch, Note, NoteKind, Session, SessionInfo, SessionKey,
};

/// One connection to `state.db`. `Send`, not `Sync`: share it behind the caller's lock.
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Starts a write transaction that takes SQLite's write lock up front.
    ///
    /// A deferred transaction that reads and then writes can fail with `SQLITE_BUSY` at the write
    /// without waiting (another process committed in between); taking the lock first makes such a
    /// writer wait for the busy timeout instead, and its reads see the latest committed state.
    fn write(&mut self) -> Result<Transaction<'_>> {
        Ok(self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?)
    }

    /// Starts a read transaction so that several queries see one consistent snapshot.
    fn read(&self) -> Result<Transaction<'_>> {
        Ok(self.conn.unchecked_transaction()?)
    }
}

/// Milliseconds since the Unix epoch; the unit of every timestamp in this crate.
fn now_ms() -> i64 {
    let since_epoch = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    i64::try_from(since_epoch.as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod testutil {
    /// The daemon moves its store between threads behind its own lock.
    const _: () = {
        const fn send<T: Send>() {}
        send::<super::Store>();
    };

    use super::Store;

    /// A store in a fresh temporary directory; keep the directory alive as long as the store.
    pub(crate) fn temp_store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().expect("create a temporary directory");
        let opened = Store::open(&dir.path().join("state.db"), crate::Check::Everything).expect("open a fresh store");
        assert_eq!(opened.warning, None);
        (dir, opened.store)
    }
}
