//! The directories `lctx setup` created for a host's config file (`~/.cursor/`
//! for `~/.cursor/mcp.json`), so that removing that file again takes them
//! out too once they are empty, and never one that was there before setup.
//!
//! They are listed in `<data>/setup/created-dirs.json`, recorded before the
//! file is written (so a setup that dies half-way is still undone); a
//! directory leaves the list once it is gone.

use std::path::{Path, PathBuf};

use super::write;

/// Where the list is kept.
pub struct CreatedDirs {
    file: PathBuf,
}

impl CreatedDirs {
    pub fn new(data_dir: &Path) -> CreatedDirs {
        CreatedDirs { file: data_dir.join("setup/created-dirs.json") }
    }

    fn load(&self) -> Result<Vec<PathBuf>, String> {
        match std::fs::read_to_string(&self.file) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| {
                format!(
                    "{} is damaged ({e}); delete it (lctx then forgets which directories setup created)",
                    self.file.display()
                )
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(e) => Err(format!("cannot read {}: {e}", self.file.display())),
        }
    }

    fn save(&self, dirs: &[PathBuf]) -> Result<(), String> {
        if dirs.is_empty() {
            return match std::fs::remove_file(&self.file) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    Err(format!("cannot remove {}: {e}", self.file.display()))
                }
                _ => Ok(()),
            };
        }
        let dir = self.file.parent().expect("the list is inside the data directory");
        lean_ctx_common::privacy::create_private_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let text = serde_json::to_string_pretty(dirs).map_err(|e| e.to_string())? + "\n";
        write::write_atomically(&self.file, &text, 0o600).map_err(write::describe)
    }

    /// Records the directories that creating `file` is about to create.
    pub fn record(&self, file: &Path) -> Result<(), String> {
        let missing = write::missing_dirs(file);
        if missing.is_empty() {
            return Ok(());
        }
        let mut dirs = self.load()?;
        for dir in missing {
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
        self.save(&dirs)
    }

    /// Once `file` is gone: removes the recorded directories above it that
    /// are empty, innermost first, and returns them. One that holds other
    /// files stays, and so does every directory above it.
    pub fn remove_empty(&self, file: &Path) -> Result<Vec<PathBuf>, String> {
        let mut dirs = self.load()?;
        let mut removed = Vec::new();
        for dir in file.ancestors().skip(1) {
            let Some(at) = dirs.iter().position(|d| d == dir) else { continue };
            match std::fs::remove_dir(dir) {
                Ok(()) => removed.push(dir.to_path_buf()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(_) => break,
            }
            dirs.remove(at);
        }
        self.save(&dirs)?;
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_recorded_directories_that_are_empty_go() {
        let root = tempfile::tempdir().unwrap();
        let created = CreatedDirs::new(&root.path().join("data"));
        let existing = root.path().join("home");
        std::fs::create_dir(&existing).unwrap();
        let file = existing.join(".config/host/mcp.json");
        created.record(&file).unwrap();
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "{}").unwrap();
        // The host keeps a file of its own beside ours: its directory stays, and the one above it.
        std::fs::write(existing.join(".config/host/state"), "").unwrap();
        std::fs::remove_file(&file).unwrap();
        assert_eq!(created.remove_empty(&file).unwrap(), Vec::<PathBuf>::new());
        std::fs::remove_file(existing.join(".config/host/state")).unwrap();
        assert_eq!(created.remove_empty(&file).unwrap(), [existing.join(".config/host"), existing.join(".config")]);
        assert!(existing.is_dir(), "there before setup");
        assert!(!root.path().join("data/setup/created-dirs.json").exists(), "nothing left to remember");
    }
}
