//! Go: `go build`/`go vet` (compiler-style diagnostics) and `go test`, in text or `-json` form.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use regex::Regex;

use crate::diag::count_list_of;
use crate::family::{Families, Family};
use crate::generic::GENERIC;
use crate::plan::{NoteAt, Plan, counted_in_order};
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

/// `go test`: `=== RUN/PAUSE/CONT` and `--- PASS/SKIP` lines go, counted by kind, as do packages without
/// tests, save the `=== RUN` line of a test that failed or whose log is shown (see [`count_framing`]); `--- FAIL`, the per-package `FAIL`/`ok` lines and failing tests' log output stay (passing and
/// skipped tests' too when nothing failed). With `-json` the same holds per event: a test's
/// run/pause/cont/pass/skip events and the output events carrying those lines go, its fail events and every
/// other output stay.
fn test(plan: &mut Plan, failed: bool) {
    build(plan, failed);
    // A pipe (`go test -v ./... | cat`) exits 0 whatever failed: the output's own `--- FAIL` and `FAIL\t`
    // lines say a test failed as well.
    let tests = Tests::read(plan);
    if failed || (0..plan.len()).any(|i| step(plan.line(i)) == Some(Step::Fail)) {
        passing_tests_logs(plan, &tests, failed);
    }
    count_framing(plan, &tests, failed);
    runner::results(plan, failed, |line| (step(line)? == Step::Fail).then_some(Verdict::Fail));
    plan.drop_counted("packages without test files", NoteAt::First, failed, |line| {
        line.starts_with('?') && line.ends_with("[no test files]")
    });
}

/// Which test each line of `go test -v`'s text output belongs to, and what became of each test. A line
/// belongs to the test the last `=== RUN/CONT/NAME` or `--- PASS/FAIL/SKIP` line named; the package's own
/// unindented lines (`PASS`, `FAIL`, `ok`, `panic:`, a test's unindented prints) to none.
struct Tests<'a> {
    owner: Vec<Option<&'a str>>,
    /// A test that failed anywhere stays failed (a subtest's lines may name it again).
    verdicts: HashMap<&'a str, Step>,
}

impl<'a> Tests<'a> {
    fn read(plan: &Plan<'a>) -> Tests<'a> {
        let mut owner: Option<&str> = None;
        let mut owners = Vec::with_capacity(plan.len());
        let mut verdicts: HashMap<&str, Step> = HashMap::new();
        for i in 0..plan.len() {
            let line = plan.line(i);
            let trimmed = line.trim_start();
            if let Some(rest) =
                ["=== RUN ", "=== CONT ", "=== NAME ", "=== PAUSE "].iter().find_map(|p| trimmed.strip_prefix(p))
            {
                owner = Some(rest.trim()).filter(|_| !trimmed.starts_with("=== PAUSE "));
            } else if let Some((step, name)) = verdict(trimmed) {
                let verdict = verdicts.entry(name).or_insert(step);
                if step == Step::Fail {
                    *verdict = Step::Fail;
                }
                owner = Some(name);
            } else if !line.starts_with(char::is_whitespace) || trimmed.is_empty() {
                owner = None;
            }
            owners.push(owner);
        }
        Tests { owner: owners, verdicts }
    }

    /// Whether line `i` is something a test printed: indented, and no `=== …` or `--- …` line of its own.
    fn logged(&self, plan: &Plan, i: usize) -> bool {
        let line = plan.line(i);
        let trimmed = line.trim_start();
        line.starts_with(char::is_whitespace)
            && !trimmed.is_empty()
            && !trimmed.starts_with("=== ")
            && verdict(trimmed).is_none()
    }
}

/// `--- PASS: TestX/sub (0.00s)` (indentation trimmed) as its step and test name.
fn verdict(trimmed: &str) -> Option<(Step, &str)> {
    let (step, rest) = [(Step::Pass, "--- PASS: "), (Step::Fail, "--- FAIL: "), (Step::Skip, "--- SKIP: ")]
        .iter()
        .find_map(|&(step, p)| Some((step, trimmed.strip_prefix(p)?)))?;
    Some((step, rest.split(" (").next().unwrap_or(rest).trim()))
}

/// After a failure, what passing and skipped tests logged (`t.Logf`, shown by `-v`; `t.Skip`'s reason) goes,
/// counted per test: its `file_test.go:7: …` lines read as locations the failure protects, though they are no
/// part of it, and a chatty test buried the failing one's lines. A skipped test's reason goes too: its `===
/// RUN` and `--- SKIP` lines are counted away, so it would sit under the failing test shown above it. Only
/// indented lines (what `testing` prints) go, never the closing lines a non-zero exit (`exited`) shows whole.
fn passing_tests_logs(plan: &mut Plan, tests: &Tests, exited: bool) {
    let tail = if exited { plan.failure_tail_start() } else { plan.len() };
    let passed: Vec<(usize, &str)> = (0..tail)
        .filter(|&i| tests.logged(plan, i))
        .filter_map(|i| Some((i, tests.owner[i]?)))
        .filter(|(_, name)| matches!(tests.verdicts.get(name), Some(Step::Pass | Step::Skip)))
        .collect();
    if passed.is_empty() {
        return;
    }
    let per_test: Vec<(String, usize)> =
        counted_in_order(passed.iter().map(|&(_, name)| name)).into_iter().map(|(n, c)| (n.to_string(), c)).collect();
    let lines = if passed.len() == 1 { "log line" } else { "log lines" };
    let skipped = passed.iter().any(|(_, name)| tests.verdicts.get(name) == Some(&Step::Skip));
    let tests = if skipped { "passing or skipped tests" } else { "passing tests" };
    let note = format!("… {} {lines} of {tests} not shown: {}", passed.len(), count_list_of(&per_test, "more tests"));
    let indices: Vec<usize> = passed.iter().map(|&(i, _)| i).collect();
    let replaced: usize = indices.iter().map(|&i| plan.line(i).len() + 1).sum();
    if note.len() + 1 < replaced {
        plan.fold_counted(&indices, note);
    }
}

/// Counts away the `=== …` and `--- PASS/SKIP` lines, each by its kind, but for those that say something. A
/// test's `=== RUN/CONT` line stays when the test failed or what it logged is shown: it says which subtest a
/// message under it is from (two subtests of one loop print the same `file_test.go:25:`). The verdicts a
/// failed test lists for its subtests go or stay together: when the closing lines a failure shows whole
/// reach into them, all stay, so the view does not show some passing subtests and hide others.
fn count_framing(plan: &mut Plan, tests: &Tests, failed: bool) {
    let tail = if failed { plan.failure_tail_start() } else { plan.len() };
    let subtest_verdict =
        |j: usize| plan.line(j).starts_with(char::is_whitespace) && verdict(plan.line(j).trim_start()).is_some();
    let mut kept = Vec::new();
    if tail < plan.len() && subtest_verdict(tail) {
        let mut i = tail;
        while i > 0 && subtest_verdict(i - 1) {
            i -= 1;
            kept.push(i);
        }
    }
    let mut shows_log: HashSet<&str> = HashSet::new();
    for j in (0..plan.len()).filter(|&j| tests.logged(plan, j) && plan.visible(j)) {
        shows_log.extend(tests.owner[j]);
    }
    let mut framing = Vec::new();
    for i in 0..plan.len() {
        let Some(kind) = step(plan.line(i)).and_then(Step::counted_as) else { continue };
        let trimmed = plan.line(i).trim_start();
        let says_whose = (trimmed.starts_with("=== RUN ") || trimmed.starts_with("=== CONT "))
            && tests.owner[i]
                .is_some_and(|name| tests.verdicts.get(name) == Some(&Step::Fail) || shows_log.contains(name));
        if says_whose {
            kept.push(i);
        }
        framing.push((i, kind));
    }
    for i in kept {
        plan.must(i);
    }
    plan.drop_kinds_counted(&framing, "lines of tests not shown", None, failed);
}

/// What a line of `go test` says of a test, in text or as a `-json` event.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Step {
    /// `=== RUN`, `=== PAUSE`, `=== CONT`: a test started, paused or went on, whatever its verdict.
    Framing,
    Pass,
    Skip,
    Fail,
}

impl Step {
    /// The kind the note counting dropped lines names this step by; `None` for a failure, which stays.
    fn counted_as(self) -> Option<&'static str> {
        match self {
            Step::Framing => Some("=== RUN/PAUSE/CONT"),
            Step::Pass => Some("--- PASS"),
            Step::Skip => Some("--- SKIP"),
            Step::Fail => None,
        }
    }
}

fn step(line: &str) -> Option<Step> {
    json_event(line).unwrap_or_else(|| text_step(line))
}

fn text_step(line: &str) -> Option<Step> {
    let t = line.trim_start();
    if rules::starts_with_any(t, &["=== RUN", "=== PAUSE", "=== CONT"]) {
        Some(Step::Framing)
    } else if t.starts_with("--- PASS: ") {
        Some(Step::Pass)
    } else if t.starts_with("--- SKIP: ") {
        Some(Step::Skip)
    } else if t.starts_with("--- FAIL: ") || line.starts_with("FAIL\t") {
        Some(Step::Fail)
    } else {
        None
    }
}

/// One `go test -json` (test2json) event: `{"Time":…,"Action":"output","Package":…,"Test":…,"Output":…}`.
static JSON_EVENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\{(?:"Time":"[^"]*",)?"Action":"(\w+)","Package":"[^"]*"(,"Test":"[^"]*")?(?:,"Output":"((?:[^"\\]|\\.)*)")?"#)
        .expect("test2json pattern compiles")
});

/// The step a `-json` event line reports, `Some(None)` for an event that stays as it is, `None` for a line
/// that is not an event.
fn json_event(line: &str) -> Option<Option<Step>> {
    let caps = JSON_EVENT.captures(line)?;
    let of_test = caps.get(2).is_some();
    Some(match (&caps[1], caps.get(3)) {
        ("run" | "pause" | "cont", _) if of_test => Some(Step::Framing),
        ("pass", _) if of_test => Some(Step::Pass),
        ("skip", _) if of_test => Some(Step::Skip),
        ("fail", _) if of_test => Some(Step::Fail),
        ("output", Some(output)) => {
            let output = output.as_str().replace("\\t", "\t");
            text_step(output.strip_suffix("\\n").unwrap_or(&output))
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
        // The last ten lines of a failure are shown whole, passing tests' among them, and the note says so:
        // `--- PASS ×37` alone over three more `--- PASS` lines read as a miscount.
        assert!(
            text.starts_with(
                "… 75 lines of tests not shown: === RUN/PAUSE/CONT ×38, --- PASS ×37; 6 more shown\n\
                 --- PASS: TestCase37"
            ),
            "{text}"
        );
        assert!(text.contains("--- FAIL: TestBad (0.00s)\n"), "{text}");
    }

    #[test]
    fn after_a_failure_what_passing_tests_logged_goes_counted_and_the_failure_stays() {
        let mut raw = String::from("=== RUN   TestOK\n--- PASS: TestOK (0.00s)\n=== RUN   TestBad\n");
        raw += "    bad_test.go:6: got 7, want 99\n--- FAIL: TestBad (0.00s)\n";
        raw += "=== RUN   TestSub\n=== RUN   TestSub/a\n    sub_test.go:3: sub log\n";
        raw += "=== RUN   TestSub/b\n    sub_test.go:4: broke\n--- FAIL: TestSub (0.00s)\n";
        raw += "    --- PASS: TestSub/a (0.00s)\n    --- FAIL: TestSub/b (0.00s)\n=== RUN   TestChatty\n";
        raw += &(0..300).map(|i| format!("    chatty_test.go:7: noise line {i}\n")).collect::<String>();
        raw += "--- PASS: TestChatty (0.00s)\nFAIL\nFAIL\texample.com/qa\t0.005s\nFAIL\n";
        let text = crate::compress("go test -v ./...", &raw, 1).text;
        assert!(
            // The last ten lines of a failure are shown whole: noise lines 294 to 299 among them.
            text.contains("… 295 log lines of passing tests not shown: TestSub/a ×1, TestChatty ×294\n"),
            "{text}"
        );
        for kept in [
            "    bad_test.go:6: got 7, want 99",
            "--- FAIL: TestBad",
            "    sub_test.go:4: broke",
            "FAIL\texample.com/qa",
        ] {
            assert!(text.contains(kept), "{kept}: {text}");
        }
        assert!(!text.contains("noise line 293") && text.contains("noise line 294"), "{text}");
        // A passing run keeps what its tests logged (cut like any long output, not counted away).
        let passing = raw.replace("FAIL", "PASS");
        let text = crate::compress("go test -v ./...", &passing, 0).text;
        assert!(text.contains("noise line 0") && !text.contains("log lines of passing"), "{text}");
    }

    #[test]
    fn a_failure_piped_away_from_the_exit_code_still_folds_passing_and_skipped_tests_logs() {
        // `go test -v ./... | cat` exits 0 whatever failed. A skipped test's reason, its `=== RUN` and
        // `--- SKIP` lines counted away, read as the failing subtest's output above it.
        let mut raw = String::from("=== RUN   TestNoisy\n");
        raw += &(0..50).map(|i| format!("    qa_test.go:7: passing log line {i}\n")).collect::<String>();
        raw += "--- PASS: TestNoisy (0.00s)\n=== RUN   TestQASub\n=== RUN   TestQASub/ok\n";
        raw += "    qa_test.go:17: sub ok log\n=== RUN   TestQASub/bad\n    qa_test.go:18: QA_SUB_FATAL\n";
        raw += "--- FAIL: TestQASub (0.00s)\n    --- PASS: TestQASub/ok (0.00s)\n";
        raw += "    --- FAIL: TestQASub/bad (0.00s)\n=== RUN   TestQASkip\n    qa_test.go:21: QA skip reason\n";
        raw += "--- SKIP: TestQASkip (0.00s)\n";
        raw += &(0..8).map(|i| format!("=== RUN   TestMore{i}\n--- PASS: TestMore{i} (0.00s)\n")).collect::<String>();
        raw += "FAIL\nFAIL\tqa/mime/quotedprintable\t0.097s\nFAIL\n";
        let text = crate::compress("go test -v ./... 2>&1 | cat", &raw, 0).text;
        assert!(
            text.contains(
                "… 52 log lines of passing or skipped tests not shown: TestNoisy ×50, TestQASub/ok ×1, TestQASkip ×1\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("    qa_test.go:18: QA_SUB_FATAL\n--- FAIL: TestQASub (0.00s)\n    --- FAIL: TestQASub/bad (0.00s)\nFAIL\n"),
            "nothing under the failing subtest but its own lines: {text}"
        );
    }

    #[test]
    fn a_failing_subtests_message_stays_under_its_own_run_line() {
        // QA: two subtests of one loop failed with `my_test.go:25:` and `:22:`; their `=== RUN` lines were
        // counted away, so both messages sat above the parent's `--- FAIL` with nothing saying whose they were.
        let cases = ["int", "string", "float", "bool", "hex-string", "bad-string"];
        let mut raw = String::from("=== RUN   TestToIntE\n");
        for case in cases {
            raw += &format!("=== RUN   TestToIntE/{case}\n");
            match case {
                "hex-string" => raw += "    my_test.go:25: ToIntE(0x1F) = 31, want 99\n",
                "bad-string" => raw += "    my_test.go:22: ToIntE(eight) error: unable to cast\n",
                _ => {}
            }
        }
        raw += "--- FAIL: TestToIntE (0.00s)\n";
        for case in cases {
            let verdict = if case.ends_with("-string") { "FAIL" } else { "PASS" };
            raw += &format!("    --- {verdict}: TestToIntE/{case} (0.00s)\n");
        }
        raw +=
            &(0..30).map(|i| format!("=== RUN   TestOther{i}\n--- PASS: TestOther{i} (0.00s)\n")).collect::<String>();
        raw += "FAIL\nFAIL\tgithub.com/spf13/cast\t0.050s\nFAIL\n";
        let text = crate::compress("go test -v ./...", &raw, 1).text;
        assert!(
            text.starts_with(
                "=== RUN   TestToIntE\n… 61 lines of tests not shown: === RUN/PAUSE/CONT ×31, --- PASS ×30; 10 more shown\n\
                 === RUN   TestToIntE/hex-string\n    my_test.go:25: ToIntE(0x1F) = 31, want 99\n\
                 === RUN   TestToIntE/bad-string\n    my_test.go:22: ToIntE(eight) error: unable to cast\n\
                 --- FAIL: TestToIntE (0.00s)\n    --- FAIL: TestToIntE/hex-string (0.00s)\n"
            ),
            "{text}"
        );
        // The subtests' verdicts all go or all stay: here the failure's closing lines do not reach them.
        let passes = text.lines().filter(|l| l.starts_with("    --- PASS: TestToIntE/")).count();
        assert!(passes == 0 || passes == 4, "{text}");
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
            (event("run", Some("TestA"), None), Some(Step::Framing)),
            (event("output", Some("TestA"), Some("=== RUN   TestA\\n")), Some(Step::Framing)),
            (event("output", Some("TestA/x"), Some("    --- PASS: TestA/x (0.00s)\\n")), Some(Step::Pass)),
            (event("pass", Some("TestA"), None), Some(Step::Pass)),
            (event("skip", Some("TestS"), None), Some(Step::Skip)),
            (event("output", Some("TestB"), Some("    b_test.go:9: got 1, want 2\\n")), None),
            (event("output", Some("TestB"), Some("--- FAIL: TestB (0.00s)\\n")), Some(Step::Fail)),
            (event("fail", Some("TestB"), None), Some(Step::Fail)),
            (event("output", None, Some("FAIL\\texample.com/p\\t0.01s\\n")), Some(Step::Fail)),
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
