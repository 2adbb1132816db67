//! ctx_graph and ctx_impact end to end, on a real git repository: a file's importers, tests and
//! co-changed files; the impact of an edited function (its callers' files and the tests to
//! run); the in-process fallback answering alike; and bad input answered with what to do.

use std::path::Path;
use std::time::Duration;

use lean_ctx_tests::{Home, describe, git, git_project as project, wait_until};
use serde_json::Value;

const READY: Duration = Duration::from_secs(10);

const PRICING: &str = "def apply_discount(total):\n    return round(total * 0.9, 2)\n\n\ndef unused():\n    return 0\n";
const SERVICE: &str =
    "from shop.pricing import apply_discount\n\n\ndef checkout(total):\n    return apply_discount(total)\n";
const APP: &str = "from shop.service import checkout\n\n\ndef main():\n    return checkout(10.0)\n";
const TEST_PRICING: &str =
    "from shop.pricing import apply_discount\n\n\ndef test_discount():\n    assert apply_discount(10.0) == 9.0\n";
const TEST_SERVICE: &str =
    "from shop.service import checkout\n\n\ndef test_checkout():\n    assert checkout(10.0) == 9.0\n";

fn lctx(home: &Home, dir: &Path, no_daemon: bool, args: &[&str]) -> std::process::Output {
    home.lctx_in(dir, no_daemon, args)
}

fn json(home: &Home, dir: &Path, args: &[&str]) -> Value {
    let out = lctx(home, dir, false, &[args, &["--json"]].concat());
    assert!(out.status.success(), "{}", describe(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The files of the group named `name`, each as `file (why)`.
fn group(answer: &Value, name: &str) -> Vec<String> {
    let groups = answer["groups"].as_array().cloned().unwrap_or_default();
    let found = groups.iter().find(|g| g["name"] == name).unwrap_or_else(|| panic!("no group {name}: {answer}"));
    found["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{} ({})", f["file"].as_str().unwrap(), f["why"].as_str().unwrap()))
        .collect()
}

fn files(answer: &Value, name: &str) -> Vec<String> {
    group(answer, name).into_iter().map(|f| f.split(" (").next().unwrap().to_string()).collect()
}

/// A shop whose pricing module changed together with its test twice, and once with the service.
fn shop(home: &Home) -> std::path::PathBuf {
    let root = project(
        home,
        "shop",
        &[
            ("shop/__init__.py", ""),
            ("shop/pricing.py", PRICING),
            ("shop/service.py", SERVICE),
            ("app.py", APP),
            ("tests/test_pricing.py", TEST_PRICING),
            ("tests/test_service.py", TEST_SERVICE),
        ],
    );
    git(&root, &["add", "."]);
    git(&root, &["commit", "-qm", "shop"]);
    for (n, also) in [(1, "tests/test_pricing.py"), (2, "tests/test_pricing.py"), (3, "shop/service.py")] {
        for file in ["shop/pricing.py", also] {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            std::fs::write(root.join(file), format!("{text}# revision {n}\n")).unwrap();
        }
        git(&root, &["commit", "-qam", &format!("revision {n}")]);
    }
    root
}

/// Waits until the graph answers completely for `root`.
fn wait_ready(home: &Home, root: &Path) {
    let ready = wait_until(READY, || json(home, root, &["graph", "app.py"])["complete"] == true);
    assert!(ready, "the graph of {} was not ready within {READY:?}", root.display());
}

#[test]
fn related_lists_importers_tests_and_co_changed_files() {
    let home = Home::new();
    let root = shop(&home);
    let _daemon = home.spawn_daemon(&[]);
    wait_ready(&home, &root);

    let related = json(&home, &root, &["graph", "shop/pricing.py"]);
    assert_eq!(files(&related, "importers"), ["shop/service.py", "tests/test_pricing.py"], "{related}");
    assert_eq!(group(&related, "tests"), ["tests/test_pricing.py (name+import)"]);
    assert_eq!(
        group(&related, "co-changed"),
        ["tests/test_pricing.py (3 commits)", "shop/service.py (2 commits)", "app.py (1 commit)"]
            .into_iter()
            .chain(["shop/__init__.py (1 commit)", "tests/test_service.py (1 commit)"])
            .collect::<Vec<_>>(),
        "{related}"
    );

    let near = json(&home, &root, &["graph", "app.py", "--action", "neighbors", "--depth", "2"]);
    assert_eq!(
        group(&near, "neighbors"),
        ["shop/service.py (imports)", "shop/pricing.py (imports)", "tests/test_service.py (imported by)"]
    );
    let path = json(&home, &root, &["graph", "app.py", "--action", "path", "--to", "tests/test_pricing.py"]);
    let steps: Vec<String> = path["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{} {} {}", s["from"], if s["imports"] == true { "->" } else { "<-" }, s["to"]))
        .collect();
    assert_eq!(steps.len(), 3, "{path}");
    let same = lctx(&home, &root, false, &["graph", "app.py", "--action", "path", "--to", "./app.py"]);
    assert_eq!(String::from_utf8_lossy(&same.stdout), "note: `path` and `to` are the same file: app.py\n");

    let symbol = lctx(&home, &root, false, &["graph", "shop/pricing.py::apply_discount", "--action", "symbol"]);
    let text = String::from_utf8_lossy(&symbol.stdout);
    assert!(
        text.starts_with("apply_discount (shop/pricing.py:1) (fn)\nuses of apply_discount (2) in 2 files:"),
        "{text}"
    );
    assert!(text.contains(" shop/service.py:\n  5 call in checkout [exact]"), "{text}");

    // The in-process engine (no daemon) answers alike, co-change included.
    let daemon = lctx(&home, &root, false, &["graph", "shop/pricing.py"]);
    let fallback = lctx(&home, &root, true, &["graph", "shop/pricing.py"]);
    assert!(fallback.status.success(), "{}", describe(&fallback));
    assert_eq!(String::from_utf8_lossy(&fallback.stdout), String::from_utf8_lossy(&daemon.stdout));
}

#[test]
fn impact_of_an_edited_function_names_it_its_callers_and_the_tests_to_run() {
    let home = Home::new();
    let root = shop(&home);
    let _daemon = home.spawn_daemon(&[]);
    wait_ready(&home, &root);

    let pricing = std::fs::read_to_string(root.join("shop/pricing.py")).unwrap();
    std::fs::write(root.join("shop/pricing.py"), pricing.replace("0.9", "0.8")).unwrap();
    let changed = |answer: &Value| -> Vec<String> {
        answer["changed_symbols"].as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap().to_string()).collect()
    };
    let mut diff = Value::Null;
    let seen = wait_until(READY, || {
        diff = json(&home, &root, &["impact", "--action", "diff"]);
        changed(&diff) == ["apply_discount"]
    });
    assert!(seen, "the edited function is not named: {diff}");
    assert_eq!(diff["changed"][0]["file"], "shop/pricing.py");
    assert_eq!(diff["changed"][0]["status"], "modified");
    assert_eq!(
        group(&diff, "callers"),
        [
            "shop/service.py (calls apply_discount [exact])",
            "tests/test_pricing.py (calls apply_discount [exact])",
            "app.py (calls checkout [exact])",
            "tests/test_service.py (calls checkout [exact])",
        ]
    );
    assert_eq!(files(&diff, "tests to run"), ["tests/test_pricing.py", "tests/test_service.py"]);

    // A committed range: the same change, once committed, against the commit before it.
    git(&root, &["commit", "-qam", "deeper discount"]);
    let range = json(&home, &root, &["impact", "--action", "diff", "--base", "HEAD~1..HEAD"]);
    assert_eq!(changed(&range), ["apply_discount"], "{range}");
    // The heading says what was compared: a ref with the working tree, a range as written.
    let heading = |base: &str| {
        let out = lctx(&home, &root, false, &["impact", "--action", "diff", "--base", base]);
        assert!(out.status.success(), "{}", describe(&out));
        String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or_default().to_string()
    };
    assert_eq!(heading("HEAD~1"), "changes in the working tree against HEAD~1, depth 2:");
    assert_eq!(heading("HEAD~1..HEAD"), "changes in HEAD~1..HEAD, depth 2:");

    let analyze = json(&home, &root, &["impact", "shop/service.py", "--depth", "1"]);
    assert_eq!(files(&analyze, "dependents"), ["app.py", "tests/test_service.py"]);
    assert_eq!(files(&analyze, "tests to run"), ["tests/test_service.py"]);

    let daemon = lctx(&home, &root, false, &["impact", "shop/pricing.py::apply_discount"]);
    let fallback = lctx(&home, &root, true, &["impact", "shop/pricing.py::apply_discount"]);
    assert!(fallback.status.success(), "{}", describe(&fallback));
    assert_eq!(String::from_utf8_lossy(&fallback.stdout), String::from_utf8_lossy(&daemon.stdout));
}

/// A trace looks as far as it may unless told otherwise, and an answer without a path says so
/// plainly, with how to look further, rather than heading an empty path.
#[test]
fn a_trace_finds_a_path_of_several_calls_by_default_and_says_plainly_when_there_is_none() {
    let home = Home::new();
    let root = shop(&home);
    let _daemon = home.spawn_daemon(&[]);
    wait_ready(&home, &root);
    let trace = |args: &[&str]| {
        let out = lctx(&home, &root, false, &[&["callgraph", "-a", "trace"], args].concat());
        assert!(out.status.success(), "{}", describe(&out));
        String::from_utf8(out.stdout).unwrap()
    };

    // main -> checkout -> apply_discount: two calls, found without a depth.
    let found = trace(&["--from", "main", "--to", "apply_discount"]);
    assert_eq!(
        found,
        "call path main (app.py:4) -> apply_discount (shop/pricing.py:1):\n  1. app.py:5 main -> checkout [exact]\n  \
         2. shop/service.py:5 checkout -> apply_discount [exact]\n"
    );
    let short = trace(&["--from", "main", "--to", "apply_discount", "-d", "1"]);
    assert_eq!(
        short,
        "no call path from main (app.py:4) to apply_discount (shop/pricing.py:1) within 1 call\na longer one may \
         exist: ask with -d 5\n"
    );
    let none = trace(&["--from", "apply_discount", "--to", "main"]);
    assert!(
        none.starts_with(
            "no call path from apply_discount (shop/pricing.py:1) to main (app.py:4) within 5 calls\n5 calls is the \
             longest path a trace looks for"
        ),
        "{none}"
    );
}

/// QA on npm semver: `--to compare` named two definitions; the trace reached the function
/// `compare` but its heading named the method `SemVer::compare`, a path it never reached.
#[test]
fn a_trace_to_a_name_of_several_definitions_heads_the_one_it_reaches_and_says_so() {
    let home = Home::new();
    let root = project(
        &home,
        "semver",
        &[
            (
                "functions/compare.js",
                "const SemVer = require('../classes/semver')\nconst compare = (a, b) => new SemVer(a).compare(new SemVer(b))\nmodule.exports = compare\n",
            ),
            (
                "functions/eq.js",
                "const compare = require('./compare')\nconst eq = (a, b) => compare(a, b) === 0\nmodule.exports = eq\n",
            ),
            ("functions/cmp.js", "const eq = require('./eq')\nconst cmp = (a, b) => eq(a, b)\nmodule.exports = cmp\n"),
            (
                "classes/semver.js",
                "class SemVer {\n  constructor(v) { this.v = v }\n  compare(other) { return 0 }\n}\nmodule.exports = SemVer\n",
            ),
            ("app.py", "def main():\n    pass\n"),
        ],
    );
    let _daemon = home.spawn_daemon(&[]);
    wait_ready(&home, &root);
    let out = lctx(&home, &root, false, &["callgraph", "-a", "trace", "--from", "cmp", "--to", "compare"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "call path cmp (functions/cmp.js:2) -> compare (functions/compare.js:2):\n  1. functions/cmp.js:2 cmp -> eq \
         [exact]\n  2. functions/eq.js:2 eq -> compare [exact]\nnote: `compare` names 2 definitions; the path found \
         reaches the one headed, not 1 other (a method is named as `Type::name`)\n"
    );
}

/// QA: a commit changing only a Read-denied file gave "changed files: none" and then listed the
/// callers of what it changed in it, and its importers: what it defines, and that it changed.
#[test]
fn the_impact_of_a_diff_walks_from_no_withheld_file() {
    let home = Home::new();
    let ops = "def launch(code):\n    return code\n";
    let app = "from secret.ops import launch\n\n\ndef main():\n    return launch(1)\n";
    let root = project(
        &home,
        "ops",
        &[
            ("secret/__init__.py", ""),
            ("secret/ops.py", ops),
            ("src/app.py", app),
            ("app.py", "def main():\n    pass\n"),
            (".claude/settings.json", r#"{"permissions": {"deny": ["Read(./secret/**)"]}}"#),
        ],
    );
    git(&root, &["add", "."]);
    git(&root, &["commit", "-qm", "ops"]);
    std::fs::write(root.join("secret/ops.py"), ops.replace("return code", "return code + 1")).unwrap();
    git(&root, &["commit", "-qam", "launch changed"]);
    let _daemon = home.spawn_daemon(&[]);
    wait_ready(&home, &root);
    let answer = json(&home, &root, &["impact", "-a", "diff", "--base", "HEAD~1..HEAD"]);
    assert_eq!(answer["changed"], serde_json::json!([]), "{answer}");
    assert_eq!(answer["changed_symbols"], serde_json::json!([]), "{answer}");
    let listed = answer["groups"].as_array().unwrap().iter().flat_map(|g| g["files"].as_array().unwrap().clone());
    assert_eq!(listed.count(), 0, "{answer}");
    assert!(answer["note"].as_str().unwrap_or_default().contains("1 file withheld"), "{answer}");
}

/// What the impact of a function says its callers leave out.
const VALUE_CALLS: &str = "calls through a variable it was assigned to or a parameter it was passed as (`g = f; g()`, a callback) are not listed; the impact of its file lists every importer";

/// QA: `const g = f; g(1)` is a call of `f` the graph does not follow, and the impact of `a.js::f`
/// answered "callers: none, tests to run: none" without a word, while its file's impact listed
/// the caller and the test.
#[test]
fn the_impact_of_a_function_says_calls_through_another_name_are_not_followed() {
    let home = Home::new();
    let root = project(
        &home,
        "mini",
        &[
            ("a.js", "const f = (x) => x + 1\nmodule.exports = f\n"),
            ("b.js", "const f = require('./a')\nconst g = f\nmodule.exports = () => g(1)\n"),
            ("b.test.js", "const b = require('./b')\nrequire('assert').ok(b() === 2)\n"),
            ("app.py", "def main():\n    pass\n"),
        ],
    );
    let _daemon = home.spawn_daemon(&[]);
    wait_ready(&home, &root);
    let answer = json(&home, &root, &["impact", "a.js::f"]);
    assert_eq!(group(&answer, "callers"), Vec::<String>::new(), "{answer}");
    assert_eq!(answer["note"], VALUE_CALLS, "{answer}");
    let file = json(&home, &root, &["impact", "a.js"]);
    assert_eq!(files(&file, "tests to run"), ["b.test.js"], "{file}");
}

/// QA: the impact of a TypeScript interface named in four files' types, and of a Rust trait used
/// in 84 places, read "callers: none, tests to run: none": a type is used, not called. The files
/// naming it in a type are listed, and their tests are run.
#[test]
fn the_impact_of_a_type_lists_the_files_naming_it_and_their_tests() {
    let home = Home::new();
    let root = project(
        &home,
        "types",
        &[
            ("src/scope.ts", "export interface Scope {\n  depth: number\n}\n"),
            (
                "src/use.ts",
                "import { Scope } from './scope'\nexport function deeper(s: Scope): Scope {\n  return { depth: s.depth + 1 }\n}\n",
            ),
            (
                "src/use.test.ts",
                "import { deeper } from './use'\nif (deeper({ depth: 1 }).depth !== 2) throw new Error('x')\n",
            ),
            ("app.py", "def main():\n    pass\n"),
        ],
    );
    let _daemon = home.spawn_daemon(&[]);
    wait_ready(&home, &root);
    let answer = json(&home, &root, &["impact", "src/scope.ts::Scope"]);
    assert_eq!(files(&answer, "type uses"), ["src/use.ts"], "{answer}");
    assert_eq!(files(&answer, "tests to run"), ["src/use.test.ts"], "{answer}");
}

/// semver's `matches_exact` is called by tests three calls away: at the default depth the answer
/// said "tests to run: none", and an agent took that as "no test covers this".
#[test]
fn impact_says_which_depth_reaches_tests_when_none_is_reached_within_its_own() {
    let home = Home::new();
    let chain = [
        ("shop/__init__.py", String::new()),
        ("shop/rates.py", "def vat(total):\n    return total * 0.2\n".to_string()),
        ("shop/tax.py", "from shop.rates import vat\n\n\ndef tax(total):\n    return vat(total)\n".to_string()),
        (
            "shop/invoice.py",
            "from shop.tax import tax\n\n\ndef invoice(total):\n    return total + tax(total)\n".to_string(),
        ),
        (
            "shop/order.py",
            "from shop.invoice import invoice\n\n\ndef order(total):\n    return invoice(total)\n".to_string(),
        ),
        (
            "tests/test_order.py",
            "from shop.order import order\n\n\ndef test_order():\n    assert order(10.0) == 12.0\n".to_string(),
        ),
        ("app.py", "from shop.order import order\n\n\ndef main():\n    return order(1.0)\n".to_string()),
    ];
    let sources: Vec<(&str, &str)> = chain.iter().map(|(path, text)| (*path, text.as_str())).collect();
    let root = project(&home, "chain", &sources);
    let _daemon = home.spawn_daemon(&[]);
    wait_ready(&home, &root);

    let shallow = json(&home, &root, &["impact", "shop/rates.py::vat"]);
    assert_eq!(files(&shallow, "tests to run"), Vec::<String>::new());
    assert_eq!(
        shallow["note"],
        format!(
            "no test is reached within depth 2; depth 3 reaches 1 test file (tests/test_order.py): ask with depth \
             3\n{VALUE_CALLS}"
        )
    );
    let deep = json(&home, &root, &["impact", "shop/rates.py::vat", "-d", "3"]);
    assert_eq!(files(&deep, "tests to run"), ["tests/test_order.py"]);
    assert_eq!(deep["note"], VALUE_CALLS, "the tests are listed: only what callers never list is said");
}

#[test]
fn bad_input_gets_an_answer_that_says_what_to_do() {
    let home = Home::new();
    let root = shop(&home);
    let _daemon = home.spawn_daemon(&[]);
    wait_ready(&home, &root);

    let typo = lctx(&home, &root, false, &["graph", "shop/pricng.py"]);
    assert_eq!(typo.status.code(), Some(1), "{}", describe(&typo));
    let said = String::from_utf8_lossy(&typo.stderr);
    assert!(said.contains("closest files in the project: shop/pricing.py"), "{said}");

    let outside = home.path().join("elsewhere.py");
    std::fs::write(&outside, "def f():\n    pass\n").unwrap();
    let refused = lctx(&home, &root, false, &["impact", outside.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("outside the project"), "{}", describe(&refused));

    let bad_ref = lctx(&home, &root, false, &["impact", "--action", "diff", "--base", "nosuch..HEAD"]);
    assert_eq!(bad_ref.status.code(), Some(1));
    let said = String::from_utf8_lossy(&bad_ref.stderr);
    assert!(said.contains("unknown git ref `nosuch` in base `nosuch..HEAD`"), "{said}");

    let option = lctx(&home, &root, false, &["impact", "--action", "diff", "--base=--output=x"]);
    assert_eq!(option.status.code(), Some(1), "{}", describe(&option));
    assert!(!root.join("x").exists(), "a base is never read as an option of git");

    let no_symbol = lctx(&home, &root, false, &["graph", "app.py", "--action", "symbol"]);
    assert_eq!(no_symbol.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&no_symbol.stderr).contains("app.py::name"), "{}", describe(&no_symbol));

    let deep = lctx(&home, &root, false, &["graph", "app.py", "--action", "neighbors", "--depth", "4"]);
    assert_eq!(deep.status.code(), Some(2), "a bad --depth is a usage error: {}", describe(&deep));
    assert!(String::from_utf8_lossy(&deep.stderr).contains("use 1 to 3"), "{}", describe(&deep));

    // Not a git repository: related says co-change is unavailable; diff says why it cannot run.
    let plain = home.path().join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    std::fs::write(plain.join("a.py"), "def a():\n    pass\n").unwrap();
    let related = lctx(&home, &plain, false, &["graph", "a.py"]);
    assert!(related.status.success(), "{}", describe(&related));
    let text = String::from_utf8_lossy(&related.stdout);
    assert!(text.contains("note: co-change unavailable: the project is not a git repository"), "{text}");
    let diff = lctx(&home, &plain, false, &["impact", "--action", "diff"]);
    assert_eq!(diff.status.code(), Some(1));
    // What to do instead, in words that fit the CLI as well as the tool.
    let why = String::from_utf8_lossy(&diff.stderr);
    assert!(
        why.contains("not a git repository") && why.contains("analyze a file or symbol instead"),
        "{}",
        describe(&diff)
    );
    assert!(!why.contains("action="), "{why}");
}

#[test]
fn files_the_read_rules_deny_are_withheld_and_counted() {
    let home = Home::new();
    let root = shop(&home);
    let _daemon = home.spawn_daemon(&[]);
    wait_ready(&home, &root);
    // Written once the graph is ready: `wait_ready` asks about app.py, which the rules deny.
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    let deny = r#"{"permissions": {"deny": ["Read(./tests/**)", "Read(./app.py)"]}}"#;
    std::fs::write(root.join(".claude/settings.json"), deny).unwrap();

    let related = lctx(&home, &root, false, &["graph", "shop/pricing.py"]);
    let text = String::from_utf8_lossy(&related.stdout);
    assert!(!text.contains("tests/test_pricing.py"), "{text}");
    assert!(text.contains("importers (1):\n  shop/service.py\n  [1 withheld by Read rules]"), "{text}");
    // One importer, one test and three co-changed files, two of them the same: three files, each
    // counted once as search counts them (each group still counts what it left out).
    assert!(text.contains("note: 3 files withheld by the user's Read rules: deny Read(./app.py) in "), "{text}");
    assert!(text.contains("Read(./tests/**)"), "{text}");

    let symbol = lctx(&home, &root, false, &["graph", "shop/pricing.py::apply_discount", "--action", "symbol"]);
    let text = String::from_utf8_lossy(&symbol.stdout);
    assert!(text.contains("1 use withheld by the user's Read rules: deny Read(./tests/**) in "), "{text}");

    let impact = json(&home, &root, &["impact", "shop/pricing.py::apply_discount"]);
    assert_eq!(files(&impact, "callers"), ["shop/service.py"], "{impact}");
    assert!(files(&impact, "tests to run").is_empty(), "{impact}");
    let groups = impact["groups"].as_array().unwrap();
    assert!(groups.iter().any(|g| g["name"] == "tests to run" && g["withheld"] == 2), "{impact}");
    // Every rule that kept a file out is named, each once.
    let note = impact["note"].as_str().unwrap();
    assert!(note.starts_with("3 files withheld by the user's Read rules: deny Read(./app.py) in "), "{note}");
    assert_eq!(note.matches("Read(./tests/**)").count(), 1, "{note}");
}

/// A module half the project reaches: the lists are cut with how many more, no line runs on
/// (a test of forty modules names a few of them), and the note says how to ask for less.
#[test]
fn the_impact_of_a_widely_used_file_is_cut_to_a_bounded_answer_saying_so() {
    let home = Home::new();
    let modules: Vec<(String, String)> = (0..40)
        .map(|i| (format!("pkg/m{i}.py"), format!("from core import base\n\n\ndef f{i}():\n    return base()\n")))
        .collect();
    let test_all: String = (0..40).map(|i| format!("from pkg.m{i} import f{i}\n")).collect::<String>()
        + "\n\ndef test_all():\n    assert f0() == 1\n";
    let mut files: Vec<(&str, &str)> = modules.iter().map(|(f, t)| (f.as_str(), t.as_str())).collect();
    files.extend([
        ("core.py", "def base():\n    return 1\n"),
        ("pkg/__init__.py", ""),
        ("app.py", "from pkg.m0 import f0\n\n\ndef main():\n    return f0()\n"),
        ("tests/test_all.py", test_all.as_str()),
    ]);
    let root = project(&home, "wide", &files);
    let _daemon = home.spawn_daemon(&[]);
    wait_ready(&home, &root);
    let out = lctx(&home, &root, false, &["impact", "core.py"]);
    assert!(out.status.success(), "{}", describe(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().all(|line| line.chars().count() <= 300), "{text}");
    assert!(text.contains("dependents (42):") && text.contains("  [12 more]"), "{text}");
    let test_line = text.lines().find(|l| l.starts_with("  tests/test_all.py (")).unwrap_or_else(|| panic!("{text}"));
    assert!(test_line.contains("tests pkg/m0.py") && test_line.contains("more)"), "{test_line}");
    assert!(
        text.contains(
            "note: the lists are cut (12 more dependents not listed): ask with a lower depth, or about a symbol \
             (`file::symbol`) rather than a whole file, for a smaller answer"
        ),
        "{text}"
    );
}
