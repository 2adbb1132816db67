//! Every lock of this crate, declared in one place so LOCK_ORDERING.md can list
//! them. Ranks live in the band 100–199 reserved for search; a thread takes
//! them only in increasing rank, and today no two are ever held together.

use lean_ctx_locks::LockId;

/// The map of open projects (canonical root → project handle and thread).
/// Held only to look up, insert or remove an entry; never across I/O.
pub(crate) const SEARCH_REGISTRY: LockId =
    LockId { rank: 100, name: "search.registry", file: "search/src/registry.rs" };

/// One project's published index state (building progress, the ready
/// searcher, Status figures). Held only to copy a value in or out.
pub(crate) const SEARCH_PROJECT_STATE: LockId =
    LockId { rank: 110, name: "search.project_state", file: "search/src/project.rs" };

/// The receiving end of the global indexing-permit channel; held for one
/// non-blocking `try_recv` when a permit is returned.
pub(crate) const SEARCH_PERMITS: LockId = LockId { rank: 190, name: "search.permits", file: "search/src/registry.rs" };
