//! A read the ledger cannot record is still answered, and gain says it left
//! it out: how many, since when and why, instead of a smaller saving; and
//! that its session record was lost too.
//!
//! Alone in its test binary: it makes the disk refuse this process's writes
//! (RLIMIT_FSIZE 0, which root is held to as well, unlike file modes), and
//! that limit is process-wide.

mod common;

use common::{Project, code};

/// Every write to a regular file by this process fails (EFBIG) until dropped; reads still work,
/// as on a full disk.
struct WritesRefused(libc::rlimit);

impl WritesRefused {
    fn now() -> WritesRefused {
        // SAFETY: plain libc calls on valid pointers; SIGXFSZ would otherwise end the process
        // at the first refused write instead of letting write(2) fail.
        unsafe {
            let mut before = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            assert_eq!(libc::getrlimit(libc::RLIMIT_FSIZE, &raw mut before), 0);
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let refused = libc::rlimit { rlim_cur: 0, rlim_max: before.rlim_max };
            assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &raw const refused), 0);
            WritesRefused(before)
        }
    }
}

impl Drop for WritesRefused {
    fn drop(&mut self) {
        // SAFETY: restores the limit read in `now`.
        unsafe { libc::setrlimit(libc::RLIMIT_FSIZE, &raw const self.0) };
    }
}

#[test]
fn gain_names_the_reads_the_ledger_could_not_record() {
    let p = Project::new();
    let text = code(0, 40);
    p.write("lib.rs", &text);
    // Recorded: the store is open and the ledger holds one read.
    assert_eq!(p.read("s", "lib.rs", "full", false).content, text);
    // The ledger is written after the answer: gain settles that read's event before writes fail.
    p.engine.gain("all", "none", 0, 0).unwrap();

    let refused = WritesRefused::now();
    let first = p.read("s", "lib.rs", "full", true);
    let second = p.read("s", "lib.rs", "full", true);
    let (rows, report, lost) = p.engine.gain("all", "none", 0, 0).unwrap();
    drop(refused);

    // The reads were answered all the same.
    assert_eq!((first.content.as_str(), second.content.as_str()), (text.as_str(), text.as_str()));
    assert_eq!(rows.iter().map(|r| r.events).sum::<u64>(), 1, "{report}");
    let lost = lost.expect("the lost reads are counted");
    assert_eq!(lost.events(), 2);
    let note = report.lines().last().unwrap();
    assert_eq!(note, lost.note());
    assert!(note.starts_with("not recorded in the ledger: 2 calls (read 2) since "), "{report}");
    // Each read's record in session `s` was lost too: counted apart from the ledger's calls (it
    // was only logged).
    assert!(
        note.contains(
            ", which gain leaves out; nor written to state.db: 2 session records; the first failure: state.db "
        ),
        "{report}"
    );
    // SQLite said only "disk I/O error", which the store passed on as a query to report: the
    // failure names the limit, the file and its size, and where to raise the limit.
    let state_db = p.engine.dirs.data.join("state.db");
    let failure = format!("the first failure: state.db could not be written: {} (", state_db.display());
    assert!(note.contains(&failure), "{report}");
    assert!(
        note.contains(
            ") would pass the file-size limit of 0 bytes the process writing it runs under (`ulimit -f`; disk I/O \
             error): raise it where lean-ctxd is started and retry (what state.db held before is intact)"
        ),
        "{report}"
    );
}
