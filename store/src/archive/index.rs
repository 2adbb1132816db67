//! The full-text index of archived outputs: `archive_fts`, one entry (label and text) per live
//! output, keyed by the output's id read as a number.

use std::borrow::Cow;

use rusqlite::{Connection, params};

use crate::error::Result;

/// Most bytes of one output the search index takes: its first and last half of this. Indexing
/// costs about 40 ms per MB on the response path, grows `state.db` by about the compressed size,
/// and holds every distinct term of the row in SQLite's memory until the insert ends (some 9 MiB
/// per MiB of text without repeated words): this bound keeps one command's peak within its budget.
pub(super) const INDEX_LIMIT: usize = 2 * 1024 * 1024;

/// The rowid of an output in `archive_fts`: its id read as a 64-bit integer (bijective, so two ids
/// never share a rowid, and `printf('%016x', rowid)` gives the id back).
fn fts_rowid(id: &str) -> i64 {
    let value = u64::from_str_radix(id, 16).expect("archive ids are validated hex");
    i64::from_ne_bytes(value.to_ne_bytes())
}

/// Adds a live output to the search index, replacing any entry it had.
pub(super) fn index(conn: &Connection, id: &str, label: &str, body: &str) -> Result<()> {
    unindex(conn, id)?;
    conn.execute(
        "INSERT INTO archive_fts (rowid, label, body) VALUES (?1, ?2, ?3)",
        params![fts_rowid(id), label, body],
    )?;
    Ok(())
}

/// Removes an output from the search index, if it is there.
pub(super) fn unindex(conn: &Connection, id: &str) -> Result<()> {
    conn.execute("DELETE FROM archive_fts WHERE rowid = ?1", params![fts_rowid(id)])?;
    Ok(())
}

/// The text the search index takes from an output: all of it, or for one longer than
/// [`INDEX_LIMIT`] its beginning and its end (where a log's summary and last errors are).
pub(super) fn indexed_text(bytes: &[u8]) -> Cow<'_, str> {
    if bytes.len() <= INDEX_LIMIT {
        return String::from_utf8_lossy(bytes);
    }
    let half = INDEX_LIMIT / 2;
    Cow::Owned(joined_index_text(&bytes[..half], &bytes[bytes.len() - half..]))
}

/// The indexed text of an output longer than [`INDEX_LIMIT`], from its first and last halves.
pub(super) fn joined_index_text(head: &[u8], tail: &[u8]) -> String {
    let mut text = String::from_utf8_lossy(head).into_owned();
    text.push('\n');
    text.push_str(&String::from_utf8_lossy(tail));
    text
}
