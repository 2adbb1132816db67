//! How a client finds and talks to its daemon, read from the environment.

use std::path::{Path, PathBuf};
use std::time::Duration;

use lean_ctx_common::build_info;
use lean_ctx_common::paths::Dirs;
use lean_ctx_proto::v1::{ClientInfo, ClientKind, RequestContext};

#[derive(Clone, Debug)]
pub struct ClientOptions {
    pub dirs: Dirs,
    pub socket: PathBuf,
    /// `LEAN_CTX_NO_DAEMON=1`: never connect or start; use a fallback child.
    pub no_daemon: bool,
    /// The `lean-ctxd` this client starts; `None` when none can be found.
    pub daemon_bin: Option<PathBuf>,
    pub client: ClientInfo,
    pub session_id: String,
    /// The AI coding host whose instruction files apply (`--host`,
    /// `$LEAN_CTX_HOST`); empty: the daemon's `rules_host` setting.
    pub host: String,
    /// Connecting to a live socket is immediate; this only bounds a hung one.
    pub connect_timeout: Duration,
    /// How long a starting daemon may take to answer.
    pub start_timeout: Duration,
}

impl ClientOptions {
    pub fn from_env(kind: ClientKind, name: &str) -> Result<ClientOptions, String> {
        let dirs = Dirs::from_env()?;
        let socket =
            std::env::var_os("LEAN_CTX_SOCKET").filter(|s| !s.is_empty()).map_or_else(|| dirs.socket(), PathBuf::from);
        Ok(ClientOptions {
            socket,
            no_daemon: env_flag("LEAN_CTX_NO_DAEMON"),
            daemon_bin: find_daemon_bin(),
            client: ClientInfo { kind: kind as i32, name: name.to_string(), version: build_info::VERSION.to_string() },
            session_id: std::env::var("LEAN_CTX_SESSION").unwrap_or_default(),
            host: std::env::var("LEAN_CTX_HOST").unwrap_or_default(),
            connect_timeout: Duration::from_millis(500),
            start_timeout: Duration::from_secs(10),
            dirs,
        })
    }

    /// The context sent with every request.
    pub fn context(&self) -> RequestContext {
        RequestContext {
            cwd: std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_default(),
            project_root: None,
            session_id: self.session_id.clone(),
            client: Some(self.client.clone()),
            agent_id: String::new(),
            host: self.host.clone(),
        }
    }

    /// These options, with lean-ctxd looked for again when none was found:
    /// a long-lived client (lctx-mcp) registered before lean-ctxd was
    /// installed finds it at its next connect.
    pub fn with_daemon_bin_found_again(&self) -> ClientOptions {
        let mut again = self.clone();
        if again.daemon_bin.is_none() {
            again.daemon_bin = find_daemon_bin();
        }
        again
    }

    /// Why `daemon_bin` is `None`: where lean-ctxd was looked for.
    pub fn daemon_bin_not_found(&self) -> String {
        let name = &self.client.name;
        let beside = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(|dir| format!(" in {}", dir.display())))
            .unwrap_or_default();
        format!("no lean-ctxd found: it is not beside {name}{beside}, not on PATH, and LEAN_CTX_DAEMON_BIN is not set")
    }

    /// What makes lean-ctxd found.
    pub fn daemon_bin_fix(&self) -> String {
        format!(
            "install lean-ctxd (`cargo install --path daemon`, or the package that ships {}) or set LEAN_CTX_DAEMON_BIN to \
             its path",
            self.client.name
        )
    }

    /// The error of whatever needs lean-ctxd when `daemon_bin` is `None`: the two above.
    pub fn missing_daemon_bin(&self) -> String {
        format!("{}; {}", self.daemon_bin_not_found(), self.daemon_bin_fix())
    }

    /// Executable id of the daemon binary this client would start; empty
    /// when unknown (then only the version is compared).
    pub fn expected_executable_id(&self) -> String {
        self.daemon_bin.as_deref().and_then(|p| build_info::executable_id(p).ok()).unwrap_or_default()
    }
}

/// True for `1`, `true`, `yes` (any case).
pub fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| matches!(v.to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
}

/// `LEAN_CTX_DAEMON_BIN`, else `lean-ctxd` beside this executable (how both
/// are installed), else on PATH.
fn find_daemon_bin() -> Option<PathBuf> {
    if let Some(bin) = std::env::var_os("LEAN_CTX_DAEMON_BIN").filter(|b| !b.is_empty()) {
        return Some(PathBuf::from(bin));
    }
    let beside = std::env::current_exe().ok()?.parent()?.join("lean-ctxd");
    if is_executable(&beside) {
        return Some(beside);
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join("lean-ctxd")).find(|p| is_executable(p))
}

/// A regular file someone may execute: what a client can start.
pub(crate) fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The local UTC offset in seconds, so "today" in a gain report is the
/// user's day, not UTC's.
pub fn utc_offset_secs() -> i32 {
    // SAFETY: localtime_r only writes into the struct we pass.
    unsafe {
        let now = libc::time(std::ptr::null_mut());
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&now, &mut tm).is_null() { 0 } else { i32::try_from(tm.tm_gmtoff).unwrap_or(0) }
    }
}
