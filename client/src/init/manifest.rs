//! The record of what `lctx init` changed, so that `lctx uninstall` can put
//! every file back byte for byte, or take lean-ctx's part out of a shared
//! file changed since.
//!
//! It lives in `<data>/init/`: `manifest.json` lists each file init wrote
//! (its path, its mode before, whether it existed) and each directory it
//! created; beside it, `N.before` holds a file's bytes before the first
//! init that touched it and `N.after` the bytes init last wrote, which tell
//! a file the user changed since from one init left as it was. The record is
//! written before the file it describes (journal first), so an init that
//! dies half-way still leaves a manifest that undoes what it did.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::setup::write;
pub use crate::setup::write::describe;

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Manifest {
    pub files: Vec<FileRecord>,
    /// Directories init created, outermost first.
    pub dirs: Vec<PathBuf>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct FileRecord {
    pub path: PathBuf,
    /// Number of this file's `N.before` / `N.after` copies.
    pub id: usize,
    /// The file existed before init (its bytes are in `N.before`).
    pub existed: bool,
    /// Its permission bits before init (or the ones init created it with).
    pub mode: u32,
    /// What init added to a file it shares with the user, so that uninstall
    /// can take out just that when the user (or a host rewriting its own
    /// config) changed the file since. Empty: the file is restored whole.
    /// Manifests written before this field read as empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<Part>,
}

/// A part of a shared file that is lean-ctx's own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Part {
    /// The lean-ctx MCP server entry in this host's config (the host's id).
    McpServer { host: String },
    /// Claude Code's PreToolUse hook running lctx-shell.
    ClaudeHook,
    /// The marked shell integration block of an rc file.
    ShellBlock,
}

/// Where the manifest and its copies are kept.
pub struct Store {
    dir: PathBuf,
}

impl Store {
    pub fn new(data_dir: &Path) -> Store {
        Store { dir: data_dir.join("init") }
    }

    pub fn manifest_file(&self) -> PathBuf {
        self.dir.join("manifest.json")
    }

    /// The manifest, or `None` when init has not run (or was undone).
    pub fn load(&self) -> Result<Option<Manifest>, String> {
        let file = self.manifest_file();
        match std::fs::read_to_string(&file) {
            Ok(text) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| format!("{} is damaged ({e}); nothing was changed", file.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("cannot read {}: {e}", file.display())),
        }
    }

    fn save(&self, manifest: &Manifest) -> Result<(), String> {
        lean_ctx_common::privacy::create_private_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        let text = serde_json::to_string_pretty(manifest).map_err(|e| e.to_string())? + "\n";
        self.write_copy(&self.manifest_file(), &text)
    }

    fn write_copy(&self, path: &Path, text: &str) -> Result<(), String> {
        write::write_atomically(path, text, 0o600).map_err(describe)
    }

    fn copy(&self, id: usize, which: &str) -> PathBuf {
        self.dir.join(format!("{id}.{which}"))
    }

    /// What init last wrote to a recorded file.
    pub fn after(&self, record: &FileRecord) -> Result<String, String> {
        read(&self.copy(record.id, "after")).and_then(|t| t.ok_or_else(|| self.missing(record, "after")))
    }

    /// The file's bytes before the first init, `None` when it did not exist.
    pub fn before(&self, record: &FileRecord) -> Result<Option<String>, String> {
        if !record.existed {
            return Ok(None);
        }
        read(&self.copy(record.id, "before")).and_then(|t| t.ok_or_else(|| self.missing(record, "before")).map(Some))
    }

    fn missing(&self, record: &FileRecord, which: &str) -> String {
        format!(
            "{} is missing from {}: the record of {} is incomplete",
            self.copy(record.id, which).display(),
            self.dir.display(),
            record.path.display()
        )
    }

    /// Records that `file` (now holding `before`, mode `mode`) is about to
    /// hold `after`, with `part` in it when the file is shared, and the
    /// directories about to be created for it. Kept on disk before the
    /// caller touches the file.
    pub fn record(
        &self,
        manifest: &mut Manifest,
        file: &Path,
        before: Option<&str>,
        mode: u32,
        after: &str,
        part: Option<&Part>,
    ) -> Result<(), String> {
        for dir in write::missing_dirs(file) {
            if !manifest.dirs.contains(&dir) {
                manifest.dirs.push(dir);
            }
        }
        let id = match manifest.files.iter().find(|r| r.path == file) {
            // An earlier init's record keeps the bytes from before any init.
            Some(record) => record.id,
            None => {
                let id = manifest.files.iter().map(|r| r.id + 1).max().unwrap_or(0);
                if let Some(before) = before {
                    lean_ctx_common::privacy::create_private_dir_all(&self.dir)
                        .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
                    self.write_copy(&self.copy(id, "before"), before)?;
                }
                let path = file.to_path_buf();
                manifest.files.push(FileRecord { path, id, existed: before.is_some(), mode, parts: Vec::new() });
                id
            }
        };
        let record = manifest.files.iter_mut().find(|r| r.id == id).expect("recorded above");
        if let Some(part) = part.filter(|p| !record.parts.contains(p)) {
            record.parts.push(part.clone());
        }
        lean_ctx_common::privacy::create_private_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        self.write_copy(&self.copy(id, "after"), after)?;
        self.save(manifest)
    }

    /// Forgets everything: after a complete uninstall.
    pub fn remove(&self) -> Result<(), String> {
        match std::fs::remove_dir_all(&self.dir) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(format!("cannot remove {}: {e}", self.dir.display()))
            }
            _ => Ok(()),
        }
    }
}

/// A file's text, `None` when it does not exist.
pub fn read(path: &Path) -> Result<Option<String>, String> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| format!("{} is not UTF-8 text; lctx does not edit it", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_before_is_kept_and_the_last_after_wins() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path());
        let file = dir.path().join("home/new/deeper/f");
        let mut manifest = Manifest::default();
        store.record(&mut manifest, &file, None, 0o600, "one", None).unwrap();
        store.record(&mut manifest, &file, Some("one"), 0o600, "two", Some(&Part::ShellBlock)).unwrap();
        let loaded = store.load().unwrap().unwrap();
        assert_eq!(loaded.files.len(), 1);
        assert!(!loaded.files[0].existed, "the file did not exist before the first init");
        assert_eq!(store.after(&loaded.files[0]).unwrap(), "two");
        assert_eq!(loaded.files[0].parts, [Part::ShellBlock]);
        assert_eq!(store.before(&loaded.files[0]).unwrap(), None);
        assert_eq!(
            loaded.dirs,
            [dir.path().join("home"), dir.path().join("home/new"), dir.path().join("home/new/deeper")]
        );
        store.remove().unwrap();
        assert!(store.load().unwrap().is_none());
    }

    #[test]
    fn a_manifest_from_before_parts_were_recorded_restores_whole() {
        let old = r#"{"files": [{"path": "/h/.bashrc", "id": 0, "existed": true, "mode": 420}], "dirs": []}"#;
        let manifest: Manifest = serde_json::from_str(old).unwrap();
        assert!(manifest.files[0].parts.is_empty());
    }
}
