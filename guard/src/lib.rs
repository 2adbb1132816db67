//! What the host would have enforced, for agents that read and run through
//! lean-ctxd instead of the host's own tools.
//!
//! When an agent reads files through `ctx_read` and runs commands through
//! `ctx_shell`, three things its host did silently stop happening:
//!
//! - [`rules`]: path-scoped instruction files (nested `CLAUDE.md`,
//!   `.claude/rules`, `AGENTS.md`, Cursor `.mdc` rules, Copilot
//!   `.instructions.md`) are no longer put in front of the agent when it
//!   reads a file they cover. [`rules::discover`] finds them per host.
//! - [`permissions`]: the user's permission rules (Claude Code's
//!   `permissions.deny` / `ask` in its settings files, plus lean-ctx's own
//!   `deny_paths` and `shell_deny`) are no longer applied.
//!   [`permissions::Permissions`] loads and evaluates them.
//! - [`roots`]: dependency and toolchain sources outside the project (the
//!   cargo registry, Go module cache, site-packages…) cannot be read.
//!   [`roots::read_only_roots`] lists the ones that may be read, never edited.
//!
//! Everything here is a pure function of the file system and its inputs:
//! bad input becomes a note, never a panic, and the daemon caches results.

pub mod permissions;
pub mod roots;
pub mod rules;

#[cfg(test)]
mod test_rng;
