//! Loading a file for reading or editing: refuses directories, special
//! files, oversized, binary and non-UTF-8 files with a message that says
//! what to do.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::engine::error::{EngineError, EngineResult, ErrorKind};

/// Bytes inspected for NUL when deciding whether a file is binary.
const BINARY_SNIFF: usize = 8192;

pub struct Loaded {
    pub path: PathBuf,
    /// The file's text; for a window of a file over the read limit (see [`load_window`]), its
    /// lines up to the window's end, those before the window empty.
    pub text: Arc<str>,
    pub hash: blake3::Hash,
    pub lines: u32,
    /// Only a window's lines are in `text`.
    pub partial: bool,
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
    let binary = || EngineError::invalid(format!("{shown} is a binary file ({size} bytes); it is not shown"));
    if bytes[..size.min(BINARY_SNIFF)].contains(&0) {
        return Err(binary());
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        // No NUL, but not UTF-8: text in another encoding (Latin-1, Windows-1252, …). Everything
        // before the first invalid byte is valid text, so its end is that byte's position.
        let at = e.utf8_error().valid_up_to();
        let valid = std::str::from_utf8(&e.as_bytes()[..at]).unwrap_or_default();
        let (line, column) = lean_ctx_common::text_error::line_and_column(valid, at);
        EngineError::invalid(format!(
            "{shown} is not UTF-8 text (byte 0x{:02X} at line {line}, column {column}); it is not shown. Its text \
             converted can be read with ctx_shell or `lctx run`, for example `iconv -f LATIN1 -t UTF-8 {shown}`",
            e.as_bytes()[at]
        ))
    })?;
    let lines = line_count(&text);
    Ok(Loaded { path: path.to_path_buf(), text: Arc::from(text), hash, lines, partial: false })
}

/// Whether `file` is a regular file over the read limit (what [`load`] refuses for its size).
pub fn over_limit(file: &File, max_bytes: u64) -> bool {
    file.metadata().is_ok_and(|meta| meta.is_file() && meta.len() > max_bytes)
}

/// Loads the lines `keep` asks for of a file over the read limit, streaming it once: its hash
/// and line count are the whole file's, its text holds lines up to `last` (the others before it
/// empty, so line numbers stay), at most `max_bytes` of them. An agent reading a window of a
/// large log needs those lines, not the limit's memory.
pub fn load_window(
    file: File,
    path: &Path,
    max_bytes: u64,
    last: u32,
    keep: impl Fn(u32) -> bool,
) -> EngineResult<Loaded> {
    let shown = path.display();
    let cannot = |e: std::io::Error| EngineError::internal(format!("cannot read {shown}: {e}"));
    let mut reader = BufReader::new(file);
    let (mut hasher, mut text, mut line, mut line_bytes) = (blake3::Hasher::new(), String::new(), 0u32, Vec::new());
    let mut sniffed = 0usize;
    loop {
        line_bytes.clear();
        if reader.read_until(b'\n', &mut line_bytes).map_err(cannot)? == 0 {
            break;
        }
        hasher.update(&line_bytes);
        if sniffed < BINARY_SNIFF {
            let look = &line_bytes[..line_bytes.len().min(BINARY_SNIFF - sniffed)];
            if look.contains(&0) {
                return Err(EngineError::invalid(format!("{shown} is a binary file; it is not shown")));
            }
            sniffed += look.len();
        }
        line = line.saturating_add(1);
        if line > last {
            continue;
        }
        if keep(line) {
            let kept = std::str::from_utf8(&line_bytes).map_err(|_| {
                EngineError::invalid(format!("{shown} is not UTF-8 text at line {line}; it is not shown"))
            })?;
            text.push_str(kept);
        } else {
            text.push('\n');
        }
        if text.len() as u64 > max_bytes {
            return Err(EngineError::new(
                ErrorKind::ResourceExhausted,
                format!("the lines asked of {shown} are over the {max_bytes}-byte read limit; ask for fewer lines"),
            ));
        }
    }
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(Loaded { path: path.to_path_buf(), text: Arc::from(text), hash: hasher.finalize(), lines: line, partial: true })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(path: &Path, max_bytes: u64) -> EngineResult<Loaded> {
        let (file, _) = lean_ctx_common::confined::open_confined(path, |_| true).unwrap();
        super::load(file, path, max_bytes)
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
