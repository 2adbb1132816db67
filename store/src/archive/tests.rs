use std::borrow::Cow;
use std::fs;
use std::path::PathBuf;
use std::sync::Barrier;
use std::thread;

use super::blob::sorted_entries;
use super::index::INDEX_LIMIT;
use super::snippet::{SNIPPET_CHARS, SNIPPET_LEAD, SNIPPET_SCAN_BYTES, find_snippet, first_match};
use super::*;
use crate::testutil::temp_store;

fn entry<'a>(label: &'a str, text: &'a [u8]) -> ArchiveEntry<'a> {
    ArchiveEntry {
        kind: "shell",
        label,
        family: "generic",
        exit_code: Some(0),
        session: Some("s1"),
        project: "/repo",
        text,
    }
}

/// Every `.zst` blob under `dir`, sorted.
fn blobs(dir: &Path) -> Vec<PathBuf> {
    sorted_entries(dir).unwrap().iter().flat_map(|shard| sorted_entries(shard).unwrap()).collect()
}

/// Deterministic text of about `len` bytes: numbered log lines with pseudo-random words.
fn log_text(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut text = Vec::with_capacity(len + 100);
    let mut line = 0;
    while text.len() < len {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        line += 1;
        text.extend_from_slice(format!("line {line}: value {state:x} status ok\n").as_bytes());
    }
    text.truncate(len);
    text
}

fn set_created(store: &Store, id: &str, created_ms: i64) {
    store.conn.execute("UPDATE archive SET created_ms = ?2 WHERE id = ?1", params![id, created_ms]).unwrap();
}

#[test]
fn round_trip_returns_the_exact_bytes() {
    let (dir, mut store) = temp_store();
    let archive = dir.path().join("archive");
    let binary: Vec<u8> = (0..=255u8).chain([0, 0xff, 0xfe, b'\n', 0xc3, 0x28, b'\r']).cycle().take(10_000).collect();
    let big = log_text(5 * 1024 * 1024, 7);
    for text in [&b"hello\nworld"[..], &binary, &[], &big, b"\n\n"] {
        let id = store.archive_put(&archive, &entry("cargo test", text)).unwrap();
        assert_eq!(id, archive_id(text));
        assert_eq!(id.len(), ARCHIVE_ID_LEN);
        let got = store.archive_get(&archive, &id).unwrap();
        assert!(got.bytes == text, "{} bytes came back different", text.len());
        let meta = got.meta;
        assert_eq!((meta.raw_bytes, meta.raw_lines), (text.len() as u64, line_count(text)));
        assert_eq!(Some(meta.stored_bytes), file_size(&blob_path(&archive, &id)));
        assert_eq!(meta.expired_ms, None);
        // Ids are accepted in any case.
        assert_eq!(store.archive_get(&archive, &id.to_uppercase()).unwrap().bytes.len(), text.len());
    }
    let meta = store.archive_meta(&archive_id(&big)).unwrap().unwrap();
    assert!(meta.stored_bytes < meta.raw_bytes / 2, "5 MB of log compresses: {meta:?}");
    let expected = ArchiveMeta {
        id: archive_id(b"hello\nworld"),
        created_ms: meta.created_ms,
        kind: "shell".to_owned(),
        label: "cargo test".to_owned(),
        family: "generic".to_owned(),
        exit_code: Some(0),
        raw_bytes: 11,
        raw_lines: 2,
        stored_bytes: file_size(&blob_path(&archive, &archive_id(b"hello\nworld"))).unwrap(),
        session: Some("s1".to_owned()),
        project: "/repo".to_owned(),
        expired_ms: None,
    };
    let mut hello = store.archive_meta(&expected.id).unwrap().unwrap();
    hello.created_ms = meta.created_ms;
    assert_eq!(hello, expected);
    assert_eq!((line_count(b""), line_count(b"\n\n"), line_count(b"a")), (0, 2, 1));
    let blob = blobs(&archive)[0].clone();
    let name = blob.file_name().unwrap().to_str().unwrap();
    assert_eq!(blob.parent().unwrap().file_name().unwrap().to_str().unwrap(), &name[..2]);
}

#[test]
fn same_content_is_stored_once() {
    let (dir, mut store) = temp_store();
    let archive = dir.path().join("archive");
    let first = store.archive_put(&archive, &entry("git status", b"On branch main\n")).unwrap();
    let created = store.archive_meta(&first).unwrap().unwrap().created_ms;
    let other = ArchiveEntry { label: "git status --short", exit_code: Some(1), ..entry("", b"On branch main\n") };
    let second = store.archive_put(&archive, &other).unwrap();
    assert_eq!(first, second);
    assert_eq!(blobs(&archive).len(), 1);
    let meta = store.archive_meta(&first).unwrap().unwrap();
    assert_eq!((meta.label.as_str(), meta.exit_code), ("git status", Some(0)), "the description stays");
    assert!(meta.created_ms >= created, "its age starts over");
    let rows: i64 = store.conn.query_row("SELECT count(*) FROM archive", [], |row| row.get(0)).unwrap();
    assert_eq!(rows, 1);

    store.archive_put(&archive, &entry("git log", b"commit 1\n")).unwrap();
    assert_eq!(blobs(&archive).len(), 2);
    // A missing blob is written again by the next put of the same content.
    fs::remove_file(blob_path(&archive, &first)).unwrap();
    assert!(matches!(store.archive_get(&archive, &first), Err(Error::ArchiveDamaged { .. })));
    assert_eq!(store.archive_put(&archive, &entry("git status", b"On branch main\n")).unwrap(), first);
    assert_eq!(store.archive_get(&archive, &first).unwrap().bytes, b"On branch main\n");
}

#[test]
fn search_finds_outputs_by_their_words() {
    let (dir, mut store) = temp_store();
    let archive = dir.path().join("archive");
    let failing = b"running 3 tests\ntest a ... ok\ntest parser::nested ... FAILED\n\nfailures: 1\n";
    let passing = b"running 2 tests\ntest a ... ok\ntest b ... ok\n";
    let failing_id = store.archive_put(&archive, &entry("cargo test -p parser", failing)).unwrap();
    let passing_id = store.archive_put(&archive, &entry("cargo test -p lexer", passing)).unwrap();
    set_created(&store, &failing_id, 1_000);
    set_created(&store, &passing_id, 2_000);

    let hits = store.archive_search(&archive, "FAILED", None, 10).unwrap();
    assert_eq!(hits.len(), 1);
    let hit = &hits[0];
    assert_eq!(
        (hit.id.as_str(), hit.label.as_str(), hit.created_ms),
        (failing_id.as_str(), "cargo test -p parser", 1_000)
    );
    assert_eq!((hit.kind.as_str(), hit.project.as_str(), hit.raw_lines), ("shell", "/repo", 5));
    assert_eq!(hit.snippet, "test parser::nested ... FAILED");
    // Prefix terms, the label, and OR-ed words.
    assert_eq!(store.archive_search(&archive, "fail", None, 10).unwrap()[0].id, failing_id);
    let by_label = store.archive_search(&archive, "lexer", None, 10).unwrap();
    assert_eq!(by_label.iter().map(|hit| hit.id.as_str()).collect::<Vec<_>>(), [passing_id.as_str()]);
    assert_eq!(by_label[0].snippet, "running 2 tests", "only the label matched: the first line");
    assert_eq!(store.archive_search(&archive, "tests", None, 10).unwrap().len(), 2);
    assert_eq!(store.archive_search(&archive, "tests", None, 1).unwrap().len(), 1);
    assert_eq!(store.archive_matches("tests", None).unwrap(), 2, "the count ignores the limit");
    assert_eq!(store.archive_matches("segfault", None).unwrap(), 0);
    assert_eq!(store.archive_matches("tests", Some("/elsewhere")).unwrap(), 0);
    assert!(store.archive_search(&archive, "segfault", None, 10).unwrap().is_empty());
    // Only one project's outputs.
    assert_eq!(store.archive_search(&archive, "tests", Some("/repo"), 10).unwrap().len(), 2);
    assert!(store.archive_search(&archive, "tests", Some("/elsewhere"), 10).unwrap().is_empty());
    assert!(store.archive_search(&archive, "", Some("/elsewhere"), 10).unwrap().is_empty());
    // Without words: the newest first.
    let newest: Vec<_> =
        store.archive_search(&archive, " ?! ", None, 10).unwrap().into_iter().map(|hit| hit.id).collect();
    assert_eq!(newest, [passing_id.clone(), failing_id.clone()]);
    // The same query gives the same order every time.
    let order = |store: &Store| store.archive_search(&archive, "test ok", None, 10).unwrap();
    assert_eq!(order(&store), order(&store));

    for query in [
        "foo\"bar OR (",
        "\"",
        "(((",
        "AND OR NOT",
        "NEAR(foo bar)",
        "label:value",
        "body:FAILED",
        "*",
        "foo*",
        "-foo +bar",
        "^foo",
        "'; DROP TABLE archive; --",
        "",
        "   ",
    ] {
        store.archive_search(&archive, query, None, 10).unwrap_or_else(|e| panic!("query {query:?} failed: {e}"));
    }
    assert_eq!(store.archive_search(&archive, "body:FAILED", None, 10).unwrap()[0].id, failing_id);
}

#[test]
fn long_outputs_index_their_beginning_and_end() {
    assert!(matches!(indexed_text(b"short"), Cow::Borrowed("short")));
    let mut long = vec![b'm'; INDEX_LIMIT + 1000];
    long[..5].copy_from_slice(b"head ");
    let end = long.len();
    long[end - 5..].copy_from_slice(b" tail");
    let text = indexed_text(&long);
    assert_eq!(text.len(), INDEX_LIMIT + 1);
    assert!(text.starts_with("head m") && text.ends_with("m tail"));
    assert_eq!(text.as_bytes()[INDEX_LIMIT / 2], b'\n');
}

#[test]
fn snippets_cut_long_lines_around_the_match() {
    let terms = vec!["needle".to_owned()];
    let line = format!("{}needle{}\n", "a ".repeat(200), " b".repeat(200));
    let snippet = find_snippet(line.as_bytes(), &terms).unwrap();
    assert!(snippet.starts_with('…') && snippet.ends_with('…'), "{snippet}");
    assert_eq!(snippet.chars().count(), SNIPPET_CHARS + 2, "{snippet}");
    assert!(snippet.starts_with(&format!("…{}needle", "a ".repeat(SNIPPET_LEAD / 2))), "{snippet}");
    assert!(snippet.contains("needle"));
    // Words match from their start only, case-insensitively; control characters become spaces.
    assert_eq!(find_snippet(&b"haystack\n\tx NEEDLEs\x1b[0m\n"[..], &terms).unwrap(), "x NEEDLEs [0m");
    assert_eq!(find_snippet(&b"\n\nfirst\nsecond\n"[..], &terms).unwrap(), "first");
    assert_eq!(find_snippet(&b""[..], &terms).unwrap(), "");
    assert_eq!(find_snippet(&b"no match\r\n"[..], &[]).unwrap(), "no match");
    assert_eq!(first_match("ünïcode wörds", &["wör".to_owned()]), Some(("ünïcode ".len(), 1)));
}

/// Two words typed: the snippet is a line with both where there is one, not the first line with
/// either (`error` on every line of a build log, `timeout` and `error` together once).
#[test]
fn a_snippet_is_the_line_with_the_most_of_the_query_words() {
    let terms = vec!["timeout".to_owned(), "error".to_owned()];
    let log = "error: lint warning\nerror: retrying\nnote: timeout error in fetch\nerror timeout again\n";
    assert_eq!(find_snippet(log.as_bytes(), &terms).unwrap(), "note: timeout error in fetch");
    // A word twice is one of the words.
    let log = "error error error\nerror timeout\n";
    assert_eq!(find_snippet(log.as_bytes(), &terms).unwrap(), "error timeout");
    // No line with both: the first with either.
    assert_eq!(find_snippet(&b"ok\nerror one\ntimeout two\n"[..], &terms).unwrap(), "error one");
    // The look for a better line ends past its bound.
    let far = format!("error first\n{}timeout error\n", "x\n".repeat(SNIPPET_SCAN_BYTES));
    assert_eq!(find_snippet(far.as_bytes(), &terms).unwrap(), "error first");
    assert_eq!(first_match("Error: TIMEOUT timeouts", &terms), Some((0, 2)));
}

#[test]
fn sweep_expires_the_oldest_by_age_and_by_size() {
    let (dir, mut store) = temp_store();
    let archive = dir.path().join("archive");
    let texts: Vec<Vec<u8>> = (0..4).map(|i| log_text(20_000, i + 1)).collect();
    let ids: Vec<String> =
        texts.iter().map(|text| store.archive_put(&archive, &entry("make", text)).unwrap()).collect();
    assert_eq!(blobs(&archive).len(), 4);
    for (i, id) in ids.iter().enumerate() {
        set_created(&store, id, 1_000 * (i as i64 + 1));
    }
    let stored: Vec<u64> = ids.iter().map(|id| store.archive_meta(id).unwrap().unwrap().stored_bytes).collect();

    // Nothing is old or large enough.
    assert_eq!(store.archive_sweep(&archive, 4_000, 10_000, u64::MAX).unwrap(), SweepReport::default());
    // By age: created at 1000 is older than 4500 - 3000; 2000 is not.
    let report = store.archive_sweep(&archive, 4_500, 3_000, u64::MAX).unwrap();
    assert_eq!(report, SweepReport { expired: 1, orphans: 0, freed_bytes: stored[0] });
    // By size: room for the newest two only.
    let report = store.archive_sweep(&archive, 4_600, 3_000, stored[2] + stored[3]).unwrap();
    assert_eq!(report, SweepReport { expired: 1, orphans: 0, freed_bytes: stored[1] });
    let report = store.archive_sweep(&archive, 4_700, i64::MAX, 0).unwrap();
    assert_eq!(report.expired, 2);
    assert!(blobs(&archive).is_empty());

    let expired_at = [4_500, 4_600, 4_700, 4_700];
    for (id, at) in ids.iter().zip(expired_at) {
        match store.archive_get(&archive, id) {
            Err(Error::ArchiveExpired { id: got, expired_ms }) => assert_eq!((&got, expired_ms), (id, at)),
            other => panic!("expected ArchiveExpired, got {other:?}"),
        }
        assert_eq!(store.archive_meta(id).unwrap().unwrap().expired_ms, Some(at));
    }
    let message = store.archive_get(&archive, &ids[0]).unwrap_err().to_string();
    assert!(message.contains("expired at 1970-01-01 00:00:04 UTC") && message.contains("can no longer"), "{message}");
    assert!(store.archive_search(&archive, "line", None, 10).unwrap().is_empty(), "expired outputs leave the index");
    assert!(store.archive_search(&archive, "", None, 10).unwrap().is_empty());

    // Archiving an expired content again revives it as new.
    let revived = store.archive_put(&archive, &entry("make again", &texts[0])).unwrap();
    assert_eq!(revived, ids[0]);
    assert_eq!(store.archive_get(&archive, &revived).unwrap().bytes, texts[0]);
    let meta = store.archive_meta(&revived).unwrap().unwrap();
    assert_eq!((meta.expired_ms, meta.label.as_str()), (None, "make again"));
    assert!(meta.created_ms > 1_000_000, "the revived output counts as new");
    assert_eq!(store.archive_search(&archive, "line", None, 10).unwrap().len(), 1);
}

#[test]
fn equal_ages_expire_by_id() {
    let (dir, mut store) = temp_store();
    let archive = dir.path().join("archive");
    let mut ids: Vec<String> =
        (0..3).map(|i| store.archive_put(&archive, &entry("x", format!("out {i}").as_bytes())).unwrap()).collect();
    for id in &ids {
        set_created(&store, id, 5);
    }
    ids.sort();
    let keep = store.archive_meta(&ids[2]).unwrap().unwrap().stored_bytes;
    assert_eq!(store.archive_sweep(&archive, 10, 1_000, keep).unwrap().expired, 2);
    let live: Vec<_> = store.archive_search(&archive, "", None, 10).unwrap().into_iter().map(|hit| hit.id).collect();
    assert_eq!(live, [ids[2].clone()]);
}

#[test]
fn unknown_invalid_and_damaged_ids_have_their_own_errors() {
    let (dir, mut store) = temp_store();
    let archive = dir.path().join("archive");
    match store.archive_get(&archive, "0123456789ABCDEF") {
        Err(error @ Error::ArchiveNotFound { .. }) => {
            let message = error.to_string();
            assert!(message == "no archived output 0123456789abcdef", "{message}");
        }
        other => panic!("expected ArchiveNotFound, got {other:?}"),
    }
    for id in ["", "../../etc/passwd", "0123456789abcde", "0123456789abcdef0", "0123456789abcdeg", "../0123456789ab"] {
        assert!(matches!(store.archive_get(&archive, id), Err(Error::InvalidInput(_))), "{id:?}");
        assert!(matches!(store.archive_meta(id), Err(Error::InvalidInput(_))), "{id:?}");
    }
    assert!(!archive.exists(), "nothing looked at the archive directory");

    let text = log_text(50_000, 3);
    let other = log_text(50_000, 4);
    let id = store.archive_put(&archive, &entry("build", &text)).unwrap();
    let other_id = store.archive_put(&archive, &entry("build", &other)).unwrap();
    let path = blob_path(&archive, &id);
    let good = fs::read(&path).unwrap();
    let damaged = |store: &Store| match store.archive_get(&archive, &id) {
        Err(error @ Error::ArchiveDamaged { .. }) => error.to_string(),
        other => panic!("expected ArchiveDamaged, got {other:?}"),
    };

    let mut flipped = good.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x55;
    fs::write(&path, &flipped).unwrap();
    let message = damaged(&store);
    assert!(message.contains(&path.display().to_string()) && message.contains("run the command again"), "{message}");
    fs::write(&path, &good[..good.len() / 2]).unwrap();
    damaged(&store);
    fs::write(&path, b"not zstd at all").unwrap();
    damaged(&store);
    // A valid blob of other content is caught by the id check.
    fs::copy(blob_path(&archive, &other_id), &path).unwrap();
    damaged(&store);
    fs::remove_file(&path).unwrap();
    assert!(damaged(&store).contains("missing"));
    // Search still works and leaves the snippet empty.
    let hits = store.archive_search(&archive, "line", None, 10).unwrap();
    assert_eq!(hits.iter().find(|hit| hit.id == id).map(|hit| hit.snippet.as_str()), Some(""));
}

#[test]
fn sweep_deletes_orphans_and_temporary_files_only() {
    let (dir, mut store) = temp_store();
    let archive = dir.path().join("archive");
    let id = store.archive_put(&archive, &entry("ls", b"a\nb\n")).unwrap();
    let orphan = blob_path(&archive, "abcdef0123456789");
    fs::create_dir_all(orphan.parent().unwrap()).unwrap();
    fs::write(&orphan, b"left by a crashed put").unwrap();
    let temp = archive.join(&id[..2]).join(format!(".{id}.zst.1-0.tmp"));
    fs::write(&temp, b"half").unwrap();
    let unrelated = [archive.join("README"), archive.join("ab").join("notes.txt"), archive.join("zz").join("x.tmp")];
    for path in &unrelated {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, b"keep").unwrap();
    }
    let report = store.archive_sweep(&archive, now_ms(), i64::MAX, u64::MAX).unwrap();
    assert_eq!(report, SweepReport { expired: 0, orphans: 2, freed_bytes: 21 + 4 });
    assert!(!orphan.exists() && !temp.exists());
    assert!(unrelated.iter().all(|path| path.exists()));
    assert_eq!(store.archive_get(&archive, &id).unwrap().bytes, b"a\nb\n");
    // An archive directory that does not exist yet is empty.
    assert_eq!(store.archive_sweep(&dir.path().join("none"), now_ms() + 1, 0, 0).unwrap().expired, 1);
}

#[test]
fn archiving_again_moves_the_output_to_the_new_project_and_a_racing_sweep_spares_it() {
    let (dir, mut store) = temp_store();
    let archive = dir.path().join("archive");
    let id = store.archive_put(&archive, &entry("make", b"built\n")).unwrap();
    set_created(&store, &id, 1_000);
    let elsewhere = ArchiveEntry { project: "/other", ..entry("make", b"built\n") };
    let started = now_ms();
    assert_eq!(store.archive_put(&archive, &elsewhere).unwrap(), id);
    let meta = store.archive_meta(&id).unwrap().unwrap();
    assert!(meta.created_ms >= started, "age starts over: {}", meta.created_ms);
    assert_eq!(store.archive_search(&archive, "built", Some("/other"), 10).unwrap().len(), 1);
    assert!(store.archive_search(&archive, "built", Some("/repo"), 10).unwrap().is_empty());
    // A sweep that began before that put (its `now` is older) leaves it alone, size or not.
    assert_eq!(store.archive_sweep(&archive, started - 1, 0, 0).unwrap().expired, 0);
    assert_eq!(store.archive_sweep(&archive, now_ms() + 1, i64::MAX, 0).unwrap().expired, 1);
}

#[test]
fn bad_input_is_refused() {
    let (dir, mut store) = temp_store();
    let archive = dir.path().join("archive");
    assert!(matches!(store.archive_put(&archive, &entry("x", b"t")).map(|_| ()), Ok(())));
    for bad in [ArchiveEntry { kind: " ", ..entry("x", b"u") }, ArchiveEntry { project: "", ..entry("x", b"u") }] {
        assert!(matches!(store.archive_put(&archive, &bad), Err(Error::InvalidInput(_))));
    }
    assert!(matches!(store.archive_sweep(&archive, 0, -1, 0), Err(Error::InvalidInput(_))));
    assert_eq!(blobs(&archive).len(), 1);
}

#[test]
fn two_connections_archive_at_once() {
    let (dir, _store) = temp_store();
    let db = dir.path().join("state.db");
    let archive = dir.path().join("archive");
    const ROUNDS: usize = 40;
    let barrier = Barrier::new(2);
    let shared = |i: usize| log_text(10_000 + i, 100 + i as u64);
    let own = |n: usize, i: usize| format!("writer {n} output {i}\n").into_bytes();
    thread::scope(|scope| {
        for n in 0..2 {
            let (db, archive, barrier) = (&db, &archive, &barrier);
            scope.spawn(move || {
                let mut store = Store::open(db, crate::Check::Everything).unwrap().store;
                barrier.wait();
                for i in 0..ROUNDS {
                    let text = shared(i);
                    assert_eq!(store.archive_put(archive, &entry("shared", &text)).unwrap(), archive_id(&text));
                    store.archive_put(archive, &entry("own", &own(n, i))).unwrap();
                    if i % 10 == 9 {
                        store.archive_sweep(archive, now_ms(), i64::MAX, u64::MAX).unwrap();
                    }
                }
            });
        }
    });
    let store = Store::open(&db, crate::Check::Everything).unwrap().store;
    let all = blobs(&archive);
    assert_eq!(all.len(), ROUNDS * 3, "one blob per content, no temporary file left: {all:?}");
    for i in 0..ROUNDS {
        for text in [shared(i), own(0, i), own(1, i)] {
            assert_eq!(store.archive_get(&archive, &archive_id(&text)).unwrap().bytes, text);
        }
    }
    assert_eq!(store.archive_search(&archive, "", None, usize::MAX).unwrap().len(), ROUNDS * 3);
}
