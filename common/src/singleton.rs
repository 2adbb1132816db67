//! `lean-ctxd.lock`: the daemon holds an exclusive OS lock on it for its
//! whole life, so at most one daemon serves a runtime directory. The file
//! also tells clients who holds it (pid, version, executable id).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use crate::build_info;

/// Held for the daemon's life; the OS releases it if the process dies.
pub struct DaemonLock {
    _file: File,
}

/// Who holds (or last held) the lock.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LockInfo {
    pub pid: Option<u32>,
    pub version: String,
    pub executable_id: String,
}

fn open(path: &Path) -> std::io::Result<File> {
    OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path)
}

/// Takes the lock without waiting, or says which daemon holds it.
pub fn acquire(path: &Path) -> Result<DaemonLock, String> {
    let mut file = open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let holder = read_info(path).pid.map_or("another process".to_string(), |p| format!("pid {p}"));
            return Err(format!(
                "another lean-ctxd ({holder}) already serves this runtime directory; \
                 stop it with `lctx daemon stop` first"
            ));
        }
        Err(TryLockError::Error(e)) => return Err(format!("cannot lock {}: {e}", path.display())),
    }
    let info = format!(
        "pid={}\nversion={}\nexecutable_id={}\n",
        std::process::id(),
        build_info::VERSION,
        build_info::own_executable_id()
    );
    let written = file
        .set_len(0)
        .and_then(|()| file.seek(SeekFrom::Start(0)))
        .and_then(|_| file.write_all(info.as_bytes()))
        .and_then(|()| file.sync_data());
    written.map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(DaemonLock { _file: file })
}

/// Reads the holder's details; empty when the file is missing or garbled.
pub fn read_info(path: &Path) -> LockInfo {
    File::open(path).ok().map(|mut file| info_of(&mut file)).unwrap_or_default()
}

/// The details of the process holding the lock right now, `None` when no
/// live process holds it: one open for both questions.
pub fn holder(path: &Path) -> Option<LockInfo> {
    let mut file = File::open(path).ok()?;
    held(&file).then(|| info_of(&mut file))
}

fn info_of(file: &mut File) -> LockInfo {
    let mut text = String::new();
    if file.read_to_string(&mut text).is_err() {
        return LockInfo::default();
    }
    let mut info = LockInfo::default();
    for line in text.lines() {
        match line.split_once('=') {
            Some(("pid", v)) => info.pid = v.parse().ok(),
            Some(("version", v)) => info.version = v.to_string(),
            Some(("executable_id", v)) => info.executable_id = v.to_string(),
            _ => {}
        }
    }
    info
}

/// Whether a live process holds the lock right now.
pub fn is_held(path: &Path) -> bool {
    File::open(path).is_ok_and(|file| held(&file))
}

fn held(file: &File) -> bool {
    match file.try_lock_shared() {
        Ok(()) => {
            let _ = file.unlock();
            false
        }
        Err(TryLockError::WouldBlock) => true,
        Err(TryLockError::Error(_)) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_acquire_names_the_holder_and_release_frees_it() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("lean-ctxd.lock");
        let lock = acquire(&path).unwrap();
        assert!(is_held(&path));
        let e = acquire(&path).err().unwrap();
        assert!(e.contains(&format!("pid {}", std::process::id())), "{e}");
        assert_eq!(read_info(&path).pid, Some(std::process::id()));
        assert_eq!(holder(&path).and_then(|h| h.pid), Some(std::process::id()));
        drop(lock);
        assert!(!is_held(&path));
        assert!(holder(&path).is_none(), "a released lock has no holder");
        acquire(&path).unwrap();
    }
}
