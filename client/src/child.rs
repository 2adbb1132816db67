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
//! before its answer is not lost to a client that exits first.

use std::io::{Read as _, Write as _};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// How much of the child's standard error is kept for a report.
const STDERR_TAIL_BYTES: usize = 4096;
/// How long a report waits for the killed child's last words.
const TAIL_WAIT: Duration = Duration::from_secs(1);
/// Children of this process whose standard error is still being passed on.
static FORWARDING: AtomicUsize = AtomicUsize::new(0);

/// Waits (at most [`TAIL_WAIT`]) until every fallback child of this process
/// has closed its standard error and all it wrote has been passed on. Call it
/// once the connections are closed (the runtime dropped): a child exits when
/// its connection closes.
pub fn await_stderr() {
    let start = Instant::now();
    while FORWARDING.load(Ordering::Acquire) > 0 && start.elapsed() < TAIL_WAIT {
        std::thread::sleep(Duration::from_millis(5));
    }
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
        let stderr_tail = Arc::new(OnceLock::new());
        if let Some(mut stderr) = child.stderr.take() {
            let tail = stderr_tail.clone();
            FORWARDING.fetch_add(1, Ordering::AcqRel);
            std::thread::spawn(move || {
                let mut kept = Vec::new();
                let mut buf = [0u8; 4096];
                while let Ok(n) = stderr.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    let _ = std::io::stderr().write_all(&buf[..n]);
                    kept.extend_from_slice(&buf[..n]);
                    if kept.len() > 2 * STDERR_TAIL_BYTES {
                        kept.drain(..kept.len() - STDERR_TAIL_BYTES);
                    }
                }
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
            // SAFETY: kill has no memory-safety preconditions; the pid is our
            // own unreaped child, so its group id cannot have been reused.
            unsafe { libc::kill(-(self.pid as libc::pid_t), libc::SIGKILL) };
        }
        let start = Instant::now();
        while self.stderr_tail.get().is_none() && start.elapsed() < TAIL_WAIT {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.stderr_tail.get().cloned().unwrap_or_default()
    }
}
