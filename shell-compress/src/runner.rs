//! Per-test result lines, shared by every test runner: passing (and skipped) tests are dropped because the
//! runner's closing summary counts them, failing tests are protected because their names are the point.

use std::ops::Range;

use crate::plan::{Mark, Plan, counted_in_order};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Verdict {
    Pass,
    Fail,
}

/// Applies `verdict` to every line: `Pass` drops it, counted on one note where the first was, `Fail` protects
/// it, `None` leaves it alone. For a command that `failed` or not, as the count leaves out what protection
/// shows.
pub(crate) fn results(plan: &mut Plan, failed: bool, verdict: impl Fn(&str) -> Option<Verdict>) {
    results_in(plan, 0..plan.len(), failed, verdict);
}

/// [`results`] for the lines `range` only: where a runner lists its tests, apart from its failure details.
pub(crate) fn results_in(
    plan: &mut Plan,
    range: Range<usize>,
    failed: bool,
    verdict: impl Fn(&str) -> Option<Verdict>,
) {
    let mut passed = Vec::new();
    for i in range {
        match verdict(plan.line(i)) {
            Some(Verdict::Pass) => passed.push(i),
            Some(Verdict::Fail) => plan.set(i, Mark::Must),
            None => {}
        }
    }
    plan.replace_counted(&passed, failed, |n| format!("… {n} lines of passing or skipped tests not shown"));
}

/// TAP results with node's test runner's framing: a passing test's `ok N - name` line goes with the `#
/// Subtest: name` line that opened it and the YAML block (`---` … `...`) under it, its duration; a failing
/// test's block stays whole, its diagnostics (`error:`, `expected:`, `location:`, `stack:`) being the point.
/// After a failure, a passing test that reaches into the output's last lines (shown whole) keeps its
/// framing, so no half of it is left. One note, where the first went, counts the tests that went by their
/// outcome (passing, skipped, todo).
pub(crate) fn tap_tests(plan: &mut Plan, failed: bool) {
    let indent = |line: &str| line.len() - line.trim_start().len();
    let shortenable = if failed { plan.failure_tail_start() } else { plan.len() };
    let mut gone: Vec<(usize, &str)> = Vec::new();
    for i in 0..plan.len() {
        let line = plan.line(i);
        match tap(line) {
            Some(Verdict::Fail) => plan.set(i, Mark::Must),
            Some(Verdict::Pass) => {
                let (margin, name) = (indent(line), tap_name(line));
                // The opening line is the nearest before at this margin: a test's subtests, deeper, come
                // between.
                let open = (0..i).rev().find(|&j| indent(plan.line(j)) <= margin).filter(|&open| {
                    indent(plan.line(open)) == margin
                        && plan.line(open).trim_start().strip_prefix("# Subtest: ") == Some(name)
                });
                let yaml = yaml_block(plan, i + 1, margin + 2).unwrap_or(i + 1..i + 1);
                if yaml.end.max(i + 1) > shortenable {
                    continue;
                }
                plan.set(i, Mark::Drop);
                if let Some(open) = open {
                    plan.set(open, Mark::Drop);
                }
                plan.set_range(yaml, Mark::Drop);
                gone.push((open.unwrap_or(i), tap_outcome(line)));
            }
            None => {}
        }
    }
    if let Some(&(first, _)) = gone.first() {
        let kinds: Vec<String> =
            counted_in_order(gone.iter().map(|&(_, kind)| kind)).iter().map(|(k, n)| format!("{k} ×{n}")).collect();
        plan.note(first, format!("… {} tests not shown: {}", gone.len(), kinds.join(", ")));
    }
}

/// What a passing TAP line says of its test: `skipped` or `todo` by its directive, else `passing`.
fn tap_outcome(line: &str) -> &'static str {
    match line.rsplit_once(" # ").map(|(_, directive)| directive.to_ascii_uppercase()) {
        Some(d) if d.starts_with("SKIP") => "skipped",
        Some(d) if d.starts_with("TODO") => "todo",
        _ => "passing",
    }
}

/// The name a TAP result line gives its test, without a directive: `ok 3 - parses empty # SKIP slow` →
/// `parses empty`, as node's `# Subtest:` line names it.
fn tap_name(line: &str) -> &str {
    let rest = line.trim_start().trim_start_matches("not ").trim_start_matches("ok ");
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    let name = rest.strip_prefix(" - ").unwrap_or(rest.trim_start());
    match name.rsplit_once(" # ") {
        Some((name, directive)) if ["SKIP", "TODO"].iter().any(|d| directive.to_ascii_uppercase().starts_with(d)) => {
            name
        }
        _ => name,
    }
}

/// The YAML block that starts at line `at` with `---` at `margin` and ends with `...` there.
fn yaml_block(plan: &Plan, at: usize, margin: usize) -> Option<Range<usize>> {
    let opens = |i: usize, mark: &str| plan.line(i).len() == margin + mark.len() && plan.line(i).ends_with(mark);
    if at >= plan.len() || !opens(at, "---") {
        return None;
    }
    let end = (at + 1..plan.len()).find(|&i| opens(i, "..."))?;
    Some(at..end + 1)
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
