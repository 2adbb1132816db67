//! The output archive: the full original of every output lean-ctxd shortened, so that an agent can
//! expand it later by the short handle the shortened output carries.
//!
//! The bytes live in content-addressed blob files, `<dir>/<id[0..2]>/<id>.zst` (zstd with a
//! content checksum), where `id` is the first 16 hex characters of the BLAKE3 hash of the raw
//! bytes; the `archive` table of `state.db` describes them and `archive_fts` indexes their text.
//! The caller chooses the directory (the daemon passes `<data>/archive`); one directory belongs to
//! one `state.db`.
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

use std::borrow::Cow;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::{Error, Result, non_empty, sql_count, sql_limit};
use crate::knowledge::{search_terms, terms_expression};
use crate::{Store, now_ms};

/// Hex characters of an archive id: 64 bits of the BLAKE3 hash.
pub const ARCHIVE_ID_LEN: usize = 16;

/// zstd level of the blobs: zstd's default, fast enough to archive on the response path.
const LEVEL: i32 = 3;

/// Most bytes of one output the search index takes: its first and last half of this. Indexing
/// costs about 40 ms per MB on the response path and grows `state.db` by about the compressed size.
const INDEX_LIMIT: usize = 8 * 1024 * 1024;

/// Characters of context a search snippet shows around its match.
const SNIPPET_CHARS: usize = 160;
/// Of those, how many come before the first matching word.
const SNIPPET_LEAD: usize = 40;

const COLUMNS: &str = "a.id, a.created_ms, a.kind, a.label, a.family, a.exit_code, a.raw_bytes, a.raw_lines, \
                       a.stored_bytes, a.session, a.project, a.expired_ms";

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
        let id = content_id(entry.text);
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
        let stored_bytes = compressed.len() as u64;
        let raw_lines = sql_count("line count", line_count(entry.text))?;
        let body = indexed_text(entry.text);
        let now = now_ms();

        let tx = self.write()?;
        match row_state(&tx, &id)? {
            Some((None, stored)) => {
                // Live: repair a missing or truncated blob.
                if file_size(&path) != Some(stored) {
                    write_blob(&path, &compressed)?;
                    tx.execute("UPDATE archive SET stored_bytes = ?2 WHERE id = ?1", params![id, stored_bytes])?;
                }
                refresh_live(&tx, &id, entry, now)?;
            }
            state => {
                // New, or expired and revived. A blob of a new id may be left by a put that
                // crashed before its commit; one of an expired id was deleted by the sweep.
                if state.is_some() || file_size(&path) != Some(stored_bytes) {
                    write_blob(&path, &compressed)?;
                }
                tx.execute(
                    "INSERT INTO archive (id, created_ms, kind, label, family, exit_code, raw_bytes, raw_lines,
                         stored_bytes, session, project)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                     ON CONFLICT (id) DO UPDATE SET created_ms = excluded.created_ms, kind = excluded.kind,
                         label = excluded.label, family = excluded.family, exit_code = excluded.exit_code,
                         raw_bytes = excluded.raw_bytes, raw_lines = excluded.raw_lines,
                         stored_bytes = excluded.stored_bytes, session = excluded.session,
                         project = excluded.project, expired_ms = NULL",
                    params![
                        id,
                        now,
                        entry.kind,
                        entry.label,
                        entry.family,
                        entry.exit_code,
                        raw_bytes,
                        raw_lines,
                        stored_bytes,
                        entry.session,
                        entry.project
                    ],
                )?;
                index(&tx, &id, entry.label, &body)?;
            }
        }
        tx.commit()?;
        Ok(id)
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
        let path = blob_path(dir, &id);
        let damaged = |reason: String| Error::ArchiveDamaged { id: id.clone(), path: path.clone(), reason };
        let compressed = match fs::read(&path) {
            Ok(compressed) => compressed,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Err(damaged("its blob file is missing".to_owned()));
            }
            Err(source) => return Err(Error::Io { action: "read", path, source }),
        };
        let capacity = usize::try_from(meta.raw_bytes)
            .map_err(|_| damaged(format!("its recorded size of {} bytes does not fit in memory", meta.raw_bytes)))?;
        let bytes = zstd::bulk::decompress(&compressed, capacity)
            .map_err(|error| damaged(format!("its blob does not decompress: {error}")))?;
        if bytes.len() as u64 != meta.raw_bytes || content_id(&bytes) != id {
            return Err(damaged("its blob holds other bytes than the ones archived".to_owned()));
        }
        Ok(Archived { meta, bytes })
    }

    /// The description of the archived output `id` (any letter case), expired or not; `None` for
    /// an id never archived.
    pub fn archive_meta(&self, id: &str) -> Result<Option<ArchiveMeta>> {
        let id = normalize_id(id)?;
        let sql = format!("SELECT {COLUMNS} FROM archive a WHERE a.id = ?1");
        Ok(self.conn.query_row(&sql, params![id], meta_from_row).optional()?)
    }

    /// The live archived outputs whose label or text best match `query`, best first, at most
    /// `limit`, each with a snippet read from its blob in `dir`.
    ///
    /// The query is plain words, sanitized like [`Store::recall`]: every run of letters and digits
    /// is a prefix term and the terms are OR-ed. Ranking is bm25 (a label match weighs double),
    /// then newest first, then id. A query without any word lists the newest outputs. `project`
    /// keeps only the outputs last archived from that project.
    pub fn archive_search(
        &self,
        dir: &Path,
        query: &str,
        project: Option<&str>,
        limit: usize,
    ) -> Result<Vec<ArchiveHit>> {
        let terms = search_terms(query);
        let limit = sql_limit(limit);
        let metas = match terms_expression(&terms) {
            None => {
                let sql = format!(
                    "SELECT {COLUMNS} FROM archive a WHERE a.expired_ms IS NULL AND (?2 IS NULL OR a.project = ?2)
                     ORDER BY a.created_ms DESC, a.id LIMIT ?1"
                );
                query_metas(&self.conn, &sql, params![limit, project])?
            }
            Some(expression) => {
                let sql = format!(
                    "SELECT {COLUMNS} FROM archive_fts f JOIN archive a ON a.id = printf('%016x', f.rowid)
                     WHERE archive_fts MATCH ?1 AND a.expired_ms IS NULL AND (?3 IS NULL OR a.project = ?3)
                     ORDER BY bm25(archive_fts, 2.0, 1.0), a.created_ms DESC, a.id LIMIT ?2"
                );
                query_metas(&self.conn, &sql, params![expression, limit, project])?
            }
        };
        Ok(metas
            .into_iter()
            .map(|meta| ArchiveHit {
                snippet: snippet(&blob_path(dir, &meta.id), meta.raw_bytes, &terms),
                id: meta.id,
                kind: meta.kind,
                label: meta.label,
                project: meta.project,
                created_ms: meta.created_ms,
                raw_lines: meta.raw_lines,
            })
            .collect())
    }

    /// Applies retention to the archive in `dir`: expires every live output archived more than
    /// `max_age_ms` before `now_ms`, then the oldest remaining ones until their blobs total at most
    /// `max_total_bytes`, sparing those archived at or after `now_ms`. Oldest first means by
    /// `created_ms`, then id.
    ///
    /// An expired output keeps its row (so expanding it says it expired, and when) but loses its
    /// blob and its search entry. The sweep also deletes blob files that have no live row and
    /// temporary files left by an interrupted put, which costs one walk over `dir`.
    pub fn archive_sweep(
        &mut self,
        dir: &Path,
        now_ms: i64,
        max_age_ms: i64,
        max_total_bytes: u64,
    ) -> Result<SweepReport> {
        if max_age_ms < 0 {
            return Err(Error::InvalidInput(format!(
                "the archive's maximum age must not be negative, got {max_age_ms}"
            )));
        }
        let cutoff = now_ms.saturating_sub(max_age_ms);
        let mut report = SweepReport::default();
        let tx = self.write()?;
        let live: Vec<(String, i64, u64)> = tx
            .prepare(
                "SELECT id, created_ms, stored_bytes FROM archive WHERE expired_ms IS NULL ORDER BY created_ms, id",
            )?
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let mut total: u64 = live.iter().map(|(_, _, stored)| stored).sum();
        let mut doomed = Vec::new();
        for (id, created_ms, stored) in live {
            // An output archived at or after `now_ms` (by a put racing this sweep) is one whose
            // id was just handed out: never expired here, whatever the size.
            if created_ms >= now_ms || (created_ms >= cutoff && total <= max_total_bytes) {
                break;
            }
            total = total.saturating_sub(stored);
            doomed.push(id);
        }
        for id in &doomed {
            tx.execute("UPDATE archive SET expired_ms = ?2 WHERE id = ?1", params![id, now_ms])?;
            tx.execute("DELETE FROM archive_fts WHERE rowid = ?1", params![fts_rowid(id)])?;
        }
        // Files go last, so that a failed update leaves no live row without its blob.
        for id in &doomed {
            report.freed_bytes += remove_file(&blob_path(dir, id))?.unwrap_or(0);
        }
        report.expired = doomed.len();
        collect_orphans(&tx, dir, &mut report)?;
        tx.commit()?;
        Ok(report)
    }
}

/// The archive id of `bytes`: the first 16 hex characters of their BLAKE3 hash.
pub fn archive_id(bytes: &[u8]) -> String {
    content_id(bytes)
}

fn content_id(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex()[..ARCHIVE_ID_LEN].to_owned()
}

/// Checks that `id` is an archive id and lowercases it; nothing touches the file system before.
fn normalize_id(id: &str) -> Result<String> {
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

/// The rowid of an output in `archive_fts`: its id read as a 64-bit integer (bijective, so two ids
/// never share a rowid, and `printf('%016x', rowid)` gives the id back).
fn fts_rowid(id: &str) -> i64 {
    let value = u64::from_str_radix(id, 16).expect("archive ids are validated hex");
    i64::from_ne_bytes(value.to_ne_bytes())
}

fn blob_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(&id[..2]).join(format!("{id}.zst"))
}

/// A live output archived again: it belongs to this session and project now, and its age
/// starts over (it is expired only if the sweep has run since `row_state` looked).
fn refresh_live(conn: &Connection, id: &str, entry: &ArchiveEntry<'_>, now_ms: i64) -> Result<()> {
    conn.execute(
        "UPDATE archive SET created_ms = MAX(created_ms, ?2), session = ?3, project = ?4
         WHERE id = ?1 AND expired_ms IS NULL",
        params![id, now_ms, entry.session, entry.project],
    )?;
    Ok(())
}

/// `(expired_ms, stored_bytes)` of the row of `id`, if there is one.
fn row_state(conn: &Connection, id: &str) -> Result<Option<(Option<i64>, u64)>> {
    Ok(conn
        .query_row("SELECT expired_ms, stored_bytes FROM archive WHERE id = ?1", params![id], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .optional()?)
}

/// Adds a live output to the search index, replacing any entry it had.
fn index(conn: &Connection, id: &str, label: &str, body: &str) -> Result<()> {
    let rowid = fts_rowid(id);
    conn.execute("DELETE FROM archive_fts WHERE rowid = ?1", params![rowid])?;
    conn.execute("INSERT INTO archive_fts (rowid, label, body) VALUES (?1, ?2, ?3)", params![rowid, label, body])?;
    Ok(())
}

/// The text the search index takes from an output: all of it, or for one longer than
/// [`INDEX_LIMIT`] its beginning and its end (where a log's summary and last errors are).
fn indexed_text(bytes: &[u8]) -> Cow<'_, str> {
    if bytes.len() <= INDEX_LIMIT {
        return String::from_utf8_lossy(bytes);
    }
    let half = INDEX_LIMIT / 2;
    let mut text = String::from_utf8_lossy(&bytes[..half]).into_owned();
    text.push('\n');
    text.push_str(&String::from_utf8_lossy(&bytes[bytes.len() - half..]));
    Cow::Owned(text)
}

fn compress(bytes: &[u8]) -> io::Result<Vec<u8>> {
    let mut compressor = zstd::bulk::Compressor::new(LEVEL)?;
    compressor.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))?;
    compressor.compress(bytes)
}

/// Lines of `bytes`: newlines, plus one for a last line without its newline.
fn line_count(bytes: &[u8]) -> u64 {
    let newlines = bytes.iter().filter(|&&byte| byte == b'\n').count() as u64;
    newlines + u64::from(bytes.last().is_some_and(|&byte| byte != b'\n'))
}

fn file_size(path: &Path) -> Option<u64> {
    fs::metadata(path).ok().filter(fs::Metadata::is_file).map(|metadata| metadata.len())
}

/// Writes `bytes` to `path` atomically: into a new temporary file beside it, then renamed.
fn write_blob(path: &Path, bytes: &[u8]) -> Result<()> {
    let parent = path.parent().expect("a blob path has a directory");
    fs::create_dir_all(parent).map_err(|source| Error::Io {
        action: "create the archive directory",
        path: parent.to_path_buf(),
        source,
    })?;
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
fn remove_file(path: &Path) -> Result<Option<u64>> {
    let size = file_size(path);
    match fs::remove_file(path) {
        Ok(()) => Ok(size),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(Error::Io { action: "delete", path: path.to_path_buf(), source }),
    }
}

/// Deletes blob files without a live row, and temporary files, from the archive in `dir`.
///
/// Runs inside the sweep's write transaction: every put writes its files under the same lock, so
/// no put is between writing a file and committing its row.
fn collect_orphans(conn: &Connection, dir: &Path, report: &mut SweepReport) -> Result<()> {
    let mut live = conn.prepare_cached("SELECT 1 FROM archive WHERE id = ?1 AND expired_ms IS NULL")?;
    let mut orphans = Vec::new();
    for shard in sorted_entries(dir)? {
        let Some(shard_name) = shard.file_name().and_then(|name| name.to_str()).map(str::to_owned) else { continue };
        if shard_name.len() != 2 || !shard_name.bytes().all(|byte| byte.is_ascii_hexdigit()) || !shard.is_dir() {
            continue;
        }
        for file in sorted_entries(&shard)? {
            let Some(name) = file.file_name().and_then(|name| name.to_str()) else { continue };
            let orphan = if name.starts_with('.') && name.ends_with(".tmp") {
                true
            } else if let Some(id) = name.strip_suffix(".zst")
                && id.len() == ARCHIVE_ID_LEN
                && id.starts_with(&shard_name)
                && id.bytes().all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'))
            {
                !live.exists(params![id])?
            } else {
                false
            };
            if orphan {
                orphans.push(file);
            }
        }
    }
    for orphan in orphans {
        if let Some(size) = remove_file(&orphan)? {
            report.orphans += 1;
            report.freed_bytes += size;
        }
    }
    Ok(())
}

/// The entries of `dir` by name; none when it does not exist.
fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>> {
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

fn query_metas(conn: &Connection, sql: &str, params: &[&dyn rusqlite::ToSql]) -> Result<Vec<ArchiveMeta>> {
    let mut statement = conn.prepare(sql)?;
    let metas = statement.query_map(params, meta_from_row)?;
    Ok(metas.collect::<rusqlite::Result<_>>()?)
}

fn meta_from_row(row: &Row<'_>) -> rusqlite::Result<ArchiveMeta> {
    Ok(ArchiveMeta {
        id: row.get(0)?,
        created_ms: row.get(1)?,
        kind: row.get(2)?,
        label: row.get(3)?,
        family: row.get(4)?,
        exit_code: row.get(5)?,
        raw_bytes: row.get(6)?,
        raw_lines: row.get(7)?,
        stored_bytes: row.get(8)?,
        session: row.get(9)?,
        project: row.get(10)?,
        expired_ms: row.get(11)?,
    })
}

/// The snippet of a search hit, read from its blob; empty when the blob cannot be read.
fn snippet(path: &Path, raw_bytes: u64, terms: &[String]) -> String {
    let Ok(file) = File::open(path) else { return String::new() };
    let Ok(decoder) = zstd::stream::read::Decoder::new(file) else { return String::new() };
    // The recorded size bounds what a damaged blob can make this read.
    find_snippet(BufReader::new(decoder.take(raw_bytes)), terms).unwrap_or_default()
}

/// The line with the first word that starts with one of `terms`, cut around that word; else the
/// first non-empty line.
fn find_snippet(mut reader: impl BufRead, terms: &[String]) -> io::Result<String> {
    let mut first = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Ok(first.unwrap_or_default());
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\n', '\r']);
        if let Some(at) = first_match(text, terms) {
            return Ok(clip(text, at));
        }
        if first.is_none() && !text.trim().is_empty() {
            first = Some(clip(text, 0));
            if terms.is_empty() {
                return Ok(first.unwrap_or_default());
            }
        }
    }
}

/// The byte offset of the first word of `text` (a run of letters and digits, as FTS5 indexes it)
/// that starts with one of `terms` (lowercase).
fn first_match(text: &str, terms: &[String]) -> Option<usize> {
    let mut start = None;
    for (at, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(at),
            (false, Some(from)) => {
                let word = text[from..at].to_lowercase();
                if terms.iter().any(|term| word.starts_with(term.as_str())) {
                    return Some(from);
                }
                start = None;
            }
            _ => {}
        }
    }
    None
}

/// About [`SNIPPET_CHARS`] characters of `line` around byte offset `at`, trimmed, control
/// characters as spaces, `…` where it was cut.
fn clip(line: &str, at: usize) -> String {
    let chars: Vec<char> = line.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let at = line[..at].chars().count();
    let start = at.saturating_sub(SNIPPET_LEAD).min(chars.len().saturating_sub(SNIPPET_CHARS));
    let end = (start + SNIPPET_CHARS).min(chars.len());
    let inner: String = chars[start..end].iter().collect();
    let mut clipped = String::new();
    if start > 0 {
        clipped.push('…');
    }
    clipped.push_str(inner.trim());
    if end < chars.len() {
        clipped.push('…');
    }
    clipped
}

#[cfg(test)]
mod tests {
    use std::sync::Barrier;
    use std::thread;

    use super::*;
    use crate::testutil::temp_store;

    fn entry<'a>(label: &'a str, text: &'a [u8]) -> ArchiveEntry<'a> {
        ArchiveEntry {
            kind: "shell",
            label,
            family: "generic",
            exit_code: Some(0),
            session: Some("s1"),
            project: "/repo",
            text,
        }
    }

    /// Every `.zst` blob under `dir`, sorted.
    fn blobs(dir: &Path) -> Vec<PathBuf> {
        sorted_entries(dir).unwrap().iter().flat_map(|shard| sorted_entries(shard).unwrap()).collect()
    }

    /// Deterministic text of about `len` bytes: numbered log lines with pseudo-random words.
    fn log_text(len: usize, seed: u64) -> Vec<u8> {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut text = Vec::with_capacity(len + 100);
        let mut line = 0;
        while text.len() < len {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            line += 1;
            text.extend_from_slice(format!("line {line}: value {state:x} status ok\n").as_bytes());
        }
        text.truncate(len);
        text
    }

    fn set_created(store: &Store, id: &str, created_ms: i64) {
        store.conn.execute("UPDATE archive SET created_ms = ?2 WHERE id = ?1", params![id, created_ms]).unwrap();
    }

    #[test]
    fn round_trip_returns_the_exact_bytes() {
        let (dir, mut store) = temp_store();
        let archive = dir.path().join("archive");
        let binary: Vec<u8> =
            (0..=255u8).chain([0, 0xff, 0xfe, b'\n', 0xc3, 0x28, b'\r']).cycle().take(10_000).collect();
        let big = log_text(5 * 1024 * 1024, 7);
        for text in [&b"hello\nworld"[..], &binary, &[], &big, b"\n\n"] {
            let id = store.archive_put(&archive, &entry("cargo test", text)).unwrap();
            assert_eq!(id, archive_id(text));
            assert_eq!(id.len(), ARCHIVE_ID_LEN);
            let got = store.archive_get(&archive, &id).unwrap();
            assert!(got.bytes == text, "{} bytes came back different", text.len());
            let meta = got.meta;
            assert_eq!((meta.raw_bytes, meta.raw_lines), (text.len() as u64, line_count(text)));
            assert_eq!(Some(meta.stored_bytes), file_size(&blob_path(&archive, &id)));
            assert_eq!(meta.expired_ms, None);
            // Ids are accepted in any case.
            assert_eq!(store.archive_get(&archive, &id.to_uppercase()).unwrap().bytes.len(), text.len());
        }
        let meta = store.archive_meta(&archive_id(&big)).unwrap().unwrap();
        assert!(meta.stored_bytes < meta.raw_bytes / 2, "5 MB of log compresses: {meta:?}");
        let expected = ArchiveMeta {
            id: archive_id(b"hello\nworld"),
            created_ms: meta.created_ms,
            kind: "shell".to_owned(),
            label: "cargo test".to_owned(),
            family: "generic".to_owned(),
            exit_code: Some(0),
            raw_bytes: 11,
            raw_lines: 2,
            stored_bytes: file_size(&blob_path(&archive, &archive_id(b"hello\nworld"))).unwrap(),
            session: Some("s1".to_owned()),
            project: "/repo".to_owned(),
            expired_ms: None,
        };
        let mut hello = store.archive_meta(&expected.id).unwrap().unwrap();
        hello.created_ms = meta.created_ms;
        assert_eq!(hello, expected);
        assert_eq!((line_count(b""), line_count(b"\n\n"), line_count(b"a")), (0, 2, 1));
        let blob = blobs(&archive)[0].clone();
        let name = blob.file_name().unwrap().to_str().unwrap();
        assert_eq!(blob.parent().unwrap().file_name().unwrap().to_str().unwrap(), &name[..2]);
    }

    #[test]
    fn same_content_is_stored_once() {
        let (dir, mut store) = temp_store();
        let archive = dir.path().join("archive");
        let first = store.archive_put(&archive, &entry("git status", b"On branch main\n")).unwrap();
        let created = store.archive_meta(&first).unwrap().unwrap().created_ms;
        let other = ArchiveEntry { label: "git status --short", exit_code: Some(1), ..entry("", b"On branch main\n") };
        let second = store.archive_put(&archive, &other).unwrap();
        assert_eq!(first, second);
        assert_eq!(blobs(&archive).len(), 1);
        let meta = store.archive_meta(&first).unwrap().unwrap();
        assert_eq!((meta.label.as_str(), meta.exit_code), ("git status", Some(0)), "the description stays");
        assert!(meta.created_ms >= created, "its age starts over");
        let rows: i64 = store.conn.query_row("SELECT count(*) FROM archive", [], |row| row.get(0)).unwrap();
        assert_eq!(rows, 1);

        store.archive_put(&archive, &entry("git log", b"commit 1\n")).unwrap();
        assert_eq!(blobs(&archive).len(), 2);
        // A missing blob is written again by the next put of the same content.
        fs::remove_file(blob_path(&archive, &first)).unwrap();
        assert!(matches!(store.archive_get(&archive, &first), Err(Error::ArchiveDamaged { .. })));
        assert_eq!(store.archive_put(&archive, &entry("git status", b"On branch main\n")).unwrap(), first);
        assert_eq!(store.archive_get(&archive, &first).unwrap().bytes, b"On branch main\n");
    }

    #[test]
    fn search_finds_outputs_by_their_words() {
        let (dir, mut store) = temp_store();
        let archive = dir.path().join("archive");
        let failing = b"running 3 tests\ntest a ... ok\ntest parser::nested ... FAILED\n\nfailures: 1\n";
        let passing = b"running 2 tests\ntest a ... ok\ntest b ... ok\n";
        let failing_id = store.archive_put(&archive, &entry("cargo test -p parser", failing)).unwrap();
        let passing_id = store.archive_put(&archive, &entry("cargo test -p lexer", passing)).unwrap();
        set_created(&store, &failing_id, 1_000);
        set_created(&store, &passing_id, 2_000);

        let hits = store.archive_search(&archive, "FAILED", None, 10).unwrap();
        assert_eq!(hits.len(), 1);
        let hit = &hits[0];
        assert_eq!(
            (hit.id.as_str(), hit.label.as_str(), hit.created_ms),
            (failing_id.as_str(), "cargo test -p parser", 1_000)
        );
        assert_eq!((hit.kind.as_str(), hit.project.as_str(), hit.raw_lines), ("shell", "/repo", 5));
        assert_eq!(hit.snippet, "test parser::nested ... FAILED");
        // Prefix terms, the label, and OR-ed words.
        assert_eq!(store.archive_search(&archive, "fail", None, 10).unwrap()[0].id, failing_id);
        let by_label = store.archive_search(&archive, "lexer", None, 10).unwrap();
        assert_eq!(by_label.iter().map(|hit| hit.id.as_str()).collect::<Vec<_>>(), [passing_id.as_str()]);
        assert_eq!(by_label[0].snippet, "running 2 tests", "only the label matched: the first line");
        assert_eq!(store.archive_search(&archive, "tests", None, 10).unwrap().len(), 2);
        assert_eq!(store.archive_search(&archive, "tests", None, 1).unwrap().len(), 1);
        assert!(store.archive_search(&archive, "segfault", None, 10).unwrap().is_empty());
        // Only one project's outputs.
        assert_eq!(store.archive_search(&archive, "tests", Some("/repo"), 10).unwrap().len(), 2);
        assert!(store.archive_search(&archive, "tests", Some("/elsewhere"), 10).unwrap().is_empty());
        assert!(store.archive_search(&archive, "", Some("/elsewhere"), 10).unwrap().is_empty());
        // Without words: the newest first.
        let newest: Vec<_> =
            store.archive_search(&archive, " ?! ", None, 10).unwrap().into_iter().map(|hit| hit.id).collect();
        assert_eq!(newest, [passing_id.clone(), failing_id.clone()]);
        // The same query gives the same order every time.
        let order = |store: &Store| store.archive_search(&archive, "test ok", None, 10).unwrap();
        assert_eq!(order(&store), order(&store));

        for query in [
            "foo\"bar OR (",
            "\"",
            "(((",
            "AND OR NOT",
            "NEAR(foo bar)",
            "label:value",
            "body:FAILED",
            "*",
            "foo*",
            "-foo +bar",
            "^foo",
            "'; DROP TABLE archive; --",
            "",
            "   ",
        ] {
            store.archive_search(&archive, query, None, 10).unwrap_or_else(|e| panic!("query {query:?} failed: {e}"));
        }
        assert_eq!(store.archive_search(&archive, "body:FAILED", None, 10).unwrap()[0].id, failing_id);
    }

    #[test]
    fn long_outputs_index_their_beginning_and_end() {
        assert!(matches!(indexed_text(b"short"), Cow::Borrowed("short")));
        let mut long = vec![b'm'; INDEX_LIMIT + 1000];
        long[..5].copy_from_slice(b"head ");
        let end = long.len();
        long[end - 5..].copy_from_slice(b" tail");
        let text = indexed_text(&long);
        assert_eq!(text.len(), INDEX_LIMIT + 1);
        assert!(text.starts_with("head m") && text.ends_with("m tail"));
        assert_eq!(text.as_bytes()[INDEX_LIMIT / 2], b'\n');
    }

    #[test]
    fn snippets_cut_long_lines_around_the_match() {
        let terms = vec!["needle".to_owned()];
        let line = format!("{}needle{}\n", "a ".repeat(200), " b".repeat(200));
        let snippet = find_snippet(line.as_bytes(), &terms).unwrap();
        assert!(snippet.starts_with('…') && snippet.ends_with('…'), "{snippet}");
        assert_eq!(snippet.chars().count(), SNIPPET_CHARS + 2, "{snippet}");
        assert!(snippet.starts_with(&format!("…{}needle", "a ".repeat(SNIPPET_LEAD / 2))), "{snippet}");
        assert!(snippet.contains("needle"));
        // Words match from their start only, case-insensitively; control characters become spaces.
        assert_eq!(find_snippet(&b"haystack\n\tx NEEDLEs\x1b[0m\n"[..], &terms).unwrap(), "x NEEDLEs [0m");
        assert_eq!(find_snippet(&b"\n\nfirst\nsecond\n"[..], &terms).unwrap(), "first");
        assert_eq!(find_snippet(&b""[..], &terms).unwrap(), "");
        assert_eq!(find_snippet(&b"no match\r\n"[..], &[]).unwrap(), "no match");
        assert_eq!(first_match("ünïcode wörds", &["wör".to_owned()]), Some("ünïcode ".len()));
    }

    #[test]
    fn sweep_expires_the_oldest_by_age_and_by_size() {
        let (dir, mut store) = temp_store();
        let archive = dir.path().join("archive");
        let texts: Vec<Vec<u8>> = (0..4).map(|i| log_text(20_000, i + 1)).collect();
        let ids: Vec<String> =
            texts.iter().map(|text| store.archive_put(&archive, &entry("make", text)).unwrap()).collect();
        assert_eq!(blobs(&archive).len(), 4);
        for (i, id) in ids.iter().enumerate() {
            set_created(&store, id, 1_000 * (i as i64 + 1));
        }
        let stored: Vec<u64> = ids.iter().map(|id| store.archive_meta(id).unwrap().unwrap().stored_bytes).collect();

        // Nothing is old or large enough.
        assert_eq!(store.archive_sweep(&archive, 4_000, 10_000, u64::MAX).unwrap(), SweepReport::default());
        // By age: created at 1000 is older than 4500 - 3000; 2000 is not.
        let report = store.archive_sweep(&archive, 4_500, 3_000, u64::MAX).unwrap();
        assert_eq!(report, SweepReport { expired: 1, orphans: 0, freed_bytes: stored[0] });
        // By size: room for the newest two only.
        let report = store.archive_sweep(&archive, 4_600, 3_000, stored[2] + stored[3]).unwrap();
        assert_eq!(report, SweepReport { expired: 1, orphans: 0, freed_bytes: stored[1] });
        let report = store.archive_sweep(&archive, 4_700, i64::MAX, 0).unwrap();
        assert_eq!(report.expired, 2);
        assert!(blobs(&archive).is_empty());

        let expired_at = [4_500, 4_600, 4_700, 4_700];
        for (id, at) in ids.iter().zip(expired_at) {
            match store.archive_get(&archive, id) {
                Err(Error::ArchiveExpired { id: got, expired_ms }) => assert_eq!((&got, expired_ms), (id, at)),
                other => panic!("expected ArchiveExpired, got {other:?}"),
            }
            assert_eq!(store.archive_meta(id).unwrap().unwrap().expired_ms, Some(at));
        }
        let message = store.archive_get(&archive, &ids[0]).unwrap_err().to_string();
        assert!(
            message.contains("expired at 1970-01-01 00:00:04 UTC") && message.contains("can no longer"),
            "{message}"
        );
        assert!(
            store.archive_search(&archive, "line", None, 10).unwrap().is_empty(),
            "expired outputs leave the index"
        );
        assert!(store.archive_search(&archive, "", None, 10).unwrap().is_empty());

        // Archiving an expired content again revives it as new.
        let revived = store.archive_put(&archive, &entry("make again", &texts[0])).unwrap();
        assert_eq!(revived, ids[0]);
        assert_eq!(store.archive_get(&archive, &revived).unwrap().bytes, texts[0]);
        let meta = store.archive_meta(&revived).unwrap().unwrap();
        assert_eq!((meta.expired_ms, meta.label.as_str()), (None, "make again"));
        assert!(meta.created_ms > 1_000_000, "the revived output counts as new");
        assert_eq!(store.archive_search(&archive, "line", None, 10).unwrap().len(), 1);
    }

    #[test]
    fn equal_ages_expire_by_id() {
        let (dir, mut store) = temp_store();
        let archive = dir.path().join("archive");
        let mut ids: Vec<String> =
            (0..3).map(|i| store.archive_put(&archive, &entry("x", format!("out {i}").as_bytes())).unwrap()).collect();
        for id in &ids {
            set_created(&store, id, 5);
        }
        ids.sort();
        let keep = store.archive_meta(&ids[2]).unwrap().unwrap().stored_bytes;
        assert_eq!(store.archive_sweep(&archive, 10, 1_000, keep).unwrap().expired, 2);
        let live: Vec<_> =
            store.archive_search(&archive, "", None, 10).unwrap().into_iter().map(|hit| hit.id).collect();
        assert_eq!(live, [ids[2].clone()]);
    }

    #[test]
    fn unknown_invalid_and_damaged_ids_have_their_own_errors() {
        let (dir, mut store) = temp_store();
        let archive = dir.path().join("archive");
        match store.archive_get(&archive, "0123456789ABCDEF") {
            Err(error @ Error::ArchiveNotFound { .. }) => {
                let message = error.to_string();
                assert!(message.contains("0123456789abcdef") && message.contains("lctx expand --search"), "{message}");
            }
            other => panic!("expected ArchiveNotFound, got {other:?}"),
        }
        for id in
            ["", "../../etc/passwd", "0123456789abcde", "0123456789abcdef0", "0123456789abcdeg", "../0123456789ab"]
        {
            assert!(matches!(store.archive_get(&archive, id), Err(Error::InvalidInput(_))), "{id:?}");
            assert!(matches!(store.archive_meta(id), Err(Error::InvalidInput(_))), "{id:?}");
        }
        assert!(!archive.exists(), "nothing looked at the archive directory");

        let text = log_text(50_000, 3);
        let other = log_text(50_000, 4);
        let id = store.archive_put(&archive, &entry("build", &text)).unwrap();
        let other_id = store.archive_put(&archive, &entry("build", &other)).unwrap();
        let path = blob_path(&archive, &id);
        let good = fs::read(&path).unwrap();
        let damaged = |store: &Store| match store.archive_get(&archive, &id) {
            Err(error @ Error::ArchiveDamaged { .. }) => error.to_string(),
            other => panic!("expected ArchiveDamaged, got {other:?}"),
        };

        let mut flipped = good.clone();
        let middle = flipped.len() / 2;
        flipped[middle] ^= 0x55;
        fs::write(&path, &flipped).unwrap();
        let message = damaged(&store);
        assert!(
            message.contains(&path.display().to_string()) && message.contains("run the command again"),
            "{message}"
        );
        fs::write(&path, &good[..good.len() / 2]).unwrap();
        damaged(&store);
        fs::write(&path, b"not zstd at all").unwrap();
        damaged(&store);
        // A valid blob of other content is caught by the id check.
        fs::copy(blob_path(&archive, &other_id), &path).unwrap();
        damaged(&store);
        fs::remove_file(&path).unwrap();
        assert!(damaged(&store).contains("missing"));
        // Search still works and leaves the snippet empty.
        let hits = store.archive_search(&archive, "line", None, 10).unwrap();
        assert_eq!(hits.iter().find(|hit| hit.id == id).map(|hit| hit.snippet.as_str()), Some(""));
    }

    #[test]
    fn sweep_deletes_orphans_and_temporary_files_only() {
        let (dir, mut store) = temp_store();
        let archive = dir.path().join("archive");
        let id = store.archive_put(&archive, &entry("ls", b"a\nb\n")).unwrap();
        let orphan = blob_path(&archive, "abcdef0123456789");
        fs::create_dir_all(orphan.parent().unwrap()).unwrap();
        fs::write(&orphan, b"left by a crashed put").unwrap();
        let temp = archive.join(&id[..2]).join(format!(".{id}.zst.1-0.tmp"));
        fs::write(&temp, b"half").unwrap();
        let unrelated =
            [archive.join("README"), archive.join("ab").join("notes.txt"), archive.join("zz").join("x.tmp")];
        for path in &unrelated {
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, b"keep").unwrap();
        }
        let report = store.archive_sweep(&archive, now_ms(), i64::MAX, u64::MAX).unwrap();
        assert_eq!(report, SweepReport { expired: 0, orphans: 2, freed_bytes: 21 + 4 });
        assert!(!orphan.exists() && !temp.exists());
        assert!(unrelated.iter().all(|path| path.exists()));
        assert_eq!(store.archive_get(&archive, &id).unwrap().bytes, b"a\nb\n");
        // An archive directory that does not exist yet is empty.
        assert_eq!(store.archive_sweep(&dir.path().join("none"), now_ms() + 1, 0, 0).unwrap().expired, 1);
    }

    #[test]
    fn archiving_again_moves_the_output_to_the_new_project_and_a_racing_sweep_spares_it() {
        let (dir, mut store) = temp_store();
        let archive = dir.path().join("archive");
        let id = store.archive_put(&archive, &entry("make", b"built\n")).unwrap();
        set_created(&store, &id, 1_000);
        let elsewhere = ArchiveEntry { project: "/other", ..entry("make", b"built\n") };
        let started = now_ms();
        assert_eq!(store.archive_put(&archive, &elsewhere).unwrap(), id);
        let meta = store.archive_meta(&id).unwrap().unwrap();
        assert!(meta.created_ms >= started, "age starts over: {}", meta.created_ms);
        assert_eq!(store.archive_search(&archive, "built", Some("/other"), 10).unwrap().len(), 1);
        assert!(store.archive_search(&archive, "built", Some("/repo"), 10).unwrap().is_empty());
        // A sweep that began before that put (its `now` is older) leaves it alone, size or not.
        assert_eq!(store.archive_sweep(&archive, started - 1, 0, 0).unwrap().expired, 0);
        assert_eq!(store.archive_sweep(&archive, now_ms() + 1, i64::MAX, 0).unwrap().expired, 1);
    }

    #[test]
    fn bad_input_is_refused() {
        let (dir, mut store) = temp_store();
        let archive = dir.path().join("archive");
        assert!(matches!(store.archive_put(&archive, &entry("x", b"t")).map(|_| ()), Ok(())));
        for bad in [ArchiveEntry { kind: " ", ..entry("x", b"u") }, ArchiveEntry { project: "", ..entry("x", b"u") }] {
            assert!(matches!(store.archive_put(&archive, &bad), Err(Error::InvalidInput(_))));
        }
        assert!(matches!(store.archive_sweep(&archive, 0, -1, 0), Err(Error::InvalidInput(_))));
        assert_eq!(blobs(&archive).len(), 1);
    }

    #[test]
    fn two_connections_archive_at_once() {
        let (dir, _store) = temp_store();
        let db = dir.path().join("state.db");
        let archive = dir.path().join("archive");
        const ROUNDS: usize = 40;
        let barrier = Barrier::new(2);
        let shared = |i: usize| log_text(10_000 + i, 100 + i as u64);
        let own = |n: usize, i: usize| format!("writer {n} output {i}\n").into_bytes();
        thread::scope(|scope| {
            for n in 0..2 {
                let (db, archive, barrier) = (&db, &archive, &barrier);
                scope.spawn(move || {
                    let mut store = Store::open(db, crate::Check::Everything).unwrap().store;
                    barrier.wait();
                    for i in 0..ROUNDS {
                        let text = shared(i);
                        assert_eq!(store.archive_put(archive, &entry("shared", &text)).unwrap(), archive_id(&text));
                        store.archive_put(archive, &entry("own", &own(n, i))).unwrap();
                        if i % 10 == 9 {
                            store.archive_sweep(archive, now_ms(), i64::MAX, u64::MAX).unwrap();
                        }
                    }
                });
            }
        });
        let store = Store::open(&db, crate::Check::Everything).unwrap().store;
        let all = blobs(&archive);
        assert_eq!(all.len(), ROUNDS * 3, "one blob per content, no temporary file left: {all:?}");
        for i in 0..ROUNDS {
            for text in [shared(i), own(0, i), own(1, i)] {
                assert_eq!(store.archive_get(&archive, &archive_id(&text)).unwrap().bytes, text);
            }
        }
        assert_eq!(store.archive_search(&archive, "", None, usize::MAX).unwrap().len(), ROUNDS * 3);
    }
}
