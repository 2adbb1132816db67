//! `lctx service install|uninstall`: a user service that keeps lean-ctxd
//! running (systemd on Linux, launchd on macOS). Under a service manager the
//! daemon runs in the foreground and never exits for idleness.

use std::path::{Path, PathBuf};

use clap::Subcommand;

use super::CmdResult;
use crate::options::ClientOptions;

#[derive(Subcommand, Debug)]
pub enum ServiceCmd {
    /// Write the service definition and print the command that enables it.
    Install {
        /// Print what would be written without writing it.
        #[arg(long)]
        dry_run: bool,
    },
    /// Remove the service definition.
    Uninstall {
        /// Print what would be removed without removing it.
        #[arg(long)]
        dry_run: bool,
    },
}

/// Where the definition goes and how it is switched on and off.
struct Service {
    file: PathBuf,
    contents: String,
    enable: String,
    disable: String,
}

const SYSTEMD_UNIT: &str = "lean-ctxd.service";
const LAUNCHD_LABEL: &str = "dev.lean-ctx.lean-ctxd";

fn home() -> Result<PathBuf, String> {
    std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from).ok_or_else(|| "HOME is not set".into())
}

/// Where `service install` writes the unit (systemd) or agent (launchd).
pub fn service_file() -> Result<PathBuf, String> {
    if cfg!(target_os = "macos") {
        return Ok(home()?.join("Library/LaunchAgents").join(format!("{LAUNCHD_LABEL}.plist")));
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .map_or_else(|| home().map(|h| h.join(".config")), Ok)?;
    Ok(config.join("systemd/user").join(SYSTEMD_UNIT))
}

fn service_for_platform(daemon: &Path) -> Result<Service, String> {
    let home_env = std::env::var_os("LEAN_CTX_HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    let file = service_file()?;
    if cfg!(target_os = "macos") {
        Ok(Service {
            contents: launchd_plist(daemon, home_env.as_deref()),
            enable: format!("launchctl bootstrap gui/$(id -u) {}", file.display()),
            disable: format!("launchctl bootout gui/$(id -u)/{LAUNCHD_LABEL}"),
            file,
        })
    } else {
        Ok(Service {
            file,
            contents: systemd_unit(daemon, home_env.as_deref()),
            enable: format!("systemctl --user daemon-reload && systemctl --user enable --now {SYSTEMD_UNIT}"),
            disable: format!("systemctl --user disable --now {SYSTEMD_UNIT}"),
        })
    }
}

fn systemd_unit(daemon: &Path, lean_ctx_home: Option<&Path>) -> String {
    let env = lean_ctx_home.map_or(String::new(), |h| format!("Environment=\"LEAN_CTX_HOME={}\"\n", h.display()));
    format!(
        "[Unit]\n\
         Description=lean-ctxd context gateway for AI coding agents\n\
         \n\
         [Service]\n\
         Type=simple\n\
         ExecStart=\"{}\" --foreground --idle-timeout 0\n\
         {env}\
         Restart=on-failure\n\
         RestartSec=2\n\
         \n\
         [Install]\n\
         WantedBy=default.target\n",
        daemon.display()
    )
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn launchd_plist(daemon: &Path, lean_ctx_home: Option<&Path>) -> String {
    let env = lean_ctx_home.map_or(String::new(), |h| {
        format!(
            "  <key>EnvironmentVariables</key>\n  <dict>\n    <key>LEAN_CTX_HOME</key>\n    <string>{}</string>\n  </dict>\n",
            xml_escape(&h.display().to_string())
        )
    });
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n\
         <plist version=\"1.0\">\n<dict>\n\
         \x20 <key>Label</key>\n  <string>{LAUNCHD_LABEL}</string>\n\
         \x20 <key>ProgramArguments</key>\n  <array>\n    <string>{}</string>\n    <string>--foreground</string>\n    <string>--idle-timeout</string>\n    <string>0</string>\n  </array>\n\
         {env}\
         \x20 <key>RunAtLoad</key>\n  <true/>\n\
         \x20 <key>KeepAlive</key>\n  <dict>\n    <key>SuccessfulExit</key>\n    <false/>\n  </dict>\n\
         </dict>\n</plist>\n",
        xml_escape(&daemon.display().to_string())
    )
}

pub fn run(cmd: ServiceCmd, opts: &ClientOptions) -> CmdResult {
    let daemon = opts
        .daemon_bin
        .as_ref()
        .ok_or("cannot find the lean-ctxd executable (not beside lctx, not on PATH); install it first")?;
    let daemon = std::fs::canonicalize(daemon).map_err(|e| format!("{}: {e}", daemon.display()))?;
    let svc = service_for_platform(&daemon)?;
    match cmd {
        ServiceCmd::Install { dry_run: true } => {
            crate::outln!("would write {}:\n{}", svc.file.display(), svc.contents);
            crate::outln!("then enable it with: {}", svc.enable);
        }
        ServiceCmd::Install { dry_run: false } => {
            if let Some(dir) = svc.file.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            std::fs::write(&svc.file, &svc.contents)
                .map_err(|e| format!("cannot write {}: {e}", svc.file.display()))?;
            crate::outln!("wrote {}", svc.file.display());
            crate::outln!("enable it with: {}", svc.enable);
        }
        ServiceCmd::Uninstall { dry_run } => {
            if !svc.file.exists() {
                crate::outln!("no service installed at {}", svc.file.display());
                return Ok(());
            }
            if dry_run {
                crate::outln!("would remove {}", svc.file.display());
            } else {
                std::fs::remove_file(&svc.file).map_err(|e| format!("cannot remove {}: {e}", svc.file.display()))?;
                crate::outln!("removed {}", svc.file.display());
            }
            crate::outln!("if it was enabled, stop it with: {}", svc.disable);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn systemd_unit_runs_the_daemon_in_the_foreground_forever() {
        let unit = systemd_unit(Path::new("/opt/lean ctx/lean-ctxd"), Some(Path::new("/h")));
        assert!(unit.contains("ExecStart=\"/opt/lean ctx/lean-ctxd\" --foreground --idle-timeout 0\n"), "{unit}");
        assert!(unit.contains("Environment=\"LEAN_CTX_HOME=/h\"\n"), "{unit}");
        assert!(unit.contains("WantedBy=default.target"));
    }

    #[test]
    fn plist_escapes_paths() {
        let plist = launchd_plist(Path::new("/a&b/lean-ctxd"), None);
        assert!(plist.contains("<string>/a&amp;b/lean-ctxd</string>"), "{plist}");
        assert!(!plist.contains("LEAN_CTX_HOME"));
    }
}
