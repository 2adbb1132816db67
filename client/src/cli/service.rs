//! `lctx service install|uninstall`: a user service that keeps lean-ctxd
//! running (systemd on Linux, launchd on macOS). Under a service manager the
//! daemon runs in the foreground and never exits for idleness.

use std::path::{Path, PathBuf};

use clap::Subcommand;

use super::CmdResult;
use crate::options::ClientOptions;

#[derive(Subcommand, Debug)]
pub enum ServiceCmd {
    /// Write the service definition; with --now also enable and start it.
    Install {
        /// Print what would be written and run, without doing it.
        #[arg(long)]
        dry_run: bool,
        /// Enable and start the service now (systemctl --user enable --now; launchctl bootstrap).
        #[arg(long)]
        now: bool,
    },
    /// Stop and disable the service, then remove its definition.
    Uninstall {
        /// Print what would be run and removed, without doing it.
        #[arg(long)]
        dry_run: bool,
    },
}

/// Where the definition goes and the service manager's commands that switch
/// it on (install --now) and off (uninstall, before the file goes).
struct Service {
    file: PathBuf,
    contents: String,
    enable: Vec<Vec<String>>,
    /// Run after the file is removed (systemd forgets the unit).
    forget: Vec<Vec<String>>,
    disable: Vec<Vec<String>>,
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

fn argv(words: &[&str]) -> Vec<String> {
    words.iter().map(ToString::to_string).collect()
}

fn service_for_platform(daemon: &Path) -> Result<Service, String> {
    let home_env = std::env::var_os("LEAN_CTX_HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    let file = service_file()?;
    if cfg!(target_os = "macos") {
        // SAFETY: getuid has no preconditions and cannot fail.
        let domain = format!("gui/{}", unsafe { libc::getuid() });
        let plist = file.display().to_string();
        Ok(Service {
            contents: launchd_plist(daemon, home_env.as_deref()),
            enable: vec![argv(&["launchctl", "bootstrap", &domain, &plist])],
            forget: vec![],
            disable: vec![argv(&["launchctl", "bootout", &format!("{domain}/{LAUNCHD_LABEL}")])],
            file,
        })
    } else {
        Ok(Service {
            file,
            contents: systemd_unit(daemon, home_env.as_deref()),
            enable: vec![
                argv(&["systemctl", "--user", "daemon-reload"]),
                argv(&["systemctl", "--user", "enable", "--now", SYSTEMD_UNIT]),
            ],
            forget: vec![argv(&["systemctl", "--user", "daemon-reload"])],
            disable: vec![argv(&["systemctl", "--user", "disable", "--now", SYSTEMD_UNIT])],
        })
    }
}

/// The user unit. Each setting says why it is there; the hardening stops
/// where the daemon's job begins: it reads the user's projects wherever they
/// are and runs the user's builds and tests, which need /tmp, the network,
/// the home directory and JIT-compiled runtimes as in a terminal.
fn systemd_unit(daemon: &Path, lean_ctx_home: Option<&Path>) -> String {
    let env = lean_ctx_home.map_or(String::new(), |h| format!("Environment=\"LEAN_CTX_HOME={}\"\n", h.display()));
    format!(
        "[Unit]\n\
         Description=lean-ctxd context gateway for AI coding agents\n\
         Documentation=man:lctx(1) man:lctx-service(1) man:lctx-daemon(1)\n\
         # A daemon that keeps failing to start (a broken binary, a full disk) stops\n\
         # being retried after 5 starts in 5 minutes; `systemctl --user reset-failed\n\
         # lean-ctxd` then `start` tries again.\n\
         StartLimitIntervalSec=300\n\
         StartLimitBurst=5\n\
         \n\
         [Service]\n\
         Type=simple\n\
         ExecStart=\"{}\" --foreground --idle-timeout 0\n\
         {env}\
         # Restarted after a crash only: `lctx daemon stop` exits 0, and so does a\n\
         # daemon that finds another lean-ctxd already serving (it steps aside).\n\
         Restart=on-failure\n\
         RestartSec=5\n\
         # Stopping drains requests (drain_timeout_secs, then a 5 s watchdog); the\n\
         # default KillMode=control-group then ends any command still running.\n\
         TimeoutStopSec=30\n\
         # Commands an agent runs through lean-ctxd never gain privileges (a setuid\n\
         # sudo fails); the user's own terminals are not affected.\n\
         NoNewPrivileges=yes\n\
         # Neither setuid/setgid files, realtime scheduling nor a changed execution\n\
         # domain is anything a build or test needs.\n\
         RestrictSUIDSGID=yes\n\
         RestrictRealtime=yes\n\
         LockPersonality=yes\n\
         # Deliberately not set: PrivateTmp (commands share /tmp with the user's\n\
         # other programs), ProtectHome and ProtectSystem (projects and build\n\
         # outputs live anywhere), PrivateNetwork (package managers, git fetch),\n\
         # MemoryDenyWriteExecute (node, the JVM and other JITs), SystemCallFilter\n\
         # (arbitrary commands).\n\
         \n\
         [Install]\n\
         WantedBy=default.target\n",
        daemon.display()
    )
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The launchd agent: started at login, restarted only after a failure
/// (KeepAlive/SuccessfulExit = false: a stop or a step-aside exits 0), and
/// at most every 10 s.
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
         \x20 <key>ThrottleInterval</key>\n  <integer>10</integer>\n\
         \x20 <key>ProcessType</key>\n  <string>Background</string>\n\
         </dict>\n</plist>\n",
        xml_escape(&daemon.display().to_string())
    )
}

fn shown(commands: &[Vec<String>]) -> String {
    commands.iter().map(|c| c.join(" ")).collect::<Vec<_>>().join(" && ")
}

/// Runs one service-manager command, its output passed through; a failure
/// names the command and its exit status.
fn run_command(command: &[String]) -> Result<(), String> {
    let status = std::process::Command::new(&command[0])
        .args(&command[1..])
        .stdin(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("cannot run `{}`: {e}", command.join(" ")))?;
    if status.success() { Ok(()) } else { Err(format!("`{}` failed ({status})", command.join(" "))) }
}

pub fn run(cmd: ServiceCmd, opts: &ClientOptions) -> CmdResult {
    let daemon = opts.daemon_bin.as_ref().ok_or_else(|| opts.missing_daemon_bin())?;
    let daemon = std::fs::canonicalize(daemon).map_err(|e| format!("{}: {e}", daemon.display()))?;
    let svc = service_for_platform(&daemon)?;
    match cmd {
        ServiceCmd::Install { dry_run: true, now } => {
            crate::outln!("would write {}:\n{}", svc.file.display(), svc.contents);
            if now {
                crate::outln!("then run: {}", shown(&svc.enable));
            }
        }
        ServiceCmd::Install { dry_run: false, now } => {
            let created = crate::setup::write::missing_dirs(&svc.file);
            if !created.is_empty() {
                // Recorded before they exist, so an install that dies half-way is undone too.
                remember_created_dirs(opts, created)?;
            }
            if let Some(dir) = svc.file.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            std::fs::write(&svc.file, &svc.contents)
                .map_err(|e| format!("cannot write {}: {e}", svc.file.display()))?;
            crate::outln!("wrote {}", svc.file.display());
            if now {
                svc.enable.iter().try_for_each(|c| run_command(c))?;
                crate::outln!("enabled and started: {}", shown(&svc.enable));
            } else {
                crate::outln!("enable and start it with: lctx service install --now (runs {})", shown(&svc.enable));
            }
        }
        ServiceCmd::Uninstall { dry_run } => {
            let record = created_dirs_record(opts);
            if !svc.file.exists() {
                // The user removed the file: the directories install made for it may still go.
                crate::outln!("no service installed at {}", svc.file.display());
                if dry_run {
                    show_removable_dirs(&record, &[]);
                } else {
                    remove_created_dirs(&record);
                }
                return Ok(());
            }
            if dry_run {
                crate::outln!("would run: {}", shown(&svc.disable));
                crate::outln!("would remove {}", svc.file.display());
                show_removable_dirs(&record, std::slice::from_ref(&svc.file));
                return Ok(());
            }
            // Stopped and disabled first, so no enabled unit points at a
            // missing file. A manager that is not running (no user session
            // bus, a container) has nothing to stop: said, and the file goes.
            let mut stopped = true;
            for command in &svc.disable {
                if let Err(e) = run_command(command) {
                    eprintln!("lctx: {e}; a service daemon still running stops with `lctx daemon stop`");
                    stopped = false;
                }
            }
            std::fs::remove_file(&svc.file).map_err(|e| format!("cannot remove {}: {e}", svc.file.display()))?;
            for command in &svc.forget {
                // Only tidies the manager's view; the file is gone either way.
                let _ = run_command(command);
            }
            let done = if stopped { "stopped, disabled and removed" } else { "removed" };
            crate::outln!("{done} {}", svc.file.display());
            remove_created_dirs(&record);
        }
    }
    Ok(())
}

/// Where `install` records the directories it created for the service file (and for this
/// record, when the data directory did not exist yet).
fn created_dirs_record(opts: &ClientOptions) -> PathBuf {
    opts.dirs.data.join("service-created-dirs")
}

/// Adds `dirs` and the directories the record itself is about to create to the record, one per
/// line, keeping what an earlier install recorded: those directories are still install's.
fn remember_created_dirs(opts: &ClientOptions, mut dirs: Vec<PathBuf>) -> Result<(), String> {
    use std::io::Write as _;
    use std::os::unix::ffi::OsStrExt as _;
    let record = created_dirs_record(opts);
    dirs.extend(crate::setup::write::missing_dirs(&record));
    let mut text = Vec::new();
    for dir in recorded_dirs(&record).into_iter().chain(dirs) {
        text.extend_from_slice(dir.as_os_str().as_bytes());
        text.push(b'\n');
    }
    lean_ctx_common::privacy::create_private_dir_all(&opts.dirs.data)
        .and_then(|()| lean_ctx_common::privacy::private_file().write(true).create(true).truncate(true).open(&record))
        .and_then(|mut file| file.write_all(&text))
        .map_err(|e| format!("cannot write {}: {e}", record.display()))
}

/// The directories `record` lists, each once, deepest first: the order they can be removed in.
fn recorded_dirs(record: &Path) -> Vec<PathBuf> {
    use std::os::unix::ffi::OsStrExt as _;
    let Ok(text) = std::fs::read(record) else { return Vec::new() };
    let mut dirs: Vec<PathBuf> = text
        .split(|b| *b == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| PathBuf::from(std::ffi::OsStr::from_bytes(line)))
        .collect();
    dirs.sort_by(|a, b| b.components().count().cmp(&a.components().count()).then_with(|| a.cmp(b)));
    dirs.dedup();
    dirs
}

/// The recorded directories that hold nothing once the record, the paths in `gone` and the
/// directories before them in the list are removed: one the user has put something in stays,
/// with those around it.
fn removable_dirs(record: &Path, gone: &[PathBuf]) -> Vec<PathBuf> {
    let mut gone: Vec<PathBuf> = gone.iter().cloned().chain([record.to_path_buf()]).collect();
    let mut removable = Vec::new();
    for dir in recorded_dirs(record) {
        let Ok(mut entries) = std::fs::read_dir(&dir) else { continue };
        if entries.all(|entry| entry.is_ok_and(|entry| gone.contains(&entry.path()))) {
            gone.push(dir.clone());
            removable.push(dir);
        }
    }
    removable
}

/// What [`remove_created_dirs`] would remove once `gone` is removed too, for a dry run.
fn show_removable_dirs(record: &Path, gone: &[PathBuf]) {
    for dir in removable_dirs(record, gone) {
        crate::outln!("would remove {}, which install created", dir.display());
    }
}

/// Removes the record and the directories `install` created that are empty then.
fn remove_created_dirs(record: &Path) {
    // Planned while the record can still be read: it may be the last thing in its directory.
    let removable = removable_dirs(record, &[]);
    let _ = std::fs::remove_file(record);
    for dir in removable {
        if std::fs::remove_dir(&dir).is_ok() {
            crate::outln!("removed {}, which install created", dir.display());
        }
    }
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
        for setting in ["Documentation=man:lctx(1)", "StartLimitBurst=5", "Restart=on-failure\nRestartSec=5"] {
            assert!(unit.contains(setting), "{setting}: {unit}");
        }
        assert!(unit.contains("NoNewPrivileges=yes"), "{unit}");
        let settings: Vec<&str> = unit.lines().filter(|l| !l.starts_with('#')).collect();
        assert!(!settings.iter().any(|l| l.starts_with("PrivateTmp") || l.starts_with("ProtectHome")), "{unit}");
    }

    #[test]
    fn plist_escapes_paths() {
        let plist = launchd_plist(Path::new("/a&b/lean-ctxd"), None);
        assert!(plist.contains("<string>/a&amp;b/lean-ctxd</string>"), "{plist}");
        assert!(!plist.contains("LEAN_CTX_HOME"));
        assert!(plist.contains("<key>ThrottleInterval</key>\n  <integer>10</integer>"), "{plist}");
    }
}
