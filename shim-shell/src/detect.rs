//! Which AI agent, if any, runs this shell.
//!
//! Agents mark the environment of the commands they run. The hook checks the
//! same variables inside the shell (it is generated from [`AGENT_VARS`]) and
//! `status` and `prompt` check them here, so the two never disagree.

use std::ffi::OsString;

/// An environment variable that marks an agent: set to any non-empty value
/// means that agent runs this shell.
#[derive(Debug, PartialEq, Eq)]
pub struct AgentVar {
    pub name: &'static str,
    /// The agent's name, as `status` shows it beside `name` and the daemon
    /// records it; `LEAN_CTX_AGENT` names no particular one.
    pub agent: &'static str,
}

/// Markers checked, first match wins. Only variables an agent sets for the
/// commands it runs belong here, not its configuration variables (a user may
/// export `AIDER_MODEL` in every terminal). Agents without a marker (Aider,
/// for one) are covered by `LEAN_CTX_AGENT=1` in their environment.
pub const AGENT_VARS: &[AgentVar] = &[
    AgentVar { name: "LEAN_CTX_AGENT", agent: "agent" },
    AgentVar { name: "CLAUDECODE", agent: "claude-code" },
    AgentVar { name: "CODEX_SANDBOX", agent: "codex" },
    AgentVar { name: "CODEX_SANDBOX_NETWORK_DISABLED", agent: "codex" },
    AgentVar { name: "CODEX_THREAD_ID", agent: "codex" },
    AgentVar { name: "GEMINI_CLI", agent: "gemini-cli" },
    AgentVar { name: "CURSOR_AGENT", agent: "cursor-agent" },
    AgentVar { name: "OPENCODE", agent: "opencode" },
    AgentVar { name: "GOOSE_TERMINAL", agent: "goose" },
    AgentVar { name: "CLINE_ACTIVE", agent: "cline" },
];

/// The first marker set in `env` (a lookup such as `std::env::var_os`).
pub fn detect(env: impl Fn(&str) -> Option<OsString>) -> Option<&'static AgentVar> {
    AGENT_VARS.iter().find(|var| env(var.name).is_some_and(|value| !value.is_empty()))
}

/// [`detect`] on this process's environment.
pub fn from_env() -> Option<&'static AgentVar> {
    detect(|name| std::env::var_os(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |name| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| OsString::from(v))
    }

    #[test]
    fn each_marker_names_its_agent() {
        assert_eq!(detect(env_of(&[("CLAUDECODE", "1")])).map(|v| v.agent), Some("claude-code"));
        assert_eq!(detect(env_of(&[("CODEX_SANDBOX", "seatbelt")])).map(|v| v.agent), Some("codex"));
        assert_eq!(detect(env_of(&[("GEMINI_CLI", "1")])).map(|v| v.name), Some("GEMINI_CLI"));
        assert_eq!(detect(env_of(&[("LEAN_CTX_AGENT", "1")])).map(|v| v.name), Some("LEAN_CTX_AGENT"));
    }

    #[test]
    fn empty_or_unrelated_variables_are_no_agent() {
        assert_eq!(detect(env_of(&[])), None);
        assert_eq!(detect(env_of(&[("CLAUDECODE", "")])), None);
        assert_eq!(detect(env_of(&[("AIDER_MODEL", "gpt"), ("CODEX_HOME", "/x")])), None);
    }

    #[test]
    fn the_explicit_marker_wins() {
        let found = detect(env_of(&[("CLAUDECODE", "1"), ("LEAN_CTX_AGENT", "1")]));
        assert_eq!(found.map(|v| v.name), Some("LEAN_CTX_AGENT"));
    }
}
