//! What passing and skipped Go tests logged, left out of a failed `go test -v` by notes such as `… 301 log
//! lines of passing tests not shown: TestChatty ×300, TestSub/a ×1` (`of passing or skipped tests` when a
//! skipped test's are among them): read from the raw output on its own, so each note's count per test is
//! checked against the indented lines under that test the view does not show.

use std::collections::{BTreeMap, HashSet};
use std::sync::LazyLock;

use regex::Regex;

static NOTE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^… (\d+) log lines? of passing (?:or skipped )?tests not shown: (.+)$").unwrap());

/// `TestName ×3` in a note's list.
static COUNTED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(\S+) ×(\d+)$").unwrap());

/// `=== RUN   X` (CONT, NAME) or `--- PASS: X (…)` (FAIL, SKIP): the test it names, and the verdict if any.
fn names(line: &str) -> Option<(&str, Option<&str>)> {
    let t = line.trim_start();
    if let Some(rest) = ["=== RUN", "=== CONT", "=== NAME"].iter().find_map(|p| t.strip_prefix(p)) {
        return Some((rest.trim(), None));
    }
    let (verdict, rest) = t.strip_prefix("--- ")?.split_once(": ")?;
    Some((rest.split(" (").next().unwrap_or(rest).trim(), Some(verdict)))
}

/// The indexes of the lines of `displayed` the notes of `view` leave out, or a note whose counts are not the
/// lines the view does not show.
pub(crate) fn left_out(displayed: &[String], view: &[&str]) -> Result<HashSet<usize>, String> {
    let notes: Vec<&str> = view.iter().copied().filter(|l| NOTE.is_match(l)).collect();
    if notes.is_empty() {
        return Ok(HashSet::new());
    }
    let mut failed: HashSet<&str> = HashSet::new();
    let mut passed: HashSet<&str> = HashSet::new();
    for (name, verdict) in displayed.iter().filter_map(|l| names(l)) {
        match verdict {
            Some("PASS" | "SKIP") => passed.insert(name),
            Some(_) => failed.insert(name),
            None => false,
        };
    }
    let shown: HashSet<&str> = view.iter().copied().collect();
    // Each passing or skipped test's indented lines the view does not show.
    let mut missing: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut owner: Option<&str> = None;
    for (i, line) in displayed.iter().enumerate() {
        if let Some((name, _)) = names(line) {
            owner = Some(name);
        } else if line.starts_with(char::is_whitespace) && !line.trim().is_empty() {
            if let Some(name) = owner.filter(|n| passed.contains(n) && !failed.contains(n))
                && !shown.contains(line.as_str())
            {
                missing.entry(name).or_default().push(i);
            }
        } else {
            owner = None;
        }
    }
    let mut lines = HashSet::new();
    for note in notes {
        let c = NOTE.captures(note).unwrap();
        let mut total = 0;
        for part in c[2].split(", ").filter_map(|p| COUNTED.captures(p)) {
            let n: usize = part[2].parse().unwrap();
            let gone = missing.get(&part[1]).map_or(0, Vec::len);
            if gone != n {
                return Err(format!("{note}: {} has {gone} log lines not shown, not {n}", &part[1]));
            }
            lines.extend(missing[&part[1]].iter().copied());
            total += n;
        }
        let said: usize = c[1].parse().unwrap();
        if total > said {
            return Err(format!("{note}: the tests named count {total} lines"));
        }
    }
    Ok(lines)
}

#[test]
fn a_note_must_count_exactly_the_passing_tests_lines_left_out() {
    let raw: Vec<String> =
        ["=== RUN   TestA", "    a_test.go:3: one", "    a_test.go:3: two", "--- PASS: TestA (0.00s)"]
            .iter()
            .chain(&["=== RUN   TestB", "    b_test.go:9: broke", "--- FAIL: TestB (0.00s)", "FAIL"])
            .map(|l| l.to_string())
            .collect();
    let view = |note: &'static str| vec!["=== RUN   TestA", note, "    b_test.go:9: broke", "--- FAIL: TestB (0.00s)"];
    let right = left_out(&raw, &view("… 2 log lines of passing tests not shown: TestA ×2")).unwrap();
    assert_eq!(right, HashSet::from([1, 2]));
    assert!(left_out(&raw, &view("… 1 log line of passing tests not shown: TestA ×1")).is_err());
    // A failing test's lines are no passing test's.
    assert!(left_out(&raw, &view("… 3 log lines of passing tests not shown: TestA ×2, TestB ×1")).is_err());
}
