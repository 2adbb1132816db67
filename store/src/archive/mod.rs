//! The output archive: the full original of every output lean-ctxd shortened, so that an agent can
//! expand it later by the short handle the shortened output carries.
//!
//! The bytes live in content-addressed blob files, `<dir>/<id[0..2]>/<id>.zst` (zstd with a
//! content checksum), where `id` is the first 16 hex characters of the BLAKE3 hash of the raw
//! bytes; the `archive` table of `state.db` describes them and `archive_fts` indexes their text.
//! The caller chooses the directory (the daemon passes `<data>/archive`); one directory belongs to
//! one `state.db`.
//!
//! The modules: `blob` (ids and blob files), `rows` (the `archive` table), `index` (the full-text
//! index), `stream` (archiving an output as it is produced, reading one back by lines), `search`
//! and `snippet` (finding outputs), `sweep` (retention).
//!
//! # Writers
//! A blob is written to a temporary file in its directory and renamed into place, while the
//! writer holds the database write lock, and [`Store::archive_sweep`] deletes blobs under the
//! same lock. So a put, a sweep and another process's put never interleave between a blob and its
//! row, and a sweep may remove any blob without a live row (left by a put that crashed before its
//! commit) and any temporary file (left by a put that crashed while writing).
//!
//! # Durability
//! Like the rest of the store, a blob is not flushed to disk on every put: after a power loss the
//! newest blobs may be incomplete. Reading one then fails with [`Error::ArchiveDamaged`] (the zstd
//! checksum and the BLAKE3 id both catch it) instead of returning wrong bytes.

mod blob;
mod index;
mod rows;
mod search;
mod snippet;
mod stream;
#[cfg(test)]
mod stream_tests;
mod sweep;
#[cfg(test)]
mod tests;

use std::path::Path;

use rusqlite::{OptionalExtension, params};

pub use blob::{ARCHIVE_ID_LEN, archive_id};
use blob::{blob_path, compress, file_size, normalize_id, read_blob, write_blob};
use index::{index, indexed_text};
use rows::{COLUMNS, Sizes, insert_live, meta_from_row, refresh_live, row_state, set_stored_bytes};
pub use stream::{ArchiveReader, ArchiveWriter, WrittenBlob};

use crate::error::{Error, Result, non_empty, sql_count};
use crate::{Store, now_ms};

/// An output to archive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArchiveEntry<'a> {
    /// What is archived, e.g. `"shell"`.
    pub kind: &'a str,
    /// Where it came from, e.g. the command line; searchable.
    pub label: &'a str,
    /// The output family that shortened it, e.g. `"cargo_test"`.
    pub family: &'a str,
    /// `None` when there is no exit status (not a command, or killed by a signal).
    pub exit_code: Option<i32>,
    pub session: Option<&'a str>,
    pub project: &'a str,
    /// The full original bytes; need not be UTF-8.
    pub text: &'a [u8],
}

/// The description of an archived output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveMeta {
    /// 16 lowercase hex characters.
    pub id: String,
    /// When it was archived (or archived again after it had expired).
    pub created_ms: i64,
    pub kind: String,
    pub label: String,
    pub family: String,
    pub exit_code: Option<i32>,
    pub raw_bytes: u64,
    /// Lines of the raw text, counting a last line without a newline.
    pub raw_lines: u64,
    /// Size of the compressed blob file.
    pub stored_bytes: u64,
    pub session: Option<String>,
    pub project: String,
    /// When retention removed it; `None` while it can be expanded.
    pub expired_ms: Option<i64>,
}

/// An archived output with its original bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Archived {
    pub meta: ArchiveMeta,
    pub bytes: Vec<u8>,
}

/// One archived output found by [`Store::archive_search`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveHit {
    pub id: String,
    pub kind: String,
    pub label: String,
    pub project: String,
    pub created_ms: i64,
    pub raw_lines: u64,
    /// The line of the text with the first matching word, cut to about 160 characters around it
    /// (`…` marks a cut; control characters become spaces). The first non-empty line when only the
    /// label matched or the query had no word; empty when the blob cannot be read.
    pub snippet: String,
}

/// What [`Store::archive_sweep`] removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SweepReport {
    /// Archived outputs marked expired.
    pub expired: usize,
    /// Blob files without a live row that were deleted, and stale temporary files.
    pub orphans: usize,
    /// Bytes of all the files deleted.
    pub freed_bytes: u64,
}

impl Store {
    /// Archives `entry.text` under `dir` and returns its id.
    ///
    /// Content already archived and live keeps its blob (a missing one is written again) and
    /// description, and the same id comes back; its row takes the new session, project and the
    /// current time, so an id just handed out is as young as a new one for retention and found by
    /// a search of the project that produced it last. Content whose archive had expired is
    /// revived: its blob is written again, and the row takes the new entry's description and the
    /// current time.
    pub fn archive_put(&mut self, dir: &Path, entry: &ArchiveEntry<'_>) -> Result<String> {
        non_empty("archive kind", entry.kind)?;
        non_empty("project", entry.project)?;
        let raw_bytes = sql_count("archived output size", entry.text.len() as u64)?;
        let id = archive_id(entry.text);
        let path = blob_path(dir, &id);
        // Already archived: no compression; one small update.
        if let Some((None, stored)) = row_state(&self.conn, &id)?
            && file_size(&path) == Some(stored)
        {
            let tx = self.write()?;
            refresh_live(&tx, &id, entry, now_ms())?;
            tx.commit()?;
            return Ok(id);
        }
        let compressed = compress(entry.text).map_err(|source| Error::Io {
            action: "compress the output for",
            path: path.clone(),
            source,
        })?;
        let sizes = Sizes {
            raw_bytes,
            raw_lines: sql_count("line count", line_count(entry.text))?,
            stored_bytes: compressed.len() as u64,
        };
        let body = indexed_text(entry.text);
        self.commit_put(&id, &path, entry, &sizes, &body, &mut |path| write_blob(path, &compressed))?;
        Ok(id)
    }

    /// Archives the output `blob` streamed under `dir` (see [`ArchiveWriter`]), described by
    /// `entry`, whose `text` must be empty: the blob holds the bytes. Otherwise as
    /// [`Store::archive_put`]: the same content keeps one blob and one row, and a put from
    /// several clones of one blob archives it once.
    pub fn archive_put_written(&mut self, dir: &Path, entry: &ArchiveEntry<'_>, blob: &WrittenBlob) -> Result<String> {
        non_empty("archive kind", entry.kind)?;
        non_empty("project", entry.project)?;
        if !entry.text.is_empty() {
            return Err(Error::InvalidInput(
                "a streamed output's bytes are in its blob; its entry must carry no text".to_owned(),
            ));
        }
        let sizes = Sizes {
            raw_bytes: sql_count("archived output size", blob.raw_bytes())?,
            raw_lines: sql_count("line count", blob.raw_lines())?,
            stored_bytes: blob.stored_bytes(),
        };
        let id = blob.id().to_owned();
        let path = blob_path(dir, &id);
        self.commit_put(&id, &path, entry, &sizes, blob.index_text(), &mut |path| blob.place(path))?;
        Ok(id)
    }

    /// Records the output `id` whose blob belongs at `path`, calling `place` to put the blob
    /// there only when the file is not already what the row describes; one write transaction,
    /// which is what keeps a put and a sweep from interleaving between a blob and its row.
    fn commit_put(
        &mut self,
        id: &str,
        path: &Path,
        entry: &ArchiveEntry<'_>,
        sizes: &Sizes,
        body: &str,
        place: &mut dyn FnMut(&Path) -> Result<()>,
    ) -> Result<()> {
        let now = now_ms();
        let tx = self.write()?;
        match row_state(&tx, id)? {
            Some((None, stored)) => {
                // Live: repair a missing or truncated blob.
                if file_size(path) != Some(stored) {
                    place(path)?;
                    set_stored_bytes(&tx, id, sizes.stored_bytes)?;
                }
                refresh_live(&tx, id, entry, now)?;
            }
            state => {
                // New, or expired and revived. A blob of a new id may be left by a put that
                // crashed before its commit; one of an expired id was deleted by the sweep.
                if state.is_some() || file_size(path) != Some(sizes.stored_bytes) {
                    place(path)?;
                }
                insert_live(&tx, id, entry, sizes, now)?;
                index(&tx, id, entry.label, body)?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// The archived output `id` (any letter case) under `dir`, to read line by line without
    /// holding it in memory; fails as [`Store::archive_get`] does. The blob's checksum is checked
    /// only as far as it is read.
    pub fn archive_open(&self, dir: &Path, id: &str) -> Result<(ArchiveMeta, ArchiveReader)> {
        let id = normalize_id(id)?;
        let meta = self.archive_meta(&id)?.ok_or_else(|| Error::ArchiveNotFound { id: id.clone() })?;
        if let Some(expired_ms) = meta.expired_ms {
            return Err(Error::ArchiveExpired { id, expired_ms });
        }
        let reader = ArchiveReader::open(blob_path(dir, &id), &id)?;
        Ok((meta, reader))
    }

    /// The archived output `id` (any letter case) with its original bytes, read from `dir`.
    ///
    /// Fails with [`Error::ArchiveNotFound`] for an id never archived, [`Error::ArchiveExpired`] for
    /// one removed by retention, and [`Error::ArchiveDamaged`] when its blob is missing or does not
    /// decompress to the bytes the id names.
    pub fn archive_get(&self, dir: &Path, id: &str) -> Result<Archived> {
        let id = normalize_id(id)?;
        let meta = self.archive_meta(&id)?.ok_or_else(|| Error::ArchiveNotFound { id: id.clone() })?;
        if let Some(expired_ms) = meta.expired_ms {
            return Err(Error::ArchiveExpired { id, expired_ms });
        }
        let bytes = read_blob(&blob_path(dir, &id), &id, meta.raw_bytes)?;
        Ok(Archived { meta, bytes })
    }

    /// The description of the archived output `id` (any letter case), expired or not; `None` for
    /// an id never archived.
    pub fn archive_meta(&self, id: &str) -> Result<Option<ArchiveMeta>> {
        let id = normalize_id(id)?;
        let sql = format!("SELECT {COLUMNS} FROM archive a WHERE a.id = ?1");
        Ok(self.conn.query_row(&sql, params![id], meta_from_row).optional()?)
    }
}

/// Lines of `bytes`: newlines, plus one for a last line without its newline.
fn line_count(bytes: &[u8]) -> u64 {
    let newlines = bytes.iter().filter(|&&byte| byte == b'\n').count() as u64;
    newlines + u64::from(bytes.last().is_some_and(|&byte| byte != b'\n'))
}
