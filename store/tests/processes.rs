//! Tests with real processes on one `state.db`: writers killed with SIGKILL mid-write, and
//! writers racing each other from a fresh file.
//!
//! The test binary re-executes itself as the writer: the `child` test does nothing unless
//! [`ROLE`] is set, and the parents start it with `--exact child`.

use std::env;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use lean_ctx_store::{Check, Event, GroupBy, NewFact, NoteKind, Period, Shape, Store};

/// Which writer a child process plays; unset in the parent.
const ROLE: &str = "LEAN_CTX_STORE_TEST_ROLE";
/// The database file the child writes to.
const DB: &str = "LEAN_CTX_STORE_TEST_DB";

/// Operations of each kind every racer performs.
const RACE_ROUNDS: u64 = 100;
const RACERS: u64 = 5;

#[test]
fn child() {
    let Ok(role) = env::var(ROLE) else { return };
    let db = PathBuf::from(env::var(DB).expect("the parent sets the database path"));
    match role.split_once('-') {
        Some(("endless", _)) => endless_writer(&db),
        Some(("racer", n)) => racer(&db, n.parse().expect("racer number")),
        _ => panic!("unknown role {role}"),
    }
}

fn spawn(role: &str, db: &Path) -> Child {
    Command::new(env::current_exe().expect("path of the test binary"))
        .args(["--exact", "child", "--nocapture", "--test-threads=1"])
        .env(ROLE, role)
        .env(DB, db)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start a child writer")
}

fn event(project: &str, i: u64) -> Event<'_> {
    Event {
        at_ms: 1_700_000_000_000 + i as i64,
        project,
        session: Some("durable"),
        tool: "ctx_read",
        shape: Shape::Mode("map"),
        raw_tokens: 100 + i,
        sent_tokens: 40,
    }
}

/// Writes until killed, printing one line per acknowledged (committed) write:
/// `ledger <last id>`, `fact <key> <id>` or `note <text>`.
fn endless_writer(db: &Path) {
    let mut store = Store::open(db, Check::Everything).expect("open the store").store;
    store
        .touch_session(lean_ctx_store::SessionKey { project: "/durable", id: "durable" }, "endless", 1_700_000_000_000)
        .expect("create the session");
    let mut out = std::io::stdout().lock();
    for i in 0u64.. {
        let ack = match i % 4 {
            0 => format!("ledger {}", store.append(&event("/durable", i)).expect("append")),
            1 => {
                let batch: Vec<_> = (0..50).map(|j| event("/durable", i * 100 + j)).collect();
                format!("ledger {}", store.append_batch(&batch).expect("append a batch").end - 1)
            }
            2 => {
                let key = format!("k{}", i % 40);
                let value = format!("v{i}");
                let fact = NewFact {
                    project: "/durable",
                    category: Some("test"),
                    key: &key,
                    value: &value,
                    source_session: Some("durable"),
                    confidence: Some(0.5),
                };
                format!("fact {key} {} {value}", store.remember(&fact).expect("remember").id())
            }
            _ => {
                let text = format!("note-{i}");
                store
                    .add_note(
                        lean_ctx_store::SessionKey { project: "/durable", id: "durable" },
                        NoteKind::Finding,
                        &text,
                    )
                    .expect("add a note");
                format!("note {text}")
            }
        };
        writeln!(out, "{ack}").and_then(|()| out.flush()).expect("report the acknowledged write");
    }
}

/// The complete lines a child printed; a line cut by the kill is not an acknowledgement.
fn acknowledged(mut stdout: ChildStdout) -> Vec<String> {
    let mut text = String::new();
    stdout.read_to_string(&mut text).expect("read the child's output");
    let complete = text.rfind('\n').map_or("", |end| &text[..end]);
    complete.lines().map(str::to_owned).collect()
}

/// A pseudo-random delay between 200 and 1000 ms, different on every call.
fn random_delay(round: u64) -> Duration {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().subsec_nanos() as u64;
    let mixed = blake3::hash(&(nanos ^ round).to_le_bytes());
    let n = u64::from_le_bytes(mixed.as_bytes()[..8].try_into().unwrap());
    Duration::from_millis(200 + n % 800)
}

#[test]
fn acknowledged_writes_survive_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("state.db");
    let mut acks_seen = 0;
    for round in 0..5 {
        let mut child = spawn("endless-0", &db);
        // Read while the child writes, so that a full pipe never blocks it.
        let stdout = child.stdout.take().expect("piped stdout");
        let reader = thread::spawn(move || acknowledged(stdout));
        thread::sleep(random_delay(round));
        child.kill().expect("SIGKILL the writer");
        let status = child.wait().unwrap();
        assert!(!status.success(), "the writer only stops when killed");
        let acks = reader.join().unwrap();

        let opened = Store::open(&db, Check::Everything).expect("reopen after the kill");
        assert_eq!(opened.warning, None, "a killed writer must not leave a corrupt file");
        let store = opened.store;
        let records = store.verify().expect("the chain verifies after the kill");
        // Under load the writer may be killed before it created the session; then it
        // acknowledged nothing either.
        let session = store.session(lean_ctx_store::SessionKey { project: "/durable", id: "durable" }).unwrap();
        for ack in &acks {
            let parts: Vec<&str> = ack.split(' ').collect();
            match parts.as_slice() {
                ["ledger", id] => assert!(id.parse::<u64>().unwrap() <= records, "ledger record {id} lost"),
                ["fact", key, id, value] => {
                    let history = store.history("/durable", key).unwrap();
                    let fact = history.iter().find(|f| f.id.to_string() == *id).unwrap_or_else(|| panic!("{ack} lost"));
                    assert_eq!(fact.value, *value);
                }
                ["note", text] => {
                    let session = session.as_ref().expect("a note was acknowledged, so its session exists");
                    assert!(session.findings.iter().any(|n| n.text == *text), "{ack} lost");
                }
                _ => {} // libtest's own output
            }
        }
        acks_seen += acks.iter().filter(|a| a.starts_with("ledger ") || a.starts_with("fact ")).count();
    }
    assert!(acks_seen > 100, "the writers acknowledged only {acks_seen} writes; the test proves nothing");
}

/// Each racer writes the same shared session, a contended fact and the ledger, waiting for
/// `<db>.go` so that all of them start together.
fn racer(db: &Path, n: u64) {
    let go = db.with_extension("go");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !go.exists() {
        assert!(Instant::now() < deadline, "the parent never said go");
        thread::sleep(Duration::from_millis(1));
    }
    let mut store = Store::open(db, Check::SkipLedger).expect("open the store").store;
    let project = format!("/racer{n}");
    for i in 0..RACE_ROUNDS {
        store
            .touch_session(
                lean_ctx_store::SessionKey { project: "/shared", id: "shared" },
                &format!("racer-{n}"),
                1_700_000_000_000,
            )
            .unwrap();
        store
            .add_note(
                lean_ctx_store::SessionKey { project: "/shared", id: "shared" },
                NoteKind::Finding,
                &format!("r{n}-{i}"),
            )
            .unwrap();
        store
            .record_file(
                lean_ctx_store::SessionKey { project: "/shared", id: "shared" },
                "shared.rs",
                "full",
                1,
                1_700_000_000_000,
            )
            .unwrap();
        store.append(&event(&project, i)).unwrap();
        let own_key = format!("r{n}-k{i}");
        let value = format!("r{n}-{i}");
        let fact = |key| NewFact {
            project: "/shared",
            category: Some("race"),
            key,
            value: &value,
            source_session: Some("shared"),
            confidence: Some(1.0),
        };
        store.remember(&fact(&own_key)).unwrap();
        store.remember(&fact("winner")).unwrap();
    }
}

#[test]
fn five_processes_lose_no_update() {
    let dir = tempfile::tempdir().unwrap();
    // The file does not exist yet: the racers also race to create and migrate it.
    let db = dir.path().join("state.db");
    let mut racers: Vec<Child> = (0..RACERS).map(|n| spawn(&format!("racer-{n}"), &db)).collect();
    fs::write(db.with_extension("go"), b"").unwrap();
    for racer in &mut racers {
        let mut output = String::new();
        racer.stdout.take().unwrap().read_to_string(&mut output).unwrap();
        assert!(racer.wait().unwrap().success(), "a racer failed:\n{output}");
    }

    let opened = Store::open(&db, Check::Everything).unwrap();
    assert_eq!(opened.warning, None);
    let store = opened.store;
    let total = RACERS * RACE_ROUNDS;
    assert_eq!(store.verify().unwrap(), total);

    let per_project = store.gain(Period::All, GroupBy::Project, 0, 0).unwrap();
    assert_eq!(per_project.len() as u64, RACERS);
    let raw_per_racer: u64 = (0..RACE_ROUNDS).map(|i| 100 + i).sum();
    for row in &per_project {
        assert_eq!((row.events, row.raw_tokens, row.sent_tokens), (RACE_ROUNDS, raw_per_racer, 40 * RACE_ROUNDS));
    }

    let shared = store.session(lean_ctx_store::SessionKey { project: "/shared", id: "shared" }).unwrap().unwrap();
    assert_eq!(shared.findings.len() as u64, total);
    // The racers really overlapped: their notes interleave at least once.
    // (How often depends on the scheduler; on a loaded 2-core machine they
    // can run in long stretches, so only total serialization fails.)
    let writer = |note: &lean_ctx_store::Note| note.text.split('-').next().map(str::to_owned);
    let switches = shared.findings.windows(2).filter(|pair| writer(&pair[0]) != writer(&pair[1])).count();
    assert!(switches as u64 >= RACERS - 1, "the racers ran one after another ({switches} switches)");
    assert_eq!(shared.files.len(), 1);
    assert_eq!((shared.files[0].count, shared.files[0].tokens), (total, total));

    let facts = store.facts("/shared", Some("race")).unwrap();
    assert_eq!(facts.len() as u64, total + 1, "every own key plus the contended one");
    let winner = store.history("/shared", "winner").unwrap();
    assert_eq!(winner.len() as u64, total, "every distinct value superseded the one before it");
    assert_eq!(winner.iter().filter(|f| f.state == lean_ctx_store::FactState::Current).count(), 1);
}
