//! [`IndexObserver`]: what another component learns from a project's index
//! thread — the files a full walk admitted and the files each batch changed —
//! so it can keep state of its own (the daemon's code graph) in step with the
//! index without a second watcher or walk.

use std::any::Any;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use crate::walk::FileStamp;

/// What the index extractor's pass over one file left for the observer
/// ([`crate::Extraction::extra`]), with the stamp of the content it was made from, so the
/// observer can tell whether the file still is what was extracted.
pub struct Extra {
    pub stamp: FileStamp,
    pub value: Box<dyn Any + Send>,
}

/// The extras of one applied batch, by root-relative path; empty without an index extractor.
pub type Extras = HashMap<PathBuf, Extra>;

/// Called on the project's index thread after the index applied a change.
/// Paths are relative to the canonical `root`. A panic in a call is caught
/// and logged to stderr; it never reaches the index.
pub trait IndexObserver: Send + Sync {
    /// A full walk was applied (the first build, a rescan, a burst such as a
    /// branch switch): `files` are every file the index admits now, those too
    /// large for it included (an observer with the same bound can say what it
    /// left out); `extras` hold what the index extractor left for the files it
    /// read in this walk.
    fn synced_all(&self, root: &Path, files: &[PathBuf], extras: Extras);
    /// A batch of watcher events was applied: `upserts` changed or appeared,
    /// `deletes` are gone.
    fn changed(&self, root: &Path, upserts: &[PathBuf], deletes: &[PathBuf], extras: Extras);
    /// The project closed (idle, memory budget, shutdown).
    fn closed(&self, root: &Path);
}

/// Runs one observer call, containing a panic so it cannot be taken for
/// damage of the index.
pub(crate) fn notify(observer: Option<&dyn IndexObserver>, call: impl FnOnce(&dyn IndexObserver)) {
    let Some(observer) = observer else { return };
    if let Err(panic) = catch_unwind(AssertUnwindSafe(|| call(observer))) {
        eprintln!("lean-ctx-search: an index observer panicked: {}", crate::index::panic_message(&*panic));
    }
}
