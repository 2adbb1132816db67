//! [`SearchEngine`]: the entry point. It owns every open project of one
//! process; the daemon keeps one for its life, an in-process client creates
//! one per command. All methods block and are meant for a blocking thread pool.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::config::SearchConfig;
use crate::error::SearchError;
use crate::filter::PathFilter;
use crate::ignored;
use crate::index::panic_message;
use crate::model::{
    Action, BuildProgress, Found, GlobResult, IndexStatus, Match, SearchRequest, SearchResult, Source, TreeResult,
};
use crate::paths::{resolve_root, resolve_scope};
use crate::project::{IndexView, Project};
use crate::registry::Registry;
use crate::walk::{Stop, skipped_hidden};
use crate::watcher::MAX_DELAY_WINDOWS;
use crate::{bm25, glob, regex_search, render, symbol, tree};

pub struct SearchEngine {
    registry: Registry,
}

impl SearchEngine {
    /// Creates an engine; nothing is read or written until the first request.
    pub fn new(config: SearchConfig) -> Self {
        SearchEngine { registry: Registry::new(config) }
    }

    pub fn config(&self) -> &SearchConfig {
        self.registry.config()
    }

    /// Searches one project. The first search of a project starts building
    /// its index in the background; until it is ready bm25 and symbol
    /// searches scan the files and say so in `note` (`source: Scan`). Such a
    /// scan stops at the configured `scan_budget`, and the note says the
    /// results are partial then.
    pub fn search(&self, request: &SearchRequest) -> Result<SearchResult, SearchError> {
        let scope = resolve_scope(&request.root, request.path.as_deref())?;
        let filter = Arc::new(PathFilter::new(
            &scope,
            &request.include,
            &request.exclude,
            request.withhold.clone(),
            request.mask.clone(),
        )?);
        let config = self.config();
        let max = request.max_results;
        let root = scope.root.as_path();
        let stop = |deadline| Stop { deadline, cancel: &request.cancel };
        // The index holds neither hidden paths nor what the ignore rules leave out: a request for
        // them is answered from the files, as a regex search is.
        let unindexed = match request.action {
            Action::Regex => None,
            _ if filter.includes_hidden() => Some("hidden paths are not in the index"),
            _ if ignored::scope_ignored(&scope, config) => {
                Some("the project's ignore rules leave this path out, so the index does not hold it")
            }
            _ => None,
        };
        let (source, note, mut found) = match request.action {
            Action::Regex => {
                let matcher = regex_search::compile(&request.pattern)?;
                self.project_for_search(root);
                let budget = config.regex_budget;
                let stop = Stop { deadline: Some(Instant::now() + budget), cancel: &request.cancel };
                let found = regex_search::search(&scope, &filter, &matcher, max, config, &stop);
                let note = found.cut_short.then(|| match request.cancel.load(Ordering::Relaxed) {
                    true => format!("the search was cancelled after {} files", found.files_searched),
                    false => format!(
                        "the search stopped at its {budget:?} budget after {} files, so the results are partial; \
                         narrow it with `path` or `include`",
                        found.files_searched
                    ),
                });
                (Source::Scan, note, found)
            }
            Action::Bm25 => {
                let query = bm25::query(&request.pattern)?;
                self.indexed_or_scan(
                    root,
                    unindexed,
                    |view| bm25::search_index(view, root, &filter, &query, max, config),
                    |deadline| bm25::search_scan(&scope, &filter, &query, max, config, &stop(deadline)),
                    Some(bm25::SCAN_RANKING),
                )
            }
            Action::Symbol => {
                let search = |needle: &symbol::Needle| {
                    self.indexed_or_scan(
                        root,
                        unindexed,
                        |view| symbol::search_index(view, root, &filter, needle, max, config),
                        |deadline| symbol::search_scan(&scope, &filter, needle, max, config, &stop(deadline)),
                        None,
                    )
                };
                let asked = search(&symbol::needle(&request.pattern)?);
                match symbol::qualified(&request.pattern) {
                    Some(pattern) if asked.2.total == 0 => qualified_search(&pattern, search)?.unwrap_or(asked),
                    _ => asked,
                }
            }
        };
        let mut notes: Vec<String> = note.into_iter().chain(found.note.take()).collect();
        // An empty answer says what it did not look at: hidden files it could have searched, unless
        // the request asked for hidden paths (and so searched them).
        let admitted = |rel: &Path| filter.admits(rel) && filter.withheld_by(rel).is_none();
        if found.total == 0
            && !filter.includes_hidden()
            && let Some(example) = skipped_hidden(&scope, config, &admitted)
        {
            notes.push(render::hidden_note(example.as_deref()));
        }
        if found.total == 0 {
            let unwithheld = |rel: &Path| filter.withheld_by(rel).is_none();
            let hidden = filter.includes_hidden();
            let mut left_out = ignored::ignored_tops(&scope, config, hidden, &unwithheld);
            // Only what the globs would have searched was left out (`--include '*.xyz'`).
            if !filter.admits_every_path() {
                left_out = left_out.holding(&scope, config, hidden, &admitted);
            }
            notes.extend(ignored::search_note(&left_out));
        }
        notes.extend(found.withheld.unsearched_note());
        let note = (!notes.is_empty()).then(|| notes.join("\n"));
        let mut result = SearchResult {
            action: request.action,
            source,
            truncated: found.shown < found.total,
            matches: found.matches,
            total: found.total,
            shown: found.shown,
            files_with_matches: found.files_with_matches,
            withheld: found.withheld.results,
            files_searched: found.files_searched,
            skipped: found.skipped,
            note,
            text: String::new(),
        };
        result.text = render::search_text(&result, max);
        Ok(result)
    }

    /// Answers from the index when it is ready, otherwise (or when the index
    /// fails or panics, which also schedules a rebuild) from a scan bounded
    /// by `scan_budget`, with a note. Without an index coming (build_on_search
    /// off), or for paths the index does not hold (`unindexed` says why), the
    /// scan is the answer and runs to the end. `differs` is what a scanned
    /// answer's note adds when the scan does not rank as the index does.
    fn indexed_or_scan(
        &self,
        root: &Path,
        unindexed: Option<&str>,
        from_index: impl FnOnce(&IndexView) -> tantivy::Result<Found>,
        scan: impl FnOnce(Option<Instant>) -> Found,
        differs: Option<&str>,
    ) -> (Source, Option<String>, Found) {
        let Some(project) = self.project_for_search(root) else {
            let note = scanned_note("no index open for this project (build_on_search is off)", differs, true);
            return (Source::Scan, Some(note), scan(None));
        };
        if let Some(reason) = unindexed {
            // Never indexed, so no index will order them otherwise.
            return (Source::Scan, Some(scanned_note(reason, differs, false)), scan(None));
        }
        // A search right after an edit waits for the index to have it; past the wait the index
        // answers, saying it lags.
        let lagging = project.view().is_some() && !project.wait_fresh(self.fresh_wait());
        let reason = match project.view() {
            Some(view) => match query(&view, from_index) {
                Ok(found) => {
                    let note = lagging.then(|| {
                        "recent file changes are not in the index yet (it is catching up); action regex reads \
                         the files themselves"
                            .to_string()
                    });
                    return (Source::Index, note, found);
                }
                Err(failure) => {
                    let note = format!("the index failed ({failure}) and is being rebuilt");
                    project.request_rebuild(view.generation, failure);
                    note
                }
            },
            None => project.unready_reason(),
        };
        let budget = self.config().scan_budget;
        let found = scan(Some(Instant::now() + budget));
        let mut note = scanned_note(&reason, differs, true);
        if found.cut_short {
            note.push_str(&format!(
                "; the scan stopped at its {budget:?} budget after {} files, so the results are partial",
                found.files_searched
            ));
        }
        (Source::Scan, Some(note), found)
    }

    /// How long a question waits for the index to take the file events seen before it: a batch
    /// is applied within MAX_DELAY_WINDOWS debounce windows of its first event, one more covers
    /// applying it.
    fn fresh_wait(&self) -> Duration {
        Duration::from_millis(self.config().debounce_ms) * (MAX_DELAY_WINDOWS + 1)
    }

    /// Waits (a bounded time) until the open index of `root`, and what its
    /// [`crate::IndexObserver`] was told, reflects every file change the
    /// watcher has seen: the code graph asked right after an edit. False when
    /// it still lags; true when no index is open.
    pub fn wait_fresh(&self, root: &Path) -> bool {
        let Ok(root) = resolve_root(root) else { return true };
        self.registry.get(&root).is_none_or(|project| project.wait_fresh(self.fresh_wait()))
    }

    /// Whether the open index of `root` has caught up with the files on disk: opening an index
    /// walks the tree for what changed while no daemon watched it (files edited, added or deleted
    /// meanwhile), and until that walk is applied, neither the index nor what its observer was told
    /// reflects them. True when no index is open.
    pub fn caught_up(&self, root: &Path) -> bool {
        let Ok(root) = resolve_root(root) else { return true };
        self.registry.get(&root).is_none_or(|project| project.caught_up())
    }

    /// The project a search may use: opened (and built) on demand unless
    /// `build_on_search` is off, in which case only an already open one.
    fn project_for_search(&self, root: &Path) -> Option<Arc<Project>> {
        if self.config().build_on_search {
            Some(self.registry.open(root))
        } else {
            self.registry.get(root).inspect(|p| p.touch())
        }
    }

    /// Opens a project as a search would (its index built in the background
    /// and kept fresh, its [`crate::IndexObserver`] told), without searching;
    /// false when this engine builds no indexes (`build_on_search` off).
    pub fn open(&self, root: &Path) -> Result<bool, SearchError> {
        let root = resolve_root(root)?;
        Ok(self.project_for_search(&root).is_some())
    }

    /// Files under `path` (or the root) whose path matches `pattern`, sorted; those `withhold`
    /// names a reason for (the user's read rules; given absolute paths) are counted, not listed.
    pub fn glob(
        &self,
        root: &Path,
        pattern: &str,
        path: Option<&Path>,
        max_results: usize,
        withhold: &dyn Fn(&Path) -> Option<String>,
    ) -> Result<GlobResult, SearchError> {
        let scope = resolve_scope(root, path)?;
        refuse_special(&scope)?;
        glob::glob(&scope, pattern, max_results, self.config(), withhold)
    }

    /// A directory tree with file counts, `depth` levels deep (at least 1).
    pub fn tree(
        &self,
        root: &Path,
        path: Option<&Path>,
        depth: usize,
        show_hidden: bool,
        respect_gitignore: bool,
        withhold: &dyn Fn(&Path) -> Option<String>,
    ) -> Result<TreeResult, SearchError> {
        let scope = resolve_scope(root, path)?;
        refuse_special(&scope)?;
        Ok(tree::tree(&scope, depth, show_hidden, respect_gitignore, self.config(), withhold))
    }

    /// Builds or refreshes a project's index and waits for it; `progress` is
    /// called from the indexing thread every few hundred files.
    pub fn build(
        &self,
        root: &Path,
        progress: impl Fn(BuildProgress) + Send + Sync + 'static,
    ) -> Result<IndexStatus, SearchError> {
        self.build_until(root, progress, &AtomicBool::new(false))
    }

    /// [`Self::build`] for a caller that may leave: once `cancel` is set the
    /// wait ends with [`SearchError::Cancelled`], and a project this request
    /// opened is closed, which stops its build (what was indexed is kept
    /// for the next open). After `build_wait` the answer is the progress so
    /// far (phase `Building`) while the build goes on in the background.
    pub fn build_until(
        &self,
        root: &Path,
        progress: impl Fn(BuildProgress) + Send + Sync + 'static,
        cancel: &AtomicBool,
    ) -> Result<IndexStatus, SearchError> {
        let root = resolve_root(root)?;
        let (request, done) = Project::build_request(Arc::new(progress));
        let (project, opened_now) = self.registry.open_with(&root, Some(request));
        let stop = Stop { deadline: Some(Instant::now() + self.config().build_wait), cancel };
        let waited = project.wait_build(done, &stop);
        if matches!(waited, Err(SearchError::Cancelled)) && opened_now {
            self.registry.close(&root);
        }
        waited
    }

    /// Status of every open project, sorted by root.
    pub fn status(&self) -> Vec<IndexStatus> {
        self.registry.all().iter().map(|p| p.status()).collect()
    }

    /// Status of one project, `None` when it is not open.
    pub fn project_status(&self, root: &Path) -> Result<Option<IndexStatus>, SearchError> {
        let root = resolve_root(root)?;
        Ok(self.registry.get(&root).map(|p| p.status()))
    }

    /// Closes a project (watcher stopped, readers dropped); false if it was not open.
    pub fn close(&self, root: &Path) -> Result<bool, SearchError> {
        Ok(self.registry.close(&resolve_root(root)?))
    }
}

/// `Query::fetch` or `zip.Writer.Close`, as callgraph and stack traces write them, name no
/// definition: a symbol is indexed by its own name, with its owner. The answer is the owner's
/// members starting with the name, those in files its package path names first (else all of them,
/// saying so when the path holds that owner); else every definition of that exact name, saying so. None when
/// nothing is found either way.
fn qualified_search(
    pattern: &symbol::Qualified<'_>,
    search: impl Fn(&symbol::Needle) -> (Source, Option<String>, Found),
) -> Result<Option<(Source, Option<String>, Found)>, SearchError> {
    let symbol::Qualified { qualifier, owner, name, .. } = pattern;
    if !pattern.places.is_empty() {
        let placed = search(&symbol::Needle::members(pattern, true)?);
        if placed.2.total > 0 {
            return Ok(Some(placed));
        }
    }
    let (source, note, mut found) = search(&symbol::Needle::members(pattern, false)?);
    if found.total > 0 {
        // The path is worth a note only where it names a place of the owner, which lacks the
        // member: a crate's or a Java package's name that no directory of the project holds
        // (`smallvec::SmallVec::try_grow` is in `src/lib.rs`) narrows nothing, as no path would.
        if !pattern.places.is_empty() && search(&symbol::Needle::placed_owner(pattern)?).2.total > 0 {
            let places = pattern.places.join("/");
            found.note = Some(format!(
                "the `{owner}` under a path holding `{places}` has no member starting with `{name}`: these are \
                 the members of every `{owner}`"
            ));
        }
        return Ok(Some((source, note, found)));
    }
    let (source, note, mut found) = search(&symbol::Needle::named(name)?);
    if found.total == 0 {
        return Ok(None);
    }
    // A module is a file or a directory too, whose definitions have no owner: `utf8::validate`
    // is src/utf8.rs's `validate` (QA: bstr's answer said no `validate` was in a module `utf8`).
    let in_module =
        |m: &Match| m.symbol.as_ref().is_some_and(|symbol| symbol.owner.is_none()) && file_module_named(&m.path, owner);
    if found.total == found.matches.len() as u64 && found.matches.iter().any(in_module) {
        found.matches.retain(in_module);
        found.total = found.matches.len() as u64;
        found.shown = found.total;
        let files: std::collections::BTreeSet<&str> = found.matches.iter().map(|m| m.path.as_str()).collect();
        found.files_with_matches = files.len() as u64;
        return Ok(Some((source, note, found)));
    }
    // A definition the extractor knows no owner of (the regex extractor knows none, nor of a
    // nested function its enclosing one) may be the owner's member all the same: the note says how
    // many, and that such a definition is found by its own name.
    let unowned = found.matches.iter().filter(|m| m.symbol.as_ref().is_some_and(|s| s.owner.is_none())).count();
    let unknown = match unowned {
        0 => String::new(),
        n => format!(
            "; {} no owner the search knows (a file's own definition, or one read where owners and enclosing \
             functions are not known: a member or a nested function is found by its own name there)",
            if n == 1 { "1 of them has".to_string() } else { format!("{n} of them have") }
        ),
    };
    found.note = Some(format!(
        "no `{name}` was found in a type or module named `{qualifier}`: these are the definitions named `{name}` \
         anywhere{unknown}"
    ));
    Ok(Some((source, note, found)))
}

/// Whether the file at `path` is, or is in, a module named `owner` in a language whose files are
/// modules (Rust, Python, Go; not Ruby's, whose `module` is written in the file): its name
/// without extension (`src/utf8.rs`, `more.py`), else its directory's for a file standing for
/// its directory (`utf8/mod.rs`, `pkg/__init__.py`) or any Go file (`cast/caste.go`).
fn file_module_named(path: &str, owner: &str) -> bool {
    let path = Path::new(path);
    let Some(extension) = path.extension().and_then(|ext| ext.to_str()) else { return false };
    if !matches!(extension, "rs" | "py" | "pyi" | "go") {
        return false;
    }
    let stem = path.file_stem().and_then(|stem| stem.to_str()).unwrap_or_default();
    let directory = path.parent().and_then(|dir| dir.file_name()).and_then(|dir| dir.to_str());
    let for_directory = matches!(stem, "mod" | "__init__") || extension == "go";
    let module = if for_directory { directory.unwrap_or_default() } else { stem };
    module.eq_ignore_ascii_case(owner)
}

/// The note of an answer scanned from the files: why, and how its ranking differs from the index's.
/// `indexed_later`: an index will answer such a search once it is ready.
fn scanned_note(reason: &str, differs: Option<&str>, indexed_later: bool) -> String {
    match (differs, indexed_later) {
        (Some(differs), true) => {
            format!("{reason}: searched the files directly; {differs}, so the order can differ once the index is ready")
        }
        (Some(differs), false) => format!("{reason}: searched the files directly; {differs}"),
        (None, _) => format!("{reason}: searched the files directly"),
    }
}

/// Runs a query on the index. tantivy answers some damage with an error and
/// some with a panic (an index out of bounds in a garbled posting list);
/// either is reported as the reason to rebuild, never passed to the caller.
fn query(view: &IndexView, from_index: impl FnOnce(&IndexView) -> tantivy::Result<Found>) -> Result<Found, String> {
    match catch_unwind(AssertUnwindSafe(|| from_index(view))) {
        Ok(Ok(found)) => Ok(found),
        Ok(Err(err)) => Err(format!("a search failed: {err}")),
        Err(panic) => Err(format!("a search panicked: {}", panic_message(&*panic))),
    }
}

impl Drop for SearchEngine {
    /// Stops every watcher and indexing thread before the engine is gone.
    fn drop(&mut self) {
        self.registry.shutdown();
    }
}

/// A listing of a FIFO, socket or device would walk nothing and read as an empty directory.
fn refuse_special(scope: &crate::paths::Scope) -> Result<(), SearchError> {
    match std::fs::metadata(&scope.base) {
        Ok(meta) if !meta.is_dir() && !meta.is_file() => {
            Err(SearchError::PathIsSpecial { path: scope.base_rel.clone() })
        }
        _ => Ok(()),
    }
}
