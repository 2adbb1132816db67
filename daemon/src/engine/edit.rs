//! ctx_edit: exact string replacement, atomic, guarded against concurrent
//! change.
//!
//! Under the file's path lock: load, find the matches (exactly one unless
//! `replace_all`), build the new text, re-hash the file on disk and refuse
//! if it changed since it was loaded (another process wrote it), then write
//! a temporary file beside it with the same permissions, fsync, and rename.
//! The editing session's record of the file follows every edit, applied or
//! failed (see `read/deliveries.rs`).

use std::borrow::Cow;
use std::io::Write;
use std::ops::Range;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Arc;

use lean_ctx_store::EditResult;

use crate::engine::cancel::{Cancel, Stop, WORK_DEADLINE};
use crate::engine::config::Config;
use crate::engine::error::{EngineError, EngineResult, ErrorKind};
use crate::engine::guard;
use crate::engine::project::Scope;
use crate::engine::read::{Slot, load};
use crate::engine::session::SessionIn;
use crate::engine::surface::Surface;
use crate::engine::{Caller, Engine};

#[derive(Debug, Default, Clone)]
pub struct EditParams {
    pub path: String,
    pub old_string: String,
    pub new_string: String,
    pub replace_all: bool,
    pub create: bool,
    /// Replace these whole lines (1-based, inclusive) instead of old_string:
    /// how a line holding a secret the agent saw masked is still edited.
    pub lines: Option<(u32, u32)>,
    /// Flipped when the caller leaves: the edit stops before its next step
    /// and is not applied unless it was already written.
    pub cancel: Cancel,
    /// Who reads the refusals: they name the parameters as that reader
    /// passes them (`old_string`, `--old`).
    pub surface: Surface,
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

/// Match lines listed when `old_string` is not unique; the search stops
/// after one more, so a needle matching everywhere costs no more than this.
const LISTED_MATCHES: usize = 10;

/// Where `needle` first occurs in `text` outside the `hidden` spans, found in
/// one left-to-right pass that stops after `limit` matches.
#[derive(Debug, PartialEq, Eq)]
struct Matches {
    /// Byte offsets of the first `limit` matches at most.
    starts: Vec<usize>,
    /// Whether more matches follow the ones in `starts`.
    more: bool,
}

fn find(text: &str, needle: &str, limit: usize, hidden: &[Range<usize>]) -> Matches {
    let mut all = visible_matches(text, needle, hidden);
    let starts: Vec<usize> = all.by_ref().take(limit).collect();
    let more = all.next().is_some();
    Matches { starts, more }
}

/// Byte offsets of the matches of `needle` (not empty) in `text`, left to right, overlapping
/// neither one another nor any `hidden` span: the secrets the agent was shown as `[REDACTED:kind]`.
/// Text over a secret is no text the agent saw, so it matches nothing there, and an old_string
/// spelling out part of a secret gets the answer of any text not in the file: were it found, the
/// answer would tell a right guess at the secret from a wrong one.
fn visible_matches<'t>(text: &'t str, needle: &'t str, hidden: &'t [Range<usize>]) -> impl Iterator<Item = usize> + 't {
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(offset) = text[from..].find(needle) {
            let (at, end) = (from + offset, from + offset + needle.len());
            if hidden.iter().any(|span| span.start < end && at < span.end) {
                // The next match may start inside this one, past the secret.
                from = at + text[at..].chars().next().map_or(1, char::len_utf8);
                continue;
            }
            from = end;
            return Some(at);
        }
        None
    })
}

/// Line numbers (1-based) of ascending byte offsets, counting each newline
/// once however many offsets there are.
fn lines_of(text: &str, starts: &[usize]) -> Vec<usize> {
    let (mut line, mut from) = (1, 0);
    starts
        .iter()
        .map(|&at| {
            line += text.as_bytes()[from..at].iter().filter(|&&b| b == b'\n').count();
            from = at;
            line
        })
        .collect()
}

/// `text` with every match of `needle` outside the `hidden` spans replaced, and how many there
/// were: one pass, the result built once.
fn replace_every(text: &str, needle: &str, with: &str, hidden: &[Range<usize>]) -> (String, usize) {
    let (mut out, mut from, mut count) = (String::with_capacity(text.len()), 0, 0);
    for at in visible_matches(text, needle, hidden) {
        out.push_str(&text[from..at]);
        out.push_str(with);
        from = at + needle.len();
        count += 1;
    }
    out.push_str(&text[from..]);
    (out, count)
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
        // Found where reads find it (cwd, else the root), so a path another answer printed
        // edits the file that answer meant.
        let located = scope.locate(&params.path)?;
        if located.as_ref().is_some_and(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())) {
            return Err(EngineError::denied(format!(
                "{} is a symlink; edit the file it points to instead",
                params.path
            )));
        }
        let existing = located.is_some();
        let path = if existing {
            scope.resolve_existing(&params.path)?
        } else if params.create {
            scope.resolve_new(&params.path)?
        } else {
            return Err(EngineError::not_found(format!(
                "{}; pass {} to create it",
                scope.missing(&params.path),
                params.surface.create()
            )));
        };
        scope.check_writable(&path, &params.path)?;
        refuse_git_dir(&path, &params.path, &config)?;
        let permissions = &self.permission_rules(&scope, &config).permissions;
        guard::permissions::enforce(permissions.check_edit(&path), "ctx_edit")?;
        if existing {
            refuse_unreadable(permissions.check_read(&path))?;
        }
        if lean_ctx_redact::contains_marker(&params.old_string) {
            let surface = params.surface;
            return Err(EngineError::invalid(format!(
                "{} contains a [REDACTED:…] marker: {} holds a secret there that you were never shown, so it \
                 cannot be matched; replace the whole lines by number instead ({})",
                surface.old_text(),
                params.path,
                surface.edit_lines()
            )));
        }
        let stop = Stop::new(&params.cancel, WORK_DEADLINE, &self.stopped);
        let result = self.path_locks.with(&path, || {
            let _other_processes = lock_directory(&path);
            stop.check(&format!("{} was not edited", params.path))?;
            if existing {
                self.replace(caller, &scope, &path, &config, params, &stop)
            } else {
                self.create(caller, &scope, &path, &config, params)
            }
        });
        let recorded = match &result {
            Ok(_) => EditResult::Applied,
            Err(_) => {
                self.reader.deliveries.edit_failed(SessionIn { project: &scope.root, id: caller.session }, &path);
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
        config: &Config,
        params: &EditParams,
    ) -> EngineResult<EditOutcome> {
        if !params.old_string.is_empty() {
            return Err(EngineError::invalid(format!("creating a file: leave {} empty", params.surface.old_text())));
        }
        // A new file holds no secret a marker could stand for.
        let new = self.restored(config, "", params, &params.path)?;
        readable_after(&new, config, &params.path)?;
        let still_absent = || match path.exists() {
            false => Ok(()),
            true => Err(EngineError::precondition(format!("{} was created meanwhile", params.path))),
        };
        write_atomically(path, &new, 0o644, &still_absent)?;
        let text: Arc<str> = Arc::from(&*new);
        let hash = blake3::hash(text.as_bytes());
        self.reader.deliveries.edited(SessionIn { project: &scope.root, id: caller.session }, path, None, hash);
        self.reader.cache.put(hash, Slot::Content, text);
        Ok(EditOutcome {
            path: scope.display(path),
            replacements: 0,
            tokens_before: 0,
            tokens_after: self.tokens.count(&new) as u64,
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
        stop: &Stop<'_>,
    ) -> EngineResult<EditOutcome> {
        let shown = scope.display(path);
        let old_text = params.surface.old_text();
        if params.lines.is_some() && !params.old_string.is_empty() {
            return Err(EngineError::invalid(format!("give {old_text} or a line range, not both")));
        }
        // The content is read from a descriptor checked to be inside what
        // may be edited: a symlink swapped in since the path was resolved
        // does not bring another file's text into this one.
        let opened = scope.open_resolved(path, &shown)?;
        scope.check_writable(&opened.real, &shown)?;
        let before = load(opened.file, path, config.max_read_bytes)?;
        // An empty file has no text to name and no line to number: an empty old text fills it,
        // overwriting nothing (`touch __init__.py` left no way in but the shell).
        let fills_empty = params.old_string.is_empty() && params.lines.is_none() && before.text.is_empty();
        if params.old_string.is_empty() && params.lines.is_none() && !fills_empty {
            let surface = params.surface;
            // Creating never overwrites: a file's content is replaced only through text or lines the
            // agent names, which the preimage check holds to what it saw.
            let why = match params.create {
                true => format!("{shown} already exists, and {} never overwrites a file", surface.create()),
                false => format!("{old_text} is empty"),
            };
            return Err(EngineError::invalid(format!(
                "{why}: to change it, give the exact text to replace as {old_text} and its replacement as {}, or \
                 replace whole lines by number ({})",
                surface.new_text(),
                surface.edit_lines()
            )));
        }
        // A range that is wrong in itself is said first: reading the file again would not mend it.
        let line_span = match params.lines {
            Some((start, end)) => Some(line_range(&before.text, start, end, &shown, params.surface)?),
            None => None,
        };
        if let Some((start, end)) = params.lines {
            let session = SessionIn { project: &scope.root, id: caller.session };
            self.refuse_moved_lines(session, path, before.hash, (start, end), &shown, params.surface)?;
        }
        let not_applied = format!("{shown} was not edited");
        stop.check(&not_applied)?;
        // In a file whose every line ends in CRLF, the agent's LF line breaks mean the file's own, as
        // in an editor: the text it replaces is matched, and what it writes is written, with CRLF.
        let crlf = ends_lines_with_crlf(&before.text);
        let (after, replacements) = if fills_empty {
            (self.restored(config, "", params, &shown)?.into_owned(), 1)
        } else if let (Some((start, end)), Some(lines)) = (params.lines, line_span) {
            self.refuse_cut_secret(config, &before.text, (start, end), &shown)?;
            let new = in_line_breaks(self.restored(config, &before.text[lines.clone()], params, &shown)?, crlf);
            (replace_lines(&before.text, lines, &new), 1)
        } else {
            let old = in_line_breaks(Cow::Borrowed(&params.old_string), crlf);
            let new = in_line_breaks(self.restored(config, &old, params, &shown)?, crlf);
            // Matched against the file as the agent sees it: never over a secret it saw masked.
            let secrets = self.guard.redaction.secret_spans(config, &before.text);
            if params.replace_all {
                replace_every(&before.text, &old, &new, &secrets)
            } else {
                let found = find(&before.text, &old, LISTED_MATCHES, &secrets);
                match found.starts[..] {
                    [] => (String::new(), 0),
                    [at] => {
                        let end = at + old.len();
                        ([&before.text[..at], &new, &before.text[end..]].concat(), 1)
                    }
                    _ => return Err(not_unique(&before.text, &found, &shown, params.surface)),
                }
            }
        };
        if replacements == 0 {
            let surface = params.surface;
            return Err(mixed_line_ends(&before.text, &params.old_string, &shown, surface)
                .unwrap_or_else(|| not_found(&shown, surface)));
        }
        if after == *before.text {
            return Err(EngineError::invalid(format!(
                "{shown} was not edited: the new text is the text it replaces, so there is nothing to change"
            )));
        }
        readable_after(&after, config, &shown)?;
        // Counted before the write (once written, the edit is recorded
        // whatever happens to its caller), each count of a large file a step.
        stop.check(&not_applied)?;
        let tokens_before = self.tokens.count(&before.text) as u64;
        stop.check(&not_applied)?;
        let tokens_after = self.tokens.count(&after) as u64;
        stop.check(&not_applied)?;
        // Preimage check: another process may have written the file since it was loaded; never
        // overwrite what we did not read. Made again last thing before the write lands (a QA
        // pass's appends every 30 ms were lost in the time the new file took to write and sync).
        let unchanged = || {
            let now = std::fs::read(path).map_err(|e| EngineError::internal(format!("cannot re-read {shown}: {e}")))?;
            match blake3::hash(&now) == before.hash {
                true => Ok(()),
                false => Err(EngineError::precondition(format!(
                    "{shown} changed on disk while the edit was prepared; it was not edited: read it again and retry"
                ))),
            }
        };
        unchanged()?;
        let meta = std::fs::metadata(path).ok();
        let mode = meta.as_ref().map_or(0o644, |m| m.permissions().mode());
        match meta.is_some_and(|m| std::os::unix::fs::MetadataExt::nlink(&m) > 1) {
            // A file with other hard links is written in place, as editors do: a rename would give
            // this name a new file and leave the other names on the old content.
            true => write_in_place(path, &after)?,
            false => write_atomically(path, &after, mode, &unchanged)?,
        }
        let after_hash = blake3::hash(after.as_bytes());
        let outcome = EditOutcome {
            path: shown,
            replacements: u32::try_from(replacements).unwrap_or(u32::MAX),
            tokens_before,
            tokens_after,
            created: false,
            content_hash: after_hash.to_hex().to_string(),
        };
        // Both versions stay cached as diff bases: the old one for sessions
        // that had it, the new one for the session that wrote it.
        self.reader.cache.put(before.hash, Slot::Content, before.text.clone());
        self.reader.cache.put(after_hash, Slot::Content, Arc::from(after));
        let session = SessionIn { project: &scope.root, id: caller.session };
        self.reader.deliveries.edited(session, path, Some(before.hash), after_hash);
        Ok(outcome)
    }
}

impl Engine {
    /// Refuses an edit by line numbers of a file that changed since the session last saw it in
    /// any view (a range, an outline, the whole) or wrote it: the numbers are those of the version
    /// it saw, and lines inserted above since would put the edit on other lines, silently (a
    /// formatter, a pull, another agent). A session that never read the file (it saw the numbers
    /// in a search) is not refused: there is no version to hold them to.
    fn refuse_moved_lines(
        &self,
        session: SessionIn<'_>,
        path: &Path,
        now: blake3::Hash,
        (start, end): (u32, u32),
        shown: &str,
        surface: Surface,
    ) -> EngineResult<()> {
        match self.reader.deliveries.seen(session, path) {
            Some(seen) if seen != now => Err(EngineError::precondition(format!(
                "{shown} was not edited: it changed since this session last read or wrote it, so lines {start}-{end} \
                 may not be the lines you mean; read it again ({} shows what changed) and give the numbers from that",
                surface.mode("diff")
            ))),
            _ => Ok(()),
        }
    }

    /// The edit's new text with each redaction marker given back the secret it stands for in
    /// `replaced` (see `Redaction::restore`); refused when a secret there would be lost under a
    /// marker moved onto a changed line.
    fn restored<'p>(
        &self,
        config: &Config,
        replaced: &str,
        params: &'p EditParams,
        shown: &str,
    ) -> EngineResult<Cow<'p, str>> {
        self.guard.redaction.restore(config, replaced, &params.new_string).map_err(|marker| {
            let surface = params.surface;
            EngineError::invalid(format!(
                "{} puts {marker} where it cannot be told which secret of the replaced text it stands for (its \
                 line up to it, or the line above, no longer reads as it did; or it is another kind's marker, or \
                 spelled otherwise): {shown} would lose a secret or move it. Keep each marker as it was shown, \
                 with the text before it on its line and the line above (indentation may change), or write the \
                 real value",
                surface.new_text()
            ))
        })
    }

    /// Refuses replacing lines that hold part of a secret spanning lines: its view shows the
    /// marker on its first line and the rest blank (`Redaction::mask_lines`), so those blank lines
    /// are the secret's, and replacing some of them would break it.
    fn refuse_cut_secret(
        &self,
        config: &Config,
        text: &str,
        (start, end): (u32, u32),
        shown: &str,
    ) -> EngineResult<()> {
        let secrets = self.guard.redaction.secret_lines(config, text);
        let cut = secrets.iter().find(|span| {
            let overlaps = *span.start() <= end && start <= *span.end();
            overlaps && !(start <= *span.start() && *span.end() <= end)
        });
        let lines = |from: u32, to: u32| if from == to { format!("line {from}") } else { format!("lines {from}-{to}") };
        match cut {
            Some(span) => {
                let secret = lines(*span.start(), *span.end());
                Err(EngineError::invalid(format!(
                    "{shown} was not edited: {} {} part of a secret on {secret} (shown as its [REDACTED:kind] marker \
                     and blank lines); replace all of {secret} or none of them",
                    lines(start, end),
                    if start == end { "holds" } else { "hold" },
                )))
            }
            None => Ok(()),
        }
    }
}

/// Refuses a write whose result ctx_read and ctx_edit would refuse next (over `max_read_bytes`):
/// the agent could not see or correct what it wrote.
fn readable_after(text: &str, config: &Config, shown: &str) -> EngineResult<()> {
    if text.len() as u64 <= config.max_read_bytes {
        return Ok(());
    }
    Err(EngineError::new(
        ErrorKind::ResourceExhausted,
        format!(
            "{shown} was not written: it would be {} bytes, over the {}-byte read limit, so it could not be read \
             or edited again here; write it in smaller files, or raise the limit with `lctx config set \
             max_read_bytes N`",
            text.len(),
            config.max_read_bytes
        ),
    ))
}

/// The bytes of lines `start..=end` (1-based) of `text`, line breaks included. A byte-order mark
/// is no part of the first line: it marks the file's encoding, and replacing line 1 keeps it.
fn line_range(text: &str, start: u32, end: u32, shown: &str, surface: Surface) -> EngineResult<std::ops::Range<usize>> {
    if end < start {
        return Err(EngineError::invalid(surface.reversed_lines(start, end)));
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let (first, last) = (start as usize, end as usize);
    if first == 0 || last > lines.len() {
        let problem = if first == 0 { "line numbers start at 1" } else { "the range runs past the end" };
        let length = lean_ctx_common::plural::count(lines.len() as u64, "line");
        return Err(EngineError::invalid(format!(
            "lines {start}-{end} are not within {shown}, which has {length} ({problem})"
        )));
    }
    let begin: usize = lines[..first - 1].iter().map(|line| line.len()).sum();
    let bom = if first == 1 && text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    Ok(begin + bom..begin + lines[first - 1..last].iter().map(|line| line.len()).sum::<usize>())
}

/// Whether `text` has line breaks and every one is CRLF.
fn ends_lines_with_crlf(text: &str) -> bool {
    let breaks = memchr::memchr_iter(b'\n', text.as_bytes());
    let mut any = false;
    for at in breaks {
        if at == 0 || text.as_bytes()[at - 1] != b'\r' {
            return false;
        }
        any = true;
    }
    any
}

/// `text` with each bare LF made CRLF when `crlf`; unchanged otherwise.
fn in_line_breaks(text: Cow<'_, str>, crlf: bool) -> Cow<'_, str> {
    if !crlf || !text.contains('\n') {
        return text;
    }
    Cow::Owned(text.replace("\r\n", "\n").replace('\n', "\r\n"))
}

/// `text` with its whole lines `range` (see [`line_range`]) replaced by `with`. The replaced
/// lines' final line break stays when `with` does not end in one, so replacing one line by one
/// line keeps the file's line structure.
fn replace_lines(text: &str, range: std::ops::Range<usize>, with: &str) -> String {
    let replaced = &text[range.clone()];
    let keeps_break = !with.is_empty() && !with.ends_with('\n');
    let line_break = match replaced {
        _ if !keeps_break => "",
        _ if replaced.ends_with("\r\n") => "\r\n",
        _ if replaced.ends_with('\n') => "\n",
        _ => "",
    };
    [&text[..range.start], with, line_break, &text[range.end..]].concat()
}

/// Refuses writes inside a `.git` directory (or to a worktree's `.git`
/// file): a hook or `core.fsmonitor` there runs code at the next git
/// command, so an agent's edit must not reach it unless configured.
fn refuse_git_dir(path: &Path, shown: &str, config: &Config) -> EngineResult<()> {
    if config.git_dir_edits == "allow" || !path.components().any(|c| c.as_os_str() == ".git") {
        return Ok(());
    }
    Err(EngineError::denied(format!(
        "{shown} is inside .git, where hooks and config run code at the next git command; edits there are \
         refused. To allow them: lctx config set git_dir_edits allow"
    )))
}

/// Refuses editing an existing file the user's Read rules deny or ask about: every answer of an
/// edit (found, not found, where, how many tokens) tells what the file holds, and the host's own
/// Edit tool edits only a file read first. Creating a file is not refused: it holds nothing yet.
fn refuse_unreadable(read: lean_ctx_guard::permissions::Verdict) -> EngineResult<()> {
    guard::permissions::enforce(read, "ctx_edit").map_err(|mut refused| {
        refused
            .message
            .push_str(" (editing a file needs the Read permission too: an edit's answer tells what the file holds)");
        refused
    })
}

fn not_found(shown: &str, surface: Surface) -> EngineError {
    EngineError::not_found(format!(
        "{} was not found in {shown}; read the file again and copy the text exactly (whitespace included)",
        surface.old_text()
    ))
}

/// What a text not found in a file whose lines end in CRLF and LF alike adds, when it is there
/// but for line ends: the agent sees no `\r`, and only a file whose every line ends in CRLF
/// takes its LF for the file's own (QA).
fn mixed_line_ends(text: &str, old: &str, shown: &str, surface: Surface) -> Option<EngineError> {
    if !old.contains('\n') || !text.contains("\r\n") {
        return None;
    }
    let unified = text.replace("\r\n", "\n");
    let at = unified.find(&old.replace("\r\n", "\n"))?;
    let line = unified[..at].matches('\n').count() + 1;
    Some(EngineError::not_found(format!(
        "{} was not found in {shown} as written: it is there from line {line} but for its line ends ({shown} ends \
         some lines in CRLF, some in LF); replace those lines by number ({}), or write each CRLF line break as \
         \\r\\n",
        surface.old_text(),
        surface.edit_lines()
    )))
}

/// The refusal of a non-unique `old_string`, naming where it matches.
fn not_unique(text: &str, found: &Matches, shown: &str, surface: Surface) -> EngineError {
    let lines = line_list(&lines_of(text, &found.starts));
    let (times, at) = if found.more {
        (format!("more than {} times", found.starts.len()), "first at lines")
    } else {
        (format!("{} times", found.starts.len()), "lines")
    };
    EngineError::invalid(format!(
        "{} matches {times} in {shown} ({at} {}); include more context to make it unique, or set {}",
        surface.old_text(),
        lines,
        surface.replace_all()
    ))
}

/// `4, 35 (×2), 36`: the lines of the matches, a line holding several named once with its count.
fn line_list(lines: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &line in lines {
        match runs.last_mut() {
            Some((last, count)) if *last == line => *count += 1,
            _ => runs.push((line, 1)),
        }
    }
    let shown: Vec<String> = runs
        .into_iter()
        .map(|(line, count)| if count == 1 { line.to_string() } else { format!("{line} (×{count})") })
        .collect();
    shown.join(", ")
}

/// An exclusive lock (flock) on `path`'s directory, held while an edit reads, checks and writes
/// the file, so that the edits of lean-ctxd processes — a fallback engine beside the daemon, two
/// fallbacks — take turns: each one's preimage check then sees the other's write (a QA pass had
/// a third of two processes' concurrent edits reported applied and lost). The directory, not the
/// file, as a rename gives the file a new inode; no lock file is left behind. Where the directory
/// cannot be locked (a file system without flock), or something else holds it past
/// [`DIRECTORY_LOCK_WAIT`] (`flock DIR cmd` serializing a user's scripts: a QA pass's edit waited
/// out the 60 s deadline), the edit goes ahead on the preimage check alone: another lean-ctxd
/// process holds it for the milliseconds an edit takes.
fn lock_directory(path: &Path) -> Option<std::fs::File> {
    let dir = std::fs::File::open(path.parent()?).ok()?;
    let deadline = std::time::Instant::now() + DIRECTORY_LOCK_WAIT;
    loop {
        match dir.try_lock() {
            Ok(()) => return Some(dir),
            Err(std::fs::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            Err(_) => return None,
        }
    }
}

/// How long an edit waits for its file's directory lock (see [`lock_directory`]).
const DIRECTORY_LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Writes `text` to a temporary file beside `path`, then renames it over
/// `path` if `ready` still agrees once the new file is on disk: readers see
/// the old or the new file, never a mix.
fn write_atomically(path: &Path, text: &str, mode: u32, ready: &dyn Fn() -> EngineResult<()>) -> EngineResult<()> {
    let dir = path.parent().unwrap_or(Path::new("/"));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.lctx-{}.tmp", std::process::id()));
    let written = (|| {
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.set_permissions(std::fs::Permissions::from_mode(mode))?;
        f.sync_all()
    })();
    let result = written
        .map_err(|e| EngineError::internal(format!("cannot write {}: {e}", path.display())))
        .and_then(|()| ready())
        .and_then(|()| {
            std::fs::rename(&tmp, path)
                .map_err(|e| EngineError::internal(format!("cannot write {}: {e}", path.display())))
        });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes `text` over the file at `path` itself (truncated, then written): the same file, every
/// hard link of it seeing the change. Not atomic, as an editor's save of such a file is not.
fn write_in_place(path: &Path, text: &str) -> EngineResult<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let result = (|| {
        let mut f = std::fs::OpenOptions::new().write(true).truncate(true).custom_flags(libc::O_NOFOLLOW).open(path)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()
    })();
    result.map_err(|e| EngineError::internal(format!("cannot write {}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A second QA pass: `flock DIR sleep 150` held an edit of a file in DIR past its deadline.
    #[test]
    fn a_directory_locked_by_something_else_is_waited_for_a_moment_only() {
        let dir = tempfile::tempdir().unwrap();
        let held = std::fs::File::open(dir.path()).unwrap();
        held.lock().unwrap();
        let started = std::time::Instant::now();
        assert!(lock_directory(&dir.path().join("f.txt")).is_none(), "held elsewhere: not taken");
        let waited = started.elapsed();
        assert!(waited >= DIRECTORY_LOCK_WAIT && waited < DIRECTORY_LOCK_WAIT * 5, "{waited:?}");
        held.unlock().unwrap();
        assert!(lock_directory(&dir.path().join("f.txt")).is_some());
    }

    /// A QA pass lost lines another process appended while an edit's new file was written and
    /// synced: the check that the file is as read is made again just before the rename.
    #[test]
    fn a_write_that_lands_while_the_new_file_is_written_is_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        std::fs::write(&path, "old\n").unwrap();
        let appended_meanwhile = || {
            std::fs::write(&path, "old\nappended\n").unwrap();
            match std::fs::read_to_string(&path).unwrap() == "old\n" {
                true => Ok(()),
                false => Err(EngineError::precondition("changed".to_string())),
            }
        };
        let e = write_atomically(&path, "new\n", 0o644, &appended_meanwhile).unwrap_err();
        assert_eq!(e.kind, ErrorKind::FailedPrecondition);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\nappended\n", "the other write is kept");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, ["f.txt"], "no temporary file left behind");
        write_atomically(&path, "new\n", 0o644, &|| Ok(())).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
    }

    #[test]
    fn a_line_holding_several_matches_is_named_once_with_its_count() {
        assert_eq!(line_list(&[4, 5, 35, 35, 36, 36, 36, 65]), "4, 5, 35 (×2), 36 (×3), 65");
        assert_eq!(line_list(&[1, 2]), "1, 2");
    }

    /// What an edit of lines `start..=end` writes.
    fn replace_by_number(text: &str, start: u32, end: u32, with: &str) -> EngineResult<String> {
        Ok(replace_lines(text, line_range(text, start, end, "f", Surface::Mcp)?, with))
    }

    #[test]
    fn whole_lines_are_replaced_by_number() {
        let text = "a\nKEY=[REDACTED:x]\nc\n";
        assert_eq!(replace_by_number(text, 2, 2, "KEY=new").unwrap(), "a\nKEY=new\nc\n");
        assert_eq!(replace_by_number(text, 1, 3, "").unwrap(), "");
        assert_eq!(replace_by_number("a\nb", 2, 2, "z").unwrap(), "a\nz");
        assert_eq!(replace_by_number(text, 1, 1, "x\ny\n").unwrap(), "x\ny\nKEY=[REDACTED:x]\nc\n");
        for (start, end, problem) in [(0, 1, "start at 1"), (3, 4, "past the end")] {
            let message = replace_by_number(text, start, end, "").unwrap_err().message;
            assert!(message.contains("3 lines") && message.contains(problem), "{message}");
        }
        // A reversed range is refused as reversed, not as lying outside the file.
        let message = replace_by_number(text, 3, 2, "").unwrap_err().message;
        assert_eq!(message, "start_line 3 is after end_line 2: the range is reversed (lines are 1-based, inclusive)");
        // A file's line breaks and its byte-order mark stay.
        assert_eq!(replace_by_number("a\r\nb\r\n", 1, 1, "x").unwrap(), "x\r\nb\r\n");
        assert_eq!(replace_by_number("\u{feff}hello\nworld\n", 1, 1, "HELLO").unwrap(), "\u{feff}HELLO\nworld\n");
        assert_eq!(replace_by_number("a\n\nc\n", 1, 2, "x").unwrap(), "x\nc\n");
    }

    #[test]
    fn lf_means_the_file_s_crlf_only_in_a_crlf_file() {
        assert!(ends_lines_with_crlf("a\r\nb\r\n") && ends_lines_with_crlf("a\r\nb"));
        assert!(!ends_lines_with_crlf("a\r\nb\n") && !ends_lines_with_crlf("a\nb\n") && !ends_lines_with_crlf("ab"));
        assert_eq!(in_line_breaks(Cow::Borrowed("x\ny\r\nz"), true), "x\r\ny\r\nz");
        assert_eq!(in_line_breaks(Cow::Borrowed("x\ny"), false), "x\ny");
    }

    #[test]
    fn match_lines_are_one_based() {
        let text = "a x\nb\nx c\n";
        assert_eq!(lines_of(text, &find(text, "x", 10, &[]).starts), vec![1, 3]);
        assert_eq!(find("abc", "z", 10, &[]), Matches { starts: vec![], more: false });
    }

    #[test]
    fn the_search_stops_after_its_limit() {
        let text = "x".repeat(1_000);
        assert_eq!(find(&text, "x", 2, &[]), Matches { starts: vec![0, 1], more: true });
        assert_eq!(find("x x", "x", 2, &[]), Matches { starts: vec![0, 2], more: false });
        assert_eq!(find("xx", "xx", 2, &[]), Matches { starts: vec![0], more: false });
    }

    #[test]
    fn replacing_every_match_counts_them() {
        assert_eq!(replace_every("a-b-c", "-", "+=", &[]), ("a+=b+=c".to_string(), 2));
        assert_eq!(replace_every("aaa", "aa", "b", &[]), ("ba".to_string(), 1));
        assert_eq!(replace_every("abc", "z", "y", &[]), ("abc".to_string(), 0));
    }

    #[test]
    fn no_match_touches_a_hidden_span() {
        // `pw=` then a secret at bytes 3..7, then the same letters in the open.
        let (text, secret): (&str, &[Range<usize>]) = ("pw=Zq8v Zq8v", &[Range { start: 3, end: 7 }]);
        assert_eq!(find(text, "Zq8", 10, secret), Matches { starts: vec![8], more: false });
        assert_eq!(find(text, "pw=Z", 10, secret), Matches { starts: vec![], more: false });
        assert_eq!(find(text, "pw=", 10, secret), Matches { starts: vec![0], more: false });
        assert_eq!(replace_every(text, "Zq8v", "X", secret), ("pw=Zq8v X".to_string(), 1));
        // A match skipped for a secret does not hide one starting inside it, past the secret.
        assert_eq!(find("aaa", "aa", 10, &[Range { start: 0, end: 1 }]), Matches { starts: vec![1], more: false });
    }
}
