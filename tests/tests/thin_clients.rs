//! The clients are thin: they link no engine code, and when no daemon can
//! be had they run `lean-ctxd --stdio` as a child — which never hangs them,
//! never outlives them, and explains itself when it breaks.

use std::collections::{BTreeMap, VecDeque};
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use lean_ctx_tests::{Home, bin, cargo_metadata, describe, wait_until};
use serde_json::Value;

const CLIENTS: &[&str] = &["lctx", "lctx-mcp", "lctx-shell"];

/// Crates that carry the engine: a client reaching one of them is a fat client.
fn is_engine_crate(name: &str) -> bool {
    const ENGINE: &[&str] = &[
        "lean-ctxd",
        "lean-ctx-guard",
        "lean-ctx-lsp",
        "lean-ctx-outline",
        "lean-ctx-redact",
        "lean-ctx-search",
        "lean-ctx-store",
        "lean-ctx-shell-compress",
        "tantivy",
        "rusqlite",
        "libsqlite3-sys",
        "bpe-openai",
    ];
    ENGINE.contains(&name) || name.starts_with("tree-sitter")
}

/// Normal (linked) dependency edges of the workspace, by package name.
fn dependency_graph() -> BTreeMap<String, Vec<String>> {
    let meta = cargo_metadata();
    let names: BTreeMap<&str, &str> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap()))
        .collect();
    let mut graph = BTreeMap::new();
    for node in meta["resolve"]["nodes"].as_array().unwrap() {
        let from = names[node["id"].as_str().unwrap()].to_string();
        let linked = node["deps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["dep_kinds"].as_array().unwrap().iter().any(|k| k["kind"].is_null()));
        let to: Vec<String> = linked.map(|d| names[d["pkg"].as_str().unwrap()].to_string()).collect();
        graph.entry(from).or_insert_with(Vec::new).extend(to);
    }
    graph
}

/// The path from `root` to the first engine crate it links, if any.
fn path_to_engine(graph: &BTreeMap<String, Vec<String>>, root: &str) -> Option<Vec<String>> {
    let mut parent: BTreeMap<String, String> = BTreeMap::new();
    let mut queue = VecDeque::from([root.to_string()]);
    while let Some(name) = queue.pop_front() {
        if is_engine_crate(&name) {
            let mut path = vec![name.clone()];
            let mut at = name;
            while let Some(p) = parent.get(&at) {
                path.push(p.clone());
                at = p.clone();
            }
            path.reverse();
            return Some(path);
        }
        for dep in graph.get(&name).into_iter().flatten() {
            if dep != root && !parent.contains_key(dep) {
                parent.insert(dep.clone(), name.clone());
                queue.push_back(dep.clone());
            }
        }
    }
    None
}

#[test]
fn no_client_links_an_engine_crate() {
    let graph = dependency_graph();
    assert!(graph.contains_key("lean-ctxd"), "the workspace graph was read");
    for client in CLIENTS {
        assert!(graph.contains_key(*client), "{client} is a workspace package");
        if let Some(path) = path_to_engine(&graph, client) {
            panic!("{client} links the engine: {}", path.join(" → "));
        }
    }
    // The check can fail: the daemon itself reaches the engine crates.
    assert!(path_to_engine(&graph, "lean-ctxd").is_some());
}

fn script(home: &Home, name: &str, body: &str) -> std::path::PathBuf {
    let path = home.path().join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    path
}

fn project(home: &Home) -> std::path::PathBuf {
    let root = home.path().join("proj");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join("lib.rs"), "pub fn greet() -> u32 {\n    42\n}\n").unwrap();
    root
}

/// Runs `program args` with no daemon, the fallback child being `daemon_bin`.
fn without_daemon(home: &Home, program: &str, daemon_bin: &Path, args: &[&str]) -> Output {
    home.command(bin(program))
        .env("LEAN_CTX_NO_DAEMON", "1")
        .env("LEAN_CTX_DAEMON_BIN", daemon_bin)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn with_no_daemon_each_call_is_served_by_a_child_that_exits_with_it() {
    let home = Home::new();
    let root = project(&home);
    let out = home
        .command(bin("lctx"))
        .current_dir(&root)
        .env("LEAN_CTX_NO_DAEMON", "1")
        .args(["read", "lib.rs", "-m", "full", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["served_by"], "LOCAL");
    assert!(json["files"][0]["content"].as_str().unwrap().contains("pub fn greet"));
    assert!(home.daemon_pids().is_empty(), "no daemon was started");
    assert!(wait_until(Duration::from_secs(60), || home.fallback_pids().is_empty()), "the child is gone");
}

#[test]
fn a_crashing_child_is_reported_with_its_stderr() {
    let home = Home::new();
    // Under load the child may be gone before the client writes its request:
    // that write must fail with EPIPE and be reported, not end the client by
    // SIGPIPE (which it did while the clients restored SIGPIPE's default).
    let crash = script(&home, "crash-lean-ctxd", "echo 'engine exploded: bad magic' >&2\nexit 70");
    let out = without_daemon(&home, "lctx", &crash, &["read", "README.md"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("engine exploded: bad magic"), "{stderr}");
}

#[test]
fn a_hanging_child_fails_the_call_within_its_deadline_and_is_killed() {
    let home = Home::new();
    let marker = home.path().join("hang-started");
    let hang = script(
        &home,
        "hang-lean-ctxd",
        &format!("echo 'stuck on purpose' >&2\ntouch {}\nexec sleep 120", marker.display()),
    );
    let start = Instant::now();
    let out = without_daemon(&home, "lctx", &hang, &["read", "README.md"]);
    let took = start.elapsed();
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(took < Duration::from_secs(20), "the client waited {took:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("handshake") && stderr.contains("stuck on purpose"), "{stderr}");
    assert!(marker.exists(), "the child did start");
    // The child's whole group was killed: no `sleep 120` of this home is left.
    let sleepers = processes_with_env(&home, "sleep");
    assert!(sleepers.is_empty(), "left behind: {sleepers:?}");
}

#[test]
fn lctx_shell_runs_the_command_past_a_hanging_child_and_kills_it() {
    let home = Home::new();
    let hang = script(&home, "hang-lean-ctxd", "exec sleep 120");
    let start = Instant::now();
    let out = without_daemon(&home, "lctx-shell", &hang, &["run", "--", "sh", "-c", "echo ran; exit 3"]);
    let took = start.elapsed();
    assert_eq!(out.status.code(), Some(3), "{}", describe(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ran\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("did not answer"), "{}", describe(&out));
    assert!(took < Duration::from_secs(20), "the shim waited {took:?}");
    // The child that missed the shim's deadline was killed, not left behind.
    let sleepers = processes_with_env(&home, "sleep");
    assert!(sleepers.is_empty(), "left behind: {sleepers:?}");
}

#[test]
fn without_lean_ctxd_lctx_says_how_to_install_and_lctx_shell_runs_the_command() {
    let home = Home::new();
    let missing = home.path().join("nowhere/lean-ctxd");
    let out = without_daemon(&home, "lctx", &missing, &["read", "README.md"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("install") && stderr.contains("LEAN_CTX_DAEMON_BIN"), "{stderr}");

    // Enough output to be worth compressing; the shim must still print it
    // all and keep the exit code.
    let out = without_daemon(&home, "lctx-shell", &missing, &["run", "--", "sh", "-c", "seq 1 2000; exit 4"]);
    assert_eq!(out.status.code(), Some(4), "{}", describe(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 2000, "the output went out untouched");
}

/// Live processes named `name` whose environment holds this home.
fn processes_with_env(home: &Home, name: &str) -> Vec<u32> {
    let needle = format!("LEAN_CTX_HOME={}", home.path().display());
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        let Ok(comm) = std::fs::read_to_string(entry.path().join("comm")) else { continue };
        if comm.trim() != name || !lean_ctx_tests::process_alive(pid) {
            continue;
        }
        let env = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        if env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes()) {
            pids.push(pid);
        }
    }
    pids
}
