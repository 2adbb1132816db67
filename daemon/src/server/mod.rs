//! The daemon side: gRPC services mapping onto the engine, the local-socket
//! transport and the process lifecycle.

pub mod blocking;
pub mod context;
pub mod control;
pub mod drain;
pub mod graph;
mod graph_files;
pub mod heap;
pub mod host;
pub mod lifecycle;
pub mod memory;
pub mod pipe;
pub mod search;
pub mod shell;
pub mod status;
pub mod transport;
pub mod wire;

/// Shared with the clients (crate `lean-ctx-common`).
pub use lean_ctx_common::{detach, runtime_dir, singleton};
