//! The engine: every component of lean-ctxd, independent of transport.
//!
//! The gRPC services in `server` are thin mappings onto these methods, and
//! the clients' in-process fallback builds the very same engine, so the
//! daemon and the fallback share one behaviour.

pub mod cancel;
pub mod char_boundary;
pub mod config;
pub mod edit;
pub mod error;
pub mod extractor_fingerprint;
pub mod graph;
pub mod guard;
pub mod lru;
pub mod lsp_pool;
pub mod memory;
pub mod path_locks;
/// Where every file lives (crate `lean-ctx-common`, shared with clients).
pub use lean_ctx_common::paths;
pub mod project;
pub mod read;
pub mod search;
pub mod session;
pub mod shell;
pub use lean_ctx_common::surface;
pub mod tokens;

use config::{Config, ConfigStore};
use error::{EngineError, EngineResult};
use lean_ctx_common::framing;
use memory::Memory;
use path_locks::PathLocks;
use paths::Dirs;
use project::Scope;
use read::{ReadParams, Reader, View};
use session::{SessionIn, Sessions};
use shell::jobs::Jobs;
use tokens::Tokens;

/// Figures one component reports in Status, as (name, value) pairs.
pub struct ComponentFigures {
    pub name: &'static str,
    pub figures: Vec<(&'static str, String)>,
}

/// Who asks, from where: the engine-side view of a request's context.
#[derive(Debug, Clone, Copy, Default)]
pub struct Caller<'a> {
    pub cwd: &'a str,
    pub project_root: Option<&'a str>,
    pub session: &'a str,
    /// The client program (recorded with a new session).
    pub agent: &'a str,
    /// The host whose instruction files apply, as the client named it
    /// (empty: the `rules_host` setting).
    pub host: &'a str,
}

pub struct Engine {
    pub dirs: Dirs,
    pub config: ConfigStore,
    pub sessions: Sessions,
    pub tokens: Tokens,
    pub reader: Reader,
    pub path_locks: PathLocks,
    pub jobs: Jobs,
    pub memory: Memory,
    pub search: lean_ctx_search::SearchEngine,
    pub graph: std::sync::Arc<graph::CodeGraph>,
    pub guard: guard::Guard,
    /// Language servers of precise callgraph questions, started on demand.
    pub lsp: lsp_pool::LspPool,
    /// Requests stopped early: their caller left, or their deadline passed.
    pub stopped: cancel::Stopped,
    archive_sweep: shell::shape::SweepClock,
}

impl Engine {
    /// The engine a client runs in-process: its state.db check skips the
    /// ledger (which `lctx ledger verify` covers) to keep one-shot commands fast.
    pub fn new(dirs: Dirs) -> Engine {
        Self::build(dirs, lean_ctx_store::Check::SkipLedger, false)
    }

    /// The daemon's engine: checks all of state.db once at first use.
    pub fn daemon(dirs: Dirs) -> Engine {
        Self::build(dirs, lean_ctx_store::Check::Everything, true)
    }

    fn build(dirs: Dirs, check: lean_ctx_store::Check, long_lived: bool) -> Engine {
        let config = ConfigStore::open(dirs.config_file());
        let graph = std::sync::Arc::new(graph::CodeGraph::new(&dirs.cache));
        let follower = std::sync::Arc::new(graph::Follower(graph.clone()));
        let guard = guard::Guard::new();
        let search =
            search::new_search_engine(&dirs.cache, &config.get(), long_lived, follower, guard.redaction.mask());
        let memory = Memory::new(dirs.data.join("state.db"), check);
        let cache_bytes = usize::try_from(config.get().cache_bytes).unwrap_or(usize::MAX);
        Engine {
            dirs,
            config,
            sessions: Sessions::default(),
            tokens: Tokens::default(),
            reader: Reader::new(cache_bytes),
            path_locks: PathLocks::default(),
            jobs: Jobs::default(),
            memory,
            search,
            graph,
            guard,
            lsp: lsp_pool::LspPool::default(),
            stopped: cancel::Stopped::default(),
            archive_sweep: Default::default(),
        }
    }

    fn scope(&self, caller: &Caller<'_>, config: &Config) -> EngineResult<Scope> {
        let scope = Scope::new(caller.cwd, caller.project_root, &config.allow_paths)?
            .with_read_only(self.guard.read_only_roots(config));
        let rules = self.permission_rules(&scope, config);
        Ok(scope
            .with_shown_names(move |file| search::read_rule(&rules.permissions, file, search::Shows::Names).is_none()))
    }

    /// The user's permission rules for the scope's project.
    pub fn permission_rules(&self, scope: &Scope, config: &Config) -> std::sync::Arc<guard::permissions::Rules> {
        self.permission_rules_at(&scope.root, config)
    }

    /// The permission rules of the project at `root` (a search from the home directory into a
    /// repository obeys the repository's, as one run inside it does).
    pub fn permission_rules_at(
        &self,
        root: &std::path::Path,
        config: &Config,
    ) -> std::sync::Arc<guard::permissions::Rules> {
        self.guard.permissions.rules(self.guard.home(), root, config, self.config.file())
    }

    /// The caller's project and permitted paths.
    pub fn scope_of(&self, caller: &Caller<'_>) -> EngineResult<Scope> {
        self.scope(caller, &self.config.get())
    }

    /// ctx_read: one view per path (an error entry for an unreadable file
    /// among several; a single path's error is returned as the error).
    pub fn read(&self, caller: &Caller<'_>, params: &ReadParams) -> EngineResult<Vec<Result<View, EngineError>>> {
        let config = self.config.get();
        let scope = self.scope(caller, &config)?;
        let rules = self.permission_rules(&scope, &config);
        let permit =
            |path: &std::path::Path| guard::permissions::enforce(rules.permissions.check_read(path), "ctx_read");
        let stop = cancel::Stop::new(&params.cancel, cancel::WORK_DEADLINE, &self.stopped);
        let limits = read::Limits { permit: &permit, stop: &stop, redaction: &self.guard.redaction };
        let session = SessionIn { project: &scope.root, id: caller.session };
        let mut views = self.reader.read(&self.tokens, &config, &scope, session, params, &limits)?;
        let host = guard::rules::host_for(caller.host, &config, caller.agent)?;
        for view in views.iter_mut().flatten() {
            self.guard_view(caller, &config, &scope, host, params.surface, view);
        }
        let project = scope.root.display().to_string();
        for view in views.iter().flatten() {
            let event = memory::read_event(&project, caller.session, &view.mode, view.raw_tokens, view.sent_tokens);
            self.memory.record(&event);
            self.memory.touched(caller, &project, &view.path, &view.mode, view.sent_tokens);
        }
        Ok(views)
    }

    /// What a view carries beyond the file: the rule files of `host` this
    /// session does not have yet (sent and counted, no saving claimed), and
    /// the note saying how many secrets were masked.
    fn guard_view(
        &self,
        caller: &Caller<'_>,
        config: &Config,
        scope: &Scope,
        host: Option<guard::rules::Host>,
        surface: surface::Surface,
        view: &mut View,
    ) {
        // What the agent receives is the content and the note: both are counted again when
        // masking changes them (docs/accounting.md: sent includes any note attached).
        let received = |view: &View| {
            let note = if view.note.is_empty() { 0 } else { self.tokens.count(&framing::note(&view.note)) };
            (self.tokens.count(&view.content) + note) as u64
        };
        let before = received(view);
        // The view was masked as it was made (see `Reader::view`).
        if view.redacted > 0 {
            let note = guard::redaction::note(view.redacted, surface);
            view.note = if view.note.is_empty() { note } else { format!("{}; {note}", view.note) };
            view.sent_tokens = (view.sent_tokens + received(view)).saturating_sub(before);
        }
        let Some(host) = host else { return };
        let file = scope.root.join(&view.path);
        let found = guard::rules::discover(&scope.root, &file, host, config);
        for note in &found.notes {
            tracing::info!(file = %view.path, "rule discovery: {note}");
        }
        let session = SessionIn { project: &scope.root, id: caller.session };
        for rule in self.guard.rules.take_new(session, found.rules) {
            let (body, _) = self.guard.redaction.apply(config, rule.body);
            // A plain read would not have delivered the rules either: raw and sent both grow by
            // what the agent receives of them, fence and all.
            let cost = self.tokens.count(&framing::rules(&rule.shown, &rule.why, &body)) as u64;
            view.raw_tokens += cost;
            view.sent_tokens += cost;
            view.rules.push(read::RuleText { path: rule.shown, why: rule.why, body });
        }
    }

    /// Per-component figures, sorted by component name.
    pub fn components(&self) -> Vec<ComponentFigures> {
        let config_state = match self.config.error() {
            None => "ok".to_string(),
            Some((e, serving)) => format!("error: {e} ({serving})"),
        };
        let config = self.config.get();
        let mut components = vec![
            ComponentFigures {
                name: "config",
                figures: vec![
                    ("file", self.config.file().display().to_string()),
                    ("state", config_state),
                    ("idle_timeout_secs", config.idle_timeout_secs.to_string()),
                    ("guardrails", config.guardrails()),
                ],
            },
            ComponentFigures { name: "sessions", figures: vec![("active", self.sessions.active().to_string())] },
            self.read_figures(),
            ComponentFigures {
                name: "memory",
                figures: [
                    ("state_db", self.memory.path().display().to_string()),
                    ("open", self.memory.is_open().to_string()),
                ]
                .into_iter()
                .chain(self.memory.reset().map(|reset| ("reset", reset.notice())))
                .collect(),
            },
            self.search_figures(),
            ComponentFigures { name: "stopped", figures: self.stopped.figures() },
            self.graph.figures(),
            ComponentFigures {
                name: "guard",
                figures: vec![
                    ("redaction", if config.redaction { "on" } else { "off" }.to_string()),
                    ("rules_host", config.rules_host.clone()),
                    ("read_only_roots", self.guard.read_only_roots(&config).len().to_string()),
                ],
            },
            {
                let (running, kept) = self.jobs.counts();
                ComponentFigures {
                    name: "shell",
                    figures: vec![("jobs_running", running.to_string()), ("jobs_kept", kept.to_string())],
                }
            },
        ];
        components.sort_by_key(|c| c.name);
        components
    }

    fn search_figures(&self) -> ComponentFigures {
        let indexes = self.search.status();
        let mut figures = vec![("indexes", indexes.len().to_string())];
        for ix in &indexes {
            let phase = match &ix.phase {
                lean_ctx_search::IndexPhase::Building { done, total } => format!("building {done}/{total}"),
                lean_ctx_search::IndexPhase::Unavailable { .. } => "unavailable".to_string(),
                other => format!("{other:?}").to_lowercase(),
            };
            // A rebuild after corruption, or why the index is unavailable.
            let note = ix.note().map(|note| format!(" ({note})")).unwrap_or_default();
            figures.push((
                "index",
                format!(
                    "{} {phase} files={} disk={} mem={}{note}",
                    ix.root.display(),
                    ix.files,
                    ix.size_on_disk,
                    ix.approx_memory
                ),
            ));
        }
        ComponentFigures { name: "search", figures }
    }

    fn read_figures(&self) -> ComponentFigures {
        use std::sync::atomic::Ordering::Relaxed;
        let stats = &self.reader.stats;
        let (entries, bytes) = self.reader.cache.usage();
        ComponentFigures {
            name: "read",
            figures: vec![
                ("reads", stats.reads.load(Relaxed).to_string()),
                ("stubs", stats.stubs.load(Relaxed).to_string()),
                ("raw_tokens", stats.raw_tokens.load(Relaxed).to_string()),
                ("sent_tokens", stats.sent_tokens.load(Relaxed).to_string()),
                ("cache_entries", entries.to_string()),
                ("cache_bytes", bytes.to_string()),
                ("deliveries", self.reader.deliveries.count().to_string()),
                ("token_memo", self.tokens.memo_entries().to_string()),
            ],
        }
    }
}
