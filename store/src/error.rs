//! The one error type of the store. Every message says what happened and what to do about it,
//! because it ends up in front of a user (through `lctx` or an agent) more often than in a log.

use std::fmt;
use std::io;
use std::path::PathBuf;

use rusqlite::ErrorCode;

use crate::db::BUSY_TIMEOUT;

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// Another process held the write lock for longer than [`BUSY_TIMEOUT`].
    Busy(rusqlite::Error),
    /// The disk (or file system) holding state.db has no room for the write (SQLITE_FULL).
    Full(rusqlite::Error),
    /// state.db, its write-ahead log or its directory cannot be written by this process
    /// (SQLITE_READONLY: a mode without the write bit, an immutable file, a read-only mount).
    ReadOnly(rusqlite::Error),
    /// Any other SQLite failure.
    Sqlite(rusqlite::Error),
    /// A write to the database at `path` or its write-ahead log was refused for passing the
    /// process's file-size limit (`limit` bytes; `None`: none is set, the file system's largest
    /// file was hit). `bytes` and `wal_bytes` are their sizes when it was refused.
    FileSizeLimit { path: PathBuf, bytes: u64, wal_bytes: u64, limit: Option<u64>, source: rusqlite::Error },
    /// A file operation on `state.db` or beside it failed.
    Io { action: &'static str, path: PathBuf, source: io::Error },
    /// The file was migrated by a newer build; this build leaves it untouched.
    NewerSchema { path: PathBuf, found: i64, supported: i64 },
    /// The caller passed a value the store refuses; nothing was written.
    InvalidInput(String),
    /// The file or what is stored in it is unusable in a way the store cannot repair by itself;
    /// the message says what to do.
    Damaged(String),
    /// A session operation named a session that was never created in that project.
    SessionNotFound { id: String, project: String },
    /// `verify` found a ledger record that does not chain from the one before it.
    LedgerBroken { id: i64, reason: &'static str },
    /// `verify` found the daily totals gain reports (`ledger_daily`) disagreeing with the records
    /// they sum: changed, added or deleted outside lean-ctxd (the chain cannot tell a deleted last
    /// record; the totals still count it).
    LedgerTotalsBroken { day: i64, project: String, tool: String },
    /// No archived output has this id (it was never archived here).
    ArchiveNotFound { id: String },
    /// The archived output was removed by retention at `expired_ms`; only its description is left.
    ArchiveExpired { id: String, expired_ms: i64 },
    /// The blob file of a live archived output is missing, unreadable as zstd, or holds other bytes
    /// than the ones archived under this id.
    ArchiveDamaged { id: String, path: PathBuf, reason: String },
}

impl Error {
    /// Whether SQLite found the file damaged (or not a database) in the middle of its use: a
    /// connection that meets this should be dropped, so that opening the file again checks it
    /// and moves it aside (see [`crate::Store::open`]).
    pub fn is_corrupt(&self) -> bool {
        matches!(self, Error::Sqlite(source)
            if matches!(source.sqlite_error_code(), Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase)))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Busy(source) => write!(
                f,
                "state.db stayed locked by another process for more than {} s ({source}); retry, and if it \
                 persists look for a hung lean-ctxd or lctx process",
                BUSY_TIMEOUT.as_secs()
            ),
            Error::Full(source) => write!(
                f,
                "state.db could not be written: the disk that holds it is full ({source}); free space there and \
                 retry (what state.db held before is intact)"
            ),
            Error::ReadOnly(source) => write!(
                f,
                "state.db could not be written: it, its -wal or -shm file, or its directory is read-only for this \
                 process ({source}); make them writable (`chmod u+w`; `lsattr` shows an immutable flag) and retry \
                 (what state.db held before is intact)"
            ),
            Error::Sqlite(source) => {
                write!(f, "state.db query failed: {source}; if this repeats, keep a copy of state.db and report it")
            }
            Error::FileSizeLimit { path, bytes, wal_bytes, limit: Some(limit), source } => write!(
                f,
                "state.db could not be written: {} ({bytes} bytes, its write-ahead log {wal_bytes}) would pass the \
                 file-size limit of {limit} bytes the process writing it runs under (`ulimit -f`; {source}): raise \
                 it where lean-ctxd is started and retry (what state.db held before is intact)",
                path.display()
            ),
            Error::FileSizeLimit { path, bytes, wal_bytes, limit: None, source } => write!(
                f,
                "state.db could not be written: {} ({bytes} bytes, its write-ahead log {wal_bytes}) would pass the \
                 largest file its file system holds ({source}): move lean-ctxd's data directory to another file \
                 system (what state.db held before is intact)",
                path.display()
            ),
            Error::Io { action, path, source } if source.kind() == io::ErrorKind::FileTooLarge => write!(
                f,
                "could not {action} {}: {source}; the process writing it runs under a file-size limit (`ulimit \
                 -f`) smaller than this file: raise it where lean-ctxd is started",
                path.display()
            ),
            Error::Io { action, path, source } => write!(
                f,
                "could not {action} {}: {source}; check the permissions and free space of that directory",
                path.display()
            ),
            Error::NewerSchema { path, found, supported } => write!(
                f,
                "{} has schema version {found}, newer than the {supported} this build knows: it was written by a \
                 newer lean-ctxd; upgrade lean-ctxd (this build leaves the file untouched)",
                path.display()
            ),
            Error::InvalidInput(message) => write!(f, "{message}; nothing was written"),
            Error::Damaged(message) => write!(f, "{message}"),
            Error::SessionNotFound { id, project } => write!(
                f,
                "no session `{id}` in {project}: create it first with Store::touch_session (project and agent), then \
                 record into it"
            ),
            Error::LedgerBroken { id, reason } => write!(
                f,
                "ledger record {id} breaks the hash chain ({reason}): the ledger was changed outside lean-ctxd; keep \
                 a copy of state.db as evidence (new records still chain from the last one)"
            ),
            Error::LedgerTotalsBroken { day, project, tool } => write!(
                f,
                "the ledger's daily totals for {tool} in {project} on {} do not match its records: the ledger was \
                 changed outside lean-ctxd, and gain reports are not to be trusted; keep a copy of state.db as \
                 evidence",
                utc(day * crate::ledger::DAY_MS).get(..10).unwrap_or_default()
            ),
            // How to find the right id depends on the caller's surface: the daemon's expand adds it.
            Error::ArchiveNotFound { id } => write!(f, "no archived output {id}"),
            Error::ArchiveExpired { id, expired_ms } => write!(
                f,
                "archived output {id} expired at {} (archive retention) and can no longer be expanded; run the \
                 command again to see its full output",
                utc(*expired_ms)
            ),
            Error::ArchiveDamaged { id, path, reason } => write!(
                f,
                "archived output {id} is damaged ({reason}: {}) and cannot be expanded; run the command again to see \
                 its full output",
                path.display()
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Busy(source) | Error::Full(source) | Error::ReadOnly(source) | Error::Sqlite(source) => Some(source),
            Error::FileSizeLimit { source, .. } => Some(source),
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<rusqlite::Error> for Error {
    fn from(source: rusqlite::Error) -> Self {
        match source.sqlite_error_code() {
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => Error::Busy(source),
            Some(ErrorCode::DiskFull) => Error::Full(source),
            Some(ErrorCode::ReadOnly) => Error::ReadOnly(source),
            _ => Error::Sqlite(source),
        }
    }
}

/// Refuses an empty identifier (project, session id, key, ...) with a message naming the field.
pub(crate) fn non_empty(field: &str, value: &str) -> Result<()> {
    if value.trim().is_empty() {
        return Err(Error::InvalidInput(format!("{field} must not be empty")));
    }
    Ok(())
}

/// Converts a count the caller gives as `u64` to SQLite's signed integer.
pub(crate) fn sql_count(field: &str, value: u64) -> Result<i64> {
    i64::try_from(value).map_err(|_| Error::InvalidInput(format!("{field} {value} exceeds {}", i64::MAX)))
}

/// Converts a caller's `limit` to SQLite's signed integer; anything beyond `i64::MAX` means "all".
pub(crate) fn sql_limit(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

/// A timestamp in milliseconds since the Unix epoch as `YYYY-MM-DD HH:MM:SS UTC`.
pub fn utc(ms: i64) -> String {
    const DAY_S: i64 = 86_400;
    let seconds = ms.div_euclid(1000);
    let (days, of_day) = (seconds.div_euclid(DAY_S), seconds.rem_euclid(DAY_S));
    // Civil date from days since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    let (hour, minute, second) = (of_day / 3600, of_day % 3600 / 60, of_day % 60);
    format!("{year:04}-{month:02}-{day:02} {hour:02}:{minute:02}:{second:02} UTC")
}

#[cfg(test)]
mod tests {
    use super::utc;
    use crate::NewFact;
    use crate::testutil::temp_store;

    /// A write past a file-size limit failed with EFBIG ("File too large"), which the message
    /// blamed on permissions or free space: it names the limit and where to raise it.
    #[test]
    fn a_file_past_the_size_limit_is_said_as_such() {
        let source = std::io::Error::from_raw_os_error(27);
        let e = super::Error::Io { action: "write the archive blob", path: "/data/archive/x.tmp".into(), source };
        assert_eq!(
            e.to_string(),
            "could not write the archive blob /data/archive/x.tmp: File too large (os error 27); the process writing \
             it runs under a file-size limit (`ulimit -f`) smaller than this file: raise it where lean-ctxd is \
             started"
        );
    }

    /// SQLITE_FULL reads "database or disk is full", which the generic message made sound like a
    /// damaged database; it says the disk is full and what to do.
    #[test]
    fn a_full_disk_is_said_as_such() {
        let (_dir, mut store) = temp_store();
        // A database that may not grow is one on a full disk, as SQLite reports it.
        let pages: i64 = store.conn.query_row("PRAGMA page_count", [], |row| row.get(0)).unwrap();
        store.conn.pragma_update(None, "max_page_count", pages).unwrap();
        let value = "v".repeat(4000);
        let error = (0..1000)
            .find_map(|i| {
                let key = format!("k{i}");
                let fact = NewFact {
                    project: "/p",
                    category: None,
                    key: &key,
                    value: &value,
                    source_session: None,
                    confidence: None,
                };
                store.remember(&fact).err()
            })
            .expect("the store filled up");
        let said = error.to_string();
        assert!(
            said.starts_with("state.db could not be written: the disk that holds it is full (")
                && said.ends_with("free space there and retry (what state.db held before is intact)"),
            "{said}"
        );
    }

    #[test]
    fn utc_formats_calendar_dates() {
        assert_eq!(utc(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc(-1), "1969-12-31 23:59:59 UTC");
        // 2024-02-29 is a leap day; 2000-03-01 follows a leap day in a century year.
        assert_eq!(utc(1_709_210_096_789), "2024-02-29 12:34:56 UTC");
        assert_eq!(utc(951_868_800_000), "2000-03-01 00:00:00 UTC");
        assert_eq!(utc(4_102_444_799_000), "2099-12-31 23:59:59 UTC");
    }
}
