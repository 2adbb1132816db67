//! Thin clients (issue 11): what each binary weighs, and what a client call
//! costs beside the floors it is measured against, in one run.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::stats::{Summary, ms, summarize};

/// Times `program args` from `dir` with extra environment, `runs` times.
fn time(program: &Path, args: &[&str], dir: &Path, env: &[(&str, &Path)], runs: usize) -> Summary {
    let mut samples = Vec::with_capacity(runs);
    for _ in 0..runs {
        let mut cmd = Command::new(program);
        cmd.args(args).current_dir(dir).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let start = Instant::now();
        let status = cmd.status().expect("run");
        samples.push(start.elapsed());
        assert!(status.success(), "{} {args:?} failed", program.display());
    }
    summarize(samples)
}

fn mib(bytes: u64) -> String {
    format!("{:.2} MiB", bytes as f64 / (1 << 20) as f64)
}

pub fn run(bins: &Path, repo: &Path, runs: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "### Thin clients ({runs} runs each)\n");
    let _ = writeln!(out, "| binary | on disk |");
    let _ = writeln!(out, "|---|---|");
    for name in ["lctx", "lctx-mcp", "lctx-shell", "lean-ctxd"] {
        let size = std::fs::metadata(bins.join(name)).map(|m| m.len()).unwrap_or(0);
        let _ = writeln!(out, "| `{name}` | {} |", mib(size));
    }

    let home = tempfile::Builder::new().prefix("lctxt").tempdir_in("/tmp").expect("temp home");
    let home_env = [("LEAN_CTX_HOME", home.path())];
    let lctx = bins.join("lctx");
    let started = Command::new(&lctx).args(["daemon", "start"]).env("LEAN_CTX_HOME", home.path()).output().unwrap();
    assert!(started.status.success(), "{}", String::from_utf8_lossy(&started.stderr));

    // Floors and clients interleaved in one run, so load affects both alike.
    let noop = time(&bins.join("noop"), &[], repo, &home_env, runs);
    let status = time(&lctx, &["daemon", "status"], repo, &home_env, runs);
    let true_bin = Path::new("/bin/true");
    let bare_true = time(true_bin, &[], repo, &home_env, runs);
    let shell_true = time(&bins.join("lctx-shell"), &["run", "--", "true"], repo, &home_env, runs);
    let stop = Command::new(&lctx).args(["daemon", "stop"]).env("LEAN_CTX_HOME", home.path()).output().unwrap();
    assert!(stop.status.success());
    let fallback_env = [("LEAN_CTX_HOME", home.path()), ("LEAN_CTX_NO_DAEMON", Path::new("1"))];
    let file = "daemon/src/engine/read/mod.rs";
    let fallback = time(&lctx, &["read", file, "-m", "signatures", "--fresh"], repo, &fallback_env, runs);

    let _ = writeln!(out, "\n| whole process | p50 | p99 | min |");
    let _ = writeln!(out, "|---|---|---|---|");
    for (name, s) in [
        ("empty Rust binary", &noop),
        ("`lctx daemon status` (warm daemon)", &status),
        ("`/bin/true`", &bare_true),
        ("`lctx-shell run -- true` (warm daemon)", &shell_true),
        (&format!("`LEAN_CTX_NO_DAEMON=1 lctx read {file} -m signatures`") as &str, &fallback),
    ] {
        let _ = writeln!(out, "| {name} | {} | {} | {} |", ms(s.p50), ms(s.p99), ms(s.min));
    }
    let _ = writeln!(
        out,
        "\n`lctx daemon status` over the empty binary: **{}** p50 (goal ≤ 1.0 ms); `lctx-shell run -- true` over \
         `true`: **{}** p50 (goal ≤ 1.5 ms); fallback read: **{}** p50 (goal < 100 ms).",
        ms(status.p50.saturating_sub(noop.p50)),
        ms(shell_true.p50.saturating_sub(bare_true.p50)),
        ms(fallback.p50)
    );
    out
}
