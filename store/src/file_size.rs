//! Writes of state.db refused by the file-size limit (EFBIG: `ulimit -f`, or the largest file the
//! file system holds). SQLite reports them as a bare "disk I/O error" and keeps the cause apart,
//! on the connection; the user has to know which limit was hit and where to raise it.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, ErrorCode};

use crate::Store;
use crate::error::Error;

impl Store {
    /// `error` with its cause when SQLite kept one the user can act on: a write refused by the
    /// file-size limit becomes [`Error::FileSizeLimit`]. Call it right after the call that failed,
    /// before another I/O error on this connection replaces the cause.
    pub fn explained(&self, error: Error) -> Error {
        explained(&self.conn, error)
    }
}

/// [`Store::explained`] for a connection not yet a store (while opening and migrating it).
pub(crate) fn explained(conn: &Connection, error: Error) -> Error {
    let Error::Sqlite(source) = error else { return error };
    if source.sqlite_error_code() != Some(ErrorCode::SystemIoFailure) {
        return Error::Sqlite(source);
    }
    // SAFETY: the handle is this connection's, open for as long as `conn`; reading the errno
    // SQLite kept of its last I/O error neither changes nor frees anything.
    let errno = unsafe { rusqlite::ffi::sqlite3_system_errno(conn.handle()) };
    if errno != libc::EFBIG {
        return Error::Sqlite(source);
    }
    let path = PathBuf::from(conn.path().unwrap_or_default());
    Error::FileSizeLimit { bytes: size(&path), wal_bytes: size(&wal(&path)), limit: limit(), path, source }
}

/// The write-ahead log beside the database at `path`, where a commit is written first.
fn wal(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |meta| meta.len())
}

/// This process's file-size limit in bytes, `None` when it has none (the file system's own
/// largest file was hit then).
fn limit() -> Option<u64> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes the struct it is given and nothing else.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_FSIZE, &raw mut limit) } == 0;
    (read && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}
