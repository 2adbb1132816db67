//! The names an agent host goes by, read the same by the daemon (which delivers that host's
//! instruction files) and by a client checking `--host` before it asks.

/// Every name a host is known by, lowercase, with its canonical name (the first of each host).
const NAMES: [(&str, &str); 10] = [
    ("claude-code", "claude-code"),
    ("claude", "claude-code"),
    ("claude_code", "claude-code"),
    ("claudecode", "claude-code"),
    ("codex", "codex"),
    ("agents", "codex"),
    ("agents.md", "codex"),
    ("cursor", "cursor"),
    ("copilot", "copilot"),
    ("github-copilot", "copilot"),
];

/// The canonical names, in the order to show them.
pub const CANONICAL: [&str; 4] = ["claude-code", "codex", "cursor", "copilot"];

/// The canonical name of the host `name` names (any case, surrounding spaces ignored).
pub fn canonical(name: &str) -> Option<&'static str> {
    let name = name.trim().to_ascii_lowercase();
    NAMES.iter().find(|(alias, _)| *alias == name).map(|(_, canonical)| *canonical)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_as_its_host_and_canonical_names_read_as_themselves() {
        assert_eq!(canonical(" Claude "), Some("claude-code"));
        assert_eq!(canonical("AGENTS.md"), Some("codex"));
        assert_eq!(canonical("bogus"), None);
        for name in CANONICAL {
            assert_eq!(canonical(name), Some(name));
        }
        assert!(NAMES.iter().all(|(_, canonical)| CANONICAL.contains(canonical)));
    }
}
