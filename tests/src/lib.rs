//! Harness for end-to-end tests: each test gets its own `LEAN_CTX_HOME`, runs
//! the real binaries from the target directory, and kills any daemon it
//! leaves behind.
//!
//! The binaries must be built first (`cargo build --workspace --bins`, which
//! the README's test command does).

pub mod mcp;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Path of a workspace binary next to the running test executable.
pub fn bin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    // target/<profile>/deps/<test> → target/<profile>/<name>
    let dir = exe.parent().and_then(Path::parent).expect("target dir");
    let path = dir.join(name);
    assert!(path.exists(), "{} is missing; run `cargo build --workspace --bins` before the tests", path.display());
    path
}

/// Polls `cond` every 10 ms until it holds or `deadline` passes.
pub fn wait_until(deadline: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if cond() {
            return true;
        }
        if start.elapsed() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// One isolated installation: every lean-ctxd directory under a temp dir.
pub struct Home {
    dir: tempfile::TempDir,
}

impl Default for Home {
    fn default() -> Self {
        Self::new()
    }
}

impl Home {
    pub fn new() -> Home {
        // Short prefix: the socket path must stay under the Unix limit.
        let dir = tempfile::Builder::new().prefix("lctx").tempdir_in("/tmp").expect("temp dir");
        Home { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn dirs(&self) -> lean_ctxd::engine::paths::Dirs {
        lean_ctxd::engine::paths::Dirs::under(self.path())
    }

    pub fn socket(&self) -> PathBuf {
        self.dirs().socket()
    }

    /// A command with this home's environment and nothing inherited that
    /// could change the outcome.
    pub fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.env("LEAN_CTX_HOME", self.path())
            .env_remove("LEAN_CTX_NO_DAEMON")
            .env_remove("LEAN_CTX_SOCKET")
            .env_remove("LEAN_CTX_DAEMON_BIN")
            .env_remove("LEAN_CTX_SESSION")
            .stdin(Stdio::null());
        cmd
    }

    pub fn lctx(&self, args: &[&str]) -> Output {
        self.command(bin("lctx")).args(args).output().expect("run lctx")
    }

    /// Runs lctx in `dir`; with `no_daemon`, through the out-of-process
    /// engine (`LEAN_CTX_NO_DAEMON=1`) instead of the daemon.
    pub fn lctx_in(&self, dir: &Path, no_daemon: bool, args: &[&str]) -> Output {
        let mut cmd = self.command(bin("lctx"));
        cmd.current_dir(dir).args(args);
        if no_daemon {
            cmd.env("LEAN_CTX_NO_DAEMON", "1");
        }
        cmd.output().expect("run lctx")
    }

    /// Runs lctx and returns its parsed `--json` stdout, asserting success.
    pub fn lctx_json(&self, args: &[&str]) -> serde_json::Value {
        let out = self.lctx(args);
        assert!(out.status.success(), "lctx {args:?} failed: {}", describe(&out));
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("lctx {args:?}: bad JSON ({e}): {}", describe(&out)))
    }

    /// The checks of `lctx doctor --json` run in `dir` (whatever its exit code: a failing check
    /// exits 1).
    pub fn doctor_checks(&self, dir: &Path) -> Vec<serde_json::Value> {
        let out =
            self.command(bin("lctx")).current_dir(dir).env("HOME", self.path()).args(["doctor", "--json"]).output();
        let out = out.expect("run lctx doctor");
        let report: serde_json::Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", describe(&out)));
        report["checks"].as_array().unwrap_or_else(|| panic!("no checks: {report}")).clone()
    }

    /// Runs lctx expecting exit code `code` and returns its `--json` stdout.
    pub fn lctx_json_status(&self, args: &[&str], code: i32) -> serde_json::Value {
        let out = self.lctx(args);
        assert_eq!(out.status.code(), Some(code), "lctx {args:?}: {}", describe(&out));
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("lctx {args:?}: bad JSON ({e}): {}", describe(&out)))
    }

    /// Starts `lean-ctxd --foreground ARGS` as a child of the test and waits
    /// until it accepts connections.
    pub fn spawn_daemon(&self, args: &[&str]) -> DaemonChild {
        self.spawn_daemon_of(&bin("lean-ctxd"), args)
    }

    /// A daemon run from `program`, a copy of lean-ctxd somewhere else.
    pub fn spawn_daemon_of(&self, program: &Path, args: &[&str]) -> DaemonChild {
        let spawn = || {
            self.command(program).arg("--foreground").args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn()
        };
        // A copy just written may be held open for writing by a child another test thread forked
        // meanwhile, until that child execs: Linux refuses to run it then (ETXTBSY), briefly.
        let mut tries = 0;
        let mut child = loop {
            match spawn() {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(20));
                }
                spawned => break spawned.expect("spawn lean-ctxd"),
            }
        };
        let socket = self.socket();
        let up = wait_until(Duration::from_secs(10), || std::os::unix::net::UnixStream::connect(&socket).is_ok());
        if !up {
            let _ = child.kill();
            let out = child.wait_with_output().expect("wait");
            panic!("lean-ctxd did not come up: {}", String::from_utf8_lossy(&out.stderr));
        }
        DaemonChild(child)
    }

    /// Live (non-zombie) lean-ctxd daemons serving this home (fallback
    /// children not counted).
    pub fn daemon_pids(&self) -> Vec<u32> {
        self.lean_ctxd_pids(|args| !args.contains(&&b"--stdio"[..]) && !args.contains(&&b"--watchdog"[..]))
    }

    /// Live watchdogs (`lean-ctxd --watchdog PID`) of commands run for this home.
    pub fn watchdog_pids(&self) -> Vec<u32> {
        self.lean_ctxd_pids(|args| args.contains(&&b"--watchdog"[..]))
    }

    /// Live `lean-ctxd --stdio` fallback children of clients of this home.
    pub fn fallback_pids(&self) -> Vec<u32> {
        self.lean_ctxd_pids(|args| args.contains(&&b"--stdio"[..]))
    }

    /// Live lean-ctxd processes of this home whose arguments `wanted` accepts.
    fn lean_ctxd_pids(&self, wanted: impl Fn(&[&[u8]]) -> bool) -> Vec<u32> {
        let needle = format!("LEAN_CTX_HOME={}", self.path().display());
        let mut pids = Vec::new();
        let Ok(entries) = std::fs::read_dir("/proc") else { return pids };
        for entry in entries.flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
            let proc_dir = entry.path();
            let cmdline = std::fs::read(proc_dir.join("cmdline")).unwrap_or_default();
            let mut argv = cmdline.split(|b| *b == 0);
            let argv0 = argv.next().unwrap_or_default();
            let is_lean_ctxd = Path::new(OsStr::from_bytes(argv0)).file_name() == Some(OsStr::new("lean-ctxd"));
            let args: Vec<&[u8]> = argv.collect();
            if !is_lean_ctxd || !wanted(&args) || !process_alive(pid) {
                continue;
            }
            let env = std::fs::read(proc_dir.join("environ")).unwrap_or_default();
            if env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes()) {
                pids.push(pid);
            }
        }
        pids.sort_unstable();
        pids
    }

    /// The daemon log so far.
    pub fn daemon_log(&self) -> String {
        let mut text = String::new();
        if let Ok(entries) = std::fs::read_dir(self.dirs().log_dir()) {
            let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
            paths.sort();
            for p in paths {
                text.push_str(&std::fs::read_to_string(p).unwrap_or_default());
            }
        }
        text
    }
}

impl Drop for Home {
    fn drop(&mut self) {
        for pid in self.daemon_pids() {
            kill(pid, libc::SIGKILL);
        }
    }
}

/// A daemon started by a test; killed and reaped when dropped.
pub struct DaemonChild(Child);

impl DaemonChild {
    pub fn id(&self) -> u32 {
        self.0.id()
    }

    /// Whether it has exited, without waiting.
    pub fn exited(&mut self) -> bool {
        self.0.try_wait().expect("try_wait").is_some()
    }

    /// Waits for the exit and returns whether it was successful.
    pub fn wait_success(&mut self) -> bool {
        self.0.wait().expect("wait").success()
    }
}

impl Drop for DaemonChild {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Processes whose parent is `pid` (zombies included), with their state letter.
pub fn children_of(pid: u32) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(child) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else { continue };
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.get(1).and_then(|p| p.parse::<u32>().ok()) == Some(pid) {
            out.push((child, fields[0].to_string()));
        }
    }
    out
}

/// True while the process exists and is not a zombie.
pub fn process_alive(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return false };
    // The state follows the parenthesised command name, which may hold spaces.
    stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next()).is_some_and(|state| state != "Z")
}

pub fn kill(pid: u32, signal: i32) {
    // SAFETY: kill has no memory-safety preconditions.
    unsafe { libc::kill(pid as libc::pid_t, signal) };
}

pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// The workspace binary `name` alone in a directory of the home, with no lean-ctxd beside it:
/// a client installed without the engine. Hard-linked where the file system allows (a copy
/// being written can be busy to exec when another test thread forks meanwhile).
pub fn alone(home: &Home, name: &str) -> PathBuf {
    let dir = home.path().join("alone");
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join(name);
    if std::fs::hard_link(bin(name), &program).is_err() {
        std::fs::copy(bin(name), &program).unwrap();
    }
    program
}

/// A PATH on which no lean-ctxd is found: `program`'s directory and the system's.
pub fn path_without_lean_ctxd(program: &Path) -> std::ffi::OsString {
    let mut path = program.parent().unwrap().as_os_str().to_owned();
    path.push(":/usr/bin:/bin");
    path
}

/// Runs git in `dir` with a fixed identity and branch name; fails the test when git does.
pub fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.email=t@example.invalid", "-c", "user.name=t", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", describe(&out));
}

/// A git repository `name` under the home holding `files` (path, text).
pub fn git_project(home: &Home, name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = home.path().join(name);
    std::fs::create_dir_all(&root).unwrap();
    git(&root, &["init", "-q"]);
    for (path, text) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    root
}

/// Exit status, stdout and stderr of a finished process, for assertion messages.
pub fn describe(out: &Output) -> String {
    format!(
        "{}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Client options for talking to this home's daemon from the test process.
pub fn client_options(home: &Home) -> lctx::options::ClientOptions {
    lctx::options::ClientOptions {
        dirs: home.dirs(),
        socket: home.socket(),
        no_daemon: false,
        daemon_bin: Some(bin("lean-ctxd")),
        client: lean_ctx_proto::v1::ClientInfo {
            kind: lean_ctx_proto::v1::ClientKind::Cli as i32,
            name: "lean-ctx-tests".into(),
            version: lean_ctxd::build_info::VERSION.into(),
        },
        session_id: "test-session".into(),
        host: String::new(),
        connect_timeout: Duration::from_millis(500),
        start_timeout: Duration::from_secs(10),
    }
}

/// `cargo metadata` of the workspace (dependencies resolved from
/// Cargo.lock), for tests that check the shape of the crate graph.
pub fn cargo_metadata() -> serde_json::Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").join("Cargo.toml");
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--manifest-path"])
        .arg(&manifest)
        .stderr(Stdio::inherit())
        .output()
        .expect("run cargo metadata");
    assert!(out.status.success(), "cargo metadata failed");
    serde_json::from_slice(&out.stdout).expect("cargo metadata JSON")
}
