//! The language servers of precise mode: one per (project root, language), started on the first
//! precise question, shared by later ones, stopped when unused for the configured idle time, when
//! it exits on its own (started again by the next question) and when the engine stops.
//!
//! Starting, asking and stopping happen outside the pool's lock: a question that finds its
//! server still starting for another question answers from the code graph instead of waiting.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use lean_ctx_lsp::{Error, Server};

use crate::locks::{self, Mutex};

/// Time a stopping server gets to shut down by itself before its process group is killed.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(1);

/// A language family one server covers (TypeScript's covers TSX and JavaScript too).
pub type Family = &'static str;

type Key = (PathBuf, Family);

enum Slot {
    /// A question is starting the server.
    Starting,
    Ready(Running),
}

struct Running {
    server: Arc<Server>,
    command: Vec<String>,
    last_used: Instant,
    idle_stop: Duration,
}

#[derive(Default)]
struct Table {
    slots: HashMap<Key, Slot>,
    /// Pairs whose failure has been logged: each is logged once per daemon life.
    logged: HashSet<Key>,
}

struct Inner {
    table: Mutex<Table>,
    /// Whether the idle-stop thread runs (it ends when no server is left).
    reaper: AtomicBool,
}

pub struct LspPool {
    inner: Arc<Inner>,
}

impl Default for LspPool {
    fn default() -> Self {
        LspPool {
            inner: Arc::new(Inner {
                table: Mutex::new(locks::ids::LSP_POOL, Table::default()),
                reaper: AtomicBool::new(false),
            }),
        }
    }
}

/// A server lent to one question; its use counts from when the question ends.
pub struct Lease {
    pub server: Arc<Server>,
    key: Key,
    pool: Weak<Inner>,
}

impl Drop for Lease {
    fn drop(&mut self) {
        let Some(inner) = self.pool.upgrade() else { return };
        if let Some(Slot::Ready(running)) = inner.table.lock().slots.get_mut(&self.key)
            && Arc::ptr_eq(&running.server, &self.server)
        {
            running.last_used = Instant::now();
        }
    }
}

/// Why no server was lent.
#[derive(Debug)]
pub enum Unavailable {
    /// Another question is starting it.
    Starting,
    Failed(Error),
}

impl LspPool {
    /// The running server for `root` and `family`, started with `command` if there is none (or
    /// the one there exited, or was started with another command), giving up at `until`.
    pub fn lease(
        &self,
        root: &Path,
        family: Family,
        command: &[String],
        until: Instant,
        idle_stop: Duration,
    ) -> Result<Lease, Unavailable> {
        let key: Key = (root.to_path_buf(), family);
        let stale = {
            let mut table = self.inner.table.lock();
            match table.slots.get_mut(&key) {
                Some(Slot::Starting) => return Err(Unavailable::Starting),
                Some(Slot::Ready(running)) if running.server.is_running() && running.command == command => {
                    running.last_used = Instant::now();
                    running.idle_stop = idle_stop;
                    return Ok(self.lent(key, running.server.clone()));
                }
                _ => {}
            }
            match table.slots.insert(key.clone(), Slot::Starting) {
                Some(Slot::Ready(old)) => Some(old.server),
                _ => None,
            }
        };
        if let Some(old) = stale {
            stop(&old);
        }
        match Server::start(command, root, until) {
            Ok(server) => {
                let server = Arc::new(server);
                let running =
                    Running { server: server.clone(), command: command.to_vec(), last_used: Instant::now(), idle_stop };
                self.inner.table.lock().slots.insert(key.clone(), Slot::Ready(running));
                tracing::info!(root = %root.display(), server = server.name(), pid = server.pid(), "language server started");
                self.start_reaper();
                Ok(self.lent(key, server))
            }
            Err(e) => {
                self.inner.table.lock().slots.remove(&key);
                if !matches!(e, Error::NotInstalled(_)) {
                    let name = command.first().map_or("", String::as_str);
                    self.log_once(&key, name, &e.to_string());
                }
                Err(Unavailable::Failed(e))
            }
        }
    }

    /// Records that `server` failed a question: logged the first time for its project and
    /// language; a server that exited is dropped so the next question starts a new one.
    pub fn failed(&self, lease: &Lease, why: &str) {
        if !lease.server.is_running() {
            let mut table = self.inner.table.lock();
            if let Some(Slot::Ready(running)) = table.slots.get(&lease.key)
                && Arc::ptr_eq(&running.server, &lease.server)
            {
                table.slots.remove(&lease.key);
            }
        }
        self.log_once(&lease.key, lease.server.name(), why);
    }

    fn log_once(&self, key: &Key, server: &str, why: &str) {
        if self.inner.table.lock().logged.insert(key.clone()) {
            let (root, family) = key;
            tracing::warn!(
                root = %root.display(), language = family, server,
                "language server failed a precise question ({why}); answering from the code graph \
                 (logged once per project and language)"
            );
        }
    }

    /// Servers running now (Status).
    pub fn running(&self) -> usize {
        self.inner.table.lock().slots.values().filter(|s| matches!(s, Slot::Ready(_))).count()
    }

    /// Stops every server (the engine is stopping).
    pub fn stop_all(&self) {
        let servers: Vec<Arc<Server>> = {
            let mut table = self.inner.table.lock();
            let drained: Vec<Slot> = table.slots.drain().map(|(_, slot)| slot).collect();
            drained
                .into_iter()
                .filter_map(|s| match s {
                    Slot::Ready(running) => Some(running.server),
                    Slot::Starting => None,
                })
                .collect()
        };
        for server in &servers {
            server.kill();
        }
    }

    fn lent(&self, key: Key, server: Arc<Server>) -> Lease {
        Lease { server, key, pool: Arc::downgrade(&self.inner) }
    }

    /// Starts the thread that stops idle servers, unless it runs.
    fn start_reaper(&self) {
        if self.inner.reaper.swap(true, Ordering::SeqCst) {
            return;
        }
        let pool = Arc::downgrade(&self.inner);
        let started = std::thread::Builder::new().name("lsp-idle-stop".into()).spawn(move || reap(pool));
        if started.is_err() {
            self.inner.reaper.store(false, Ordering::SeqCst);
        }
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        // Dropping the servers kills their process groups.
        self.table.lock().slots.clear();
    }
}

/// Stops servers unused past their idle time; returns when the pool is gone or empty.
fn reap(pool: Weak<Inner>) {
    loop {
        let Some(inner) = pool.upgrade() else { return };
        let (expired, tick) = {
            let mut table = inner.table.lock();
            let now = Instant::now();
            let idle: Vec<Key> = table
                .slots
                .iter()
                .filter_map(|(key, slot)| match slot {
                    // A server lent to a question (more than the pool's reference) is in use.
                    Slot::Ready(r)
                        if now.duration_since(r.last_used) >= r.idle_stop && Arc::strong_count(&r.server) == 1 =>
                    {
                        Some(key.clone())
                    }
                    _ => None,
                })
                .collect();
            let expired: Vec<Arc<Server>> = idle
                .iter()
                .filter_map(|key| match table.slots.remove(key) {
                    Some(Slot::Ready(running)) => Some(running.server),
                    _ => None,
                })
                .collect();
            if table.slots.is_empty() && expired.is_empty() {
                inner.reaper.store(false, Ordering::SeqCst);
                return;
            }
            let shortest = table
                .slots
                .values()
                .filter_map(|s| match s {
                    Slot::Ready(r) => Some(r.idle_stop),
                    Slot::Starting => None,
                })
                .min()
                .unwrap_or(Duration::from_secs(1));
            (expired, (shortest / 4).clamp(Duration::from_millis(50), Duration::from_secs(5)))
        };
        drop(inner);
        for server in expired {
            tracing::info!(server = server.name(), pid = server.pid(), "language server idle; stopping it");
            stop(&server);
        }
        std::thread::sleep(tick);
    }
}

/// Shuts `server` down (it is killed if it does not exit in time; reaped when dropped).
fn stop(server: &Server) {
    server.shutdown(SHUTDOWN_GRACE);
}
