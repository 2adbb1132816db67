//! One lock per canonical path, so edits of one file are serialized while
//! edits of different files (and all reads) proceed in parallel.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Weak};

use crate::locks::{self, Mutex};

/// Above this many entries the table sweeps out locks nobody holds.
const SWEEP_AT: usize = 1024;

pub struct PathLocks {
    table: Mutex<HashMap<PathBuf, Weak<Mutex<()>>>>,
}

impl Default for PathLocks {
    fn default() -> Self {
        PathLocks { table: Mutex::new(locks::ids::PATHS_TABLE, HashMap::new()) }
    }
}

impl PathLocks {
    /// Runs `f` while holding the lock of `path`.
    pub fn with<R>(&self, path: &Path, f: impl FnOnce() -> R) -> R {
        let lock = self.lock_for(path);
        let _held = lock.lock();
        f()
    }

    fn lock_for(&self, path: &Path) -> Arc<Mutex<()>> {
        let mut table = self.table.lock();
        if let Some(lock) = table.get(path).and_then(Weak::upgrade) {
            return lock;
        }
        if table.len() >= SWEEP_AT {
            table.retain(|_, w| w.strong_count() > 0);
        }
        let lock = Arc::new(Mutex::new(locks::ids::PATHS_FILE, ()));
        table.insert(path.to_path_buf(), Arc::downgrade(&lock));
        lock
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn serializes_work_on_one_path() {
        let locks = Arc::new(PathLocks::default());
        let inside = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (locks, inside) = (locks.clone(), inside.clone());
                std::thread::spawn(move || {
                    for _ in 0..50 {
                        locks.with(Path::new("/same"), || {
                            assert_eq!(inside.fetch_add(1, Ordering::SeqCst), 0, "two holders at once");
                            std::thread::yield_now();
                            inside.fetch_sub(1, Ordering::SeqCst);
                        });
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
    }

    #[test]
    fn unused_locks_are_swept() {
        let locks = PathLocks::default();
        for i in 0..(SWEEP_AT + 5) {
            locks.with(Path::new(&format!("/f{i}")), || {});
        }
        assert!(locks.table.lock().len() <= SWEEP_AT);
    }
}
