//! `lctx read` and `lctx edit` end to end: daemon and fallback agree, stubs
//! follow the session across processes through the daemon.

use lean_ctx_tests::{Home, describe};

fn project(home: &Home) -> std::path::PathBuf {
    let root = home.path().join("proj");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    let body: String = (0..120).map(|i| format!("/// Doc {i}\npub fn f{i}(x: u32) -> u32 {{ x + {i} }}\n")).collect();
    std::fs::write(root.join("lib.rs"), format!("use std::fmt;\n\npub struct S<T> {{ t: T }}\n\n{body}")).unwrap();
    root
}

fn lctx_in(home: &Home, dir: &std::path::Path, no_daemon: bool, args: &[&str]) -> std::process::Output {
    home.lctx_in(dir, no_daemon, args)
}

#[test]
fn daemon_and_fallback_give_the_same_views() {
    let home = Home::new();
    let root = project(&home);
    for mode in ["signatures", "map", "aggressive", "reference", "lines:3-5", "full", "auto"] {
        let via_daemon = lctx_in(&home, &root, false, &["read", "lib.rs", "-m", mode, "--json"]);
        let local = lctx_in(&home, &root, true, &["read", "lib.rs", "-m", mode, "--json"]);
        assert!(
            via_daemon.status.success() && local.status.success(),
            "{}\n{}",
            describe(&via_daemon),
            describe(&local)
        );
        let d: serde_json::Value = serde_json::from_slice(&via_daemon.stdout).unwrap();
        let l: serde_json::Value = serde_json::from_slice(&local.stdout).unwrap();
        assert_eq!(d["served_by"], "DAEMON");
        assert_eq!(l["served_by"], "LOCAL");
        assert_eq!(d["files"], l["files"], "{mode}");
    }
}

#[test]
fn a_session_gets_a_stub_for_content_it_has_and_others_do_not() {
    let home = Home::new();
    let root = project(&home);
    let read = |session: &str, extra: &[&str]| {
        let mut args = vec!["--session", session, "read", "lib.rs", "-m", "full", "--json"];
        args.extend_from_slice(extra);
        let out = lctx_in(&home, &root, false, &args);
        assert!(out.status.success(), "{}", describe(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["files"][0].clone()
    };
    assert_eq!(read("a", &[])["stub"], false);
    let again = read("a", &[]);
    assert_eq!(again["stub"], true);
    // It tells a CLI user the flags that send the content again, not the MCP tool's parameters.
    let stub = again["content"].as_str().unwrap();
    assert!(stub.starts_with("[unchanged lib.rs") && stub.ends_with("· --fresh or -m lines:N-M resend]"), "{again}");
    assert!(again["sent_tokens"].as_u64().unwrap() <= 24, "{again}");
    assert_eq!(read("b", &[])["stub"], false, "another session");
    assert_eq!(read("a", &["--fresh"])["stub"], false, "fresh");

    let edit =
        lctx_in(&home, &root, false, &["--session", "a", "edit", "lib.rs", "--old", "x + 7 }", "--new", "x + 700 }"]);
    assert!(edit.status.success(), "{}", describe(&edit));
    assert!(String::from_utf8_lossy(&edit.stdout).contains("1 replacement"));
    // Session a wrote the change, so it holds the edited file: a stub. Session
    // b held the old version and is shown what changed.
    let after = read("a", &[]);
    assert_eq!(after["stub"], true, "{after}");
    let other = read("b", &[]);
    assert_eq!(other["stub"], false);
    assert_eq!(other["mode"], "diff");
    assert!(other["content"].as_str().unwrap().contains("+pub fn f7(x: u32) -> u32 { x + 700 }"), "{other}");
}

#[test]
fn read_errors_exit_1_with_the_reason() {
    let home = Home::new();
    let root = project(&home);
    let out = lctx_in(&home, &root, false, &["read", "missing.rs"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such file: missing.rs"), "{}", describe(&out));
    let out = lctx_in(&home, &root, false, &["read", "lib.rs", "missing.rs"]);
    assert_eq!(out.status.code(), Some(1), "one of two failed");
    assert!(String::from_utf8_lossy(&out.stdout).contains("==> lib.rs ("), "{}", describe(&out));
    // A mode that does not exist is a usage error, caught before any call.
    let out = lctx_in(&home, &root, false, &["read", "lib.rs", "-m", "bogus"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("unknown mode `bogus`") && stderr.contains("signatures"), "{stderr}");
}

#[test]
fn outlines_of_text_files_are_headings_or_a_head_that_says_so() {
    let home = Home::new();
    let root = project(&home);
    let prose: String = (0..3000).map(|i| format!("line {i} of the release notes\n")).collect();
    std::fs::write(root.join("NOTES.txt"), &prose).unwrap();
    let rst =
        format!("Guide\n=====\n\nIntro.\n\nInstall\n-------\n\n{}\nUsage\n-----\n\nRun it.\n", "step\n".repeat(400));
    std::fs::write(root.join("guide.rst"), rst).unwrap();

    let out = lctx_in(&home, &root, false, &["read", "NOTES.txt", "-m", "map"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("[no headings: lines 1-40 of 3000 shown]"), "{text}");
    assert!(!text.contains("line 2999"), "never the whole of a large file silently");
    // The head says what it is; no note claims that nothing was shown.
    assert!(text.ends_with("line 39 of the release notes\n"), "{text}");
    // A small file without headings is its own map, with nothing to add.
    std::fs::write(root.join("todo.txt"), "fix the parser\nship it\n").unwrap();
    let out = lctx_in(&home, &root, false, &["read", "todo.txt", "-m", "map"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "fix the parser\nship it\n", "{}", describe(&out));

    let out = lctx_in(&home, &root, false, &["read", "guide.rst", "-m", "signatures"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Install") && text.contains("Usage") && !text.contains("step"), "{text}");
}

#[test]
fn auto_shows_large_markdown_as_its_headings_and_large_plain_text_as_its_head() {
    let home = Home::new();
    let root = project(&home);
    let release = |i: usize| format!("## Release {i}\n\n- fixed widget {i} so that it frobnicates under load\n\n");
    let changelog: String = (0..600).map(release).collect();
    std::fs::write(root.join("CHANGELOG.md"), format!("# Changelog\n\n{changelog}")).unwrap();
    std::fs::write(root.join("CHANGELOG.txt"), changelog.replace('#', "=")).unwrap();

    let json = |file: &str| {
        let out = lctx_in(&home, &root, false, &["read", file, "--json"]);
        assert!(out.status.success(), "{}", describe(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["files"][0].clone()
    };
    let md = json("CHANGELOG.md");
    assert!(md["raw_tokens"].as_u64().unwrap() > 8_000, "a file past the text bound: {md}");
    assert_eq!(md["mode"], "map", "{md}");
    assert!(md["content"].as_str().unwrap().contains("## Release 599"), "its headings: {md}");
    let note = md["note"].as_str().unwrap();
    assert!(note.starts_with("auto: ") && note.contains("→ map; ask -m full or -m lines:N-M"), "{note}");
    assert!(!note.contains("for code"), "a Markdown file is not code: {note}");

    let txt = json("CHANGELOG.txt");
    assert_eq!(txt["mode"], "lines:1-200", "{txt}");
    assert!(txt["note"].as_str().unwrap().contains("first 200 lines"), "{txt}");
}

#[test]
fn what_a_read_sends_is_counted_as_shown_note_and_all() {
    let home = Home::new();
    let root = project(&home);
    // No definitions: the answer is the note alone, shown in brackets. The ledger's "sent" is
    // what the agent received; it counted the note without its brackets (2 tokens short).
    std::fs::write(root.join("calls.mjs"), "console.log(1);\nconsole.log(2);\n".repeat(12)).unwrap();
    let bpe = bpe_openai::o200k_base();
    for no_daemon in [false, true] {
        let shown = lctx_in(&home, &root, no_daemon, &["read", "calls.mjs", "-m", "signatures"]);
        let json = lctx_in(&home, &root, no_daemon, &["read", "calls.mjs", "-m", "signatures", "--json"]);
        assert!(shown.status.success() && json.status.success(), "{}\n{}", describe(&shown), describe(&json));
        let shown = String::from_utf8(shown.stdout).unwrap();
        let shown = shown.trim_end_matches('\n');
        assert!(shown.starts_with("[no definitions found in calls.mjs (24 lines):"), "{shown}");
        let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(v["files"][0]["content"], "", "{v}");
        assert_eq!(v["files"][0]["sent_tokens"].as_u64().unwrap(), bpe.count(shown) as u64, "{v}");
    }
}
