//! A damaged index is moved aside, not deleted: the copy is evidence for a
//! bug report (which file, which bytes), and renaming is one system call
//! where deleting a large index is many. Only the newest copies are kept so
//! a disk that keeps corrupting indexes does not also fill up with them.
//!
//! Copies live next to the index as `index.corrupt-<unix-secs>`.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Damaged copies kept per project, the one just moved included.
pub(crate) const KEEP_COPIES: usize = 2;
const PREFIX: &str = "index.corrupt-";

/// Renames `dir/index` to `dir/index.corrupt-<now>` and deletes all but the
/// newest [`KEEP_COPIES`] copies. `Ok(None)` when there was no index.
pub(crate) fn move_aside(dir: &Path) -> io::Result<Option<PathBuf>> {
    let index = dir.join("index");
    if fs::symlink_metadata(&index).is_err() {
        return Ok(None);
    }
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let target = dir.join(format!("{PREFIX}{secs}"));
    // A second corruption within the same second: one copy of that second is enough.
    remove_any(&target)?;
    fs::rename(&index, &target)?;
    prune(dir)?;
    Ok(Some(target))
}

/// Deletes the oldest copies beyond [`KEEP_COPIES`].
fn prune(dir: &Path) -> io::Result<()> {
    let mut copies: Vec<(u64, PathBuf)> = fs::read_dir(dir)?
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name();
            let secs = name.to_str()?.strip_prefix(PREFIX)?.parse().ok()?;
            Some((secs, entry.path()))
        })
        .collect();
    copies.sort();
    let excess = copies.len().saturating_sub(KEEP_COPIES);
    for (_, old) in copies.into_iter().take(excess) {
        remove_any(&old)?;
    }
    Ok(())
}

/// Removes a file or a directory tree; absent is fine.
pub(crate) fn remove_any(path: &Path) -> io::Result<()> {
    let result = match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(e) => Err(e),
    };
    match result {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        names
    }

    #[test]
    fn the_index_is_renamed_and_only_the_newest_copies_stay() {
        let dir = tempfile::tempdir().unwrap();
        for old in ["index.corrupt-100", "index.corrupt-200", "index.corrupt-300"] {
            fs::create_dir_all(dir.path().join(old).join("sub")).unwrap();
        }
        fs::create_dir(dir.path().join("index")).unwrap();
        fs::write(dir.path().join("index/meta.json"), "x").unwrap();
        let moved = move_aside(dir.path()).unwrap().unwrap();
        assert_eq!(fs::read_to_string(moved.join("meta.json")).unwrap(), "x");
        let copy = moved.file_name().unwrap().to_str().unwrap().to_string();
        let mut expected = vec!["index.corrupt-300".to_string(), copy];
        expected.sort();
        assert_eq!(names(dir.path()), expected, "the two oldest copies are gone");
    }

    #[test]
    fn an_index_that_is_a_file_is_moved_too_and_no_index_is_nothing_to_do() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(move_aside(dir.path()).unwrap(), None);
        fs::write(dir.path().join("index"), "not a directory").unwrap();
        let moved = move_aside(dir.path()).unwrap().unwrap();
        assert!(moved.is_file());
        assert!(!dir.path().join("index").exists());
    }
}
