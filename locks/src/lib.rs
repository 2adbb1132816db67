//! Ranked locks: the only place in the workspace where a `Mutex` or `RwLock`
//! is constructed. Every crate of lean-ctxd builds its locks from here.
//!
//! Every lock is declared once in [`ids`] with a rank, a name, the file that
//! owns it and what it guards. A thread may only take a lock whose rank is
//! strictly greater than every rank it already holds; in debug and test
//! builds a violation panics and names both locks, so a lock-order inversion
//! shows up the first time the code path runs instead of as a rare deadlock.
//! LOCK_ORDERING.md documents the same table, and a test keeps the two equal.
//!
//! Poisoning is deliberately ignored: a panic in one request must not turn
//! every later request that touches the same state into a panic as well. The
//! state each lock guards is kept valid between statements for that reason.

use std::ops::{Deref, DerefMut};
use std::sync::PoisonError;

/// Identity of one declared lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockId {
    /// Locks are acquired in strictly increasing rank order.
    pub rank: u16,
    /// Name used in panics and in LOCK_ORDERING.md.
    pub name: &'static str,
    /// Workspace-relative file that constructs the lock.
    pub file: &'static str,
}

macro_rules! declare_locks {
    ($($ident:ident = ($rank:expr, $name:expr, $file:expr);)*) => {
        /// Every lock of the daemon, in rank order.
        pub mod ids {
            use super::LockId;
            $(pub const $ident: LockId = LockId { rank: $rank, name: $name, file: $file };)*
            /// `(constant name, lock)` for every declared lock; read by the
            /// LOCK_ORDERING.md agreement test.
            pub const ALL: &[(&str, LockId)] = &[$((stringify!($ident), $ident)),*];
        }
    };
}

declare_locks! {
    CONFIG_CURRENT = (10, "config.current", "daemon/src/engine/config.rs");
    SESSIONS_ACTIVE = (20, "sessions.active", "daemon/src/engine/session.rs");
    PATHS_TABLE = (30, "paths.table", "daemon/src/engine/path_locks.rs");
    PATHS_FILE = (40, "paths.file", "daemon/src/engine/path_locks.rs");
    READ_DELIVERIES = (50, "read.deliveries", "daemon/src/engine/read/deliveries.rs");
    READ_CACHE = (60, "read.cache", "daemon/src/engine/read/cache.rs");
    GUARD_RULES = (62, "guard.rules", "daemon/src/engine/guard/rules.rs");
    GUARD_PERMISSIONS = (64, "guard.permissions", "daemon/src/engine/guard/permissions.rs");
    GUARD_GIT_INDEXES = (66, "guard.git_indexes", "guard/src/permissions/index_cache.rs");
    TOKENS_MEMO = (70, "tokens.memo", "daemon/src/engine/tokens.rs");
    SHELL_JOBS = (80, "shell.jobs", "daemon/src/engine/shell/jobs.rs");
    MEMORY_STORE = (90, "memory.store", "daemon/src/engine/memory/mod.rs");
    MEMORY_JOURNAL = (92, "memory.journal", "daemon/src/engine/memory/journal.rs");
    MEMORY_UNRECORDED = (95, "memory.unrecorded", "daemon/src/engine/memory/mod.rs");
    SEARCH_REGISTRY = (100, "search.registry", "search/src/registry.rs");
    SEARCH_PROJECT_STATE = (110, "search.project_state", "search/src/project.rs");
    GRAPH_PROJECTS = (120, "graph.projects", "daemon/src/engine/graph/mod.rs");
    GRAPH_PROJECT = (130, "graph.project", "daemon/src/engine/graph/mod.rs");
    GRAPH_COCHANGE = (136, "graph.cochange", "daemon/src/engine/graph/cochange.rs");
    LSP_POOL = (140, "lsp.pool", "daemon/src/engine/lsp_pool.rs");
    LSP_DOCUMENTS = (150, "lsp.documents", "lsp/src/lib.rs");
    LSP_PENDING = (160, "lsp.pending", "lsp/src/lib.rs");
    SEARCH_PERMITS = (190, "search.permits", "search/src/registry.rs");
}

#[cfg(debug_assertions)]
mod order {
    //! Per-thread stack of held locks, checked on every acquisition.
    use super::LockId;
    use std::cell::RefCell;

    thread_local! {
        static HELD: RefCell<Vec<LockId>> = const { RefCell::new(Vec::new()) };
    }

    pub(super) fn check_and_push(next: LockId) {
        HELD.with(|held| {
            let mut held = held.borrow_mut();
            if let Some(top) = held.iter().max_by_key(|l| l.rank)
                && top.rank >= next.rank
            {
                let top = *top;
                // Release the borrow before unwinding so Drop of other guards works.
                drop(held);
                panic!(
                    "lock order violation: acquiring `{}` (rank {}) while holding `{}` (rank {}); \
                     locks must be taken in increasing rank order (see LOCK_ORDERING.md)",
                    next.name, next.rank, top.name, top.rank
                );
            }
            held.push(next);
        });
    }

    pub(super) fn pop(id: LockId) {
        HELD.with(|held| {
            let mut held = held.borrow_mut();
            if let Some(pos) = held.iter().rposition(|l| *l == id) {
                held.remove(pos);
            }
        });
    }
}

/// Marks a lock as held by this thread for as long as it lives.
struct Held(#[cfg(debug_assertions)] LockId);

impl Held {
    #[cfg_attr(not(debug_assertions), allow(unused_variables))]
    fn acquire(id: LockId) -> Held {
        #[cfg(debug_assertions)]
        {
            order::check_and_push(id);
            Held(id)
        }
        #[cfg(not(debug_assertions))]
        Held()
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        #[cfg(debug_assertions)]
        order::pop(self.0);
    }
}

/// A ranked mutual-exclusion lock.
pub struct Mutex<T> {
    id: LockId,
    inner: std::sync::Mutex<T>,
}

impl<T> Mutex<T> {
    pub fn new(id: LockId, value: T) -> Self {
        Mutex { id, inner: std::sync::Mutex::new(value) }
    }

    pub fn lock(&self) -> MutexGuard<'_, T> {
        // The order check runs before blocking, so an inversion panics
        // instead of deadlocking.
        let held = Held::acquire(self.id);
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        MutexGuard { inner, _held: held }
    }
}

pub struct MutexGuard<'a, T> {
    // Field order matters: the std guard unlocks before the rank is popped.
    inner: std::sync::MutexGuard<'a, T>,
    _held: Held,
}

impl<T> Deref for MutexGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T> DerefMut for MutexGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.inner
    }
}

/// A ranked reader-writer lock. Readers count as holders for ordering.
pub struct RwLock<T> {
    id: LockId,
    inner: std::sync::RwLock<T>,
}

impl<T> RwLock<T> {
    pub fn new(id: LockId, value: T) -> Self {
        RwLock { id, inner: std::sync::RwLock::new(value) }
    }

    pub fn read(&self) -> ReadGuard<'_, T> {
        let held = Held::acquire(self.id);
        let inner = self.inner.read().unwrap_or_else(PoisonError::into_inner);
        ReadGuard { inner, _held: held }
    }

    pub fn write(&self) -> WriteGuard<'_, T> {
        let held = Held::acquire(self.id);
        let inner = self.inner.write().unwrap_or_else(PoisonError::into_inner);
        WriteGuard { inner, _held: held }
    }
}

pub struct ReadGuard<'a, T> {
    inner: std::sync::RwLockReadGuard<'a, T>,
    _held: Held,
}

impl<T> Deref for ReadGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

pub struct WriteGuard<'a, T> {
    inner: std::sync::RwLockWriteGuard<'a, T>,
    _held: Held,
}

impl<T> Deref for WriteGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T> DerefMut for WriteGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.inner
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn increasing_ranks_nest() {
        let a = Mutex::new(ids::CONFIG_CURRENT, 1);
        let b = RwLock::new(ids::SESSIONS_ACTIVE, 2);
        let ga = a.lock();
        let gb = b.write();
        assert_eq!(*ga + *gb, 3);
    }

    #[test]
    fn release_allows_reacquire_in_any_order() {
        let a = Mutex::new(ids::CONFIG_CURRENT, ());
        let b = Mutex::new(ids::SESSIONS_ACTIVE, ());
        drop(b.lock());
        drop(a.lock());
        let _gb = b.lock();
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "acquiring `config.current` (rank 10) while holding `sessions.active` (rank 20)")]
    fn wrong_order_panics_naming_both_locks() {
        let a = Mutex::new(ids::CONFIG_CURRENT, ());
        let b = Mutex::new(ids::SESSIONS_ACTIVE, ());
        let _gb = b.lock();
        let _ga = a.lock();
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "while holding `config.current`")]
    fn same_rank_twice_panics_instead_of_deadlocking() {
        let a = RwLock::new(ids::CONFIG_CURRENT, ());
        let _r1 = a.read();
        let _r2 = a.read();
    }
}
