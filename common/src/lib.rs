//! What the daemon and its thin clients share, and nothing of the engine:
//! a client links this crate and `lean-ctx-proto`, never tree-sitter,
//! tantivy, SQLite or the tokenizer (a test in `tests/` enforces it).
//!
//! - [`paths`]: where every file of an installation lives (`Dirs`).
//! - [`build_info`]: version and executable id, compared in the handshake.
//! - [`runtime_dir`]: creating and checking the private runtime directory.
//! - [`singleton`]: the daemon lock and who holds it.
//! - [`detach`]: starting a detached daemon and waiting for its socket.
//! - [`config`]: the `config.toml` format, shared so the file means the
//!   same to every program that reads it.
//! - [`privacy`]: stored data private whatever the umask (the daemon's
//!   umask, private creation, repairing what is not).
//! - [`stamp`]: a file's identity and mtime, for answers a client may
//!   reuse while the files they depend on are unchanged.
//! - [`confined`]: opening a file so that the path checked is the file read
//!   (no symlink swapped in between); the engine crates read through it.
//! - [`jsonc`]: JSON with comments and trailing commas, read and edited in
//!   place (hosts' settings for `lctx setup`, tsconfig files for the graph),
//!   with [`text_error`] saying where a file is wrong.
//! - [`line_breaks`]: a file's CRLF breaks and byte order mark kept through
//!   an edit by toml_edit, which writes neither (`lctx config set`, and
//!   Codex's config in `lctx setup`).
//! - [`limits`]: request limits the clients check before sending and the
//!   engine enforces (a graph walk's depth, a command's timeout).
//! - [`spelling`]: edit distance and the nearest name, for "did you mean".
//! - [`plural`]: counted nouns (`3 files`, never `3 file(s)`).
//! - [`framing`]: a read's note, delivered rules and ctx_shell's lines after a
//!   command's output as clients show them, so the daemon counts what the agent
//!   receives.

pub mod build_info;
pub mod config;
pub mod confined;
pub mod detach;
pub mod framing;
pub mod hosts;
pub mod jsonc;
pub mod limits;
pub mod line_breaks;
pub mod paths;
pub mod plural;
pub mod privacy;
pub mod runtime_dir;
pub mod singleton;
pub mod spelling;
pub mod stamp;
pub mod surface;
pub mod text_error;
