//! Engine configuration: the daemon fills it from its own config file, tests
//! shrink the timings.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use std::sync::Arc;

use crate::mask::Mask;
use crate::observer::IndexObserver;
use crate::symbols::{IndexExtractor, SymbolExtractor, default_extractor};

/// How a [`crate::SearchEngine`] indexes, watches and forgets projects.
#[derive(Clone)]
pub struct SearchConfig {
    /// Indexes live under `<cache_dir>/search/<blake3(root)[..16]>/`.
    pub cache_dir: PathBuf,
    /// Heap of one tantivy writer while it indexes (tantivy's floor is 15 MB).
    pub writer_heap_bytes: usize,
    /// Approximate memory all open indexes may use; least recently used projects
    /// are closed first when it is exceeded.
    pub memory_budget_bytes: u64,
    /// A project with no search for this long is closed (watcher stopped, readers dropped).
    pub idle_close_secs: u64,
    /// File events are collected until this long passes without a new one.
    pub debounce_ms: u64,
    /// More events than this in one debounce window (a `git checkout`, a large
    /// generator) trigger a rescan of the whole tree instead of per-file updates.
    pub burst_threshold: usize,
    /// Indexing threads across all projects (each project uses at most one).
    pub max_indexing_threads: usize,
    /// Larger files are skipped by every action and counted as `too_large`.
    pub max_file_bytes: u64,
    /// Follow symbolic links while walking (loops are detected and counted).
    pub follow_symlinks: bool,
    /// A bm25 or symbol search that scans because the index is not ready
    /// (building, rebuilding, unavailable) stops reading files after this
    /// long and says its results are partial: on a large project a full
    /// scan takes minutes, longer than an agent waits for an answer.
    pub scan_budget: Duration,
    /// A regex search reads every file (it is exact, no index serves it);
    /// past this long it stops and says its results are partial.
    pub regex_budget: Duration,
    /// An explicit build (`lctx index`) waits at most this long, then answers
    /// with its progress while the build goes on in the background.
    pub build_wait: Duration,
    /// Start indexing a project on its first search. A short-lived in-process
    /// client turns this off: it would exit before the index is useful.
    pub build_on_search: bool,
    /// Finds symbol definitions in a file; the daemon plugs in its tree-sitter outline.
    pub extractor: SymbolExtractor,
    /// Used instead of `extractor` while indexing (not by scans), for an extraction that also
    /// produces something for the observer.
    pub index_extractor: Option<IndexExtractor>,
    /// A fingerprint of what the extractors find (ASCII letters and digits; empty for the
    /// default's regex), called when an index is opened: an index written with another is
    /// rebuilt, its symbols having come from another extractor.
    pub extractor_version: fn() -> &'static str,
    /// The secrets bm25 never ranks by: the index holds each file's words as this masks them, and
    /// a scan counts them so (or as the request's own mask masks them, when it has one), so a secret's word
    /// finds no file. The index serves every request, so this is the redactor whatever a
    /// request's redaction setting.
    pub index_mask: Option<Mask>,
    /// Told what each project's index applied; the daemon's code graph follows the index this way.
    pub observer: Option<Arc<dyn IndexObserver>>,
}

impl SearchConfig {
    /// Defaults suited to a long-lived daemon, with indexes under `cache_dir`.
    pub fn new(cache_dir: impl Into<PathBuf>) -> Self {
        SearchConfig {
            cache_dir: cache_dir.into(),
            writer_heap_bytes: 50_000_000,
            memory_budget_bytes: 1 << 30,
            idle_close_secs: 900,
            debounce_ms: 200,
            burst_threshold: 500,
            max_indexing_threads: 2,
            max_file_bytes: 1 << 20,
            follow_symlinks: false,
            scan_budget: Duration::from_secs(10),
            regex_budget: Duration::from_secs(60),
            build_wait: Duration::from_secs(300),
            build_on_search: true,
            extractor: default_extractor(),
            index_extractor: None,
            extractor_version: || "",
            index_mask: None,
            observer: None,
        }
    }
}

impl fmt::Debug for SearchConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchConfig")
            .field("cache_dir", &self.cache_dir)
            .field("writer_heap_bytes", &self.writer_heap_bytes)
            .field("memory_budget_bytes", &self.memory_budget_bytes)
            .field("idle_close_secs", &self.idle_close_secs)
            .field("debounce_ms", &self.debounce_ms)
            .field("burst_threshold", &self.burst_threshold)
            .field("max_indexing_threads", &self.max_indexing_threads)
            .field("max_file_bytes", &self.max_file_bytes)
            .field("follow_symlinks", &self.follow_symlinks)
            .field("scan_budget", &self.scan_budget)
            .field("regex_budget", &self.regex_budget)
            .field("build_wait", &self.build_wait)
            .field("build_on_search", &self.build_on_search)
            .field("index_extractor", &self.index_extractor.is_some())
            .field("extractor_version", &(self.extractor_version)())
            .field("index_mask", &self.index_mask.is_some())
            .field("observer", &self.observer.is_some())
            .finish_non_exhaustive()
    }
}
