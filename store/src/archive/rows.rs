//! The `archive` table: one row describing each archived output, live or expired.

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::{ArchiveEntry, ArchiveMeta};
use crate::error::Result;

/// The columns of an [`ArchiveMeta`], in [`meta_from_row`]'s order, of the table aliased `a`.
pub(super) const COLUMNS: &str = "a.id, a.created_ms, a.kind, a.label, a.family, a.exit_code, a.raw_bytes, \
                                  a.raw_lines, a.stored_bytes, a.session, a.project, a.expired_ms";

/// The sizes of an output that its row records.
pub(super) struct Sizes {
    pub(super) raw_bytes: i64,
    pub(super) raw_lines: i64,
    pub(super) stored_bytes: u64,
}

/// `(expired_ms, stored_bytes)` of the row of `id`, if there is one.
pub(super) fn row_state(conn: &Connection, id: &str) -> Result<Option<(Option<i64>, u64)>> {
    Ok(conn
        .query_row("SELECT expired_ms, stored_bytes FROM archive WHERE id = ?1", params![id], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .optional()?)
}

/// A live output archived again: it belongs to this session and project now, and its age
/// starts over (it is expired only if the sweep has run since `row_state` looked).
pub(super) fn refresh_live(conn: &Connection, id: &str, entry: &ArchiveEntry<'_>, now_ms: i64) -> Result<()> {
    conn.execute(
        "UPDATE archive SET created_ms = MAX(created_ms, ?2), session = ?3, project = ?4
         WHERE id = ?1 AND expired_ms IS NULL",
        params![id, now_ms, entry.session, entry.project],
    )?;
    Ok(())
}

/// Records the size of a live output's blob written again.
pub(super) fn set_stored_bytes(conn: &Connection, id: &str, stored_bytes: u64) -> Result<()> {
    conn.execute("UPDATE archive SET stored_bytes = ?2 WHERE id = ?1", params![id, stored_bytes])?;
    Ok(())
}

/// The row of a new output, or of an expired one revived: the entry's description, live, created
/// at `now_ms`.
pub(super) fn insert_live(
    conn: &Connection,
    id: &str,
    entry: &ArchiveEntry<'_>,
    sizes: &Sizes,
    now_ms: i64,
) -> Result<()> {
    conn.execute(
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
            now_ms,
            entry.kind,
            entry.label,
            entry.family,
            entry.exit_code,
            sizes.raw_bytes,
            sizes.raw_lines,
            sizes.stored_bytes,
            entry.session,
            entry.project
        ],
    )?;
    Ok(())
}

pub(super) fn query_metas(conn: &Connection, sql: &str, params: &[&dyn rusqlite::ToSql]) -> Result<Vec<ArchiveMeta>> {
    let mut statement = conn.prepare(sql)?;
    let metas = statement.query_map(params, meta_from_row)?;
    Ok(metas.collect::<rusqlite::Result<_>>()?)
}

pub(super) fn meta_from_row(row: &Row<'_>) -> rusqlite::Result<ArchiveMeta> {
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
