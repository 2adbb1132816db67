//! Acceptance of the daemon's lifecycle: autostart, singleton, recovery,
//! restart on another build, idle exit, graceful stop.

use std::time::Duration;

use lean_ctx_tests::{Home, bin, client_options, describe, kill, process_alive, wait_until};
use lean_ctxd::server::singleton;

/// The pid of the daemon a client starts on demand (`daemon start` takes the path of every
/// request's autostart), as `daemon status` then reports it.
fn status_pid(home: &Home) -> u64 {
    assert!(home.lctx(&["daemon", "start"]).status.success());
    let st = home.lctx_json(&["daemon", "status", "--json"]);
    assert_eq!(st["served_by"], "DAEMON", "{st}");
    st["pid"].as_u64().expect("pid")
}

/// What a request answers, as `lctx read --json` (whose `served_by` says who served it): a file
/// of the home, read from there.
fn read(home: &Home, env: &[(&str, &std::path::Path)]) -> std::process::Output {
    std::fs::write(home.path().join("note.txt"), "hello\n").unwrap();
    let mut cmd = home.command(bin("lctx"));
    cmd.current_dir(home.path()).args(["read", "note.txt", "--json"]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

#[test]
fn twenty_concurrent_cold_calls_start_exactly_one_daemon() {
    let home = Home::new();
    let children: Vec<_> = (0..20)
        .map(|_| {
            home.command(bin("lctx"))
                .args(["daemon", "start"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawn lctx")
        })
        .collect();
    let mut pids = Vec::new();
    for child in children {
        let out = child.wait_with_output().expect("wait lctx");
        assert!(out.status.success(), "{}", describe(&out));
        // `lean-ctxd VERSION running (pid N) on SOCKET`
        let said = String::from_utf8_lossy(&out.stdout);
        let pid = said.split("(pid ").nth(1).and_then(|rest| rest.split(')').next()).map(str::parse::<u64>);
        pids.push(pid.unwrap_or_else(|| panic!("no pid in {said}")).unwrap());
    }
    pids.dedup();
    assert_eq!(pids.len(), 1, "all calls answered by one daemon: {pids:?}");
    assert_eq!(home.daemon_pids(), vec![pids[0] as u32], "exactly one daemon process");
}

#[test]
fn after_kill_9_the_next_call_starts_a_new_daemon() {
    let home = Home::new();
    let first = status_pid(&home) as u32;
    kill(first, libc::SIGKILL);
    assert!(wait_until(Duration::from_secs(60), || !process_alive(first)));
    assert!(home.socket().exists(), "the dead daemon leaves its socket behind");
    let second = status_pid(&home) as u32;
    assert_ne!(first, second);
    assert_eq!(home.daemon_pids(), vec![second]);
}

#[test]
fn a_client_of_another_build_restarts_the_daemon_gracefully() {
    let home = Home::new();
    // Two copies of the daemon binary are two different executables, just
    // as an upgrade in place would be.
    let (a, b) = (home.path().join("a"), home.path().join("b"));
    for dir in [&a, &b] {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::copy(bin("lean-ctxd"), dir.join("lean-ctxd")).unwrap();
    }
    let run = |daemon_dir: &std::path::Path| {
        let lctx = |args: &[&str]| {
            let out =
                home.command(bin("lctx")).env("LEAN_CTX_DAEMON_BIN", daemon_dir.join("lean-ctxd")).args(args).output();
            let out = out.unwrap();
            assert!(out.status.success(), "{}", describe(&out));
            out
        };
        let started = lctx(&["daemon", "start"]);
        let st: serde_json::Value = serde_json::from_slice(&lctx(&["daemon", "status", "--json"]).stdout).unwrap();
        (st, String::from_utf8_lossy(&started.stderr).into_owned())
    };
    let (old, _) = run(&a);
    let old_pid = old["pid"].as_u64().unwrap() as u32;
    let (new, stderr) = run(&b);
    let new_pid = new["pid"].as_u64().unwrap() as u32;
    assert_ne!(old_pid, new_pid, "a new daemon answers");
    assert!(stderr.contains("restarting lean-ctxd"), "the client says why: {stderr}");
    assert_eq!(new["executable_id"], lean_ctxd::build_info::executable_id(&b.join("lean-ctxd")).unwrap());
    assert!(!process_alive(old_pid), "the old daemon exited");
    assert!(home.daemon_log().contains("shutdown requested reason=\"requested by lctx\""), "graceful, not killed");
    assert_eq!(home.daemon_pids(), vec![new_pid]);

    // The newer build wins once: a client of the older one uses it rather
    // than replacing it (two builds must not restart each other forever).
    for _ in 0..3 {
        let (again, stderr) = run(&a);
        assert_eq!(again["pid"].as_u64().unwrap() as u32, new_pid, "no restart back: {stderr}");
        assert!(!stderr.contains("restarting"), "{stderr}");
    }
}

#[test]
fn idle_timeout_stops_the_daemon_and_cleans_up() {
    let home = Home::new();
    let mut child = home.spawn_daemon(&["--idle-timeout", "2"]);
    assert!(wait_until(Duration::from_secs(10), || child.exited()), "exits on its own");
    assert!(child.wait_success());
    assert!(!home.socket().exists(), "socket unlinked");
    assert!(!singleton::is_held(&home.dirs().daemon_lock()), "lock released");
    assert!(home.daemon_log().contains("reason=\"idle timeout\""));
}

#[test]
fn idle_timer_waits_for_open_connections() {
    let home = Home::new();
    let mut child = home.spawn_daemon(&["--idle-timeout", "1"]);
    let mut conn = std::os::unix::net::UnixStream::connect(home.socket()).unwrap();
    // What every client sends first.
    std::io::Write::write_all(&mut conn, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n").unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    assert!(!child.exited(), "an open connection keeps the daemon alive");
    drop(conn);
    assert!(wait_until(Duration::from_secs(10), || child.exited()));
}

#[test]
fn a_connection_that_sends_nothing_neither_keeps_the_daemon_nor_stays() {
    let home = Home::new();
    let mut child = home.spawn_daemon(&["--idle-timeout", "1"]);
    let silent = std::os::unix::net::UnixStream::connect(home.socket()).unwrap();
    assert!(wait_until(Duration::from_secs(60), || child.exited()), "idle exit despite the silent connection");
    assert!(child.wait_success());
    drop(silent);
    // With idle exit off, the daemon hangs up on it after its deadline.
    let mut child = home.spawn_daemon(&["--idle-timeout", "0"]);
    let mut silent = std::os::unix::net::UnixStream::connect(home.socket()).unwrap();
    silent.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let started = std::time::Instant::now();
    let mut sink = Vec::new();
    // The server's own SETTINGS may arrive first; then the end of the stream.
    let _ = std::io::Read::read_to_end(&mut silent, &mut sink);
    let waited = started.elapsed();
    assert!(waited >= Duration::from_secs(5) && waited < Duration::from_secs(18), "closed after {waited:?}");
    assert!(home.daemon_log().contains("sent nothing"), "logged");
    kill(child.id(), libc::SIGTERM);
    assert!(wait_until(Duration::from_secs(12), || child.exited()));
}

#[test]
fn sigterm_lets_an_in_flight_request_finish() {
    let home = Home::new();
    let mut child = home.spawn_daemon(&[]);
    let opts = client_options(&home);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let result = rt.block_on(async {
        let mut daemon = lctx::daemon::find(&opts).await.unwrap().expect("daemon running");
        let ping = tokio::spawn(async move {
            let req = lean_ctx_proto::v1::PingRequest { ctx: None, payload: b"still here".to_vec(), delay_ms: 4000 };
            daemon.control.ping(req).await
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        kill(child.id(), libc::SIGTERM);
        tokio::time::sleep(Duration::from_millis(300)).await;
        // QA: a daemon draining was reported as none running.
        let status = home.lctx(&["daemon", "status"]);
        let said = String::from_utf8_lossy(&status.stdout).into_owned();
        assert!(
            said.contains(&format!("lean-ctxd (pid {}) holds the daemon lock but does not answer", child.id())),
            "{said}"
        );
        ping.await.unwrap()
    });
    let resp = result.expect("the in-flight request completes during the drain");
    assert_eq!(resp.into_inner().payload, b"still here");
    assert!(wait_until(Duration::from_secs(12), || child.exited()), "gone within the deadline");
    assert!(!home.socket().exists());
    assert!(!singleton::is_held(&home.dirs().daemon_lock()));
}

/// QA: SIGHUP's default action ended the daemon at once, its socket left behind and a request in
/// flight cut off. It stops as SIGTERM stops it.
#[test]
fn sighup_stops_the_daemon_as_sigterm_does() {
    let home = Home::new();
    let mut child = home.spawn_daemon(&[]);
    assert!(home.socket().exists());
    kill(child.id(), libc::SIGHUP);
    assert!(wait_until(Duration::from_secs(12), || child.exited()), "gone within the deadline");
    assert!(child.wait_success(), "a clean exit");
    assert!(!home.socket().exists(), "its socket removed");
    assert!(home.daemon_log().contains("SIGHUP"), "{}", home.daemon_log());
}

#[test]
fn sigterm_drain_deadline_cuts_off_a_request_that_runs_too_long() {
    let home = Home::new();
    std::fs::create_dir_all(home.dirs().config).unwrap();
    std::fs::write(home.dirs().config_file(), "drain_timeout_secs = 1\n").unwrap();
    let mut child = home.spawn_daemon(&[]);
    let opts = client_options(&home);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let started = std::time::Instant::now();
    let result = rt.block_on(async {
        let mut daemon = lctx::daemon::find(&opts).await.unwrap().expect("daemon running");
        let ping = tokio::spawn(async move {
            let req = lean_ctx_proto::v1::PingRequest { ctx: None, payload: vec![], delay_ms: 20_000 };
            daemon.control.ping(req).await
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        kill(child.id(), libc::SIGTERM);
        ping.await.unwrap()
    });
    let status = result.expect_err("the request cannot complete");
    assert_eq!(status.code(), tonic::Code::Unavailable, "{status:?}");
    // QA: it said "retry it" of a command that had already run in part.
    assert!(status.message().contains("check before repeating a command or an edit"), "{status:?}");
    assert!(wait_until(Duration::from_secs(8), || child.exited()));
    assert!(started.elapsed() < Duration::from_secs(15), "did not wait for the 20 s request");
}

#[test]
fn no_daemon_mode_answers_locally_without_spawning() {
    let home = Home::new();
    let out =
        home.command(bin("lctx")).env("LEAN_CTX_NO_DAEMON", "1").args(["daemon", "status", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let st: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(st["served_by"], "LOCAL");
    assert!(home.daemon_pids().is_empty(), "no daemon was spawned");
    assert!(!home.socket().exists());

    // Its own user home: the machine user's hosts and service play no part.
    let doctor = home
        .command(bin("lctx"))
        .env("LEAN_CTX_NO_DAEMON", "1")
        .env("HOME", home.path())
        .args(["doctor"])
        .output()
        .unwrap();
    assert!(doctor.status.success(), "{}", describe(&doctor));
    assert!(String::from_utf8_lossy(&doctor.stdout).contains("disabled by LEAN_CTX_NO_DAEMON=1"));
    assert!(home.daemon_pids().is_empty());
}

#[test]
fn an_unstartable_daemon_fails_the_call_and_shows_why() {
    // The fallback child is the same program, so a lean-ctxd that cannot
    // start cannot serve as a child either: the call fails, and says why
    // with the daemon's log and the child's own stderr.
    let home = Home::new();
    let broken = home.path().join("broken-lean-ctxd");
    std::fs::write(&broken, "#!/bin/sh\necho 'cannot open the frobnicator' >&2\nexit 3\n").unwrap();
    std::fs::set_permissions(&broken, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    // QA: the log's earlier lines, of other starts, were shown as this one's.
    let log = home.dirs().daemon_stderr_log();
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    std::fs::write(&log, "an old line of another start\n").unwrap();
    let out = read(&home, &[("LEAN_CTX_DAEMON_BIN", &broken)]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot open the frobnicator"), "the daemon's log tail is shown: {stderr}");
    assert!(!stderr.contains("an old line"), "only what this start wrote: {stderr}");
    assert!(stderr.contains("--stdio"), "the fallback's failure is named: {stderr}");
}

#[test]
fn a_daemon_that_never_becomes_ready_is_ended_with_what_it_started() {
    // Left running, every later call would start another beside it.
    let home = Home::new();
    let hung = home.path().join("hung-lean-ctxd");
    std::fs::write(&hung, "#!/bin/sh\nsleep 61.0731 &\nexec sleep 62.0731\n").unwrap();
    std::fs::set_permissions(&hung, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = read(&home, &[("LEAN_CTX_DAEMON_BIN", &hung)]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did not answer"), "{}", describe(&out));
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
        .map(|cmdline| String::from_utf8_lossy(&cmdline).replace('\0', " "))
        .filter(|cmdline| cmdline.contains(".0731"))
        .collect();
    assert!(left.is_empty(), "still running: {left:?}");
}

#[test]
fn stop_and_restart_commands() {
    let home = Home::new();
    let out = home.lctx(&["daemon", "stop"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("no lean-ctxd is running"));

    let out = home.lctx(&["daemon", "start"]);
    assert!(out.status.success(), "{}", describe(&out));
    let first = home.daemon_pids();
    assert_eq!(first.len(), 1);

    let out = home.lctx(&["daemon", "restart"]);
    assert!(out.status.success(), "{}", describe(&out));
    let second = home.daemon_pids();
    assert_eq!(second.len(), 1);
    assert_ne!(first, second);

    let out = home.lctx(&["daemon", "stop"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(home.daemon_pids().is_empty());
    assert!(!home.socket().exists());

    let logs = home.lctx(&["daemon", "logs", "-n", "3"]);
    assert!(logs.status.success());
    assert!(String::from_utf8_lossy(&logs.stdout).contains("lean-ctxd stopped"));
}

#[test]
fn a_second_daemon_steps_aside_naming_the_first() {
    // As systemd starts the service's daemon while an on-demand one serves:
    // exit 0 (no restart loop under Restart=on-failure), the first untouched.
    let home = Home::new();
    let first = home.spawn_daemon(&[]);
    let out = home.command(bin("lean-ctxd")).args(["--foreground", "--idle-timeout", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("another lean-ctxd (pid {}) already serves", first.id())), "{stderr}");
    assert!(stderr.contains("leaving it to serve"), "{stderr}");
    assert_eq!(home.daemon_pids(), vec![first.id()]);
    assert!(home.lctx(&["daemon", "status"]).status.success(), "the first still serves");
}

#[test]
fn a_regular_file_at_the_socket_path_is_never_deleted() {
    let home = Home::new();
    let socket = home.socket();
    std::fs::create_dir_all(socket.parent().unwrap()).unwrap();
    std::fs::set_permissions(socket.parent().unwrap(), std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    std::fs::write(&socket, "precious, not a socket").unwrap();
    let out = read(&home, &[]);
    assert!(out.status.success(), "a fallback child answers: {}", describe(&out));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["served_by"], "LOCAL", "{answer}");
    assert_eq!(std::fs::read_to_string(&socket).unwrap(), "precious, not a socket");
}

#[test]
fn a_daemon_whose_runtime_dir_was_deleted_leaves_and_spares_its_successor() {
    let home = Home::new();
    let mut first = home.spawn_daemon(&[]);
    std::fs::remove_dir_all(home.dirs().runtime).unwrap();
    // The next client starts a successor on the same home.
    let successor = status_pid(&home) as u32;
    assert_ne!(successor, first.id());
    // The first notices its socket is gone and stops, without removing the
    // successor's socket.
    assert!(wait_until(Duration::from_secs(10), || first.exited()), "the orphaned daemon exits");
    assert!(home.socket().exists(), "the successor's socket is still there");
    assert_eq!(home.daemon_pids(), vec![successor]);
    let again = home.lctx_json(&["daemon", "status", "--json"]);
    assert_eq!(again["pid"].as_u64().unwrap() as u32, successor, "and still answers");
    assert!(home.lctx(&["daemon", "stop"]).status.success());
}
