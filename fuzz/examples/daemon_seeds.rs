//! Writes the seed corpus of `daemon_requests`: one byte naming the call (as
//! `daemon_requests::run` numbers them), then the request as the clients
//! send it, about the sandbox project (`src/main.rs`, `README.md`, the
//! links). Run from fuzz/: `cargo run --no-default-features --example daemon_seeds`.

use std::collections::HashMap;

use lean_ctx_proto::v1::*;
use prost::Message;

fn ctx(cwd: &str) -> Option<RequestContext> {
    Some(RequestContext {
        cwd: cwd.into(),
        project_root: None,
        session_id: "seed-session".into(),
        client: Some(ClientInfo { kind: ClientKind::Cli as i32, name: "lctx".into(), version: "0.1.0".into() }),
        agent_id: String::new(),
        host: String::new(),
    })
}

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/daemon_requests");
    std::fs::create_dir_all(&dir).expect("cannot create the corpus dir");
    let c = || ctx("");
    let seeds: Vec<(&str, u8, Vec<u8>)> = vec![
        (
            "hello",
            0,
            HelloRequest {
                ctx: c(),
                client_version: "0.1.0".into(),
                protocol_min: 3,
                protocol_max: 5,
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        ("status", 1, StatusRequest { ctx: c() }.encode_to_vec()),
        ("shutdown", 2, ShutdownRequest { ctx: c(), ..Default::default() }.encode_to_vec()),
        ("ping", 3, PingRequest { ctx: c(), payload: b"ping".to_vec(), ..Default::default() }.encode_to_vec()),
        (
            "read-full",
            4,
            ReadRequest {
                ctx: c(),
                paths: vec!["src/main.rs".into()],
                mode: ReadMode::Full as i32,
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "read-signatures",
            4,
            ReadRequest {
                ctx: c(),
                paths: vec!["src/main.rs".into(), "README.md".into()],
                mode: ReadMode::Signatures as i32,
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "read-lines",
            4,
            ReadRequest {
                ctx: ctx("src"),
                paths: vec!["main.rs".into()],
                mode: ReadMode::Lines as i32,
                ranges: vec![LineRange { start: 1, end: 3 }],
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "read-link-out",
            4,
            ReadRequest {
                ctx: c(),
                paths: vec!["link_out".into(), "../outside/secret.txt".into(), "dir_out/secret.txt".into()],
                mode: ReadMode::Auto as i32,
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "read-start-limit",
            4,
            ReadRequest {
                ctx: c(),
                paths: vec!["link_in".into()],
                mode: ReadMode::Map as i32,
                start_line: Some(2),
                limit: Some(2),
                fresh: true,
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "edit",
            5,
            EditRequest {
                ctx: c(),
                path: "src/main.rs".into(),
                old_string: "hello".into(),
                new_string: "hi".into(),
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "edit-create",
            5,
            EditRequest {
                ctx: c(),
                path: "src/new.rs".into(),
                new_string: "fn f() {}\n".into(),
                create: true,
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "edit-lines",
            5,
            EditRequest {
                ctx: c(),
                path: "README.md".into(),
                new_string: "# renamed\n".into(),
                start_line: Some(1),
                end_line: Some(1),
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "edit-git",
            5,
            EditRequest {
                ctx: c(),
                path: ".git/HEAD".into(),
                old_string: "main".into(),
                new_string: "x".into(),
                replace_all: true,
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        ("rules", 6, RulesRequest { ctx: c(), path: "src/main.rs".into() }.encode_to_vec()),
        (
            "session",
            7,
            SessionRequest {
                ctx: c(),
                action: SessionAction::Task as i32,
                value: "fuzz the daemon".into(),
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "session-status",
            7,
            SessionRequest { ctx: c(), action: SessionAction::Status as i32, ..Default::default() }.encode_to_vec(),
        ),
        (
            "knowledge-remember",
            8,
            KnowledgeRequest {
                ctx: c(),
                action: KnowledgeAction::Remember as i32,
                category: "build".into(),
                key: "cmd".into(),
                value: "cargo build".into(),
                confidence: Some(0.9),
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "knowledge-recall",
            8,
            KnowledgeRequest {
                ctx: c(),
                action: KnowledgeAction::Recall as i32,
                query: "cargo".into(),
                limit: 5,
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "gain",
            9,
            GainRequest {
                ctx: c(),
                period: GainPeriod::All as i32,
                group_by: GainGroupBy::Tool as i32,
                utc_offset_secs: 3600,
                days: 0,
            }
            .encode_to_vec(),
        ),
        ("verify", 10, VerifyRequest { ctx: c() }.encode_to_vec()),
        (
            "search-regex",
            11,
            SearchRequest {
                ctx: c(),
                pattern: "fn \\w+".into(),
                action: SearchAction::Regex as i32,
                max_results: Some(10),
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "search-bm25",
            11,
            SearchRequest {
                ctx: c(),
                pattern: "config port".into(),
                path: "src".into(),
                action: SearchAction::Bm25 as i32,
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "search-symbol",
            11,
            SearchRequest {
                ctx: c(),
                pattern: "Config".into(),
                include: vec!["*.rs".into()],
                exclude: vec!["target/**".into()],
                action: SearchAction::Symbol as i32,
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "search-outside",
            11,
            SearchRequest {
                ctx: c(),
                pattern: "SECRET".into(),
                path: "dir_out".into(),
                action: SearchAction::Regex as i32,
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        ("glob", 12, GlobRequest { ctx: c(), pattern: "**/*.rs".into(), ..Default::default() }.encode_to_vec()),
        (
            "tree",
            13,
            TreeRequest { ctx: c(), depth: 3, show_hidden: true, respect_gitignore: Some(false), ..Default::default() }
                .encode_to_vec(),
        ),
        ("index", 14, IndexRequest { ctx: c(), path: String::new() }.encode_to_vec()),
        ("index-outside", 14, IndexRequest { ctx: c(), path: "dir_out".into() }.encode_to_vec()),
        ("index-status", 15, IndexStatusRequest { ctx: c() }.encode_to_vec()),
        (
            "exec",
            16,
            ExecRequest { ctx: c(), command: "cargo test".into(), timeout_secs: 5, ..Default::default() }
                .encode_to_vec(),
        ),
        (
            "exec-env",
            16,
            ExecRequest {
                ctx: c(),
                command: "ls".into(),
                env: HashMap::from([("LANG".into(), "C".into()), ("A\0B".into(), "x".into())]),
                cwd: "src".into(),
                raw: true,
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "exec-background",
            16,
            ExecRequest { ctx: c(), command: "make".into(), background: true, ..Default::default() }.encode_to_vec(),
        ),
        (
            "compress",
            17,
            CompressRequest {
                ctx: c(),
                command: "cargo test".into(),
                output: b"running 1 test\ntest a ... FAILED\nerror: test failed\n".to_vec(),
                exit_code: 101,
                raw: false,
            }
            .encode_to_vec(),
        ),
        (
            "expand",
            18,
            ExpandRequest {
                ctx: c(),
                id: "0123456789abcdef".into(),
                start_line: Some(1),
                end_line: Some(5),
                ..Default::default()
            }
            .encode_to_vec(),
        ),
        (
            "expand-search",
            18,
            ExpandRequest { ctx: c(), search: "FAILED".into(), ..Default::default() }.encode_to_vec(),
        ),
        (
            "jobs",
            19,
            JobsRequest { ctx: c(), action: JobsAction::List as i32, id: 0, all_sessions: false }.encode_to_vec(),
        ),
        (
            "jobs-cancel",
            19,
            JobsRequest { ctx: c(), action: JobsAction::Cancel as i32, id: 1, all_sessions: false }.encode_to_vec(),
        ),
        (
            "check",
            20,
            CheckRequest { ctx: c(), command: "rm -rf build && cat ../outside/secret.txt".into() }.encode_to_vec(),
        ),
    ];
    for (name, call, message) in seeds {
        let mut data = vec![call];
        data.extend(message);
        std::fs::write(dir.join(format!("seed-{name}")), data).expect("cannot write a seed");
    }
}
