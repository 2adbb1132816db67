//! The memory component: sessions, project knowledge and the token ledger
//! in `state.db` (crate `lean-ctx-store`), behind one connection.
//!
//! The daemon holds the only connection it uses; a client running the
//! engine in-process opens its own, and SQLite (WAL, busy timeout)
//! serializes the two. The database is opened on first use, so commands
//! that never touch memory never create it.

pub mod actions;
mod journal;
pub mod render;
mod unrecorded;
mod writer;
mod writes;

use std::path::PathBuf;
use std::sync::Arc;

use lean_ctx_store::{ArchiveEntry, Check, CommandKind, EditResult, Event, Shape, Store, WrittenBlob};

use crate::engine::Caller;
use crate::engine::error::{EngineError, EngineResult, ErrorKind};
use crate::locks::{self, Mutex};

pub use unrecorded::Unrecorded;
use writes::{Entry, Record, Write};

pub struct Memory {
    db: Arc<Db>,
    /// Makes a call's writes off the caller's thread (see [`writer`]).
    writer: writer::Writer,
}

/// The connection, opened on first use, shared by the engine's threads and state.db's writer.
struct Db {
    path: PathBuf,
    check: Check,
    /// Held across SQLite calls by design: it guards the one connection, and the file it opened.
    store: Mutex<Option<(Store, Option<FileId>)>>,
    /// Writes lost since this process started. A lock of its own: a caller counts a write the
    /// writer's full queue refused while the writer holds `store`, waiting for SQLite.
    unrecorded: Mutex<Option<Unrecorded>>,
    /// The writes queued and not yet made, kept should the process be killed.
    journal: journal::Journal,
}

impl Memory {
    pub fn new(path: PathBuf, check: Check) -> Memory {
        let db = Arc::new(Db {
            journal: journal::Journal::beside(&path),
            path,
            check,
            store: Mutex::new(locks::ids::MEMORY_STORE, None),
            unrecorded: Mutex::new(locks::ids::MEMORY_UNRECORDED, None),
        });
        Memory { writer: writer::Writer::start(db.clone()), db }
    }

    pub fn path(&self) -> &std::path::Path {
        &self.db.path
    }

    /// Runs `f` on the store, opening it first if needed, once every write queued before is
    /// made (or counted unrecorded): gain right after a read counts that read, a session's status
    /// shows the command it just ran, an archive id an answer named expands.
    pub fn with<R>(&self, f: impl FnOnce(&mut Store) -> lean_ctx_store::Result<R>) -> EngineResult<R> {
        self.writer.flush();
        self.db.with(f)
    }

    /// Runs `f` on the store, opening it first if needed, without waiting for the writes queued
    /// before: for what the writer never writes (knowledge), which a flush would only make wait
    /// while another process holds state.db's write lock.
    pub fn with_unqueued<R>(&self, f: impl FnOnce(&mut Store) -> lean_ctx_store::Result<R>) -> EngineResult<R> {
        self.db.with(f)
    }

    /// The reset the user has not seen to: the latest corrupt `state.db` moved aside, while its
    /// copy is still there (removing it is how the user acknowledges the reset).
    pub fn reset(&self) -> Option<Reset> {
        let mut copies = lean_ctx_store::quarantined(&self.db.path);
        let latest = copies.pop()?;
        Some(Reset { at: latest.moved_at(), copy: latest.path, older: copies.len() })
    }

    pub fn is_open(&self) -> bool {
        self.db.store.lock().is_some()
    }

    /// Hands one ledger event to the writer and returns at once: the answer the user asked for
    /// matters more than its accounting, and must not wait for state.db's write lock. A failure
    /// is logged and counted, never returned, so gain can say what it is missing.
    pub fn record(&self, event: &Event<'_>) {
        self.writer.submit(event);
    }

    /// Waits until every write queued so far is made or counted unrecorded, and removes the
    /// journal that kept them: before the process exits, which leaves no journal behind then.
    pub fn flush(&self) {
        self.writer.flush();
        self.db.journal.retire();
    }

    /// The writes this process could not make since it started, if any, as of now: those still
    /// queued are not counted (call it after [`Memory::with`] or [`Memory::flush`] to count
    /// them).
    pub fn unrecorded(&self) -> Option<Unrecorded> {
        self.db.unrecorded.lock().clone()
    }

    /// Queues retention of the archive in `dir` (see `Store::archive_sweep`).
    pub fn sweep_archive(&self, dir: &std::path::Path, now_ms: i64, max_age_ms: i64, max_bytes: u64) {
        self.writer.submit_write(Write::Sweep { dir: dir.to_path_buf(), now_ms, max_age_ms, max_bytes });
    }

    /// Queues the archiving of the output `blob` holds, described by `entry` (whose `text` is
    /// ignored: the blob holds the bytes), and returns its id: what the answer names, which
    /// [`Memory::with`] finds archived.
    pub fn archive(&self, dir: &std::path::Path, entry: &ArchiveEntry<'_>, blob: WrittenBlob) -> String {
        let id = blob.id().to_string();
        let entry = Entry {
            kind: entry.kind.to_string(),
            label: entry.label.to_string(),
            family: entry.family.to_string(),
            exit_code: entry.exit_code,
            session: entry.session.map(str::to_string),
            project: entry.project.to_string(),
        };
        self.writer.submit_write(Write::Archive { dir: dir.to_path_buf(), entry, blob });
        id
    }
}

impl Db {
    /// Runs `f` on the store, opening it first if needed.
    fn with<R>(&self, f: impl FnOnce(&mut Store) -> lean_ctx_store::Result<R>) -> EngineResult<R> {
        let mut slot = self.store.lock();
        // Another process moved a corrupt state.db aside (a fallback child's reset) or replaced
        // it: this connection would go on writing to the file moved away.
        if slot.as_ref().is_some_and(|(_, opened)| *opened != file_id(&self.path)) {
            *slot = None;
        }
        if slot.is_none() {
            if let Some(dir) = self.path.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| EngineError::internal(format!("cannot create {}: {e}", dir.display())))?;
            }
            let opened = Store::open(&self.path, self.check).map_err(|e| self.store_failure(e))?;
            if let Some(warning) = &opened.warning {
                tracing::error!("{warning}");
                eprintln!("lean-ctx: {warning}");
            }
            *slot = Some((opened.store, file_id(&self.path)));
        }
        let (store, _) = slot.as_mut().expect("opened above");
        let result = f(store).map_err(|e| store.explained(e));
        // Damaged while in use: the next call opens the file again, which checks it and, if it is
        // corrupt, moves it aside and starts a fresh one (every write failed until a restart).
        if result.as_ref().is_err_and(lean_ctx_store::Error::is_corrupt) {
            *slot = None;
        }
        result.map_err(|e| {
            let mut failure = self.store_failure(e);
            if slot.is_none() {
                failure.message.push_str(" (the next call checks state.db again, and moves it aside if it is corrupt)");
            }
            failure
        })
    }

    /// Counts ledger events of `tools` as lost, for `why` (kept if they are the first).
    fn lost<'a>(&self, tools: impl IntoIterator<Item = &'a str>, why: String) {
        tracing::warn!("ledger append failed: {why}");
        let mut unrecorded = self.unrecorded.lock();
        let lost = unrecorded.get_or_insert_with(|| Unrecorded::new(now_ms(), why));
        for tool in tools {
            lost.add(tool);
        }
    }

    /// Counts a write other than a ledger event as lost, for `why`, as what `lost_as` names;
    /// `None` (a sweep, whose work the next one does) is only logged.
    fn lost_write(&self, lost_as: Option<&'static str>, why: String) {
        let Some(what) = lost_as else {
            return tracing::warn!("archive sweep failed: {why}");
        };
        tracing::warn!("cannot write a {what} to state.db: {why}");
        self.unrecorded.lock().get_or_insert_with(|| Unrecorded::new(now_ms(), why)).add_write(what);
    }

    /// [`store_error`], a full disk or a read-only file named by the directory that holds
    /// `state.db`: the store knows what failed, not where, and the user has to know where to act.
    fn store_failure(&self, e: lean_ctx_store::Error) -> EngineError {
        let full = match &e {
            lean_ctx_store::Error::ReadOnly(source) => {
                let dir = self.path.parent().unwrap_or(&self.path);
                let quoted = lean_ctx_shell_syntax::quote(&self.path.to_string_lossy());
                Some(format!(
                    "{} could not be written: it, its -wal or -shm file, or {} is read-only for lean-ctxd ({source}); \
                     make them writable (`chmod u+w {quoted}*`; `lsattr {quoted}` shows an immutable flag) and retry; \
                     what state.db held before is intact",
                    self.path.display(),
                    dir.display(),
                ))
            }
            lean_ctx_store::Error::Full(source) => {
                let dir = self.path.parent().unwrap_or(&self.path);
                Some(format!(
                    "the disk holding {} is full: state.db could not be written ({source}); free space on it (`df -h \
                     {}` shows how much is left) and retry; what state.db held before is intact",
                    dir.display(),
                    lean_ctx_shell_syntax::quote(&dir.to_string_lossy())
                ))
            }
            _ => None,
        };
        let mut failure = store_error(e);
        if let Some(message) = full {
            failure.message = message;
        }
        failure
    }
}

/// Which file a path names: its device and inode.
type FileId = (u64, u64);

fn file_id(path: &std::path::Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|meta| (meta.dev(), meta.ino()))
}

/// `state.db` replaced by a fresh one because it was corrupt, the old one kept.
pub struct Reset {
    /// When, as `YYYY-MM-DD HH:MM:SS UTC`.
    pub at: String,
    pub copy: PathBuf,
    /// Copies of earlier resets still there too.
    pub older: usize,
}

impl Reset {
    /// What was lost from view and how to end the note, for status and doctor.
    pub fn notice(&self) -> String {
        format!("{}. {}", self.note(), self.acknowledge())
    }

    /// What was lost from view.
    fn note(&self) -> String {
        format!(
            "state.db was reset on {}: the old database was corrupt and is kept at {}; sessions, knowledge and \
             ledger records from before then are only in that copy{}",
            self.at,
            self.copy.display(),
            self.older_copies()
        )
    }

    /// The ledger's side of it, for `ledger verify`.
    pub fn ledger_note(&self) -> String {
        format!(
            "the ledger was reset on {}: the old database was corrupt and is kept at {}; records before it cannot \
             be verified{}. {}",
            self.at,
            self.copy.display(),
            self.older_copies(),
            self.acknowledge()
        )
    }

    /// How the user ends the notice (the copy with its side files; an older copy is named next).
    fn acknowledge(&self) -> String {
        let copy = lean_ctx_shell_syntax::quote(&self.copy.to_string_lossy());
        format!("Remove the copy once nothing in it is needed (`rm {copy}*`), and this note goes away")
    }

    fn older_copies(&self) -> String {
        match self.older {
            0 => String::new(),
            1 => " (a copy of an earlier reset is beside it)".into(),
            n => format!(" ({n} copies of earlier resets are beside it)"),
        }
    }
}

/// The session record: what the caller's session (if any) read, edited and ran. Queued for the
/// writer as ledger events are: the answer does not wait for it, and one that cannot be written
/// is counted unrecorded.
impl Memory {
    /// The session received `path` in `mode`, costing `tokens`.
    pub fn touched(&self, caller: &Caller<'_>, project: &str, path: &str, mode: &str, tokens: u64) {
        self.in_session(caller, project, Record::File { path: path.to_string(), mode: mode.to_string(), tokens });
    }

    /// The session attempted an edit of `path`.
    pub fn edited(&self, caller: &Caller<'_>, project: &str, path: &str, result: EditResult) {
        self.in_session(caller, project, Record::Edit { path: path.to_string(), result });
    }

    /// The session ran `command`, which exited with `exit_code` (`None`: it did not finish, its
    /// status being the kill's of a timeout or a cancel, not the command's), ending at `at_ms`.
    pub fn ran(&self, caller: &Caller<'_>, project: &str, run: (&str, Option<i32>, CommandKind), at_ms: i64) {
        let (command, exit_code, kind) = run;
        let record = Record::Command { command: command.to_string(), exit_code, kind };
        self.in_session_at(caller, project, record, at_ms);
    }

    /// Creates or bumps the caller's session, then records `record` in it.
    fn in_session(&self, caller: &Caller<'_>, project: &str, record: Record) {
        self.in_session_at(caller, project, record, now_ms());
    }

    fn in_session_at(&self, caller: &Caller<'_>, project: &str, record: Record, at_ms: i64) {
        if caller.session.is_empty() {
            return;
        }
        self.writer.submit_write(Write::Session {
            id: caller.session.to_string(),
            project: project.to_string(),
            agent: caller.agent.to_string(),
            at_ms,
            record,
        });
    }
}

/// Milliseconds since the Unix epoch, for ledger events.
pub fn now_ms() -> i64 {
    ms_since_epoch(std::time::SystemTime::now())
}

/// `at` in milliseconds since the Unix epoch, as ledger events and session records hold it.
pub fn ms_since_epoch(at: std::time::SystemTime) -> i64 {
    at.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A read's ledger event, booked under its mode without parameters
/// (`lines:1-20` is `lines`): gain reports group modes, not ranges.
pub fn read_event<'a>(project: &'a str, session: &'a str, mode: &'a str, raw: u64, sent: u64) -> Event<'a> {
    let family = mode.split_once(':').map_or(mode, |(family, _)| family);
    Event {
        at_ms: now_ms(),
        project,
        session: (!session.is_empty()).then_some(session),
        tool: "read",
        shape: Shape::Mode(family),
        raw_tokens: raw,
        sent_tokens: sent,
    }
}

pub fn store_error(e: lean_ctx_store::Error) -> EngineError {
    use lean_ctx_store::Error as E;
    let kind = match &e {
        E::Busy(_) => ErrorKind::Unavailable,
        // Not the daemon's fault and not retryable until the user frees space or raises the limit.
        E::Full(_) | E::FileSizeLimit { .. } => ErrorKind::ResourceExhausted,
        E::Io { source, .. } if source.kind() == std::io::ErrorKind::StorageFull => ErrorKind::ResourceExhausted,
        E::InvalidInput(_) => ErrorKind::InvalidArgument,
        E::SessionNotFound { .. } | E::ArchiveNotFound { .. } => ErrorKind::NotFound,
        // The user's to mend (a mode, a flag, a mount), as a newer schema is.
        E::NewerSchema { .. } | E::ArchiveExpired { .. } | E::ReadOnly(_) => ErrorKind::FailedPrecondition,
        _ => ErrorKind::Internal,
    };
    EngineError::new(kind, e.to_string())
}

#[cfg(test)]
mod tests {
    use lean_ctx_store::{Check, Error};

    use super::{Memory, store_error};
    use crate::server::status::engine_status;

    /// SQLite's own error for a full disk, as rusqlite reports it.
    fn disk_full() -> Error {
        let code = rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_FULL);
        Error::Full(rusqlite::Error::SqliteFailure(code, Some("database or disk is full".into())))
    }

    /// A full disk was an Internal error, as if lean-ctxd were broken: it is ResourceExhausted,
    /// and the message names the directory to free space in.
    #[test]
    fn a_full_disk_is_resource_exhausted_naming_the_directory_that_holds_state_db() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data dir");
        let memory = Memory::new(data.join("state.db"), Check::Everything);
        let status = engine_status(memory.with(|_| Err::<(), _>(disk_full())).unwrap_err());
        assert_eq!(status.code(), tonic::Code::ResourceExhausted);
        let quoted = lean_ctx_shell_syntax::quote(&data.to_string_lossy());
        assert_eq!(
            status.message(),
            format!(
                "the disk holding {} is full: state.db could not be written (database or disk is full); free space \
                 on it (`df -h {quoted}` shows how much is left) and retry; what state.db held before is intact",
                data.display()
            )
        );
    }

    /// QA: a state.db made read-only (`chmod 400`, `chattr +i`) failed every write with "state.db
    /// query failed: attempt to write a readonly database; … report it": it names the file and
    /// the fix.
    #[test]
    fn a_read_only_state_db_is_named_with_the_command_that_mends_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        let memory = Memory::new(path.clone(), Check::Everything);
        let code = rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_READONLY);
        let read_only = rusqlite::Error::SqliteFailure(code, Some("attempt to write a readonly database".into()));
        let status = engine_status(memory.with(|_| Err::<(), _>(Error::from(read_only))).unwrap_err());
        assert_eq!(status.code(), tonic::Code::FailedPrecondition);
        let quoted = lean_ctx_shell_syntax::quote(&path.to_string_lossy());
        assert!(
            status
                .message()
                .starts_with(&format!("{} could not be written: it, its -wal or -shm file", path.display()))
                && status.message().contains(&format!("`chmod u+w {quoted}*`")),
            "{}",
            status.message()
        );
    }

    /// QA: state.db damaged while the daemon ran failed every write until a restart, and a
    /// fallback child's reset left the daemon writing to the file it moved aside. A connection
    /// that meets damage is dropped, and one whose file was replaced is opened again.
    #[test]
    fn a_state_db_damaged_or_replaced_in_use_is_opened_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        let memory = Memory::new(path.clone(), Check::Everything);
        memory.with(|s| s.verify()).unwrap();
        // Damage as SQLite reports it mid-use; the file damaged too once the connection is gone.
        let code = rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CORRUPT);
        let damaged =
            Error::Sqlite(rusqlite::Error::SqliteFailure(code, Some("database disk image is malformed".into())));
        let e = memory.with(|_| Err::<(), _>(damaged)).unwrap_err();
        assert!(
            e.message.ends_with("(the next call checks state.db again, and moves it aside if it is corrupt)"),
            "{e}"
        );
        assert!(!memory.is_open(), "the connection was dropped");
        std::fs::write(&path, vec![0x5a; 64 << 10]).unwrap();
        for side in ["state.db-wal", "state.db-shm"] {
            let _ = std::fs::remove_file(dir.path().join(side));
        }
        assert_eq!(memory.with(|s| s.verify()).unwrap(), 0, "a fresh state.db");
        assert!(memory.reset().is_some(), "the damaged file moved aside and said so");
        // Replaced under it: the new file is the one written.
        let other = dir.path().join("other.db");
        drop(lean_ctx_store::Store::open(&other, Check::Everything).unwrap());
        std::fs::rename(&other, &path).unwrap();
        memory.with(|s| s.verify()).unwrap();
        memory.record(&super::read_event("/p", "", "full", 10, 4));
        memory.flush();
        let replaced = lean_ctx_store::Store::open(&path, Check::Everything).unwrap().store;
        assert_eq!(replaced.verify().unwrap(), 1, "the event is in the file at the path");
    }

    /// A file beside state.db (an archived output's blob) that found the disk full says so in
    /// its own message, which names the file; its code is the same.
    #[test]
    fn a_file_write_on_a_full_disk_is_resource_exhausted_too() {
        let e = Error::Io {
            action: "write",
            path: "/data/archive/ab/cd".into(),
            source: std::io::ErrorKind::StorageFull.into(),
        };
        assert_eq!(engine_status(store_error(e)).code(), tonic::Code::ResourceExhausted);
    }
}
