//! What identifies this build to its clients.

use std::path::Path;

/// The package version shared by the daemon and the clients.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Identifies one executable file: a client compares the id of the
/// `lean-ctxd` it would start with the id the running daemon reports, and
/// restarts the daemon when they differ (an upgrade replaced the binary, or
/// another installation is running). Derived from the file's metadata, so it
/// costs one `stat` rather than hashing megabytes on every client start.
pub fn executable_id(path: &Path) -> std::io::Result<String> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path)?;
    Ok(format!("{:x}-{:x}-{:x}.{:x}", meta.ino(), meta.size(), meta.mtime(), meta.mtime_nsec()))
}

/// When the binary an executable id names was written (seconds, then
/// nanoseconds); zero for an empty or foreign id.
pub fn written_at(executable_id: &str) -> (u64, u64) {
    let mtime = executable_id.rsplit('-').next().unwrap_or_default();
    let (secs, nanos) = mtime.split_once('.').unwrap_or((mtime, "0"));
    (u64::from_str_radix(secs, 16).unwrap_or(0), u64::from_str_radix(nanos, 16).unwrap_or(0))
}

/// Id of the running executable, empty when it cannot be determined.
pub fn own_executable_id() -> String {
    std::env::current_exe().and_then(|p| executable_id(&p)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_write_time_is_read_back_from_an_id() {
        // The test's own executable: nothing writes it while the test runs (the temporary
        // directory, used before, changed between the two reads whenever another test wrote there).
        let file = std::env::current_exe().unwrap();
        let id = executable_id(&file).unwrap();
        let meta = std::fs::metadata(&file).unwrap();
        use std::os::unix::fs::MetadataExt;
        assert_eq!(written_at(&id), (meta.mtime() as u64, meta.mtime_nsec() as u64));
        assert_eq!(written_at(""), (0, 0));
    }
}
