//! ctx_edit: exact string replacement, atomic, guarded against concurrent
//! change.
//!
//! Under the file's path lock: load, find the matches (exactly one unless
//! `replace_all`), build the new text, re-hash the file on disk and refuse
//! if it changed since it was loaded (another process wrote it), then write
//! a temporary file beside it with the same permissions, fsync, and rename.
//! The editing session's record of the file follows every edit, applied or
//! failed (see `read/deliveries.rs`).

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Arc;

use lean_ctx_store::EditResult;

use crate::engine::config::Config;
use crate::engine::error::{EngineError, EngineResult};
use crate::engine::project::Scope;
use crate::engine::read::{Slot, load};
use crate::engine::{Caller, Engine};

#[derive(Debug, Default, Clone)]
pub struct EditParams {
    pub path: String,
    pub old_string: String,
    pub new_string: String,
    pub replace_all: bool,
    pub create: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditOutcome {
    pub path: String,
    pub replacements: u32,
    pub tokens_before: u64,
    pub tokens_after: u64,
    pub created: bool,
    pub content_hash: String,
}

/// Line numbers (1-based) where each match of `needle` starts.
fn match_lines(text: &str, needle: &str) -> Vec<usize> {
    text.match_indices(needle).map(|(at, _)| text[..at].matches('\n').count() + 1).collect()
}

impl Engine {
    /// Applies the edit, then keeps the session's record in step: after a
    /// success the session holds what it wrote (whole if it held the file
    /// whole before, else as its diff base); after a failure its next read
    /// of the file sends the content, never a stub. Both go into the
    /// session's record of edits.
    pub fn edit(&self, caller: &Caller<'_>, params: &EditParams) -> EngineResult<EditOutcome> {
        let config = self.config.get();
        let scope = self.scope(caller, &config)?;
        let joined = scope.cwd.join(&params.path);
        if std::fs::symlink_metadata(&joined).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(EngineError::denied(format!(
                "{} is a symlink; edit the file it points to instead",
                params.path
            )));
        }
        let (path, result) = if joined.exists() {
            let path = scope.resolve_existing(&params.path)?;
            let result = self.path_locks.with(&path, || self.replace(caller, &scope, &path, &config, params));
            (path, result)
        } else {
            if !params.create {
                return Err(EngineError::not_found(format!(
                    "no such file: {}; pass create=true (lctx edit --create) to create it",
                    params.path
                )));
            }
            let path = scope.resolve_new(&params.path)?;
            let result = self.path_locks.with(&path, || self.create(caller, &scope, &path, params));
            (path, result)
        };
        let recorded = match &result {
            Ok(_) => EditResult::Applied,
            Err(_) => {
                self.reader.deliveries.edit_failed(caller.session, &path);
                EditResult::Failed
            }
        };
        let project = scope.root.display().to_string();
        self.memory.edited(caller, &project, &scope.display(&path), recorded);
        result
    }

    /// Creates `path` with `new_string`; the caller holds its path lock.
    fn create(
        &self,
        caller: &Caller<'_>,
        scope: &Scope,
        path: &Path,
        params: &EditParams,
    ) -> EngineResult<EditOutcome> {
        if !params.old_string.is_empty() {
            return Err(EngineError::invalid("creating a file: leave old_string empty"));
        }
        if path.exists() {
            return Err(EngineError::precondition(format!("{} was created meanwhile", params.path)));
        }
        write_atomically(path, &params.new_string, 0o644)?;
        let text: Arc<str> = Arc::from(params.new_string.as_str());
        let hash = blake3::hash(text.as_bytes());
        self.reader.deliveries.edited(caller.session, path, None, hash);
        self.reader.cache.put(hash, Slot::Content, text);
        Ok(EditOutcome {
            path: scope.display(path),
            replacements: 0,
            tokens_before: 0,
            tokens_after: self.tokens.count(&params.new_string) as u64,
            created: true,
            content_hash: hash.to_hex().to_string(),
        })
    }

    /// Replaces `old_string` in the existing `path`; the caller holds its
    /// path lock.
    fn replace(
        &self,
        caller: &Caller<'_>,
        scope: &Scope,
        path: &Path,
        config: &Config,
        params: &EditParams,
    ) -> EngineResult<EditOutcome> {
        let shown = scope.display(path);
        if params.old_string.is_empty() {
            return Err(EngineError::invalid(
                "old_string is empty; give the exact text to replace (the file already exists)",
            ));
        }
        let before = load(path, config.max_read_bytes)?;
        let lines = match_lines(&before.text, &params.old_string);
        if lines.is_empty() {
            return Err(EngineError::not_found(format!(
                "old_string was not found in {shown}; read the file again and copy the text exactly \
                 (whitespace included)"
            )));
        }
        if lines.len() > 1 && !params.replace_all {
            let at: Vec<String> = lines.iter().take(10).map(usize::to_string).collect();
            return Err(EngineError::invalid(format!(
                "old_string matches {} times in {shown} (lines {}); include more context to make it unique, \
                 or set replace_all",
                lines.len(),
                at.join(", ")
            )));
        }
        let after = if params.replace_all {
            before.text.replace(&params.old_string, &params.new_string)
        } else {
            before.text.replacen(&params.old_string, &params.new_string, 1)
        };
        // Preimage check: another process may have written the file
        // since it was loaded; never overwrite what we did not read.
        let now = std::fs::read(path).map_err(|e| EngineError::internal(format!("cannot re-read {shown}: {e}")))?;
        if blake3::hash(&now) != before.hash {
            return Err(EngineError::precondition(format!(
                "{shown} changed on disk while the edit was prepared; read it again and retry"
            )));
        }
        let mode = std::fs::metadata(path).map(|m| m.permissions().mode()).unwrap_or(0o644);
        write_atomically(path, &after, mode)?;
        let after_hash = blake3::hash(after.as_bytes());
        let outcome = EditOutcome {
            path: shown,
            replacements: u32::try_from(lines.len()).unwrap_or(u32::MAX),
            tokens_before: self.tokens.count(&before.text) as u64,
            tokens_after: self.tokens.count(&after) as u64,
            created: false,
            content_hash: after_hash.to_hex().to_string(),
        };
        // Both versions stay cached as diff bases: the old one for sessions
        // that had it, the new one for the session that wrote it.
        self.reader.cache.put(before.hash, Slot::Content, before.text.clone());
        self.reader.cache.put(after_hash, Slot::Content, Arc::from(after));
        self.reader.deliveries.edited(caller.session, path, Some(before.hash), after_hash);
        Ok(outcome)
    }
}

/// Writes `text` to a temporary file beside `path`, then renames it over
/// `path`: readers see the old or the new file, never a mix.
fn write_atomically(path: &Path, text: &str, mode: u32) -> EngineResult<()> {
    let dir = path.parent().unwrap_or(Path::new("/"));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.lctx-{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.set_permissions(std::fs::Permissions::from_mode(mode))?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        EngineError::internal(format!("cannot write {}: {e}", path.display()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_lines_are_one_based() {
        assert_eq!(match_lines("a x\nb\nx c\n", "x"), vec![1, 3]);
        assert!(match_lines("abc", "z").is_empty());
    }
}
