//! Which tools this connection advertises: a profile (minimal, standard,
//! code, all) and a list of disabled tools.
//!
//! A host loads every advertised tool's schema into the model's context on
//! every turn, so the profile is a token budget. Tools outside the profile
//! still answer when called by name; disabled tools do not.
//!
//! Read from `config.toml` (`mcp_tools_profile`, `mcp_disabled_tools`) by
//! the daemon's own parser, so the file means the same to both;
//! `LEAN_CTX_MCP_PROFILE` and `LEAN_CTX_MCP_DISABLED` (comma-separated)
//! override it.

use std::path::Path;

use lean_ctx_common::config;

const PROFILE_ENV: &str = "LEAN_CTX_MCP_PROFILE";
const DISABLED_ENV: &str = "LEAN_CTX_MCP_DISABLED";

/// Ordered: each profile advertises every tool of the smaller ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Profile {
    Minimal,
    Standard,
    /// Standard, ctx_gain and the code-intelligence tools but ctx_impact (ctx_callgraph, ctx_repomap, ctx_graph),
    /// which the default's per-turn budget has no room for.
    Code,
    All,
}

impl Profile {
    pub const DEFAULT: Profile = Profile::Standard;
    pub const EVERY: [Profile; 4] = [Profile::Minimal, Profile::Standard, Profile::Code, Profile::All];

    pub fn name(self) -> &'static str {
        match self {
            Profile::Minimal => "minimal",
            Profile::Standard => "standard",
            Profile::Code => "code",
            Profile::All => "all",
        }
    }

    fn parse(name: &str) -> Option<Profile> {
        Profile::EVERY.into_iter().find(|p| p.name() == name.trim())
    }
}

/// The tools a connection advertises and refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    pub profile: Profile,
    pub disabled: Vec<String>,
}

impl Default for Selection {
    fn default() -> Self {
        Selection { profile: Profile::DEFAULT, disabled: Vec::new() }
    }
}

impl Selection {
    /// The file's settings under the environment's overrides. A broken file's problem is
    /// logged and its valid settings kept: a typo elsewhere must neither cost the agent its
    /// tools nor bring back a tool the user disabled.
    pub fn load(config_file: &Path) -> Selection {
        let (config, error) = config::load_or_salvage(config_file);
        if let Some(e) = error {
            tracing::warn!("{e}; using the file's other settings");
        }
        let mut selection = Selection::from_config(&config);
        if let Ok(name) = std::env::var(PROFILE_ENV) {
            match Profile::parse(&name) {
                Some(profile) => selection.profile = profile,
                None => tracing::warn!("{PROFILE_ENV}={name:?} is not minimal, standard, code or all; ignored"),
            }
        }
        if let Ok(list) = std::env::var(DISABLED_ENV) {
            selection.disabled = list.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect();
        }
        selection
    }

    /// The config checked the profile's name already.
    fn from_config(config: &config::Config) -> Selection {
        Selection {
            profile: Profile::parse(&config.mcp_tools_profile).unwrap_or(Profile::DEFAULT),
            disabled: config.mcp_disabled_tools.clone(),
        }
    }

    pub fn is_disabled(&self, tool: &str) -> bool {
        self.disabled.iter().any(|d| d == tool)
    }

    /// Whether `tool`, a member of `profile`, is advertised.
    pub fn lists(&self, tool: &str, profile: Profile) -> bool {
        profile <= self.profile && !self.is_disabled(tool)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_keys_and_falls_back_to_defaults_on_a_broken_file() {
        let dir = std::env::temp_dir().join(format!("lctx-mcp-profile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("config.toml");
        std::fs::write(
            &file,
            "idle_timeout_secs = 5\nmcp_tools_profile = \"all\"\nmcp_disabled_tools = [\"ctx_gain\"]\n",
        )
        .unwrap();
        assert_eq!(Selection::load(&file), Selection { profile: Profile::All, disabled: vec!["ctx_gain".into()] });
        std::fs::write(&file, "mcp_tools_profile = \"lean\"\n").unwrap();
        assert_eq!(Selection::load(&file), Selection::default());
        assert_eq!(Selection::load(&dir.join("absent.toml")), Selection::default());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn profiles_nest_and_disabled_tools_drop_out() {
        let s = Selection { profile: Profile::Standard, disabled: vec!["ctx_edit".into()] };
        assert!(s.lists("ctx_read", Profile::Minimal));
        assert!(s.lists("ctx_session", Profile::Standard));
        assert!(!s.lists("shell", Profile::All));
        assert!(!s.lists("ctx_edit", Profile::Standard));
    }
}
