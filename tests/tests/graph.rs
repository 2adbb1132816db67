//! The code graph end to end: ctx_callgraph follows edits and branch switches, keeps projects
//! apart, answers the same through the fallback, and survives a daemon restart by loading its
//! snapshot instead of parsing the project again.

use std::path::Path;
use std::time::Duration;

use lean_ctx_tests::{Home, describe, git, git_project as project, wait_until};
use serde_json::{Value, json};

/// How long a change may take to reach the graph before a test gives up (the watcher debounces,
/// then the index and the graph apply the batch).
const FRESH: Duration = Duration::from_secs(10);

fn write(root: &Path, path: &str, text: &str) {
    let p = root.join(path);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn lctx(home: &Home, dir: &Path, no_daemon: bool, args: &[&str]) -> std::process::Output {
    home.lctx_in(dir, no_daemon, args)
}

/// `callers` of `symbol` as the JSON answer.
fn callers(home: &Home, dir: &Path, symbol: &str) -> Value {
    let out = lctx(home, dir, false, &["callgraph", symbol, "--json"]);
    assert!(out.status.success(), "{}", describe(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `file:line caller [resolution]` of each edge.
fn sites(answer: &Value) -> Vec<String> {
    let edges = answer["edges"].as_array().cloned().unwrap_or_default();
    edges
        .iter()
        .map(|e| {
            let caller = e["caller"]["name"].as_str().filter(|n| !n.is_empty()).unwrap_or("<top level>");
            format!("{}:{} {caller} [{}]", e["file"].as_str().unwrap(), e["line"], e["resolution"].as_str().unwrap())
        })
        .collect()
}

/// Waits until the callers of `symbol` are `expected`; fails naming the last answer.
fn wait_for_callers(home: &Home, dir: &Path, symbol: &str, expected: &[&str]) {
    let mut last = Vec::new();
    let reached = wait_until(FRESH, || {
        let answer = callers(home, dir, symbol);
        last = sites(&answer);
        answer["complete"] == true && last == expected
    });
    assert!(reached, "callers of {symbol}: expected {expected:?}, last answer {last:?}");
}

fn graph_figure(home: &Home, dir: &Path) -> String {
    let out = lctx(home, dir, false, &["daemon", "status", "--json"]);
    assert!(out.status.success(), "{}", describe(&out));
    let status: Value = serde_json::from_slice(&out.stdout).unwrap();
    status["components"]["graph"]["graph"].as_str().unwrap_or_default().to_string()
}

const TARGET: &str = "def target(value):\n    return value * 2\n";
const CALLER: &str = "from pricing import target\n\n\ndef first():\n    return target(1)\n";

#[test]
fn callers_follow_an_edited_call_site_and_a_branch_switch() {
    let home = Home::new();
    let root = project(&home, "app", &[("pricing.py", TARGET), ("orders.py", CALLER)]);
    git(&root, &["add", "."]);
    git(&root, &["commit", "-qm", "one"]);
    let _daemon = home.spawn_daemon(&[]);
    wait_for_callers(&home, &root, "target", &["orders.py:5 first [exact]"]);

    // The call moves to a new function two lines further down.
    write(
        &root,
        "orders.py",
        "from pricing import target\n\n\ndef first():\n    return 1\n\n\ndef second():\n    return target(2)\n",
    );
    wait_for_callers(&home, &root, "target", &["orders.py:9 second [exact]"]);

    // A branch where a second module calls it; back on main it is gone again.
    git(&root, &["checkout", "-qb", "feature"]);
    write(&root, "report.py", "import pricing\n\n\ndef total():\n    return pricing.target(3)\n");
    git(&root, &["add", "."]);
    git(&root, &["commit", "-qm", "feature"]);
    wait_for_callers(&home, &root, "target", &["orders.py:9 second [exact]", "report.py:5 total [exact]"]);
    git(&root, &["checkout", "-q", "main"]);
    wait_for_callers(&home, &root, "target", &["orders.py:5 first [exact]"]);
}

/// docs/json.md: a missing value is empty, never null. A call at a module's top level has no
/// calling definition: its `caller` has the members of one, empty.
#[test]
fn a_call_at_the_top_level_has_an_empty_caller() {
    let home = Home::new();
    let script = "from pricing import target\n\ntarget(1)\n";
    let root = project(&home, "app", &[("pricing.py", TARGET), ("script.py", script)]);
    let _daemon = home.spawn_daemon(&[]);
    wait_for_callers(&home, &root, "target", &["script.py:3 <top level> [exact]"]);
    let answer = callers(&home, &root, "target");
    assert_eq!(answer["edges"][0]["caller"], json!({"file": "", "kind": "", "line": 0, "name": ""}), "{answer}");
    assert_eq!(answer["edges"][0]["callee"]["name"], "target", "{answer}");
}

#[test]
fn projects_are_isolated_and_the_fallback_answers_alike() {
    let home = Home::new();
    let helper = "pub fn helper() -> u32 {\n    7\n}\n";
    let one = project(
        &home,
        "one",
        &[("src/lib.rs", helper), ("src/a.rs", "use crate::helper;\n\nfn alpha() -> u32 {\n    helper()\n}\n")],
    );
    let two =
        project(&home, "two", &[("src/lib.rs", helper), ("src/b.rs", "fn beta() -> u32 {\n    crate::helper()\n}\n")]);
    let _daemon = home.spawn_daemon(&[]);
    wait_for_callers(&home, &one, "helper", &["src/a.rs:4 alpha [exact]"]);
    wait_for_callers(&home, &two, "helper", &["src/b.rs:2 beta [exact]"]);

    // The in-process engine builds the graph for the one question and says the same.
    let daemon = lctx(&home, &two, false, &["callgraph", "helper"]);
    let fallback = lctx(&home, &two, true, &["callgraph", "helper"]);
    assert!(fallback.status.success(), "{}", describe(&fallback));
    assert_eq!(String::from_utf8_lossy(&fallback.stdout), String::from_utf8_lossy(&daemon.stdout));
}

#[test]
fn bad_input_gets_an_answer_that_says_what_to_do() {
    let home = Home::new();
    let root = project(
        &home,
        "app",
        &[
            ("a.py", "def load():\n    pass\n"),
            ("b.py", "def load():\n    pass\n\n\ndef run():\n    load()\n"),
            ("tool.rb", "def load; end\n\nclass Tool\n  def build; end\nend\n"),
        ],
    );
    let _daemon = home.spawn_daemon(&[]);
    wait_for_callers(&home, &root, "run", &[]);

    let unknown = lctx(&home, &root, false, &["callgraph", "laod"]);
    assert_eq!(unknown.status.code(), Some(1), "{}", describe(&unknown));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("closest: load"), "{}", describe(&unknown));

    let several = lctx(&home, &root, false, &["callgraph", "load"]);
    let text = String::from_utf8_lossy(&several.stdout);
    assert!(text.starts_with("the symbol names 2 definitions; choose one with --file PATH"), "{text}");
    assert!(text.contains("a.py:1 load (fn)") && text.contains("b.py:1 load (fn)"), "{text}");
    let chosen = lctx(&home, &root, false, &["callgraph", "load", "--file", "b.py"]);
    assert!(String::from_utf8_lossy(&chosen.stdout).contains("b.py:6 run [exact]"), "{}", describe(&chosen));

    let ruby = lctx(&home, &root, false, &["callgraph", "load", "--file", "tool.rb"]);
    assert_eq!(ruby.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&ruby.stderr).contains("no queries for ruby files"), "{}", describe(&ruby));

    // A name only a file of a language the graph does not read defines is said to be there,
    // by the daemon and the in-process engine alike.
    for no_daemon in [false, true] {
        let uncovered = lctx(&home, &root, no_daemon, &["callgraph", "build"]);
        assert_eq!(uncovered.status.code(), Some(1), "{}", describe(&uncovered));
        assert!(
            String::from_utf8_lossy(&uncovered.stderr)
                .contains("`build` is defined in tool.rb (ruby), which the call graph does not cover"),
            "{}",
            describe(&uncovered)
        );
    }

    let outside = home.path().join("elsewhere.py");
    std::fs::write(&outside, "def load():\n    pass\n").unwrap();
    let refused = lctx(&home, &root, false, &["callgraph", "load", "--file", outside.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("outside the project"), "{}", describe(&refused));

    let deep = lctx(&home, &root, false, &["callgraph", "load", "--depth", "9"]);
    assert_eq!(deep.status.code(), Some(2), "{}", describe(&deep));
}

#[test]
fn a_restarted_daemon_loads_the_graph_instead_of_parsing_again() {
    let home = Home::new();
    let root = project(&home, "app", &[("pricing.py", TARGET), ("orders.py", CALLER)]);
    {
        let _daemon = home.spawn_daemon(&[]);
        wait_for_callers(&home, &root, "target", &["orders.py:5 first [exact]"]);
        let figure = graph_figure(&home, &root);
        assert!(figure.contains("ready files=2") && figure.contains("from=files parsed=2"), "{figure}");
        let stop = lctx(&home, &root, false, &["daemon", "stop"]);
        assert!(stop.status.success(), "{}", describe(&stop));
    }
    let _daemon = home.spawn_daemon(&[]);
    wait_for_callers(&home, &root, "target", &["orders.py:5 first [exact]"]);
    let figure = graph_figure(&home, &root);
    assert!(figure.contains("ready files=2") && figure.contains("from=snapshot parsed=0"), "{figure}");
}

#[test]
fn a_restarted_daemon_answers_with_what_changed_while_it_was_down() {
    // The snapshot is of the files as they were; one deleted and one added while no daemon
    // watched reach the graph from the index's walk, and the first answer after the restart
    // waits for them (or says it is catching up), never answers from the snapshot as if current.
    let home = Home::new();
    let root = project(&home, "app", &[("pricing.py", TARGET), ("orders.py", CALLER)]);
    {
        let _daemon = home.spawn_daemon(&[]);
        wait_for_callers(&home, &root, "target", &["orders.py:5 first [exact]"]);
        let stop = lctx(&home, &root, false, &["daemon", "stop"]);
        assert!(stop.status.success(), "{}", describe(&stop));
    }
    std::fs::remove_file(root.join("orders.py")).unwrap();
    write(&root, "billing.py", CALLER);
    let _daemon = home.spawn_daemon(&[]);
    // An answer either reflects the changes or says it is catching up; one soon does the former.
    let deadline = std::time::Instant::now() + FRESH;
    loop {
        let answer = callers(&home, &root, "target");
        let note = answer["note"].as_str().unwrap_or_default();
        if !note.contains("catching up") {
            assert_eq!(sites(&answer), ["billing.py:5 first [exact]"], "{answer}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "still catching up: {answer}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn callers_of_a_method_named_like_a_builtin_say_what_they_leave_out() {
    let home = Home::new();
    let lines = "class Lines:\n    def pop(self):\n        return None\n";
    let user = "from lines import Lines\n\n\ndef use(options):\n    Lines().pop()\n    options.pop(\"x\")\n";
    let dir = project(&home, "shop", &[("lines.py", lines), ("use.py", user)]);
    let _daemon = home.spawn_daemon(&[]);
    // The constructed `Lines()` is a Lines; `options` could be a dict as well as anything else.
    wait_for_callers(&home, &dir, "Lines.pop", &["use.py:5 use [exact]"]);
    let answer = callers(&home, &dir, "Lines.pop");
    let note = answer["note"].as_str().unwrap_or_default();
    assert!(note.contains("calls of `.pop()` on values of unknown type are not listed"), "{answer}");
}

#[test]
fn callers_count_the_calls_only_a_name_links_and_list_the_rest() {
    let home = Home::new();
    let transports = "class Mail:\n    def send(self, body):\n        return body\n\n\nclass Sms:\n    def send(self, body):\n        return body\n";
    let user =
        "from transports import Mail\n\n\ndef notify(channel):\n    Mail().send(\"hi\")\n    channel.send(\"hi\")\n";
    let dir = project(&home, "notify", &[("transports.py", transports), ("notify.py", user)]);
    let _daemon = home.spawn_daemon(&[]);
    // `Mail()` is a Mail; `channel` has no written type, so only the name links its call to
    // either `send`: it is counted, not listed.
    wait_for_callers(&home, &dir, "Mail.send", &["notify.py:5 notify [exact]"]);
    let answer = callers(&home, &dir, "Mail.send");
    let note = answer["note"].as_str().unwrap_or_default();
    assert!(
        note.contains("1 call of `send` on values of unknown type is not listed")
            && note.contains("the 2 definitions named `send`")
            && note.contains("search for `send(`"),
        "{answer}"
    );
    let sms = callers(&home, &dir, "Sms.send");
    assert_eq!(sms["edges"].as_array().map(Vec::len), Some(0), "{sms}");
    // What a change to `Sms.send` may reach still counts that call's file, apart from the callers.
    let out = lctx(&home, &dir, false, &["impact", "transports.py::Sms.send", "--json"]);
    assert!(out.status.success(), "{}", describe(&out));
    let impact: Value = serde_json::from_slice(&out.stdout).unwrap();
    let group = |name: &str| {
        let found = impact["groups"].as_array().and_then(|g| g.iter().find(|g| g["name"] == name)).cloned();
        found.map(|g| g["files"].clone()).unwrap_or_default()
    };
    assert_eq!(group("callers").as_array().map(Vec::len), Some(0), "{impact}");
    let files = group("ambiguous callers");
    assert_eq!(files[0]["file"], "notify.py", "{impact}");
    assert_eq!(files[0]["why"], "calls Sms::send [ambiguous]", "{impact}");
    let note = impact["note"].as_str().unwrap_or_default();
    assert!(note.contains("1 of the 1 calling files call what changed only through ambiguous calls"), "{impact}");
}

/// What every callers answer about a function says it leaves out.
const VALUE_CALLS: &str = "calls through a variable it was assigned to or a parameter it was passed as (`g = f; g()`, a callback) are not listed";

#[test]
fn callers_follow_the_module_aliases_of_a_tsconfig_as_it_changes() {
    let home = Home::new();
    let config = |dir: &str| {
        format!("{{\n  // aliases\n  \"compilerOptions\": {{ \"paths\": {{ \"@/*\": [\"./{dir}/*\"], }} }}\n}}\n")
    };
    let root = project(
        &home,
        "web",
        &[
            ("tsconfig.json", &config("src")),
            ("src/price.ts", "export function target(value: number): number {\n  return value * 2;\n}\n"),
            ("app/main.ts", "import { target } from '@/price';\nexport function first() { return target(1); }\n"),
        ],
    );
    let _daemon = home.spawn_daemon(&[]);
    wait_for_callers(&home, &root, "target", &["app/main.ts:2 first [exact]"]);

    // The alias now points where no such module is: the import is of something outside the
    // project, and the call is not listed as the project's.
    write(&root, "tsconfig.json", &config("lib"));
    wait_for_callers(&home, &root, "target", &[]);
    write(&root, "tsconfig.json", &config("src"));
    wait_for_callers(&home, &root, "target", &["app/main.ts:2 first [exact]"]);

    // A config that does not parse maps nothing, and every answer says which and where.
    let broken = config("src").replacen("\n}", "\n  \"strict\": true\n}", 1);
    write(&root, "tsconfig.json", &broken);
    let said = format!(
        "`tsconfig.json` (line 4: expected `,` or `}}`) is not applied: imports through its module mappings resolve \
         by name only; {VALUE_CALLS}"
    );
    let mut last = Value::Null;
    let reached = wait_until(FRESH, || {
        last = callers(&home, &root, "target");
        sites(&last).is_empty() && last["note"] == said
    });
    assert!(reached, "a broken tsconfig.json: {last}");
    write(&root, "tsconfig.json", &config("src"));
    wait_for_callers(&home, &root, "target", &["app/main.ts:2 first [exact]"]);
    assert_eq!(callers(&home, &root, "target")["note"], VALUE_CALLS, "the mended config is applied again");

    // The in-process engine reads the same configs and says the same.
    let daemon = lctx(&home, &root, false, &["callgraph", "target"]);
    let fallback = lctx(&home, &root, true, &["callgraph", "target"]);
    assert!(fallback.status.success(), "{}", describe(&fallback));
    assert_eq!(String::from_utf8_lossy(&fallback.stdout), String::from_utf8_lossy(&daemon.stdout));
}

#[test]
fn callers_of_an_interface_method_list_the_calls_of_its_implementations_and_say_so() {
    let home = Home::new();
    let store = "export interface Backend {\n  get(key: string): string;\n}\n\n\
                 export class Memory implements Backend {\n  get(key: string): string {\n    return key;\n  }\n}\n";
    let user = "import { Memory } from './store';\n\nexport function read(): string {\n  const memory = new Memory();\n  return memory.get('k');\n}\n";
    let root = project(&home, "web", &[("src/store.ts", store), ("src/use.ts", user)]);
    let _daemon = home.spawn_daemon(&[]);
    wait_for_callers(&home, &root, "Memory.get", &["src/use.ts:5 read [exact]"]);
    let out = lctx(&home, &root, false, &["callgraph", "Backend.get"]);
    assert!(out.status.success(), "{}", describe(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("src/use.ts:5 read -> Memory::get [exact]"), "{text}");
    assert!(
        text.contains("or that override or implement it, are listed too, each with its callee: `Memory::get`"),
        "{text}"
    );
}

#[test]
fn a_function_a_stub_declares_has_the_calls_and_the_tests_of_the_stubbed_name() {
    let home = Home::new();
    // The package re-exports `compute` from a private module and types it in `__init__.pyi`.
    let dir = project(
        &home,
        "stubbed",
        &[
            ("pkg/__init__.py", "from ._impl import compute\n"),
            ("pkg/__init__.pyi", "def compute(x: int) -> int: ...\n"),
            ("pkg/_impl.py", "def compute(x):\n    return x * 2\n"),
            ("tests/test_impl.py", "from pkg import compute\n\n\ndef test_compute():\n    assert compute(2) == 4\n"),
        ],
    );
    let _daemon = home.spawn_daemon(&[]);
    wait_for_callers(&home, &dir, "compute", &["tests/test_impl.py:5 test_compute [exact]"]);
    let answer = callers(&home, &dir, "compute");
    assert_eq!(answer["targets"][0]["file"], "pkg/_impl.py", "{answer}");
    // Asked about the stub's declaration, the implementation answers, daemon and fallback alike.
    let args = ["callgraph", "compute", "--file", "pkg/__init__.pyi"];
    let daemon = lctx(&home, &dir, false, &args);
    let fallback = lctx(&home, &dir, true, &args);
    assert!(fallback.status.success(), "{}", describe(&fallback));
    assert_eq!(String::from_utf8_lossy(&fallback.stdout), String::from_utf8_lossy(&daemon.stdout));
    assert!(String::from_utf8_lossy(&daemon.stdout).contains("compute (pkg/_impl.py:1)"), "{}", describe(&daemon));

    let out = lctx(&home, &dir, false, &["impact", "pkg/_impl.py::compute", "--json"]);
    assert!(out.status.success(), "{}", describe(&out));
    let impact: Value = serde_json::from_slice(&out.stdout).unwrap();
    let tests = impact["groups"].as_array().and_then(|g| g.iter().find(|g| g["name"] == "tests to run")).cloned();
    let files = tests.map(|g| g["files"].clone()).unwrap_or_default();
    assert_eq!(files[0]["file"], "tests/test_impl.py", "{impact}");
}

#[test]
fn a_callees_walk_says_where_an_ambiguous_call_stops_it() {
    let home = Home::new();
    let app = "class A:\n    def run(self):\n        return helper()\n\n\nclass B:\n    def run(self):\n        return 2\n\n\n\
               def helper():\n    return 1\n\n\ndef go(x):\n    return x.run()\n";
    let root = project(&home, "walk", &[("app.py", app)]);
    let out = lctx(&home, &root, true, &["callgraph", "go", "-a", "callees", "-d", "2"]);
    assert!(out.status.success(), "{}", describe(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("app.py:16 go -> A::run (app.py:2) [ambiguous"), "{text}");
    assert!(!text.contains("-> helper"), "an ambiguous callee is not followed: {text}");
    assert!(
        text.contains("note: 1 ambiguous call is not followed to the next depth: which candidate runs is not known"),
        "{text}"
    );
    // One level asked: nothing is left unfollowed.
    let one = lctx(&home, &root, true, &["callgraph", "go", "-a", "callees"]);
    assert!(!String::from_utf8_lossy(&one.stdout).contains("not followed"), "{}", describe(&one));
}

/// QA: `git rm` of a module five others import, and a test tests, answered "dependents: none /
/// tests to run: none": the deleted file is in the graph no more. What its imports name finds its
/// importers, and their tests.
#[test]
fn the_impact_of_a_deleted_module_names_its_importers_and_their_tests() {
    let home = Home::new();
    let root = project(
        &home,
        "app",
        &[
            ("shop/__init__.py", ""),
            ("shop/signals.py", "def fire():\n    return 1\n"),
            ("shop/orders.py", "from shop.signals import fire\n\n\ndef order():\n    return fire()\n"),
            ("tests/test_orders.py", "from shop.orders import order\n\n\ndef test_order():\n    assert order()\n"),
        ],
    );
    git(&root, &["add", "."]);
    git(&root, &["commit", "-qm", "one"]);
    git(&root, &["rm", "-q", "shop/signals.py"]);
    let out = lctx(&home, &root, true, &["impact", "--action", "diff"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(text.contains("shop/orders.py") && text.contains("imports shop/signals.py, deleted"), "{text}");
    assert!(text.contains("tests/test_orders.py"), "the importer's test is to run: {text}");
}
