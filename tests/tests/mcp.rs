//! lctx-mcp end to end: the real binary on stdio, driven by rmcp's client —
//! or by raw JSON-RPC lines where a well-behaved client cannot send what is
//! being tested — against a real daemon (or the in-process engine), each
//! test in its own LEAN_CTX_HOME.
//!
//! The `#[ignore]`d `bench_*` test prints the figures of docs/benchmarks.md;
//! run it on a release build:
//! `cargo build --release --workspace --bins && cargo test --release -p lean-ctx-tests --test mcp -- --ignored --nocapture`

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use lean_ctx_tests::mcp::Raw;
use lean_ctx_tests::{Home, alone, bin, describe, kill, path_without_lean_ctxd, process_alive, wait_until};
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ClientRequest, ErrorCode,
    Implementation, ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, PeerRequestOptions, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceError, ServiceExt};
use serde_json::{Value, json};

const HOST: &str = "mcp-test-host";
const STANDARD_TOOLS: &[&str] = &[
    "ctx_read",
    "ctx_shell",
    "ctx_expand",
    "ctx_search",
    "ctx_glob",
    "ctx_tree",
    "ctx_edit",
    "ctx_session",
    "ctx_knowledge",
    "ctx_impact",
];

/// A project (with `.git`) inside the home.
fn project(home: &Home) -> PathBuf {
    let root = home.path().join("proj");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::write(
        root.join("lib.rs"),
        "/// Greets.\npub fn greet(name: &str) -> String {\n    format!(\"hello {name}\")\n}\n",
    )
    .unwrap();
    root
}

/// lctx-mcp in `dir` with the home's environment plus `env`; stderr goes to
/// a file in the home (stdout is the protocol).
fn mcp_command(home: &Home, dir: &Path, env: &[(&str, &str)]) -> std::process::Command {
    mcp_command_of(&bin("lctx-mcp"), home, dir, env)
}

/// [`mcp_command`] of another copy of lctx-mcp.
fn mcp_command_of(program: &Path, home: &Home, dir: &Path, env: &[(&str, &str)]) -> std::process::Command {
    let mut cmd = home.command(program);
    cmd.current_dir(dir)
        .env_remove("LEAN_CTX_MCP_PROFILE")
        .env_remove("LEAN_CTX_MCP_DISABLED")
        .env("LEAN_CTX_LOG", "info")
        .stderr(stderr_log(home));
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

fn stderr_log(home: &Home) -> std::fs::File {
    std::fs::OpenOptions::new().create(true).append(true).open(home.path().join("lctx-mcp.stderr")).unwrap()
}

/// What lctx-mcp logged, for failure messages.
fn shim_log(home: &Home) -> String {
    std::fs::read_to_string(home.path().join("lctx-mcp.stderr")).unwrap_or_default()
}

type Client = RunningService<RoleClient, ClientConfig>;

fn host_config(version: ProtocolVersion) -> ClientConfig {
    ClientConfig::new(ClientCapabilities::default(), Implementation::new(HOST, "1.2.3")).with_protocol_version(version)
}

fn transport(home: &Home, dir: &Path, env: &[(&str, &str)]) -> TokioChildProcess {
    let cmd = tokio::process::Command::from(mcp_command(home, dir, env));
    let (transport, _) = TokioChildProcess::builder(cmd).stderr(stderr_log(home)).spawn().expect("spawn lctx-mcp");
    transport
}

/// Connected with the `initialize` handshake at `version`.
async fn connect(home: &Home, dir: &Path, version: ProtocolVersion, env: &[(&str, &str)]) -> Client {
    host_config(version).serve(transport(home, dir, env)).await.expect("initialize")
}

async fn tool_names(client: &Client) -> Vec<String> {
    client.list_all_tools().await.expect("tools/list").into_iter().map(|t| t.name.to_string()).collect()
}

async fn try_call(client: &Client, name: &str, args: Value) -> Result<CallToolResult, ServiceError> {
    let Value::Object(args) = args else { panic!("arguments must be an object") };
    client.call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(args)).await
}

/// A call that must succeed as a tool call (it may still report isError).
async fn call(client: &Client, name: &str, args: Value) -> (String, bool) {
    let result = try_call(client, name, args.clone()).await.unwrap_or_else(|e| panic!("{name} {args}: {e}"));
    let text = result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.as_str()).collect::<String>();
    (text, result.is_error == Some(true))
}

/// The text of a call that must succeed without isError.
async fn ok(client: &Client, name: &str, args: Value) -> String {
    let (text, is_error) = call(client, name, args.clone()).await;
    assert!(!is_error, "{name} {args} failed: {text}");
    text
}

fn protocol_error(result: Result<CallToolResult, ServiceError>) -> rmcp::ErrorData {
    match result {
        Err(ServiceError::McpError(e)) => e,
        other => panic!("expected a protocol error, got {other:?}"),
    }
}

/// The archive id named by the handle line under shortened output.
/// A search answer without its note on how it was served (index or scan).
fn hits(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.contains("searched the files directly")).collect()
}

fn archive_id(text: &str) -> String {
    let at =
        text.find("ctx_expand id=").unwrap_or_else(|| panic!("no handle line in:\n{text}")) + "ctx_expand id=".len();
    text[at..at + 16].to_string()
}

/// Live processes named `name` whose environment holds this home.
fn processes_in_home(home: &Home, name: &str) -> Vec<u32> {
    let needle = format!("LEAN_CTX_HOME={}", home.path().display());
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
        let argv0 = cmdline.split(|b| *b == 0).next().unwrap_or_default();
        if !argv0.ends_with(name.as_bytes()) || !process_alive(pid) {
            continue;
        }
        let env = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        if env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes()) {
            pids.push(pid);
        }
    }
    pids
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_protocol_eras_list_the_tools() {
    let home = Home::new();
    let root = project(&home);
    for version in [ProtocolVersion::V_2024_11_05, ProtocolVersion::V_2025_11_25] {
        let client = connect(&home, &root, version.clone(), &[("LEAN_CTX_NO_DAEMON", "1")]).await;
        let server = client.peer_info().expect("initialize result");
        assert_eq!(server.protocol_version, version);
        assert_eq!(server.server_info.as_ref().map(|i| i.name.as_str()), Some("lctx-mcp"));
        let instructions = server.instructions.clone().unwrap_or_default();
        assert!(instructions.contains("ctx_read") && instructions.contains("ctx_shell"), "{instructions}");
        assert_eq!(tool_names(&client).await, STANDARD_TOOLS);
        let read = client.list_all_tools().await.unwrap().into_iter().find(|t| t.name == "ctx_read").unwrap();
        for param in ["path", "paths", "mode", "fresh", "start_line", "limit"] {
            assert!(read.input_schema["properties"].get(param).is_some(), "ctx_read lacks {param}");
        }
        client.cancel().await.unwrap();
    }

    // 2026-07-28: no handshake; server/discover, then self-contained requests
    // whose metadata names the host.
    let client = host_config(ProtocolVersion::V_2026_07_28)
        .serve_with_lifecycle(
            transport(&home, &root, &[("LEAN_CTX_NO_DAEMON", "1")]),
            ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] },
        )
        .await
        .expect("server/discover");
    assert_eq!(client.peer_info().unwrap().protocol_version, ProtocolVersion::V_2026_07_28);
    assert_eq!(tool_names(&client).await, STANDARD_TOOLS);
    ok(&client, "ctx_session", json!({"action": "task", "value": "try the modern era"})).await;
    let handoff = ok(&client, "ctx_session", json!({"action": "handoff"})).await;
    assert!(
        handoff.contains(&format!("({HOST} 1.2.3)")),
        "the host and its version are the session's agent: {handoff}"
    );
    client.cancel().await.unwrap();
}

const NOISY_FAILURE: &str = r#"for i in $(seq 1 400); do echo "compiling unit $i of 400 … ok"; done
echo "error[E0308]: mismatched types at src/parse.rs:88:17" >&2
exit 101"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_works_through_the_daemon() {
    let home = Home::new();
    let root = project(&home);
    let client = connect(&home, &root, ProtocolVersion::V_2025_06_18, &[]).await;

    // ctx_read: content, then the session's "[unchanged]" stub, then content again on request.
    // (lib.rs, 23 tokens, is just larger than the stub, 22: a smaller file would be sent again.)
    let first = ok(&client, "ctx_read", json!({"path": "lib.rs"})).await;
    assert!(first.contains("pub fn greet(name: &str) -> String"), "{first}");
    let again = ok(&client, "ctx_read", json!({"path": "lib.rs"})).await;
    assert!(again.contains("[unchanged") && again.contains("fresh=true or lines:N-M resend"), "{again}");
    let window = ok(&client, "ctx_read", json!({"path": "lib.rs", "start_line": 2, "limit": 1, "fresh": true})).await;
    assert!(window.contains("pub fn greet") && !window.contains("Greets"), "{window}");
    let (missing, is_error) = call(&client, "ctx_read", json!({"path": "nope.rs"})).await;
    assert!(is_error && missing.contains("nope.rs"), "{missing}");
    let noted = ok(&client, "ctx_read", json!({"path": "lib.rs", "fresh": true, "offset": 3})).await;
    assert!(noted.contains("ignored unknown parameters: offset"), "{noted}");
    let guessed = ok(&client, "ctx_read", json!({"path": "lib.rs", "fresh": true, "startLine": 2})).await;
    assert!(guessed.contains("ignored unknown parameters: startLine (did you mean start_line?)"), "{guessed}");

    // ctx_edit: a real change on disk; a miss is a tool error that says what to do.
    let edited = ok(&client, "ctx_edit", json!({"path": "lib.rs", "old_string": "hello", "new_string": "hi"})).await;
    assert!(edited.contains("1 replacement"), "{edited}");
    assert!(std::fs::read_to_string(root.join("lib.rs")).unwrap().contains("format!(\"hi {name}\")"));
    let (miss, is_error) =
        call(&client, "ctx_edit", json!({"path": "lib.rs", "old_string": "absent", "new_string": "x"})).await;
    // MCP names its own parameters; lctx edit names its flags (tests/tests/cli_usage.rs).
    assert!(is_error && miss.contains("old_string was not found"), "{miss}");
    ok(&client, "ctx_edit", json!({"path": "new.txt", "new_string": "fresh file\n", "create": true})).await;
    assert_eq!(std::fs::read_to_string(root.join("new.txt")).unwrap(), "fresh file\n");

    // ctx_shell: a failure keeps its error line and exit code; the original is archived.
    let out = ok(&client, "ctx_shell", json!({"command": NOISY_FAILURE})).await;
    assert!(out.contains("error[E0308]: mismatched types at src/parse.rs:88:17"), "{out}");
    assert!(out.contains("[exit:101]"), "{out}");
    assert!(out.lines().count() < 60, "compressed: {out}");
    let id = archive_id(&out);
    let original = ok(&client, "ctx_expand", json!({"id": id})).await;
    assert!(original.contains("compiling unit 1 of 400 … ok") && original.contains("unit 400 of 400"));
    let lines = ok(&client, "ctx_expand", json!({"id": id, "start_line": 2, "end_line": 3})).await;
    assert_eq!(lines, "compiling unit 2 of 400 … ok\ncompiling unit 3 of 400 … ok\n");
    let grep = ok(&client, "ctx_expand", json!({"id": id, "search": "E0308"})).await;
    assert!(grep.starts_with("401: error[E0308]"), "{grep}");
    let found = ok(&client, "ctx_expand", json!({"search": "mismatched"})).await;
    assert!(found.contains(&id), "{found}");
    let (unknown, is_error) = call(&client, "ctx_expand", json!({"id": "0123456789abcdef"})).await;
    // MCP names its own parameters; lctx expand names its flag (tests/tests/shell.rs).
    assert!(is_error && unknown.contains("or find it with ctx_expand's `search`"), "{unknown}");
    assert!(!unknown.contains("lctx"), "{unknown}");

    // The shim's own directory and environment, as if the host ran it; cwd and env per call.
    let here = ok(&client, "ctx_shell", json!({"command": "pwd; echo $LEAN_CTX_HOME"})).await;
    assert!(here.contains(&root.display().to_string()) && here.contains(&home.path().display().to_string()));
    let sub = ok(&client, "shell", json!({"command": "pwd", "cwd": "sub"})).await;
    assert!(sub.contains("/proj/sub"), "{sub}");
    let env = ok(&client, "ctx_shell", json!({"command": "echo $GREETING", "env": {"GREETING": "from-env"}})).await;
    assert!(env.contains("from-env"), "{env}");
    let started =
        ok(&client, "ctx_shell", json!({"command": "echo done-in-background", "run_in_background": true})).await;
    let job = started.split_whitespace().nth(1).unwrap().to_string();
    // Polled until the job is done, however loaded the machine: the bound
    // only catches a job that never ends.
    let mut status = String::new();
    let polling = std::time::Instant::now();
    while polling.elapsed() < Duration::from_secs(120) {
        status = ok(&client, "ctx_shell", json!({"background_action": "status", "job_id": job})).await;
        if !status.contains("running") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(status.contains("exit 0") && status.contains("done-in-background"), "{status}");
    // A listing does not send a finished job's output again, and says how to get it.
    let listed = ok(&client, "ctx_shell", json!({"background_action": "list"})).await;
    let again = format!("[output sent earlier; background_action=status job_id={job} sends it again]");
    assert!(listed.contains(&again) && !listed.contains("\ndone-in-background"), "{listed}");
    let status = ok(&client, "ctx_shell", json!({"background_action": "status", "job_id": job})).await;
    assert!(status.contains("\ndone-in-background"), "status sends it again: {status}");

    // ctx_search (regex, bm25, symbol), ctx_glob, ctx_tree over the project's files.
    std::fs::write(root.join("sub/util.py"), "def parse_config(path):\n    return open(path).read()\n").unwrap();
    let regex = ok(&client, "ctx_search", json!({"pattern": "fn gr[e]et"})).await;
    assert!(regex.contains("lib.rs") && regex.contains("pub fn greet"), "{regex}");
    let only_py = ok(&client, "ctx_search", json!({"pattern": "parse|greet", "include": "*.py"})).await;
    assert!(only_py.contains("sub/util.py") && !only_py.contains("lib.rs"), "{only_py}");
    let ranked = ok(&client, "ctx_search", json!({"pattern": "parse config", "action": "bm25"})).await;
    assert!(ranked.contains("sub/util.py"), "{ranked}");
    let lean_ctx_words = ok(&client, "ctx_search", json!({"pattern": "parse config", "action": "semantic"})).await;
    // The same ranked hits; the line saying whether the index or a scan
    // answered depends on timing (the index may finish building in between).
    assert_eq!(hits(&lean_ctx_words), hits(&ranked), "lean-ctx's `semantic` is bm25 here");
    let symbol = ok(&client, "ctx_search", json!({"pattern": "parse_con", "action": "symbol"})).await;
    assert!(symbol.contains("sub/util.py") && symbol.contains("parse_config"), "{symbol}");
    let (bad, is_error) = call(&client, "ctx_search", json!({"pattern": "fn (unclosed"})).await;
    assert!(is_error && bad.contains("regex"), "a bad regex is a tool error that says so: {bad}");
    let (empty, is_error) = call(&client, "ctx_glob", json!({"pattern": ""})).await;
    assert!(is_error && empty.contains("the glob is empty"), "{empty}");
    let (bad, is_error) = call(&client, "ctx_search", json!({"pattern": "x", "action": "fuzzy"})).await;
    assert!(is_error && bad.contains("regex, bm25, symbol"), "{bad}");
    let globbed = ok(&client, "ctx_glob", json!({"pattern": "**/*.py"})).await;
    assert!(globbed.contains("sub/util.py") && !globbed.contains("lib.rs"), "{globbed}");
    let tree = ok(&client, "ctx_tree", json!({"depth": 2})).await;
    assert!(tree.contains("sub/") && tree.contains("util.py") && tree.contains("lib.rs"), "{tree}");
    let (outside, is_error) = call(&client, "ctx_tree", json!({"path": "/etc"})).await;
    assert!(is_error && outside.contains("/etc"), "paths outside the project are refused: {outside}");

    // ctx_graph (`file` is accepted for `path`) answers by name in any profile.
    let related = ok(&client, "ctx_graph", json!({"file": "lib.rs"})).await;
    assert!(related.starts_with("lib.rs\nimports: none\n"), "{related}");
    assert!(related.contains("note: co-change unavailable: the project is not a git repository"), "{related}");
    let impact = ok(&client, "ctx_impact", json!({"path": "lib.rs::greet"})).await;
    assert!(impact.starts_with("impact of greet (lib.rs:2), depth 2:\ncallers: none\n"), "{impact}");
    assert!(impact.contains("tests to run: none"), "{impact}");
    let (bad, is_error) = call(&client, "ctx_graph", json!({"path": "lib.rs", "action": "build"})).await;
    assert!(is_error && bad.contains("related, neighbors, path, symbol"), "{bad}");

    // ctx_session and ctx_knowledge.
    let task = ok(&client, "ctx_session", json!({"action": "task", "value": "rename greet"})).await;
    assert!(task.contains("task set for mcp-"), "one session per connection: {task}");
    let status = ok(&client, "ctx_session", json!({"action": "status"})).await;
    assert!(status.contains("rename greet"), "{status}");
    let handoff = ok(&client, "ctx_session", json!({"action": "handoff"})).await;
    assert!(
        handoff.contains(&format!("({HOST} 1.2.3)")),
        "the host and its version are the session's agent: {handoff}"
    );
    let (bad, is_error) = call(&client, "ctx_session", json!({"action": "dance"})).await;
    assert!(is_error && bad.contains("status"), "lists the valid actions: {bad}");
    let remembered =
        ok(&client, "ctx_knowledge", json!({"action": "remember", "key": "db", "value": "postgres 16"})).await;
    assert!(remembered.contains("remembered db"), "{remembered}");
    let recalled = ok(&client, "ctx_knowledge", json!({"action": "recall", "query": "postgres"})).await;
    assert!(recalled.contains("db = postgres 16"), "{recalled}");

    // ctx_gain: the reads and runs above are in the ledger.
    let gain = ok(&client, "ctx_gain", json!({"group_by": "tool"})).await;
    let rows: Vec<&str> = gain.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert!(rows.contains(&"read") && rows.contains(&"shell"), "{gain}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_call_kills_its_command_and_the_server_goes_on() {
    for env in [&[][..], &[("LEAN_CTX_NO_DAEMON", "1")][..]] {
        let home = Home::new();
        let root = project(&home);
        let client = connect(&home, &root, ProtocolVersion::V_2025_11_25, env).await;
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(
            CallToolRequestParams::new("ctx_shell")
                .with_arguments(json!({"command": "sleep 30"}).as_object().unwrap().clone()),
        ));
        let handle = client.send_cancellable_request(request, PeerRequestOptions::no_options()).await.unwrap();
        assert!(
            wait_until(Duration::from_secs(20), || !processes_in_home(&home, "sleep").is_empty()),
            "sleep 30 started ({env:?}): {}",
            shim_log(&home)
        );
        handle.cancel(Some("the user pressed escape".into())).await.unwrap();
        assert!(
            wait_until(Duration::from_secs(60), || processes_in_home(&home, "sleep").is_empty()),
            "the command is killed with the call ({env:?})"
        );
        assert_eq!(ok(&client, "ctx_shell", json!({"command": "echo still-here"})).await.trim(), "still-here");
        client.cancel().await.unwrap();
    }
}

/// A project whose ranking is long: `files` files each calling a method defined in every file
/// on `calls` values of unknown type, every call resolved by the name alone.
fn same_name_project(home: &Home, files: usize, calls: usize) -> PathBuf {
    let root = project(home);
    let dir = root.join("pkg");
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..files {
        let uses: String = (0..calls).map(|c| format!("    task{c}.run()\n")).collect();
        let params: Vec<String> = (0..calls).map(|c| format!("task{c}")).collect();
        let text = format!(
            "class Worker{i}:\n    def run(self):\n        return {i}\n\n\ndef drive{i}({}):\n{uses}",
            params.join(", ")
        );
        std::fs::write(dir.join(format!("m{i:04}.py")), text).unwrap();
    }
    root
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_repomap_stops_in_the_daemon_and_the_server_goes_on() {
    let home = Home::new();
    let root = same_name_project(&home, 1500, 40);
    let client = connect(&home, &root, ProtocolVersion::V_2025_11_25, &[("LEAN_CTX_MCP_PROFILE", "code")]).await;
    let status = || home.lctx_json(&["daemon", "status", "--json"]);
    // The graph is built first, so the map's request is the ranking (every reference resolved).
    ok(&client, "ctx_search", json!({"pattern": "matches_nothing_q7"})).await;
    let ready = |st: &Value| st["components"]["graph"]["graph"].as_str().is_some_and(|g| g.contains(" ready "));
    assert!(wait_until(Duration::from_secs(300), || ready(&status())), "the graph was never built: {}", status());
    let served = |st: &Value| st["requests_served"].as_u64().unwrap();
    let cancelled = |st: &Value| st["components"]["stopped"]["cancelled"].as_u64().unwrap();
    let (before, cancelled_before) = {
        let st = status();
        (served(&st), cancelled(&st))
    };

    let request = ClientRequest::CallToolRequest(CallToolRequest::new(
        CallToolRequestParams::new("ctx_repomap").with_arguments(json!({}).as_object().unwrap().clone()),
    ));
    let handle = client.send_cancellable_request(request, PeerRequestOptions::no_options()).await.unwrap();
    // The status call is a request too: more than one past `before` means the map arrived.
    assert!(wait_until(Duration::from_secs(120), || served(&status()) > before + 1), "the map never arrived");
    // The ranking takes seconds in a debug build; the cancel follows within a few polls.
    handle.cancel(Some("the user pressed escape".into())).await.unwrap();
    assert!(
        wait_until(Duration::from_secs(120), || cancelled(&status()) > cancelled_before),
        "the daemon did not stop the ranking: {}",
        status()
    );
    // The next request is served, and the map's answer never comes.
    let callers = ok(&client, "ctx_callgraph", json!({"symbol": "Worker0::run"})).await;
    assert!(callers.contains("Worker0::run"), "{callers}");
    let map = ok(&client, "ctx_repomap", json!({})).await;
    assert!(map.contains("pkg/"), "a whole map once asked again: {map:.300}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daemon_killed_between_calls_goes_unnoticed() {
    let home = Home::new();
    let root = project(&home);
    let client = connect(&home, &root, ProtocolVersion::V_2025_06_18, &[]).await;
    ok(&client, "ctx_read", json!({"path": "lib.rs"})).await;
    for next in
        [("ctx_read", json!({"path": "lib.rs", "fresh": true})), ("ctx_shell", json!({"command": "echo alive"}))]
    {
        let before = home.daemon_pids();
        assert_eq!(before.len(), 1, "one daemon serves the shim");
        kill(before[0], libc::SIGKILL);
        // Dead means every thread gone: the lock is free and the socket refuses.
        let lock = home.dirs().daemon_lock();
        assert!(wait_until(Duration::from_secs(60), || !lean_ctxd::server::singleton::is_held(&lock)));
        let text = ok(&client, next.0, next.1).await;
        assert!(text.contains("greet") || text.contains("alive"), "{text}");
        let after = home.daemon_pids();
        assert!(after.len() == 1 && after != before, "a new daemon took over: {before:?} → {after:?}");
    }
    client.cancel().await.unwrap();
}

/// An edit is not repeated when its connection breaks (it may have run); but one sent after
/// the daemon was killed reached no daemon, and failed saying it might have run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_sent_after_the_daemon_was_killed_is_applied_by_the_next_one() {
    let home = Home::new();
    let root = project(&home);
    std::fs::write(root.join("notes.txt"), "v0\n").unwrap();
    let client = connect(&home, &root, ProtocolVersion::V_2025_06_18, &[]).await;
    let edit = |old: &str, new: &str| json!({"path": "notes.txt", "old_string": old, "new_string": new});
    ok(&client, "ctx_edit", edit("v0", "v1")).await;
    for (old, new) in [("v1", "v2"), ("v2", "v3")] {
        // A command first, as in a session: its watchdog is killed along (`pkill -9 -f lean-ctxd`).
        ok(&client, "ctx_shell", json!({"command": "echo busy"})).await;
        let before = home.daemon_pids();
        assert_eq!(before.len(), 1, "one daemon serves the shim");
        for pid in before.iter().chain(&home.watchdog_pids()) {
            kill(*pid, libc::SIGKILL);
        }
        let lock = home.dirs().daemon_lock();
        assert!(wait_until(Duration::from_secs(60), || !lean_ctxd::server::singleton::is_held(&lock)));
        // Long enough for the shim's end of the connection to see it close.
        tokio::time::sleep(Duration::from_secs(1)).await;
        let text = ok(&client, "ctx_edit", edit(old, new)).await;
        assert_eq!(std::fs::read_to_string(root.join("notes.txt")).unwrap(), format!("{new}\n"), "{text}");
    }
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_no_daemon_one_fallback_child_serves_the_whole_session() {
    let home = Home::new();
    let root = project(&home);
    let client = connect(&home, &root, ProtocolVersion::V_2025_03_26, &[("LEAN_CTX_NO_DAEMON", "1")]).await;
    assert!(ok(&client, "ctx_read", json!({"path": "lib.rs"})).await.contains("greet"));
    let child = home.fallback_pids();
    assert_eq!(child.len(), 1, "one lean-ctxd --stdio child serves the session");
    let out = ok(&client, "ctx_shell", json!({"command": "echo in-process; exit 3"})).await;
    assert!(out.contains("in-process") && out.contains("[exit:3]"), "{out}");
    ok(&client, "ctx_knowledge", json!({"action": "remember", "key": "k", "value": "v"})).await;
    let found = ok(&client, "ctx_search", json!({"pattern": "greet"})).await;
    assert!(found.contains("lib.rs"), "{found}");
    let status = ok(&client, "ctx_gain", json!({})).await;
    assert!(!status.is_empty());
    assert_eq!(home.fallback_pids(), child, "the same child answered every call");
    assert!(home.daemon_pids().is_empty(), "no daemon was started");
    client.cancel().await.unwrap();
    assert!(wait_until(Duration::from_secs(60), || home.fallback_pids().is_empty()), "the child exits with the shim");
}

/// One MCP connection is one session: another connection can neither see
/// nor cancel its background jobs; its own cancel answers once the job has
/// stopped, and says so.
#[test]
fn a_connection_sees_and_cancels_only_its_own_background_jobs() {
    let home = Home::new();
    let root = project(&home);
    let _daemon = home.spawn_daemon(&[]);
    let mut first = Raw::spawn(mcp_command(&home, &root, &[]));
    first.initialize("first-host", "2025-06-18");
    let mut second = Raw::spawn(mcp_command(&home, &root, &[]));
    second.initialize("second-host", "2025-06-18");
    let (started, _) = first.call_tool(1, "ctx_shell", json!({"command": "sleep 60", "run_in_background": true}));
    let job = started.split_whitespace().nth(1).unwrap().to_string();

    for (id, action) in [(10, "status"), (11, "cancel")] {
        let (text, is_error) = second.call_tool(id, "ctx_shell", json!({"background_action": action, "job_id": job}));
        assert!(is_error && text.contains(&format!("job {job} belongs to another session")), "{action}: {text}");
    }
    let (theirs, _) = second.call_tool(12, "ctx_shell", json!({"background_action": "list"}));
    assert_eq!(theirs, "no background jobs in this session");
    let (own, _) = first.call_tool(2, "ctx_shell", json!({"background_action": "list"}));
    assert!(own.starts_with(&format!("job {job} · running · ")), "the other's cancel did nothing: {own}");

    let (cancel, is_error) = first.call_tool(3, "ctx_shell", json!({"background_action": "cancel", "job_id": job}));
    assert!(!is_error && cancel.starts_with(&format!("job {job} · cancelled · ")), "{cancel}");
    assert!(cancel.contains("[cancelled: the command and everything it started were killed]"), "{cancel}");
    let (status, _) = first.call_tool(4, "ctx_shell", json!({"background_action": "status", "job_id": job}));
    assert!(status.starts_with(&format!("job {job} · cancelled · ")), "{status}");
}

/// QA: the answers about background jobs were booked short: the job's line, a cancel's note, a
/// listing's hint and the "started" reply were left out of what the ledger counts as sent, so
/// gain claimed savings the agent never had. What the agent reads is what the ledger books.
#[test]
fn a_job_answer_is_booked_as_the_agent_reads_it() {
    let home = Home::new();
    let root = project(&home);
    let _daemon = home.spawn_daemon(&[]);
    let mut raw = Raw::spawn(mcp_command(&home, &root, &[]));
    raw.initialize(HOST, "2025-06-18");
    let mut read = Vec::new();
    let (started, _) =
        raw.call_tool(1, "ctx_shell", json!({"command": "seq 1 400; echo done", "run_in_background": true}));
    let job = started.split_whitespace().nth(1).unwrap().to_string();
    read.push(started);
    let deadline = Instant::now() + Duration::from_secs(30);
    for id in 2.. {
        let (status, _) = raw.call_tool(id, "ctx_shell", json!({"background_action": "status", "job_id": job}));
        let ended = status.contains("· exit 0 ·");
        read.push(status);
        if ended {
            break;
        }
        assert!(Instant::now() < deadline, "job {job} did not end: {read:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
    for (id, action) in [(100, "status"), (101, "list"), (102, "cancel")] {
        let (text, is_error) = raw.call_tool(id, "ctx_shell", json!({"background_action": action, "job_id": job}));
        assert!(!is_error, "{action}: {text}");
        read.push(text);
    }
    assert!(read.iter().any(|t| t.contains("[output sent earlier;")), "{read:?}");
    assert!(read.iter().any(|t| t.contains("had already ended; nothing was cancelled")), "{read:?}");
    let sent: u64 = read.iter().map(|text| lean_ctxd::engine::tokens::count_uncached(text) as u64).sum();
    let gain = home.lctx_in(&root, false, &["gain", "--json"]);
    let gain: Value = serde_json::from_slice(&gain.stdout).unwrap_or_else(|e| panic!("{e}: {}", describe(&gain)));
    assert_eq!(gain["total"]["sent_tokens"], json!(sent), "{gain}\n{read:?}");
}

#[test]
fn a_killed_shim_takes_its_fallback_child_with_it() {
    let home = Home::new();
    let root = project(&home);
    let mut raw = Raw::spawn(mcp_command(&home, &root, &[("LEAN_CTX_NO_DAEMON", "1")]));
    raw.initialize(HOST, "2025-06-18");
    let answer = raw.request(1, "tools/call", json!({"name": "ctx_read", "arguments": {"path": "lib.rs"}}));
    assert!(answer.to_string().contains("greet"), "{answer}");
    let children = home.fallback_pids();
    assert_eq!(children.len(), 1, "{children:?}");
    kill(raw.child.id(), libc::SIGKILL);
    assert!(
        wait_until(Duration::from_secs(60), || home.fallback_pids().is_empty()),
        "the child outlived its killed client: {:?}",
        home.fallback_pids()
    );
}

#[test]
fn without_lean_ctxd_tool_calls_say_what_is_missing() {
    let home = Home::new();
    let root = project(&home);
    let missing = home.path().join("no-such-lean-ctxd");
    let missing = missing.to_str().unwrap();
    let mut raw =
        Raw::spawn(mcp_command(&home, &root, &[("LEAN_CTX_NO_DAEMON", "1"), ("LEAN_CTX_DAEMON_BIN", missing)]));
    raw.initialize(HOST, "2025-06-18");
    let answer = raw.request(1, "tools/call", json!({"name": "ctx_read", "arguments": {"path": "lib.rs"}}));
    assert_eq!(answer["result"]["isError"], json!(true), "{answer}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.contains("no-such-lean-ctxd") && text.contains("install"), "{text}");
    assert!(raw.close().success());
}

/// lctx-mcp installed without lean-ctxd: each call says, naming lctx-mcp, what to install, and
/// the log says it once, however many calls find it missing.
#[test]
fn without_any_lean_ctxd_calls_name_lctx_mcp_and_one_installed_later_is_found() {
    let home = Home::new();
    let root = project(&home);
    let program = alone(&home, "lctx-mcp");
    let path = path_without_lean_ctxd(&program);
    let mut raw = Raw::spawn(mcp_command_of(&program, &home, &root, &[("PATH", path.to_str().unwrap())]));
    raw.initialize(HOST, "2025-06-18");
    let want = format!(
        "no lean-ctxd found: it is not beside lctx-mcp in {}, not on PATH, and LEAN_CTX_DAEMON_BIN is not set; install \
         lean-ctxd (`cargo install --path daemon`, or the package that ships lctx-mcp) or set LEAN_CTX_DAEMON_BIN to \
         its path",
        program.parent().unwrap().display()
    );
    for id in [1, 2] {
        assert_eq!(raw.call_tool(id, "ctx_read", json!({"path": "lib.rs"})), (want.clone(), true));
    }
    assert_eq!(shim_log(&home).matches("no lean-ctxd found").count(), 1, "{}", shim_log(&home));
    // Installed beside it meanwhile, lean-ctxd serves the next call: the host need not restart lctx-mcp.
    let beside = program.with_file_name("lean-ctxd");
    if std::fs::hard_link(bin("lean-ctxd"), &beside).is_err() {
        std::fs::copy(bin("lean-ctxd"), &beside).unwrap();
    }
    let (text, is_error) = raw.call_tool(3, "ctx_read", json!({"path": "lib.rs"}));
    assert!(!is_error && text.contains("greet"), "{text}");
    assert!(raw.close().success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_and_disabled_tools_are_protocol_errors() {
    let home = Home::new();
    let root = project(&home);
    let env = [("LEAN_CTX_NO_DAEMON", "1"), ("LEAN_CTX_MCP_DISABLED", "ctx_edit, ctx_impact")];
    let client = connect(&home, &root, ProtocolVersion::V_2025_11_25, &env).await;
    let e = protocol_error(try_call(&client, "no_such_tool", json!({})).await);
    assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
    assert!(e.message.contains("tool not found"), "{}", e.message);
    let names = tool_names(&client).await;
    assert!(!names.iter().any(|n| n == "ctx_edit" || n == "ctx_impact"), "{names:?}");
    let e = protocol_error(try_call(&client, "ctx_edit", json!({"path": "lib.rs", "new_string": "x"})).await);
    assert!(e.message.contains("disabled"), "{}", e.message);
    // Arguments of the wrong type are a tool failure the model can correct, not a protocol error.
    let (text, is_error) = call(&client, "ctx_read", json!({"path": 5})).await;
    assert!(is_error && text == "path must be a string, not 5", "{text}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_argument_gets_a_clear_error_and_the_server_stays_up() {
    let home = Home::new();
    let root = project(&home);
    let client = connect(&home, &root, ProtocolVersion::V_2025_11_25, &[("LEAN_CTX_NO_DAEMON", "1")]).await;
    let huge = "x".repeat(20 << 20);
    let e = protocol_error(
        try_call(&client, "ctx_edit", json!({"path": "big.txt", "new_string": huge, "create": true})).await,
    );
    assert!(e.message.contains("20.0 MiB") && e.message.contains("limit"), "{}", e.message);
    assert!(!root.join("big.txt").exists());
    assert_eq!(tool_names(&client).await, STANDARD_TOOLS);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctx_repomap_leans_toward_the_connection_s_reads_and_names_its_own_parameters() {
    let home = Home::new();
    let root = project(&home);
    let many: String = (0..40).map(|i| format!("def step_{i}(value):\n    return value + {i}\n\n\n")).collect();
    std::fs::write(root.join("steps.py"), many).unwrap();
    let client = connect(&home, &root, ProtocolVersion::V_2025_11_25, &[("LEAN_CTX_NO_DAEMON", "1")]).await;

    let plain = ok(&client, "ctx_repomap", json!({"max_tokens": 64})).await;
    assert!(
        plain.ends_with("; raise max_tokens, or ctx_read a file with mode=signatures]\n"),
        "an agent is told the tool's own parameters:\n{plain}"
    );
    ok(&client, "ctx_read", json!({"path": "lib.rs"})).await;
    let personal = ok(&client, "ctx_repomap", json!({"max_tokens": 200})).await;
    let first = personal.lines().next().unwrap();
    assert!(first.ends_with("personalised by the files this session touched: lib.rs"), "{personal}");
    let only = ok(&client, "ctx_repomap", json!({"path": "lib.rs"})).await;
    assert!(only.contains("lib.rs:\n2-4 pub fn greet(name: &str) -> String\n"), "{only}");
    assert!(!only.contains("steps.py"), "{only}");

    let (zero, is_error) = call(&client, "ctx_repomap", json!({"max_tokens": 0})).await;
    assert!(is_error && zero.contains("use 64 to 16384"), "{zero}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_profile_comes_from_config_and_the_environment() {
    let home = Home::new();
    let root = project(&home);
    let no_daemon = ("LEAN_CTX_NO_DAEMON", "1");
    let profiles = [
        ("minimal", 4),
        ("standard", STANDARD_TOOLS.len()),
        ("code", STANDARD_TOOLS.len() + 4),
        ("all", STANDARD_TOOLS.len() + 6),
    ];
    for (profile, expected) in profiles {
        let client =
            connect(&home, &root, ProtocolVersion::V_2025_11_25, &[no_daemon, ("LEAN_CTX_MCP_PROFILE", profile)]).await;
        let names = tool_names(&client).await;
        assert_eq!(names.len(), expected, "{profile}: {names:?}");
        client.cancel().await.unwrap();
    }
    let config = home.dirs().config_file();
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "mcp_tools_profile = \"minimal\"\nmcp_disabled_tools = [\"ctx_expand\"]\n").unwrap();
    let client = connect(&home, &root, ProtocolVersion::V_2025_11_25, &[no_daemon]).await;
    assert_eq!(tool_names(&client).await, ["ctx_read", "ctx_shell", "ctx_search"]);
    client.cancel().await.unwrap();
    // The daemon reads the same file: the keys are valid configuration to it.
    let shown = home.lctx(&["config", "get", "mcp_tools_profile"]);
    assert!(
        shown.status.success() && String::from_utf8_lossy(&shown.stdout).contains("minimal"),
        "{}",
        describe(&shown)
    );
    let client =
        connect(&home, &root, ProtocolVersion::V_2025_11_25, &[no_daemon, ("LEAN_CTX_MCP_PROFILE", "all")]).await;
    assert_eq!(
        tool_names(&client).await.len(),
        STANDARD_TOOLS.len() + 5,
        "the environment overrides the profile (standard + ctx_gain, ctx_callgraph, ctx_repomap, ctx_graph + \
         ctx_rules + shell), the file disables one"
    );
    client.cancel().await.unwrap();
}

#[test]
fn malformed_lines_are_answered_and_stdin_eof_ends_the_process() {
    let home = Home::new();
    let root = project(&home);
    let mut raw = Raw::spawn(mcp_command(&home, &root, &[("LEAN_CTX_NO_DAEMON", "1")]));
    let init = raw.initialize(HOST, "2024-11-05");
    assert_eq!(init["result"]["protocolVersion"], "2024-11-05", "{init}");

    raw.send_line("{this is not json");
    let answer = raw.recv();
    assert_eq!(answer["error"]["code"], -32700, "a parse error: {answer}");
    let answer = raw.request(7, "tools/call", json!({"name": 5}));
    assert_eq!(answer["error"]["code"], -32602, "invalid params: {answer}");
    let answer = raw.request(8, "tools/call", json!({"name": "ctx_read", "arguments": {"path": "lib.rs"}}));
    assert!(answer["result"]["content"][0]["text"].as_str().unwrap().contains("greet"), "{answer}");
    let answer = raw.request(9, "tools/list", json!({}));
    assert_eq!(answer["result"]["tools"].as_array().unwrap().len(), STANDARD_TOOLS.len());

    let status = raw.close();
    assert!(status.success(), "exits cleanly on EOF: {status}");

    // The warning went to stderr and to the shim's log file, never to stdout.
    assert!(shim_log(&home).contains("unreadable message"), "{}", shim_log(&home));
    let logs: Vec<_> = std::fs::read_dir(home.dirs().log_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("lctx-mcp"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    assert!(logs.iter().any(|l| l.contains("unreadable message")), "{logs:?}");
}

/// A client that forgot the handshake is told to make it (and what protocol 2026-07-28, which
/// has none, asks instead); once it has, the same call is answered.
#[test]
fn a_call_before_initialize_is_told_to_send_initialize_first() {
    let home = Home::new();
    let root = project(&home);
    let mut raw = Raw::spawn(mcp_command(&home, &root, &[("LEAN_CTX_NO_DAEMON", "1")]));
    let read = json!({"name": "ctx_read", "arguments": {"path": "lib.rs"}});
    let answer = raw.request(1, "tools/call", read.clone());
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("no session yet: send `initialize` first"), "{answer}");
    assert!(
        message.contains("2026-07-28")
            && message.contains("io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities"),
        "{answer}"
    );

    raw.initialize(HOST, "2025-06-18");
    let answer = raw.request(2, "tools/call", read);
    assert!(answer["result"]["content"][0]["text"].as_str().unwrap().contains("greet"), "{answer}");
    assert!(raw.close().success());
}

/// Notifications and responses before a session has begun are ignored (logged) and the server
/// reads on, also after a refused `initialize`, whose refusal names each member that is wrong;
/// once the session has begun, a second `initialize` is refused and the session goes on.
#[test]
fn messages_before_the_session_are_ignored_and_initialize_is_taken_once() {
    let home = Home::new();
    let root = project(&home);
    let mut raw = Raw::spawn(mcp_command(&home, &root, &[("LEAN_CTX_NO_DAEMON", "1")]));
    raw.send_line(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#);
    raw.send_line(r#"{"jsonrpc":"2.0","method":"notifications/whatever"}"#);
    raw.send_line(r#"{"jsonrpc":"2.0","id":3,"result":{}}"#);
    assert_eq!(raw.request(1, "ping", json!({})), json!({"jsonrpc": "2.0", "id": 1, "result": {}}));

    let host = json!({"name": HOST, "version": "1"});
    let answer = raw.request(2, "initialize", json!({"protocolVersion": 20250618, "clientInfo": host}));
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert_eq!(
        answer["error"]["message"],
        "malformed initialize request: `protocolVersion`: invalid type: integer `20250618`, expected a string; \
         `capabilities` is missing",
        "{answer}"
    );
    raw.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);

    let init = raw.initialize(HOST, "2025-06-18");
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18", "{init}");
    let again = json!({"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": host});
    let answer = raw.request(4, "initialize", again);
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    assert!(answer["error"]["message"].as_str().unwrap().contains("`initialize` is sent once per connection"));
    let (text, is_error) = raw.call_tool(5, "ctx_read", json!({"path": "lib.rs"}));
    assert!(!is_error && text.contains("greet"), "{text}");
    assert!(raw.close().success());
    let log = shim_log(&home);
    for method in ["notifications/cancelled", "notifications/whatever", "notifications/initialized"] {
        assert!(log.contains(&format!("ignoring the {method} notification: no session yet")), "{log}");
    }
    assert!(log.contains("ignoring a response: no session yet"), "{log}");
}

/// A host that closes stdin before any session has stopped the server, which is no failure.
#[test]
fn stdin_closed_before_a_session_is_a_clean_exit() {
    let home = Home::new();
    let root = project(&home);
    let mut raw = Raw::spawn(mcp_command(&home, &root, &[("LEAN_CTX_NO_DAEMON", "1")]));
    raw.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let status = raw.close();
    assert!(status.success(), "{status}: {}", shim_log(&home));
    // What was answered before the input ended is written before the exit: a one-shot probe
    // gets its refusal.
    let mut raw = Raw::spawn(mcp_command(&home, &root, &[("LEAN_CTX_NO_DAEMON", "1")]));
    raw.send_line(r#"{"jsonrpc":"2.0","id":7,"method":"initialize","params":null}"#);
    let (status, answers) = raw.close_and_read();
    assert!(status.success(), "{status}: {}", shim_log(&home));
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert_eq!((&answers[0]["id"], &answers[0]["error"]["code"]), (&7.into(), &(-32602).into()), "{answers:?}");
}

/// Error responses as JSON-RPC 2.0 has them: `"id": null` when the id could
/// not be read, -32600 with the reason for a message that is not JSON-RPC
/// 2.0 (its id kept), and -32601 that says the method is not found.
#[test]
fn protocol_errors_carry_an_id_and_say_what_is_wrong() {
    let home = Home::new();
    let root = project(&home);
    let mut raw = Raw::spawn(mcp_command(&home, &root, &[("LEAN_CTX_NO_DAEMON", "1")]));
    raw.initialize(HOST, "2025-06-18");

    for line in ["{this is not json", r#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#, "[1,2]"] {
        raw.send_line(line);
        let answer = raw.recv();
        let object = answer.as_object().unwrap();
        assert_eq!(object.get("id"), Some(&Value::Null), "{line}: the id member is there, null: {answer}");
        assert!(answer["error"]["code"].is_i64(), "{line}: {answer}");
    }

    raw.send_line(r#"{"jsonrpc":"1.0","id":10,"method":"tools/list"}"#);
    let answer = raw.recv();
    assert_eq!((&answer["id"], &answer["error"]["code"]), (&json!(10), &json!(-32600)), "{answer}");
    assert!(answer["error"]["message"].as_str().unwrap().contains(r#""jsonrpc" must be "2.0""#), "{answer}");
    raw.send_line(r#"{"id":11,"method":"ping"}"#);
    let answer = raw.recv();
    assert_eq!((&answer["id"], &answer["error"]["code"]), (&json!(11), &json!(-32600)), "{answer}");
    assert!(answer["error"]["message"].as_str().unwrap().contains(r#""jsonrpc" must be "2.0""#), "{answer}");

    let answer = raw.request(12, "nosuch/method", json!({}));
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    assert_eq!(answer["error"]["message"], "method not found: nosuch/method", "{answer}");
    let answer = raw.request(13, "resources/list", json!({}));
    assert_eq!(answer["error"]["message"], "method not found: resources/list", "{answer}");

    // The session goes on.
    let answer = raw.request(14, "tools/list", json!({}));
    assert_eq!(answer["result"]["tools"].as_array().unwrap().len(), STANDARD_TOOLS.len(), "{answer}");
    assert!(raw.close().success());
}

/// docs/mcp.md: a tool failure is a result with isError, and so is an
/// argument that does not fit. An empty command, an empty path and a tree
/// depth of 0 are values of the right type the tool cannot use.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unusable_argument_values_are_tool_errors_alike() {
    let home = Home::new();
    let root = project(&home);
    let client = connect(&home, &root, ProtocolVersion::V_2025_11_25, &[("LEAN_CTX_NO_DAEMON", "1")]).await;
    let (text, is_error) = call(&client, "ctx_shell", json!({"command": ""})).await;
    assert!(is_error && text.contains("give command"), "{text}");
    let (text, is_error) = call(&client, "ctx_shell", json!({"command": "  ", "background_action": "status"})).await;
    assert!(is_error && text.contains("job_id"), "{text}");
    // QA: a command given with background_action was dropped without a word; and a job_id that is
    // no number was answered as if none was given.
    let marker = root.join("ran");
    let both = json!({"command": format!("touch {}", marker.display()), "background_action": "list"});
    let (text, is_error) = call(&client, "ctx_shell", both).await;
    assert!(is_error && text.contains("not both: the command was not run"), "{text}");
    assert!(!marker.exists(), "the command did not run");
    let (text, is_error) = call(&client, "ctx_shell", json!({"background_action": "status", "job_id": "abc"})).await;
    assert!(is_error && text.starts_with("job_id \"abc\" is not a job's id"), "{text}");
    let started = try_call(&client, "ctx_shell", json!({"command": "true", "run_in_background": true})).await.unwrap();
    let id = started.structured_content.as_ref().and_then(|json| json["job_id"].as_u64());
    assert!(id.is_some(), "the job's id is structured content: {started:?}");
    let missing = json!({"background_action": "status", "job_id": 424242});
    let (text, is_error) = call(&client, "ctx_shell", missing).await;
    assert!(is_error && text.contains("background_action=list"), "named for the tool an agent has: {text}");
    let (text, is_error) = call(&client, "ctx_read", json!({"path": ""})).await;
    assert!(is_error && text.contains("empty path"), "{text}");
    // ctx_tree's depth 0 is refused naming the range, never replaced by the default.
    let (text, is_error) = call(&client, "ctx_tree", json!({"depth": 0})).await;
    assert!(is_error && text == "depth 0 is out of range: use 1 to 4294967295", "{text}");
    let one = ok(&client, "ctx_tree", json!({"depth": 1})).await;
    assert!(one.contains("lib.rs"), "{one}");
    assert_eq!(ok(&client, "ctx_tree", json!({"depth": null})).await, ok(&client, "ctx_tree", json!({})).await);
    // So is a wrong type.
    let (text, is_error) = call(&client, "ctx_shell", json!({"command": 5})).await;
    assert!(is_error && text == "command must be a string, not 5", "{text}");
    client.cancel().await.unwrap();
}

/// The text of a tools/call answered as a tool error: a result with
/// isError, never a JSON-RPC error.
fn tool_error(answer: &Value) -> &str {
    assert!(answer.get("error").is_none(), "a tool error, not a protocol error: {answer}");
    assert_eq!(answer["result"]["isError"], json!(true), "{answer}");
    answer["result"]["content"][0]["text"].as_str().unwrap()
}

/// docs/mcp.md: an integer argument that is negative, a fraction, a string
/// or too large is a tool error naming the parameter, the value as given
/// and the range, for every integer parameter `tools/list` shows; the ends
/// of a range still work. Raw lines, so `1e12` goes out as written.
#[test]
fn integer_arguments_out_of_range_are_tool_errors_naming_the_range() {
    let home = Home::new();
    let root = project(&home);
    let mut raw =
        Raw::spawn(mcp_command(&home, &root, &[("LEAN_CTX_NO_DAEMON", "1"), ("LEAN_CTX_MCP_PROFILE", "all")]));
    raw.initialize(HOST, "2025-11-25");
    let tools = raw.request(1, "tools/list", json!({}));
    let mut integers = Vec::new();
    for tool in tools["result"]["tools"].as_array().unwrap() {
        for (param, schema) in tool["inputSchema"]["properties"].as_object().unwrap() {
            if schema["type"] == "integer" {
                integers.push((tool["name"].as_str().unwrap().to_string(), param.clone()));
            }
        }
    }
    assert_eq!(integers.len(), 17, "{integers:?}");
    let mut id = 100;
    for (tool, param) in &integers {
        for bad in ["-1", "1.5", r#""5""#, "1e12", "18446744073709551616"] {
            id += 1;
            let line = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{"{param}":{bad}}}}}}}"#
            );
            raw.send_line(&line);
            let answer = raw.recv();
            assert_eq!(answer["id"], id, "{answer}");
            let text = tool_error(&answer);
            // Beside a required argument left out, its own misfit; the value
            // as serde_json writes it back (1e12 is 1000000000000.0).
            let named = text.split("; ").any(|misfit| match bad {
                "1.5" | r#""5""# => {
                    misfit.starts_with(&format!("{param} must be an integer from "))
                        && misfit.ends_with(&format!(", not {bad}"))
                }
                _ => misfit.starts_with(&format!("{param} ")) && misfit.contains(" is out of range: use "),
            });
            assert!(named, "{tool} {param}={bad}: {text}");
        }
    }

    let call = |raw: &mut Raw, id: i64, tool: &str, args: Value| {
        raw.request(id, "tools/call", json!({"name": tool, "arguments": args}))
    };
    for (args, said) in [
        (json!({"path": "lib.rs", "start_line": -1}), "start_line -1 is out of range: use 1 to 4294967295"),
        (
            json!({"path": "lib.rs", "limit": 4_294_967_296_u64}),
            "limit 4294967296 is out of range: use 1 to 4294967295",
        ),
        (json!({"path": "lib.rs", "limit": 1.5}), "limit must be an integer from 1 to 4294967295, not 1.5"),
        (json!({"path": "lib.rs", "limit": "5"}), r#"limit must be an integer from 1 to 4294967295, not "5""#),
    ] {
        assert_eq!(tool_error(&call(&mut raw, 2, "ctx_read", args.clone())), said, "{args}");
    }
    let answer = call(&mut raw, 3, "ctx_search", json!({"pattern": "greet", "max_results": 1e12}));
    assert_eq!(tool_error(&answer), "max_results 1000000000000.0 is out of range: use 1 to 10000");
    let answer = call(&mut raw, 4, "ctx_repomap", json!({"max_tokens": -5}));
    assert_eq!(tool_error(&answer), "max_tokens -5 is out of range: use 64 to 16384");
    let answer = call(&mut raw, 5, "ctx_shell", json!({"command": "true", "timeout_ms": 0}));
    assert_eq!(tool_error(&answer), "timeout_ms 0 is out of range: use 1 to 3600000");
    // Every misfit at once, unknown names still noted.
    let answer =
        call(&mut raw, 6, "ctx_edit", json!({"path": "lib.rs", "start_line": -2, "end_line": "x", "lines": 3}));
    assert_eq!(
        tool_error(&answer),
        "new_string is required; start_line -2 is out of range: use 1 to 4294967295; end_line must be an integer \
         from 1 to 4294967295, not \"x\"\n[ctx_edit ignored unknown parameters: lines]"
    );

    // The ends of a range, and a whole number written as a float, are values.
    let ok = |answer: &Value| {
        assert!(answer.get("error").is_none() && answer["result"]["isError"] != json!(true), "{answer}");
        answer["result"]["content"][0]["text"].as_str().unwrap().to_string()
    };
    let first = ok(&call(&mut raw, 10, "ctx_read", json!({"path": "lib.rs", "start_line": 1, "limit": 1})));
    assert!(first.contains("/// Greets.") && !first.contains("pub fn greet"), "{first}");
    let whole = ok(&call(&mut raw, 11, "ctx_read", json!({"path": "lib.rs", "start_line": 2.0, "limit": 1e0})));
    assert!(whole.contains("pub fn greet") && !whole.contains("format!"), "{whole}");
    let most = ok(&call(&mut raw, 12, "ctx_search", json!({"pattern": "greet", "max_results": 10_000})));
    assert!(most.contains("lib.rs"), "{most}");
    // Past it, an answer of lines could fill any context: refused, naming the range.
    let answer = call(&mut raw, 13, "ctx_search", json!({"pattern": "greet", "max_results": 10_001}));
    assert!(tool_error(&answer).starts_with("max_results 10001 is out of range: use 1 to 10000"), "{answer}");
    for budget in [64, 16384] {
        let map = ok(&call(&mut raw, 13, "ctx_repomap", json!({"max_tokens": budget})));
        assert!(map.contains("greet"), "{budget}: {map}");
    }
    let shell = ok(&call(&mut raw, 14, "ctx_shell", json!({"command": "echo hi", "timeout_ms": 3_600_000})));
    assert!(shell.contains("hi"), "{shell}");
    let deep = ok(&call(&mut raw, 15, "ctx_callgraph", json!({"symbol": "greet", "depth": 5})));
    assert!(deep.contains("greet"), "{deep}");
    assert!(raw.close().success());
}

#[test]
fn sigterm_ends_the_server_and_the_commands_it_runs_in_process() {
    let home = Home::new();
    let root = project(&home);
    let mut raw = Raw::spawn(mcp_command(&home, &root, &[("LEAN_CTX_NO_DAEMON", "1")]));
    raw.initialize(HOST, "2025-06-18");
    let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                      "params": {"name": "ctx_shell", "arguments": {"command": "sleep 30"}}});
    raw.send_line(&call.to_string());
    assert!(
        wait_until(Duration::from_secs(20), || !processes_in_home(&home, "sleep").is_empty()),
        "{}",
        shim_log(&home)
    );
    kill(raw.child.id(), libc::SIGTERM);
    assert!(wait_until(Duration::from_secs(10), || raw.child.try_wait().unwrap().is_some()), "exits on SIGTERM");
    assert!(
        wait_until(Duration::from_secs(60), || processes_in_home(&home, "sleep").is_empty()),
        "its command is killed"
    );
}

// ---------------------------------------------------------------------------
// Benchmark figures (release build; see the file header).

/// The reference MCP server (lean-ctx 3.11.4), when available.
fn reference_bin() -> Option<PathBuf> {
    let path = std::env::var_os("LEAN_CTX_REFERENCE_BIN")
        .map_or_else(|| PathBuf::from("/tmp/leanctx/x/thinkery_leanctx_engine/bin/lean-ctx"), PathBuf::from);
    path.exists().then_some(path)
}

/// Starts the reference with its own HOME; `stop_reference` kills whatever
/// it started there (it may spawn a daemon).
fn reference_command(bin: &Path, home: &Path, dir: &Path, profile: Option<&str>) -> std::process::Command {
    let mut cmd = std::process::Command::new(bin);
    cmd.arg("mcp").current_dir(dir).env("HOME", home).stderr(Stdio::null());
    if let Some(profile) = profile {
        cmd.env("LEAN_CTX_TOOL_PROFILE", profile);
    }
    cmd
}

fn stop_reference(home: &Path) {
    let needle = format!("HOME={}", home.display());
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        let env = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        if env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes()) {
            kill(pid, libc::SIGKILL);
        }
    }
}

/// o200k tokens of what a host loads each turn: instructions + tools/list.
fn per_turn_tokens(raw: &mut Raw) -> (usize, usize) {
    let init = raw.initialize(HOST, "2025-06-18");
    let instructions = init["result"]["instructions"].as_str().unwrap_or_default().to_string();
    let list = raw.request(1, "tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().map_or(0, Vec::len);
    let bpe = bpe_openai::o200k_base();
    (tools, bpe.count(&instructions) + bpe.count(&list["result"].to_string()))
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// p50 and p99 of `n` ctx_read round trips (full, fresh) in milliseconds.
fn read_latency(raw: &mut Raw, path: &str, n: usize) -> (f64, f64) {
    let args = json!({"name": "ctx_read", "arguments": {"path": path, "mode": "full", "fresh": true}});
    for id in 0..20 {
        raw.request(1000 + id, "tools/call", args.clone());
    }
    let mut samples: Vec<f64> = (0..n)
        .map(|i| {
            let start = Instant::now();
            let answer = raw.request(2000 + i as i64, "tools/call", args.clone());
            assert!(answer.get("result").is_some(), "{answer}");
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    (samples[n / 2], samples[n * 99 / 100])
}

#[test]
#[ignore = "benchmark: run on a release build with --ignored --nocapture"]
fn bench_token_cost_latency_and_memory() {
    let home = Home::new();
    let root = project(&home);
    let source: String = (0..200).map(|i| format!("pub fn item_{i}(x: u32) -> u32 {{ x * {i} + 1 }}\n")).collect();
    std::fs::write(root.join("bench.rs"), source).unwrap();
    let reference = reference_bin();

    println!("per-turn cost (instructions + tools/list, o200k tokens)");
    for profile in ["minimal", "standard", "all"] {
        let mut raw =
            Raw::spawn(mcp_command(&home, &root, &[("LEAN_CTX_NO_DAEMON", "1"), ("LEAN_CTX_MCP_PROFILE", profile)]));
        let (tools, tokens) = per_turn_tokens(&mut raw);
        println!("  lctx-mcp  {profile:<9} {tools:>3} tools {tokens:>6} tokens");
    }
    if let Some(bin) = &reference {
        for profile in [None, Some("minimal"), Some("standard"), Some("power")] {
            let ref_home = tempfile::tempdir().unwrap();
            let mut raw = Raw::spawn(reference_command(bin, ref_home.path(), &root, profile));
            let (tools, tokens) = per_turn_tokens(&mut raw);
            drop(raw);
            stop_reference(ref_home.path());
            println!("  lean-ctx  {:<9} {tools:>3} tools {tokens:>6} tokens", profile.unwrap_or("(default)"));
        }
    }

    let _daemon = home.spawn_daemon(&[]);
    let mut raw = Raw::spawn(mcp_command(&home, &root, &[]));
    raw.initialize(HOST, "2025-06-18");
    let started_kib = rss_kib(raw.child.id());
    let (p50, p99) = read_latency(&mut raw, "bench.rs", 1000);
    println!("ctx_read round trip (200-line file, full, fresh; warm daemon; 1000 calls)");
    println!("  lctx-mcp  p50 {p50:.3} ms  p99 {p99:.3} ms");
    println!("RSS after start / after the reads (KiB)");
    println!("  lctx-mcp  {started_kib} / {}", rss_kib(raw.child.id()));
    if let Some(bin) = &reference {
        let ref_home = tempfile::tempdir().unwrap();
        let mut raw = Raw::spawn(reference_command(bin, ref_home.path(), &root, None));
        raw.initialize(HOST, "2025-06-18");
        let started_kib = rss_kib(raw.child.id());
        let (p50, p99) = read_latency(&mut raw, &root.join("bench.rs").display().to_string(), 1000);
        let after_kib = rss_kib(raw.child.id());
        drop(raw);
        stop_reference(ref_home.path());
        println!("  lean-ctx  p50 {p50:.3} ms  p99 {p99:.3} ms; RSS {started_kib} / {after_kib} KiB");
    }
}

#[test]
fn a_command_that_fails_is_an_answer_with_its_exit_code_as_structured_content() {
    let home = Home::new();
    let root = project(&home);
    let mut raw = Raw::spawn(mcp_command(&home, &root, &[]));
    raw.initialize(HOST, "2025-06-18");
    let answer =
        raw.request(1, "tools/call", json!({"name": "ctx_shell", "arguments": {"command": "echo no; exit 3"}}));
    let result = &answer["result"];
    assert_ne!(result["isError"], json!(true), "a failing command is not a tool error: {answer}");
    assert_eq!(result["structuredContent"], json!({"exit_code": 3, "timed_out": false}), "{answer}");
    // A timed-out command's code is the one its note gives, as timeout(1)'s.
    let args = json!({"command": "sleep 5", "timeout_ms": 300});
    let answer = raw.request(3, "tools/call", json!({"name": "ctx_shell", "arguments": args}));
    assert_eq!(answer["result"]["structuredContent"], json!({"exit_code": 124, "timed_out": true}), "{answer}");
    assert!(answer.to_string().contains("exit code 124, as timeout(1) gives"), "{answer}");
    let read = raw.request(2, "tools/call", json!({"name": "ctx_read", "arguments": {"path": "lib.rs"}}));
    assert!(read["result"].get("structuredContent").is_none(), "only command answers carry it: {read}");
    assert!(raw.close().success());
}

#[tokio::test(flavor = "multi_thread")]
async fn ctx_shell_timeouts_are_exact_and_ctx_expand_ranges_limits_and_misses_are_plain() {
    let home = Home::new();
    let root = project(&home);
    let client = connect(&home, &root, ProtocolVersion::V_2025_06_18, &[]).await;

    let started = Instant::now();
    let out = ok(&client, "ctx_shell", json!({"command": "sleep 5", "timeout_ms": 300})).await;
    // Not left to run its 5 s (the bound leaves a loaded machine room).
    assert!(started.elapsed() < Duration::from_millis(4500), "{out}");
    let said = out.split("[timed out after ").nth(1).and_then(|t| t.split(" ms:").next()).unwrap_or_default();
    let said: u64 = said.parse().unwrap_or_else(|_| panic!("the answer names the time in ms: {out}"));
    assert!((300..900).contains(&said), "killed at 300 ms, not rounded up to a second: {out}");
    for bad in [0, 3_600_001] {
        let (text, is_error) = call(&client, "ctx_shell", json!({"command": "echo ran", "timeout_ms": bad})).await;
        assert!(is_error && text == format!("timeout_ms {bad} is out of range: use 1 to 3600000"), "{bad}: {text}");
    }

    let id = archive_id(&ok(&client, "ctx_shell", json!({"command": "seq 1 3000"})).await);
    let (text, is_error) = call(&client, "ctx_expand", json!({"id": id, "start_line": 10, "end_line": 5})).await;
    assert!(is_error && text.contains("start_line 10 is after end_line 5: the range is reversed"), "{text}");
    let first = ok(&client, "ctx_expand", json!({"id": id, "limit": 3})).await;
    assert_eq!(
        first,
        "1\n2\n3\n[… lines 4-3000 not shown: one expand returns at most 3 lines; ask start_line=4 end_line=6 for the \
         next]\n"
    );
    let none = ok(&client, "ctx_expand", json!({"id": id, "search": "^300", "start_line": 1, "end_line": 2})).await;
    assert_eq!(none, "[no line matches `^300` in lines 1-2 of 3000]\n");
    let nowhere = ok(&client, "ctx_expand", json!({"id": id, "search": "^x"})).await;
    assert_eq!(nowhere, "[no line matches `^x` in its 3000 lines]\n");
}
