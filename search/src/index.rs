//! One project's index on disk: opening it only when it can be trusted,
//! recreating it otherwise, and applying file changes in bounded batches.
//!
//! Layout under `<cache>/search/<blake3(root)[..16]>/`:
//! - `owner.lock` — flock held by the engine that maintains the index, so a
//!   daemon and an in-process client never write (or delete) it at once;
//! - `schema-version` — [`index_version`](crate::schema::index_version) of `index/` (the schema's and the extractor's), written
//!   after creation;
//! - `root` — the project root, for humans looking at the cache;
//! - `index/` — the tantivy files;
//! - `index.corrupt-<unix-secs>/` — damaged indexes moved aside (see [`quarantine`]).

use std::any::Any;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, File, OpenOptions, TryLockError};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use tantivy::indexer::IndexWriterOptions;
use tantivy::{DocAddress, Index, IndexReader, IndexWriter, ReloadPolicy, Searcher, TantivyDocument};

use crate::config::SearchConfig;
use crate::error::SearchError;
use crate::mask::searchable;
use crate::model::Discarded;
use crate::observer::{Extra, Extras};
use crate::quarantine;
use crate::schema::{Fields, register_tokenizers, schema};
use crate::symbols::{Extraction, Symbol};
use crate::walk::{FileStamp, SkipReason, Skipped, read_file, text_of};

/// Commit at least this often during a large build so an interrupted build
/// resumes from a diff instead of starting over.
const COMMIT_EVERY_FILES: usize = 10_000;
/// Files read and extracted together, spread over the cores, before they are
/// added to the writer in order: extraction (a tree-sitter parse per code file)
/// is most of a build, and one thread would leave the other cores idle.
const PREPARE_CHUNK_FILES: usize = 128;
/// tantivy refuses a smaller writer heap.
const MIN_WRITER_HEAP: usize = 15_000_000;
/// How long to wait for `owner.lock` before reporting the index busy.
const OWNER_LOCK_WAIT: Duration = Duration::from_secs(2);
const OWNER_LOCK_POLL: Duration = Duration::from_millis(25);
/// A writer unused this long is closed: its threads and heap are only worth
/// keeping while edits keep coming.
const WRITER_IDLE: Duration = Duration::from_secs(30);

/// The cache directory of one project root.
pub(crate) fn project_dir(cache_dir: &Path, root: &Path) -> PathBuf {
    let hash = blake3::hash(root.as_os_str().as_encoded_bytes()).to_hex();
    cache_dir.join("search").join(&hash.as_str()[..16])
}

/// What the index holds for one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Known {
    pub stamp: FileStamp,
    /// Why a file read for the index is not in it (a binary, or one that grew too large or was
    /// swapped for a FIFO after the walk): remembered so it is not re-read until it changes, and
    /// so answers from the index can say they did not search it.
    pub skipped: Option<SkipReason>,
}

/// In-memory mirror of the index: every known file with its stamp, the
/// admitted directories (the watch set), and the files the walk found but
/// never read (too large, FIFOs, sockets, devices).
#[derive(Debug, Default)]
pub(crate) struct Manifest {
    pub files: BTreeMap<PathBuf, Known>,
    pub dirs: BTreeSet<PathBuf>,
    pub unread: BTreeMap<PathBuf, SkipReason>,
}

impl Manifest {
    pub(crate) fn indexed_files(&self) -> u64 {
        self.files.values().filter(|k| k.skipped.is_none()).count() as u64
    }

    /// Every admitted file the index holds no text of, with the reason.
    pub(crate) fn not_indexed(&self) -> Vec<(PathBuf, SkipReason)> {
        let read = self.files.iter().filter_map(|(rel, known)| Some((rel.clone(), known.skipped?)));
        read.chain(self.unread.iter().map(|(rel, reason)| (rel.clone(), *reason))).collect()
    }

    /// Rough heap use: the paths plus B-tree node overhead.
    pub(crate) fn approx_bytes(&self) -> u64 {
        let paths = self.files.keys().chain(&self.dirs).chain(self.unread.keys());
        let paths: usize = paths.map(|p| p.as_os_str().len() + 64).sum();
        paths as u64
    }
}

/// Files to (re)index and files to drop, root-relative.
#[derive(Debug, Default)]
pub(crate) struct Changes {
    pub upserts: Vec<PathBuf>,
    pub deletes: Vec<PathBuf>,
}

impl Changes {
    pub(crate) fn is_empty(&self) -> bool {
        self.upserts.is_empty() && self.deletes.is_empty()
    }
}

pub(crate) struct IndexStore {
    dir: PathBuf,
    // Held for the store's whole life; dropping the store releases it.
    _owner: File,
    index: Index,
    reader: IndexReader,
    fields: Fields,
    /// Kept open between batches so merges run in the background instead of
    /// delaying the next batch; closed after [`WRITER_IDLE`] without a batch.
    writer: Option<(IndexWriter, Instant)>,
    pub manifest: Manifest,
    pub last_commit: Option<SystemTime>,
    /// Why the previous index was discarded, when it was.
    pub rebuilt_because: Option<Discarded>,
    /// What the index's `schema-version` file holds (see [`index_version`](crate::schema::index_version)).
    version: String,
}

impl IndexStore {
    /// Takes the owner lock, then opens the index if it is of `version` (see
    /// [`index_version`](crate::schema::index_version)) and reads back cleanly; anything else is discarded (a
    /// damaged index moved aside, an outdated one deleted) and recreated empty.
    /// `damaged` says the index is known to be damaged already (the thread
    /// that maintained it panicked), so it is not even opened.
    pub(crate) fn open(
        dir: &Path,
        root: &Path,
        damaged: Option<String>,
        version: &str,
    ) -> Result<IndexStore, SearchError> {
        fs::create_dir_all(dir).map_err(|e| SearchError::io(format!("cannot create {}", dir.display()), e))?;
        let lock_path = dir.join("owner.lock");
        let owner = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| SearchError::io(format!("cannot open {}", lock_path.display()), e))?;
        // A closing engine of this process may still hold the lock for a moment.
        let deadline = Instant::now() + OWNER_LOCK_WAIT;
        loop {
            match owner.try_lock() {
                Ok(()) => break,
                Err(TryLockError::WouldBlock) if Instant::now() < deadline => std::thread::sleep(OWNER_LOCK_POLL),
                Err(TryLockError::WouldBlock) => return Err(SearchError::IndexBusy { root: root.to_path_buf() }),
                Err(TryLockError::Error(e)) => {
                    return Err(SearchError::io(format!("cannot lock {}", lock_path.display()), e));
                }
            }
        }
        let opened = match damaged {
            Some(reason) => Err(Unusable::corrupt(reason)),
            // tantivy panics on some damage instead of returning an error.
            None => catch_unwind(|| open_existing(dir, version)).unwrap_or_else(|panic| {
                Err(Unusable { reason: format!("opening it panicked: {}", panic_message(&*panic)), corrupt: true })
            }),
        };
        let (index, reader, manifest, rebuilt_because) = match opened {
            Ok((index, reader, manifest)) => (index, reader, manifest, None),
            Err(unusable) => {
                let discarded = discard(dir, unusable);
                let (index, reader) = recreate(dir, root, version)?;
                (index, reader, Manifest::default(), discarded)
            }
        };
        let fields = Fields::of(&index.schema()).map_err(|e| SearchError::index("index schema", e))?;
        let last_commit = fs::metadata(dir.join("index").join("meta.json")).and_then(|m| m.modified()).ok();
        Ok(IndexStore {
            dir: dir.to_path_buf(),
            _owner: owner,
            index,
            reader,
            fields,
            writer: None,
            manifest,
            last_commit,
            rebuilt_because,
            version: version.to_string(),
        })
    }

    /// Moves the damaged index aside and starts an empty one (after a
    /// failure showed up in use: a search, a commit, a merge).
    pub(crate) fn reset(&mut self, root: &Path, reason: String) -> Result<(), SearchError> {
        if let Some((writer, _)) = self.writer.take() {
            // Merges still running would write their segments by path, into
            // the new index. Their errors are expected here: the index is damaged.
            let _ = writer.wait_merging_threads();
        }
        self.rebuilt_because = discard(&self.dir, Unusable::corrupt(reason));
        let (index, reader) = recreate(&self.dir, root, &self.version)?;
        self.index = index;
        self.reader = reader;
        self.manifest = Manifest::default();
        Ok(())
    }

    pub(crate) fn fields(&self) -> Fields {
        self.fields
    }

    pub(crate) fn searcher(&self) -> Searcher {
        self.reader.searcher()
    }

    /// Bytes of the tantivy files (what the mmaps can pull into memory).
    pub(crate) fn size_on_disk(&self) -> u64 {
        let Ok(entries) = fs::read_dir(self.dir.join("index")) else { return 0 };
        entries.flatten().filter_map(|e| e.metadata().ok()).filter(|m| m.is_file()).map(|m| m.len()).sum()
    }

    /// Indexes `changes` with one writer of bounded heap, committing every
    /// [`COMMIT_EVERY_FILES`] files, whenever the text handed to the writer
    /// since the last commit reaches the writer heap, and at the end.
    ///
    /// The byte bound matters: tantivy queues up to 10,000 documents between
    /// `add_document` and its indexing thread, which with source files of
    /// tens of kilobytes is hundreds of megabytes; a commit is the only way
    /// to wait for that queue to drain. Stops early (after
    /// committing what is done) when `cancel` is set.
    ///
    /// Files are read and extracted [`PREPARE_CHUNK_FILES`] at a time on every
    /// core, then added in their order. Returns what was skipped and what the
    /// index extractor left for the observer.
    pub(crate) fn apply(
        &mut self,
        root: &Path,
        changes: &Changes,
        config: &SearchConfig,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<(Skipped, Extras), SearchError> {
        let mut skipped = Skipped::default();
        if changes.is_empty() {
            return Ok((skipped, Extras::new()));
        }
        // Taken out for the batch; an error drops it, and the next batch opens a fresh one.
        let mut writer = match self.writer.take() {
            Some((writer, _)) => writer,
            None => {
                let options = IndexWriterOptions::builder()
                    .memory_budget_per_thread(config.writer_heap_bytes.max(MIN_WRITER_HEAP))
                    .num_worker_threads(1)
                    .num_merge_threads(1)
                    .build();
                self.index
                    .writer_with_options(options)
                    .map_err(|e| SearchError::index("cannot open the index writer", e))?
            }
        };
        let fields = self.fields;
        for rel in &changes.deletes {
            writer.delete_term(fields.path_term(rel));
            self.manifest.files.remove(rel);
        }
        let total = changes.upserts.len() as u64;
        let max_in_flight = config.writer_heap_bytes.max(MIN_WRITER_HEAP);
        let (mut in_flight_bytes, mut in_flight_files) = (0, 0);
        let mut extras = Extras::new();
        let mut done = 0;
        'chunks: for chunk in changes.upserts.chunks(PREPARE_CHUNK_FILES) {
            for (rel, prepared) in chunk.iter().zip(prepare_all(root, chunk, config, cancel)) {
                // Cancelled: what was prepared after this file is dropped, the next build does it.
                let Some(prepared) = prepared else { break 'chunks };
                writer.delete_term(fields.path_term(rel));
                match prepared {
                    Ok(file) => {
                        writer
                            .add_document(fields.document(rel, file.stamp, &file.text, &file.symbols))
                            .map_err(|e| SearchError::index("cannot add a document", e))?;
                        self.manifest.files.insert(rel.clone(), Known { stamp: file.stamp, skipped: None });
                        if let Some(value) = file.extra {
                            extras.insert(rel.clone(), Extra { stamp: file.stamp, value });
                        }
                        in_flight_bytes += file.text.len();
                        in_flight_files += 1;
                    }
                    Err(reason @ (SkipReason::Binary | SkipReason::TooLarge | SkipReason::Special)) => {
                        skipped.count(reason);
                        let path = root.join(rel);
                        let stamp = fs::metadata(&path)
                            .map(|m| FileStamp::of(&m))
                            .unwrap_or(FileStamp { size: 0, mtime_ns: 0 });
                        self.manifest.files.insert(rel.clone(), Known { stamp, skipped: Some(reason) });
                    }
                    Err(reason) => {
                        // Unreadable or vanished: forget it so the next rescan tries again.
                        skipped.count(reason);
                        self.manifest.files.remove(rel);
                    }
                }
                if in_flight_bytes >= max_in_flight || in_flight_files >= COMMIT_EVERY_FILES {
                    self.commit(&mut writer)?;
                    (in_flight_bytes, in_flight_files) = (0, 0);
                }
                done += 1;
                if done % 256 == 0 {
                    progress(done, total);
                }
            }
        }
        self.commit(&mut writer)?;
        progress(total, total);
        self.writer = Some((writer, Instant::now()));
        Ok((skipped, extras))
    }

    /// True when the writer has been open without a batch for [`WRITER_IDLE`].
    pub(crate) fn writer_idle(&self) -> bool {
        self.writer.as_ref().is_some_and(|(_, used)| used.elapsed() > WRITER_IDLE)
    }

    /// Closes the writer (its threads and lock), after its merges when
    /// `wait_for_merges`, then reloads so searches use the merged segments
    /// and the old files can be freed. Merges cut short are redone later.
    pub(crate) fn close_writer(&mut self, wait_for_merges: bool) -> Result<(), SearchError> {
        let Some((writer, _)) = self.writer.take() else { return Ok(()) };
        if wait_for_merges {
            writer.wait_merging_threads().map_err(|e| SearchError::index("index merge failed", e))?;
        }
        self.reader.reload().map_err(|e| SearchError::index("cannot reload the index", e))
    }

    fn commit(&mut self, writer: &mut IndexWriter) -> Result<(), SearchError> {
        writer.commit().map_err(|e| SearchError::index("index commit failed", e))?;
        self.reader.reload().map_err(|e| SearchError::index("cannot reload the index", e))?;
        self.last_commit = Some(SystemTime::now());
        Ok(())
    }
}

/// A file read and extracted, ready for the writer.
struct Prepared {
    stamp: FileStamp,
    /// What the index ranks by: the file's text with its secrets left out (see `searchable`);
    /// its symbols are the code's own.
    text: String,
    symbols: Vec<Symbol>,
    extra: Option<Box<dyn Any + Send>>,
}

/// Reads and extracts `rels` on as many threads as there are cores; results in `rels`' order.
/// A file is `None` when `cancel` was set before it was started: each thread stops at its next file.
fn prepare_all(
    root: &Path,
    rels: &[PathBuf],
    config: &SearchConfig,
    cancel: &AtomicBool,
) -> Vec<Option<Result<Prepared, SkipReason>>> {
    let prepare_part = |part: &[PathBuf]| {
        part.iter().map(|rel| (!cancel.load(Ordering::Relaxed)).then(|| prepare(root, rel, config))).collect::<Vec<_>>()
    };
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(rels.len());
    if workers <= 1 {
        return prepare_part(rels);
    }
    std::thread::scope(|scope| {
        let parts: Vec<_> =
            rels.chunks(rels.len().div_ceil(workers)).map(|part| scope.spawn(|| prepare_part(part))).collect();
        // `prepare` contains the extractor's panics; any other is a bug of this crate, kept as one.
        parts
            .into_iter()
            .flat_map(|part| part.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    })
}

fn prepare(root: &Path, rel: &Path, config: &SearchConfig) -> Result<Prepared, SkipReason> {
    let path = root.join(rel);
    let (bytes, stamp) = read_file(root, &path, config.max_file_bytes)?;
    let text = text_of(&bytes).into_owned();
    // A panicking extractor (a plug-in) costs that file its symbols, not the index.
    let extracted = catch_unwind(AssertUnwindSafe(|| match &config.index_extractor {
        Some(extract) => extract(&path, &text),
        None => Extraction { symbols: (config.extractor)(&path, &text), extra: None },
    }));
    let Extraction { symbols, extra } = extracted.unwrap_or(Extraction { symbols: Vec::new(), extra: None });
    let text = match searchable(&text, config.index_mask.as_ref()) {
        Cow::Owned(words) => words,
        Cow::Borrowed(_) => text,
    };
    Ok(Prepared { stamp, text, symbols, extra })
}

/// Why an index on disk cannot be used.
struct Unusable {
    reason: String,
    /// Damaged (kept aside for inspection) rather than outdated or half-created (deleted).
    corrupt: bool,
}

impl Unusable {
    fn corrupt(reason: String) -> Self {
        Unusable { reason, corrupt: true }
    }

    fn outdated(reason: String) -> Self {
        Unusable { reason, corrupt: false }
    }
}

/// Opens `dir/index` if the version file holds `expected`, every segment file
/// matches its checksum and every stored document reads back.
fn open_existing(dir: &Path, expected: &str) -> Result<(Index, IndexReader, Manifest), Unusable> {
    let version = match fs::read(dir.join("schema-version")) {
        Ok(bytes) => bytes,
        // Written last when an index is created: without it the creation was interrupted.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Unusable::outdated(format!("no schema version ({e})")));
        }
        Err(e) => return Err(Unusable::corrupt(format!("unreadable schema version ({e})"))),
    };
    let version = String::from_utf8_lossy(&version);
    let version = version.trim();
    // Another build's version is letters, digits and `-` (`3`, `4-1f0c…`); anything else is damage.
    let written = !version.is_empty() && version.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    match version {
        _ if version == expected => {}
        other if written => return Err(Unusable::outdated(format!("schema version {other} (expected {expected})"))),
        garbled => return Err(Unusable::corrupt(format!("garbled schema version {garbled:?}"))),
    }
    let index = Index::open_in_dir(dir.join("index")).map_err(|e| Unusable::corrupt(format!("cannot open: {e}")))?;
    if index.schema() != schema() {
        return Err(Unusable::outdated("schema differs from this build's".to_string()));
    }
    register_tokenizers(&index);
    verify_checksums(&index, &dir.join("index")).map_err(Unusable::corrupt)?;
    let reader = open_reader(&index).map_err(|e| Unusable::corrupt(format!("cannot read: {e}")))?;
    let fields = Fields::of(&index.schema()).map_err(|e| Unusable::outdated(e.to_string()))?;
    let manifest = read_manifest(&reader.searcher(), fields)
        .map_err(|e| Unusable::corrupt(format!("unreadable documents: {e}")))?;
    Ok((index, reader, manifest))
}

/// Compares every file of every live segment with the checksum tantivy
/// wrote in its footer. tantivy only checks that a footer is there when it
/// opens a file, so damage inside one goes unnoticed until a query reads it,
/// and then the query usually panics. Reading the files costs one pass over
/// the index per open.
fn verify_checksums(index: &Index, index_dir: &Path) -> Result<(), String> {
    let segments = index.searchable_segment_metas().map_err(|e| format!("cannot list the segments: {e}"))?;
    let ids: Vec<String> = segments.iter().map(|s| s.id().uuid_string()).collect();
    let entries = fs::read_dir(index_dir).map_err(|e| format!("cannot list {}: {e}", index_dir.display()))?;
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| ids.iter().any(|id| name.starts_with(id.as_str())))
        .collect();
    names.sort();
    for name in names {
        match index.directory().validate_checksum(Path::new(&name)) {
            Ok(true) => {}
            Ok(false) => return Err(format!("checksum mismatch in {name}")),
            Err(e) => return Err(format!("cannot verify {name}: {e}")),
        }
    }
    Ok(())
}

/// Gets the unusable index out of the way: a damaged one is moved aside
/// (deleted when that fails), an outdated one is left for [`recreate`] to
/// delete. `None` when there was no index to discard.
fn discard(dir: &Path, unusable: Unusable) -> Option<Discarded> {
    let Unusable { mut reason, corrupt } = unusable;
    if fs::symlink_metadata(dir.join("index")).is_err() {
        return None;
    }
    let kept_at = if corrupt {
        quarantine::move_aside(dir).unwrap_or_else(|e| {
            reason.push_str(&format!("; could not move it aside ({e}), so it was deleted"));
            None
        })
    } else {
        None
    };
    Some(Discarded { reason, corrupt, kept_at })
}

/// The text of a panic payload (`panic!` with a literal or a format string).
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string())
}

/// Every live document's path and stamp; reading them all doubles as the
/// integrity check of the doc store.
fn read_manifest(searcher: &Searcher, fields: Fields) -> tantivy::Result<Manifest> {
    let mut manifest = Manifest::default();
    for (ord, segment) in searcher.segment_readers().iter().enumerate() {
        for doc_id in segment.doc_ids_alive() {
            let doc: TantivyDocument = searcher.doc(DocAddress::new(ord as u32, doc_id))?;
            let path = fields
                .stored_path(&doc)
                .ok_or_else(|| tantivy::TantivyError::InternalError("document without a path".into()))?;
            manifest.files.insert(PathBuf::from(path), Known { stamp: fields.stored_stamp(&doc), skipped: None });
        }
    }
    Ok(manifest)
}

fn open_reader(index: &Index) -> tantivy::Result<IndexReader> {
    index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()
}

/// Deletes whatever is left in `dir/index` and creates an empty index of this schema, of `version`.
fn recreate(dir: &Path, root: &Path, version: &str) -> Result<(Index, IndexReader), SearchError> {
    let index_dir = dir.join("index");
    let version_file = dir.join("schema-version");
    let io = |what: &str, e| SearchError::io(format!("cannot {what} in {}", dir.display()), e);
    // Version first: a crash between the two steps leaves an index that is rebuilt.
    match fs::remove_file(&version_file) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io("remove the schema version", e)),
        _ => {}
    }
    quarantine::remove_any(&index_dir).map_err(|e| io("remove the old index", e))?;
    fs::create_dir_all(&index_dir).map_err(|e| io("create the index directory", e))?;
    let index =
        Index::create_in_dir(&index_dir, schema()).map_err(|e| SearchError::index("cannot create the index", e))?;
    register_tokenizers(&index);
    let reader = open_reader(&index).map_err(|e| SearchError::index("cannot read the new index", e))?;
    write_atomically(&dir.join("root"), root.as_os_str().as_encoded_bytes())
        .map_err(|e| io("write the root file", e))?;
    write_atomically(&version_file, version.as_bytes()).map_err(|e| io("write the schema version", e))?;
    Ok((index, reader))
}

fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, bytes)?;
    fs::rename(&tmp, path)
}
