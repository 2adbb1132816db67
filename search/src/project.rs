//! One open project: the state searches read, and the thread that owns its
//! index — it builds it, applies debounced file events, rescans after bursts,
//! and closes the project when it goes idle.
//!
//! The thread is the only writer of the index and of the manifest; searches
//! only copy the published searcher out of [`Project::view`] and work on it
//! without any lock held.
//!
//! A damaged index heals itself: a search that fails or panics on it, a
//! failed commit, or a panic of the thread itself moves the index aside and
//! rebuilds it from the files while searches scan.

use std::collections::{BTreeSet, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

use lean_ctx_locks::RwLock;
use tantivy::schema::IndexRecordOption;
use tantivy::{DocSet, Searcher, TERMINATED, Term};

use crate::error::SearchError;
use crate::filter::PathFilter;
use crate::index::{Changes, IndexStore, panic_message, project_dir};
use crate::model::{BuildProgress, Discarded, IndexPhase, IndexStatus};
use crate::observer::{Extras, IndexObserver, notify};
use crate::registry::Context;
use crate::schema::{Fields, PathColumn, index_version};
use crate::walk::{self, SkipReason, Skipped, Stop};
use crate::watcher::{DirWatcher, Pending};
use crate::withheld::Withheld;
use lean_ctx_locks::ids;

/// An unavailable index (another process owns it) is retried after this long.
const UNAVAILABLE_RETRY: Duration = Duration::from_secs(30);
/// Panics of a project's thread tolerated: each discards the index and
/// rebuilds it; past this the project turns unavailable (and is retried
/// after [`UNAVAILABLE_RETRY`]) instead of rebuilding in a loop.
const MAX_PANICS: u32 = 3;
/// How often a waiting build request looks whether its caller left.
const BUILD_POLL: Duration = Duration::from_millis(100);

/// How often a search waiting for a fresh index looks again.
const FRESH_POLL: Duration = Duration::from_millis(5);
/// Without working watches, the tree is rescanned this often.
const DEGRADED_RESCAN: Duration = Duration::from_secs(30);

/// A batch this large (a build, a branch switch) leaves the allocator holding
/// a lot of freed memory.
const LARGE_BATCH_FILES: usize = 1000;

/// Hands memory freed by a large batch back to the OS. glibc keeps freed heap
/// pages of every thread's arena otherwise, and a daemon's RSS would stay at
/// the indexing peak (measured: ~210 MB → ~90 MB after building 33,000 files).
fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free pages; it has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}

pub(crate) type ProgressFn = Arc<dyn Fn(BuildProgress) + Send + Sync>;

/// Where the answer to a build request arrives.
pub(crate) struct BuildDone(Receiver<Result<(), SearchError>>);

pub(crate) enum Msg {
    Fs(notify::Result<notify::Event>),
    Build {
        progress: ProgressFn,
        done: Sender<Result<(), SearchError>>,
    },
    /// A search failed on the index of this generation.
    Rebuild {
        generation: u64,
        reason: String,
    },
    Close,
}

/// A searcher and its fields, cheap to clone out of the published state.
#[derive(Clone)]
pub(crate) struct IndexView {
    pub searcher: Searcher,
    pub fields: Fields,
    /// Which index this searcher reads (see [`Project::request_rebuild`]).
    pub generation: u64,
    /// The files the index holds no text of, with the reason: what an answer from it did not search.
    pub not_indexed: Arc<[(PathBuf, SkipReason)]>,
}

impl IndexView {
    /// What an answer from the index searched, as a scan counts it (`walk::scan_files`): the
    /// indexed files `filter` admits, those it holds no text of as skipped, and those the
    /// filter's rules withhold as withheld, by name, whatever they hold.
    pub(crate) fn searched(&self, filter: &PathFilter) -> tantivy::Result<walk::ScanStats> {
        let (mut files_searched, mut skipped, mut withheld) = (0, Skipped::default(), Withheld::default());
        let mut searches = |rel: &Path| match filter.withheld_by(rel) {
            Some(rule) => {
                withheld.add(rule, 1);
                false
            }
            None => true,
        };
        if filter.admits_everything() {
            files_searched = self.searcher.num_docs();
        } else {
            for segment in self.searcher.segment_readers() {
                let mut paths = PathColumn::of(segment)?;
                for doc in segment.doc_ids_alive() {
                    files_searched +=
                        u64::from(paths.path(doc).is_some_and(|path| filter.admits(path) && searches(path)));
                }
            }
        }
        for (rel, reason) in self.not_indexed.iter().filter(|(rel, _)| filter.admits(rel)) {
            if searches(rel) {
                skipped.count(*reason);
            }
        }
        Ok(walk::ScanStats { files_searched, skipped, withheld, cut_short: false })
    }

    /// Whether a file `filter` admits and does not withhold holds `term` in its content. The
    /// term's postings are read up to the first such file: a term most files hold answers at
    /// once, and one that only other directories or withheld files hold costs its own postings,
    /// never a pass over the index.
    pub(crate) fn visible_holds(&self, filter: &PathFilter, term: &str) -> tantivy::Result<bool> {
        let term = Term::from_field_text(self.fields.content, term);
        for segment in self.searcher.segment_readers() {
            let inverted = segment.inverted_index(self.fields.content)?;
            let Some(mut postings) = inverted.read_postings(&term, IndexRecordOption::Basic)? else { continue };
            let mut paths = match filter.admits_everything() {
                true => None,
                false => Some(PathColumn::of(segment)?),
            };
            let mut doc = postings.doc();
            while doc != TERMINATED {
                let visible = !segment.is_deleted(doc)
                    && paths.as_mut().is_none_or(|paths| {
                        paths.path(doc).is_some_and(|path| filter.admits(path) && filter.withheld_by(path).is_none())
                    });
                if visible {
                    return Ok(true);
                }
                doc = postings.advance();
            }
        }
        Ok(false)
    }
}

#[derive(Clone, Default)]
struct Published {
    phase: IndexPhase,
    view: Option<IndexView>,
    files: u64,
    last_commit: Option<SystemTime>,
    size_on_disk: u64,
    skipped: Skipped,
    full_syncs: u64,
    event_batches: u64,
    watch_error: Option<String>,
    last_error: Option<String>,
    rebuilt_because: Option<Discarded>,
    busy: bool,
    retry_at: Option<Instant>,
}

pub(crate) struct Project {
    /// Canonical project root.
    pub root: PathBuf,
    ctx: Arc<Context>,
    tx: Sender<Msg>,
    published: RwLock<Published>,
    last_used_ms: AtomicU64,
    approx_memory: AtomicU64,
    closing: AtomicBool,
    rebuild_requested: AtomicBool,
    /// Bumped whenever the index is discarded, so failures reported by
    /// searches of an older index do not discard the new one.
    generation: AtomicU64,
    /// File events the watcher has passed to the thread, and how many of
    /// them the published index (and the observer) reflect: a search right
    /// after an edit waits for the edit's event (see [`Project::wait_fresh`]).
    events_seen: Arc<AtomicU64>,
    /// Written by the project's thread only: events it took from the channel
    /// (kept across reopenings, which share the channel).
    events_received: AtomicU64,
    events_applied: AtomicU64,
    /// Whether a walk of the whole tree since the project opened is in the index and its observer
    /// was told of it: until then, files changed while no one watched are in neither (see
    /// [`Project::caught_up`]).
    walked: AtomicBool,
}

impl Project {
    /// Creates the project and starts its thread, which opens or builds the
    /// index. A `first` message (an explicit build) is queued before the
    /// thread starts, so the first build reports to it.
    pub(crate) fn start(root: PathBuf, ctx: Arc<Context>, first: Option<Msg>) -> (Arc<Project>, JoinHandle<()>) {
        let (tx, rx) = mpsc::channel();
        if let Some(msg) = first {
            let _ = tx.send(msg);
        }
        let project = Arc::new(Project {
            last_used_ms: AtomicU64::new(ctx.now_ms()),
            root,
            ctx,
            tx,
            published: RwLock::new(ids::SEARCH_PROJECT_STATE, Published::default()),
            approx_memory: AtomicU64::new(0),
            closing: AtomicBool::new(false),
            rebuild_requested: AtomicBool::new(false),
            generation: AtomicU64::new(0),
            events_seen: Arc::new(AtomicU64::new(0)),
            events_received: AtomicU64::new(0),
            events_applied: AtomicU64::new(0),
            walked: AtomicBool::new(false),
        });
        let thread_project = project.clone();
        let thread = std::thread::Builder::new()
            .name("lean-ctx-search-index".into())
            .spawn(move || run(&thread_project, rx))
            .expect("spawning the index thread");
        (project, thread)
    }

    fn observer(&self) -> Option<&dyn IndexObserver> {
        self.ctx.config.observer.as_deref()
    }

    pub(crate) fn touch(&self) {
        self.last_used_ms.store(self.ctx.now_ms(), Ordering::Relaxed);
    }

    pub(crate) fn last_used_ms(&self) -> u64 {
        self.last_used_ms.load(Ordering::Relaxed)
    }

    pub(crate) fn approx_memory(&self) -> u64 {
        self.approx_memory.load(Ordering::Relaxed)
    }

    /// Waits until the index reflects every file event seen so far (a file
    /// the agent just edited), at most `bound`; false when it still lags.
    pub(crate) fn wait_fresh(&self, bound: Duration) -> bool {
        let seen = self.events_seen.load(Ordering::Acquire);
        let deadline = Instant::now() + bound;
        while self.events_applied.load(Ordering::Acquire) < seen {
            if Instant::now() >= deadline || self.closing.load(Ordering::Relaxed) {
                return false;
            }
            std::thread::sleep(FRESH_POLL);
        }
        true
    }

    /// Whether the index and its observer reflect a walk of the whole tree made since the project
    /// opened (later walks, rescans of bursts, only confirm it). An index that cannot be used
    /// has nothing to catch up on: the graph answers from what it has, and says nothing of a wait.
    pub(crate) fn caught_up(&self) -> bool {
        self.walked.load(Ordering::Acquire) || matches!(self.phase(), IndexPhase::Unavailable { .. })
    }

    /// The searcher, once the index is ready.
    pub(crate) fn view(&self) -> Option<IndexView> {
        let published = self.published.read();
        match published.phase {
            IndexPhase::Ready => published.view.clone(),
            _ => None,
        }
    }

    /// Why searches cannot use the index now, for a scanned answer's note.
    pub(crate) fn unready_reason(&self) -> String {
        let published = self.published.read();
        let corruption = published.rebuilt_because.as_ref().filter(|d| d.corrupt);
        match (&published.phase, corruption) {
            (IndexPhase::Building { done, total }, Some(d)) => {
                format!("the index is being rebuilt after corruption ({}; {done}/{total} files)", d.reason)
            }
            (IndexPhase::Building { done, total }, None) => format!("index building ({done}/{total} files)"),
            (IndexPhase::Unavailable { reason }, _) => format!("index unavailable ({reason})"),
            _ => "index opening".to_string(),
        }
    }

    pub(crate) fn phase(&self) -> IndexPhase {
        self.published.read().phase.clone()
    }

    /// False once closed, or when unavailable and due for a retry: the registry
    /// then starts a fresh project for the root.
    pub(crate) fn is_live(&self) -> bool {
        let published = self.published.read();
        match published.phase {
            IndexPhase::Closed => false,
            IndexPhase::Unavailable { .. } => published.retry_at.is_some_and(|at| Instant::now() < at),
            _ => !self.closing.load(Ordering::Relaxed),
        }
    }

    pub(crate) fn status(&self) -> IndexStatus {
        let published = self.published.read().clone();
        IndexStatus {
            root: self.root.clone(),
            phase: published.phase,
            files: published.files,
            last_commit: published.last_commit,
            size_on_disk: published.size_on_disk,
            approx_memory: self.approx_memory(),
            skipped: published.skipped,
            idle_secs: self.ctx.now_ms().saturating_sub(self.last_used_ms()) / 1000,
            full_syncs: published.full_syncs,
            event_batches: published.event_batches,
            watch_error: published.watch_error,
            last_error: published.last_error,
            rebuilt_because: published.rebuilt_because,
        }
    }

    pub(crate) fn close(&self) {
        self.closing.store(true, Ordering::Relaxed);
        let _ = self.tx.send(Msg::Close);
    }

    /// Asks the thread to discard and rebuild the index of `generation` (a
    /// search failed on it); ignored when that index is gone already, and
    /// repeated requests before the thread acts are coalesced.
    pub(crate) fn request_rebuild(&self, generation: u64, reason: String) {
        if generation == self.generation.load(Ordering::Relaxed)
            && !self.rebuild_requested.swap(true, Ordering::Relaxed)
        {
            let _ = self.tx.send(Msg::Rebuild { generation, reason });
        }
    }

    /// A build request for [`Self::wait_build`]: the message and where its answer arrives.
    pub(crate) fn build_request(progress: ProgressFn) -> (Msg, BuildDone) {
        let (done, finished) = mpsc::channel();
        (Msg::Build { progress, done }, BuildDone(finished))
    }

    /// Sends a message to the project's thread (dropped if it has ended).
    pub(crate) fn send(&self, msg: Msg) {
        let _ = self.tx.send(msg);
    }

    /// Waits for a build request sent with [`Self::send`] or [`Project::start`]
    /// until `stop`: cancelled, the answer is [`SearchError::Cancelled`]; at
    /// its deadline, the status so far (the build goes on).
    pub(crate) fn wait_build(&self, done: BuildDone, stop: &Stop<'_>) -> Result<IndexStatus, SearchError> {
        let answer = loop {
            match done.0.recv_timeout(BUILD_POLL) {
                Ok(answer) => break Some(answer),
                Err(RecvTimeoutError::Disconnected) => break None,
                Err(RecvTimeoutError::Timeout) if stop.cancel.load(Ordering::Relaxed) => {
                    return Err(SearchError::Cancelled);
                }
                Err(RecvTimeoutError::Timeout) if stop.reached() => return Ok(self.status()),
                Err(RecvTimeoutError::Timeout) => {}
            }
        };
        match answer {
            Some(Ok(())) => Ok(self.status()),
            Some(Err(err)) => Err(err),
            // The thread ended without answering: say why.
            None => {
                let published = self.published.read();
                Err(match &published.phase {
                    _ if published.busy => SearchError::IndexBusy { root: self.root.clone() },
                    IndexPhase::Unavailable { reason } => SearchError::index("the index is unavailable", reason),
                    _ => SearchError::Closed,
                })
            }
        }
    }

    fn publish(&self, update: impl FnOnce(&mut Published)) {
        update(&mut self.published.write());
    }
}

/// The project's thread. A panic anywhere in it (tantivy on a damaged
/// index, a bug) is caught: the index it was using is treated as damaged,
/// moved aside and rebuilt by a fresh worker.
fn run(project: &Arc<Project>, rx: Receiver<Msg>) {
    let mut damaged = None;
    let mut panics = 0;
    loop {
        let served = catch_unwind(AssertUnwindSafe(|| open_and_serve(project, &rx, damaged.take())));
        let Err(panic) = served else { break };
        panics += 1;
        let reason = format!("the index thread panicked: {}", panic_message(&*panic));
        project.rebuild_requested.store(false, Ordering::Relaxed);
        project.generation.fetch_add(1, Ordering::Relaxed);
        if panics >= MAX_PANICS {
            project.publish(|p| {
                p.phase = IndexPhase::Unavailable { reason: format!("{reason} ({panics} times)") };
                p.retry_at = Some(Instant::now() + UNAVAILABLE_RETRY);
            });
            break;
        }
        if project.closing.load(Ordering::Relaxed) {
            break;
        }
        project.publish(|p| {
            p.phase = IndexPhase::Opening;
            p.view = None;
        });
        damaged = Some(reason);
    }
    project.approx_memory.store(0, Ordering::Relaxed);
    notify(project.observer(), |o| o.closed(&project.root));
    project.publish(|p| {
        // A failed project stays unavailable until its retry time; otherwise it is closed.
        if !matches!(p.phase, IndexPhase::Unavailable { .. }) {
            p.phase = IndexPhase::Closed;
        }
        p.view = None;
    });
}

/// Opens the index (discarding it first when `damaged` says why) and serves
/// the project until it closes; an index that cannot be opened makes the
/// project unavailable.
fn open_and_serve(project: &Project, rx: &Receiver<Msg>, damaged: Option<String>) {
    let dir = project_dir(&project.ctx.config.cache_dir, &project.root);
    let (events, seen) = (project.tx.clone(), project.events_seen.clone());
    let on_event = move |event| {
        // Counted before it is sent, so a waiting search never misses it.
        seen.fetch_add(1, Ordering::AcqRel);
        drop(events.send(Msg::Fs(event)));
    };
    let version = index_version((project.ctx.config.extractor_version)());
    let opened = IndexStore::open(&dir, &project.root, damaged, &version)
        .and_then(|store| Ok((store, DirWatcher::new(on_event)?)));
    match opened {
        Ok((store, watcher)) => {
            let worker = Worker {
                project,
                store,
                watcher,
                pending: Pending::default(),
                walk_skipped: Skipped::default(),
                batch_skipped: Skipped::default(),
            };
            worker.serve(rx);
        }
        Err(err) => {
            let busy = matches!(err, SearchError::IndexBusy { .. });
            let reason = err.to_string();
            project.publish(|p| {
                p.phase = IndexPhase::Unavailable { reason };
                p.busy = busy;
                p.retry_at = Some(Instant::now() + UNAVAILABLE_RETRY);
            });
        }
    }
}

struct Worker<'a> {
    project: &'a Project,
    store: IndexStore,
    watcher: DirWatcher,
    pending: Pending,
    /// What the last full walk and the last batch skipped (for Status).
    walk_skipped: Skipped,
    batch_skipped: Skipped,
}

impl Worker<'_> {
    fn serve(mut self, rx: &Receiver<Msg>) {
        let config = &self.project.ctx.config;
        let debounce = Duration::from_millis(config.debounce_ms);
        let idle_after = Duration::from_secs(config.idle_close_secs);
        let poll = (idle_after / 2).clamp(Duration::from_millis(50), Duration::from_secs(1));
        let mut last_full_sync = Instant::now();
        self.publish_discarded();
        // An explicit build that started the project is the first message: the first sync answers it.
        let first_build = match rx.try_recv() {
            Ok(Msg::Build { progress, done }) => Some((progress, done)),
            _ => None,
        };
        let result = self.sync_all(first_build.as_ref().map(|(progress, _)| progress));
        if let Some((_, done)) = first_build {
            let _ = done.send(result.clone());
            self.project.touch();
        }
        let mut ok = self.settle(result);
        while ok && !self.project.closing.load(Ordering::Relaxed) {
            let wait = self.pending.due_at(debounce).map_or(poll, |at| at.saturating_duration_since(Instant::now()));
            match rx.recv_timeout(wait) {
                Ok(Msg::Fs(event)) => {
                    self.project.events_received.fetch_add(1, Ordering::AcqRel);
                    self.pending.add(event, Instant::now());
                }
                Ok(Msg::Build { progress, done }) => {
                    self.pending.take();
                    let result = self.sync_all(Some(&progress));
                    last_full_sync = Instant::now();
                    let _ = done.send(result.clone());
                    ok = self.settle(result);
                    self.project.touch();
                }
                Ok(Msg::Rebuild { generation, reason }) => {
                    self.project.rebuild_requested.store(false, Ordering::Relaxed);
                    if generation == self.project.generation.load(Ordering::Relaxed) {
                        ok = self.rebuild(reason);
                    }
                }
                Ok(Msg::Close) | Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {}
            }
            if self.pending.due_at(debounce).is_some_and(|at| at <= Instant::now()) {
                let batch = self.pending.take();
                let result = if batch.rescan || batch.events > config.burst_threshold {
                    last_full_sync = Instant::now();
                    self.sync_all(None)
                } else {
                    self.sync_paths(&batch.paths)
                };
                ok = ok && self.settle(result);
            }
            // Every event taken is applied once none waits in `pending`.
            if self.pending.due_at(debounce).is_none() {
                let received = self.project.events_received.load(Ordering::Acquire);
                self.project.events_applied.store(received, Ordering::Release);
            }
            if self.watcher.error.is_some() && last_full_sync.elapsed() > DEGRADED_RESCAN {
                last_full_sync = Instant::now();
                let result = self.sync_all(None);
                ok = ok && self.settle(result);
            }
            if self.store.writer_idle() {
                let result = self.store.close_writer(true);
                self.publish_ready();
                ok = ok && self.settle(result);
            }
            let idle_ms = self.project.ctx.now_ms().saturating_sub(self.project.last_used_ms());
            if Duration::from_millis(idle_ms) > idle_after {
                break;
            }
        }
        // At shutdown, merges in flight are abandoned (redone later) rather than awaited.
        let _ = self.store.close_writer(!self.project.closing.load(Ordering::Relaxed));
    }

    /// Records a failed sync; an index error discards the index and rebuilds
    /// once. False when the project cannot go on (it then closes).
    fn settle(&mut self, result: Result<(), SearchError>) -> bool {
        match result {
            Ok(()) => true,
            Err(SearchError::Index { context, message }) => self.rebuild(format!("{context}: {message}")),
            Err(err) => {
                let message = err.to_string();
                self.project.publish(|p| p.last_error = Some(message));
                true
            }
        }
    }

    /// Moves the damaged index aside and builds a new one; searches scan
    /// (and Status says why) until it is ready.
    fn rebuild(&mut self, reason: String) -> bool {
        self.project.generation.fetch_add(1, Ordering::Relaxed);
        self.project.publish(|p| {
            p.phase = IndexPhase::Building { done: 0, total: 0 };
            p.view = None;
        });
        let result = self.store.reset(&self.project.root, reason).and_then(|()| {
            self.publish_discarded();
            self.sync_all(None)
        });
        match result {
            Ok(()) => true,
            Err(err) => {
                let reason = err.to_string();
                self.project.publish(|p| {
                    p.last_error = Some(reason.clone());
                    p.phase = IndexPhase::Unavailable { reason };
                    p.retry_at = Some(Instant::now() + UNAVAILABLE_RETRY);
                });
                false
            }
        }
    }

    /// Walks the whole tree (watching every admitted directory as it goes)
    /// and brings the index in line: the initial build, bursts, explicit builds.
    fn sync_all(&mut self, progress: Option<&ProgressFn>) -> Result<(), SearchError> {
        let ctx = &self.project.ctx;
        let _permit = ctx.permits.acquire();
        let root = &self.project.root;
        let watcher = &mut self.watcher;
        let cancel = &self.project.closing;
        let listing = walk::list(root, Path::new(""), None, &ctx.config, cancel, &mut |dir| watcher.watch(dir));
        if cancel.load(Ordering::Relaxed) {
            // A partial walk would look like mass deletion.
            return Ok(());
        }
        let manifest = &mut self.store.manifest;
        manifest.unread = listing.unread.into_iter().collect();
        let walked: HashSet<&PathBuf> = listing.files.iter().map(|(rel, _)| rel).collect();
        let mut changes = Changes {
            deletes: manifest.files.keys().filter(|rel| !walked.contains(rel)).cloned().collect(),
            upserts: Vec::new(),
        };
        for (rel, stamp) in &listing.files {
            if manifest.files.get(rel).is_none_or(|known| known.stamp != *stamp) {
                changes.upserts.push(rel.clone());
            }
        }
        let dirs: BTreeSet<PathBuf> = listing.dirs.into_iter().collect();
        for gone in manifest.dirs.difference(&dirs) {
            watcher.unwatch(&root.join(gone));
        }
        manifest.dirs = dirs;
        self.walk_skipped = listing.skipped;
        self.project.publish(|p| p.full_syncs += 1);
        let extras = self.apply(&changes, progress)?;
        let unread = &self.store.manifest.unread;
        let too_large =
            unread.iter().filter(|(_, reason)| **reason == SkipReason::TooLarge).map(|(rel, _)| rel.clone());
        let files: Vec<PathBuf> = listing.files.into_iter().map(|(rel, _)| rel).chain(too_large).collect();
        notify(self.project.observer(), |o| o.synced_all(root, &files, extras));
        self.project.walked.store(true, Ordering::Release);
        Ok(())
    }

    /// Applies one debounced batch of event paths: each parent directory is
    /// listed one level deep and compared with the manifest; new directories
    /// are walked whole, vanished ones forgotten.
    fn sync_paths(&mut self, paths: &BTreeSet<PathBuf>) -> Result<(), SearchError> {
        let _permit = self.project.ctx.permits.acquire();
        let root = &self.project.root;
        let mut named = HashSet::new();
        let mut dirs = BTreeSet::new();
        for rel in paths.iter().filter_map(|abs| abs.strip_prefix(root).ok()) {
            let Some(parent) = rel.parent() else { continue };
            if self.store.manifest.dirs.contains(parent) {
                dirs.insert(parent.to_path_buf());
                named.insert(rel.to_path_buf());
            }
        }
        let mut changes = Changes::default();
        // Parents sort before their children, so a vanished parent is handled first.
        for dir in &dirs {
            self.relist(dir, &named, &mut changes);
        }
        self.project.publish(|p| p.event_batches += 1);
        let extras = self.apply(&changes, None)?;
        if !changes.is_empty() {
            notify(self.project.observer(), |o| {
                o.changed(&self.project.root, &changes.upserts, &changes.deletes, extras)
            });
        }
        Ok(())
    }

    fn relist(&mut self, dir: &Path, named: &HashSet<PathBuf>, changes: &mut Changes) {
        if !self.store.manifest.dirs.contains(dir) {
            return;
        }
        let config = &self.project.ctx.config;
        let root = &self.project.root;
        let watcher = &mut self.watcher;
        let cancel = &self.project.closing;
        let listing = walk::list(root, dir, Some(1), config, cancel, &mut |d| watcher.watch(d));
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        if !listing.dirs.iter().any(|d| d == dir) {
            self.forget(dir, changes);
            return;
        }
        let manifest = &self.store.manifest;
        let is_child = |p: &Path| p.parent() == Some(dir);
        let under = |p: &&PathBuf| p.starts_with(dir);
        let listed: HashSet<&PathBuf> = listing.files.iter().map(|(rel, _)| rel).collect();
        let known_files = manifest.files.range(dir.to_path_buf()..).map(|(p, _)| p).take_while(under);
        changes.deletes.extend(known_files.filter(|p| is_child(p) && !listed.contains(p)).cloned());
        for (rel, stamp) in &listing.files {
            if named.contains(rel) || manifest.files.get(rel).is_none_or(|k| k.stamp != *stamp) {
                changes.upserts.push(rel.clone());
            }
        }
        let listed_dirs: HashSet<&PathBuf> = listing.dirs.iter().filter(|d| is_child(d)).collect();
        let known_dirs: HashSet<PathBuf> =
            manifest.dirs.range(dir.to_path_buf()..).take_while(under).filter(|d| is_child(d)).cloned().collect();
        for gone in known_dirs.iter().filter(|d| !listed_dirs.contains(d)) {
            self.forget(gone, changes);
        }
        for new in listed_dirs.into_iter().filter(|d| !known_dirs.contains(*d)) {
            let watcher = &mut self.watcher;
            let subtree = walk::list(root, new, None, config, cancel, &mut |d| watcher.watch(d));
            let manifest = &mut self.store.manifest;
            for (rel, stamp) in subtree.files {
                if manifest.files.get(&rel).is_none_or(|k| k.stamp != stamp) {
                    changes.upserts.push(rel);
                }
            }
            manifest.dirs.extend(subtree.dirs);
            manifest.unread.extend(subtree.unread);
        }
        let unread = &mut self.store.manifest.unread;
        unread.retain(|rel, _| !is_child(rel));
        unread.extend(listing.unread);
    }

    /// Drops a vanished directory: its files leave the index, its watches go.
    fn forget(&mut self, dir: &Path, changes: &mut Changes) {
        let manifest = &mut self.store.manifest;
        let under = |p: &&PathBuf| p.starts_with(dir);
        changes.deletes.extend(manifest.files.range(dir.to_path_buf()..).map(|(p, _)| p).take_while(under).cloned());
        manifest.unread.retain(|rel, _| !rel.starts_with(dir));
        let gone: Vec<PathBuf> = manifest.dirs.range(dir.to_path_buf()..).take_while(under).cloned().collect();
        for d in gone {
            self.watcher.unwatch(&self.project.root.join(&d));
            manifest.dirs.remove(&d);
        }
    }

    /// Indexes `changes`, publishing progress while the first build runs and
    /// the new searcher as soon as the batch is committed. Returns what the index extractor left for the observer.
    fn apply(&mut self, changes: &Changes, progress: Option<&ProgressFn>) -> Result<Extras, SearchError> {
        let project = self.project;
        let building = !matches!(project.phase(), IndexPhase::Ready);
        let total = changes.upserts.len() as u64;
        let mut report = |done: u64, total: u64| {
            if let Some(progress) = progress {
                progress(BuildProgress { done, total });
            }
            if building {
                project.publish(|p| p.phase = IndexPhase::Building { done, total });
            }
        };
        report(0, total);
        let (skipped, extras) =
            self.store.apply(&project.root, changes, &project.ctx.config, &project.closing, &mut report)?;
        self.batch_skipped = skipped;
        self.publish_ready();
        if changes.upserts.len() >= LARGE_BATCH_FILES {
            release_freed_memory();
        }
        Ok(extras)
    }

    fn publish_discarded(&self) {
        let discarded = self.store.rebuilt_because.clone();
        self.project.publish(|p| p.rebuilt_because = discarded);
    }

    fn publish_ready(&self) {
        let batch_skipped = self.batch_skipped;
        let generation = self.project.generation.load(Ordering::Relaxed);
        let manifest = &self.store.manifest;
        let not_indexed: Arc<[(PathBuf, SkipReason)]> = manifest.not_indexed().into();
        let mut skipped = Skipped {
            unreadable: self.walk_skipped.unreadable + batch_skipped.unreadable,
            walk_errors: self.walk_skipped.walk_errors,
            ..Skipped::default()
        };
        for (_, reason) in not_indexed.iter() {
            skipped.count(*reason);
        }
        let view = IndexView { searcher: self.store.searcher(), fields: self.store.fields(), generation, not_indexed };
        let size_on_disk = self.store.size_on_disk();
        self.project.approx_memory.store(manifest.approx_bytes() + size_on_disk, Ordering::Relaxed);
        let (files, last_commit) = (manifest.indexed_files(), self.store.last_commit);
        let (watch_error, rebuilt_because) = (self.watcher.error.clone(), self.store.rebuilt_because.clone());
        self.project.publish(|p| {
            p.phase = IndexPhase::Ready;
            p.view = Some(view);
            p.files = files;
            p.last_commit = last_commit.or(p.last_commit);
            p.size_on_disk = size_on_disk;
            p.skipped = skipped;
            p.watch_error = watch_error;
            p.rebuilt_because = rebuilt_because;
        });
    }
}
