//! Limits of requests that the clients check before sending (a clear error at once, also without
//! a daemon) and that the daemon's engine enforces: one definition for both sides.

/// The most import steps a graph `neighbors` request follows.
pub const MAX_NEIGHBOR_DEPTH: u32 = 3;

/// The longest import path a graph `path` request looks for.
pub const MAX_PATH_LENGTH: u32 = 12;

/// The longest timeout a command may be given, in milliseconds (an hour).
pub const MAX_COMMAND_TIMEOUT_MS: u64 = 3_600_000;

/// The repo map's token budget when none is asked for.
pub const DEFAULT_MAP_TOKENS: u32 = 1024;

/// The budgets a repo map may be asked for; any other is refused, never clamped, so the answer's
/// size is always the one asked for. The smallest still fits the map's closing line.
pub const MIN_MAP_TOKENS: u32 = 64;
pub const MAX_MAP_TOKENS: u32 = 16_384;

/// Why a budget outside [`MIN_MAP_TOKENS`]..=[`MAX_MAP_TOKENS`] is refused, naming it as the
/// reader passes it (`max_tokens`, `--max-tokens`); one wording for the client's early check
/// and the daemon's.
pub fn map_tokens_out_of_range(name: &str, asked: impl std::fmt::Display) -> String {
    format!("{name} {asked} is out of range: use {MIN_MAP_TOKENS} to {MAX_MAP_TOKENS} (default {DEFAULT_MAP_TOKENS})")
}
