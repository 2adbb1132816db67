//! The token ledger: one record per tool call, what the agent would otherwise have read for that
//! request (`raw_tokens`) and what was actually sent (`sent_tokens`, including stubs, handles and
//! footers, so savings are net). docs/accounting.md states the rule per tool.
//!
//! Records form a hash chain, so an edited, inserted or deleted record (other than the very
//! last) is detected by [`Store::verify`].
//!
//! # Canonical encoding (version 1)
//! Integers are big-endian; `str(s)` is the UTF-8 length as `u32` followed by the bytes;
//! `opt(s)` is the byte `0x00` for none, or `0x01` followed by `str(s)`.
//!
//! ```text
//! record = 0x01                      encoding version
//!          id          i64           position in the chain, 1 for the first record
//!          at_ms       i64           milliseconds since the Unix epoch
//!          str(project)
//!          opt(session)
//!          str(tool)
//!          shape_kind  u8            0x00 = read mode, 0x01 = shell command family
//!          str(shape)
//!          raw_tokens  u64
//!          sent_tokens u64
//! hash(n) = BLAKE3(hash(n - 1) || record(n)),  hash(0) = 32 zero bytes
//! ```
//!
//! Every field is length-prefixed or fixed-size, so two different records never encode to the
//! same bytes; the id binds each record to its position.
//!
//! Appends run in a `BEGIN IMMEDIATE` transaction (read the last hash, insert, update the daily
//! rollup, commit), so writers in other processes are serialized by SQLite and never fork the chain.

use std::collections::BTreeMap;
use std::ops::Range;

use rusqlite::{Connection, OptionalExtension, params};

use crate::Store;
use crate::error::{Error, Result, non_empty, sql_count};

/// Hash the first record chains from.
const GENESIS: [u8; 32] = [0; 32];

/// Version byte at the start of every encoded record.
const ENCODING_VERSION: u8 = 1;

/// Milliseconds in a UTC day; the rollup's bucket.
pub(crate) const DAY_MS: i64 = 86_400_000;

/// What shaped the content a tool sent: the read mode (`full`, `map`, `signatures`, ...) or, for
/// shell output, the command family (`git_status`, `cargo_test`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape<'a> {
    Mode(&'a str),
    Family(&'a str),
}

impl<'a> Shape<'a> {
    /// The `shape_kind` column value and the name.
    fn parts(self) -> (&'static str, &'a str) {
        match self {
            Shape::Mode(name) => ("mode", name),
            Shape::Family(name) => ("family", name),
        }
    }

    fn from_parts(kind: &str, name: &'a str) -> Option<Self> {
        match kind {
            "mode" => Some(Shape::Mode(name)),
            "family" => Some(Shape::Family(name)),
            _ => None,
        }
    }
}

/// One ledger event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event<'a> {
    pub at_ms: i64,
    pub project: &'a str,
    pub session: Option<&'a str>,
    pub tool: &'a str,
    pub shape: Shape<'a>,
    /// Tokens of what the agent would otherwise have read for this request.
    pub raw_tokens: u64,
    /// Tokens actually sent, stubs and footers included.
    pub sent_tokens: u64,
}

/// One row of the daily rollup: (UTC day, project, tool, shape kind, shape).
type RollupKey<'a> = (i64, &'a str, &'a str, &'static str, &'a str);

/// A [`RollupKey`] as read back from the database.
type OwnedRollupKey = (i64, String, String, String, String);

impl Store {
    /// Appends one event to the chain; returns its id.
    pub fn append(&mut self, event: &Event<'_>) -> Result<i64> {
        Ok(self.append_batch(std::slice::from_ref(event))?.start)
    }

    /// Appends events in order, in one transaction; returns their ids (empty for no events).
    /// Either all are appended or none.
    pub fn append_batch(&mut self, events: &[Event<'_>]) -> Result<Range<i64>> {
        for event in events {
            event.validate()?;
        }
        let tx = self.write()?;
        let (last_id, mut prev) = tx
            .query_row("SELECT id, hash FROM ledger ORDER BY id DESC LIMIT 1", [], |row| Ok((row.get(0)?, row.get(1)?)))
            .optional()?
            .unwrap_or((0, GENESIS));
        let mut rollup: BTreeMap<RollupKey<'_>, (i64, i64, i64)> = BTreeMap::new();
        {
            let mut insert = tx.prepare_cached(
                "INSERT INTO ledger
                     (id, at_ms, project, session_id, tool, shape_kind, shape, raw_tokens, sent_tokens, hash)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?;
            for (id, event) in (last_id + 1..).zip(events) {
                let hash = chain(&prev, &canonical(id, event)?);
                let (kind, shape) = event.shape.parts();
                let raw = sql_count("raw_tokens", event.raw_tokens)?;
                let sent = sql_count("sent_tokens", event.sent_tokens)?;
                insert.execute(params![
                    id,
                    event.at_ms,
                    event.project,
                    event.session,
                    event.tool,
                    kind,
                    shape,
                    raw,
                    sent,
                    hash.as_slice()
                ])?;
                let day = event.at_ms.div_euclid(DAY_MS);
                let sums = rollup.entry((day, event.project, event.tool, kind, shape)).or_default();
                *sums = (sums.0 + 1, sums.1 + raw, sums.2 + sent);
                prev = hash;
            }
        }
        add_to_rollup(&tx, &rollup)?;
        tx.commit()?;
        let first = last_id + 1;
        Ok(first..first + events.len() as i64)
    }

    /// Walks the whole chain from the first record; returns how many records it holds, or
    /// [`Error::LedgerBroken`] naming the first record that does not chain.
    pub fn verify(&self) -> Result<u64> {
        let tx = self.read()?;
        let mut statement = tx.prepare(
            "SELECT id, at_ms, project, session_id, tool, shape_kind, shape, raw_tokens, sent_tokens, hash
             FROM ledger ORDER BY id",
        )?;
        let mut rows = statement.query([])?;
        let mut prev = GENESIS;
        let mut count: u64 = 0;
        // The records' sums per day, as the rollup keeps them, to compare with it after the walk.
        let mut sums: BTreeMap<OwnedRollupKey, (i64, i64, i64)> = BTreeMap::new();
        while let Some(row) = rows.next()? {
            let id: i64 = row.get(0)?;
            if id != count as i64 + 1 {
                return Err(Error::LedgerBroken { id, reason: "the record before it is missing" });
            }
            let project: String = row.get(2)?;
            let session: Option<String> = row.get(3)?;
            let tool: String = row.get(4)?;
            let kind: String = row.get(5)?;
            let shape_name: String = row.get(6)?;
            let stored: Vec<u8> = row.get(9)?;
            let Some(shape) = Shape::from_parts(&kind, &shape_name) else {
                return Err(Error::LedgerBroken { id, reason: "its shape kind is unknown" });
            };
            let event = Event {
                at_ms: row.get(1)?,
                project: &project,
                session: session.as_deref(),
                tool: &tool,
                shape,
                raw_tokens: row.get(7)?,
                sent_tokens: row.get(8)?,
            };
            let hash = chain(&prev, &canonical(id, &event)?);
            if stored != hash {
                return Err(Error::LedgerBroken {
                    id,
                    reason: "its hash does not match its content and the record before it",
                });
            }
            prev = hash;
            count += 1;
            let (raw, sent) =
                (sql_count("raw_tokens", event.raw_tokens)?, sql_count("sent_tokens", event.sent_tokens)?);
            let day = event.at_ms.div_euclid(DAY_MS);
            let sum = sums.entry((day, project.clone(), tool.clone(), kind.clone(), shape_name.clone())).or_default();
            // Saturating: a tampered record must make a mismatch, not an overflow.
            *sum = (sum.0.saturating_add(1), sum.1.saturating_add(raw), sum.2.saturating_add(sent));
        }
        drop(rows);
        drop(statement);
        // Gain reports sum the daily totals, which no hash covers: they must be the records' sums,
        // row for row (which also catches a deleted last record, which the chain cannot).
        let mut statement = tx.prepare(
            "SELECT day, project, tool, shape_kind, shape, events, raw_tokens, sent_tokens FROM ledger_daily
             ORDER BY day, project, tool, shape_kind, shape",
        )?;
        let totals = statement.query_map([], |row| {
            Ok((
                (row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?),
                (row.get(5)?, row.get(6)?, row.get(7)?),
            ))
        })?;
        let mut mismatch = None;
        for total in totals {
            let (key, kept) = total?;
            if sums.remove(&key) != Some(kept) {
                mismatch = Some((key.0, key.1, key.2));
                break;
            }
        }
        let mismatch =
            mismatch.or_else(|| sums.into_keys().next().map(|(day, project, tool, _, _)| (day, project, tool)));
        match mismatch {
            Some((day, project, tool)) => Err(Error::LedgerTotalsBroken { day, project, tool }),
            None => Ok(count),
        }
    }
}

/// Adds per-day sums to the rollup, in the transaction that appended the events.
fn add_to_rollup(conn: &Connection, rollup: &BTreeMap<RollupKey<'_>, (i64, i64, i64)>) -> Result<()> {
    let mut upsert = conn.prepare_cached(
        "INSERT INTO ledger_daily (day, project, tool, shape_kind, shape, events, raw_tokens, sent_tokens)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (day, project, tool, shape_kind, shape) DO UPDATE SET
             events = events + excluded.events,
             raw_tokens = raw_tokens + excluded.raw_tokens,
             sent_tokens = sent_tokens + excluded.sent_tokens",
    )?;
    for ((day, project, tool, kind, shape), (events, raw, sent)) in rollup {
        upsert.execute(params![day, project, tool, kind, shape, events, raw, sent])?;
    }
    Ok(())
}

impl Event<'_> {
    /// Whether [`Store::append`] would take this event, checked without the database: a caller
    /// batching events refuses a bad one alone instead of failing the batch it would join.
    pub fn validate(&self) -> Result<()> {
        non_empty("project", self.project)?;
        non_empty("tool", self.tool)?;
        sql_count("raw_tokens", self.raw_tokens)?;
        sql_count("sent_tokens", self.sent_tokens)?;
        Ok(())
    }
}

/// `BLAKE3(prev || record)`.
fn chain(prev: &[u8; 32], record: &[u8]) -> [u8; 32] {
    let mut hasher = blake3::Hasher::new();
    hasher.update(prev);
    hasher.update(record);
    *hasher.finalize().as_bytes()
}

/// The canonical bytes of a record (see the module documentation).
fn canonical(id: i64, event: &Event<'_>) -> Result<Vec<u8>> {
    let (kind, shape) = match event.shape {
        Shape::Mode(name) => (0u8, name),
        Shape::Family(name) => (1u8, name),
    };
    let mut out = Vec::with_capacity(64 + event.project.len() + event.tool.len() + shape.len());
    out.push(ENCODING_VERSION);
    out.extend_from_slice(&id.to_be_bytes());
    out.extend_from_slice(&event.at_ms.to_be_bytes());
    put_str(&mut out, event.project)?;
    match event.session {
        None => out.push(0),
        Some(session) => {
            out.push(1);
            put_str(&mut out, session)?;
        }
    }
    put_str(&mut out, event.tool)?;
    out.push(kind);
    put_str(&mut out, shape)?;
    out.extend_from_slice(&event.raw_tokens.to_be_bytes());
    out.extend_from_slice(&event.sent_tokens.to_be_bytes());
    Ok(out)
}

fn put_str(out: &mut Vec<u8>, text: &str) -> Result<()> {
    let len = u32::try_from(text.len())
        .map_err(|_| Error::InvalidInput(format!("a ledger field of {} bytes exceeds 4 GiB", text.len())))?;
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(text.as_bytes());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::temp_store;

    fn event(at_ms: i64, tool: &'static str, shape: Shape<'static>, raw: u64, sent: u64) -> Event<'static> {
        Event { at_ms, project: "/repo", session: Some("s1"), tool, shape, raw_tokens: raw, sent_tokens: sent }
    }

    #[test]
    fn canonical_encoding_is_exactly_as_documented() {
        let e = Event {
            at_ms: 2,
            project: "p",
            session: None,
            tool: "t",
            shape: Shape::Family("f"),
            raw_tokens: 3,
            sent_tokens: 4,
        };
        let mut expected = vec![1u8];
        expected.extend_from_slice(&7i64.to_be_bytes());
        expected.extend_from_slice(&2i64.to_be_bytes());
        expected.extend_from_slice(&[0, 0, 0, 1, b'p', 0, 0, 0, 0, 1, b't', 1, 0, 0, 0, 1, b'f']);
        expected.extend_from_slice(&3u64.to_be_bytes());
        expected.extend_from_slice(&4u64.to_be_bytes());
        assert_eq!(canonical(7, &e).unwrap(), expected);
        let with_session = canonical(7, &Event { session: Some("s"), ..e }).unwrap();
        assert_eq!(&with_session[22..29], &[1, 0, 0, 0, 1, b's', 0][..]);
    }

    #[test]
    fn first_record_chains_from_zeros_and_ids_are_sequential() {
        let (_dir, mut store) = temp_store();
        let first = event(1_000, "ctx_read", Shape::Mode("map"), 100, 10);
        assert_eq!(store.append(&first).unwrap(), 1);
        let batch = [event(2_000, "ctx_shell", Shape::Family("git"), 50, 20), first];
        assert_eq!(store.append_batch(&batch).unwrap(), 2..4);
        assert_eq!(store.append_batch(&[]).unwrap(), 4..4);
        let stored: Vec<u8> = store.conn.query_row("SELECT hash FROM ledger WHERE id = 1", [], |r| r.get(0)).unwrap();
        assert_eq!(stored, chain(&[0; 32], &canonical(1, &first).unwrap()));
        assert_eq!(store.verify().unwrap(), 3);
    }

    #[test]
    fn verify_names_the_first_broken_record() {
        let (_dir, mut store) = temp_store();
        let events: Vec<_> = (0..5).map(|i| event(i * 1000, "ctx_read", Shape::Mode("full"), 100, 100)).collect();
        store.append_batch(&events).unwrap();
        assert_eq!(store.verify().unwrap(), 5);

        store.conn.execute("UPDATE ledger SET sent_tokens = 1 WHERE id = 3", []).unwrap();
        assert!(matches!(store.verify(), Err(Error::LedgerBroken { id: 3, .. })));
        store.conn.execute("UPDATE ledger SET sent_tokens = 100 WHERE id = 3", []).unwrap();
        assert_eq!(store.verify().unwrap(), 5);

        store.conn.execute("DELETE FROM ledger WHERE id = 2", []).unwrap();
        assert!(matches!(store.verify(), Err(Error::LedgerBroken { id: 3, .. })));
    }

    #[test]
    fn verify_checks_the_daily_totals_gain_reports_against_the_records() {
        let (_dir, mut store) = temp_store();
        let events: Vec<_> = (0..5).map(|i| event(i * 1000, "ctx_read", Shape::Mode("full"), 100, 40)).collect();
        store.append_batch(&events).unwrap();
        assert_eq!(store.verify().unwrap(), 5);
        // A total changed: the chain is intact, the report is not.
        store.conn.execute("UPDATE ledger_daily SET raw_tokens = raw_tokens + 1000000", []).unwrap();
        let broken = store.verify().unwrap_err();
        assert!(matches!(&broken, Error::LedgerTotalsBroken { day: 0, tool, .. } if tool == "ctx_read"), "{broken}");
        assert!(broken.to_string().contains("on 1970-01-01"), "{broken}");
        store.conn.execute("UPDATE ledger_daily SET raw_tokens = raw_tokens - 1000000", []).unwrap();
        assert_eq!(store.verify().unwrap(), 4 + 1);
        // The last record deleted: no later record's hash misses it, but the totals still count it.
        store.conn.execute("DELETE FROM ledger WHERE id = 5", []).unwrap();
        assert!(matches!(store.verify(), Err(Error::LedgerTotalsBroken { .. })));
    }

    #[test]
    fn a_day_before_1970_is_bucketed_alike_when_appended_and_verified() {
        let (_dir, mut store) = temp_store();
        store.append(&event(-1, "ctx_read", Shape::Mode("full"), 10, 5)).unwrap();
        store.append(&event(1, "ctx_read", Shape::Mode("full"), 10, 5)).unwrap();
        assert_eq!(store.verify().unwrap(), 2);
    }

    #[test]
    fn a_rehashed_edit_breaks_the_next_record() {
        let (_dir, mut store) = temp_store();
        let events: Vec<_> = (0..3).map(|i| event(i, "ctx_read", Shape::Mode("full"), 10, 5)).collect();
        store.append_batch(&events).unwrap();
        let forged = Event { raw_tokens: 1_000_000, ..events[1] };
        let prev: Vec<u8> = store.conn.query_row("SELECT hash FROM ledger WHERE id = 1", [], |r| r.get(0)).unwrap();
        let hash = chain(&prev.try_into().unwrap(), &canonical(2, &forged).unwrap());
        store
            .conn
            .execute("UPDATE ledger SET raw_tokens = 1000000, hash = ?1 WHERE id = 2", [hash.as_slice()])
            .unwrap();
        assert!(matches!(store.verify(), Err(Error::LedgerBroken { id: 3, .. })));
    }

    #[test]
    fn a_bad_event_rejects_the_whole_batch() {
        let (_dir, mut store) = temp_store();
        let good = event(0, "ctx_read", Shape::Mode("full"), 10, 5);
        let bad = Event { raw_tokens: u64::MAX, ..good };
        assert!(matches!(store.append_batch(&[good, bad]), Err(Error::InvalidInput(_))));
        assert!(matches!(store.append(&Event { tool: "", ..good }), Err(Error::InvalidInput(_))));
        assert_eq!(store.verify().unwrap(), 0);
    }
}
