//! Which tools this connection advertises: a profile (minimal, standard,
//! all) and a list of disabled tools.
//!
//! A host loads every advertised tool's schema into the model's context on
//! every turn, so the profile is a token budget. Tools outside the profile
//! still answer when called by name; disabled tools do not.
//!
//! Read from `config.toml` (`mcp_tools_profile`, `mcp_disabled_tools`) with
//! toml_edit, so the shim needs no daemon code; `LEAN_CTX_MCP_PROFILE` and
//! `LEAN_CTX_MCP_DISABLED` (comma-separated) override the file.

use std::path::Path;

use toml_edit::DocumentMut;

const PROFILE_KEY: &str = "mcp_tools_profile";
const DISABLED_KEY: &str = "mcp_disabled_tools";
const PROFILE_ENV: &str = "LEAN_CTX_MCP_PROFILE";
const DISABLED_ENV: &str = "LEAN_CTX_MCP_DISABLED";

/// Ordered: each profile advertises every tool of the smaller ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Profile {
    Minimal,
    Standard,
    All,
}

impl Profile {
    pub const DEFAULT: Profile = Profile::Standard;
    pub const EVERY: [Profile; 3] = [Profile::Minimal, Profile::Standard, Profile::All];

    pub fn name(self) -> &'static str {
        match self {
            Profile::Minimal => "minimal",
            Profile::Standard => "standard",
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
    /// The file's settings under the environment's overrides. Problems are
    /// logged and fall back to the defaults: a broken config must not cost
    /// the agent its tools.
    pub fn load(config_file: &Path) -> Selection {
        let mut selection = match std::fs::read_to_string(config_file) {
            Ok(text) => Selection::from_toml(&text).unwrap_or_else(|e| {
                tracing::warn!("{}: {e}; using the default tool profile", config_file.display());
                Selection::default()
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Selection::default(),
            Err(e) => {
                tracing::warn!("cannot read {}: {e}; using the default tool profile", config_file.display());
                Selection::default()
            }
        };
        if let Ok(name) = std::env::var(PROFILE_ENV) {
            match Profile::parse(&name) {
                Some(profile) => selection.profile = profile,
                None => tracing::warn!("{PROFILE_ENV}={name:?} is not minimal, standard or all; ignored"),
            }
        }
        if let Ok(list) = std::env::var(DISABLED_ENV) {
            selection.disabled = list.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect();
        }
        selection
    }

    fn from_toml(text: &str) -> Result<Selection, String> {
        let doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| e.message().to_string())?;
        let mut selection = Selection::default();
        if let Some(item) = doc.get(PROFILE_KEY) {
            let name = item.as_str().ok_or_else(|| format!("{PROFILE_KEY} must be a string"))?;
            selection.profile = Profile::parse(name)
                .ok_or_else(|| format!("{PROFILE_KEY} = {name:?} is not minimal, standard or all"))?;
        }
        if let Some(item) = doc.get(DISABLED_KEY) {
            let array = item.as_array().ok_or_else(|| format!("{DISABLED_KEY} must be an array of tool names"))?;
            selection.disabled = array
                .iter()
                .map(|v| v.as_str().map(String::from).ok_or_else(|| format!("{DISABLED_KEY} holds a non-string")))
                .collect::<Result<_, _>>()?;
        }
        Ok(selection)
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
    fn reads_both_keys_and_keeps_defaults_otherwise() {
        let s = Selection::from_toml(
            "idle_timeout_secs = 5\nmcp_tools_profile = \"all\"\nmcp_disabled_tools = [\"ctx_gain\"]\n",
        )
        .unwrap();
        assert_eq!(s, Selection { profile: Profile::All, disabled: vec!["ctx_gain".into()] });
        assert_eq!(Selection::from_toml("idle_timeout_secs = 5\n").unwrap(), Selection::default());
    }

    #[test]
    fn wrong_values_are_explained() {
        let e = Selection::from_toml("mcp_tools_profile = \"lean\"\n").unwrap_err();
        assert!(e.contains("minimal, standard or all"), "{e}");
        let e = Selection::from_toml("mcp_disabled_tools = \"ctx_gain\"\n").unwrap_err();
        assert!(e.contains("array"), "{e}");
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
