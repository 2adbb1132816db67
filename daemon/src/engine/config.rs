//! The daemon's live view of `config.toml`: re-read when the file's stamp
//! changes, keeping the last good configuration while the file is broken.
//! The format itself (keys, parsing, `set`) lives in `lean_ctx_common::config`
//! and is re-exported here.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

pub use lean_ctx_common::config::*;

use crate::locks::{self, RwLock};

/// Identity of the file's content as far as the filesystem tells cheaply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
    inode: u64,
}

fn stamp(file: &Path) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::metadata(file).ok()?;
    Some(Stamp { modified: meta.modified().ok(), len: meta.len(), inode: meta.ino() })
}

struct Loaded {
    config: Arc<Config>,
    stamp: Option<Stamp>,
    error: Option<ConfigError>,
    /// The file was broken when the daemon started, so what is served is what its valid
    /// settings say, not a configuration it once read whole.
    salvaged: bool,
}

/// The daemon's view of config.toml, re-read when the file's stamp changes.
pub struct ConfigStore {
    file: PathBuf,
    current: RwLock<Loaded>,
}

impl ConfigStore {
    pub fn open(file: PathBuf) -> ConfigStore {
        let stamp = stamp(&file);
        // No last good configuration to keep: the file's valid settings, the user's deny lists
        // among them, rather than the defaults.
        let (config, error) = load_or_salvage(&file);
        if let Some(e) = &error {
            tracing::warn!("{e}; using the file's other settings until it is fixed");
        }
        let salvaged = error.is_some();
        let loaded = Loaded { config: Arc::new(config), stamp, error, salvaged };
        ConfigStore { file, current: RwLock::new(locks::ids::CONFIG_CURRENT, loaded) }
    }

    pub fn file(&self) -> &Path {
        &self.file
    }

    /// The current configuration. Costs one `stat` when the file is unchanged.
    pub fn get(&self) -> Arc<Config> {
        let now = stamp(&self.file);
        {
            let loaded = self.current.read();
            if loaded.stamp == now {
                return loaded.config.clone();
            }
        }
        // Parse without holding the lock; a concurrent refresh is harmless
        // because both store the same result.
        let result = load(&self.file);
        let mut loaded = self.current.write();
        loaded.stamp = now;
        match result {
            Ok(config) => {
                if loaded.error.is_some() || *loaded.config != config {
                    tracing::info!(file = %self.file.display(), "configuration reloaded");
                }
                loaded.config = Arc::new(config);
                loaded.error = None;
                loaded.salvaged = false;
            }
            Err(e) => {
                tracing::warn!("{e}; keeping the last good configuration");
                loaded.error = Some(e);
            }
        }
        loaded.config.clone()
    }

    /// The problem with the file on disk, if it currently does not parse, and what is served
    /// meanwhile.
    pub fn error(&self) -> Option<(ConfigError, &'static str)> {
        self.get();
        let loaded = self.current.read();
        let serving = match loaded.salvaged {
            true => "serving the file's other settings, each key in error at its default",
            false => "serving the last good configuration",
        };
        loaded.error.clone().map(|e| (e, serving))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_keeps_last_good_config_when_file_breaks() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("config.toml");
        fs::write(&f, "idle_timeout_secs = 7\n").unwrap();
        let store = ConfigStore::open(f.clone());
        assert_eq!(store.get().idle_timeout_secs, 7);
        fs::write(&f, "idle_timeout_secs = [\n").unwrap();
        assert_eq!(store.get().idle_timeout_secs, 7);
        assert_eq!(store.error().unwrap().0.line, Some(1));
        // Same size as the broken text, different content: still noticed
        // because the stamp includes mtime and inode, then fixed.
        let fixed = d.path().join("new.toml");
        fs::write(&fixed, "idle_timeout_secs = 9\n").unwrap();
        fs::rename(&fixed, &f).unwrap();
        assert_eq!(store.get().idle_timeout_secs, 9);
        assert!(store.error().is_none());
    }

    #[test]
    fn a_store_opened_on_a_broken_file_serves_its_valid_settings() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("config.toml");
        fs::write(&f, "shell_deny = [\"git push\"]\nidle_timeout_sec = 600\n").unwrap();
        let store = ConfigStore::open(f);
        assert_eq!(store.get().shell_deny, ["git push"]);
        assert_eq!(store.error().unwrap().1, "serving the file's other settings, each key in error at its default");
    }
}
