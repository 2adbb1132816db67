//! Issue 6's figures through the real daemon: ledger appends per second
//! (every read appends one), `lctx gain` over 1,000,000 events, and recall
//! latency over 10,000 facts.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use lean_ctx_proto::v1::{ClientInfo, ClientKind, KnowledgeRequest, ReadRequest};
use lean_ctx_store::{Check, Event, NewFact, Shape, Store};
use lean_ctxd::engine::paths::Dirs;

use crate::stats::{ms, summarize, us};

const WORDS: &[&str] = &[
    "parser",
    "tokenizer",
    "index",
    "daemon",
    "socket",
    "ledger",
    "session",
    "cache",
    "archive",
    "grammar",
    "build",
    "test",
    "config",
    "release",
    "schema",
    "migration",
    "watcher",
    "search",
    "outline",
    "shell",
];

pub fn run(bins: &Path) -> String {
    let home = tempfile::Builder::new().prefix("lctxm").tempdir_in("/tmp").expect("temp");
    let dirs = Dirs::under(home.path());
    let proj = home.path().join("proj");
    std::fs::create_dir_all(proj.join(".git")).unwrap();
    std::fs::write(proj.join("a.md"), "# A\n\ntext\n".repeat(50)).unwrap();
    let project = proj.canonicalize().unwrap().display().to_string();
    let mut out = String::new();
    let _ = writeln!(out, "### Memory and ledger\n");

    // Fill the store directly: 1,000,000 ledger events and 10,000 facts.
    std::fs::create_dir_all(&dirs.data).unwrap();
    let mut store = Store::open(&dirs.data.join("state.db"), Check::Everything).unwrap().store;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    let modes = ["full", "map", "signatures", "diff"];
    let fill = Instant::now();
    for chunk in 0..100 {
        let events: Vec<Event> = (0..10_000)
            .map(|i| Event {
                at_ms: now - (chunk * 10_000 + i) as i64 * 1_000,
                project: &project,
                session: None,
                tool: "read",
                shape: Shape::Mode(modes[i % modes.len()]),
                raw_tokens: 1000,
                sent_tokens: 200,
            })
            .collect();
        store.append_batch(&events).unwrap();
    }
    for i in 0..10_000 {
        let key = format!("fact-{i}");
        let value = format!("{} uses {} for {}", WORDS[i % 20], WORDS[(i / 20) % 20], WORDS[(i / 400) % 20]);
        store
            .remember(&NewFact {
                project: &project,
                category: Some("bench"),
                key: &key,
                value: &value,
                source_session: None,
                confidence: Some(0.8),
            })
            .unwrap();
    }
    drop(store);
    let _ = writeln!(out, "Filled 1,000,000 events and 10,000 facts in {:.1} s.\n", fill.elapsed().as_secs_f64());

    let lctx = bins.join("lctx");
    let run = |args: &[&str]| {
        let start = Instant::now();
        let o = Command::new(&lctx).args(args).current_dir(&proj).env("LEAN_CTX_HOME", home.path()).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        start.elapsed()
    };
    run(&["daemon", "start"]);
    run(&["gain"]);
    let _ = writeln!(out, "| measurement | p50 | p99 |");
    let _ = writeln!(out, "|---|---|---|");
    for by in ["none", "mode", "tool", "project"] {
        let s = summarize((0..20).map(|_| run(&["gain", "--by", by])).collect());
        let _ = writeln!(
            out,
            "| `lctx gain --by {by}` on 1,000,000 events (whole process) | {} | {} |",
            ms(s.p50),
            ms(s.p99)
        );
    }

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (appends, recall) = rt.block_on(async {
        let mut opts = lctx::options::ClientOptions::from_env(ClientKind::Cli, "lctx-bench").unwrap();
        opts.dirs = dirs.clone();
        opts.socket = dirs.socket();
        opts.client = ClientInfo { kind: ClientKind::Cli as i32, name: "lctx-bench".into(), version: String::new() };
        let backend = lctx::backend::Backend::connect(&opts).await.unwrap();
        let mut ctx = opts.context();
        ctx.cwd = project.clone();
        let n = 2000;
        let start = Instant::now();
        for _ in 0..n {
            let req = ReadRequest {
                ctx: Some(ctx.clone()),
                paths: vec!["a.md".into()],
                mode: lean_ctx_proto::v1::ReadMode::Reference as i32,
                ..Default::default()
            };
            backend.context().read(tonic::Request::new(req)).await.unwrap();
        }
        let appends = n as f64 / start.elapsed().as_secs_f64();
        let mut samples: Vec<Duration> = Vec::new();
        for i in 0..300 {
            let req = KnowledgeRequest {
                ctx: Some(ctx.clone()),
                action: lean_ctx_proto::v1::KnowledgeAction::Recall as i32,
                query: format!("{} {}", WORDS[i % 20], WORDS[(i * 7) % 20]),
                limit: 10,
                ..Default::default()
            };
            let t = Instant::now();
            backend.memory().knowledge(tonic::Request::new(req)).await.unwrap();
            samples.push(t.elapsed());
        }
        (appends, summarize(samples))
    });
    let _ = writeln!(
        out,
        "| `Knowledge/recall` over 10,000 facts (warm connection) | {} | {} |",
        us(recall.p50),
        us(recall.p99)
    );
    let _ = writeln!(
        out,
        "\nLedger appends through the daemon: **{appends:.0} reads/s**, each appending one hash-chained event \
         (sequential, one client).\n"
    );
    run(&["daemon", "stop"]);
    out
}
