//! Archiving an output while it is produced, and reading one back a line at a time, so that no
//! output has to be whole in memory on either side.
//!
//! An [`ArchiveWriter`] compresses what it is given into a temporary file under
//! `<dir>/incoming/` and hashes it on the way; [`ArchiveWriter::finish`] yields a [`WrittenBlob`]
//! whose id is the hash of everything written, and [`Store::archive_put_written`] renames it into
//! its shard and records its row in one write transaction, as [`Store::archive_put`] does.
//!
//! A temporary file is held under an exclusive `flock` from its creation until it is renamed or
//! deleted, so the sweep deletes only the ones nobody holds (a process that crashed mid-write);
//! dropping a writer, or a blob that was never put, deletes its file: an interrupted write leaves
//! no partial blob and no litter.

use std::collections::VecDeque;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use super::blob::{ARCHIVE_ID_LEN, LEVEL, is_temp_name};
use super::index::{INDEX_LIMIT, joined_index_text};
use crate::error::{Error, Result};

/// The directory of an archive's temporary files being streamed.
pub(super) fn incoming_dir(dir: &Path) -> PathBuf {
    dir.join("incoming")
}

/// A temporary file under a held lock; deleted when dropped unless it was renamed into place.
#[derive(Debug)]
struct TempFile {
    path: PathBuf,
    /// Holds the `flock` for as long as the file lives (fields drop after `drop` has run, so the
    /// file is gone before the lock is released).
    _lock: File,
    placed: AtomicBool,
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.placed.load(Ordering::Acquire) {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// What the search index takes of a stream: all of it up to [`INDEX_LIMIT`], else its first and
/// last halves (the same text [`super::index::indexed_text`] takes of the whole).
#[derive(Debug, Default)]
struct IndexWindow {
    head: Vec<u8>,
    tail: VecDeque<u8>,
}

impl IndexWindow {
    fn push(&mut self, mut bytes: &[u8]) {
        let half = INDEX_LIMIT / 2;
        if self.tail.is_empty() {
            let room = INDEX_LIMIT - self.head.len();
            if bytes.len() <= room {
                self.head.extend_from_slice(bytes);
                return;
            }
            // Past the limit: the head keeps the first half of the output, the rest starts the
            // tail (the head may still be short of its half when one write crosses the limit).
            if self.head.len() < half {
                let (first, rest) = bytes.split_at(half - self.head.len());
                self.head.extend_from_slice(first);
                bytes = rest;
            } else {
                self.tail.extend(&self.head[half..]);
                self.head.truncate(half);
            }
        }
        if bytes.len() > half {
            self.tail.clear();
            bytes = &bytes[bytes.len() - half..];
        }
        self.tail.extend(bytes);
        let excess = self.tail.len().saturating_sub(half);
        self.tail.drain(..excess);
    }

    fn text(self) -> String {
        if self.tail.is_empty() {
            return String::from_utf8_lossy(&self.head).into_owned();
        }
        let tail: Vec<u8> = self.tail.into();
        joined_index_text(&self.head, &tail)
    }
}

/// What a blob's row is made of, taken from its raw bytes as they pass: their hash (the id),
/// size, lines and indexed text.
#[derive(Debug, Default)]
struct Tally {
    hasher: blake3::Hasher,
    raw_bytes: u64,
    newlines: u64,
    last: Option<u8>,
    index: IndexWindow,
}

impl Tally {
    fn push(&mut self, bytes: &[u8]) {
        self.hasher.update(bytes);
        self.raw_bytes += bytes.len() as u64;
        self.newlines += bytes.iter().filter(|&&byte| byte == b'\n').count() as u64;
        if let Some(&last) = bytes.last() {
            self.last = Some(last);
        }
        self.index.push(bytes);
    }

    /// The blob in `temp`, whose file holds `stored_bytes`.
    fn written(self, temp: TempFile, stored_bytes: u64) -> WrittenBlob {
        let Tally { hasher, raw_bytes, newlines, last, index } = self;
        let id = hasher.finalize().to_hex()[..ARCHIVE_ID_LEN].to_owned();
        let raw_lines = newlines + u64::from(last.is_some_and(|byte| byte != b'\n'));
        WrittenBlob(Arc::new(Written { temp, id, raw_bytes, raw_lines, stored_bytes, index_text: index.text() }))
    }
}

/// Writes one output into the archive as it arrives.
pub struct ArchiveWriter {
    temp: TempFile,
    encoder: zstd::stream::Encoder<'static, BufWriter<File>>,
    tally: Tally,
}

impl std::fmt::Debug for ArchiveWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArchiveWriter")
            .field("temp", &self.temp.path)
            .field("raw_bytes", &self.tally.raw_bytes)
            .finish()
    }
}

impl ArchiveWriter {
    /// Starts an output in the archive under `dir`.
    pub fn create(dir: &Path) -> Result<ArchiveWriter> {
        let incoming = incoming_dir(dir);
        fs::create_dir_all(&incoming).map_err(|source| Error::Io {
            action: "create the archive directory",
            path: incoming.clone(),
            source,
        })?;
        // Process and time, and the first free suffix: a name no live or stale file has, so the
        // sweep cannot mistake a fresh file for the stale one it just locked.
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let pid = std::process::id();
        let (path, file) = (0u32..)
            .map(|n| incoming.join(format!(".stream-{pid}-{nanos}-{n}.tmp")))
            .find_map(|path| match OpenOptions::new().write(true).create_new(true).open(&path) {
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => None,
                opened => Some(opened.map(|file| (path.clone(), file)).map_err(|source| (path, source))),
            })
            .expect("an unbounded range yields a free name")
            .map_err(|(path, source)| Error::Io { action: "create", path, source })?;
        debug_assert!(path.file_name().and_then(|name| name.to_str()).is_some_and(is_temp_name));
        let io_error = |action, source| Error::Io { action, path: path.clone(), source };
        let temp = TempFile { path: path.clone(), _lock: file, placed: AtomicBool::new(false) };
        temp._lock.try_lock().map_err(|e| io_error("lock", io::Error::other(e.to_string())))?;
        let writer = temp._lock.try_clone().map_err(|e| io_error("open", e))?;
        let mut encoder =
            zstd::stream::Encoder::new(BufWriter::new(writer), LEVEL).map_err(|e| io_error("start", e))?;
        encoder.include_checksum(true).map_err(|e| io_error("start", e))?;
        Ok(ArchiveWriter { temp, encoder, tally: Tally::default() })
    }

    /// Appends `bytes` to the output.
    pub fn write(&mut self, bytes: &[u8]) -> Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        self.encoder.write_all(bytes).map_err(|source| Error::Io {
            action: "write the archive blob",
            path: self.temp.path.clone(),
            source,
        })?;
        self.tally.push(bytes);
        Ok(())
    }

    /// Bytes written so far.
    pub fn len(&self) -> u64 {
        self.tally.raw_bytes
    }

    /// Whether nothing was written yet.
    pub fn is_empty(&self) -> bool {
        self.tally.raw_bytes == 0
    }

    /// Ends the output: its blob is complete on disk, ready for [`Store::archive_put_written`].
    pub fn finish(self) -> Result<WrittenBlob> {
        let ArchiveWriter { temp, encoder, tally } = self;
        let io_error = |source| Error::Io { action: "write the archive blob", path: temp.path.clone(), source };
        let mut buffered = encoder.finish().map_err(io_error)?;
        buffered.flush().map_err(io_error)?;
        drop(buffered);
        let stored_bytes = fs::metadata(&temp.path).map_err(io_error)?.len();
        Ok(tally.written(temp, stored_bytes))
    }
}

#[derive(Debug)]
struct Written {
    temp: TempFile,
    id: String,
    raw_bytes: u64,
    raw_lines: u64,
    stored_bytes: u64,
    index_text: String,
}

/// A complete blob not yet in the archive; cheap to clone (all clones are one blob). Its file is
/// deleted when the last clone is dropped without having been put.
#[derive(Debug, Clone)]
pub struct WrittenBlob(Arc<Written>);

impl PartialEq for WrittenBlob {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for WrittenBlob {}

impl WrittenBlob {
    /// The blob finished in the staging file at `path` ([`WrittenBlob::path`]) by a process that
    /// ended before putting it (killed right after its answer named the id), taken over with
    /// its lock: read back whole, so its id and row are what the writer's were. Fails when the
    /// file is gone (put or swept since), another process holds it, or it does not decompress.
    pub fn recover(path: &Path) -> Result<WrittenBlob> {
        let io_error = |action, source| Error::Io { action, path: path.to_path_buf(), source };
        if !path.file_name().and_then(|name| name.to_str()).is_some_and(is_temp_name) {
            return Err(Error::InvalidInput(format!("{} is no archive staging file", path.display())));
        }
        let file = File::open(path).map_err(|e| io_error("open", e))?;
        file.try_lock().map_err(|e| io_error("lock", io::Error::other(e.to_string())))?;
        let temp = TempFile { path: path.to_path_buf(), _lock: file, placed: AtomicBool::new(false) };
        let stored_bytes = temp._lock.metadata().map_err(|e| io_error("read", e))?.len();
        let mut decoder = zstd::stream::read::Decoder::new(&temp._lock).map_err(|e| io_error("read", e))?;
        let mut tally = Tally::default();
        let mut chunk = vec![0; 64 * 1024];
        loop {
            match io::Read::read(&mut decoder, &mut chunk) {
                Ok(0) => break,
                Ok(n) => tally.push(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(io_error("decompress", e)),
            }
        }
        drop(decoder);
        Ok(tally.written(temp, stored_bytes))
    }

    /// The staging file holding the blob until it is put.
    pub fn path(&self) -> &Path {
        &self.0.temp.path
    }

    /// The id the output will be archived under: the hash of every byte written.
    pub fn id(&self) -> &str {
        &self.0.id
    }

    pub fn raw_bytes(&self) -> u64 {
        self.0.raw_bytes
    }

    pub(super) fn raw_lines(&self) -> u64 {
        self.0.raw_lines
    }

    pub(super) fn stored_bytes(&self) -> u64 {
        self.0.stored_bytes
    }

    pub(super) fn index_text(&self) -> &str {
        &self.0.index_text
    }

    /// Moves the blob's file to `path`; once placed it is the archive's, not the clones'.
    pub(super) fn place(&self, path: &Path) -> Result<()> {
        let temp = &self.0.temp;
        if temp.placed.load(Ordering::Acquire) {
            // Put before, and the archive has since lost the file (the caller saw it missing).
            return Err(Error::ArchiveDamaged {
                id: self.0.id.clone(),
                path: path.to_path_buf(),
                reason: "its blob was archived once and is missing now".to_owned(),
            });
        }
        super::blob::create_parent(path)?;
        fs::rename(&temp.path, path).map_err(|source| Error::Io {
            action: "move the archive blob into place at",
            path: path.to_path_buf(),
            source,
        })?;
        temp.placed.store(true, Ordering::Release);
        Ok(())
    }
}

/// Whether the temporary file at `path` is stale: it exists and no writer holds its lock.
pub(super) fn is_stale_temp(path: &Path) -> bool {
    File::open(path).is_ok_and(|file| file.try_lock().is_ok())
}

/// An archived output read back line by line, decompressing as it goes.
pub struct ArchiveReader {
    id: String,
    path: PathBuf,
    lines: BufReader<zstd::stream::read::Decoder<'static, BufReader<File>>>,
}

impl ArchiveReader {
    pub(super) fn open(path: PathBuf, id: &str) -> Result<ArchiveReader> {
        let file = match File::open(&path) {
            Ok(file) => file,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Err(Error::ArchiveDamaged {
                    id: id.to_owned(),
                    path,
                    reason: "its blob file is missing".to_owned(),
                });
            }
            Err(source) => return Err(Error::Io { action: "read", path, source }),
        };
        let decoder = zstd::stream::read::Decoder::new(file).map_err(|source| Error::Io {
            action: "read",
            path: path.clone(),
            source,
        })?;
        Ok(ArchiveReader { id: id.to_owned(), path, lines: BufReader::new(decoder) })
    }

    /// Appends the next line, with its newline when it has one, to `line`; 0 at the end.
    pub fn read_line(&mut self, line: &mut Vec<u8>) -> Result<usize> {
        self.lines.read_until(b'\n', line).map_err(|error| Error::ArchiveDamaged {
            id: self.id.clone(),
            path: self.path.clone(),
            reason: format!("its blob does not decompress: {error}"),
        })
    }
}
