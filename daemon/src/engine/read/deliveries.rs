//! What each session holds of each file: for every (project, session,
//! canonical path), the hash of the content it last received or wrote, and whether it
//! holds that content whole.
//!
//! A session holds a content *whole* when it received all of it (full, line
//! ranges covering every line, a diff applied to a whole earlier version) or
//! wrote it with its own edit of a content it held whole (or by creating the
//! file). This is the only ground for an "[unchanged]" stub: a stub goes to a
//! session only when it holds the file's current hash whole.
//!
//! A holding that is not whole is a diff base only: the session edited a
//! file it had seen only in part (its next `diff` starts from what it
//! wrote), or edited a file that had changed since the version it holds
//! (its next `diff` starts from that version, so it shows the change it
//! never saw with its own), or one of its edits of the file failed (its
//! idea of the file may be wrong, so the next read sends the content).
//! Partial ranges, outlines and references change nothing of that.
//!
//! Apart from what it holds, each record keeps the version of the file the
//! session last saw in any view (a range, an outline, a stub) or wrote: the
//! version whose line numbers it has, which an edit by line numbers is held to.

use std::path::{Path, PathBuf};

use crate::engine::lru::Lru;
use crate::engine::session::SessionIn;
use crate::locks::{self, Mutex};

/// Records kept; the oldest are forgotten first (which only costs a full
/// re-send, never a wrong stub).
const MAX_RECORDS: usize = 100_000;

/// A session's holding of one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    pub hash: blake3::Hash,
    /// The session has all of this content; otherwise only a diff base.
    pub whole: bool,
    /// The session received this content whole at some point (read it, or
    /// wrote it over a version it held whole), though it may no longer count
    /// as holding it (a failed edit since); otherwise it only wrote it over a
    /// part. Says what a `diff` starts from.
    pub received: bool,
    /// A `diff` last moved this base on (it is no longer what the session read or wrote).
    pub diffed: bool,
}

impl Held {
    pub fn whole(hash: blake3::Hash) -> Held {
        Held { hash, whole: true, received: true, diffed: false }
    }

    /// What a session's own edit wrote over a file it had seen in part.
    pub fn diff_base(hash: blake3::Hash) -> Held {
        Held { hash, whole: false, received: false, diffed: false }
    }

    /// The same content as a diff base only: the next read sends it.
    pub fn no_longer_whole(self) -> Held {
        Held { whole: false, ..self }
    }
}

/// A session's record of one file.
#[derive(Clone, Copy, Debug)]
struct Record {
    /// What it holds, if anything.
    held: Option<Held>,
    /// The version it last saw in any view, or wrote.
    seen: blake3::Hash,
}

pub struct Deliveries {
    records: Mutex<Lru<(PathBuf, String, PathBuf), Record>>,
}

impl Default for Deliveries {
    fn default() -> Self {
        Deliveries { records: Mutex::new(locks::ids::READ_DELIVERIES, Lru::new(MAX_RECORDS)) }
    }
}

impl Deliveries {
    /// What `session` holds of `path`. Requests without a session hold
    /// nothing.
    pub fn held(&self, session: SessionIn<'_>, path: &Path) -> Option<Held> {
        if session.id.is_empty() {
            return None;
        }
        self.records.lock().get(&key(session, path)).and_then(|record| record.held)
    }

    /// The version of `path` whose line numbers `session` has: the one it last saw in any view,
    /// or wrote.
    pub fn seen(&self, session: SessionIn<'_>, path: &Path) -> Option<blake3::Hash> {
        if session.id.is_empty() {
            return None;
        }
        self.records.lock().get(&key(session, path)).map(|record| record.seen)
    }

    /// `session` was shown a view of `path` at version `hash`, holding `held` of it after that
    /// (None: what it held before, a part being no holding); `shows_lines`: the view gave it that
    /// version's line numbers (see [`Deliveries::seen`]).
    pub fn record(
        &self,
        session: SessionIn<'_>,
        path: &Path,
        hash: blake3::Hash,
        held: Option<Held>,
        shows_lines: bool,
    ) {
        if session.id.is_empty() {
            return;
        }
        let mut records = self.records.lock();
        let key = key(session, path);
        let before = records.get(&key);
        let held = held.or_else(|| before.and_then(|record| record.held));
        let seen = match (shows_lines, before) {
            (true, _) => hash,
            (false, Some(record)) => record.seen,
            // Nothing seen and nothing held: nothing to record.
            (false, None) if held.is_none() => return,
            (false, None) => hash,
        };
        records.insert(key, Record { held, seen }, 1);
    }

    /// `session` changed `path` from `before` (`None`: it created the file)
    /// to `after` with its own successful edit: it wrote the change, so it
    /// holds `after` as it held `before` (whole, or as a diff base), or as a
    /// diff base if it held nothing. If it held another version, the file
    /// changed since it last saw it: that version stays its diff base, so
    /// its next `diff` shows that change too rather than "no change", and
    /// the line numbers it has stay those of what it saw (a QA pass's edit by
    /// number after a text edit of a changed file landed on the wrong line).
    pub fn edited(&self, session: SessionIn<'_>, path: &Path, before: Option<blake3::Hash>, after: blake3::Hash) {
        if session.id.is_empty() {
            return;
        }
        let mut records = self.records.lock();
        let key = key(session, path);
        let record = records.get(&key);
        let seen = match (before, record) {
            (Some(before), Some(record)) if record.seen != before => record.seen,
            _ => after,
        };
        let held = match (before, record.and_then(|record| record.held)) {
            (None, _) => Held::whole(after),
            // What it wrote is its base; a base it read whole stays one only while it holds it whole.
            (Some(before), Some(held)) if held.hash == before => {
                Held { hash: after, whole: held.whole, received: held.whole, diffed: false }
            }
            (Some(_), Some(held)) => held.no_longer_whole(),
            (Some(_), None) => Held::diff_base(after),
        };
        records.insert(key, Record { held: Some(held), seen }, 1);
    }

    /// `session` never received what was recorded for `path` (its call was
    /// dropped): it holds nothing of it now, so its next read sends the
    /// content, and no diff is made against a base it may not have.
    pub fn forget(&self, session: SessionIn<'_>, path: &Path) {
        if session.id.is_empty() {
            return;
        }
        self.records.lock().remove(&key(session, path));
    }

    /// An edit of `path` by `session` failed: its next read sends the
    /// content, never a stub. What it held stays its diff base.
    pub fn edit_failed(&self, session: SessionIn<'_>, path: &Path) {
        if session.id.is_empty() {
            return;
        }
        let mut records = self.records.lock();
        let key = key(session, path);
        if let Some(record) = records.get(&key) {
            records.insert(key, Record { held: record.held.map(Held::no_longer_whole), ..record }, 1);
        }
    }

    /// Records held, for Status.
    pub fn count(&self) -> usize {
        self.records.lock().len()
    }
}

fn key(session: SessionIn<'_>, path: &Path) -> (PathBuf, String, PathBuf) {
    (session.project.to_path_buf(), session.id.to_string(), path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The session `id` of project /p.
    fn s(id: &str) -> SessionIn<'_> {
        SessionIn { project: Path::new("/p"), id }
    }

    /// A session id used in a project inside another (LEAN_CTX_SESSION set for every shell)
    /// held what it was sent in the outer one: a read in the inner project got "[unchanged]" for
    /// a file that session never received there.
    #[test]
    fn the_same_id_in_another_project_holds_nothing_of_this_one() {
        let d = Deliveries::default();
        let v1 = blake3::hash(b"1");
        let path = Path::new("/p/inner/a.rs");
        d.record(s("s"), path, v1, Some(Held::whole(v1)), true);
        let inner = SessionIn { project: Path::new("/p/inner"), id: "s" };
        assert_eq!(d.held(inner, path), None);
        d.record(inner, path, v1, Some(Held::diff_base(v1)), true);
        assert_eq!(d.held(s("s"), path), Some(Held::whole(v1)), "each keeps its own");
    }

    #[test]
    fn an_edit_keeps_a_whole_holding_whole_and_anything_else_a_diff_base() {
        let d = Deliveries::default();
        let (v1, v2, v3) = (blake3::hash(b"1"), blake3::hash(b"2"), blake3::hash(b"3"));
        let path = Path::new("/p/a.rs");
        d.record(s("s"), path, v1, Some(Held::whole(v1)), true);
        d.edited(s("s"), path, Some(v1), v2);
        assert_eq!(d.held(s("s"), path), Some(Held::whole(v2)), "it wrote the change to what it had");
        d.edited(s("s"), path, Some(v1), v3);
        let v2_base = Held::whole(v2).no_longer_whole();
        assert_eq!(d.held(s("s"), path), Some(v2_base), "the file changed since v2: v2, read whole, stays the base");
        d.edited(s("s"), path, Some(v2), v1);
        assert_eq!(d.held(s("s"), path), Some(Held::diff_base(v1)), "a diff base of what it edited");
        d.edited(s("other"), path, Some(v3), v1);
        assert_eq!(d.held(s("other"), path), Some(Held::diff_base(v1)), "it held nothing");
        d.edited(s("new"), Path::new("/p/new.rs"), None, v1);
        assert_eq!(d.held(s("new"), Path::new("/p/new.rs")), Some(Held::whole(v1)), "it wrote all of it");
        d.edited(s(""), path, None, v1);
        assert_eq!(d.held(s(""), path), None, "no session, no record");
    }

    #[test]
    fn a_failed_edit_keeps_the_diff_base_but_not_the_whole() {
        let d = Deliveries::default();
        let v1 = blake3::hash(b"1");
        let path = Path::new("/p/a.rs");
        d.edit_failed(s("s"), path);
        assert_eq!(d.held(s("s"), path), None);
        d.record(s("s"), path, v1, Some(Held::whole(v1)), true);
        d.edit_failed(s("s"), path);
        assert_eq!(d.held(s("s"), path), Some(Held::whole(v1).no_longer_whole()), "it still read that version whole");
    }
}
