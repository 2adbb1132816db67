//! lean-ctxd: the per-user context gateway daemon.
//!
//! - [`engine`]: the components (config, sessions, …) as plain Rust.
//! - [`server`]: the gRPC services over those components, the local-socket
//!   transport and the daemon's lifecycle.
//! - [`locks`]: the ranked locks every component builds its state with
//!   (crate `lean-ctx-locks`, shared with the component crates).
//!
//! docs/architecture.md is the map; LOCK_ORDERING.md lists every lock.

/// Version and executable id (crate `lean-ctx-common`, shared with clients).
pub use lean_ctx_common::build_info;
pub mod engine;
pub mod logging;

/// The ranked locks (crate `lean-ctx-locks`), re-exported for the engine.
pub use lean_ctx_locks as locks;
pub mod server;
