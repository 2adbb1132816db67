//! The code-graph component: one `lean_ctx_graph::Graph` per project, kept in step with the
//! project's search index. The index thread tells it (as the index's `IndexObserver`) which
//! files a full walk admitted and which files each batch changed, with the facts the index's
//! extractor made of the files it read (one parse gives a file's symbols and its facts). Of the
//! files whose stamp differs from what it holds, it parses only those without such facts. The graph is saved to `<cache>/graph/<blake3(root)[..16]>.graph`
//! after each full walk, at most every [`SAVE_EVERY`] while edits come in, and when the project
//! closes, so a restarted daemon loads it instead of parsing every file. A snapshot that does not
//! load (damaged, another format) is moved aside or deleted and the graph built from the files.

pub mod callgraph;
pub mod cochange;
pub mod diff;
mod git;
pub mod impact;
pub mod precise;
pub mod related;
pub mod repomap;
pub mod subject;
mod uncovered;

use std::collections::{BTreeSet, HashMap};
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use lean_ctx_common::confined::open_confined;
use lean_ctx_graph::persist::{self, LoadError};
use lean_ctx_graph::{FileEntry, FileFacts, Graph, JsModules, Stamp, extract, has_queries, is_js_config};
use lean_ctx_outline::Language;
use lean_ctx_search::{Extras, IndexObserver};

use crate::engine::ComponentFigures;
use crate::locks::{RwLock, ids};

/// Files parsed between two publications while a graph is built, so queries see progress.
const PUBLISH_EVERY_FILES: usize = 64;
/// A graph changed by edits is saved at most this often (and always when its project closes).
const SAVE_EVERY: Duration = Duration::from_secs(30);
/// Larger files are not parsed (the search index skips them too).
const MAX_FILE_BYTES: u64 = 1 << 20;

/// How far a project's graph is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// No graph yet: the index has not finished its first walk.
    Waiting,
    /// Parsing the files of the first walk: `done` of `total`.
    Building {
        done: u64,
        total: u64,
    },
    Ready,
}

impl Phase {
    /// What an answer over a graph still being built says about it; `None` once it is ready.
    pub fn progress(self) -> Option<String> {
        match self {
            Phase::Ready => None,
            Phase::Waiting => {
                Some("the project's graph is not built yet (its index is still walking the files)".into())
            }
            Phase::Building { done, total } => {
                Some(format!("the project's graph is still being built ({done}/{total} files parsed)"))
            }
        }
    }
}

/// Where a project's graph came from when it was opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Loaded from its snapshot; only changed files were parsed again.
    Snapshot,
    /// Built from the files (no snapshot, or one that could not be used).
    Files,
}

struct State {
    graph: Graph,
    phase: Phase,
    origin: Origin,
    /// Files parsed since the project was opened.
    parsed: u64,
    /// Why the snapshot was not used, when one existed.
    discarded: Option<String>,
    dirty: bool,
    saved_at: Instant,
    /// The project's JavaScript/TypeScript configs (`tsconfig.json`, `package.json`, …),
    /// root-relative: the graph's module mappings are read from them again when one changes.
    js_configs: BTreeSet<String>,
    /// Code files over [`MAX_FILE_BYTES`], root-relative: not in the graph, which answers say.
    too_large: BTreeSet<String>,
}

/// One project's graph and its state.
pub struct ProjectGraph {
    pub root: PathBuf,
    state: RwLock<State>,
    /// The last question's bounded wait for the index's latest batch ran out: file changes the
    /// watcher saw are not in the graph yet (see [`ProjectGraph::set_lagging`]).
    lagging: AtomicBool,
}

/// What a query sees of a project's graph, under its read lock.
pub struct GraphView<'a> {
    pub graph: &'a Graph,
    pub phase: Phase,
    /// Recent file changes are not in the graph yet.
    pub lagging: bool,
    /// Code files too large for the graph (see [`State::too_large`]).
    pub too_large: &'a BTreeSet<String>,
}

/// How many files a note names (unparsable configs, files too large); the rest are counted.
const NOTE_NAMES_FILES: usize = 3;

impl GraphView<'_> {
    /// What every answer from this graph says first, when anything: that the graph is still
    /// being built, and which JavaScript/TypeScript configs do not parse — their module paths
    /// are not applied, so imports through them resolve by name only.
    pub fn notice(&self) -> Option<String> {
        self.notice_about(None)
    }

    /// [`Self::notice`] for an answer about `file`: a broken JavaScript/TypeScript config is
    /// not named in answers about a file of another language, which it does not affect.
    pub fn notice_about(&self, file: Option<&str>) -> Option<String> {
        let other_language = file
            .and_then(|file| Language::from_path(Path::new(file)))
            .is_some_and(|language| !matches!(language, Language::JavaScript | Language::TypeScript | Language::Tsx));
        let broken = if other_language { &[][..] } else { self.graph.js_modules().broken() };
        let configs = (!broken.is_empty()).then(|| {
            let (verb, their) = if broken.len() == 1 { ("is", "its") } else { ("are", "their") };
            format!(
                "{} {verb} not applied: imports through {their} module mappings resolve by name only",
                some_named(broken.iter().map(ToString::to_string), broken.len())
            )
        });
        let lagging =
            self.lagging.then(|| "recent file changes are not in the graph yet (it is catching up)".to_string());
        let too_large = self.too_large_note(file);
        let notes: Vec<String> = [self.phase.progress(), lagging, configs, too_large].into_iter().flatten().collect();
        (!notes.is_empty()).then(|| notes.join("; "))
    }
}

/// The first [`NOTE_NAMES_FILES`] of `names` (of `total`), then how many more: `a, b, c and 4 more`.
fn some_named(names: impl Iterator<Item = String>, total: usize) -> String {
    let named: Vec<String> = names.take(NOTE_NAMES_FILES).collect();
    match total.saturating_sub(named.len()) {
        0 => named.join(", "),
        more => format!("{} and {more} more", named.join(", ")),
    }
}

impl GraphView<'_> {
    /// What the size bound left out: for an answer about one of those files, that it is not in
    /// the graph; for an answer about the project, how many are not (and which, up to a few); for
    /// one about another file, nothing.
    fn too_large_note(&self, file: Option<&str>) -> Option<String> {
        let limit = MAX_FILE_BYTES >> 20;
        match file {
            Some(file) if self.too_large.contains(file) => Some(format!(
                "{file} is over {limit} MiB, too large for the graph: what it defines, imports and calls is not in it"
            )),
            Some(_) => None,
            None if self.too_large.is_empty() => None,
            None => {
                let (count, verb) = match self.too_large.len() {
                    1 => ("1 code file".to_string(), "is"),
                    n => (format!("{n} code files"), "are"),
                };
                Some(format!(
                    "{count} over {limit} MiB {verb} too large for the graph and not in it: {}",
                    some_named(self.too_large.iter().cloned(), self.too_large.len())
                ))
            }
        }
    }
}

impl ProjectGraph {
    /// Records whether the graph reflects the file changes seen before the question being
    /// answered; its answers say so while it does not.
    pub fn set_lagging(&self, lagging: bool) {
        self.lagging.store(lagging, Ordering::Relaxed);
    }

    /// Runs `query` on the graph as it is now.
    pub fn read<R>(&self, query: impl FnOnce(GraphView<'_>) -> R) -> R {
        let state = self.state.read();
        query(GraphView {
            graph: &state.graph,
            phase: state.phase,
            lagging: self.lagging.load(Ordering::Relaxed),
            too_large: &state.too_large,
        })
    }
}

pub struct CodeGraph {
    cache_dir: PathBuf,
    projects: RwLock<HashMap<PathBuf, Arc<ProjectGraph>>>,
    /// Files changed together, per project, read from git on demand.
    pub cochange: cochange::CoChangeCache,
}

impl CodeGraph {
    pub fn new(cache_dir: &Path) -> CodeGraph {
        CodeGraph {
            cache_dir: cache_dir.to_path_buf(),
            projects: RwLock::new(ids::GRAPH_PROJECTS, HashMap::new()),
            cochange: cochange::CoChangeCache::default(),
        }
    }

    fn snapshot_path(&self, root: &Path) -> PathBuf {
        let hash = blake3::hash(root.as_os_str().as_encoded_bytes()).to_hex();
        self.cache_dir.join("graph").join(format!("{}.graph", &hash.as_str()[..16]))
    }

    pub fn get(&self, root: &Path) -> Option<Arc<ProjectGraph>> {
        self.projects.read().get(root).cloned()
    }

    /// The project's graph, loaded from its snapshot when it is not open.
    pub fn project(&self, root: &Path) -> Arc<ProjectGraph> {
        if let Some(open) = self.get(root) {
            return open;
        }
        let state = self.load(root);
        let mut projects = self.projects.write();
        projects
            .entry(root.to_path_buf())
            .or_insert_with(|| {
                Arc::new(ProjectGraph {
                    root: root.to_path_buf(),
                    state: RwLock::new(ids::GRAPH_PROJECT, state),
                    lagging: AtomicBool::new(false),
                })
            })
            .clone()
    }

    /// Reads the snapshot; a damaged one is moved aside (`.corrupt`), one of another format deleted.
    fn load(&self, root: &Path) -> State {
        let path = self.snapshot_path(root);
        let fresh = |discarded| State {
            graph: Graph::new(),
            phase: Phase::Waiting,
            origin: Origin::Files,
            parsed: 0,
            discarded,
            dirty: false,
            saved_at: Instant::now(),
            js_configs: BTreeSet::new(),
            too_large: BTreeSet::new(),
        };
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return fresh(None),
            Err(e) => return fresh(Some(format!("cannot read {}: {e}", path.display()))),
        };
        match persist::decode(&bytes) {
            Ok(graph) => State { graph, phase: Phase::Ready, origin: Origin::Snapshot, ..fresh(None) },
            Err(err) => {
                let aside = match &err {
                    LoadError::Corrupt(_) => {
                        let aside = path.with_extension("graph.corrupt");
                        std::fs::rename(&path, &aside).map(|()| format!("; the damaged file is {}", aside.display()))
                    }
                    LoadError::Outdated { .. } => std::fs::remove_file(&path).map(|()| String::new()),
                };
                let aside = aside.unwrap_or_else(|e| format!("; cannot move it aside: {e}"));
                tracing::warn!(root = %root.display(), "graph snapshot not used: {err}{aside}");
                fresh(Some(format!("rebuilt: {err}{aside}")))
            }
        }
    }

    /// Brings the graph in line with `files` (every file the index admits, root-relative): takes
    /// the facts the index's pass left in `extras` for files still as that pass read them, parses
    /// the other new or changed files, drops what is gone, then saves the snapshot.
    pub fn sync_all(&self, root: &Path, files: &[PathBuf], mut extras: Extras) {
        let project = self.project(root);
        let mut too_large = BTreeSet::new();
        let stamped: Vec<Pending> = files
            .iter()
            .filter_map(|rel| {
                let file = code_file(root, rel)?;
                match stat(&file.abs) {
                    Stat::Fits(stamp) => Some(Pending { facts: given_facts(&mut extras, rel, stamp), file, stamp }),
                    Stat::TooLarge => {
                        too_large.insert(file.rel);
                        None
                    }
                    Stat::Missing => None,
                }
            })
            .collect();
        let (mut todo, gone) = {
            let state = project.state.read();
            let keep: BTreeSet<&str> = stamped.iter().map(|p| p.file.rel.as_str()).collect();
            let gone: Vec<String> =
                state.graph.files().keys().filter(|rel| !keep.contains(rel.as_str())).cloned().collect();
            let todo: Vec<Pending> = stamped
                .into_iter()
                .filter(|p| state.graph.file(&p.file.rel).is_none_or(|f| f.stamp != p.stamp))
                .collect();
            (todo, gone)
        };
        let total = todo.len() as u64;
        let js_configs: BTreeSet<String> =
            files.iter().map(|rel| rel_string(rel)).filter(|rel| is_js_config(rel)).collect();
        let js_modules = read_js_modules(root, &js_configs);
        {
            let mut state = project.state.write();
            set_js_modules(&mut state, js_configs, js_modules);
            state.too_large = too_large;
            for rel in &gone {
                state.graph.remove(rel);
            }
            if state.phase != Phase::Ready {
                state.phase = Phase::Building { done: 0, total };
            }
            state.dirty |= !gone.is_empty() || !todo.is_empty();
        }
        for chunk in todo.chunks_mut(PUBLISH_EVERY_FILES) {
            let parsed = parse_all(root, chunk);
            let mut state = project.state.write();
            apply(&mut state, parsed);
            if let Phase::Building { done, total } = state.phase {
                state.phase = Phase::Building { done: done + chunk.len() as u64, total };
            }
        }
        project.state.write().phase = Phase::Ready;
        self.save(&project, true);
    }

    /// Applies one batch of the index: `upserts` taken from `extras` or parsed again, `deletes`
    /// dropped.
    pub fn changed(&self, root: &Path, upserts: &[PathBuf], deletes: &[PathBuf], mut extras: Extras) {
        // Before the first full walk there is nothing to update: that walk brings everything.
        let Some(project) = self.get(root) else { return };
        let touched: Vec<(String, bool)> = upserts
            .iter()
            .map(|rel| (rel_string(rel), true))
            .chain(deletes.iter().map(|rel| (rel_string(rel), false)))
            .filter(|(rel, _)| is_js_config(rel))
            .collect();
        if !touched.is_empty() {
            let mut js_configs = project.state.read().js_configs.clone();
            for (rel, present) in touched {
                if present {
                    js_configs.insert(rel);
                } else {
                    js_configs.remove(&rel);
                }
            }
            let js_modules = read_js_modules(root, &js_configs);
            set_js_modules(&mut project.state.write(), js_configs, js_modules);
        }
        let (upserted, deleted) = (stat_code_files(root, upserts), stat_code_files(root, deletes));
        {
            // A file grown over the bound may come as a delete: its size says which it is.
            let mut state = project.state.write();
            for (_, file, stat) in upserted.iter().chain(&deleted) {
                match stat {
                    Stat::TooLarge => state.too_large.insert(file.rel.clone()),
                    Stat::Fits(_) | Stat::Missing => state.too_large.remove(&file.rel),
                };
            }
        }
        let parsed: Vec<(String, Option<FileEntry>)> = upserted
            .into_iter()
            .map(|(rel, file, stat)| match stat {
                Stat::Fits(stamp) => {
                    let mut pending = Pending { facts: given_facts(&mut extras, rel, stamp), file, stamp };
                    (pending.file.rel.clone(), entry_of(root, &mut pending))
                }
                Stat::TooLarge | Stat::Missing => (file.rel, None),
            })
            .chain(deletes.iter().map(|rel| (rel_string(rel), None)))
            .collect();
        if parsed.is_empty() {
            return;
        }
        apply(&mut project.state.write(), parsed);
        self.save(&project, false);
    }

    /// Forgets a closed project, saving its graph first when edits changed it.
    pub fn closed(&self, root: &Path) {
        let removed = self.projects.write().remove(root);
        if let Some(project) = removed {
            self.save(&project, true);
        }
    }

    /// Writes the snapshot when the graph changed (`now`, or [`SAVE_EVERY`] after the last save):
    /// encoded under the read lock, written (tmp + rename) after it is released.
    fn save(&self, project: &ProjectGraph, now: bool) {
        let bytes = {
            let state = project.state.read();
            if !state.dirty || (!now && state.saved_at.elapsed() < SAVE_EVERY) {
                return;
            }
            persist::encode(&state.graph)
        };
        {
            let mut state = project.state.write();
            state.dirty = false;
            state.saved_at = Instant::now();
        }
        let path = self.snapshot_path(&project.root);
        if let Err(e) = write_atomically(&path, &bytes) {
            tracing::warn!(root = %project.root.display(), "cannot save the graph to {}: {e}", path.display());
            project.state.write().dirty = true;
        }
    }

    pub fn figures(&self) -> ComponentFigures {
        let mut projects: Vec<Arc<ProjectGraph>> = self.projects.read().values().cloned().collect();
        projects.sort_by(|a, b| a.root.cmp(&b.root));
        let mut figures = vec![("projects", projects.len().to_string())];
        for project in projects {
            let state = project.state.read();
            let (defs, refs) = state.graph.counts();
            let phase = match state.phase {
                Phase::Waiting => "waiting for the index".to_string(),
                Phase::Building { done, total } => format!("building {done}/{total}"),
                Phase::Ready => "ready".to_string(),
            };
            let origin = match state.origin {
                Origin::Snapshot => "snapshot",
                Origin::Files => "files",
            };
            let note = state.discarded.as_ref().map(|d| format!(" ({d})")).unwrap_or_default();
            figures.push((
                "graph",
                format!(
                    "{} {phase} files={} defs={defs} refs={refs} from={origin} parsed={}{note}",
                    project.root.display(),
                    state.graph.files().len(),
                    state.parsed
                ),
            ));
        }
        ComponentFigures { name: "graph", figures }
    }
}

/// The index thread's reports, applied to the graph.
pub struct Follower(pub Arc<CodeGraph>);

impl IndexObserver for Follower {
    fn synced_all(&self, root: &Path, files: &[PathBuf], extras: Extras) {
        self.0.sync_all(root, files, extras);
    }

    fn changed(&self, root: &Path, upserts: &[PathBuf], deletes: &[PathBuf], extras: Extras) {
        self.0.changed(root, upserts, deletes, extras);
    }

    fn closed(&self, root: &Path) {
        self.0.closed(root);
    }
}

/// The module mappings the project's JavaScript/TypeScript configs write (read as the graph
/// reads files: confined to the project, at most [`MAX_FILE_BYTES`]).
fn read_js_modules(root: &Path, configs: &BTreeSet<String>) -> JsModules {
    JsModules::read(configs.iter().map(String::as_str), |rel| read_project_file(root, &root.join(rel)))
}

/// Records the configs and, when they map differently than before, the graph's new mappings.
fn set_js_modules(state: &mut State, js_configs: BTreeSet<String>, js_modules: JsModules) {
    state.js_configs = js_configs;
    if *state.graph.js_modules() != js_modules {
        state.graph.set_js_modules(js_modules);
        state.dirty = true;
    }
}

/// Puts parsed files (or removals, `None`) into the graph.
fn apply(state: &mut State, parsed: Vec<(String, Option<FileEntry>)>) {
    for (rel, entry) in parsed {
        match entry {
            Some(entry) => {
                state.graph.upsert(&rel, entry);
                state.parsed += 1;
            }
            None => {
                state.graph.remove(&rel);
            }
        }
        state.dirty = true;
    }
}

fn rel_string(rel: &Path) -> String {
    rel.to_string_lossy().replace('\\', "/")
}

/// A file the graph reads.
struct CodeFile {
    /// Root-relative, `/`-separated: the graph's name for it.
    rel: String,
    abs: PathBuf,
    language: Language,
}

fn code_file(root: &Path, rel: &Path) -> Option<CodeFile> {
    let abs = root.join(rel);
    let language = match lean_ctx_outline::reads_shebang(rel) {
        // A script without an extension (`bin/deploy`) is read as its `#!` line says, as the
        // index's extractor reads it, so the facts that extractor made of it are used.
        true => Language::detect(rel, &first_line(root, &abs)?),
        false => Language::from_path(rel),
    };
    let language = language.filter(|l| has_queries(*l))?;
    Some(CodeFile { rel: rel_string(rel), abs, language })
}

/// The first line of the project file at `path`, enough for its `#!` line; `None` when it cannot
/// be read or is no regular file. A FIFO or a device in the tree is never read: it is opened
/// without blocking (see [`open_confined`]) and its type is checked on the descriptor before a
/// byte is read (a FIFO's open waited for a writer, so the graph's walk hung on it).
fn first_line(root: &Path, path: &Path) -> Option<String> {
    let (mut file, _) = open_confined(path, |real| real.starts_with(root)).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut head = [0u8; 256];
    let read = file.read(&mut head).ok()?;
    let head = String::from_utf8_lossy(&head[..read]);
    Some(head.lines().next().unwrap_or_default().to_string())
}

/// A file to put into the graph, with its facts when the index's pass already made them.
struct Pending {
    file: CodeFile,
    stamp: Stamp,
    facts: Option<FileFacts>,
}

/// The facts the index's extractor made of `rel`, when they were made from the file as it is
/// now (same size and modification time); otherwise the file changed since and is parsed again.
fn given_facts(extras: &mut Extras, rel: &Path, stamp: Stamp) -> Option<FileFacts> {
    let extra = extras.remove(rel)?;
    let current = extra.stamp.size == stamp.size && extra.stamp.mtime_ns == stamp.mtime_ns;
    current.then(|| extra.value.downcast::<FileFacts>().ok()).flatten().map(|facts| *facts)
}

/// What one stat of a code file says.
enum Stat {
    /// A file the graph reads, as it is now.
    Fits(Stamp),
    /// A file over [`MAX_FILE_BYTES`], which the graph does not read.
    TooLarge,
    /// Gone, or no regular file.
    Missing,
}

/// The code files among `rels`, each stated once: its size says whether it is too large, its
/// stamp whether the index's facts are current.
fn stat_code_files<'a>(root: &Path, rels: &'a [PathBuf]) -> Vec<(&'a PathBuf, CodeFile, Stat)> {
    let code = rels.iter().filter_map(|rel| Some((rel, code_file(root, rel)?)));
    code.map(|(rel, file)| {
        let stat = stat(&file.abs);
        (rel, file, stat)
    })
    .collect()
}

fn stat(path: &Path) -> Stat {
    let Some(meta) = std::fs::metadata(path).ok().filter(|m| m.is_file()) else { return Stat::Missing };
    if meta.len() > MAX_FILE_BYTES {
        return Stat::TooLarge;
    }
    let mtime_ns = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as u64);
    Stat::Fits(Stamp { size: meta.len(), mtime_ns })
}

/// The entries of `files`, in their order: given facts taken as they are, the other files parsed
/// on as many threads as the machine has cores (parsing is a pure function of a file and nearly
/// all of a graph's build when the index did not hand the facts over).
fn parse_all(root: &Path, files: &mut [Pending]) -> Vec<(String, Option<FileEntry>)> {
    let parse_part = |part: &mut [Pending]| -> Vec<(String, Option<FileEntry>)> {
        part.iter_mut().map(|pending| (pending.file.rel.clone(), entry_of(root, pending))).collect()
    };
    let unparsed = files.iter().filter(|p| p.facts.is_none()).count();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(unparsed);
    if workers <= 1 {
        return parse_part(files);
    }
    let per_part = files.len().div_ceil(workers);
    std::thread::scope(|scope| {
        let parse_part = &parse_part;
        let parts: Vec<_> = files.chunks_mut(per_part).map(|part| scope.spawn(move || parse_part(part))).collect();
        // A panic in a parser is the build's, as it would be on one thread.
        parts
            .into_iter()
            .flat_map(|part| part.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    })
}

/// A pending file's entry: its given facts, or its facts parsed now; `None` when it cannot be
/// read (gone, unreadable, swapped for a link out of the project) and leaves the graph.
fn entry_of(root: &Path, pending: &mut Pending) -> Option<FileEntry> {
    let facts = match pending.facts.take() {
        Some(facts) => facts,
        None => extract(pending.file.language, &read_project_file(root, &pending.file.abs)?),
    };
    Some(FileEntry { stamp: pending.stamp, facts })
}

/// The text of a file of the project at `root` as it is now, at most [`MAX_FILE_BYTES`]. Opened
/// so that what is read is what was checked (`lean_ctx_common::confined`): a file swapped for a
/// symlink to outside the project is not read, as the search index does not read it.
pub(super) fn read_project_file(root: &Path, path: &Path) -> Option<String> {
    let (file, _) = open_confined(path, |real| real.starts_with(root)).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).ok()?;
    (bytes.len() as u64 <= MAX_FILE_BYTES).then(|| String::from_utf8_lossy(&bytes).into_owned())
}

fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    let mut file = std::fs::File::create(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(&tmp, path)
}

/// A graph still being built, for the answers' tests: `main.py` (`def main`) parsed of nine files.
#[cfg(test)]
pub(super) struct Building {
    graph: Graph,
    too_large: BTreeSet<String>,
}

#[cfg(test)]
impl Building {
    pub(super) fn new() -> Building {
        let mut graph = Graph::new();
        let facts = lean_ctx_graph::extract(lean_ctx_outline::Language::Python, "def main():\n    return 1\n");
        graph.upsert("main.py", lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
        Building { graph, too_large: BTreeSet::new() }
    }

    pub(super) fn view(&self) -> GraphView<'_> {
        GraphView {
            graph: &self.graph,
            phase: Phase::Building { done: 1, total: 9 },
            lagging: false,
            too_large: &self.too_large,
        }
    }
}

#[cfg(test)]
mod tests {
    use lean_ctx_search::{Extra, FileStamp};

    use super::*;

    #[test]
    fn project_files_are_read_only_inside_the_project_and_within_the_size_bound() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let root = base.join("project");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(base.join("outside.rs"), "pub fn secret() {}\n").unwrap();
        std::fs::write(root.join("lib.rs"), "pub fn inside() {}\n").unwrap();
        std::os::unix::fs::symlink(base.join("outside.rs"), root.join("link.rs")).unwrap();
        std::fs::write(root.join("big.rs"), vec![b'a'; MAX_FILE_BYTES as usize + 1]).unwrap();
        assert_eq!(read_project_file(&root, &root.join("lib.rs")).as_deref(), Some("pub fn inside() {}\n"));
        assert_eq!(read_project_file(&root, &root.join("link.rs")), None, "a link out of the project");
        assert_eq!(read_project_file(&root, &root.join("big.rs")), None, "over the bound");
    }

    /// A file without an extension is read for its `#!` line only when it is a regular file: a
    /// FIFO's open waited for a writer that never came, and the graph's walk with it.
    #[test]
    fn a_fifo_without_an_extension_is_not_read_for_its_shebang() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("bin")).unwrap();
        std::fs::write(root.join("bin/deploy"), "#!/usr/bin/env python3\ndef main():\n    pass\n").unwrap();
        let fifo = std::ffi::CString::new(root.join("bin/pipe").into_os_string().into_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        let (done, answer) = std::sync::mpsc::channel();
        let walked = root.clone();
        std::thread::spawn(move || {
            let languages =
                ["bin/pipe", "bin/deploy"].map(|rel| code_file(&walked, Path::new(rel)).map(|f| f.language));
            let _ = done.send(languages);
        });
        let languages = answer.recv_timeout(Duration::from_secs(5)).expect("reading a FIFO's first line blocked");
        assert_eq!(languages, [None, Some(Language::Python)]);
    }

    #[test]
    fn the_notice_names_unparsable_configs_and_counts_the_rest() {
        let notice = |broken: usize, phase: Phase| {
            let names: Vec<String> = (0..broken).map(|i| format!("p{i}/tsconfig.json")).collect();
            let mut graph = Graph::new();
            graph.set_js_modules(JsModules::read(names.iter().map(String::as_str), |_| Some("{ x".to_string())));
            GraphView { graph: &graph, phase, lagging: false, too_large: &BTreeSet::new() }.notice()
        };
        assert_eq!(notice(0, Phase::Ready), None);
        assert_eq!(
            notice(1, Phase::Ready).unwrap(),
            "`p0/tsconfig.json` (line 1: expected a key in double quotes or `}`) is not applied: imports through \
             its module mappings resolve by name only"
        );
        let five = notice(5, Phase::Building { done: 2, total: 9 }).unwrap();
        assert!(
            five.starts_with("the project's graph is still being built (2/9 files parsed); `p0/tsconfig.json` ("),
            "{five}"
        );
        assert!(
            five.ends_with(
                "`p2/tsconfig.json` (line 1: expected a key in double quotes or `}`) and 2 more are not \
                            applied: imports through their module mappings resolve by name only"
            ),
            "{five}"
        );
    }

    #[test]
    fn a_broken_js_config_is_not_named_in_answers_about_other_languages() {
        let mut graph = Graph::new();
        graph.set_js_modules(JsModules::read(["tsconfig.json"], |_| Some("{ x".to_string())));
        let view = GraphView { graph: &graph, phase: Phase::Ready, lagging: false, too_large: &BTreeSet::new() };
        assert_eq!(view.notice_about(Some("tools/build.py")), None);
        assert_eq!(view.notice_about(Some("src/lib.rs")), None);
        for file in [Some("src/app.ts"), Some("web/view.jsx"), Some("README"), None] {
            assert!(view.notice_about(file).is_some_and(|note| note.contains("tsconfig.json")), "{file:?}");
        }
        let building = GraphView {
            graph: &graph,
            phase: Phase::Building { done: 1, total: 2 },
            lagging: false,
            too_large: &BTreeSet::new(),
        };
        assert!(building.notice_about(Some("tools/build.py")).unwrap().contains("still being built"));
        let lagging = GraphView { graph: &graph, phase: Phase::Ready, lagging: true, too_large: &BTreeSet::new() };
        assert!(lagging.notice_about(Some("tools/build.py")).unwrap().contains("not in the graph yet"));
    }

    #[test]
    fn files_too_large_for_the_graph_are_named_where_they_matter() {
        let big = format!("def huge():\n    pass\n{}", "x = 1\n".repeat(MAX_FILE_BYTES as usize / 6 + 1));
        let project = project_with(&[("a.py", "def a():\n    pass\n"), ("gen/big.py", &big)]);
        let root = project.path();
        let cache = tempfile::tempdir().unwrap();
        let graph = CodeGraph::new(cache.path());
        let files = [PathBuf::from("a.py"), PathBuf::from("gen/big.py")];
        graph.sync_all(root, &files, Extras::new());
        let notes = |graph: &CodeGraph| {
            graph.project(root).read(|view| {
                [None, Some("gen/big.py"), Some("a.py")].map(|file| view.notice_about(file).unwrap_or_default())
            })
        };
        assert_eq!(
            notes(&graph),
            [
                "1 code file over 1 MiB is too large for the graph and not in it: gen/big.py".to_string(),
                "gen/big.py is over 1 MiB, too large for the graph: what it defines, imports and calls is not in it"
                    .to_string(),
                String::new(),
            ]
        );
        // Cut down to size, it is read and no longer named.
        std::fs::write(root.join("gen/big.py"), "def huge():\n    pass\n").unwrap();
        graph.changed(root, &[PathBuf::from("gen/big.py")], &[], Extras::new());
        assert_eq!(notes(&graph), [String::new(), String::new(), String::new()]);
        assert!(graph.project(root).read(|view| view.graph.file("gen/big.py").is_some()));
    }

    fn project_with(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (rel, text) in files {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    fn figure(graph: &CodeGraph) -> String {
        graph.figures().figures.iter().find(|(name, _)| *name == "graph").map(|(_, v)| v.clone()).unwrap_or_default()
    }

    #[test]
    fn a_snapshot_is_loaded_not_rebuilt_and_a_damaged_one_is_rebuilt() {
        let project = project_with(&[("a.py", "def a():\n    b()\n\ndef b():\n    pass\n"), ("notes.txt", "x")]);
        let cache = tempfile::tempdir().unwrap();
        let files = [PathBuf::from("a.py"), PathBuf::from("notes.txt")];
        let root = project.path();

        let graph = CodeGraph::new(cache.path());
        graph.sync_all(root, &files, Extras::new());
        assert!(figure(&graph).contains("ready files=1 defs=2 refs=1 from=files parsed=1"), "{}", figure(&graph));
        graph.closed(root);

        let reopened = CodeGraph::new(cache.path());
        reopened.sync_all(root, &files, Extras::new());
        assert!(figure(&reopened).contains("from=snapshot parsed=0"), "{}", figure(&reopened));
        reopened.closed(root);

        let snapshot = reopened.snapshot_path(root);
        let mut bytes = std::fs::read(&snapshot).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&snapshot, bytes).unwrap();
        let healed = CodeGraph::new(cache.path());
        healed.sync_all(root, &files, Extras::new());
        let shown = figure(&healed);
        assert!(shown.contains("from=files parsed=1 (rebuilt: corrupt graph file: checksum mismatch"), "{shown}");
        assert!(snapshot.with_extension("graph.corrupt").exists());
    }

    #[test]
    fn batches_parse_changed_files_and_drop_deleted_ones() {
        let project =
            project_with(&[("a.go", "package a\n\nfunc A() { B() }\n"), ("b.go", "package a\n\nfunc B() {}\n")]);
        let cache = tempfile::tempdir().unwrap();
        let graph = CodeGraph::new(cache.path());
        let root = project.path();
        graph.sync_all(root, &[PathBuf::from("a.go"), PathBuf::from("b.go")], Extras::new());
        std::fs::write(root.join("a.go"), "package a\n\nfunc A() {}\n").unwrap();
        std::fs::remove_file(root.join("b.go")).unwrap();
        graph.changed(root, &[PathBuf::from("a.go")], &[PathBuf::from("b.go")], Extras::new());
        let counts = graph.project(root).read(|view| (view.graph.files().len(), view.graph.counts()));
        assert_eq!(counts, (1, (1, 0)));
    }

    #[test]
    fn facts_handed_over_by_the_index_are_used_only_for_the_content_they_were_made_from() {
        let project = project_with(&[("a.py", "def a():\n    pass\n"), ("b.py", "def b():\n    pass\n")]);
        let root = project.path();
        let stamp = |rel: &str| match stat(&root.join(rel)) {
            Stat::Fits(stamp) => stamp,
            _ => panic!("{rel} is a file the graph reads"),
        };
        // Facts of other text than the file's, so the graph shows which it took.
        let handed = |text: &str, stamp: Stamp| Extra {
            stamp: FileStamp { size: stamp.size, mtime_ns: stamp.mtime_ns },
            value: Box::new(extract(Language::Python, text)),
        };
        let mut extras = Extras::new();
        extras.insert("a.py".into(), handed("def a():\n    pass\n\ndef c():\n    pass\n", stamp("a.py")));
        let stale = Stamp { mtime_ns: stamp("b.py").mtime_ns + 1, ..stamp("b.py") };
        extras.insert("b.py".into(), handed("def x():\n    pass\n", stale));

        let cache = tempfile::tempdir().unwrap();
        let graph = CodeGraph::new(cache.path());
        graph.sync_all(root, &[PathBuf::from("a.py"), PathBuf::from("b.py")], extras);
        let names = graph.project(root).read(|view| {
            let mut names: Vec<String> =
                view.graph.files().values().flat_map(|f| f.facts.defs.iter().map(|d| d.name.clone())).collect();
            names.sort();
            names
        });
        assert_eq!(names, ["a", "b", "c"], "a.py's current facts taken, b.py's stale ones replaced by a parse");
    }
}
