//! What a file looks like from outside: whether it exists, its inode, size
//! and modification time. The daemon hands clients the stamps an answer
//! depends on; a client that finds every stamp unchanged may reuse the
//! answer without asking again.

use std::os::unix::fs::MetadataExt as _;
use std::path::Path;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stamp {
    pub exists: bool,
    pub inode: u64,
    pub size: u64,
    /// Nanoseconds since the epoch.
    pub mtime_ns: i64,
}

impl Stamp {
    /// The stamp of `path` now, following symlinks; an unreadable or absent
    /// file is `exists: false` (appearing later changes its stamp).
    pub fn of(path: &Path) -> Stamp {
        std::fs::metadata(path).map_or_else(|_| Stamp::default(), |meta| Stamp::of_metadata(&meta))
    }

    /// The stamp of a file whose metadata the caller already has.
    pub fn of_metadata(meta: &std::fs::Metadata) -> Stamp {
        Stamp {
            exists: true,
            inode: meta.ino(),
            size: meta.len(),
            mtime_ns: meta.mtime().saturating_mul(1_000_000_000).saturating_add(meta.mtime_nsec()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_of_content_or_existence_changes_the_stamp() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("settings.json");
        let absent = Stamp::of(&file);
        assert!(!absent.exists);
        std::fs::write(&file, "{}").unwrap();
        let first = Stamp::of(&file);
        assert!(first.exists && first.size == 2 && first != absent);
        std::fs::write(&file, "{\"permissions\": {}}").unwrap();
        assert_ne!(Stamp::of(&file), first, "another size");
        assert_eq!(Stamp::of(&file), Stamp::of(&file), "unchanged is equal");
    }
}
