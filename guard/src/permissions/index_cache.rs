//! Git indexes parsed once per version, kept in the process: every git
//! command checked that prints tracked files (`git diff`, `git grep`…)
//! lists its repository's index, and reading and parsing one of 50,000
//! entries costs tens of milliseconds each time. An index is known by its
//! path, stamp (inode, size, modification time) and status change time:
//! git writes a new one through a lock file renamed over it, so each of
//! its writes changes the inode, and a write in place that keeps the size
//! and sets the modification time back (`dd conv=notrunc`, `touch -d`)
//! still changes the status change time, which nothing sets back.

use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};

use std::os::unix::fs::MetadataExt as _;

use lean_ctx_common::stamp::Stamp;
use lean_ctx_locks::{Mutex, ids};

/// Indexes kept at most; past it the oldest is dropped.
const MAX_INDEXES: usize = 4;

/// What an index lists, as the parser made it: `None` for an index it
/// does not read (see [`super::git_index`]).
pub(crate) type Names = Arc<Option<Vec<String>>>;

/// An index's version: its stamp and status change time in nanoseconds.
type Version = (Stamp, i64);

static INDEXES: LazyLock<Mutex<Vec<(PathBuf, Version, Names)>>> =
    LazyLock::new(|| Mutex::new(ids::GUARD_GIT_INDEXES, Vec::new()));

/// The names the index at `path` lists, `parse` making them from its bytes
/// unless this version of it was parsed before; `None` when there is no
/// index to read. The lock is not held while the file is read or parsed.
pub(crate) fn names(path: &Path, parse: impl FnOnce(&[u8]) -> Option<Vec<String>>) -> Option<Names> {
    // One look at the file for both parts of its version.
    let meta = std::fs::metadata(path).ok()?;
    let changed = meta.ctime().saturating_mul(1_000_000_000).saturating_add(meta.ctime_nsec());
    let version = (Stamp::of_metadata(&meta), changed);
    let cached =
        INDEXES.lock().iter().find(|(at, seen, _)| at == path && *seen == version).map(|(.., names)| names.clone());
    if let Some(names) = cached {
        return Some(names);
    }
    let bytes = std::fs::read(path).ok()?;
    let names = Arc::new(parse(&bytes));
    let mut indexes = INDEXES.lock();
    indexes.retain(|(at, ..)| at != path);
    if indexes.len() >= MAX_INDEXES {
        indexes.remove(0);
    }
    indexes.push((path.to_path_buf(), version, names.clone()));
    Some(names)
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::fs;
    use std::io::Write as _;

    use super::*;

    #[test]
    fn an_index_is_parsed_again_only_once_it_changed() {
        let dir = tempfile::tempdir().unwrap();
        let index = dir.path().join("index");
        let parses = Cell::new(0);
        let parse = |bytes: &[u8]| {
            parses.set(parses.get() + 1);
            Some(vec![String::from_utf8_lossy(bytes).into_owned()])
        };
        assert!(names(&index, parse).is_none(), "no index");
        std::fs::write(&index, "a").unwrap();
        assert_eq!(*names(&index, parse).unwrap(), Some(vec!["a".to_string()]));
        assert_eq!(*names(&index, parse).unwrap(), Some(vec!["a".to_string()]));
        assert_eq!(parses.get(), 1, "unchanged, it was not parsed again");
        // As git writes it: a new file renamed over the old one.
        let new = dir.path().join("index.lock");
        std::fs::write(&new, "bc").unwrap();
        std::fs::rename(&new, &index).unwrap();
        assert_eq!(*names(&index, parse).unwrap(), Some(vec!["bc".to_string()]));
        assert_eq!(parses.get(), 2);
        // Written in place to the same size, its modification time set back: the same stamp.
        let modified = fs::metadata(&index).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50));
        let mut file = fs::OpenOptions::new().write(true).open(&index).unwrap();
        file.write_all(b"de").unwrap();
        file.set_modified(modified).unwrap();
        assert_eq!(Stamp::of(&index).size, 2);
        assert_eq!(*names(&index, parse).unwrap(), Some(vec!["de".to_string()]));
        assert_eq!(parses.get(), 3);
    }
}
