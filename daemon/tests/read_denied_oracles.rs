//! No answer depends on what a file the user's Read rules deny holds, nor on a secret the agent
//! is shown as `[REDACTED:kind]`: two requests that differ only in whether they would match there
//! read the same. (A QA pass read a denied `.env` character by character through ctx_search's
//! withheld count and ctx_edit's "found"/"not found".)

mod common;

use common::Project;
use lean_ctxd::engine::cancel::Cancel;
use lean_ctxd::engine::edit::EditParams;
use lean_ctxd::engine::error::EngineError;
use lean_ctxd::engine::graph::callgraph::{Action, CallgraphParams};
use lean_ctxd::engine::graph::related::{GraphAction, GraphParams};
use lean_ctxd::engine::search::SearchParams;

const ENV: &str = "DB_HOST=localhost\nPLAIN_FLAG=GREEN-HERON-9093\n";
const CREDS: &str = "TOKEN = 'tok-PURPLE-OTTER-4471-'\n\ndef load_internal_token():\n    return TOKEN\n";

/// A project whose `.env` and `secret/**` the rules deny reading, and nothing else.
fn guarded() -> Project {
    let p = Project::new();
    std::fs::create_dir_all(p.root.join(".claude")).unwrap();
    std::fs::create_dir_all(p.root.join("secret")).unwrap();
    p.write(".claude/settings.json", r#"{"permissions": {"deny": ["Read(./.env)", "Read(./secret/**)"]}}"#);
    p.write(".env", ENV);
    p.write("secret/creds.py", CREDS);
    p.write("app.py", "from secret.creds import load_internal_token\n\ndef run():\n    return load_internal_token()\n");
    p
}

fn search(p: &Project, action: &str, pattern: &str, path: &str) -> String {
    let params =
        SearchParams { pattern: pattern.into(), action: action.into(), path: path.into(), ..Default::default() };
    p.engine.search(&p.caller("s"), &params, &Cancel::default()).unwrap().text
}

#[test]
fn a_search_answers_the_same_whether_or_not_a_denied_file_matches() {
    let p = guarded();
    for (action, inside, nowhere, path) in [
        ("regex", "PLAIN_FLAG=GREEN-HERON-9", "PLAIN_FLAG=GREEN-HERON-8", ".env"),
        ("regex", "PLAIN_FLAG=G[N-Z]", "PLAIN_FLAG=G[A-M]", ".env"),
        ("regex", "tok-PURPLE-OTTER-4", "tok-PURPLE-OTTER-5", ""),
        ("symbol", "load_internal_token", "load_internal_tokem", "secret"),
    ] {
        let (a, b) = (search(&p, action, inside, path), search(&p, action, nowhere, path));
        assert_eq!(a, b, "{action} {inside:?} vs {nowhere:?}");
        // The answer still says, by name, that a file was left out and which rule left it out.
        assert!(a.contains("1 file not searched: the user's Read rules withhold it: deny Read("), "{a}");
        assert!(!a.contains("OTTER") && !a.contains("HERON") && !a.contains("creds.py"), "{a}");
    }
}

#[test]
fn a_glob_answers_the_same_whatever_the_denied_names_are() {
    let p = guarded();
    let glob = |pattern: &str| p.engine.glob(&p.caller("s"), pattern, "", None).unwrap().text;
    let guessed = glob("secret/cr*");
    assert_eq!(guessed, glob("secret/x*"));
    assert!(guessed.contains("not matched against the pattern: the user's Read rules withhold its name"), "{guessed}");
    assert!(!guessed.contains("creds"), "{guessed}");
}

fn edit(p: &Project, path: &str, old: &str, new: &str) -> Result<String, EngineError> {
    let params = EditParams { path: path.into(), old_string: old.into(), new_string: new.into(), ..Default::default() };
    p.engine.edit(&p.caller("s"), &params).map(|outcome| format!("{outcome:?}"))
}

#[test]
fn an_existing_file_the_read_rules_deny_is_not_edited_whatever_the_text() {
    let p = guarded();
    // Present and absent text, unchanged or not, by lines: one refusal, naming the Read rule.
    let refusal = edit(&p, ".env", "PLAIN_FLAG=G", "PLAIN_FLAG=G").unwrap_err();
    assert_eq!(refusal.kind, lean_ctxd::engine::error::ErrorKind::PermissionDenied);
    assert!(refusal.message.starts_with("ctx_edit: denied by Read(./.env) in "), "{}", refusal.message);
    assert!(refusal.message.contains("editing a file needs the Read permission too"), "{}", refusal.message);
    for (old, new) in [("PLAIN_FLAG=ZZZ", "PLAIN_FLAG=ZZZ"), ("PLAIN_FLAG=G", "x"), ("=", "-")] {
        assert_eq!(edit(&p, ".env", old, new).unwrap_err(), refusal, "{old:?}");
    }
    let by_lines = EditParams {
        path: "secret/creds.py".into(),
        new_string: "SECRET_MARKER = 1".into(),
        lines: Some((1, 1)),
        ..Default::default()
    };
    let refused = p.engine.edit(&p.caller("s"), &by_lines).unwrap_err();
    assert!(refused.message.starts_with("ctx_edit: denied by Read(./secret/**) in "), "{}", refused.message);
    assert_eq!((p.text(".env"), p.text("secret/creds.py")), (ENV.to_string(), CREDS.to_string()));
    // A new file under the rule holds nothing yet: creating it is an edit the Edit rules decide.
    let create =
        EditParams { path: "secret/new.py".into(), new_string: "X = 1\n".into(), create: true, ..Default::default() };
    assert!(p.engine.edit(&p.caller("s"), &create).is_ok());
    assert_eq!(p.text("secret/new.py"), "X = 1\n");
}

#[test]
fn an_edit_matches_no_text_over_a_secret_shown_redacted() {
    let p = Project::new();
    let conf = "DB = \"postgres://admin:Zq8vL2mWx7@db:5432/app\"\nNAME = \"admin:Zq8v\"\n";
    p.write("conf.py", conf);
    // The agent's view shows the password as a marker.
    let view = p.read("s", "conf.py", "full", false);
    assert!(view.content.contains("admin:[REDACTED:connection_password]@db"), "{}", view.content);
    // Spelling out part of the secret is text not in the file, however right the guess: one
    // answer for `Zq8v` (the secret's start) and `Zq9v` (wrong), the same as for any absent text.
    let right = edit(&p, "conf.py", "postgres://admin:Zq8v", "postgres://admin:Zq8v").unwrap_err();
    let wrong = edit(&p, "conf.py", "postgres://admin:Zq9v", "postgres://admin:Zq9v").unwrap_err();
    let absent = edit(&p, "conf.py", "postgres://admin:Zq8vX", "postgres://admin:Zq8vX").unwrap_err();
    assert_eq!(right.message.replace("Zq8v", "Zq9v"), wrong.message);
    assert_eq!((right.kind, wrong.kind), (absent.kind, absent.kind));
    assert!(right.message.contains("was not found in conf.py"), "{}", right.message);
    // The same letters outside the secret are text the agent saw: found once, and edited.
    edit(&p, "conf.py", "admin:Zq8v", "admin:Zq8v-renamed").unwrap();
    assert_eq!(p.text("conf.py"), conf.replace("NAME = \"admin:Zq8v\"", "NAME = \"admin:Zq8v-renamed\""));
    // An old_string holding the marker is refused whatever the file holds, as it always was.
    let marker = edit(&p, "conf.py", "admin:[REDACTED:connection_password]", "x").unwrap_err();
    assert!(marker.message.contains("contains a [REDACTED:…] marker"), "{}", marker.message);
}

fn callgraph(p: &Project, action: Action, symbol: &str, to: &str) -> Result<String, String> {
    let params = CallgraphParams {
        action,
        symbol: symbol.into(),
        file: String::new(),
        depth: 0,
        from: symbol.into(),
        to: to.into(),
        precise: false,
        cancel: Cancel::default(),
    };
    p.engine.callgraph(&p.caller("s"), &params).map(|answer| format!("{answer:?}")).map_err(|e| e.message)
}

#[test]
fn the_call_graph_answers_as_if_a_denied_file_defined_and_called_nothing() {
    let p = guarded();
    // A name only the denied file defines is unknown, as a name nothing defines is, and no
    // closest name comes from that file.
    let defined = callgraph(&p, Action::Callers, "load_internal_token", "").unwrap_err();
    let nowhere = callgraph(&p, Action::Callers, "load_internal_tokem", "").unwrap_err();
    assert_eq!(defined.replace("load_internal_token", "NAME"), nowhere.replace("load_internal_tokem", "NAME"));
    assert!(!defined.contains("secret/creds.py") && !nowhere.contains("load_internal_token"), "{nowhere}");
    // A call from a file you may read of a definition in the denied one is a call of a name the
    // project does not define; a trace through it finds no path.
    let callees = callgraph(&p, Action::Callees, "run", "").unwrap();
    assert!(!callees.contains("secret/creds.py"), "{callees}");
    assert!(callees.contains("edges: []") && callees.contains("external_calls: 1"), "{callees}");
    let note = "1 file withheld by the user's Read rules: deny Read(./secret/**) in ";
    assert!(callees.contains(note) && callees.contains("what they define and call is left out"), "{callees}");
    let trace = callgraph(&p, Action::Trace, "run", "load_internal_token").unwrap_err();
    assert!(trace.contains("no function, method or type named `load_internal_token`"), "{trace}");
    // QA: an unknown name's answer left the note out, and read as "the project defines none".
    assert!(defined.contains(note) && nowhere.contains(note) && trace.contains(note), "{defined}");
}

#[test]
fn ctx_graph_finds_no_symbol_only_a_denied_file_defines() {
    let p = guarded();
    let symbol = |name: &str| {
        let params = GraphParams {
            action: GraphAction::Symbol,
            path: name.into(),
            to: String::new(),
            depth: 0,
            cancel: Cancel::default(),
        };
        p.engine.graph_query(&p.caller("s"), &params).map(|answer| format!("{answer:?}")).map_err(|e| e.message)
    };
    let defined = symbol("load_internal_token").unwrap_err();
    let nowhere = symbol("load_internal_tokem").unwrap_err();
    assert_eq!(defined.replace("load_internal_token", "NAME"), nowhere.replace("load_internal_tokem", "NAME"));
    assert!(!defined.contains("secret/creds.py"), "{defined}");
}

#[test]
fn an_import_path_goes_only_through_files_you_may_read() {
    let p = guarded();
    p.write("secret/mid.py", "import b\n");
    p.write("a.py", "import secret.mid\n");
    p.write("b.py", "X = 1\n");
    p.write("c.py", "Y = 1\n");
    let path = |to: &str| {
        let params = GraphParams {
            action: GraphAction::Path,
            path: "a.py".into(),
            to: to.into(),
            depth: 0,
            cancel: Cancel::default(),
        };
        format!("{:?}", p.engine.graph_query(&p.caller("s"), &params).unwrap())
    };
    // b.py is reached only through the denied secret/mid.py, c.py not at all: the same answer.
    let (through_denied, none) = (path("b.py"), path("c.py"));
    assert_eq!(through_denied.replace("b.py", "X"), none.replace("c.py", "X"));
    assert!(
        none.contains("no import path of at most 12 steps between a.py and c.py through files your Read rules"),
        "{none}"
    );
}

/// QA: a withheld file both imported by the file asked about and changed with it in git was
/// counted in each group's note: "2 files withheld" for one.
#[test]
fn a_withheld_file_in_two_groups_is_one_file_withheld() {
    let p = guarded();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(&p.root)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@t")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@t")
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    git(&["init", "-q"]);
    for n in 0..3 {
        p.write(
            "app.py",
            &format!(
                "from secret.creds import load_internal_token\n\ndef run():\n    return load_internal_token()  # {n}\n"
            ),
        );
        p.write("secret/creds.py", &format!("{CREDS}# {n}\n"));
        git(&["add", "app.py", "secret/creds.py"]);
        git(&["commit", "-qm", &format!("change {n}")]);
    }
    let params = GraphParams {
        action: GraphAction::Related,
        path: "app.py".into(),
        to: String::new(),
        depth: 0,
        cancel: Cancel::default(),
    };
    let answer = format!("{:?}", p.engine.graph_query(&p.caller("s"), &params).unwrap());
    assert!(answer.contains("1 file withheld by the user's Read rules"), "{answer}");
    assert!(!answer.contains("secret/creds.py"), "{answer}");
}
