//! A corrupt `state.db` moved aside, and the copies moved aside that are still there.
//!
//! A copy stays beside the database as `state.db.corrupt-<unix-seconds>[-<n>]` (with the side
//! files it had) until the user removes it; while one is there, the daemon's status, `lctx doctor`
//! and `lctx ledger verify` say that the state was reset and where the old one is.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::{Error, Result, utc};

/// Files SQLite keeps beside the database; they belong to it and move with it.
const SIDE_FILES: &[&str] = &["-wal", "-shm", "-journal"];

/// What a moved-aside database's name adds to the database's.
const MARK: &str = ".corrupt-";

/// A corrupt database moved aside and still beside the database it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quarantined {
    pub path: PathBuf,
    /// When it was moved aside, in seconds since the Unix epoch (from its name).
    pub moved_secs: u64,
}

impl Quarantined {
    /// When it was moved aside, as `YYYY-MM-DD HH:MM:SS UTC`.
    pub fn moved_at(&self) -> String {
        utc(i64::try_from(self.moved_secs).unwrap_or(i64::MAX / 1000).saturating_mul(1000))
    }
}

/// The databases moved aside from `path` that are still there, oldest first (their side files
/// are not listed: they go with their database). A directory that cannot be read lists none.
pub fn quarantined(path: &Path) -> Vec<Quarantined> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else { return Vec::new() };
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let prefix = format!("{}{MARK}", name.to_string_lossy());
    let Ok(entries) = fs::read_dir(dir) else { return Vec::new() };
    let mut found: Vec<(u64, u64, PathBuf)> = entries
        .flatten()
        .filter_map(|entry| {
            let file_name = entry.file_name();
            let suffix = file_name.to_str()?.strip_prefix(&prefix)?;
            // `<secs>` or `<secs>-<n>`; `<secs>-wal` and the like are side files.
            let (secs, n) = suffix.split_once('-').unwrap_or((suffix, "0"));
            let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
            if !digits(secs) || !digits(n) {
                return None;
            }
            Some((secs.parse().ok()?, n.parse().ok()?, entry.path()))
        })
        .collect();
    found.sort();
    found.into_iter().map(|(moved_secs, _, path)| Quarantined { path, moved_secs }).collect()
}

/// Moves the database and its side files to `<name>.corrupt-<unix-seconds>[-<n>]`; returns the new
/// name of the database file.
pub(crate) fn quarantine(path: &Path) -> Result<PathBuf> {
    let seconds = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
    let base = (0..)
        .map(|n| if n == 0 { format!("{MARK}{seconds}") } else { format!("{MARK}{seconds}-{n}") })
        .map(|suffix| side_path(path, &suffix))
        .find(|candidate| !candidate.exists())
        .expect("an unbounded range yields a free name");
    rename(path, &base)?;
    for side in SIDE_FILES {
        let from = side_path(path, side);
        if from.exists() {
            rename(&from, &side_path(&base, side))?;
        }
    }
    Ok(base)
}

fn rename(from: &Path, to: &Path) -> Result<()> {
    fs::rename(from, to).map_err(|source| Error::Io { action: "move aside", path: from.to_path_buf(), source })
}

/// `path` with `suffix` appended to its file name (`state.db` + `-wal` = `state.db-wal`).
pub(crate) fn side_path(path: &Path, suffix: &str) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(suffix);
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_the_moved_databases_oldest_first_without_their_side_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        for name in [
            "state.db",
            "state.db-wal",
            "state.db.corrupt-200",
            "state.db.corrupt-200-wal",
            "state.db.corrupt-100-1",
            "state.db.corrupt-100-1-shm",
            "state.db.corrupt-100",
            "state.db.corrupt-x",
            "other.db.corrupt-50",
        ] {
            fs::write(dir.path().join(name), b"").unwrap();
        }
        let found: Vec<String> = quarantined(&path)
            .iter()
            .map(|copy| copy.path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(found, ["state.db.corrupt-100", "state.db.corrupt-100-1", "state.db.corrupt-200"]);
        assert_eq!(quarantined(&path)[2].moved_at(), "1970-01-01 00:03:20 UTC");
        assert!(quarantined(&dir.path().join("missing/state.db")).is_empty());
    }
}
