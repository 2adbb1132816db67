//! Path-scoped instruction files: which of a project's rule files a host
//! would put in front of the agent when it reads a given file.
//!
//! Each host has its own layout (`claude`, `codex`, `cursor`, `copilot`
//! modules); they share the reading in `scan`, the front-matter parser in
//! `front_matter` and the glob matching in `globs`.

mod claude;
mod codex;
mod copilot;
mod cursor;
mod front_matter;
mod globs;
mod scan;

use std::path::{Component, Path, PathBuf};

use scan::Scan;

/// An agent host whose rule-file conventions lean-ctxd reproduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Host {
    ClaudeCode,
    Codex,
    Cursor,
    Copilot,
}

impl Host {
    /// From an MCP client's name or agent id such as "claude-code 1.0.3",
    /// "Claude Code", "cursor-vscode 1.0", "codex-mcp-client" or "Visual
    /// Studio Code" (Copilot's client). `None` when unknown.
    pub fn from_agent(agent: &str) -> Option<Host> {
        let agent = agent.to_ascii_lowercase();
        // Cursor first: its client id also says "vscode".
        if agent.contains("cursor") {
            Some(Host::Cursor)
        } else if agent.contains("claude") {
            Some(Host::ClaudeCode)
        } else if agent.contains("codex") {
            Some(Host::Codex)
        } else if ["copilot", "visual studio code", "vscode", "vs code"].iter().any(|name| agent.contains(name)) {
            Some(Host::Copilot)
        } else {
            None
        }
    }

    /// From a user-facing name: "claude", "claude-code", "codex", "agents",
    /// "cursor", "copilot" (any case, surrounding spaces ignored); the names are
    /// `lean_ctx_common::hosts`', which clients check `--host` against.
    pub fn parse(name: &str) -> Option<Host> {
        let canonical = lean_ctx_common::hosts::canonical(name)?;
        [Host::ClaudeCode, Host::Codex, Host::Cursor, Host::Copilot].into_iter().find(|host| host.name() == canonical)
    }

    /// The canonical user-facing name; [`Host::parse`] reads it back.
    pub fn name(self) -> &'static str {
        match self {
            Host::ClaudeCode => "claude-code",
            Host::Codex => "codex",
            Host::Cursor => "cursor",
            Host::Copilot => "copilot",
        }
    }
}

/// One instruction file to deliver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleFile {
    /// Absolute: the project root joined with the file's place in it.
    pub path: PathBuf,
    /// The path relative to the project root, `/`-separated, for display.
    pub shown: String,
    /// The content, trimmed, without the front matter of a scoped rule file
    /// (`.claude/rules`, `.mdc`, `.instructions.md`; memory files such as
    /// CLAUDE.md and AGENTS.md are all instructions); at most 64 KiB of the file,
    /// cut at a line boundary and then ending in a
    /// `[… truncated: N more bytes in FILE]` line.
    pub body: String,
    /// blake3 of the file's bytes (of its first 16 MiB for a larger file), so
    /// a changed file can be delivered again.
    pub hash: [u8; 32],
    /// Why it applies, e.g. "nested CLAUDE.md in src/", "paths: src/**/*.rs".
    pub why: String,
}

/// What [`discover`] found, and notes on what it could not use.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Discovery {
    pub rules: Vec<RuleFile>,
    /// Short, each naming the file and what to do about it.
    pub notes: Vec<String>,
}

/// The instruction files `host` would load natively for `file` (absolute,
/// inside `root`), outermost first, in a deterministic order. Files the host
/// loads at session start for the whole project (the root's CLAUDE.md,
/// AGENTS.md or `.github/copilot-instructions.md`, Cursor `alwaysApply`
/// rules, `.claude/rules` without `paths`) are included only when
/// `include_session_start`.
///
/// Per host:
/// - **Claude Code**: `CLAUDE.md`, `.claude/CLAUDE.md` and `CLAUDE.local.md`
///   in every directory from the root down to the file's own (the root's are
///   session start); `.claude/rules/**/*.md` under the root, included when a
///   `paths` glob (relative to the root) matches, session start without
///   `paths`.
/// - **Codex**: the closest `AGENTS.override.md` or `AGENTS.md` (an override
///   wins in its directory, empty files are skipped) from the file's
///   directory up to the root, only that one; the root's is session start.
/// - **Cursor**: `.cursor/rules/**/*.mdc` in the root and in every directory
///   down to the file's; `globs` match relative to the directory holding that
///   `.cursor` → included; `alwaysApply: true` → session start at the root,
///   included when nested (a nested rules directory applies to files under
///   it); neither → not included (agent-requested or manual). The legacy
///   root `.cursorrules` is session start.
/// - **Copilot**: `.github/instructions/**/*.instructions.md` whose `applyTo`
///   globs match the path relative to the root; `.github/copilot-instructions.md`
///   is session start.
///
/// Bad input never panics nor stops the discovery: it becomes a note. A
/// front matter without its closing `---` is noted and read as plain text
/// (so a Claude rule then counts as one without `paths`, a Cursor or
/// Copilot rule as one without globs); a rule with a glob that does not
/// compile is noted and skipped; a file that is a symlink resolving outside
/// the root, unreadable, or not a regular file is noted and skipped; a
/// non-UTF-8 file is delivered lossily with a note; a file over 64 KiB is
/// truncated with a note. `file` outside `root` gives an empty discovery
/// and a note.
pub fn discover(root: &Path, file: &Path, host: Host, include_session_start: bool) -> Discovery {
    let mut notes = Vec::new();
    let Some(rel_file) = relative_inside(root, file, &mut notes) else {
        return Discovery { rules: Vec::new(), notes };
    };
    let mut scan = match Scan::new(root, rel_file, include_session_start, notes) {
        Ok(scan) => scan,
        Err(notes) => return Discovery { rules: Vec::new(), notes },
    };
    match host {
        Host::ClaudeCode => claude::discover(&mut scan),
        Host::Codex => codex::discover(&mut scan),
        Host::Cursor => cursor::discover(&mut scan),
        Host::Copilot => copilot::discover(&mut scan),
    }
    scan.finish()
}

/// `file` relative to `root`, or a note on why it is not a file inside it.
fn relative_inside(root: &Path, file: &Path, notes: &mut Vec<String>) -> Option<PathBuf> {
    let inside = file
        .strip_prefix(root)
        .ok()
        .filter(|rel| rel.components().next().is_some() && rel.components().all(|c| matches!(c, Component::Normal(_))));
    if !root.is_absolute() || inside.is_none() {
        notes.push(format!(
            "{} is not a file inside the project {}; no rule files were looked up for it",
            file.display(),
            root.display()
        ));
        return None;
    }
    inside.map(Path::to_path_buf)
}

#[cfg(test)]
mod tests;
