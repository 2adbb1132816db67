//! Go: `go build`/`go vet` (compiler-style diagnostics) and `go test`, in text or `-json` form.

use std::sync::LazyLock;

use regex::Regex;

use crate::family::{Families, Family};
use crate::generic::GENERIC;
use crate::plan::{NoteAt, Plan};
use crate::rules;
use crate::runner::{self, Verdict};

pub(crate) static BUILD: Family = Family::new("go-build", "go build ./cmd/x", build);
pub(crate) static TEST: Family = Family::new("go-test", "go test ./...", test).test_runner();
pub(crate) static VET: Family = Family::new("go-vet", "go vet ./...", build);

/// go's families, by subcommand.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, args| {
        (program == "go").then(|| match args.first().map(String::as_str) {
            Some("build" | "install") => &BUILD,
            Some("test") => &TEST,
            Some("vet") => &VET,
            _ => &GENERIC,
        })
    },
    members: &[&BUILD, &TEST, &VET],
};

/// `go build`/`go vet`: module download chatter goes, counted; diagnostics stay as they are.
fn build(plan: &mut Plan, failed: bool) {
    plan.drop_counted("module downloads not shown", NoteAt::First, failed, |line| {
        line.starts_with("go: downloading ") || line.starts_with("go: finding ")
    });
}

/// `go test`: `=== RUN/PAUSE/CONT` and `--- PASS/SKIP` lines go, as do packages without tests (counted);
/// `--- FAIL`, the per-package `FAIL`/`ok` lines and test log output stay. With `-json` the same holds per
/// event: a test's run/pause/cont/pass/skip events and the output events carrying those lines go, its fail
/// events and every other output stay.
fn test(plan: &mut Plan, failed: bool) {
    build(plan, failed);
    runner::results(plan, failed, |line| json_event(line).unwrap_or_else(|| text_result(line)));
    plan.drop_counted("packages without test files", NoteAt::First, failed, |line| {
        line.starts_with('?') && line.ends_with("[no test files]")
    });
}

fn text_result(line: &str) -> Option<Verdict> {
    let t = line.trim_start();
    if rules::starts_with_any(t, &["=== RUN", "=== PAUSE", "=== CONT", "--- PASS: ", "--- SKIP: "]) {
        Some(Verdict::Pass)
    } else if t.starts_with("--- FAIL: ") || line.starts_with("FAIL\t") {
        Some(Verdict::Fail)
    } else {
        None
    }
}

/// One `go test -json` (test2json) event: `{"Time":…,"Action":"output","Package":…,"Test":…,"Output":…}`.
static JSON_EVENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\{(?:"Time":"[^"]*",)?"Action":"(\w+)","Package":"[^"]*"(,"Test":"[^"]*")?(?:,"Output":"((?:[^"\\]|\\.)*)")?"#)
        .expect("test2json pattern compiles")
});

/// The verdict on a `-json` event line, `Some(None)` for an event that stays as it is, `None` for a line that
/// is not an event.
fn json_event(line: &str) -> Option<Option<Verdict>> {
    let caps = JSON_EVENT.captures(line)?;
    let of_test = caps.get(2).is_some();
    Some(match (&caps[1], caps.get(3)) {
        ("run" | "pause" | "cont" | "pass" | "skip", _) if of_test => Some(Verdict::Pass),
        ("fail", _) if of_test => Some(Verdict::Fail),
        ("output", Some(output)) => {
            let output = output.as_str().replace("\\t", "\t");
            text_result(output.strip_suffix("\\n").unwrap_or(&output))
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_of_passing_tests_are_counted() {
        let mut raw: String =
            (0..40).map(|i| format!("=== RUN   TestCase{i}\n--- PASS: TestCase{i} (0.00s)\n")).collect();
        raw += "=== RUN   TestBad\n    bad_test.go:9: got 1, want 2\n--- FAIL: TestBad (0.00s)\n";
        raw += "FAIL\nFAIL\texample.com/p\t0.01s\n";
        let text = crate::compress("go test -v ./...", &raw, 1).text;
        // The last ten lines of a failure are shown whole, passing tests' among them.
        assert!(text.starts_with("… 75 lines of passing or skipped tests not shown\n--- PASS: TestCase37"), "{text}");
        assert!(text.contains("--- FAIL: TestBad (0.00s)\n"), "{text}");
    }

    #[test]
    fn json_events_of_passing_tests_go_and_failures_stay() {
        let event = |action: &str, test: Option<&str>, output: Option<&str>| {
            let mut line = format!(r#"{{"Time":"2026-12-02T00:55:47Z","Action":"{action}","Package":"example.com/p""#);
            if let Some(test) = test {
                line += &format!(r#","Test":"{test}""#);
            }
            if let Some(output) = output {
                line += &format!(r#","Output":"{output}""#);
            }
            line + "}"
        };
        let cases = [
            (event("run", Some("TestA"), None), Some(Verdict::Pass)),
            (event("output", Some("TestA"), Some("=== RUN   TestA\\n")), Some(Verdict::Pass)),
            (event("output", Some("TestA/x"), Some("    --- PASS: TestA/x (0.00s)\\n")), Some(Verdict::Pass)),
            (event("pass", Some("TestA"), None), Some(Verdict::Pass)),
            (event("skip", Some("TestS"), None), Some(Verdict::Pass)),
            (event("output", Some("TestB"), Some("    b_test.go:9: got 1, want 2\\n")), None),
            (event("output", Some("TestB"), Some("--- FAIL: TestB (0.00s)\\n")), Some(Verdict::Fail)),
            (event("fail", Some("TestB"), None), Some(Verdict::Fail)),
            (event("output", None, Some("FAIL\\texample.com/p\\t0.01s\\n")), Some(Verdict::Fail)),
            (event("fail", None, None), None),
            (event("pass", None, None), None),
        ];
        for (line, want) in cases {
            assert_eq!(json_event(&line), Some(want), "{line}");
        }
        assert_eq!(json_event("--- FAIL: TestB (0.00s)"), None);
        assert_eq!(json_event(r#"{"name":"other json"}"#), None);
    }
}
