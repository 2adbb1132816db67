//! Replacing a host's config file without ever leaving half of one.
//!
//! The new text goes to a temporary file in the same directory (so the
//! rename stays on one filesystem and is atomic), carrying the old file's
//! permissions, and is renamed over it: a crash leaves the old file or the
//! new one. The previous contents are kept as `<file>.bak`, written the same
//! way and with the same permissions, because these files can hold API keys
//! and tokens. A symlinked config (dotfile managers) is written through, so
//! the link survives. A file the user made read-only is refused: the rename
//! would replace it regardless of its mode, silently overriding that choice.

use std::fs;
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Mode of a config file lctx creates: private, as the host may later store secrets in it.
const NEW_FILE_MODE: u32 = 0o600;

#[derive(Debug, PartialEq, Eq)]
pub enum Error {
    /// The file no longer holds the text the change was computed from.
    Changed,
    /// A file the change would replace or delete is read-only: which (the
    /// config file, or its backup), and its mode, which has no write bit for its owner.
    ReadOnly(PathBuf, u32),
    Io(String),
}

/// The mode of `file` when it exists without write permission for its owner.
pub fn read_only_mode(file: &Path) -> Option<u32> {
    let mode = fs::metadata(file).ok()?.permissions().mode() & 0o7777;
    (mode & 0o200 == 0).then_some(mode)
}

/// Why a read-only `file` is left alone, and the two ways on; `change` shows what would have been written.
pub fn read_only_message(file: &Path, mode: u32, change: &str) -> String {
    format!(
        "{0} is read-only (mode {mode:03o}), so lctx leaves it alone: make it writable (`chmod u+w {0}`) and run \
         this again, or make this change by hand:\n{change}",
        file.display()
    )
}

/// Replaces `file` with `new` if it still holds `expected` (`None`: it still
/// does not exist). Returns the backup's path when there was an old file.
///
/// The check and the rename are not one atomic step; the window between them
/// is microseconds, against the seconds a host takes to rewrite its file.
pub fn replace(file: &Path, expected: Option<&str>, new: &str) -> Result<Option<PathBuf>, Error> {
    let target = resolve_symlink(file)?;
    let current = match fs::read_to_string(&target) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(&target, "cannot read", e)),
    };
    if current.as_deref() != expected {
        return Err(Error::Changed);
    }
    // The backup is replaced too: one the user made read-only is refused before anything changes.
    let backup = backup_path(file);
    let mut replaced = std::iter::once(&target).chain(current.is_some().then_some(&backup));
    if let Some((file, mode)) = replaced.find_map(|f| Some((f, read_only_mode(f)?))) {
        return Err(Error::ReadOnly(file.clone(), mode));
    }
    let backup = match &current {
        Some(old) => {
            let mode = fs::metadata(&target).map_err(|e| io(&target, "cannot stat", e))?.permissions().mode() & 0o7777;
            write_atomically(&backup, old, mode)?;
            write_atomically(&target, new, mode)?;
            Some(backup)
        }
        None => {
            if let Some(dir) = target.parent() {
                fs::create_dir_all(dir).map_err(|e| io(dir, "cannot create", e))?;
            }
            write_atomically(&target, new, NEW_FILE_MODE)?;
            None
        }
    };
    Ok(backup)
}

/// Deletes `file` if it still holds `expected` (a symlink itself, not its target) and is not
/// read-only (a file the user made read-only is left alone, as [`replace`] leaves it).
pub fn delete(file: &Path, expected: &str) -> Result<(), Error> {
    if let Some(mode) = read_only_mode(file) {
        return Err(Error::ReadOnly(file.to_path_buf(), mode));
    }
    match fs::read_to_string(file) {
        Ok(text) if text == expected => fs::remove_file(file).map_err(|e| io(file, "cannot remove", e)),
        Ok(_) => Err(Error::Changed),
        Err(e) => Err(io(file, "cannot read", e)),
    }
}

pub fn describe(e: Error) -> String {
    match e {
        Error::Changed => "the file changed while lctx was writing it".into(),
        Error::ReadOnly(file, mode) => format!("{} is read-only (mode {mode:03o})", file.display()),
        Error::Io(message) => message,
    }
}

/// The ancestors of `file` that do not exist yet, outermost first: what writing it creates.
pub(crate) fn missing_dirs(file: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> =
        file.ancestors().skip(1).take_while(|d| fs::symlink_metadata(d).is_err()).map(Path::to_path_buf).collect();
    dirs.reverse();
    dirs
}

/// `<file>.bak`, beside the path the user knows (not a symlink's target).
pub fn backup_path(file: &Path) -> PathBuf {
    let mut name = file.file_name().unwrap_or_default().to_os_string();
    name.push(".bak");
    file.with_file_name(name)
}

/// The file a symlink points to (followed to the end), or `file` itself.
pub(crate) fn resolve_symlink(file: &Path) -> Result<PathBuf, Error> {
    match fs::symlink_metadata(file) {
        Ok(meta) if meta.file_type().is_symlink() => {
            fs::canonicalize(file).map_err(|e| io(file, "cannot follow the symlink", e))
        }
        _ => Ok(file.to_path_buf()),
    }
}

pub(crate) fn write_atomically(path: &Path, text: &str, mode: u32) -> Result<(), Error> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let (tmp_path, mut tmp) = (0u32..100)
        .find_map(|attempt| {
            let candidate = dir.join(format!(".{name}.lctx-{}-{attempt}.tmp", std::process::id()));
            match fs::OpenOptions::new().write(true).create_new(true).mode(mode).open(&candidate) {
                Ok(f) => Some(Ok((candidate, f))),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => None,
                Err(e) => Some(Err(io(&candidate, "cannot create", e))),
            }
        })
        .unwrap_or_else(|| Err(Error::Io(format!("cannot create a temporary file in {}", dir.display()))))?;
    // The umask may have narrowed the mode given to open.
    let written = tmp
        .set_permissions(fs::Permissions::from_mode(mode))
        .and_then(|()| tmp.write_all(text.as_bytes()))
        .and_then(|()| tmp.sync_all())
        .and_then(|()| fs::rename(&tmp_path, path));
    written.map_err(|e| {
        let _ = fs::remove_file(&tmp_path);
        io(path, "cannot write", e)
    })
}

fn io(path: &Path, what: &str, e: std::io::Error) -> Error {
    Error::Io(format!("{what} {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn replaces_keeping_permissions_and_writes_a_backup_with_them() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("settings.json");
        fs::write(&file, "old").unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
        let backup = replace(&file, Some("old"), "new").unwrap();
        assert_eq!(backup, Some(dir.path().join("settings.json.bak")));
        assert_eq!(fs::read_to_string(&file).unwrap(), "new");
        assert_eq!(fs::read_to_string(dir.path().join("settings.json.bak")).unwrap(), "old");
        assert_eq!(mode(&file), 0o640);
        assert_eq!(mode(&dir.path().join("settings.json.bak")), 0o640);
        let leftovers: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| e.path().extension() == Some("tmp".as_ref()))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    #[test]
    fn creates_a_private_file_and_its_directories_without_backup() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a/b/mcp.json");
        assert_eq!(replace(&file, None, "{}\n").unwrap(), None);
        assert_eq!(fs::read_to_string(&file).unwrap(), "{}\n");
        assert_eq!(mode(&file), NEW_FILE_MODE);
        assert!(!backup_path(&file).exists());
    }

    #[test]
    fn refuses_when_the_file_changed_since_it_was_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("c.toml");
        fs::write(&file, "theirs").unwrap();
        assert_eq!(replace(&file, Some("mine"), "new"), Err(Error::Changed));
        assert_eq!(replace(&file, None, "new"), Err(Error::Changed));
        assert_eq!(fs::read_to_string(&file).unwrap(), "theirs");
    }

    #[test]
    fn a_read_only_file_is_refused_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("config.toml");
        fs::write(&file, "old").unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o444)).unwrap();
        assert_eq!(replace(&file, Some("old"), "new"), Err(Error::ReadOnly(file.clone(), 0o444)));
        assert_eq!(fs::read_to_string(&file).unwrap(), "old");
        assert_eq!(mode(&file), 0o444);
        assert!(!backup_path(&file).exists());
    }

    #[test]
    fn a_read_only_backup_is_refused_and_nothing_changes() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("mcp.json");
        fs::write(&file, "old").unwrap();
        fs::write(backup_path(&file), "older").unwrap();
        fs::set_permissions(backup_path(&file), fs::Permissions::from_mode(0o444)).unwrap();
        assert_eq!(replace(&file, Some("old"), "new"), Err(Error::ReadOnly(backup_path(&file), 0o444)));
        assert_eq!(fs::read_to_string(&file).unwrap(), "old");
        assert_eq!(fs::read_to_string(backup_path(&file)).unwrap(), "older");
        // A new file has no backup to write: a read-only leftover beside it is no matter.
        fs::remove_file(&file).unwrap();
        assert_eq!(replace(&file, None, "new"), Ok(None));
    }

    #[test]
    fn a_read_only_file_is_not_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("config.toml");
        fs::write(&file, "ours").unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o444)).unwrap();
        assert_eq!(delete(&file, "ours"), Err(Error::ReadOnly(file.clone(), 0o444)));
        assert_eq!(fs::read_to_string(&file).unwrap(), "ours");
    }

    #[test]
    fn writes_through_a_symlink() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("dotfiles-settings.json");
        let link = dir.path().join("settings.json");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        replace(&link, Some("old"), "new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "link kept");
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(fs::read_to_string(dir.path().join("settings.json.bak")).unwrap(), "old");
    }
}
