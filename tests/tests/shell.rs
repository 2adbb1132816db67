//! `lctx run`, jobs and expand end to end: failures survive compression,
//! the archive returns the exact original, processes never outlive their
//! timeout, background jobs outlive their client.

use std::path::Path;
use std::time::Duration;

use lean_ctx_tests::{Home, bin, children_of, describe, process_alive, wait_until};

fn project(home: &Home) -> std::path::PathBuf {
    let root = home.path().join("proj");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    root
}

fn lctx(home: &Home, dir: &Path, args: &[&str]) -> std::process::Output {
    home.lctx_in(dir, false, args)
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The archive id named by the handle line under shortened output.
fn archive_id(text: &str) -> String {
    let at = text.find("ctx_expand id=").expect("a handle line") + "ctx_expand id=".len();
    text[at..at + 16].to_string()
}

const NOISY_FAILURE: &str = r#"for i in $(seq 1 400); do echo "compiling unit $i of 400 … ok"; done
echo "error[E0308]: mismatched types at src/parse.rs:88:17" >&2
echo "test parser::tests::handles_unicode ... FAILED"
echo "résumé ✓ last line"
exit 101"#;

#[test]
fn a_failing_command_keeps_its_errors_exit_code_and_archives_the_original() {
    let home = Home::new();
    let root = project(&home);
    let out = lctx(&home, &root, &["run", "--", NOISY_FAILURE]);
    assert_eq!(out.status.code(), Some(101), "lctx exits with the command's code: {}", describe(&out));
    let text = stdout(&out);
    for must in [
        "error[E0308]: mismatched types at src/parse.rs:88:17",
        "test parser::tests::handles_unicode ... FAILED",
        "résumé ✓ last line",
        "[exit:101]",
    ] {
        assert!(text.contains(must), "{must} missing from:\n{text}");
    }
    assert!(text.lines().count() < 60, "compressed: {text}");

    let id = archive_id(&text);
    let original = home.command("/bin/sh").arg("-c").arg(NOISY_FAILURE).current_dir(&root).output().unwrap();
    let mut expected = original.stdout.clone();
    // The shell interleaves stderr in order; rebuild that order for comparison.
    let expected_text = String::from_utf8_lossy(&expected).replace(
        "test parser::tests::handles_unicode",
        "error[E0308]: mismatched types at src/parse.rs:88:17\ntest parser::tests::handles_unicode",
    );
    expected = expected_text.into_bytes();
    let expanded = lctx(&home, &root, &["expand", &id]);
    assert!(expanded.status.success(), "{}", describe(&expanded));
    assert_eq!(expanded.stdout, expected, "expand returns the exact original");

    let window = stdout(&lctx(&home, &root, &["expand", &id, "--lines", "2-3"]));
    assert_eq!(window, "compiling unit 2 of 400 … ok\ncompiling unit 3 of 400 … ok\n");
    let grep = stdout(&lctx(&home, &root, &["expand", &id, "--grep", "E0308"]));
    assert_eq!(grep, "401: error[E0308]: mismatched types at src/parse.rs:88:17\n");
    let found = stdout(&lctx(&home, &root, &["expand", "--search", "mismatched"]));
    assert!(found.contains(&id), "{found}");
    let unknown = lctx(&home, &root, &["expand", "0123456789abcdef"]);
    assert_eq!(unknown.status.code(), Some(1));
    let said = String::from_utf8_lossy(&unknown.stderr);
    assert!(said.contains("or find it with `lctx expand --search WORDS`"), "lctx names its flag: {said}");
    let gain = stdout(&lctx(&home, &root, &["gain", "--by", "tool"]));
    assert!(gain.contains("shell") && gain.contains("expand"), "runs and expands are in the ledger: {gain}");
}

#[test]
fn archive_search_stays_in_the_callers_project() {
    let home = Home::new();
    let alpha = project(&home);
    let beta = home.path().join("beta");
    std::fs::create_dir_all(beta.join(".git")).unwrap();
    let in_alpha = archive_id(&stdout(&lctx(&home, &alpha, &["run", "--", NOISY_FAILURE])));
    let beta_failure = NOISY_FAILURE.replace("src/parse.rs", "beta/lib.rs");
    let in_beta = archive_id(&stdout(&lctx(&home, &beta, &["run", "--", &beta_failure])));
    assert_ne!(in_alpha, in_beta);
    let found = stdout(&lctx(&home, &alpha, &["expand", "--search", "mismatched"]));
    assert!(found.contains(&in_alpha) && !found.contains(&in_beta), "{found}");
    let found = stdout(&lctx(&home, &beta, &["expand", "--search", "mismatched"]));
    assert!(found.contains(&in_beta) && !found.contains(&in_alpha), "{found}");
    // An id still expands from anywhere.
    assert!(lctx(&home, &beta, &["expand", &in_alpha, "--lines", "1-1"]).status.success());
}

#[test]
fn an_archive_search_says_how_many_matches_it_left_out() {
    let home = Home::new();
    let root = project(&home);
    for i in 0..23 {
        let out = lctx(&home, &root, &["run", "--", &format!("seq 1 3000; echo quasar run {i}")]);
        assert!(stdout(&out).contains("ctx_expand id="), "archived");
    }
    let found = stdout(&lctx(&home, &root, &["expand", "--search", "quasar"]));
    assert_eq!(found.lines().filter(|l| l.contains(" · ")).count(), 20, "{found}");
    assert!(found.ends_with("… 3 more archived outputs not shown (of 23); a higher limit shows them\n"), "{found:?}");
    let fewer = stdout(&lctx(&home, &root, &["expand", "--search", "quasar", "--limit", "5"]));
    assert_eq!(fewer.lines().filter(|l| l.contains(" · ")).count(), 5, "{fewer}");
    assert!(fewer.contains("… 18 more archived outputs not shown (of 23)"), "{fewer}");
    let all = stdout(&lctx(&home, &root, &["expand", "--search", "quasar", "--limit", "30"]));
    assert_eq!(all.lines().filter(|l| l.contains(" · ")).count(), 23, "{all}");
    assert!(!all.contains("not shown"), "{all}");
    let none = lctx(&home, &root, &["expand", "--search", "nebula"]);
    assert!(none.status.success(), "{}", describe(&none));
    assert_eq!(stdout(&none), "no archived output matches\n", "a search without a hit says so, on a line of its own");
}

/// Base64 of 1.1 MB of random bytes: no compressor can store it in less
/// than 1 MiB. Then a failure.
const BIG_NOISE: &str = "head -c 1100000 /dev/urandom | base64; exit 3";

#[test]
fn retention_expires_old_outputs_and_the_newest_stays_expandable() {
    let home = Home::new();
    let root = project(&home);
    let set = lctx(&home, &root, &["config", "set", "archive_max_bytes", "1048576"]);
    assert!(set.status.success(), "{}", describe(&set));
    // In-process runs: every new process sweeps at its first archive.
    let run = |cmd: &str| {
        home.command(bin("lctx"))
            .current_dir(&root)
            .env("LEAN_CTX_NO_DAEMON", "1")
            .args(["run", "--", cmd])
            .output()
            .unwrap()
    };
    let big = run(BIG_NOISE);
    assert_eq!(big.status.code(), Some(3), "{}", describe(&big));
    let big_id = archive_id(&stdout(&big));
    let alone = lctx(&home, &root, &["expand", &big_id, "--lines", "1-1"]);
    assert!(alone.status.success(), "an output larger than the whole budget is still kept: {}", describe(&alone));

    let next = run(NOISY_FAILURE);
    let next_id = archive_id(&stdout(&next));
    let expired = lctx(&home, &root, &["expand", &big_id]);
    assert_eq!(expired.status.code(), Some(1), "{}", describe(&expired));
    let message = String::from_utf8_lossy(&expired.stderr);
    assert!(message.contains("expired") && message.contains("run the command again"), "{message}");
    let kept = lctx(&home, &root, &["expand", &next_id, "--grep", "E0308"]);
    assert!(stdout(&kept).contains("mismatched types"), "{}", describe(&kept));
}

#[test]
fn raw_mode_and_small_output_pass_through_untouched() {
    let home = Home::new();
    let root = project(&home);
    let out = lctx(&home, &root, &["run", "--raw", "--", "seq 1 500"]);
    let expected: String = (1..=500).map(|i| format!("{i}\n")).collect();
    assert_eq!(stdout(&out), expected);
    let raw_by_env = |command: &str| {
        let mut run = home.command(bin("lctx"));
        run.current_dir(&root).env("LEAN_CTX_RAW", "1").args(["run", "--", command]);
        stdout(&run.output().unwrap())
    };
    assert_eq!(raw_by_env("seq 1 500"), expected, "LEAN_CTX_RAW=1 in the caller's environment");
    let out = lctx(&home, &root, &["run", "--", "echo hello; exit 0"]);
    assert_eq!(stdout(&out), "hello\n");
    assert_eq!(out.status.code(), Some(0));
    // An output without a final newline keeps it that way, raw and expanded: `> copy` reproduces it.
    assert_eq!(stdout(&lctx(&home, &root, &["run", "--raw", "--", "printf abc"])), "abc");
    assert_eq!(raw_by_env("printf abc"), "abc", "LEAN_CTX_RAW=1 adds no newline either");
    // QA: a raw run that failed read as its output alone (`(no output)` for `exit 3`): the exit
    // code follows it, as it ends every shaped answer.
    let failed = lctx(&home, &root, &["run", "--raw", "--", "echo hi; exit 3"]);
    assert_eq!((stdout(&failed), failed.status.code()), ("hi\n[exit:3]\n".to_string(), Some(3)));
    assert_eq!(stdout(&lctx(&home, &root, &["run", "--raw", "--", "exit 4"])), "[exit:4]\n");
    let unterminated = "seq 1 500; printf 'no newline at end'";
    let id = archive_id(&stdout(&lctx(&home, &root, &["run", "--", unterminated])));
    let expanded = stdout(&lctx(&home, &root, &["expand", &id]));
    assert_eq!(expanded, format!("{expected}no newline at end"));
}

#[test]
fn the_callers_directory_and_environment_are_used() {
    let home = Home::new();
    let root = project(&home);
    std::fs::create_dir_all(root.join("sub")).unwrap();
    let out = home
        .command(bin("lctx"))
        .current_dir(root.join("sub"))
        .env("MY_SETTING", "from-the-caller")
        .args(["run", "--", "pwd; echo $MY_SETTING"])
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(text.contains("/proj/sub\n") && text.contains("from-the-caller"), "{text}");
}

#[test]
fn a_timeout_kills_the_whole_group_and_leaves_no_zombies() {
    let home = Home::new();
    let root = project(&home);
    let daemon = home.spawn_daemon(&[]);
    let marker = root.join("grandchild-was-here");
    let cmd = format!("(sleep 3; touch {}) & sleep 30", marker.display());
    let started = std::time::Instant::now();
    let out = lctx(&home, &root, &["run", "--timeout", "1", "--", &cmd]);
    assert_eq!(out.status.code(), Some(124), "{}", describe(&out));
    assert!(started.elapsed() < Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(3500));
    assert!(!marker.exists(), "the grandchild was killed with the group");
    let leftovers = children_of(daemon.id());
    assert!(leftovers.is_empty(), "the daemon has no children left (zombies or live): {leftovers:?}");
}

#[test]
fn a_background_job_outlives_its_client_and_can_be_cancelled() {
    let home = Home::new();
    let root = project(&home);
    let _daemon = home.spawn_daemon(&[]);
    let out = lctx(&home, &root, &["run", "--bg", "--", "sleep 1; echo finished-in-background"]);
    assert!(stdout(&out).contains("job 1 started"), "{}", describe(&out));
    // The client process has exited; the job goes on in the daemon.
    assert!(wait_until(Duration::from_secs(10), || stdout(&lctx(&home, &root, &["jobs", "status", "1"]))
        .contains("exit 0")));
    assert!(stdout(&lctx(&home, &root, &["jobs", "status", "1"])).contains("finished-in-background"));

    // A cancel answers once the job has stopped, its whole tree killed, and
    // says so; the status right after agrees.
    let out = lctx(&home, &root, &["run", "--bg", "--", "sleep 60 & echo $! > sleeper.pid; wait"]);
    assert!(stdout(&out).contains("job 2 started"));
    let pid_file = root.join("sleeper.pid");
    assert!(wait_until(Duration::from_secs(10), || std::fs::read_to_string(&pid_file)
        .is_ok_and(|s| s.trim().parse::<u32>().is_ok())));
    let sleeper: u32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
    assert!(stdout(&lctx(&home, &root, &["jobs"])).contains("job 2 · running"));
    let cancel = lctx(&home, &root, &["jobs", "cancel", "2"]);
    assert_eq!(cancel.status.code(), Some(0), "{}", describe(&cancel));
    let text = stdout(&cancel);
    assert!(text.starts_with("job 2 · cancelled · "), "{text}");
    assert!(text.contains("[cancelled: the command and everything it started were killed]"), "{text}");
    assert!(!process_alive(sleeper), "the job's child was killed before the answer");
    assert!(stdout(&lctx(&home, &root, &["jobs", "status", "2"])).starts_with("job 2 · cancelled · "));
    // Cancelling a job that already ended says so rather than pretending.
    let again = stdout(&lctx(&home, &root, &["jobs", "cancel", "1"]));
    assert!(again.contains("job 1 · exit 0") && again.contains("had already ended; nothing was cancelled"), "{again}");
    let missing = lctx(&home, &root, &["jobs", "status", "99"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no job 99"));
}

/// A job outlives no daemon: when the daemon is killed outright (SIGKILL, the OOM killer), the
/// watchdog of each command it was running ends that command's tree, which would otherwise run
/// on past its timeout with no one to end it.
#[test]
fn a_killed_daemon_s_running_job_is_ended_by_its_watchdog() {
    let home = Home::new();
    let root = project(&home);
    let mut daemon = home.spawn_daemon(&[]);
    let out = lctx(&home, &root, &["run", "--bg", "--", "sleep 60 & echo $! > sleeper.pid; wait"]);
    assert!(stdout(&out).contains("job 1 started"), "{}", describe(&out));
    let pid_file = root.join("sleeper.pid");
    assert!(wait_until(Duration::from_secs(10), || std::fs::read_to_string(&pid_file)
        .is_ok_and(|s| s.trim().parse::<u32>().is_ok())));
    let sleeper: u32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
    // A command gets its watchdog once it has run a moment (quick ones never need one).
    assert!(wait_until(Duration::from_secs(10), || !home.watchdog_pids().is_empty()));
    lean_ctx_tests::kill(daemon.id(), libc::SIGKILL);
    assert!(wait_until(Duration::from_secs(10), || daemon.exited()));
    assert!(wait_until(Duration::from_secs(10), || !process_alive(sleeper)), "the job's child outlived its daemon");
    assert!(wait_until(Duration::from_secs(10), || home.watchdog_pids().is_empty()), "the watchdog left after");
}

/// A session sees and controls only the jobs it started; `--all` lists
/// every session's, naming each one's session, without their output.
#[test]
fn jobs_belong_to_the_session_that_started_them() {
    let home = Home::new();
    let root = project(&home);
    let _daemon = home.spawn_daemon(&[]);
    let started = stdout(&lctx(&home, &root, &["--session", "alpha", "run", "--bg", "--", "sleep 60"]));
    assert!(started.contains("job 1 started"), "{started}");
    lctx(&home, &root, &["--session", "alpha", "run", "--bg", "--", "echo alpha-output-$((40 + 2))"]);
    assert!(wait_until(Duration::from_secs(10), || stdout(&lctx(
        &home,
        &root,
        &["--session", "alpha", "jobs", "status", "2"]
    ))
    .contains("exit 0")));

    // Another session (and no session at all) sees none of them…
    assert_eq!(stdout(&lctx(&home, &root, &["jobs"])).trim(), "no background jobs in this session");
    assert_eq!(
        stdout(&lctx(&home, &root, &["jobs", "--session", "beta"])).trim(),
        "no background jobs in this session"
    );
    // …and can neither read nor cancel them.
    for action in ["status", "cancel"] {
        let out = lctx(&home, &root, &["--session", "beta", "jobs", action, "1"]);
        assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("job 1 belongs to another session (session alpha)")
                && String::from_utf8_lossy(&out.stderr).contains("`lctx --session alpha jobs cancel 1`"),
            "{}",
            describe(&out)
        );
    }
    // Its own listing: job 2's output went with the status that saw it end, and is not sent again.
    let own = stdout(&lctx(&home, &root, &["--session", "alpha", "jobs"]));
    let sent = "job 2 · exit 0 · ";
    assert!(own.contains("job 1 · running") && own.contains(sent) && !own.contains("\nalpha-output-42"), "{own}");
    assert!(own.contains("[output sent earlier; `lctx jobs status 2` sends it again]"), "{own}");
    let again = stdout(&lctx(&home, &root, &["--session", "alpha", "jobs", "status", "2"]));
    assert!(again.contains("\nalpha-output-42"), "{again}");

    // Every session's jobs, read-only: states and sessions, not outputs.
    lctx(&home, &root, &["--session", "beta", "run", "--bg", "--", "echo beta-output"]);
    assert!(wait_until(Duration::from_secs(10), || stdout(&lctx(
        &home,
        &root,
        &["--session", "beta", "jobs", "status", "3"]
    ))
    .contains("exit 0")));
    let all = stdout(&lctx(&home, &root, &["--session", "beta", "jobs", "--all"]));
    assert!(all.contains("job 1 · running · ") && all.contains(" · sleep 60 · session alpha\n"), "{all}");
    assert!(all.contains(" · session beta (this one)") && all.contains("beta-output"), "{all}");
    assert!(!all.contains("alpha-output-42"), "another session's output is not shown: {all}");
    let usage = lctx(&home, &root, &["jobs", "--all", "cancel", "1"]);
    assert_eq!(usage.status.code(), Some(2), "{}", describe(&usage));

    let cancel = stdout(&lctx(&home, &root, &["--session", "alpha", "jobs", "cancel", "1"]));
    assert!(cancel.starts_with("job 1 · cancelled"), "{cancel}");
}

/// Several words after `--` are the command and its arguments, each passed
/// as given (quoted for sh where needed); one word stays a command line.
#[test]
fn run_passes_the_words_after_the_separator_as_given() {
    let home = Home::new();
    let root = project(&home);
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/poll.rs"), "pub fn new() -> Poll {}\nfn newer() {}\n").unwrap();
    let ok = |args: &[&str]| {
        let out = lctx(&home, &root, args);
        assert!(out.status.success(), "lctx {args:?}: {}", describe(&out));
        stdout(&out)
    };
    assert_eq!(ok(&["run", "--", "grep", "-c", "pub fn new", "src/poll.rs"]), "1\n");
    assert_eq!(
        ok(&["run", "--", "printf", r"[%s]\n", "a b", "$HOME", "it's", "", "*", "~", "a;b", "--x=1"]),
        "[a b]\n[$HOME]\n[it's]\n[]\n[*]\n[~]\n[a;b]\n[--x=1]\n"
    );
    assert_eq!(ok(&["run", "--", "sh", "-c", "for i in 1 2 3; do echo $i; done"]), "1\n2\n3\n");
    // A first word is a program, never an assignment or sh's own syntax.
    let out = lctx(&home, &root, &["run", "--", "A=1", "true"]);
    assert_eq!(out.status.code(), Some(127), "`A=1` is looked up as a command: {}", describe(&out));
    // One word: a command line, as documented.
    assert_eq!(ok(&["run", "--", "echo one && echo $((1 + 1))"]), "one\n2\n");
}

#[test]
fn run_timeouts_are_honoured_to_the_millisecond_and_zero_is_refused() {
    let home = Home::new();
    let root = project(&home);
    let _daemon = home.spawn_daemon(&[]);
    let started = std::time::Instant::now();
    let out = lctx(&home, &root, &["run", "--timeout", "0.3", "--", "sleep 5"]);
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(124), "{}", describe(&out));
    let text = stdout(&out);
    let said = text.split("[timed out after ").nth(1).and_then(|t| t.split(" ms:").next()).unwrap_or_default();
    let said: u64 = said.parse().unwrap_or_else(|_| panic!("the answer names the time in ms: {text}"));
    assert!((300..900).contains(&said), "killed at 0.3 s, not rounded up to a second: {text}");
    // Not left to run its 5 s: the bound leaves a loaded machine room for lctx's own start.
    assert!(took < Duration::from_millis(4500), "{took:?}");

    for bad in ["0", "0.0", "3601", "1.2345", "soon"] {
        let out = lctx(&home, &root, &["run", "--timeout", bad, "--", "echo ran"]);
        assert_eq!(out.status.code(), Some(2), "--timeout {bad}: {}", describe(&out));
        assert!(!stdout(&out).contains("ran"), "--timeout {bad} runs nothing");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--timeout"), "{}", describe(&out));
    }
}

#[test]
fn expand_says_when_a_range_is_reversed_honours_limit_and_says_when_nothing_matches() {
    let home = Home::new();
    let root = project(&home);
    let id = archive_id(&stdout(&lctx(&home, &root, &["run", "--", "seq 1 3000"])));

    let reversed = lctx(&home, &root, &["expand", &id, "--lines", "10-5"]);
    assert_eq!(reversed.status.code(), Some(2), "{}", describe(&reversed));
    assert!(String::from_utf8_lossy(&reversed.stderr).contains("reversed"), "{}", describe(&reversed));

    let first = stdout(&lctx(&home, &root, &["expand", &id, "--limit", "3"]));
    // The CLI is told its own flag, with the range that is left.
    // A window one call returns whole: asking for all the rest would stop at the cap again.
    assert_eq!(
        first,
        "1\n2\n3\n[… lines 4-3000 not shown: one expand returns at most 3 lines; ask --lines 4-6 for the next]\n"
    );
    let matching = stdout(&lctx(&home, &root, &["expand", &id, "--grep", "^29", "-n", "2"]));
    assert_eq!(
        matching,
        "29: 29\n290: 290\n[… lines 291-3000 not shown: one expand returns at most 2 matching lines; ask --lines \
         291-3000 for the next]\n"
    );

    let none = lctx(&home, &root, &["expand", &id, "--grep", "^300", "--lines", "1-2"]);
    assert!(none.status.success(), "{}", describe(&none));
    assert_eq!(stdout(&none), "[no line matches `^300` in lines 1-2 of 3000]\n");
}

/// An output too long to expand whole comes back in windows that, put together, are the output:
/// its `\r\n` and a last line without a newline kept.
#[test]
fn expand_windows_put_together_are_the_output() {
    let home = Home::new();
    let root = project(&home);
    let command = "seq 1 2500 | sed 's/$/\\r/'; printf end";
    let raw = stdout(&lctx(&home, &root, &["run", "--raw", "--", command]));
    let expected: String = (1..=2500).map(|i| format!("{i}\r\n")).chain(["end".to_string()]).collect();
    assert_eq!(raw, expected);
    let id = archive_id(&stdout(&lctx(&home, &root, &["run", "--", command])));
    let windows: String = ["1-2000", "2001-2501"]
        .iter()
        .map(|lines| stdout(&lctx(&home, &root, &["expand", &id, "--lines", lines])))
        .collect();
    assert_eq!(windows, expected);
}
