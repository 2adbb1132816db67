//! Where a command's output goes as it arrives, so that memory stays bounded whatever its size.
//!
//! An output up to [`WHOLE_LIMIT`] is kept whole and shaped exactly as it always was. Past that it
//! is *spilled*: redacted in chunks that end at a line (never inside a private-key block), each
//! chunk streamed into the archive — which keeps what the agent could see, as for any output —
//! while memory keeps only what shaping needs: the first and last lines, and the lines of the
//! middle that compression may owe the agent (errors, failures, `file:line`, warnings; see
//! `lean_ctx_shell_compress::importance`), up to a bound that warnings do not take from errors. The shaped
//! answer says that the middle was archived but not shaped, and the archive has all of it.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;

use lean_ctx_shell_compress::Importance;
use lean_ctx_store::{ArchiveWriter, WrittenBlob};

use crate::engine::{char_boundary, tokens};

/// Outputs up to this size are kept whole and shaped as before.
pub const WHOLE_LIMIT: usize = 4 << 20;
/// Redaction and archiving work on chunks of about this size.
const CHUNK: usize = 1 << 20;
/// A chunk waits at most this long for the end of a private-key block before it is cut anyway.
const MAX_PENDING: usize = 4 * CHUNK;
/// Bytes of a spilled output's beginning and end given to shaping.
const HEAD: usize = 512 << 10;
const TAIL: usize = 512 << 10;
/// Of each chunk, the tokens of about this many first bytes are counted and
/// scaled to the chunk: counting all of a huge output would cost more than
/// everything else spilling does.
const TOKEN_SAMPLE: usize = 32 << 10;
/// Lines of a spilled output's middle kept for shaping, and how long each may be.
const KEPT_LINES: usize = 2_000;
const KEPT_LINE_BYTES: usize = 512;

/// Masks secrets in a text; returns the text and how many were masked.
pub type Redact<'a> = Box<dyn Fn(String) -> (String, u32) + Send + 'a>;

/// A command's output once it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// All of it, as the command wrote it.
    Whole(Vec<u8>),
    /// Too large to keep: what shaping needs, and the archived original.
    Spilled(Arc<Spilled>),
}

impl Output {
    /// Bytes the command wrote.
    pub fn len(&self) -> usize {
        match self {
            Output::Whole(bytes) => bytes.len(),
            Output::Spilled(spilled) => usize::try_from(spilled.bytes).unwrap_or(usize::MAX),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What is kept of an output too large to hold.
#[derive(Debug, PartialEq, Eq)]
pub struct Spilled {
    /// Redacted: the first lines, a line saying which lines were only archived, the middle's
    /// error and `file:line` lines, and the last lines.
    pub view: String,
    /// The whole (redacted) output in the archive's staging area, or why it could not be written.
    pub blob: Result<WrittenBlob, String>,
    /// Bytes and lines of the output, and its o200k tokens (estimated chunk
    /// by chunk from a sample of each).
    pub bytes: u64,
    pub lines: u64,
    pub raw_tokens: u64,
    /// The lines only archived (`lines 9–12000`, `line 1 (in part: …)`).
    pub middle: String,
}

/// The destination of one command's output.
pub struct Spool<'a> {
    whole: Vec<u8>,
    limit: usize,
    archive: PathBuf,
    redact: Redact<'a>,
    spilling: Option<Spilling>,
}

impl<'a> Spool<'a> {
    /// A spool whose output is archived under `archive` (when it grows past [`WHOLE_LIMIT`])
    /// after passing through `redact`.
    pub fn new(archive: PathBuf, redact: Redact<'a>) -> Spool<'a> {
        Spool::with_limit(WHOLE_LIMIT, archive, redact)
    }

    fn with_limit(limit: usize, archive: PathBuf, redact: Redact<'a>) -> Spool<'a> {
        Spool { whole: Vec::new(), limit, archive, redact, spilling: None }
    }

    pub fn push(&mut self, bytes: &[u8]) {
        if let Some(spilling) = &mut self.spilling {
            spilling.push(bytes, &self.redact);
            return;
        }
        self.whole.extend_from_slice(bytes);
        if self.whole.len() > self.limit {
            let mut spilling = Spilling::start(&self.archive);
            spilling.push(&std::mem::take(&mut self.whole), &self.redact);
            self.spilling = Some(spilling);
        }
    }

    /// Whether the output so far ends a line (or is empty).
    fn at_line_start(&self) -> bool {
        match &self.spilling {
            Some(spilling) => spilling.last.is_none_or(|byte| byte == b'\n'),
            None => self.whole.last().is_none_or(|&byte| byte == b'\n'),
        }
    }

    /// The output, with `note` on a line of its own at the end.
    pub fn finish(mut self, note: Option<&str>) -> Output {
        if let Some(note) = note {
            if !self.at_line_start() {
                self.push(b"\n");
            }
            self.push(note.as_bytes());
            self.push(b"\n");
        }
        match self.spilling {
            None => Output::Whole(self.whole),
            Some(spilling) => Output::Spilled(Arc::new(spilling.finish(&self.redact))),
        }
    }
}

/// The state of an output being spilled.
struct Spilling {
    writer: Result<ArchiveWriter, String>,
    /// Bytes received and not yet redacted and archived.
    pending: Vec<u8>,
    last: Option<u8>,
    bytes: u64,
    raw_tokens: u64,
    /// Newlines of the redacted text so far.
    newlines: u64,
    head: String,
    head_full: bool,
    head_newlines: u64,
    /// The last [`TAIL`] bytes of redacted text, and whether earlier bytes left it.
    tail: VecDeque<u8>,
    tail_cut: bool,
    /// (line number, line, whether secondary: a warning or a location) of the middle's notable lines; how
    /// many of them are secondary; how many more notable lines there were.
    kept: Vec<(u64, String, bool)>,
    secondary_kept: usize,
    not_kept: u64,
}

impl Spilling {
    fn start(archive: &std::path::Path) -> Spilling {
        Spilling {
            writer: ArchiveWriter::create(archive).map_err(|e| e.to_string()),
            pending: Vec::new(),
            last: None,
            bytes: 0,
            raw_tokens: 0,
            newlines: 0,
            head: String::new(),
            head_full: false,
            head_newlines: 0,
            tail: VecDeque::new(),
            tail_cut: false,
            kept: Vec::new(),
            secondary_kept: 0,
            not_kept: 0,
        }
    }

    fn push(&mut self, bytes: &[u8], redact: &Redact<'_>) {
        if bytes.is_empty() {
            return;
        }
        self.bytes += bytes.len() as u64;
        self.last = bytes.last().copied();
        self.pending.extend_from_slice(bytes);
        while self.pending.len() >= CHUNK {
            let cut = chunk_end(&self.pending);
            if cut == 0 {
                return; // a private-key block waits for its end
            }
            let rest = self.pending.split_off(cut);
            let chunk = std::mem::replace(&mut self.pending, rest);
            self.take(chunk, redact);
        }
    }

    /// Redacts `chunk`, archives it and keeps what shaping needs of it.
    fn take(&mut self, chunk: Vec<u8>, redact: &Redact<'_>) {
        let (text, masked) = redact(String::from_utf8_lossy(&chunk).into_owned());
        // As for a whole output: the original bytes unless a secret was masked in them.
        let archived = if masked > 0 { text.as_bytes() } else { &chunk };
        if let Ok(writer) = &mut self.writer
            && let Err(e) = writer.write(archived)
        {
            // Dropping the writer deletes its file; the answer says the output was not archived.
            self.writer = Err(e.to_string());
        }
        self.raw_tokens += estimated_tokens(&text);
        let mut rest = text.as_str();
        if !self.head_full {
            let room = HEAD - self.head.len();
            let end = if rest.len() <= room {
                rest.len()
            } else {
                self.head_full = true;
                rest[..char_boundary::floor(rest, room)].rfind('\n').map_or(char_boundary::floor(rest, room), |i| i + 1)
            };
            self.head.push_str(&rest[..end]);
            self.head_newlines += count_newlines(&rest[..end]);
            self.newlines += count_newlines(&rest[..end]);
            rest = &rest[end..];
        }
        for line in rest.split_inclusive('\n') {
            if let Some(importance) = lean_ctx_shell_compress::importance(line) {
                let secondary = importance == Importance::Secondary;
                let full = self.kept.len() >= KEPT_LINES;
                // Past the bound, a line is only in the archive; but a flood of warnings (and their file:line
                // lines) must not crowd out a later error, which takes the last such line's place.
                // The count spares a scan of every kept line per error once none is left to give way.
                let last_secondary = match full && !secondary && self.secondary_kept > 0 {
                    true => self.kept.iter().rposition(|kept| kept.2),
                    false => None,
                };
                let evicted = last_secondary.map(|last| self.kept.remove(last)).is_some();
                self.secondary_kept -= usize::from(evicted);
                self.not_kept += u64::from(full);
                if !full || evicted {
                    let end = char_boundary::floor(line, KEPT_LINE_BYTES);
                    let cut = if end < line.trim_end_matches('\n').len() { "…" } else { "" };
                    let text = format!("{}{cut}", line[..end].trim_end_matches('\n'));
                    self.kept.push((self.newlines + 1, text, secondary));
                    self.secondary_kept += usize::from(secondary);
                }
            }
            self.newlines += u64::from(line.ends_with('\n'));
        }
        let bytes = rest.as_bytes();
        let skip = bytes.len().saturating_sub(TAIL);
        self.tail.extend(&bytes[skip..]);
        let excess = self.tail.len().saturating_sub(TAIL);
        self.tail_cut |= skip > 0 || excess > 0;
        self.tail.drain(..excess);
    }

    fn finish(mut self, redact: &Redact<'_>) -> Spilled {
        let rest = std::mem::take(&mut self.pending);
        self.take(rest, redact);
        let mut tail: Vec<u8> = self.tail.into();
        // The first line of the tail lost its beginning: it is only archived, unless it is the
        // tail's only line (one line longer than the tail), whose end is shown marked as cut.
        let mut tail_in_part = false;
        if self.tail_cut {
            match tail.iter().position(|&byte| byte == b'\n') {
                Some(newline) if newline + 1 < tail.len() => drop(tail.drain(..=newline)),
                _ => tail_in_part = !tail.is_empty(),
            }
        }
        let tail = String::from_utf8_lossy(&tail).into_owned();
        let lines = self.newlines + u64::from(self.last.is_some_and(|byte| byte != b'\n'));
        let tail_first = self.newlines + 1 - count_newlines(&tail).min(self.newlines);
        // A head that ends inside a line (one longer than the head) shows that line's start.
        let head_in_part = !self.head.is_empty() && !self.head.ends_with('\n');
        let middle = archived_lines(
            self.head_newlines + 1,
            (tail_first + u64::from(tail_in_part)).saturating_sub(1),
            head_in_part || tail_in_part,
        );
        let kept: Vec<&(u64, String, bool)> = self.kept.iter().filter(|(line, ..)| *line < tail_first).collect();
        // Lines past the bound were counted wherever they were, but those in the tail are shown with it: of
        // the tail's notable lines, the ones not among `kept` are such lines.
        let tail_notable =
            tail.split_inclusive('\n').filter(|line| lean_ctx_shell_compress::importance(line).is_some()).count();
        let tail_kept = self.kept.len() - kept.len();
        let not_kept = self.not_kept - (tail_notable.saturating_sub(tail_kept) as u64).min(self.not_kept);
        let mut view = self.head;
        if head_in_part {
            view.push_str("…\n");
        }
        view.push_str(&format!(
            "[… archived but not shaped: {middle}; only their {} error, warning and file:line lines follow …]\n",
            kept.len() as u64 + not_kept,
        ));
        for (_, line, _) in &kept {
            view.push_str(line);
            view.push('\n');
        }
        if not_kept > 0 {
            view.push_str(&format!("[… {not_kept} more such lines are only in the archive …]\n"));
        }
        if tail_in_part {
            view.push('…');
        }
        view.push_str(&tail);
        let blob = self.writer.and_then(|writer| writer.finish().map_err(|e| e.to_string()));
        Spilled { view, blob, bytes: self.bytes, lines, raw_tokens: self.raw_tokens, middle }
    }
}

/// The lines a spilled output's view leaves to the archive, from `first` to `last`; `in_part`
/// when a line cut at the head's end or the tail's start is shown in part, marked `…` there.
fn archived_lines(first: u64, last: u64, in_part: bool) -> String {
    let lines = match first >= last {
        true => format!("line {first}"),
        false => format!("lines {first}–{last}"),
    };
    match in_part {
        true => format!("{lines} (in part: a line cut where the view shows `…`)"),
        false => lines,
    }
}

/// Where the next chunk of `pending` ends: after its last newline, but before a private-key
/// block that has not ended yet, so the redactor sees the block whole; with no newline, at the
/// last character boundary. 0 when the chunk should wait for more output.
fn chunk_end(pending: &[u8]) -> usize {
    let Some(newline) = memchr::memrchr(b'\n', pending) else {
        return utf8_end(pending);
    };
    let cut = newline + 1;
    let begin = memchr::memmem::rfind(&pending[..cut], b"-----BEGIN ");
    let open_block = begin.filter(|&at| memchr::memmem::find(&pending[at..cut], b"-----END ").is_none());
    match open_block {
        Some(at) if pending.len() < MAX_PENDING => memchr::memrchr(b'\n', &pending[..at]).map_or(0, |i| i + 1),
        _ => cut,
    }
}

/// The end of `bytes` without a character cut at its end.
fn utf8_end(bytes: &[u8]) -> usize {
    let len = bytes.len();
    for back in 1..=len.min(3) {
        let byte = bytes[len - back];
        if byte & 0xC0 == 0x80 {
            continue; // a continuation byte: look further back for its lead
        }
        let needs = match byte {
            0xF0.. => 4,
            0xE0.. => 3,
            0xC0.. => 2,
            _ => 1,
        };
        return if needs > back { len - back } else { len };
    }
    len
}

/// The o200k tokens of `text`: counted on its first lines up to
/// [`TOKEN_SAMPLE`] bytes and scaled to its length.
fn estimated_tokens(text: &str) -> u64 {
    if text.len() <= TOKEN_SAMPLE {
        return tokens::count_uncached(text) as u64;
    }
    let end = char_boundary::floor(text, TOKEN_SAMPLE);
    let end = text[..end].rfind('\n').map_or(end, |i| i + 1);
    let sample = tokens::count_uncached(&text[..end]) as u64;
    sample * text.len() as u64 / end.max(1) as u64
}

fn count_newlines(text: &str) -> u64 {
    text.bytes().filter(|&byte| byte == b'\n').count() as u64
}

/// A spool archiving under `dir` with the default redaction, for tests.
#[cfg(test)]
pub fn test_spool(dir: &std::path::Path) -> Spool<'static> {
    let redaction = crate::engine::guard::redaction::Redaction::default();
    let config = crate::engine::config::Config::default();
    Spool::new(dir.to_path_buf(), Box::new(move |text| redaction.apply(&config, text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spool(limit: usize, dir: &std::path::Path) -> Spool<'static> {
        let Spool { redact, .. } = test_spool(dir);
        Spool::with_limit(limit, dir.to_path_buf(), redact)
    }

    /// What the spilled output's blob holds, once put in an archive.
    fn archived(spilled: &Spilled) -> String {
        let blob = spilled.blob.as_ref().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("state.db");
        let mut store = lean_ctx_store::Store::open(&db, lean_ctx_store::Check::Everything).unwrap().store;
        let entry = lean_ctx_store::ArchiveEntry {
            kind: "shell",
            label: "t",
            family: "generic",
            exit_code: None,
            session: None,
            project: "/p",
            text: &[],
        };
        let archive = dir.path().join("archive");
        let id = store.archive_put_written(&archive, &entry, blob).unwrap();
        String::from_utf8(store.archive_get(&archive, &id).unwrap().bytes).unwrap()
    }

    fn log_lines(from: u32, bytes: usize) -> (String, u32) {
        let (mut text, mut n) = (String::new(), from);
        while text.len() < bytes {
            text.push_str(&format!("line {n} of a long and uneventful log\n"));
            n += 1;
        }
        (text, n)
    }

    #[test]
    fn a_small_output_stays_whole_with_a_note_on_its_own_line() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = spool(1 << 20, dir.path());
        s.push(b"partial");
        assert_eq!(s.finish(Some("[note]")), Output::Whole(b"partial\n[note]\n".to_vec()));
    }

    /// QA: one line longer than the head and tail (a minified JSON) was shown cut mid-value with
    /// no mark, its tail as if a whole line, and the note said lines 1–0 were archived.
    #[test]
    fn a_line_longer_than_the_view_is_shown_marked_as_cut() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = spool(64 << 10, dir.path());
        let line = format!("{{\"a\":\"{}\"}}\n", "x".repeat(3 * (HEAD + TAIL)));
        for piece in line.as_bytes().chunks(65_521) {
            s.push(piece);
        }
        let Output::Spilled(spilled) = s.finish(None) else { panic!("not spilled") };
        let (head, rest) = spilled.view.split_once('\n').unwrap();
        assert!(head.starts_with("{\"a\":\"xxx") && head.ends_with("x…"), "the head's cut is marked");
        let (note, tail) = rest.split_once('\n').unwrap();
        assert_eq!(
            note,
            "[… archived but not shaped: line 1 (in part: a line cut where the view shows `…`); only their 0 error, \
             warning and file:line lines follow …]"
        );
        assert!(tail.starts_with("…xxx") && tail.ends_with("x\"}\n"), "the tail's cut is marked");
    }

    #[test]
    fn a_large_output_keeps_its_ends_and_failures_and_archives_all_of_it_redacted() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = spool(64 << 10, dir.path());
        let key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234567890abcdefghijABCDEFGHIJ\n\
                   qrstuvwxyz0123456789+/abcdefghijklmnopqrstuvwx\n-----END RSA PRIVATE KEY-----\n";
        // The first chunk fills up inside the key block: the block must not be cut in two.
        let (before, next) = log_lines(1, CHUNK - 40);
        s.push(before.as_bytes());
        s.push(&key.as_bytes()[..60]);
        s.push(&key.as_bytes()[60..]);
        let (middle, next) = log_lines(next, 3 * CHUNK);
        let error = "error[E0308]: mismatched types at src/deep.rs:77:5\n";
        let (after, last) = log_lines(next, 3 * CHUNK);
        let rest = format!("{middle}{error}{after}");
        for piece in rest.as_bytes().chunks(65_521) {
            s.push(piece);
        }
        let Output::Spilled(spilled) = s.finish(None) else { panic!("not spilled") };
        let expected = format!("{before}{key}{rest}");
        assert_eq!(spilled.bytes, expected.len() as u64);
        assert!(spilled.view.starts_with("line 1 of a long"));
        assert!(spilled.view.ends_with(&format!("line {} of a long and uneventful log\n", last - 1)));
        assert!(spilled.view.contains(&format!("\n{error}")), "the middle's error line is kept");
        assert!(spilled.view.contains("archived but not shaped: lines "));
        assert!(spilled.view.len() < HEAD + TAIL + 4096, "bounded: {} bytes", spilled.view.len());
        let text = archived(&spilled);
        assert!(!text.contains("MIIEowIBAAKCAQEA") && !text.contains("qrstuvwxyz0123456789"), "the key is masked");
        assert_eq!(text, expected.replace(key, "[REDACTED:private_key]\n"));
    }

    #[test]
    fn the_middle_counts_its_notable_lines_and_not_the_tails() {
        // Past the bound, a notable line of the tail (the verdict) is shown with the tail, not counted as left out.
        for errors in [KEPT_LINES, KEPT_LINES + 1, KEPT_LINES + 500] {
            let dir = tempfile::tempdir().unwrap();
            let mut s = spool(64 << 10, dir.path());
            let (head, next) = log_lines(1, HEAD + 4096);
            s.push(head.as_bytes());
            let errors_text: String = (0..errors).map(|i| format!("src/m{i}.c:{i}:5: error: undeclared\n")).collect();
            s.push(errors_text.as_bytes());
            let (tail, _) = log_lines(next, TAIL + 4096);
            s.push(tail.as_bytes());
            s.push(b"build failed: 3000 errors\n");
            let Output::Spilled(spilled) = s.finish(None) else { panic!("not spilled") };
            assert!(
                spilled.view.contains(&format!("; only their {errors} error, warning and file:line lines follow")),
                "{errors}: {}",
                &spilled.view[..spilled.view.find("src/m0.c").unwrap()].lines().last().unwrap()
            );
            let left_out = errors - KEPT_LINES;
            let note = format!("[… {left_out} more such lines are only in the archive …]\n");
            assert_eq!(spilled.view.contains(&note), left_out > 0, "{errors}");
            assert!(spilled.view.ends_with("build failed: 3000 errors\n"));
        }
    }

    #[test]
    fn the_middle_keeps_every_line_a_view_may_owe() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = spool(64 << 10, dir.path());
        let (head, next) = log_lines(1, HEAD + 4096);
        let (middle, next) = log_lines(next, 1 << 20);
        let (tail, _) = log_lines(next, TAIL + 4096);
        let notable = ["warning: unused variable `x`", "   ✗ middle check", "CRITICAL: disk full", "[ERROR] Failed"];
        s.push(format!("{head}{middle}{}\n{tail}", notable.join("\n")).as_bytes());
        let Output::Spilled(spilled) = s.finish(None) else { panic!("not spilled") };
        for line in notable {
            assert!(spilled.view.contains(&format!("\n{line}\n")), "{line} lost");
        }
    }

    #[test]
    fn a_flood_of_warnings_does_not_crowd_out_a_later_error() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = spool(64 << 10, dir.path());
        let (head, next) = log_lines(1, HEAD + 4096);
        // As rustc prints them: each warning with its location line.
        let warnings: String =
            (0..KEPT_LINES + 10).map(|i| format!("warning: unused variable `x{i}`\n  --> src/m{i}.rs:1:5\n")).collect();
        let (tail, _) = log_lines(next, TAIL + 4096);
        let error = "src/bad.c:9:1: error: expected ';'";
        s.push(format!("{head}{warnings}{error}\n{tail}").as_bytes());
        let Output::Spilled(spilled) = s.finish(None) else { panic!("not spilled") };
        assert!(spilled.view.contains(&format!("\n{error}\n")), "the error is kept");
        assert!(
            spilled.view.contains("; only their 4021 error, warning and file:line lines follow"),
            "{}",
            spilled.view
        );
        assert!(spilled.view.contains("[… 2021 more such lines are only in the archive …]\n"));
    }

    #[test]
    fn chunks_end_at_a_line_outside_key_blocks_and_at_a_character() {
        assert_eq!(chunk_end(b"a\nb\nc"), 4);
        assert_eq!(chunk_end(b"a\n-----BEGIN RSA PRIVATE KEY-----\nxyz\n"), 2);
        assert_eq!(chunk_end(b"-----BEGIN RSA PRIVATE KEY-----\nxyz\n"), 0);
        assert_eq!(chunk_end(b"-----BEGIN X-----\nxyz\n-----END X-----\nok\n"), 41);
        assert_eq!(chunk_end("ab\u{e9}".as_bytes()), 4);
        assert_eq!(chunk_end(&"ab\u{e9}".as_bytes()[..3]), 2);
    }
}
