//! A damaged search index, end to end: the daemon notices (at a search, or
//! when it opens the index after a restart), moves the index aside, rebuilds
//! it, answers searches from a scan meanwhile and says so, and reports it in
//! Status and doctor. Waits poll with generous limits; nothing is timed.

use std::fs::{self, File};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use lean_ctx_proto::v1::{IndexPhase, IndexStatusRequest, ProjectIndex, SearchAction, SearchRequest, SearchSource};
use lean_ctx_tests::{Home, client_options, describe, wait_until};

/// Far beyond a rebuild of these projects; only an index that stays broken reaches it.
const HEAL_GUARD: Duration = Duration::from_secs(60);

/// A name only file `i` holds, one token to the code tokenizer.
fn name(i: u8) -> String {
    format!("quasar{}{}", (b'a' + i / 26) as char, (b'a' + i % 26) as char)
}

fn project(home: &Home) -> PathBuf {
    let root = home.path().join("proj");
    fs::create_dir_all(root.join(".git")).unwrap();
    fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    for i in 0..40 {
        let path = root.join(format!("src/m{i}.rs"));
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, format!("pub fn {}() {{}}\n// shared words here\n", name(i))).unwrap();
    }
    root
}

fn lctx(home: &Home, dir: &Path, args: &[&str]) -> String {
    let out = home.lctx_in(dir, false, args);
    assert!(out.status.success(), "lctx {args:?}: {}", describe(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

struct Answer {
    source: SearchSource,
    note: String,
    text: String,
}

/// A bm25 search through the daemon; a failed call fails the test.
fn bm25(home: &Home, root: &Path, query: &str) -> Answer {
    let opts = client_options(home);
    runtime().block_on(async {
        let backend = lctx::backend::Backend::connect(&opts).await.unwrap();
        let mut ctx = opts.context();
        ctx.cwd = root.display().to_string();
        let req = SearchRequest {
            ctx: Some(ctx),
            pattern: query.into(),
            action: SearchAction::Bm25 as i32,
            ..Default::default()
        };
        let out = backend.search().search(tonic::Request::new(req)).await.unwrap().into_inner();
        Answer { source: out.source(), note: out.note, text: out.text }
    })
}

/// The daemon's open index (there is one project).
fn index_status(home: &Home) -> ProjectIndex {
    let opts = client_options(home);
    runtime().block_on(async {
        let backend = lctx::backend::Backend::connect(&opts).await.unwrap();
        let req = IndexStatusRequest { ctx: Some(opts.context()) };
        let mut indexes = backend.search().index_status(req).await.unwrap().into_inner().indexes;
        assert_eq!(indexes.len(), 1, "{indexes:?}");
        indexes.pop().unwrap()
    })
}

/// `<cache>/search/<hash of the root>/`, the one project directory.
fn project_cache(home: &Home) -> PathBuf {
    let search = home.dirs().cache.join("search");
    let mut dirs: Vec<PathBuf> = fs::read_dir(&search).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs.pop().unwrap()
}

/// Flips the bits of the middle half of every segment file with this
/// extension, in place: same inode and length, footer intact, the way bit
/// rot looks and the way an index the daemon has mapped sees it.
fn garble(cache: &Path, extension: &str) {
    let mut garbled = 0;
    for entry in fs::read_dir(cache.join("index")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != extension) {
            continue;
        }
        let mut bytes = fs::read(&path).unwrap();
        let len = bytes.len();
        for byte in &mut bytes[len / 4..len * 3 / 4] {
            *byte ^= 0x5a;
        }
        let mut file = fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.seek(SeekFrom::Start(0)).unwrap();
        file.write_all(&bytes).unwrap();
        garbled += 1;
    }
    assert!(garbled > 0, "no .{extension} file under {}", cache.display());
}

fn damaged_copies(cache: &Path) -> Vec<PathBuf> {
    let mut copies: Vec<PathBuf> = fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("index.corrupt-"))
        .collect();
    copies.sort();
    copies
}

fn wait_for_index_answer(home: &Home, root: &Path) {
    let healed = wait_until(HEAL_GUARD, || bm25(home, root, &name(7)).source == SearchSource::Index);
    assert!(healed, "the index never answered again: {:?}\n{}", index_status(home), home.daemon_log());
}

/// The doctor line of the search index check.
fn doctor_index_check(home: &Home, root: &Path) -> serde_json::Value {
    let checks = home.doctor_checks(root);
    let index: Vec<&serde_json::Value> = checks.iter().filter(|c| c["check"] == "search index").collect();
    assert_eq!(index.len(), 1, "{checks:?}");
    index[0].clone()
}

#[test]
fn damage_found_by_a_search_is_moved_aside_and_rebuilt_while_searches_scan() {
    let home = Home::new();
    let root = project(&home);
    let _daemon = home.spawn_daemon(&[]);
    assert!(lctx(&home, &root, &["index"]).contains("ready"));
    assert_eq!(bm25(&home, &root, &name(7)).source, SearchSource::Index);
    let cache = project_cache(&home);

    // The daemon has these files mapped: the next query reads the garbled
    // postings (not the doc store, whose blocks it has cached since the search above).
    garble(&cache, "idx");
    let first = bm25(&home, &root, &name(7));
    assert_eq!(first.source, SearchSource::Scan, "{}", first.text);
    assert!(first.note.contains("the index failed") && first.note.contains("is being rebuilt"), "{}", first.note);
    assert!(first.text.contains("src/m7.rs") && first.text.contains("searched the files directly"), "{}", first.text);

    wait_for_index_answer(&home, &root);
    let answer = bm25(&home, &root, &name(7));
    assert!(answer.text.contains("src/m7.rs") && answer.note.is_empty(), "{}", answer.text);
    let status = index_status(&home);
    assert_eq!(status.phase(), IndexPhase::Ready);
    assert!(status.note.starts_with("rebuilt after corruption (a search"), "{}", status.note);
    let copies = damaged_copies(&cache);
    assert_eq!(copies.len(), 1, "{copies:?}");
    assert!(status.note.contains(&copies[0].display().to_string()), "{} names {copies:?}", status.note);

    // Status and doctor tell the same story; doctor passes (nothing left to do).
    let daemon_status: serde_json::Value =
        serde_json::from_str(&lctx(&home, &root, &["daemon", "status", "--json"])).unwrap();
    let figure = daemon_status["components"]["search"]["index"].as_str().unwrap_or_default().to_string();
    assert!(figure.contains("ready") && figure.contains("rebuilt after corruption"), "{daemon_status}");
    let check = doctor_index_check(&home, &root);
    assert_eq!(check["ok"], true, "{check}");
    assert!(check["detail"].as_str().unwrap().contains("rebuilt after corruption"), "{check}");
}

#[test]
fn a_daemon_started_over_a_damaged_index_heals_it_and_stays_healed() {
    let home = Home::new();
    let root = project(&home);
    {
        let _daemon = home.spawn_daemon(&[]);
        assert!(lctx(&home, &root, &["index"]).contains("ready"));
    }
    let cache = project_cache(&home);
    // Damage tantivy does not see when it opens the index; queries used to
    // panic on it, on every start.
    garble(&cache, "idx");

    let daemon = home.spawn_daemon(&[]);
    let first = bm25(&home, &root, &name(7));
    assert!(first.text.contains("src/m7.rs"), "{}", first.text);
    if first.source == SearchSource::Scan {
        assert!(first.note.contains("searched the files directly"), "{}", first.note);
    }
    wait_for_index_answer(&home, &root);
    let status = index_status(&home);
    assert!(status.note.starts_with("rebuilt after corruption (checksum mismatch in "), "{}", status.note);
    assert_eq!(damaged_copies(&cache).len(), 1);

    // The rebuilt index is sound: the next daemon uses it as it is.
    drop(daemon);
    let _daemon = home.spawn_daemon(&[]);
    wait_for_index_answer(&home, &root);
    let status = index_status(&home);
    assert_eq!((status.phase(), status.note.as_str()), (IndexPhase::Ready, ""));
    assert_eq!(damaged_copies(&cache).len(), 1, "nothing more was moved aside");
}

#[test]
fn doctor_fails_on_an_unavailable_index_and_says_how_to_fix_it() {
    let home = Home::new();
    let root = project(&home);
    {
        let _daemon = home.spawn_daemon(&[]);
        assert!(lctx(&home, &root, &["index"]).contains("ready"));
    }
    // Another process owning the index makes it unavailable to the daemon.
    let owner = File::options().write(true).open(project_cache(&home).join("owner.lock")).unwrap();
    owner.lock().unwrap();
    let _daemon = home.spawn_daemon(&[]);
    let answer = bm25(&home, &root, &name(7));
    assert!(answer.text.contains("src/m7.rs"), "{}", answer.text);
    let unavailable = wait_until(HEAL_GUARD, || index_status(&home).phase() == IndexPhase::Unavailable);
    assert!(unavailable, "{:?}", index_status(&home));
    let check = doctor_index_check(&home, &root);
    assert_eq!(check["ok"], false, "{check}");
    assert!(check["detail"].as_str().unwrap().contains("owned by another lean-ctx process"), "{check}");
    assert!(check["fix"].as_str().unwrap().contains("lctx index"), "{check}");
}
