//! The daemon side: gRPC services mapping onto the engine, the local-socket
//! transport and the process lifecycle.

pub mod blocking;
pub mod context;
pub mod control;
pub mod detach;
pub mod drain;
pub mod host;
pub mod lifecycle;
pub mod memory;
pub mod runtime_dir;
pub mod search;
pub mod shell;
pub mod singleton;
pub mod status;
pub mod transport;
