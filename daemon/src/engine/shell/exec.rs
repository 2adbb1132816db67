//! Running a shell command for an agent: `sh -c CMD` in the caller's
//! directory and environment, in its own process group with stdin from
//! /dev/null, stdout and stderr captured in their true order. A timeout or
//! cancel ends every descendant — detached ones included (see
//! `descendants.rs`) — and reaps the child; the call returns once the
//! command's own process ended, whoever still holds its output open.

use std::os::fd::AsRawFd;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::capture::Capture;
use super::descendants;
use super::spawn;
use super::spool::{Output, Spool};
use super::watchdog::Watchdog;
use crate::engine::cancel::Cancel;
use crate::engine::error::{EngineError, EngineResult};

/// Longest timeout a caller may ask for.
pub const MAX_TIMEOUT: Duration = Duration::from_millis(lean_ctx_common::limits::MAX_COMMAND_TIMEOUT_MS);
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
/// First and longest pause between looks at a running command.
const FIRST_POLL: Duration = Duration::from_micros(100);
const MAX_POLL: Duration = Duration::from_millis(5);
/// How long output is still read after the command's process ended. Its
/// process group is gone by then; only a process it detached can still be
/// writing, and the answer does not wait for that.
const EXIT_GRACE: Duration = Duration::from_millis(500);
/// How long a command runs before it gets a watchdog (see [`Watchdog`]): most commands end
/// sooner and pay nothing for one (a process start); one the engine's death cuts off within this
/// time is not watched.
const WATCH_AFTER: Duration = Duration::from_millis(100);

#[derive(Debug, Clone)]
pub struct ExecParams {
    pub command: String,
    pub cwd: PathBuf,
    /// The caller's whole environment (the daemon's own is not inherited).
    pub env: Vec<(String, String)>,
    pub timeout: Duration,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecOutcome {
    /// stdout and stderr interleaved in the order they were written.
    pub output: Output,
    /// The exit code; 128 + signal when killed by a signal.
    pub exit_code: i32,
    pub timed_out: bool,
    pub cancelled: bool,
    pub duration: Duration,
}

pub fn validate(params: &ExecParams) -> EngineResult<()> {
    if params.command.trim().is_empty() {
        return Err(EngineError::invalid("empty command"));
    }
    if params.command.contains('\0') {
        return Err(EngineError::invalid("the command contains a NUL byte"));
    }
    for (name, value) in &params.env {
        if name.is_empty() || name.contains(['=', '\0']) {
            return Err(EngineError::invalid(format!(
                "the environment variable name {name:?} is not valid: a name is not empty and holds no `=` \
                 or NUL byte"
            )));
        }
        if value.contains('\0') {
            return Err(EngineError::invalid(format!(
                "the value of the environment variable {name} contains a NUL byte, which no environment can hold"
            )));
        }
    }
    if params.timeout.is_zero() || params.timeout > MAX_TIMEOUT {
        return Err(EngineError::invalid(format!(
            "timeout must be between 1 ms and {} ms ({} s)",
            MAX_TIMEOUT.as_millis(),
            MAX_TIMEOUT.as_secs()
        )));
    }
    if !params.cwd.is_dir() {
        return Err(EngineError::not_found(format!("the working directory {} does not exist", params.cwd.display())));
    }
    Ok(())
}

/// Runs the command to completion (or timeout, or cancellation), its output
/// going to `spool` as it arrives.
pub fn run(params: &ExecParams, spool: Spool<'_>, cancel: &Cancel) -> EngineResult<ExecOutcome> {
    validate(params)?;
    let started = Instant::now();
    let (reader, writer) = std::io::pipe().map_err(|e| EngineError::internal(format!("cannot create a pipe: {e}")))?;
    let writer_err = writer.try_clone().map_err(|e| EngineError::internal(format!("cannot duplicate a pipe: {e}")))?;
    let stdin = std::fs::File::open("/dev/null")
        .map_err(|e| EngineError::internal(format!("cannot open /dev/null for the command's input: {e}")))?;
    // The command leads a session of its own (and so a process group: what it leaves running in
    // either is ended with it), is a subreaper (so detached descendants stay below it), and takes
    // back the user's umask — lean-ctxd runs under 077 to keep its own files private, and the
    // user's build outputs must not become private too — and SIGPIPE's and SIGXFSZ's defaults,
    // which the daemon ignores (see `spawn.rs`).
    let spec = spawn::Spec {
        program: "/bin/sh",
        args: &["/bin/sh", "-c", &params.command],
        env: &params.env,
        cwd: &params.cwd,
        stdio: [stdin.as_raw_fd(), writer.as_raw_fd(), writer_err.as_raw_fd()],
        umask: lean_ctx_common::privacy::user_umask(),
    };
    let leader = spawn::spawn(&spec).map_err(|e| EngineError::internal(format!("cannot start /bin/sh: {e}")))?;
    // Our copies of the write end go; only the command's processes hold it now.
    drop((stdin, writer, writer_err));
    // Ends the command's tree should this engine die before it sees the command end.
    let (mut watchdog, mut watched) = (None, false);
    let mut capture = Capture::new(reader, spool);

    let (mut timed_out, mut cancelled) = (false, false);
    // Looks at the command (portable, and cancellation needs a look now and
    // then) between waits for output that start short and double: a quick
    // command is answered within a fraction of a millisecond, a long silent
    // one costs ~200 wake-ups a second.
    let mut pause = FIRST_POLL;
    let status = loop {
        match spawn::try_wait(leader) {
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
            descendants::kill_tree(leader);
            break spawn::wait(leader).map_err(|e| EngineError::internal(format!("cannot reap the command: {e}")))?;
        }
        if !watched && started.elapsed() >= WATCH_AFTER {
            watchdog = Watchdog::start(leader);
            watched = true;
        }
        capture.read_for(pause);
        pause = (pause * 2).min(MAX_POLL);
    };
    // The shell exited; background grandchildren may still hold the pipe.
    // Those of its session end with it; one that detached is not waited for.
    descendants::end_session(leader);
    if let Some(watchdog) = watchdog {
        watchdog.release();
    }
    let output = capture.finish(EXIT_GRACE);
    let exit_code = status.code().unwrap_or_else(|| 128 + status.signal().unwrap_or(0));
    Ok(ExecOutcome { output, exit_code, timed_out, cancelled, duration: started.elapsed() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::shell::spool::test_spool;

    /// [`run`] with a spool archiving into a directory of its own.
    fn exec(params: &ExecParams, cancel: &Cancel) -> EngineResult<ExecOutcome> {
        let dir = tempfile::tempdir().unwrap();
        run(params, test_spool(dir.path()), cancel)
    }

    fn whole(out: &ExecOutcome) -> String {
        match &out.output {
            Output::Whole(bytes) => String::from_utf8_lossy(bytes).into_owned(),
            Output::Spilled(_) => panic!("a small output was spilled"),
        }
    }

    fn params(cmd: &str, timeout_ms: u64) -> ExecParams {
        ExecParams {
            command: cmd.into(),
            cwd: std::env::temp_dir(),
            env: vec![("PATH".into(), "/usr/bin:/bin".into()), ("GREETING".into(), "hi".into())],
            timeout: Duration::from_millis(timeout_ms),
        }
    }

    #[test]
    fn captures_both_streams_in_order_with_the_exit_code() {
        let out = exec(&params("echo one; echo two >&2; echo three; exit 3", 5000), &Cancel::default()).unwrap();
        assert_eq!(whole(&out), "one\ntwo\nthree\n");
        assert_eq!(out.exit_code, 3);
        assert!(!out.timed_out);
    }

    #[test]
    fn uses_the_callers_environment_and_directory_only() {
        let out = exec(&params("echo $GREETING; pwd; echo ${HOME:-nohome}", 5000), &Cancel::default()).unwrap();
        let text = whole(&out);
        assert!(text.starts_with("hi\n"), "{text}");
        assert!(text.ends_with("nohome\n"), "{text}");
    }

    #[test]
    fn timeout_kills_grandchildren_too() {
        let marker = std::env::temp_dir().join(format!("lctx-grandchild-{}", std::process::id()));
        let cmd = format!("(sleep 30; touch {}) & sleep 30", marker.display());
        let out = exec(&params(&cmd, 300), &Cancel::default()).unwrap();
        assert!(out.timed_out);
        assert!(out.duration < Duration::from_secs(5), "{:?}", out.duration);
        std::thread::sleep(Duration::from_millis(100));
        assert!(!marker.exists());
    }

    /// Whether `pid` is gone: no such process, or one that ended and waits
    /// to be reaped by whoever inherited it.
    fn gone(pid: &str) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map_or(true, |stat| stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')))
    }

    /// A command that starts a process in a session of its own (which then
    /// prints its pid and runs `then`), waits until it has, and runs `after`.
    fn detaching(name: &str, then: &str, after: &str) -> (String, PathBuf) {
        let ready = std::env::temp_dir().join(format!("lctx-{name}-{}", std::process::id()));
        let _ = std::fs::remove_file(&ready);
        let r = ready.display();
        let cmd =
            format!("setsid sh -c 'echo $$; touch {r}; {then}' & while [ ! -e {r} ]; do sleep 0.01; done; {after}");
        (cmd, ready)
    }

    #[test]
    fn timeout_ends_a_descendant_that_left_the_session() {
        let (cmd, ready) = detaching("timeout", "exec sleep 30", "sleep 30");
        let out = exec(&params(&cmd, 3000), &Cancel::default()).unwrap();
        assert!(out.timed_out);
        let pid = whole(&out).lines().next().unwrap_or_default().to_string();
        assert!(!pid.is_empty() && gone(&pid), "the detached process {pid:?} still runs");
        let _ = std::fs::remove_file(ready);
    }

    /// QA: `timeout` (and `set -m`) put what they run in a process group of its own, which outlived
    /// a command that ended by itself: whatever stays in the command's session is ended with it.
    #[test]
    fn what_a_command_leaves_in_other_process_groups_of_its_session_is_ended() {
        let cmd = "timeout 30 sleep 29 & echo $!; (set -m; sleep 28 >/dev/null 2>&1 & echo $!); echo started";
        let out = exec(&params(cmd, 20_000), &Cancel::default()).unwrap();
        let text = whole(&out);
        assert!(text.ends_with("started\n") && !text.contains("[output no longer read"), "{text}");
        let pids: Vec<&str> = text.lines().filter(|l| l.parse::<u32>().is_ok()).collect();
        assert_eq!(pids.len(), 2, "{text}");
        std::thread::sleep(Duration::from_millis(100));
        for pid in pids {
            assert!(gone(pid), "{pid} still runs after the command ended");
        }
    }

    #[test]
    fn a_detached_process_holding_the_output_does_not_hold_the_answer() {
        let (cmd, ready) = detaching("exit", "exec sleep 30", "echo done");
        let out = exec(&params(&cmd, 20_000), &Cancel::default()).unwrap();
        assert!(!out.timed_out, "the call waited for the detached process");
        assert_eq!(out.exit_code, 0);
        let text = whole(&out);
        assert!(text.contains("done\n") && text.contains("[output no longer read"), "{text}");
        // It detached on purpose: it keeps running, and this test ends it.
        let pid: libc::pid_t = text.lines().find_map(|l| l.parse().ok()).unwrap();
        // SAFETY: kill has no memory-safety preconditions.
        unsafe { libc::kill(pid, libc::SIGKILL) };
        let _ = std::fs::remove_file(ready);
    }

    #[test]
    fn stdin_is_empty_and_cancel_stops_the_command() {
        let out = exec(&params("cat; echo done", 5000), &Cancel::default()).unwrap();
        assert_eq!(whole(&out), "done\n");
        let cancel = Cancel::default();
        let c2 = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            c2.cancel();
        });
        let out = exec(&params("sleep 20", 20_000), &cancel).unwrap();
        assert!(out.cancelled && out.exit_code == 128 + libc::SIGKILL);
    }

    #[test]
    fn bad_requests_are_refused() {
        assert!(exec(&params("", 1000), &Cancel::default()).is_err());
        assert!(exec(&params("true", 0), &Cancel::default()).is_err());
        let mut p = params("true", 1000);
        p.cwd = PathBuf::from("/nonexistent/dir");
        assert!(exec(&p, &Cancel::default()).unwrap_err().message.contains("does not exist"));
    }

    #[test]
    fn a_nul_or_equals_sign_in_the_environment_is_a_bad_argument() {
        for (name, value) in [("BAD\0NAME", "x"), ("A=B", "x"), ("", "x"), ("GOOD", "bad\0value")] {
            let mut p = params("true", 1000);
            p.env.push((name.into(), value.into()));
            let e = exec(&p, &Cancel::default()).unwrap_err();
            assert_eq!(e.kind, crate::engine::error::ErrorKind::InvalidArgument, "{name:?}={value:?}: {e}");
            assert!(e.message.contains("environment variable"), "{e}");
        }
    }
}
