//! A kill switch for engine work that can run long: a command (background
//! jobs, calls whose client left) or a scan of a project's files.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// The switch as the search crate takes it.
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}
