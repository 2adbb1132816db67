//! The journal of state.db's queued writes, so that a process killed after an answer (kill -9,
//! the OOM killer) loses none of the writes its writer had not made yet: the call's ledger
//! event, its session record, the row of the output it archived — whose id the answer named,
//! and whose blob is already staged on disk.
//!
//! Each write is appended to a file of this process's own, `<data>/journal/<pid>-<nanos>.jsonl`,
//! before the writer is handed it, so before the answer; the writer marks what it settled (made,
//! or counted unrecorded), and the file is emptied whenever nothing is left to settle. The file
//! is locked (flock) for the process's life, so one that no process holds was left by a process
//! that died: the writer adopts every such journal, when it starts and before each archive sweep
//! (which would delete the staged blob of an archived output the journal names). What was not
//! marked settled is journaled again as this process's, then made in the order it was queued.
//!
//! An append is a line written into the page cache, not synced: a killed process loses
//! nothing, as state.db itself (WAL, synchronous NORMAL) loses nothing then; a power loss may
//! lose the last writes of both.

use std::fs::{self, File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::Db;
use super::writer::{Job, Work};
use crate::locks::{self, Mutex};

pub(super) struct Journal {
    dir: PathBuf,
    /// This process's file, created with the first write queued. Held across the one `write` of
    /// an append or a mark (page cache, microseconds): the count of writes not yet settled must
    /// change with the file, or a mark could empty it under an append.
    file: Mutex<Option<Open>>,
}

struct Open {
    path: PathBuf,
    /// Opened for appending; holds the file's lock.
    file: File,
    next: u64,
    /// Writes appended and not yet marked settled.
    unsettled: u64,
}

/// One line of a journal: a work written as `&Work`, read back as `Work`.
#[derive(Serialize, Deserialize)]
enum Line<W> {
    Queued { seq: u64, work: W },
    Settled { seqs: Vec<u64> },
}

impl Journal {
    /// The journal of the `state.db` at `db`, in the `journal` directory beside it.
    pub(super) fn beside(db: &Path) -> Journal {
        Journal { dir: db.with_file_name("journal"), file: Mutex::new(locks::ids::MEMORY_JOURNAL, None) }
    }

    /// Appends `work`; returns its number, for [`Journal::settled`], or `None` when it could not be
    /// written (logged: the write is still queued, only not kept should the process be killed).
    pub(super) fn append(&self, work: &Work) -> Option<u64> {
        let mut slot = self.file.lock();
        if slot.is_none() {
            *slot = self.create().map_err(|e| tracing::warn!("{e}")).ok();
        }
        let open = slot.as_mut()?;
        let seq = open.next;
        let line = serde_json::to_string(&Line::Queued { seq, work })
            .map_err(|e| tracing::warn!("cannot journal a write queued for state.db: {e}"))
            .ok()?;
        if let Err(e) = writeln!(open.file, "{line}") {
            tracing::warn!(
                "cannot append to {}: {e}; a write queued for state.db is lost if lean-ctxd is killed before making it",
                open.path.display()
            );
            return None;
        }
        open.next += 1;
        open.unsettled += 1;
        Some(seq)
    }

    /// Marks `seqs` settled; empties the file once nothing is left to settle.
    pub(super) fn settled(&self, seqs: &[u64]) {
        if seqs.is_empty() {
            return;
        }
        let mut slot = self.file.lock();
        let Some(open) = slot.as_mut() else { return };
        open.unsettled = open.unsettled.saturating_sub(seqs.len() as u64);
        let marked = if open.unsettled == 0 {
            open.file.set_len(0)
        } else {
            let line = serde_json::to_string(&Line::<&Work>::Settled { seqs: seqs.to_vec() }).unwrap_or_default();
            writeln!(open.file, "{line}")
        };
        if let Err(e) = marked {
            // Replayed should this process be killed: a write made twice, not lost.
            tracing::warn!("cannot mark writes settled in {}: {e}", open.path.display());
        }
    }

    /// Takes over the journals of processes that died with writes unsettled: each is journaled
    /// again as this process's and returned in the order it was queued, for the writer to make;
    /// a line that cannot be read back (a staged blob swept since) is counted unrecorded.
    pub(super) fn adopt(&self, db: &Db) -> Vec<Job> {
        let Ok(entries) = fs::read_dir(&self.dir) else { return Vec::new() };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
            .collect();
        paths.sort();
        let mut adopted = Vec::new();
        for path in paths {
            // Ours is locked by us, a live process's by it: only a dead one's lock is free.
            let Ok(file) = File::open(&path) else { continue };
            if file.try_lock().is_err() {
                continue;
            }
            let text = fs::read_to_string(&path).unwrap_or_default();
            let works = unsettled(&text, |why| {
                db.lost_write(Some("queued write"), format!("{} could not be replayed: {why}", path.display()))
            });
            if !works.is_empty() {
                tracing::info!(writes = works.len(), journal = %path.display(), "adopted the writes of a process that died before making them");
            }
            for work in works {
                let seq = self.append(&work);
                adopted.push(Job::Work(seq, work));
            }
            if let Err(e) = fs::remove_file(&path) {
                tracing::warn!("cannot remove {}: {e}", path.display());
            }
        }
        adopted
    }

    fn create(&self) -> Result<Open, String> {
        let failed = |what: &str, path: &Path, e: std::io::Error| {
            format!(
                "cannot {what} {}: {e}; writes queued for state.db are lost if lean-ctxd is killed before making them",
                path.display()
            )
        };
        fs::create_dir_all(&self.dir).map_err(|e| failed("create", &self.dir, e))?;
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let name = format!("{}-{nanos}", std::process::id());
        // Locked before it is named as a journal: another process adopting journals takes any
        // `.jsonl` whose lock is free, and would remove a new one between its creation and lock.
        let creating = self.dir.join(format!("{name}.new"));
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(&creating)
            .map_err(|e| failed("create", &creating, e))?;
        file.try_lock().map_err(|e| failed("lock", &creating, std::io::Error::other(e.to_string())))?;
        let path = self.dir.join(format!("{name}.jsonl"));
        fs::rename(&creating, &path).map_err(|e| failed("name", &path, e))?;
        Ok(Open { path, file, next: 0, unsettled: 0 })
    }

    /// Removes the file when everything in it is settled (a write queued later creates another):
    /// as the process exits, so that it leaves no journal behind for the next to adopt.
    pub(super) fn retire(&self) {
        let mut slot = self.file.lock();
        if slot.as_ref().is_some_and(|open| open.unsettled == 0)
            && let Some(open) = slot.take()
            && let Err(e) = fs::remove_file(&open.path)
        {
            tracing::warn!("cannot remove {}: {e}", open.path.display());
        }
    }
}

impl Drop for Journal {
    fn drop(&mut self) {
        self.retire();
    }
}

/// The works of a dead process's journal `text` not marked settled, in the order they were
/// queued; `lost` hears why a line could not be read (a line cut short by the kill is not a
/// write: `write` appends a line whole).
/// A work is read back only once it is known unsettled: reading an archived output's back takes
/// its staged blob, which was moved under its id when the output was put.
fn unsettled(text: &str, mut lost: impl FnMut(String)) -> Vec<Work> {
    let mut queued = std::collections::BTreeMap::new();
    let mut settled = std::collections::BTreeSet::new();
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        match serde_json::from_str::<Line<serde_json::Value>>(line) {
            Ok(Line::Queued { seq, work }) => {
                queued.insert(seq, work);
            }
            Ok(Line::Settled { seqs }) => settled.extend(seqs),
            Err(e) => lost(e.to_string()),
        }
    }
    let mut works = Vec::new();
    for (_, work) in queued.into_iter().filter(|(seq, _)| !settled.contains(seq)) {
        match serde_json::from_value::<Work>(work) {
            Ok(work) => works.push(work),
            Err(e) => lost(e.to_string()),
        }
    }
    works
}

#[cfg(test)]
mod tests {
    use lean_ctx_store::{Check, CommandKind, GroupBy, Period};

    use super::super::writer::{Queued, Work};
    use super::super::writes::{Record, Write};
    use super::super::{Memory, now_ms, read_event};
    use super::Journal;

    /// A settled line is not read back: an archived output's names a staged blob that was moved
    /// under its id when the output was put, and reading it back counted a write made as lost.
    #[test]
    fn only_unsettled_works_are_read_back() {
        let queued = r#"{"Queued":{"seq":0,"work":{"NoSuchWork":1}}}"#;
        let mut lost = Vec::new();
        let settled = format!("{queued}\n{{\"Settled\":{{\"seqs\":[0]}}}}\n");
        assert!(super::unsettled(&settled, |why| lost.push(why)).is_empty());
        assert!(lost.is_empty(), "{lost:?}");
        assert!(super::unsettled(&format!("{queued}\n"), |why| lost.push(why)).is_empty());
        assert_eq!(lost.len(), 1, "an unsettled line that cannot be read back is counted");
    }

    /// A process killed before its writer made what it had queued (kill -9 right after its
    /// answers, another process holding state.db's write lock) lost those writes uncounted. Its
    /// journal keeps them: the next process makes the ones not marked settled, once each, with
    /// their calls' times, and removes the journal.
    #[test]
    fn the_next_process_makes_the_writes_a_killed_one_left_in_its_journal() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        let called = now_ms() - 60_000;
        let killed = Journal::beside(&path);
        let made = killed.append(&Work::Event(Queued::from(&read_event("/p", "s1", "full", 10, 4)))).unwrap();
        killed.append(&Work::Event(Queued::from(&read_event("/p", "s1", "map", 10, 2)))).unwrap();
        let record = Record::Command { command: "cargo test".into(), exit_code: 1, kind: CommandKind::Test };
        let session =
            Write::Session { id: "s1".into(), project: "/p".into(), agent: "a".into(), at_ms: called, record };
        killed.append(&Work::Write(session)).unwrap();
        killed.settled(&[made]);
        // What the kill leaves: the file, its lock released, its writes unsettled.
        drop(killed);
        assert_eq!(std::fs::read_dir(dir.path().join("journal")).unwrap().count(), 1);

        let memory = Memory::new(path, Check::Everything);
        let rows = memory.with(|s| s.gain(Period::All, GroupBy::Mode, now_ms(), 0)).unwrap();
        let modes: Vec<_> = rows.iter().map(|r| (r.key.clone().unwrap_or_default(), r.events)).collect();
        assert_eq!(modes, [("map".to_string(), 1)], "the settled event is not made again");
        let session = memory
            .with(|s| s.session(lean_ctx_store::SessionKey { project: "/p", id: "s1" }))
            .unwrap()
            .expect("the session record is made");
        let commands: Vec<_> = session.commands.iter().map(|c| (c.command.as_str(), c.at_ms)).collect();
        assert_eq!(commands, [("cargo test", called)]);
        assert!(memory.unrecorded().is_none());
        memory.flush();
        assert_eq!(std::fs::read_dir(dir.path().join("journal")).unwrap().count(), 0);
    }
}
