//! lctx-mcp's daily log files, private whatever the umask (docs/operations.md).
//!
//! tracing-appender creates each day's file with the process's umask, and
//! lctx-mcp keeps the user's: the daemon and the fallback child it starts
//! take the umask they find for the user's own, and give it to the commands
//! they run. So each file the appender creates is made 0600 before anything
//! is written to it: at start, and when the UTC day, the appender's
//! rotation, changes. The log directory is 0700 already, so no other user
//! could open a file in the moment between.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use tracing_appender::rolling::{RollingFileAppender, RollingWriter, Rotation};
use tracing_subscriber::fmt::MakeWriter;

const PREFIX: &str = "lctx-mcp";
const SUFFIX: &str = "log";
/// Keeps a week of daily files.
const MAX_LOG_FILES: usize = 7;

pub struct PrivateDailyLog {
    appender: RollingFileAppender,
    dir: PathBuf,
    /// The UTC day whose file was made private last.
    day: AtomicU64,
}

impl PrivateDailyLog {
    /// Today's file in `dir`, created (private) now.
    pub fn open(dir: &Path) -> Result<PrivateDailyLog, String> {
        let appender = RollingFileAppender::builder()
            .rotation(Rotation::DAILY)
            .filename_prefix(PREFIX)
            .filename_suffix(SUFFIX)
            .max_log_files(MAX_LOG_FILES)
            .build(dir)
            .map_err(|e| e.to_string())?;
        make_private(dir);
        Ok(PrivateDailyLog { appender, dir: dir.to_path_buf(), day: AtomicU64::new(utc_day()) })
    }
}

impl<'a> MakeWriter<'a> for PrivateDailyLog {
    type Writer = RollingWriter<'a>;

    fn make_writer(&'a self) -> Self::Writer {
        // The appender rolls over, creating the new day's file, in here; the
        // day is read after it, so a rollover is never missed.
        let writer = self.appender.make_writer();
        let today = utc_day();
        if self.day.swap(today, Ordering::AcqRel) != today {
            make_private(&self.dir);
        }
        writer
    }
}

fn utc_day() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400)
}

/// Takes group and other permissions from lctx-mcp's log files in `dir`.
fn make_private(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with(&format!("{PREFIX}.")) && name.ends_with(&format!(".{SUFFIX}"))) {
            continue;
        }
        let Ok(meta) = entry.metadata() else { continue };
        let mode = meta.permissions().mode() & 0o7777;
        if meta.is_file() && mode & 0o077 != 0 {
            let _ = fs::set_permissions(entry.path(), fs::Permissions::from_mode(mode & !0o077));
        }
    }
}
