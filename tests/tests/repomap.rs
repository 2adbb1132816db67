//! The repo map end to end: `lctx map` puts the most referenced type first, never exceeds its
//! token budget, moves toward what a session's files use once the session has read one, answers
//! the same through the fallback, and says what to do with bad input.

use std::path::Path;
use std::time::Duration;

use lean_ctx_tests::{Home, bin, describe, git_project as project, wait_until};
use serde_json::Value;

const STORE: &str =
    "class Store:\n    def get(self, key):\n        return key\n\n    def put(self, key, value):\n        pass\n";
const ORDERS: &str = "from store import Store\n\n\ndef place(store: Store):\n    store.put(\"o\", 1)\n\n\ndef open_store():\n    return Store()\n";
const BILLING: &str = "from store import Store\n\n\ndef charge(store: Store):\n    return store.get(\"b\")\n";
const REPORT: &str = "from store import Store\n\n\ndef summary(store: Store):\n    return Store()\n";
const MAILER: &str = "class Mailer:\n    def send(self, to):\n        pass\n";
const NOTIFY: &str = "from mailer import Mailer\n\n\ndef notify(to):\n    mailer = Mailer()\n    mailer.send(to)\n";

fn files() -> Vec<(&'static str, &'static str)> {
    vec![
        ("store.py", STORE),
        ("orders.py", ORDERS),
        ("billing.py", BILLING),
        ("report.py", REPORT),
        ("mailer.py", MAILER),
        ("notify.py", NOTIFY),
    ]
}

fn lctx(home: &Home, dir: &Path, env: &[(&str, &str)], args: &[&str]) -> std::process::Output {
    let mut cmd = home.command(bin("lctx"));
    cmd.current_dir(dir).args(args);
    for (key, value) in env {
        cmd.env(key, value);
    }
    cmd.output().unwrap()
}

fn map_json(home: &Home, dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Value {
    let out = lctx(home, dir, env, &[&["map", "--json"], args].concat());
    assert!(out.status.success(), "{}", describe(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The names of the definitions shown, in rank order.
fn ranked(answer: &Value) -> Vec<String> {
    let mut defs: Vec<(f64, String)> = Vec::new();
    for file in answer["files"].as_array().unwrap() {
        for def in file["definitions"].as_array().unwrap() {
            defs.push((def["rank"].as_f64().unwrap(), def["name"].as_str().unwrap().to_string()));
        }
    }
    defs.sort_by(|a, b| b.0.total_cmp(&a.0));
    defs.into_iter().map(|(_, name)| name).collect()
}

/// Waits for the daemon's graph of the project to be complete.
fn wait_ready(home: &Home, dir: &Path) -> Value {
    let mut last = Value::Null;
    let ready = wait_until(Duration::from_secs(10), || {
        last = map_json(home, dir, &[], &[]);
        last["complete"] == true && last["total_definitions"].as_u64() > Some(0)
    });
    assert!(ready, "the graph never became ready: {last}");
    last
}

#[test]
fn the_most_referenced_type_comes_first_and_every_budget_holds() {
    let home = Home::new();
    let root = project(&home, "shop", &files());
    let _daemon = home.spawn_daemon(&[]);
    let answer = wait_ready(&home, &root);
    assert_eq!(answer["files"][0]["path"], "store.py", "{answer}");
    assert_eq!(ranked(&answer)[0], "Store", "{answer}");
    assert_eq!(answer["personalised_by"], serde_json::json!([]));
    assert_eq!(answer["unpersonalised"], "no session");

    let text = String::from_utf8_lossy(&lctx(&home, &root, &[], &["map"]).stdout).into_owned();
    assert!(text.starts_with("repo map: "), "{text}");
    assert!(text.contains("store.py:\n1-6 class Store\n"), "{text}");
    assert!(text.ends_with("definitions shown]\n"), "{text}");

    let bpe = bpe_openai::o200k_base();
    let mut shown = Vec::new();
    for budget in [64u32, 90, 120, 200, 1024] {
        let out = lctx(&home, &root, &[], &["map", "--max-tokens", &budget.to_string()]);
        assert!(out.status.success(), "{}", describe(&out));
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let tokens = bpe.count(&text);
        assert!(tokens <= budget as usize, "{budget}: {tokens} tokens\n{text}");
        assert_eq!(text.starts_with("repo map: "), budget > 64, "{budget}: {text}");
        let last = text.lines().last().unwrap_or_default();
        assert!(last.starts_with('[') && last.ends_with(']'), "{budget}: the closing line is missing\n{text}");
        let answer = map_json(&home, &root, &[], &["--max-tokens", &budget.to_string()]);
        assert!(answer["tokens"].as_u64().unwrap() <= budget as u64, "{answer}");
        let count = ranked(&answer).len();
        if count < answer["total_definitions"].as_u64().unwrap() as usize {
            assert!(last.contains("left out") && last.contains("--max-tokens"), "{budget}: {last}");
            assert!(last.contains("lctx read FILE -m signatures"), "{last}");
        }
        shown.push(count);
    }
    // 64 tokens leave no room for the header and a definition: the header goes. From 90 on it
    // stays, and a larger budget shows as much or more.
    assert!(shown[0] > 0, "{shown:?}");
    assert!(shown[1..].windows(2).all(|w| w[0] <= w[1]), "{shown:?}");
    assert!(shown[1] < *shown.last().unwrap(), "{shown:?}");
}

#[test]
fn a_session_that_read_a_file_gets_a_map_leaning_toward_what_that_file_uses() {
    let home = Home::new();
    let root = project(&home, "shop", &files());
    let _daemon = home.spawn_daemon(&[]);
    let plain = ranked(&wait_ready(&home, &root));
    let position = |names: &[String], name: &str| names.iter().position(|n| n == name).unwrap();
    assert!(position(&plain, "Store") < position(&plain, "Mailer"), "{plain:?}");

    let session = [("LEAN_CTX_SESSION", "s-map")];
    let read = lctx(&home, &root, &session, &["read", "notify.py"]);
    assert!(read.status.success(), "{}", describe(&read));
    let answer = map_json(&home, &root, &session, &[]);
    assert_eq!(answer["personalised_by"], serde_json::json!(["notify.py"]), "{answer}");
    let personal = ranked(&answer);
    assert_eq!(personal[0], "Mailer", "{personal:?}");
    assert!(position(&personal, "Mailer::send") < position(&plain, "Mailer::send"), "{plain:?} → {personal:?}");
    // The touched file's own function is still listed, after what it uses.
    assert!(position(&personal, "notify") > position(&personal, "Mailer::send"), "{personal:?}");
    let text = String::from_utf8_lossy(&lctx(&home, &root, &session, &["map"]).stdout).into_owned();
    assert!(text.lines().next().unwrap().ends_with("personalised by the files this session touched: notify.py"));

    // Another session has touched nothing: the map says it is not personalised, and why.
    let other = map_json(&home, &root, &[("LEAN_CTX_SESSION", "s-other")], &[]);
    assert_eq!(other["unpersonalised"], "this session touched no file of the project yet", "{other}");
    assert_eq!(ranked(&other), plain);
}

#[test]
fn the_fallback_answers_alike() {
    let home = Home::new();
    let root = project(&home, "shop", &files());
    let _daemon = home.spawn_daemon(&[]);
    wait_ready(&home, &root);
    for args in [&["map"][..], &["map", "--max-tokens", "100"], &["map", "store.py"]] {
        let daemon = lctx(&home, &root, &[], args);
        let fallback = lctx(&home, &root, &[("LEAN_CTX_NO_DAEMON", "1")], args);
        assert!(fallback.status.success(), "{}", describe(&fallback));
        assert_eq!(String::from_utf8_lossy(&fallback.stdout), String::from_utf8_lossy(&daemon.stdout), "{args:?}");
    }
}

/// A package's `index.d.ts` and `index.d.cts` declare the same names for ES modules and
/// CommonJS: one stands for both, named as its twin, instead of each taking half the map.
#[test]
fn declaration_twins_are_one_file_of_the_map() {
    const DECLARED: &str = "export interface Config {\n  url: string\n}\n\nexport interface Reply {\n  config: \
                            Config\n}\n\nexport declare function request(config: Config): Reply\n";
    const INDEX: &str = "export function request(config) {\n  return { config }\n}\n";
    let home = Home::new();
    let files = [("index.d.ts", DECLARED), ("index.d.cts", DECLARED), ("index.js", INDEX)];
    let root = project(&home, "pkg", &files);
    let no_daemon = [("LEAN_CTX_NO_DAEMON", "1")];
    let answer = map_json(&home, &root, &no_daemon, &[]);
    let declared: Vec<&Value> =
        answer["files"].as_array().unwrap().iter().filter(|f| f["path"].as_str().unwrap().contains(".d.")).collect();
    assert_eq!(declared.len(), 1, "{answer}");
    let (standing, twin) = match declared[0]["path"].as_str().unwrap() {
        "index.d.ts" => ("index.d.ts", "index.d.cts"),
        _ => ("index.d.cts", "index.d.ts"),
    };
    assert_eq!(declared[0]["twins"], serde_json::json!([twin]), "{answer}");
    let text = String::from_utf8_lossy(&lctx(&home, &root, &no_daemon, &["map"]).stdout).into_owned();
    assert!(text.contains(&format!("\n{standing} (and its twin {twin}):\n")), "{text}");
    assert!(!text.contains(&format!("\n{twin}:")), "{text}");
}

#[test]
fn bad_input_gets_a_clear_answer() {
    let home = Home::new();
    let root = project(&home, "shop", &files());
    let no_daemon = [("LEAN_CTX_NO_DAEMON", "1")];

    // One rule for every value outside 64..=16384, whatever its size: a usage error naming the range.
    for outside in ["0", "63", "16385", "4000000000", "-5", "99999999999", "99999999999999999999999999999999999999999"]
    {
        let refused = lctx(&home, &root, &no_daemon, &["map", &format!("--max-tokens={outside}")]);
        assert_eq!(refused.status.code(), Some(2), "{outside}: a usage error: {}", describe(&refused));
        let said = format!("--max-tokens {outside} is out of range: use 64 to 16384 (default 1024)");
        assert!(String::from_utf8_lossy(&refused.stderr).contains(&said), "{}", describe(&refused));
    }
    let float = lctx(&home, &root, &no_daemon, &["map", "--max-tokens", "1.5"]);
    assert_eq!(float.status.code(), Some(2), "{}", describe(&float));
    assert!(
        String::from_utf8_lossy(&float.stderr).contains("not a whole number: use 64 to 16384"),
        "{}",
        describe(&float)
    );
    // Both ends of the range are budgets.
    for edge in ["64", "16384"] {
        let map = map_json(&home, &root, &no_daemon, &["--max-tokens", edge]);
        assert_eq!(map["max_tokens"].to_string(), edge, "applied as asked: {map}");
    }

    let outside = home.path().join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    let refused = lctx(&home, &root, &no_daemon, &["map", outside.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1), "{}", describe(&refused));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("outside the project"), "{}", describe(&refused));

    let missing = lctx(&home, &root, &no_daemon, &["map", "nowhere"]);
    assert_eq!(missing.status.code(), Some(1), "{}", describe(&missing));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no such file: nowhere"), "{}", describe(&missing));

    let restricted = map_json(&home, &root, &no_daemon, &["mailer.py"]);
    let paths: Vec<&str> =
        restricted["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["mailer.py"], "{restricted}");

    let prose = project(&home, "notes", &[("README.md", "# Notes\n"), ("tool.rb", "def run; end\n")]);
    let out = lctx(&home, &prose, &no_daemon, &["map"]);
    assert!(out.status.success(), "{}", describe(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("[no definitions to map in the project: the map covers rust, python"), "{text}");
}
