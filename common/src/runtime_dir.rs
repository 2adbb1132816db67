//! The runtime directory holds the socket and the locks, so it must be
//! private: a directory another user controls could swap the socket for one
//! of theirs and read every request.

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::Path;

/// Creates `dir` with mode 0700 if missing, then verifies that it is a real
/// directory owned by this user with no group or other permission bits.
/// Each refusal says how to fix it.
pub fn ensure_private_dir(dir: &Path) -> Result<(), String> {
    if let Some(parent) = dir.parent() {
        fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("cannot create the runtime directory {}: {e}", dir.display())),
    }
    check_private_dir(dir)
}

/// The verification half of [`ensure_private_dir`], for `lctx doctor`.
pub fn check_private_dir(dir: &Path) -> Result<(), String> {
    let shown = dir.display();
    let meta = fs::symlink_metadata(dir).map_err(|e| format!("cannot inspect {shown}: {e}"))?;
    if meta.file_type().is_symlink() {
        return Err(format!(
            "the runtime directory {shown} is a symlink, which another user could redirect; \
             remove it (`rm {shown}`) and lean-ctxd will create a private directory"
        ));
    }
    if !meta.is_dir() {
        return Err(format!(
            "the runtime directory {shown} is not a directory; move it away (`mv {shown} {shown}.old`)"
        ));
    }
    // SAFETY: geteuid has no preconditions and cannot fail.
    let uid = unsafe { libc::geteuid() };
    if meta.uid() != uid {
        return Err(format!(
            "the runtime directory {shown} is owned by uid {}, not by you (uid {uid}); \
             remove it (`sudo rm -r {shown}`) or set LEAN_CTX_HOME to a directory of yours",
            meta.uid()
        ));
    }
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(format!(
            "the runtime directory {shown} has mode {mode:03o}, so other users can reach the socket; \
             run `chmod 700 {shown}`"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_a_private_directory() {
        let base = tempfile::tempdir().unwrap();
        let dir = base.path().join("a/run");
        ensure_private_dir(&dir).unwrap();
        assert_eq!(fs::metadata(&dir).unwrap().permissions().mode() & 0o777, 0o700);
        ensure_private_dir(&dir).unwrap();
    }

    #[test]
    fn refuses_open_permissions_with_the_fix() {
        let base = tempfile::tempdir().unwrap();
        let dir = base.path().join("run");
        fs::create_dir(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        let e = ensure_private_dir(&dir).unwrap_err();
        assert!(e.contains("mode 755") && e.contains("chmod 700"), "{e}");
    }

    #[test]
    fn refuses_a_symlink_with_the_fix() {
        let base = tempfile::tempdir().unwrap();
        let real = base.path().join("real");
        fs::DirBuilder::new().mode(0o700).create(&real).unwrap();
        let link = base.path().join("run");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let e = ensure_private_dir(&link).unwrap_err();
        assert!(e.contains("symlink") && e.contains("rm "), "{e}");
    }
}
