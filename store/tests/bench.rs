//! Benchmark of the store at the sizes it is built for. Ignored by default; run with
//! `cargo test --release --test bench -- --ignored --nocapture`.
//!
//! Fills 1,000,000 ledger events spread over 90 days, then times single and batched appends,
//! `gain` for every range and grouping, `verify`, a reopen (which runs `quick_check`), and
//! `recall` over 10,000 facts. Set `LEAN_CTX_STORE_BENCH_DIR` to put the file in that directory
//! and keep it afterwards.
//!
//! `bench_archive` times the output archive: puts of outputs from 1 KB to 5 MB, expands, searches,
//! a sweep, and what the search index adds to `state.db` and to reopening it.

use std::time::{Duration, Instant};

use lean_ctx_store::{ArchiveEntry, Check, Event, GroupBy, NewFact, Period, Shape, Store};

const EVENTS: u64 = 1_000_000;
const BATCH: u64 = 10_000;
const SINGLE_APPENDS: u64 = 2_000;
const FACTS: usize = 10_000;
const RECALLS: usize = 2_000;
const DAY_MS: i64 = 86_400_000;
/// 2025-06-01 12:00 UTC.
const NOW: i64 = 20_240 * DAY_MS + 12 * 3_600_000;

const PROJECTS: [&str; 4] = ["/home/u/api", "/home/u/web", "/home/u/infra", "/home/u/docs"];
const TOOLS: [&str; 6] = ["ctx_read", "ctx_shell", "ctx_search", "ctx_tree", "ctx_edit", "ctx_multi_read"];
const MODES: [&str; 5] = ["full", "map", "signatures", "diff", "lines"];
const FAMILIES: [&str; 4] = ["git_status", "cargo_test", "npm_install", "generic"];
const WORDS: [&str; 24] = [
    "parser",
    "lexer",
    "token",
    "cache",
    "config",
    "daemon",
    "socket",
    "session",
    "ledger",
    "hash",
    "index",
    "query",
    "schema",
    "migration",
    "build",
    "test",
    "deploy",
    "docker",
    "route",
    "handler",
    "auth",
    "user",
    "error",
    "retry",
];

/// xorshift64*: deterministic data without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

fn event(rng: &mut Rng, i: u64) -> Event<'static> {
    let tool = rng.pick(&TOOLS);
    let shape = if tool == "ctx_shell" { Shape::Family(rng.pick(&FAMILIES)) } else { Shape::Mode(rng.pick(&MODES)) };
    let raw = 200 + rng.next() % 5_000;
    Event {
        at_ms: NOW - 90 * DAY_MS + (i as i64) * (90 * DAY_MS / EVENTS as i64),
        project: rng.pick(&PROJECTS),
        session: Some("bench-session"),
        tool,
        shape,
        raw_tokens: raw,
        sent_tokens: raw * (5 + rng.next() % 60) / 100 + 12,
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

#[test]
#[ignore = "benchmark: cargo test --release --test bench -- --ignored --nocapture"]
fn bench_store() {
    // LEAN_CTX_STORE_BENCH_DIR puts the file on a chosen disk and keeps it; default: a temp dir.
    let dir = match std::env::var_os("LEAN_CTX_STORE_BENCH_DIR") {
        Some(dir) => tempfile::Builder::new().disable_cleanup(true).tempdir_in(dir).unwrap(),
        None => tempfile::tempdir().unwrap(),
    };
    let path = dir.path().join("state.db");
    println!("bench file: {}", path.display());
    let mut store = Store::open(&path, Check::Everything).unwrap().store;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);

    // Single appends: one IMMEDIATE transaction each, the daemon's normal path.
    let started = Instant::now();
    for i in 0..SINGLE_APPENDS {
        store.append(&event(&mut rng, i)).unwrap();
    }
    let single = started.elapsed();
    println!(
        "append (1 event per transaction): {SINGLE_APPENDS} in {:.0} ms = {:.0} events/s, {:.1} µs each",
        ms(single),
        SINGLE_APPENDS as f64 / single.as_secs_f64(),
        single.as_secs_f64() * 1e6 / SINGLE_APPENDS as f64
    );

    let started = Instant::now();
    let mut next = SINGLE_APPENDS;
    while next < EVENTS {
        let end = (next + BATCH).min(EVENTS);
        let batch: Vec<_> = (next..end).map(|i| event(&mut rng, i)).collect();
        store.append_batch(&batch).unwrap();
        next = end;
    }
    let filled = started.elapsed();
    println!(
        "append_batch ({BATCH} per transaction): {} in {:.1} s = {:.0} events/s",
        EVENTS - SINGLE_APPENDS,
        filled.as_secs_f64(),
        (EVENTS - SINGLE_APPENDS) as f64 / filled.as_secs_f64()
    );

    for (range, offset_s) in
        [(Period::Today, 0), (Period::Today, 19_800), (Period::Week, 0), (Period::Week, -25_200), (Period::All, 0)]
    {
        for group_by in [GroupBy::Tool, GroupBy::Mode, GroupBy::Family, GroupBy::Project, GroupBy::None] {
            let mut times = Vec::new();
            let mut rows = Vec::new();
            for _ in 0..5 {
                let started = Instant::now();
                rows = store.gain(range, group_by, NOW, offset_s).unwrap();
                times.push(started.elapsed());
            }
            times.sort();
            let events: u64 = rows.iter().map(|r| r.events).sum();
            println!(
                "gain {range:?} (UTC{:+}h) by {group_by:?}: median {:.2} ms, max {:.2} ms ({} rows, {events} events)",
                f64::from(offset_s) / 3600.0,
                ms(percentile(&times, 0.5)),
                ms(times[times.len() - 1]),
                rows.len()
            );
            if range == Period::All {
                assert_eq!(events, EVENTS);
            }
        }
    }

    let started = Instant::now();
    assert_eq!(store.verify().unwrap(), EVENTS);
    println!("verify {EVENTS} records: {:.2} s", started.elapsed().as_secs_f64());

    drop(store);
    let size = std::fs::metadata(&path).unwrap().len();
    for check in [Check::Everything, Check::SkipLedger] {
        let started = Instant::now();
        drop(Store::open(&path, check).unwrap());
        println!("reopen a {:.0} MB file with Check::{check:?}: {:.1} ms", size as f64 / 1e6, ms(started.elapsed()));
    }
    let mut store = Store::open(&path, Check::SkipLedger).unwrap().store;

    // A 24-word vocabulary makes every query term match ~40% of the facts: the worst case for
    // bm25. A 2,000-word one is closer to real notes, where a term matches a few dozen facts.
    let small: Vec<String> = WORDS.iter().map(|word| (*word).to_owned()).collect();
    let syllables: Vec<String> =
        "bdfgklmnprstvz".chars().flat_map(|c| "aeiou".chars().map(move |v| format!("{c}{v}"))).collect();
    let large: Vec<String> =
        (0..2_000).map(|i| format!("{}{}{}", syllables[i % 70], syllables[i / 70 % 70], syllables[i / 4900])).collect();
    for (label, vocabulary) in [("24-word vocabulary", &small), ("2,000-word vocabulary", &large)] {
        bench_recall(&mut store, &mut rng, label, vocabulary);
    }
}

fn bench_recall(store: &mut Store, rng: &mut Rng, label: &str, vocabulary: &[String]) {
    let words: Vec<&str> = vocabulary.iter().map(String::as_str).collect();
    let project = format!("/facts/{label}");
    let started = Instant::now();
    for i in 0..FACTS {
        let key = format!("{}-{}-{i}", rng.pick(&words), rng.pick(&words));
        let value: Vec<&str> = (0..12).map(|_| rng.pick(&words)).collect();
        let value = value.join(" ");
        let fact = NewFact {
            project: &project,
            category: Some(rng.pick(&["arch", "style", "ops", "gotcha"])),
            key: &key,
            value: &value,
            source_session: Some("bench-session"),
            confidence: Some(0.7),
        };
        store.remember(&fact).unwrap();
    }
    println!("remember {FACTS} facts ({label}): {:.1} s", started.elapsed().as_secs_f64());

    let mut times = Vec::with_capacity(RECALLS);
    let mut hits = 0;
    for _ in 0..RECALLS {
        let query = format!("{} {}", rng.pick(&words), rng.pick(&words));
        let started = Instant::now();
        let found = store.recall(&project, &query, None, 10).unwrap();
        times.push(started.elapsed());
        hits += found.len();
    }
    assert!(hits > 0);
    times.sort();
    println!(
        "recall over {FACTS} facts ({label}, 2-word queries, limit 10): p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms",
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.95)),
        ms(percentile(&times, 0.99))
    );
}

/// Outputs archived by `bench_archive`, and the sizes they cycle through.
const OUTPUTS: usize = 2_000;
const OUTPUT_SIZES: [usize; 5] = [1_000, 8_000, 30_000, 120_000, 400_000];
const BIG_OUTPUT: usize = 5 * 1024 * 1024;

/// Build-log-like text of about `len` bytes.
fn output_text(rng: &mut Rng, len: usize) -> Vec<u8> {
    let mut text = Vec::with_capacity(len + 200);
    while text.len() < len {
        let line = format!(
            "{}: src/{}/{}.rs:{}:{}: {} {} {} {:x}\n",
            rng.pick(&["warning", "error", "note", "info", "test"]),
            rng.pick(&WORDS),
            rng.pick(&WORDS),
            rng.next() % 2_000,
            rng.next() % 120,
            rng.pick(&WORDS),
            rng.pick(&WORDS),
            rng.pick(&WORDS),
            rng.next() % 0x10_0000,
        );
        text.extend_from_slice(line.as_bytes());
    }
    text.truncate(len);
    text
}

fn dir_bytes(dir: &std::path::Path) -> u64 {
    let mut total = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let metadata = entry.metadata().unwrap();
        total += if metadata.is_dir() { dir_bytes(&entry.path()) } else { metadata.len() };
    }
    total
}

#[test]
#[ignore = "benchmark: cargo test --release --test bench -- --ignored --nocapture"]
fn bench_archive() {
    let dir = match std::env::var_os("LEAN_CTX_STORE_BENCH_DIR") {
        Some(dir) => tempfile::Builder::new().disable_cleanup(true).tempdir_in(dir).unwrap(),
        None => tempfile::tempdir().unwrap(),
    };
    let path = dir.path().join("state.db");
    let archive = dir.path().join("archive");
    println!("bench archive: {}", archive.display());
    let mut store = Store::open(&path, Check::Everything).unwrap().store;
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let entry = |text: &'static [u8]| ArchiveEntry {
        kind: "shell",
        label: "cargo build --workspace",
        family: "cargo_build",
        exit_code: Some(1),
        session: Some("bench-session"),
        project: "/home/u/api",
        text,
    };

    for size in OUTPUT_SIZES.into_iter().chain([BIG_OUTPUT]) {
        let text: &'static [u8] = output_text(&mut rng, size).leak();
        let started = Instant::now();
        let id = store.archive_put(&archive, &entry(text)).unwrap();
        let put = started.elapsed();
        let started = Instant::now();
        store.archive_put(&archive, &entry(text)).unwrap();
        let again = started.elapsed();
        let started = Instant::now();
        assert_eq!(store.archive_get(&archive, &id).unwrap().bytes, text);
        let get = started.elapsed();
        let stored = store.archive_meta(&id).unwrap().unwrap().stored_bytes;
        println!(
            "archive {:>7} bytes: put {:.2} ms, put again (dedupe) {:.3} ms, expand {:.2} ms, stored {stored} bytes",
            size,
            ms(put),
            ms(again),
            ms(get)
        );
    }

    let mut times = Vec::with_capacity(OUTPUTS);
    let mut raw_total = 0;
    for i in 0..OUTPUTS {
        let text: &'static [u8] = output_text(&mut rng, OUTPUT_SIZES[i % OUTPUT_SIZES.len()]).leak();
        raw_total += text.len();
        let started = Instant::now();
        store.archive_put(&archive, &entry(text)).unwrap();
        times.push(started.elapsed());
    }
    times.sort();
    println!(
        "archive_put of {OUTPUTS} outputs ({:.0} MB raw, 1 KB to 400 KB): p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        raw_total as f64 / 1e6,
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.95)),
        ms(times[times.len() - 1])
    );

    let mut times = Vec::new();
    for _ in 0..200 {
        let query = format!("{} {:x}", rng.pick(&WORDS), rng.next() % 0x10_0000);
        let started = Instant::now();
        store.archive_search(&archive, &query, None, 10).unwrap();
        times.push(started.elapsed());
    }
    times.sort();
    println!(
        "archive_search (2-word queries, limit 10, with snippets): p50 {:.2} ms, p95 {:.2} ms",
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.95))
    );

    drop(store);
    let db_bytes = std::fs::metadata(&path).unwrap().len();
    println!(
        "state.db {:.1} MB (mostly the search index), blobs {:.1} MB, raw {:.1} MB",
        db_bytes as f64 / 1e6,
        dir_bytes(&archive) as f64 / 1e6,
        (raw_total + OUTPUT_SIZES.iter().sum::<usize>() + BIG_OUTPUT) as f64 / 1e6
    );
    for check in [Check::Everything, Check::SkipLedger] {
        let started = Instant::now();
        drop(Store::open(&path, check).unwrap());
        println!("reopen with Check::{check:?}: {:.1} ms", ms(started.elapsed()));
    }
    let mut store = Store::open(&path, Check::SkipLedger).unwrap().store;
    let started = Instant::now();
    let report = store.archive_sweep(&archive, i64::MAX / 2, i64::MAX, 20_000_000).unwrap();
    println!("archive_sweep down to 20 MB: {:.1} ms, {report:?}", ms(started.elapsed()));
}
