//! Writing to a closed pipe (`lctx … | head -1`).
//!
//! Rust ignores SIGPIPE, so a write to a pipe whose reader has gone fails,
//! and `println!` turns that failure into a panic ("failed printing to
//! stdout: Broken pipe", exit 101). A command-line tool should instead stop
//! quietly, as `cat` and `ls` do.
//!
//! SIGPIPE stays ignored for the whole process, because the clients also
//! write to sockets: to the daemon, and to a fallback `lean-ctxd` that may
//! crash mid-request. A write there must fail with EPIPE and be reported
//! with the child's stderr, not kill the client silently. So only writes to
//! stdout go through [`out!`](crate::out) and [`outln!`](crate::outln), which
//! end the process by SIGPIPE once the reader has gone.

use std::fmt;
use std::io::{self, Write as _};

/// Writes `args` to stdout and flushes. When the reader has gone, the
/// process ends as a default-disposition SIGPIPE would end it; any other
/// write failure is left to the final flush of the caller.
pub fn write_stdout(args: fmt::Arguments<'_>) {
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush())
        && e.kind() == io::ErrorKind::BrokenPipe
    {
        die_of_sigpipe();
    }
}

fn die_of_sigpipe() -> ! {
    // SAFETY: signal() with SIG_DFL installs no handler; raise() then ends
    // the process the way shells expect of `cmd | head`.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::raise(libc::SIGPIPE);
    }
    // raise() returns only if the signal was blocked; 128 + 13 is what a
    // shell would report for the same ending.
    std::process::exit(141)
}

/// `print!` that stops quietly on a closed pipe.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::pipe::write_stdout(format_args!($($arg)*)) };
}

/// `println!` that stops quietly on a closed pipe.
#[macro_export]
macro_rules! outln {
    () => { $crate::pipe::write_stdout(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::pipe::write_stdout(format_args!("{}\n", format_args!($($arg)*))) };
}
