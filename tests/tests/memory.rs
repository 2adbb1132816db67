//! Sessions, knowledge and the ledger end to end: durable across kill -9,
//! safe with the daemon and fallback processes writing at once, loud about
//! corruption.

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::Duration;

use lean_ctx_proto::v1::KnowledgeRequest;
use lean_ctx_tests::{Home, bin, client_options, describe, kill};

fn project(home: &Home) -> std::path::PathBuf {
    let root = home.path().join("proj");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    let notes: String = (0..80).map(|i| format!("## Note {i}\n\nThe parser handles case {i} this way.\n\n")).collect();
    std::fs::write(root.join("notes.md"), notes).unwrap();
    root
}

fn lctx(home: &Home, dir: &Path, no_daemon: bool, args: &[&str]) -> std::process::Output {
    home.lctx_in(dir, no_daemon, args)
}

fn ok(out: std::process::Output) -> String {
    assert!(out.status.success(), "{}", describe(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn acknowledged_writes_survive_kill_9_of_the_daemon() {
    let home = Home::new();
    let root = project(&home);
    for round in 0..3u64 {
        let daemon = home.spawn_daemon(&[]);
        let mut opts = client_options(&home);
        opts.session_id = String::new();
        let cwd = root.display().to_string();
        // Kill at a pseudo-random moment of each round.
        let kill_after = Duration::from_millis(150 + (round * 277) % 400);
        let pid = daemon.id();
        let killer = std::thread::spawn(move || {
            std::thread::sleep(kill_after);
            kill(pid, libc::SIGKILL);
        });
        let acknowledged =
            tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
                let backend = lctx::backend::Backend::connect(&opts).await.unwrap();
                let mut acked = Vec::new();
                for i in 0..100_000 {
                    let mut ctx = opts.context();
                    ctx.cwd = cwd.clone();
                    let key = format!("r{round}-k{i}");
                    let req = KnowledgeRequest {
                        ctx: Some(ctx),
                        action: lean_ctx_proto::v1::KnowledgeAction::Remember as i32,
                        key: key.clone(),
                        value: format!("value {i}"),
                        ..Default::default()
                    };
                    match backend.memory().knowledge(tonic::Request::new(req)).await {
                        Ok(_) => acked.push(key),
                        Err(_) => break,
                    }
                }
                acked
            });
        killer.join().unwrap();
        drop(daemon);
        assert!(!acknowledged.is_empty(), "round {round}: some writes were acknowledged before the kill");
        let listed = ok(lctx(&home, &root, true, &["knowledge", "list", "-c", "general"]));
        let all = ok(lctx(&home, &root, true, &["knowledge", "recall", &format!("r{round}"), "-n", "100000"]));
        for key in &acknowledged {
            assert!(all.contains(&format!("] {key} = ")) || listed.contains(&format!("] {key} = ")), "lost {key}");
        }
    }
    assert!(ok(lctx(&home, &root, true, &["ledger", "verify"])).contains("chain intact"));
}

fn writer(home: &Home, dir: &Path, no_daemon: bool, name: &str, rounds: usize) -> Child {
    // A shell loop keeps each writer a separate process stream of lctx calls.
    let script = format!(
        r#"set -e
for i in $(seq 1 {rounds}); do
  "$LCTX" knowledge remember "{name}-$i" "v$i" -c load >/dev/null
  "$LCTX" --session shared session finding "{name} finding $i" >/dev/null
  "$LCTX" --session "{name}" read notes.md -m full >/dev/null
done"#
    );
    let mut cmd = home.command("/bin/sh");
    cmd.arg("-c").arg(script).current_dir(dir).env("LCTX", bin("lctx")).stdout(Stdio::null()).stderr(Stdio::piped());
    if no_daemon {
        cmd.env("LEAN_CTX_NO_DAEMON", "1");
    }
    cmd.spawn().unwrap()
}

#[test]
fn the_daemon_and_four_fallback_processes_write_concurrently_without_loss() {
    let home = Home::new();
    let root = project(&home);
    let rounds = 10;
    let _daemon = home.spawn_daemon(&[]);
    let mut writers = vec![writer(&home, &root, false, "daemon", rounds)];
    for n in 0..4 {
        writers.push(writer(&home, &root, true, &format!("local{n}"), rounds));
    }
    for w in writers {
        let out = w.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", describe(&out));
    }
    let facts = ok(lctx(&home, &root, false, &["knowledge", "list", "-c", "load"]));
    assert_eq!(facts.lines().filter(|l| l.contains(" = ")).count(), (5 * rounds).min(20), "list shows 20 at most");
    assert!(facts.contains(&format!("of {})", 5 * rounds)), "and says how many there are: {facts}");
    // The category is searchable too: all of them.
    let recalled = ok(lctx(&home, &root, false, &["knowledge", "recall", "load", "-c", "load", "-n", "1000"]));
    assert_eq!(recalled.lines().count(), 5 * rounds, "{recalled}");
    let status = ok(lctx(&home, &root, false, &["--session", "shared", "session", "status"]));
    assert!(status.contains(&format!("findings {}", 5 * rounds)), "{status}");
    let verify = ok(lctx(&home, &root, false, &["ledger", "verify"]));
    assert!(verify.contains(&format!("{} records", 5 * rounds)), "one ledger event per read: {verify}");
}

#[test]
fn a_corrupt_state_db_is_quarantined_loudly_and_the_next_start_works() {
    let home = Home::new();
    let root = project(&home);
    std::fs::create_dir_all(home.dirs().data).unwrap();
    std::fs::write(home.dirs().data.join("state.db"), b"this is not a database at all, not even close").unwrap();
    let out = lctx(&home, &root, true, &["knowledge", "remember", "k", "v"]);
    assert!(out.status.success(), "{}", describe(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("state.db.corrupt-"), "the warning names the moved file: {stderr}");
    let moved: Vec<_> = std::fs::read_dir(home.dirs().data)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("state.db.corrupt-"))
        .collect();
    assert_eq!(moved.len(), 1);
    assert_eq!(std::fs::read(moved[0].path()).unwrap(), b"this is not a database at all, not even close");
    assert!(ok(lctx(&home, &root, false, &["knowledge", "list"])).contains("k = v"));
}

#[test]
fn an_oversized_fact_is_refused_and_long_values_are_cut_in_listings() {
    let home = Home::new();
    let root = project(&home);
    let huge = "x".repeat(100_000);
    let refused = lctx(&home, &root, true, &["knowledge", "remember", "huge", &huge]);
    assert_eq!(refused.status.code(), Some(1), "{}", describe(&refused));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("the value is 100000 bytes; a fact's value holds at most 16384 bytes"), "{said}");
    assert!(ok(lctx(&home, &root, true, &["knowledge", "list"])).contains("no facts yet"));

    let long = format!("start{} end", " word".repeat(3_000));
    ok(lctx(&home, &root, true, &["knowledge", "remember", "long build", &long]));
    let recalled = ok(lctx(&home, &root, true, &["knowledge", "recall", "long"]));
    assert!(recalled.len() < 1_000, "{recalled}");
    // The advice pasted as given works: the key of two words is one argument.
    let advice = "`lctx knowledge history 'long build'` shows it whole]";
    assert!(recalled.contains(&format!("… [500 of 15009 characters; {advice}")), "{recalled}");
    let history = ok(lctx(&home, &root, true, &["knowledge", "history", "long build"]));
    assert!(history.contains(&long), "history shows the value whole");
}

#[test]
fn a_reset_after_corruption_is_told_until_the_old_copy_is_removed() {
    let home = Home::new();
    let root = project(&home);
    let data = home.dirs().data;
    {
        let _daemon = home.spawn_daemon(&[]);
        ok(lctx(&home, &root, false, &["knowledge", "remember", "k", "v"]));
        ok(lctx(&home, &root, false, &["daemon", "stop"]));
    }
    // What a QA pass did: the file cut short, its WAL gone.
    std::fs::OpenOptions::new().write(true).open(data.join("state.db")).unwrap().set_len(8192).unwrap();
    for side in ["state.db-wal", "state.db-shm"] {
        let _ = std::fs::remove_file(data.join(side));
    }
    let _daemon = home.spawn_daemon(&[]);
    assert!(ok(lctx(&home, &root, false, &["knowledge", "list"])).contains("no facts yet"));
    let names = || -> Vec<String> {
        std::fs::read_dir(&data).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
    };
    let copy = names().into_iter().find(|name| name.starts_with("state.db.corrupt-")).expect("moved aside");
    let copy = data.join(copy).display().to_string();
    assert!(!names().iter().any(|name| name.contains("lock")), "nothing else is left behind: {:?}", names());

    let verify = ok(lctx(&home, &root, false, &["ledger", "verify"]));
    let told = format!("the old database was corrupt and is kept at {copy}; records before it cannot be verified");
    assert!(verify.contains("\nthe ledger was reset on ") && verify.contains(&told), "{verify}");
    // Quoted, so a data directory with a space (macOS's Application Support) stays one word.
    assert!(verify.contains(&format!("`rm '{copy}'*`")), "and how to end the note: {verify}");
    let verified = home.lctx_json(&["ledger", "verify", "--json"]);
    assert!(verified["ok"] == true && verified["reset"].as_str().unwrap().contains(&told), "{verified}");
    let status = home.lctx_json(&["daemon", "status", "--json"]);
    let figure = status["components"]["memory"]["reset"].as_str().unwrap_or_default().to_string();
    assert!(figure.starts_with("state.db was reset on ") && figure.contains(&copy), "{status}");
    let checks = home.doctor_checks(&root);
    let check = checks.iter().find(|c| c["check"] == "state.db").unwrap_or_else(|| panic!("{checks:?}"));
    assert!(check["ok"] == false && check["detail"].as_str().unwrap().contains(&copy), "{check}");

    // Removing the copy is how the user says they have seen to it.
    std::fs::remove_file(&copy).unwrap();
    assert_eq!(ok(lctx(&home, &root, false, &["ledger", "verify"])), "ledger ok: 0 records, chain intact\n");
    let status = home.lctx_json(&["daemon", "status", "--json"]);
    assert!(status["components"]["memory"].get("reset").is_none(), "{status}");
    assert!(!home.doctor_checks(&root).iter().any(|c| c["check"] == "state.db"));
}

#[test]
fn knowledge_supersedes_with_history_and_handoff_fits_its_budget() {
    let home = Home::new();
    let root = project(&home);
    ok(lctx(&home, &root, false, &["knowledge", "remember", "build", "make", "-c", "tooling"]));
    ok(lctx(&home, &root, false, &["knowledge", "remember", "build", "cargo build", "-c", "tooling"]));
    let current = ok(lctx(&home, &root, false, &["knowledge", "recall", "build"]));
    assert!(current.contains("build = cargo build") && !current.contains("= make"), "{current}");
    let history = ok(lctx(&home, &root, false, &["knowledge", "history", "build"]));
    assert!(history.contains("build = make") && history.contains("superseded"), "{history}");

    ok(lctx(&home, &root, false, &["--session", "h", "session", "task", "port the parser to the new grammar API"]));
    for i in 0..60 {
        let note = format!("finding number {i}: the tokenizer splits identifiers at case boundaries and digits");
        ok(lctx(&home, &root, false, &["--session", "h", "session", "finding", &note]));
    }
    let handoff = ok(lctx(&home, &root, false, &["--session", "h", "session", "handoff"]));
    let tokens = lean_ctxd::engine::tokens::count_uncached(&handoff);
    assert!(tokens <= 400, "handoff is {tokens} tokens");
    assert!(handoff.contains("port the parser"), "{handoff}");
    let load = ok(lctx(&home, &root, false, &["--session", "next-chat", "session", "load"]));
    assert!(load.contains("port the parser"), "a new chat resumes the latest session: {load}");
}

#[test]
fn gain_reports_reads_by_mode() {
    let home = Home::new();
    let root = project(&home);
    ok(lctx(&home, &root, false, &["read", "notes.md", "-m", "full"]));
    ok(lctx(&home, &root, false, &["read", "notes.md", "-m", "reference"]));
    ok(lctx(&home, &root, false, &["read", "notes.md", "-m", "map"]));
    ok(lctx(&home, &root, false, &["read", "notes.md", "-m", "lines:1-2"]));
    ok(lctx(&home, &root, false, &["read", "notes.md", "-m", "lines:3-4"]));
    let out = lctx(&home, &root, false, &["gain", "--by", "mode", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&ok(out).into_bytes()).unwrap();
    let rows = v["rows"].as_array().unwrap();
    let modes: Vec<_> = rows.iter().map(|r| r["key"].as_str().unwrap().to_string()).collect();
    for mode in ["full", "reference", "map", "lines"] {
        assert_eq!(modes.iter().filter(|m| *m == mode).count(), 1, "one row for {mode}: {v}");
    }
    // A full read and a range save nothing: what was sent is what was asked
    // for (a range even costs its `[lines N-M of T]` header).
    let saved = |mode: &str| rows.iter().find(|r| r["key"] == mode).unwrap()["saved_tokens"].as_i64().unwrap();
    assert_eq!(saved("full"), 0, "{v}");
    assert!(saved("lines") <= 0, "{v}");
    assert!(saved("map") > 0, "{v}");
    let text = ok(lctx(&home, &root, false, &["gain", "--today", "--by", "tool"]));
    assert!(text.contains("read") && text.contains('█'), "{text}");
}

#[test]
fn gain_by_family_names_the_events_without_a_family_for_what_they_are() {
    let home = Home::new();
    let root = project(&home);
    ok(lctx(&home, &root, false, &["search", "parser", "-a", "regex"]));
    let text = ok(lctx(&home, &root, false, &["gain", "--by", "family"]));
    let row = text.lines().nth(2).unwrap_or_default();
    assert!(row.starts_with("(not shell commands) "), "a search is no read: {text}");
    assert!(!text.contains("(reads)"), "{text}");
    // The JSON names the row as the text does.
    let json = home.lctx_json(&["gain", "--by", "family", "--json"]);
    assert_eq!(json["rows"][0]["key"], "(not shell commands)", "{json}");
    ok(lctx(&home, &root, false, &["run", "--", "true"]));
    let json = home.lctx_json(&["gain", "--by", "mode", "--json"]);
    let keys: Vec<&str> = json["rows"].as_array().unwrap().iter().map(|r| r["key"].as_str().unwrap()).collect();
    assert!(keys.contains(&"(shell commands)") && keys.contains(&"regex"), "{json}");
}

#[test]
fn ledger_verify_names_the_first_tampered_record() {
    let home = Home::new();
    let root = project(&home);
    for _ in 0..3 {
        ok(lctx(&home, &root, true, &["read", "notes.md", "-m", "reference"]));
    }
    assert!(ok(lctx(&home, &root, true, &["ledger", "verify"])).contains("3 records"));
    let db = home.dirs().data.join("state.db");
    let tamper = std::process::Command::new("/usr/bin/python3")
        .arg("-c")
        .arg("import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('update ledger set raw_tokens=raw_tokens+1 where id=2'); c.commit()")
        .arg(&db)
        .output()
        .unwrap();
    assert!(tamper.status.success(), "{}", describe(&tamper));
    let out = lctx(&home, &root, true, &["ledger", "verify"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ledger broken at record 2"), "{}", describe(&out));
    // QA: without a daemon, doctor left the ledger out and said all was well.
    let doctor = lctx(&home, &root, true, &["doctor"]);
    assert_eq!(doctor.status.code(), Some(1), "{}", describe(&doctor));
    assert!(
        String::from_utf8_lossy(&doctor.stdout).contains("FAIL ledger       record 2 breaks the hash chain"),
        "{}",
        describe(&doctor)
    );
}

#[test]
fn listings_say_what_they_left_out_and_forgetting_nothing_fails() {
    let home = Home::new();
    let root = project(&home);
    for i in 0..25 {
        ok(lctx(&home, &root, false, &["knowledge", "remember", &format!("k{i:02}"), "v"]));
    }
    let list = ok(lctx(&home, &root, false, &["knowledge", "list"]));
    assert_eq!(list.lines().filter(|l| l.contains(" = v")).count(), 20, "{list}");
    assert!(list.contains("… 5 more facts not shown (of 25); a higher limit shows them"), "{list}");
    let all = ok(lctx(&home, &root, false, &["knowledge", "list", "--limit", "30"]));
    assert_eq!(all.lines().filter(|l| l.contains(" = v")).count(), 25);
    assert!(!all.contains("not shown"), "{all}");

    for session in ["s1", "s2", "s3"] {
        ok(lctx(&home, &root, false, &["session", "task", &format!("task of {session}"), "--session", session]));
    }
    let sessions = ok(lctx(&home, &root, false, &["session", "list", "--limit", "2"]));
    assert_eq!(sessions.lines().filter(|l| l.contains("task of")).count(), 2, "{sessions}");
    assert!(sessions.contains("… 1 more session not shown (of 3); a higher limit shows it"), "{sessions}");
    let out = lctx(&home, &root, false, &["session", "status", "--limit", "2"]);
    assert_eq!(out.status.code(), Some(2), "--limit means nothing to status: {}", describe(&out));

    let out = lctx(&home, &root, false, &["knowledge", "forget", "no-such-key"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no current fact `no-such-key`"), "{}", describe(&out));
}

#[test]
fn remembering_a_fact_again_keeps_what_was_not_given_and_says_what_changed() {
    let home = Home::new();
    let root = project(&home);
    let value = "src layout: attr/ is the implementation, attrs/ re-exports it";
    let remember = |args: &[&str]| ok(lctx(&home, &root, false, &[&["knowledge", "remember"][..], args].concat()));
    let added = remember(&["layout", value, "-c", "architecture", "--confidence", "0.9"]);
    assert_eq!(added.trim(), "remembered layout · [architecture] · 0.90");
    let fresh = remember(&["tests", "pytest tests -q"]);
    assert_eq!(fresh.trim(), "remembered tests · [general] · 0.80", "the defaults of a new key");

    // The same value without -c or --confidence: a confirmation, nothing moved or lowered.
    let again = remember(&["layout", value]);
    assert_eq!(again.trim(), "confirmed layout · same value, [architecture] · 0.90 kept");
    let history = ok(lctx(&home, &root, false, &["knowledge", "history", "layout"]));
    assert_eq!(history.trim(), format!("[architecture] layout = {value} · 0.90"), "no history entry for it");

    let updated = remember(&["layout", "src/attr is the implementation"]);
    assert_eq!(updated.trim(), "updated layout: new value; the previous entry is kept in history");
    let moved = remember(&["layout", "src/attr is the implementation", "-c", "build", "--confidence", "0.5"]);
    assert_eq!(
        moved.trim(),
        "updated layout: category architecture → build, confidence 0.90 → 0.50; the previous entry is kept in history"
    );
    let lowered = remember(&["layout", "src/attr is the implementation", "--confidence", "0.4"]);
    assert_eq!(lowered.trim(), "updated layout: confidence 0.50 → 0.40; the previous entry is kept in history");
    let history = ok(lctx(&home, &root, false, &["knowledge", "history", "layout"]));
    let lines: Vec<&str> = history.lines().collect();
    assert_eq!(lines.len(), 4, "{history}");
    assert!(lines[0].starts_with("[architecture] layout = src layout") && lines[0].ends_with("0.90 (superseded)"));
    assert_eq!(lines[1], "[architecture] layout = src/attr is the implementation · 0.90 (superseded)");
    assert_eq!(lines[2], "[build] layout = src/attr is the implementation · 0.50 (superseded)");
    assert_eq!(lines[3], "[build] layout = src/attr is the implementation · 0.40");

    let none = ok(lctx(&home, &root, false, &["knowledge", "list", "-c", "nope"]));
    assert_eq!(none.trim(), "no facts in category `nope`; categories: build, general");
}

#[test]
fn recall_ranks_by_the_words_that_tell_what_is_looked_for() {
    let home = Home::new();
    let root = project(&home);
    for (key, value) in [
        ("test-cmd", "PYTHONPATH=src python -m pytest tests -q"),
        ("layout", "src layout: attr/ is the implementation, attrs/ re-exports it"),
    ] {
        ok(lctx(&home, &root, false, &["knowledge", "remember", key, value]));
    }
    let keys = |query: &str| -> Vec<String> {
        let found = ok(lctx(&home, &root, false, &["knowledge", "recall", query]));
        found.lines().filter_map(|line| line.split(' ').nth(1)).map(str::to_string).collect()
    };
    assert_eq!(keys("how do I run the tests"), ["test-cmd"], "the, is, I: not what is looked for");
    assert_eq!(keys("run the tests"), ["test-cmd"]);
    let none = ok(lctx(&home, &root, false, &["knowledge", "recall", "i"]));
    assert_eq!(none.trim(), "no matching facts", "`i` is no prefix of implementation");
    assert_eq!(keys("impl"), ["layout"]);
    // A limit says what it left out, as every listing does.
    let one = ok(lctx(&home, &root, false, &["knowledge", "recall", "src", "-n", "1"]));
    assert!(one.ends_with("… 1 more fact not shown (of 2); a higher limit shows it\n"), "{one}");
    let elsewhere = ok(lctx(&home, &root, false, &["knowledge", "recall", "src", "-c", "nope"]));
    assert_eq!(elsewhere.trim(), "no facts in category `nope`; categories: general");
    // A query of no word the index reads matched every fact, listed as matches (a QA pass).
    for query in ["!!!", "🚀", " "] {
        let out = lctx(&home, &root, false, &["knowledge", "recall", query]);
        assert!(!out.status.success(), "{query}: {}", describe(&out));
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("recall needs words to search for") && said.contains("`list` shows every fact"),
            "{said}"
        );
    }
}

#[test]
fn session_commands_without_their_text_or_a_session_are_usage_errors_in_cli_terms() {
    let home = Home::new();
    let root = project(&home);
    for args in [&["session", "status"][..], &["session", "handoff"], &["session", "finding", "x"]] {
        let out = lctx(&home, &root, false, args);
        assert_eq!(out.status.code(), Some(2), "lctx {args:?}: {}", describe(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("needs a session") && stderr.contains("--session ID"), "{stderr}");
        assert!(!stderr.contains("session_id"), "the CLI's names, not MCP's: {stderr}");
    }
    for args in [&["--session", "s", "session", "task"][..], &["--session", "s", "session", "next", " "]] {
        let out = lctx(&home, &root, false, args);
        assert_eq!(out.status.code(), Some(2), "lctx {args:?}: {}", describe(&out));
        assert!(String::from_utf8_lossy(&out.stderr).contains("needs its text"), "{}", describe(&out));
    }
    let out = lctx(&home, &root, false, &["session", "list", "older"]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let list = ok(lctx(&home, &root, false, &["session", "list"]));
    assert_eq!(list.trim(), "no sessions in this project yet", "nothing was created");
}

#[test]
fn a_long_plan_hands_over_its_latest_next_steps_in_order() {
    let home = Home::new();
    let root = project(&home);
    for i in 1..=12 {
        ok(lctx(&home, &root, false, &["--session", "plan", "session", "next", &format!("step {i}")]));
    }
    let handoff = ok(lctx(&home, &root, false, &["--session", "plan", "session", "handoff"]));
    let steps: Vec<&str> = handoff.lines().filter(|line| line.starts_with("- step")).collect();
    let expected: Vec<String> = (3..=12).map(|i| format!("- step {i}")).collect();
    assert_eq!(steps, expected, "{handoff}");
    assert!(handoff.contains("… not shown: 2 earlier next steps"), "{handoff}");
}

/// The ids `session list` shows, newest first.
fn listed_sessions(home: &Home, root: &Path) -> Vec<String> {
    let list = ok(lctx(home, root, false, &["session", "list", "--limit", "100"]));
    list.lines().filter_map(|l| l.split(" · ").next()).map(str::to_string).collect()
}

#[test]
fn session_load_status_and_handoff_show_the_session_named_and_create_none() {
    let home = Home::new();
    let root = project(&home);
    ok(lctx(&home, &root, false, &["--session", "older", "session", "task", "port the parser"]));
    let first = ok(lctx(&home, &root, false, &["--session", "older", "session", "finding", "the lexer drops CR"]));
    assert!(first.contains("finding #1 recorded in older"), "{first}");
    ok(lctx(&home, &root, false, &["--session", "newer", "session", "task", "write the docs"]));
    let again = ok(lctx(&home, &root, false, &["--session", "newer", "session", "finding", "docs lag the code"]));
    assert!(again.contains("finding #1 recorded in newer"), "a session's first finding is its #1: {again}");

    // Named, the older session is the one shown, though another is newer.
    let loaded = ok(lctx(&home, &root, false, &["session", "load", "older"]));
    assert!(loaded.contains("Handoff of session older") && loaded.contains("port the parser"), "{loaded}");
    assert!(!loaded.contains("write the docs"), "{loaded}");
    let status = ok(lctx(&home, &root, false, &["session", "status", "older"]));
    assert!(status.contains("session older") && status.contains("findings 1"), "{status}");

    // An unknown id is an error that says how to list the sessions, and creates nothing.
    for action in ["load", "status", "handoff"] {
        let out = lctx(&home, &root, false, &["session", action, "nonexistent-session"]);
        assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("no session `nonexistent-session`"), "{action}: {stderr}");
        assert!(stderr.contains("lctx session list"), "{action}: {stderr}");
        assert!(out.stdout.is_empty(), "{}", describe(&out));
    }
    // The caller's own session before its first record: status answers, creating nothing.
    let own = ok(lctx(&home, &root, false, &["--session", "fresh", "session", "status"]));
    assert!(own.contains("session fresh") && own.contains("nothing recorded yet"), "{own}");
    assert_eq!(listed_sessions(&home, &root), ["newer", "older"]);

    // Without an id, load resumes the latest session other than the caller's.
    let resumed = ok(lctx(&home, &root, false, &["--session", "fresh", "session", "load"]));
    assert!(resumed.contains("Handoff of session newer"), "{resumed}");
    let mine = ok(lctx(&home, &root, false, &["--session", "fresh", "session", "decision", "keep the API"]));
    assert!(mine.contains("decision #1 recorded in fresh"), "{mine}");
    assert_eq!(listed_sessions(&home, &root), ["fresh", "newer", "older"]);

    // A session of another project is not shown here: the project that has one is named.
    let other = home.path().join("other");
    std::fs::create_dir_all(other.join(".git")).unwrap();
    for action in ["load", "status", "handoff"] {
        let out = lctx(&home, &other, false, &["session", action, "older"]);
        assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        let named = format!("no session `older` in {}; {} has one: ask from there", other.display(), root.display());
        assert!(stderr.contains(&named), "{action}: {stderr}");
        assert!(out.stdout.is_empty(), "{}", describe(&out));
    }
}

#[test]
fn ctx_session_loads_the_session_id_given_and_creates_none_by_reading() {
    use lean_ctx_tests::mcp::Raw;
    use serde_json::json;

    let home = Home::new();
    let root = project(&home);
    ok(lctx(&home, &root, false, &["--session", "older", "session", "task", "port the parser"]));
    ok(lctx(&home, &root, false, &["--session", "newer", "session", "task", "write the docs"]));
    let mut cmd = home.command(bin("lctx-mcp"));
    cmd.current_dir(&root);
    let mut mcp = Raw::spawn(cmd);
    mcp.initialize("trial-host", "2025-06-18");

    // The connection's own session works from its first call, a read-only one.
    let (status, is_error) = mcp.call_tool(1, "ctx_session", json!({"action": "status"}));
    assert!(!is_error && status.contains("nothing recorded yet"), "{status}");
    let (loaded, is_error) = mcp.call_tool(2, "ctx_session", json!({"action": "load", "session_id": "older"}));
    assert!(!is_error, "{loaded}");
    assert!(loaded.contains("Handoff of session older") && loaded.contains("port the parser"), "{loaded}");
    for (id, action) in [(3, "load"), (4, "status"), (5, "handoff")] {
        let (text, is_error) =
            mcp.call_tool(id, "ctx_session", json!({"action": action, "session_id": "totally-bogus"}));
        assert!(is_error, "{action}: {text}");
        assert!(text.contains("no session `totally-bogus`") && text.contains("ctx_session action list"), "{text}");
    }
    let (list, _) = mcp.call_tool(6, "ctx_session", json!({"action": "list"}));
    assert!(!list.contains("totally-bogus") && !list.contains("mcp-"), "reading created no session: {list}");

    let (finding, is_error) = mcp.call_tool(7, "ctx_session", json!({"action": "finding", "value": "first"}));
    assert!(!is_error && finding.contains("finding #1 recorded in mcp-"), "{finding}");
    let (resumed, _) = mcp.call_tool(8, "ctx_session", json!({"action": "load"}));
    assert!(resumed.contains("Handoff of session newer"), "the latest other session: {resumed}");
    // A parameter the action does not use is said to be ignored, as an unknown one is.
    let (status, is_error) = mcp.call_tool(9, "ctx_session", json!({"action": "status", "value": "x", "limit": 0}));
    assert!(!is_error && status.contains("findings 1"), "{status}");
    assert!(status.ends_with("\n[ctx_session ignored parameters status does not use: value]"), "{status}");
    let (task, _) = mcp.call_tool(10, "ctx_session", json!({"action": "task", "value": "t", "session_id": ""}));
    assert!(!task.contains("ignored"), "an empty value says nothing: {task}");
    assert!(mcp.close().success());
}

/// A read whose ledger record cannot be written (another process holds state.db's write lock past
/// the busy timeout) is answered, and gain, gain --json and doctor say it was left out.
#[test]
fn calls_the_ledger_could_not_record_are_told_by_gain_and_doctor() {
    let home = Home::new();
    let root = project(&home);
    let _daemon = home.spawn_daemon(&[]);
    ok(lctx(&home, &root, false, &["read", "notes.md", "-m", "full"]));
    // Gain waits for the read's event to be appended, before the lock is taken.
    ok(lctx(&home, &root, false, &["gain"]));
    // Doctor shows the check passing while every call is recorded.
    let checks = home.doctor_checks(&root);
    let accounting = checks.iter().find(|c| c["check"] == "accounting").expect("an accounting check");
    assert_eq!(accounting["ok"], true, "{accounting}");

    // A hung process holding the write lock, as SQLite sees one, through the read and the gain
    // after it: gain waits for the ledger's append to give up, past the busy timeout.
    let holder = rusqlite::Connection::open(home.dirs().data.join("state.db")).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let read = ok(lctx(&home, &root, false, &["read", "notes.md", "-m", "full", "--fresh"]));
    let text = ok(lctx(&home, &root, false, &["gain"]));
    holder.execute_batch("ROLLBACK").unwrap();
    assert!(read.contains("The parser handles case 79 this way."), "{read}");

    let note = text.lines().last().unwrap();
    assert!(note.starts_with("not recorded in the ledger: 1 call (read 1) since "), "{text}");
    assert!(note.contains("the first failure: state.db stayed locked by another process"), "{text}");
    let json = home.lctx_json(&["gain", "--json"]);
    assert_eq!(json["total"]["events"], 1, "{json}");
    assert_eq!(json["unrecorded"]["events"], 1, "{json}");
    assert!(json["unrecorded"]["since_ms"].as_i64().unwrap() > 0, "{json}");
    assert!(json["unrecorded"]["error"].as_str().unwrap().starts_with("state.db stayed locked"), "{json}");

    let checks = home.doctor_checks(&root);
    let accounting = checks.iter().find(|c| c["check"] == "accounting").expect("an accounting check");
    assert_eq!(accounting["ok"], false, "{accounting}");
    assert_eq!(accounting["detail"].as_str().unwrap(), note, "{accounting}");
}

/// An output whose archiving failed after its answer named its id (state.db locked past the busy
/// timeout): expanding the id says it may be one of those, not only "check the id".
#[test]
fn an_archived_output_that_could_not_be_written_is_explained_by_expand() {
    let home = Home::new();
    let root = project(&home);
    noisy_tests(&root);
    let _daemon = home.spawn_daemon(&[]);
    ok(lctx(&home, &root, false, &["gain"]));
    let holder = rusqlite::Connection::open(home.dirs().data.join("state.db")).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let run = home.lctx_in(&root, false, &["run", "--", "./pytest"]);
    let text = String::from_utf8_lossy(&run.stdout).into_owned();
    let at = text.find("ctx_expand id=").unwrap_or_else(|| panic!("the output is archived: {text}"));
    let id = text[at + "ctx_expand id=".len()..][..16].to_string();
    // Gain waits for the writer, which gives up on the lock after the busy timeout.
    ok(lctx(&home, &root, false, &["gain"]));
    holder.execute_batch("ROLLBACK").unwrap();
    let expanded = home.lctx_in(&root, false, &["expand", &id]);
    assert!(!expanded.status.success(), "{}", describe(&expanded));
    let error = String::from_utf8_lossy(&expanded.stderr);
    assert!(
        error.contains(&format!("no archived output {id}"))
            && error.contains("1 archived output since the daemon started could not be written to state.db"),
        "{error}"
    );
}

/// Another process holding state.db's write lock made every read wait the busy timeout (10 s)
/// for its ledger append before it was answered. The read is answered at once, and its event,
/// appended once the lock is released, is in gain with nothing said missing.
#[test]
fn a_read_is_answered_while_another_process_holds_the_ledger_and_is_counted_once_it_lets_go() {
    let home = Home::new();
    let root = project(&home);
    let _daemon = home.spawn_daemon(&[]);
    ok(lctx(&home, &root, false, &["read", "notes.md", "-m", "full"]));
    // Gain waits for the read's event to be appended, before the lock is taken.
    ok(lctx(&home, &root, false, &["gain"]));

    read_while_the_ledger_is_locked(&home, &root, false);

    let json = home.lctx_json(&["gain", "--json"]);
    assert_eq!(json["total"]["events"], 2, "{json}");
    assert_eq!(json["unrecorded"]["events"], 0, "{json}");
    assert!(!ok(lctx(&home, &root, false, &["gain"])).contains("not recorded in the ledger"));
}

/// The same through a fallback engine (no daemon), which exits after its one client: the read
/// is answered while the lock is held, and the process appends its event before it exits.
#[test]
fn a_fallback_read_is_answered_while_the_ledger_is_locked_and_its_event_is_kept_at_exit() {
    let home = Home::new();
    let root = project(&home);
    ok(lctx(&home, &root, true, &["read", "notes.md", "-m", "full"]));
    fallbacks_gone(&home);

    read_while_the_ledger_is_locked(&home, &root, true);

    // The fallback process outlives its client while its append waits; it is gone once done.
    fallbacks_gone(&home);
    let json: serde_json::Value = serde_json::from_str(&ok(lctx(&home, &root, true, &["gain", "--json"]))).unwrap();
    assert_eq!(json["total"]["events"], 2, "{json}");
}

/// A read while another process holds state.db's write lock is answered well before the busy
/// timeout its ledger append would have waited.
fn read_while_the_ledger_is_locked(home: &Home, root: &Path, fallback: bool) {
    let read = ok(while_state_db_is_locked(home, root, fallback, &["read", "notes.md", "-m", "full", "--fresh"]));
    assert!(read.contains("The parser handles case 79 this way."), "{read}");
}

/// Runs lctx with `args` while another process holds state.db's write lock, and asserts it was
/// answered well before the busy timeout (10 s) a write on the way would have waited: 8 s leaves
/// a loaded machine its margin. The lock is released before this returns.
fn while_state_db_is_locked(home: &Home, root: &Path, fallback: bool, args: &[&str]) -> std::process::Output {
    let holder = rusqlite::Connection::open(home.dirs().data.join("state.db")).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let started = std::time::Instant::now();
    let out = lctx(home, root, fallback, args);
    let waited = started.elapsed();
    holder.execute_batch("ROLLBACK").unwrap();
    assert!(waited < Duration::from_secs(8), "lctx {args:?} waited {waited:?} for state.db");
    out
}

/// A test run whose output is long enough to be shortened and archived, failing.
const NOISY_TESTS: &str = r#"#!/bin/sh
for i in $(seq 1 400); do echo "tests/test_parser.py::test_case_$i PASSED"; done
echo "FAILED tests/test_parser.py::test_unicode - AssertionError: assert 'é' == 'e'"
echo "1 failed, 400 passed in 0.52s"
exit 1
"#;

/// `./pytest` in `root`: a script printing [`NOISY_TESTS`]'s output, long enough to be archived.
fn noisy_tests(root: &Path) -> std::path::PathBuf {
    let script = root.join("pytest");
    std::fs::write(&script, NOISY_TESTS).unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    script
}

/// `lctx expand id` gives exactly what `script` prints when run again.
fn expands_to_what_it_prints(home: &Home, root: &Path, fallback: bool, id: &str, script: &Path) {
    let expanded = lctx(home, root, fallback, &["expand", id]);
    let original = home.command(script).current_dir(root).output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&expanded.stdout),
        String::from_utf8_lossy(&original.stdout),
        "{}",
        describe(&expanded)
    );
}

/// A session's read, test run and edit while another process held state.db's write lock each
/// waited the busy timeout (10 s, 14 s for the run: its archive and its session record waited
/// one each) before they were answered. They are answered at once; once the lock is released
/// the session holds all three, the run with how it ended, and the id the run's answer named
/// expands to the whole output.
fn session_writes_wait_for_no_lock(fallback: bool) {
    let home = Home::new();
    let root = project(&home);
    let script = noisy_tests(&root);
    let _daemon = (!fallback).then(|| home.spawn_daemon(&[]));
    // state.db exists before it is locked.
    ok(lctx(&home, &root, fallback, &["gain"]));
    let settled = || {
        if fallback {
            // Each fallback process outlives its client while its writes wait, and exits once done.
            fallbacks_gone(&home);
        }
    };

    let read =
        ok(while_state_db_is_locked(&home, &root, fallback, &["--session", "s1", "read", "notes.md", "-m", "full"]));
    assert!(read.contains("The parser handles case 79 this way."), "{read}");
    settled();
    let run = while_state_db_is_locked(&home, &root, fallback, &["--session", "s1", "run", "--", "./pytest"]);
    assert_eq!(run.status.code(), Some(1), "{}", describe(&run));
    let text = String::from_utf8_lossy(&run.stdout);
    let at = text.find("ctx_expand id=").unwrap_or_else(|| panic!("the output is archived: {text}"));
    let id = text[at + "ctx_expand id=".len()..][..16].to_string();
    settled();
    let edit = while_state_db_is_locked(
        &home,
        &root,
        fallback,
        &["--session", "s1", "edit", "notes.md", "--old", "case 3 this", "--new", "case 3 that"],
    );
    ok(edit);
    settled();

    let status = ok(lctx(&home, &root, fallback, &["--session", "s1", "session", "status"]));
    assert!(status.contains("files read 1 · edits 1 · commands 1"), "{status}");
    let handoff = ok(lctx(&home, &root, fallback, &["--session", "s1", "session", "handoff"]));
    assert!(handoff.contains("./pytest: failed (exit 1)"), "{handoff}");
    expands_to_what_it_prints(&home, &root, fallback, &id, &script);
    let gain: serde_json::Value = serde_json::from_str(&ok(lctx(&home, &root, fallback, &["gain", "--json"]))).unwrap();
    assert_eq!(gain["unrecorded"]["events"], 0, "{gain}");
    assert!(!ok(lctx(&home, &root, fallback, &["gain"])).contains("not written"));
}

#[test]
fn a_session_s_read_run_and_edit_are_answered_while_state_db_is_locked_and_recorded_once_it_lets_go() {
    session_writes_wait_for_no_lock(false);
}

#[test]
fn a_fallback_session_s_read_run_and_edit_are_answered_while_state_db_is_locked_and_kept_at_exit() {
    session_writes_wait_for_no_lock(true);
}

/// Waits until this home's fallback processes have exited, appending what they queued.
fn fallbacks_gone(home: &Home) {
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    while !home.fallback_pids().is_empty() {
        assert!(std::time::Instant::now() < deadline, "fallback processes still running: {:?}", home.fallback_pids());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The id a run's answer names for its archived output.
fn archive_id_in(run: &std::process::Output) -> String {
    let text = String::from_utf8_lossy(&run.stdout);
    let at = text.find("ctx_expand id=").unwrap_or_else(|| panic!("the output is archived: {text}"));
    text[at + "ctx_expand id=".len()..][..16].to_string()
}

/// A daemon killed (kill -9) right after answering took the writes it had queued with it: the
/// run's ledger event, its session record, and the row of its archived output, whose id the
/// answer named and which then expanded to nothing. Here another process holds state.db's write
/// lock, so the writes are still queued when the kill comes; the next engine makes them from the
/// daemon's journal.
#[test]
fn writes_a_killed_daemon_had_queued_are_made_by_the_next_engine() {
    let home = Home::new();
    let root = project(&home);
    let script = noisy_tests(&root);
    let daemon = home.spawn_daemon(&[]);
    ok(lctx(&home, &root, false, &["gain"]));
    let holder = rusqlite::Connection::open(home.dirs().data.join("state.db")).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let run = lctx(&home, &root, false, &["--session", "s1", "run", "--", "./pytest"]);
    assert_eq!(run.status.code(), Some(1), "{}", describe(&run));
    let id = archive_id_in(&run);
    drop(daemon);
    holder.execute_batch("ROLLBACK").unwrap();

    expands_to_what_it_prints(&home, &root, true, &id, &script);
    let status = ok(lctx(&home, &root, true, &["--session", "s1", "session", "status"]));
    assert!(status.contains("commands 1"), "{status}");
    // The run's event and the expand's.
    let gain: serde_json::Value = serde_json::from_str(&ok(lctx(&home, &root, true, &["gain", "--json"]))).unwrap();
    assert_eq!((gain["total"]["events"].as_u64(), gain["unrecorded"]["events"].as_u64()), (Some(2), Some(0)), "{gain}");
    let journals = std::fs::read_dir(home.dirs().data.join("journal")).unwrap().count();
    assert_eq!(journals, 0, "the killed daemon's journal is removed once its writes are made");
}

/// Knowledge is no write of the writer's, yet a recall waited for the writes queued before it
/// (a read's ledger event) while another process held state.db's write lock: the busy timeout,
/// 10 s. It is answered at once, and the read's event is appended once the lock is released.
#[test]
fn a_recall_does_not_wait_for_queued_writes_while_another_process_holds_state_db() {
    let home = Home::new();
    let root = project(&home);
    let _daemon = home.spawn_daemon(&[]);
    ok(lctx(&home, &root, false, &["knowledge", "remember", "parser", "handles CRLF"]));
    let holder = rusqlite::Connection::open(home.dirs().data.join("state.db")).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    ok(lctx(&home, &root, false, &["read", "notes.md", "-m", "full"]));
    let started = std::time::Instant::now();
    let recalled = ok(lctx(&home, &root, false, &["knowledge", "recall", "parser"]));
    let waited = started.elapsed();
    holder.execute_batch("ROLLBACK").unwrap();
    assert!(recalled.contains("parser = handles CRLF"), "{recalled}");
    assert!(waited < Duration::from_secs(5), "the recall waited {waited:?} for the queued read's event");
    let gain = home.lctx_json(&["gain", "--json"]);
    assert_eq!((gain["total"]["events"].as_u64(), gain["unrecorded"]["events"].as_u64()), (Some(1), Some(0)), "{gain}");
}
