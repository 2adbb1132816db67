//! The journal of state.db's queued writes, so that a process killed after an answer (kill -9,
//! the OOM killer) loses none of the writes its writer had not made yet: the call's ledger
//! event, its session record, the row of the output it archived — whose id the answer named,
//! and whose blob is already staged on disk.
//!
//! Each write is appended to a file of this process's own, `<data>/journal/<pid>-<nanos>.jsonl`,
//! before the writer is handed it, so before the answer; the writer marks what it settled (made,
//! or counted unrecorded), and the file is emptied whenever nothing is left to settle. Under a
//! steady stream of calls from several clients something is always left (4 sessions reading
//! without pause grew it by 4.4 MB per 10,000 reads, never emptied), so once the file is past
//! [`COMPACT_PAST`] and mostly settled lines, it is replaced by one holding only the lines not
//! settled yet ([`Open::compact`]). The file is locked (flock) for the process's life, so one
//! that no process holds was left by a process that died: the writer adopts every such journal,
//! when it starts and before each archive sweep (which would delete the staged blob of an
//! archived output the journal names). What was not marked settled is journaled again as this
//! process's, then made in the order it was queued.
//!
//! An append is a line written into the page cache, not synced: a killed process loses
//! nothing, as state.db itself (WAL, synchronous NORMAL) loses nothing then; a power loss may
//! lose the last writes of both.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{Read as _, Write as _};
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::Db;
use super::writer::{Job, Work};
use crate::locks::{self, Mutex};

/// The size past which a journal with lines still unsettled is compacted, unless those lines make
/// up half of it (compacting then would keep rewriting them): about 2,400 reads' lines (440 bytes
/// each, their marks included). Compacting writes only the unsettled lines, a few at a time under
/// a steady stream.
const COMPACT_PAST: u64 = 1 << 20;

pub(super) struct Journal {
    dir: PathBuf,
    /// This process's file, created with the first write queued. Held across the one `write` of
    /// an append or a mark (page cache, microseconds), and across a compaction: the writes not
    /// yet settled must change with the file, or a mark could empty it under an append.
    file: Mutex<Option<Open>>,
}

struct Open {
    path: PathBuf,
    /// Opened for appending; holds the file's lock.
    file: File,
    next: u64,
    /// The lines of the writes appended and not yet marked settled, by number: what a compacted
    /// file holds.
    unsettled: BTreeMap<u64, String>,
    /// The file's length.
    len: u64,
    /// The length past which a compaction is tried: [`COMPACT_PAST`], or, after one failed, the
    /// length then plus [`COMPACT_PAST`] — a compaction that failed (disk full, say) would fail
    /// again at the next mark, and each try rewrites every unsettled line and logs a warning.
    compact_past: u64,
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
        let line = line + "\n";
        if let Err(e) = open.file.write_all(line.as_bytes()) {
            tracing::warn!(
                "cannot append to {}: {e}; a write queued for state.db is lost if lean-ctxd is killed before making it",
                open.path.display()
            );
            return None;
        }
        open.next += 1;
        open.len += line.len() as u64;
        open.unsettled.insert(seq, line);
        Some(seq)
    }

    /// Marks `seqs` settled; empties the file once nothing is left to settle, and compacts it
    /// once it is large and mostly settled.
    pub(super) fn settled(&self, seqs: &[u64]) {
        if seqs.is_empty() {
            return;
        }
        let mut slot = self.file.lock();
        let Some(open) = slot.as_mut() else { return };
        for seq in seqs {
            open.unsettled.remove(seq);
        }
        let marked = if open.unsettled.is_empty() {
            open.file.set_len(0).map(|()| open.len = 0)
        } else {
            let line =
                serde_json::to_string(&Line::<&Work>::Settled { seqs: seqs.to_vec() }).unwrap_or_default() + "\n";
            open.file.write_all(line.as_bytes()).map(|()| open.len += line.len() as u64)
        };
        if let Err(e) = marked {
            // Replayed should this process be killed: a write made twice, not lost.
            return tracing::warn!("cannot mark writes settled in {}: {e}", open.path.display());
        }
        let live: u64 = open.unsettled.values().map(|line| line.len() as u64).sum();
        if open.len > open.compact_past.max(2 * live)
            && let Err(e) = open.compact(live)
        {
            // The file as it was stays the journal: larger, nothing lost.
            open.compact_past = open.len + COMPACT_PAST;
            tracing::warn!(
                "cannot compact {}: {e}; tried again once it has grown by another {COMPACT_PAST} bytes",
                open.path.display()
            );
        }
    }

    /// Takes over the journals of processes that died with writes unsettled: each is journaled
    /// again as this process's and returned in the order it was queued, for the writer to make;
    /// a line that cannot be read back (a staged blob swept since) is counted unrecorded.
    pub(super) fn adopt(&self, db: &Db) -> Vec<Job> {
        let Ok(entries) = fs::read_dir(&self.dir) else { return Vec::new() };
        let (mut paths, leftovers): (Vec<PathBuf>, Vec<PathBuf>) = entries
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl" || ext == "new" || ext == "compacting"))
            .partition(|path| path.extension().is_some_and(|ext| ext == "jsonl"));
        remove_leftovers(&leftovers);
        paths.sort();
        let mut adopted = Vec::new();
        for path in paths {
            // Ours is locked by us, a live process's by it: only a dead one's lock is free.
            let Ok(mut file) = File::open(&path) else { continue };
            if file.try_lock().is_err() || !still_named(&file, &path) {
                continue;
            }
            let mut text = String::new();
            if let Err(e) = file.read_to_string(&mut text) {
                tracing::warn!("cannot read {}: {e}", path.display());
            }
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
        Ok(Open { path, file, next: 0, unsettled: BTreeMap::new(), len: 0, compact_past: COMPACT_PAST })
    }

    /// Removes the file when everything in it is settled (a write queued later creates another):
    /// as the process exits, so that it leaves no journal behind for the next to adopt.
    pub(super) fn retire(&self) {
        let mut slot = self.file.lock();
        if slot.as_ref().is_some_and(|open| open.unsettled.is_empty())
            && let Some(open) = slot.take()
            && let Err(e) = fs::remove_file(&open.path)
        {
            tracing::warn!("cannot remove {}: {e}", open.path.display());
        }
    }
}

impl Open {
    /// Replaces the file with one holding only the unsettled lines (`live` bytes), under the same
    /// name: written and locked under another name first, then renamed over the old one, so a
    /// kill at any point leaves one journal holding every unsettled line (the old file, or the
    /// new one). The old file's lock is released only once the name is the new file's, and an
    /// adopter that then takes the old file finds it no longer named so ([`still_named`]).
    fn compact(&mut self, live: u64) -> std::io::Result<()> {
        let compacting = self.path.with_extension("compacting");
        // Appending, as the journal is written: emptying it later must not leave a hole.
        let mut file = OpenOptions::new().append(true).create(true).open(&compacting)?;
        let written = file
            .try_lock()
            .map_err(|e| std::io::Error::other(e.to_string()))
            .and_then(|()| file.set_len(0))
            .and_then(|()| file.write_all(self.unsettled.values().map(String::as_str).collect::<String>().as_bytes()))
            .and_then(|()| fs::rename(&compacting, &self.path));
        if let Err(e) = written {
            let _ = fs::remove_file(&compacting);
            return Err(e);
        }
        self.file = file;
        self.len = live;
        self.compact_past = COMPACT_PAST;
        Ok(())
    }
}

/// Removes what a process killed while creating (`.new`) or compacting (`.compacting`) its journal
/// left beside it, once that process is gone: nothing else removes them, and they hold no line the
/// journal itself lacks (a compacted copy replaces the journal only by a rename). A live process's
/// are its own, between their creation and their rename.
fn remove_leftovers(paths: &[PathBuf]) {
    for path in paths {
        let pid = path.file_stem().and_then(|stem| stem.to_str()?.split('-').next()?.parse::<u32>().ok());
        if pid.is_some_and(|pid| !lean_ctx_common::singleton::is_alive(pid))
            && let Err(e) = fs::remove_file(path)
        {
            tracing::warn!("cannot remove {}: {e}", path.display());
        }
    }
}

/// Whether `path` still names the journal `file` was opened from: a live process compacting its
/// journal renames a new file over it before releasing the old one's lock.
fn still_named(file: &File, path: &Path) -> bool {
    match (file.metadata(), fs::metadata(path)) {
        (Ok(opened), Ok(named)) => (opened.dev(), opened.ino()) == (named.dev(), named.ino()),
        _ => false,
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
        let record = Record::Command { command: "cargo test".into(), exit_code: Some(1), kind: CommandKind::Test };
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

    /// Under a steady stream something is always left unsettled, so the file was never emptied:
    /// it kept every line, 4.4 MB per 10,000 reads of 4 sessions. It is compacted: it stays under
    /// the bound, and a kill right after loses none of what was left unsettled, nor makes a
    /// settled write again.
    #[test]
    fn a_journal_never_empty_stays_bounded_and_a_kill_after_compacting_loses_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        let journal = Journal::beside(&path);
        let command = |n: usize| {
            let record =
                Record::Command { command: format!("cargo test {n}"), exit_code: Some(0), kind: CommandKind::Test };
            Work::Write(Write::Session { id: "s1".into(), project: "/p".into(), agent: "a".into(), at_ms: 1, record })
        };
        // The oldest write waits throughout (another process holds state.db's lock, say).
        journal.append(&command(0)).unwrap();
        let file =
            || std::fs::read_dir(dir.path().join("journal")).unwrap().map(|e| e.unwrap().path()).collect::<Vec<_>>();
        let mut largest = 0;
        for n in 1..=10_000 {
            let event = journal.append(&Work::Event(Queued::from(&read_event("/p", "s1", "full", 10, 4)))).unwrap();
            let write = journal.append(&command(n)).unwrap();
            journal.settled(&[event]);
            if n == 10_000 {
                // The last write is still waiting when the process is killed.
                break;
            }
            journal.settled(&[write]);
            largest = largest.max(std::fs::metadata(&file()[0]).unwrap().len());
        }
        assert!(largest <= super::COMPACT_PAST + 512, "the journal grew to {largest} bytes");
        assert_eq!(file().len(), 1, "one journal, nothing left beside it: {:?}", file());
        // What the kill leaves: the file, its lock released, two writes unsettled.
        drop(journal);

        let memory = Memory::new(path, Check::Everything);
        let key = lean_ctx_store::SessionKey { project: "/p", id: "s1" };
        let session = memory.with(|s| s.session(key)).unwrap().expect("the session record is made");
        let commands: Vec<_> = session.commands.iter().map(|c| c.command.as_str()).collect();
        assert_eq!(commands, ["cargo test 0", "cargo test 10000"]);
        let rows = memory.with(|s| s.gain(Period::All, GroupBy::Mode, now_ms(), 0)).unwrap();
        assert!(rows.is_empty(), "every event was settled: none is made again");
        assert!(memory.unrecorded().is_none());
    }

    /// A compaction that failed (disk full; here a directory in the way of its file) was tried
    /// again at every mark after: each try rewriting every unsettled line and logging a warning,
    /// thousands of them per MiB. It is tried again once the file has grown by another
    /// [`super::COMPACT_PAST`], and compacts once the way is clear.
    #[test]
    fn a_failed_compaction_waits_for_the_file_to_grow_before_it_is_tried_again() {
        #[derive(Clone, Default)]
        struct Log(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
        impl std::io::Write for Log {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let log = Log::default();
        let writer = log.clone();
        let subscriber = tracing_subscriber::fmt().with_writer(move || writer.clone()).with_ansi(false).finish();
        let warnings = || String::from_utf8_lossy(&log.0.lock().unwrap()).matches("cannot compact").count();

        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::beside(&dir.path().join("state.db"));
        let waiting = Work::Write(Write::Session {
            id: "s1".into(),
            project: "/p".into(),
            agent: "a".into(),
            at_ms: 1,
            record: Record::Command { command: "cargo test".into(), exit_code: Some(0), kind: CommandKind::Test },
        });
        journal.append(&waiting).unwrap();
        let path = std::fs::read_dir(dir.path().join("journal")).unwrap().next().unwrap().unwrap().path();
        let in_the_way = path.with_extension("compacting");
        std::fs::create_dir(&in_the_way).unwrap();
        let len = || std::fs::metadata(&path).unwrap().len();
        let read = || Work::Event(Queued::from(&read_event("/p", "s1", "full", 10, 4)));
        tracing::subscriber::with_default(subscriber, || {
            while len() < 3 * super::COMPACT_PAST {
                let seq = journal.append(&read()).unwrap();
                journal.settled(&[seq]);
            }
            assert!((1..=3).contains(&warnings()), "{} warnings while the journal grew to 3 MiB", warnings());
            std::fs::remove_dir(&in_the_way).unwrap();
            let grown = len();
            while len() >= grown {
                let seq = journal.append(&read()).unwrap();
                journal.settled(&[seq]);
                assert!(len() < grown + super::COMPACT_PAST + 4096, "not compacted once the way was clear");
            }
        });
        assert!(len() < 4096, "compacted to the one unsettled line: {} bytes", len());
    }

    /// A process killed between creating its `.new` or `.compacting` file and renaming it left
    /// the file for good; a live process's are its own.
    #[test]
    fn what_a_dead_process_left_while_creating_or_compacting_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let ours = std::process::id();
        let names = [format!("{dead}-1.compacting"), format!("{dead}-2.new"), format!("{ours}-3.compacting")];
        let paths: Vec<std::path::PathBuf> = names.iter().map(|name| dir.path().join(name)).collect();
        for path in &paths {
            std::fs::write(path, "{}\n").unwrap();
        }
        super::remove_leftovers(&paths);
        let left: Vec<bool> = paths.iter().map(|path| path.exists()).collect();
        assert_eq!(left, [false, false, true]);
    }

    /// An adopter that opened a live process's journal just before the process compacted it
    /// takes the old file's lock once released: it must not take the name, which is the new
    /// file's (it would make the live process's writes, and remove its journal).
    #[test]
    fn an_adopter_holding_a_compacted_journal_leaves_it_to_its_process() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::beside(&dir.path().join("state.db"));
        let waiting = journal.append(&Work::Event(Queued::from(&read_event("/p", "s1", "map", 10, 2)))).unwrap();
        let path = std::fs::read_dir(dir.path().join("journal")).unwrap().next().unwrap().unwrap().path();
        let adopter = std::fs::File::open(&path).unwrap();
        assert!(adopter.try_lock().is_err(), "locked by its process");
        // Settled writes until the file is compacted: renamed over, so its name is another file's.
        for _ in 0..100_000 {
            if !super::still_named(&adopter, &path) {
                break;
            }
            let seq = journal.append(&Work::Event(Queued::from(&read_event("/p", "s1", "full", 10, 4)))).unwrap();
            journal.settled(&[seq]);
        }
        assert!(!super::still_named(&adopter, &path), "compacted: the name is no longer the old file's");
        assert!(std::fs::metadata(&path).unwrap().len() < 1024, "the new file holds the one waiting write");
        assert!(adopter.try_lock().is_ok(), "the old file's lock is released");
        let live = std::fs::File::open(&path).unwrap();
        assert!(live.try_lock().is_err(), "the new file is locked by its process");
        journal.settled(&[waiting]);
    }
}
