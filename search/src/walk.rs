//! Walking a project the way ripgrep does (the `ignore` crate: .gitignore,
//! .ignore, hidden files excluded unless a request names them; `.git` itself
//! never walked) and reading files defensively.
//!
//! Reading never blocks on a FIFO (opened non-blocking, checked with fstat),
//! never loads more than `max_file_bytes`, and skips binaries (a NUL byte).
//! Every skipped file is counted, so results can say what was not searched.

use std::fs::{File, Metadata};
use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use ignore::{DirEntry, WalkBuilder, WalkState};
use lean_ctx_common::confined::open_confined;

use crate::config::SearchConfig;
use crate::filter::PathFilter;
use crate::paths::Scope;
use crate::withheld::Withheld;

/// Files a request did not search, by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skipped {
    /// Contains a NUL byte.
    pub binary: u64,
    /// Larger than `max_file_bytes`.
    pub too_large: u64,
    /// FIFOs, sockets and devices.
    pub special: u64,
    /// Open or read failed (permissions, vanished mid-walk).
    pub unreadable: u64,
    /// Directory entries the walker could not read, symlink loops included.
    pub walk_errors: u64,
}

impl Skipped {
    pub fn total(&self) -> u64 {
        self.binary + self.too_large + self.special + self.unreadable + self.walk_errors
    }

    pub(crate) fn count(&mut self, reason: SkipReason) {
        *match reason {
            SkipReason::Binary => &mut self.binary,
            SkipReason::TooLarge => &mut self.too_large,
            SkipReason::Special => &mut self.special,
            SkipReason::Unreadable => &mut self.unreadable,
            SkipReason::WalkError => &mut self.walk_errors,
        } += 1;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SkipReason {
    Binary,
    TooLarge,
    Special,
    Unreadable,
    WalkError,
}

/// What makes a walk: the caller-facing switches of `tree`, the fixed project
/// rules everywhere else.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WalkOptions {
    pub show_hidden: bool,
    pub respect_ignore: bool,
    pub follow_links: bool,
    pub max_depth: Option<usize>,
}

impl WalkOptions {
    /// The rules of every search, glob and index walk; `hidden` when the request names hidden
    /// paths (see [`crate::filter::names_hidden`]).
    pub(crate) fn project(config: &SearchConfig, hidden: bool) -> Self {
        WalkOptions { show_hidden: hidden, respect_ignore: true, follow_links: config.follow_symlinks, max_depth: None }
    }

    pub(crate) fn builder(&self, start: &Path) -> WalkBuilder {
        let mut builder = WalkBuilder::new(start);
        builder
            .hidden(!self.show_hidden)
            .ignore(self.respect_ignore)
            .git_ignore(self.respect_ignore)
            .git_global(self.respect_ignore)
            .git_exclude(self.respect_ignore)
            .parents(self.respect_ignore)
            // Agents' projects are not always git repositories; .gitignore still says what is noise.
            .require_git(false)
            .follow_links(self.follow_links)
            .max_depth(self.max_depth);
        if self.show_hidden {
            // Git's own store is not the project's content, whatever else hidden is asked for.
            builder.filter_entry(|entry| entry.file_name() != ".git");
        }
        builder
    }
}

/// Whether the scope holds a file under a hidden path (below the scope, `.git` aside) that a walk
/// leaving hidden paths out skipped and `admits` takes (given root-relative): what an empty answer
/// may say it did not look at. `Some(Some(path))` names the hidden path that holds the first such
/// file, below the scope (`.circleci/`, `.env`); `Some(None)` when [`HINT_WALK`] entries were
/// looked at without one (a large tree with none), where it may have; `None` when it holds none.
pub(crate) fn skipped_hidden(
    scope: &Scope,
    config: &SearchConfig,
    admits: &dyn Fn(&Path) -> bool,
) -> Option<Option<String>> {
    let walk = WalkOptions::project(config, true).builder(&scope.base).build().flatten();
    for (looked, entry) in walk.enumerate() {
        if looked >= HINT_WALK {
            return Some(None);
        }
        let (Ok(rel), Ok(inner)) = (entry.path().strip_prefix(&scope.root), entry.path().strip_prefix(&scope.base))
        else {
            continue;
        };
        if matches!(classify(&entry, u64::MAX), EntryKind::File(_))
            && crate::filter::names_hidden(&inner.to_string_lossy())
            && admits(rel)
        {
            // The path down to its first hidden part: a directory's with a `/`.
            let parts: Vec<String> = inner.iter().map(|part| part.to_string_lossy().into_owned()).collect();
            let hidden = parts.iter().position(|part| part.starts_with('.')).unwrap_or(0);
            let slash = if hidden + 1 < parts.len() { "/" } else { "" };
            return Some(Some(format!("{}{slash}", parts[..=hidden].join("/"))));
        }
    }
    None
}

/// The most entries looked at to tell whether an empty answer left a hidden file out: an empty
/// search of a large tree does not walk it all again for its hint.
pub(crate) const HINT_WALK: usize = 20_000;

/// Size and modification time: what decides whether an indexed file changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileStamp {
    pub size: u64,
    pub mtime_ns: u64,
}

impl FileStamp {
    pub(crate) fn of(meta: &Metadata) -> Self {
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as u64);
        FileStamp { size: meta.len(), mtime_ns }
    }
}

/// How one walked entry is treated.
pub(crate) enum EntryKind {
    Dir,
    File(FileStamp),
    /// Not followed symlinks, the root itself as a file's parent, and the like.
    Ignored,
    Skip(SkipReason),
}

pub(crate) fn classify(entry: &DirEntry, max_file_bytes: u64) -> EntryKind {
    let Some(file_type) = entry.file_type() else { return EntryKind::Ignored };
    if file_type.is_dir() {
        return EntryKind::Dir;
    }
    if file_type.is_fifo() || file_type.is_socket() || file_type.is_block_device() || file_type.is_char_device() {
        return EntryKind::Skip(SkipReason::Special);
    }
    if !file_type.is_file() {
        return EntryKind::Ignored;
    }
    match entry.metadata() {
        Ok(meta) if meta.len() > max_file_bytes => EntryKind::Skip(SkipReason::TooLarge),
        Ok(meta) => EntryKind::File(FileStamp::of(&meta)),
        Err(_) => EntryKind::Skip(SkipReason::Unreadable),
    }
}

/// Reads a regular text file of at most `max_bytes` under the canonical
/// `root`, with the stamp of what was read. The file is opened without
/// following a last-component symlink and its descriptor's real path must lie
/// under `root` (`lean_ctx_common::confined`): a file or directory swapped
/// for a symlink out of the project after the walk saw it is not read.
pub(crate) fn read_file(root: &Path, path: &Path, max_bytes: u64) -> Result<(Vec<u8>, FileStamp), SkipReason> {
    // Non-blocking: a FIFO swapped in after the walk must not hang the reader.
    let (file, _) = open_confined(path, |real| real.starts_with(root)).map_err(|_| SkipReason::Unreadable)?;
    let meta = file.metadata().map_err(|_| SkipReason::Unreadable)?;
    if !meta.is_file() {
        return Err(SkipReason::Special);
    }
    if meta.len() > max_bytes {
        return Err(SkipReason::TooLarge);
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    File::take(file, max_bytes + 1).read_to_end(&mut bytes).map_err(|_| SkipReason::Unreadable)?;
    if bytes.len() as u64 > max_bytes {
        return Err(SkipReason::TooLarge);
    }
    if bytes.contains(&0) {
        return Err(SkipReason::Binary);
    }
    Ok((bytes, FileStamp::of(&meta)))
}

/// Text of a file for tokenizing: invalid UTF-8 is replaced, not refused.
pub(crate) fn text_of(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// Totals of one scan.
#[derive(Debug, Default)]
pub(crate) struct ScanStats {
    pub files_searched: u64,
    pub skipped: Skipped,
    /// Files the filter's rules withhold: never read, counted by name.
    pub withheld: Withheld,
    /// The deadline passed, or the caller gave up, before the walk was done.
    pub cut_short: bool,
}

/// When a scan stops reading files: at its deadline, or as soon as its
/// caller has given up on the answer (the client left).
pub(crate) struct Stop<'a> {
    pub deadline: Option<Instant>,
    pub cancel: &'a AtomicBool,
}

impl Stop<'_> {
    pub(crate) fn reached(&self) -> bool {
        self.cancel.load(Ordering::Relaxed) || self.deadline.is_some_and(|at| Instant::now() >= at)
    }
}

/// Reads every admitted file under the scope on the walker's threads, calls
/// `visit` with its root-relative path and bytes, and hands each `Some` result
/// to `sink` on the calling thread (in no particular order: callers sort).
/// Once `stop` is reached no further file is read and the stats say so. A file
/// the filter's rules withhold is not read at all, only counted: whatever the
/// search looks for, its answer is the same for it.
pub(crate) fn scan_files<T: Send>(
    scope: &Scope,
    filter: &PathFilter,
    config: &SearchConfig,
    stop: &Stop<'_>,
    visit: impl Fn(&Path, &[u8]) -> Option<T> + Sync,
    mut sink: impl FnMut(PathBuf, T),
) -> ScanStats {
    let cut_short = AtomicBool::new(false);
    // The rules of the files withheld, one message per file, gathered once the walk is done.
    let (withheld_tx, withheld_rx) = mpsc::channel::<String>();
    let counters: [AtomicU64; 6] = Default::default();
    let bump = |i: usize| counters[i].fetch_add(1, Ordering::Relaxed);
    let skip_index = |reason: SkipReason| 1 + reason as usize;
    let (tx, rx) = mpsc::channel::<(PathBuf, T)>();
    let walker = WalkOptions::project(config, filter.includes_hidden()).builder(&scope.base).build_parallel();
    std::thread::scope(|s| {
        s.spawn(|| {
            walker.run(|| {
                let (tx, withheld_tx) = (tx.clone(), withheld_tx.clone());
                let (visit, bump, cut_short) = (&visit, &bump, &cut_short);
                Box::new(move |entry| {
                    if stop.reached() {
                        cut_short.store(true, Ordering::Relaxed);
                        return WalkState::Quit;
                    }
                    let entry = match entry {
                        Ok(entry) => entry,
                        Err(_) => {
                            bump(skip_index(SkipReason::WalkError));
                            return WalkState::Continue;
                        }
                    };
                    let rel = match entry.path().strip_prefix(&scope.root) {
                        Ok(rel) => rel,
                        Err(_) => return WalkState::Continue,
                    };
                    let kind = classify(&entry, config.max_file_bytes);
                    if matches!(kind, EntryKind::File(_) | EntryKind::Skip(_))
                        && filter.admits(rel)
                        && let Some(rule) = filter.withheld_by(rel)
                    {
                        let _ = withheld_tx.send(rule);
                        return WalkState::Continue;
                    }
                    match kind {
                        EntryKind::File(_) if filter.admits(rel) => {
                            match read_file(&scope.root, entry.path(), config.max_file_bytes) {
                                Ok((bytes, _)) => {
                                    bump(0);
                                    if let Some(found) = visit(rel, &bytes) {
                                        let _ = tx.send((rel.to_path_buf(), found));
                                    }
                                }
                                Err(reason) => {
                                    bump(skip_index(reason));
                                }
                            }
                        }
                        EntryKind::Skip(reason) if filter.admits(rel) => {
                            bump(skip_index(reason));
                        }
                        _ => {}
                    }
                    WalkState::Continue
                })
            });
            drop((tx, withheld_tx));
        });
        for (rel, found) in rx {
            sink(rel, found);
        }
    });
    let get = |i: usize| counters[i].load(Ordering::Relaxed);
    ScanStats {
        files_searched: get(0),
        skipped: Skipped {
            binary: get(skip_index(SkipReason::Binary)),
            too_large: get(skip_index(SkipReason::TooLarge)),
            special: get(skip_index(SkipReason::Special)),
            unreadable: get(skip_index(SkipReason::Unreadable)),
            walk_errors: get(skip_index(SkipReason::WalkError)),
        },
        cut_short: cut_short.into_inner(),
        withheld: withheld_rx.try_iter().fold(Withheld::default(), |mut withheld, rule| {
            withheld.add(rule, 1);
            withheld
        }),
    }
}

/// Files and directories of a project as the index sees them.
#[derive(Debug, Default)]
pub(crate) struct Listing {
    /// Root-relative paths of admitted regular files.
    pub files: Vec<(PathBuf, FileStamp)>,
    /// Root-relative admitted directories, the start directory included.
    pub dirs: Vec<PathBuf>,
    /// Root-relative admitted files not to be read: too large, FIFOs, sockets, devices.
    pub unread: Vec<(PathBuf, SkipReason)>,
    /// What could not be walked or read at all (no path to remember it by).
    pub skipped: Skipped,
}

/// Sequential walk from `start` (root-relative) for the indexer. `on_dir` sees
/// each directory before its entries are read, so a watch added there cannot
/// miss a change made while the walk runs. Stops early once `cancel` is set.
pub(crate) fn list(
    root: &Path,
    start: &Path,
    max_depth: Option<usize>,
    config: &SearchConfig,
    cancel: &AtomicBool,
    on_dir: &mut dyn FnMut(&Path),
) -> Listing {
    let mut options = WalkOptions::project(config, false);
    options.max_depth = max_depth;
    let mut listing = Listing::default();
    for entry in options.builder(&root.join(start)).build() {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let entry = match entry {
            Ok(entry) => entry,
            Err(_) => {
                listing.skipped.count(SkipReason::WalkError);
                continue;
            }
        };
        let Ok(rel) = entry.path().strip_prefix(root) else { continue };
        match classify(&entry, config.max_file_bytes) {
            EntryKind::Dir => {
                on_dir(entry.path());
                listing.dirs.push(rel.to_path_buf());
            }
            EntryKind::File(stamp) => listing.files.push((rel.to_path_buf(), stamp)),
            EntryKind::Skip(reason @ (SkipReason::TooLarge | SkipReason::Special)) => {
                listing.unread.push((rel.to_path_buf(), reason))
            }
            EntryKind::Skip(reason) => listing.skipped.count(reason),
            EntryKind::Ignored => {}
        }
    }
    listing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_read_after_the_walk_stays_inside_the_root() {
        let d = tempfile::tempdir().unwrap();
        let base = d.path().canonicalize().unwrap();
        let (root, outside) = (base.join("root"), base.join("outside"));
        fs_setup(&root, &outside);
        let read = |rel: &str| read_file(&root, &root.join(rel), 1 << 20).map(|(bytes, _)| bytes);
        assert_eq!(read("dir/a.txt").unwrap(), b"inside");
        // Walked as a regular file, swapped for a link out of the root before the read.
        std::fs::remove_file(root.join("dir/a.txt")).unwrap();
        std::os::unix::fs::symlink(outside.join("a.txt"), root.join("dir/a.txt")).unwrap();
        assert_eq!(read("dir/a.txt"), Err(SkipReason::Unreadable));
        // Its directory swapped for a link out of the root.
        std::fs::rename(root.join("dir"), root.join("moved")).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("dir")).unwrap();
        assert_eq!(read("dir/a.txt"), Err(SkipReason::Unreadable));
    }

    fn fs_setup(root: &Path, outside: &Path) {
        std::fs::create_dir_all(root.join("dir")).unwrap();
        std::fs::create_dir_all(outside).unwrap();
        std::fs::write(root.join("dir/a.txt"), "inside").unwrap();
        std::fs::write(outside.join("a.txt"), "OUTSIDE").unwrap();
    }
}
