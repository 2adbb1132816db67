//! Ledger events, session records and archived outputs this process could
//! not write. Kept in memory, not in `state.db`: the store failing (a full
//! disk, a lock never released) is what lost them, so it cannot be trusted
//! to keep their count either. Gain reports and doctor say what is missing,
//! since a report that silently undercounts reads as a smaller saving, and a
//! handoff missing commands or an archive id that expands to nothing read as
//! if the calls never happened.

use std::collections::BTreeMap;

/// Writes lost since the first failure: ledger events counted per tool, other writes per kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unrecorded {
    /// When the first write failed, in milliseconds since the Unix epoch.
    pub since_ms: i64,
    /// Why the first write failed: later failures usually share its cause,
    /// and the first one is when the report started to undercount.
    pub error: String,
    /// Tool (`read`, `shell`, `search`, `expand`) → ledger events lost.
    pub by_tool: BTreeMap<String, u64>,
    /// What else was lost (`session record`, `archived output`) → how many.
    pub writes: BTreeMap<&'static str, u64>,
}

impl Unrecorded {
    pub fn new(since_ms: i64, error: String) -> Unrecorded {
        Unrecorded { since_ms, error, by_tool: BTreeMap::new(), writes: BTreeMap::new() }
    }

    /// One more ledger event of `tool` lost.
    pub fn add(&mut self, tool: &str) {
        *self.by_tool.entry(tool.to_string()).or_default() += 1;
    }

    /// One more write of `what` (singular, as `session record`) lost.
    pub fn add_write(&mut self, what: &'static str) {
        *self.writes.entry(what).or_default() += 1;
    }

    /// Ledger events lost.
    pub fn events(&self) -> u64 {
        self.by_tool.values().sum()
    }

    /// One line for gain and doctor: how many, of which tools and kinds, since when, and why.
    pub fn note(&self) -> String {
        let since = lean_ctx_store::utc(self.since_ms);
        let writes: Vec<String> =
            self.writes.iter().map(|(what, &n)| format!("{n} {what}{}", if n == 1 { "" } else { "s" })).collect();
        let writes = writes.join(", ");
        let lost = match self.events() {
            0 => format!("not written to state.db: {writes} since {since}"),
            events => {
                let calls = if events == 1 { "call" } else { "calls" };
                let tools: Vec<String> = self.by_tool.iter().map(|(tool, n)| format!("{tool} {n}")).collect();
                let ledger = format!(
                    "not recorded in the ledger: {events} {calls} ({}) since {since}, which gain leaves out",
                    tools.join(", ")
                );
                if writes.is_empty() { ledger } else { format!("{ledger}; nor written to state.db: {writes}") }
            }
        };
        format!("{lost}; the first failure: {}", self.error)
    }
}

#[cfg(test)]
mod tests {
    use super::Unrecorded;

    #[test]
    fn the_note_counts_per_tool_and_keeps_the_first_cause() {
        let mut lost = Unrecorded::new(1_709_210_096_789, "state.db could not be written: the disk is full".into());
        lost.add("shell");
        lost.add("read");
        lost.add("read");
        assert_eq!(lost.events(), 3);
        assert_eq!(
            lost.note(),
            "not recorded in the ledger: 3 calls (read 2, shell 1) since 2024-02-29 12:34:56 UTC, which gain leaves \
             out; the first failure: state.db could not be written: the disk is full"
        );
    }

    /// Session records and archived outputs are not ledger events: counted apart, by kind, and
    /// named even when no ledger event was lost.
    #[test]
    fn the_note_names_lost_session_records_and_archives_apart_from_ledger_events() {
        let mut lost = Unrecorded::new(1_709_210_096_789, "state.db stayed locked".into());
        lost.add_write("session record");
        assert_eq!(lost.events(), 0);
        assert_eq!(
            lost.note(),
            "not written to state.db: 1 session record since 2024-02-29 12:34:56 UTC; the first failure: state.db \
             stayed locked"
        );
        lost.add("shell");
        lost.add_write("session record");
        lost.add_write("archived output");
        assert_eq!(
            lost.note(),
            "not recorded in the ledger: 1 call (shell 1) since 2024-02-29 12:34:56 UTC, which gain leaves out; nor \
             written to state.db: 1 archived output, 2 session records; the first failure: state.db stayed locked"
        );
    }
}
