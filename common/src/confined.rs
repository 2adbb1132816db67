//! Opening a file so that what was checked is what is read.
//!
//! Checking a path (canonicalize it, see it lies inside the project) and then
//! opening it again leaves a window: a file swapped for a symlink to a file
//! outside the project in between is read although the check passed. Here the
//! check is made on the opened descriptor instead:
//!
//! 1. the (already canonical) path is opened with `O_NOFOLLOW`, so a last
//!    component that has become a symlink fails (`ELOOP`) instead of being
//!    followed: the caller resolves once more, or refuses;
//! 2. the descriptor's real path is read back from the kernel
//!    (`/proc/self/fd/N` on Linux) and must still be one `permitted` admits.
//!    A directory of the path swapped for a symlink is followed by the open,
//!    but shows in that real path, so it is refused here: no per-component
//!    `openat` walk is needed for reads, whose only risk is the bytes read.
//!
//! Off Linux, or without `/proc`, the real path is the canonical path of the
//! name when it still names the opened inode (`fstat` against `stat`): a
//! narrower check, as a swap can land between those two calls.
//!
//! Every open is `O_NONBLOCK` (a FIFO swapped in cannot hang the reader; the
//! callers check the file type on the descriptor) and close-on-exec (std).

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Why [`open_confined`] did not return a file.
#[derive(Debug)]
pub enum OpenError {
    /// The path changed while it was opened: its last component is a
    /// symlink now, or the name no longer leads to the opened file.
    /// Resolving it again tells where it leads.
    Raced,
    /// The opened file's real path is one `permitted` refuses.
    Outside(PathBuf),
    /// The open itself failed (not found, permissions, …).
    Io(io::Error),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Raced => f.write_str("the path changed while it was opened"),
            OpenError::Outside(real) => write!(f, "it leads to {}, which may not be read", real.display()),
            OpenError::Io(e) => e.fmt(f),
        }
    }
}

/// Opens `path` for reading (it should be canonical: a symlink anywhere in
/// it is treated as a swap) and returns the file with its real path, which
/// `permitted` has admitted. See the module documentation.
pub fn open_confined(path: &Path, permitted: impl Fn(&Path) -> bool) -> Result<(File, PathBuf), OpenError> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| if e.raw_os_error() == Some(libc::ELOOP) { OpenError::Raced } else { OpenError::Io(e) })?;
    let real = real_path(&file, path)?;
    if !permitted(&real) {
        return Err(OpenError::Outside(real));
    }
    Ok((file, real))
}

/// Where the opened `file` really is.
fn real_path(file: &File, opened_as: &Path) -> Result<PathBuf, OpenError> {
    #[cfg(target_os = "linux")]
    if let Some(real) = proc_fd_path(file) {
        return Ok(real);
    }
    // Fallback: the name's canonical path, when it still names this inode.
    let meta = file.metadata().map_err(OpenError::Io)?;
    let canonical = opened_as.canonicalize().map_err(|_| OpenError::Raced)?;
    match std::fs::metadata(&canonical) {
        Ok(now) if (now.dev(), now.ino()) == (meta.dev(), meta.ino()) => Ok(canonical),
        _ => Err(OpenError::Raced),
    }
}

/// The kernel's name for the descriptor. A file unlinked since it was opened
/// is named with a " (deleted)" suffix, dropped here so rules on the name
/// still apply.
#[cfg(target_os = "linux")]
fn proc_fd_path(file: &File) -> Option<PathBuf> {
    use std::ffi::OsString;
    use std::os::fd::AsRawFd;
    use std::os::unix::ffi::{OsStrExt, OsStringExt};

    let link = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())).ok()?;
    if !link.is_absolute() {
        // "anon_inode:…" and the like: not a path of the filesystem.
        return None;
    }
    const DELETED: &[u8] = b" (deleted)";
    let bytes = link.as_os_str().as_bytes();
    if bytes.ends_with(DELETED) && file.metadata().is_ok_and(|m| m.nlink() == 0) {
        return Some(PathBuf::from(OsString::from_vec(bytes[..bytes.len() - DELETED.len()].to_vec())));
    }
    Some(link)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::os::unix::fs::symlink;

    fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let d = tempfile::tempdir().unwrap();
        let base = d.path().canonicalize().unwrap();
        let (root, outside) = (base.join("root"), base.join("outside"));
        std::fs::create_dir_all(root.join("dir")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(root.join("dir/a.txt"), "inside").unwrap();
        std::fs::write(outside.join("a.txt"), "OUTSIDE").unwrap();
        (d, root, outside)
    }

    fn read(mut f: File) -> String {
        let mut s = String::new();
        f.read_to_string(&mut s).unwrap();
        s
    }

    #[test]
    fn a_file_inside_opens_with_its_real_path() {
        let (_d, root, _) = setup();
        let (file, real) = open_confined(&root.join("dir/a.txt"), |p| p.starts_with(&root)).unwrap();
        assert_eq!(real, root.join("dir/a.txt"));
        assert_eq!(read(file), "inside");
    }

    #[test]
    fn a_last_component_swapped_for_a_symlink_is_not_followed() {
        let (_d, root, outside) = setup();
        // Checked as a regular file, then swapped before the open.
        let path = root.join("dir/a.txt");
        std::fs::remove_file(&path).unwrap();
        symlink(outside.join("a.txt"), &path).unwrap();
        assert!(matches!(open_confined(&path, |p| p.starts_with(&root)), Err(OpenError::Raced)));
    }

    #[test]
    fn a_directory_swapped_for_a_symlink_is_refused_by_the_real_path() {
        let (_d, root, outside) = setup();
        let path = root.join("dir/a.txt");
        std::fs::rename(root.join("dir"), root.join("moved")).unwrap();
        symlink(&outside, root.join("dir")).unwrap();
        match open_confined(&path, |p| p.starts_with(&root)) {
            Err(OpenError::Outside(real)) => assert_eq!(real, outside.join("a.txt")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_file_deleted_after_the_open_keeps_its_name() {
        let (_d, root, _) = setup();
        let path = root.join("dir/a.txt");
        let (file, _) = open_confined(&path, |_| true).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(real_path(&file, &path).ok(), Some(path).filter(|_| cfg!(target_os = "linux")));
    }

    #[test]
    fn open_failures_are_io_errors() {
        let (_d, root, _) = setup();
        let e = open_confined(&root.join("missing"), |_| true).unwrap_err();
        assert!(matches!(e, OpenError::Io(ref e) if e.kind() == io::ErrorKind::NotFound), "{e:?}");
    }
}
