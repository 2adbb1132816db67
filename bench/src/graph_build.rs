//! The code graph on top of the search index, through a daemon: how long the index takes to
//! build for a project and how much longer the graph takes after it, what the daemon's resident
//! memory grows by for each, how long a restarted daemon takes to have the graph again (from its
//! snapshot), and the latency of warm `lctx callgraph` calls (whole processes, as a user or an
//! agent's shell runs them).
//!
//! The daemon builds the graph after the index's first walk, on the index's thread, from the
//! facts the index's extractor made while reading the files, so the two phases are read off
//! `lctx daemon status` one after the other, and most of the graph's work is inside the first. Status is polled every
//! [`POLL`]: each phase's time is that coarse.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::callers::sample;
use crate::stats::{ms, summarize};

const POLL: Duration = Duration::from_millis(50);
/// A project not ready after this long fails the benchmark.
const GIVE_UP: Duration = Duration::from_secs(1200);

/// When each phase was first seen done, and the daemon's resident memory then.
pub(crate) struct Build {
    index: Duration,
    graph: Duration,
    rss_index: u64,
    rss_graph: u64,
    figures: String,
}

pub fn run(bins: &Path, project: &Path, symbols: usize, rounds: usize) -> String {
    let project = project.canonicalize().unwrap_or_else(|e| panic!("{}: {e}", project.display()));
    let home = tempfile::tempdir().expect("temp home");
    let lctx = isolated_lctx(bins, &project, home.path());
    let status = || daemon_status(&lctx);
    let rss = |s: &Value| s["rss_bytes"].as_u64().unwrap_or(0);

    assert!(lctx(&["daemon", "start"]).status.success(), "the daemon did not start");
    let rss_idle = rss(&status());
    let first = build(&lctx, &status);

    // Warm callgraph calls: each sampled symbol asked `rounds` times, every call timed.
    let asked = sample(&project, symbols);
    let mut latencies = Vec::new();
    for _ in 0..rounds {
        for a in &asked {
            let started = Instant::now();
            let out = lctx(&["callgraph", &a.symbol, "--file", &a.file, "--json"]);
            latencies.push(started.elapsed());
            assert!(!out.stdout.is_empty(), "no answer for {}: {}", a.symbol, String::from_utf8_lossy(&out.stderr));
        }
    }

    // A restarted daemon: the index reopens, the graph loads its snapshot (written by the stop at
    // the latest).
    let _ = lctx(&["daemon", "stop"]);
    let snapshot_bytes: u64 = std::fs::read_dir(home.path().join("cache/graph"))
        .map(|dir| dir.flatten().filter_map(|e| e.metadata().ok()).map(|m| m.len()).sum())
        .unwrap_or(0);
    assert!(lctx(&["daemon", "start"]).status.success(), "the daemon did not restart");
    let again = build(&lctx, &status);
    let _ = lctx(&["daemon", "stop"]);

    let mib = |bytes: u64| format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64);
    let grew = |after: u64, before: u64| mib(after.saturating_sub(before));
    let ratio = first.graph.as_secs_f64() / first.index.as_secs_f64().max(1e-9);
    let mut out = format!(
        "| project | index build | graph after it | graph / index | daemon RSS idle → index → graph | graph snapshot | restart: index + graph ready |\n\
         |---|---|---|---|---|---|---|\n\
         | {} | {:.2} s | {:.2} s | {:.0} % | {} → +{} → +{} | {} | {:.2} s + {:.2} s |\n\n",
        project.display(),
        first.index.as_secs_f64(),
        first.graph.as_secs_f64(),
        ratio * 100.0,
        mib(rss_idle),
        grew(first.rss_index, rss_idle),
        grew(first.rss_graph, first.rss_index),
        mib(snapshot_bytes),
        again.index.as_secs_f64(),
        again.graph.as_secs_f64(),
    );
    if !latencies.is_empty() {
        let l = summarize(latencies);
        out.push_str(&format!(
            "Warm `lctx callgraph SYMBOL --file FILE --json` (whole process), {} symbols × {rounds}: p50 {}, p99 {}, min {} (n = {})\n\n",
            asked.len(),
            ms(l.p50),
            ms(l.p99),
            ms(l.min),
            l.n
        ));
    }
    out.push_str(&format!("Status once built: `{}`\n", first.figures));
    out
}

/// Opens the project (a search that matches nothing) and polls status until the index and then
/// the graph report ready.
/// `lctx ARGS` run in `project` with a lean-ctx home of its own (`home`): the benchmark's daemon
/// is nobody else's.
pub(crate) fn isolated_lctx<'a>(
    bins: &'a Path,
    project: &'a Path,
    home: &'a Path,
) -> impl Fn(&[&str]) -> std::process::Output + 'a {
    move |args| {
        Command::new(bins.join("lctx"))
            .args(args)
            .current_dir(project)
            .env("LEAN_CTX_HOME", home)
            .output()
            .expect("run lctx")
    }
}

/// `lctx daemon status --json`, `null` when it printed none.
pub(crate) fn daemon_status(lctx: &dyn Fn(&[&str]) -> std::process::Output) -> Value {
    serde_json::from_slice(&lctx(&["daemon", "status", "--json"]).stdout).unwrap_or_default()
}

pub(crate) fn build(lctx: &dyn Fn(&[&str]) -> std::process::Output, status: &dyn Fn() -> Value) -> Build {
    let started = Instant::now();
    let _ = lctx(&["search", "lctxbench_matches_nothing_q7", "--json"]);
    let ready = |s: &Value, component: &str, key: &str| {
        s["components"][component][key].as_str().is_some_and(|text| text.contains(" ready "))
    };
    let mut index = None;
    loop {
        let s = status();
        let now = started.elapsed();
        if index.is_none() && ready(&s, "search", "index") {
            index = Some((now, s["rss_bytes"].as_u64().unwrap_or(0)));
        }
        if let Some((index, rss_index)) = index
            && ready(&s, "graph", "graph")
        {
            let figures = format!("{} · {}", s["components"]["search"]["index"], s["components"]["graph"]["graph"]);
            let rss_graph = s["rss_bytes"].as_u64().unwrap_or(0);
            return Build { index, graph: now.saturating_sub(index), rss_index, rss_graph, figures };
        }
        assert!(now < GIVE_UP, "the project was not ready after {GIVE_UP:?}: {s}");
        std::thread::sleep(POLL);
    }
}
