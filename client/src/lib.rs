//! Client side of lean-ctxd, shared by `lctx`, `lctx-mcp` and `lctx-shell`.
//!
//! - [`options`]: where the daemon is and who this client is.
//! - [`transport`]: dialing the local socket, gRPC over it.
//! - [`daemon`]: probe, handshake, autostart, restart of another build, stop.
//! - [`backend`]: the daemon, or a `lean-ctxd --stdio` child, behind one set of clients.
//! - [`child`]: starting that fallback child and explaining its failures.
//! - [`capability`]: each capability once — request building and rendering,
//!   shared by `lctx` and `lctx-mcp`.
//! - [`cli`]: the `lctx` command line.
//! - [`pipe`]: stopping quietly when the reader of our output has gone.
//! - [`init`]: `lctx init` / `lctx uninstall`: everything set up in one step, and undone from its record.
//! - [`setup`]: registering the lean-ctx MCP server in AI coding hosts' config files.

pub mod backend;
pub mod capability;
pub mod child;
pub mod cli;
pub mod daemon;
pub mod init;
pub mod options;
pub mod pipe;
pub mod setup;
pub mod transport;
