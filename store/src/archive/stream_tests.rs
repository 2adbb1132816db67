//! The streaming writer and reader: what a streamed put stores is what was written, whoever
//! else writes the same output at the same time, and an interrupted write leaves nothing.

use std::fs;
use std::path::Path;
use std::sync::Barrier;
use std::thread;

use super::blob::sorted_entries;
use super::stream::incoming_dir;
use super::*;
use crate::testutil::temp_store;

fn streamed(label: &str) -> ArchiveEntry<'_> {
    ArchiveEntry {
        kind: "shell",
        label,
        family: "generic",
        exit_code: Some(1),
        session: None,
        project: "/repo",
        text: &[],
    }
}

/// Writes `bytes` in pieces of `piece` bytes.
fn write_in_pieces(dir: &Path, bytes: &[u8], piece: usize) -> WrittenBlob {
    let mut writer = ArchiveWriter::create(dir).unwrap();
    for chunk in bytes.chunks(piece) {
        writer.write(chunk).unwrap();
    }
    assert_eq!(writer.len(), bytes.len() as u64);
    writer.finish().unwrap()
}

/// Every file under `dir`, at any depth.
fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    sorted_entries(dir)
        .unwrap()
        .into_iter()
        .flat_map(|path| if path.is_dir() { files(&path) } else { vec![path] })
        .collect()
}

/// The output read back through [`Store::archive_open`], line by line.
fn read_back(store: &Store, dir: &Path, id: &str) -> Vec<u8> {
    let (_, mut reader) = store.archive_open(dir, id).unwrap();
    let mut bytes = Vec::new();
    while reader.read_line(&mut bytes).unwrap() > 0 {}
    bytes
}

/// Text past the search index's limit, so both of its halves are taken from the stream.
fn long_log() -> Vec<u8> {
    let mut text = Vec::new();
    let mut line = 0u64;
    while text.len() < 9 * 1024 * 1024 {
        line += 1;
        text.extend_from_slice(format!("step {line} of the build: compiled module_{line}\n").as_bytes());
    }
    text.extend_from_slice(b"error: the last word\nno newline at the end");
    text
}

#[test]
fn a_streamed_output_is_archived_under_the_hash_of_its_bytes() {
    let (dir, mut store) = temp_store();
    let archive = dir.path().join("archive");
    for text in [long_log(), b"one line\n".to_vec(), Vec::new(), (0..=255u8).cycle().take(70_000).collect()] {
        let blob = write_in_pieces(&archive, &text, 65_537);
        assert_eq!(blob.id(), archive_id(&text));
        let id = store.archive_put_written(&archive, &streamed("make"), &blob).unwrap();
        assert_eq!(id, archive_id(&text));
        let got = store.archive_get(&archive, &id).unwrap();
        assert!(got.bytes == text, "{} bytes came back different", text.len());
        assert_eq!((got.meta.raw_bytes, got.meta.raw_lines), (text.len() as u64, line_count(&text)));
        assert!(read_back(&store, &archive, &id) == text, "the line reader returns the exact bytes");
    }
    // Both ends of a long output are searchable, as when it is archived whole.
    for word in ["module_1", "last word"] {
        let hits = store.archive_search(&archive, word, None, 10).unwrap();
        assert_eq!(hits.len(), 1, "{word}");
    }
    assert!(files(&incoming_dir(&archive)).is_empty(), "nothing left in incoming/");
}

/// The search index takes the same text of a streamed output as of the whole one, however the
/// writes fall: many small ones, or one that crosses the limit from an empty or short head.
#[test]
fn the_index_takes_the_same_text_of_a_stream_as_of_the_whole_output() {
    let dir = tempfile::tempdir().unwrap();
    let text = long_log();
    let whole = super::index::indexed_text(&text);
    for piece in [4_096, 65_537, 1 << 20, 3 << 20, text.len()] {
        let blob = write_in_pieces(dir.path(), &text, piece);
        assert!(blob.index_text() == whole, "pieces of {piece} bytes");
    }
    let mut writer = ArchiveWriter::create(dir.path()).unwrap();
    writer.write(&text[..100]).unwrap();
    writer.write(&text[100..]).unwrap();
    assert!(writer.finish().unwrap().index_text() == whole, "a short head, then one write past the limit");
}

#[test]
fn an_interrupted_write_leaves_no_partial_blob() {
    let (dir, store) = temp_store();
    let archive = dir.path().join("archive");
    let mut writer = ArchiveWriter::create(&archive).unwrap();
    writer.write(b"half of an output\n").unwrap();
    assert_eq!(files(&archive).len(), 1, "the temporary file exists while writing");
    drop(writer);
    assert!(files(&archive).is_empty(), "an abandoned writer deletes its file: {:?}", files(&archive));

    // Finished but never put: same.
    let blob = write_in_pieces(&archive, b"finished, not put\n", 4);
    let again = blob.clone();
    drop(blob);
    assert_eq!(files(&archive).len(), 1, "a clone still holds it");
    drop(again);
    assert!(files(&archive).is_empty());
    assert!(matches!(
        store.archive_get(&archive, &archive_id(b"finished, not put\n")),
        Err(Error::ArchiveNotFound { .. })
    ));
}

#[test]
fn the_sweep_deletes_a_crashed_stream_and_spares_a_live_one() {
    let (dir, mut store) = temp_store();
    let archive = dir.path().join("archive");
    let mut live = ArchiveWriter::create(&archive).unwrap();
    live.write(b"still running\n").unwrap();
    // What a process killed mid-write leaves: a temporary file nobody locks.
    let crashed = incoming_dir(&archive).join(".stream-1-2-0.tmp");
    fs::write(&crashed, b"left by a crash").unwrap();
    let report = store.archive_sweep(&archive, now_ms(), i64::MAX, u64::MAX).unwrap();
    assert_eq!((report.orphans, report.freed_bytes), (1, 15));
    assert!(!crashed.exists());
    live.write(b"and done\n").unwrap();
    let blob = live.finish().unwrap();
    let id = store.archive_put_written(&archive, &streamed("job"), &blob).unwrap();
    assert_eq!(store.archive_get(&archive, &id).unwrap().bytes, b"still running\nand done\n");
}

#[test]
fn identical_outputs_streamed_at_once_share_one_blob_and_one_row() {
    let (dir, store) = temp_store();
    drop(store);
    let (archive, db) = (dir.path().join("archive"), dir.path().join("state.db"));
    let text = long_log();
    let writers = 4;
    let barrier = Barrier::new(writers);
    let ids: Vec<String> = thread::scope(|scope| {
        let handles: Vec<_> = (0..writers)
            .map(|n| {
                let (archive, db, text, barrier) = (&archive, &db, &text, &barrier);
                scope.spawn(move || {
                    let mut store = Store::open(db, crate::Check::Everything).unwrap().store;
                    let blob = write_in_pieces(archive, text, 100_000 + n);
                    barrier.wait();
                    store.archive_put_written(archive, &streamed("same"), &blob).unwrap()
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().unwrap()).collect()
    });
    assert!(ids.iter().all(|id| *id == archive_id(&text)), "{ids:?}");
    let store = Store::open(&db, crate::Check::Everything).unwrap().store;
    assert!(store.archive_get(&archive, &ids[0]).unwrap().bytes == text);
    let rows: i64 = store.conn.query_row("SELECT COUNT(*) FROM archive", [], |row| row.get(0)).unwrap();
    assert_eq!(rows, 1);
    assert_eq!(files(&archive).len(), 1, "one blob, no temporary file left: {:?}", files(&archive));
}

#[test]
fn a_streamed_put_carries_no_text_and_a_damaged_blob_is_reported_while_reading() {
    let (dir, mut store) = temp_store();
    let archive = dir.path().join("archive");
    let blob = write_in_pieces(&archive, b"x\n", 1);
    let with_text = ArchiveEntry { text: b"x\n", ..streamed("x") };
    assert!(matches!(store.archive_put_written(&archive, &with_text, &blob), Err(Error::InvalidInput(_))));
    let id = store.archive_put_written(&archive, &streamed("x"), &blob).unwrap();
    fs::write(super::blob::blob_path(&archive, &id), b"not zstd at all").unwrap();
    let (_, mut reader) = store.archive_open(&archive, &id).unwrap();
    let error = reader.read_line(&mut Vec::new()).unwrap_err();
    assert!(matches!(error, Error::ArchiveDamaged { .. }), "{error}");
}

/// A process killed after its answer named a blob's id, before putting it, leaves the blob in
/// its staging file, unlocked: the next process recovers it with the same id, size, lines and
/// searchable text, and puts it, so the id expands; a recovered file another holds, or no
/// staging file, is refused.
#[test]
fn a_blob_a_killed_process_staged_is_recovered_whole_and_put_under_its_id() {
    let (dir, mut store) = temp_store();
    let archive = dir.path().join("archive");
    let text = long_log();
    let written = write_in_pieces(&archive, &text, 65_537);
    // The file as the killed process left it: its lock went with the process.
    let left = incoming_dir(&archive).join(".stream-1-2-0.tmp");
    fs::copy(written.path(), &left).unwrap();

    let recovered = WrittenBlob::recover(&left).unwrap();
    assert_eq!(recovered.id(), written.id());
    assert_eq!(
        (recovered.raw_bytes(), recovered.raw_lines(), recovered.stored_bytes()),
        (written.raw_bytes(), written.raw_lines(), written.stored_bytes())
    );
    assert!(recovered.index_text() == written.index_text());
    assert!(WrittenBlob::recover(&left).is_err(), "the recovered blob holds its file's lock");
    assert!(WrittenBlob::recover(written.path()).is_err(), "the writer's blob holds its file's lock");
    let id = store.archive_put_written(&archive, &streamed("make"), &recovered).unwrap();
    assert!(read_back(&store, &archive, &id) == text);
    assert!(!left.exists());
    assert!(WrittenBlob::recover(&left).is_err(), "a put blob is no longer staged");
    assert!(matches!(WrittenBlob::recover(&archive.join("state.db")), Err(Error::InvalidInput(_))));
}
