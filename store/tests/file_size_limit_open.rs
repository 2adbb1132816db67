//! Opening state.db under a file-size limit too small for it (`ulimit -f`) said only "state.db
//! query failed: disk I/O error … report it", like a refused write did before opening explained it.
//!
//! Alone in its test binary: RLIMIT_FSIZE is process-wide.

use lean_ctx_store::{Check, Error, Store};

#[test]
fn opening_past_the_file_size_limit_names_the_limit_and_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    // SAFETY: plain libc calls on valid pointers; SIGXFSZ would otherwise end the process at the
    // refused write instead of letting write(2) fail with EFBIG.
    let before = unsafe {
        let mut before = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        assert_eq!(libc::getrlimit(libc::RLIMIT_FSIZE, &raw mut before), 0);
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        let refused = libc::rlimit { rlim_cur: 1024, rlim_max: before.rlim_max };
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &raw const refused), 0);
        before
    };
    let error = Store::open(&path, Check::Everything).map(|_| ()).unwrap_err();
    // SAFETY: restores the limit read above.
    unsafe { libc::setrlimit(libc::RLIMIT_FSIZE, &raw const before) };

    assert!(matches!(error, Error::FileSizeLimit { limit: Some(1024), .. }), "{error}");
    let message = error.to_string();
    assert!(message.starts_with(&format!("state.db could not be written: {} (", path.display())), "{message}");
    assert!(message.contains("file-size limit of 1024 bytes"), "{message}");
    // Nothing is lost: within the limit again, the same file opens.
    Store::open(&path, Check::Everything).unwrap();
}
