//! The engine: every component of lean-ctxd, independent of transport.
//!
//! The gRPC services in `server` are thin mappings onto these methods, and
//! the clients' in-process fallback builds the very same engine, so the
//! daemon and the fallback share one behaviour.

pub mod config;
pub mod edit;
pub mod error;
pub mod lru;
pub mod memory;
pub mod path_locks;
/// Where every file lives (crate `lean-ctx-common`, shared with clients).
pub use lean_ctx_common::paths;
pub mod project;
pub mod read;
pub mod search;
pub mod session;
pub mod shell;
pub mod tokens;

use config::{Config, ConfigStore};
use error::{EngineError, EngineResult};
use memory::Memory;
use path_locks::PathLocks;
use paths::Dirs;
use project::Scope;
use read::{ReadParams, Reader, View};
use session::Sessions;
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
        let search = search::new_search_engine(&dirs.cache, &config.get(), long_lived);
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
            archive_sweep: Default::default(),
        }
    }

    fn scope(&self, caller: &Caller<'_>, config: &Config) -> EngineResult<Scope> {
        Scope::new(caller.cwd, caller.project_root, &config.allow_paths)
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
        let views = self.reader.read(&self.tokens, &config, &scope, caller.session, params)?;
        let project = scope.root.display().to_string();
        for view in views.iter().flatten() {
            let event = memory::read_event(&project, caller.session, &view.mode, view.raw_tokens, view.sent_tokens);
            self.memory.record(&event);
            self.memory.touched(caller, &project, &view.path, &view.mode, view.sent_tokens);
        }
        Ok(views)
    }

    /// Per-component figures, sorted by component name.
    pub fn components(&self) -> Vec<ComponentFigures> {
        let config_state = match self.config.error() {
            None => "ok".to_string(),
            Some(e) => format!("error: {e} (serving the last good configuration)"),
        };
        let config = self.config.get();
        let mut components = vec![
            ComponentFigures {
                name: "config",
                figures: vec![
                    ("file", self.config.file().display().to_string()),
                    ("state", config_state),
                    ("idle_timeout_secs", config.idle_timeout_secs.to_string()),
                ],
            },
            ComponentFigures { name: "sessions", figures: vec![("active", self.sessions.active().to_string())] },
            self.read_figures(),
            ComponentFigures {
                name: "memory",
                figures: vec![
                    ("state_db", self.memory.path().display().to_string()),
                    ("open", self.memory.is_open().to_string()),
                ],
            },
            self.search_figures(),
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
