//! Loading a file for reading or editing: refuses directories, special
//! files, oversized, binary and non-UTF-8 files with a message that says
//! what to do.

use memchr::memmem::Finder;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::engine::error::{EngineError, EngineResult, ErrorKind};

/// Bytes inspected for NUL when deciding whether a file is binary.
const BINARY_SNIFF: usize = 8192;

/// The most a window's stream holds of the file at once.
const WINDOW_CHUNK: usize = 64 * 1024;

#[derive(Clone)]
pub struct Loaded {
    pub path: PathBuf,
    /// The file's text, or a window's lines (see `window`).
    pub text: Arc<str>,
    pub hash: blake3::Hash,
    pub lines: u32,
    /// For a window of a file over the limit (see [`load_window`]): the numbers of the lines
    /// `text` holds, in order; `None` when it holds the whole file.
    pub window: Option<Vec<u32>>,
}

pub fn line_count(text: &str) -> u32 {
    u32::try_from(text.lines().count()).unwrap_or(u32::MAX)
}

/// Loads the opened `file` (see `Scope::open_existing`: the file checked is
/// the file read), known as `path`.
pub fn load(file: File, path: &Path, max_bytes: u64) -> EngineResult<Loaded> {
    let shown = path.display();
    // The type is checked on the opened descriptor (opened non-blocking, so
    // a FIFO does not hang), so a file swapped after a path check cannot slip by.
    let meta = file.metadata().map_err(|e| EngineError::internal(format!("cannot inspect {shown}: {e}")))?;
    if meta.is_dir() {
        return Err(EngineError::invalid(format!("{shown} is a directory; list it with ctx_tree or `lctx tree`")));
    }
    if !meta.is_file() {
        return Err(EngineError::invalid(format!("{shown} is not a regular file (a FIFO, socket or device)")));
    }
    if meta.len() > max_bytes {
        return Err(EngineError::new(
            ErrorKind::ResourceExhausted,
            format!(
                "{shown} is {} bytes, over the {max_bytes}-byte read limit; raise it with \
                 `lctx config set max_read_bytes N`",
                meta.len()
            ),
        ));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| EngineError::internal(format!("cannot read {shown}: {e}")))?;
    let hash = blake3::hash(&bytes);
    let size = bytes.len();
    let binary = || {
        EngineError::invalid(format!("{shown} is a binary file ({size} bytes), not text: it cannot be shown or edited"))
    };
    if bytes[..size.min(BINARY_SNIFF)].contains(&0) {
        return Err(binary());
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        // No NUL, but not UTF-8: text in another encoding (Latin-1, Windows-1252, …). Everything
        // before the first invalid byte is valid text, so its end is that byte's position.
        let at = e.utf8_error().valid_up_to();
        let valid = std::str::from_utf8(&e.as_bytes()[..at]).unwrap_or_default();
        let (line, column) = lean_ctx_common::text_error::line_and_column(valid, at);
        not_utf8(path, e.as_bytes()[at], line, column)
    })?;
    let lines = line_count(&text);
    Ok(Loaded { path: path.to_path_buf(), text: Arc::from(text), hash, lines, window: None })
}

/// The refusal of text in another encoding, with the way to read it converted.
fn not_utf8(path: &Path, byte: u8, line: impl std::fmt::Display, column: impl std::fmt::Display) -> EngineError {
    let shown = path.display();
    EngineError::invalid(format!(
        "{shown} is not UTF-8 text (byte 0x{byte:02X} at line {line}, column {column}): it cannot be shown or edited as text. Its text \
         converted can be read with ctx_shell or `lctx run`, for example `iconv -f LATIN1 -t UTF-8 {shown}`"
    ))
}

/// Whether `file` is a regular file over the read limit (what [`load`] refuses for its size).
pub fn over_limit(file: &File, max_bytes: u64) -> bool {
    file.metadata().is_ok_and(|meta| meta.is_file() && meta.len() > max_bytes)
}

/// Loads the lines `keep` asks for of a file over the read limit, streaming it once in bounded
/// chunks: its hash and line count are the whole file's, its text only the kept lines (their
/// numbers in [`Loaded::window`]), at most `max_bytes` of them. An agent reading a window of a
/// large log needs those lines, not the limit's memory; no line is held whole unless kept, so a
/// gigabyte on one line costs a chunk. `stop` is asked between chunks (a cancelled request, the
/// work deadline): the stream goes on to the end for the count and the hash.
///
/// With `mask_keys`, a kept line inside a private key whose first line is not kept (the redactor,
/// which sees only the kept lines, could not tell it from text) is the key's marker, for the
/// first such line, or blank: as the view of a whole file shows a key. A key opens where the
/// redactor would open one in the whole file (see [`KeyBlocks`]).
pub fn load_window(
    file: File,
    path: &Path,
    max_bytes: u64,
    keep: impl Fn(u32) -> bool,
    mask_keys: bool,
    stop: &dyn Fn() -> EngineResult<()>,
) -> EngineResult<Loaded> {
    let shown = path.display();
    let cannot = |e: std::io::Error| EngineError::internal(format!("cannot read {shown}: {e}"));
    let mut reader = BufReader::with_capacity(WINDOW_CHUNK, file);
    let (mut hasher, mut kept, mut numbers) = (blake3::Hasher::new(), Vec::new(), Vec::new());
    // The line being read (1-based), whether it ended, bytes seen so far.
    let (mut line, mut ended, mut seen) = (1u32, true, 0usize);
    let mut keys = match mask_keys {
        true => Some(KeyBlocks::new(reader.get_ref().try_clone().map_err(cannot)?)),
        false => None,
    };
    // Where the chunk being read starts in the file.
    let mut offset = 0u64;
    loop {
        stop()?;
        let chunk = reader.fill_buf().map_err(cannot)?;
        if chunk.is_empty() {
            break;
        }
        hasher.update(chunk);
        if seen < BINARY_SNIFF && chunk[..chunk.len().min(BINARY_SNIFF - seen)].contains(&0) {
            return Err(EngineError::invalid(format!("{shown} is a binary file, not text: it cannot be shown")));
        }
        let mut at = offset;
        for piece in chunk.split_inclusive(|&b| b == b'\n') {
            if ended && keep(line) {
                numbers.push(line);
                if let Some(shown) = keys.as_mut().and_then(KeyBlocks::unseen_body_line) {
                    kept.extend_from_slice(shown.as_bytes());
                }
            }
            let hidden = keys.as_ref().is_some_and(KeyBlocks::hides_this_line);
            if let Some(keys) = keys.as_mut() {
                keys.read(piece, at, ended, keep(line)).map_err(cannot)?;
            }
            at += piece.len() as u64;
            if keep(line) && !hidden {
                kept.extend_from_slice(piece);
                if kept.len() as u64 > max_bytes {
                    return Err(EngineError::new(
                        ErrorKind::ResourceExhausted,
                        format!(
                            "the lines asked of {shown} are over the {max_bytes}-byte read limit; ask for fewer lines"
                        ),
                    ));
                }
            }
            ended = piece.ends_with(b"\n");
            if ended {
                line = line.saturating_add(1);
            }
        }
        let length = chunk.len();
        seen = seen.saturating_add(length);
        offset += length as u64;
        reader.consume(length);
    }
    // A last line without its newline is a line; an empty file has none.
    let lines = if ended { line - 1 } else { line };
    let mut text = String::from_utf8(kept).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let before = &e.as_bytes()[..at];
        let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let index = before.iter().filter(|&&b| b == b'\n').count();
        let column = std::str::from_utf8(&before[start..]).map_or(0, |s| s.chars().count()) + 1;
        not_utf8(path, e.as_bytes()[at], numbers.get(index).copied().unwrap_or(line), column)
    })?;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(Loaded {
        path: path.to_path_buf(),
        text: Arc::from(text),
        hash: hasher.finalize(),
        lines,
        window: Some(numbers),
    })
}

/// Private-key blocks met while streaming a file (see [`load_window`]): from a line the redactor
/// opens a key on (`lean_ctx_redact::private_key_block`: a header that key material follows, not
/// one only mentioned), wherever on its line, to the line closing it with `-----END `.
struct KeyBlocks {
    /// The two marks' searchers, built once: a window streams millions of lines, and building a
    /// searcher per line cost more than the search (a 3-line window of a 165 MB log, debug:
    /// 16–19 s, then 6–7 s; without redaction 2–3 s).
    key_mark: Finder<'static>,
    end_mark: Finder<'static>,
    /// The file again: the bytes after a header line, which say whether it opens a key, are read
    /// ahead of the stream.
    file: File,
    /// The last bytes of the line's previous piece: a mark split between two pieces is found.
    carry: Vec<u8>,
    /// Where the line being read starts in the file.
    line_start: u64,
    /// Where the line being read first says `PRIVATE KEY`, in the file.
    key_at: Option<u64>,
    /// The line being read says `-----END `.
    end_seen: bool,
    /// Inside a block whose first line was not kept, from the line after it.
    unseen: bool,
    /// The block's marker was shown on an earlier kept line.
    marked: bool,
    /// The line being read is one such block's.
    hiding: bool,
}

impl KeyBlocks {
    /// Longer than either mark, less one.
    const CARRY: usize = 16;
    /// What comes before `PRIVATE KEY` on a header (`-----BEGIN ENCRYPTED `), with room.
    const BEFORE: u64 = 128;
    /// What the redactor may look at after a header for key material (512 bytes), with room.
    const AHEAD: u64 = 1024;
    /// The most of a header's line read past the header to find its END there (a key written
    /// on one line, in a JSON string, is a few KiB): past that, a key found opens a block past
    /// the line.
    const LINE: u64 = 64 * 1024;

    fn new(file: File) -> Self {
        KeyBlocks {
            key_mark: Finder::new(b"PRIVATE KEY"),
            end_mark: Finder::new(b"-----END "),
            file,
            carry: Vec::new(),
            line_start: 0,
            key_at: None,
            end_seen: false,
            unseen: false,
            marked: false,
            hiding: false,
        }
    }

    /// What a kept line starting now shows in place of its text: the marker on the first line of
    /// a block whose start was not kept, then a bare line break.
    fn unseen_body_line(&mut self) -> Option<String> {
        if !self.unseen {
            return None;
        }
        self.hiding = true;
        let first = !std::mem::replace(&mut self.marked, true);
        Some(if first { format!("{}\n", lean_ctx_redact::private_key_marker()) } else { "\n".into() })
    }

    fn hides_this_line(&self) -> bool {
        self.hiding
    }

    /// Takes `piece` of the line being read, at `at` in the file (`starts`: it starts the line;
    /// `kept`: the line is kept).
    fn read(&mut self, piece: &[u8], at: u64, starts: bool, kept: bool) -> std::io::Result<()> {
        if starts {
            self.carry.clear();
            self.line_start = at;
            self.key_at = None;
            self.end_seen = false;
        }
        self.find_marks(piece, at);
        if !piece.ends_with(b"\n") {
            return Ok(());
        }
        let line_end = at + piece.len() as u64;
        if self.unseen {
            // Inside a block the redactor looks for its END, not for another header.
            if self.end_seen {
                self.unseen = false;
            }
        } else if let Some(key_at) = self.key_at {
            // A kept first line lets the redactor see the block in the kept text.
            self.unseen = !kept && self.opens_key_past(key_at, line_end)?;
            self.marked = false;
        }
        self.hiding = false;
        Ok(())
    }

    /// Notes where `piece` (at `at`) says `PRIVATE KEY` and whether it says `-----END `, also
    /// across its start, with the previous piece's last bytes.
    fn find_marks(&mut self, piece: &[u8], at: u64) {
        let mut joint = std::mem::take(&mut self.carry);
        let joint_at = at - joint.len() as u64;
        joint.extend_from_slice(&piece[..piece.len().min(Self::CARRY)]);
        for (text, text_at) in [(&joint[..], joint_at), (piece, at)] {
            if self.key_at.is_none() {
                self.key_at = self.key_mark.find(text).map(|i| text_at + i as u64);
            }
            self.end_seen |= self.end_mark.find(text).is_some();
        }
        let tail = piece.len().saturating_sub(Self::CARRY);
        joint.clear();
        joint.extend_from_slice(&piece[tail..]);
        self.carry = joint;
    }

    /// Whether the redactor opens a key on the line just read (which says `PRIVATE KEY` at
    /// `key_at`) that goes on past the line's end (`line_end`), judging the line around it and
    /// what follows it as it would in the whole file.
    fn opens_key_past(&self, key_at: u64, line_end: u64) -> std::io::Result<bool> {
        use std::os::unix::fs::FileExt;
        let from = key_at.saturating_sub(Self::BEFORE).max(self.line_start);
        let to = line_end.min(key_at + Self::LINE) + Self::AHEAD;
        let mut text = vec![0; (to - from) as usize];
        let mut read = 0;
        while read < text.len() {
            match self.file.read_at(&mut text[read..], from + read as u64)? {
                0 => break,
                n => read += n,
            }
        }
        text.truncate(read);
        let Some(block) = lean_ctx_redact::private_key_block(&text) else { return Ok(false) };
        let (start, end) = (from + block.start as u64, from + block.end as u64);
        let unended = block.end == text.len() && line_end > key_at + Self::LINE;
        Ok(start < line_end && (end > line_end || unended))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(path: &Path, max_bytes: u64) -> EngineResult<Loaded> {
        let (file, _) = lean_ctx_common::confined::open_confined(path, |_| true).unwrap();
        super::load(file, path, max_bytes)
    }

    #[test]
    fn a_window_holds_its_lines_numbered_and_stops_when_asked() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("w.log");
        let text: String = (1..=100_000).map(|i| format!("line {i}\r\n")).collect();
        std::fs::write(&path, &text).unwrap();
        let open = || lean_ctx_common::confined::open_confined(&path, |_| true).unwrap().0;
        let keep = |line: u32| (50_000..=50_001).contains(&line) || line == 7;
        let go_on = || Ok(());
        let window = load_window(open(), &path, 1024, keep, true, &go_on).unwrap();
        assert_eq!(&*window.text, "line 7\r\nline 50000\r\nline 50001\r\n");
        assert_eq!(window.window.as_deref(), Some(&[7, 50_000, 50_001][..]));
        assert_eq!((window.lines, window.hash), (100_000, blake3::hash(text.as_bytes())));
        let stop = || Err(EngineError::new(ErrorKind::Cancelled, "cancelled"));
        assert_eq!(load_window(open(), &path, 1024, keep, true, &stop).err().unwrap().kind, ErrorKind::Cancelled);
    }

    #[test]
    fn a_window_inside_a_key_shows_its_marker_and_blank_lines_not_its_body() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("big.log");
        let body: Vec<String> = (0..4).map(|i| format!("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC{i:032}")).collect();
        let key = format!("-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n", body.join("\n"));
        // Lines 1-3 text, the key on lines 4-9, line 10 text.
        std::fs::write(&path, format!("a\nb\nc\n{key}after\n")).unwrap();
        let open = || lean_ctx_common::confined::open_confined(&path, |_| true).unwrap().0;
        let go_on = || Ok(());
        let window = |from: u32, to: u32, mask: bool| {
            let text = load_window(open(), &path, 4096, |l| (from..=to).contains(&l), mask, &go_on).unwrap().text;
            text.to_string()
        };
        assert_eq!(window(6, 10, true), "[REDACTED:private_key]\n\n\n\nafter\n");
        // A window holding the key's first line leaves the key to the redactor, which sees it whole.
        assert_eq!(window(3, 5, true), format!("c\n-----BEGIN PRIVATE KEY-----\n{}\n", body[0]));
        // Redaction off: the lines as they are.
        assert_eq!(window(6, 6, false), format!("{}\n", body[1]));
    }

    #[test]
    fn only_a_header_the_redactor_opens_a_key_with_hides_the_lines_after_it() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("big.log");
        let body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7";
        let open = || lean_ctx_common::confined::open_confined(&path, |_| true).unwrap().0;
        let go_on = || Ok(());
        let lines_2_3 = |text: &str| {
            std::fs::write(&path, text).unwrap();
            load_window(open(), &path, 4096, |l| (2..=3).contains(&l), true, &go_on).unwrap().text.to_string()
        };
        // Prose quoting a header, a header with prose after it, a key on one line (a JSON string)
        // and a header whose label the redactor does not take: the lines after them are text.
        for first in [
            "Keys start with -----BEGIN RSA PRIVATE KEY----- and end with -----END RSA PRIVATE KEY-----.\n",
            "-----BEGIN RSA PRIVATE KEY-----\n",
            &format!("{{\"key\": \"-----BEGIN PRIVATE KEY-----\\n{body}\\n-----END PRIVATE KEY-----\\n\"}}\n"),
            "-----BEGIN an example PRIVATE KEY-----\n",
        ] {
            let text = format!("{first}is how it reads.\nthen {body}\nafter\n-----END RSA PRIVATE KEY-----\n");
            assert_eq!(lines_2_3(&text), format!("is how it reads.\nthen {body}\n"), "{first}");
        }
        // A header that key material follows opens one, and one inside it opens none.
        let text = format!(
            "-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----BEGIN PRIVATE KEY-----\n-----END RSA PRIVATE KEY-----\nx\n"
        );
        assert_eq!(lines_2_3(&text), "[REDACTED:private_key]\n\n");
        // A header far into its line (a log's prefix) opens one too, as the redactor finds it
        // wherever it stands.
        let prefix = format!("2026-12-06T08:00:00Z worker-7 {} key=", "x".repeat(150));
        let text =
            format!("{prefix}-----BEGIN RSA PRIVATE KEY-----\n{body}\n{body}\n-----END RSA PRIVATE KEY-----\nx\n");
        assert_eq!(lines_2_3(&text), "[REDACTED:private_key]\n\n");
    }

    #[test]
    fn refuses_what_it_cannot_show() {
        let d = tempfile::tempdir().unwrap();
        assert_eq!(load(d.path(), 1 << 20).err().unwrap().kind, ErrorKind::InvalidArgument);
        let bin = d.path().join("x.bin");
        std::fs::write(&bin, [1u8, 0, 2]).unwrap();
        assert!(load(&bin, 1 << 20).err().unwrap().message.contains("binary"));
        let latin1 = d.path().join("l.txt");
        std::fs::write(&latin1, b"caf\xe9\nna\xefve\n").unwrap();
        let message = load(&latin1, 1 << 20).err().unwrap().message;
        assert!(message.contains("l.txt is not UTF-8 text (byte 0xE9 at line 1, column 4)"), "{message}");
        assert!(message.contains("iconv -f LATIN1 -t UTF-8"), "{message}");
        let big = d.path().join("big.txt");
        std::fs::write(&big, "x".repeat(2000)).unwrap();
        let e = load(&big, 1000).err().unwrap();
        assert_eq!(e.kind, ErrorKind::ResourceExhausted);
        assert!(e.message.contains("max_read_bytes"));
        let fifo = d.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(load(&fifo, 1 << 20).err().unwrap().message.contains("not a regular file"));
    }

    #[test]
    fn loads_text_with_hash_and_line_count() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("a.txt");
        std::fs::write(&f, "one\ntwo\n").unwrap();
        let l = load(&f, 100).unwrap();
        assert_eq!((l.lines, &*l.text), (2, "one\ntwo\n"));
        assert_eq!(l.hash, blake3::hash(b"one\ntwo\n"));
    }
}
