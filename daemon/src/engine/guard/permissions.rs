//! The user's permission rules, parsed once per project and re-read when a
//! settings file or the config changes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lean_ctx_common::stamp::Stamp;
use lean_ctx_guard::permissions::{Permissions, Verdict};

use crate::engine::config::Config;
use crate::engine::error::{EngineError, EngineResult};
use crate::locks::{self, Mutex};

/// Projects whose parsed rules are kept; more are forgotten all at once
/// (re-parsing costs a few file reads).
const MAX_PROJECTS: usize = 256;

/// Where Claude Code's administrators put settings users cannot override.
const MANAGED_SETTINGS: &str = "/etc/claude-code/managed-settings.json";

/// The files a project's rules come from, and the config lists: when none
/// changed, the parsed rules still hold.
#[derive(Clone, PartialEq, Eq)]
struct Sources {
    stamps: Vec<Stamp>,
    deny_paths: Vec<String>,
    shell_deny: Vec<String>,
}

struct Parsed {
    sources: Sources,
    rules: Arc<Rules>,
}

/// A project's rules and what could not be read of them.
pub struct Rules {
    pub permissions: Permissions,
    pub notes: Vec<String>,
}

pub struct PermissionCache {
    projects: Mutex<HashMap<PathBuf, Parsed>>,
}

impl Default for PermissionCache {
    fn default() -> Self {
        PermissionCache { projects: Mutex::new(locks::ids::GUARD_PERMISSIONS, HashMap::new()) }
    }
}

/// The settings files a project's rules are read from, present or not.
pub fn settings_files(home: &Path, root: &Path) -> [PathBuf; 4] {
    [
        home.join(".claude/settings.json"),
        root.join(".claude/settings.json"),
        root.join(".claude/settings.local.json"),
        PathBuf::from(MANAGED_SETTINGS),
    ]
}

impl PermissionCache {
    /// The rules that hold for `root`: four `stat`s when nothing changed.
    pub fn rules(&self, home: &Path, root: &Path, config: &Config, config_file: &Path) -> Arc<Rules> {
        let files = settings_files(home, root);
        let sources = Sources {
            stamps: files.iter().map(|f| Stamp::of(f)).collect(),
            deny_paths: config.deny_paths.clone(),
            shell_deny: config.shell_deny.clone(),
        };
        if let Some(parsed) = self.projects.lock().get(root)
            && parsed.sources == sources
        {
            return parsed.rules.clone();
        }
        // Parse without the lock; two requests racing store equal results.
        let managed = Path::new(MANAGED_SETTINGS);
        let (permissions, notes) =
            Permissions::load(home, root, Some(managed), &config.deny_paths, &config.shell_deny, config_file);
        // Said once per change of the files: a file that cannot be used refuses every check
        // (naming it), a rule left out only here.
        for note in &notes {
            tracing::warn!("permission settings: {note}");
        }
        let rules = Arc::new(Rules { permissions, notes });
        let mut projects = self.projects.lock();
        if projects.len() >= MAX_PROJECTS {
            projects.clear();
        }
        projects.insert(root.to_path_buf(), Parsed { sources, rules: rules.clone() });
        rules
    }
}

/// A verdict as the engine's answer: allowed, or refused with the rule and
/// its file named.
pub fn enforce(verdict: Verdict, tool: &str) -> EngineResult<()> {
    match verdict.message(tool) {
        None => Ok(()),
        Some(message) => Err(EngineError::denied(message)),
    }
}

/// What lctx-shell tells the agent when the rules refuse a command it was
/// about to run itself; `None` for [`Verdict::Allow`]. Unlike ctx_shell it
/// cannot send the agent to the host's own tool: it runs inside it.
pub fn shell_refusal(verdict: &Verdict) -> Option<String> {
    match verdict {
        Verdict::Allow => None,
        Verdict::Deny { .. } => verdict.message("lctx-shell"),
        Verdict::Ask { .. } => Some(format!(
            "lctx-shell: requires approval ({}), and this shell cannot ask the user, so the command was not run; the \
             user can run it or change the rule",
            verdict.grounds()?
        )),
    }
}
