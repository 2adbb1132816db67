//! The open projects of one engine: lookup and lazy start, the memory
//! budget (least recently used closed first), the global cap on indexing
//! threads, and shutdown.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;
use std::time::Instant;

use lean_ctx_locks::{Mutex, RwLock};

use crate::config::SearchConfig;
use crate::project::{Msg, Project};
use lean_ctx_locks::ids;

/// What every project thread shares: the configuration, the permits and the clock.
pub(crate) struct Context {
    pub config: SearchConfig,
    pub permits: Permits,
    epoch: Instant,
}

impl Context {
    pub(crate) fn new(config: SearchConfig) -> Self {
        let permits = Permits::new(config.max_indexing_threads.max(1));
        Context { config, permits, epoch: Instant::now() }
    }

    /// Milliseconds since the engine started (for idle and LRU bookkeeping).
    pub(crate) fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }
}

/// A counting semaphore over a bounded channel: a permit is a message in
/// flight, so taking one blocks while `cap` are out.
pub(crate) struct Permits {
    give: SyncSender<()>,
    returned: Mutex<Receiver<()>>,
}

pub(crate) struct Permit<'a>(&'a Permits);

impl Permits {
    fn new(cap: usize) -> Self {
        let (give, returned) = sync_channel(cap);
        Permits { give, returned: Mutex::new(ids::SEARCH_PERMITS, returned) }
    }

    /// Blocks until fewer than `cap` permits are out.
    pub(crate) fn acquire(&self) -> Permit<'_> {
        // The receiver lives in `self`, so the channel cannot be disconnected.
        let _ = self.give.send(());
        Permit(self)
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        // Never blocks: this permit's message is in the channel.
        let _ = self.0.returned.lock().try_recv();
    }
}

struct Entry {
    project: Arc<Project>,
    thread: JoinHandle<()>,
}

#[derive(Default)]
struct Projects {
    open: HashMap<PathBuf, Entry>,
    /// Threads of closed projects, joined at shutdown so no index outlives the engine.
    retired: Vec<JoinHandle<()>>,
}

pub(crate) struct Registry {
    ctx: Arc<Context>,
    projects: RwLock<Projects>,
}

impl Registry {
    pub(crate) fn new(config: SearchConfig) -> Self {
        Registry {
            ctx: Arc::new(Context::new(config)),
            projects: RwLock::new(ids::SEARCH_REGISTRY, Projects::default()),
        }
    }

    pub(crate) fn config(&self) -> &SearchConfig {
        &self.ctx.config
    }

    /// The open project of a canonical root, started (and its index built in
    /// the background) when there is none; marks it used.
    pub(crate) fn open(&self, root: &Path) -> Arc<Project> {
        self.open_with(root, None).0
    }

    /// Like [`Self::open`], and delivers `msg` to the project's thread: queued
    /// ahead of everything when the project starts now, sent otherwise. Also
    /// says whether this call started the project.
    pub(crate) fn open_with(&self, root: &Path, mut msg: Option<Msg>) -> (Arc<Project>, bool) {
        let mut started = false;
        let project = self.get(root).unwrap_or_else(|| {
            let mut projects = self.projects.write();
            if let Some(entry) = projects.open.get(root).filter(|e| e.project.is_live()) {
                return entry.project.clone();
            }
            started = true;
            let (project, thread) = Project::start(root.to_path_buf(), self.ctx.clone(), msg.take());
            if let Some(old) = projects.open.insert(root.to_path_buf(), Entry { project: project.clone(), thread }) {
                projects.retired.push(old.thread);
            }
            projects.retired.retain(|t| !t.is_finished());
            project
        });
        if let Some(msg) = msg {
            project.send(msg);
        }
        project.touch();
        self.enforce_budget(root);
        (project, started)
    }

    /// The project of a canonical root if it is open.
    pub(crate) fn get(&self, root: &Path) -> Option<Arc<Project>> {
        self.projects.read().open.get(root).filter(|e| e.project.is_live()).map(|e| e.project.clone())
    }

    pub(crate) fn all(&self) -> Vec<Arc<Project>> {
        let mut all: Vec<_> = self.projects.read().open.values().map(|e| e.project.clone()).collect();
        all.sort_by(|a, b| a.root.cmp(&b.root));
        all
    }

    /// Closes one project; false when it was not open.
    pub(crate) fn close(&self, root: &Path) -> bool {
        let removed = {
            let mut projects = self.projects.write();
            let removed = projects.open.remove(root);
            removed.map(|entry| {
                projects.retired.push(entry.thread);
                entry.project
            })
        };
        removed.map(|project| project.close()).is_some()
    }

    /// Closes least recently used projects (never `keep`) until the open ones
    /// fit the memory budget.
    fn enforce_budget(&self, keep: &Path) {
        let budget = self.ctx.config.memory_budget_bytes;
        let victims: Vec<PathBuf> = {
            let projects = self.projects.read();
            let mut used: u64 = projects.open.values().map(|e| e.project.approx_memory()).sum();
            if used <= budget {
                return;
            }
            let mut candidates: Vec<&Entry> = projects.open.values().filter(|e| e.project.root != keep).collect();
            candidates.sort_by_key(|e| e.project.last_used_ms());
            candidates
                .into_iter()
                .take_while(|e| {
                    let over = used > budget;
                    used = used.saturating_sub(e.project.approx_memory());
                    over
                })
                .map(|e| e.project.root.clone())
                .collect()
        };
        for root in victims {
            self.close(&root);
        }
    }

    /// Stops every project thread and waits for them (each checks its cancel
    /// flag between files, so this is bounded by one file's indexing).
    pub(crate) fn shutdown(&self) {
        let (entries, retired) = {
            let mut projects = self.projects.write();
            (std::mem::take(&mut projects.open), std::mem::take(&mut projects.retired))
        };
        let mut threads = retired;
        for (_, entry) in entries {
            entry.project.close();
            threads.push(entry.thread);
        }
        for thread in threads {
            let _ = thread.join();
        }
    }
}
