//! Retention: expiring the oldest outputs by age and total size, and deleting the files no live
//! output owns.

use std::path::Path;

use rusqlite::{Connection, params};

use super::SweepReport;
use super::blob::{blob_id, blob_path, is_shard_name, is_temp_name, remove_file, sorted_entries};
use super::index::unindex;
use super::stream::{incoming_dir, is_stale_temp};
use crate::Store;
use crate::error::{Error, Result};

impl Store {
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
            unindex(&tx, id)?;
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

/// Deletes blob files without a live row, temporary files of puts, and temporary files of streams
/// no writer holds, from the archive in `dir`.
///
/// Runs inside the sweep's write transaction: every put writes its files under the same lock, so
/// no put is between writing a file and committing its row.
fn collect_orphans(conn: &Connection, dir: &Path, report: &mut SweepReport) -> Result<()> {
    let mut live = conn.prepare_cached("SELECT 1 FROM archive WHERE id = ?1 AND expired_ms IS NULL")?;
    let mut orphans = Vec::new();
    for shard in sorted_entries(dir)? {
        let Some(shard_name) = shard.file_name().and_then(|name| name.to_str()).map(str::to_owned) else { continue };
        if !is_shard_name(&shard_name) || !shard.is_dir() {
            continue;
        }
        for file in sorted_entries(&shard)? {
            let Some(name) = file.file_name().and_then(|name| name.to_str()) else { continue };
            let orphan = if is_temp_name(name) {
                true
            } else if let Some(id) = blob_id(&shard_name, name) {
                !live.exists(params![id])?
            } else {
                false
            };
            if orphan {
                orphans.push(file);
            }
        }
    }
    // Streams in progress hold their file's lock; one nobody holds was left by a crash.
    for file in sorted_entries(&incoming_dir(dir))? {
        if file.file_name().and_then(|name| name.to_str()).is_some_and(is_temp_name) && is_stale_temp(&file) {
            orphans.push(file);
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
