//! Guardrails: what the host did for the user keeps happening when the agent
//! works through lean-ctxd instead of the host's own tools.
//!
//! - [`rules`]: the instruction files the host would have loaded for a path
//!   are delivered with its read, once per session and version.
//! - [`permissions`]: the host's permission rules (and `deny_paths`,
//!   `shell_deny`) refuse reads, edits and commands the user denied or wants
//!   to approve.
//! - [`redaction`]: secrets become `[REDACTED:kind]` in every text sent to
//!   an agent.
//! - Read-only roots (dependency and toolchain sources) widen what reads may
//!   reach, never what edits may; see [`crate::engine::project::Scope`].
//!
//! The rule discovery, permission semantics and secret formats live in the
//! crates `lean-ctx-guard` and `lean-ctx-redact`; this module keeps their
//! per-daemon state (what each session has, parsed settings per project).

pub mod permissions;
pub mod redaction;
pub mod rules;

use std::path::PathBuf;

use crate::engine::config::Config;

pub struct Guard {
    pub redaction: redaction::Redaction,
    pub rules: rules::RuleDeliveries,
    pub permissions: permissions::PermissionCache,
    /// The user's home: where the host keeps its user-level settings.
    home: PathBuf,
    /// Dependency and toolchain sources found from the daemon's environment
    /// when it started.
    found_roots: Vec<PathBuf>,
}

impl Guard {
    pub fn new() -> Guard {
        let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map_or_else(|| PathBuf::from("/"), PathBuf::from);
        let found_roots = lean_ctx_guard::roots::read_only_roots(&home, &|name| std::env::var(name).ok(), &[]);
        Guard {
            redaction: redaction::Redaction::default(),
            rules: rules::RuleDeliveries::default(),
            permissions: permissions::PermissionCache::default(),
            home,
            found_roots,
        }
    }

    pub fn home(&self) -> &std::path::Path {
        &self.home
    }

    /// Every read-only root: those found at start and the configured ones.
    pub fn read_only_roots(&self, config: &Config) -> Vec<PathBuf> {
        if config.read_only_paths.is_empty() {
            return self.found_roots.clone();
        }
        let mut roots = self.found_roots.clone();
        roots.extend(lean_ctx_guard::roots::read_only_roots(&self.home, &|_| None, &config.read_only_paths));
        roots.sort();
        roots.dedup();
        roots
    }
}

impl Default for Guard {
    fn default() -> Self {
        Guard::new()
    }
}
