//! What each session has really received: for every (session, canonical
//! path), the hash of the last *complete* content delivered to it (full, a
//! set of line ranges covering every line, or a diff applied to a complete
//! earlier version).
//!
//! This is the only ground for an "[unchanged]" stub: a stub goes to a
//! session only when its record equals the hash the file has right now.
//! Partial and lossy views never create a record.

use std::path::{Path, PathBuf};

use crate::engine::lru::Lru;
use crate::locks::{self, Mutex};

/// Records kept; the oldest are forgotten first (which only costs a full
/// re-send, never a wrong stub).
const MAX_RECORDS: usize = 100_000;

pub struct Deliveries {
    records: Mutex<Lru<(String, PathBuf), blake3::Hash>>,
}

impl Default for Deliveries {
    fn default() -> Self {
        Deliveries { records: Mutex::new(locks::ids::READ_DELIVERIES, Lru::new(MAX_RECORDS)) }
    }
}

impl Deliveries {
    /// The hash of the last complete content `session` received of `path`.
    /// Requests without a session have no records.
    pub fn complete(&self, session: &str, path: &Path) -> Option<blake3::Hash> {
        if session.is_empty() {
            return None;
        }
        self.records.lock().get(&(session.to_string(), path.to_path_buf()))
    }

    pub fn record_complete(&self, session: &str, path: &Path, hash: blake3::Hash) {
        if session.is_empty() {
            return;
        }
        self.records.lock().insert((session.to_string(), path.to_path_buf()), hash, 1);
    }

    /// Records held, for Status.
    pub fn count(&self) -> usize {
        self.records.lock().len()
    }
}
