//! Blob files: archive ids, where an id's blob lives, and writing, reading and deleting blobs.
//!
//! A blob is `<dir>/<id[0..2]>/<id>.zst`: the raw bytes compressed by zstd with a content
//! checksum. Writes go to a temporary file beside the blob and are renamed into place, so a reader
//! never sees half a blob under its final name.

use std::fs::{self, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Hex characters of an archive id: 64 bits of the BLAKE3 hash.
pub const ARCHIVE_ID_LEN: usize = 16;

/// zstd level of the blobs: zstd's default, fast enough to archive on the response path.
pub(super) const LEVEL: i32 = 3;

/// The archive id of `bytes`: the first 16 hex characters of their BLAKE3 hash.
pub fn archive_id(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex()[..ARCHIVE_ID_LEN].to_owned()
}

/// Checks that `id` is an archive id and lowercases it; nothing touches the file system before.
pub(super) fn normalize_id(id: &str) -> Result<String> {
    let trimmed = id.trim();
    if trimmed.len() == ARCHIVE_ID_LEN && trimmed.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return Ok(trimmed.to_ascii_lowercase());
    }
    let shown: String = trimmed.chars().take(40).collect();
    let more = if trimmed.chars().count() > 40 { "…" } else { "" };
    Err(Error::InvalidInput(format!(
        "{shown:?}{more} is not an archived-output id: ids are the {ARCHIVE_ID_LEN} hex characters a shortened \
         output names"
    )))
}

pub(super) fn blob_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(&id[..2]).join(format!("{id}.zst"))
}

/// The id a file named `name` in the shard directory `shard` is the blob of, if it is one.
pub(super) fn blob_id<'a>(shard: &str, name: &'a str) -> Option<&'a str> {
    let id = name.strip_suffix(".zst")?;
    let is_id = id.len() == ARCHIVE_ID_LEN
        && id.starts_with(shard)
        && id.bytes().all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'));
    is_id.then_some(id)
}

/// Whether `name` is a shard directory's name: the two hex characters every id in it starts with.
pub(super) fn is_shard_name(name: &str) -> bool {
    name.len() == 2 && name.bytes().all(|byte| byte.is_ascii_hexdigit())
}

/// Whether `name` is a temporary file of [`write_blob`].
pub(super) fn is_temp_name(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(".tmp")
}

pub(super) fn compress(bytes: &[u8]) -> io::Result<Vec<u8>> {
    let mut compressor = zstd::bulk::Compressor::new(LEVEL)?;
    compressor.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))?;
    compressor.compress(bytes)
}

/// The `raw_bytes` bytes archived as `id`, read from its blob at `path`; [`Error::ArchiveDamaged`]
/// when the blob is missing or does not decompress to exactly the bytes the id names.
pub(super) fn read_blob(path: &Path, id: &str, raw_bytes: u64) -> Result<Vec<u8>> {
    let damaged = |reason: String| Error::ArchiveDamaged { id: id.to_owned(), path: path.to_path_buf(), reason };
    let compressed = match fs::read(path) {
        Ok(compressed) => compressed,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            return Err(damaged("its blob file is missing".to_owned()));
        }
        Err(source) => return Err(Error::Io { action: "read", path: path.to_path_buf(), source }),
    };
    let capacity = usize::try_from(raw_bytes)
        .map_err(|_| damaged(format!("its recorded size of {raw_bytes} bytes does not fit in memory")))?;
    let bytes = zstd::bulk::decompress(&compressed, capacity)
        .map_err(|error| damaged(format!("its blob does not decompress: {error}")))?;
    if bytes.len() as u64 != raw_bytes || archive_id(&bytes) != id {
        return Err(damaged("its blob holds other bytes than the ones archived".to_owned()));
    }
    Ok(bytes)
}

pub(super) fn file_size(path: &Path) -> Option<u64> {
    fs::metadata(path).ok().filter(fs::Metadata::is_file).map(|metadata| metadata.len())
}

/// Creates the shard directory a blob at `path` goes into, and returns it.
pub(super) fn create_parent(path: &Path) -> Result<&Path> {
    let parent = path.parent().expect("a blob path has a directory");
    fs::create_dir_all(parent).map_err(|source| Error::Io {
        action: "create the archive directory",
        path: parent.to_path_buf(),
        source,
    })?;
    Ok(parent)
}

/// Writes `bytes` to `path` atomically: into a new temporary file beside it, then renamed.
pub(super) fn write_blob(path: &Path, bytes: &[u8]) -> Result<()> {
    let parent = create_parent(path)?;
    let name = path.file_name().expect("a blob path has a file name").to_string_lossy();
    let pid = std::process::id();
    let (temp, mut file) = (0u32..)
        .map(|n| parent.join(format!(".{name}.{pid}-{n}.tmp")))
        .find_map(|temp| match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => None,
            opened => Some(opened.map(|file| (temp.clone(), file)).map_err(|source| (temp, source))),
        })
        .expect("an unbounded range yields a free name")
        .map_err(|(temp, source)| Error::Io { action: "create", path: temp, source })?;
    let written = file.write_all(bytes).and_then(|()| fs::rename(&temp, path));
    if let Err(source) = written {
        drop(file);
        let _ = fs::remove_file(&temp);
        return Err(Error::Io { action: "write the archive blob", path: path.to_path_buf(), source });
    }
    Ok(())
}

/// Deletes a file; returns its size, or `None` when it did not exist.
pub(super) fn remove_file(path: &Path) -> Result<Option<u64>> {
    let size = file_size(path);
    match fs::remove_file(path) {
        Ok(()) => Ok(size),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(Error::Io { action: "delete", path: path.to_path_buf(), source }),
    }
}

/// The entries of `dir` by name; none when it does not exist.
pub(super) fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>> {
    let io_error = |source| Error::Io { action: "list", path: dir.to_path_buf(), source };
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(io_error(source)),
    };
    let mut paths =
        entries.map(|entry| entry.map(|entry| entry.path())).collect::<io::Result<Vec<_>>>().map_err(io_error)?;
    paths.sort();
    Ok(paths)
}
