//! File-system events: a watcher over exactly the directories the index
//! admits, and the debounce that turns a stream of events into batches.
//!
//! Watching only admitted directories (non-recursively) keeps `target/`,
//! `node_modules/` and `.git/` churn from ever reaching the indexer and keeps
//! the inotify watch count to the directories that matter.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};

use crate::error::SearchError;

pub(crate) struct DirWatcher {
    inner: RecommendedWatcher,
    watched: HashSet<PathBuf>,
    /// The first watch that failed (usually the inotify limit); the project
    /// then relies on periodic rescans.
    pub error: Option<String>,
}

impl DirWatcher {
    pub(crate) fn new(handler: impl Fn(notify::Result<notify::Event>) + Send + 'static) -> Result<Self, SearchError> {
        let inner = notify::recommended_watcher(handler)
            .map_err(|e| SearchError::io("cannot start the file watcher", std::io::Error::other(e)))?;
        Ok(DirWatcher { inner, watched: HashSet::new(), error: None })
    }

    pub(crate) fn watch(&mut self, dir: &Path) {
        if !self.watched.insert(dir.to_path_buf()) {
            return;
        }
        if let Err(err) = self.inner.watch(dir, RecursiveMode::NonRecursive) {
            self.watched.remove(dir);
            self.error.get_or_insert_with(|| {
                format!(
                    "cannot watch {}: {err}; changes there are picked up by periodic rescans \
                     (raise fs.inotify.max_user_watches to fix)",
                    dir.display()
                )
            });
        }
    }

    pub(crate) fn unwatch(&mut self, dir: &Path) {
        if self.watched.remove(dir) {
            // The directory is usually gone already, and inotify dropped the watch with it.
            let _ = self.inner.unwatch(dir);
        }
    }
}

/// Events collected since the last batch.
#[derive(Debug, Default)]
pub(crate) struct Pending {
    /// Absolute paths named by the events.
    pub paths: BTreeSet<PathBuf>,
    pub events: usize,
    /// An event asked for a full rescan (queue overflow, ignore-file change, watcher error).
    pub rescan: bool,
    first: Option<Instant>,
    last: Option<Instant>,
}

/// A continuous stream of events still commits at least this many debounce
/// windows after its first event.
pub(crate) const MAX_DELAY_WINDOWS: u32 = 5;

impl Pending {
    pub(crate) fn add(&mut self, event: notify::Result<notify::Event>, now: Instant) {
        let event = match event {
            Ok(event) => event,
            Err(_) => {
                self.rescan = true;
                self.touch(now);
                return;
            }
        };
        if matches!(event.kind, EventKind::Access(_)) {
            return;
        }
        if event.need_rescan() {
            self.rescan = true;
        }
        for path in event.paths {
            // Ignore files change what every other path means.
            if path.file_name().is_some_and(|n| n == ".gitignore" || n == ".ignore") {
                self.rescan = true;
            }
            self.paths.insert(path);
            self.events += 1;
        }
        self.touch(now);
    }

    fn touch(&mut self, now: Instant) {
        self.first.get_or_insert(now);
        self.last = Some(now);
    }

    /// When the batch should be applied: after `debounce` of quiet, or at the
    /// latest [`MAX_DELAY_WINDOWS`] windows after the first event.
    pub(crate) fn due_at(&self, debounce: Duration) -> Option<Instant> {
        Some((self.last? + debounce).min(self.first? + debounce * MAX_DELAY_WINDOWS))
    }

    pub(crate) fn take(&mut self) -> Pending {
        std::mem::take(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{AccessKind, CreateKind, Event};

    #[test]
    fn debounce_waits_for_quiet_but_not_forever() {
        let debounce = Duration::from_millis(100);
        let start = Instant::now();
        let mut pending = Pending::default();
        assert_eq!(pending.due_at(debounce), None);
        let event = |p: &str| Ok(Event::new(EventKind::Create(CreateKind::File)).add_path(PathBuf::from(p)));
        pending.add(event("/r/a"), start);
        assert_eq!(pending.due_at(debounce), Some(start + debounce));
        pending.add(event("/r/b"), start + Duration::from_millis(450));
        assert_eq!(pending.due_at(debounce), Some(start + Duration::from_millis(500)));
        assert_eq!(pending.events, 2);
    }

    #[test]
    fn access_events_are_ignored_and_ignore_files_force_a_rescan() {
        let now = Instant::now();
        let mut pending = Pending::default();
        pending.add(Ok(Event::new(EventKind::Access(AccessKind::Any)).add_path("/r/a".into())), now);
        assert_eq!(pending.events, 0);
        assert!(!pending.rescan);
        pending.add(Ok(Event::new(EventKind::Any).add_path("/r/.gitignore".into())), now);
        assert!(pending.rescan);
    }
}
