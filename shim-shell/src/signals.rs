//! Signals while a captured command runs.
//!
//! The command stays in lctx-shell's process group, so what the terminal
//! sends (Ctrl-C, Ctrl-\, hangup of the group) reaches it directly, and so
//! does a kill of the whole group. lctx-shell itself must not die of those
//! signals while the command runs, or the output captured so far would be
//! lost: it blocks them, and while it waits for the command it takes the
//! pending ones and passes on the ones sent to lctx-shell alone (`kill PID`,
//! `timeout`). Once the command has ended they are unblocked again: the
//! daemon lctx-shell may start must not inherit the mask, and a signal then
//! is meant for lctx-shell itself. After printing, lctx-shell dies of the
//! signal that killed the command, so the shell sees the same status and,
//! for Ctrl-C, abandons the rest of the line as it would.

use std::io;
use std::process::Command;

use libc::c_int;

const FORWARDED: [c_int; 4] = [libc::SIGHUP, libc::SIGINT, libc::SIGQUIT, libc::SIGTERM];

fn set_of(signals: &[c_int]) -> libc::sigset_t {
    // SAFETY: sigemptyset initialises the set before sigaddset reads it; the
    // signal numbers are valid.
    unsafe {
        let mut set = std::mem::zeroed::<libc::sigset_t>();
        libc::sigemptyset(&mut set);
        for &sig in signals {
            libc::sigaddset(&mut set, sig);
        }
        set
    }
}

/// The forwarded signals, blocked in this (the only) thread, with the mask
/// to return to.
pub struct Blocked {
    previous: libc::sigset_t,
}

pub fn block() -> io::Result<Blocked> {
    let set = set_of(&FORWARDED);
    // SAFETY: both pointers are valid for the call.
    let mut previous = unsafe { std::mem::zeroed::<libc::sigset_t>() };
    match unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut previous) } {
        0 => Ok(Blocked { previous }),
        e => Err(io::Error::from_raw_os_error(e)),
    }
}

impl Blocked {
    /// Gives `command` the mask lctx-shell started with: a child inherits the
    /// mask, and a command with Ctrl-C blocked could not be interrupted.
    pub fn unblock_in(&self, command: &mut Command) {
        use std::os::unix::process::CommandExt;
        let previous = self.previous;
        // SAFETY: pthread_sigmask is async-signal-safe, which is all pre_exec
        // requires; the closure allocates nothing.
        unsafe {
            command.pre_exec(move || match libc::pthread_sigmask(libc::SIG_SETMASK, &previous, std::ptr::null_mut()) {
                0 => Ok(()),
                e => Err(io::Error::from_raw_os_error(e)),
            });
        }
    }

    /// Passes on to `pid` the pending signals sent to lctx-shell alone, and
    /// drops those the terminal sent to the whole group (`pid` has them).
    /// Only while `pid` has not been reaped, so it cannot be another
    /// process's by then.
    pub fn forward_pending(&self, pid: u32) {
        let Ok(pid) = libc::pid_t::try_from(pid) else { return };
        while let Some((sig, to_group)) = take_pending() {
            if !to_group {
                // SAFETY: kill has no memory-safety preconditions.
                unsafe { libc::kill(pid, sig) };
            }
        }
    }

    /// Drops what is pending (it was meant for a command that has ended) and
    /// unblocks: from here on a signal acts on lctx-shell itself.
    pub fn release(self) {
        while take_pending().is_some() {}
        // SAFETY: the set was filled by pthread_sigmask.
        unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &self.previous, std::ptr::null_mut()) };
    }
}

/// A pending forwarded signal, taken, and whether the terminal sent it to
/// the whole foreground group. Linux tells by the sender: the kernel
/// (`SI_KERNEL`) for terminal signals.
#[cfg(target_os = "linux")]
fn take_pending() -> Option<(c_int, bool)> {
    let set = set_of(&FORWARDED);
    let now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: info is written by sigtimedwait before it is read.
    let mut info = unsafe { std::mem::zeroed::<libc::siginfo_t>() };
    let sig = unsafe { libc::sigtimedwait(&set, &mut info, &now) };
    (sig > 0).then_some((sig, info.si_code == libc::SI_KERNEL))
}

/// Without `sigtimedwait` the sender is unknown: Ctrl-C and Ctrl-\ are taken
/// to come from the terminal, hangup and terminate to be meant for
/// lctx-shell alone.
#[cfg(not(target_os = "linux"))]
fn take_pending() -> Option<(c_int, bool)> {
    // SAFETY: the sets are initialised before use; sigwait on a pending
    // signal returns at once.
    unsafe {
        let mut pending = std::mem::zeroed::<libc::sigset_t>();
        libc::sigpending(&mut pending);
        let sig = FORWARDED.into_iter().find(|&s| libc::sigismember(&pending, s) == 1)?;
        let mut taken: c_int = 0;
        (libc::sigwait(&set_of(&[sig]), &mut taken) == 0)
            .then_some((taken, taken == libc::SIGINT || taken == libc::SIGQUIT))
    }
}

/// Ends this process the way the command ended when a signal killed it:
/// dies of the same signal when that leaves no core file, else exits with
/// 128 + signal, the status a shell reports for it.
pub fn die_like(sig: c_int) -> ! {
    if matches!(sig, libc::SIGHUP | libc::SIGINT | libc::SIGPIPE | libc::SIGTERM | libc::SIGKILL) {
        // SAFETY: resetting a disposition, unblocking and raising have no
        // memory-safety preconditions.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set_of(&[sig]), std::ptr::null_mut());
            libc::raise(sig);
        }
    }
    std::process::exit(128 + sig)
}
