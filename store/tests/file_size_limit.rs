//! A write of state.db refused by the file-size limit (`ulimit -f`) said only "state.db query
//! failed: disk I/O error … report it": SQLite keeps the cause (EFBIG) apart from the error.
//!
//! Alone in its test binary: RLIMIT_FSIZE is process-wide.

use lean_ctx_store::{Check, Error, NewFact, Store};

fn fact(value: &str) -> NewFact<'_> {
    NewFact { project: "/p", category: None, key: "k", value, source_session: None, confidence: None }
}

#[test]
fn a_write_past_the_file_size_limit_names_the_limit_the_file_and_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    let mut store = Store::open(&path, Check::Everything).unwrap().store;
    store.remember(&fact("small")).unwrap();
    let wal = std::fs::metadata(dir.path().join("state.db-wal")).unwrap().len();
    let bytes = std::fs::metadata(&path).unwrap().len();
    // SAFETY: plain libc calls on valid pointers; SIGXFSZ would otherwise end the process at the
    // refused write instead of letting write(2) fail with EFBIG.
    let before = unsafe {
        let mut before = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        assert_eq!(libc::getrlimit(libc::RLIMIT_FSIZE, &raw mut before), 0);
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        let refused = libc::rlimit { rlim_cur: wal, rlim_max: before.rlim_max };
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &raw const refused), 0);
        before
    };
    let error = store.remember(&fact(&"x".repeat(16_000))).unwrap_err();
    let error = store.explained(error);
    // SAFETY: restores the limit read above.
    unsafe { libc::setrlimit(libc::RLIMIT_FSIZE, &raw const before) };

    assert!(matches!(error, Error::FileSizeLimit { .. }), "{error}");
    assert_eq!(
        error.to_string(),
        format!(
            "state.db could not be written: {} ({bytes} bytes, its write-ahead log {wal}) would pass the file-size \
             limit of {wal} bytes the process writing it runs under (`ulimit -f`; disk I/O error): raise it where \
             lean-ctxd is started and retry (what state.db held before is intact)",
            path.display()
        )
    );
    // Nothing was half written: the next write, within the limit again, works.
    store.remember(&fact("after")).unwrap();
}
