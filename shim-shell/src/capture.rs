//! Collecting a running command's output from the one pipe its stdout and
//! stderr share, so both arrive in the order they were written, and waiting
//! for its exit.
//!
//! Two things must not hang or exhaust us: a command that started something
//! which keeps the pipe open after the command itself has exited (a server
//! left running in the background), and a command that writes without end.
//! For the first, reading stops [`GRACE`] after the command's exit; for the
//! second, past [`LIMIT`] everything read so far goes out raw and the rest
//! streams through unbuffered.

use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

use crate::signals::Blocked;

/// How long output may still arrive after the command has exited.
const GRACE: Duration = Duration::from_millis(200);
/// How often, while the output pipe stays quiet, to look whether the command
/// has exited (usually the pipe closes at the exit, and this never matters)
/// and to pass signals on: the latency of a forwarded `kill`.
const EXIT_CHECK: Duration = Duration::from_millis(100);

/// Most bytes held for compression: the daemon's default message limit
/// (`max_message_bytes`), beyond which it would refuse them anyway.
const LIMIT: usize = 16 << 20;

pub struct Captured {
    pub bytes: Vec<u8>,
    /// Over [`LIMIT`]: `bytes` is empty and everything went out raw.
    pub spilled: bool,
}

/// Reads `output` until it closes, or until [`GRACE`] after `child` exited,
/// passing signals on to it meanwhile. Returns the exit status too when it
/// reaped the child. Returning closes our end of the pipe: whatever still
/// writes to it gets EPIPE rather than blocking forever.
pub fn collect(mut output: io::PipeReader, child: &mut Child, signals: &Blocked) -> (Captured, Option<ExitStatus>) {
    let mut captured = Captured { bytes: Vec::new(), spilled: false };
    let mut raw_out = RawOut { broken: false };
    let mut exited: Option<(ExitStatus, Instant)> = None;
    let mut buf = vec![0u8; 64 << 10];
    loop {
        let wait = match exited {
            None => EXIT_CHECK,
            Some((_, at)) => match GRACE.checked_sub(at.elapsed()) {
                Some(left) => left,
                None => break,
            },
        };
        let mut fd = libc::pollfd { fd: output.as_raw_fd(), events: libc::POLLIN, revents: 0 };
        let timeout = i32::try_from(wait.as_millis()).unwrap_or(i32::MAX);
        // SAFETY: fd is a valid pollfd for the whole call.
        let ready = unsafe { libc::poll(&mut fd, 1, timeout) };
        if exited.is_none() {
            signals.forward_pending(child.id());
        }
        if ready < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            break;
        }
        if ready == 0 && exited.is_none() {
            match child.try_wait() {
                Ok(Some(status)) => exited = Some((status, Instant::now())),
                Ok(None) => {}
                Err(_) => break,
            }
        }
        if ready > 0 {
            match output.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => captured.take(&buf[..n], &mut raw_out),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
    }
    (captured, exited.map(|(status, _)| status))
}

/// Waits for a command that has closed its output but may still run,
/// passing signals on. With the signals blocked nothing can interrupt a
/// blocking wait, so this polls, from 0.1 ms up to [`EXIT_CHECK`] apart: an
/// exiting command closes its output a moment before it can be reaped.
pub fn wait_exit(child: &mut Child, signals: &Blocked) -> Option<ExitStatus> {
    let mut pause = Duration::from_micros(100);
    loop {
        signals.forward_pending(child.id());
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) => std::thread::sleep(pause),
            Err(_) => return None,
        }
        pause = (pause * 2).min(EXIT_CHECK);
    }
}

/// Our stdout for output that skips compression. Once the reader has gone
/// (EPIPE), later writes are dropped, but the pipe is still drained so the
/// command never blocks on it.
struct RawOut {
    broken: bool,
}

impl RawOut {
    fn write(&mut self, bytes: &[u8]) {
        if self.broken {
            return;
        }
        let mut out = io::stdout().lock();
        self.broken = out.write_all(bytes).and_then(|()| out.flush()).is_err();
    }
}

impl Captured {
    fn take(&mut self, chunk: &[u8], raw_out: &mut RawOut) {
        if !self.spilled && self.bytes.len() + chunk.len() > LIMIT {
            raw_out.write(&std::mem::take(&mut self.bytes));
            self.spilled = true;
        }
        if self.spilled {
            raw_out.write(chunk);
        } else {
            self.bytes.extend_from_slice(chunk);
        }
    }
}
