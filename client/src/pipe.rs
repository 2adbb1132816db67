//! Writing to a closed pipe (`lctx … | head -1`).
//!
//! Rust ignores SIGPIPE, so a write to a pipe whose reader has gone fails,
//! and `println!` turns that failure into a panic ("failed printing to
//! stdout: Broken pipe", exit 101). A command-line tool should instead stop
//! quietly, as `cat` and `ls` do: restoring the default disposition makes the
//! kernel end the process with SIGPIPE, which shells treat as normal.

/// Restores SIGPIPE's default action for this process. Call first in
/// `main` of a program whose output may be piped into `head`.
pub fn stop_quietly_on_closed_pipe() {
    // SAFETY: signal() with SIG_DFL installs no handler; it only changes the
    // disposition, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
