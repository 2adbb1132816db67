//! The library half of `lctx-mcp`: what the binary serves, as modules, so
//! the fuzz targets in `fuzz/` can drive the stdio transport and the
//! JSON-RPC dispatch in-process. The binary (`main.rs`) adds the process:
//! arguments, logging, signals and the runtime.

pub mod lifecycle;
pub mod log_file;
pub mod profile;
mod retry;
pub mod server;
pub mod session;
pub mod stdio;
mod tools;
