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

/// Id of the running executable, empty when it cannot be determined.
pub fn own_executable_id() -> String {
    std::env::current_exe().and_then(|p| executable_id(&p)).unwrap_or_default()
}
