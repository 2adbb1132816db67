//! Faults from the hardening issue, reproduced through `lctx run` as an
//! agent would meet them: a command that detaches a process, an archive
//! that cannot be written (a full disk), and a daemon frozen by SIGSTOP.

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

use lean_ctx_tests::{Home, bin, children_of, describe, wait_until};

/// Far beyond any answer here; only a hang reaches it.
const HANG_GUARD: Duration = Duration::from_secs(90);

fn project(home: &Home) -> std::path::PathBuf {
    let root = home.path().join("proj");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    root
}

/// Runs `lctx ARGS`, killing it (and failing) should it hang.
fn lctx(home: &Home, dir: &Path, args: &[&str]) -> Output {
    let mut child = home
        .command(bin("lctx"))
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let finished = wait_until(HANG_GUARD, || child.try_wait().unwrap().is_some());
    if !finished {
        child.kill().unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(finished, "lctx {args:?} still ran after {HANG_GUARD:?}: {}", describe(&out));
    out
}

/// A shell command that starts `sleep 600` in a session of its own (it
/// prints its pid first), waits until it has, then runs `after`.
fn detaching(dir: &Path, after: &str) -> String {
    let ready = dir.join("detached-ready");
    let r = ready.display();
    format!("setsid sh -c 'echo $$; touch {r}; exec sleep 600' & while [ ! -e {r} ]; do sleep 0.01; done; {after}")
}

fn detached_pid(out: &Output) -> libc::pid_t {
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().find_map(|l| l.trim().parse().ok()).unwrap_or_else(|| panic!("no pid printed: {}", describe(out)))
}

/// No such process, or one that ended and waits to be reaped.
fn gone(pid: libc::pid_t) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_or(true, |stat| stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')))
}

#[test]
fn timeout_ends_a_process_that_called_setsid() {
    let home = Home::new();
    let root = project(&home);
    let out = lctx(&home, &root, &["run", "--timeout", "3", "--", &detaching(&root, "sleep 600")]);
    assert_eq!(out.status.code(), Some(124), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("[timed out after"), "{}", describe(&out));
    let pid = detached_pid(&out);
    assert!(gone(pid), "the detached process {pid} outlived the timeout");
}

#[test]
fn a_command_that_leaves_a_detached_process_running_is_answered_when_it_ends() {
    let home = Home::new();
    let root = project(&home);
    let out = lctx(&home, &root, &["run", "--", &detaching(&root, "echo started")]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("started") && text.contains("[output no longer read"), "{}", describe(&out));
    // It detached on purpose and keeps running; the test ends it.
    let pid = detached_pid(&out);
    // SAFETY: kill has no memory-safety preconditions.
    unsafe { libc::kill(pid, libc::SIGKILL) };
}

#[test]
fn a_command_whose_output_cannot_be_archived_still_reports_output_and_exit_code() {
    let home = Home::new();
    let root = project(&home);
    // A regular file where the archive directory belongs fails every put,
    // as a full disk does, and even for root.
    let data = home.dirs().data;
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("archive"), "not a directory").unwrap();
    let noisy = r#"for i in $(seq 1 400); do echo "compiling unit $i of 400 … ok"; done
echo "error[E0308]: mismatched types at src/parse.rs:88:17" >&2
exit 101"#;
    let out = lctx(&home, &root, &["run", "--", noisy]);
    assert_eq!(out.status.code(), Some(101), "{}", describe(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("error[E0308]: mismatched types at src/parse.rs:88:17"), "{}", describe(&out));
    assert!(text.contains("[full output not archived"), "{}", describe(&out));
}

/// Takes a stopped process's SIGCONT and SIGKILL with it, should the test
/// fail before it was ended, so no frozen daemon outlives the test.
struct Frozen(u32);

impl Drop for Frozen {
    fn drop(&mut self) {
        lean_ctx_tests::kill(self.0, libc::SIGKILL);
    }
}

#[test]
fn a_frozen_daemon_fails_calls_in_progress_new_calls_fall_back_and_stop_ends_it() {
    let home = Home::new();
    let root = project(&home);
    std::fs::write(root.join("a.txt"), "alpha\n").unwrap();
    let started = lctx(&home, &root, &["daemon", "start"]);
    assert!(started.status.success(), "{}", describe(&started));
    let pid = *home.daemon_pids().first().expect("a daemon runs");
    let mut running = home
        .command(bin("lctx"))
        .current_dir(&root)
        .args(["run", "--", "sleep 60; echo never"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Frozen only once the command runs in the daemon (its shell is the
    // daemon's child): earlier, the call would not be in progress yet.
    assert!(wait_until(HANG_GUARD, || !children_of(pid).is_empty()), "the command never started in the daemon");
    lean_ctx_tests::kill(pid, libc::SIGSTOP);
    let _frozen = Frozen(pid);

    // The call in progress notices the silence through its keepalive.
    let started_wait = std::time::Instant::now();
    assert!(wait_until(Duration::from_secs(30), || running.try_wait().unwrap().is_some()), "lctx run still waits");
    let out = running.wait_with_output().unwrap();
    assert!(started_wait.elapsed() < Duration::from_secs(20), "took {:?}", started_wait.elapsed());
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("never"), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("stopped answering"), "{}", describe(&out));

    // A new call does not wait on it: its own child serves it.
    let read = lctx(&home, &root, &["read", "a.txt", "-m", "full", "--json"]);
    assert!(read.status.success(), "{}", describe(&read));
    let view: serde_json::Value = serde_json::from_slice(&read.stdout).unwrap();
    assert_eq!(view["files"][0]["content"], "alpha\n", "{view}");
    assert_eq!(view["served_by"], "LOCAL", "{view}");

    // And stop ends it although it answers nothing.
    let stop = lctx(&home, &root, &["daemon", "stop"]);
    assert!(stop.status.success(), "{}", describe(&stop));
    assert!(wait_until(Duration::from_secs(10), || !lean_ctx_tests::process_alive(pid)), "pid {pid} still runs");
}
