//! The runtime directory holds the socket and the locks, so it must be
//! private: a directory another user controls could swap the socket for one
//! of theirs and read every request.

use std::fmt;
use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::Path;

/// Creates `dir` with mode 0700 if missing, then verifies that it is a real
/// directory owned by this user with no group or other permission bits.
/// Each refusal says how to fix it.
pub fn ensure_private_dir(dir: &Path) -> Result<(), String> {
    // Parents that are missing are made private too (a missing `$XDG_RUNTIME_DIR` was made 0755:
    // the spec has it 0700); existing ones are left as they are.
    if let Some(parent) = dir.parent() {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("cannot create the runtime directory {}: {e}", dir.display())),
    }
    check_private_dir(dir)
}

/// The verification half of [`ensure_private_dir`]; each refusal says how to fix it.
pub fn check_private_dir(dir: &Path) -> Result<(), String> {
    inspect_private_dir(dir).map_err(|unusable| unusable.to_string())
}

/// Why a runtime directory cannot be used, and what makes it usable: apart
/// for `lctx doctor`, which shows the fix on a line of its own.
#[derive(Debug)]
pub struct Unusable {
    pub problem: String,
    pub fix: String,
}

impl fmt::Display for Unusable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}; {}", self.problem, self.fix)
    }
}

/// [`check_private_dir`] with the problem and its fix apart.
pub fn inspect_private_dir(dir: &Path) -> Result<(), Unusable> {
    let shown = dir.display();
    let unusable = |problem: String, fix: String| Err(Unusable { problem, fix });
    let meta = match fs::symlink_metadata(dir) {
        Ok(meta) => meta,
        Err(e) => {
            return unusable(
                format!("cannot inspect {shown}: {e}"),
                "make its parent directory reachable, or set LEAN_CTX_HOME to a directory of yours".into(),
            );
        }
    };
    if meta.file_type().is_symlink() {
        return unusable(
            format!("the runtime directory {shown} is a symlink, which another user could redirect"),
            format!("remove it (`rm {shown}`) and lean-ctxd will create a private directory"),
        );
    }
    if !meta.is_dir() {
        return unusable(
            format!("the runtime directory {shown} is not a directory"),
            format!("move it away (`mv {shown} {shown}.old`)"),
        );
    }
    // SAFETY: geteuid has no preconditions and cannot fail.
    let uid = unsafe { libc::geteuid() };
    if meta.uid() != uid {
        return unusable(
            format!("the runtime directory {shown} is owned by uid {}, not by you (uid {uid})", meta.uid()),
            format!("remove it (`sudo rm -r {shown}`) or set LEAN_CTX_HOME to a directory of yours"),
        );
    }
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return unusable(
            format!("the runtime directory {shown} has mode {mode:03o}, so other users can reach the socket"),
            format!("run `chmod 700 {shown}`"),
        );
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
        // QA: a missing parent (`$XDG_RUNTIME_DIR` itself) was made 0755.
        let parent = fs::metadata(base.path().join("a")).unwrap().permissions().mode() & 0o777;
        assert_eq!(parent, 0o700);
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
