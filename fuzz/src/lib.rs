//! The harnesses of the fuzz targets, one module per target. Each `run`
//! takes the fuzzer's bytes, feeds them to the code under test and asserts
//! what must hold for any input (beyond "no panic"); the binaries in
//! `fuzz_targets/` are one line each, and `tests/corpus.rs` replays every
//! checked-in corpus through the same functions on the stable toolchain.
//!
//! Every target that touches the file system works in its own sandbox under
//! the temp dir (`sandbox`), never in the user's home or the project.

pub mod config;
pub mod daemon_requests;
pub mod host_config;
pub mod mcp_stdio;
pub mod outline;
pub mod paths;
pub mod shell_compress;

mod sandbox;
