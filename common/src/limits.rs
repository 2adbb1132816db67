//! Limits of requests that the clients check before sending (a clear error at once, also without
//! a daemon) and that the daemon's engine enforces: one definition for both sides.

/// The most import steps a graph `neighbors` request follows.
pub const MAX_NEIGHBOR_DEPTH: u32 = 3;

/// The longest import path a graph `path` request looks for.
pub const MAX_PATH_LENGTH: u32 = 12;

/// The longest timeout a command may be given, in milliseconds (an hour).
pub const MAX_COMMAND_TIMEOUT_MS: u64 = 3_600_000;
