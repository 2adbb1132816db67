//! `lean-ctxd`: the per-user lean-ctx daemon.
//!
//! Without `--foreground` it starts a detached copy of itself and returns
//! once that copy answers; service managers (systemd, launchd) run it with
//! `--foreground`. Clients that cannot use a daemon run it with `--stdio`:
//! the same engine for them alone, over a socket given as standard input.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use lean_ctx_common::privacy;
use lean_ctxd::engine::paths::Dirs;
use lean_ctxd::engine::shell::watchdog;
use lean_ctxd::server::{detach, heap, lifecycle, pipe, singleton};

#[derive(Parser)]
#[command(name = "lean-ctxd", version, about = "The lean-ctx context gateway daemon")]
struct Args {
    /// Stay in the foreground (for systemd, launchd and debugging).
    #[arg(long)]
    foreground: bool,
    /// Exit after this many seconds without a connection or request (0 = never).
    /// Defaults to idle_timeout_secs of config.toml (30 minutes).
    #[arg(long, value_name = "SECS")]
    idle_timeout: Option<u64>,
    /// Listen on this socket instead of the one in the runtime directory.
    #[arg(long, value_name = "PATH")]
    socket: Option<PathBuf>,
    /// Serve one client over the socket given as standard input, then exit
    /// (how clients run the engine when no daemon can be used).
    #[arg(long, conflicts_with_all = ["foreground", "idle_timeout", "socket"])]
    stdio: bool,
    /// Watch the command led by PID for the engine that started it (see the engine's
    /// `shell::watchdog`): only an engine starts this.
    #[arg(long = "watchdog", value_name = "PID", hide = true, conflicts_with_all = ["foreground", "stdio"])]
    watchdog: Option<i32>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(leader) = args.watchdog {
        watchdog::watch(leader);
        return ExitCode::SUCCESS;
    }
    if args.stdio || args.foreground {
        // Before any thread or file: everything this process creates is
        // private, also what SQLite, tantivy and the log appender create.
        // The detaching parent keeps the user's umask, so that the daemon
        // it starts inherits it and gives it back to the user's commands.
        privacy::private_umask();
        heap::limit_arenas();
        // A file-size limit (`ulimit -f`) sends SIGXFSZ to a process writing past it, whose
        // default action ends the daemon and every write it had queued. Ignored, the write fails
        // with EFBIG instead, which the request or the writer reports like any failed write. The
        // user's commands get the default back (`shell::exec`).
        // SAFETY: called before any thread is started; SIG_IGN runs no code of ours.
        unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
    }
    let result = if args.stdio {
        pipe::run()
    } else if args.foreground {
        lifecycle::run(lifecycle::DaemonOptions {
            socket: args.socket,
            idle_timeout: args.idle_timeout.map(Duration::from_secs),
        })
    } else {
        start_detached(&args)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A service manager starting its daemon while an on-demand one serves
        // (or two starts racing) is no failure: the other daemon serves, this
        // one steps aside. Exiting 0 keeps systemd's Restart=on-failure and
        // launchd's KeepAlive from restarting it in a loop.
        Err(e) if args.foreground && another_daemon_serves() => {
            eprintln!("lean-ctxd: {e}; leaving it to serve");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("lean-ctxd: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Whether another live process holds the daemon lock right now.
fn another_daemon_serves() -> bool {
    let Ok(dirs) = Dirs::from_env() else { return false };
    singleton::holder(&dirs.daemon_lock()).is_some_and(|holder| holder.pid != Some(std::process::id()))
}

fn start_detached(args: &Args) -> Result<(), String> {
    let dirs = Dirs::from_env()?;
    let socket = args.socket.clone().unwrap_or_else(|| dirs.socket());
    if singleton::is_held(&dirs.daemon_lock()) {
        let pid = singleton::read_info(&dirs.daemon_lock()).pid.map_or("?".to_string(), |p| p.to_string());
        println!("lean-ctxd is already running (pid {pid})");
        return Ok(());
    }
    let mut forwarded: Vec<OsString> = Vec::new();
    if let Some(secs) = args.idle_timeout {
        forwarded.extend(["--idle-timeout".into(), secs.to_string().into()]);
    }
    if let Some(s) = &args.socket {
        forwarded.extend(["--socket".into(), s.clone().into_os_string()]);
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find my own executable: {e}"))?;
    let log = dirs.daemon_stderr_log();
    let written_before = detach::log_end(&log);
    let mut child = detach::spawn(&exe, &forwarded, &log).map_err(|e| format!("cannot start: {e}"))?;
    let pid = child.id();
    match detach::wait_ready(&socket, &mut child, Duration::from_secs(10)) {
        Ok(()) => {
            println!("lean-ctxd started (pid {pid}), listening on {}", socket.display());
            Ok(())
        }
        Err(e) => Err(format!(
            "{e}\n--- what it wrote to {} ---\n{}",
            log.display(),
            detach::log_tail(&log, written_before, 20)
        )),
    }
}
