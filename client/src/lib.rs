//! Client side of lean-ctxd, shared by `lctx`, `lctx-mcp` and `lctx-shell`.
//!
//! - [`options`]: where the daemon is and who this client is.
//! - [`transport`]: dialing the local socket, gRPC over it.
//! - [`daemon`]: probe, handshake, autostart, restart of another build, stop.
//! - [`backend`]: the daemon or the in-process engine behind one trait.
//! - [`cli`]: the `lctx` command line.
//! - [`setup`]: registering the lean-ctx MCP server in AI coding hosts' config files.
//! - [`summary`]: result lines the CLI and the MCP tools share.

pub mod backend;
pub mod cli;
pub mod daemon;
pub mod options;
pub mod setup;
pub mod summary;
pub mod transport;
