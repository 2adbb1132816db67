//! A damaged index heals itself: damage found when the index is opened or
//! while it is used (an error, a panic) moves it aside and rebuilds it, and
//! searches answer from a scan meanwhile, never with a panic.

mod common;

use std::fs;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use common::*;
use lean_ctx_search::{Action, Discarded, IndexPhase, SearchEngine, SearchRequest, Source};

/// Far beyond a rebuild of this small project; only a stuck index reaches it.
const HEAL_GUARD: Duration = Duration::from_secs(30);

/// A name only file `i` holds, one token to the code tokenizer (no digits, no case change).
fn name(i: u8) -> String {
    format!("quasar{}{}", (b'a' + i / 26) as char, (b'a' + i % 26) as char)
}

fn project() -> Fixture {
    let fx = Fixture::new(&[]);
    for i in 0..40 {
        fx.write(&format!("src/m{i}.rs"), &format!("pub fn {}() {{}}\n// shared words here\n", name(i)));
    }
    fx
}

/// Builds the index in an engine that is gone again, as before a restart.
fn built(fx: &Fixture) -> PathBuf {
    drop({
        let engine = fx.engine();
        build(&engine, fx.root());
        engine
    });
    index_dir(fx.cache.path())
}

/// The files of the index's one segment with this extension.
fn segment_files(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let files: Vec<PathBuf> = fs::read_dir(dir.join("index"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    assert!(!files.is_empty(), "no .{extension} file in {}", dir.display());
    files
}

/// Flips the bits of the middle half of a file in place (same inode, same
/// length, footer intact): what bit rot looks like, and what an index that
/// is open and mapped sees.
fn garble_middle(path: &Path) {
    let mut bytes = fs::read(path).unwrap();
    let len = bytes.len();
    for byte in &mut bytes[len / 4..len * 3 / 4] {
        *byte ^= 0x5a;
    }
    let mut file = fs::OpenOptions::new().write(true).open(path).unwrap();
    file.seek(SeekFrom::Start(0)).unwrap();
    file.write_all(&bytes).unwrap();
}

/// The `index.corrupt-<secs>` copies, oldest first.
fn damaged_copies(dir: &Path) -> Vec<PathBuf> {
    let mut copies: Vec<(u64, PathBuf)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| Some((p.file_name()?.to_str()?.strip_prefix("index.corrupt-")?.parse().ok()?, p)))
        .collect();
    copies.sort();
    copies.into_iter().map(|(_, p)| p).collect()
}

fn assert_searchable(engine: &SearchEngine, fx: &Fixture) {
    let result = search(engine, fx.root(), Action::Bm25, &name(7));
    assert_eq!(indexed_paths(&result), ["src/m7.rs"]);
    assert_eq!(indexed_paths(&search(engine, fx.root(), Action::Symbol, &name(12))), ["src/m12.rs"]);
}

/// Opens the damaged index in a new engine and checks that it was moved
/// aside (not deleted), rebuilt, and says why.
fn assert_healed_on_open(fx: &Fixture, dir: &Path, reason: &str) -> Discarded {
    let engine = fx.engine();
    build(&engine, fx.root());
    let status = engine.project_status(fx.root()).unwrap().unwrap();
    let discarded = status.rebuilt_because.clone().unwrap_or_else(|| panic!("not rebuilt: {status:?}"));
    assert!(discarded.corrupt, "{discarded:?}");
    assert!(discarded.reason.contains(reason), "{discarded:?}");
    let copies = damaged_copies(dir);
    assert_eq!(discarded.kept_at.as_ref(), copies.last(), "the damaged copy is kept where Status says");
    assert_eq!(status.files, 40);
    assert_searchable(&engine, fx);
    assert!(status.note().unwrap().contains("rebuilt after corruption"), "{:?}", status.note());
    discarded
}

#[test]
fn a_garbled_segment_is_found_by_its_checksum_when_opened() {
    // tantivy opens such an index without complaint and then panics in the
    // first query that reads the damaged postings.
    let fx = project();
    let dir = built(&fx);
    for file in segment_files(&dir, "idx") {
        garble_middle(&file);
    }
    assert_healed_on_open(&fx, &dir, "checksum mismatch");
}

#[test]
fn a_truncated_meta_json_is_moved_aside() {
    let fx = project();
    let dir = built(&fx);
    let meta = dir.join("index/meta.json");
    let text = fs::read(&meta).unwrap();
    fs::write(&meta, &text[..text.len() / 2]).unwrap();
    assert_healed_on_open(&fx, &dir, "cannot open");
}

#[test]
fn a_zeroed_doc_store_is_moved_aside() {
    let fx = project();
    let dir = built(&fx);
    for file in segment_files(&dir, "store") {
        let len = fs::metadata(&file).unwrap().len() as usize;
        fs::write(&file, vec![0u8; len]).unwrap();
    }
    assert_healed_on_open(&fx, &dir, "store");
}

#[test]
fn a_missing_segment_file_is_moved_aside() {
    let fx = project();
    let dir = built(&fx);
    for file in segment_files(&dir, "term") {
        fs::remove_file(file).unwrap();
    }
    assert_healed_on_open(&fx, &dir, "term");
}

#[test]
fn a_garbled_schema_version_file_means_damage() {
    let fx = project();
    let dir = built(&fx);
    fs::write(dir.join("schema-version"), b"\x00\xff\x13").unwrap();
    assert_healed_on_open(&fx, &dir, "garbled schema version");
}

#[test]
fn garbage_in_the_managed_file_list_is_moved_aside() {
    let fx = project();
    let dir = built(&fx);
    fs::write(dir.join("index/.managed.json"), b"{ not json").unwrap();
    assert_healed_on_open(&fx, &dir, "cannot open");
}

#[test]
fn an_index_that_is_not_a_directory_is_moved_aside() {
    // Deleting it used to fail (remove_dir_all on a file) and left the
    // project unavailable for good.
    let fx = project();
    let dir = built(&fx);
    fs::remove_dir_all(dir.join("index")).unwrap();
    fs::write(dir.join("index"), b"junk").unwrap();
    let discarded = assert_healed_on_open(&fx, &dir, "cannot open");
    assert!(discarded.kept_at.unwrap().is_file());
}

#[test]
fn only_the_newest_two_damaged_copies_are_kept() {
    let fx = project();
    let dir = built(&fx);
    for (round, old) in ["index.corrupt-1", "index.corrupt-2"].iter().enumerate() {
        fs::create_dir(dir.join(old)).unwrap();
        fs::write(dir.join(old).join("meta.json"), format!("copy {round}")).unwrap();
    }
    fs::write(dir.join("index/meta.json"), b"").unwrap();
    let discarded = assert_healed_on_open(&fx, &dir, "cannot open");
    assert_eq!(damaged_copies(&dir), [dir.join("index.corrupt-2"), discarded.kept_at.unwrap()]);
}

#[test]
fn damage_found_by_a_search_is_rebuilt_while_searches_scan() {
    let fx = project();
    let engine = fx.engine();
    build(&engine, fx.root());
    let dir = index_dir(fx.cache.path());
    // The open index maps these files, so the next query reads the garbled postings.
    for file in segment_files(&dir, "idx") {
        garble_middle(&file);
    }
    let first = search(&engine, fx.root(), Action::Bm25, &name(7));
    assert_eq!((first.source, paths(&first)), (Source::Scan, vec!["src/m7.rs".to_string()]));
    let note = first.note.unwrap();
    // Which of the two depends on where the garbage lands; neither reaches the caller.
    assert!(note.contains("the index failed (a search failed") || note.contains("the index failed (a search panicked"));
    assert!(note.contains("and is being rebuilt"), "{note}");
    assert!(first.text.contains("searched the files directly"), "{}", first.text);
    wait_for(HEAL_GUARD, "the rebuilt index to answer", || {
        search(&engine, fx.root(), Action::Bm25, &name(7)).source == Source::Index
    });
    assert_searchable(&engine, &fx);
    let status = engine.project_status(fx.root()).unwrap().unwrap();
    let discarded = status.rebuilt_because.unwrap();
    assert!(discarded.corrupt && discarded.reason.starts_with("a search"), "{discarded:?}");
    assert_eq!(discarded.kept_at.as_ref(), damaged_copies(&dir).last());
    // The rebuilt index is sound: a restart reuses it.
    drop(engine);
    let engine = fx.engine();
    build(&engine, fx.root());
    assert_eq!(engine.project_status(fx.root()).unwrap().unwrap().rebuilt_because, None);
}

#[test]
fn a_panic_in_the_index_thread_rebuilds_instead_of_leaving_the_index_stuck() {
    // A progress callback runs on the index thread; its panic stands for any
    // panic there. The thread used to die with the phase stuck at building,
    // so every search scanned from then on.
    let fx = project();
    let engine = fx.engine();
    build(&engine, fx.root());
    let built_before = damaged_copies(&index_dir(fx.cache.path()));
    assert!(built_before.is_empty());
    let result = engine.build(fx.root(), |_| panic!("progress callback failed"));
    assert!(result.is_err(), "the interrupted build is reported, not answered as done");
    wait_for(HEAL_GUARD, "the index to be rebuilt after the panic", || {
        let status = engine.project_status(fx.root()).unwrap();
        status.is_some_and(|s| s.phase == IndexPhase::Ready && s.rebuilt_because.is_some())
    });
    assert_searchable(&engine, &fx);
    let discarded = engine.project_status(fx.root()).unwrap().unwrap().rebuilt_because.unwrap();
    assert!(discarded.reason.contains("the index thread panicked: progress callback failed"), "{discarded:?}");
    assert!(discarded.corrupt && discarded.kept_at.is_some(), "{discarded:?}");
}

#[test]
fn a_scan_standing_in_for_the_index_stops_at_its_budget_and_says_so() {
    let fx = project();
    // The owner keeps the index, so the second engine can only scan.
    let owner = fx.engine();
    build(&owner, fx.root());
    let mut config = fx.config();
    config.scan_budget = Duration::ZERO;
    let scanning = SearchEngine::new(config);
    let result = search(&scanning, fx.root(), Action::Bm25, &name(7));
    assert_eq!((result.source, result.total, result.files_searched), (Source::Scan, 0, 0));
    let note = result.note.unwrap();
    assert!(note.contains("the scan stopped at its 0ns budget after 0 files, so the results are partial"), "{note}");
    // Without an index to wait for, the scan is the answer and is not cut.
    let mut config = fx.config();
    config.scan_budget = Duration::ZERO;
    config.build_on_search = false;
    let result = search(&SearchEngine::new(config), fx.root(), Action::Bm25, &name(7));
    assert_eq!(paths(&result), ["src/m7.rs"]);
}

#[test]
fn a_panicking_extractor_costs_a_scanned_file_its_symbols_not_the_search() {
    let fx = project();
    let mut config = fx.config();
    config.build_on_search = false;
    config.extractor = Arc::new(|path, _| if path.ends_with("m7.rs") { panic!("extractor bug") } else { Vec::new() });
    let engine = SearchEngine::new(config);
    let result = engine.search(&SearchRequest::new(fx.root(), Action::Symbol, "quasar")).unwrap();
    assert_eq!((result.source, result.total, result.files_searched), (Source::Scan, 0, 40));
}
