//! `lctx index --list` and `lctx index --remove [PATH]`: the search indexes on
//! disk, read by the layout the search crate keeps (`<cache>/search/<id>/`
//! holding `root`, `owner.lock` and the index), so a user can see what they
//! cost and reclaim them without asking the daemon. An index open in a
//! lean-ctx process (its `owner.lock` is held) is never removed.

use std::fs::File;
use std::path::{Path, PathBuf};

use lean_ctx_common::singleton;

use super::CmdResult;
use crate::options::ClientOptions;

/// One project index found on disk.
struct OnDisk {
    dir: PathBuf,
    root: PathBuf,
    bytes: u64,
    /// A lean-ctx process holds its owner lock (it has the index open).
    open: bool,
}

/// The indexes on disk, and the entries of the search cache that are none
/// (no readable `root`: left by a crash, moved aside, or not ours).
fn indexes(opts: &ClientOptions) -> (Vec<OnDisk>, Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(opts.dirs.cache.join("search")) else { return (Vec::new(), Vec::new()) };
    let (mut found, mut other) = (Vec::new(), Vec::new());
    for dir in entries.flatten().map(|entry| entry.path()) {
        match std::fs::read(dir.join("root")) {
            Ok(root) => {
                let root = PathBuf::from(String::from_utf8_lossy(&root).into_owned());
                found.push(OnDisk {
                    bytes: size_of(&dir),
                    open: singleton::is_held(&dir.join("owner.lock")),
                    root,
                    dir,
                });
            }
            Err(_) => other.push(dir),
        }
    }
    found.sort_by(|a, b| a.root.cmp(&b.root));
    other.sort();
    (found, other)
}

fn size_of(path: &Path) -> u64 {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            std::fs::read_dir(path).map_or(0, |entries| entries.flatten().map(|e| size_of(&e.path())).sum())
        }
        Ok(meta) => meta.len(),
        Err(_) => 0,
    }
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
}

pub fn list(opts: &ClientOptions) -> CmdResult {
    let (found, other) = indexes(opts);
    let cache = opts.dirs.cache.join("search");
    if found.is_empty() {
        crate::outln!("no search index on disk ({})", cache.display());
    }
    for ix in &found {
        let state = match (ix.open, ix.root.is_dir()) {
            (true, _) => "open",
            (false, true) => "closed",
            (false, false) => "closed · its directory is gone (lctx index --remove PATH reclaims it)",
        };
        crate::outln!("{} · {} · {state}", ix.root.display(), mib(ix.bytes));
    }
    // Said, not skipped: whatever else takes room there.
    for dir in &other {
        crate::outln!("{} · {} · not an index (no readable root file)", dir.display(), mib(size_of(dir)));
    }
    if !found.is_empty() {
        let total: u64 = found.iter().map(|ix| ix.bytes).sum();
        crate::outln!("{} index(es), {} in {}", found.len(), mib(total), cache.display());
    }
    Ok(())
}

/// Removes the index of the project `path` lies in (the deepest indexed root
/// at or above it; default the working directory).
pub fn remove(opts: &ClientOptions, path: Option<&str>) -> CmdResult {
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the working directory: {e}"))?;
    let given = path.map_or(cwd.clone(), |p| cwd.join(p));
    let target = given.canonicalize().unwrap_or(given);
    let (found, _) = indexes(opts);
    let ix = found
        .iter()
        .filter(|ix| target.starts_with(&ix.root))
        .max_by_key(|ix| ix.root.as_os_str().len())
        .ok_or_else(|| format!("no search index covers {}; `lctx index --list` shows them", target.display()))?;
    if ix.open {
        return Err(format!(
            "the index of {} is open in a lean-ctx process (the daemon keeps it while the project is in use, \
             and up to 15 idle minutes after); stop it with `lctx daemon stop`, then remove the index",
            ix.root.display()
        ));
    }
    // Held while removing, so no process opens the index half deleted.
    let lock = File::open(ix.dir.join("owner.lock")).ok();
    if let Some(lock) = &lock
        && lock.try_lock().is_err()
    {
        return Err(format!("the index of {} was just opened; try again once it is closed", ix.root.display()));
    }
    // Moved aside first: a process that opens the project now finds no index
    // there and builds a new one, rather than a directory half deleted.
    let aside = ix.dir.with_extension(format!("removing-{}", std::process::id()));
    std::fs::rename(&ix.dir, &aside).map_err(|e| format!("cannot remove {}: {e}", ix.dir.display()))?;
    drop(lock);
    std::fs::remove_dir_all(&aside).map_err(|e| format!("cannot remove {}: {e}", aside.display()))?;
    crate::outln!(
        "removed the index of {} ({}); it is built again on the next search",
        ix.root.display(),
        mib(ix.bytes)
    );
    Ok(())
}
