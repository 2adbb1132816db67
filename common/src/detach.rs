//! Starting a daemon that outlives its starter: its own session (no
//! controlling terminal, no signals from the starter's shell), stdin from
//! /dev/null, stdout discarded, stderr appended to a log that the starter
//! shows when start-up fails.

use std::ffi::OsString;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::privacy;

/// Spawns `exe --foreground ARGS…` detached from the caller.
pub fn spawn(exe: &Path, args: &[OsString], stderr_log: &Path) -> io::Result<Child> {
    // The starter's umask applies here, not the daemon's private one.
    if let Some(dir) = stderr_log.parent() {
        privacy::create_private_dir_all(dir)?;
    }
    let log = privacy::private_file().create(true).append(true).open(stderr_log)?;
    let mut cmd = Command::new(exe);
    cmd.arg("--foreground").args(args).stdin(Stdio::null()).stdout(Stdio::null()).stderr(log);
    // SAFETY: setsid is async-signal-safe, which is all pre_exec requires.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd.spawn()
}

/// Waits until the socket accepts connections, the child exits, or the
/// deadline passes.
pub fn wait_ready(socket: &Path, child: &mut Child, deadline: Duration) -> Result<(), String> {
    let start = Instant::now();
    loop {
        if std::os::unix::net::UnixStream::connect(socket).is_ok() {
            return Ok(());
        }
        match child.try_wait() {
            Ok(Some(status)) => return Err(format!("lean-ctxd exited ({status}) before it was ready")),
            Ok(None) => {}
            Err(e) => return Err(format!("cannot watch the starting lean-ctxd: {e}")),
        }
        if start.elapsed() >= deadline {
            return Err(format!("lean-ctxd did not answer on {} within {deadline:?}", socket.display()));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Kills a child [`spawn`] started that is still running, and every process of its session's
/// group (it leads it). One already ended and reaped is left alone: its id may be another's now.
pub fn end_group(child: &mut Child) {
    if let (Ok(None), Ok(pid)) = (child.try_wait(), libc::pid_t::try_from(child.id())) {
        // SAFETY: kill has no memory-safety preconditions; a negative pid names the group.
        unsafe { libc::kill(-pid, libc::SIGKILL) };
    }
}

/// Collects the child's exit status whenever it comes, so a long-lived
/// starter (an MCP shim) does not accumulate a zombie.
pub fn reap_in_background(mut child: Child) {
    std::thread::spawn(move || {
        let _ = child.wait();
    });
}

/// The length of a log file now: where what is written next starts (0 when there is none).
pub fn log_end(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |meta| meta.len())
}

/// The last `lines` lines of a log file written from byte `from` on, for error messages: what
/// one start wrote, not the lines of earlier ones before it.
pub fn log_tail(path: &Path, from: u64, lines: usize) -> String {
    let Ok(text) = std::fs::read(path) else { return String::new() };
    let from = usize::try_from(from).unwrap_or(usize::MAX).min(text.len());
    let text = String::from_utf8_lossy(&text[from..]);
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}
