//! Benchmark of lean-ctx-search on a large corpus of public code.
//!
//! `search-bench CORPUS [CACHE]` builds the index of CORPUS and reports build
//! time, index size, query latency p50/p99 per action, memory (VmRSS),
//! freshness after an edit, and regex wall time beside `rg` run as whole
//! processes on the same queries. It writes (then removes) a few
//! `lean-ctx-bench-*.rs` files in CORPUS, so point it at a copy.
//!
//! `search-bench --one-regex ROOT PATTERN` runs one regex search in a fresh
//! process (the whole-process side of the rg comparison) and prints the count.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use lean_ctx_search::{Action, SearchConfig, SearchEngine, SearchRequest, Source};

const REGEX_QUERIES: &[&str] = &[
    r"fn\s+main\s*\(",
    r"impl\s+\w+\s+for\s+\w+",
    r"TODO|FIXME",
    r"unsafe\s*\{",
    r"#\[derive\([^)]*Debug",
    r"console\.log\(",
    r#"require\(['"]fs['"]\)"#,
    r"async\s+function\s+\w+",
    r"\bSerialize\b",
    r"pub\s+struct\s+\w+Config",
    r"Arc<Mutex<",
    r"export\s+default\s+class",
    r"process\.env\.\w+",
    r"(?i)deprecated",
    r"unwrap\(\)\.unwrap\(\)",
    r"fn\s+new\s*\(\s*\)\s*->\s*Self",
    r"throw new TypeError",
    r"[A-Z][a-z]+Error\b",
    r"0x[0-9a-fA-F]{8}",
    r"https://github\.com/[\w-]+/[\w-]+",
];

const BM25_QUERIES: &[&str] = &[
    "parse config",
    "serialize json",
    "thread pool",
    "http request header",
    "unicode normalization",
    "error handling",
    "async runtime",
    "hash map",
    "tokenizer",
    "source map",
    "plugin options",
    "abstract syntax tree",
    "file system watcher",
    "regular expression",
    "lock free queue",
    "utf8 decode",
    "command line arguments",
    "event emitter",
    "type checker",
    "memory allocator",
];

const SYMBOL_QUERIES: &[&str] = &[
    "new",
    "parse",
    "Serialize",
    "from_str",
    "visit",
    "Parser",
    "read",
    "write_all",
    "Compiler",
    "resolve",
    "emit",
    "HashMap",
    "Error",
    "fmt",
    "tokenize",
    "Visitor",
    "Config",
    "transform",
    "createElement",
    "TypeChecker",
];

/// Timed runs per query (after one warm-up run).
const RUNS: usize = 5;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("--one-regex") if args.len() == 4 => one_regex(Path::new(&args[2]), &args[3]),
        Some(corpus) if !corpus.starts_with('-') => {
            let cache = args.get(2).map_or_else(|| std::env::temp_dir().join("lean-ctx-search-bench"), PathBuf::from);
            bench(Path::new(corpus), &cache);
        }
        _ => {
            eprintln!("usage: search-bench CORPUS [CACHE] | search-bench --one-regex ROOT PATTERN");
            std::process::exit(2);
        }
    }
}

fn one_regex(root: &Path, pattern: &str) {
    let mut config = SearchConfig::new(std::env::temp_dir().join("lean-ctx-search-bench-one"));
    config.build_on_search = false;
    let engine = SearchEngine::new(config);
    let result = engine.search(&SearchRequest::new(root, Action::Regex, pattern)).expect("search");
    println!("{}", result.total);
}

fn bench(corpus: &Path, cache: &Path) {
    let _ = std::fs::remove_dir_all(cache);
    let engine = SearchEngine::new(SearchConfig::new(cache));
    let started = Instant::now();
    let files = engine.glob(corpus, "*", None, 0, &|_| None).expect("glob").total;
    println!("corpus: {} ({files} files admitted by ignore rules; walk {:?})", corpus.display(), started.elapsed());
    println!("rss before build: {}", rss());

    let started = Instant::now();
    let status = engine
        .build(corpus, |p| {
            if p.done % 8192 == 0 && p.total > 0 {
                eprintln!("  indexing {}/{}", p.done, p.total);
            }
        })
        .expect("build");
    let build_time = started.elapsed();
    println!(
        "build: {build_time:.2?}, {} files indexed, {:.1} MiB on disk, skipped {:?}",
        status.files,
        mib(status.size_on_disk),
        status.skipped
    );
    println!("rss after build: {} (peak {})", rss(), status_field("VmHWM"));

    let mut regex_in_process = Vec::new();
    for (action, queries) in
        [(Action::Regex, REGEX_QUERIES), (Action::Bm25, BM25_QUERIES), (Action::Symbol, SYMBOL_QUERIES)]
    {
        let mut samples = Vec::new();
        let mut totals = Vec::new();
        for query in queries {
            let request = SearchRequest::new(corpus, action, *query);
            let warm = engine.search(&request).expect("search");
            assert!(action == Action::Regex || warm.source == Source::Index, "{query}: {:?}", warm.note);
            totals.push(warm.total);
            let mut runs = Vec::new();
            for _ in 0..RUNS {
                let started = Instant::now();
                engine.search(&request).expect("search");
                runs.push(started.elapsed());
            }
            runs.sort();
            if action == Action::Regex {
                regex_in_process.push((query, runs[RUNS / 2], warm.total));
            }
            samples.extend(runs);
        }
        samples.sort();
        let pick = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
        println!(
            "{action:?}: p50 {:.2?}, p99 {:.2?}, max {:.2?} over {} runs of {} queries; matches per query {:?}",
            pick(0.5),
            pick(0.99),
            samples.last().unwrap(),
            samples.len(),
            queries.len(),
            totals
        );
    }
    println!("rss with index loaded, after queries: {} (peak {})", rss(), status_field("VmHWM"));
    let status = engine.project_status(corpus).expect("status").expect("open");
    println!(
        "status: approx_memory {:.1} MiB, size_on_disk {:.1} MiB",
        mib(status.approx_memory),
        mib(status.size_on_disk)
    );

    freshness(&engine, corpus);
    compare_with_rg(corpus, &regex_in_process);
    drop(engine);
    let _ = std::fs::remove_dir_all(cache);
}

/// Time from a write to finding its new word through the index: five new
/// files, then five edits of an existing file (restored afterwards).
fn freshness(engine: &SearchEngine, corpus: &Path) {
    let existing = engine.glob(corpus, "*.rs", None, 1, &|_| None).expect("glob").paths.pop().expect("a .rs file");
    let original = std::fs::read(corpus.join(&existing)).expect("read");
    let mut samples = Vec::new();
    for round in 0..10 {
        // Letters only: one token, so the written file is the only match.
        let word = format!("leanctxbenchfresh{}", char::from(b'a' + round as u8));
        let (name, text) = if round < 5 {
            (format!("lean-ctx-bench-{round}.rs"), format!("fn {word}() {{}}\n"))
        } else {
            let mut text = String::from_utf8_lossy(&original).into_owned();
            text.push_str(&format!("\n// {word}\n"));
            (existing.clone(), text)
        };
        let path = corpus.join(&name);
        let started = Instant::now();
        std::fs::write(&path, text).expect("write");
        loop {
            let result = engine.search(&SearchRequest::new(corpus, Action::Bm25, &word)).expect("search");
            if result.source == Source::Index && result.matches.first().is_some_and(|m| m.path == name) {
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "not fresh after 30 s");
            std::thread::sleep(Duration::from_millis(5));
        }
        samples.push(started.elapsed());
        if round < 5 {
            std::fs::remove_file(&path).expect("remove");
        }
        std::thread::sleep(Duration::from_millis(400));
    }
    std::fs::write(corpus.join(&existing), &original).expect("restore");
    println!("freshness (write → searchable, debounce 200 ms), new files then edits: {samples:.0?}");
    samples.sort();
    println!("freshness: median {:.0?}, max {:.0?}", samples[5], samples[9]);
}

/// Wall time of whole processes: `rg` versus this crate in a fresh process, per regex query.
fn compare_with_rg(corpus: &Path, in_process: &[(&&str, Duration, u64)]) {
    let me = std::env::current_exe().expect("current exe");
    println!(
        "regex, whole processes (median of 3):  rg | search-bench --one-regex | in-process engine | lines rg/ours"
    );
    let (mut rg_total, mut ours_total, mut in_total) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for (query, in_process_time, ours_count) in in_process {
        let rg = timed(3, || {
            let out = Command::new("rg")
                .args(["-c", "--no-require-git", "--max-filesize", "1M", "--no-messages", "-e", query])
                .arg(corpus)
                .output()
                .expect("rg");
            String::from_utf8_lossy(&out.stdout).lines().filter_map(|l| l.rsplit(':').next()?.parse::<u64>().ok()).sum()
        });
        let ours = timed(3, || {
            let out = Command::new(&me).args(["--one-regex"]).arg(corpus).arg(query).output().expect("self");
            String::from_utf8_lossy(&out.stdout).trim().parse().unwrap_or(0)
        });
        rg_total += rg.0;
        ours_total += ours.0;
        in_total += *in_process_time;
        println!(
            "  {:<36} {:>6}ms {:>6}ms {:>6}ms   {}/{} {}",
            query,
            rg.0.as_millis(),
            ours.0.as_millis(),
            in_process_time.as_millis(),
            rg.1,
            ours.1,
            if rg.1 == *ours_count { "" } else { "(differs)" }
        );
    }
    println!(
        "  {:<36} {:>6}ms {:>6}ms {:>6}ms",
        "total",
        rg_total.as_millis(),
        ours_total.as_millis(),
        in_total.as_millis()
    );
}

fn timed(runs: usize, mut f: impl FnMut() -> u64) -> (Duration, u64) {
    let mut times = Vec::new();
    let mut result = 0;
    for _ in 0..runs {
        let started = Instant::now();
        result = f();
        times.push(started.elapsed());
    }
    times.sort();
    (times[runs / 2], result)
}

fn status_field(name: &str) -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find(|l| l.starts_with(name)).map_or("?".to_string(), |l| l[name.len() + 1..].trim().to_string())
}

fn rss() -> String {
    format!("{} (anon {}, file {})", status_field("VmRSS"), status_field("RssAnon"), status_field("RssFile"))
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}
