//! Finding archived outputs by their words.

use std::path::Path;

use rusqlite::params;

use super::ArchiveHit;
use super::blob::blob_path;
use super::rows::{COLUMNS, query_metas};
use super::snippet::snippet;
use crate::Store;
use crate::error::{Result, sql_limit};
use crate::terms::{search_terms, terms_expression};

impl Store {
    /// The live archived outputs whose label or text best match `query`, best first, at most
    /// `limit`, each with a snippet read from its blob in `dir`.
    ///
    /// The query is plain words, sanitized like [`Store::recall`] (see [`crate::terms`]), OR-ed.
    /// Ranking is bm25 (a label match weighs double), then newest first, then id. A query without
    /// any word lists the newest outputs. `project` keeps only the outputs last archived from that
    /// project.
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
                // An index entry's rowid is its output's id read as a number (index.rs).
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

    /// How many live archived outputs [`Store::archive_search`] would find
    /// for `query` without a limit, so a cut list can say what it left out.
    pub fn archive_matches(&self, query: &str, project: Option<&str>) -> Result<u64> {
        let terms = search_terms(query);
        let count: i64 = match terms_expression(&terms) {
            None => self.conn.query_row(
                "SELECT count(*) FROM archive a WHERE a.expired_ms IS NULL AND (?1 IS NULL OR a.project = ?1)",
                params![project],
                |row| row.get(0),
            )?,
            Some(expression) => self.conn.query_row(
                "SELECT count(*) FROM archive_fts f JOIN archive a ON a.id = printf('%016x', f.rowid)
                 WHERE archive_fts MATCH ?1 AND a.expired_ms IS NULL AND (?2 IS NULL OR a.project = ?2)",
                params![expression, project],
                |row| row.get(0),
            )?,
        };
        Ok(u64::try_from(count).unwrap_or(0))
    }
}
