//! Running a shell command for an agent: `sh -c CMD` in the caller's
//! directory and environment, in its own process group with stdin from
//! /dev/null, stdout and stderr captured in their true order, and a timeout
//! that kills the whole group — grandchildren included — and reaps the child.

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::engine::error::{EngineError, EngineResult};

/// Longest timeout a caller may ask for.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(3600);
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
/// Output kept in memory per command; beyond it only head and tail are kept.
pub const CAPTURE_LIMIT: usize = 64 << 20;
/// First and longest pause between looks at a running command.
const FIRST_POLL: Duration = Duration::from_micros(100);
const MAX_POLL: Duration = Duration::from_millis(5);

#[derive(Debug, Clone)]
pub struct ExecParams {
    pub command: String,
    pub cwd: PathBuf,
    /// The caller's whole environment (the daemon's own is not inherited).
    pub env: Vec<(String, String)>,
    pub timeout: Duration,
    /// Output bytes kept (head and tail); at most [`CAPTURE_LIMIT`].
    pub capture_limit: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecOutcome {
    /// stdout and stderr interleaved in the order they were written.
    pub output: Vec<u8>,
    /// Bytes dropped from the middle because output exceeded the limit.
    pub dropped: u64,
    /// The exit code; 128 + signal when killed by a signal.
    pub exit_code: i32,
    pub timed_out: bool,
    pub cancelled: bool,
    pub duration: Duration,
}

/// A kill switch for a running command (background jobs, cancelled calls).
#[derive(Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// Keeps the first and last `limit / 2` bytes of a stream.
struct HeadTail {
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    half: usize,
    dropped: u64,
}

impl HeadTail {
    fn new(limit: usize) -> Self {
        HeadTail { head: Vec::new(), tail: std::collections::VecDeque::new(), half: limit / 2, dropped: 0 }
    }

    fn push(&mut self, mut bytes: &[u8]) {
        let room = self.half.saturating_sub(self.head.len());
        let take = room.min(bytes.len());
        self.head.extend_from_slice(&bytes[..take]);
        bytes = &bytes[take..];
        self.tail.extend(bytes);
        let excess = self.tail.len().saturating_sub(self.half);
        self.tail.drain(..excess);
        self.dropped += excess as u64;
    }

    /// Head and tail, with a marker line between them when bytes were
    /// dropped, so no reader mistakes the join for real output.
    fn finish(mut self) -> (Vec<u8>, u64) {
        if self.dropped > 0 {
            if !self.head.ends_with(b"\n") {
                self.head.push(b'\n');
            }
            let marker = format!("[… {} bytes of output not kept (over the capture limit) …]\n", self.dropped);
            self.head.extend_from_slice(marker.as_bytes());
        }
        self.head.extend(self.tail);
        (self.head, self.dropped)
    }
}

pub fn validate(params: &ExecParams) -> EngineResult<()> {
    if params.command.trim().is_empty() {
        return Err(EngineError::invalid("empty command"));
    }
    if params.command.contains('\0') {
        return Err(EngineError::invalid("the command contains a NUL byte"));
    }
    if params.timeout.is_zero() || params.timeout > MAX_TIMEOUT {
        return Err(EngineError::invalid(format!("timeout must be between 1 s and {} s", MAX_TIMEOUT.as_secs())));
    }
    if !params.cwd.is_dir() {
        return Err(EngineError::not_found(format!("the working directory {} does not exist", params.cwd.display())));
    }
    Ok(())
}

/// Runs the command to completion (or timeout, or cancellation).
pub fn run(params: &ExecParams, cancel: &Cancel) -> EngineResult<ExecOutcome> {
    validate(params)?;
    let started = Instant::now();
    let (mut reader, writer) =
        std::io::pipe().map_err(|e| EngineError::internal(format!("cannot create a pipe: {e}")))?;
    let writer_err = writer.try_clone().map_err(|e| EngineError::internal(format!("cannot duplicate a pipe: {e}")))?;
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(&params.command)
        .current_dir(&params.cwd)
        .env_clear()
        .envs(params.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(writer_err)
        .process_group(0);
    // lean-ctxd runs under umask 077 to keep its own files private; the
    // user's command gets the user's umask back, or its build outputs would
    // be private too.
    if let Some(mask) = lean_ctx_common::privacy::user_umask() {
        // SAFETY: umask is async-signal-safe and cannot fail, which is all
        // pre_exec requires.
        unsafe {
            cmd.pre_exec(move || {
                libc::umask(mask);
                Ok(())
            });
        }
    }
    let mut child = cmd.spawn().map_err(|e| EngineError::internal(format!("cannot start /bin/sh: {e}")))?;
    // Our copies of the write end are gone with `cmd`; EOF comes when the
    // whole process group has closed it.
    drop(cmd);
    let pgid = child.id() as libc::pid_t;
    let capture_limit = params.capture_limit.min(CAPTURE_LIMIT);
    let collector = std::thread::spawn(move || {
        let mut kept = HeadTail::new(capture_limit);
        let mut buf = [0u8; 64 * 1024];
        loop {
            match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => kept.push(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        kept.finish()
    });

    let (mut timed_out, mut cancelled) = (false, false);
    // Polling (portable, and cancellation needs a look now and then) with
    // pauses that start short and double: a quick command is answered
    // within a fraction of a millisecond, a long one costs ~200 wake-ups a
    // second.
    let mut pause = FIRST_POLL;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => return Err(EngineError::internal(format!("cannot wait for the command: {e}"))),
        }
        if started.elapsed() >= params.timeout {
            timed_out = true;
        } else if cancel.is_cancelled() {
            cancelled = true;
        }
        if timed_out || cancelled {
            kill_group(pgid);
            break child.wait().map_err(|e| EngineError::internal(format!("cannot reap the command: {e}")))?;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(MAX_POLL);
    };
    // The shell exited; background grandchildren may still hold the pipe.
    // They belong to the group: end them so the output (and they) finish.
    kill_group(pgid);
    let (output, dropped) = collector.join().unwrap_or_default();
    let exit_code = status.code().unwrap_or_else(|| 128 + status.signal().unwrap_or(0));
    Ok(ExecOutcome { output, dropped, exit_code, timed_out, cancelled, duration: started.elapsed() })
}

fn kill_group(pgid: libc::pid_t) {
    // SAFETY: kill has no memory-safety preconditions; a negative pid names
    // the process group, which the child leads (process_group(0)).
    unsafe { libc::kill(-pgid, libc::SIGKILL) };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(cmd: &str, timeout_ms: u64) -> ExecParams {
        ExecParams {
            command: cmd.into(),
            cwd: std::env::temp_dir(),
            env: vec![("PATH".into(), "/usr/bin:/bin".into()), ("GREETING".into(), "hi".into())],
            timeout: Duration::from_millis(timeout_ms),
            capture_limit: CAPTURE_LIMIT,
        }
    }

    #[test]
    fn captures_both_streams_in_order_with_the_exit_code() {
        let out = run(&params("echo one; echo two >&2; echo three; exit 3", 5000), &Cancel::default()).unwrap();
        assert_eq!(String::from_utf8_lossy(&out.output), "one\ntwo\nthree\n");
        assert_eq!(out.exit_code, 3);
        assert!(!out.timed_out);
    }

    #[test]
    fn uses_the_callers_environment_and_directory_only() {
        let out = run(&params("echo $GREETING; pwd; echo ${HOME:-nohome}", 5000), &Cancel::default()).unwrap();
        let text = String::from_utf8_lossy(&out.output);
        assert!(text.starts_with("hi\n"), "{text}");
        assert!(text.ends_with("nohome\n"), "{text}");
    }

    #[test]
    fn timeout_kills_grandchildren_too() {
        let marker = std::env::temp_dir().join(format!("lctx-grandchild-{}", std::process::id()));
        let cmd = format!("(sleep 30; touch {}) & sleep 30", marker.display());
        let out = run(&params(&cmd, 300), &Cancel::default()).unwrap();
        assert!(out.timed_out);
        assert!(out.duration < Duration::from_secs(5), "{:?}", out.duration);
        std::thread::sleep(Duration::from_millis(100));
        assert!(!marker.exists());
    }

    #[test]
    fn stdin_is_empty_and_cancel_stops_the_command() {
        let out = run(&params("cat; echo done", 5000), &Cancel::default()).unwrap();
        assert_eq!(String::from_utf8_lossy(&out.output), "done\n");
        let cancel = Cancel::default();
        let c2 = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            c2.cancel();
        });
        let out = run(&params("sleep 20", 20_000), &cancel).unwrap();
        assert!(out.cancelled && out.exit_code == 128 + libc::SIGKILL);
    }

    #[test]
    fn head_and_tail_survive_a_flood() {
        let mut ht = HeadTail::new(10);
        ht.push(b"0123456789abcdefghij");
        let (kept, dropped) = ht.finish();
        assert_eq!(
            String::from_utf8_lossy(&kept),
            "01234\n[… 10 bytes of output not kept (over the capture limit) …]\nfghij"
        );
        assert_eq!(dropped, 10);
    }

    #[test]
    fn bad_requests_are_refused() {
        assert!(run(&params("", 1000), &Cancel::default()).is_err());
        assert!(run(&params("true", 0), &Cancel::default()).is_err());
        let mut p = params("true", 1000);
        p.cwd = PathBuf::from("/nonexistent/dir");
        assert!(run(&p, &Cancel::default()).unwrap_err().message.contains("does not exist"));
    }
}
