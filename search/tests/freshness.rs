//! The index follows the disk: edits, deletions, new directories, renames
//! and git branch switches show up in index-backed searches within 2 s.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::*;
use lean_ctx_search::{Action, IndexPhase, SearchEngine};

const FRESH: Duration = Duration::from_secs(2);

fn found(engine: &SearchEngine, root: &Path, action: Action, pattern: &str) -> Vec<String> {
    indexed_paths(&search(engine, root, action, pattern))
}

#[test]
fn edited_file_is_found_by_new_content_and_deleted_file_disappears() {
    let fx = Fixture::new(&[("src/lib.rs", "fn oldname() {}\n"), ("src/other.rs", "fn keep() {}\n")]);
    let engine = fx.engine();
    build(&engine, fx.root());
    assert_eq!(found(&engine, fx.root(), Action::Bm25, "oldname"), ["src/lib.rs"]);

    fx.write("src/lib.rs", "fn freshidentifier() {}\n");
    wait_for(FRESH, "the edit to be indexed", || {
        found(&engine, fx.root(), Action::Bm25, "freshidentifier") == ["src/lib.rs"]
    });
    assert!(found(&engine, fx.root(), Action::Bm25, "oldname").is_empty());
    assert_eq!(found(&engine, fx.root(), Action::Symbol, "freshident"), ["src/lib.rs"]);

    fs::remove_file(fx.root().join("src/lib.rs")).unwrap();
    wait_for(FRESH, "the deletion to be indexed", || {
        found(&engine, fx.root(), Action::Bm25, "freshidentifier").is_empty()
    });
    assert_eq!(found(&engine, fx.root(), Action::Bm25, "keep"), ["src/other.rs"]);
}

/// An agent searches right after its own edit: the answer waits for the index to take the
/// edit (its batch is due only after the debounce) instead of answering from before it.
#[test]
fn a_search_right_after_an_edit_sees_the_edit() {
    let fx = Fixture::new(&[("src/lib.rs", "fn wake() {}\n")]);
    let mut config = fx.config();
    config.debounce_ms = 400;
    let engine = SearchEngine::new(config);
    build(&engine, fx.root());
    assert_eq!(found(&engine, fx.root(), Action::Symbol, "wake"), ["src/lib.rs"]);
    fx.write("src/lib.rs", "fn wake_renamed() {}\n");
    // Long enough for the watcher to see the write, well short of the debounce.
    std::thread::sleep(Duration::from_millis(100));
    let result = search(&engine, fx.root(), Action::Symbol, "wake_renamed");
    assert_eq!(indexed_paths(&result), ["src/lib.rs"], "{:?}", result.note);
    assert_eq!(result.note, None);
}

#[test]
fn new_directories_and_renames_are_followed() {
    let fx = Fixture::new(&[("a/one.rs", "fn firstmarker() {}\n")]);
    let engine = fx.engine();
    build(&engine, fx.root());

    fx.write("new/deep/er/two.rs", "fn nestedmarker() {}\n");
    wait_for(FRESH, "a file in new directories", || {
        found(&engine, fx.root(), Action::Bm25, "nestedmarker") == ["new/deep/er/two.rs"]
    });
    // A file created after the directory is watched.
    fx.write("new/deep/er/three.rs", "fn latermarker() {}\n");
    wait_for(FRESH, "a later file in the new directory", || {
        found(&engine, fx.root(), Action::Bm25, "latermarker") == ["new/deep/er/three.rs"]
    });

    fs::rename(fx.root().join("new"), fx.root().join("moved")).unwrap();
    wait_for(FRESH, "the renamed directory", || {
        found(&engine, fx.root(), Action::Bm25, "nestedmarker") == ["moved/deep/er/two.rs"]
    });
    // The moved directory is still watched under its new name.
    fx.write("moved/deep/er/two.rs", "fn aftermovemarker() {}\n");
    wait_for(FRESH, "an edit inside the moved directory", || {
        found(&engine, fx.root(), Action::Bm25, "aftermovemarker") == ["moved/deep/er/two.rs"]
    });
}

#[test]
fn ignored_files_stay_out_of_the_index() {
    let fx = Fixture::new(&[(".gitignore", "build/\n*.log\n"), ("src/a.rs", "fn visiblemarker() {}\n")]);
    let engine = fx.engine();
    build(&engine, fx.root());
    fx.write("build/out.rs", "fn ignoredmarker() {}\n");
    fx.write("src/debug.log", "ignoredmarker\n");
    fx.write("src/b.rs", "fn sentinelmarker() {}\n");
    wait_for(FRESH, "the sentinel", || found(&engine, fx.root(), Action::Bm25, "sentinelmarker") == ["src/b.rs"]);
    assert!(found(&engine, fx.root(), Action::Bm25, "ignoredmarker").is_empty());
}

fn git(dir: &Path, args: &[&str]) {
    let output = Command::new("git")
        .args(["-c", "user.email=test@example.invalid", "-c", "user.name=test", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(output.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&output.stderr));
}

/// The index holds exactly the files the ignore rules admit in the working
/// tree (`glob` walks the tree afresh), `expected` of them.
fn assert_index_matches_tree(engine: &SearchEngine, root: &Path, expected: u64) {
    let on_disk = engine.glob(root, "*", None, usize::MAX, &|_| None).unwrap().total;
    let status = engine.project_status(root).unwrap().unwrap();
    assert_eq!((status.files, on_disk), (expected, expected), "{status:?}");
}

#[test]
fn git_branch_switch_leaves_the_index_consistent() {
    let fx = Fixture::new(&[]);
    let root = fx.root();
    git(root, &["init", "-q"]);
    fx.write("common.rs", "fn commonmainversion() {}\n");
    fx.write("only_main.rs", "fn mainbranchonly() {}\n");
    // Enough files changing between the branches that the checkout is a burst
    // (more events in watched directories than the threshold).
    let generated = |branch: &str| {
        for i in 0..600 {
            fx.write(&format!("gen/m{:02}/f{i}.rs", i % 20), &format!("fn generated_{branch}_{i}() {{}}\n"));
        }
    };
    generated("main");
    git(root, &["add", "."]);
    git(root, &["commit", "-qm", "main"]);
    git(root, &["checkout", "-qb", "feature"]);
    fs::remove_file(root.join("only_main.rs")).unwrap();
    fx.write("common.rs", "fn commonfeatureversion() {}\n");
    fx.write("only_feature.rs", "fn featurebranchonly() {}\n");
    fx.write("newdir/x.rs", "fn newdirmarker() {}\n");
    generated("feature");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "feature"]);
    git(root, &["checkout", "-q", "main"]);

    let engine = fx.engine();
    build(&engine, root);
    assert_index_matches_tree(&engine, root, 602);
    let syncs_before = engine.project_status(root).unwrap().unwrap().full_syncs;
    assert_eq!(syncs_before, 1, "the explicit build reuses the lazy first build");

    git(root, &["checkout", "-q", "feature"]);
    wait_for(Duration::from_secs(5), "the feature branch to be indexed", || {
        engine.project_status(root).unwrap().unwrap().files == 603
            && found(&engine, root, Action::Symbol, "generated_feature_599") == ["gen/m19/f599.rs"]
            && found(&engine, root, Action::Bm25, "featurebranchonly") == ["only_feature.rs"]
    });
    assert!(found(&engine, root, Action::Bm25, "mainbranchonly").is_empty());
    assert!(found(&engine, root, Action::Bm25, "commonmainversion").is_empty());
    assert!(found(&engine, root, Action::Symbol, "generated_main").is_empty());
    assert_eq!(found(&engine, root, Action::Bm25, "commonfeatureversion"), ["common.rs"]);
    assert_eq!(found(&engine, root, Action::Bm25, "newdirmarker"), ["newdir/x.rs"]);
    let status = engine.project_status(root).unwrap().unwrap();
    assert!(status.full_syncs > syncs_before, "the checkout burst should trigger a rescan: {status:?}");

    git(root, &["checkout", "-q", "main"]);
    wait_for(Duration::from_secs(5), "the main branch to be indexed", || {
        engine.project_status(root).unwrap().unwrap().files == 602
            && found(&engine, root, Action::Symbol, "generated_main_599") == ["gen/m19/f599.rs"]
            && found(&engine, root, Action::Bm25, "mainbranchonly") == ["only_main.rs"]
    });
    assert!(found(&engine, root, Action::Symbol, "generated_feature").is_empty());
    assert!(found(&engine, root, Action::Bm25, "newdirmarker").is_empty());
    assert_eq!(found(&engine, root, Action::Bm25, "commonmainversion"), ["common.rs"]);
    assert_index_matches_tree(&engine, root, 602);
    assert!(matches!(engine.project_status(root).unwrap().unwrap().phase, IndexPhase::Ready));
}

/// Sends what an observer is told, in order, to the test; extras as `path:value/size` where the
/// value is the `usize` a test's index extractor left and the size is the extra's stamp's.
struct Recorder(std::sync::mpsc::Sender<String>);

fn list_extras(extras: &lean_ctx_search::Extras) -> String {
    let mut shown: Vec<String> = extras
        .iter()
        .map(|(path, extra)| {
            format!("{}:{:?}/{}", path.display(), extra.value.downcast_ref::<usize>(), extra.stamp.size)
        })
        .collect();
    shown.sort();
    if shown.is_empty() { String::new() } else { format!(" extras {}", shown.join(",")) }
}

impl lean_ctx_search::IndexObserver for Recorder {
    fn synced_all(&self, _: &Path, files: &[std::path::PathBuf], extras: lean_ctx_search::Extras) {
        let mut files: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        files.sort();
        let _ = self.0.send(format!("all {}{}", files.join(","), list_extras(&extras)));
    }
    fn changed(
        &self,
        _: &Path,
        upserts: &[std::path::PathBuf],
        deletes: &[std::path::PathBuf],
        extras: lean_ctx_search::Extras,
    ) {
        let list = |p: &[std::path::PathBuf]| p.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(",");
        let _ = self.0.send(format!("changed +{} -{}{}", list(upserts), list(deletes), list_extras(&extras)));
    }
    fn closed(&self, _: &Path) {
        let _ = self.0.send("closed".into());
    }
}

#[test]
fn the_index_extractor_serves_symbol_search_and_hands_its_extras_to_the_observer() {
    let big = format!("fn big() {{}}\n{}", "//\n".repeat(40));
    let fx = Fixture::new(&[
        ("src/lib.rs", "fn one() {}\n"),
        ("src/two.rs", "fn two() {}\n"),
        ("notes.md", "hi\n"),
        ("src/big.rs", &big),
    ]);
    let (tx, rx) = std::sync::mpsc::channel();
    let mut config = fx.config();
    config.observer = Some(std::sync::Arc::new(Recorder(tx)));
    // src/big.rs is over the bound: listed for the observer, which can say it left it out, not read.
    config.max_file_bytes = 64;
    // Names every file's length as its one symbol, and leaves the length for the observer on `.rs` files.
    config.index_extractor = Some(std::sync::Arc::new(|path: &Path, text: &str| lean_ctx_search::Extraction {
        symbols: vec![lean_ctx_search::Symbol {
            name: format!("len{}", text.len()),
            kind: "x".into(),
            line: 1,
            owner: None,
        }],
        extra: (path.extension().is_some_and(|e| e == "rs")).then(|| Box::new(text.len()) as Box<_>),
    }));
    let engine = SearchEngine::new(config);
    assert!(engine.open(fx.root()).unwrap());
    let mut calls = Vec::new();
    wait_for(FRESH, "the first walk to be reported", || {
        calls.extend(rx.try_iter());
        !calls.is_empty()
    });
    assert_eq!(
        calls,
        ["all notes.md,src/big.rs,src/lib.rs,src/two.rs extras src/lib.rs:Some(12)/12,src/two.rs:Some(12)/12"]
    );
    assert_eq!(found(&engine, fx.root(), Action::Symbol, "len3"), ["notes.md"]);

    fx.write("src/lib.rs", "fn one_changed() {}\n");
    wait_for(FRESH, "the batch to be reported", || {
        calls.extend(rx.try_iter());
        calls.len() > 1
    });
    assert_eq!(calls[1], "changed +src/lib.rs - extras src/lib.rs:Some(20)/20");
}

#[test]
fn an_observer_follows_the_walk_each_batch_and_the_close() {
    let fx = Fixture::new(&[("src/lib.rs", "fn one() {}\n"), ("src/two.rs", "fn two() {}\n")]);
    let (tx, rx) = std::sync::mpsc::channel();
    let mut config = fx.config();
    config.observer = Some(std::sync::Arc::new(Recorder(tx)));
    let engine = SearchEngine::new(config);
    assert!(engine.open(fx.root()).unwrap());
    let mut calls = Vec::new();
    let seen = |calls: &mut Vec<String>| calls.extend(rx.try_iter());
    wait_for(FRESH, "the first walk to be reported", || {
        seen(&mut calls);
        calls == ["all src/lib.rs,src/two.rs"]
    });

    fx.write("src/lib.rs", "fn one_changed() {}\n");
    fs::remove_file(fx.root().join("src/two.rs")).unwrap();
    wait_for(FRESH, "the batch to be reported", || {
        seen(&mut calls);
        let reported = calls[1..].join(" | ");
        reported.contains("+src/lib.rs") && reported.contains("src/two.rs")
    });

    assert!(engine.close(fx.root()).unwrap());
    wait_for(FRESH, "the close to be reported", || {
        seen(&mut calls);
        calls.last().is_some_and(|c| c == "closed")
    });
}
