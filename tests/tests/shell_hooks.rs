//! lctx-shell end to end: the hook inside real interactive bash and zsh
//! driven through a pseudo-terminal, `lctx-shell run` on its own, the hook
//! text, toggling, status and prompt.
//!
//! The routed command is a fake `git` first on PATH: 300 lines of noise, an
//! error on stderr, exit 3. zsh and fish are optional here: a test that
//! needs one and does not find it says so and passes (CI installs them).

use std::ffi::OsStr;
use std::fs;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use lean_ctx_tests::{Home, bin, describe, process_alive, wait_until};

/// Longest wait for anything a shell is asked to do; a hang fails the test
/// instead of blocking the suite.
const DEADLINE: Duration = Duration::from_secs(60);

const FAKE_GIT: &str = r#"#!/bin/sh
case "$1" in
  stdin) cat; exit 0 ;;
  sleep) echo $$ > "$2"; exec sleep 30 ;;
esac
i=1
while [ $i -le 300 ]; do echo "compiling unit $i of 300 ... ok"; i=$((i + 1)); done
echo "error: something failed at src/lib.rs:12" >&2
exit 3
"#;

/// Lines the fake git prints before its error.
const NOISE: usize = 300;

fn write_script(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

/// The agent markers lctx-shell knows, read from its help so the list lives
/// in one place. Every test clears them: the machine running the tests may
/// itself be driven by an agent.
fn agent_vars() -> Vec<String> {
    let help = Command::new(bin("lctx-shell")).arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&help.stdout).into_owned();
    let list = text.split("set to a non-empty value:").nth(1).expect("agent list in --help");
    list.trim().trim_end_matches('.').split(", ").map(str::to_string).collect()
}

/// A home with the fake git and an lctx-shell reachable through PATH by a
/// symlink, which `init` writes into the hook and a test may break.
struct Setup {
    home: Home,
    fake_bin: PathBuf,
    shim: PathBuf,
    agents: Vec<String>,
}

impl Setup {
    fn new() -> Setup {
        let home = Home::new();
        let fake_bin = home.path().join("fakebin");
        write_script(&fake_bin.join("git"), FAKE_GIT);
        let shim = home.path().join("shimbin/lctx-shell");
        fs::create_dir_all(shim.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(bin("lctx-shell"), &shim).unwrap();
        Setup { home, fake_bin, shim, agents: agent_vars() }
    }

    fn path_var(&self) -> String {
        format!("{}:{}:/usr/bin:/bin", self.fake_bin.display(), self.shim.parent().unwrap().display())
    }

    /// A command with this home's environment, no agent marker, the fake git
    /// first on PATH, and only `git` wrapped.
    fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let mut cmd = self.home.command(program);
        for var in &self.agents {
            cmd.env_remove(var);
        }
        cmd.env_remove("LEAN_CTX_SHELL")
            .env("PATH", self.path_var())
            .env("LEAN_CTX_SHELL_COMMANDS", "git")
            .env("HOME", self.home.path())
            .env("TERM", "dumb");
        cmd
    }

    fn shim(&self, args: &[&str]) -> Output {
        self.command(&self.shim).args(args).output().unwrap()
    }

    /// Replaces the lctx-shell the hook names with something broken.
    fn break_shim(&self, how: Broken) {
        let _ = fs::remove_file(&self.shim);
        match how {
            Broken::FailsSilently => write_script(&self.shim, "#!/bin/sh\nexit 1\n"),
            Broken::Missing => {}
            Broken::NotExecutable => fs::write(&self.shim, "#!/bin/sh\nexit 0\n").unwrap(),
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Broken {
    FailsSilently,
    Missing,
    NotExecutable,
}

fn shell_path(name: &str) -> Option<PathBuf> {
    ["/usr/bin", "/bin"].iter().map(|d| Path::new(d).join(name)).find(|p| p.exists())
}

/// bash always; zsh where installed.
fn interactive_shells() -> Vec<&'static str> {
    let mut shells = vec!["bash"];
    if shell_path("zsh").is_some() {
        shells.push("zsh");
    } else {
        eprintln!("SKIP zsh: neither /usr/bin/zsh nor /bin/zsh exists; only bash was driven");
    }
    shells
}

/// An interactive shell on a pseudo-terminal: a session leader with the
/// terminal as its controlling tty, as in a terminal window.
struct Pty {
    master: fs::File,
    child: Child,
    output: mpsc::Receiver<Vec<u8>>,
    seen: String,
    marks: usize,
}

impl Pty {
    fn spawn(setup: &Setup, shell: &str) -> Pty {
        let (mut master, mut slave) = (0, 0);
        // SAFETY: openpty writes two descriptors, which are owned below.
        let rc =
            unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), std::ptr::null()) };
        assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
        // SAFETY: both descriptors were just opened and are owned nowhere else.
        let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        let mut cmd = setup.command(shell_path(shell).unwrap());
        match shell {
            "bash" => cmd.args(["--norc", "--noprofile", "-i"]),
            // +Z: without zsh's line editor, which echoes typed lines itself.
            _ => cmd.args(["-f", "+Z", "-i"]),
        };
        cmd.stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave));
        // SAFETY: setsid and ioctl are async-signal-safe.
        unsafe {
            cmd.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().unwrap();
        drop(cmd);
        let (tx, output) = mpsc::channel();
        let mut reader = fs::File::from(master.try_clone().unwrap());
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let mut pty = Pty { master: fs::File::from(master), child, output, seen: String::new(), marks: 0 };
        // No echo of what is typed, and prompts that are only a line break,
        // so a command's output starts on a line of its own. Nothing more is
        // typed before the shell has taken this in.
        let zsh_only = if shell == "zsh" { "unsetopt prompt_sp prompt_cr; " } else { "" };
        pty.type_line(&format!("{zsh_only}stty -echo; PS1=$'\\n'; PS2=''; echo '@@'\"ready@@\""));
        pty.expect(0, "@@ready@@");
        pty
    }

    fn type_line(&mut self, line: &str) {
        self.master.write_all(format!("{line}\n").as_bytes()).unwrap();
    }

    /// Waits until `needle` has been printed after byte `from`; returns
    /// everything printed from `from` up to it.
    fn expect(&mut self, from: usize, needle: &str) -> String {
        let start = Instant::now();
        loop {
            if let Some(at) = self.seen[from..].find(needle) {
                return self.seen[from..from + at].to_string();
            }
            let left = DEADLINE.checked_sub(start.elapsed()).unwrap_or_else(|| {
                panic!("`{needle}` did not appear within {DEADLINE:?}; the terminal showed:\n{}", &self.seen[from..])
            });
            if let Ok(chunk) = self.output.recv_timeout(left.min(Duration::from_millis(200))) {
                self.seen.push_str(&String::from_utf8_lossy(&chunk).replace("\r\n", "\n"));
            }
        }
    }

    /// Runs one line in the shell and returns what it printed.
    fn run(&mut self, line: &str) -> String {
        self.marks += 1;
        // Split by quotes so the marker appears only when printed, not typed.
        let mark = format!("@@end{}@@", self.marks);
        let from = self.seen.len();
        self.type_line(&format!("{line}\necho '@@'\"end{}@@\"", self.marks));
        self.expect(from, &mark)
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.master.write_all(b"\nexit\n");
        let pid = self.child.id();
        if !wait_until(Duration::from_secs(5), || matches!(self.child.try_wait(), Ok(Some(_)))) {
            lean_ctx_tests::kill(pid, libc::SIGKILL);
            let _ = self.child.wait();
        }
    }
}

/// Starts an interactive `shell` with the hook loaded, as from an rc file.
fn hooked_shell(setup: &Setup, shell: &str) -> Pty {
    let mut pty = Pty::spawn(setup, shell);
    let loaded = pty.run(&format!("eval \"$(lctx-shell init {shell})\"; type git | head -1"));
    assert!(loaded.contains("function"), "{shell}: the hook did not define git:\n{loaded}");
    pty
}

fn noise_lines(text: &str) -> usize {
    text.lines().filter(|l| l.starts_with("compiling unit")).count()
}

fn assert_raw(text: &str, context: &str) {
    assert_eq!(noise_lines(text), NOISE, "{context}: all raw lines expected:\n{text}");
    assert!(text.contains("error: something failed at src/lib.rs:12"), "{context}:\n{text}");
    assert!(!text.contains("[full output archived"), "{context}: nothing compressed:\n{text}");
}

fn assert_compressed(text: &str, context: &str) {
    assert!(noise_lines(text) < NOISE / 2, "{context}: compressed output expected:\n{text}");
    assert!(text.contains("error: something failed at src/lib.rs:12"), "{context}: the error survives:\n{text}");
    assert!(text.contains("[exit:3]") && text.contains("[full output archived"), "{context}:\n{text}");
}

#[test]
fn agent_commands_are_compressed_and_keep_their_exit_code() {
    for shell in interactive_shells() {
        let setup = Setup::new();
        let mut pty = hooked_shell(&setup, shell);
        let out = pty.run("export CLAUDECODE=1; git build; echo \"rc=$?\"");
        assert_compressed(&out, shell);
        assert!(out.contains("rc=3"), "{shell}: exit code kept:\n{out}");

        let status = pty.run("lctx-shell status");
        assert!(status.contains("routing: active") && status.contains("CLAUDECODE"), "{shell}:\n{status}");
        assert_eq!(pty.run("printf '[%s]' \"$(lctx-shell prompt)\"").trim(), "[lctx]", "{shell}");
    }
}

#[test]
fn without_an_agent_output_is_raw() {
    for shell in interactive_shells() {
        let setup = Setup::new();
        let mut pty = hooked_shell(&setup, shell);
        let out = pty.run("git build; echo \"rc=$?\"");
        assert_raw(&out, shell);
        assert!(out.contains("rc=3"), "{shell}:\n{out}");
        // Opting in does not route a person typing at a terminal.
        let out = pty.run("lctx-shell on >/dev/null; git build; echo \"rc=$?\"");
        assert_raw(&out, &format!("{shell}, on, at a terminal"));
        assert_eq!(pty.run("printf '[%s]' \"$(lctx-shell prompt)\"").trim(), "[]", "{shell}");
    }
}

#[test]
fn a_broken_or_missing_shim_still_runs_the_real_command() {
    for shell in interactive_shells() {
        for how in [Broken::FailsSilently, Broken::Missing, Broken::NotExecutable] {
            let setup = Setup::new();
            let mut pty = hooked_shell(&setup, shell);
            setup.break_shim(how);
            let context = format!("{shell}, shim {how:?}");
            let out = pty.run("export CLAUDECODE=1; git build; echo \"rc=$?\"");
            assert_raw(&out, &context);
            assert!(out.contains("rc=3"), "{context}:\n{out}");
            let out = pty.run("git stdin <<< 'once only'; echo \"rc=$?\"");
            assert_eq!(out.matches("once only").count(), 1, "{context}: runs exactly once:\n{out}");
            assert!(out.contains("rc=0"), "{context}:\n{out}");
        }
    }
}

#[test]
fn stdin_pipes_and_redirections_behave_as_without_the_hook() {
    for shell in interactive_shells() {
        let setup = Setup::new();
        let mut pty = hooked_shell(&setup, shell);
        pty.run("export CLAUDECODE=1");
        let out = pty.run("echo 'piped in' | git stdin; git stdin <<< 'here string'; echo \"rc=$?\"");
        assert!(out.contains("piped in") && out.contains("here string") && out.contains("rc=0"), "{shell}:\n{out}");

        let out = pty.run("git build 2>/dev/null | wc -l");
        assert_eq!(out.trim(), NOISE.to_string(), "{shell}: a pipeline reads the raw output");
        let out = pty.run("n=$(git build 2>&1 | grep -c unit); echo \"n=$n\"");
        assert!(out.contains(&format!("n={NOISE}")), "{shell}: command substitution:\n{out}");

        let file = setup.home.path().join("out.txt");
        let out = pty.run(&format!("git build > '{}'; echo \"rc=$?\"", file.display()));
        assert!(out.contains("error: something failed") && out.contains("rc=3"), "{shell}: stderr stays:\n{out}");
        let written = fs::read_to_string(&file).unwrap();
        assert_eq!(noise_lines(&written), NOISE, "{shell}: the file holds the raw stdout");
        assert!(!written.contains("error:"), "{shell}: stderr did not move into the file");

        let out = pty.run("git build 2>/dev/null >/dev/null; echo \"rc=$?\"; git build 2>/dev/null | tail -1");
        assert!(out.contains("rc=3") && !out.contains("error:"), "{shell}: 2>/dev/null is honoured:\n{out}");
    }
}

#[test]
fn set_e_and_status_checks_work_as_without_the_hook() {
    for shell in interactive_shells() {
        let setup = Setup::new();
        let mut pty = hooked_shell(&setup, shell);
        pty.run("export CLAUDECODE=1");
        let out = pty.run("( set -e; git build >/dev/null 2>&1; echo not-reached ); echo \"sub=$?\"");
        assert!(out.contains("sub=3") && !out.contains("not-reached"), "{shell}: set -e stops:\n{out}");
        let out = pty.run("( set -eu; git build || echo \"handled $?\"; echo after ) | tail -2");
        assert!(out.contains("handled 3") && out.contains("after"), "{shell}: || handles it:\n{out}");
        let out = pty.run("( set -e; git build; echo not-reached ); echo \"sub=$?\"");
        assert_compressed(&out, &format!("{shell}, set -e"));
        assert!(out.contains("sub=3") && !out.contains("not-reached"), "{shell}:\n{out}");
        let out = pty.run("if git build >/dev/null 2>&1; then echo yes; else echo \"no $?\"; fi");
        assert!(out.contains("no 3"), "{shell}:\n{out}");
    }
}

#[test]
fn off_disables_routing_everywhere_and_auto_restores_it() {
    for shell in interactive_shells() {
        let setup = Setup::new();
        let mut pty = hooked_shell(&setup, shell);
        pty.run("export CLAUDECODE=1");
        let off = pty.run("lctx-shell off");
        assert!(off.contains("no command is routed"), "{shell}:\n{off}");
        assert_raw(&pty.run("git build"), &format!("{shell}, off"));
        assert!(pty.run("lctx-shell status").contains("routing: inactive"), "{shell}");
        pty.run("lctx-shell auto");
        assert_compressed(&pty.run("git build"), &format!("{shell}, auto"));
        assert_raw(&pty.run("LEAN_CTX_SHELL=off git build"), &format!("{shell}, LEAN_CTX_SHELL=off"));
    }
}

#[test]
fn ctrl_c_stops_a_routed_command_and_leaves_nothing_running() {
    for shell in interactive_shells() {
        let setup = Setup::new();
        let mut pty = hooked_shell(&setup, shell);
        pty.run("export CLAUDECODE=1");
        let pid_file = setup.home.path().join("sleep.pid");
        pty.type_line(&format!("git sleep '{}'", pid_file.display()));
        assert!(wait_until(DEADLINE, || fs::read_to_string(&pid_file).is_ok_and(|p| p.ends_with('\n'))), "{shell}");
        let pid: u32 = fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
        let started = Instant::now();
        pty.master.write_all(b"\x03").unwrap();
        let out = pty.run("echo \"rc=$?\"");
        assert!(out.contains("rc=130"), "{shell}: interrupted status:\n{out}");
        assert!(started.elapsed() < Duration::from_secs(10), "{shell}: Ctrl-C took {:?}", started.elapsed());
        assert!(wait_until(Duration::from_secs(5), || !process_alive(pid)), "{shell}: the command outlived Ctrl-C");
    }
}

#[test]
fn hook_text_passes_each_shells_syntax_check() {
    let setup = Setup::new();
    for (shell, check) in [("bash", vec!["-n"]), ("zsh", vec!["-n"]), ("fish", vec!["--no-execute"])] {
        let Some(path) = shell_path(shell) else {
            eprintln!("SKIP {shell} syntax check: {shell} is not installed");
            continue;
        };
        let init =
            setup.command(&setup.shim).args(["init", shell]).env("LEAN_CTX_SHELL_COMMANDS", "git cargo").output();
        let init = init.unwrap();
        assert!(init.status.success(), "{}", describe(&init));
        let text = String::from_utf8(init.stdout).unwrap();
        assert!(text.contains(&setup.shim.display().to_string()), "{shell}: the hook names the PATH entry:\n{text}");
        for var in &setup.agents {
            assert!(text.contains(var.as_str()), "{shell}: {var} is not checked");
        }
        let file = setup.home.path().join(format!("hook.{shell}"));
        fs::write(&file, &text).unwrap();
        let out = Command::new(&path).args(&check).arg(&file).output().unwrap();
        assert!(out.status.success(), "{shell} rejects the hook: {}\n{text}", describe(&out));
    }
}

#[test]
fn init_skips_names_it_cannot_wrap_and_says_so() {
    let setup = Setup::new();
    let out = setup.command(&setup.shim).args(["init", "bash"]).env("LEAN_CTX_SHELL_COMMANDS", "git cd $(x)").output();
    let out = out.unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let warnings = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("function git") && !text.contains("function cd"), "{text}");
    assert!(warnings.contains("`cd`") && warnings.contains("`$(x)`"), "{warnings}");
    assert_eq!(setup.shim(&["init", "tcsh"]).status.code(), Some(2), "unknown shell is a usage error");
}

#[test]
fn status_and_prompt_follow_agent_and_mode() {
    let setup = Setup::new();
    let status = |env: &[(&str, &str)]| {
        let out = setup.command(&setup.shim).arg("status").envs(env.iter().copied()).output().unwrap();
        assert!(out.status.success(), "{}", describe(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let prompt = |env: &[(&str, &str)]| {
        let out = setup.command(&setup.shim).arg("prompt").envs(env.iter().copied()).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = status(&[]);
    assert!(text.contains("routing: inactive") && text.contains("agent:   none") && text.contains("mode:    auto"));
    assert!(text.contains("daemon:  not running"), "{text}");
    for (var, agent) in [("GEMINI_CLI", "gemini-cli"), ("CODEX_SANDBOX", "codex"), ("LEAN_CTX_AGENT", "agent")] {
        let text = status(&[(var, "1")]);
        assert!(text.contains("routing: active"), "{var}: {text}");
        assert!(text.contains(&format!("\nagent:   {agent} ({var})\n")), "named once, with its cause: {text}");
        assert_eq!(prompt(&[(var, "1")]), "lctx");
    }
    assert_eq!(prompt(&[]), "");
    // Opted in and stdin not a terminal (it is /dev/null here): routed.
    assert!(setup.shim(&["on"]).status.success());
    assert!(status(&[]).contains("routing: active"));
    assert!(setup.shim(&["off"]).status.success());
    let text = status(&[("CLAUDECODE", "1")]);
    assert!(text.contains("routing: inactive") && text.contains("mode:    off"), "{text}");
    assert_eq!(prompt(&[("CLAUDECODE", "1")]), "");
    let text = status(&[("CLAUDECODE", "1"), ("LEAN_CTX_SHELL", "auto")]);
    assert!(text.contains("routing: active") && text.contains("LEAN_CTX_SHELL=auto"), "{text}");
}

fn run_shim(setup: &Setup, args: &[&str]) -> Output {
    setup.command(&setup.shim).arg("run").arg("--").args(args).output().unwrap()
}

#[test]
fn run_keeps_exit_codes_and_reports_missing_commands_like_a_shell() {
    let setup = Setup::new();
    let out = run_shim(&setup, &["sh", "-c", "echo small; exit 7"]);
    assert_eq!(out.status.code(), Some(7), "{}", describe(&out));
    assert_eq!(out.stdout, b"small\n", "small output is printed as it is");
    let out = run_shim(&setup, &["no-such-command-lctx"]);
    assert_eq!(out.status.code(), Some(127), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-command-lctx: command not found"));
    let out = run_shim(&setup, &["git", "build"]);
    assert_eq!(out.status.code(), Some(3), "{}", describe(&out));
    assert_compressed(&String::from_utf8_lossy(&out.stdout), "run directly");
    assert!(out.stderr.is_empty(), "stderr was merged into the compressed output: {}", describe(&out));
    // The daemon that compression started must not inherit the signal mask
    // lctx-shell holds while a command runs.
    let daemons = setup.home.daemon_pids();
    assert!(!daemons.is_empty(), "compression starts the daemon");
    for pid in daemons {
        let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let blocked = status.lines().find_map(|l| l.strip_prefix("SigBlk:")).unwrap().trim();
        assert!(blocked.chars().all(|c| c == '0'), "lean-ctxd {pid} has signals blocked: {blocked}");
    }
}

#[test]
fn run_streams_output_too_large_to_hold_unchanged() {
    let setup = Setup::new();
    let out = run_shim(&setup, &["seq", "1", "3000000"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let expected = Command::new("seq").args(["1", "3000000"]).output().unwrap().stdout;
    assert!(out.stdout == expected, "{} bytes out of {} expected", out.stdout.len(), expected.len());
}

#[test]
fn run_does_not_wait_for_a_background_process_holding_the_output() {
    let setup = Setup::new();
    let pid_file = setup.home.path().join("bg.pid");
    let script = format!("sleep 30 & echo $! > '{}'; echo started", pid_file.display());
    let started = Instant::now();
    let out = run_shim(&setup, &["sh", "-c", &script]);
    assert!(out.status.success() && out.stdout == b"started\n", "{}", describe(&out));
    assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
    if let Ok(pid) = fs::read_to_string(&pid_file).unwrap_or_default().trim().parse::<u32>() {
        lean_ctx_tests::kill(pid, libc::SIGKILL);
    }
}

#[test]
fn signals_reach_the_command_and_it_never_outlives_run() {
    for (signal, dies_by) in [(libc::SIGTERM, Some(libc::SIGTERM)), (libc::SIGKILL, None)] {
        let setup = Setup::new();
        let pid_file = setup.home.path().join("child.pid");
        let script = format!("echo $$ > '{}'; exec sleep 30", pid_file.display());
        let mut shim = setup
            .command(&setup.shim)
            .args(["run", "--", "sh", "-c", &script])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        assert!(wait_until(DEADLINE, || fs::read_to_string(&pid_file).is_ok_and(|p| p.ends_with('\n'))));
        let child: u32 = fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
        lean_ctx_tests::kill(shim.id(), signal);
        let status = shim.wait().unwrap();
        if let Some(sig) = dies_by {
            assert_eq!(status.signal(), Some(sig), "lctx-shell ends as the command did: {status}");
        }
        assert!(wait_until(Duration::from_secs(5), || !process_alive(child)), "signal {signal}: the command lives on");
    }
}

/// Median and fastest wall time of `runs` runs of `cmd`: the median is the
/// figure, the fastest shows what a quiet machine gives.
fn timing(runs: usize, mut cmd: impl FnMut() -> Command) -> (Duration, Duration) {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let mut c = cmd();
            let start = Instant::now();
            let status = c.status().unwrap();
            let took = start.elapsed();
            assert!(status.success() || status.code() == Some(3), "{status}");
            took
        })
        .collect();
    times.sort();
    (times[runs / 2], times[0])
}

/// Overhead figures for docs/benchmarks.md. Meaningful on a release build:
/// `cargo build --release --workspace --bins && cargo test --release -p
/// lean-ctx-tests --test shell_hooks -- --ignored --nocapture`.
#[test]
#[ignore = "benchmark; run on a release build with --ignored --nocapture"]
fn bench_run_overhead_and_prompt() {
    const RUNS: usize = 41;
    let setup = Setup::new();
    let piped = |program: &str, args: &[&str]| {
        let mut c = setup.command(program);
        c.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
        c
    };
    let shim = setup.shim.display().to_string();
    let true_bin = "/bin/true";
    let rows: Vec<(&str, (Duration, Duration))> = vec![
        ("true", timing(RUNS, || piped(true_bin, &[]))),
        ("lctx-shell run -- true (captured)", timing(RUNS, || piped(&shim, &["run", "--", true_bin]))),
        (
            "lctx-shell run -- true (passthrough)",
            timing(RUNS, || {
                let mut c = setup.command(&setup.shim);
                c.args(["run", "--", true_bin]).stdout(Stdio::null()).stderr(Stdio::null());
                c
            }),
        ),
        ("lctx-shell prompt (no agent)", timing(RUNS, || piped(&shim, &["prompt"]))),
        (
            "lctx-shell prompt (agent)",
            timing(RUNS, || {
                let mut c = piped(&shim, &["prompt"]);
                c.env("CLAUDECODE", "1");
                c
            }),
        ),
        ("fake git, 300 lines, direct", timing(RUNS, || piped("git", &["build"]))),
        ("fake git, routed, warm daemon", {
            // Start the daemon first: its start-up is not the figure.
            let warm = run_shim(&setup, &["git", "build"]);
            assert_eq!(warm.status.code(), Some(3), "{}", describe(&warm));
            timing(RUNS, || piped(&shim, &["run", "--", "git", "build"]))
        }),
    ];
    let build = if cfg!(debug_assertions) { "debug (figures are not representative)" } else { "release" };
    println!("lctx-shell benchmark, {build} build, {RUNS} runs each: median (fastest)");
    for (what, (median, fastest)) in rows {
        println!("  {what:<40} {median:>9.2?} ({fastest:.2?})");
    }
}
