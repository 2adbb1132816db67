//! Helpers shared by the integration tests: temp projects, an engine with
//! short timings, and polling with a deadline instead of fixed sleeps.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lean_ctx_search::{Action, IndexPhase, SearchConfig, SearchEngine, SearchRequest, SearchResult, Source};

pub struct Fixture {
    pub project: tempfile::TempDir,
    pub cache: tempfile::TempDir,
}

impl Fixture {
    pub fn new(files: &[(&str, &str)]) -> Fixture {
        let fixture = Fixture { project: tempfile::tempdir().unwrap(), cache: tempfile::tempdir().unwrap() };
        for (path, text) in files {
            fixture.write(path, text);
        }
        fixture
    }

    pub fn root(&self) -> &Path {
        self.project.path()
    }

    pub fn write(&self, path: &str, text: &str) {
        write(self.root(), path, text);
    }

    pub fn config(&self) -> SearchConfig {
        test_config(self.cache.path())
    }

    pub fn engine(&self) -> SearchEngine {
        SearchEngine::new(self.config())
    }
}

pub fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

pub fn test_config(cache: &Path) -> SearchConfig {
    let mut config = SearchConfig::new(cache);
    config.debounce_ms = 50;
    config.writer_heap_bytes = 15_000_000;
    config
}

pub fn search(engine: &SearchEngine, root: &Path, action: Action, pattern: &str) -> SearchResult {
    engine.search(&SearchRequest::new(root, action, pattern)).unwrap()
}

/// Builds the index and waits until searches use it.
pub fn build(engine: &SearchEngine, root: &Path) {
    let status = engine.build(root, |_| {}).unwrap();
    assert_eq!(status.phase, IndexPhase::Ready, "{status:?}");
}

/// Polls `check` until it returns true or `limit` passes; returns the time it took.
pub fn wait_for(limit: Duration, what: &str, mut check: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    loop {
        if check() {
            return start.elapsed();
        }
        assert!(start.elapsed() < limit, "timed out after {limit:?} waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Paths of an index-backed search, sorted and deduplicated.
pub fn indexed_paths(result: &SearchResult) -> Vec<String> {
    assert_eq!(result.source, Source::Index, "{}", result.text);
    paths(result)
}

pub fn paths(result: &SearchResult) -> Vec<String> {
    let mut paths: Vec<String> = result.matches.iter().map(|m| m.path.clone()).collect();
    paths.sort();
    paths.dedup();
    paths
}

/// The single project directory under `<cache>/search/`.
pub fn index_dir(cache: &Path) -> PathBuf {
    let mut dirs: Vec<PathBuf> = fs::read_dir(cache.join("search")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs.pop().unwrap()
}
