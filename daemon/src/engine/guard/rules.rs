//! Instruction files delivered with reads: which host's formats apply to a
//! request, and which rule files (by content hash) each session already has.

use std::path::{Path, PathBuf};

pub use lean_ctx_guard::rules::Host;
use lean_ctx_guard::rules::{self, RuleFile};

use crate::engine::config::Config;
use crate::engine::error::{EngineError, EngineResult};
use crate::engine::lru::Lru;
use crate::engine::session::SessionIn;
use crate::engine::{Caller, Engine};
use crate::locks::{self, Mutex};

/// (project, session, rule file) records kept; forgetting one only means the rule
/// file is delivered once more.
const MAX_RECORDS: usize = 20_000;

/// The host whose rule files apply: the request's own (`--host`), else the
/// `rules_host` setting, whose `auto` follows the agent (an MCP host's
/// name) and falls back to AGENTS.md, which most agents read. `None`: no
/// rule files at all.
pub fn host_for(requested: &str, config: &Config, agent: &str) -> EngineResult<Option<Host>> {
    let named = |name: &str| -> EngineResult<Option<Host>> {
        if name == "none" {
            return Ok(None);
        }
        Host::parse(name).map(Some).ok_or_else(|| {
            EngineError::invalid(format!(
                "unknown host `{name}`; valid: claude-code, codex, cursor, copilot, none (or auto in config)"
            ))
        })
    };
    match (requested.trim(), config.rules_host.as_str()) {
        ("", "auto") | ("auto", _) => Ok(Some(Host::from_agent(agent).unwrap_or(Host::Codex))),
        ("", setting) => named(setting),
        (requested, _) => named(requested),
    }
}

/// Which version of each rule file each session has received.
pub struct RuleDeliveries {
    records: Mutex<Lru<(PathBuf, String, PathBuf), [u8; 32]>>,
}

impl Default for RuleDeliveries {
    fn default() -> Self {
        RuleDeliveries { records: Mutex::new(locks::ids::GUARD_RULES, Lru::new(MAX_RECORDS)) }
    }
}

impl RuleDeliveries {
    /// Whether `session` has this very version of `rule`.
    pub fn has(&self, session: SessionIn<'_>, rule: &RuleFile) -> bool {
        !session.id.is_empty() && self.records.lock().get(&key(session, &rule.path)) == Some(rule.hash)
    }

    /// Keeps the rules `session` does not have yet and records them as
    /// delivered. Without a session every read delivers them: nothing says
    /// the caller has them.
    pub fn take_new(&self, session: SessionIn<'_>, found: Vec<RuleFile>) -> Vec<RuleFile> {
        if session.id.is_empty() {
            return found;
        }
        let mut records = self.records.lock();
        found
            .into_iter()
            .filter(|rule| {
                let key = key(session, &rule.path);
                let new = records.get(&key) != Some(rule.hash);
                if new {
                    records.insert(key, rule.hash, 1);
                }
                new
            })
            .collect()
    }
}

fn key(session: SessionIn<'_>, path: &Path) -> (PathBuf, String, PathBuf) {
    (session.project.to_path_buf(), session.id.to_string(), path.to_path_buf())
}

/// The rule files for `file` and the notes of discovery.
pub fn discover(root: &Path, file: &Path, host: Host, config: &Config) -> rules::Discovery {
    rules::discover(root, file, host, config.rules_session_start)
}

/// One rule file in a listing.
pub struct Listed {
    pub path: String,
    pub why: String,
    pub delivered: bool,
    pub session_start: bool,
    pub tokens: u64,
}

/// What `ctx_rules` answers.
pub struct Listing {
    pub host: String,
    pub path: String,
    pub rules: Vec<Listed>,
    pub notes: Vec<String>,
}

impl Engine {
    /// The rule files that apply to `input` (a file, or a directory: then the
    /// files of that directory, without rules that only match by file glob),
    /// and whether this session has each.
    pub fn list_rules(&self, caller: &Caller<'_>, input: &str) -> EngineResult<Listing> {
        let config = self.config.get();
        let scope = self.scope_of(caller)?;
        let target = if input.trim().is_empty() { scope.cwd.clone() } else { scope.resolve_existing(input)? };
        let shown = scope.display(&target);
        let Some(host) = host_for(caller.host, &config, caller.agent)? else {
            return Ok(Listing { host: "none".into(), path: shown, rules: Vec::new(), notes: Vec::new() });
        };
        // Rules apply to files; a directory is asked about as a file in it.
        let file = if target.is_dir() { target.join(".lctx-directory-probe") } else { target };
        let with_start = rules::discover(&scope.root, &file, host, true);
        let by_reads = rules::discover(&scope.root, &file, host, config.rules_session_start);
        let rules = with_start
            .rules
            .into_iter()
            .map(|rule| {
                let session_start = !by_reads.rules.iter().any(|r| r.path == rule.path);
                Listed {
                    delivered: self.guard.rules.has(SessionIn { project: &scope.root, id: caller.session }, &rule),
                    tokens: self.tokens.count(&rule.body) as u64,
                    path: rule.shown,
                    why: rule.why,
                    session_start,
                }
            })
            .collect();
        Ok(Listing { host: host.name().to_string(), path: shown, rules, notes: with_start.notes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(path: &str, body: &str) -> RuleFile {
        RuleFile {
            path: PathBuf::from(path),
            shown: path.trim_start_matches("/p/").to_string(),
            body: body.to_string(),
            hash: *blake3::hash(body.as_bytes()).as_bytes(),
            why: "nested CLAUDE.md".into(),
        }
    }

    /// The session `id` of project /p.
    fn s(id: &str) -> SessionIn<'_> {
        SessionIn { project: Path::new("/p"), id }
    }

    #[test]
    fn each_version_of_a_rule_file_goes_once_to_each_session() {
        let d = RuleDeliveries::default();
        let v1 = rule("/p/src/CLAUDE.md", "tabs");
        assert_eq!(d.take_new(s("s"), vec![v1.clone()]).len(), 1);
        assert!(d.has(s("s"), &v1));
        assert!(d.take_new(s("s"), vec![v1.clone()]).is_empty(), "unchanged: not again");
        assert_eq!(d.take_new(s("other"), vec![v1.clone()]).len(), 1, "another session gets its own");
        let v2 = rule("/p/src/CLAUDE.md", "spaces");
        assert_eq!(d.take_new(s("s"), vec![v2]).len(), 1, "changed: delivered again");
        assert_eq!(d.take_new(s(""), vec![v1.clone()]).len(), 1, "no session: always");
        assert!(!d.has(s(""), &v1));
    }

    /// The same id in a project inside /p (LEAN_CTX_SESSION set for every shell, maybe another
    /// agent) was not sent the rule file /p's session had received.
    #[test]
    fn the_same_id_in_another_project_gets_its_own_rule_files() {
        let d = RuleDeliveries::default();
        let outer = rule("/p/CLAUDE.md", "tabs");
        assert_eq!(d.take_new(s("s"), vec![outer.clone()]).len(), 1);
        let inner = SessionIn { project: Path::new("/p/inner"), id: "s" };
        assert!(!d.has(inner, &outer));
        assert_eq!(d.take_new(inner, vec![outer]).len(), 1);
    }

    #[test]
    fn the_host_follows_the_request_then_the_setting_then_the_agent() {
        let auto = Config::default();
        assert_eq!(host_for("", &auto, "claude-code 1.0").unwrap(), Some(Host::ClaudeCode));
        assert_eq!(host_for("", &auto, "lctx").unwrap(), Some(Host::Codex), "AGENTS.md by default");
        assert_eq!(host_for("cursor", &auto, "claude-code").unwrap(), Some(Host::Cursor));
        assert_eq!(host_for("none", &auto, "claude-code").unwrap(), None);
        let copilot = Config { rules_host: "copilot".into(), ..Config::default() };
        assert_eq!(host_for("", &copilot, "claude-code").unwrap(), Some(Host::Copilot));
        let off = Config { rules_host: "none".into(), ..Config::default() };
        assert_eq!(host_for("", &off, "claude-code").unwrap(), None);
        assert!(host_for("vim", &auto, "").unwrap_err().message.contains("valid: claude-code"));
    }
}
