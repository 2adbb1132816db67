//! Where lean-ctxd keeps its files.
//!
//! `LEAN_CTX_HOME=DIR` puts every directory under DIR (config, data, cache,
//! state, run), for tests and for users who want one place. Otherwise the
//! platform's conventions apply (XDG on Linux), and the runtime directory is
//! `$XDG_RUNTIME_DIR/lean-ctxd`, else `$TMPDIR/lean-ctxd-$UID`.

use std::path::{Path, PathBuf};

/// File names of the OS-level locks. LOCK_ORDERING.md lists each one; a test
/// keeps that list complete.
pub const OS_LOCK_FILES: &[&str] = &[DAEMON_LOCK, STARTUP_LOCK, CONFIG_LOCK];
/// Held exclusively by the running daemon for its whole life.
pub const DAEMON_LOCK: &str = "lean-ctxd.lock";
/// Serializes clients that start or restart a daemon.
pub const STARTUP_LOCK: &str = "startup.lock";
/// Serializes writers of config.toml.
pub const CONFIG_LOCK: &str = "config.lock";

const SOCKET_NAME: &str = "lean-ctxd.sock";

/// The directories of one user's installation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dirs {
    pub config: PathBuf,
    pub data: PathBuf,
    pub cache: PathBuf,
    pub state: PathBuf,
    pub runtime: PathBuf,
}

impl Dirs {
    /// Resolves the directories from the environment. Creates nothing.
    pub fn from_env() -> Result<Dirs, String> {
        if let Some(home) = std::env::var_os("LEAN_CTX_HOME").filter(|h| !h.is_empty()) {
            let home = absolute(Path::new(&home))?;
            return Ok(Dirs::under(&home));
        }
        let project = directories::ProjectDirs::from("", "", "lean-ctxd").ok_or_else(|| {
            "cannot find your home directory; set HOME, or set LEAN_CTX_HOME to a directory \
             lean-ctxd may use"
                .to_string()
        })?;
        let state =
            project.state_dir().map(Path::to_path_buf).unwrap_or_else(|| project.data_local_dir().join("state"));
        Ok(Dirs {
            config: project.config_dir().to_path_buf(),
            data: project.data_dir().to_path_buf(),
            cache: project.cache_dir().to_path_buf(),
            state,
            runtime: default_runtime_dir(),
        })
    }

    /// Every directory under one root.
    pub fn under(home: &Path) -> Dirs {
        Dirs {
            config: home.join("config"),
            data: home.join("data"),
            cache: home.join("cache"),
            state: home.join("state"),
            runtime: home.join("run"),
        }
    }

    pub fn socket(&self) -> PathBuf {
        self.runtime.join(SOCKET_NAME)
    }

    pub fn daemon_lock(&self) -> PathBuf {
        self.runtime.join(DAEMON_LOCK)
    }

    pub fn startup_lock(&self) -> PathBuf {
        self.runtime.join(STARTUP_LOCK)
    }

    pub fn config_file(&self) -> PathBuf {
        self.config.join("config.toml")
    }

    pub fn config_lock(&self) -> PathBuf {
        self.config.join(CONFIG_LOCK)
    }

    /// Rolling tracing logs of the daemon.
    pub fn log_dir(&self) -> PathBuf {
        self.state.join("logs")
    }

    /// The daemon's stderr when a client started it: early start-up errors
    /// and panics land here before logging is set up.
    pub fn daemon_stderr_log(&self) -> PathBuf {
        self.state.join("lean-ctxd.stderr.log")
    }
}

/// `$XDG_RUNTIME_DIR/lean-ctxd` when that is an absolute path (the XDG spec has a relative one
/// ignored: a QA pass's `XDG_RUNTIME_DIR=rel` gave each project directory a daemon of its own,
/// its runtime dir inside the project), else one under the temporary directory.
fn default_runtime_dir() -> PathBuf {
    runtime_dir_from(std::env::var_os("XDG_RUNTIME_DIR"))
}

fn runtime_dir_from(xdg_runtime_dir: Option<std::ffi::OsString>) -> PathBuf {
    match xdg_runtime_dir.filter(|d| Path::new(d).is_absolute()) {
        Some(dir) => PathBuf::from(dir).join("lean-ctxd"),
        None => {
            // SAFETY: geteuid has no preconditions and cannot fail.
            let uid = unsafe { libc::geteuid() };
            std::env::temp_dir().join(format!("lean-ctxd-{uid}"))
        }
    }
}

fn absolute(path: &Path) -> Result<PathBuf, String> {
    std::path::absolute(path).map_err(|e| format!("LEAN_CTX_HOME={}: {e}", path.display()))
}

/// Unix socket paths are limited (108 bytes on Linux, 104 on macOS); a longer
/// one fails at bind with an obscure error, so say it plainly instead.
pub fn check_socket_path(path: &Path) -> Result<(), String> {
    const MAX: usize = 103;
    let len = path.as_os_str().len();
    if len > MAX {
        return Err(format!(
            "socket path {} is {len} bytes; Unix sockets allow at most {MAX}. \
             Use a shorter LEAN_CTX_HOME or pass --socket with a shorter path",
            path.display()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_puts_everything_under_one_root() {
        let d = Dirs::under(Path::new("/h"));
        assert_eq!(d.socket(), Path::new("/h/run/lean-ctxd.sock"));
        assert_eq!(d.config_file(), Path::new("/h/config/config.toml"));
        assert_eq!(d.daemon_lock(), Path::new("/h/run/lean-ctxd.lock"));
        assert!(d.log_dir().starts_with("/h/state"));
    }

    #[test]
    fn overlong_socket_path_is_explained() {
        let long = PathBuf::from(format!("/{}", "x".repeat(200)));
        let err = check_socket_path(&long).unwrap_err();
        assert!(err.contains("at most 103"), "{err}");
        assert!(check_socket_path(Path::new("/run/user/1/lean-ctxd/lean-ctxd.sock")).is_ok());
    }

    #[test]
    fn a_relative_or_empty_xdg_runtime_dir_is_ignored() {
        let fallback = runtime_dir_from(None);
        assert!(fallback.is_absolute() && fallback.starts_with(std::env::temp_dir()), "{}", fallback.display());
        assert_eq!(runtime_dir_from(Some("rel".into())), fallback);
        assert_eq!(runtime_dir_from(Some("".into())), fallback);
        assert_eq!(runtime_dir_from(Some("/run/user/7".into())), PathBuf::from("/run/user/7/lean-ctxd"));
    }
}
