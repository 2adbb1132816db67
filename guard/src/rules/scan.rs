//! Reading rule files for one discovery: safely (never outside the project,
//! never a FIFO, bounded memory), once each, with notes for what went wrong.

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};

use lean_ctx_common::confined::{OpenError, open_confined};

use super::front_matter::{self, FrontMatter};
use super::{Discovery, RuleFile};

/// The most of a rule file delivered: more would crowd out the file the
/// agent asked for.
pub(crate) const MAX_RULE_BYTES: usize = 64 * 1024;
/// Bytes hashed at most: past this a file is hashed by its first part.
const MAX_HASHED_BYTES: u64 = 16 * 1024 * 1024;
/// Rule files listed at most in one rules directory tree.
const MAX_LISTED: usize = 1000;
/// Directory depth followed at most inside a rules directory.
const MAX_DEPTH: usize = 16;

/// One discovery in progress.
pub(crate) struct Scan {
    root: PathBuf,
    canon_root: PathBuf,
    /// The file, relative to the root.
    pub(crate) rel_file: PathBuf,
    /// The directories from the root (the empty path) down to the file's own,
    /// relative to the root.
    pub(crate) dirs: Vec<PathBuf>,
    pub(crate) include_session_start: bool,
    rules: Vec<RuleFile>,
    notes: Vec<String>,
    /// Canonical paths already read, so a symlink loop or alias reads once.
    seen: HashSet<PathBuf>,
}

/// A rule file read and split: its front matter and trimmed body.
pub(crate) struct RuleText {
    rel: PathBuf,
    pub(crate) front: Option<FrontMatter>,
    body: String,
    hash: [u8; 32],
}

impl RuleText {
    pub(crate) fn is_empty(&self) -> bool {
        self.body.is_empty()
    }
}

impl Scan {
    /// `Err` carries the notes when the root itself cannot be resolved.
    pub(crate) fn new(
        root: &Path,
        rel_file: PathBuf,
        include_session_start: bool,
        mut notes: Vec<String>,
    ) -> Result<Scan, Vec<String>> {
        let canon_root = match fs::canonicalize(root) {
            Ok(canon) => canon,
            Err(e) => {
                notes
                    .push(format!("project root {} cannot be resolved ({e}); no rule files were read", root.display()));
                return Err(notes);
            }
        };
        let mut dirs = vec![PathBuf::new()];
        if let Some(parent) = rel_file.parent() {
            let mut dir = PathBuf::new();
            for component in parent.components() {
                dir.push(component);
                dirs.push(dir.clone());
            }
        }
        Ok(Scan {
            root: root.to_path_buf(),
            canon_root,
            rel_file,
            dirs,
            include_session_start,
            rules: Vec::new(),
            notes,
            seen: HashSet::new(),
        })
    }

    pub(crate) fn finish(self) -> Discovery {
        Discovery { rules: self.rules, notes: self.notes }
    }

    pub(crate) fn note(&mut self, rel: &Path, what: &str) {
        self.notes.push(format!("{}: {what}", shown(rel)));
    }

    /// Reads the instruction file at `rel` (relative to the root) whose
    /// whole text is instructions, such as `CLAUDE.md`: a leading `---` there
    /// is a Markdown rule, not front matter. `None`, silently, when there is
    /// none; `None` with a note when it cannot be used.
    pub(crate) fn read_plain(&mut self, rel: &Path) -> Option<RuleText> {
        self.read(rel, false)
    }

    /// Like [`Scan::read_plain`], for a scoped rule file whose front matter
    /// says when it applies.
    pub(crate) fn read_scoped(&mut self, rel: &Path) -> Option<RuleText> {
        self.read(rel, true)
    }

    fn read(&mut self, rel: &Path, front_matter: bool) -> Option<RuleText> {
        let abs = self.root.join(rel);
        let meta = match fs::symlink_metadata(&abs) {
            Ok(meta) => meta,
            Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => return None,
            Err(e) => {
                self.note(rel, &format!("cannot be inspected ({e}); skipped, check its permissions"));
                return None;
            }
        };
        if meta.is_dir() {
            return None;
        }
        let canon = match fs::canonicalize(&abs) {
            Ok(canon) => canon,
            Err(e) => {
                let what = if meta.file_type().is_symlink() { "is a broken symlink" } else { "cannot be resolved" };
                self.note(rel, &format!("{what} ({e}); skipped, fix or remove it"));
                return None;
            }
        };
        if !canon.starts_with(&self.canon_root) {
            self.note(
                rel,
                &format!("links to {} outside the project; skipped, copy the file into the project", canon.display()),
            );
            return None;
        }
        // Read from a descriptor whose real path is checked again: the file
        // (or a directory above it) swapped for a link out of the project
        // since the check above is not read (`lean_ctx_common::confined`).
        let file = match open_confined(&canon, |real| real.starts_with(&self.canon_root)) {
            Ok((file, _)) => file,
            Err(OpenError::Io(e)) => {
                self.note(rel, &format!("cannot be read ({e}); skipped, check its permissions"));
                return None;
            }
            Err(e) => {
                self.note(rel, &format!("changed while it was read ({e}); skipped this time"));
                return None;
            }
        };
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            self.note(rel, "is not a regular file; skipped");
            return None;
        }
        if !self.seen.insert(canon.clone()) {
            return None;
        }
        let (bytes, total, hash) = match read_capped(file) {
            Ok(read) => read,
            Err(e) => {
                self.note(rel, &format!("cannot be read ({e}); skipped, check its permissions"));
                return None;
            }
        };
        let (text, more) = self.decode(rel, bytes, total);
        let (front, body) = if front_matter {
            let parsed = front_matter::parse(&text);
            for problem in &parsed.problems {
                self.note(rel, &format!("{problem}; fix the front matter"));
            }
            (parsed.front, parsed.body)
        } else {
            (None, text.as_str())
        };
        let mut body = body.trim().to_string();
        if more > 0 {
            body.push_str(&format!("\n[… truncated: {more} more bytes in {}]", shown(rel)));
        }
        Some(RuleText { rel: rel.to_path_buf(), front, body, hash })
    }

    /// The kept bytes as text, cut to [`MAX_RULE_BYTES`] at a line boundary,
    /// and how many bytes of the file were cut.
    fn decode(&mut self, rel: &Path, mut bytes: Vec<u8>, total: u64) -> (String, u64) {
        if total > MAX_RULE_BYTES as u64 {
            bytes.truncate(MAX_RULE_BYTES);
            match bytes.iter().rposition(|&b| b == b'\n') {
                Some(newline) => bytes.truncate(newline + 1),
                None => {
                    // One huge line: cut at a character boundary instead.
                    if let Err(e) = std::str::from_utf8(&bytes)
                        && e.error_len().is_none()
                    {
                        bytes.truncate(e.valid_up_to());
                    }
                }
            }
            self.note(
                rel,
                &format!(
                    "is larger than {} KiB; only its start is delivered, shorten or split it",
                    MAX_RULE_BYTES / 1024
                ),
            );
        }
        let more = total.saturating_sub(bytes.len() as u64);
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                self.note(rel, "is not valid UTF-8; unreadable bytes are shown as �, save it as UTF-8");
                String::from_utf8_lossy(e.as_bytes()).into_owned()
            }
        };
        (text, more)
    }

    /// Delivers `text` for `why`; an empty file has nothing to deliver.
    pub(crate) fn push(&mut self, text: RuleText, why: String) {
        if text.is_empty() {
            return;
        }
        self.rules.push(RuleFile {
            path: self.root.join(&text.rel),
            shown: shown(&text.rel),
            body: text.body,
            hash: text.hash,
            why,
        });
    }

    /// Files under the directory `rel_dir` (relative to the root) whose names
    /// end with `suffix`, at any depth, sorted, relative to the root.
    pub(crate) fn list(&mut self, rel_dir: &Path, suffix: &str) -> Vec<PathBuf> {
        let mut found = Vec::new();
        let mut visited = HashSet::new();
        self.walk(rel_dir, suffix, 0, &mut visited, &mut found);
        if found.len() > MAX_LISTED {
            found.truncate(MAX_LISTED);
            self.note(rel_dir, &format!("holds more than {MAX_LISTED} rule files; only the first are used"));
        }
        found.sort();
        found
    }

    fn walk(
        &mut self,
        rel_dir: &Path,
        suffix: &str,
        depth: usize,
        visited: &mut HashSet<PathBuf>,
        found: &mut Vec<PathBuf>,
    ) {
        let abs = self.root.join(rel_dir);
        // Directories are entered once by their real path: a symlink loop ends here.
        if !fs::canonicalize(&abs).is_ok_and(|canon| visited.insert(canon)) {
            return;
        }
        let entries = match fs::read_dir(&abs) {
            Ok(entries) => entries,
            Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => return,
            Err(e) => {
                self.note(rel_dir, &format!("cannot be listed ({e}); its rules are skipped, check its permissions"));
                return;
            }
        };
        let mut names: Vec<_> = entries.filter_map(|entry| entry.ok().map(|entry| entry.file_name())).collect();
        names.sort();
        for name in names {
            if found.len() > MAX_LISTED {
                return;
            }
            let rel = rel_dir.join(&name);
            // `metadata` follows symlinks: a linked directory is walked (its
            // files are still checked to resolve inside the project).
            if fs::metadata(self.root.join(&rel)).is_ok_and(|m| m.is_dir()) {
                if depth < MAX_DEPTH {
                    self.walk(&rel, suffix, depth + 1, visited, found);
                }
            } else if name.to_string_lossy().ends_with(suffix) {
                found.push(rel);
            }
        }
    }
}

/// A root-relative path for display, `/`-separated.
pub(crate) fn shown(rel: &Path) -> String {
    rel.to_string_lossy().into_owned()
}

/// The first [`MAX_RULE_BYTES`] (plus one, to tell a longer file) of the
/// opened file, its total size (counted up to [`MAX_HASHED_BYTES`]) and the hash of
/// what was read.
fn read_capped(mut file: File) -> std::io::Result<(Vec<u8>, u64, [u8; 32])> {
    let mut hasher = blake3::Hasher::new();
    let mut kept = Vec::new();
    let mut total = 0u64;
    let mut buf = vec![0u8; 64 * 1024];
    while total < MAX_HASHED_BYTES {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hasher.update(&buf[..n]);
        let room = (MAX_RULE_BYTES + 1).saturating_sub(kept.len());
        kept.extend_from_slice(&buf[..n.min(room)]);
        total += n as u64;
    }
    if total >= MAX_HASHED_BYTES {
        // Count the rest without hashing it, for the truncation line.
        total = total.max(file.metadata().map(|m| m.len()).unwrap_or(total));
    }
    Ok((kept, total, *hasher.finalize().as_bytes()))
}
