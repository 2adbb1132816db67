//! `lctx-shell run -- CMD ARGS…`: runs the command here, not in the daemon,
//! so it keeps the caller's stdin, environment, working directory, limits
//! and process group; captures its output; prints it compressed; ends with
//! the command's own status.
//!
//! Before anything runs, the user's permission rules are asked (see
//! permission.rs): a refused command is not run and ends with status 126.
//!
//! Nothing else here may change what the command does. When capturing would (see
//! passthrough.rs), or when anything fails before the command has started,
//! lctx-shell execs the command in its own place, unchanged. Once the
//! command has started, every failure falls back to printing its raw output.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};

use clap::Args;

use crate::signals::{self, Blocked};
use crate::{capture, compress, passthrough, permission};

#[derive(Args, Debug)]
pub struct RunArgs {
    /// File to remove once lctx-shell has taken charge of the command; the
    /// hook creates it and runs the command itself if it is still there.
    #[arg(long, value_name = "FILE")]
    ack: Option<PathBuf>,
    /// The interactive shell whose stdout the agent reads (set by the hook):
    /// output going anywhere else is not compressed.
    #[arg(long, value_name = "PID")]
    shell_pid: Option<u32>,
    /// Nobody was asked about this command (set by `lctx-shell hook`: the
    /// host showed its user the rewritten command), so an ask rule refuses
    /// it even inside the host's own shell tool.
    #[arg(long)]
    unasked: bool,
    /// The command and its arguments, run as given (no shell).
    #[arg(last = true, required = true, num_args = 1.., value_name = "COMMAND")]
    command: Vec<OsString>,
}

/// How lctx-shell ends, as the command did.
pub enum Ending {
    Exit(i32),
    Signal(i32),
}

/// The status of a command the user's rules refused: it was found but not
/// run, as a shell says of a command it cannot execute.
const REFUSED: i32 = 126;

pub fn run(args: RunArgs) -> Ending {
    let ack = args.ack.as_deref();
    if let permission::Decision::Refuse(why) = permission::decide(&args.command, args.unasked) {
        if !take_charge(ack) {
            return Ending::Exit(1);
        }
        eprintln!("{why}");
        return Ending::Exit(REFUSED);
    }
    let stdin_is_terminal = io::stdin().is_terminal();
    if passthrough::needs_terminal(&args.command, stdin_is_terminal) || !passthrough::output_watched(args.shell_pid) {
        return exec_unchanged(&args.command, ack, None);
    }
    let Ok((output, output_writer)) = io::pipe() else { return exec_unchanged(&args.command, ack, None) };
    let Ok(output_writer2) = output_writer.try_clone() else { return exec_unchanged(&args.command, ack, None) };
    let Ok(blocked) = signals::block() else { return exec_unchanged(&args.command, ack, None) };
    if !take_charge(ack) {
        blocked.release();
        return Ending::Exit(1);
    }
    let mut command = Command::new(&args.command[0]);
    command.args(&args.command[1..]).stdout(output_writer).stderr(output_writer2);
    blocked.unblock_in(&mut command);
    die_with_parent(&mut command);
    let spawned = command.spawn();
    // The Command holds the pipe's write ends; the reader sees the end of
    // the output only once every copy is closed.
    drop(command);
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => return exec_unchanged(&args.command, None, Some((e, blocked))),
    };
    let (captured, exited) = capture::collect(output, &mut child, &blocked);
    let status = exited.or_else(|| capture::wait_exit(&mut child, &blocked));
    blocked.release();
    print_output(&args.command, &captured, status.as_ref());
    match status {
        Some(status) => ending(status),
        None => Ending::Exit(1),
    }
}

/// Removes the hook's ack file (see hooks/mod.rs): from here on the hook
/// will not run the command a second time. False when the file cannot be
/// removed; the command must then not run here, the hook will run it.
fn take_charge(ack: Option<&Path>) -> bool {
    match ack.map(std::fs::remove_file) {
        None | Some(Ok(())) => true,
        Some(Err(e)) => e.kind() == io::ErrorKind::NotFound,
    }
}

/// Replaces lctx-shell with the command, as if the hook had run it itself.
/// `failed_spawn` is the error of a spawn tried first (with the signal mask
/// to undo): a command that does not exist is reported as a shell would.
fn exec_unchanged(command: &[OsString], ack: Option<&Path>, failed_spawn: Option<(io::Error, Blocked)>) -> Ending {
    if let Some((error, blocked)) = failed_spawn {
        blocked.release();
        if matches!(error.kind(), io::ErrorKind::NotFound | io::ErrorKind::PermissionDenied) {
            return not_started(&command[0], &error);
        }
    }
    if !take_charge(ack) {
        return Ending::Exit(1);
    }
    let error = Command::new(&command[0]).args(&command[1..]).exec();
    not_started(&command[0], &error)
}

/// The shell's message and status for a command that cannot start: 127 when
/// it does not exist, 126 when it cannot be executed.
fn not_started(program: &OsString, error: &io::Error) -> Ending {
    let program = program.to_string_lossy();
    if error.kind() == io::ErrorKind::NotFound {
        eprintln!("lctx-shell: {program}: command not found");
        return Ending::Exit(127);
    }
    eprintln!("lctx-shell: {program}: {error}");
    Ending::Exit(126)
}

/// On Linux the command is killed if lctx-shell dies without passing on a
/// signal (SIGKILL), so it never runs on unobserved with its output going
/// nowhere.
fn die_with_parent(command: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        let parent = std::process::id();
        // SAFETY: prctl and getppid are async-signal-safe, which is all
        // pre_exec requires; the closure allocates nothing.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(io::Error::last_os_error());
                }
                // lctx-shell may have died before the prctl.
                if u32::try_from(libc::getppid()) != Ok(parent) {
                    return Err(io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

/// Prints what the command wrote: compressed when that works, else raw.
fn print_output(command: &[OsString], captured: &capture::Captured, status: Option<&ExitStatus>) {
    if captured.spilled {
        return;
    }
    let exit_code = status.map_or(1, |s| code_of(*s));
    // The line `lctx run` would send for these words, so compression reads it alike.
    let words: Vec<String> = command.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    let line = lctx::capability::shell::sh_words(&words);
    let shaped = compress::shape(&line, &captured.bytes, exit_code);
    let mut out = io::stdout().lock();
    let written = match shaped {
        Some(text) => {
            let newline = if text.is_empty() || text.ends_with('\n') { "" } else { "\n" };
            out.write_all(text.as_bytes()).and_then(|()| out.write_all(newline.as_bytes()))
        }
        None => out.write_all(&captured.bytes),
    };
    // Nobody reads any more (EPIPE): nothing else to do.
    let _ = written.and_then(|()| out.flush());
}

/// The status a shell shows for it: the exit code, or 128 + signal.
fn code_of(status: ExitStatus) -> i32 {
    status.code().or_else(|| status.signal().map(|s| 128 + s)).unwrap_or(1)
}

fn ending(status: ExitStatus) -> Ending {
    match (status.code(), status.signal()) {
        (Some(code), _) => Ending::Exit(code),
        (None, Some(sig)) => Ending::Signal(sig),
        (None, None) => Ending::Exit(1),
    }
}
