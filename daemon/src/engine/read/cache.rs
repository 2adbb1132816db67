//! The content cache shared by every session: file contents and rendered
//! views keyed by the BLAKE3 of the file's bytes, bounded by `cache_bytes`.
//!
//! Keys are content hashes, never paths, so an entry can never be stale:
//! a changed file has a different hash. Old contents stay available (until
//! evicted) as the base of diffs for sessions that received them.

use std::sync::Arc;

use crate::engine::lru::Lru;
use crate::locks::{self, Mutex};

/// What an entry holds for a given content hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    Content,
    Signatures,
    Map,
    Aggressive,
}

pub struct Cache {
    entries: Mutex<Lru<(blake3::Hash, Slot), Arc<str>>>,
}

impl Cache {
    pub fn new(budget_bytes: usize) -> Self {
        Cache { entries: Mutex::new(locks::ids::READ_CACHE, Lru::new(budget_bytes)) }
    }

    pub fn get(&self, hash: blake3::Hash, slot: Slot) -> Option<Arc<str>> {
        self.entries.lock().get(&(hash, slot))
    }

    pub fn put(&self, hash: blake3::Hash, slot: Slot, text: Arc<str>) {
        let weight = text.len();
        self.entries.lock().insert((hash, slot), text, weight);
    }

    /// Applies a changed `cache_bytes` setting.
    pub fn set_budget(&self, budget_bytes: usize) {
        self.entries.lock().set_budget(budget_bytes);
    }

    /// (entries, bytes) for Status.
    pub fn usage(&self) -> (usize, usize) {
        let entries = self.entries.lock();
        (entries.len(), entries.weight())
    }
}
