//! The public request and result types. They carry plain data so the daemon
//! can map them to its protocol field by field.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::SystemTime;

use crate::mask::Mask;
use crate::symbols::Symbol;
use crate::walk::Skipped;
use crate::withheld::{Withheld, Withhold};

/// How a search interprets its pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Regular expression over lines (ripgrep's engine); always scans the files, exact.
    Regex,
    /// Words ranked by bm25 over the index (code-aware tokens).
    Bm25,
    /// Symbol definitions whose name equals or starts with the pattern (case-insensitive).
    Symbol,
}

/// Where the answer came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// The files were read for this request.
    Scan,
    /// The project's index answered.
    Index,
}

/// One search. Construct with [`SearchRequest::new`] and adjust the fields.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    pub root: PathBuf,
    pub pattern: String,
    /// Limit to this file or directory (relative to `root`, or absolute inside it).
    pub path: Option<PathBuf>,
    /// Only paths matching one of these globs (relative to `path`; `*.rs` matches at any depth).
    pub include: Vec<String>,
    /// Drop paths matching any of these globs.
    pub exclude: Vec<String>,
    /// Regex: lines; bm25: files; symbol: definitions. 0 counts without showing.
    pub max_results: usize,
    pub action: Action,
    /// Set by the caller once nobody waits for the answer (the client left):
    /// a scan stops at the next file.
    pub cancel: Arc<AtomicBool>,
    /// The results of files the caller may not see (the user's Read rules): left out before
    /// `max_results` applies and counted only in the note.
    pub withhold: Option<Withhold>,
    /// The secrets the caller may not see in shown lines: masked before a line is cut, and a
    /// regex matches the masked line.
    pub mask: Option<Mask>,
}

/// Shown when the caller does not choose (glob: paths).
pub const DEFAULT_MAX_RESULTS: usize = 50;

impl Action {
    /// Results shown when the caller does not choose: a ranked search's
    /// answer is a reading list, and past the tenth file the ranks say
    /// little; line and definition lists are cheap per result.
    pub fn default_max_results(self) -> usize {
        match self {
            Action::Bm25 => 10,
            Action::Regex | Action::Symbol => DEFAULT_MAX_RESULTS,
        }
    }
}

impl SearchRequest {
    pub fn new(root: impl Into<PathBuf>, action: Action, pattern: impl Into<String>) -> Self {
        SearchRequest {
            root: root.into(),
            pattern: pattern.into(),
            path: None,
            include: Vec::new(),
            exclude: Vec::new(),
            max_results: action.default_max_results(),
            action,
            cancel: Arc::default(),
            withhold: None,
            mask: None,
        }
    }
}

/// One shown line.
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    /// Relative to the project root, `/`-separated.
    pub path: String,
    /// 1-based; 0 when a ranked file has no line containing the query words any more, or is gone
    /// (`text` says which).
    pub line: u64,
    /// The line, truncated with `…` when long.
    pub text: String,
    /// Secrets masked in `text` (see [`SearchRequest::mask`]).
    pub secrets: u32,
    /// bm25 score of the file (bm25 only).
    pub score: Option<f32>,
    /// The definition (symbol search only).
    pub symbol: Option<Symbol>,
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    pub action: Action,
    pub source: Source,
    /// Shown matches in their final order.
    pub matches: Vec<Match>,
    /// Everything that matched: lines (regex), files (bm25) or definitions (symbol).
    pub total: u64,
    /// How many of `total` are shown (same unit).
    pub shown: u64,
    /// Files with at least one match.
    pub files_with_matches: u64,
    /// Files in the search's scope that [`SearchRequest::withhold`] withholds: never searched,
    /// counted by name (whatever they hold) and nowhere else.
    pub withheld: u64,
    /// True when `max_results` cut the answer.
    pub truncated: bool,
    /// Files read (scan) or documents in the index.
    pub files_searched: u64,
    pub skipped: Skipped,
    /// Why the answer is not what it would normally be (index still building, …).
    pub note: Option<String>,
    /// Compact text for an agent: `path:line: text` grouped by file, then a summary.
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobResult {
    /// Relative to the project root, sorted.
    pub paths: Vec<String>,
    pub total: u64,
    pub shown: u64,
    pub truncated: bool,
    pub skipped: Skipped,
    /// What an answer with no file says of where the files may be: hidden paths that match
    /// (left out unless the pattern names one), or a directory the pattern names.
    pub hint: Option<String>,
    /// Files and links under the walked directory whose names the user's read rules withhold,
    /// counted whether the pattern would match them or not (not in `total`), and the line saying
    /// so (links counted apart).
    pub withheld: u64,
    pub withheld_note: Option<String>,
    /// The line naming symbolic links the pattern matched: walks do not follow links, so they
    /// are not among `paths`.
    pub links_note: Option<String>,
    /// The lines `text` has after its count, joined: the notes above, and what else the answer
    /// did not list (past the limit, skipped files); `""` for none.
    pub note: String,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeResult {
    pub text: String,
    /// Files and directories under the listed path, at any depth.
    pub files: u64,
    pub dirs: u64,
    pub skipped: Skipped,
    /// Files left out because the caller may not read them (not counted above).
    pub withheld: u64,
}

/// Progress of an index build, reported every few hundred files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildProgress {
    pub done: u64,
    pub total: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum IndexPhase {
    /// The index is being opened or validated.
    #[default]
    Opening,
    /// Files are being indexed; searches scan meanwhile.
    Building { done: u64, total: u64 },
    /// Searches use the index; the watcher keeps it fresh.
    Ready,
    /// The index cannot be used (owned by another process, disk error); searches scan.
    Unavailable { reason: String },
    /// Closed (idle, memory budget, or on request); the next search reopens it.
    Closed,
}

/// Figures for the daemon's Status.
#[derive(Clone, Debug)]
pub struct IndexStatus {
    pub root: PathBuf,
    pub phase: IndexPhase,
    /// Text files in the index.
    pub files: u64,
    pub last_commit: Option<SystemTime>,
    pub size_on_disk: u64,
    /// Manifest in memory plus the index files the mmaps may hold.
    pub approx_memory: u64,
    /// What the last full walk and indexing skipped.
    pub skipped: Skipped,
    pub idle_secs: u64,
    /// Full walks compared with the index (the first build, bursts, explicit builds).
    pub full_syncs: u64,
    /// Debounced event batches applied file by file.
    pub event_batches: u64,
    pub watch_error: Option<String>,
    pub last_error: Option<String>,
    /// Why the index on disk was discarded and rebuilt (corrupt, other schema
    /// version); set while the rebuild runs and kept once it is done.
    pub rebuilt_because: Option<Discarded>,
}

/// Why an index on disk was discarded and rebuilt from the files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discarded {
    /// What was wrong: a checksum mismatch, an unreadable file, a failed or
    /// panicking search, another schema version.
    pub reason: String,
    /// Damaged rather than merely outdated.
    pub corrupt: bool,
    /// Where the damaged index was moved for inspection; `None` when it was
    /// outdated (deleted) or could not be moved (deleted instead).
    pub kept_at: Option<PathBuf>,
}

impl IndexStatus {
    /// One line for Status and doctor when the index is not simply fine:
    /// a rebuild after corruption (running or done), or why it is unusable.
    pub fn note(&self) -> Option<String> {
        let kept = |d: &Discarded| d.kept_at.as_ref().map(|p| format!("; the damaged copy is at {}", p.display()));
        match (&self.phase, &self.rebuilt_because) {
            (IndexPhase::Unavailable { reason }, _) => Some(format!("unavailable: {reason}; searches scan meanwhile")),
            (IndexPhase::Building { .. } | IndexPhase::Opening, Some(d)) if d.corrupt => Some(format!(
                "rebuilding after corruption ({}){}; searches scan meanwhile",
                d.reason,
                kept(d).unwrap_or_default()
            )),
            (IndexPhase::Ready, Some(d)) if d.corrupt => {
                Some(format!("rebuilt after corruption ({}){}", d.reason, kept(d).unwrap_or_default()))
            }
            (IndexPhase::Building { .. }, Some(d)) => Some(format!("rebuilding: {}", d.reason)),
            _ => None,
        }
    }
}

/// What a search module found, before the engine adds source, note and text.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub matches: Vec<Match>,
    pub total: u64,
    pub shown: u64,
    pub files_with_matches: u64,
    pub files_searched: u64,
    pub skipped: Skipped,
    /// A fallback scan stopped at its time budget: only `files_searched` files were read.
    pub cut_short: bool,
    pub withheld: Withheld,
    /// What the search module says of its answer (bm25: query words no file holds).
    pub note: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(phase: IndexPhase, rebuilt_because: Option<Discarded>) -> IndexStatus {
        IndexStatus {
            root: PathBuf::from("/p"),
            phase,
            files: 0,
            last_commit: None,
            size_on_disk: 0,
            approx_memory: 0,
            skipped: Skipped::default(),
            idle_secs: 0,
            full_syncs: 0,
            event_batches: 0,
            watch_error: None,
            last_error: None,
            rebuilt_because,
        }
    }

    #[test]
    fn the_note_names_a_rebuild_after_corruption_and_where_the_copy_is() {
        let corrupt = Discarded {
            reason: "checksum mismatch in a.idx".into(),
            corrupt: true,
            kept_at: Some(PathBuf::from("/c/index.corrupt-7")),
        };
        let building = status(IndexPhase::Building { done: 1, total: 9 }, Some(corrupt.clone()));
        assert_eq!(
            building.note().unwrap(),
            "rebuilding after corruption (checksum mismatch in a.idx); the damaged copy is at /c/index.corrupt-7; \
             searches scan meanwhile"
        );
        let ready = status(IndexPhase::Ready, Some(corrupt));
        assert_eq!(
            ready.note().unwrap(),
            "rebuilt after corruption (checksum mismatch in a.idx); the damaged copy is at /c/index.corrupt-7"
        );
        let outdated = Discarded { reason: "schema version 2 (expected 3)".into(), corrupt: false, kept_at: None };
        assert_eq!(status(IndexPhase::Ready, Some(outdated.clone())).note(), None);
        let rebuilding = status(IndexPhase::Building { done: 0, total: 0 }, Some(outdated));
        assert_eq!(rebuilding.note().unwrap(), "rebuilding: schema version 2 (expected 3)");
        let unavailable = status(IndexPhase::Unavailable { reason: "disk full".into() }, None);
        assert_eq!(unavailable.note().unwrap(), "unavailable: disk full; searches scan meanwhile");
        assert_eq!(status(IndexPhase::Building { done: 0, total: 0 }, None).note(), None);
    }
}
