//! Precise mode of ctx_callgraph end to end, against a scripted language server (`fake-lsp`):
//! the server's answer is used and labelled; a server that hangs, crashes or is not installed
//! leaves the code graph's answer with the reason, in time; servers stop when idle, with the
//! daemon, and with the fallback child that started one.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lean_ctx_tests::{Home, describe, git_project, process_alive, wait_until};
use serde_json::{Value, json};

const TARGET: &str = "def target(value):\n    return helper(value) * 2\n\n\ndef helper(value):\n    return value\n";
const ORDERS: &str = "from pricing import target\n\n\ndef first():\n    return target(1)\n";
const APP: &str = "from orders import first\n\n\ndef main():\n    first()\n";

/// A call hierarchy item of the fake server's script.
fn item(name: &str, kind: u32, file: &str, line: u32) -> Value {
    let range = json!({"start": {"line": line, "character": 4}, "end": {"line": line, "character": 10}});
    json!({"name": name, "kind": kind, "uri": format!("{file}"), "range": range, "selectionRange": range})
}

fn site(line: u32) -> Value {
    site_at(line, 11)
}

/// A call site at a 0-based line and UTF-16 column.
fn site_at(line: u32, character: u32) -> Value {
    json!({"start": {"line": line, "character": character}, "end": {"line": line, "character": character + 6}})
}

/// What the fake server answers: `target` is called by `first` (and by a file outside the
/// project), `first` by `main`; `target` calls `helper` and a library function.
fn script(home: &Home, extra: Value) -> Value {
    let target = item("target", 12, "file://ROOT/pricing.py", 0);
    let first = item("first", 12, "file://ROOT/orders.py", 3);
    let mut script = json!({
        "prepare": [target],
        "incoming": {
            "target": [
                {"from": first, "fromRanges": [site(4)]},
                {"from": item("vendored", 12, "file:///usr/lib/python3/site-packages/x.py", 9), "fromRanges": [site(10)]},
            ],
            "first": [{"from": item("main", 12, "file://ROOT/app.py", 3), "fromRanges": [site(4)]}],
        },
        "outgoing": {
            "target": [
                {"to": item("helper", 12, "file://ROOT/pricing.py", 4), "fromRanges": [site(1)]},
                {"to": item("print", 12, "file:///usr/lib/python3/builtins.pyi", 99), "fromRanges": [site(1)]},
            ],
        },
        "pids": home.path().join("lsp-pids").display().to_string(),
        "crash_marker": home.path().join("crashed").display().to_string(),
    });
    for (k, v) in extra.as_object().unwrap() {
        script[k] = v.clone();
    }
    script
}

/// A Python project and a config whose python server is the fake one with `script`.
fn setup(home: &Home, extra: Value, config: &str) -> PathBuf {
    setup_with(home, extra, config, ORDERS)
}

/// [`setup`] with `orders` as the text of orders.py.
fn setup_with(home: &Home, extra: Value, config: &str, orders: &str) -> PathBuf {
    let root = git_project(home, "shop", &[("pricing.py", TARGET), ("orders.py", orders), ("app.py", APP)]);
    let script_file = home.path().join("script.json");
    std::fs::write(&script_file, script(home, extra).to_string()).unwrap();
    let fake = env!("CARGO_BIN_EXE_fake-lsp");
    std::fs::create_dir_all(home.dirs().config).unwrap();
    let command = format!("lsp_python = [{:?}, {:?}]\n", fake, script_file.display().to_string());
    std::fs::write(home.dirs().config_file(), format!("{command}{config}")).unwrap();
    root
}

fn callgraph(home: &Home, root: &Path, no_daemon: bool, args: &[&str]) -> (String, Duration) {
    let started = Instant::now();
    let out = home.lctx_in(root, no_daemon, &[&["callgraph"], args].concat());
    let took = started.elapsed();
    assert!(out.status.success(), "{}", describe(&out));
    (String::from_utf8(out.stdout).unwrap(), took)
}

/// Waits until the code graph is built, so the question has a definition to ask about and a
/// fallback has its answer to give.
fn wait_for_graph(home: &Home, root: &Path) {
    let ready = wait_until(Duration::from_secs(15), || {
        let out = home.lctx_in(root, false, &["callgraph", "target", "--json"]);
        let answer: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        answer["complete"] == true && answer["targets"].as_array().is_some_and(|t| t.len() == 1)
    });
    assert!(ready, "the code graph never found target");
}

/// The pids of the fake servers started so far, in start order.
fn server_pids(home: &Home) -> Vec<u32> {
    let text = std::fs::read_to_string(home.path().join("lsp-pids")).unwrap_or_default();
    text.lines().map(|l| l.parse().unwrap()).collect()
}

/// What a callers answer from the code graph says of calls it cannot list (a server's answer
/// does not say it).
const VALUES: &str = "note: calls through a variable it was assigned to or a parameter it was passed as (`g = f; g()`, a callback) are not listed\n";

#[test]
fn the_servers_callers_and_callees_are_the_answer_and_say_so() {
    let home = Home::new();
    let root = setup(&home, json!({}), "");
    let _daemon = home.spawn_daemon(&[]);
    wait_for_graph(&home, &root);

    let (text, _) = callgraph(&home, &root, false, &["target", "--precise"]);
    assert_eq!(
        text,
        "callers of target (pricing.py:1), depth 1, precise (fake-lsp):\n  orders.py:5 first [precise]\n1 call site\n",
        "the caller outside the project is left out"
    );
    let (text, _) = callgraph(&home, &root, false, &["target", "--precise", "--depth", "2"]);
    assert!(text.contains(" depth 2:\n  app.py:5 main -> first [precise]\n"), "{text}");

    let (json, _) = callgraph(&home, &root, false, &["target", "-a", "callees", "--precise", "--json"]);
    let answer: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(answer["precise"], true);
    assert_eq!(answer["language_server"], "fake-lsp");
    assert_eq!(answer["fallback"], "");
    assert_eq!(answer["external_calls"], 1, "the library call counts as external: {answer}");
    let edges = answer["edges"].as_array().unwrap();
    assert_eq!(edges.len(), 1, "{answer}");
    assert_eq!(
        (&edges[0]["file"], &edges[0]["line"], &edges[0]["callee"]["name"], &edges[0]["resolution"]),
        (&json!("pricing.py"), &json!(2), &json!("helper"), &json!("precise"))
    );

    // Without --precise nothing changes: the code graph answers and no server is asked again.
    let (text, _) = callgraph(&home, &root, false, &["target"]);
    assert_eq!(
        text,
        format!("callers of target (pricing.py:1), depth 1:\n  orders.py:5 first [exact]\n1 call site\n{VALUES}")
    );
    assert_eq!(server_pids(&home).len(), 1, "one server served every precise question");
}

/// A server's call sites keep their columns: two calls on one line are two sites, as the code
/// graph counts them; a site the server gives without a column stands for its line, and the note
/// says so.
#[test]
fn precise_sites_are_calls_with_their_columns_as_the_graphs_are() {
    let home = Home::new();
    let orders = "from pricing import target\n\n\ndef first():\n    return target(1) + target(2)\n";
    let first = item("first", 12, "file://ROOT/orders.py", 3);
    let helper = item("helper", 12, "file://ROOT/pricing.py", 4);
    let extra = json!({
        "incoming": {"target": [{"from": first, "fromRanges": [site_at(4, 23), site(4)]}]},
        "outgoing": {"target": [{"to": helper, "fromRanges": [{"start": {"line": 1}}]}]},
    });
    let root = setup_with(&home, extra, "", orders);
    let _daemon = home.spawn_daemon(&[]);
    wait_for_graph(&home, &root);

    let sites = "  orders.py:5:12 first [RESOLVED]\n  orders.py:5:24 first [RESOLVED]\n2 call sites\n";
    let (text, _) = callgraph(&home, &root, false, &["target"]);
    assert_eq!(
        text,
        format!("callers of target (pricing.py:1), depth 1:\n{}{VALUES}", sites.replace("RESOLVED", "exact"))
    );
    let (text, _) = callgraph(&home, &root, false, &["target", "--precise"]);
    assert_eq!(
        text,
        format!(
            "callers of target (pricing.py:1), depth 1, precise (fake-lsp):\n{}",
            sites.replace("RESOLVED", "precise")
        )
    );
    let (json, _) = callgraph(&home, &root, false, &["target", "-a", "callees", "--precise", "--json"]);
    let answer: Value = serde_json::from_str(&json).unwrap();
    assert_eq!((&answer["edges"][0]["line"], &answer["edges"][0]["column"]), (&json!(2), &json!(0)), "{answer}");
    assert_eq!(
        answer["note"],
        "fake-lsp gave 1 call site without a column: each stands for its line, where the code graph counts every \
         call"
    );
}

#[test]
fn a_hanging_server_leaves_the_code_graphs_answer_within_the_deadline_logged_once() {
    let home = Home::new();
    let root = setup(&home, json!({"hang": "callHierarchy/incomingCalls"}), "lsp_deadline_secs = 1\n");
    let _daemon = home.spawn_daemon(&[]);
    wait_for_graph(&home, &root);

    for _ in 0..2 {
        let (text, took) = callgraph(&home, &root, false, &["target", "--precise"]);
        assert_eq!(
            text,
            format!(
                "callers of target (pricing.py:1), depth 1, syntactic (no answer from fake-lsp within 1s):\n  \
                 orders.py:5 first [exact]\n1 call site\n{VALUES}"
            )
        );
        assert!(took < Duration::from_secs(5), "answered after {took:?}");
    }
    let log = home.daemon_log();
    assert_eq!(log.matches("language server failed a precise question").count(), 1, "{log}");
}

#[test]
fn a_crashed_server_is_reported_and_started_again_by_the_next_question() {
    let home = Home::new();
    let root = setup(&home, json!({"crash": "callHierarchy/incomingCalls"}), "");
    let _daemon = home.spawn_daemon(&[]);
    wait_for_graph(&home, &root);

    let (text, _) = callgraph(&home, &root, false, &["target", "--precise"]);
    assert!(
        text.starts_with(
            "callers of target (pricing.py:1), depth 1, syntactic (fake-lsp exited before answering; it is started \
             again on the next question):\n  orders.py:5 first [exact]\n"
        ),
        "{text}"
    );
    let (text, _) = callgraph(&home, &root, false, &["target", "--precise"]);
    assert!(text.contains("precise (fake-lsp)") && text.contains("orders.py:5 first [precise]"), "{text}");
    let pids = server_pids(&home);
    assert_eq!(pids.len(), 2, "started again: {pids:?}");
    assert!(!process_alive(pids[0]));
}

#[test]
fn a_server_that_is_not_installed_is_named() {
    let home = Home::new();
    let root = setup(&home, json!({}), "");
    std::fs::write(home.dirs().config_file(), "lsp_python = [\"lean-ctx-no-such-server\", \"--stdio\"]\n").unwrap();
    let _daemon = home.spawn_daemon(&[]);
    wait_for_graph(&home, &root);

    let (text, _) = callgraph(&home, &root, false, &["target", "--precise"]);
    assert_eq!(
        text.lines().next(),
        Some(
            "callers of target (pricing.py:1), depth 1, syntactic (lean-ctx-no-such-server is not installed (looked \
             for it on PATH; install it or set lsp_python)):"
        )
    );
    let (text, _) =
        callgraph(&home, &root, false, &["target", "-a", "trace", "--from", "first", "--to", "target", "--precise"]);
    assert!(
        text.contains("syntactic (precise mode covers callers and callees; a trace is the code graph's)"),
        "{text}"
    );
}

#[test]
fn a_server_stops_when_idle_and_with_the_daemon() {
    let home = Home::new();
    // A server that would not exit by itself when the daemon goes away.
    let root = setup(&home, json!({"linger": true}), "lsp_idle_stop_secs = 1\n");
    let _daemon = home.spawn_daemon(&[]);
    wait_for_graph(&home, &root);

    callgraph(&home, &root, false, &["target", "--precise"]);
    let first = server_pids(&home)[0];
    assert!(process_alive(first), "the server stays up between questions");
    assert!(wait_until(Duration::from_secs(10), || !process_alive(first)), "idle server {first} still runs");

    // Asked again, a new server starts; stopping the daemon stops it.
    let (text, _) = callgraph(&home, &root, false, &["target", "--precise"]);
    assert!(text.contains("precise (fake-lsp)"), "{text}");
    let second = server_pids(&home)[1];
    std::fs::write(home.dirs().config_file(), "").unwrap();
    assert!(process_alive(second));
    let out = home.lctx(&["daemon", "stop"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(wait_until(Duration::from_secs(10), || !process_alive(second)), "server {second} outlived the daemon");
}

#[test]
fn the_fallback_child_answers_precisely_and_takes_its_server_with_it() {
    let home = Home::new();
    let root = setup(&home, json!({"linger": true}), "");
    let (text, _) = callgraph(&home, &root, true, &["target", "--precise"]);
    assert!(text.contains("precise (fake-lsp)") && text.contains("orders.py:5 first [precise]"), "{text}");
    let pid = server_pids(&home)[0];
    assert!(wait_until(Duration::from_secs(5), || !process_alive(pid)), "server {pid} outlived its fallback child");
    assert!(home.daemon_pids().is_empty());
}

#[test]
fn precise_call_sites_in_denied_files_are_withheld_like_the_graphs() {
    let home = Home::new();
    let root = setup(&home, json!({}), "deny_paths = [\"orders.py\"]\n");
    let _daemon = home.spawn_daemon(&[]);
    wait_for_graph(&home, &root);
    let (text, _) = callgraph(&home, &root, false, &["target", "--precise"]);
    assert!(
        text.starts_with("callers of target (pricing.py:1), depth 1, precise (fake-lsp):\n0 call sites\n"),
        "{text}"
    );
    // Said of the file, by its rule, whatever it calls: a count of its call sites would tell.
    assert!(text.contains("1 file withheld by the user's Read rules: deny orders.py in "), "{text}");
    assert!(text.contains(": what they define and call is left out"), "{text}");
    assert!(!text.contains("orders.py:5"), "{text}");
}
