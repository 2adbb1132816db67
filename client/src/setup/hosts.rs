//! Where each host keeps its user-level config on Linux and macOS, and
//! whether a host looks installed. Everything is computed from an [`Env`]
//! snapshot rather than the live environment, so both platforms' paths can
//! be tested on either.

use std::path::{Path, PathBuf};

/// The parts of the environment that decide where hosts' files are.
#[derive(Debug)]
pub struct Env {
    pub home: PathBuf,
    /// `$XDG_CONFIG_HOME` when set to an absolute path (the XDG spec ignores relative ones).
    pub xdg_config_home: Option<PathBuf>,
    /// `$CODEX_HOME`: Codex's whole state directory.
    pub codex_home: Option<PathBuf>,
    /// `$CLAUDE_CONFIG_DIR`: Claude Code's whole config directory.
    pub claude_config_dir: Option<PathBuf>,
    /// The directories of `$PATH`.
    pub path: Vec<PathBuf>,
    pub macos: bool,
}

impl Env {
    pub fn from_process() -> Result<Env, String> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        Ok(Env {
            home: var("HOME").ok_or("HOME is not set")?,
            xdg_config_home: var("XDG_CONFIG_HOME").filter(|p| p.is_absolute()),
            codex_home: var("CODEX_HOME"),
            claude_config_dir: var("CLAUDE_CONFIG_DIR"),
            path: std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default(),
            macos: cfg!(target_os = "macos"),
        })
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    fn xdg_config(&self) -> PathBuf {
        self.xdg_config_home.clone().unwrap_or_else(|| self.home.join(".config"))
    }

    /// Electron's `app.getPath('appData')`, where Electron apps (Claude
    /// Desktop, VS Code) keep their settings: `~/Library/Application Support`
    /// on macOS, the XDG config directory elsewhere.
    fn app_data(&self) -> PathBuf {
        if self.macos { self.home.join("Library/Application Support") } else { self.xdg_config() }
    }
}

/// Where a host's config lives.
#[derive(Debug, PartialEq, Eq)]
pub struct Place {
    /// The file lctx edits.
    pub file: PathBuf,
    /// A directory that exists once the host has run on this machine.
    pub marker: PathBuf,
}

/// Claude Code docs (MCP, "scopes"): user-scope servers are the top-level
/// `mcpServers` of `~/.claude.json`. `CLAUDE_CONFIG_DIR` moves the whole
/// config, `.claude.json` included, into that directory.
pub fn claude_code(env: &Env) -> Place {
    match &env.claude_config_dir {
        Some(dir) => Place { file: dir.join(".claude.json"), marker: dir.clone() },
        None => Place { file: env.home.join(".claude.json"), marker: env.home.join(".claude") },
    }
}

/// Claude Desktop / MCP quickstart docs: `claude_desktop_config.json`,
/// `mcpServers`, in `~/Library/Application Support/Claude` on macOS; Linux
/// builds use the Electron equivalent, `~/.config/Claude`.
pub fn claude_desktop(env: &Env) -> Place {
    in_dir(env.app_data().join("Claude"), "claude_desktop_config.json")
}

/// Cursor MCP docs: global servers in `~/.cursor/mcp.json`, `mcpServers`.
pub fn cursor(env: &Env) -> Place {
    in_dir(env.home.join(".cursor"), "mcp.json")
}

/// VS Code MCP configuration reference: the user profile's `mcp.json`
/// (`servers`, JSONC), i.e. `<appData>/Code/User/mcp.json`. Only the
/// default profile of stable VS Code is handled.
pub fn vscode(env: &Env) -> Place {
    let dir = env.app_data().join("Code");
    Place { file: dir.join("User/mcp.json"), marker: dir }
}

/// Codex docs (MCP, environment variables): `$CODEX_HOME/config.toml`,
/// `CODEX_HOME` defaulting to `~/.codex`; servers are `[mcp_servers.NAME]`.
pub fn codex(env: &Env) -> Place {
    in_dir(env.codex_home.clone().unwrap_or_else(|| env.home.join(".codex")), "config.toml")
}

/// Windsurf Cascade MCP docs: `~/.codeium/windsurf/mcp_config.json`,
/// `mcpServers`, on every platform.
pub fn windsurf(env: &Env) -> Place {
    in_dir(env.home.join(".codeium/windsurf"), "mcp_config.json")
}

/// Zed docs ("Configuring Zed"): `~/.config/zed/settings.json`, or
/// `$XDG_CONFIG_HOME/zed/settings.json` on Linux; JSONC; MCP servers under
/// `context_servers` (Zed MCP docs).
pub fn zed(env: &Env) -> Place {
    let config = if env.macos { env.home.join(".config") } else { env.xdg_config() };
    in_dir(config.join("zed"), "settings.json")
}

/// Gemini CLI configuration docs: the user settings file is
/// `~/.gemini/settings.json`; MCP servers under `mcpServers` (Gemini CLI MCP
/// server docs). It is read with comments stripped.
pub fn gemini(env: &Env) -> Place {
    in_dir(env.home.join(".gemini"), "settings.json")
}

fn in_dir(dir: PathBuf, file: &str) -> Place {
    Place { file: dir.join(file), marker: dir }
}

/// A host looks installed when it has left its config behind or one of its
/// executables is on PATH.
pub fn looks_installed(place: &Place, binaries: &[&str], env: &Env) -> bool {
    place.marker.is_dir()
        || place.file.is_file()
        || env.path.iter().any(|dir| binaries.iter().any(|b| is_executable(&dir.join(b))))
}

pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(macos: bool) -> Env {
        Env {
            home: "/home/u".into(),
            xdg_config_home: None,
            codex_home: None,
            claude_config_dir: None,
            path: Vec::new(),
            macos,
        }
    }

    fn file(locate: fn(&Env) -> Place, env: &Env) -> String {
        locate(env).file.display().to_string()
    }

    #[test]
    fn linux_paths() {
        let e = env(false);
        assert_eq!(file(claude_code, &e), "/home/u/.claude.json");
        assert_eq!(file(claude_desktop, &e), "/home/u/.config/Claude/claude_desktop_config.json");
        assert_eq!(file(cursor, &e), "/home/u/.cursor/mcp.json");
        assert_eq!(file(vscode, &e), "/home/u/.config/Code/User/mcp.json");
        assert_eq!(file(codex, &e), "/home/u/.codex/config.toml");
        assert_eq!(file(windsurf, &e), "/home/u/.codeium/windsurf/mcp_config.json");
        assert_eq!(file(zed, &e), "/home/u/.config/zed/settings.json");
        assert_eq!(file(gemini, &e), "/home/u/.gemini/settings.json");
    }

    #[test]
    fn macos_paths() {
        let e = env(true);
        let support = "/home/u/Library/Application Support";
        assert_eq!(file(claude_desktop, &e), format!("{support}/Claude/claude_desktop_config.json"));
        assert_eq!(file(vscode, &e), format!("{support}/Code/User/mcp.json"));
        assert_eq!(file(zed, &e), "/home/u/.config/zed/settings.json");
        assert_eq!(file(claude_code, &e), "/home/u/.claude.json");
    }

    #[test]
    fn xdg_and_host_variables_move_files() {
        let e = Env {
            xdg_config_home: Some("/x".into()),
            codex_home: Some("/c".into()),
            claude_config_dir: Some("/cc".into()),
            ..env(false)
        };
        assert_eq!(file(claude_desktop, &e), "/x/Claude/claude_desktop_config.json");
        assert_eq!(file(vscode, &e), "/x/Code/User/mcp.json");
        assert_eq!(file(zed, &e), "/x/zed/settings.json");
        assert_eq!(file(codex, &e), "/c/config.toml");
        assert_eq!(claude_code(&e), Place { file: "/cc/.claude.json".into(), marker: "/cc".into() });
        // macOS apps do not follow XDG.
        let mac = Env { macos: true, ..e };
        assert_eq!(file(zed, &mac), "/home/u/.config/zed/settings.json");
    }

    #[test]
    fn installed_means_config_dir_or_executable_on_path() {
        let dir = tempfile::tempdir().unwrap();
        let e = Env { home: dir.path().into(), path: vec![dir.path().join("bin")], ..env(false) };
        let place = cursor(&e);
        assert!(!looks_installed(&place, &["cursor"], &e));
        std::fs::create_dir_all(dir.path().join("bin")).unwrap();
        let exe = dir.path().join("bin/cursor");
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        assert!(!looks_installed(&place, &["cursor"], &e), "not executable");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(looks_installed(&place, &["cursor"], &e));
        std::fs::create_dir_all(&place.marker).unwrap();
        assert!(looks_installed(&place, &[], &e));
    }
}
