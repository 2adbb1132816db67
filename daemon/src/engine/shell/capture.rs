//! Reading a command's output pipe into its spool (`spool.rs`: kept whole,
//! or archived as it arrives), read while the runner waits for the command,
//! so the runner never blocks on the pipe — a process the command detached
//! may hold it open long after the command itself ended.

use std::io::{PipeReader, Read};
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use super::spool::{Output, Spool};

/// The read end of a command's output pipe and what was kept of it.
pub struct Capture<'a> {
    reader: PipeReader,
    spool: Spool<'a>,
    /// False once every writer closed the pipe (end of file) or it failed.
    open: bool,
}

impl<'a> Capture<'a> {
    pub fn new(reader: PipeReader, spool: Spool<'a>) -> Capture<'a> {
        Capture { reader, spool, open: true }
    }

    /// Reads whatever arrives during the next `wait`, returning early at
    /// the end of the output; just sleeps once the output has ended.
    pub fn read_for(&mut self, wait: Duration) {
        let until = Instant::now() + wait;
        while self.open {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() || !self.readable(left) {
                return;
            }
            self.read_once();
        }
        std::thread::sleep(until.saturating_duration_since(Instant::now()));
    }

    /// The output once the command has ended: read until every writer has
    /// closed the pipe, but for at most `grace` — a process the command
    /// detached may keep it open indefinitely — and then say that reading
    /// stopped.
    pub fn finish(mut self, grace: Duration) -> Output {
        let until = Instant::now() + grace;
        while self.open {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() || !self.readable(left) {
                break;
            }
            self.read_once();
        }
        let note = self
            .open
            .then_some("[output no longer read: the command ended, a process it left running keeps the output open]");
        self.spool.finish(note)
    }

    /// Whether the pipe has data or end of file within `wait`.
    fn readable(&self, wait: Duration) -> bool {
        let mut fd = libc::pollfd { fd: self.reader.as_raw_fd(), events: libc::POLLIN, revents: 0 };
        let timeout = libc::timespec {
            tv_sec: libc::time_t::try_from(wait.as_secs()).unwrap_or(libc::time_t::MAX),
            tv_nsec: libc::c_long::from(wait.subsec_nanos()),
        };
        // SAFETY: one valid pollfd and a valid timespec, both outliving the
        // call; no signal mask is passed.
        let ready = unsafe { libc::ppoll(&mut fd, 1, &timeout, std::ptr::null()) };
        // An interrupted poll (EINTR) reads as "nothing yet"; the caller
        // looks again.
        ready > 0
    }

    /// One read after `readable`: it does not block.
    fn read_once(&mut self) {
        let mut buf = [0u8; 64 * 1024];
        match self.reader.read(&mut buf) {
            Ok(0) => self.open = false,
            Ok(n) => self.spool.push(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => self.open = false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::shell::spool::test_spool;

    fn text(output: Output) -> String {
        match output {
            Output::Whole(bytes) => String::from_utf8(bytes).unwrap(),
            Output::Spilled(_) => panic!("spilled"),
        }
    }

    #[test]
    fn a_writer_that_never_closes_does_not_hold_the_output() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        std::io::Write::write_all(&mut writer, b"partial").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut capture = Capture::new(reader, test_spool(dir.path()));
        capture.read_for(Duration::from_millis(10));
        let text = text(capture.finish(Duration::from_millis(50)));
        assert!(text.starts_with("partial\n[output no longer read"), "{text}");
        drop(writer);
    }

    #[test]
    fn a_closed_pipe_ends_the_output_without_a_note() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        std::io::Write::write_all(&mut writer, b"all of it\n").unwrap();
        drop(writer);
        let dir = tempfile::tempdir().unwrap();
        let output = Capture::new(reader, test_spool(dir.path())).finish(Duration::from_secs(30));
        assert_eq!(text(output), "all of it\n");
    }
}
