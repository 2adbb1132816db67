//! Loading a file for reading or editing: refuses directories, special
//! files, oversized, binary and non-UTF-8 files with a message that says
//! what to do.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::engine::error::{EngineError, EngineResult, ErrorKind};

/// Bytes inspected for NUL when deciding whether a file is binary.
const BINARY_SNIFF: usize = 8192;

pub struct Loaded {
    pub path: PathBuf,
    pub text: Arc<str>,
    pub hash: blake3::Hash,
    pub lines: u32,
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
    Ok(Loaded { path: path.to_path_buf(), text: Arc::from(text), hash, lines })
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
