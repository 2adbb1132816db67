//! Reading a command's output pipe: the first and last bytes kept within a
//! limit, read while the runner waits for the command, so the runner never
//! blocks on the pipe — a process the command detached may hold it open
//! long after the command itself ended.

use std::collections::VecDeque;
use std::io::{PipeReader, Read};
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

/// Keeps the first and last `limit / 2` bytes of a stream.
struct HeadTail {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    half: usize,
    dropped: u64,
}

impl HeadTail {
    fn new(limit: usize) -> Self {
        HeadTail { head: Vec::new(), tail: VecDeque::new(), half: limit / 2, dropped: 0 }
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
            end_line(&mut self.head);
            let marker = format!("[… {} bytes of output not kept (over the capture limit) …]\n", self.dropped);
            self.head.extend_from_slice(marker.as_bytes());
        }
        self.head.extend(self.tail);
        (self.head, self.dropped)
    }
}

fn end_line(bytes: &mut Vec<u8>) {
    if !bytes.is_empty() && !bytes.ends_with(b"\n") {
        bytes.push(b'\n');
    }
}

/// The read end of a command's output pipe and what was kept of it.
pub struct Capture {
    reader: PipeReader,
    kept: HeadTail,
    /// False once every writer closed the pipe (end of file) or it failed.
    open: bool,
}

impl Capture {
    pub fn new(reader: PipeReader, limit: usize) -> Capture {
        Capture { reader, kept: HeadTail::new(limit), open: true }
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
    pub fn finish(mut self, grace: Duration) -> (Vec<u8>, u64) {
        let until = Instant::now() + grace;
        while self.open {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() || !self.readable(left) {
                break;
            }
            self.read_once();
        }
        let held_open = self.open;
        let (mut output, dropped) = self.kept.finish();
        if held_open {
            end_line(&mut output);
            output.extend_from_slice(
                b"[output no longer read: the command ended, a process it left running keeps the output open]\n",
            );
        }
        (output, dropped)
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
            Ok(n) => self.kept.push(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => self.open = false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_writer_that_never_closes_does_not_hold_the_output() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        std::io::Write::write_all(&mut writer, b"partial").unwrap();
        let mut capture = Capture::new(reader, 1 << 20);
        capture.read_for(Duration::from_millis(10));
        let (output, _) = capture.finish(Duration::from_millis(50));
        let text = String::from_utf8_lossy(&output);
        assert!(text.starts_with("partial\n[output no longer read"), "{text}");
        drop(writer);
    }

    #[test]
    fn a_closed_pipe_ends_the_output_without_a_note() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        std::io::Write::write_all(&mut writer, b"all of it\n").unwrap();
        drop(writer);
        let (output, _) = Capture::new(reader, 1 << 20).finish(Duration::from_secs(30));
        assert_eq!(output, b"all of it\n");
    }
}
