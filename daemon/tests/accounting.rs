//! The ledger and the session record through the engine API: a scripted
//! session whose savings are counted by hand here must be exactly what the
//! gain report says, and its handoff must name what it edited and how its
//! tests ended.

mod common;

use std::collections::BTreeMap;

use common::{Project, code};
use lean_ctx_common::framing;
use lean_ctxd::engine::read::ReadParams;
use lean_ctxd::engine::shell::exec::ExecOutcome;
use lean_ctxd::engine::shell::spool::Output;
use lean_ctxd::engine::tokens::count_uncached;

fn tokens(text: &str) -> u64 {
    count_uncached(text) as u64
}

/// Lines `start..=end` (1-based) of `text` as they stand in the file.
fn lines_of(text: &str, start: usize, end: usize) -> String {
    text.lines().skip(start - 1).take(end + 1 - start).map(|l| format!("{l}\n")).collect()
}

/// Expected gain rows: key → (events, raw, sent).
#[derive(Default)]
struct Book(BTreeMap<Option<String>, (u64, u64, u64)>);

impl Book {
    /// One event.
    fn add(&mut self, key: Option<&str>, raw: u64, sent: u64) {
        self.sum(key, (1, raw, sent));
    }

    fn sum(&mut self, key: Option<&str>, (events, raw, sent): (u64, u64, u64)) {
        let row = self.0.entry(key.map(str::to_string)).or_default();
        *row = (row.0 + events, row.1 + raw, row.2 + sent);
    }
}

fn gain(p: &Project, group_by: &str) -> BTreeMap<Option<String>, (u64, u64, u64)> {
    let (rows, _, _) = p.engine.gain("all", group_by, 0, 0).unwrap();
    rows.into_iter()
        .map(|r| {
            assert_eq!(r.saved_tokens, r.raw_tokens as i64 - r.sent_tokens as i64);
            (r.key, (r.events, r.raw_tokens, r.sent_tokens))
        })
        .collect()
}

#[test]
fn a_scripted_session_books_exactly_the_savings_counted_by_hand() {
    let p = Project::new();
    let big = code(0, 300);
    let small = code(0, 20);
    p.write("big.rs", &big);
    p.write("small.rs", &small);
    let stub = |name: &str, lines: u32| {
        format!("[unchanged {name} {lines}L since you had it whole · fresh=true or lines:N-M resend]")
    };
    let mut by_mode = Book::default();

    // Another session's auto read of the large file: its map, worth the file.
    let map = p.read("other", "big.rs", "auto", false);
    assert_eq!(map.mode, "map");
    // The note is counted as shown, in brackets after the content.
    let map_cost = tokens(&map.content) + tokens(&framing::note(&map.note));
    assert_eq!((map.raw_tokens, map.sent_tokens), (tokens(&big), map_cost));
    by_mode.add(Some("map"), tokens(&big), map_cost);

    // Full, then the stub worth the file.
    assert_eq!(p.read("s", "big.rs", "full", false).content, big);
    by_mode.add(Some("full"), tokens(&big), tokens(&big));
    assert!(p.read("s", "big.rs", "full", false).stub);
    by_mode.add(Some("full"), tokens(&big), tokens(&stub("big.rs", 300)));

    // Auto on a file the session has whole: a stub worth the map it stands for.
    let again = p.read("s", "big.rs", "auto", false);
    assert!(again.stub && again.mode == "map", "{again:?}");
    by_mode.add(Some("map"), map_cost, tokens(&stub("big.rs", 300)));

    // Ranges: worth the lines asked for, headers paid for; both in one `lines` row.
    let range = lines_of(&big, 10, 12);
    assert!(!p.read("s", "big.rs", "lines:10-12", false).stub);
    by_mode.add(Some("lines"), tokens(&range), tokens(&format!("[lines 10-12 of 300]\n{range}")));
    let window =
        ReadParams { paths: vec!["big.rs".into()], start_line: Some(299), limit: Some(10), ..Default::default() };
    p.read_with("s", &window).unwrap();
    let tail = lines_of(&big, 299, 300);
    by_mode.add(Some("lines"), tokens(&tail), tokens(&format!("[lines 299-300 of 300]\n{tail}")));

    // Answers that spare the agent nothing are booked at cost.
    let no_base = "[no diff of small.rs: this session has not read it in full or edited it · mode=full or lines:N-M sends the \
         content]\n";
    assert_eq!(p.read("s", "small.rs", "diff", false).content, no_base);
    by_mode.add(Some("diff"), tokens(no_base), tokens(no_base));
    let reference = format!("small.rs: 20 lines, {} tokens, rust\n", tokens(&small));
    assert_eq!(p.read("s", "small.rs", "reference", false).content, reference);
    by_mode.add(Some("reference"), tokens(&reference), tokens(&reference));

    // Errors and refusals are not booked.
    p.try_read("s", "missing.rs", "full", false).unwrap_err();
    p.try_read("s", "big.rs", "lines:400-401", false).unwrap_err();

    // Its own edit of a file it had whole: the next full read is a stub of the edited file.
    p.edit("s", "big.rs", "fn item_10() -> u32 { 70 }", "fn item_10() -> u32 { 71 }").unwrap();
    let edited = p.text("big.rs");
    assert!(p.read("s", "big.rs", "full", false).stub);
    by_mode.add(Some("full"), tokens(&edited), tokens(&stub("big.rs", 300)));
    p.edit("s", "small.rs", "fn two", "fn three").unwrap_err();

    // Shell output, small enough to be sent as it is (a failure ends with its exit code).
    let project = p.project();
    let caller = p.caller("s");
    p.engine.shape_output(&caller, &project, "seq 1 3", b"1\n2\n3\n", 0, false);
    let failed = "test result: FAILED. 0 passed; 1 failed\n";
    p.engine.shape_output(&caller, &project, "cargo test -p x", failed.as_bytes(), 101, false);
    let shell = [(tokens("1\n2\n3\n"), tokens("1\n2\n3\n")), (tokens(failed), tokens(&format!("{failed}[exit:101]")))];
    for (raw, sent) in shell {
        by_mode.add(None, raw, sent);
    }

    // A long output is shaped and archived; an expand of part of it takes that much of the saving
    // back: nothing raw (the whole output was booked raw already), what it sent spent.
    let long: String = (1..=400).map(|i| format!("row {i}\n")).collect();
    let shaped = p.engine.shape_output(&caller, &project, "./rows.sh", long.as_bytes(), 0, false);
    let id = shaped.archive_id.clone().expect("a long output is shortened and archived");
    by_mode.add(None, tokens(&long), tokens(&shaped.text));
    let expand = lean_ctxd::engine::shell::expand::ExpandParams {
        id,
        start_line: Some(10),
        end_line: Some(12),
        ..Default::default()
    };
    let (window, _) = p.engine.expand(&expand).unwrap();
    assert_eq!(window, "row 10\nrow 11\nrow 12\n");
    by_mode.add(Some("window"), 0, tokens(&window));

    assert_eq!(gain(&p, "mode"), by_mode.0);
    // The same events by tool and in total.
    let mut by_tool = Book::default();
    let mut total = Book::default();
    for (key, &row) in &by_mode.0 {
        let tool = match key.as_deref() {
            None => "shell",
            Some("window") => "expand",
            Some(_) => "read",
        };
        by_tool.sum(Some(tool), row);
        total.sum(None, row);
    }
    assert_eq!(gain(&p, "tool"), by_tool.0);
    assert_eq!(gain(&p, "none"), total.0);
}

#[test]
fn the_handoff_names_files_edited_and_how_the_last_tests_ended() {
    let p = Project::new();
    p.write("lib.rs", &code(0, 20));
    let caller = p.caller("s");
    let project = p.project();
    p.read("s", "lib.rs", "full", false);
    p.edit("s", "lib.rs", "fn item_3() -> u32 { 21 }", "fn item_3() -> u32 { 22 }").unwrap();
    p.edit("s", "lib.rs", "fn item_3() -> u32 { 21 }", "fn item_3() -> u32 { 23 }").unwrap_err();
    p.edit("s", "lib.rs", "fn item_4() -> u32 { 28 }", "fn item_4() -> u32 { 29 }").unwrap();
    p.edit("s", "lib.rs", "absent", "x").unwrap_err();
    let create = lean_ctxd::engine::edit::EditParams {
        path: "new.rs".into(),
        // Large enough that a stub costs less than the file (a smaller one is sent again).
        new_string: code(50, 10),
        create: true,
        ..Default::default()
    };
    p.engine.edit(&caller, &create).unwrap();
    assert!(p.read("s", "new.rs", "full", false).stub, "it wrote the whole file");
    p.engine.shape_output(&caller, &project, "cargo test -p x", b"test result: FAILED\n", 101, false);
    p.engine.shape_output(&caller, &project, "git status", b"nothing to commit\n", 0, false);
    p.engine.shape_output(&caller, &project, "pytest -q", b"3 passed\n", 0, false);
    // Piped into `tail`, whose exit status the line has: a test run, but not a passed one.
    p.engine.shape_output(&caller, &project, "cd tests && pytest -x 2>&1 | tail -2", b"1 failed\n", 0, false);
    // QA: killed by its timeout before the tests started, it was said to have failed (exit 137).
    let timed_out = ExecOutcome {
        output: Output::Whole(b"".to_vec()),
        exit_code: 137,
        timed_out: true,
        cancelled: false,
        duration: std::time::Duration::from_millis(500),
    };
    p.engine.shape_outcome(&caller, &project, "sleep 5; python3 -m unittest", &timed_out, false, true);

    let status = p.engine.session_action(&caller, "status", "", "", 0).unwrap().text;
    // The two refused edits changed nothing: counted apart.
    assert!(status.contains("files read 2 · edits 3 applied, 2 failed · commands 5"), "{status}");
    let handoff = p.engine.session_action(&caller, "handoff", "", "", 0).unwrap().text;
    let expected = "Last test runs:\n\
                    - sleep 5; python3 -m unittest: did not finish (timed out or cancelled)\n\
                    - cd tests && pytest -x 2>&1 | tail -2: ran; outcome unknown: the line exited 0, and it ends \
                    with `tail`\n\
                    - pytest -q: passed\n\
                    - cargo test -p x: failed (exit 101)\n\
                    Files edited:\n\
                    - new.rs: applied 1\n\
                    - lib.rs: applied 2, failed 2, the last attempt failed\n";
    assert!(handoff.contains(expected), "{handoff}");
}

#[test]
fn a_masked_read_books_the_note_it_sends() {
    let p = Project::new();
    let token = format!("ghp_{}", "R8xK2mQ9vL4nT7wZ3pY6sB1cF5hJ0dG8aE2u");
    let text = format!("TOKEN = \"{token}\"\nDEBUG = False\n");
    p.write("cfg.py", &text);
    let view = p.read("s", "cfg.py", "full", false);
    assert_eq!(view.redacted, 1, "{view:?}");
    assert!(view.note.contains("[REDACTED:kind]"), "{view:?}");
    // The agent receives the masked content and the note that says why: both are sent.
    let sent = tokens(&view.content) + tokens(&framing::note(&view.note));
    assert_eq!(view.sent_tokens, sent);
    assert_eq!(gain(&p, "none"), BTreeMap::from([(None, (1, tokens(&text), sent))]));
    // QA: a marker written into the file as text was counted as a secret shown.
    p.write("cfg.py", &format!("{text}OTHER = \"[REDACTED:openai_key]\"\n"));
    assert_eq!(p.read("t", "cfg.py", "full", false).redacted, 1, "one real secret");
}

#[test]
fn a_handoff_says_what_it_left_out_and_a_limit_shows_it() {
    let p = Project::new();
    let caller = p.caller("s");
    for i in 1..=12 {
        p.engine.session_action(&caller, "finding", &format!("finding {i}"), "", 0).unwrap();
    }
    let handoff = p.engine.session_action(&caller, "handoff", "", "", 0).unwrap().text;
    assert_eq!(handoff.matches("- finding").count(), 10, "{handoff}");
    assert!(handoff.ends_with("… not shown: 2 earlier findings (a larger limit shows more)\n"), "{handoff}");
    let all = p.engine.session_action(&caller, "handoff", "", "", 20).unwrap().text;
    assert_eq!(all.matches("- finding").count(), 12, "{all}");
    assert!(!all.contains("not shown"), "{all}");
    // QA: 5,000 showed 100 and said a larger limit shows more; past what a handoff shows, refused.
    let Err(refused) = p.engine.session_action(&caller, "handoff", "", "", 5000) else { panic!("a limit past 100") };
    assert_eq!(refused.message, "limit 5000 is out of range: a handoff shows 1 to 100 items per list");
    assert_eq!(p.engine.session_action(&caller, "handoff", "", "", 100).unwrap().text, all);
}

/// What ctx_shell adds after a command's output — `(no output)` for a silent success, the note
/// under a timed-out run — reaches the agent, so the ledger books it as sent: the booked tokens
/// are those of the text the client builds from the answer (the same `framing::command_answer`).
#[test]
fn a_silent_run_and_a_timed_out_run_book_the_lines_the_agent_reads_after_the_output() {
    use lean_ctxd::engine::cancel::Cancel;
    use lean_ctxd::engine::shell::run::RunParams;

    let p = Project::new();
    let run = |command: &str, timeout_ms: u64| {
        let env = [("PATH".to_string(), "/usr/bin:/bin".to_string())].into();
        let params = RunParams { command: command.into(), env, timeout_ms, ..Default::default() };
        let (outcome, shaped) = p.engine.run_command(&p.caller("s"), &params, &Cancel::default()).unwrap();
        let duration_ms = u64::try_from(outcome.duration.as_millis()).unwrap();
        let end =
            framing::CommandEnd { exit_code: outcome.exit_code, timed_out: outcome.timed_out, duration_ms, raw: false };
        (framing::command_answer(&shaped.text, &end), shaped)
    };

    let (silent, shaped) = run("true", 0);
    assert_eq!(silent, "(no output)");
    assert_eq!((shaped.raw_tokens, shaped.sent_tokens), (0, tokens(&silent)));
    let mut book = Book::default();
    book.add(None, 0, tokens(&silent));
    assert_eq!(gain(&p, "none"), book.0);

    let (killed, shaped) = run("echo started; sleep 30", 300);
    assert!(killed.starts_with("started\n[exit:137]\n[timed out after "), "{killed}");
    assert!(killed.ends_with("hence [exit:137]; exit code 124, as timeout(1) gives]"), "{killed}");
    assert_eq!((shaped.raw_tokens, shaped.sent_tokens), (tokens("started\n"), tokens(&killed)));
    book.add(None, tokens("started\n"), tokens(&killed));
    assert_eq!(gain(&p, "none"), book.0);
}

/// Starts `command` as a background job of `caller`'s session.
fn start_job(p: &Project, caller: &lean_ctxd::engine::Caller<'_>, command: &str) -> u64 {
    let run = lean_ctxd::engine::shell::run::RunParams { command: command.into(), ..Default::default() };
    p.engine.start_job(caller, &run).unwrap()
}

/// Job `id` as the first of `watcher`'s listings (of every session's jobs with `all`) to find it
/// ended shows it; the bound only catches a job that never ends.
fn listed_ended(
    p: &Project,
    watcher: &lean_ctxd::engine::Caller<'_>,
    all: bool,
    id: u64,
) -> lean_ctxd::engine::shell::run::JobView {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let views = p.engine.job_action(watcher, "list", 0, all).unwrap();
        if let Some(ended) = views.into_iter().find(|v| v.info.id == id && v.info.outcome.is_some()) {
            return ended;
        }
        assert!(std::time::Instant::now() < deadline, "job {id} did not end");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// QA: a background job's output went with every `status` and `list` after it ended, and was
/// booked once: three polls sent it three times against one booking. A listing sends it once;
/// `status` sends it again and books it again, saving nothing.
#[test]
fn a_job_output_sent_again_is_booked_again_and_a_listing_sends_it_once() {
    let p = Project::new();
    let caller = p.caller("s");
    let id = start_job(&p, &caller, "seq 1 3000");
    // The first listing after it ended sends its output, booked once.
    let first = listed_ended(&p, &caller, false, id).shaped.expect("the first answer after it ended sends the output");
    let first = first.expect("shaped");
    let shown = |action: &str| {
        let mut views = p.engine.job_action(&caller, action, id, false).unwrap();
        views.remove(0).shaped.map(|shaped| shaped.unwrap())
    };
    let booked = gain(&p, "tool");
    let (events, raw, sent) = booked[&Some("shell".to_string())];
    assert_eq!((events, sent), (1, first.sent_tokens), "{booked:?}");
    assert!(raw > sent, "the first answer saves: {booked:?}");
    assert!(shown("list").is_none(), "a listing does not send it again");
    assert_eq!(gain(&p, "tool")[&Some("shell".to_string())].0, 1, "nor books it");
    let again = shown("status").expect("status sends it again");
    assert_eq!(again.text, first.text);
    assert_eq!(gain(&p, "tool")[&Some("shell".to_string())], (2, raw + again.sent_tokens, sent + again.sent_tokens));
}

/// QA: a background test run that ended was recorded in its session only when its output was
/// asked for, so a handoff made before that (or never after) left it out of the last test runs.
#[test]
fn a_background_test_run_that_ended_is_in_the_handoff_unpolled() {
    let p = Project::new();
    let caller = p.caller("s");
    let command = "cargo test --manifest-path /nonexistent/Cargo.toml";
    let id = start_job(&p, &caller, command);
    // Watched from another session, which sees every job's state but records none of this one's.
    listed_ended(&p, &p.caller("other"), true, id);
    let handoff = p.engine.session_action(&caller, "handoff", "", "", 0).unwrap().text;
    assert!(handoff.contains(&format!("Last test runs:\n- {command}: failed (exit ")), "{handoff}");
    // Recorded once, however often asked for since.
    p.engine.job_action(&caller, "status", id, false).unwrap();
    let status = p.engine.session_action(&caller, "status", "", "", 0).unwrap().text;
    assert!(status.contains("commands 1"), "{status}");
}
