//! The fallback: the engine run out of process, for this client alone.
//!
//! When no daemon can be reached or started, a client starts
//! `lean-ctxd --stdio` with one end of a Unix socket pair as its standard
//! input and speaks the same gRPC over the other end. The child serves the
//! same services as the daemon and exits when this end closes — when the
//! client drops its backend, exits, or is killed — so no child outlives its
//! client. What it writes on standard error (warnings such as a quarantined
//! database) is passed on to this client's standard error as it arrives, as
//! the engine's warnings reached the user before, and the last few
//! kilobytes are kept to explain a child that crashed or hung. A client
//! calls [`await_stderr`] before it exits, so a warning the child wrote
//! before its answer is not lost to a client that exits first, or
//! [`abandon_children`] when it gave up on a call, so a hung child does not
//! outlive the deadline it missed.

use std::io::{Read as _, Write as _};
use std::os::fd::AsRawFd as _;
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// How much of the child's standard error is kept for a report.
const STDERR_TAIL_BYTES: usize = 4096;
/// How long a report waits for a killed child's last words, and a client
/// for its children's.
const TAIL_WAIT: Duration = Duration::from_secs(1);
/// How often a reader thread waiting on a quiet child looks at [`ABANDONS`].
const ABANDON_POLL_MS: i32 = 20;
/// Children of this process whose standard error is still being passed on.
static FORWARDING: AtomicUsize = AtomicUsize::new(0);
/// How many times [`abandon_children`] was called: a reader thread kills its
/// child when this grows past what it was when the child started, so a
/// child started after the call (a later exchange) is not killed with the
/// ones abandoned.
static ABANDONS: AtomicUsize = AtomicUsize::new(0);

/// Waits (at most [`TAIL_WAIT`]) until every fallback child of this process
/// has closed its standard error and all it wrote has been passed on. Call it
/// once the connections are closed (the runtime dropped): a child exits when
/// its connection closes. A child still running after that is left to finish
/// on its own, as it would have been before.
pub fn await_stderr() {
    let start = Instant::now();
    while FORWARDING.load(Ordering::Acquire) > 0 && start.elapsed() < TAIL_WAIT {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Kills every fallback child of this process that is still running (with
/// anything it started), then waits as [`await_stderr`] does for what they
/// wrote. For a client that abandoned a call at its deadline: the child
/// serving it may be hung, and no one is left to read its answer.
pub fn abandon_children() {
    ABANDONS.fetch_add(1, Ordering::AcqRel);
    await_stderr();
}

/// A running `lean-ctxd --stdio`.
pub struct LocalChild {
    pid: u32,
    /// Set by the reader thread when the child's standard error closes.
    stderr_tail: Arc<OnceLock<String>>,
}

impl LocalChild {
    /// Starts `bin --stdio` in a process group of its own (so a hung child
    /// is killed with anything it started) and returns our end of its
    /// connection.
    pub fn start(bin: &Path) -> Result<(LocalChild, tokio::net::UnixStream), String> {
        let (ours, theirs) = UnixStream::pair().map_err(|e| format!("cannot create a socket pair: {e}"))?;
        let mut child = Command::new(bin)
            .arg("--stdio")
            .stdin(Stdio::from(std::os::fd::OwnedFd::from(theirs)))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| {
                format!(
                    "cannot start {} --stdio: {e}; install lean-ctxd beside lctx (`cargo install --path daemon`) \
                     or set LEAN_CTX_DAEMON_BIN to it",
                    bin.display()
                )
            })?;
        let pid = child.id();
        let born = ABANDONS.load(Ordering::Acquire);
        let stderr_tail = Arc::new(OnceLock::new());
        if let Some(stderr) = child.stderr.take() {
            let tail = stderr_tail.clone();
            FORWARDING.fetch_add(1, Ordering::AcqRel);
            std::thread::spawn(move || {
                let kept = forward(stderr, pid, born);
                let start = kept.len().saturating_sub(STDERR_TAIL_BYTES);
                let _ = tail.set(String::from_utf8_lossy(&kept[start..]).trim_end().to_string());
                FORWARDING.fetch_sub(1, Ordering::AcqRel);
                // Reap: the child has closed its standard error, so it is
                // exiting (or exited).
                let _ = child.wait();
            });
        }
        ours.set_nonblocking(true).map_err(|e| format!("cannot use the socket pair: {e}"))?;
        let stream = tokio::net::UnixStream::from_std(ours).map_err(|e| format!("cannot use the socket pair: {e}"))?;
        Ok((LocalChild { pid, stderr_tail }, stream))
    }

    /// Ends a child that failed a call (it may be hung) and returns the end
    /// of what it wrote on standard error, empty if it wrote nothing.
    pub fn kill_and_tail(&self) -> String {
        if self.stderr_tail.get().is_none() {
            kill_group(self.pid);
        }
        let start = Instant::now();
        while self.stderr_tail.get().is_none() && start.elapsed() < TAIL_WAIT {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.stderr_tail.get().cloned().unwrap_or_default()
    }
}

/// Kills the process group of the child `pid` (started as its leader).
fn kill_group(pid: u32) {
    // SAFETY: kill has no memory-safety preconditions. The pid is our own
    // child, reaped only after its standard error closed: the reader thread
    // kills before it reaps, and `kill_and_tail` only while the tail is
    // unset, which leaves a narrow window in which the child was reaped
    // between its check and this call (as any kill-by-pid has).
    unsafe { libc::kill(-(pid as libc::pid_t), libc::SIGKILL) };
}

/// Passes the child's standard error on to ours until it closes, and
/// returns the last part of it. Waits in short polls rather than one
/// blocking read, so the child `pid` is killed as soon as the client
/// abandons its children ([`abandon_children`]) after `born`, the count of
/// abandons when it started.
fn forward(mut stderr: std::process::ChildStderr, pid: u32, born: usize) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 4096];
    let mut killed = false;
    loop {
        let mut ready = libc::pollfd { fd: stderr.as_raw_fd(), events: libc::POLLIN, revents: 0 };
        // SAFETY: one valid pollfd, borrowed for the call; the fd stays open
        // while `stderr` lives.
        let polled = unsafe { libc::poll(&mut ready, 1, ABANDON_POLL_MS) };
        if !killed && ABANDONS.load(Ordering::Acquire) > born {
            kill_group(pid);
            killed = true;
        }
        match polled {
            0 => continue,
            n if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => continue,
            n if n < 0 => break,
            _ => {}
        }
        match stderr.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let _ = std::io::stderr().write_all(&buf[..n]);
                kept.extend_from_slice(&buf[..n]);
                if kept.len() > 2 * STDERR_TAIL_BYTES {
                    kept.drain(..kept.len() - STDERR_TAIL_BYTES);
                }
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alive(pid: u32) -> bool {
        // A killed child is reaped by its reader thread; until then it is a
        // zombie, which is not alive either.
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')))
    }

    fn wait_for(what: impl Fn() -> bool) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if what() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    #[test]
    fn abandoning_kills_the_children_started_before_it_and_not_those_after() {
        let dir = tempfile::tempdir().unwrap();
        let hang = dir.path().join("hang-lean-ctxd");
        std::fs::write(&hang, "#!/bin/sh\nexec sleep 30\n").unwrap();
        std::fs::set_permissions(&hang, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let start = || runtime.block_on(async { LocalChild::start(&hang) }).unwrap();

        let (before, _connection) = start();
        assert!(alive(before.pid));
        abandon_children();
        assert!(wait_for(|| !alive(before.pid)), "the abandoned child was killed");

        let (after, _connection) = start();
        std::thread::sleep(Duration::from_millis(300));
        assert!(alive(after.pid), "a child started after the abandon lives on");
        assert_eq!(after.kill_and_tail(), "");
        assert!(wait_for(|| !alive(after.pid)));
    }
}
