//! `cargo build/check/clippy/run`, `cargo test` and `cargo nextest`: one pass handles all three because a
//! test run starts with a build and nextest prints libtest output of failed tests.
//!
//! Dropped, with a note counting them by kind: progress lines (`Compiling x v1`), passing and ignored test
//! lines (the `test result:` and `Summary` lines count them too), a note per test binary. Dropped with a
//! count: test binaries without tests, nextest's run ID. Errors stay
//! whole; warnings beyond the first few are shortened to their message and location lines, whatever the exit
//! code; benchmark results stay.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::detect::skip_options;
use crate::diag::{self, Severity};
use crate::family::{Families, Family};
use crate::generic::GENERIC;
use crate::passthrough::PASSTHROUGH;
use crate::plan::{Mark, NoteAt, Plan};

pub(crate) static BUILD: Family = Family::new("cargo-build", "cargo build --release", plan);
pub(crate) static TEST: Family = Family::new("cargo-test", "cargo test -p foo", plan).test_runner();
pub(crate) static NEXTEST: Family = Family::new("cargo-nextest", "cargo nextest run", plan).test_runner();

/// cargo's families, by subcommand; rustc alone prints what `cargo build` does.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, args| match program {
        "cargo" => Some(subcommand(args)),
        "rustc" => Some(&BUILD),
        _ => None,
    },
    members: &[&BUILD, &TEST, &NEXTEST],
};

fn subcommand(args: &[String]) -> &'static Family {
    let after_toolchain = match args.first() {
        Some(t) if t.starts_with('+') => &args[1..],
        _ => args,
    };
    match skip_options(after_toolchain, &["--color", "-Z", "--config", "-C"]).first().map(String::as_str) {
        Some("build" | "b" | "check" | "c" | "clippy" | "doc" | "d" | "rustc" | "fix" | "install" | "run" | "r") => {
            &BUILD
        }
        Some("test" | "t" | "bench") => &TEST,
        Some("nextest") => &NEXTEST,
        Some("watch") => &PASSTHROUGH,
        _ => &GENERIC,
    }
}

static PROGRESS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^\s*(?:Compiling|Checking|Documenting|Downloaded|Downloading|Updating|Locking|Adding|Fresh|Blocking",
        r"|Fetching|Unpacking|Packaging|Verifying|Archiving|Installing|Replacing|Removing|Updated|Dirty) \S",
    ))
    .expect("progress pattern compiles")
});

static HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\S+:\d+:\d+: )?(error|warning)(?:\[[\w-]+\])?: ").expect("diagnostic pattern compiles")
});

static LIBTEST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^test .+ \.\.\. (ok|ignored|FAILED|bench:)").expect("libtest pattern compiles"));

static NEXTEST_RESULT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s+(PASS|SKIP|FAIL|SIGSEGV|SIGABRT|TIMEOUT|LEAK|FLAKY|TRY \d+ \w+|SLOW) ")
        .expect("nextest pattern compiles")
});

fn plan(plan: &mut Plan, failed: bool) {
    plan.drop_counted_by_kind("progress lines not shown", NoteAt::First, failed, |line| {
        PROGRESS.is_match(line).then(|| line.split_whitespace().next().unwrap_or_default())
    });
    warnings(plan, failed);
    tests(plan, failed);
}

fn severity(line: &str) -> Option<Severity> {
    let caps = HEADER.captures(line)?;
    if line.contains(") generated ") {
        return None;
    }
    Some(if &caps[1] == "error" { Severity::Error } else { Severity::Warning })
}

fn warnings(plan: &mut Plan, failed: bool) {
    let blocks = diag::blocks(plan, severity, |_| false, |line| PROGRESS.is_match(line));
    for block in blocks.iter().filter(|b| b.severity == Severity::Error) {
        plan.set_range(block.lines.clone(), Mark::Must);
    }
    diag::summarize_warnings(
        plan,
        &blocks,
        failed,
        diag::Shorten::ToLocation,
        |_, b| b.lines.start,
        |header| {
            let message = HEADER.find(header).map_or(header, |m| &header[m.end()..]);
            diag::message_kind(message)
        },
    );
}

fn tests(plan: &mut Plan, failed: bool) {
    // A note per test binary, under its header: one under the first binary counting every binary's tests would
    // say that binary ran them all.
    // A passing test's name may hold an error word (`should_panic_on_overflow ... ok`): its verdict says
    // what it is.
    let tail = if failed { plan.failure_tail_start() } else { plan.len() };
    for i in 0..tail {
        if verdict(plan.line(i)).is_some_and(|verdict| matches!(verdict, "ok" | "PASS" | "ignored" | "SKIP")) {
            plan.account(i);
        }
    }
    for binary in binaries(plan) {
        plan.drop_counted_by_kind_in(binary, "tests not shown", NoteAt::First, failed, |line| match verdict(line)? {
            "ok" | "PASS" => Some("passing"),
            "ignored" => Some("ignored"),
            "SKIP" => Some("skipped"),
            _ => None,
        });
    }
    let empty = empty_binaries(plan);
    plan.drop_blocks_counted(&empty, failed, |n| format!("… {n} test binaries without tests not shown"));
    plan.drop_counted("Nextest run ID line not shown", NoteAt::First, failed, |line| {
        line.trim_start().starts_with("Nextest run ID")
    });
    for i in 0..plan.len() {
        let line = plan.line(i);
        if let Some(verdict) = verdict(line) {
            // A benchmark's line is its result: it stays as it is.
            if !matches!(verdict, "ok" | "PASS" | "ignored" | "SKIP" | "bench:") {
                plan.set(i, Mark::Must);
            }
        } else if (line.starts_with("test result: ") || line.trim_start().starts_with("Summary ["))
            && plan.mark(i) != Mark::Drop
        {
            plan.set(i, Mark::Must);
        }
    }
}

/// What a libtest or nextest line says of its test (`ok`, `FAILED`, `bench:`, `PASS`, `SIGSEGV`, …), if it
/// reports one.
fn verdict(line: &str) -> Option<&str> {
    let caps = LIBTEST.captures(line).or_else(|| NEXTEST_RESULT.captures(line))?;
    caps.get(1).map(|m| m.as_str())
}

/// Whether `line` heads a libtest binary's output: `Running unittests src/lib.rs (…)`, `Doc-tests ledger`.
fn is_binary_header(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("Running ") || line.starts_with("Doc-tests ")
}

/// The lines of each test binary's output, from its header to the next, after the build's lines (nextest
/// prints no header per binary: its run is one).
fn binaries(plan: &Plan) -> Vec<Range<usize>> {
    let mut starts: Vec<usize> = (0..plan.len()).filter(|&i| is_binary_header(plan.line(i))).collect();
    starts.insert(0, 0);
    starts.push(plan.len());
    starts.windows(2).map(|w| w[0]..w[1]).collect()
}

/// Test binaries without tests, which print four lines of nothing: their `Running`/`Doc-tests` line,
/// `running 0 tests`, a blank line and an all-zero `test result`.
fn empty_binaries(plan: &Plan) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    for running in (0..plan.len()).filter(|&i| plan.line(i) == "running 0 tests") {
        let result = (running + 1..plan.len()).find(|&j| !plan.line(j).trim().is_empty());
        let Some(result) = result.filter(|&j| plan.line(j).starts_with("test result: ok. 0 passed; 0 failed")) else {
            continue;
        };
        let header = (0..running).rev().find(|&j| !plan.line(j).trim().is_empty());
        let start = header.filter(|&j| is_binary_header(plan.line(j))).unwrap_or(running);
        found.push(start..result + 1);
    }
    found
}

#[cfg(test)]
mod tests {
    use crate::compress;

    #[test]
    fn dropped_progress_and_passing_tests_are_counted_by_kind() {
        let mut raw = String::from("    Updating crates.io index\n");
        raw += &(0..42).map(|i| format!("   Compiling dep{i} v0.1.{i}\n")).collect::<String>();
        raw += "    Finished `test` profile [unoptimized + debuginfo] target(s) in 9.81s\n";
        raw += "     Running unittests src/lib.rs (target/debug/deps/ledger-0b1c)\n\nrunning 312 tests\n";
        raw += "test tests::slow ... ignored\n";
        raw += &(0..310).map(|i| format!("test tests::case_{i} ... ok\n")).collect::<String>();
        raw += "test tests::bad ... FAILED\n";
        raw += "\nfailures:\n    tests::bad\n\ntest result: FAILED. 310 passed; 1 failed; 1 ignored\n";
        let text = compress("cargo test", &raw, 101).text;
        assert!(text.contains("… 43 progress lines not shown: Updating ×1, Compiling ×42\n"), "{text}");
        // The last ten lines of a failure are shown whole, six passing tests among them.
        assert!(
            text.contains(
                "… 305 tests not shown: ignored ×1, passing ×304; 6 more shown\ntest tests::case_304 ... ok\n"
            ),
            "{text}"
        );
        assert!(text.contains("test tests::bad ... FAILED\n"), "{text}");
        // A benchmark's result is what `cargo bench` is run for.
        let raw: String = (0..30).map(|i| format!("test bench_{i} ... bench:   1,{i:03} ns/iter (+/- 5)\n")).collect();
        let text = compress("cargo bench", &(raw.clone() + "\ntest result: ok. 0 passed; 0 failed\n"), 0).text;
        assert!(text.contains("test bench_17 ... bench:   1,017 ns/iter (+/- 5)\n"), "{text}");
    }

    #[test]
    fn a_successful_builds_summarised_warnings_keep_message_and_location() {
        // QA: `cargo clippy` (exit 0) said "… 17 more warnings not shown: …, 2 other kinds", and the two
        // other kinds were the lints on the function just written, with no `file:line`.
        let warning = |message: &str, line: usize| {
            format!(
                "warning: {message}\n    --> src/lib.rs:{line}:5\n     |\n{line} |     code();\n     |     ^^^^\n     |\n     = help: see the lint\n\n"
            )
        };
        let mut raw = String::from("    Checking smallvec v1.16.6 (/p/smallvec)\n");
        raw += &(0..12).map(|i| warning("unexpected `cfg` condition value: `serde`", 100 + i)).collect::<String>();
        raw += &warning("this if-then-else expression returns a bool literal", 2831);
        raw += "warning: `smallvec` (lib) generated 13 warnings\n    Finished `dev` profile in 0.99s\n";
        let text = compress("cargo clippy", &raw, 0).text;
        assert!(text.contains("… 9 more warnings shortened to message and location: "), "{text}");
        for line in 100..103 {
            assert!(text.contains(&format!("`serde`\n    --> src/lib.rs:{line}:5\n")), "{line}: {text}");
        }
        // The nine shortened ones say the same: one line, every location.
        assert!(
            text.contains(
                "warning: unexpected `cfg` condition value: `serde` ×9 (src/lib.rs:103:5, 104:5, 105:5, 106:5, \
                 107:5, 108:5, 109:5, 110:5, 111:5)\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("warning: this if-then-else expression returns a bool literal\n    --> src/lib.rs:2831:5\n"),
            "{text}"
        );
        assert!(text.matches("= help: see the lint").count() < 13, "{text}");
    }

    #[test]
    fn identical_shortened_warnings_are_one_line_with_every_location() {
        let warning = |message: &str, at: &str| {
            format!(
                "warning: {message}\n  --> {at}\n   |\n28 |     return x;\n   |     ^^^^^^^^^\n   |\n   = help: remove `return`\n\n"
            )
        };
        let mut raw = String::from("    Checking app v0.1.0 (/p/app)\n");
        for (n, at) in ["src/a.rs:1:5", "src/a.rs:2:5", "src/a.rs:3:5"].iter().enumerate() {
            raw += &warning(&format!("unused variable: `v{n}`"), at);
        }
        for at in ["src/lib.rs:20:1", "src/lib.rs:28:5", "src/lib.rs:32:9", "src/b.rs:4:1"] {
            raw += &warning("unneeded `return` statement", at);
        }
        // The same kind, another message: shortened on its own line.
        raw += &warning("unused variable: `late`", "src/c.rs:9:9");
        raw += "warning: `app` (lib) generated 8 warnings\n    Finished `dev` profile in 0.50s\n";
        let text = compress("cargo clippy", &raw, 0).text;
        // The first of the kind is shown in full; the three after it are one line with all their locations.
        assert!(text.contains("warning: unneeded `return` statement\n  --> src/lib.rs:20:1\n   |\n"), "{text}");
        assert!(
            text.contains("warning: unneeded `return` statement ×3 (src/lib.rs:28:5, 32:9, src/b.rs:4:1)\n"),
            "{text}"
        );
        assert!(text.contains("warning: unused variable: `late`\n  --> src/c.rs:9:9\n"), "{text}");
        assert!(text.contains("… 4 more warnings shortened to message and location: "), "{text}");
        assert!(!text.contains("src/lib.rs:28:5\n"), "{text}");
        assert!(text.len() < raw.len());
    }

    #[test]
    fn each_binary_has_its_note_and_empty_binaries_are_counted() {
        let binary = |name: &str, tests: usize| {
            let mut out = format!("     Running {name} (target/debug/deps/x-0b1c)\n\nrunning {tests} tests\n");
            out += &(0..tests).map(|i| format!("test {name}::case_{i} ... ok\n")).collect::<String>();
            out + &format!("\ntest result: ok. {tests} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n\n")
        };
        let mut raw = String::from("    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.05s\n");
        raw +=
            &(binary("unittests src/lib.rs", 30) + &binary("unittests src/main.rs", 0) + &binary("tests/api.rs", 20));
        raw += &binary("tests/cli.rs", 0)
            .replace("     Running tests/cli.rs (target/debug/deps/x-0b1c)", "   Doc-tests ledger");
        let text = compress("cargo test", &raw, 0).text;
        // Each binary's passing tests are counted under its own header, not all of them under the first.
        assert!(
            text.contains("     Running unittests src/lib.rs (target/debug/deps/x-0b1c)\n\nrunning 30 tests\n… 30 tests not shown: passing\n"),
            "{text}"
        );
        assert!(text.contains("running 20 tests\n… 20 tests not shown: passing\n"), "{text}");
        // The binaries without tests go, said where the first was.
        assert!(text.contains("… 2 test binaries without tests not shown\n     Running tests/api.rs"), "{text}");
        assert!(!text.contains("running 0 tests") && !text.contains("Doc-tests"), "{text}");

        let mut raw = String::from(
            "────────────\n Nextest run ID 16c0b538-e79d-4345-80ae-738113763758 with nextest profile: default\n",
        );
        raw += "    Starting 40 tests across 2 binaries\n";
        raw += &(0..40).map(|i| format!("        PASS [   0.004s] ledger tests::case_{i}\n")).collect::<String>();
        raw += "────────────\n     Summary [   0.128s] 40 tests run: 40 passed, 0 skipped\n";
        let text = compress("cargo nextest run", &raw, 0).text;
        assert!(text.contains("… 1 Nextest run ID line not shown\n    Starting 40 tests"), "{text}");
    }
}
