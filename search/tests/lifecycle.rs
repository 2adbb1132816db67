//! Index lifecycle: reuse across restarts, rebuild of corrupt or outdated
//! indexes, idle close, the memory budget, build progress.

mod common;

use std::fs;
use std::path::Path;
use std::sync::{Arc, mpsc};
use std::time::Duration;

use common::*;
use lean_ctx_search::{
    Action, IndexPhase, SearchEngine, SearchError, Source, Symbol, SymbolExtractor, default_extractor,
};

fn project() -> Fixture {
    Fixture::new(&[("src/a.rs", "fn alphafunction() {}\n"), ("src/b.py", "def betafunction():\n    pass\n")])
}

fn assert_searchable(engine: &SearchEngine, fx: &Fixture) {
    assert_eq!(indexed_paths(&search(engine, fx.root(), Action::Bm25, "alphafunction")), ["src/a.rs"]);
    assert_eq!(indexed_paths(&search(engine, fx.root(), Action::Symbol, "beta")), ["src/b.py"]);
}

#[test]
fn index_is_reused_after_a_restart() {
    let fx = project();
    {
        let engine = fx.engine();
        build(&engine, fx.root());
        let status = engine.project_status(fx.root()).unwrap().unwrap();
        assert_eq!((status.files, status.rebuilt_because.clone()), (2, None), "{status:?}");
        assert!(status.size_on_disk > 0 && status.approx_memory >= status.size_on_disk);
        assert!(status.last_commit.is_some());
    }
    fx.write("src/c.rs", "fn gammafunction() {}\n");
    let engine = fx.engine();
    build(&engine, fx.root());
    let status = engine.project_status(fx.root()).unwrap().unwrap();
    assert_eq!((status.files, status.rebuilt_because), (3, None));
    assert_searchable(&engine, &fx);
    assert_eq!(indexed_paths(&search(&engine, fx.root(), Action::Bm25, "gammafunction")), ["src/c.rs"]);
}

#[test]
fn corrupt_index_is_deleted_and_rebuilt() {
    let fx = project();
    drop({
        let engine = fx.engine();
        build(&engine, fx.root());
        engine
    });
    let index = index_dir(fx.cache.path()).join("index");
    for entry in fs::read_dir(&index).unwrap() {
        let path = entry.unwrap().path();
        fs::write(&path, b"\x00garbage\xffnot an index").unwrap();
    }
    fs::write(index.join("stray.bin"), b"junk").unwrap();
    let engine = fx.engine();
    build(&engine, fx.root());
    let status = engine.project_status(fx.root()).unwrap().unwrap();
    assert!(status.rebuilt_because.is_some(), "{status:?}");
    assert_eq!(status.files, 2);
    assert_searchable(&engine, &fx);
}

#[test]
fn index_of_another_schema_version_is_rebuilt() {
    let fx = project();
    drop({
        let engine = fx.engine();
        build(&engine, fx.root());
        engine
    });
    let version_file = index_dir(fx.cache.path()).join("schema-version");
    let current = fs::read_to_string(&version_file).unwrap();
    fs::write(&version_file, "0").unwrap();
    let engine = fx.engine();
    build(&engine, fx.root());
    let status = engine.project_status(fx.root()).unwrap().unwrap();
    let expected = format!("schema version 0 (expected {})", current.trim());
    let discarded = status.rebuilt_because.unwrap();
    assert_eq!((discarded.reason, discarded.corrupt, discarded.kept_at), (expected, false, None));
    assert_searchable(&engine, &fx);
}

/// An extractor that finds more (an outline change) has another fingerprint: an index of
/// unchanged files is rebuilt with what it finds, with no schema version bumped by hand.
#[test]
fn index_of_another_extractor_is_rebuilt_with_its_symbols() {
    let fx = project();
    let engine = |extractor_version: fn() -> &'static str, extractor: SymbolExtractor| {
        let mut config = fx.config();
        (config.extractor_version, config.extractor) = (extractor_version, extractor);
        let engine = SearchEngine::new(config);
        build(&engine, fx.root());
        engine
    };
    let old = engine(|| "old", default_extractor());
    assert!(search(&old, fx.root(), Action::Symbol, "deltaconstant").matches.is_empty());
    drop(old);
    // The new extractor also finds a constant the old one missed in the unchanged `src/a.rs`.
    let finds_more: SymbolExtractor = Arc::new(|path: &Path, text: &str| {
        let mut symbols = default_extractor()(path, text);
        if path.ends_with("src/a.rs") {
            symbols.push(Symbol { name: "deltaconstant".into(), kind: "const".into(), line: 1, owner: None });
        }
        symbols
    });
    let new = engine(|| "new", finds_more.clone());
    assert_eq!(indexed_paths(&search(&new, fx.root(), Action::Symbol, "deltaconstant")), ["src/a.rs"]);
    let status = new.project_status(fx.root()).unwrap().unwrap();
    let reason = status.rebuilt_because.map(|discarded| discarded.reason);
    // `schema version N-old (expected N-new)`, whatever the schema's own version N.
    let reason = reason.expect("rebuilt");
    let (old_version, new_version) =
        reason.strip_prefix("schema version ").and_then(|r| r.split_once(" (expected ")).expect(&reason);
    assert!(old_version.ends_with("-old") && new_version.ends_with("-new)"), "{reason}");
    assert_eq!(old_version.strip_suffix("-old"), new_version.strip_suffix("-new)"), "{reason}");
    drop(new);
    // The same fingerprint keeps the index.
    let again = engine(|| "new", finds_more);
    assert_eq!(again.project_status(fx.root()).unwrap().unwrap().rebuilt_because, None);
}

#[test]
fn idle_project_is_closed_and_reopened_on_the_next_search() {
    let fx = project();
    let mut config = fx.config();
    config.idle_close_secs = 1;
    let engine = SearchEngine::new(config);
    build(&engine, fx.root());
    assert!(engine.project_status(fx.root()).unwrap().is_some());
    wait_for(Duration::from_secs(5), "the idle project to close", || {
        engine.project_status(fx.root()).unwrap().is_none()
    });
    assert!(engine.status().iter().all(|s| s.phase == IndexPhase::Closed));
    // The next search reopens it and the index on disk is reused.
    let result = search(&engine, fx.root(), Action::Bm25, "alphafunction");
    assert_eq!(paths(&result), ["src/a.rs"]);
    wait_for(Duration::from_secs(5), "the reopened index", || {
        search(&engine, fx.root(), Action::Bm25, "alphafunction").source == Source::Index
    });
    assert_eq!(engine.project_status(fx.root()).unwrap().unwrap().rebuilt_because, None);
}

#[test]
fn memory_budget_closes_the_least_recently_used_project() {
    let (one, two, three) = (project(), project(), project());
    let mut config = one.config();
    config.memory_budget_bytes = 1;
    let engine = SearchEngine::new(config);
    build(&engine, one.root());
    build(&engine, two.root());
    assert!(engine.project_status(one.root()).unwrap().is_none(), "one was least recently used");
    assert!(engine.project_status(two.root()).unwrap().is_some());
    search(&engine, three.root(), Action::Regex, "x");
    assert!(engine.project_status(two.root()).unwrap().is_none());
    assert!(engine.project_status(three.root()).unwrap().is_some());
}

#[test]
fn build_reports_progress_and_close_stops_the_project() {
    let fx = project();
    for i in 0..600 {
        fx.write(&format!("gen/f{i}.rs"), &format!("fn generated{i}() {{}}\n"));
    }
    let engine = fx.engine();
    let (log, seen) = mpsc::channel();
    let status = engine
        .build(fx.root(), move |p| {
            let _ = log.send(p);
        })
        .unwrap();
    assert_eq!(status.files, 602);
    let seen: Vec<_> = seen.try_iter().collect();
    // Every 256 files, then the end.
    assert_eq!(
        seen.iter().map(|p| (p.done, p.total)).collect::<Vec<_>>(),
        [(0, 602), (256, 602), (512, 602), (602, 602)]
    );
    let status = engine.build(fx.root(), |_| {}).unwrap();
    assert_eq!(status.full_syncs, 2);
    assert!(engine.close(fx.root()).unwrap());
    assert!(!engine.close(fx.root()).unwrap());
    assert!(engine.project_status(fx.root()).unwrap().is_none());
}

#[test]
fn without_build_on_search_a_search_scans_and_opens_nothing() {
    let fx = project();
    let mut config = fx.config();
    config.build_on_search = false;
    let engine = SearchEngine::new(config);
    let result = search(&engine, fx.root(), Action::Symbol, "alpha");
    assert_eq!((result.source, paths(&result)), (Source::Scan, vec!["src/a.rs".to_string()]));
    assert!(result.note.unwrap().contains("build_on_search is off"));
    assert!(engine.status().is_empty());
    assert!(!fx.cache.path().join("search").exists());
    // An explicit build still works, and later searches use it.
    build(&engine, fx.root());
    assert_searchable(&engine, &fx);
}

#[test]
fn engine_can_be_shared_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<SearchEngine>();
    let fx = project();
    let engine = std::sync::Arc::new(fx.engine());
    let threads: Vec<_> = (0..4)
        .map(|i| {
            let (engine, root) = (engine.clone(), fx.root().to_path_buf());
            std::thread::spawn(move || {
                let action = [Action::Regex, Action::Bm25, Action::Symbol, Action::Regex][i];
                (0..20).map(|_| search(&engine, &root, action, "alphafunction").total).max()
            })
        })
        .collect();
    for thread in threads {
        assert_eq!(thread.join().unwrap(), Some(1));
    }
}

#[test]
fn a_build_whose_caller_leaves_stops_and_closes_the_project_it_opened() {
    let files: Vec<(String, String)> = (0..50).map(|i| (format!("f{i}.txt"), format!("word{i}\n"))).collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let fx = Fixture::new(&refs);
    // The caller leaves while the first file is being indexed.
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut config = fx.config();
    let (leave, count) = (cancel.clone(), seen.clone());
    config.extractor = std::sync::Arc::new(move |_: &std::path::Path, _: &str| {
        count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        leave.store(true, std::sync::atomic::Ordering::SeqCst);
        std::thread::sleep(std::time::Duration::from_millis(200));
        Vec::new()
    });
    let engine = SearchEngine::new(config);
    let result = engine.build_until(fx.root(), |_| {}, &cancel);
    assert!(matches!(result, Err(SearchError::Cancelled)), "{result:?}");
    assert!(engine.status().is_empty(), "the project it opened is closed: {:?}", engine.status());
    drop(engine);
    assert!(seen.load(std::sync::atomic::Ordering::SeqCst) < 50, "the build went on after its caller left");
}
