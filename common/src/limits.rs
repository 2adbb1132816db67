//! Limits of requests that the clients check before sending (a clear error at once, also without
//! a daemon) and that the daemon's engine enforces: one definition for both sides.

/// The most import steps a graph `neighbors` request follows.
pub const MAX_NEIGHBOR_DEPTH: u32 = 3;

/// The longest import path a graph `path` request looks for.
pub const MAX_PATH_LENGTH: u32 = 12;

/// The most results one search or glob shows (lines of up to 200 characters: a few MB at most).
/// An answer larger than that fills any agent's context; a count needs no lines shown.
pub const MAX_RESULTS: u32 = 10_000;

/// Refuses a `max_results` outside 1..=[`MAX_RESULTS`], naming it as the reader passes it and its
/// `default`: one check and one wording for the client's early check and the daemon's.
pub fn check_results(name: &str, asked: Option<u32>, default: &str) -> Result<(), String> {
    match asked {
        Some(n) if n == 0 || n > MAX_RESULTS => Err(format!(
            "{name} {n} is out of range: use 1 to {MAX_RESULTS} (default {default}); narrow the search with path or \
             include"
        )),
        _ => Ok(()),
    }
}

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
