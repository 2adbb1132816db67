//! Where each host keeps its user-level config on Linux and macOS, and
//! whether a host looks installed. Everything is computed from an [`Env`]
//! snapshot rather than the live environment, so both platforms' paths can
//! be tested on either.

use std::path::{Path, PathBuf};

use crate::options::is_executable;

/// The parts of the environment that decide where hosts' files are.
#[derive(Debug)]
pub struct Env {
    pub home: PathBuf,
    /// `$XDG_CONFIG_HOME` when set to an absolute path (the XDG spec ignores relative ones).
    pub xdg_config_home: Option<PathBuf>,
    /// `$XDG_DATA_HOME`, likewise.
    pub xdg_data_home: Option<PathBuf>,
    /// `$CODEX_HOME`: Codex's whole state directory.
    pub codex_home: Option<PathBuf>,
    /// `$CLAUDE_CONFIG_DIR`: Claude Code's whole config directory.
    pub claude_config_dir: Option<PathBuf>,
    /// `$GOOSE_PATH_ROOT` when absolute (Goose ignores a relative one): all of Goose's directories.
    pub goose_path_root: Option<PathBuf>,
    /// The directories of `$PATH`.
    pub path: Vec<PathBuf>,
    /// The working directory, from which `--scope project` finds the project
    /// root, or why it cannot be read (which matters to that scope only).
    pub cwd: Result<PathBuf, String>,
    pub macos: bool,
}

impl Env {
    /// A Linux user's environment with `home` and `cwd` and none of the variables that move a
    /// host's files: what tests and the fuzz harness start from.
    pub fn plain(home: impl Into<PathBuf>, cwd: impl Into<PathBuf>) -> Env {
        Env {
            home: home.into(),
            xdg_config_home: None,
            xdg_data_home: None,
            codex_home: None,
            claude_config_dir: None,
            goose_path_root: None,
            path: Vec::new(),
            cwd: Ok(cwd.into()),
            macos: false,
        }
    }

    pub fn from_process() -> Result<Env, String> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        Ok(Env {
            home: var("HOME").ok_or("HOME is not set")?,
            xdg_config_home: var("XDG_CONFIG_HOME").filter(|p| p.is_absolute()),
            xdg_data_home: var("XDG_DATA_HOME").filter(|p| p.is_absolute()),
            codex_home: var("CODEX_HOME"),
            claude_config_dir: var("CLAUDE_CONFIG_DIR"),
            goose_path_root: var("GOOSE_PATH_ROOT").filter(|p| p.is_absolute()),
            path: std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default(),
            cwd: std::env::current_dir().map_err(|e| format!("cannot read the working directory: {e}")),
            macos: cfg!(target_os = "macos"),
        })
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    pub fn xdg_config(&self) -> PathBuf {
        self.xdg_config_home.clone().unwrap_or_else(|| self.home.join(".config"))
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    pub fn xdg_data(&self) -> PathBuf {
        self.xdg_data_home.clone().unwrap_or_else(|| self.home.join(".local/share"))
    }

    /// The nearest ancestor of the working directory holding `.git` (a
    /// directory, or a file in worktrees and submodules), else the working
    /// directory itself: where project-scope files go.
    pub fn project_root(&self) -> Result<PathBuf, String> {
        let cwd = self.cwd.as_ref().map_err(String::clone)?;
        Ok(cwd.ancestors().find(|dir| dir.join(".git").exists()).unwrap_or(cwd).to_path_buf())
    }

    /// `~/.config` on macOS, the XDG config directory elsewhere: where
    /// command-line tools that use `~/.config` on every platform keep settings.
    fn dot_config(&self) -> PathBuf {
        if self.macos { self.home.join(".config") } else { self.xdg_config() }
    }

    /// Electron's `app.getPath('appData')`, where Electron apps (Claude
    /// Desktop, VS Code) keep their settings: `~/Library/Application Support`
    /// on macOS, the XDG config directory elsewhere.
    fn app_data(&self) -> PathBuf {
        if self.macos { self.home.join("Library/Application Support") } else { self.xdg_config() }
    }
}

/// Where a host's user-level config lives.
#[derive(Debug, PartialEq, Eq)]
pub struct Place {
    /// The file lctx edits.
    pub file: PathBuf,
    /// A directory the host fills with files of its own once it has run on
    /// this machine. lctx may create it (to hold `file`), so only entries
    /// other than `file`'s count as evidence: see [`looks_installed`].
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
    in_dir(env.dot_config().join("zed"), "settings.json")
}

/// Gemini CLI configuration docs: the user settings file is
/// `~/.gemini/settings.json`; MCP servers under `mcpServers` (Gemini CLI MCP
/// server docs). It is read with comments stripped.
pub fn gemini(env: &Env) -> Place {
    in_dir(env.home.join(".gemini"), "settings.json")
}

/// OpenCode config docs: the global config is `~/.config/opencode/opencode.json`
/// (`opencode.jsonc` is read too, so an existing one is edited instead);
/// servers under `mcp`.
pub fn opencode(env: &Env) -> Place {
    let dir = env.dot_config().join("opencode");
    let jsonc = dir.join("opencode.jsonc");
    let file = if jsonc.is_file() && !dir.join("opencode.json").exists() { jsonc } else { dir.join("opencode.json") };
    Place { file, marker: dir }
}

/// Cline CLI configuration docs: `~/.cline/data/settings/cline_mcp_settings.json`,
/// `mcpServers`. (The VS Code extension's copy is opened from its MCP panel;
/// its location is not documented.)
pub fn cline(env: &Env) -> Place {
    let dir = env.home.join(".cline");
    Place { file: dir.join("data/settings/cline_mcp_settings.json"), marker: dir }
}

/// Roo Code MCP docs: the global `mcp_settings.json`, kept in the extension's
/// VS Code settings storage (`globalStorage/<extension id>/settings`),
/// `mcpServers`. The storage directory exists once the extension has run.
pub fn roo_code(env: &Env) -> Place {
    let dir = env.app_data().join("Code/User/globalStorage/rooveterinaryinc.roo-cline");
    Place { file: dir.join("settings/mcp_settings.json"), marker: dir }
}

/// Kiro MCP configuration docs: user servers in `~/.kiro/settings/mcp.json`, `mcpServers`.
pub fn kiro(env: &Env) -> Place {
    let dir = env.home.join(".kiro");
    Place { file: dir.join("settings/mcp.json"), marker: dir }
}

/// Continue MCP docs: user servers are a YAML list in `~/.continue/config.yaml`,
/// which lctx does not edit (the host entry offers project scope only); the
/// directory still tells whether Continue has run here.
pub fn continue_dev(env: &Env) -> Place {
    in_dir(env.home.join(".continue"), "config.yaml")
}

/// Amp manual: user settings in `~/.config/amp/settings.json`; servers under
/// the literal key `amp.mcpServers`.
pub fn amp(env: &Env) -> Place {
    in_dir(env.dot_config().join("amp"), "settings.json")
}

/// Goose config-files guide: `~/.config/goose/config.yaml` on Linux and
/// macOS. Goose finds it with etcetera's `choose_app_strategy`, which is XDG
/// on both (so `$XDG_CONFIG_HOME` moves it on macOS too), and
/// `$GOOSE_PATH_ROOT/config` replaces that directory when set (Goose's
/// `config::paths`).
pub fn goose(env: &Env) -> Place {
    let dir = match &env.goose_path_root {
        Some(root) => root.join("config"),
        None => env.xdg_config().join("goose"),
    };
    in_dir(dir, "config.yaml")
}

/// JetBrains IDEs keep their settings in `<appData>/JetBrains/<IDE><version>`;
/// AI Assistant's MCP servers are among them, in no documented file, so
/// lctx writes nothing here (the host is `manual`) and the directory only
/// shows that an IDE has run.
pub fn jetbrains(env: &Env) -> Place {
    let dir = env.app_data().join("JetBrains");
    Place { file: dir.clone(), marker: dir }
}

fn in_dir(dir: PathBuf, file: &str) -> Place {
    Place { file: dir.join(file), marker: dir }
}

/// A host looks installed when one of its executables is on PATH, or when its
/// marker directory holds something lctx did not put there. The marker alone
/// is no evidence: `lctx setup --force` creates it to hold the config file.
/// `lctx_writes_file`: whether lctx may have created `place.file`; when not
/// (Continue's YAML), that file is as good evidence as any other.
pub fn looks_installed(place: &Place, lctx_writes_file: bool, binaries: &[&str], env: &Env) -> bool {
    let own = lctx_writes_file.then_some(place.file.as_path());
    holds_foreign_entries(&place.marker, own) || on_path(binaries, env).is_some()
}

/// The first of `binaries` found executable on PATH.
pub fn on_path(binaries: &[&str], env: &Env) -> Option<PathBuf> {
    env.path.iter().flat_map(|dir| binaries.iter().map(move |b| dir.join(b))).find(|p| is_executable(p))
}

/// Whether `marker`, or a directory between it and `own` (the file lctx
/// writes, when it lies below `marker`), holds an entry that is neither on
/// the way to `own` nor one of lctx's own files beside it (`own` itself, its
/// `.bak`, a leftover temporary file).
fn holds_foreign_entries(marker: &Path, own: Option<&Path>) -> bool {
    let entries = |dir: &Path| std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.file_name());
    let Some(rest) = own.and_then(|own| own.strip_prefix(marker).ok()) else { return entries(marker).next().is_some() };
    let name = rest.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let ours = |entry: &str| entry.starts_with(&name) || entry.starts_with(&format!(".{name}."));
    let steps: Vec<_> = rest.components().map(|c| c.as_os_str().to_owned()).collect();
    let mut dir = marker.to_path_buf();
    for (i, step) in steps.iter().enumerate() {
        let last = i + 1 == steps.len();
        if entries(&dir).any(|entry| if last { !ours(&entry.to_string_lossy()) } else { &entry != step }) {
            return true;
        }
        dir.push(step);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(macos: bool) -> Env {
        Env { macos, ..Env::plain("/home/u", "/home/u/src/app/sub") }
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
        assert_eq!(file(opencode, &e), "/home/u/.config/opencode/opencode.json");
        assert_eq!(file(cline, &e), "/home/u/.cline/data/settings/cline_mcp_settings.json");
        assert_eq!(
            file(roo_code, &e),
            "/home/u/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"
        );
        assert_eq!(file(kiro, &e), "/home/u/.kiro/settings/mcp.json");
        assert_eq!(file(amp, &e), "/home/u/.config/amp/settings.json");
        assert_eq!(file(goose, &e), "/home/u/.config/goose/config.yaml");
        assert_eq!(jetbrains(&e).marker, Path::new("/home/u/.config/JetBrains"));
    }

    #[test]
    fn macos_paths() {
        let e = env(true);
        let support = "/home/u/Library/Application Support";
        assert_eq!(file(claude_desktop, &e), format!("{support}/Claude/claude_desktop_config.json"));
        assert_eq!(file(vscode, &e), format!("{support}/Code/User/mcp.json"));
        assert_eq!(file(zed, &e), "/home/u/.config/zed/settings.json");
        assert_eq!(file(claude_code, &e), "/home/u/.claude.json");
        assert_eq!(file(goose, &e), "/home/u/.config/goose/config.yaml");
        assert_eq!(jetbrains(&e).marker, Path::new(&format!("{support}/JetBrains")));
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
        assert_eq!(file(goose, &e), "/x/goose/config.yaml");
        // macOS apps do not follow XDG; Goose does, everywhere.
        let mac = Env { macos: true, ..e };
        assert_eq!(file(zed, &mac), "/home/u/.config/zed/settings.json");
        assert_eq!(file(goose, &mac), "/x/goose/config.yaml");
        let rooted = Env { goose_path_root: Some("/g".into()), ..mac };
        assert_eq!(file(goose, &rooted), "/g/config/config.yaml");
    }

    #[test]
    fn installed_means_an_executable_on_path() {
        let dir = tempfile::tempdir().unwrap();
        let e = Env { home: dir.path().into(), path: vec![dir.path().join("bin")], ..env(false) };
        let place = cursor(&e);
        assert!(!looks_installed(&place, true, &["cursor"], &e));
        std::fs::create_dir_all(dir.path().join("bin")).unwrap();
        let exe = dir.path().join("bin/cursor");
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        assert!(!looks_installed(&place, true, &["cursor"], &e), "not executable");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(looks_installed(&place, true, &["cursor"], &e));
    }

    #[test]
    fn installed_means_a_marker_holding_more_than_what_lctx_writes() {
        let dir = tempfile::tempdir().unwrap();
        let e = Env { home: dir.path().into(), ..env(false) };
        // What `setup --force` leaves behind is no evidence…
        let vscode = vscode(&e);
        std::fs::create_dir_all(vscode.file.parent().unwrap()).unwrap();
        for own in ["mcp.json", "mcp.json.bak", ".mcp.json.lctx-1-0.tmp"] {
            std::fs::write(vscode.file.with_file_name(own), "{}").unwrap();
        }
        assert!(!looks_installed(&vscode, true, &[], &e));
        // …anything the host keeps beside it, at any level on the way, is.
        std::fs::write(vscode.file.with_file_name("settings.json"), "{}").unwrap();
        assert!(looks_installed(&vscode, true, &[], &e));
        std::fs::remove_file(vscode.file.with_file_name("settings.json")).unwrap();
        std::fs::create_dir_all(vscode.marker.join("Cache")).unwrap();
        assert!(looks_installed(&vscode, true, &[], &e));

        // A file outside its marker (Claude Code's ~/.claude.json): any entry of the marker counts.
        let claude = claude_code(&e);
        std::fs::write(&claude.file, "{}").unwrap();
        std::fs::create_dir_all(&claude.marker).unwrap();
        assert!(!looks_installed(&claude, true, &[], &e), "empty ~/.claude");
        std::fs::write(claude.marker.join("settings.json"), "{}").unwrap();
        assert!(looks_installed(&claude, true, &[], &e));
    }

    #[test]
    fn the_project_root_is_the_nearest_ancestor_with_git() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("repo/a/b");
        std::fs::create_dir_all(&sub).unwrap();
        let e = Env { cwd: Ok(sub.clone()), ..env(false) };
        assert_eq!(e.project_root(), Ok(sub), "no repository: the working directory");
        std::fs::create_dir_all(dir.path().join("repo/.git")).unwrap();
        assert_eq!(e.project_root(), Ok(dir.path().join("repo")));
        std::fs::write(dir.path().join("repo/a/.git"), "gitdir: ../.git/worktrees/a\n").unwrap();
        assert_eq!(e.project_root(), Ok(dir.path().join("repo/a")), "a worktree's .git file counts");
    }

    #[test]
    fn opencode_edits_an_existing_jsonc_config() {
        let dir = tempfile::tempdir().unwrap();
        let e = Env { home: dir.path().into(), ..env(false) };
        let config = dir.path().join(".config/opencode");
        assert_eq!(opencode(&e).file, config.join("opencode.json"));
        std::fs::create_dir_all(&config).unwrap();
        std::fs::write(config.join("opencode.jsonc"), "{}").unwrap();
        assert_eq!(opencode(&e).file, config.join("opencode.jsonc"));
        std::fs::write(config.join("opencode.json"), "{}").unwrap();
        assert_eq!(opencode(&e).file, config.join("opencode.json"), "with both, the .json stays the one edited");
    }
}
