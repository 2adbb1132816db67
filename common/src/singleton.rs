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
            let holder = live_holder_pid(path).map_or("another process".to_string(), |p| format!("pid {p}"));
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

/// The pid the lock's holder wrote. A daemon that has just won a start race
/// writes it right after taking the lock; until then the file is empty or
/// names the previous holder, which is dead. So this waits a little for a
/// live pid, and gives `None` rather than a dead one.
fn live_holder_pid(path: &Path) -> Option<u32> {
    for _ in 0..50 {
        if let Some(pid) = read_info(path).pid.filter(|&pid| is_alive(pid)) {
            return Some(pid);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    None
}

/// Whether process `pid` exists (another user's too).
pub fn is_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
    // SAFETY: signal 0 sends nothing; it only asks whether the process exists.
    // A process of another user's exists too: the call is refused (EPERM).
    unsafe { libc::kill(pid, 0) == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM) }
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

    #[test]
    fn a_loser_of_the_start_race_waits_for_the_winners_pid() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("lean-ctxd.lock");
        // The winner has the lock but has not yet replaced the last
        // holder's details (a pid that no longer runs).
        std::fs::write(&path, "pid=2147483646\n").unwrap();
        let winner = open(&path).unwrap();
        winner.try_lock().unwrap();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(30));
            std::fs::write(d.path().join("lean-ctxd.lock"), format!("pid={}\n", std::process::id())).unwrap();
            d
        });
        let e = acquire(&path).err().unwrap();
        assert!(e.contains(&format!("pid {}", std::process::id())), "{e}");
        drop(writer.join().unwrap());
    }
}
