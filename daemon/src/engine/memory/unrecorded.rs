//! Ledger events this process could not record. Kept in memory, not in
//! `state.db`: the store failing (a full disk, a lock never released) is
//! what lost them, so it cannot be trusted to keep their count either.
//! Gain reports and doctor say what is missing, since a report that
//! silently undercounts reads as a smaller saving.

use std::collections::BTreeMap;

/// Events lost since the first failure, counted per tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unrecorded {
    /// When the first append failed, in milliseconds since the Unix epoch.
    pub since_ms: i64,
    /// Why the first append failed: later failures usually share its cause,
    /// and the first one is when the report started to undercount.
    pub error: String,
    /// Tool (`read`, `shell`, `search`, `expand`) → events lost.
    pub by_tool: BTreeMap<String, u64>,
}

impl Unrecorded {
    pub fn new(since_ms: i64, error: String) -> Unrecorded {
        Unrecorded { since_ms, error, by_tool: BTreeMap::new() }
    }

    pub fn add(&mut self, tool: &str) {
        *self.by_tool.entry(tool.to_string()).or_default() += 1;
    }

    pub fn events(&self) -> u64 {
        self.by_tool.values().sum()
    }

    /// One line for gain and doctor: how many, of which tools, since when, and why.
    pub fn note(&self) -> String {
        let events = self.events();
        let calls = if events == 1 { "call" } else { "calls" };
        let tools: Vec<String> = self.by_tool.iter().map(|(tool, n)| format!("{tool} {n}")).collect();
        format!(
            "not recorded in the ledger: {events} {calls} ({}) since {}, which gain leaves out; the first failure: {}",
            tools.join(", "),
            lean_ctx_store::utc(self.since_ms),
            self.error
        )
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
}
