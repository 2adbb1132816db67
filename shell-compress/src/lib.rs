//! Compresses the output of a shell command for an AI agent's context window without hiding a failure.
//!
//! The daemon runs a command, captures stdout and stderr interleaved, and calls [`compress`]. When the result
//! is [`Compressed::shortened`] it archives the raw output and appends a handle to it; this crate does no I/O.
//!
//! Guarantees, for every input:
//! 1. The text is never longer than the raw output: unless it saves at least [`MIN_SAVING`] bytes, the raw
//!    output is returned unchanged with `shortened == false`.
//! 2. Every line that reports an error or a failure (a failing test, one marked by a cross such as `✗` or
//!    `✕`, a panic, TAP's `not ok`) appears verbatim (after colour codes and progress redraws are removed),
//!    never folded into a count, whatever the exit code: a pipeline's or a test script's exit code may hide a
//!    failure. After a non-zero exit, so do every `file:line` location (one printed many times over, like a
//!    `console.log` call site, at least once) and the last lines of output, save runs of stack frames in
//!    node's own code in a program's own report, which a line counts. A search's matches, a file's lines and
//!    a diff's hunks are data, not reports: a long diff's hunks past its budget go whole, their headers
//!    (rustfmt's `Diff in PATH:LINE:` too) with them, and a note names each of their files with a count.
//!    What a passing or skipped Go test logged (`x_test.go:7: …` under `-v`, a skip's reason) is that
//!    test's output, not a report of the failure: after one (a non-zero exit, or a `--- FAIL` line when a
//!    pipe hid the exit code) it goes, counted per test.
//! 3. A non-zero exit code is reported on a final line of its own, `[exit:N]`.
//! 4. The same input always gives the same bytes.
//! 5. Warnings may be summarised (the first few and the first of each further kind in full, plus a count by
//!    kind of the others, which says whether they were left out or shortened); errors never are. A
//!    compiler's warning (cargo, rustc, gcc, clang) is never left out: it keeps at least its message and its
//!    `file:line`, whatever the exit code.
//! 6. A listing (ls, find, pip list, a table, a tree) is compacted, not cut, up to [`Options::listing_budget`];
//!    past it the text says how many entries were left out.
//!
//! Family rules come first; structural rules chosen by the shape of the text (path lists, `file:line:`
//! matches, tables, trees, repeated blocks, progress noise) then apply to any output.
//!
//! A family (`cargo-test`, `git-diff`, `pytest`, …) is detected from the command line alone. Each lives in
//! one module together with its tool's other families: a descriptor with its name, an example command line,
//! its rules and flags, and the module's detection of the programs it knows. The `registry` module lists
//! the family modules in the order detection asks them and says how to add a family.

mod cargo;
mod clean;
mod conflicts;
mod container;
mod detect;
mod diag;
mod family;
mod files;
mod generic;
mod git;
mod go;
mod hunk_budget;
mod js;
mod jvm;
mod native;
mod node_frames;
mod passthrough;
mod plan;
mod python;
mod registry;
mod rules;
mod runner;
mod shape;
mod system;
mod terraform;

use family::Family;
use plan::Plan;

/// The result of [`compress`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compressed {
    /// What the agent sees: compressed output, or the raw output when compression would not pay, followed by
    /// `[exit:N]` when the exit code is non-zero.
    pub text: String,
    /// The detected command family, e.g. `"git-status"`, `"cargo-test"`, `"generic"`, `"passthrough"`.
    pub family: &'static str,
    /// True when anything was removed or rewritten, so the caller should archive the raw output.
    pub shortened: bool,
}

/// Smallest saving, in bytes, worth shortening for: below it the agent gets the raw output, which also pays
/// for the archive handle the caller appends and keeps the token count safely below the raw one.
pub const MIN_SAVING: usize = 64;

/// Settings of [`compress_with`]; [`compress`] uses the defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// About how many tokens a listing may take before it is cut (estimated as characters / [`CHARS_PER_TOKEN`]).
    pub listing_budget: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { listing_budget: 2_000 }
    }
}

impl Options {
    /// The defaults with another listing budget, in tokens.
    pub fn with_listing_budget(listing_budget: usize) -> Self {
        Options { listing_budget }
    }
}

/// At most this many warning lines the rules left as ordinary lines are all shown; past it, cuts count the ones
/// they take.
const WARNINGS_SHOWN: usize = 20;

/// Characters per token assumed for budgets: o200k averages about four on paths, tables and code, so three
/// errs on the side of a listing that fits.
pub const CHARS_PER_TOKEN: usize = 3;

pub use detect::{Program, programs, simple_commands};

/// Compresses `output`, the interleaved stdout and stderr of `command_line`, which exited with `exit_code`,
/// with the default [`Options`].
pub fn compress(command_line: &str, output: &str, exit_code: i32) -> Compressed {
    compress_with(command_line, output, exit_code, &Options::default())
}

/// [`compress`] with explicit [`Options`].
pub fn compress_with(command_line: &str, output: &str, exit_code: i32, options: &Options) -> Compressed {
    let family = detect::detect(command_line);
    if *family == passthrough::PASSTHROUGH {
        return unchanged(output, exit_code, family);
    }
    let lines = clean::lines(output);
    let failed = exit_code != 0;
    let mut plan = Plan::new(&lines);
    family.apply(&mut plan, failed);
    if detect::asks_for_commits(command_line) {
        git::keep_subjects(&mut plan);
    }
    let pattern = detect::search_pattern(command_line);
    let prints_files = detect::prints_files(command_line);
    // Before protection, which would show a left-out hunk's location header and error-looking code after a
    // failure (a formatter's check fails whenever it prints a diff). Not in a search's matches or a printed
    // file, whose lines are what was asked for.
    if pattern.is_none() && !prints_files {
        hunk_budget::apply(&mut plan);
    }
    // Before protection, which would show node's frames among a crash's last lines: their count stands for
    // them. Only in a program's own report: a search's matches and a file's lines are data, kept line by line.
    if family.folds_node_frames && pattern.is_none() && !prints_files {
        node_frames::fold(&mut plan);
    }
    if failed {
        plan.protect_failure();
    } else if pattern.is_none() && !family.listing {
        // An exit code of 0 does not mean nothing failed: `pytest | tail`, `make check || true` and
        // test scripts that only print their verdicts exit 0. A search's matches and a listing's
        // entries are the data asked for, not reports.
        plan.protect_reports();
    }
    if pattern.is_none() && !family.listing {
        // A few warnings among thousands of lines (a journal, a log) are what the agent looks for; a
        // flood of them is cut like any line, each cut saying how many it took.
        plan.protect_few_warnings(WARNINGS_SHOWN);
    }
    let context = shape::Context {
        budget_chars: options.listing_budget * CHARS_PER_TOKEN,
        listing: family.listing,
        pattern: pattern.as_deref(),
        prints_files,
    };
    shape::apply(&mut plan, &context);
    plan.tidy_blanks();
    plan.fold_repeats();
    if plan.similar_folding {
        plan.fold_similar();
    }
    plan.cut_runs();
    let mut text = plan.render();
    push_exit(&mut text, exit_code);
    if text.len() + MIN_SAVING <= output.len() {
        Compressed { text, family: family.name, shortened: true }
    } else {
        unchanged(output, exit_code, family)
    }
}

/// Why compression may owe a line to the agent, whatever the exit code (see [`importance`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Importance {
    /// It reports an error or a failure (a failing test's cross too), a panic or a failed assertion, or reads as
    /// a failure verdict or count: shown verbatim whenever protection applies.
    Failure,
    /// A warning, or a line naming a `file:line` location without a failure's words (a warning's, most often:
    /// `  --> src/m.rs:1:5`, `src/w.c:1:5: warning: …`): owed too, but a flood of them must give way to a
    /// later failure where only some lines can be kept.
    Secondary,
}

/// Whether, and why, compression may owe `line` to the agent whatever the exit code turns out to be. For a
/// caller that can hand only part of a huge output to [`compress`] and must choose which lines of the rest to
/// keep: the same rules then decide what is shown.
pub fn importance(line: &str) -> Option<Importance> {
    if rules::is_error(line) || rules::is_report(line) {
        Some(Importance::Failure)
    } else if rules::is_warning(line) || rules::has_location(line) {
        Some(Importance::Secondary)
    } else {
        None
    }
}

fn unchanged(output: &str, exit_code: i32, family: &Family) -> Compressed {
    let mut text = output.to_string();
    push_exit(&mut text, exit_code);
    Compressed { text, family: family.name, shortened: false }
}

fn push_exit(text: &mut String, exit_code: i32) {
    if exit_code != 0 {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("[exit:{exit_code}]\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn importance_names_the_lines_any_view_may_owe() {
        for line in [
            "error[E0308]: mismatched types",
            "test a::b ... FAILED",
            "thread 'x' panicked",
            "   ✗ middle check",
            "CRITICAL: disk full",
            "[21/50] exit code 1",
            "src/bad.c:9:1: error: expected ';'",
        ] {
            assert_eq!(importance(line), Some(Importance::Failure), "{line}");
        }
        for line in ["warning: unused variable `x`", "src/w.c:1:5: warning: unused variable `x`", "  --> src/m.rs:4:9"]
        {
            assert_eq!(importance(line), Some(Importance::Secondary), "{line}");
        }
        for line in ["   Compiling foo v0.1.0", "test a::b ... ok", "0 errors", "  ✓ renders", ""] {
            assert_eq!(importance(line), None, "{line}");
        }
    }

    #[test]
    fn an_error_overwritten_by_a_progress_redraw_is_shown() {
        let steps: String = (1..=60).map(|i| format!("step {i} ok\n")).collect();
        let out = format!("{steps}error: connection refused to db:5432\rretrying... 100%\n{steps}");
        let text = compress("sh run.sh", &out, 1).text;
        assert!(text.contains("\nerror: connection refused to db:5432\nretrying... 100%\n"), "{text}");
    }

    #[test]
    fn small_output_is_returned_unchanged() {
        let out = compress("git status", "On branch main\nnothing to commit, working tree clean\n", 0);
        assert_eq!(out.text, "On branch main\nnothing to commit, working tree clean\n");
        assert_eq!(out.family, "git-status");
        assert!(!out.shortened);
    }

    #[test]
    fn exit_code_is_appended_on_its_own_line() {
        let out = compress("false", "no newline", 1);
        assert_eq!(out.text, "no newline\n[exit:1]\n");
        assert_eq!(compress("true", "", 0).text, "");
        assert_eq!(compress("false", "", 2).text, "[exit:2]\n");
    }

    #[test]
    fn passthrough_is_untouched_even_when_large() {
        let out_text = "frame\n".repeat(500);
        let out = compress("top -b -n 1", &out_text, 0);
        assert_eq!(out.family, "passthrough");
        assert_eq!(out.text, out_text);
        assert!(!out.shortened);
    }

    #[test]
    fn a_fold_of_distinct_numbered_lines_says_how_they_differ() {
        let raw: String = (1..=5000).map(|i| format!("{i}\n")).collect();
        assert_eq!(compress("seq 1 5000", &raw, 0).text, "1\n… 4998 lines differing only in numbers omitted\n5000\n");
    }

    #[test]
    fn file_names_fold_by_number_only_when_the_numbers_run_without_a_gap() {
        // QA: `git stash pop` listed eleven deleted files sorted by name (victim10, victim11, victim12,
        // victim2, …) and the view said "… 9 lines differing only in numbers omitted" between two of them.
        let entries = |numbers: &[usize]| -> String {
            numbers.iter().map(|i| format!("\tdeleted:    victim{i}.txt\n")).collect()
        };
        let by_name = [10, 11, 12, 2, 3, 4, 5, 6, 7, 8, 9];
        let raw = format!("On branch main\n{}{}", entries(&by_name), "x\n".repeat(40));
        // (`git stash pop` is read as a status now, which lists names; the fold's rule holds for any output.)
        let text = compress("./restore.sh", &raw, 0).text;
        assert!(text.contains(&entries(&by_name)), "{text}");
        // Every number from the first to the last, in order: the fold's ends name them all.
        let raw: String = (13..=60).map(|i| format!("\tdeleted:    migrations/{i:04}_old.py\n")).collect();
        assert_eq!(
            compress("./restore.sh", &raw, 0).text,
            "\tdeleted:    migrations/0013_old.py\n… 46 lines differing only in numbers omitted\n\tdeleted:    migrations/0060_old.py\n"
        );
    }

    #[test]
    fn generic_output_folds_and_cuts() {
        let mut raw = "connecting…\n".repeat(37);
        for i in 0..200 {
            raw.push_str(&format!("row {i} value {}\n", i * 7 % 13));
        }
        let out = compress("./report.sh", &raw, 0);
        assert!(out.shortened);
        assert!(out.text.starts_with("connecting… … (×37)\n"));
        assert!(out.text.contains("lines differing only in numbers omitted"));
        assert!(out.text.contains("row 199"));
    }

    /// Lines shown plus the lines each marker and fold note says it stands for: with nothing dropped for
    /// good, that is the output's line count.
    fn lines_accounted_for(view: &str) -> usize {
        view.lines()
            .map(|line| {
                let count = line.strip_prefix("… ").and_then(|rest| rest.split(' ').next()?.parse().ok());
                match count {
                    Some(n) if line.ends_with(" omitted") || line.contains(" omitted (") => n,
                    _ => line.rsplit_once(" … (×").and_then(|(_, n)| n.strip_suffix(')')?.parse().ok()).unwrap_or(1),
                }
            })
            .sum()
    }

    #[test]
    fn a_log_folding_every_few_lines_is_still_cut_and_every_line_counted() {
        // Levels and workers vary, so runs of one shape are a few lines long: each fold's note used to end the
        // run the cut measures, and 16,000 lines of such a log came back as 10,800.
        let mut raw = String::new();
        for i in 0..3000 {
            let level = match i {
                1717 => "ERROR",
                _ if i % 6 == 5 => "DEBUG",
                _ => "INFO",
            };
            raw.push_str(&format!("10:{:02}:{:02} {level} worker-{} processed item {i}\n", i / 60 % 60, i % 60, i % 4));
            if i == 1000 {
                // Exact copies the cut takes are counted as the lines they are.
                raw.push_str(&"10:16:40 INFO retrying\n".repeat(3));
            }
        }
        raw.push_str(&"10:59:59 INFO idle\n".repeat(3));
        let out = compress("cat app.log", &raw, 0);
        assert!(out.text.lines().count() < 120, "{}", out.text);
        assert!(out.text.contains("ERROR worker-1 processed item 1717"), "{}", out.text);
        assert_eq!(lines_accounted_for(&out.text), raw.lines().count(), "{}", out.text);
    }

    #[test]
    fn a_few_warnings_in_a_long_journal_are_shown_and_a_flood_is_counted_in_its_cuts() {
        // QA: of a journal's 14 `warning:` lines among 30,000, the cuts between its error lines showed one and
        // said nothing of the rest.
        let journal = |warn_every: usize| {
            let mut raw = String::new();
            for i in 0..6000 {
                let what = match i {
                    _ if i % 1500 == 700 => "error: disk quota exceeded".to_string(),
                    _ if i % warn_every == 11 => format!("warning: slow response {i}"),
                    // Words vary line to line, as a journal's do, so no run folds by shape.
                    _ => format!("session opened for user {}", ["ann", "bo", "cy", "di", "ed"][i % 5]),
                };
                raw.push_str(&format!(
                    "Dec 06 10:{:02}:{:02} host sshd[{}]: {what}\n",
                    i / 60 % 60,
                    i % 60,
                    1000 + i % 9
                ));
            }
            raw
        };
        let few = journal(500);
        let out = compress("cat journal.txt", &few, 0);
        for line in few.lines().filter(|line| line.contains("warning:")) {
            assert!(out.text.lines().any(|shown| shown == line), "{line:?} lost:\n{}", out.text);
        }
        let flood = journal(50);
        let out = compress("cat journal.txt", &flood, 0);
        assert_eq!(lines_accounted_for(&out.text), flood.lines().count(), "{}", out.text);
        let shown = out.text.lines().filter(|line| line.contains("warning:")).count();
        let counted: usize = out
            .text
            .lines()
            .filter_map(|line| line.strip_suffix(" warnings)")?.rsplit_once(" (")?.1.parse::<usize>().ok())
            .sum();
        assert_eq!(shown + counted, flood.lines().filter(|line| line.contains("warning:")).count(), "{}", out.text);
    }

    #[test]
    fn failure_reports_survive_an_exit_code_of_zero() {
        // A pipeline's exit code is its last command's: `make check | tail`, `prove t/ | head` exit 0.
        let mut automake = String::new();
        for i in 1..=100 {
            automake.push_str(&format!("{}: test_{i}\n", if i % 2 == 0 { "FAIL" } else { "PASS" }));
        }
        let mut tap = String::from("1..400\n");
        for i in 1..=400 {
            tap.push_str(&format!("{}ok {i} - widget {i} renders\n", if i % 3 == 0 { "not " } else { "" }));
        }
        let mut compiler = String::new();
        for i in 0..3000 {
            compiler.push_str(&match i % 100 {
                0 => format!("src/mod_{i}.c:{}:5: error: use of undeclared identifier 'sym_{i}'\n", i % 900 + 1),
                _ => format!("  CC src/mod_{i}.o\n"),
            });
        }
        for (command, raw, failing) in [
            ("./run-tests.sh", automake, "FAIL: "),
            ("perl t/basic.t | cat", tap, "not ok "),
            ("make -k 2>&1 | tail -n 5000", compiler, ": error: "),
        ] {
            let out = compress(command, &raw, 0);
            for line in raw.lines().filter(|line| line.contains(failing)) {
                assert!(out.text.lines().any(|shown| shown == line), "{command}: {line:?} lost:\n{}", out.text);
            }
        }
        // A commit message or a code line that only says "error" is data: cut like any other line.
        let log: String = (0..300).map(|i| format!("{i:07x} fix error in parser case {i}\n")).collect();
        assert!(compress("git log --oneline", &log, 0).text.lines().count() < 100);
    }

    #[test]
    fn cargo_fmt_check_shows_each_changed_line_as_rustfmt_printed_it() {
        // rustfmt colours its diff; a block of two identical lines (a repeated call) and an empty unchanged
        // line (" ") is file content, not a repeat to count or a paragraph break.
        let block = |n: usize| {
            format!(
                "Diff in /p/src/glob.rs:{n}:\n         }}\n \n\x1b[31m-        if a {{ b }}\n\x1b(B\x1b[m\x1b[32m+        if a {{\n\x1b(B\x1b[m\x1b[32m+            b\n\x1b(B\x1b[m\x1b[32m+        }}\n\x1b(B\x1b[m             push(Token::Any)?;\n             push(Token::Any)?;\n"
            )
        };
        let raw: String = (0..12).map(|i| block(100 * i + 7)).collect();
        let out = compress("cargo fmt --check", &raw, 1);
        assert!(out.shortened, "{}", out.text);
        assert!(!out.text.contains("(×"), "{}", out.text);
        assert!(
            out.text.contains("Diff in /p/src/glob.rs:7:\n         }\n \n-        if a { b }\n+        if a {\n"),
            "{}",
            out.text
        );
        assert!(
            out.text.contains("             push(Token::Any)?;\n             push(Token::Any)?;\nDiff in"),
            "{}",
            out.text
        );
    }

    #[test]
    fn a_test_marked_failing_by_a_cross_is_shown_by_name() {
        // 3,000 passing `✓` lines with five failing tests marked only by their cross, as runners print them.
        for mark in ["✗", "×", "✕", "✖", "✘", "❌"] {
            let mut raw = String::new();
            for i in 0..3000 {
                raw += &match i {
                    900 | 1500 | 1501 | 2200 | 2600 => format!("  {mark} check {i} renders header\n"),
                    _ => format!("  ✓ case {} of suite {} works\n", i * 7 % 11, i % 13),
                };
            }
            raw += "3 suites, 5 failing\n";
            for (command, exit) in [("python3 mk2.py", 1), ("npm test", 1), ("make test", 2), ("./run.sh", 0)] {
                let text = compress(command, &raw, exit).text;
                for i in [900, 1500, 1501, 2200, 2600] {
                    let line = format!("  {mark} check {i} renders header");
                    assert!(text.lines().any(|shown| shown == line), "{command} exit {exit}: {line:?} lost:\n{text}");
                }
            }
        }
        // Failing tests whose names differ only in a number are each a failure, not a fold of similar lines.
        let raw: String = (1..=60).map(|i| format!("  ✗ widget renders variant {i}\n")).collect();
        let text = compress("python3 mk.py", &raw, 1).text;
        assert_eq!(text, raw + "[exit:1]\n");
    }

    #[test]
    fn a_status_line_that_deviates_from_its_run_is_shown() {
        // Four blocks of 200 status lines, one failure in each, and no failure word the rules know.
        let blocks: [(&dyn Fn(usize) -> String, &str); 4] = [
            (
                &|i| format!("host{i} : ok=5 changed=0 unreachable=0 failed=0 skipped=1"),
                "host101 : ok=4 changed=0 unreachable=0 failed=1 skipped=1",
            ),
            (&|i| format!("suite_{i}: 12 passed, 0 failed"), "suite_101: 11 passed, 1 failed"),
            (&|i| format!("[{i}/200] exit code 0"), "[101/200] exit code 1"),
            (&|i| format!("file_{i}.c: 0 errors, 0 warnings"), "file_101.c: 2 errors, 0 warnings"),
        ];
        let mut raw = String::new();
        for (line, failure) in &blocks {
            for i in 1..=200 {
                raw += &if i == 101 { failure.to_string() } else { line(i) };
                raw.push('\n');
            }
        }
        let out = compress("./summary.sh", &raw, 0);
        for (line, failure) in &blocks {
            let around = [
                line(1),
                "… 98 lines differing only in numbers omitted".into(),
                line(100),
                failure.to_string(),
                line(102),
            ];
            assert!(
                out.text.contains(&(around.join("\n") + "\n… 97 lines differing only in numbers omitted\n")),
                "{}",
                out.text
            );
        }
        assert_eq!(out.text.lines().count(), 4 * 7, "{}", out.text);
        assert_eq!(compress("./summary.sh", &raw, 0), out, "deterministic");
    }

    #[test]
    fn a_traceback_keeps_each_frames_own_lines() {
        // pytest prints the same `self = <…>` in each frame of a method's traceback; each belongs to its frame.
        let this = "self = <tests.test_funcs.TestAssoc object at 0x7f5b827bad10>";
        let mut raw = String::from("============ test session starts ============\nplatform linux -- Python 3.12.1\n");
        raw += &format!("tests/test_funcs.py {}F [100%]\n\n", ".".repeat(60));
        raw += "==================== FAILURES ====================\n";
        raw += "_______________ TestAssoc.test_unknown _______________\n\n";
        for frame in 0..3 {
            raw += &format!("{this}\n\n    def step_{frame}(self):\n");
            for k in 0..8 {
                raw += &format!("        value_{k} = compute_{frame}({k})\n");
            }
            raw += &format!(">       self.step_{}()\n\ntests/test_funcs.py:{}: \n", frame + 1, 600 + frame);
            raw += "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n\n";
        }
        raw += "E   AttributeError: step_3\n\ntests/test_funcs.py:603: AttributeError\n";
        raw += "============== 1 failed in 0.31s ==============\n";
        let out = compress("pytest tests/test_funcs.py", &raw, 1);
        assert!(out.shortened);
        assert_eq!(out.text.lines().filter(|line| *line == this).count(), 3, "{}", out.text);
        assert!(!out.text.contains("(×"), "{}", out.text);
    }

    #[test]
    fn failure_facts_survive_cutting() {
        let mut raw = String::new();
        for i in 0..300 {
            raw.push_str(&format!("step {i}\n"));
            if i == 150 {
                raw.push_str("src/job.rs:42:7: something odd\nError: disk quota exceeded\n");
            }
        }
        let out = compress("./job.sh", &raw, 3);
        for needle in ["src/job.rs:42:7: something odd", "Error: disk quota exceeded", "step 299", "step 290"] {
            assert!(out.text.contains(needle), "{needle}");
        }
        assert!(out.text.ends_with("[exit:3]\n"));
    }

    #[test]
    fn a_listing_is_whole_within_its_budget_and_counted_past_it() {
        let raw: String = (0..300).map(|i| format!("pkg-{i:03}    1.{i}.0\n")).collect();
        let whole = compress("pip list", &raw, 0);
        assert!(whole.text.contains("pkg-000") && whole.text.contains("pkg-150") && whole.text.contains("pkg-299"));
        assert!(!whole.text.contains("not shown"));
        let small = compress_with("pip list", &raw, 0, &Options::with_listing_budget(200));
        assert!(small.text.contains("pkg-000") && small.text.contains("pkg-299"), "{}", small.text);
        assert!(small.text.contains(" of 300 rows not shown"), "{}", small.text);
        assert!(small.text.len() < whole.text.len());
    }

    #[test]
    fn deterministic() {
        let raw = "x\n".repeat(100) + "y\n";
        assert_eq!(compress("cargo test", &raw, 101), compress("cargo test", &raw, 101));
    }
}
