//! Stored data stays private to its user whatever the umask: state.db,
//! archived command output (secrets included), logs and indexes.
//!
//! Three parts: [`private_umask`] makes everything a lean-ctxd process
//! creates from then on private (also the files SQLite, tantivy and the log
//! appender create, which no per-call mode can reach); [`create_private_dir_all`]
//! and [`private_file`] create what the clients write under these
//! directories; [`repair_permissions`] takes group and other bits away from
//! what earlier versions, or a client under a lax umask, left behind.

use std::fmt;
use std::fs::{self, DirBuilder, OpenOptions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::paths::Dirs;

/// Bits a private file or directory never has: any permission of group or others.
const SHARED_BITS: u32 = 0o077;

/// The umask the process had before [`private_umask`] replaced it.
///
/// The one piece of process-wide state in lean-ctxd, because the umask is
/// process-wide itself: commands run for the user must get theirs back
/// (shell/exec.rs), and it exists nowhere else once replaced.
static USER_UMASK: OnceLock<libc::mode_t> = OnceLock::new();

/// Sets the process umask to 077, so that every file and directory this
/// process creates from now on is private, and remembers the previous one
/// for [`user_umask`]. Call it first thing in `main`, before any thread
/// starts (the umask is shared by all threads). A second call keeps the
/// umask remembered by the first.
pub fn private_umask() {
    // SAFETY: umask has no preconditions and cannot fail.
    let previous = unsafe { libc::umask(SHARED_BITS as libc::mode_t) };
    let _ = USER_UMASK.set(previous);
}

/// The user's umask, which [`private_umask`] replaced; `None` when this
/// process never called it.
pub fn user_umask() -> Option<libc::mode_t> {
    USER_UMASK.get().copied()
}

/// `fs::create_dir_all`, except that each directory it creates is 0700.
pub fn create_private_dir_all(dir: &Path) -> io::Result<()> {
    DirBuilder::new().recursive(true).mode(0o700).create(dir)
}

/// Options that create a file 0600 (an existing file keeps its mode, which
/// [`repair_permissions`] sees to).
pub fn private_file() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.mode(0o600);
    options
}

/// One path [`repair_permissions`] made private, or could not.
#[derive(Debug)]
pub enum Repair {
    /// Its group and other bits were removed.
    Fixed { path: PathBuf, was: u32, now: u32 },
    /// It could not be inspected, listed or changed.
    Failed { path: PathBuf, error: io::Error },
}

impl Repair {
    /// For a failure, what failed and what fixes it, apart (`lctx doctor`
    /// shows the fix on a line of its own).
    pub fn failure(&self) -> Option<(String, String)> {
        match self {
            Repair::Fixed { .. } => None,
            Repair::Failed { path, error } => Some(failure(path, error)),
        }
    }
}

fn failure(path: &Path, error: &io::Error) -> (String, String) {
    let path = path.display();
    (format!("cannot make {path} private ({error})"), format!("run `chmod -R go-rwx {path}` or remove it"))
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Repair::Fixed { path, was, now } => {
                write!(f, "made {} private: mode {was:03o} -> {now:03o}", path.display())
            }
            Repair::Failed { path, error } => {
                let (problem, fix) = failure(path, error);
                write!(f, "{problem}; {fix}")
            }
        }
    }
}

/// Removes group and other permission bits from everything under the
/// config, data, cache and state directories, and from those directories,
/// and returns what it changed or failed to change (nothing when all was
/// private already).
///
/// Symlinks are neither changed nor followed: one could lead anywhere, such
/// as the user's home. A directory is made private before its entries are
/// listed, so no other user can swap an entry while the walk is inside it.
/// Missing directories, and entries that vanish during the walk (a
/// temporary file renamed into place), are skipped. The runtime directory
/// is not walked: it is created private and refused otherwise
/// (`runtime_dir`).
pub fn repair_permissions(dirs: &Dirs) -> Vec<Repair> {
    let mut repairs = Vec::new();
    let mut pending: Vec<PathBuf> = [&dirs.config, &dirs.data, &dirs.cache, &dirs.state].into_iter().cloned().collect();
    while let Some(path) = pending.pop() {
        let meta = match fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
            Err(error) => {
                repairs.push(Repair::Failed { path, error });
                continue;
            }
        };
        if meta.file_type().is_symlink() {
            continue;
        }
        let was = meta.permissions().mode() & 0o7777;
        if was & SHARED_BITS != 0 {
            let now = was & !SHARED_BITS;
            match fs::set_permissions(&path, fs::Permissions::from_mode(now)) {
                Ok(()) => repairs.push(Repair::Fixed { path: path.clone(), was, now }),
                Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
                Err(error) => {
                    repairs.push(Repair::Failed { path, error });
                    continue;
                }
            }
        }
        if meta.is_dir() {
            match fs::read_dir(&path) {
                Ok(entries) => pending.extend(entries.filter_map(|entry| entry.ok().map(|entry| entry.path()))),
                Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                Err(error) => repairs.push(Repair::Failed { path, error }),
            }
        }
    }
    repairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::symlink_metadata(path).unwrap().permissions().mode() & 0o7777
    }

    fn set_mode(path: &Path, mode: u32) {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn repair_makes_every_file_and_directory_private_and_says_which() {
        let home = tempfile::tempdir().unwrap();
        let dirs = Dirs::under(home.path());
        let nested = dirs.data.join("archive/ab");
        fs::create_dir_all(&nested).unwrap();
        fs::create_dir_all(&dirs.state).unwrap();
        let blob = nested.join("ab01.zst");
        let log = dirs.state.join("daemon.log");
        fs::write(&blob, b"secret").unwrap();
        fs::write(&log, b"line").unwrap();
        let archive = dirs.data.join("archive");
        for (path, bits) in [
            (&dirs.data, 0o755),
            (&archive, 0o750),
            (&nested, 0o775),
            (&dirs.state, 0o700),
            (&blob, 0o644),
            (&log, 0o600),
        ] {
            set_mode(path, bits);
        }
        // A symlink to a shared file outside is left alone, and so is its target.
        let outside = home.path().join("outside.txt");
        fs::write(&outside, b"public").unwrap();
        set_mode(&outside, 0o644);
        std::os::unix::fs::symlink(&outside, dirs.state.join("link")).unwrap();

        let mut fixed: Vec<(PathBuf, u32, u32)> = repair_permissions(&dirs)
            .into_iter()
            .map(|repair| match repair {
                Repair::Fixed { path, was, now } => (path, was, now),
                Repair::Failed { path, error } => panic!("{}: {error}", path.display()),
            })
            .collect();
        fixed.sort();
        let mut expected = vec![
            (archive.clone(), 0o750, 0o700),
            (dirs.data.clone(), 0o755, 0o700),
            (nested.clone(), 0o775, 0o700),
            (blob.clone(), 0o644, 0o600),
        ];
        expected.sort();
        assert_eq!(fixed, expected);
        assert_eq!((mode(&blob), mode(&log), mode(&outside)), (0o600, 0o600, 0o644));
        assert!(repair_permissions(&dirs).is_empty(), "a second pass finds nothing");
        let shown = Repair::Fixed { path: blob.clone(), was: 0o644, now: 0o600 }.to_string();
        assert_eq!(shown, format!("made {} private: mode 644 -> 600", blob.display()));
    }

    #[test]
    fn private_creation_makes_0700_directories_and_0600_files() {
        let home = tempfile::tempdir().unwrap();
        let dir = home.path().join("a/b");
        create_private_dir_all(&dir).unwrap();
        let file = dir.join("f");
        private_file().write(true).create_new(true).open(&file).unwrap();
        assert_eq!((mode(&home.path().join("a")), mode(&dir), mode(&file)), (0o700, 0o700, 0o600));
    }
}
