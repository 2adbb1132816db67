//! The innermost definition holding each line of a file, worked out once per file.
//!
//! Every reference and binding records the definition it is in (its caller, its scope). A scan of
//! the file's definitions for each made extraction quadratic in a file's size: a file of 10,000
//! functions of ten calls each spent 71 % of its extraction there.

use std::collections::HashMap;

use crate::facts::Def;

/// No definition holds the line.
const NONE: u32 = u32::MAX;

/// For each line, the innermost callable holding it and the innermost other definition (a type);
/// and the lines where that may be wrong, with what tells the callables there apart.
pub(crate) struct Enclosers {
    callable: Vec<u32>,
    other: Vec<u32>,
    /// The lines where a callable starts or ends and another holds: `fn a() { g() } fn b() { g() }`,
    /// or `function outer() { function inner() {} h() }`. Which one a reference there is in, its
    /// place in the tree says, not its line (see [`Enclosers::shared`]).
    shared: Vec<bool>,
    /// Where lines are shared: each callable by its declaration's line and name.
    by_head: HashMap<(u32, String), u32>,
}

impl Enclosers {
    pub(crate) fn new(defs: &[Def]) -> Self {
        let shared = shared_lines(defs);
        let by_head = match shared.contains(&true) {
            true => (0..defs.len())
                .filter(|&i| defs[i].is_callable())
                .map(|i| ((defs[i].line, defs[i].name.clone()), i as u32))
                .collect(),
            false => HashMap::new(),
        };
        Self {
            callable: innermost(defs, |d| d.is_callable()),
            other: innermost(defs, |d| !d.is_callable()),
            shared,
            by_head,
        }
    }

    /// Whether several callables hold `line`, one of them starting or ending there, so that the
    /// innermost by lines ([`Enclosers::at`]) may be another than the one a reference is in.
    pub(crate) fn shared(&self, line: u32) -> bool {
        self.shared.get(line as usize).copied().unwrap_or(false)
    }

    /// The callable declared at `line` with the name `name`, where lines are shared.
    pub(crate) fn declared(&self, line: u32, name: &str) -> Option<u32> {
        self.by_head.get(&(line, name.to_string())).copied()
    }

    /// The innermost definition whose lines hold `line`: a callable if one does, else a type. Of
    /// several as long, the first.
    pub(crate) fn at(&self, line: u32) -> Option<u32> {
        let at = |table: &[u32]| table.get(line as usize).copied().filter(|&d| d != NONE);
        at(&self.callable).or_else(|| at(&self.other))
    }
}

/// Which lines are [`Enclosers::shared`]: the first and last lines of callables that two or more
/// callables hold, counted from where each starts and after where each ends.
fn shared_lines(defs: &[Def]) -> Vec<bool> {
    let callables: Vec<&Def> = defs.iter().filter(|d| d.is_callable() && d.start_line <= d.end_line).collect();
    let lines = callables.iter().map(|d| d.end_line as usize + 2).max().unwrap_or(0);
    // How many callables start at each line, less those ending the line before: summed, how
    // many hold each line.
    let mut change = vec![0i64; lines];
    for d in &callables {
        change[d.start_line as usize] += 1;
        change[d.end_line as usize + 1] -= 1;
    }
    let mut held = 0;
    let holding: Vec<i64> = change
        .iter()
        .map(|c| {
            held += c;
            held
        })
        .collect();
    let mut shared = vec![false; lines];
    for d in &callables {
        for line in [d.start_line as usize, d.end_line as usize] {
            shared[line] |= holding[line] > 1;
        }
    }
    shared
}

/// Each line's shortest definition of those `keep` takes, by index into `defs`: the definitions
/// in order of length (then index) each take the lines no shorter one took, skipping taken runs
/// through `next`, so each line is written once.
fn innermost(defs: &[Def], keep: impl Fn(&Def) -> bool) -> Vec<u32> {
    let mut order: Vec<usize> =
        (0..defs.len()).filter(|&i| keep(&defs[i]) && defs[i].start_line <= defs[i].end_line).collect();
    order.sort_by_key(|&i| (defs[i].end_line - defs[i].start_line, i));
    let lines = order.iter().map(|&i| defs[i].end_line as usize + 1).max().unwrap_or(0);
    let mut table = vec![NONE; lines];
    // The first line at or after each that no definition took yet (`lines` past the end).
    let mut next: Vec<usize> = (0..=lines).collect();
    for i in order {
        let (start, end) = (defs[i].start_line as usize, defs[i].end_line as usize);
        let mut line = untaken(&mut next, start);
        while line <= end {
            table[line] = i as u32;
            next[line] = line + 1;
            line = untaken(&mut next, line + 1);
        }
    }
    table
}

/// The first untaken line at or after `line`, shortening the chains followed on the way.
fn untaken(next: &mut [usize], line: usize) -> usize {
    let mut root = line;
    while next[root] != root {
        root = next[root];
    }
    let mut at = line;
    while next[at] != root {
        (next[at], at) = (root, next[at]);
    }
    root
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(name: &str, kind: &str, start_line: u32, end_line: u32) -> Def {
        let mut def = crate::extract(lean_ctx_outline::Language::Rust, "fn f() {}").defs.remove(0);
        (def.name, def.kind, def.start_line, def.end_line, def.line) =
            (name.to_string(), kind.to_string(), start_line, end_line, start_line);
        def
    }

    /// The callable first, else a type; the narrowest; of equally long ones the first; lines
    /// outside every definition and past the last have none.
    #[test]
    fn each_line_has_its_innermost_definition() {
        let defs = [
            def("Store", "struct", 1, 30),
            def("open", "method", 3, 12),
            def("helper", "fn", 5, 8),
            def("twin", "fn", 5, 8),
            def("close", "method", 14, 20),
            def("empty", "fn", 25, 24),
            def("later", "fn", 40, 41),
        ];
        let enclosers = Enclosers::new(&defs);
        let at: Vec<Option<u32>> =
            [0, 1, 3, 5, 8, 9, 13, 14, 20, 24, 25, 31, 40, 42, 1000].map(|l| enclosers.at(l)).into();
        let expected = [
            None,
            Some(0),
            Some(1),
            Some(2),
            Some(2),
            Some(1),
            Some(0),
            Some(4),
            Some(4),
            Some(0),
            Some(0),
            None,
            Some(6),
            None,
            None,
        ];
        assert_eq!(at, expected);
    }

    /// A line is shared where a callable starts or ends on a line another holds: two on one
    /// line, or a nested one's first and last lines; not a line only one holds, nor a type's.
    #[test]
    fn shared_lines_are_where_callables_meet() {
        let defs = [
            def("Store", "struct", 1, 30),
            def("open", "method", 3, 12),
            def("helper", "fn", 5, 8),
            def("a", "fn", 14, 14),
            def("b", "fn", 14, 14),
            def("close", "method", 16, 20),
        ];
        let shared = shared_lines(&defs);
        let at: Vec<usize> = (0..shared.len()).filter(|&line| shared[line]).collect();
        assert_eq!(at, [5, 8, 14]);
        let enclosers = Enclosers::new(&defs);
        assert_eq!((enclosers.declared(14, "b"), enclosers.declared(14, "c")), (Some(4), None));
        assert!(enclosers.shared(14) && !enclosers.shared(3) && !enclosers.shared(1000));
    }
}
