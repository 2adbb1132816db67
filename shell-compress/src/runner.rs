//! Per-test result lines, shared by every test runner: passing (and skipped) tests are dropped because the
//! runner's closing summary counts them, failing tests are protected because their names are the point.

use std::ops::Range;

use crate::plan::{Mark, Plan};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Verdict {
    Pass,
    Fail,
}

/// Applies `verdict` to every line: `Pass` drops it, `Fail` protects it, `None` leaves it alone.
pub(crate) fn results(plan: &mut Plan, verdict: impl Fn(&str) -> Option<Verdict>) {
    results_in(plan, 0..plan.len(), verdict);
}

/// [`results`] for the lines `range` only: where a runner lists its tests, apart from its failure details.
pub(crate) fn results_in(plan: &mut Plan, range: Range<usize>, verdict: impl Fn(&str) -> Option<Verdict>) {
    for i in range {
        match verdict(plan.line(i)) {
            Some(Verdict::Pass) => plan.set(i, Mark::Drop),
            Some(Verdict::Fail) => plan.set(i, Mark::Must),
            None => {}
        }
    }
}

/// TAP and node's test runner: `ok 1 - name` passes, `not ok 2 - name` fails.
pub(crate) fn tap(line: &str) -> Option<Verdict> {
    let line = line.trim_start();
    if line.starts_with("not ok ") {
        Some(Verdict::Fail)
    } else if line.starts_with("ok ") {
        Some(Verdict::Pass)
    } else {
        None
    }
}
