//! Thin clients (issue 11): what each binary weighs, and what a client call
//! costs beside the floors it is measured against, in one run.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::stats::{Summary, ms, summarize};

/// One program to time: a name for the table, the program and its arguments.
struct Call<'a> {
    name: &'a str,
    program: &'a Path,
    args: &'a [&'a str],
}

/// What one call cost, over its runs: wall time, and the minor page faults
/// of the process (its median count; a fault costs microseconds here, and
/// unlike time the count does not drift with the machine's load).
struct Measured<'a> {
    name: &'a str,
    time: Summary,
    faults: u64,
}

/// Minor page faults of all waited-for children so far.
fn children_faults() -> u64 {
    // SAFETY: getrusage only writes into the struct we pass.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above; RUSAGE_CHILDREN is a valid `who`.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    u64::try_from(usage.ru_minflt).unwrap_or(0)
}

/// Runs every call of `calls` in turn, `runs` rounds, from `dir` with extra
/// environment: interleaved, so a change in the machine's load in the middle
/// of the run shifts the floors and the clients alike.
fn time<'a>(calls: &[Call<'a>], dir: &Path, env: &[(&str, &Path)], runs: usize) -> Vec<Measured<'a>> {
    let mut samples = vec![Vec::with_capacity(runs); calls.len()];
    let mut faults = vec![Vec::with_capacity(runs); calls.len()];
    for _ in 0..runs {
        for (i, call) in calls.iter().enumerate() {
            let mut cmd = Command::new(call.program);
            cmd.args(call.args).current_dir(dir).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
            for (k, v) in env {
                cmd.env(k, v);
            }
            let before = children_faults();
            let start = Instant::now();
            let status = cmd.status().expect("run");
            samples[i].push(start.elapsed());
            faults[i].push(children_faults() - before);
            assert!(status.success(), "{} {:?} failed", call.program.display(), call.args);
        }
    }
    calls
        .iter()
        .zip(samples.into_iter().zip(faults))
        .map(|(call, (samples, mut faults))| {
            faults.sort_unstable();
            Measured { name: call.name, time: summarize(samples), faults: faults[faults.len() / 2] }
        })
        .collect()
}

fn mib(bytes: u64) -> String {
    format!("{:.2} MiB", bytes as f64 / (1 << 20) as f64)
}

/// How an ELF executable is linked, from its header's `e_type`: at a fixed
/// address (`ET_EXEC`) or position-independent (`ET_DYN`), whose start pays
/// for relocations. Not ELF (or unreadable): "-".
fn linking(path: &Path) -> &'static str {
    let mut header = [0u8; 18];
    let read = std::fs::File::open(path).and_then(|mut f| std::io::Read::read_exact(&mut f, &mut header));
    match (read, &header[..4], u16::from_le_bytes([header[16], header[17]])) {
        (Ok(()), b"\x7fELF", 2) => "fixed address",
        (Ok(()), b"\x7fELF", 3) => "position-independent",
        _ => "-",
    }
}

pub fn run(bins: &Path, repo: &Path, runs: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "### Thin clients ({runs} runs each)\n");
    let _ = writeln!(out, "| binary | on disk | linked |");
    let _ = writeln!(out, "|---|---|---|");
    for name in ["lctx", "lctx-mcp", "lctx-shell", "lean-ctxd"] {
        let path = bins.join(name);
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let _ = writeln!(out, "| `{name}` | {} | {} |", mib(size), linking(&path));
    }

    let home = tempfile::Builder::new().prefix("lctxt").tempdir_in("/tmp").expect("temp home");
    let home_env = [("LEAN_CTX_HOME", home.path())];
    let lctx = bins.join("lctx");
    let started = Command::new(&lctx).args(["daemon", "start"]).env("LEAN_CTX_HOME", home.path()).output().unwrap();
    assert!(started.status.success(), "{}", String::from_utf8_lossy(&started.stderr));

    // Each client beside its floor, the two interleaved call by call.
    let noop = bins.join("noop");
    let shell = bins.join("lctx-shell");
    let status = time(
        &[
            Call { name: "empty Rust binary", program: &noop, args: &[] },
            Call { name: "`lctx daemon status` (warm daemon)", program: &lctx, args: &["daemon", "status"] },
        ],
        repo,
        &home_env,
        runs,
    );
    let shell_true = time(
        &[
            Call { name: "`/bin/true`", program: Path::new("/bin/true"), args: &[] },
            Call { name: "`lctx-shell run -- true` (warm daemon)", program: &shell, args: &["run", "--", "true"] },
        ],
        repo,
        &home_env,
        runs,
    );
    let stop = Command::new(&lctx).args(["daemon", "stop"]).env("LEAN_CTX_HOME", home.path()).output().unwrap();
    assert!(stop.status.success());
    let fallback_env = [("LEAN_CTX_HOME", home.path()), ("LEAN_CTX_NO_DAEMON", Path::new("1"))];
    let file = "daemon/src/engine/read/mod.rs";
    let name = format!("`LEAN_CTX_NO_DAEMON=1 lctx read {file} -m signatures`");
    let args = ["read", file, "-m", "signatures", "--fresh"];
    let fallback = time(&[Call { name: &name, program: &lctx, args: &args }], repo, &fallback_env, runs);

    let _ = writeln!(out, "\n| whole process | p50 | p99 | min | page faults (median) |");
    let _ = writeln!(out, "|---|---|---|---|---|");
    for m in status.iter().chain(&shell_true).chain(&fallback) {
        let s = &m.time;
        let _ = writeln!(out, "| {} | {} | {} | {} | {} |", m.name, ms(s.p50), ms(s.p99), ms(s.min), m.faults);
    }
    // Signed: a client's p50 below its floor's (load moved during the run) reads negative
    // rather than as a zero that looks like a result.
    let over = |pair: &[Measured]| {
        let (floor, client) = (pair[0].time.p50, pair[1].time.p50);
        if client >= floor { ms(client - floor) } else { format!("-{}", ms(floor - client)) }
    };
    let _ = writeln!(
        out,
        "\n`lctx daemon status` over the empty binary: **{}** p50 (goal ≤ 1.0 ms); `lctx-shell run -- true` over \
         `true`: **{}** p50 (goal ≤ 1.5 ms); fallback read: **{}** p50 (goal < 100 ms).",
        over(&status),
        over(&shell_true),
        ms(fallback[0].time.p50)
    );
    out
}
