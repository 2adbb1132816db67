//! `lctx-bench soak`: 32 clients of mixed reads, searches, runs, edits and
//! knowledge writes against one daemon for a fixed time (issue 17). Reports
//! errors by class (an expected refusal is not an error), p50/p99 per
//! operation, the daemon's RSS and open descriptors sampled over time, and
//! zombie processes left at the end.
//!
//! Each operation is a real `lctx` process, as an agent's host runs them.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::stats::{ms, summarize};

const CLIENTS: usize = 32;
const SAMPLE_EVERY: Duration = Duration::from_secs(10);
const OPS: [&str; 5] = ["read", "search", "run", "edit", "knowledge"];

/// What one client saw of one operation.
struct Outcome {
    op: &'static str,
    took: Duration,
    /// `None` when it succeeded; otherwise the class of the failure.
    error: Option<String>,
}

/// One sample of the daemon's footprint.
struct Sample {
    at: Duration,
    rss_kib: u64,
    /// Of the RSS: heap and stacks, and pages of mapped files (index
    /// segments, the database) that the kernel can drop at will.
    anon_kib: u64,
    file_kib: u64,
    fds: u64,
}

/// A project of real source files (the repository's daemon sources) plus
/// one scratch file per client for its edits.
fn project(repo: &Path, root: &Path) {
    std::fs::create_dir_all(root.join(".git")).expect("project dir");
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").expect("HEAD");
    let status = Command::new("cp").arg("-r").arg(repo.join("daemon/src")).arg(root.join("src")).status();
    assert!(status.is_ok_and(|s| s.success()), "copying daemon/src into the soak project failed");
    std::fs::create_dir_all(root.join("scratch")).expect("scratch dir");
    for c in 0..CLIENTS {
        std::fs::write(root.join(format!("scratch/c{c}.txt")), "counter = 0\n").expect("scratch file");
    }
}

/// The files reads pick from, relative to the project.
fn sources(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut stack = vec![root.join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(rel) = path.strip_prefix(root) {
                files.push(rel.display().to_string());
            }
        }
    }
    files.sort();
    files
}

/// Runs one operation of client `c`, round `i`; `counter` is the value its
/// scratch file holds (edits move it on).
fn operation(
    lctx: &Path,
    home: &Path,
    root: &Path,
    files: &[String],
    c: usize,
    i: usize,
    counter: &mut u64,
) -> Outcome {
    let op = OPS[(c + i) % OPS.len()];
    let modes = ["full", "signatures", "map", "auto", "lines:1-40"];
    let words = ["session", "cancel", "deadline", "archive", "permission", "token"];
    let mut cmd = Command::new(lctx);
    cmd.env("LEAN_CTX_HOME", home).current_dir(root).args(["--session", &format!("soak-{c}")]);
    match op {
        "read" => cmd.args(["read", &files[(c * 7 + i) % files.len()], "-m", modes[i % modes.len()]]),
        "search" => {
            let action = if i.is_multiple_of(2) { "regex" } else { "bm25" };
            cmd.args(["search", words[(c + i) % words.len()], "-a", action])
        }
        "run" => cmd.args(["run", "--", "ls -la src; echo soak-err >&2"]),
        "edit" => {
            let file = format!("scratch/c{c}.txt");
            cmd.args(["edit", &file, "--old", &format!("counter = {counter}\n"), "--new"]);
            cmd.arg(format!("counter = {}\n", *counter + 1))
        }
        _ => cmd.args(["knowledge", "remember", &format!("soak-{c}-{i}"), &format!("value {i}"), "-c", "soak"]),
    };
    let start = Instant::now();
    let out = cmd.output();
    let took = start.elapsed();
    let error = match out {
        Err(e) => Some(format!("spawn: {e}")),
        Ok(out) if out.status.success() => {
            if op == "edit" {
                *counter += 1;
            }
            None
        }
        Ok(out) => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let first = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("(no stderr)");
            Some(format!("exit {:?}: {}", out.status.code(), first.chars().take(120).collect::<String>()))
        }
    };
    Outcome { op, took, error }
}

/// RSS (whole, anonymous, file-backed) and open descriptors of `pid`, from /proc.
fn footprint(pid: u32, at: Duration) -> Option<Sample> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kib = |key: &str| -> Option<u64> {
        status.lines().find_map(|l| l.strip_prefix(key))?.split_whitespace().next()?.parse().ok()
    };
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count() as u64;
    Some(Sample { at, rss_kib: kib("VmRSS:")?, anon_kib: kib("RssAnon:")?, file_kib: kib("RssFile:")?, fds })
}

/// Zombie processes whose parent is `pid`.
fn zombies_of(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(child) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else { continue };
        // After the parenthesised name: state, then the parent's pid.
        let mut rest = stat.rsplit_once(')').map(|(_, r)| r.split_whitespace()).into_iter().flatten();
        let (state, parent) = (rest.next(), rest.next().and_then(|p| p.parse::<u32>().ok()));
        if state == Some("Z") && parent == Some(pid) {
            found.push(child);
        }
    }
    found
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn run(bins: &Path, repo: &Path, duration: Duration) -> String {
    let home = tempfile::Builder::new().prefix("lctxs").tempdir_in("/tmp").expect("temp home");
    let root = home.path().join("project");
    project(repo, &root);
    let files = sources(&root);
    let lctx = bins.join("lctx");
    let started = Command::new(&lctx).args(["daemon", "start"]).env("LEAN_CTX_HOME", home.path()).output().unwrap();
    assert!(started.status.success(), "{}", String::from_utf8_lossy(&started.stderr));
    let status = Command::new(&lctx).args(["daemon", "status", "--json"]).env("LEAN_CTX_HOME", home.path()).output();
    let status: serde_json::Value = serde_json::from_slice(&status.expect("status").stdout).expect("status JSON");
    let pid = status["pid"].as_u64().expect("daemon pid") as u32;
    let load_before = load_average();

    let stop = Arc::new(AtomicBool::new(false));
    let begin = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|c| {
            let (lctx, home, root, files, stop) =
                (lctx.clone(), home.path().to_path_buf(), root.clone(), files.clone(), stop.clone());
            std::thread::spawn(move || {
                let (mut outcomes, mut counter) = (Vec::new(), 0);
                let mut i = 0;
                while !stop.load(Ordering::Relaxed) {
                    outcomes.push(operation(&lctx, &home, &root, &files, c, i, &mut counter));
                    i += 1;
                }
                outcomes
            })
        })
        .collect();
    let mut samples = Vec::new();
    let mut loads = Vec::new();
    while begin.elapsed() < duration {
        samples.extend(footprint(pid, begin.elapsed()));
        loads.push(load_average());
        std::thread::sleep(SAMPLE_EVERY.min(duration.saturating_sub(begin.elapsed())));
    }
    stop.store(true, Ordering::Relaxed);
    let outcomes: Vec<Outcome> = clients.into_iter().flat_map(|t| t.join().expect("client thread")).collect();
    samples.extend(footprint(pid, begin.elapsed()));
    let zombies = zombies_of(pid);
    let stopped = Command::new(&lctx).args(["daemon", "stop"]).env("LEAN_CTX_HOME", home.path()).output();
    let stopped_ok = stopped.is_ok_and(|o| o.status.success());
    report(duration, &outcomes, &samples, &zombies, stopped_ok, &load_before, &loads)
}

fn report(
    duration: Duration,
    outcomes: &[Outcome],
    samples: &[Sample],
    zombies: &[u32],
    stopped_ok: bool,
    load_before: &str,
    loads: &[String],
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "### Soak: {CLIENTS} clients for {} s\n", duration.as_secs());
    let _ = writeln!(out, "| operation | calls | errors | p50 | p99 |");
    let _ = writeln!(out, "|---|---|---|---|---|");
    let mut classes: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for op in OPS {
        let mine: Vec<&Outcome> = outcomes.iter().filter(|o| o.op == op).collect();
        if mine.is_empty() {
            continue;
        }
        let errors = mine.iter().filter(|o| o.error.is_some()).count();
        for o in &mine {
            if let Some(class) = &o.error {
                *classes.entry((op, class.as_str())).or_default() += 1;
            }
        }
        let s = summarize(mine.iter().map(|o| o.took).collect());
        let _ = writeln!(out, "| {op} | {} | {errors} | {} | {} |", s.n, ms(s.p50), ms(s.p99));
    }
    let _ = writeln!(out, "\nErrors by class: {}", if classes.is_empty() { "none" } else { "" });
    for ((op, class), n) in &classes {
        let _ = writeln!(out, "- {op}: {n} × `{class}`");
    }
    let _ = writeln!(out, "\n| at | daemon RSS | anonymous | file-backed | open fds |");
    let _ = writeln!(out, "|---|---|---|---|---|");
    let mib = |kib: u64| kib as f64 / 1024.0;
    for s in samples {
        let (at, rss, anon, file) = (s.at.as_secs(), mib(s.rss_kib), mib(s.anon_kib), mib(s.file_kib));
        let _ = writeln!(out, "| {at} s | {rss:.1} MiB | {anon:.1} MiB | {file:.1} MiB | {} |", s.fds);
    }
    let after_first_minute: Vec<&Sample> = samples.iter().filter(|s| s.at >= Duration::from_secs(60)).collect();
    if let (Some(first), Some(last)) = (after_first_minute.first(), after_first_minute.last()) {
        let max_rss = after_first_minute.iter().map(|s| s.rss_kib).max().unwrap_or(0);
        let max_fds = after_first_minute.iter().map(|s| s.fds).max().unwrap_or(0);
        let _ = writeln!(
            out,
            "\nAfter the first minute: RSS {:.1} → {:.1} MiB (max {:.1}; anonymous {:.1} → {:.1} MiB), \
             fds {} → {} (max {max_fds}).",
            mib(first.rss_kib),
            mib(last.rss_kib),
            mib(max_rss),
            mib(first.anon_kib),
            mib(last.anon_kib),
            first.fds,
            last.fds
        );
    }
    let _ = writeln!(
        out,
        "Zombies of the daemon at the end: {}; `lctx daemon stop` {}.",
        zombies.len(),
        if stopped_ok { "succeeded" } else { "FAILED" }
    );
    let _ = writeln!(
        out,
        "Load average (1/5/15 min) before: {load_before}; each minute: {}.",
        loads.iter().step_by(6).cloned().collect::<Vec<_>>().join(" | ")
    );
    out
}
