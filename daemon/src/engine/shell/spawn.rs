//! Starting a command's process without copying the daemon's address space.
//!
//! `fork` copies the page tables of the whole daemon (its caches, indexes and tokenizer tables:
//! ~85 MiB resident) only for the child to throw them away at `exec`; on the 2-core machine that
//! was most of a `true`'s 10 ms through ctx_shell (perf: `copy_page_range` and `exit_mmap`'s
//! `unmap_page_range` 42 % of the daemon's time). So the child is made as `posix_spawn` makes
//! it, by `clone(CLONE_VM | CLONE_VFORK)`: it runs on a stack of its own in the daemon's memory
//! while this thread waits, does the few system calls a command needs before `exec` (its
//! standard streams, its directory, a session of its own, the user's umask, the subreaper mark,
//! default signal dispositions), and execs. `posix_spawn` itself cannot become a subreaper or set
//! a umask. Everything the child touches is made before the clone; it allocates nothing and calls
//! only async-signal-safe functions.

use std::ffi::{CString, c_char, c_int, c_void};
use std::io;
use std::os::fd::RawFd;
use std::path::Path;

/// The child's stack, used until it execs: system calls only.
const STACK: usize = 64 * 1024;

/// What to start: `program` with `args` (its name first) and exactly `env`, in `cwd`.
pub struct Spec<'a> {
    pub program: &'a str,
    pub args: &'a [&'a str],
    pub env: &'a [(String, String)],
    pub cwd: &'a Path,
    /// Standard input, output and error, in that order.
    pub stdio: [RawFd; 3],
    pub umask: Option<libc::mode_t>,
}

/// Everything the child reads, made beforehand.
struct Child {
    program: CString,
    argv: Vec<*const c_char>,
    envp: Vec<*const c_char>,
    cwd: CString,
    stdio: [RawFd; 3],
    umask: Option<libc::mode_t>,
    /// The signal mask to exec with: the spawning thread's own.
    mask: libc::sigset_t,
    /// Where the child leaves the errno of the step that failed (the memory is shared).
    failed: c_int,
}

fn c_string(text: &str, what: &str) -> io::Result<CString> {
    CString::new(text).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, format!("{what} holds a NUL byte")))
}

/// Starts the process, a child of this one (reaped with `waitpid`); its pid, or why it could not
/// be started (its directory or program missing, the system out of processes).
pub fn spawn(spec: &Spec<'_>) -> io::Result<libc::pid_t> {
    let program = c_string(spec.program, "the program")?;
    let args = spec.args.iter().map(|a| c_string(a, "an argument")).collect::<io::Result<Vec<_>>>()?;
    let env = spec
        .env
        .iter()
        .map(|(k, v)| c_string(&format!("{k}={v}"), "the environment"))
        .collect::<io::Result<Vec<_>>>()?;
    let cwd = c_string(&spec.cwd.to_string_lossy(), "the directory")?;
    let pointers = |strings: &[CString]| strings.iter().map(|s| s.as_ptr()).chain([std::ptr::null()]).collect();
    let mut child = Child {
        program,
        argv: pointers(&args),
        envp: pointers(&env),
        cwd,
        stdio: spec.stdio,
        umask: spec.umask,
        // SAFETY: an all-zero sigset_t is a valid value, overwritten below.
        mask: unsafe { std::mem::zeroed() },
        failed: 0,
    };
    let mut stack = vec![0u8; STACK];
    // SAFETY: the stack is ours for the child's whole life before exec (CLONE_VFORK suspends
    // this thread until the child execs or exits); the top is 16-byte aligned as the ABI
    // requires. Every signal is blocked around the clone, so no handler of the daemon's runs in
    // the child, which shares its memory; the child resets the handled ones to their defaults
    // before it takes the thread's own mask back and execs. `child` outlives the clone call.
    let pid = unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut child.mask);
        let top = stack.as_mut_ptr().add(STACK);
        let top = top.sub(top as usize % 16);
        let pid = libc::clone(
            start,
            top.cast::<c_void>(),
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (&raw mut child).cast::<c_void>(),
        );
        libc::pthread_sigmask(libc::SIG_SETMASK, &child.mask, std::ptr::null_mut());
        pid
    };
    drop(stack);
    if pid == -1 {
        return Err(io::Error::last_os_error());
    }
    if child.failed != 0 {
        // It exited without exec: reap it.
        // SAFETY: waitpid writes only the status given.
        unsafe { libc::waitpid(pid, std::ptr::null_mut(), 0) };
        return Err(io::Error::from_raw_os_error(child.failed));
    }
    // Kept alive until here: the child read them before it execed.
    drop((args, env));
    Ok(pid)
}

/// The child, until exec. Only system calls: it shares the daemon's memory and this thread's
/// thread-local storage.
extern "C" fn start(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` is the `Child` `spawn` passed, alive while this thread of the daemon waits.
    let child = unsafe { &mut *arg.cast::<Child>() };
    // SAFETY: each call is async-signal-safe and reads only what `spawn` prepared.
    unsafe {
        let fail = |child: &mut Child| -> c_int {
            child.failed = *libc::__errno_location();
            libc::_exit(127)
        };
        // The daemon's handlers would run here, in its memory: every handled signal goes back
        // to its default (exec would do so too, but a signal may come before). The daemon
        // ignores SIGPIPE and SIGXFSZ; a command gets their defaults.
        for sig in 1..=libc::SIGRTMAX() {
            let mut action: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut action) == 0
                && (action.sa_sigaction != libc::SIG_IGN || matches!(sig, libc::SIGPIPE | libc::SIGXFSZ))
                && action.sa_sigaction != libc::SIG_DFL
            {
                libc::signal(sig, libc::SIG_DFL);
            }
        }
        for (target, &fd) in child.stdio.iter().enumerate() {
            let target = target as RawFd;
            let moved = if fd == target {
                // Already in place: only its close-on-exec flag to clear.
                libc::fcntl(fd, libc::F_SETFD, 0)
            } else {
                libc::dup2(fd, target)
            };
            if moved == -1 {
                return fail(child);
            }
        }
        if libc::chdir(child.cwd.as_ptr()) == -1 || libc::setsid() == -1 {
            return fail(child);
        }
        if let Some(mask) = child.umask {
            libc::umask(mask);
        }
        if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0) == -1 {
            return fail(child);
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &child.mask, std::ptr::null_mut());
        libc::execve(child.program.as_ptr(), child.argv.as_ptr(), child.envp.as_ptr());
        fail(child)
    }
}

/// How a child ended, as `waitpid` tells it.
pub fn exit_status(status: c_int) -> std::process::ExitStatus {
    std::os::unix::process::ExitStatusExt::from_raw(status)
}

/// The child's status if it has ended (and so reaped), without waiting.
pub fn try_wait(pid: libc::pid_t) -> io::Result<Option<std::process::ExitStatus>> {
    let mut status = 0;
    // SAFETY: waitpid writes only `status`.
    match unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) } {
        0 => Ok(None),
        -1 => Err(io::Error::last_os_error()),
        _ => Ok(Some(exit_status(status))),
    }
}

/// Waits for the child to end and reaps it.
pub fn wait(pid: libc::pid_t) -> io::Result<std::process::ExitStatus> {
    let mut status = 0;
    loop {
        // SAFETY: waitpid writes only `status`.
        match unsafe { libc::waitpid(pid, &mut status, 0) } {
            -1 if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => continue,
            -1 => return Err(io::Error::last_os_error()),
            _ => return Ok(exit_status(status)),
        }
    }
}
