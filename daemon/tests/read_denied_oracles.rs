//! No answer depends on what a file the user's Read rules deny holds: two requests that differ
//! only in whether they would match there read the same. (A QA pass read a denied `.env`
//! character by character through ctx_search's withheld count.)

mod common;

use common::Project;
use lean_ctxd::engine::cancel::Cancel;
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
