//! Issue 2's figures: whole-process `lctx daemon status` against a warm
//! daemon beside trivial binaries, idle daemon RSS, Hello round trip.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use lean_ctx_proto::v1::{ClientInfo, ClientKind, HelloRequest};

use crate::stats::{ms, summarize, us};

fn time_process(program: &Path, args: &[&str], home: &Path, runs: usize) -> crate::stats::Summary {
    let mut samples = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let status = Command::new(program)
            .args(args)
            .env("LEAN_CTX_HOME", home)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("run");
        samples.push(start.elapsed());
        assert!(status.success(), "{} {args:?} failed", program.display());
    }
    summarize(samples)
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

pub fn run(bins: &Path, runs: usize) -> String {
    let home = tempfile::Builder::new().prefix("lctxb").tempdir_in("/tmp").expect("temp home");
    let lctx = bins.join("lctx");
    let mut out = String::new();
    let _ = writeln!(out, "### Foundation ({runs} runs each)\n");

    // Start the daemon and let it settle before measuring its memory.
    let first = Command::new(&lctx).args(["daemon", "start"]).env("LEAN_CTX_HOME", home.path()).output().unwrap();
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let pid =
        lean_ctxd::server::singleton::read_info(&lean_ctxd::engine::paths::Dirs::under(home.path()).daemon_lock())
            .pid
            .expect("daemon pid");
    std::thread::sleep(Duration::from_secs(1));
    let idle_rss = rss_kib(pid);

    let floor_c = time_process(Path::new("/bin/true"), &[], home.path(), runs);
    let floor_rust = time_process(&bins.join("noop"), &[], home.path(), runs);
    let status = time_process(&lctx, &["daemon", "status"], home.path(), runs);
    let _ = writeln!(out, "| whole process | p50 | p99 | min |");
    let _ = writeln!(out, "|---|---|---|---|");
    for (name, s) in [
        ("`/bin/true` (floor)", &floor_c),
        ("empty Rust binary (floor)", &floor_rust),
        ("`lctx daemon status`", &status),
    ] {
        let _ = writeln!(out, "| {name} | {} | {} | {} |", ms(s.p50), ms(s.p99), ms(s.min));
    }
    let over = status.p50.saturating_sub(floor_rust.p50);
    let _ = writeln!(out, "\n`lctx daemon status` p50 minus the Rust floor's p50: **{}** (goal ≤ 1.5 ms)\n", ms(over));

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let hello = rt.block_on(async {
        let dirs = lean_ctxd::engine::paths::Dirs::under(home.path());
        let opts = lctx::options::ClientOptions {
            socket: dirs.socket(),
            dirs,
            no_daemon: false,
            daemon_bin: Some(bins.join("lean-ctxd")),
            client: ClientInfo { kind: ClientKind::Cli as i32, name: "lctx-bench".into(), version: String::new() },
            session_id: String::new(),
            host: String::new(),
            connect_timeout: Duration::from_secs(1),
            start_timeout: Duration::from_secs(10),
        };
        let mut daemon = lctx::daemon::find(&opts).await.expect("probe").expect("daemon running");
        let request = HelloRequest {
            ctx: None,
            client_version: lean_ctxd::build_info::VERSION.into(),
            protocol_min: lean_ctx_proto::PROTOCOL_MIN,
            protocol_max: lean_ctx_proto::PROTOCOL_MAX,
            executable_id: String::new(),
        };
        for _ in 0..200 {
            daemon.control.hello(request.clone()).await.expect("warm-up hello");
        }
        let mut samples = Vec::with_capacity(runs * 40);
        for _ in 0..runs * 40 {
            let start = Instant::now();
            daemon.control.hello(request.clone()).await.expect("hello");
            samples.push(start.elapsed());
        }
        summarize(samples)
    });
    let _ = writeln!(out, "| in-process call | p50 | p99 | n |");
    let _ = writeln!(out, "|---|---|---|---|");
    let _ =
        writeln!(out, "| `Hello` round trip, warm connection | {} | {} | {} |", us(hello.p50), us(hello.p99), hello.n);
    let _ = writeln!(out, "\nGoal: Hello p50 ≤ 150 µs.\n");
    let _ = writeln!(out, "Daemon RSS idle 1 s after start: **{:.1} MiB** (goal ≤ 15 MB)\n", idle_rss as f64 / 1024.0);
    let after = rss_kib(pid);
    let _ = writeln!(out, "Daemon RSS after the runs above: {:.1} MiB\n", after as f64 / 1024.0);

    let _ = Command::new(&lctx).args(["daemon", "stop"]).env("LEAN_CTX_HOME", home.path()).output();
    out
}
