//! Delivered-content records: which content (by BLAKE3 hash) a session last received for a path,
//! and in which mode.
//!
//! An "[unchanged]" stub may only go to a session that received that exact content; keeping the
//! record here lets that rule survive a daemon restart and hold for fallback processes too.
//! Only the latest delivery per (session, path) is kept: it is the only one a stub can refer to.

use rusqlite::{OptionalExtension, params};

use crate::error::{Error, Result, non_empty};
use crate::{Store, now_ms};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    pub session: String,
    /// The canonical path the reader delivered.
    pub path: String,
    /// BLAKE3 of the full content the delivery was made from.
    pub content: blake3::Hash,
    pub mode: String,
    pub at_ms: i64,
}

impl Store {
    /// Records that `session` received `content` of `path` in `mode`, replacing the previous record.
    pub fn record_delivery(&mut self, session: &str, path: &str, content: &blake3::Hash, mode: &str) -> Result<()> {
        non_empty("session id", session)?;
        non_empty("path", path)?;
        self.conn.execute(
            "INSERT INTO deliveries (session_id, path, content_hash, mode, at_ms) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (session_id, path) DO UPDATE SET
                 content_hash = excluded.content_hash, mode = excluded.mode, at_ms = excluded.at_ms",
            params![session, path, content.to_hex().as_str(), mode, now_ms()],
        )?;
        Ok(())
    }

    /// The latest delivery of `path` to `session`, if any.
    pub fn last_delivery(&self, session: &str, path: &str) -> Result<Option<Delivery>> {
        let found = self
            .conn
            .query_row(
                "SELECT content_hash, mode, at_ms FROM deliveries WHERE session_id = ?1 AND path = ?2",
                params![session, path],
                |row| Ok((row.get::<_, String>(0)?, row.get(1)?, row.get(2)?)),
            )
            .optional()?;
        let Some((hex, mode, at_ms)) = found else { return Ok(None) };
        let content = blake3::Hash::from_hex(&hex).map_err(|error| {
            Error::Damaged(format!(
                "the stored content hash of {path} for session {session} is not BLAKE3 hex ({error}); state.db was \
                 edited by hand: delete that row from `deliveries`"
            ))
        })?;
        Ok(Some(Delivery { session: session.to_owned(), path: path.to_owned(), content, mode, at_ms }))
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::temp_store;

    #[test]
    fn keeps_the_latest_delivery_per_session_and_path() {
        let (_dir, mut store) = temp_store();
        let v1 = blake3::hash(b"fn main() {}");
        let v2 = blake3::hash(b"fn main() { println!() }");
        assert!(store.last_delivery("s1", "/repo/src/main.rs").unwrap().is_none());

        store.record_delivery("s1", "/repo/src/main.rs", &v1, "full").unwrap();
        store.record_delivery("s2", "/repo/src/main.rs", &v1, "map").unwrap();
        store.record_delivery("s1", "/repo/src/main.rs", &v2, "diff").unwrap();

        let s1 = store.last_delivery("s1", "/repo/src/main.rs").unwrap().unwrap();
        assert_eq!((s1.content, s1.mode.as_str()), (v2, "diff"));
        let s2 = store.last_delivery("s2", "/repo/src/main.rs").unwrap().unwrap();
        assert_eq!((s2.content, s2.mode.as_str()), (v1, "map"));
        assert!(store.last_delivery("s1", "/repo/src/lib.rs").unwrap().is_none());
    }

    #[test]
    fn empty_identifiers_are_refused() {
        let (_dir, mut store) = temp_store();
        let hash = blake3::hash(b"");
        assert!(store.record_delivery("", "/p", &hash, "full").is_err());
        assert!(store.record_delivery("s", "", &hash, "full").is_err());
    }
}
