//! The calls written on each line of a file, counted once when the file enters the graph: every
//! edge of a call-graph answer asks whether another call shares its line, and scanning the file's
//! references for each edge cost a pass over the file per edge.

use std::collections::HashMap;

use crate::facts::{Ref, RefKind};

/// The calls on one line: how many, and the least and greatest column among them (enough to say
/// whether one of them sits at a column other than a given one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LineCalls {
    count: u32,
    first_column: u32,
    last_column: u32,
}

impl LineCalls {
    /// Whether a call on the line sits at a column other than `column`.
    pub(crate) fn other_than(&self, column: u32) -> bool {
        self.first_column != column || self.last_column != column
    }

    /// Whether the line holds two calls or more.
    pub(crate) fn several(&self) -> bool {
        self.count > 1
    }
}

/// Line → its calls, for the lines of a file's `refs` holding any: a call, a method call or a
/// construction, resolved or not. An attribute read is left out: it is a call only where it
/// reaches a property.
pub(crate) fn of(refs: &[Ref]) -> HashMap<u32, LineCalls> {
    let mut lines: HashMap<u32, LineCalls> = HashMap::new();
    for r in refs.iter().filter(|r| r.kind.is_call() && r.kind != RefKind::Read) {
        lines
            .entry(r.line)
            .and_modify(|calls| {
                calls.count += 1;
                calls.first_column = calls.first_column.min(r.column);
                calls.last_column = calls.last_column.max(r.column);
            })
            .or_insert(LineCalls { count: 1, first_column: r.column, last_column: r.column });
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(kind: RefKind, line: u32, column: u32) -> Ref {
        Ref { name: "f".into(), kind, line, column, receiver: None, caller: None }
    }

    /// Two references at one column (a call the extractor records under two kinds) are no other
    /// call; a type use or an attribute read on the line is no call at all.
    #[test]
    fn a_line_counts_its_calls_and_knows_their_columns() {
        let lines = of(&[
            call(RefKind::Call, 1, 5),
            call(RefKind::New, 1, 5),
            call(RefKind::Type, 1, 9),
            call(RefKind::Read, 1, 12),
            call(RefKind::Call, 2, 3),
            call(RefKind::Call, 2, 8),
        ]);
        assert!(lines[&1].several() && !lines[&1].other_than(5) && lines[&1].other_than(9));
        assert!(lines[&2].several() && lines[&2].other_than(3) && lines[&2].other_than(8));
        assert!(!lines.contains_key(&3));
    }
}
